"""Exact numbers in, exact numbers out.

Every number a user types is read straight into a :class:`~fractions.Fraction`
(never through a float), and every decimal shown is rounded from the exact
value, half to even, so the last digit shown is always the correctly rounded
one.

>>> parse_number("1/20", "--commission")
Fraction(1, 20)
>>> decimal_string(Fraction(2, 3), 4)
'0.6667'
>>> fraction_string(Fraction(-4, 6))
'-2/3'
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

from exactodds.errors import PayError, RulesError

__all__ = [
    "MAX_EXPONENT",
    "decimal_string",
    "fraction_string",
    "parse_commission",
    "parse_number",
    "parse_pay",
    "percent_string",
    "ratio_strings",
    "square_root_decimal_string",
]

_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")
#: Largest power of ten a number may carry in its exponent (1e30 is far beyond any pay).
MAX_EXPONENT = 30


def _check_exponent(text: str, what: str) -> None:
    match = re.search(r"[eE]([+-]?\d+)$", text)
    if match and abs(int(match.group(1))) > MAX_EXPONENT:
        raise PayError(
            f"{text!r} for {what} is out of range; use a number with an exponent of at most "
            f"{MAX_EXPONENT}."
        )


def parse_number(text: str | int | Fraction, what: str) -> Fraction:
    """Read a number exactly: ``8``, ``8.5``, ``17/2``, ``8:1``, ``5%``.

    ``a:b`` and ``a/b`` both mean a divided by b; a trailing ``%`` divides by
    100.  *what* names the option in the error message.

    >>> parse_number("8:1", "--tie-pays"), parse_number("5%", "--commission")
    (Fraction(8, 1), Fraction(1, 20))
    >>> parse_number("0.1", "x")  # exact, not the float 0.1
    Fraction(1, 10)
    >>> parse_number("eight", "--tie-pays")
    Traceback (most recent call last):
    ...
    exactodds.errors.PayError: 'eight' for --tie-pays is not a number; use a whole number, decimal, fraction or ratio such as 8, 8.5, 17/2 or 8:1.
    """
    if isinstance(text, bool):
        raise PayError(f"{text!r} for {what} is not a number; use a number such as 8 or 1/20.")
    if isinstance(text, (int, Fraction)):
        return Fraction(text)
    original = text
    cleaned = text.strip().replace(" ", "")
    scale = Fraction(1)
    if cleaned.endswith("%"):
        cleaned = cleaned[:-1]
        scale = Fraction(1, 100)
    parts = re.split(r"[:/]", cleaned)
    if len(parts) in (1, 2) and all(_NUMBER.fullmatch(part) for part in parts):
        for part in parts:
            _check_exponent(part, what)
        numerator = Fraction(parts[0])
        denominator = Fraction(parts[1]) if len(parts) == 2 else Fraction(1)
        if denominator == 0:
            raise PayError(
                f"{original!r} for {what} divides by zero; use a ratio such as 8:1 or 17/2."
            )
        return numerator / denominator * scale
    raise PayError(
        f"{original!r} for {what} is not a number; use a whole number, decimal, "
        "fraction or ratio such as 8, 8.5, 17/2 or 8:1."
    )


def parse_pay(text: str | int | Fraction, what: str, *, allow_zero: bool = False) -> Fraction:
    """Read a payout "to 1" exactly and check that it is positive.

    >>> parse_pay("9 : 1", "--tie-pays")
    Fraction(9, 1)
    >>> parse_pay("0", "--tie-pays")
    Traceback (most recent call last):
    ...
    exactodds.errors.PayError: Pay '0' for --tie-pays is not valid; use a positive number such as 8, 8:1, 17/2 or 8.5.
    """
    value = parse_number(text, what)
    if value < 0 or (value == 0 and not allow_zero):
        kind = "a number of at least 0" if allow_zero else "a positive number"
        raise PayError(
            f"Pay {str(text)!r} for {what} is not valid; use {kind} such as 8, 8:1, 17/2 or 8.5."
        )
    return value


def parse_commission(text: str | int | Fraction, what: str | None = None) -> Fraction:
    """Read a commission exactly: ``5%``, ``0.05`` or ``1/20`` (all the same).

    A bare number of 1 or more is refused rather than guessed at, since
    ``5`` could mean 5% or 500%.

    >>> parse_commission("4%")
    Fraction(1, 25)
    >>> parse_commission("5", "--commission")
    Traceback (most recent call last):
    ...
    exactodds.errors.RulesError: Commission '5' for --commission is not valid; use a value from 0 up to but not including 1 (100%), such as 5%, 0.05 or 1/20 (did you mean 5%?).
    """
    value = parse_number(text, what or "the commission")
    if not 0 <= value < 1:
        hint = ""
        if isinstance(text, str) and "%" not in text and 1 <= value < 100:
            hint = f" (did you mean {text.strip()}%?)"
        shown = repr(text) if isinstance(text, str) else fraction_string(value)
        where = f" for {what}" if what else ""
        raise RulesError(
            f"Commission {shown}{where} is not valid; use a value from 0 up to "
            f"but not including 1 (100%), such as 5%, 0.05 or 1/20{hint}."
        )
    return value


def fraction_string(value: Fraction | int) -> str:
    """The exact value as ``"n/d"`` in lowest terms, or ``"n"`` when whole.

    >>> fraction_string(Fraction(10, 4)), fraction_string(Fraction(6, 3))
    ('5/2', '2')
    """
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    return f"{value.numerator}/{value.denominator}"


def _digits_string(scaled: int, digits: int) -> str:
    sign = "-" if scaled < 0 else ""
    magnitude = str(abs(scaled)).rjust(digits + 1, "0")
    if digits == 0:
        return sign + magnitude
    return f"{sign}{magnitude[:-digits]}.{magnitude[-digits:]}"


def decimal_string(value: Fraction | int, digits: int) -> str:
    """The value rounded half to even to *digits* decimal places.

    >>> decimal_string(Fraction(1, 8), 2), decimal_string(Fraction(3, 8), 2)
    ('0.12', '0.38')
    >>> decimal_string(Fraction(-1, 3), 3)
    '-0.333'
    >>> decimal_string(Fraction(1, 3), -1)
    Traceback (most recent call last):
    ...
    ValueError: digits must be at least 0, not -1.
    """
    value = Fraction(value)
    return _rounded(value.numerator, value.denominator, digits)


def _rounded(numerator: int, denominator: int, digits: int) -> str:
    if digits < 0:
        raise ValueError(f"digits must be at least 0, not {digits}.")
    quotient = _half_even(abs(numerator), denominator, digits)
    sign = "-" if numerator < 0 and quotient else ""
    return sign + _digits_string(quotient, digits)


def _half_even(magnitude: int, denominator: int, digits: int) -> int:
    """``magnitude / denominator`` times 10**digits, rounded half to even."""
    scale: int = 10**digits
    quotient, remainder = divmod(magnitude * scale, denominator)
    twice = 2 * remainder
    if twice > denominator or (twice == denominator and quotient & 1):
        quotient += 1
    return quotient


def ratio_strings(numerator: int, denominator: int, digits: int) -> tuple[str, str, str, str]:
    """``numerator/denominator`` and its negation, each exact (``"n/d"``) and rounded.

    The same strings as :func:`fraction_string` and :func:`decimal_string`
    of the Fraction and of its negation, without building either: the batch
    command writes millions of EVs and house edges.  Half-even rounding is
    symmetric, so the negation shares the digits.

    >>> ratio_strings(-10, 4, 3)
    ('-5/2', '-2.500', '5/2', '2.500')
    >>> ratio_strings(6, 3, 0), ratio_strings(1, 10**9, 2)
    (('2', '2', '-2', '-2'), ('1/1000000000', '0.00', '-1/1000000000', '0.00'))
    """
    if digits < 0:
        raise ValueError(f"digits must be at least 0, not {digits}.")
    common = math.gcd(numerator, denominator)
    numerator, denominator = numerator // common, denominator // common
    magnitude = -numerator if numerator < 0 else numerator
    text = str(magnitude) if denominator == 1 else f"{magnitude}/{denominator}"
    quotient = _half_even(magnitude, denominator, digits)
    rounded = _digits_string(quotient, digits)
    negative_text = "-" + text if magnitude else text
    negative_rounded = "-" + rounded if quotient else rounded
    if numerator < 0:
        return negative_text, negative_rounded, text, rounded
    return text, rounded, negative_text, negative_rounded


def percent_string(value: Fraction | int, digits: int) -> str:
    """The value as a percentage with *digits* decimal places.

    >>> percent_string(Fraction(1, 8), 1)
    '12.5%'
    """
    return decimal_string(Fraction(value) * 100, digits) + "%"


def square_root_decimal_string(value: Fraction | int, digits: int) -> str:
    """The square root of a non-negative exact value, correctly rounded.

    Standard deviations are irrational in general, so they are the one figure
    that is only ever shown as a decimal; it is still exact to the last digit.

    >>> square_root_decimal_string(Fraction(2), 6)
    '1.414214'
    >>> square_root_decimal_string(Fraction(1, 4), 2)
    '0.50'
    """
    value = Fraction(value)
    if value < 0:
        raise ValueError(f"cannot take the square root of the negative value {value}.")
    scaled = value * 10 ** (2 * digits)
    floor_root = math.isqrt(scaled.numerator // scaled.denominator)
    # Round up when sqrt(scaled) >= floor_root + 1/2, i.e. 4*scaled >= (2*floor_root + 1)**2;
    # equality would need a rational square root of an odd square over 4, which rounds to even.
    doubled = 2 * floor_root + 1
    if 4 * scaled > doubled * doubled or (4 * scaled == doubled * doubled and floor_root % 2):
        floor_root += 1
    return _digits_string(floor_root, digits)
