"""What each route asks for: a request's JSON values in, the library's own objects out.

An HTTP request to the tracker is a JSON object whose keys are the option
names of the matching command (``decks``, ``remove``, ``shoe``, ``variant``,
``commission``, ``tie_pays``, ``tie_loses``, ``bets``, ``pay``, ``digits``
...).  The bounded reader (:mod:`exactodds.web.reader`) has read it once; the
checks (:mod:`exactodds.web.checks`) refuse a value of the wrong JSON type; the
values then go to the same library calls the command line makes
(:mod:`exactodds.interface`) as they are: a number as a number (whole, or an
exact decimal), a list as a list, never written out as text to be read again.
So a bad value gets the library's one-sentence message either way, and two
requests that mean the same table store the same settings
(:meth:`~exactodds.web.tracker.TableSettings.to_dict`, written from the objects).

>>> settings = odds_settings({"decks": 6, "remove": "A K 7 7 T", "bets": ["banker", "tie"]})
>>> settings.shoe.cards, [bet.name for bet in settings.bets]
(307, ['banker', 'tie'])
>>> odds_settings({"decks": 6, "deck": 8})
Traceback (most recent call last):
...
exactodds.web.reader.RequestError: Unknown option 'deck'; use bets, commission, decks, digits, fee, game, known, pay, remove, rules, shoe, tie_loses, tie_pays, variant.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from exactodds.bets.bet import Bet
from exactodds.errors import ExactOddsError, ShoeError
from exactodds.inputs import MOST_DECKS
from exactodds.interface import (
    build_bets,
    build_dragon_tiger,
    build_rules,
    build_shoe,
    read_game,
)
from exactodds.rules import Rules
from exactodds.shoe import Shoe
from exactodds.web.checks import (
    OptionError,
    check_count,
    check_fields,
    check_flag,
    check_integer,
    check_number,
    check_text,
    check_texts,
    check_type,
)
from exactodds.web.fields import (
    BATCH_FIELDS,
    DRAGON_TIGER_FIELDS,
    EOR_DRAGON_TIGER_FIELDS,
    EOR_FIELDS,
    ODDS_DRAGON_TIGER_FIELDS,
    ODDS_FIELDS,
    TABLE_FIELDS,
)
from exactodds.web.reader import RequestError

if TYPE_CHECKING:
    from exactodds.games.dragon_tiger import DragonTigerTable
    from exactodds.web.tracker import TableSettings

__all__ = [
    "MAX_BATCH_SHOES",
    "MAX_DIGITS",
    "MAX_EOR_CARDS",
    "BatchSettings",
    "EorSettings",
    "OddsSettings",
    "batch_settings",
    "eor_settings",
    "odds_settings",
    "table_settings",
]

#: The most shoes one ``/api/batch`` request may carry.
MAX_BATCH_SHOES = 1000
#: The most cards of a rank ``/api/eor`` removes at a time: on a suited shoe the work grows as
#: the cube of it (every way the cards removed can split into suits), so a request is bounded.
MAX_EOR_CARDS = 16
#: The most digits a response may ask for (as ``--digits`` allows).
MAX_DIGITS = 100
#: What the fields that are not plain strings take, said when a value is of another type.
_DECKS_VALID = 'a whole number such as 8, or its digits "8"'
_SHOE_VALID = 'a spec such as "A=32,2=32,...,K=32" or an object such as {"A": 32, ...}'
_BETS_VALID = 'a string such as "main,dragon7" or an array of bet names'
_PAY_VALID = 'an object such as {"dragon7": 30} or an array of strings such as ["dragon7=30"]'


def _shoe(data: Mapping[str, Any], *, infinite: bool = False, finite_because: str = "") -> Shoe:
    """The shoe ``decks``, ``shoe`` and ``remove`` describe (``null`` is the default).

    ``"infinite"`` decks is an infinite shoe where *infinite* (odds), else refused with
    *finite_because* (eor).
    """
    decks, shoe = data.get("decks"), data.get("shoe")
    return build_shoe(
        None if decks is None else check_number(decks, "decks", _DECKS_VALID),
        None if shoe is None else check_type(shoe, (dict, str), "shoe", _SHOE_VALID),
        check_texts(data["remove"], "remove") if "remove" in data else (),
        files=False,
        most_decks=MOST_DECKS,  # odds and eor: the work does not grow with the shoe
        infinite=infinite,
        **({"finite_because": finite_because} if finite_because else {}),
    )


def _rules(data: Mapping[str, Any]) -> Rules:
    """The rules ``variant``, ``commission``, ``tie_pays``, ``tie_loses`` and ``rules`` say."""
    commission, rules_name, fee = data.get("commission"), data.get("rules"), data.get("fee")
    return build_rules(
        check_text(data.get("variant", "standard"), "variant"),
        None if commission is None else check_number(commission, "commission"),
        check_number(data.get("tie_pays", 8), "tie_pays"),
        check_flag(data.get("tie_loses", False), "tie_loses"),
        None if rules_name is None else check_text(rules_name, "rules"),
        fee=None if fee is None else check_number(fee, "fee"),
        files=False,
    )


def _bets(data: Mapping[str, Any], rules: Rules, custom: Sequence[Bet]) -> list[Bet]:
    """The bets ``bets`` chooses (a selection text, or an array of its words) with ``pay``.

    ``pay`` goes to the library whole: an object is read as a pay table holds it (its
    numbers exact, a bad pay named by the ``pay`` field, its bet and outcome), an array (or
    one string) as ``--pay`` texts.
    """
    selection, pays = _selection_and_pays(data)
    return build_bets(rules, selection, pays, custom=custom)


@dataclass(frozen=True)
class OddsSettings:
    """What ``POST /api/odds`` asks for: the ``odds`` command's options, read.

    ``dragon_tiger``, when given, is ``--game dragon-tiger``'s bets and pays (``rules``,
    ``bets`` and ``known`` then play no part).
    """

    shoe: Shoe
    rules: Rules
    bets: tuple[Bet, ...]
    known: tuple[str, ...]
    digits: int
    dragon_tiger: DragonTigerTable | None = None


def odds_settings(data: Mapping[str, Any], custom: Sequence[Bet] = ()) -> OddsSettings:
    """Read an ``odds`` request; *custom* are the bets the server was started with.

    >>> odds_settings({"shoe": {"A": 4, "K": 4}, "digits": 4}).shoe.cards
    8
    >>> odds_settings({"decks": "infinite"}).shoe.infinite
    True
    >>> odds_settings({"game": "dragon-tiger", "pay": {"tie": 11}}).dragon_tiger.pays["tie"]
    Fraction(11, 1)
    >>> odds_settings({"tie_loses": "yes"})
    Traceback (most recent call last):
    ...
    exactodds.web.reader.RequestError: Option 'tie_loses' is a JSON string; use true or false.
    """
    check_fields(data, ODDS_FIELDS)
    game = read_game(check_text(data.get("game", "baccarat"), "game"))
    shoe = _shoe(data, infinite=True)
    if game == "dragon-tiger":
        table = _dragon_tiger(data, ODDS_FIELDS, ODDS_DRAGON_TIGER_FIELDS)
        digits = check_integer(data.get("digits", 10), "digits", 0, MAX_DIGITS)
        return OddsSettings(shoe, Rules(), (), (), digits, table)
    rules = _rules(data)
    bets = _bets(data, rules, custom)
    known = check_texts(data["known"], "known") if "known" in data else ()
    digits = check_integer(data.get("digits", 10), "digits", 0, MAX_DIGITS)
    return OddsSettings(shoe, rules, tuple(bets), known, digits)


@dataclass(frozen=True)
class EorSettings:
    """What ``POST /api/eor`` asks for: the ``eor`` command's options, read.

    ``dragon_tiger``, when given, is ``--game dragon-tiger``'s bets and pays (``rules`` and
    ``bets`` then play no part).
    """

    shoe: Shoe
    rules: Rules
    bets: tuple[Bet, ...]
    digits: int
    cards: int
    max_tag: int
    dragon_tiger: DragonTigerTable | None = None


def eor_settings(data: Mapping[str, Any], custom: Sequence[Bet] = ()) -> EorSettings:
    """Read an ``eor`` request.

    >>> eor_settings({"decks": 1, "cards": 2}).cards
    2
    >>> eor_settings({"game": "dragon-tiger", "bets": "tie"}).dragon_tiger.bet_names
    ('tie',)
    """
    from exactodds.analysis.removal import DEFAULT_MAX_TAG, INFINITE_REMOVAL

    check_fields(data, EOR_FIELDS)
    game = read_game(check_text(data.get("game", "baccarat"), "game"))
    shoe = _shoe(data, finite_because=INFINITE_REMOVAL)
    digits = check_integer(data.get("digits", 10), "digits", 0, MAX_DIGITS)
    cards = check_integer(data.get("cards", 1), "cards", 1, MAX_EOR_CARDS)
    max_tag = check_integer(data.get("max_tag", DEFAULT_MAX_TAG), "max_tag", 1, 1000)
    if game == "dragon-tiger":
        table = _dragon_tiger(data, EOR_FIELDS, EOR_DRAGON_TIGER_FIELDS)
        return EorSettings(shoe, Rules(), (), digits, cards, max_tag, table)
    rules = _rules(data)
    bets = _bets(data, rules, custom)
    return EorSettings(shoe, rules, tuple(bets), digits, cards, max_tag)


@dataclass(frozen=True)
class BatchSettings:
    """What ``POST /api/batch`` asks for: shoes as ``batch`` reads them, and its options."""

    shoes: tuple[Shoe, ...]
    rules: Rules
    bets: tuple[Bet, ...]
    digits: int
    full: bool


def _batch_shoes(listed: object) -> tuple[Shoe, ...]:
    """``shoes``: a non-empty array of at most :data:`MAX_BATCH_SHOES` shoe objects, each
    countable (the library's sentence, after the shoe's number)."""
    from exactodds.engine.walk import require_countable

    valid = 'a non-empty array of shoes such as [{"A": 32, "2": 32, ..., "K": 32}]'
    shoes = check_type(listed, list, "shoes", valid)
    if not shoes:
        raise RequestError(f"Option 'shoes' is an empty array; use {valid}.")
    advice = f"send at most {MAX_BATCH_SHOES:,} a request (exactodds batch streams any number)"
    check_count(shoes, "shoes", MAX_BATCH_SHOES, "shoes", advice)
    read = []
    for number, item in enumerate(shoes, start=1):
        counts = check_type(item, dict, f"shoes[{number}]", 'an object such as {"A": 32, ...}')
        try:
            shoe = Shoe.from_mapping(counts)
            require_countable(shoe)
        except ExactOddsError as error:
            raise ShoeError(f"Shoe {number}: {error}") from None
        read.append(shoe)
    return tuple(read)


def batch_settings(data: Mapping[str, Any], custom: Sequence[Bet] = ()) -> BatchSettings:
    """Read a ``batch`` request: ``shoes`` is an array of the objects ``batch`` reads per line.

    >>> len(batch_settings({"shoes": [{"A": 6}, {"K": 7}]}).shoes)
    2
    >>> batch_settings({"shoes": [{"A": 6}, {"A": 2}]})
    Traceback (most recent call last):
    ...
    exactodds.errors.ShoeError: Shoe 2: The shoe holds 2 cards; a round is counted as a sequence of 6 cards, so a shoe needs at least 6.
    """
    check_fields(data, BATCH_FIELDS)
    shoes = _batch_shoes(data.get("shoes"))
    rules = _rules(data)
    bets = _bets(data, rules, custom)
    return BatchSettings(
        shoes,
        rules,
        tuple(bets),
        check_integer(data.get("digits", 10), "digits", 0, MAX_DIGITS),
        check_flag(data.get("full", False), "full"),
    )


def table_settings(data: Mapping[str, Any], custom: Sequence[Bet] = ()) -> TableSettings:
    """A table's settings from JSON: read once, checked as ``odds`` checks them, kept as objects.

    ``decks`` is a whole number (``8``) or its digits (``"8"``), as ``odds`` takes it; the
    settings kept are written from the objects read, so requests that mean the same table
    keep the same settings.

    >>> settings = table_settings({"decks": "6", "commission": "4%", "bets": ["tie", "banker"]})
    >>> settings.decks, settings.rules.commission, settings.to_dict()["bets"]
    (6, Fraction(1, 25), 'banker,tie')
    >>> from decimal import Decimal
    >>> settings.to_dict() == table_settings({"decks": 6, "commission": Decimal("0.04"),
    ...                                       "bets": "banker,tie", "tie_pays": "8:1"}).to_dict()
    True
    >>> table_settings({"variant": "ez2"})
    Traceback (most recent call last):
    ...
    exactodds.errors.RulesError: Variant 'ez2' is not valid; use standard, ez or super6.
    """
    from exactodds.inputs import number_of_decks
    from exactodds.web.tracker import TableSettings

    check_fields(data, TABLE_FIELDS)
    game = read_game(check_text(data.get("game", "baccarat"), "game"))
    given = data.get("decks")  # null is the default, as for odds
    decks = number_of_decks(
        8 if given is None else check_number(given, "decks", _DECKS_VALID), ShoeError
    )
    suits = check_flag(data.get("suits", False), "suits")
    if game == "dragon-tiger":
        return TableSettings(decks, suits, dragon_tiger=_dragon_tiger(data))
    rules = _rules(data)
    bets = _bets(data, rules, custom)
    return TableSettings(decks, suits, rules, tuple(bets), tuple(custom))


def _selection_and_pays(
    data: Mapping[str, Any],
) -> tuple[str | tuple[str, ...] | None, Mapping[str, Any] | tuple[str, ...]]:
    """``bets`` (a selection text, or an array of its words) and ``pay`` (an object as a pay
    table holds it, or an array or one string of ``--pay`` texts), read, for either game.

    >>> _selection_and_pays({"bets": ["tie", "big"], "pay": "tie=11"})
    (('tie', 'big'), ('tie=11',))
    """
    selection = data.get("bets")
    if isinstance(selection, list):
        selection = check_texts(selection, "bets")
    elif selection is not None:
        selection = check_type(selection, str, "bets", _BETS_VALID)
    pays: Mapping[str, Any] | tuple[str, ...] = ()
    if "pay" in data:
        pay: dict[str, Any] | list[Any] | str
        pay = check_type(data["pay"], (dict, list, str), "pay", _PAY_VALID)
        pays = pay if isinstance(pay, dict) else check_texts(pay, "pay")
    return selection, pays


def _dragon_tiger(
    data: Mapping[str, Any],
    fields: Sequence[str] = TABLE_FIELDS,
    allowed: Sequence[str] = DRAGON_TIGER_FIELDS,
) -> DragonTigerTable:
    """A Dragon Tiger table's ``bets`` and ``pay``: a field of *fields* not *allowed* given is
    refused, as baccarat's.

    >>> _dragon_tiger({"bets": ["tie", "dragon"], "pay": {"tie": 11}}).pays["tie"]
    Fraction(11, 1)
    >>> _dragon_tiger({"tie_pays": 11})
    Traceback (most recent call last):
    ...
    exactodds.web.checks.OptionError: Option 'tie_pays' is baccarat's; with game dragon-tiger it takes game, decks, suits, bets and pay (such as pay {"tie": 11}).
    """
    for name in fields:
        if name not in allowed and data.get(name) is not None:
            raise OptionError(
                f"Option {name!r} is baccarat's; with game dragon-tiger it takes "
                f'{", ".join(allowed[:-1])} and {allowed[-1]} (such as pay {{"tie": 11}}).'
            )
    selection, pays = _selection_and_pays(data)
    return build_dragon_tiger(selection, pays)
