"""Card-level sums compiled once into terms of falling factorials: the card walk for many shoes.

:func:`~exactodds.engine.cardwalk.enumerate_card_rounds` walks one shoe's rounds class by
class in Python: exact, and a fraction of a second (a bet on the Player's first two cards) to
seconds (a bet on every card) a shoe.  A simulation prices the shoe left before every round of
thousands of shoes, and needs one number a shoe: the sum, over every round, of a fixed integer
*value* of its :class:`~exactodds.engine.cardwalk.CardRound` (a bet's pay) times the ordered
six-card sequences that deal it.  Each round's sequences are a product of six linear factors
in the shoe's counts, the card walk's weights written out:

    orders x prod_c ff(n_c, k_c) x prod_v ff(n_v - r_v, u_v) x ff(N - d, 6 - d)

for ``k_c`` read cards of class ``c``, ``u_v`` cards of value ``v`` not read beside the
``r_v`` that are, ``d`` cards dealt and ``N`` in the shoe (the ways to deal given classes do
not depend on the order they are dealt in, as the card walk uses).  :func:`compile_card_terms`
walks the rounds of a :class:`~exactodds.engine.cardwalk.CardView` once, *for no shoe*, with
numpy over the Banker's hands and the third cards; rounds worth the most common value are left
to ``base x ff(N, 6)``, and the rest merge by their six factors into terms.
:meth:`CardTerms.evaluate` then prices any number of shoes by gathers and products of exact
integers (int64 where a proven bound allows, Python integers otherwise).

The walk of :mod:`~exactodds.engine.cardwalk` stays the reference: it supplies the classes, the
rounds' keys and the :class:`~exactodds.engine.cardwalk.CardRound` each key stands for, and the
tests hold the two equal on many shoes.

>>> from exactodds.engine.cardwalk import CardView
>>> view = CardView(suited=True, player_first=True)
>>> terms = compile_card_terms(view, Tableau(), lambda round_: int(bool(round_.player_suited)))
>>> shoe = Shoe.standard(decks=1)
>>> from fractions import Fraction
>>> Fraction(terms.evaluate([shoe.rank_counts], [shoe.suit_counts])[0], shoe.sequences)
Fraction(4, 17)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from exactodds.cards import VALUES
from exactodds.engine.cardwalk import CardRound, CardView, CardWalk, walk_class
from exactodds.errors import ShoeError
from exactodds.rules import FirstDraw, Tableau
from exactodds.shoe import Shoe

__all__ = ["MOST_LEAVES", "CardTerms", "compile_card_terms", "dealt_card_round", "leaf_count"]

IntArray = npt.NDArray[np.int64]

#: Offsets 0-6 of each source count (a falling factorial of at most six cards).
_OFFSETS = 7
#: The most rounds (by class where read, by value elsewhere) a compile walks: a view past it
#: (the four suits of every card: 338 million; with ranks, some 5 billion) is priced by the card
#: walk, shoe by shoe.  One mark (a bet on hearts: 5.7 million) compiles; two (61 million) do not.
MOST_LEAVES = 40_000_000
#: Positions of a round's cards in the leaf arrays: Player 1-2, Banker 1-2, Player 3, Banker 3.
_POSITIONS = 6


@dataclass(frozen=True)
class CardTerms:
    """A card-level sum as terms: ``base x ff(N, 6) + sum of coefficient x six factors``.

    ``factors`` holds each term's six factor codes, ``source * 7 + offset``: the factor is
    the source's count less *offset*; sources are the view's classes (``0 .. classes - 1``),
    then the ten values, then the shoe's size.  ``type_classes`` maps each card type (the 52
    faces, rank by rank and suits S H D C, when ``suited``; else the 13 ranks) to its class.
    """

    view: CardView
    suited: bool
    type_classes: tuple[int, ...]
    classes: int
    factors: IntArray
    coefficients: IntArray
    base: int
    largest_value: int

    def evaluate(
        self,
        rank_rows: Sequence[Sequence[int]] | npt.NDArray[Any],
        suit_rows: Sequence[Sequence[int] | None] | npt.NDArray[Any] | None = None,
    ) -> list[int]:
        """The sum for each shoe: 13 rank counts a row, and 52 face counts where suited.

        Exact: int64 where ``N**6 x`` twice the largest value stays below 2**62 (every partial
        sum is bounded by it), Python integers otherwise.

        >>> view = CardView(colours=True, values=False, whole_round=True)
        >>> every = compile_card_terms(view, Tableau(), lambda round_: 1)
        >>> every.evaluate([Shoe.standard(decks=1).rank_counts], [(1,) * 52]) == [
        ...     52 * 51 * 50 * 49 * 48 * 47]
        True
        >>> every.evaluate([Shoe.standard(decks=1).rank_counts])
        Traceback (most recent call last):
        ...
        exactodds.errors.ShoeError: The card terms read suits or colours; give the 52 face counts of every shoe.
        """
        ranks = np.asarray(rank_rows, dtype=np.int64).reshape(-1, 13)
        if self.suited:
            if suit_rows is None or any(row is None for row in suit_rows):
                raise ShoeError(
                    "The card terms read suits or colours; give the 52 face counts of every shoe."
                )
            types = np.asarray(suit_rows, dtype=np.int64).reshape(-1, 52)
        else:
            types = ranks
        cards = ranks.sum(axis=1)
        largest = int(cards.max()) if len(cards) else 0
        exact = largest**6 * 2 * max(self.largest_value, 1) < 2**62
        dtype: Any = np.int64 if exact else object
        sources = np.concatenate(
            [
                types @ _class_matrix(self.type_classes, self.classes),
                ranks @ _VALUE_MATRIX,
                cards[:, None],
            ],
            axis=1,
        ).astype(dtype)
        shifted = (sources[:, :, None] - np.arange(_OFFSETS, dtype=np.int64)).reshape(
            len(ranks), -1
        )
        coefficients = self.coefficients.astype(dtype)
        totals = [self.base * _falling(int(count), 6) for count in cards]
        step = max(1, 1_000_000 // max(len(self.coefficients), 1))
        for start in range(0, len(ranks), step):
            block = shifted[start : start + step]
            product = block[:, self.factors[:, 0]]
            for column in range(1, _POSITIONS):
                product = product * block[:, self.factors[:, column]]
            sums = (product * coefficients).sum(axis=1)
            for row, value in enumerate(sums.tolist(), start=start):
                totals[row] += int(value)
        return totals


def _falling(count: int, taken: int) -> int:
    return math.prod(range(count - taken + 1, count + 1))


#: Rank (A 2 ... 9 T J Q K) -> value, as a 13 x 10 matrix.
_VALUE_MATRIX: IntArray = np.array(
    [[int(VALUES[rank] == value) for value in range(10)] for rank in range(13)], dtype=np.int64
)


@lru_cache(maxsize=64)
def _class_matrix(type_classes: tuple[int, ...], classes: int) -> IntArray:
    matrix = np.zeros((len(type_classes), classes), dtype=np.int64)
    matrix[np.arange(len(type_classes)), type_classes] = 1
    return matrix


@lru_cache(maxsize=64)
def _template(view: CardView, tableau: Tableau) -> CardWalk:
    """The card walk's classes and keys for *view*: every card type, one deck (never walked)."""
    shoe = Shoe.standard(decks=1)
    if not view.needs_suits:
        shoe = Shoe.from_checked_counts(shoe.rank_counts, None)
    return CardWalk(shoe, view, tableau)


@dataclass(frozen=True)
class _Hands:
    """A hand's first two cards, each option: codes, values, orders and its first-two key id."""

    low: IntArray
    high: IntArray
    low_value: IntArray
    high_value: IntArray
    orders: IntArray
    first: IntArray


def _hands(walk: CardWalk, read: bool, firsts: dict[Any, int]) -> _Hands:
    """Every unordered first two cards: classes (codes 0..C-1) if read, else values (C + v)."""
    classes = len(walk.class_counts)
    rows: list[tuple[int, int, int, int, int, int]] = []
    if read:
        for low in range(classes):
            for high in range(low, classes):
                first = firsts.setdefault(walk._first(low, high), len(firsts) + 1)
                values = walk.class_values
                rows.append((low, high, values[low], values[high], 1 + (low != high), first))
    else:
        for low in range(10):
            for high in range(low, 10):
                rows.append((classes + low, classes + high, low, high, 1 + (low != high), 0))
    columns = np.array(rows, dtype=np.int64).T
    return _Hands(*columns)


def leaf_count(view: CardView, tableau: Tableau | None = None) -> int:
    """How many rounds :func:`compile_card_terms` walks for *view* (before any is merged).

    >>> leaf_count(CardView(suited=True, player_first=True)) < leaf_count(
    ...     CardView(colours=True, whole_round=True))
    True
    """
    tableau = tableau if tableau is not None else Tableau()
    walk = _template(view, tableau)
    classes = len(walk.class_counts)
    player = _total_counts(walk, view.reads_player)
    banker = _total_counts(walk, view.reads_banker)
    thirds = classes if view.whole_round else 10
    per_value = [
        sum(1 for value in walk.class_values if value == v) if view.whole_round else 1
        for v in range(10)
    ]
    total = 0
    for player_total in range(10):
        for banker_total in range(10):
            pairs = player[player_total] * banker[banker_total]
            if not pairs:
                continue
            draw = tableau.first_draw(player_total, banker_total)
            if draw in (FirstDraw.NATURAL, FirstDraw.NONE):
                total += pairs
            elif draw is FirstDraw.BANKER:
                total += pairs * thirds
            else:
                draws = tableau.banker_draws[banker_total]
                total += pairs * sum(
                    per_value[third] * (thirds if draws[third] else 1) for third in range(10)
                )
    return total


def _total_counts(walk: CardWalk, read: bool) -> list[int]:
    """How many first-two options of each two-card total a hand has."""
    values = walk.class_values if read else list(range(10))
    counts = [0] * 10
    for low in range(len(values)):
        for high in range(low, len(values)):
            counts[(values[low] + values[high]) % 10] += 1
    return counts


def compile_card_terms(
    view: CardView,
    tableau: Tableau,
    value_of: Callable[[CardRound], int],
    most_leaves: int = MOST_LEAVES,
) -> CardTerms:
    """The terms of ``sum over rounds of value_of(round) x sequences`` for every shoe.

    *value_of* is called once per distinct :class:`~exactodds.engine.cardwalk.CardRound`
    the view tells apart (a few thousand).  A view that walks more than *most_leaves* rounds
    is refused (one sentence) before any is walked.

    >>> compile_card_terms(CardView(ranks=True, suits=True, whole_round=True), Tableau(),
    ...                    lambda round_: 0)
    Traceback (most recent call last):
    ...
    exactodds.errors.ShoeError: The card view walks 1,674,942,256 rounds to compile, more than 40,000,000; price it with the card walk, shoe by shoe.
    """
    leaves = leaf_count(view, tableau)
    if leaves > most_leaves:
        raise ShoeError(
            f"The card view walks {leaves:,} rounds to compile, more than {most_leaves:,}; "
            "price it with the card walk, shoe by shoe."
        )
    compiler = _Compiler(_template(view, tableau), view, tableau, value_of)
    return compiler.run()


class _Compiler:
    """One compile: the walk's classes, the memo of values by key, the terms found so far."""

    def __init__(
        self, walk: CardWalk, view: CardView, tableau: Tableau, value_of: Callable[[CardRound], int]
    ) -> None:
        self.walk = walk
        self.view = view
        self.tableau = tableau
        self.value_of = value_of
        self.classes = len(walk.class_counts)
        self.sources = self.classes + 11
        firsts: dict[Any, int] = {}
        self.player = _hands(walk, view.reads_player, firsts)
        self.banker = _hands(walk, view.reads_banker, firsts)
        self.first_keys: dict[int, Any] = {number: key for key, number in firsts.items()}
        self.first_radix = len(firsts) + 1
        self.key_radix = len(walk.key_classes) + 2
        if view.whole_round:
            self.third_codes = np.arange(self.classes, dtype=np.int64)
            self.third_values = np.array(walk.class_values, dtype=np.int64)
            self.third_keys = np.array([key + 2 for key in walk.key_of], dtype=np.int64)
        else:
            self.third_codes = np.arange(self.classes, self.classes + 10, dtype=np.int64)
            self.third_values = np.arange(10, dtype=np.int64)
            self.third_keys = np.zeros(10, dtype=np.int64)
        self.absent_key = 1 if view.whole_round else 0
        self.values: dict[int, int] = {}
        empty = np.zeros(0, dtype=np.int64)
        self.known: tuple[IntArray, IntArray] = (empty, empty)
        self.base: int | None = None
        self.found: list[tuple[IntArray, IntArray]] = []
        kinds = np.zeros((10, 10), dtype=np.int64)
        for player_total in range(10):
            for banker_total in range(10):
                draw = tableau.first_draw(player_total, banker_total)
                kinds[player_total, banker_total] = (
                    2 if draw is FirstDraw.PLAYER else 1 if draw is FirstDraw.BANKER else 0
                )
        self.kinds = kinds
        self.banker_draws = np.array(tableau.banker_draws, dtype=bool)
        self.naturals = np.array([total in tableau.natural_totals for total in range(10)])

    def run(self) -> CardTerms:
        player = self.player
        for index in range(len(player.low)):
            self._player_hand(index)
        codes = np.concatenate([codes for codes, _ in self.found]) if self.found else None
        sums = np.concatenate([sums for _, sums in self.found]) if self.found else None
        if codes is None or sums is None:
            factors = np.zeros((0, _POSITIONS), dtype=np.int64)
            coefficients = np.zeros(0, dtype=np.int64)
        else:
            unique, inverse = np.unique(codes, return_inverse=True)
            coefficients = np.zeros(len(unique), dtype=np.int64)
            np.add.at(coefficients, inverse.reshape(-1), sums)
            keep = coefficients != 0
            unique, coefficients = unique[keep], coefficients[keep]
            radix = self.sources * _OFFSETS
            factors = np.stack(
                [(unique // radix**position) % radix for position in range(_POSITIONS)], axis=1
            )
        walk = self.walk
        suited = self.view.needs_suits
        type_classes = _type_classes(walk, suited)
        largest = max((abs(value) for value in self.values.values()), default=0)
        return CardTerms(
            self.view,
            suited,
            type_classes,
            self.classes,
            factors,
            coefficients,
            self.base or 0,
            largest,
        )

    def _player_hand(self, index: int) -> None:
        """Every round that starts with the Player's option *index*, the Banker's in numpy."""
        player, banker = self.player, self.banker
        p_values = (int(player.low_value[index]), int(player.high_value[index]))
        player_total = sum(p_values) % 10
        banker_totals = (banker.low_value + banker.high_value) % 10
        kinds = self.kinds[player_total][banker_totals]
        rows = np.arange(len(banker.low))
        parts: list[dict[str, IntArray]] = []
        stop = rows[kinds == 0]
        parts.append(self._rows(stop, banker_totals, player_total, None, None))
        banker_only = rows[kinds == 1]
        thirds = len(self.third_codes)
        parts.append(
            self._rows(
                np.repeat(banker_only, thirds),
                banker_totals,
                player_total,
                None,
                np.tile(np.arange(thirds), len(banker_only)),
            )
        )
        drawing = rows[kinds == 2]
        first = np.repeat(drawing, thirds)
        third = np.tile(np.arange(thirds), len(drawing))
        draws = self.banker_draws[banker_totals[first], self.third_values[third]]
        parts.append(self._rows(first[~draws], banker_totals, player_total, third[~draws], None))
        both = np.repeat(np.arange(len(first))[draws], thirds)
        parts.append(
            self._rows(
                first[both],
                banker_totals,
                player_total,
                third[both],
                np.tile(np.arange(thirds), int(draws.sum())),
            )
        )
        columns = {name: np.concatenate([part[name] for part in parts]) for name in parts[0]}
        self._add(index, columns)

    def _rows(
        self,
        banker_rows: IntArray,
        banker_totals: IntArray,
        player_total: int,
        player_third: IntArray | None,
        banker_third: IntArray | None,
    ) -> dict[str, IntArray]:
        """The leaf columns of rounds on these Banker options and third-card options."""
        size = len(banker_rows)
        absent = np.full(size, -1, dtype=np.int64)
        b_total = banker_totals[banker_rows]

        two, three = np.full(size, 2, dtype=np.int64), np.full(size, 3, dtype=np.int64)

        def third(choice: IntArray | None, total: IntArray | int) -> tuple[IntArray, ...]:
            if choice is None:
                return absent, absent, total + np.zeros(size, dtype=np.int64), two
            values = self.third_values[choice]
            return self.third_codes[choice], values, (total + values) % 10, three

        p_code, p_value, p_final, p_cards = third(player_third, player_total)
        b_code, b_value, b_final, b_cards = third(banker_third, b_total)
        return {
            "b": banker_rows,
            "p_code": p_code,
            "p_value": p_value,
            "p_final": p_final,
            "p_cards": p_cards,
            "p_key": self._third_key(player_third, size),
            "b_code": b_code,
            "b_value": b_value,
            "b_final": b_final,
            "b_cards": b_cards,
            "b_key": self._third_key(banker_third, size),
        }

    def _third_key(self, choice: IntArray | None, size: int) -> IntArray:
        if choice is None:
            return np.full(size, self.absent_key, dtype=np.int64)
        return self.third_keys[choice]

    def _add(self, index: int, columns: dict[str, IntArray]) -> None:
        """Value each leaf (by its key, once per key), keep those off the base, merge them."""
        player, banker = self.player, self.banker
        rows = columns["b"]
        b_totals = (banker.low_value[rows] + banker.high_value[rows]) % 10
        player_total = int((player.low_value[index] + player.high_value[index]) % 10)
        key = columns["p_final"] * 10 + columns["b_final"]
        key = key * 2 + (columns["p_cards"] - 2)
        key = key * 2 + (columns["b_cards"] - 2)
        key = key * 2 + int(self.naturals[player_total])
        key = key * 2 + self.naturals[b_totals]
        key = key * self.first_radix + int(player.first[index])
        key = key * self.first_radix + banker.first[rows]
        key = key * self.key_radix + columns["p_key"]
        key = key * self.key_radix + columns["b_key"]
        unique, inverse = np.unique(key, return_inverse=True)
        values = self._values_of(unique)
        if self.base is None:
            counts = np.bincount(inverse.reshape(-1), minlength=len(unique))
            self.base = int(values[int(np.argmax(counts))])
        relative = values[inverse.reshape(-1)] - self.base
        keep = relative != 0
        if not keep.any():
            return
        orders = player.orders[index] * banker.orders[rows[keep]] * relative[keep]
        codes = np.stack(
            [
                np.full(int(keep.sum()), player.low[index], dtype=np.int64),
                np.full(int(keep.sum()), player.high[index], dtype=np.int64),
                banker.low[rows[keep]],
                banker.high[rows[keep]],
                columns["p_code"][keep],
                columns["b_code"][keep],
            ],
            axis=1,
        )
        self.found.append(self._merged(codes, orders))

    def _merged(self, codes: IntArray, weights: IntArray) -> tuple[IntArray, IntArray]:
        """Each leaf's six factors as one sorted code, leaves of one code summed."""
        classes = self.classes
        present = codes >= 0
        read = present & (codes < classes)
        values = np.where(
            read,
            np.array([*self.walk.class_values, 0])[np.minimum(codes, classes)],
            codes - classes,
        )
        dealt = present.sum(axis=1)
        factors = np.empty_like(codes)
        for position in range(_POSITIONS):
            code = codes[:, position]
            before = np.zeros(len(codes), dtype=np.int64)
            absent_before = np.zeros(len(codes), dtype=np.int64)
            for earlier in range(position):
                before += codes[:, earlier] == code
                absent_before += ~present[:, earlier]
            read_of_value = np.zeros(len(codes), dtype=np.int64)
            for other in range(_POSITIONS):
                read_of_value += read[:, other] & (values[:, other] == values[:, position])
            source = np.where(
                read[:, position],
                code,
                np.where(present[:, position], code, self.sources - 1),
            )
            offset = np.where(
                read[:, position],
                before,
                np.where(present[:, position], read_of_value + before, dealt + absent_before),
            )
            factors[:, position] = source * _OFFSETS + offset
        factors.sort(axis=1)
        radix = self.sources * _OFFSETS
        combined = np.zeros(len(codes), dtype=np.int64)
        for position in reversed(range(_POSITIONS)):
            combined = combined * radix + factors[:, position]
        unique, inverse = np.unique(combined, return_inverse=True)
        sums = np.zeros(len(unique), dtype=np.int64)
        np.add.at(sums, inverse.reshape(-1), weights)
        return unique, sums

    def _values_of(self, codes: IntArray) -> IntArray:
        """The values of the rounds of sorted distinct key *codes*: those seen before by a
        sorted lookup, the new ones by :meth:`_value` (the key decoded, the round valued)."""
        known, known_values = self.known
        places = np.minimum(np.searchsorted(known, codes), max(len(known) - 1, 0))
        seen = known[places] == codes if len(known) else np.zeros(len(codes), dtype=bool)
        values = np.where(seen, known_values[places] if len(known) else 0, 0)
        new = codes[~seen]
        if len(new):
            found = np.array([self._value(int(code)) for code in new.tolist()], dtype=np.int64)
            values[~seen] = found
            merged = np.concatenate([known, new])
            order = np.argsort(merged, kind="stable")
            self.known = (merged[order], np.concatenate([known_values, found])[order])
        return values.astype(np.int64)

    def _value(self, code: int) -> int:
        """The value of the round of key *code* (decoded to the card walk's key), memoised."""
        found = self.values.get(code)
        if found is not None:
            return found
        rest, b_third = divmod(code, self.key_radix)
        rest, p_third = divmod(rest, self.key_radix)
        rest, b_first = divmod(rest, self.first_radix)
        rest, p_first = divmod(rest, self.first_radix)
        rest, b_natural = divmod(rest, 2)
        rest, p_natural = divmod(rest, 2)
        rest, b_cards = divmod(rest, 2)
        rest, p_cards = divmod(rest, 2)
        p_final, b_final = divmod(rest, 10)
        key = (
            p_final,
            b_final,
            p_cards + 2,
            b_cards + 2,
            bool(p_natural),
            bool(b_natural),
            self.first_keys.get(p_first),
            self.first_keys.get(b_first),
            None if p_third == 0 else p_third - 2,
            None if b_third == 0 else b_third - 2,
        )
        value = self.values[code] = int(self.value_of(self.walk.card_round(key)))
        return value


def _type_classes(walk: CardWalk, suited: bool) -> tuple[int, ...]:
    """The class id of each card type: the 52 faces when *suited*, else the 13 ranks."""
    ids = {card_class: number for number, card_class in enumerate(walk.classes)}
    if suited:
        return tuple(ids[walk_class(index // 4, index % 4, walk.view)] for index in range(52))
    return tuple(ids[walk_class(rank, None, walk.view)] for rank in range(13))


def dealt_card_round(view: CardView, tableau: Tableau, cards: Sequence[int]) -> CardRound:
    """The :class:`~exactodds.engine.cardwalk.CardRound` a dealt round is, as *view* sees it.

    *cards* are the round's card types in dealing order (Player, Banker, Player, Banker, then
    the third cards), each ``rank * 4 + suit`` (suits S H D C), as a simulation deals them; the
    tableau says which are dealt (cards past the round's are not read).

    >>> round_ = dealt_card_round(CardView(suited=True, player_first=True), Tableau(),
    ...                           [0, 5, 28, 9])  # AS 2H 8S 3H: a suited Player 9
    >>> round_.summary.player_total, round_.player_suited
    (9, True)
    """
    walk = _template(view, tableau)
    classes = _type_classes(walk, True)
    dealt = [classes[card] for card in cards]
    values = [VALUES[card // 4] for card in cards]
    player_total = (values[0] + values[2]) % 10
    banker_total = (values[1] + values[3]) % 10
    draw = tableau.first_draw(player_total, banker_total)
    player, banker = [0, 2], [1, 3]
    if draw is FirstDraw.BANKER:
        banker.append(4)
    elif draw is FirstDraw.PLAYER:
        player.append(4)
        if tableau.banker_draws[banker_total][values[4]]:
            banker.append(5)
    absent: int | None = -1 if view.whole_round else None

    def third(hand: list[int]) -> int | None:
        if len(hand) < 3:
            return absent
        return walk.key_of[dealt[hand[2]]] if view.whole_round else None

    key = (
        sum(values[index] for index in player) % 10,
        sum(values[index] for index in banker) % 10,
        len(player),
        len(banker),
        player_total in tableau.natural_totals,
        banker_total in tableau.natural_totals,
        walk._first(dealt[0], dealt[2]) if view.reads_player else None,
        walk._first(dealt[1], dealt[3]) if view.reads_banker else None,
        third(player),
        third(banker),
    )
    return walk.card_round(key)
