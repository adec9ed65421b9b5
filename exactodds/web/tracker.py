"""A tracked shoe: what was dealt from it, and what is left.

A table is tracked as a sequence of events, each one of: a card dealt (to
nobody in particular, or to the Player or the Banker hand of the round being
dealt), an exposed burn card, an unseen burn card, and the end of a round.
Everything shown (the cards left, the exact odds of the next round, the bead
plate and the big road) is a pure function of the table's settings and its
events, so undo is "forget the last event" and a restart loses nothing.

Past results carry no information about the next round beyond the cards
they removed: the exact odds below come from the cards left alone.

>>> settings = TableSettings(decks=1)
>>> events = [Event("player", "9"), Event("banker", "K"), Event("player", "K"),
...           Event("banker", "5"), Event("end")]
>>> state = table_state(settings, events)
>>> state.shoe.cards, state.rounds[0].winner
(48, 'player')
>>> table_state(settings, [Event("banker", "K")] * 4)
Traceback (most recent call last):
...
exactodds.web.tracker.RoundError: A round has at most 3 Banker cards; end the round before dealing the next one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from exactodds.cards import Card, parse_cards
from exactodds.errors import ExactOddsError
from exactodds.shoe import RANK_SYMBOLS, Shoe

__all__ = [
    "EVENT_KINDS",
    "MAX_DECKS",
    "Event",
    "Round",
    "RoundError",
    "TableSettings",
    "TableState",
    "big_road",
    "table_state",
]

#: What an event can be: a card dealt (``card``, ``player``, ``banker``),
#: a burn card shown (``burn``) or not (``unseen``), or the end of a round.
EVENT_KINDS = ("card", "player", "banker", "burn", "unseen", "end")
#: The most decks a tracked shoe may hold.
MAX_DECKS = 16
#: Rows of the big road before a streak turns right (the "dragon tail").
ROAD_ROWS = 6


class RoundError(ExactOddsError):
    """A round entered with too few or too many cards for a side.

    >>> table_state(TableSettings(), [Event("player", "9"), Event("end")])
    Traceback (most recent call last):
    ...
    exactodds.web.tracker.RoundError: A round needs 2 or 3 Player cards and 2 or 3 Banker cards; this one has 1 Player card and 0 Banker cards.
    """


@dataclass(frozen=True)
class TableSettings:
    """How a table is dealt and which bets to price: ``odds``'s options, as data.

    >>> TableSettings(decks=6, bets="banker,dragon7").odds_request()["bets"]
    'banker,dragon7'
    >>> TableSettings(decks=0)
    Traceback (most recent call last):
    ...
    exactodds.errors.ShoeError: Number of decks 0 is not valid; use a whole number from 1 to 16.
    """

    decks: int = 8
    suits: bool = False
    variant: str = "standard"
    commission: str | None = None
    tie_pays: str = "8"
    tie_loses: bool = False
    rules: str | None = None
    bets: str = "main"
    pay: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        from exactodds.errors import ShoeError

        if (
            isinstance(self.decks, bool)
            or not isinstance(self.decks, int)
            or not (1 <= self.decks <= MAX_DECKS)
        ):
            raise ShoeError(
                f"Number of decks {self.decks!r} is not valid; use a whole number from 1 to "
                f"{MAX_DECKS}."
            )

    def odds_request(self) -> dict[str, Any]:
        """The settings as a ``POST /api/odds`` body (without the cards removed)."""
        data: dict[str, Any] = {
            "decks": self.decks,
            "variant": self.variant,
            "tie_pays": self.tie_pays,
            "tie_loses": self.tie_loses,
            "bets": self.bets,
        }
        if self.commission is not None:
            data["commission"] = self.commission
        if self.rules is not None:
            data["rules"] = self.rules
        if self.pay:
            data["pay"] = list(self.pay)
        return data

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready data, as :meth:`from_data` reads it back."""
        return {
            "decks": self.decks,
            "suits": self.suits,
            "variant": self.variant,
            "commission": self.commission,
            "tie_pays": self.tie_pays,
            "tie_loses": self.tie_loses,
            "rules": self.rules,
            "bets": self.bets,
            "pay": list(self.pay),
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> TableSettings:
        """Settings from JSON data, every value checked the way ``odds`` checks it.

        >>> TableSettings.from_data({"decks": 6, "tie_pays": "9"}).tie_pays
        '9'
        >>> TableSettings.from_data({"variant": "ez2"})
        Traceback (most recent call last):
        ...
        exactodds.errors.RulesError: Variant 'ez2' is not valid; use standard, ez or super6.
        """
        from exactodds.web.inputs import RequestError, odds_settings

        names = ("decks", "suits", "variant", "commission", "tie_pays", "tie_loses", "rules")
        for key in data:
            if key not in (*names, "bets", "pay"):
                raise RequestError(
                    f"Unknown table setting {key!r}; use {', '.join((*names, 'bets', 'pay'))}."
                )
        suits = data.get("suits", False)
        if not isinstance(suits, bool):
            raise RequestError("Table setting 'suits' must be true or false.")
        decks = data.get("decks", 8)
        if not isinstance(decks, int) or isinstance(decks, bool):
            raise RequestError(
                f"Number of decks {decks!r} is not valid; use a whole number from 1 to {MAX_DECKS}."
            )
        base = cls(decks=decks, suits=suits)
        request = {key: value for key, value in data.items() if key != "suits"}
        read = odds_settings(request)  # every value checked once, with the CLI's messages
        bets = data.get("bets", "main")
        pay = data.get("pay", ())
        return cls(
            decks=base.decks,
            suits=suits,
            variant=read.rules.variant.value,
            commission=None if data.get("commission") is None else str(data["commission"]),
            tie_pays=str(data.get("tie_pays", "8")),
            tie_loses=bool(data.get("tie_loses", False)),
            rules=None if data.get("rules") is None else str(data["rules"]),
            bets=",".join(bets) if isinstance(bets, list) else str(bets),
            pay=_pay_texts(pay),
        )


def _pay_texts(pay: Any) -> tuple[str, ...]:
    if isinstance(pay, Mapping):
        texts: list[str] = []
        for name, value in pay.items():
            if isinstance(value, Mapping):
                texts.extend(f"{name}.{outcome}={each}" for outcome, each in value.items())
            else:
                texts.append(f"{name}={value}")
        return tuple(texts)
    if isinstance(pay, str):
        return (pay,)
    return tuple(str(text) for text in pay)


@dataclass(frozen=True)
class Event:
    """One thing that happened at the table: *kind* (see :data:`EVENT_KINDS`) and a card.

    >>> Event("player", "9h").card
    Card(rank=<Rank.NINE: '9'>, suit=<Suit.HEARTS: 'H'>)
    >>> Event("dealt", "9")
    Traceback (most recent call last):
    ...
    exactodds.errors.CardError: Event kind 'dealt' is not valid; use card, player, banker, burn, unseen or end.
    """

    kind: str
    cards: str = ""

    def __post_init__(self) -> None:
        from exactodds.errors import CardError

        if self.kind not in EVENT_KINDS:
            raise CardError(
                f"Event kind {self.kind!r} is not valid; use {', '.join(EVENT_KINDS[:-1])} or "
                f"{EVENT_KINDS[-1]}."
            )
        parsed = parse_cards(self.cards, "the card pad") if self.cards.strip() else ()
        if self.kind in ("unseen", "end"):
            if parsed:
                raise CardError(
                    f"Event kind {self.kind!r} takes no card, but {self.cards!r} was given."
                )
        elif len(parsed) != 1:
            raise CardError(
                f"Event kind {self.kind!r} takes one card, such as K or KS; {self.cards!r} "
                "is not one card."
            )

    @property
    def card(self) -> Card | None:
        """The card this event removed from the shoe, if any."""
        return parse_cards(self.cards)[0] if self.cards.strip() else None


@dataclass(frozen=True)
class Round:
    """A round entered card by card: the Player's and the Banker's cards, and who won."""

    player: tuple[Card, ...]
    banker: tuple[Card, ...]

    @property
    def player_total(self) -> int:
        """The Player's baccarat total (the last digit of the point sum)."""
        return sum(card.rank.value_in_play for card in self.player) % 10

    @property
    def banker_total(self) -> int:
        """The Banker's baccarat total."""
        return sum(card.rank.value_in_play for card in self.banker) % 10

    @property
    def winner(self) -> str:
        """``player``, ``banker`` or ``tie``."""
        if self.player_total == self.banker_total:
            return "tie"
        return "player" if self.player_total > self.banker_total else "banker"

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "player": [card.symbol for card in self.player],
            "banker": [card.symbol for card in self.banker],
            "player_total": self.player_total,
            "banker_total": self.banker_total,
            "winner": self.winner,
        }


@dataclass(frozen=True)
class TableState:
    """What a table's events add up to."""

    shoe: Shoe
    dealt: tuple[Card, ...]
    unseen: int
    rounds: tuple[Round, ...]
    pending_player: tuple[Card, ...]
    pending_banker: tuple[Card, ...]

    def cards_left(self) -> dict[str, int]:
        """Cards left per rank, A to K (unseen burns not taken off: their ranks are unknown)."""
        return dict(zip(RANK_SYMBOLS, self.shoe.rank_counts, strict=True))

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready data (the odds are added by the app)."""
        winners = [one_round.winner for one_round in self.rounds]
        return {
            "cards_left": self.cards_left(),
            "cards_in_shoe": self.shoe.cards - self.unseen,
            "cards_dealt": len(self.dealt),
            "unseen_burns": self.unseen,
            "suits_known": self.shoe.suits_known,
            "rounds": [one_round.as_dict() for one_round in self.rounds],
            "pending": {
                "player": [card.symbol for card in self.pending_player],
                "banker": [card.symbol for card in self.pending_banker],
            },
            "bead_plate": winners,
            "big_road": big_road(winners),
        }


def table_state(settings: TableSettings, events: Sequence[Event]) -> TableState:
    """Replay *events* on a fresh shoe of *settings*."""
    dealt: list[Card] = []
    rounds: list[Round] = []
    hands: dict[str, list[Card]] = {"player": [], "banker": []}
    unseen = 0
    for event in events:
        if event.kind == "unseen":
            unseen += 1
        elif event.kind == "end":
            player, banker = hands["player"], hands["banker"]
            if not (2 <= len(player) <= 3 and 2 <= len(banker) <= 3):
                raise RoundError(
                    "A round needs 2 or 3 Player cards and 2 or 3 Banker cards; this one has "
                    f"{_cards(len(player), 'Player')} and {_cards(len(banker), 'Banker')}."
                )
            rounds.append(Round(tuple(player), tuple(banker)))
            hands = {"player": [], "banker": []}
        else:
            card = event.card
            assert card is not None  # every other kind carries one card (see Event)
            if not settings.suits and card.suit is not None:
                card = Card(card.rank, None)
            dealt.append(card)
            if event.kind in hands:
                hands[event.kind].append(card)
                if len(hands[event.kind]) > 3:
                    raise RoundError(
                        f"A round has at most 3 {event.kind.capitalize()} cards; end the round "
                        "before dealing the next one."
                    )
    shoe = Shoe.standard(settings.decks)
    if not settings.suits:
        shoe = Shoe.from_ranks(dict(zip(RANK_SYMBOLS, shoe.rank_counts, strict=True)))
    if dealt:
        shoe = shoe.remove(dealt)
    return TableState(
        shoe, tuple(dealt), unseen, tuple(rounds), tuple(hands["player"]), tuple(hands["banker"])
    )


def _cards(count: int, side: str) -> str:
    return f"{count} {side} card{'s' if count != 1 else ''}"


def big_road(winners: Sequence[str]) -> list[dict[str, Any]]:
    """The big road: one cell per Player or Banker win, ties counted on the cell before.

    A streak goes down a column; a new winner starts a new column; a streak
    longer than the rows (or blocked below) turns right, the "dragon tail".

    >>> [(c["column"], c["row"], c["winner"], c["ties"]) for c in big_road(
    ...     ["banker", "banker", "tie", "player", "banker"])]
    [(0, 0, 'banker', 0), (0, 1, 'banker', 1), (1, 0, 'player', 0), (2, 0, 'banker', 0)]
    """
    cells: list[dict[str, Any]] = []
    taken: set[tuple[int, int]] = set()
    leading_ties = 0
    streak_column = -1
    column = row = 0
    for winner in winners:
        if winner == "tie":
            if cells:
                cells[-1]["ties"] += 1
            else:
                leading_ties += 1
            continue
        if not cells or cells[-1]["winner"] != winner:
            streak_column += 1
            column, row = streak_column, 0
        elif row + 1 < ROAD_ROWS and (column, row + 1) not in taken and column == streak_column:
            row += 1
        else:
            column += 1
        taken.add((column, row))
        cells.append(
            {
                "column": column,
                "row": row,
                "winner": winner,
                "ties": leading_ties if not cells else 0,
            }
        )
    return cells
