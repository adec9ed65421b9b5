"""Face patterns: every round counted by the values of each hand, and which cards share a face.

A random-multiplier game (Golden Wealth, Prosperity Tree, Lightning) pays a winning hand by
the *faces* (rank and suit) among its cards that an RNG drew before the round.  Which faces
were drawn is independent of the shoe, and every face is drawn alike, so what a hand's cards
are worth depends only on how many distinct faces they hold and how often each is held: the
hand's *face pattern*, the multiplicities of its distinct faces in descending order (``(1, 1,
1)`` for three different faces, ``(2, 1)`` when two cards are the same face, as an 8-deck
shoe allows).  This module counts both halves of that exactly:

* :func:`enumerate_hand_rounds` walks every round by *value*, keyed by the round's totals,
  cards and naturals and by each hand's values as a sorted tuple (the cheapest key that
  knows the cards of a hand: ten classes, not 52);
* :func:`pattern_weights` splits the ordered ways to deal given values by face pattern, from
  the shoe's 52 face counts: faces of different values never coincide, so the split is a
  product, value by value, of small tables.

The two combine without loss: the ways to deal a round whose multiplied cards have values
*v* are the falling factorials of the value counts over *v* times the ways to deal the rest
given *v*; splitting the first factor by face pattern splits the round's count in the same
proportion (:func:`split_by_pattern`), an exact integer division.

>>> shoe = Shoe.standard(decks=8)
>>> weights = pattern_weights(face_counts(shoe), (3, 3))
>>> weights == {(1, 1): 32 * 31 - 4 * 8 * 7, (2,): 4 * 8 * 7}
True
>>> table = enumerate_hand_rounds(shoe)
>>> sum(table.counts.values()) == 416 * 415 * 414 * 413 * 412 * 411
True
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

from exactodds.cards import VALUES
from exactodds.engine.walk import falling_factorial, require_countable, sequences
from exactodds.errors import ShoeError
from exactodds.rules import FirstDraw, Tableau
from exactodds.shoe import Shoe

__all__ = [
    "HandKey",
    "HandTable",
    "Head",
    "Pattern",
    "enumerate_hand_rounds",
    "face_counts",
    "merge_values",
    "pattern_weights",
    "split_by_pattern",
]

#: The multiplicities of the distinct faces among some cards, descending: (2, 1) is two cards
#: of one face and one of another.
Pattern = tuple[int, ...]
#: A round's totals, cards per hand and naturals.
Head = tuple[int, int, int, int, bool, bool]
#: A round by value: Player total, Banker total, cards per hand, naturals, then each hand's
#: card values sorted ascending.
HandKey = tuple[int, int, int, int, bool, bool, tuple[int, ...], tuple[int, ...]]


@dataclass(frozen=True)
class HandTable:
    """Exact counts of ordered six-card sequences per :data:`HandKey`."""

    counts: Mapping[HandKey, int]
    total: int
    value_counts: tuple[int, ...]

    @cached_property
    def by_cards(self) -> dict[str, dict[tuple[Head, tuple[int, ...]], int]]:
        """The counts summed by (totals, cards, naturals) and the values of some cards.

        Under ``"player"`` the Player's cards, ``"banker"`` the Banker's, ``"round"`` both
        hands' (one pass for the three): what a multiplied bet reads.
        """
        found: dict[str, dict[tuple[Head, tuple[int, ...]], int]] = {
            "player": defaultdict(int),
            "banker": defaultdict(int),
            "round": defaultdict(int),
        }
        player, banker, both = found["player"], found["banker"], found["round"]
        merged: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, ...]] = {}
        for key, count in self.counts.items():
            head: Head = key[:6]
            hands = key[6:]
            player[(head, hands[0])] += count
            banker[(head, hands[1])] += count
            union = merged.get(hands)
            if union is None:
                union = merged[hands] = merge_values(*hands)
            both[(head, union)] += count
        return {role: dict(counts) for role, counts in found.items()}


def face_counts(shoe: Shoe) -> tuple[int, ...]:
    """The shoe's count of each of the 52 faces, rank by rank, suits in order (S, H, D, C).

    >>> face_counts(Shoe.standard(decks=2))[:5]
    (2, 2, 2, 2, 2)
    >>> face_counts(Shoe.standard(decks=8).remove("K"))
    Traceback (most recent call last):
    ...
    exactodds.errors.ShoeError: Multipliers are drawn on faces (rank and suit), and the shoe is known by rank only; name every card with its suit, such as KS or 7H.
    """
    if shoe.suit_counts is None:
        raise ShoeError(
            "Multipliers are drawn on faces (rank and suit), and the shoe is known by rank only; "
            "name every card with its suit, such as KS or 7H."
        )
    return shoe.suit_counts


def merge_values(first: Sequence[int], second: Sequence[int]) -> tuple[int, ...]:
    """Two hands' sorted values as one sorted tuple (the round's cards, for the Tie).

    >>> merge_values((0, 3), (1, 3, 9))
    (0, 1, 3, 3, 9)
    """
    return tuple(sorted((*first, *second)))


@lru_cache(maxsize=1 << 14)
def pattern_weights(faces: tuple[int, ...], values: tuple[int, ...]) -> dict[Pattern, int]:
    """Ordered ways to deal cards of *values* (sorted) from a shoe of *faces*, by face pattern.

    *faces* holds the 52 face counts (:func:`face_counts`); the weights add up to the
    product of the falling factorials of the value counts.

    >>> one_deck = face_counts(Shoe.standard(decks=1))
    >>> pattern_weights(one_deck, (0, 0, 5))
    {(1, 1, 1): 960}
    """
    result: dict[Pattern, int] = {(): 1}
    for value in sorted(set(values)):
        part = _value_patterns(_counts_of_value(faces)[value], values.count(value))
        merged: dict[Pattern, int] = defaultdict(int)
        for pattern, weight in result.items():
            for other, other_weight in part.items():
                key = tuple(sorted((*pattern, *other), reverse=True))
                merged[key] += weight * other_weight
        result = {key: weight for key, weight in merged.items() if weight}
    return result


@lru_cache(maxsize=64)
def _counts_of_value(faces: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Per value 0-9, the counts of its faces that the shoe holds."""
    return tuple(
        tuple(count for index, count in enumerate(faces) if VALUES[index // 4] == value and count)
        for value in range(10)
    )


@lru_cache(maxsize=4096)
def _value_patterns(counts: tuple[int, ...], cards: int) -> dict[Pattern, int]:
    """Ordered ways to deal *cards* positions from faces of *counts*, by pattern.

    Face by face: the face takes ``j`` of the positions left (``C(left, j)`` choices) and
    deals them ``ff(count, j)`` ways; a face that takes none adds nothing to the pattern.
    """
    states: dict[tuple[int, Pattern], int] = {(cards, ()): 1}
    for count in counts:
        following: dict[tuple[int, Pattern], int] = defaultdict(int)
        for (left, pattern), weight in states.items():
            for taken in range(min(left, count) + 1):
                ways = math.comb(left, taken) * falling_factorial(count, taken)
                grown = tuple(sorted((*pattern, taken), reverse=True)) if taken else pattern
                following[(left - taken, grown)] += weight * ways
        states = following
    return {pattern: weight for (left, pattern), weight in states.items() if left == 0 and weight}


def split_by_pattern(
    count: int, faces: tuple[int, ...], value_counts: Sequence[int], values: tuple[int, ...]
) -> dict[Pattern, int]:
    """Split *count* rounds whose multiplied cards have *values* by those cards' face pattern.

    Exact: the count is a multiple of the ways to deal *values* from the shoe's value counts.

    >>> shoe = Shoe.standard(decks=8)
    >>> split_by_pattern(32 * 31 * 10, face_counts(shoe), shoe.value_counts, (3, 3))
    {(2,): 2240, (1, 1): 7680}
    """
    ways = math.prod(
        falling_factorial(value_counts[value], values.count(value)) for value in set(values)
    )
    share, rest = divmod(count, ways)
    if rest:  # pragma: no cover - a broken walk, never user input
        raise AssertionError("a round count is not a multiple of its cards' ways")
    return {pattern: share * weight for pattern, weight in pattern_weights(faces, values).items()}


def enumerate_hand_rounds(shoe: Shoe, tableau: Tableau | None = None) -> HandTable:
    """Count every round *shoe* deals under *tableau*, keyed by each hand's values.

    Cached per (shoe, tableau).

    >>> table = enumerate_hand_rounds(Shoe.from_ranks({"A": 6}))
    >>> dict(table.counts)
    {(3, 3, 3, 3, False, False, (1, 1, 1), (1, 1, 1)): 720}
    >>> enumerate_hand_rounds(Shoe.from_ranks({"A": 5}))
    Traceback (most recent call last):
    ...
    exactodds.errors.ShoeError: The shoe holds 5 cards; a round is counted as a sequence of 6 cards, so a shoe needs at least 6.
    >>> enumerate_hand_rounds(Shoe.infinite_decks())
    Traceback (most recent call last):
    ...
    exactodds.errors.ShoeError: A multiplier overlay's face walk needs a finite shoe, and this shoe is infinite (cards drawn with replacement); use a whole number of decks.
    """
    require_countable(shoe)
    shoe.require_finite("A multiplier overlay's face walk")
    return _cached(shoe, tableau if tableau is not None else Tableau())


@lru_cache(maxsize=32)
def _cached(shoe: Shoe, tableau: Tableau) -> HandTable:
    counts = _walk(list(shoe.value_counts), shoe.cards, tableau)
    if sum(counts.values()) != sequences(shoe.cards):  # pragma: no cover - a broken walk
        raise AssertionError("the hand walk's counts do not add up to n(n-1)...(n-5)")
    return HandTable(dict(counts), sequences(shoe.cards), shoe.value_counts)


def _two(values: list[int], low: int, high: int) -> int:
    """Ordered ways to deal an unordered two-card hand of values *low* <= *high*."""
    return values[low] * (values[high] - (low == high)) * (1 + (low != high))


def _walk(values: list[int], cards: int, tableau: Tableau) -> dict[HandKey, int]:
    counts: dict[HandKey, int] = defaultdict(int)
    hands = [(low, high) for low in range(10) for high in range(low, 10)]
    left = cards - 4
    for player in hands:
        player_ways = _two(values, *player)
        if player_ways <= 0:
            continue
        values[player[0]] -= 1
        values[player[1]] -= 1
        for banker in hands:
            banker_ways = _two(values, *banker)
            if banker_ways <= 0:
                continue
            values[banker[0]] -= 1
            values[banker[1]] -= 1
            _endings(counts, values, tableau, player, banker, player_ways * banker_ways, left)
            values[banker[0]] += 1
            values[banker[1]] += 1
        values[player[0]] += 1
        values[player[1]] += 1
    return counts


#: A two-card hand's sorted values with a third card's: (low, high) -> third -> sorted triple.
_WITH_THIRD: dict[tuple[int, ...], tuple[tuple[int, ...], ...]] = {
    (low, high): tuple(tuple(sorted((low, high, third))) for third in range(10))
    for low in range(10)
    for high in range(low, 10)
}


def _endings(
    counts: dict[HandKey, int],
    values: list[int],
    tableau: Tableau,
    player: tuple[int, ...],
    banker: tuple[int, ...],
    weight: int,
    left: int,
) -> None:
    """Add the rounds that start with these two hands, each hand's third card by value."""
    player_total = sum(player) % 10
    banker_total = sum(banker) % 10
    p_natural = player_total in tableau.natural_totals
    b_natural = banker_total in tableau.natural_totals
    draw = tableau.first_draw(player_total, banker_total)
    if draw is FirstDraw.NATURAL or draw is FirstDraw.NONE:
        key: HandKey = (player_total, banker_total, 2, 2, p_natural, b_natural, player, banker)
        counts[key] += weight * left * (left - 1)
        return
    stand = weight * (left - 1)
    banker_thirds = _WITH_THIRD[banker]
    if draw is FirstDraw.BANKER:
        for third in range(10):
            if values[third] > 0:
                key = (
                    player_total,
                    (banker_total + third) % 10,
                    2,
                    3,
                    p_natural,
                    b_natural,
                    player,
                    banker_thirds[third],
                )
                counts[key] += stand * values[third]
        return
    draws = tableau.banker_draws[banker_total]
    player_thirds = _WITH_THIRD[player]
    for third in range(10):
        third_ways = values[third]
        if third_ways <= 0:
            continue
        final = (player_total + third) % 10
        hand = player_thirds[third]
        if not draws[third]:
            key = (final, banker_total, 3, 2, p_natural, b_natural, hand, banker)
            counts[key] += stand * third_ways
            continue
        values[third] -= 1
        both = weight * third_ways
        for banker_third in range(10):
            ways = values[banker_third]
            if ways > 0:
                key = (
                    final,
                    (banker_total + banker_third) % 10,
                    3,
                    3,
                    p_natural,
                    b_natural,
                    hand,
                    banker_thirds[banker_third],
                )
                counts[key] += both * ways
        values[third] += 1
