"""Requests as JSON: hostile bytes in, the library's own objects out.

An HTTP request to the tracker is a JSON object whose keys are the option
names of the matching command (``decks``, ``remove``, ``shoe``, ``variant``,
``commission``, ``tie_pays``, ``tie_loses``, ``bets``, ``pay``, ``digits``
...).  This module reads it once, with limits on size and nesting, and turns
it into the same :class:`~exactodds.shoe.Shoe`, :class:`~exactodds.rules.Rules`
and bets the command line builds, through the same library calls, so a bad
value gets the same one-sentence message either way.

>>> settings = odds_settings({"decks": 6, "remove": "A K 7 7 T", "bets": "banker,tie"})
>>> settings.shoe.cards, [bet.name for bet in settings.bets]
(307, ['banker', 'tie'])
>>> odds_settings({"decks": 6, "deck": 8})
Traceback (most recent call last):
...
exactodds.web.inputs.RequestError: Unknown option 'deck'; use bets, commission, decks, digits, known, pay, remove, rules, shoe, tie_loses, tie_pays, variant.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from exactodds.bets.bet import Bet
from exactodds.errors import ExactOddsError, ShoeError
from exactodds.inputs import json_depth, load_json, number_of_decks, shown
from exactodds.interface import build_bets, build_rules, build_shoe
from exactodds.rules import Rules
from exactodds.shoe import Shoe
from exactodds.web.fields import (
    BATCH_FIELDS,
    EOR_FIELDS,
    ODDS_FIELDS,
    TABLE_FIELDS,
)

if TYPE_CHECKING:
    from exactodds.web.tracker import TableSettings

__all__ = [
    "MAX_BODY_BYTES",
    "MAX_NESTING",
    "BatchSettings",
    "EorSettings",
    "OddsSettings",
    "OptionError",
    "RequestError",
    "batch_settings",
    "check_fields",
    "eor_settings",
    "odds_settings",
    "read_body",
    "table_settings",
]

#: The largest request body read, in bytes; larger ones are refused unread.
MAX_BODY_BYTES = 256 * 1024
#: The deepest nesting of arrays and objects accepted in a request body.
MAX_NESTING = 8
#: The most shoes one ``/api/batch`` request may carry.
MAX_BATCH_SHOES = 1000
#: The most cards of a rank ``/api/eor`` removes at a time: on a suited shoe the work grows as
#: the cube of it (every way the cards removed can split into suits), so a request is bounded.
MAX_EOR_CARDS = 16
#: The most digits a response may ask for (as ``--digits`` allows).
MAX_DIGITS = 100
_SURROGATE = re.compile("[\ud800-\udfff]")


class RequestError(ExactOddsError):
    """A request body that is not the JSON object an endpoint reads.

    >>> read_body(b"[1, 2")
    Traceback (most recent call last):
    ...
    exactodds.web.inputs.RequestError: The request body is not valid JSON (Expecting ',' delimiter at line 1 column 6); send one JSON object.
    """


class OptionError(ExactOddsError):
    """A value of the right JSON type but outside what is valid (answered with 422).

    >>> odds_settings({"digits": 101})
    Traceback (most recent call last):
    ...
    exactodds.web.inputs.OptionError: Option 'digits' is 101; use a whole number from 0 to 100.
    """


def read_body(body: bytes, limit: int = MAX_BODY_BYTES) -> dict[str, Any]:
    """The JSON object in a request *body*: read once, bounded, numbers exact.

    The shared reader :func:`exactodds.inputs.load_json` parses it (no key twice, at most
    100 digits a number, decimals as exact :class:`~decimal.Decimal`); this adds the web's
    tighter nesting limit and refuses text that cannot be stored or echoed (a lone surrogate).

    >>> read_body(b'{"decks": 6, "commission": 0.050000000000000000001}')
    {'decks': 6, 'commission': Decimal('0.050000000000000000001')}
    >>> read_body(b"[" * 20 + b"]" * 20)
    Traceback (most recent call last):
    ...
    exactodds.web.inputs.RequestError: The request body nests more than 8 levels deep; send a flatter object.
    """
    if len(body) > limit:
        raise RequestError(f"The request body has {len(body):,} bytes; at most {limit:,} are read.")
    try:
        text = body.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise RequestError(
            "The request body is not UTF-8 text; send a UTF-8 JSON object."
        ) from None
    if not text.strip():
        raise RequestError('The request body is empty; send one JSON object such as {"decks": 8}.')
    depth = json_depth(text, stop_above=MAX_NESTING)
    if depth > MAX_NESTING:
        raise RequestError(
            f"The request body nests more than {MAX_NESTING} levels deep; send a flatter object."
        )
    data = load_json(text, "the request body", RequestError, hint="send one JSON object")
    if not isinstance(data, dict):
        raise RequestError(
            f"The request body is a JSON {_kind(data)}; send one JSON object such as "
            '{"decks": 8}.'
        )
    _check_text(data)
    return data


def _check_text(data: dict[str, Any]) -> None:
    """Refuse a lone surrogate (``"\\ud800"``) anywhere: no UTF-8 text can hold it."""
    stack: list[Any] = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str) and _SURROGATE.search(item):
            raise RequestError(
                f"The request body holds the text {shown(item)}, with a lone surrogate that "
                "is not a character; send Unicode characters only."
            )


def _kind(value: object) -> str:
    """The JSON name of *value*'s type."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | Decimal):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def check_fields(data: Mapping[str, Any], allowed: Iterable[str]) -> None:
    """Refuse a field of *data* that is not one of *allowed* (named in the sentence, sorted).

    >>> check_fields({"cards": "K", "side": "P"}, ("cards", "as"))
    Traceback (most recent call last):
    ...
    exactodds.web.inputs.RequestError: Unknown option 'side'; use as, cards.
    """
    names = sorted(allowed)
    for key in data:
        if key not in names:
            raise RequestError(f"Unknown option {key!r}; use {', '.join(names)}.")


def _text(value: Any, name: str) -> str:
    """A JSON scalar as the text the matching command-line option would hold.

    A number is its exact decimal text (the reader keeps decimals as :class:`Decimal`), so
    ``0.050000000000000000001`` stays that, as on the command line.
    """
    if isinstance(value, bool) or value is None or isinstance(value, list | dict):
        raise RequestError(f"Option {name!r} is a JSON {_kind(value)}; use a string or a number.")
    return value if isinstance(value, str) else str(value)


def _texts(value: Any, name: str) -> tuple[str, ...]:
    """A string, a number or an array of them, as the texts of a repeated option."""
    if isinstance(value, list):
        return tuple(_text(item, name) for item in value)
    return (_text(value, name),)


def _flag(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise RequestError(f"Option {name!r} is a JSON {_kind(value)}; use true or false.")
    return value


def _integer(value: Any, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RequestError(
            f"Option {name!r} is {shown(value)}; use a whole number from {low} to {high}."
        )
    if not low <= value <= high:
        raise OptionError(
            f"Option {name!r} is {shown(value)}; use a whole number from {low} to {high}."
        )
    return value


def _pays(value: Any) -> Mapping[str, Any] | tuple[str, ...]:
    """``pay`` as the library reads it: an object (``{"dragon7": 30}``) as it is, or texts.

    The object goes to :func:`~exactodds.bets.paytables.read_pays` whole, so its numbers
    arrive exact (whole numbers as :class:`int`, decimals as :class:`~decimal.Decimal`) and a
    bad pay is named by the ``pay`` field and its bet and outcome.
    """
    return value if isinstance(value, dict) else _texts(value, "pay")


def _stored_pays(value: Mapping[str, Any] | tuple[str, ...]) -> dict[str, Any] | list[str]:
    """*value* (read by :func:`_pays` and checked) as JSON a store can keep: decimals as text.

    >>> _stored_pays({"big": Decimal("0.54"), "lucky6": {"three_card_win": 23}})
    {'big': '0.54', 'lucky6': {'three_card_win': 23}}
    """
    if not isinstance(value, Mapping):
        return list(value)
    return {
        name: _stored_pays(pay) if isinstance(pay, Mapping) else _stored_pay(pay)
        for name, pay in value.items()
    }


def _stored_pay(value: Any) -> Any:
    return str(value) if isinstance(value, Decimal) else value


def _shoe(data: Mapping[str, Any]) -> Shoe:
    decks = data.get("decks")
    shoe = data.get("shoe")
    return build_shoe(
        None if decks is None else _text(decks, "decks"),
        shoe if isinstance(shoe, dict) or shoe is None else _text(shoe, "shoe"),
        _texts(data["remove"], "remove") if "remove" in data else (),
        files=False,
    )


def _rules(data: Mapping[str, Any]) -> Rules:
    variant = data.get("variant", "standard")
    commission = data.get("commission")
    rules_name = data.get("rules")
    return build_rules(
        _text(variant, "variant"),
        None if commission is None else _text(commission, "commission"),
        _text(data.get("tie_pays", "8"), "tie_pays"),
        _flag(data.get("tie_loses", False), "tie_loses"),
        None if rules_name is None else _text(rules_name, "rules"),
        files=False,
    )


def _bets(data: Mapping[str, Any], rules: Rules, custom: Sequence[Bet]) -> list[Bet]:
    selection = data.get("bets")
    if isinstance(selection, list):
        selection = ",".join(_texts(selection, "bets"))
    return build_bets(
        rules,
        None if selection is None else _text(selection, "bets"),
        _pays(data["pay"]) if "pay" in data else (),
        custom=custom,
    )


@dataclass(frozen=True)
class OddsSettings:
    """What ``POST /api/odds`` asks for: the ``odds`` command's options, read."""

    shoe: Shoe
    rules: Rules
    bets: tuple[Bet, ...]
    known: tuple[str, ...]
    digits: int


def odds_settings(data: Mapping[str, Any], custom: Sequence[Bet] = ()) -> OddsSettings:
    """Read an ``odds`` request; *custom* are the bets the server was started with.

    >>> odds_settings({"shoe": {"A": 4, "K": 4}, "digits": 4}).shoe.cards
    8
    >>> odds_settings({"tie_loses": "yes"})
    Traceback (most recent call last):
    ...
    exactodds.web.inputs.RequestError: Option 'tie_loses' is a JSON string; use true or false.
    """
    check_fields(data, ODDS_FIELDS)
    shoe = _shoe(data)
    rules = _rules(data)
    bets = _bets(data, rules, custom)
    known = _texts(data["known"], "known") if "known" in data else ()
    digits = _integer(data.get("digits", 10), "digits", 0, MAX_DIGITS)
    return OddsSettings(shoe, rules, tuple(bets), known, digits)


@dataclass(frozen=True)
class EorSettings:
    """What ``POST /api/eor`` asks for: the ``eor`` command's options, read."""

    shoe: Shoe
    rules: Rules
    bets: tuple[Bet, ...]
    digits: int
    cards: int
    max_tag: int


def eor_settings(data: Mapping[str, Any], custom: Sequence[Bet] = ()) -> EorSettings:
    """Read an ``eor`` request.

    >>> eor_settings({"decks": 1, "cards": 2}).cards
    2
    """
    from exactodds.analysis.removal import DEFAULT_MAX_TAG

    check_fields(data, EOR_FIELDS)
    shoe = _shoe(data)
    rules = _rules(data)
    bets = _bets(data, rules, custom)
    return EorSettings(
        shoe,
        rules,
        tuple(bets),
        _integer(data.get("digits", 10), "digits", 0, MAX_DIGITS),
        _integer(data.get("cards", 1), "cards", 1, MAX_EOR_CARDS),
        _integer(data.get("max_tag", DEFAULT_MAX_TAG), "max_tag", 1, 1000),
    )


@dataclass(frozen=True)
class BatchSettings:
    """What ``POST /api/batch`` asks for: shoes as ``batch`` reads them, and its options."""

    shoes: tuple[Shoe, ...]
    rules: Rules
    bets: tuple[Bet, ...]
    digits: int
    full: bool


def batch_settings(data: Mapping[str, Any], custom: Sequence[Bet] = ()) -> BatchSettings:
    """Read a ``batch`` request: ``shoes`` is an array of the objects ``batch`` reads per line.

    >>> len(batch_settings({"shoes": [{"A": 6}, {"K": 7}]}).shoes)
    2
    >>> batch_settings({"shoes": [{"A": 6}, {"A": 2}]})
    Traceback (most recent call last):
    ...
    exactodds.errors.ShoeError: Shoe 2: The shoe holds 2 cards; a round is counted as a sequence of 6 cards, so a shoe needs at least 6.
    """
    from exactodds.engine.walk import require_countable

    check_fields(data, BATCH_FIELDS)
    listed = data.get("shoes")
    if not isinstance(listed, list) or not listed:
        raise RequestError(
            "Option 'shoes' must be a non-empty array of shoes such as "
            '[{"A": 32, "2": 32, ..., "K": 32}].'
        )
    if len(listed) > MAX_BATCH_SHOES:
        raise RequestError(
            f"Option 'shoes' holds {len(listed):,} shoes; send at most {MAX_BATCH_SHOES:,} "
            "a request (exactodds batch streams any number)."
        )
    shoes = []
    for number, item in enumerate(listed, start=1):
        try:
            if not isinstance(item, dict):
                raise RequestError(
                    f'It is a JSON {_kind(item)}; use an object such as {{"A": 32, ...}}.'
                )
            shoe = Shoe.from_mapping(item)
            require_countable(shoe)
        except ExactOddsError as error:
            raise ShoeError(f"Shoe {number}: {error}") from None
        shoes.append(shoe)
    rules = _rules(data)
    bets = _bets(data, rules, custom)
    return BatchSettings(
        tuple(shoes),
        rules,
        tuple(bets),
        _integer(data.get("digits", 10), "digits", 0, MAX_DIGITS),
        _flag(data.get("full", False), "full"),
    )


def _decks_of(value: Any) -> int:
    """A table's ``decks``: a whole number from 1 to :data:`~exactodds.inputs.MAX_DECKS`."""
    return number_of_decks(value, ShoeError)


def table_settings(data: Mapping[str, Any], custom: Sequence[Bet] = ()) -> TableSettings:
    """A table's settings from JSON: read once, checked as ``odds`` checks them, kept as objects.

    >>> settings = table_settings({"decks": "6", "commission": 0.04, "bets": ["banker", "tie"]})
    >>> settings.decks, settings.rules.commission, settings.canonical["bets"]
    (6, Fraction(1, 25), 'banker,tie')
    >>> table_settings({"variant": "ez2"})
    Traceback (most recent call last):
    ...
    exactodds.errors.RulesError: Variant 'ez2' is not valid; use standard, ez or super6.
    """
    from exactodds.web.tracker import TableSettings

    check_fields(data, TABLE_FIELDS)
    decks = _decks_of(data.get("decks", 8))
    suits = _flag(data.get("suits", False), "suits")
    rules = _rules(data)
    bets = _bets(data, rules, custom)
    selection = data.get("bets", "main")
    commission = data.get("commission")
    canonical = {
        "decks": decks,
        "suits": suits,
        "variant": rules.variant.value,
        "commission": None if commission is None else _text(commission, "commission"),
        "tie_pays": _text(data.get("tie_pays", "8"), "tie_pays"),
        "tie_loses": _flag(data.get("tie_loses", False), "tie_loses"),
        "rules": None if data.get("rules") is None else _text(data["rules"], "rules"),
        "bets": ",".join(_texts(selection, "bets")),
        "pay": _stored_pays(_pays(data["pay"])) if "pay" in data else [],
    }
    return TableSettings(decks, suits, rules, tuple(bets), canonical)
