"""The exact walk: every round a shoe can deal, counted with integers.

:func:`enumerate_rounds` is the only code that knows the dealing order
(Player, Banker, Player, Banker, then third cards).  It returns an
:class:`OutcomeTable`: for each round *summary* (final totals, cards per
hand, naturals, pairs in the first two cards of each hand) the exact number
of ordered six-card sequences that produce it.  It knows nothing about bets;
every bet is a function of a summary.

Counting convention (that of the published tables): each round counts as an
ordered sequence of six cards, so the counts of an ``n``-card shoe add up to
``n(n-1)(n-2)(n-3)(n-4)(n-5)``.  A round that uses four or five cards stands
for all the ways the unused positions can be filled, a closed-form weight;
the walk never visits them.

How the walk stays small: the four first cards are enumerated by *value*
(ten classes) as two unordered two-card hands, 55 x 55 combinations, each
weighted by falling factorials of the value counts.  Pairs need more than
values (J-J is a pair, J-Q is not), so within a value class the weight is
split by rank, and by suit when the shoe knows its suits, with a small
per-class table; later draws depend only on the value counts left.

An infinite shoe (:meth:`~exactodds.shoe.Shoe.infinite_decks`) is the same walk with every
card put back: a draw takes ``taken = 0`` cards from its class instead of 1, so each falling
factorial ``n (n-1) ...`` becomes a power ``n n ...`` and the counts are of the ``52^6``
ordered sequences of cards each drawn from a full deck.  They are the leading coefficients
of the finite counts, each a polynomial of degree 6 in the number of decks.

>>> table = enumerate_rounds(Shoe.standard(decks=8))
>>> table.total == 416 * 415 * 414 * 413 * 412 * 411
True
>>> table.count(lambda summary: summary.winner is Winner.BANKER)
2292252566437888
"""

from __future__ import annotations

import enum
import math
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from exactodds.cards import VALUES
from exactodds.errors import RulesError, ShoeError, quoted
from exactodds.rules import FirstDraw, Tableau
from exactodds.shoe import Shoe

__all__ = [
    "NO_PAIR",
    "PAIR",
    "RANK_PAIR_STATES",
    "SUITED_PAIR",
    "SUITED_PAIR_STATES",
    "OutcomeTable",
    "RoundSummary",
    "Winner",
    "drawn",
    "enumerate_rounds",
    "falling_factorial",
    "ordered_ways",
    "require_countable",
    "sequences",
    "summary_of",
]

#: Pair states of a hand's first two cards: no pair, a pair (not suited, or suits unknown),
#: a suited pair. The walk, the known-card walk, the routing of bets and the kernel's pair
#: inputs all speak these codes.
NO_PAIR, PAIR, SUITED_PAIR = 0, 1, 2
#: The joint (Player, Banker) pair states a shoe that knows its suits deals, in kernel order.
SUITED_PAIR_STATES: tuple[tuple[int, int], ...] = tuple(
    (player, banker) for player in range(3) for banker in range(3)
)
#: The joint pair states a shoe known by rank only deals, in kernel order.
RANK_PAIR_STATES: tuple[tuple[int, int], ...] = tuple(
    (player, banker) for player in range(2) for banker in range(2)
)


def falling_factorial(count: int, length: int) -> int:
    """``count * (count - 1) * ... `` over *length* factors; 0 when too few.

    >>> falling_factorial(5, 2), falling_factorial(1, 2), falling_factorial(7, 0)
    (20, 0, 1)
    >>> falling_factorial(-3, 2), falling_factorial(-3, 0)
    (0, 1)
    """
    return math.perm(max(count, 0), length)


def drawn(count: int, length: int, taken: int = 1) -> int:
    """Ordered ways to draw *length* cards of a class of *count*: ``count (count - taken) ...``.

    *taken* is 1 without replacement (:func:`falling_factorial`) and 0 with replacement (a
    power: every draw sees the whole class again).

    >>> drawn(4, 3), drawn(4, 3, taken=0), drawn(0, 2, taken=0), drawn(0, 0, taken=0)
    (24, 64, 0, 1)
    """
    if taken:
        return falling_factorial(count, length)
    return math.prod([max(count, 0)] * length)


def ordered_ways(counts: Sequence[int], picks: Iterable[int], taken: int = 1) -> int:
    """Ways to deal the classes *picks*, in that order, from a shoe of *counts* per class.

    The product, over each class picked, of the falling factorial of its count by how often
    it is picked: 0 when the shoe holds too few.  With replacement (*taken* 0, as
    :func:`drawn` takes it) the product of powers.

    >>> ordered_ways([4, 4], [0, 0, 1]), ordered_ways([1, 4], [0, 0])
    (48, 0)
    >>> ordered_ways([1, 4], [0, 0], taken=0)
    1
    """
    picked = Counter(picks)
    return math.prod(drawn(counts[group], times, taken) for group, times in picked.items())


def sequences(cards: int) -> int:
    """How many ordered six-card sequences an *cards*-card shoe holds.

    >>> sequences(416)
    4998398275503360
    """
    return falling_factorial(cards, 6)


class Winner(enum.Enum):
    """Who won the round.

    >>> Winner("tie").name
    'TIE'
    """

    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"


@dataclass(frozen=True)
class RoundSummary:
    """Everything a bet may look at in a finished round.

    ``player_pair`` is true when the Player's first two cards have the same
    rank; ``player_suited_pair`` when they are the same rank and suit, or
    ``None`` when the shoe's suits are unknown.  Likewise for the Banker.

    >>> summary = RoundSummary(6, 7, 3, 2, False, False, True, False, None, None)
    >>> summary.winner, summary.margin, summary.cards_dealt
    (<Winner.BANKER: 'banker'>, 1, 5)
    """

    player_total: int
    banker_total: int
    player_cards: int
    banker_cards: int
    player_natural: bool
    banker_natural: bool
    player_pair: bool
    banker_pair: bool
    player_suited_pair: bool | None
    banker_suited_pair: bool | None

    @property
    def winner(self) -> Winner:
        """The winning side, or ``Winner.TIE``."""
        if self.player_total > self.banker_total:
            return Winner.PLAYER
        if self.banker_total > self.player_total:
            return Winner.BANKER
        return Winner.TIE

    @property
    def margin(self) -> int:
        """How many points the winner won by (0 on a tie)."""
        return abs(self.player_total - self.banker_total)

    @property
    def winning_total(self) -> int | None:
        """The winner's final total, ``None`` on a tie."""
        if self.winner is Winner.TIE:
            return None
        return max(self.player_total, self.banker_total)

    @property
    def cards_dealt(self) -> int:
        """Cards used by the round: 4, 5 or 6."""
        return self.player_cards + self.banker_cards

    @property
    def natural(self) -> bool:
        """Whether either hand was a natural."""
        return self.player_natural or self.banker_natural


@dataclass(frozen=True)
class OutcomeTable:
    """Exact counts of six-card sequences per :class:`RoundSummary`.

    >>> table = enumerate_rounds(Shoe.standard(decks=1))
    >>> table.probability(lambda s: s.winner is Winner.TIE)
    Fraction(10720526, 114516675)
    >>> sum(table.counts.values()) == table.total
    True
    """

    counts: Mapping[RoundSummary, int]
    total: int
    suits_known: bool

    def count(self, predicate: Callable[[RoundSummary], bool]) -> int:
        """Sequences whose summary satisfies *predicate*."""
        return sum(count for summary, count in self.counts.items() if predicate(summary))

    def probability(self, predicate: Callable[[RoundSummary], bool]) -> Fraction:
        """Exact probability that a round satisfies *predicate*."""
        return Fraction(self.count(predicate), self.total)

    def __iter__(self) -> Iterator[tuple[RoundSummary, int]]:
        return iter(self.counts.items())


def enumerate_rounds(shoe: Shoe, tableau: Tableau | None = None) -> OutcomeTable:
    """Count every round *shoe* can deal under *tableau* (standard by default).

    Results are cached per (shoe, tableau): both are immutable.

    >>> enumerate_rounds(Shoe.from_ranks({"A": 6})).total
    720
    >>> enumerate_rounds(Shoe.from_ranks({"A": 5}))
    Traceback (most recent call last):
    ...
    exactodds.errors.ShoeError: The shoe holds 5 cards; a round is counted as a sequence of 6 cards, so a shoe needs at least 6.
    """
    require_countable(shoe)
    if tableau is not None and not isinstance(tableau, Tableau):
        raise RulesError(
            f"tableau is {quoted(repr(tableau), 40)[1:-1]}, not a Tableau; use Tableau.standard() "
            "or load_rules_file(path)."
        )
    return _enumerate_cached(shoe, tableau if tableau is not None else Tableau())


def require_countable(shoe: Shoe) -> None:
    """Refuse a shoe too small for the six-card counting convention.

    >>> require_countable(Shoe.from_ranks({"K": 4}))
    Traceback (most recent call last):
    ...
    exactodds.errors.ShoeError: The shoe holds 4 cards; a round is counted as a sequence of 6 cards, so a shoe needs at least 6.
    """
    if not isinstance(shoe, Shoe):
        raise ShoeError(
            f"The shoe is {quoted(repr(shoe), 40)[1:-1]}, not a Shoe; use Shoe.standard(decks=8), "
            'Shoe.parse("A=4,T=16") or Shoe.from_ranks({...}).'
        )
    if shoe.infinite and shoe.cards == 0:
        raise ShoeError("The infinite shoe holds no cards to draw from; give it at least one.")
    if shoe.cards < 6 and not shoe.infinite:  # with replacement, any card may come again
        raise ShoeError(
            f"The shoe holds {shoe.cards} cards; a round is counted as a sequence of 6 cards, "
            "so a shoe needs at least 6."
        )


def summary_of(
    key: tuple[int, int, int, int, bool, bool, int, int], suits_known: bool
) -> RoundSummary:
    """The round summary of a walk key: totals, cards, naturals and the two pair states.

    Pair states are 0 (no pair), 1 (a pair; not suited, or suits unknown) and
    2 (a suited pair).

    >>> summary_of((6, 7, 3, 2, False, False, 2, 0), True).player_suited_pair
    True
    """
    player_total, banker_total, player_cards, banker_cards, p_nat, b_nat, p_pair, b_pair = key
    return RoundSummary(
        player_total,
        banker_total,
        player_cards,
        banker_cards,
        p_nat,
        b_nat,
        p_pair != NO_PAIR,
        b_pair != NO_PAIR,
        (p_pair == SUITED_PAIR) if suits_known else None,
        (b_pair == SUITED_PAIR) if suits_known else None,
    )


@lru_cache(maxsize=128)
def _enumerate_cached(shoe: Shoe, tableau: Tableau) -> OutcomeTable:
    raw = _walk(shoe, tableau)
    suits_known = shoe.suits_known
    counts: dict[RoundSummary, int] = {}
    for key, count in raw.items():
        counts[summary_of(key, suits_known)] = count
    total = shoe.sequences
    if sum(counts.values()) != total:  # pragma: no cover - a broken walk, never user input
        raise AssertionError("the walk's counts do not add up to n(n-1)...(n-5) (n^6 infinite)")
    return OutcomeTable(counts, total, suits_known)


def _class_types(shoe: Shoe) -> list[list[tuple[int, int]]]:
    """Per value class, its card types as (rank index, count): ranks, or rank-suits."""
    types: list[list[tuple[int, int]]] = [[] for _ in range(10)]
    for rank_index, value in enumerate(VALUES):
        if shoe.suit_counts is None:
            types[value].append((rank_index, shoe.rank_counts[rank_index]))
        else:
            for suit_index in range(4):
                types[value].append((rank_index, shoe.suit_counts[rank_index * 4 + suit_index]))
    return types


_SplitKey = tuple[int | None, int | None]


def _split_class(
    types: list[tuple[int, int]],
    player_cards: int,
    banker_cards: int,
    suits_known: bool,
    taken: int = 1,
) -> dict[_SplitKey, int]:
    """Split the weight of one value class's share of the first four cards by pair state.

    *player_cards* and *banker_cards* (0-2) are how many of the Player's and
    Banker's first two cards fall in this class.  A hand's state is reported
    only when both its cards are in the class (otherwise ``None``).  Weights
    count ordered assignments of card types to the positions, so they sum to
    the falling factorial of the class count over the positions (the power, with
    replacement: *taken* is the cards a draw takes from its type, 1 or 0).
    """
    counts = [count for _, count in types]
    ranks = [rank for rank, _ in types]
    same_type_state = SUITED_PAIR if suits_known else PAIR
    player_options: list[tuple[int | None, list[int], int]] = []
    if player_cards == 0:
        player_options.append((None, counts, 1))
    elif player_cards == 1:
        for index, count in enumerate(counts):
            if count:
                left = counts.copy()
                left[index] -= taken
                player_options.append((None, left, count))
    else:
        for first, first_count in enumerate(counts):
            for second, second_count in enumerate(counts):
                weight = first_count * (second_count - taken * (first == second))
                if weight <= 0:
                    continue
                left = counts.copy()
                left[first] -= taken
                left[second] -= taken
                if first == second:
                    state = same_type_state
                else:
                    state = PAIR if ranks[first] == ranks[second] else NO_PAIR
                player_options.append((state, left, weight))
    result: dict[_SplitKey, int] = defaultdict(int)
    for player_state, left, weight in player_options:
        remaining = sum(left)
        if banker_cards == 0:
            result[(player_state, None)] += weight
        elif banker_cards == 1:
            result[(player_state, None)] += weight * remaining
        else:
            by_rank: dict[int, int] = defaultdict(int)
            for rank, count in zip(ranks, left, strict=True):
                by_rank[rank] += count
            rank_pairs = sum(count * (count - taken) for count in by_rank.values())
            unpaired = remaining * (remaining - taken) - rank_pairs
            if suits_known:
                suited = sum(count * (count - taken) for count in left)
                result[(player_state, SUITED_PAIR)] += weight * suited
                result[(player_state, PAIR)] += weight * (rank_pairs - suited)
            else:
                result[(player_state, PAIR)] += weight * rank_pairs
            result[(player_state, NO_PAIR)] += weight * unpaired
    return {key: weight for key, weight in result.items() if weight}


_Key = tuple[int, int, int, int, bool, bool, int, int]


def _walk(shoe: Shoe, tableau: Tableau) -> dict[_Key, int]:
    values = shoe.value_counts
    cards = shoe.cards
    suits_known = shoe.suits_known
    types = _class_types(shoe)
    naturals = tableau.natural_totals
    banker_draws = tableau.banker_draws
    taken = 0 if shoe.infinite else 1  # cards a draw takes from its class
    split_cache: dict[tuple[int, int, int], dict[_SplitKey, int]] = {}

    def split(value: int, player_cards: int, banker_cards: int) -> dict[_SplitKey, int]:
        key = (value, player_cards, banker_cards)
        if key not in split_cache:
            split_cache[key] = _split_class(
                types[value], player_cards, banker_cards, suits_known, taken
            )
        return split_cache[key]

    counts: dict[_Key, int] = defaultdict(int)
    left_after_four = cards - 4 * taken
    both_stand = left_after_four * (left_after_four - taken)
    hands = [(low, high) for low in range(10) for high in range(low, 10)]
    for player_low, player_high in hands:
        for banker_low, banker_high in hands:
            used = [0] * 10
            for value in (player_low, player_high, banker_low, banker_high):
                used[value] += 1
            if any(  # too few cards of a value (with replacement: a value the shoe lacks)
                used[value] > (values[value] if taken else 6 * bool(values[value]))
                for value in range(10)
            ):
                continue
            pair_weights = _pair_weights(
                player_low, player_high, banker_low, banker_high, values, used, split, taken
            )
            left = [values[value] - taken * used[value] for value in range(10)]
            player_total = (player_low + player_high) % 10
            banker_total = (banker_low + banker_high) % 10
            player_natural = player_total in naturals
            banker_natural = banker_total in naturals
            endings: dict[tuple[int, int, int, int], int] = defaultdict(int)
            draw = tableau.first_draw(player_total, banker_total)
            if draw is FirstDraw.NATURAL or draw is FirstDraw.NONE:
                endings[(player_total, banker_total, 2, 2)] = both_stand
            elif draw is FirstDraw.BANKER:
                for third, third_count in enumerate(left):
                    if third_count:
                        endings[(player_total, (banker_total + third) % 10, 2, 3)] += (
                            third_count * (left_after_four - taken)
                        )
            else:
                row = banker_draws[banker_total]
                for third, third_count in enumerate(left):
                    if not third_count:
                        continue
                    final_player = (player_total + third) % 10
                    if row[third]:
                        for banker_third, banker_count in enumerate(left):
                            banker_count -= taken * (banker_third == third)
                            if banker_count > 0:
                                endings[
                                    (final_player, (banker_total + banker_third) % 10, 3, 3)
                                ] += third_count * banker_count
                    else:
                        endings[(final_player, banker_total, 3, 2)] += third_count * (
                            left_after_four - taken
                        )
            for (player_state, banker_state), pair_weight in pair_weights:
                for ending, ending_weight in endings.items():
                    counts[
                        (*ending, player_natural, banker_natural, player_state, banker_state)
                    ] += pair_weight * ending_weight
    return counts


def _pair_weights(
    player_low: int,
    player_high: int,
    banker_low: int,
    banker_high: int,
    values: tuple[int, ...],
    used: list[int],
    split: Callable[[int, int, int], dict[_SplitKey, int]],
    taken: int = 1,
) -> list[tuple[tuple[int, int], int]]:
    """Weight of the four first cards, by (Player pair state, Banker pair state).

    Two unordered hands stand for every order of their cards: a hand of two
    different values is dealt in two orders.
    """
    orders = (1 if player_low == player_high else 2) * (1 if banker_low == banker_high else 2)
    if player_low != player_high and banker_low != banker_high:
        weight = orders
        for value in {player_low, player_high, banker_low, banker_high}:
            weight *= drawn(values[value], used[value], taken)
        return [((NO_PAIR, NO_PAIR), weight)]
    combined: dict[tuple[int, int], int] = {(NO_PAIR, NO_PAIR): orders}
    for value in {player_low, player_high, banker_low, banker_high}:
        player_cards = (player_low == value) + (player_high == value)
        banker_cards = (banker_low == value) + (banker_high == value)
        merged: dict[tuple[int, int], int] = defaultdict(int)
        for (player_state, banker_state), weight in combined.items():
            for (class_player, class_banker), class_weight in split(
                value, player_cards, banker_cards
            ).items():
                key = (
                    player_state if class_player is None else class_player,
                    banker_state if class_banker is None else class_banker,
                )
                merged[key] += weight * class_weight
        combined = merged
    return [(key, weight) for key, weight in combined.items() if weight]
