"""Face patterns: every round counted by what its multiplied cards' faces can be, exactly.

A random-multiplier game (Golden Wealth, Prosperity Tree, Lightning) pays a winning hand by
the *faces* (rank and suit) among its cards that an RNG drew before the round.  Which faces
were drawn is independent of the shoe, and every face is drawn alike, so what a hand's cards
are worth depends only on how many distinct faces they hold and how often each is held: the
hand's *face pattern*, the multiplicities of its distinct faces in descending order (``(1, 1,
1)`` for three different faces, ``(2, 1)`` when two cards are the same face, as an 8-deck
shoe allows).  This module counts both halves of that exactly:

* :func:`face_terms` walks every round of a tableau by *value* once, independent of any shoe
  (as :mod:`exactodds.engine.coefficients` does), and keeps, per round summary and per
  *signature* of the multiplied cards' values (how many are single values, and the values
  held more than once), the count polynomial in the shoe's value counts; a shoe is then a
  few sums of :func:`~exactodds.engine.coefficients.multiset_weights`;
* :func:`pattern_weights` splits the ordered ways to deal given values by face pattern, from
  the shoe's 52 face counts: faces of different values never coincide, so the split is a
  product, value by value, of small tables, and a value held once is always one face.

The two combine without loss: the ways to deal a round whose multiplied cards have values
*v* are the falling factorials of the value counts over *v* times the ways to deal the rest
given *v*; splitting the first factor by face pattern splits the round's count in the same
proportion (:func:`split_by_pattern`, :func:`split_by_signature`), an exact integer division.

>>> from exactodds.engine.coefficients import multiset_weights
>>> shoe = Shoe.standard(decks=8)
>>> weights = pattern_weights(face_counts(shoe), (3, 3))
>>> weights == {(1, 1): 32 * 31 - 4 * 8 * 7, (2,): 4 * 8 * 7}
True
>>> counts = face_terms(Tableau())["round"].counts(multiset_weights(shoe.value_counts))
>>> sum(counts.values()) == 416 * 415 * 414 * 413 * 412 * 411
True
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from operator import itemgetter, mul
from typing import Any

from exactodds.cards import VALUES
from exactodds.engine.coefficients import multiset_plan
from exactodds.engine.walk import falling_factorial
from exactodds.errors import ShoeError
from exactodds.rules import FirstDraw, Tableau
from exactodds.shoe import Shoe

__all__ = [
    "ROLES",
    "FaceTerms",
    "HandKey",
    "Head",
    "Pattern",
    "Signature",
    "face_counts",
    "face_terms",
    "merge_values",
    "pattern_weights",
    "signature",
    "split_by_pattern",
    "split_by_signature",
]

#: The multiplicities of the distinct faces among some cards, descending: (2, 1) is two cards
#: of one face and one of another.
Pattern = tuple[int, ...]
#: A round's totals, cards per hand and naturals.
Head = tuple[int, int, int, int, bool, bool]
#: A round by value: Player total, Banker total, cards per hand, naturals, then each hand's
#: card values sorted ascending.
HandKey = tuple[int, int, int, int, bool, bool, tuple[int, ...], tuple[int, ...]]
#: What the face pattern of some cards depends on: how many of their values are held once, and
#: the values held more than once (sorted, each as often as held).
Signature = tuple[int, tuple[int, ...]]


@dataclass(frozen=True)
class FaceTerms:
    """Per round summary and signature of one role's cards, a count polynomial, sparse.

    ``terms[head]`` lists ``(signature, rows, coefficients)``: the rows of
    :func:`~exactodds.engine.coefficients.multiset_plan` and how many ordered value sequences
    with each row's multiset end in *head* with the role's cards of that signature.
    """

    terms: Mapping[Head, tuple[tuple[Signature, tuple[int, ...], tuple[int, ...]], ...]]
    _gathers: Mapping[Head, tuple[Any, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(
            self,
            "_gathers",
            {
                # One spare row, so that itemgetter returns a tuple for a one-row entry too
                # (map stops at the coefficients' end).
                head: tuple(itemgetter(*rows, rows[0]) for _, rows, _ in entries)
                for head, entries in self.terms.items()
            },
        )

    def counts(
        self, weights: Sequence[int], wanted: Callable[[Head], bool] | None = None
    ) -> dict[tuple[Head, Signature], int]:
        """Exact counts per (head, signature) for the shoe of *weights*, *wanted* heads only.

        *weights* are :func:`~exactodds.engine.coefficients.multiset_weights`' for the shoe.
        """
        found: dict[tuple[Head, Signature], int] = {}
        for head, entries in self.terms.items():
            if wanted is not None and not wanted(head):
                continue
            for (key, _, coefficients), gather in zip(entries, self._gathers[head], strict=True):
                count = sum(map(mul, coefficients, gather(weights)))
                if count:
                    found[(head, key)] = count
        return found


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
    counts_of_value = _counts_of_value(faces)
    return _merged_patterns(
        tuple(sorted((counts_of_value[value], values.count(value)) for value in set(values)))
    )


@lru_cache(maxsize=1 << 12)
def _merged_patterns(parts: tuple[tuple[tuple[int, ...], int], ...]) -> dict[Pattern, int]:
    """The product of :func:`_value_patterns` over *parts* (a value's face counts, its cards).

    Keyed by the face counts rather than the values, so that values whose faces a shoe holds
    alike (every value but 0 in a full shoe) share one entry.
    """
    result: dict[Pattern, int] = {(): 1}
    for counts, cards in parts:
        part = _value_patterns(counts, cards)
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


def signature(values: Sequence[int]) -> Signature:
    """How many of *values* are held once, and the values held more than once.

    >>> signature((3, 0, 3, 7))
    (2, (3, 3))
    >>> signature(())
    (0, ())
    """
    held = Counter(values)
    repeated = tuple(
        sorted(value for value, times in held.items() if times > 1 for _ in range(times))
    )
    return sum(1 for times in held.values() if times == 1), repeated


def split_by_signature(
    count: int, faces: tuple[int, ...], value_counts: Sequence[int], key: Signature
) -> dict[Pattern, int]:
    """Split *count* rounds whose multiplied cards have signature *key* by face pattern.

    The values held once are one face each; the values held more than once split as
    :func:`split_by_pattern` splits them (exact: every round of the signature deals them).

    >>> shoe = Shoe.standard(decks=8)
    >>> split_by_signature(32 * 31 * 10, face_counts(shoe), shoe.value_counts, (1, (3, 3)))
    {(2, 1): 2240, (1, 1, 1): 7680}
    """
    singles, repeated = key
    return {
        tuple(sorted((*pattern, *(1,) * singles), reverse=True)): share
        for pattern, share in split_by_pattern(count, faces, value_counts, repeated).items()
    }


#: The roles whose cards a bet multiplies: the Player's hand, the Banker's, the whole round.
ROLES = ("player", "banker", "round")


def face_terms(tableau: Tableau) -> Mapping[str, FaceTerms]:
    """Per role, the rounds of *tableau* by summary and signature, as count polynomials.

    Independent of any shoe; compiled once per tableau and process.  A round's count is
    its coefficient times :func:`~exactodds.engine.coefficients.multiset_weights` at the
    row of all its cards' values, so every role reads the same walk.

    >>> from exactodds.engine.coefficients import multiset_weights
    >>> terms = face_terms(Tableau())
    >>> sorted(terms)
    ['banker', 'player', 'round']
    >>> counts = terms["player"].counts(multiset_weights((0, 6, 0, 0, 0, 0, 0, 0, 0, 0)))
    >>> counts
    {((3, 3, 3, 3, False, False), (0, (1, 1, 1))): 720}
    """
    return _face_terms(tableau)


@lru_cache(maxsize=8)
def _face_terms(tableau: Tableau) -> dict[str, FaceTerms]:
    plan = multiset_plan()
    row_of = {combination: row for row, combination in enumerate(plan.combinations)}
    # Heads and signatures numbered, so that a key is one integer, head * spread + signature:
    # ints hash fast.
    heads: dict[Head, int] = {}
    numbered: dict[Signature, int] = {}
    hand_signatures: dict[tuple[int, ...], int] = {}
    row_signatures: dict[int, int] = {}
    spread = 1 << 12  # more than the signatures of at most six values
    found: tuple[dict[int, dict[int, int]], ...] = ({}, {}, {})
    player_terms, banker_terms, round_terms = found
    for key, coefficient in _hand_coefficients(tableau).items():
        head = heads.setdefault(key[:6], len(heads)) * spread
        player, banker = key[6], key[7]
        row = row_of[merge_values(player, banker)]
        union = row_signatures.get(row)
        if union is None:
            union = row_signatures[row] = _number(numbered, plan.combinations[row])
        player_signature = hand_signatures.get(player)
        if player_signature is None:
            player_signature = hand_signatures[player] = _number(numbered, player)
        banker_signature = hand_signatures.get(banker)
        if banker_signature is None:
            banker_signature = hand_signatures[banker] = _number(numbered, banker)
        for terms, number in (
            (player_terms, head + player_signature),
            (banker_terms, head + banker_signature),
            (round_terms, head + union),
        ):
            by_row = terms.get(number)
            if by_row is None:
                by_row = terms[number] = {}
            by_row[row] = by_row.get(row, 0) + coefficient
    head_of = {number: head for head, number in heads.items()}
    signature_of = {number: key for key, number in numbered.items()}
    return {
        role: _grouped(terms, head_of, signature_of, spread)
        for role, terms in zip(ROLES, found, strict=True)
    }


def _number(numbered: dict[Signature, int], values: tuple[int, ...]) -> int:
    """The number of the signature of *values*, numbering it if new."""
    return numbered.setdefault(signature(values), len(numbered))


def _grouped(
    terms: Mapping[int, Mapping[int, int]],
    head_of: Mapping[int, Head],
    signature_of: Mapping[int, Signature],
    spread: int,
) -> FaceTerms:
    """Numbered entries as :class:`FaceTerms`: heads and signatures sorted, rows increasing."""
    by_head: dict[Head, list[tuple[Signature, tuple[int, ...], tuple[int, ...]]]] = {}
    for key, by_row in terms.items():
        head, numbered = divmod(key, spread)
        rows = tuple(sorted(by_row))
        by_head.setdefault(head_of[head], []).append(
            (signature_of[numbered], rows, tuple(by_row[row] for row in rows))
        )
    return FaceTerms({head: tuple(sorted(by_head[head])) for head in sorted(by_head)})


def _hand_coefficients(tableau: Tableau) -> dict[HandKey, int]:
    """How many ordered value sequences end in each :data:`HandKey` (no shoe yet).

    Each hand's first two cards are one unordered pair of values weighted by its orders;
    each third card is one value.
    """
    counts: dict[HandKey, int] = defaultdict(int)
    hands = [(low, high) for low in range(10) for high in range(low, 10)]
    for player in hands:
        for banker in hands:
            orders = (1 + (player[0] != player[1])) * (1 + (banker[0] != banker[1]))
            _endings(counts, tableau, player, banker, orders)
    return counts


#: A two-card hand's sorted values with a third card's: (low, high) -> third -> sorted triple.
_WITH_THIRD: dict[tuple[int, ...], tuple[tuple[int, ...], ...]] = {
    (low, high): tuple(tuple(sorted((low, high, third))) for third in range(10))
    for low in range(10)
    for high in range(low, 10)
}


def _endings(
    counts: dict[HandKey, int],
    tableau: Tableau,
    player: tuple[int, ...],
    banker: tuple[int, ...],
    orders: int,
) -> None:
    """Add the value sequences that start with these two hands, each third card by value."""
    player_total = sum(player) % 10
    banker_total = sum(banker) % 10
    p_natural = player_total in tableau.natural_totals
    b_natural = banker_total in tableau.natural_totals
    draw = tableau.first_draw(player_total, banker_total)
    if draw is FirstDraw.NATURAL or draw is FirstDraw.NONE:
        counts[(player_total, banker_total, 2, 2, p_natural, b_natural, player, banker)] += orders
        return
    banker_thirds = _WITH_THIRD[banker]
    if draw is FirstDraw.BANKER:
        for third in range(10):
            final = (banker_total + third) % 10
            hand = banker_thirds[third]
            counts[(player_total, final, 2, 3, p_natural, b_natural, player, hand)] += orders
        return
    draws = tableau.banker_draws[banker_total]
    player_thirds = _WITH_THIRD[player]
    for third in range(10):
        final = (player_total + third) % 10
        hand = player_thirds[third]
        if not draws[third]:
            counts[(final, banker_total, 3, 2, p_natural, b_natural, hand, banker)] += orders
            continue
        for banker_third in range(10):
            banker_final = (banker_total + banker_third) % 10
            banker_hand = banker_thirds[banker_third]
            counts[(final, banker_final, 3, 3, p_natural, b_natural, hand, banker_hand)] += orders
