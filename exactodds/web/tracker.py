"""A tracked shoe: what was dealt from it, and what is left.

A table is tracked as a sequence of events, each one of: a card dealt (to
nobody in particular, or to a place in the Player or the Banker hand of the
round being dealt), an exposed burn card, an unseen burn card, and the end of a
round (or its end as a misdeal).  Everything shown (the cards left, the exact
odds of the next round, the bead plate and the big road) is a pure function of
the table's settings and its events, so undo is "forget the last event" and a
restart loses nothing.

A round is checked against the table's drawing rules when it ends
(:func:`exactodds.rules.round_problem`): a forgotten or extra third card is
refused with the library's sentence, unless the round is ended as a misdeal.

A Dragon Tiger table (``TableSettings(dragon_tiger=...)``, the API's ``"game":
"dragon-tiger"``) deals one card to the Dragon and one to the Tiger: its events are
``dragon`` and ``tiger`` cards (besides cards, burns and misdeals), and a round ends by
itself with its second card, so undo takes back that card and the round is open again.

Past results carry no information about the next round beyond the cards
they removed: the exact odds below come from the cards left alone.

>>> settings = TableSettings(decks=1)
>>> events = [Event("player", "9", 1), Event("banker", "K", 1), Event("player", "K", 2),
...           Event("banker", "5", 2), Event("end")]
>>> state = table_state(settings, events, check_from=0)
>>> state.shoe.cards, state.rounds[0].winner
(48, 'player')
>>> table_state(settings, [Event("player", "9", 1), Event("player", "8", 1)])
Traceback (most recent call last):
...
exactodds.web.tracker.PositionTakenError: Place P1 of this round holds 9 already; undo it first, or tap the next place.
>>> dragon_tiger = TableSettings(decks=1, dragon_tiger=DragonTigerTable())
>>> state = table_state(dragon_tiger, [Event("dragon", "K"), Event("tiger", "5")])
>>> state.shoe.cards, state.rounds[0].winner, state.next_side
(50, 'dragon', 'dragon')
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from exactodds.bets.bet import Bet
from exactodds.bets.catalogue import MAIN_BET_NAMES, available_bets, select_bets
from exactodds.bets.side import side_bets
from exactodds.cards import SUITS, Card, parse_cards
from exactodds.errors import ExactOddsError
from exactodds.games.dragon_tiger import BET_NAMES as DRAGON_TIGER_BETS
from exactodds.games.dragon_tiger import DEFAULT_PAYS as DRAGON_TIGER_PAYS
from exactodds.games.dragon_tiger import DragonTigerTable
from exactodds.inputs import MAX_DECKS, number_of_decks
from exactodds.numbers import decimal_string, fraction_string
from exactodds.rulefiles import resolve_rules_file, shipped_rules_files
from exactodds.rules import Rules, Tableau, next_draw, round_problem
from exactodds.shoe import RANK_SYMBOLS, Shoe

__all__ = [
    "EVENT_KINDS",
    "GAMES",
    "MAX_DECKS",
    "SIDES",
    "DragonTigerRound",
    "Event",
    "PositionTakenError",
    "Round",
    "RoundError",
    "TableSettings",
    "TableState",
    "big_road",
    "placed_events",
    "table_state",
]

#: What an event can be: a card dealt (``card``; to a hand, ``player``, ``banker``, ``dragon``,
#: ``tiger``), a burn card shown (``burn``) or not (``unseen``), the end of a round, or its end
#: as a misdeal.
EVENT_KINDS = ("card", "player", "banker", "dragon", "tiger", "burn", "unseen", "end", "misdeal")
#: The games a table deals, as the API's ``game`` names them.
GAMES = ("baccarat", "dragon-tiger")
#: The hands each game deals to, in dealing order.
SIDES = {"baccarat": ("player", "banker"), "dragon-tiger": ("dragon", "tiger")}
#: Rows of the big road before a streak turns right (the "dragon tail").
ROAD_ROWS = 6
#: Places in a hand: two cards and a third.
HAND_PLACES = 3


class RoundError(ExactOddsError):
    """A round that breaks the drawing rules, or has too few or too many cards for a side.

    >>> table_state(TableSettings(), [Event("player", "9"), Event("end")], check_from=0)
    Traceback (most recent call last):
    ...
    exactodds.web.tracker.RoundError: A round needs 2 or 3 Player cards and 2 or 3 Banker cards; this one has 1 Player card and 0 Banker cards.
    """


class PositionTakenError(RoundError):
    """A card sent to a place of the round that holds a card already (answered with 409)."""


@dataclass(frozen=True)
class TableSettings:
    """How a table is dealt and what to price there, read once and kept as objects.

    ``decks`` and ``suits`` fix the shoe; ``rules`` and ``bets`` are the library's own
    objects; ``custom`` are the server's own bets (those its ``--bet-file`` loaded), which
    the bets may include.  ``dragon_tiger``, when given, makes the table a Dragon Tiger table
    (its bets and pays; ``rules`` and ``bets`` then play no part).  :meth:`to_dict` is the settings' JSON form (what the store keeps
    and the API shows), written from these objects once, so two requests that mean the same
    table store the same settings, and nothing is parsed again on every read.

    >>> settings = TableSettings(decks=6)
    >>> settings.to_dict()["decks"], [bet.name for bet in settings.bets]
    (6, ['banker', 'player', 'tie'])
    >>> TableSettings(decks=0)
    Traceback (most recent call last):
    ...
    exactodds.errors.ShoeError: Number of decks 0 for `decks` is not valid; use a whole number from 1 to 64.
    """

    decks: int = 8
    suits: bool = False
    rules: Rules = field(default_factory=Rules)
    bets: tuple[Bet, ...] = ()
    custom: tuple[Bet, ...] = field(default=(), repr=False)
    dragon_tiger: DragonTigerTable | None = None
    _json: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        from exactodds.errors import ShoeError

        number_of_decks(self.decks, ShoeError, text=False)
        if not self.bets and self.dragon_tiger is None:
            object.__setattr__(self, "bets", tuple(select_bets("main", self.rules)))
        object.__setattr__(self, "_json", _settings_json(self))

    @property
    def game(self) -> str:
        """``baccarat`` or ``dragon-tiger`` (see :data:`GAMES`).

        >>> TableSettings().game, TableSettings(dragon_tiger=DragonTigerTable()).game
        ('baccarat', 'dragon-tiger')
        """
        return "baccarat" if self.dragon_tiger is None else "dragon-tiger"

    def to_dict(self) -> dict[str, Any]:
        """The settings as JSON (``POST /api/shoes``'s ``settings``), written from the objects.

        Whole numbers are JSON numbers and every other number its exact text (``"0.04"``,
        ``"17/3"``); a default is written as the default (``"commission": null`` for the
        variant's own); the bets are the selection words that cover them (``"main,dragon7"``)
        and ``pay`` the pays that differ from the bets' own, as an object.

        >>> from exactodds.interface import build_bets, build_rules
        >>> rules = build_rules("standard", "4%", "8:1", False)
        >>> bets = tuple(build_bets(rules, ["tie", "dragon7", "main"], ["dragon7=30"]))
        >>> TableSettings(6, False, rules, bets).to_dict()
        {'decks': 6, 'suits': False, 'variant': 'standard', 'commission': '0.04', 'tie_pays': '8', 'tie_loses': False, 'rules': None, 'bets': 'main,dragon7', 'pay': {'dragon7': 30}}
        """
        return dict(self._json)

    def fresh_shoe(self) -> Shoe:
        """The full shoe the table starts with (rank counts only unless suits are tracked)."""
        shoe = Shoe.standard(self.decks)
        if self.suits:
            return shoe
        return Shoe.from_ranks(dict(zip(RANK_SYMBOLS, shoe.rank_counts, strict=True)))


def _exact_text(value: Fraction) -> str:
    """*value* written exactly: its decimal where that ends (``0.04``), else ``n/d``.

    >>> _exact_text(Fraction(1, 25)), _exact_text(Fraction(17, 3)), _exact_text(Fraction(8))
    ('0.04', '17/3', '8')
    """
    rest, digits = value.denominator, 0
    for prime in (2, 5):
        power = 0
        while rest % prime == 0:
            rest //= prime
            power += 1
        digits = max(digits, power)
    return decimal_string(value, digits) if rest == 1 else fraction_string(value)


def _pay_json(value: Fraction) -> int | str:
    """A pay as a table's JSON keeps it: a whole number as a number, any other as exact text."""
    return value.numerator if value.denominator == 1 else _exact_text(value)


@functools.cache
def _shipped_tableaus() -> tuple[tuple[Tableau, str], ...]:
    """Each shipped rules file's tableau and name (the default tableau has no name to keep)."""
    shipped = (
        (resolve_rules_file(path).tableau, name) for name, path in shipped_rules_files().items()
    )
    return tuple((tableau, name) for tableau, name in shipped if tableau != Tableau())


def _selection_words(names: Sequence[str], available: Sequence[str], custom: Sequence[str]) -> str:
    """The selection that chooses *names*: ``all``, or each group it holds whole, then names.

    >>> _selection_words(["banker", "player", "tie", "dragon7"], ["banker", "player", "tie"], [])
    'main,dragon7'
    """
    chosen = set(names)
    if chosen == set(available):
        return "all"
    words: list[str] = []
    covered: set[str] = set()
    for word, members in (
        ("main", MAIN_BET_NAMES),
        ("side", tuple(side_bets())),
        ("custom", custom),
    ):
        if members and set(members) <= chosen:
            words.append(word)
            covered |= set(members)
    return ",".join([*words, *(name for name in names if name not in covered)])


def _pay_changes(bets: Sequence[Bet], own: dict[str, Bet]) -> dict[str, Any]:
    """The pays of *bets* that differ from their *own* (the bets as they come), as a pay object.

    A change to a bet's one winning pay is written by the bet's name (``{"dragon7": 30}``),
    others by outcome (``{"lucky6": {"three_card_win": 23}}``), as a pay table holds them.
    """
    changes: dict[str, Any] = {}
    for bet in bets:
        before = own[bet.name].pay_table
        changed = {
            outcome: _pay_json(pay)
            for outcome, pay in bet.pay_table.items()
            if before[outcome] != pay
        }
        winning = [outcome for outcome, pay in before.items() if pay > 0]
        if len(winning) == 1 and list(changed) == winning:
            changes[bet.name] = changed[winning[0]]
        elif changed:
            changes[bet.name] = changed
    return changes


def _dragon_tiger_json(decks: int, suits: bool, table: DragonTigerTable) -> dict[str, Any]:
    """A Dragon Tiger table's settings JSON: its bets (``all`` or names) and changed pays.

    >>> _dragon_tiger_json(8, False, DragonTigerTable(("tie", "dragon"), {"tie": Fraction(11)}))
    {'game': 'dragon-tiger', 'decks': 8, 'suits': False, 'bets': 'dragon,tie', 'pay': {'tie': 11}}
    """
    names = table.bet_names
    pays = {
        name: _pay_json(table.pays[name])
        for name in DRAGON_TIGER_BETS
        if table.pays.get(name, DRAGON_TIGER_PAYS[name]) != DRAGON_TIGER_PAYS[name]
    }
    return {
        "game": "dragon-tiger",
        "decks": decks,
        "suits": suits,
        "bets": "all"
        if set(names) == set(DRAGON_TIGER_BETS)
        else ",".join(name for name in DRAGON_TIGER_BETS if name in names),
        "pay": pays or [],
    }


def _settings_json(settings: TableSettings) -> dict[str, Any]:
    """What :meth:`TableSettings.to_dict` gives: the settings' JSON, from their objects alone.

    A baccarat table's JSON has no ``game`` (tables stored before Dragon Tiger read alike)."""
    if settings.dragon_tiger is not None:
        return _dragon_tiger_json(settings.decks, settings.suits, settings.dragon_tiger)
    rules = settings.rules
    own = available_bets(rules, custom=settings.custom)
    catalogue = list(own)
    for bet in settings.bets:  # a bet the catalogue lacks is its own default (no pay changed)
        own.setdefault(bet.name, bet)
    default_commission = Rules(variant=rules.variant).commission
    tableau = next((name for found, name in _shipped_tableaus() if found == rules.tableau), None)
    names = [bet.name for bet in settings.bets]
    custom = [bet.name for bet in settings.custom]
    data: dict[str, Any] = {
        "decks": settings.decks,
        "suits": settings.suits,
        "variant": rules.variant.value,
        "commission": None
        if rules.commission == default_commission
        else _exact_text(rules.commission),
        "tie_pays": _exact_text(rules.tie_pays),
        "tie_loses": not rules.ties_push,
        "rules": tableau,
        "bets": _selection_words(names, catalogue, custom),
        "pay": _pay_changes(settings.bets, own) or [],
    }
    if rules.fee:  # written only when charged, so a table without a fee reads as it always has
        data["fee"] = _exact_text(rules.fee)
    return data


@dataclass(frozen=True)
class Event:
    """One thing that happened at the table: *kind* (see :data:`EVENT_KINDS`), a card, a place.

    *position* is the card's place in its hand (1, 2 or 3) for ``player`` and ``banker``
    cards; 0 means "the next free place" (shoes recorded before places were kept).  A
    ``dragon`` or ``tiger`` card has one place (1 is taken as 0, "its place").

    >>> Event("player", "9h", 1).card
    Card(rank=<Rank.NINE: '9'>, suit=<Suit.HEARTS: 'H'>)
    >>> Event("dealt", "9")
    Traceback (most recent call last):
    ...
    exactodds.errors.CardError: Event kind 'dealt' is not valid; use card, player, banker, dragon, tiger, burn, unseen, end or misdeal.
    """

    kind: str
    cards: str = ""
    position: int = 0
    _card: Card | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        from exactodds.errors import CardError

        if self.kind not in EVENT_KINDS:
            raise CardError(
                f"Event kind {self.kind!r} is not valid; use {', '.join(EVENT_KINDS[:-1])} or "
                f"{EVENT_KINDS[-1]}."
            )
        parsed = parse_cards(self.cards, "the card pad") if self.cards.strip() else ()
        if self.kind in ("unseen", "end", "misdeal"):
            if parsed:
                raise CardError(
                    f"Event kind {self.kind!r} takes no card, but {self.cards!r} was given."
                )
        elif len(parsed) != 1:
            raise CardError(
                f"Event kind {self.kind!r} takes one card, such as K or KS; {self.cards!r} "
                "is not one card."
            )
        if self.kind in ("player", "banker"):
            if not 0 <= self.position <= HAND_PLACES:
                raise RoundError(
                    f"Place {self.position} is not valid; a hand has places 1 to {HAND_PLACES}."
                )
        elif self.kind in ("dragon", "tiger"):
            if self.position not in (0, 1):
                raise RoundError(
                    f"The {self.kind.capitalize()} gets one card a round, so place "
                    f"{self.position} is not valid; send the card without 'position'."
                )
            object.__setattr__(self, "position", 0)
        elif self.position:
            raise RoundError(f"Event kind {self.kind!r} has no place in a hand.")
        object.__setattr__(self, "_card", parsed[0] if parsed else None)

    @property
    def card(self) -> Card | None:
        """The card this event removed from the shoe, if any."""
        return self._card

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data (``position`` only for hand cards)."""
        data: dict[str, Any] = {"kind": self.kind, "cards": self.cards}
        if self.kind in ("player", "banker"):
            data["position"] = self.position
        return data


@dataclass(frozen=True)
class Round:
    """A round entered card by card: the Player's and the Banker's cards, and who won."""

    player: tuple[Card, ...]
    banker: tuple[Card, ...]
    misdeal: bool = False

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
        """``player``, ``banker`` or ``tie`` (``misdeal`` for a round voided as a misdeal)."""
        if self.misdeal:
            return "misdeal"
        if self.player_total == self.banker_total:
            return "tie"
        return "player" if self.player_total > self.banker_total else "banker"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "player": [card.symbol for card in self.player],
            "banker": [card.symbol for card in self.banker],
            "player_total": self.player_total,
            "banker_total": self.banker_total,
            "winner": self.winner,
        }


@dataclass(frozen=True)
class DragonTigerRound:
    """A Dragon Tiger round: the Dragon's card, the Tiger's, and who won (higher rank, A low).

    A misdeal may void a round with one card dealt (the other is then None).

    >>> seven, ace, king = parse_cards("7H A K")
    >>> one = DragonTigerRound(seven, seven)
    >>> one.winner, one.suited_tie, one.to_dict()["dragon"]
    ('tie', True, '7H')
    >>> DragonTigerRound(ace, king).winner
    'tiger'
    """

    dragon: Card | None
    tiger: Card | None
    misdeal: bool = False

    @property
    def winner(self) -> str:
        """``dragon``, ``tiger`` or ``tie`` (``misdeal`` for a round voided as a misdeal)."""
        if self.misdeal or self.dragon is None or self.tiger is None:
            return "misdeal"
        dragon, tiger = self.dragon.rank.index, self.tiger.rank.index
        return "tie" if dragon == tiger else "dragon" if dragon > tiger else "tiger"

    @property
    def suited_tie(self) -> bool | None:
        """Whether the two cards are the same rank and suit; None when suits are not known."""
        if self.winner == "misdeal":
            return None
        assert self.dragon is not None and self.tiger is not None
        if self.dragon.suit is None or self.tiger.suit is None:
            return None
        return self.dragon == self.tiger

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data (a card not dealt is null)."""
        return {
            "dragon": None if self.dragon is None else self.dragon.symbol,
            "tiger": None if self.tiger is None else self.tiger.symbol,
            "winner": self.winner,
            "suited_tie": self.suited_tie,
        }


@dataclass(frozen=True)
class TableState:
    """What a table's events add up to.

    ``pending`` is the round being dealt, each hand's cards in the game's dealing order
    (:data:`SIDES`); ``next_side`` the hand the next card goes to (None when a baccarat round
    is complete); ``round_ends`` the index of the event that ended each round.
    """

    shoe: Shoe
    dealt: tuple[Card, ...]
    unseen: int
    rounds: tuple[Round | DragonTigerRound, ...]
    pending: tuple[tuple[str, tuple[Card, ...]], ...]
    next_side: str | None
    round_ends: tuple[int, ...] = ()

    def cards_left(self) -> dict[str, int]:
        """Cards left per rank, A to K (unseen burns not taken off: their ranks are unknown)."""
        return dict(zip(RANK_SYMBOLS, self.shoe.rank_counts, strict=True))

    def suits_left(self) -> dict[str, dict[str, int]] | None:
        """Cards left per rank and suit (``{"A": {"S": 8, ...}, ...}``) when suits are tracked."""
        counts = self.shoe.suit_counts
        if counts is None:
            return None
        return {
            rank: {suit.value: counts[index * 4 + place] for place, suit in enumerate(SUITS)}
            for index, rank in enumerate(RANK_SYMBOLS)
        }

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data (the odds are added by the app)."""
        winners = [one.winner for one in self.rounds if not one.misdeal]
        pending = dict(self.pending)
        following = None
        if self.next_side is not None:
            place = len(pending[self.next_side]) + 1
            following = {"side": self.next_side, "position": place}
        return {
            "cards_left": self.cards_left(),
            "suits_left": self.suits_left(),
            "cards_in_shoe": self.shoe.cards - self.unseen,
            "cards_dealt": len(self.dealt),
            "unseen_burns": self.unseen,
            "suits_known": self.shoe.suits_known,
            "rounds": [one.to_dict() for one in self.rounds],
            "misdeals": sum(one.misdeal for one in self.rounds),
            "pending": {side: [card.symbol for card in cards] for side, cards in self.pending},
            "next": following,
            "bead_plate": winners,
            "big_road": big_road(winners),
        }


class _Hands:
    """The round being dealt: each side's cards by place."""

    def __init__(self) -> None:
        self.places: dict[str, dict[int, Card]] = {"player": {}, "banker": {}}

    def add(self, side: str, position: int, card: Card) -> None:
        places = self.places[side]
        place = position or next(
            (free for free in range(1, HAND_PLACES + 1) if free not in places), HAND_PLACES + 1
        )
        if place > HAND_PLACES:
            raise RoundError(
                f"A round has at most {HAND_PLACES} {side.capitalize()} cards; end the round "
                "before dealing the next one."
            )
        if place in places:
            raise PositionTakenError(
                f"Place {side[0].upper()}{place} of this round holds {places[place].symbol} "
                "already; undo it first, or tap the next place."
            )
        places[place] = card

    def cards(self, side: str) -> tuple[Card, ...]:
        places = self.places[side]
        return tuple(places[place] for place in sorted(places))

    def gap(self) -> str | None:
        """A place left empty before a filled one (P1 and P3 but no P2), named."""
        for side, places in self.places.items():
            for place in range(1, max(places, default=0)):
                if place not in places:
                    return (
                        f"The round has no card at place {side[0].upper()}{place} but one after "
                        "it; enter the missing card, or mark the round as a misdeal."
                    )
        return None


def placed_events(earlier: Sequence[Event], more: Sequence[Event]) -> list[Event]:
    """*more* with each hand card's place filled in (the next free one) where it was 0.

    >>> [event.position for event in placed_events([Event("player", "9", 1)],
    ...                                            [Event("player", "K"), Event("banker", "5")])]
    [2, 1]
    """
    taken: dict[str, set[int]] = {"player": set(), "banker": set()}
    placed = []
    for index, event in enumerate((*earlier, *more)):
        if event.kind in ("end", "misdeal"):
            taken = {"player": set(), "banker": set()}
        elif event.kind in taken:
            position = event.position or next(
                free for free in range(1, HAND_PLACES + 2) if free not in taken[event.kind]
            )
            taken[event.kind].add(position)
            if position <= HAND_PLACES:
                event = Event(event.kind, event.cards, position)
        if index >= len(earlier):
            placed.append(event)
    return placed


def _values(cards: Sequence[Card]) -> list[int]:
    return [card.rank.value_in_play for card in cards]


def _end_round(settings: TableSettings, hands: _Hands, misdeal: bool, check: bool) -> Round:
    player, banker = hands.cards("player"), hands.cards("banker")
    if check and not misdeal:
        problem = hands.gap() or round_problem(
            settings.rules.tableau, _values(player), _values(banker)
        )
        if problem is not None:
            raise RoundError(problem)
    elif not misdeal and not (2 <= len(player) <= 3 and 2 <= len(banker) <= 3):
        problem = round_problem(settings.rules.tableau, _values(player), _values(banker))
        raise RoundError(problem or "The round cannot end here.")
    return Round(player, banker, misdeal)


def _other_game(kind: str, settings: TableSettings) -> str:
    """The sentence for a card sent to a hand of the other game."""
    if settings.dragon_tiger is not None:
        return (
            f"This table deals Dragon Tiger: a card goes to the Dragon or the Tiger, not the "
            f"{kind.capitalize()}; send it as dragon or tiger."
        )
    return (
        f"This table deals baccarat: a card goes to the Player or the Banker, not the "
        f"{kind.capitalize()}; start a table with game dragon-tiger to deal Dragon Tiger."
    )


def _card_of(settings: TableSettings, event: Event) -> Card:
    """The card *event* removed, as the shoe keeps it (no suit unless suits are tracked)."""
    card = event.card
    assert card is not None  # every kind but unseen, end and misdeal carries one card
    return Card(card.rank, None) if not settings.suits and card.suit is not None else card


def _shoe_after(settings: TableSettings, dealt: Sequence[Card]) -> Shoe:
    shoe = settings.fresh_shoe()
    return shoe.remove(dealt) if dealt else shoe


def table_state(
    settings: TableSettings, events: Sequence[Event], check_from: int | None = None
) -> TableState:
    """Replay *events* on a fresh shoe of *settings*.

    Rounds that end at event *check_from* or later are checked against the table's drawing
    rules (``None``: none are, as when a stored shoe is read back); the card counts, the
    places, the game's hands and the cards the shoe holds are checked always.
    """
    if settings.dragon_tiger is not None:
        return _dragon_tiger_state(settings, events)
    dealt: list[Card] = []
    rounds: list[Round | DragonTigerRound] = []
    ends: list[int] = []
    hands = _Hands()
    unseen = 0
    for index, event in enumerate(events):
        if event.kind == "unseen":
            unseen += 1
        elif event.kind in ("dragon", "tiger"):
            raise RoundError(_other_game(event.kind, settings))
        elif event.kind in ("end", "misdeal"):
            check = check_from is not None and index >= check_from
            rounds.append(_end_round(settings, hands, event.kind == "misdeal", check))
            ends.append(index)
            hands = _Hands()
        else:
            card = _card_of(settings, event)
            dealt.append(card)
            if event.kind in ("player", "banker"):
                hands.add(event.kind, event.position, card)
    player, banker = hands.cards("player"), hands.cards("banker")
    following = next_draw(settings.rules.tableau, _values(player), _values(banker))
    pending = (("player", player), ("banker", banker))
    shoe = _shoe_after(settings, dealt)
    return TableState(shoe, tuple(dealt), unseen, tuple(rounds), pending, following, tuple(ends))


def _dragon_tiger_state(settings: TableSettings, events: Sequence[Event]) -> TableState:
    """:func:`table_state` of a Dragon Tiger table: a round ends with its second card."""
    dealt: list[Card] = []
    rounds: list[Round | DragonTigerRound] = []
    ends: list[int] = []
    places: dict[str, Card] = {}
    unseen = 0
    for index, event in enumerate(events):
        kind = event.kind
        if kind == "unseen":
            unseen += 1
        elif kind in ("player", "banker"):
            raise RoundError(_other_game(kind, settings))
        elif kind == "end":
            raise RoundError(_dragon_tiger_end(places))
        elif kind == "misdeal":
            if not places:
                raise RoundError(
                    "No Dragon Tiger round is being dealt, so there is nothing to void; a "
                    "misdeal voids a round whose Dragon or Tiger card alone is dealt."
                )
            rounds.append(DragonTigerRound(places.get("dragon"), places.get("tiger"), True))
            ends.append(index)
            places = {}
        else:
            card = _card_of(settings, event)
            dealt.append(card)
            if kind in ("dragon", "tiger"):
                if kind in places:
                    other = "Tiger" if kind == "dragon" else "Dragon"
                    raise PositionTakenError(
                        f"The {kind.capitalize()} of this round holds {places[kind].symbol} "
                        f"already; undo it first, or tap the {other}'s card."
                    )
                places[kind] = card
                if len(places) == 2:
                    rounds.append(DragonTigerRound(places["dragon"], places["tiger"]))
                    ends.append(index)
                    places = {}
    pending = tuple(
        (side, (places[side],) if side in places else ()) for side in SIDES["dragon-tiger"]
    )
    following = "tiger" if "dragon" in places else "dragon"
    shoe = _shoe_after(settings, dealt)
    return TableState(shoe, tuple(dealt), unseen, tuple(rounds), pending, following, tuple(ends))


def _dragon_tiger_end(places: dict[str, Card]) -> str:
    """Why a Dragon Tiger round cannot be ended by hand: it ends with its second card."""
    if not places:
        return (
            "A Dragon Tiger round ends by itself with its second card; send the Dragon's and the "
            'Tiger\'s cards, such as {"dragon": "K", "tiger": "5"}.'
        )
    (side,) = places
    other = "Tiger" if side == "dragon" else "Dragon"
    return (
        f"A Dragon Tiger round needs a Dragon card and a Tiger card; this one has only the "
        f"{side.capitalize()}'s {places[side].symbol}: send the {other}'s card, or mark the "
        "round as a misdeal."
    )


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
