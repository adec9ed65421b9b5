"""The card-level walk: every round counted by the classes of the cards it deals.

:func:`~exactodds.engine.walk.enumerate_rounds` sums each round up by values (totals, cards,
naturals, pairs); a bet on the cards themselves (a suited A-8, every card red, a third card
that is a heart) needs to know *which* cards each hand holds.  :func:`enumerate_card_rounds`
counts the same ordered six-card sequences, keyed by the card classes of each hand, for the
coarsest partition a :class:`CardView` asks for: a class is a value (the tableau needs it)
refined by rank, suit or colour only where the view says so, and only on the hands the view
reads.  A hand the view does not read is walked by value alone, so the cost stays that of the
detail asked for: Perfect 9 reads the Player's first two cards by value and suit (40 classes)
and walks the rest by value.

Weights are falling factorials of class counts, as in the value walk: a read hand is dealt
before the hands walked by value, which is exact because the number of ways to deal given
classes to the six positions does not depend on the order they are dealt in.  The engine
knows nothing of bets: it counts by the classes it is asked for.  An infinite shoe is walked
with every card put back (a draw takes no card from its class), as the value walk does.

>>> table = enumerate_card_rounds(Shoe.standard(decks=1), CardView(suits=True, player_first=True))
>>> table.total == 52 * 51 * 50 * 49 * 48 * 47
True
>>> suited = sum(count for round_, count in table.counts.items()
...              if round_.player[0].suit == round_.player[1].suit)
>>> from fractions import Fraction
>>> Fraction(suited, table.total)
Fraction(4, 17)
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache

from exactodds.cards import RANKS, SUITS, VALUES, Rank, Suit
from exactodds.engine.walk import RoundSummary, require_countable
from exactodds.errors import ShoeError
from exactodds.rules import FirstDraw, Tableau
from exactodds.shoe import Shoe

__all__ = [
    "CardClass",
    "CardRound",
    "CardTable",
    "CardView",
    "CardWalk",
    "class_key",
    "enumerate_card_rounds",
    "walk_class",
]

#: Hearts and diamonds, by suit index.
_RED = frozenset({Suit.HEARTS.index, Suit.DIAMONDS.index})


@dataclass(frozen=True)
class CardView:
    """How finely a count tells cards apart, and on which hands.

    ``ranks``, ``suits`` and ``colours`` refine the value of each read card (the value is always
    known: the tableau needs it); ``player_first`` and ``banker_first`` read a hand's first two
    cards, ``whole_round`` every card dealt (third cards included).  ``suited`` tells whether
    a read hand's first two cards share a suit without telling the suits; ``values = False``
    forgets the values of read cards once the tableau has used them (a count of red cards needs
    no values), which keeps the table small.  ``marks`` are sets of faces (``rank * 4 + suit``,
    suits S H D C) the view tells from every other card, and nothing more of their suits: a
    bet on hearts needs hearts told from the rest (20 classes of cards), not four suits (40).

    >>> CardView(colours=True, whole_round=True).needs_suits
    True
    >>> hearts = frozenset(range(1, 52, 4))
    >>> CardView(marks=frozenset({hearts}), whole_round=True).needs_suits
    True
    >>> CardView(ranks=True, player_first=True).reads_player, CardView().reads_banker
    (True, False)
    """

    ranks: bool = False
    suits: bool = False
    colours: bool = False
    suited: bool = False
    values: bool = True
    player_first: bool = False
    banker_first: bool = False
    whole_round: bool = False
    marks: frozenset[frozenset[int]] = frozenset()

    @property
    def needs_suits(self) -> bool:
        """Whether the view tells suits, colours or marked faces apart (a shoe known by rank
        only cannot)."""
        return self.suits or self.colours or self.suited or bool(self.marks)

    @property
    def tells_colours(self) -> bool:
        """Whether a class knows its colour: the view reads suits, colours or suited pairs."""
        return self.suits or self.colours or self.suited

    @property
    def reads_player(self) -> bool:
        """Whether the Player's first two cards are walked by class."""
        return self.player_first or self.whole_round

    @property
    def reads_banker(self) -> bool:
        """Whether the Banker's first two cards are walked by class."""
        return self.banker_first or self.whole_round


@dataclass(frozen=True)
class CardClass:
    """A class of cards: a value, and the rank, suit and colour where the view tells them.

    ``rank`` and ``suit`` are ``None`` where the view does not tell them apart; ``red`` is
    ``None`` when neither suits nor colours are told.  ``marks`` holds the view's marks (sets
    of faces) the class's cards belong to: every card of a class is in the same marks.

    >>> CardClass(9, None, Suit.HEARTS, True).symbol
    'value 9 H'
    >>> CardClass(9, None, None, None, frozenset({frozenset({33})})).symbol
    'value 9 marked'
    """

    value: int
    rank: Rank | None
    suit: Suit | None
    red: bool | None
    marks: frozenset[frozenset[int]] = frozenset()

    @property
    def symbol(self) -> str:
        """A short description for messages and doctests."""
        parts = [self.rank.symbol if self.rank else f"value {self.value}"]
        if self.suit is not None:
            parts.append(self.suit.symbol)
        elif self.red is not None:
            parts.append("red" if self.red else "black")
        if self.marks:
            parts.append("marked")
        return " ".join(parts)


@dataclass(frozen=True)
class CardRound:
    """A round summary and the classes of the cards each hand was dealt.

    ``player`` and ``banker`` hold the hand's cards in dealing order (the first two sorted, as
    an unordered pair, then the third card if one was dealt); a card the view does not read is
    ``None``.  The summary's pair fields are meaningful only where the view reads the hand's
    first two cards by rank (and by suit, for the suited fields).  ``player_suited`` and
    ``banker_suited`` say whether a read hand's first two cards share a suit (``None`` unless
    the view asks, ``suited``).  A card's ``value`` is -1 where the view keeps no values.
    """

    summary: RoundSummary
    player: tuple[CardClass | None, ...]
    banker: tuple[CardClass | None, ...]
    player_suited: bool | None = None
    banker_suited: bool | None = None


@dataclass(frozen=True)
class CardTable:
    """Exact counts of ordered six-card sequences per :class:`CardRound`."""

    counts: Mapping[CardRound, int]
    total: int
    view: CardView

    def __iter__(self) -> Iterator[tuple[CardRound, int]]:
        return iter(self.counts.items())


def enumerate_card_rounds(shoe: Shoe, view: CardView, tableau: Tableau | None = None) -> CardTable:
    """Count every round *shoe* deals under *tableau*, by the card classes *view* asks for.

    Cached per (shoe, view, tableau).  A view that tells suits or colours apart needs a shoe
    that knows its suits.

    >>> table = enumerate_card_rounds(Shoe.standard(decks=8), CardView())
    >>> len(table.counts), table.total == 416 * 415 * 414 * 413 * 412 * 411
    (205, True)
    >>> enumerate_card_rounds(Shoe.standard(decks=8).remove("K"), CardView(colours=True))
    Traceback (most recent call last):
    ...
    exactodds.errors.ShoeError: The card view tells suits or colours apart, and the shoe is known by rank only; name every card with its suit, such as KS or 7H.
    """
    require_countable(shoe)
    if view.needs_suits and not shoe.suits_known:
        raise ShoeError(
            "The card view tells suits or colours apart, and the shoe is known by rank only; "
            "name every card with its suit, such as KS or 7H."
        )
    return _cached(shoe, view, tableau if tableau is not None else Tableau())


@lru_cache(maxsize=32)
def _cached(shoe: Shoe, view: CardView, tableau: Tableau) -> CardTable:
    walk = CardWalk(shoe, view, tableau)
    raw = walk.run()
    counts: dict[CardRound, int] = {}
    for key, count in raw.items():
        round_ = walk.card_round(key)
        counts[round_] = counts.get(round_, 0) + count
    total = shoe.sequences
    if sum(counts.values()) != total:  # pragma: no cover - a broken walk, never user input
        raise AssertionError("the card walk's counts do not add up to n(n-1)...(n-5) (n^6)")
    return CardTable(counts, total, view)


#: The suit permutations (S H D C by index) that keep each card's colour: hearts with
#: diamonds, spades with clubs.
_COLOUR_KEEPING = ((0, 1, 2, 3), (0, 2, 1, 3), (3, 1, 2, 0), (3, 2, 1, 0))


def class_key(shoe: Shoe, view: CardView) -> tuple[tuple[CardClass, int], ...]:
    """What the card walk of *shoe* under *view* depends on: its class counts, up to symmetry.

    Two shoes with the same key have the same :class:`CardTable` under every tableau (the walk
    reads nothing else), so a calculation that walks many shoes (the effect of removal) walks
    each key once.  The key is the least, over the suit permutations the view cannot see (every
    one when it reads no suit or colour, those that keep colours when it reads colours only,
    and of those only the ones that map each of its marks onto itself), of the shoe's class
    counts.

    >>> view = CardView(suited=True, player_first=True)
    >>> shoe = Shoe.standard(decks=1)
    >>> class_key(shoe.remove("7H"), view) == class_key(shoe.remove("7S"), view)
    True
    >>> colours = CardView(colours=True, whole_round=True)
    >>> class_key(shoe.remove("7H"), colours) == class_key(shoe.remove("7S"), colours)
    False
    """
    if shoe.suit_counts is None:
        by_rank: dict[CardClass, int] = defaultdict(int)
        for rank, count in enumerate(shoe.rank_counts):
            by_rank[walk_class(rank, None, view)] += count
        return tuple(sorted(by_rank.items(), key=_class_order))
    suit_counts = shoe.suit_counts
    if view.suits:
        permutations: tuple[tuple[int, ...], ...] = ((0, 1, 2, 3),)
    elif view.colours:
        permutations = _COLOUR_KEEPING
    else:
        permutations = tuple(itertools.permutations(range(4)))
    permutations = tuple(
        permutation
        for permutation in permutations
        if all(
            {face - face % 4 + permutation[face % 4] for face in mark} == mark
            for mark in view.marks
        )
    )
    keys = []
    for permutation in permutations:
        counts: dict[CardClass, int] = defaultdict(int)
        for index, count in enumerate(suit_counts):
            suit = permutation[index % 4]
            counts[walk_class(index // 4, suit, view)] += count
        keys.append(tuple(sorted(counts.items(), key=_class_order)))
    return min(keys, key=lambda key: [(_class_order(item), item[1]) for item in key])


def _class_order(
    item: tuple[CardClass, int],
) -> tuple[int, int, int, int, tuple[tuple[int, ...], ...]]:
    """A total order of classes (rank and suit may be ``None``), for a canonical key."""
    card_class = item[0]
    return (
        card_class.value,
        -1 if card_class.rank is None else card_class.rank.index,
        -1 if card_class.suit is None else card_class.suit.index,
        -1 if card_class.red is None else int(card_class.red),
        tuple(sorted(tuple(sorted(mark)) for mark in card_class.marks)),
    )


def walk_class(rank_index: int, suit_index: int | None, view: CardView) -> CardClass:
    """The class the walk deals a card type as: what the tableau and the view's keys need.

    >>> walk_class(12, 1, CardView(colours=True)).symbol
    'value 0 red'
    """
    tell_suits = view.suits or view.suited
    suit = SUITS[suit_index] if tell_suits and suit_index is not None else None
    red = (suit_index in _RED) if view.tells_colours and suit_index is not None else None
    marks: frozenset[frozenset[int]] = frozenset()
    if view.marks and suit_index is not None:
        face = rank_index * 4 + suit_index
        marks = frozenset(mark for mark in view.marks if face in mark)
    rank = RANKS[rank_index] if view.ranks else None
    return CardClass(VALUES[rank_index], rank, suit, red, marks)


def _key_class(card_class: CardClass, view: CardView) -> CardClass:
    """The class a round's key shows: the walk class less what the view does not keep."""
    return CardClass(
        card_class.value if view.values else -1,
        card_class.rank,
        card_class.suit if view.suits else None,
        card_class.red if view.suits or view.colours else None,
        card_class.marks,
    )


# A hand's read first two cards in a key: the key-class ids (sorted) and whether they share a
# suit (None when the view does not ask).
_First = tuple[int, int, bool | None]
# A walk key: totals, cards, naturals, then each hand's read first two (None when not read) and
# third card (a key-class id, None when not read, -1 when not dealt).
_Key = tuple[int, int, int, int, bool, bool, _First | None, _First | None, int | None, int | None]
_Hand = tuple[_First | None, int, tuple[int, int], tuple[int, int] | None]


class CardWalk:
    """One walk's state: class counts (mutated and restored as the walk goes) and the tallies.

    Its classes, keys and :meth:`card_round` are also what the compiled card terms
    (:mod:`exactodds.engine.cardterms`) read rounds by, without walking.

    >>> walk = CardWalk(Shoe.standard(decks=1), CardView(suited=True, player_first=True), Tableau())
    >>> len(walk.classes), walk.card_round((9, 0, 2, 2, True, False, walk._first(0, 4), None,
    ...     None, None)).player_suited
    (40, True)
    """

    def __init__(self, shoe: Shoe, view: CardView, tableau: Tableau) -> None:
        self.view = view
        self.tableau = tableau
        ids: dict[CardClass, int] = {}
        class_counts: list[int] = []
        types: list[tuple[int, int | None, int]]
        if shoe.suit_counts is None:
            types = [(rank, None, count) for rank, count in enumerate(shoe.rank_counts)]
        else:
            types = [(index // 4, index % 4, count) for index, count in enumerate(shoe.suit_counts)]
        for rank_index, suit_index, count in types:
            card_class = walk_class(rank_index, suit_index, view)
            if card_class not in ids:
                ids[card_class] = len(ids)
                class_counts.append(0)
            class_counts[ids[card_class]] += count
        key_ids: dict[CardClass, int] = {}
        for card_class in ids:
            key_ids.setdefault(_key_class(card_class, view), len(key_ids))
        self.key_classes = tuple(key_ids)
        #: The walk's classes by id (what the compiled terms of
        #: :mod:`exactodds.engine.cardterms` read counts by).
        self.classes = tuple(ids)
        self.key_of = [key_ids[_key_class(card_class, view)] for card_class in ids]
        self.suit_of = [card_class.suit for card_class in ids]
        self.class_counts = class_counts
        self.class_values = [card_class.value for card_class in ids]
        self.value_counts = list(shoe.value_counts)
        self.cards = shoe.cards
        self.taken = 0 if shoe.infinite else 1  # cards a draw takes from its class
        self.counts: dict[_Key, int] = defaultdict(int)

    def card_round(self, key: _Key) -> CardRound:
        """The :class:`CardRound` of a walk key."""
        player_total, banker_total, player_cards, banker_cards, p_nat, b_nat = key[:6]
        player = self._hand(key[6], key[8], player_cards)
        banker = self._hand(key[7], key[9], banker_cards)
        player_pair, player_suited = self._pairs(player, key[6])
        banker_pair, banker_suited = self._pairs(banker, key[7])
        summary = RoundSummary(
            player_total,
            banker_total,
            player_cards,
            banker_cards,
            p_nat,
            b_nat,
            player_pair,
            banker_pair,
            player_suited,
            banker_suited,
        )
        return CardRound(
            summary,
            player,
            banker,
            None if key[6] is None else key[6][2],
            None if key[7] is None else key[7][2],
        )

    def _hand(
        self, first: _First | None, third: int | None, cards: int
    ) -> tuple[CardClass | None, ...]:
        two: tuple[CardClass | None, ...] = (
            (None, None)
            if first is None
            else (self.key_classes[first[0]], self.key_classes[first[1]])
        )
        if cards == 2:
            return two
        return (*two, None if third is None or third < 0 else self.key_classes[third])

    def _pairs(
        self, hand: tuple[CardClass | None, ...], first: _First | None
    ) -> tuple[bool, bool | None]:
        one, two = hand[0], hand[1]
        if one is None or two is None or first is None or not self.view.ranks:
            return False, None
        pair = one.rank == two.rank
        suited = first[2]
        return pair, None if suited is None else pair and suited

    def run(self) -> dict[_Key, int]:
        """Walk the read hands first (by class), then the rest (by value)."""
        view = self.view
        reads_player, reads_banker = view.reads_player, view.reads_banker
        # The last hand read by class needs no class counts after it unless third cards are
        # read: its class pairs are summed by key (the collapse that keeps Perfect 9 cheap).
        collapse = not view.whole_round
        if reads_banker and not reads_player:
            for banker in self._hands(True, collapse):
                for player in self._hands(False, False):
                    self._endings(player, banker)
                    self._restore(player)
                self._restore(banker)
            return self.counts
        for player in self._hands(reads_player, collapse and not reads_banker):
            for banker in self._hands(reads_banker, collapse):
                self._endings(player, banker)
                self._restore(banker)
            self._restore(player)
        return self.counts

    def _first(self, low: int, high: int) -> _First:
        keys = sorted((self.key_of[low], self.key_of[high]))
        suited = self.suit_of[low] == self.suit_of[high] if self.view.suited else None
        return (keys[0], keys[1], suited)

    def _hands(self, by_class: bool, collapse: bool) -> Iterator[_Hand]:
        """Each unordered two-card hand left, dealt (counts taken) while the caller looks at it.

        Yields (the hand's key or None, ordered ways, the two values, the class ids taken or
        None); the caller restores the counts with :meth:`_restore` before the next hand.
        """
        values = self.value_counts
        if by_class and collapse:
            yield from self._collapsed_hands()
            return
        if by_class:
            counts = self.class_counts
            for low in range(len(counts)):
                for high in range(low, len(counts)):
                    weight = self._two_ways(counts, low, high)
                    if weight <= 0:
                        continue
                    pair = (self.class_values[low], self.class_values[high])
                    self._draw_two(pair, (low, high), -1)
                    yield self._first(low, high), weight, pair, (low, high)
            return
        for low in range(10):
            for high in range(low, 10):
                weight = self._two_ways(values, low, high)
                if weight <= 0:
                    continue
                self._draw_two((low, high), None, -1)
                yield None, weight, (low, high), None

    def _two_ways(self, counts: list[int], low: int, high: int) -> int:
        """Ordered ways to deal a hand's two cards from the classes *low* and *high*."""
        return counts[low] * (counts[high] - self.taken * (low == high)) * (1 + (low != high))

    def _draw_two(self, pair: tuple[int, int], classes: tuple[int, int] | None, sign: int) -> None:
        """Take (*sign* -1) or put back (+1) a hand's two cards: nothing, with replacement."""
        change = sign * self.taken
        if classes is not None:
            self.class_counts[classes[0]] += change
            self.class_counts[classes[1]] += change
        self.value_counts[pair[0]] += change
        self.value_counts[pair[1]] += change

    def _collapsed_hands(self) -> Iterator[_Hand]:
        """Class pairs summed by (hand key, values): only value counts matter after them."""
        counts = self.class_counts
        summed: dict[tuple[_First, tuple[int, int]], int] = defaultdict(int)
        for low in range(len(counts)):
            for high in range(low, len(counts)):
                weight = self._two_ways(counts, low, high)
                if weight > 0:
                    pair = (self.class_values[low], self.class_values[high])
                    summed[(self._first(low, high), (min(pair), max(pair)))] += weight
        for (first, pair), weight in summed.items():
            self._draw_two(pair, None, -1)
            yield first, weight, pair, None

    def _restore(self, hand: _Hand) -> None:
        _, _, pair, classes = hand
        self._draw_two(pair, classes, 1)

    def _endings(self, player_hand: _Hand, banker_hand: _Hand) -> None:
        """Add the rounds that start with these two hands, third cards walked as the view asks."""
        tableau = self.tableau
        player, p_weight, p_values, _ = player_hand
        banker, b_weight, b_values, _ = banker_hand
        weight = p_weight * b_weight
        player_total = sum(p_values) % 10
        banker_total = sum(b_values) % 10
        naturals = (
            player_total in tableau.natural_totals,
            banker_total in tableau.natural_totals,
        )
        third_none = None if not self.view.whole_round else -1
        taken = self.taken
        left = self.cards - 4 * taken
        draw = tableau.first_draw(player_total, banker_total)
        counts = self.counts
        if draw is FirstDraw.NATURAL or draw is FirstDraw.NONE:
            key = (
                player_total,
                banker_total,
                2,
                2,
                *naturals,
                player,
                banker,
                third_none,
                third_none,
            )
            counts[key] += weight * left * (left - taken)
            return
        for third, third_value, third_count in self._thirds():
            third_key = None if third is None else self.key_of[third]
            if draw is FirstDraw.BANKER:
                key = (
                    player_total,
                    (banker_total + third_value) % 10,
                    2,
                    3,
                    *naturals,
                    player,
                    banker,
                    third_none,
                    third_key,
                )
                counts[key] += weight * third_count * (left - taken)
                continue
            final_player = (player_total + third_value) % 10
            if not tableau.banker_draws[banker_total][third_value]:
                key = (
                    final_player,
                    banker_total,
                    3,
                    2,
                    *naturals,
                    player,
                    banker,
                    third_key,
                    third_none,
                )
                counts[key] += weight * third_count * (left - taken)
                continue
            self._take(third, third_value, -taken)
            for banker_third, banker_value, banker_count in self._thirds():
                key = (
                    final_player,
                    (banker_total + banker_value) % 10,
                    3,
                    3,
                    *naturals,
                    player,
                    banker,
                    third_key,
                    None if banker_third is None else self.key_of[banker_third],
                )
                counts[key] += weight * third_count * banker_count
            self._take(third, third_value, taken)

    def _thirds(self) -> list[tuple[int | None, int, int]]:
        """Each class (or value) a third card can be: (class id or None, value, count left)."""
        if self.view.whole_round:
            return [
                (index, self.class_values[index], count)
                for index, count in enumerate(self.class_counts)
                if count > 0
            ]
        return [(None, value, count) for value, count in enumerate(self.value_counts) if count > 0]

    def _take(self, third: int | None, value: int, change: int) -> None:
        if third is not None:
            self.class_counts[third] += change
        self.value_counts[value] += change
