"""The count polynomials of a tableau, in plain Python, compiled once and kept on disk.

Any round outcome's count is a fixed polynomial in the ten value counts
``n_0 ... n_9`` of the shoe: a sum, over the multisets ``m`` of four to six
values a round deals, of an integer coefficient (how many ordered value
sequences with that multiset end in that outcome) times

    ff(n_0, m_0) * ... * ff(n_9, m_9) * ff(N - |m|, 6 - |m|),

where ``ff(n, k) = n (n-1) ... (n-k+1)`` counts the ordered ways to pick ``k``
of ``n`` physical cards, and the last factor fills the unused positions of the
six-card sequence.  :func:`compile_polynomials` finds the coefficients by
walking value sequences once, independent of any shoe.

:func:`polynomials` is the way in: it keeps the result per tableau in memory
and in the user's cache directory (:mod:`exactodds.engine.cache`), so that no
run after the first compiles again.  A cached file is used only after its
label (format and tableau), checksum and structure check out and its counts
add up to every six-card sequence of a probe shoe; anything else is rebuilt.

This module needs no numpy: :meth:`Polynomials.key_counts` evaluates one shoe
with Python integers (exact for any shoe, a few milliseconds), which is what
``exactodds odds`` needs.  :mod:`exactodds.engine.polynomial` turns the same
coefficients into numpy arrays to evaluate many shoes at once.

>>> from exactodds.shoe import Shoe
>>> compiled = compile_polynomials(Tableau())
>>> len(compiled.keys), sum(len(rows) for rows, _ in compiled.terms)
(205, 35564)
>>> counts = compiled.key_counts(Shoe.standard(decks=8).value_counts)
>>> sum(counts) == 416 * 415 * 414 * 413 * 412 * 411
True
"""

from __future__ import annotations

import itertools
import operator
import sys
from array import array
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from operator import itemgetter, mul
from typing import Any

from exactodds.engine import cache as disk
from exactodds.engine.walk import falling_factorial
from exactodds.rules import FirstDraw, Tableau

__all__ = [
    "FORMAT_VERSION",
    "MULTISETS",
    "MultisetPlan",
    "Polynomials",
    "ValueKey",
    "cached_polynomials",
    "compile_polynomials",
    "decode",
    "encode",
    "multiset_plan",
    "multiset_weights",
    "polynomials",
    "tableau_label",
]

#: A round summary without pair detail:
#: (player total, banker total, player cards, banker cards, player natural, banker natural).
ValueKey = tuple[int, int, int, int, bool, bool]

#: Bumped whenever the cached layout or the meaning of the coefficients changes.
FORMAT_VERSION = 1
#: How many multisets of at most six of the ten values there are (the empty one included).
MULTISETS = 8008

# A probe shoe for the check of a cached file: every value count distinct, so that a
# coefficient moved to the wrong multiset changes the total.
_PROBE = (41, 7, 13, 17, 19, 23, 29, 31, 37, 11)


@dataclass(frozen=True)
class MultisetPlan:
    """Every multiset of at most six values, and how to multiply out its falling factorials.

    Row 0 is the empty multiset; rows follow by size, each size in the order of
    ``itertools.combinations_with_replacement(range(10), size)``.  A row's
    product is its parent's (the same multiset with one copy of its largest
    value removed) times one factor ``max(n_value - offset, 0)``, numbered
    ``value * 7 + offset``.

    >>> plan = multiset_plan()
    >>> plan.combinations[12], plan.parents[12], plan.factors[12], plan.sizes[12]
    ((0, 1), 1, 7, 2)
    """

    combinations: tuple[tuple[int, ...], ...]
    parents: tuple[int, ...]
    factors: tuple[int, ...]
    sizes: tuple[int, ...]

    def counts(self, row: int) -> tuple[int, ...]:
        """The multiset of a row as ten value counts.

        >>> multiset_plan().counts(12)
        (1, 1, 0, 0, 0, 0, 0, 0, 0, 0)
        """
        combination = self.combinations[row]
        return tuple(combination.count(value) for value in range(10))


@cache
def multiset_plan() -> MultisetPlan:
    """The multisets and their product plan, built once per process (a few milliseconds).

    Each size's rows extend the previous size's rows, in order, by one value no
    smaller than their largest: that is the order of
    ``combinations_with_replacement``, and it gives each row its parent for free.
    """
    combinations: list[tuple[int, ...]] = [()]
    parents, factors, sizes, largest, offsets = [0], [0], [0], [0], [0]
    previous = [0]
    for size in range(1, 7):
        current = []
        for parent in previous:
            stem = combinations[parent]
            for value in range(largest[parent], 10):
                offset = offsets[parent] + 1 if stem and stem[-1] == value else 0
                current.append(len(combinations))
                combinations.append((*stem, value))
                parents.append(parent)
                factors.append(value * 7 + offset)
                sizes.append(size)
                largest.append(value)
                offsets.append(offset)
        previous = current
    return MultisetPlan(tuple(combinations), tuple(parents), tuple(factors), tuple(sizes))


@dataclass(frozen=True)
class Polynomials:
    """The coefficients of every value-level outcome's count polynomial, sparse.

    ``keys`` are the outcomes, sorted; ``terms[j]`` holds, for ``keys[j]``, the
    multiset rows (of :func:`multiset_plan`, increasing) with a non-zero
    coefficient and those coefficients.

    >>> standard = polynomials(Tableau())
    >>> standard.keys[0], standard.terms[0][0][:3], standard.terms[0][1][:3]
    ((0, 0, 3, 3, False, False), (3003, 3021, 3028), (1, 8, 8))
    """

    tableau: Tableau
    keys: tuple[ValueKey, ...]
    terms: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]
    _gathers: tuple[Any, ...] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        # itemgetter pulls a key's weights in one C call; a one-row key gets a tuple too.
        gathers = tuple(
            itemgetter(*rows) if len(rows) > 1 else (lambda weights, row=rows[0]: (weights[row],))
            for rows, _ in self.terms
        )
        object.__setattr__(self, "_gathers", gathers)

    def key_counts(self, value_counts: Sequence[int]) -> list[int]:
        """Exact counts of every key for one shoe, in Python integers (any shoe size).

        >>> compiled = compile_polynomials(Tableau())
        >>> sum(compiled.key_counts((16, 4, 4, 4, 4, 4, 4, 4, 4, 4)))
        14658134400
        >>> compiled.key_counts((4, 4, 4))
        Traceback (most recent call last):
        ...
        ValueError: A shoe has ten value counts (values 0-9), not 3.
        """
        weights = multiset_weights(value_counts)
        return [
            sum(map(mul, coefficients, gather(weights)))
            for (_, coefficients), gather in zip(self.terms, self._gathers, strict=True)
        ]


def multiset_weights(value_counts: Sequence[int]) -> list[int]:
    """Per row of :func:`multiset_plan`, the ways to deal a six-card sequence from a shoe of
    *value_counts* whose first cards have that row's values: its falling factorials times
    those of the unused positions (what a coefficient multiplies).

    >>> weights = multiset_weights((16, 4, 4, 4, 4, 4, 4, 4, 4, 4))
    >>> weights[0] == 52 * 51 * 50 * 49 * 48 * 47, weights[12] == 16 * 4 * 50 * 49 * 48 * 47
    (True, True)
    >>> multiset_weights((4, 4, 4))
    Traceback (most recent call last):
    ...
    ValueError: A shoe has ten value counts (values 0-9), not 3.
    """
    if len(value_counts) != 10:
        raise ValueError(f"A shoe has ten value counts (values 0-9), not {len(value_counts)}.")
    plan = multiset_plan()
    total = sum(value_counts)
    factors = [max(count - offset, 0) for count in value_counts for offset in range(7)]
    products = [1] * MULTISETS
    for row, parent, factor in zip(
        range(1, MULTISETS), plan.parents[1:], plan.factors[1:], strict=True
    ):
        products[row] = products[parent] * factors[factor]
    tails = [falling_factorial(total - size, 6 - size) for size in range(7)]
    return list(map(mul, products, map(tails.__getitem__, plan.sizes)))


def compile_polynomials(tableau: Tableau) -> Polynomials:
    """Walk every value sequence once and collect the count polynomials of *tableau*.

    Plain computation, no cache (a few tens of milliseconds); :func:`polynomials`
    caches it.  The first four cards are taken as two unordered value hands
    (weighted by their orders), and each third card moves a multiset to its
    child row, so no multiset is built twice.
    """
    naturals = tableau.natural_totals
    banker_draws = tableau.banker_draws
    plan = multiset_plan()
    row_of = {combination: row for row, combination in enumerate(plan.combinations)}
    children_of: dict[int, list[int]] = {}

    def children(row: int) -> list[int]:
        """The rows of the multiset of *row* plus one card of each value."""
        found = children_of.get(row)
        if found is None:
            combination = plan.combinations[row]
            found = [row_of[tuple(sorted((*combination, value)))] for value in range(10)]
            children_of[row] = found
        return found

    # An entry is numbered key code * MULTISETS + row (see _key_code): ints hash fast, and
    # sorting the numbers sorts by key, then by row.
    entries: dict[int, int] = defaultdict(int)
    hands = [(low, high) for low in range(10) for high in range(low, 10)]
    for player_low, player_high in hands:
        for banker_low, banker_high in hands:
            orders = (1 if player_low == player_high else 2) * (
                1 if banker_low == banker_high else 2
            )
            base = row_of[tuple(sorted((player_low, player_high, banker_low, banker_high)))]
            player_total = (player_low + player_high) % 10
            banker_total = (banker_low + banker_high) % 10
            player_natural = player_total in naturals
            banker_natural = banker_total in naturals
            draw = tableau.first_draw(player_total, banker_total)
            if draw is FirstDraw.NATURAL or draw is FirstDraw.NONE:
                code = _key_code(player_total, banker_total, 2, 2, player_natural, banker_natural)
                entries[code * MULTISETS + base] += orders
            elif draw is FirstDraw.BANKER:
                after = children(base)
                for third in range(10):
                    code = _key_code(player_total, (banker_total + third) % 10, 2, 3)
                    entries[code * MULTISETS + after[third]] += orders
            else:
                after = children(base)
                draws = banker_draws[banker_total]
                for third in range(10):
                    final_player = (player_total + third) % 10
                    if draws[third]:
                        after_banker = children(after[third])
                        three_three = _key_code(final_player, 0, 3, 3)
                        for banker_third in range(10):
                            code = three_three + _BANKER_STEP * ((banker_total + banker_third) % 10)
                            entries[code * MULTISETS + after_banker[banker_third]] += orders
                    else:
                        code = _key_code(final_player, banker_total, 3, 2)
                        entries[code * MULTISETS + after[third]] += orders
    numbers = sorted(entries)
    codes = [number // MULTISETS for number in numbers]
    starts = [0, *(at for at in range(1, len(codes)) if codes[at] != codes[at - 1]), len(codes)]
    keys = tuple(_key_of_code(codes[start]) for start in starts[:-1])
    terms = tuple(
        (
            tuple(number % MULTISETS for number in numbers[start:stop]),
            tuple(entries[number] for number in numbers[start:stop]),
        )
        for start, stop in itertools.pairwise(starts)
    )
    return Polynomials(tableau, keys, terms)


# Key codes: naturals in the low bits, then card counts, then the Banker's and the Player's totals.
_BANKER_STEP = 16


def _key_code(
    player_total: int,
    banker_total: int,
    player_cards: int,
    banker_cards: int,
    player_natural: bool = False,
    banker_natural: bool = False,
) -> int:
    """A value key as one small integer, in the keys' sort order (see :func:`_key_of_code`).

    >>> _key_of_code(_key_code(7, 3, 3, 2, False, True))
    (7, 3, 3, 2, False, True)
    """
    return (
        player_total * 160
        + banker_total * _BANKER_STEP
        + (player_cards - 2) * 8
        + (banker_cards - 2) * 4
        + player_natural * 2
        + banker_natural
    )


def _key_of_code(code: int) -> ValueKey:
    player_total, rest = divmod(code, 160)
    banker_total, rest = divmod(rest, _BANKER_STEP)
    return (
        player_total,
        banker_total,
        2 + (rest >> 3 & 1),
        2 + (rest >> 2 & 1),
        bool(rest & 2),
        bool(rest & 1),
    )


def tableau_label(tableau: Tableau) -> bytes:
    """What identifies the polynomials of *tableau* in the cache: format and drawing rules.

    The tableau's name is left out: a rules file that spells out the standard
    tableau shares its polynomials.

    >>> print(tableau_label(Tableau()).decode())
    exactodds count polynomials, format 1
    naturals 89
    player 1111110000
    stood 1111110000
    banker 1111111111 1111111111 1111111111 1111111101 0011111100 0000111100 0000001100 0000000000 0000000000 0000000000
    """

    def bits(row: Sequence[bool]) -> str:
        return "".join("1" if flag else "0" for flag in row)

    lines = [
        f"exactodds count polynomials, format {FORMAT_VERSION}",
        "naturals " + "".join(str(total) for total in sorted(tableau.natural_totals)),
        "player " + bits(tableau.player_draws),
        "stood " + bits(tableau.banker_draws_when_player_stood),
        "banker " + " ".join(bits(row) for row in tableau.banker_draws),
    ]
    return "\n".join(lines).encode("ascii")


def _file_name(label: bytes) -> str:
    import zlib

    # The label inside the file is what is checked; the name only spreads tableaux over files.
    return f"polynomials-{FORMAT_VERSION}-{zlib.crc32(label):08x}.bin"


def _little_endian(values: array[int]) -> bytes:
    if sys.byteorder != "little":  # pragma: no cover - no big-endian machine in CI
        values = array(values.typecode, values)
        values.byteswap()
    return values.tobytes()


def _array(typecode: str, data: bytes) -> array[int]:
    values = array(typecode)
    values.frombytes(data)
    if sys.byteorder != "little":  # pragma: no cover
        values.byteswap()
    return values


# Payload: key count (uint32), then per key its six fields (uint8 each), then per key its
# term count (uint32), then every term's row (uint16), then every term's coefficient (uint32).
_KEY_FIELDS = 6


def encode(compiled: Polynomials) -> bytes:
    """The payload of a cache file for *compiled* (see :func:`decode`).

    >>> compiled = compile_polynomials(Tableau())
    >>> decode(encode(compiled), Tableau()) == compiled
    True
    """
    key_bytes = array("B", (int(part) for key in compiled.keys for part in key))
    lengths = array("I", (len(rows) for rows, _ in compiled.terms))
    rows = array("H", (row for rows, _ in compiled.terms for row in rows))
    coefficients = array("I", (value for _, values in compiled.terms for value in values))
    return b"".join(
        (
            _little_endian(array("I", [len(compiled.keys)])),
            key_bytes.tobytes(),
            _little_endian(lengths),
            _little_endian(rows),
            _little_endian(coefficients),
        )
    )


def decode(payload: bytes, tableau: Tableau) -> Polynomials | None:
    """The polynomials in a cache payload, or ``None`` unless every structural check passes.

    Keys must be valid round summaries in strictly increasing order; each key
    lists strictly increasing rows of multisets of four to six cards with
    positive coefficients; and the lengths must account for every byte.

    >>> decode(b"garbage", Tableau()) is None
    True
    """
    if len(payload) < 4:
        return None
    (key_count,) = _array("I", payload[:4])
    position = 4
    if not 0 < key_count <= 10 * 10 * 2 * 2 * 2 * 2 or len(payload) < position + 10 * key_count:
        return None
    key_bytes = payload[position : position + _KEY_FIELDS * key_count]
    position += _KEY_FIELDS * key_count
    lengths = _array("I", payload[position : position + 4 * key_count])
    position += 4 * key_count
    entries = sum(lengths)
    if len(payload) != position + 6 * entries or min(lengths) < 1:
        return None
    rows = _array("H", payload[position : position + 2 * entries])
    coefficients = _array("I", payload[position + 2 * entries :])
    keys: list[ValueKey] = []
    for start in range(0, len(key_bytes), _KEY_FIELDS):
        player, banker, player_cards, banker_cards, player_natural, banker_natural = key_bytes[
            start : start + _KEY_FIELDS
        ]
        if player > 9 or banker > 9 or player_cards not in (2, 3) or banker_cards not in (2, 3):
            return None
        if player_natural > 1 or banker_natural > 1:
            return None
        keys.append(
            (player, banker, player_cards, banker_cards, bool(player_natural), bool(banker_natural))
        )
    if any(earlier >= later for earlier, later in itertools.pairwise(keys)):
        return None
    # Rows of four to six cards are the last ones: sizes only grow along the plan.
    first_row = multiset_plan().sizes.index(4)
    terms = []
    start = 0
    for length in lengths:
        key_rows = tuple(rows[start : start + length])
        values = tuple(coefficients[start : start + length])
        start += length
        # Rows strictly increasing from the first four-card row to the last row; coefficients
        # positive (checked on tuples: min() over an array boxes every element, slower).
        if key_rows[0] < first_row or key_rows[-1] >= MULTISETS or min(values) < 1:
            return None
        if not all(map(operator.lt, key_rows, key_rows[1:])):
            return None
        terms.append((key_rows, values))
    return Polynomials(tableau, tuple(keys), tuple(terms))


def _sound(compiled: Polynomials) -> bool:
    """Every six-card sequence of a probe shoe ends in exactly one outcome."""
    return sum(compiled.key_counts(_PROBE)) == falling_factorial(sum(_PROBE), 6)


_loaded: dict[Tableau, Polynomials] = {}


def cached_polynomials(tableau: Tableau) -> Polynomials | None:
    """The count polynomials of *tableau* if memory or the disk cache has them; never compiles.

    >>> polynomials(Tableau()) is cached_polynomials(Tableau())
    True
    """
    found = _loaded.get(tableau)
    if found is None:
        label = tableau_label(tableau)
        payload = disk.read(_file_name(label), label)
        loaded = decode(payload, tableau) if payload is not None else None
        if loaded is not None and _sound(loaded):
            found = _loaded[tableau] = loaded
    return found


def polynomials(tableau: Tableau) -> Polynomials:
    """The count polynomials of *tableau*: from memory, else the disk cache, else compiled.

    A freshly compiled result is written to the cache for the next run;
    failing to write (a read-only home, a full disk) only costs that next run
    the compilation again.

    >>> polynomials(Tableau()) == compile_polynomials(Tableau())
    True
    """
    found = cached_polynomials(tableau)
    if found is None:
        found = _loaded[tableau] = compile_polynomials(tableau)
        label = tableau_label(tableau)
        disk.write(_file_name(label), label, encode(found))
    return found
