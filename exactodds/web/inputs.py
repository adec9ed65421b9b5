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

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from exactodds.bets.bet import Bet
from exactodds.errors import ExactOddsError, ShoeError
from exactodds.inputs import json_depth, load_json
from exactodds.interface import build_bets, build_rules, build_shoe
from exactodds.rules import Rules
from exactodds.shoe import Shoe

__all__ = [
    "MAX_BODY_BYTES",
    "MAX_NESTING",
    "BatchSettings",
    "EorSettings",
    "OddsSettings",
    "RequestError",
    "batch_settings",
    "eor_settings",
    "odds_settings",
    "read_json",
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


class RequestError(ExactOddsError):
    """A request body that is not the JSON object an endpoint reads.

    >>> read_json(b"[1, 2")
    Traceback (most recent call last):
    ...
    exactodds.web.inputs.RequestError: The request body is not valid JSON (expecting ',' delimiter at line 1, column 6); send one JSON object.
    """


def _no_constant(name: str) -> Any:
    raise RequestError(f"The request body holds {name}, which is not a number; use finite numbers.")


def read_json(body: bytes, limit: int = MAX_BODY_BYTES) -> dict[str, Any]:
    """The JSON object in a request *body*, read with limits on size and nesting.

    >>> read_json(b'{"decks": 6}')
    {'decks': 6}
    >>> read_json(b"[" * 20 + b"]" * 20)
    Traceback (most recent call last):
    ...
    exactodds.web.inputs.RequestError: The request body nests 20 levels deep; at most 8 are read.
    """
    if len(body) > limit:
        raise RequestError(f"The request body has {len(body):,} bytes; at most {limit:,} are read.")
    try:
        text = body.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise RequestError(
            "The request body is not UTF-8 text; send a UTF-8 JSON object."
        ) from None
    depth = json_depth(text, stop_above=None)
    if depth > MAX_NESTING:
        raise RequestError(
            f"The request body nests {depth} levels deep; at most {MAX_NESTING} are read."
        )
    if not text.strip():
        raise RequestError('The request body is empty; send one JSON object such as {"decks": 8}.')
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        raise RequestError(
            f"The request body is not valid JSON ({error.msg[:1].lower()}{error.msg[1:]} at line {error.lineno}, "
            f"column {error.colno}); send one JSON object."
        ) from None
    except ValueError:  # a number past Python's digit limit: the shared checks below name it
        data = None
    # The checks every input gets, with their sentences: no key named twice, at most 100
    # digits in a number. The body itself is read as plain JSON for the option builders.
    load_json(text, "the request body", RequestError, hint="send one JSON object")
    if not isinstance(data, dict):
        raise RequestError(
            f"The request body is a JSON {_kind(data)}; send one JSON object such as "
            '{"decks": 8}.'
        )
    return data


def _kind(value: object) -> str:
    """The JSON name of *value*'s type."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def _check_keys(data: Mapping[str, Any], allowed: Iterable[str]) -> None:
    names = sorted(allowed)
    for key in data:
        if key not in names:
            raise RequestError(f"Unknown option {key!r}; use {', '.join(names)}.")


def _text(value: Any, name: str) -> str:
    """A JSON scalar as the text the matching command-line option would hold."""
    if isinstance(value, bool) or value is None or isinstance(value, list | dict):
        raise RequestError(f"Option {name!r} is a JSON {_kind(value)}; use a string or a number.")
    # repr of a float is the shortest text that reads back as it, so 0.54 stays "0.54".
    return value if isinstance(value, str) else repr(value)


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
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        shown = json.dumps(value) if not isinstance(value, list | dict) else _kind(value)
        raise RequestError(f"Option {name!r} is {shown}; use a whole number from {low} to {high}.")
    return value


def _pays(value: Any) -> tuple[str, ...]:
    """``pay`` as an object (``{"dragon7": 30, "lucky6": {"three_card_win": 23}}``) or texts."""
    if not isinstance(value, dict):
        return _texts(value, "pay")
    texts: list[str] = []
    for name, pay in value.items():
        if isinstance(pay, dict):
            texts.extend(f"{name}.{outcome}={_text(each, 'pay')}" for outcome, each in pay.items())
        else:
            texts.append(f"{name}={_text(pay, 'pay')}")
    return tuple(texts)


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


ODDS_OPTIONS = (
    "decks",
    "shoe",
    "remove",
    "rules",
    "variant",
    "commission",
    "tie_pays",
    "tie_loses",
    "bets",
    "pay",
    "known",
    "digits",
)


def odds_settings(data: Mapping[str, Any], custom: Sequence[Bet] = ()) -> OddsSettings:
    """Read an ``odds`` request; *custom* are the bets the server was started with.

    >>> odds_settings({"shoe": {"A": 4, "K": 4}, "digits": 4}).shoe.cards
    8
    >>> odds_settings({"tie_loses": "yes"})
    Traceback (most recent call last):
    ...
    exactodds.web.inputs.RequestError: Option 'tie_loses' is a JSON string; use true or false.
    """
    _check_keys(data, ODDS_OPTIONS)
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


EOR_OPTIONS = (*(name for name in ODDS_OPTIONS if name != "known"), "cards", "max_tag")


def eor_settings(data: Mapping[str, Any], custom: Sequence[Bet] = ()) -> EorSettings:
    """Read an ``eor`` request.

    >>> eor_settings({"decks": 1, "cards": 2}).cards
    2
    """
    from exactodds.analysis.removal import DEFAULT_MAX_TAG

    _check_keys(data, EOR_OPTIONS)
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


BATCH_OPTIONS = (
    "shoes",
    "rules",
    "variant",
    "commission",
    "tie_pays",
    "tie_loses",
    "bets",
    "pay",
    "digits",
    "full",
)


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

    _check_keys(data, BATCH_OPTIONS)
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
