"""Card-level conditions of bet files: ranks, values, suits, colours and faces of the cards dealt.

A bet file's ``when`` table may hold, beside the round-summary conditions of
:mod:`exactodds.bets.custom`:

=====================================================  ==========================================
``player_first_two``, ``banker_first_two``             the hand's first two cards as an unordered
                                                       pair: ``{ ranks = ["A", "8"] }``,
                                                       ``{ values = [9, 0] }``, ``suited = true``
``player_third``, ``banker_third``                     the hand's third card (one must be dealt):
                                                       a card filter
``player_has``, ``banker_has``, ``winner_has``,        how many cards of the hand (or of the
``loser_has``, ``round_has``                           round) match a card filter: ``count`` is a
                                                       number, ``{ min = , max = }``, ``"all"`` or
                                                       ``"none"`` (at least one by default)
=====================================================  ==========================================

A card filter holds any of ``rank`` (``"7"``, ``"K"``), ``value`` (0-9), ``suit`` (``"H"``),
``colour`` (``"red"`` or ``"black"``) and ``face`` (``"7H"``), each one value or a list; a
card matches when every key given matches.  A tie has no winning or losing hand, so
``winner_has`` and ``loser_has`` never hold on a tie.

>>> condition = card_condition("round_has", {"colour": "red", "count": "all"}, "the test")
>>> condition.view().colours, condition.view().values, condition.view().whole_round
(True, False, True)

A filter on suits or faces is read as a mark, the set of faces it matches: the walk tells
those cards from the rest and nothing more of their suits.

>>> hearts = card_condition("round_has", {"suit": "H", "count": "all"}, "the test")
>>> [sorted(mark) for mark in hearts.view().marks] == [list(range(1, 52, 4))]
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from exactodds.cards import RANKS, SUITS, VALUES, Card, Rank, Suit, parse_cards, parse_rank
from exactodds.engine.cardwalk import CardClass, CardRound, CardView
from exactodds.engine.walk import Winner
from exactodds.errors import BetError, CardError, quoted
from exactodds.inputs import shown, whole_number

__all__ = [
    "CARD_CONDITIONS",
    "CardCondition",
    "CardConditionError",
    "card_condition",
    "merge_views",
]

_HANDS = ("player", "banker", "winner", "loser", "round")
#: The condition keys this module reads.
CARD_CONDITIONS: tuple[str, ...] = (
    "player_first_two",
    "banker_first_two",
    "player_third",
    "banker_third",
    *(f"{hand}_has" for hand in _HANDS),
)
_FILTER_KEYS = ("rank", "value", "suit", "colour", "face")
_TEN_VALUES = frozenset({Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING})
_RED_SUITS = frozenset({Suit.HEARTS, Suit.DIAMONDS})


class CardConditionError(BetError):
    """A card-level condition is malformed."""


@dataclass(frozen=True)
class _Filter:
    """Which cards match: each set is the values allowed, ``None`` for any."""

    ranks: frozenset[Rank] | None = None
    values: frozenset[int] | None = None
    suits: frozenset[Suit] | None = None
    red: bool | None = None
    faces: frozenset[tuple[Rank, Suit]] | None = None

    @property
    def marked(self) -> bool:
        """Whether the filter reads suits or faces: the walk then tells its cards apart as a
        mark (a set of faces), not by their four suits."""
        return self.suits is not None or self.faces is not None

    @cached_property
    def face_set(self) -> frozenset[int]:
        """The faces (``rank * 4 + suit``) the filter matches."""
        return frozenset(
            rank.index * 4 + suit.index
            for rank in RANKS
            for suit in SUITS
            if (self.ranks is None or rank in self.ranks)
            and (self.values is None or VALUES[rank.index] in self.values)
            and (self.suits is None or suit in self.suits)
            and (self.red is None or (suit in _RED_SUITS) is self.red)
            and (self.faces is None or (rank, suit) in self.faces)
        )

    def matches(self, card: CardClass) -> bool:
        if self.marked:
            return self.face_set in card.marks
        if self.values is not None and card.value not in self.values:
            return False
        if self.ranks is not None and _rank_of(card) not in self.ranks:
            return False
        return self.red is None or card.red is self.red

    def view(self) -> CardView:
        if self.marked:
            return CardView(values=False, marks=frozenset({self.face_set}))
        named = set(self.ranks or ())
        return CardView(
            ranks=bool(named & _TEN_VALUES),
            colours=self.red is not None,
            values=bool(named) or self.values is not None,
        )


def _rank_of(card: CardClass) -> Rank | None:
    """The card's rank: told by the class, or by its value for A-9."""
    if card.rank is not None:
        return card.rank
    return RANKS[card.value - 1] if 1 <= card.value <= 9 else None


@dataclass(frozen=True)
class CardCondition:
    """One card-level condition of an outcome: its key and how a round is tested."""

    key: str
    test: Callable[[CardRound], bool]
    needs: CardView
    text: str

    def view(self) -> CardView:
        """What the card walk must tell apart for this condition."""
        return self.needs


def merge_views(views: list[CardView]) -> CardView:
    """The coarsest view that tells apart everything each of *views* does.

    >>> merge_views([CardView(suits=True), CardView(ranks=True, player_first=True)]).ranks
    True
    """
    fields = [name for name in CardView.__dataclass_fields__ if name != "marks"]
    flags = {name: any(getattr(view, name) for view in views) for name in fields}
    return CardView(**flags, marks=frozenset().union(*(view.marks for view in views)))


def card_condition(key: str, value: Any, where: str) -> CardCondition:
    """The condition *key* = *value* of a bet file (*where* places it in messages)."""
    if not isinstance(value, dict):
        raise CardConditionError(
            f"Condition {key} of {where} is {_shown(value)}, not a table; use such as "
            f"{key} = {_EXAMPLES[key]}."
        )
    hand = key.split("_")[0]
    if key.endswith("_first_two"):
        return _first_two(key, hand, value, where)
    if key.endswith("_third"):
        card_filter = _filter(key, value, where, ())
        index = 0 if hand == "player" else 1

        def third(round_: CardRound) -> bool:
            cards = (round_.player, round_.banker)[index]
            return len(cards) == 3 and cards[2] is not None and card_filter.matches(cards[2])

        needs = merge_views([card_filter.view(), CardView(values=False, whole_round=True)])
        return CardCondition(key, third, needs, f"{key} = {_shown(value)}")
    card_filter = _filter(key, value, where, ("count",))
    low, high = _count(key, value.get("count", {"min": 1}), where)
    pick = _HAND_CARDS[hand]

    def has(round_: CardRound) -> bool:
        cards = pick(round_)
        if cards is None:
            return False
        matching = sum(1 for card in cards if card is not None and card_filter.matches(card))
        top = len(cards) if high is None else high
        bottom = len(cards) if low is None else low
        return bottom <= matching <= top

    needs = merge_views([card_filter.view(), CardView(values=False, whole_round=True)])
    return CardCondition(key, has, needs, f"{key} = {_shown(value)}")


def _loser(round_: CardRound) -> tuple[CardClass | None, ...] | None:
    winner = round_.summary.winner
    if winner is Winner.TIE:
        return None
    return round_.banker if winner is Winner.PLAYER else round_.player


def _winner(round_: CardRound) -> tuple[CardClass | None, ...] | None:
    winner = round_.summary.winner
    if winner is Winner.TIE:
        return None
    return round_.player if winner is Winner.PLAYER else round_.banker


_HAND_CARDS: dict[str, Callable[[CardRound], tuple[CardClass | None, ...] | None]] = {
    "player": lambda round_: round_.player,
    "banker": lambda round_: round_.banker,
    "winner": _winner,
    "loser": _loser,
    "round": lambda round_: (*round_.player, *round_.banker),
}
_EXAMPLES = {
    "player_first_two": '{ ranks = ["A", "8"], suited = true }',
    "banker_first_two": "{ values = [9, 0] }",
    "player_third": '{ suit = "H" }',
    "banker_third": '{ rank = "7" }',
    **{f"{hand}_has": '{ colour = "red", count = "all" }' for hand in _HANDS},
}


def _first_two(key: str, hand: str, value: dict[str, Any], where: str) -> CardCondition:
    unknown = set(value) - {"ranks", "values", "suited"}
    if unknown:
        raise CardConditionError(
            f"Condition {key} of {where} has unknown key {quoted(sorted(unknown)[0])}; use "
            "ranks, values and suited."
        )
    ranks = values = None
    if "ranks" in value:
        ranks = sorted(
            _two(key, "ranks", value["ranks"], where, _rank), key=lambda rank: rank.index
        )
    if "values" in value:
        values = sorted(_two(key, "values", value["values"], where, _value))
    suited = value.get("suited")
    if suited is not None and not isinstance(suited, bool):
        raise CardConditionError(
            f"Value {_shown(suited)} for suited in condition {key} of {where} is not valid; use "
            "true or false."
        )
    index = 0 if hand == "player" else 1

    def first_two(round_: CardRound) -> bool:
        cards = (round_.player, round_.banker)[index]
        one, two = cards[0], cards[1]
        if one is None or two is None:  # pragma: no cover - the view always reads them
            return False
        if values is not None and sorted((one.value, two.value)) != values:
            return False
        if (
            ranks is not None
            and sorted(
                (_rank_of(one), _rank_of(two)), key=lambda rank: -1 if rank is None else rank.index
            )
            != ranks
        ):
            return False
        suited_now = (round_.player_suited, round_.banker_suited)[index]
        return suited is None or suited_now is suited

    needs = CardView(
        ranks=bool(set(ranks or ()) & _TEN_VALUES),
        suited=suited is not None,
        values=True,
        player_first=hand == "player",
        banker_first=hand == "banker",
    )
    return CardCondition(key, first_two, needs, f"{key} = {_shown(value)}")


def _two(key: str, name: str, raw: Any, where: str, read: Callable[[Any, str], Any]) -> list[Any]:
    if not isinstance(raw, list) or len(raw) != 2:
        example = '["A", "8"]' if name == "ranks" else "[9, 0]"
        raise CardConditionError(
            f"{name.capitalize()} {_shown(raw)} in condition {key} of {where} is not valid; give "
            f"exactly two, such as {name} = {example}."
        )
    return [read(item, f"{name} of condition {key} of {where}") for item in raw]


def _rank(raw: Any, where: str) -> Rank:
    try:
        return parse_rank(raw)
    except CardError:
        raise CardConditionError(
            f"Rank {_shown(raw)} in the {where} is not a rank; use A 2-9 T J Q K."
        ) from None


def _value(raw: Any, where: str) -> int:
    return whole_number(raw, "value", CardConditionError, minimum=0, maximum=9, within=where)


def _suit(raw: Any, where: str) -> Suit:
    if isinstance(raw, str) and raw.strip().upper() in {suit.symbol for suit in SUITS}:
        return Suit(raw.strip().upper())
    raise CardConditionError(f"Suit {_shown(raw)} in the {where} is not a suit; use S, H, D or C.")


def _face(raw: Any, where: str) -> tuple[Rank, Suit]:
    cards: tuple[Card, ...] = ()
    if isinstance(raw, str):
        try:
            cards = parse_cards(raw)
        except CardError:
            cards = ()
    card = cards[0] if len(cards) == 1 else None
    if card is None or card.suit is None:
        raise CardConditionError(
            f'Face {_shown(raw)} in the {where} is not a card with its suit; use such as "7H" '
            'or "KS".'
        )
    return card.rank, card.suit


def _filter(key: str, value: dict[str, Any], where: str, extra: tuple[str, ...]) -> _Filter:
    unknown = set(value) - {*_FILTER_KEYS, *extra}
    if unknown:
        raise CardConditionError(
            f"Condition {key} of {where} has unknown key {quoted(sorted(unknown)[0])}; use "
            f"{', '.join((*_FILTER_KEYS, *extra))}."
        )
    inner = f"condition {key} of {where}"

    def each(name: str, read: Callable[[Any, str], Any]) -> frozenset[Any] | None:
        if name not in value:
            return None
        raw = value[name]
        items = raw if isinstance(raw, list) and raw else [raw]
        return frozenset(read(item, f"{name} of {inner}") for item in items)

    colour = value.get("colour")
    if colour is not None and colour not in ("red", "black"):
        raise CardConditionError(
            f'Colour {_shown(colour)} in {inner} is not valid; use "red" or "black".'
        )
    return _Filter(
        ranks=each("rank", _rank),
        values=each("value", _value),
        suits=each("suit", _suit),
        red=None if colour is None else colour == "red",
        faces=each("face", _face),
    )


def _count(key: str, raw: Any, where: str) -> tuple[int | None, int | None]:
    """The (min, max) matching cards a count allows; ``None`` stands for every card of the hand."""
    inner = f"the count of condition {key} of {where}"
    if raw == "all":
        return None, None
    if raw == "none":
        return 0, 0
    if isinstance(raw, dict):
        unknown = set(raw) - {"min", "max"}
        if unknown or not raw:
            raise CardConditionError(
                f"Count {_shown(raw)} in condition {key} of {where} is not valid; use a number, "
                '{ min = 2 }, "all" or "none".'
            )
        low = whole_number(
            raw.get("min", 0), "min", CardConditionError, minimum=0, maximum=6, within=inner
        )
        high = whole_number(
            raw.get("max", 6), "max", CardConditionError, minimum=0, maximum=6, within=inner
        )
        if low > high:
            raise CardConditionError(
                f"Count {{ min = {low}, max = {high} }} in condition {key} of {where} is empty; "
                "min must not exceed max."
            )
        return low, high
    if isinstance(raw, str):
        raise CardConditionError(
            f"Count {_shown(raw)} in condition {key} of {where} is not valid; use a number, "
            '{ min = 2 }, "all" or "none".'
        )
    number = whole_number(raw, "count", CardConditionError, minimum=0, maximum=6, within=inner)
    return number, number


def _shown(value: object) -> str:
    if isinstance(value, str):
        return quoted(value, 40)
    return shown(value)
