"""The checks: small one-purpose validators of the values a request body holds.

In the style of hypothesis' ``internal/validation.py``: each check takes a value read by
:func:`~exactodds.web.reader.read_body` and the JSON field it came from, and returns the
value (narrowed, for the type checker) or refuses it in one sentence that names the field.
A value of the wrong JSON type is a :class:`~exactodds.web.reader.RequestError` (400); a
value of the right type outside its bounds an :class:`OptionError` (422).  What a value
*means* (a card, a pay, a rules name) the library decides, with its own sentence.

>>> check_integer(6, "digits", 0, 100)
6
>>> check_integer("6", "digits", 0, 100)
Traceback (most recent call last):
...
exactodds.web.reader.RequestError: Option 'digits' is "6"; use a whole number from 0 to 100.
>>> check_texts(["K", "9"], "remove"), check_texts("A K", "remove")
(('K', '9'), ('A K',))
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sized
from decimal import Decimal
from typing import Any, TypeVar

from exactodds.errors import ExactOddsError
from exactodds.inputs import shown
from exactodds.numbers import NumberLike
from exactodds.web.reader import RequestError, json_kind

__all__ = [
    "NUMBER_OR_TEXT",
    "OptionError",
    "check_count",
    "check_fields",
    "check_flag",
    "check_integer",
    "check_number",
    "check_pattern",
    "check_text",
    "check_texts",
    "check_type",
    "check_valid_bound",
]

_T = TypeVar("_T")

#: What a number-valued option may be sent as: a JSON number (whole, or a decimal read
#: exactly) or the text the command line takes (``"5%"``, ``"8:1"``, ``"17/2"``).
NUMBER_OR_TEXT = 'a number or a string such as 8, 8.5, "17/2" or "5%"'


class OptionError(ExactOddsError):
    """A value of the right JSON type but outside what is valid (answered with 422).

    >>> check_valid_bound(101, "digits", 0, 100)
    Traceback (most recent call last):
    ...
    exactodds.web.checks.OptionError: Option 'digits' is 101; use a whole number from 0 to 100.
    """


def check_fields(data: Mapping[str, Any], allowed: Iterable[str], within: str = "") -> None:
    """Refuse a field of *data* that is not one of *allowed* (named in the sentence, sorted).

    *within* names the object *data* is, when it is not the body itself.

    >>> check_fields({"cards": "K", "side": "P"}, ("cards", "as"))
    Traceback (most recent call last):
    ...
    exactodds.web.reader.RequestError: Unknown option 'side'; use as, cards.
    >>> check_fields({"card": "K"}, ("cards", "kind"), within="events[2]")
    Traceback (most recent call last):
    ...
    exactodds.web.reader.RequestError: Unknown option 'card' in events[2]; use cards, kind.
    """
    names = sorted(allowed)
    place = f" in {within}" if within else ""
    for key in data:
        if key not in names:
            raise RequestError(f"Unknown option {key!r}{place}; use {', '.join(names)}.")


def check_type(value: object, kind: type[_T] | tuple[type, ...], name: str, valid: str) -> _T:
    """*value* if it is an instance of *kind* (a boolean is never a number), else one sentence.

    *valid* says what the field *name* takes.

    >>> check_type("Table 1", str, "name", 'a string such as "Table 1"')
    'Table 1'
    >>> check_type(True, int, "position", "a place 1 to 3 in the hand")
    Traceback (most recent call last):
    ...
    exactodds.web.reader.RequestError: Option 'position' is a JSON boolean; use a place 1 to 3 in the hand.
    """
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool) and bool not in kinds:
        value_fits = False
    else:
        value_fits = isinstance(value, kinds)
    if not value_fits:
        raise RequestError(f"Option {name!r} is a JSON {json_kind(value)}; use {valid}.")
    return value  # type: ignore[return-value]


def check_valid_bound(value: int, name: str, low: int, high: int) -> int:
    """*value* if ``low <= value <= high``, else :class:`OptionError` naming *name*.

    >>> check_valid_bound(16, "cards", 1, 16)
    16
    """
    if not low <= value <= high:
        raise OptionError(
            f"Option {name!r} is {shown(value)}; use a whole number from {low} to {high}."
        )
    return value


def check_integer(value: object, name: str, low: int, high: int) -> int:
    """*value* if it is a whole JSON number from *low* to *high* (not a boolean, not a decimal).

    >>> check_integer(2, "cards", 1, 16)
    2
    >>> check_integer(True, "cards", 1, 16)
    Traceback (most recent call last):
    ...
    exactodds.web.reader.RequestError: Option 'cards' is true; use a whole number from 1 to 16.
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise RequestError(
            f"Option {name!r} is {shown(value)}; use a whole number from {low} to {high}."
        )
    return check_valid_bound(value, name, low, high)


def check_flag(value: object, name: str) -> bool:
    """*value* if it is ``true`` or ``false``.

    >>> check_flag("yes", "tie_loses")
    Traceback (most recent call last):
    ...
    exactodds.web.reader.RequestError: Option 'tie_loses' is a JSON string; use true or false.
    """
    return check_type(value, bool, name, "true or false")


def check_text(value: object, name: str) -> str:
    """*value* if it is a string.

    >>> check_text(6, "variant")
    Traceback (most recent call last):
    ...
    exactodds.web.reader.RequestError: Option 'variant' is a JSON number; use a string.
    """
    return check_type(value, str, name, "a string")


def check_texts(value: object, name: str) -> tuple[str, ...]:
    """A string, or an array of strings, as the values of a repeated option.

    >>> check_texts(["K", ["Q"]], "remove")
    Traceback (most recent call last):
    ...
    exactodds.web.reader.RequestError: Option 'remove' is a JSON array; use a string or an array of strings.
    """
    valid = "a string or an array of strings"
    if isinstance(value, list):
        return tuple(check_type(item, str, name, valid) for item in value)
    return (check_type(value, str, name, valid),)


def check_number(value: object, name: str, valid: str = NUMBER_OR_TEXT) -> NumberLike:
    """*value* if it is a JSON number (an :class:`int` or an exact :class:`~decimal.Decimal`)
    or a string: the library reads either exactly, and refuses what it cannot read.

    >>> check_number(8, "tie_pays"), check_number("8:1", "tie_pays")
    (8, '8:1')
    >>> check_number([8], "tie_pays")
    Traceback (most recent call last):
    ...
    exactodds.web.reader.RequestError: Option 'tie_pays' is a JSON array; use a number or a string such as 8, 8.5, "17/2" or "5%".
    """
    return check_type(value, (int, Decimal, str), name, valid)


def check_pattern(value: object, pattern: re.Pattern[str], name: str, valid: str) -> str:
    """*value* if it is a string that *pattern* matches whole.

    >>> check_pattern("no spaces", re.compile("[a-z]+"), "key", "letters")
    Traceback (most recent call last):
    ...
    exactodds.web.reader.RequestError: Option 'key' is "no spaces"; use letters.
    """
    if not isinstance(value, str) or not pattern.fullmatch(value):
        raise RequestError(f"Option {name!r} is {shown(value)}; use {valid}.")
    return value


def check_count(items: Sized, name: str, limit: int, noun: str, advice: str = "") -> None:
    """Refuse more than *limit* *noun* in the field *name* (*advice*: what to do instead).

    >>> check_count(["K"] * 65, "cards", 64, "cards", "record at most 64 a request")
    Traceback (most recent call last):
    ...
    exactodds.web.reader.RequestError: Option 'cards' holds 65 cards; record at most 64 a request.
    """
    if len(items) > limit:
        rest = advice or f"send at most {limit:,}"
        raise RequestError(f"Option {name!r} holds {len(items):,} {noun}; {rest}.")
