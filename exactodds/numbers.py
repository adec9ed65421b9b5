"""Exact numbers in, exact numbers out.

Every number a user types is read straight into a :class:`~fractions.Fraction`
(never through a float), and every decimal shown is rounded from the exact
value, half to even, so the last digit shown is always the correctly rounded
one.

>>> parse_number("1/20", "`commission`")
Fraction(1, 20)
>>> decimal_string(Fraction(2, 3), 4)
'0.6667'
>>> fraction_string(Fraction(-4, 6))
'-2/3'
"""

from __future__ import annotations

import math
import re
from decimal import Decimal
from fractions import Fraction
from typing import TypeAlias

from exactodds.errors import ExactOddsError, PayError, RulesError, quoted

__all__ = [
    "MAX_DIGITS",
    "MAX_EXPONENT",
    "NumberLike",
    "check_digits",
    "decimal_string",
    "exact_percent_string",
    "fraction_string",
    "not_exact",
    "parse_commission",
    "parse_fee",
    "parse_number",
    "parse_pay",
    "parse_rebate_share",
    "percent_hint",
    "percent_string",
    "ratio_decimal_string",
    "ratio_fraction",
    "ratio_square_root_string",
    "ratio_strings",
    "return_to_player_ratio",
    "square_root_decimal_string",
]

_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")
#: Largest power of ten a number may carry in its exponent (1e30 is far beyond any pay).
MAX_EXPONENT = 30
#: Most digits a whole number (a card count, a number of decks, each part of a pay) may have:
#: 10^100 cards is far past any shoe, and keeps every exact result printable (Python refuses to
#: print an int of more than 4,300 digits).
MAX_DIGITS = 100
#: Loosely written numbers: text, whole numbers, exact fractions and decimals.
NumberLike: TypeAlias = str | int | Fraction | Decimal
_VALID = "use a whole number, decimal, fraction or ratio such as 8, 8.5, 17/2 or 8:1"


def _check_exponent(text: str, original: str, what: str) -> None:
    match = re.search(r"[eE]([+-]?\d+)$", text)
    if match and abs(int(match.group(1))) > MAX_EXPONENT:
        raise PayError(
            f"{quoted(original)} for {what} is out of range; use a number with an exponent of "
            f"at most {MAX_EXPONENT}."
        )


def check_digits(value: int, what: str, error: type[ExactOddsError] = PayError) -> int:
    """*value*, if it has at most :data:`MAX_DIGITS` digits; else *error* says so.

    >>> check_digits(10**99, "`decks`") == 10**99
    True
    >>> check_digits(10**100, "`decks`")
    Traceback (most recent call last):
    ...
    exactodds.errors.PayError: A number of 101 digits for `decks` is too large; use at most 100 digits.
    """
    if -(10**MAX_DIGITS) < value < 10**MAX_DIGITS:
        return value
    size = (
        f"{len(str(abs(value)))} digits"
        if value.bit_length() <= 4 * MAX_DIGITS
        else f"more than {MAX_DIGITS} digits"
    )
    raise error(f"A number of {size} for {what} is too large; use at most {MAX_DIGITS} digits.")


def not_exact(value: float, what: str, valid: str = "") -> str:
    """The sentence refusing a float, which is binary and inexact, with the exact ways to say it.

    >>> not_exact(0.05, "the commission")
    'The float 0.05 for the commission is not exact; pass "0.05" (text) or Fraction(1, 20).'
    """
    if not math.isfinite(value):
        return f"The float {value!r} for {what} is not a number; {valid or _VALID}."
    exact = Fraction(repr(value))
    return (
        f'The float {value!r} for {what} is not exact; pass "{value!r}" (text) or '
        f"Fraction({exact.numerator}, {exact.denominator})."
    )


def _kind(value: object) -> str:
    if value is None:
        return "None"
    return f"{type(value).__name__} {quoted(repr(value), 40)[1:-1]}"


def parse_number(text: NumberLike, what: str) -> Fraction:
    """Read a number exactly: ``8``, ``8.5``, ``17/2``, ``8:1``, ``5%``.

    ``a:b`` and ``a/b`` both mean a divided by b; a trailing ``%`` divides by
    100.  *what* names the option in the error message.  A float is refused:
    it is binary, so 0.1 is not one tenth; pass ``"0.1"`` or ``Fraction(1, 10)``.

    >>> parse_number("8:1", "`tie_pays`"), parse_number("5%", "`commission`")
    (Fraction(8, 1), Fraction(1, 20))
    >>> parse_number("0.1", "x")  # exact, not the float 0.1
    Fraction(1, 10)
    >>> parse_number("eight", "`tie_pays`")
    Traceback (most recent call last):
    ...
    exactodds.errors.PayError: 'eight' for `tie_pays` is not a number; use a whole number, decimal, fraction or ratio such as 8, 8.5, 17/2 or 8:1.
    >>> parse_number(8.5, "tie_pays")
    Traceback (most recent call last):
    ...
    exactodds.errors.PayError: The float 8.5 for tie_pays is not exact; pass "8.5" (text) or Fraction(17, 2).
    """
    if isinstance(text, bool):
        raise PayError(f"{text!r} for {what} is not a number; use a number such as 8 or 1/20.")
    if isinstance(text, int):
        return Fraction(check_digits(text, what))
    if isinstance(text, Fraction):
        check_digits(text.numerator, what)
        check_digits(text.denominator, what)
        return text
    if isinstance(text, float):
        raise PayError(not_exact(text, what))
    if isinstance(text, Decimal):
        text = str(text)
    if not isinstance(text, str):
        raise PayError(f"{_kind(text)} for {what} is not a number; {_VALID}.")
    original = text
    cleaned = text.strip().replace(" ", "")
    scale = Fraction(1)
    if cleaned.endswith("%"):
        cleaned = cleaned[:-1]
        scale = Fraction(1, 100)
    parts = re.split(r"[:/]", cleaned)
    if len(parts) in (1, 2) and all(_NUMBER.fullmatch(part) for part in parts):
        for part in parts:
            _check_exponent(part, original, what)
            digits = sum(character.isdigit() for character in part.partition("e")[0].lower())
            if digits > MAX_DIGITS:
                raise PayError(
                    f"{quoted(original)} for {what} has a number of {digits:,} digits; use at "
                    f"most {MAX_DIGITS} digits."
                )
        numerator = Fraction(parts[0])
        denominator = Fraction(parts[1]) if len(parts) == 2 else Fraction(1)
        if denominator == 0:
            raise PayError(
                f"{quoted(original)} for {what} divides by zero; use a ratio such as 8:1 or 17/2."
            )
        return numerator / denominator * scale
    raise PayError(f"{quoted(original)} for {what} is not a number; {_VALID}.")


def parse_pay(text: NumberLike, what: str, *, allow_zero: bool = False) -> Fraction:
    """Read a payout "to 1" exactly and check that it is positive.

    >>> parse_pay("9 : 1", "`tie_pays`")
    Fraction(9, 1)
    >>> parse_pay("0", "`tie_pays`")
    Traceback (most recent call last):
    ...
    exactodds.errors.PayError: Pay '0' for `tie_pays` is not valid; use a positive number such as 8, 8:1, 17/2 or 8.5.
    """
    value = parse_number(text, what)
    if value < 0 or (value == 0 and not allow_zero):
        kind = "a number of at least 0" if allow_zero else "a positive number"
        raise PayError(
            f"Pay {quoted(str(text))} for {what} is not valid; use {kind} such as 8, 8:1, 17/2 "
            "or 8.5."
        )
    return value


def percent_hint(text: object, value: Fraction) -> str:
    """``" (did you mean 5%?)"`` for a rate given as a bare number from 1 to 100 (``"5"``,
    read as 500%), else ``""``: the end of the sentence refusing it.

    >>> percent_hint("5", Fraction(5)), percent_hint("5%", Fraction(1, 20)), percent_hint(5, 5)
    (' (did you mean 5%?)', '', '')
    """
    if isinstance(text, str) and _NUMBER.fullmatch(text.strip()) and 1 <= value < 100:
        return f" (did you mean {text.strip()}%?)"
    return ""


def parse_commission(text: NumberLike, what: str | None = None) -> Fraction:
    """Read a commission exactly: ``5%``, ``0.05`` or ``1/20`` (all the same).

    A bare number of 1 or more is refused rather than guessed at, since
    ``5`` could mean 5% or 500%.  A float is refused as inexact.

    >>> parse_commission("4%")
    Fraction(1, 25)
    >>> parse_commission("5", "`commission`")
    Traceback (most recent call last):
    ...
    exactodds.errors.RulesError: Commission '5' for `commission` is not valid; use a value from 0 up to but not including 1 (100%), such as 5%, 0.05 or 1/20 (did you mean 5%?).
    >>> parse_commission(0.05)
    Traceback (most recent call last):
    ...
    exactodds.errors.RulesError: The float 0.05 for the commission is not exact; pass "5%", "0.05" or Fraction(1, 20).
    """
    return _parse_rate(text, what, "commission")


def parse_fee(text: NumberLike, what: str | None = None) -> Fraction:
    """Read a fee charged on every bet exactly: ``20%``, ``0.2`` or ``1/5`` (all the same).

    A fee is a rate of the stake, from 0 up to but not including 1 (100%), read as a
    commission is.

    >>> parse_fee("20%")
    Fraction(1, 5)
    >>> parse_fee("-5%", "`fee`")
    Traceback (most recent call last):
    ...
    exactodds.errors.RulesError: Fee '-5%' for `fee` is not valid; use a value from 0 up to but not including 1 (100%), such as 20%, 0.2 or 1/5.
    >>> parse_fee("abc", "`fee`")
    Traceback (most recent call last):
    ...
    exactodds.errors.RulesError: Fee 'abc' for `fee` is not a number; use a rate such as 20%, 0.2 or 1/5.
    """
    return _parse_rate(text, what, "fee")


def parse_rebate_share(text: NumberLike, what: str | None = None) -> Fraction:
    """Read a rebate's share exactly: ``10%``, ``0.1`` or ``1/10`` (all the same).

    A share of the turnover or of the loss paid back, from 0 up to but not including 1
    (100%), read as a fee is.

    >>> parse_rebate_share("1.2%")
    Fraction(3, 250)
    >>> parse_rebate_share("100%", "`rebate`")
    Traceback (most recent call last):
    ...
    exactodds.errors.RulesError: Rebate '100%' for `rebate` is not valid; use a value from 0 up to but not including 1 (100%), such as 10%, 0.1 or 1/10.
    """
    return _parse_rate(text, what, "rebate")


_RATE_EXAMPLES = {
    "commission": ("5%", "0.05", "1/20"),
    "fee": ("20%", "0.2", "1/5"),
    "rebate": ("10%", "0.1", "1/10"),
}


def _parse_rate(text: NumberLike, what: str | None, noun: str) -> Fraction:
    """A rate from 0 up to but not including 1: a commission or a fee (*noun*)."""
    percent_form, decimal_form, fraction_form = _RATE_EXAMPLES[noun]
    examples = f"{percent_form}, {decimal_form} or {fraction_form}"
    where = what or f"the {noun}"
    if isinstance(text, float):
        if not math.isfinite(text):
            raise RulesError(not_exact(text, where, f"a value such as {examples}"))
        exact = Fraction(repr(text))
        percent = exact * 100
        forms = [f'"{fraction_string(percent)}%"'] if percent.denominator == 1 else []
        forms.append(f'"{text!r}"')
        raise RulesError(
            f"The float {text!r} for {where} is not exact; pass {', '.join(forms)} or "
            f"Fraction({exact.numerator}, {exact.denominator})."
        )
    try:
        value = parse_number(text, where)
    except PayError as error:
        if not isinstance(text, str) or "not a number" not in str(error):
            raise RulesError(str(error)) from None
        named = f" for {what}" if what else ""
        raise RulesError(
            f"{noun.capitalize()} {quoted(text)}{named} is not a number; use a rate such as "
            f"{examples}."
        ) from None
    if not 0 <= value < 1:
        hint = percent_hint(text, value)
        shown = quoted(text) if isinstance(text, str) else fraction_string(value)
        where = f" for {what}" if what else ""
        raise RulesError(
            f"{noun.capitalize()} {shown}{where} is not valid; use a value from 0 up to "
            f"but not including 1 (100%), such as {examples}{hint}."
        )
    return value


def return_to_player_ratio(
    numerator: int, denominator: int, fee: Fraction = Fraction(0)
) -> tuple[int, int]:
    """The return to player of a bet whose EV per unit staked is *numerator* / *denominator*.

    A fee charged on every bet, win or lose, is a share *fee* of the stake, so a unit bet
    costs ``1 + fee`` and returns ``1 + EV`` on average: the RTP is ``(1 + EV) / (1 + fee)``,
    as unreduced integers over a positive denominator (*denominator* > 0).  With no fee it
    is ``1 + EV``, one minus the house edge.

    >>> return_to_player_ratio(-1, 100)
    (99, 100)
    >>> Fraction(*return_to_player_ratio(-1, 100, Fraction(1, 5))) == Fraction(99, 120)
    True
    """
    return (denominator + numerator) * fee.denominator, denominator * (
        fee.denominator + fee.numerator
    )


def ratio_fraction(numerator: int, denominator: int) -> Fraction:
    """``Fraction(numerator, denominator)`` of two ints (*denominator* > 0), built with one gcd.

    The same value as the constructor's, for a fraction of a bit of its time: the hot
    paths (an EV read per bet and shoe) hand over exact integers, so the constructor's
    type checks and sign handling are skipped.  Unchecked: a caller passes Python ints and
    a positive denominator.

    >>> ratio_fraction(-6, 8), ratio_fraction(6, 8) == Fraction(6, 8)
    (Fraction(-3, 4), True)
    >>> ratio_fraction(1, 0) == Fraction(1, 0)
    Traceback (most recent call last):
    ...
    ZeroDivisionError: Fraction(1, 0)
    """
    if denominator < 1:
        return Fraction(numerator, denominator)  # its own error or its own sign handling
    divisor = math.gcd(numerator, denominator)
    if divisor != 1:
        numerator //= divisor
        denominator //= divisor
    value = _NEW(Fraction)
    # Fraction's two slots (3.11 to 3.14), set as Fraction._from_coprime_ints sets them.
    value._numerator = numerator  # type: ignore[attr-defined]
    value._denominator = denominator  # type: ignore[attr-defined]
    return value


_NEW = object.__new__


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


def ratio_decimal_string(numerator: int, denominator: int, digits: int) -> str:
    """``numerator / denominator`` (denominator positive, any common factor) rounded half to even.

    The same string as :func:`decimal_string` of the Fraction, without building it:
    the rounding reads the value, not its terms.

    >>> ratio_decimal_string(-30, 8, 1), decimal_string(Fraction(-30, 8), 1)
    ('-3.8', '-3.8')
    >>> ratio_decimal_string(1, 0, 2)
    Traceback (most recent call last):
    ...
    ValueError: denominator must be positive, not 0.
    """
    if denominator <= 0:
        raise ValueError(f"denominator must be positive, not {denominator}.")
    return _rounded(numerator, denominator, digits)


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
    value = Fraction(value)
    return _rounded(value.numerator * 100, value.denominator, digits) + "%"


def exact_percent_string(value: Fraction | int) -> str:
    """*value* as a percentage written exactly: every digit where it ends, else a fraction.

    >>> exact_percent_string(Fraction(1, 20)), exact_percent_string(Fraction(9, 200))
    ('5%', '4.5%')
    >>> exact_percent_string(Fraction(1, 3))
    '100/3%'
    """
    percent = Fraction(value) * 100
    denominator = percent.denominator
    for prime in (2, 5):
        while denominator % prime == 0:
            denominator //= prime
    if denominator != 1:
        return f"{fraction_string(percent)}%"
    digits = 0
    while (percent * 10**digits).denominator != 1:
        digits += 1
    return f"{decimal_string(percent, digits)}%"


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
    return ratio_square_root_string(value.numerator, value.denominator, digits)


def ratio_square_root_string(numerator: int, denominator: int, digits: int) -> str:
    """The square root of ``numerator / denominator`` (both at least 0 and 1), correctly rounded.

    The same string as :func:`square_root_decimal_string` of the Fraction, in integers.

    >>> ratio_square_root_string(8, 4, 6), ratio_square_root_string(9, 36, 2)
    ('1.414214', '0.50')
    >>> ratio_square_root_string(-1, 4, 2)
    Traceback (most recent call last):
    ...
    ValueError: cannot take the square root of the negative value -1/4.
    """
    if denominator <= 0:
        raise ValueError(f"denominator must be positive, not {denominator}.")
    if numerator < 0:
        raise ValueError(
            f"cannot take the square root of the negative value {numerator}/{denominator}."
        )
    scaled = numerator * 10 ** (2 * digits)
    floor_root = math.isqrt(scaled // denominator)
    # Round up when sqrt(scaled / denominator) >= floor_root + 1/2, i.e. when
    # 4 * scaled >= (2 * floor_root + 1)**2 * denominator; equality would need a rational
    # square root of an odd square over 4, which rounds to even.
    doubled = 2 * floor_root + 1
    four = 4 * scaled
    square = doubled * doubled * denominator
    if four > square or (four == square and floor_root % 2):
        floor_root += 1
    return _digits_string(floor_root, digits)
