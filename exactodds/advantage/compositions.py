"""Exact sums over every composition of the cards left, without one kernel call per composition.

The problem
-----------
A composition ``c = (c_0 ... c_9)`` of the cards left (``c_v`` cards of value ``v``) fixes
every value-level bet's EV: its numerator is the count polynomial

    P(c) = sum over multisets m of w[m] * ff(c_0, m_0) * ... * ff(c_9, m_9),

with at most six cards in ``m`` (a round deals at most six), ``ff(n, k) = n (n-1) ... (n-k+1)``,
and ``w[m]`` the tableau's coefficients (:mod:`exactodds.engine.polynomial`) times the bet's
integer pays times the fill factor ``ff(K - |m|, 6 - |m|)``, which is fixed once the number of
cards ``K`` is.  A depth table needs, for every composition, the sign of ``P(c) - T`` and the
weighted sums of ``P`` where it is positive, each composition weighted by how many physical
subsets give it, ``prod_v C(a_v, c_v - f_v)`` (``f_v`` cards of value ``v`` known to be there,
the others drawn from a pool of ``a_v``).

The algorithm
-------------
Compositions share their prefixes, and so most of their factors.  Fixing ``c_0`` turns the
polynomial into one in ``c_1 ... c_9`` of the same bounded degree, with fewer terms; fixing the
first eight values leaves 28 coefficients per prefix, and the last two values (``c_9`` is then
forced by the total) are a small matrix product with the basis ``ff(c_8, i) ff(c_9, j)`` of each
remaining total.  So each level costs, per prefix, one pass over the previous level's terms, and
each composition costs a 28-term dot product: about thirty integer multiply-adds per bet in
numpy's compiled loops, against a whole 8008-term evaluation for one kernel call.

Exactness
---------
Every intermediate value is a partial sum of terms ``w[m] * prod ff(c_v, m_v)`` with
``ff(c_v, k) <= K**k``, so it is at most ``sum_m |w[m]| * K**|m|`` in magnitude; the evaluator
computes that bound first and runs in int64 only when it is below ``2**63``, otherwise the same
code runs on numpy object arrays of Python integers.  The weights are far too large for int64
(``C(416, 26)`` has 135 bits), so the weighted sums are taken modulo primes below ``2**k``,
with ``k`` chosen so that every product and every sum of a matrix row stays below ``2**63``,
and rebuilt by the Chinese remainder theorem with enough primes that their product exceeds
the largest possible sum.  The rebuilt totals are checked afterwards: the weights must add up
to the number of subsets, and a depth table's mean EV must equal the full shoe's.

>>> from exactodds.engine.polynomial import compile_tableau
>>> from exactodds.rules import Tableau
>>> problem = Problem.build(compile_tableau(Tableau()), [[1] * 205], [0], (0,) * 10, (1,) * 10, 6)
>>> sums = solve(problem)
>>> sums.weight == 210 and sums.compositions == 210
True
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from exactodds.engine.kernel.program import native_module
from exactodds.engine.polynomial import CompiledTableau
from exactodds.engine.walk import falling_factorial

__all__ = [
    "NativePlan",
    "Problem",
    "Sums",
    "distinct_rows",
    "native_plan",
    "solve",
    "solve_task",
    "tasks",
]

Array = npt.NDArray[Any]

#: Largest number of elements one level's child array may hold before the prefixes are split.
_CHUNK = 1 << 20
#: The head levels run value by value down to this one; the last two values are the tail.
_TAIL = 8
_INT64_LIMIT = 2**63
#: The most 64-bit limbs the compiled walk's sums take (``MAX_LIMBS`` in engine/kernel/_depth.c).
_MAX_LIMBS = 8
#: The largest count the compiled walk's falling factorials take (``ff(1400, 6) < 2**63``).
_MAX_COUNT = 1400


@cache
def _terms(level: int) -> tuple[tuple[int, ...], ...]:
    """Exponent tuples over values level..9 with at most six cards, smallest sum first."""
    width = 10 - level
    found: list[tuple[int, ...]] = []

    def extend(prefix: tuple[int, ...], left: int) -> None:
        if len(prefix) == width:
            found.append(prefix)
            return
        for exponent in range(left + 1):
            extend((*prefix, exponent), left - exponent)

    extend((), 6)
    return tuple(sorted(found, key=lambda term: (sum(term), term)))


@cache
def _sources(level: int) -> tuple[tuple[int, ...], ...]:
    """Per j = 0..6, where each term (j, m') of *level* sits, for the terms m' of level + 1.

    The terms of level + 1 are sorted by size, so those with room for j more cards (size at
    most 6 - j) are a prefix of them, and the tuple for j has exactly that many entries.
    """
    index = {term: position for position, term in enumerate(_terms(level))}
    following = _terms(level + 1)
    return tuple(
        tuple(index[(j, *term)] for term in following if sum(term) <= 6 - j) for j in range(7)
    )


@cache
def _primes(bits: int, count: int) -> tuple[int, ...]:
    """The *count* largest primes below ``2**bits`` (trial division: bits is at most 31)."""
    found: list[int] = []
    candidate = (1 << bits) - 1
    while len(found) < count:
        if candidate % 2 and all(candidate % d for d in range(3, math.isqrt(candidate) + 1, 2)):
            found.append(candidate)
        candidate -= 1
    return tuple(found)


@dataclass(frozen=True, eq=False)
class Problem:
    """Everything the workers need: coefficients, thresholds, the shoe model and the primes.

    ``coefficients`` is (terms of level 0) x bets, in :func:`_terms` order; ``fixed`` and
    ``pool`` give per value the cards known to be left and the pool the other ``draw`` cards
    come from; a composition passes for a bet when its numerator is above ``thresholds``.
    """

    coefficients: Array
    thresholds: tuple[int, ...]
    fixed: tuple[int, ...]
    pool: tuple[int, ...]
    draw: int
    offset: int
    primes: tuple[int, ...]
    prime_bits: int
    bounds: tuple[int, ...] = ()

    @classmethod
    def build(
        cls,
        compiled: CompiledTableau,
        pays: Sequence[Sequence[int]],
        thresholds: Sequence[int],
        fixed: Sequence[int],
        pool: Sequence[int],
        draw: int,
    ) -> Problem:
        """The problem for integer *pays* (one row of 205 key pays per bet).

        The fill factor of the cards dealt is folded into the coefficients here, since the
        number of cards left, ``sum(fixed) + draw``, is the same for every composition.
        """
        cards = sum(fixed) + draw
        pay_matrix = np.array(pays, dtype=object).T
        projected = compiled.coefficients.astype(object) @ pay_matrix
        position = {term: row for row, term in enumerate(_terms(0))}
        order = [position[tuple(int(v) for v in multiset)] for multiset in compiled.multisets]
        coefficients = np.zeros((len(order), len(pays)), dtype=object)
        bound = [0] * len(pays)
        for row, target in enumerate(order):
            size = int(compiled.multisets[row].sum())
            fill = falling_factorial(cards - size, 6 - size) if cards >= size else 0
            for bet in range(len(pays)):
                value = int(projected[row, bet]) * fill
                coefficients[target, bet] = value
                bound[bet] += abs(value) * (cards + 6) ** size
        largest = max(abs(pay) for row in pays for pay in row) * falling_factorial(cards, 6)
        offset = largest + max(abs(t) for t in thresholds) + 1
        # A row of the weighted matrix product adds at most draw + 1 products of a shifted
        # numerator (below 2 * offset) and a residue (below 2**prime_bits).
        prime_bits = min(31, 62 - (2 * offset).bit_length() - (draw + 1).bit_length())
        # Forward differences reach six counts past the last and grow by at most 2**6.
        exact = 64 * max(bound, default=0) < _INT64_LIMIT and prime_bits >= 16
        if exact:
            coefficients = coefficients.astype(np.int64)
        else:
            prime_bits = 31
        subsets = math.comb(sum(pool), draw)
        largest_sum = subsets * 2 * offset
        primes: tuple[int, ...] = ()
        count = 1
        while math.prod(primes) <= largest_sum:
            primes = _primes(prime_bits, count)
            count += 1
        return cls(
            coefficients,
            tuple(thresholds),
            tuple(fixed),
            tuple(pool),
            draw,
            offset,
            primes,
            prime_bits,
            tuple(bound),
        )

    def evaluate(self, counts: Sequence[int]) -> list[int]:
        """Each bet's numerator at one composition (ten value counts), in Python integers.

        >>> from exactodds.engine.polynomial import compile_tableau
        >>> from exactodds.rules import Tableau
        >>> one = Problem.build(compile_tableau(Tableau()), [[1] * 205], [0], (0,) * 10, (1,) * 10, 6)
        >>> one.evaluate((1,) * 6 + (0,) * 4)  # every round of six distinct cards pays 1
        [720]
        """
        totals = [0] * self.bets
        for row, term in enumerate(_terms(0)):
            factor = math.prod(falling_factorial(c, m) for c, m in zip(counts, term, strict=True))
            if factor:
                for bet in range(self.bets):
                    totals[bet] += int(self.coefficients[row, bet]) * factor
        return totals

    def int64_bets(self) -> tuple[int, ...]:
        """The bets whose own bound fits int64: evaluated apart from the others, they keep
        numpy's int64 loops when another bet's bound pushes the whole set onto Python integers.
        """
        return tuple(b for b, bound in enumerate(self.bounds) if 64 * bound < _INT64_LIMIT)

    @property
    def exact_int64(self) -> bool:
        """Whether the evaluation runs in int64 (``False``: Python integers in object arrays)."""
        return bool(self.coefficients.dtype == np.int64)

    @property
    def bets(self) -> int:
        """How many bets are evaluated together."""
        return int(self.coefficients.shape[1])


@dataclass(frozen=True)
class Sums:
    """The exact weighted sums over every composition, per bet.

    ``passing[b]``: total weight of the compositions where bet b's numerator is above its
    threshold; ``passing_numerator[b]`` and ``numerator[b]``: the weighted sums of the
    numerator over those and over all; ``weight``: the total weight (the number of subsets);
    ``compositions``: how many compositions have a positive weight.
    """

    passing: tuple[int, ...]
    passing_numerator: tuple[int, ...]
    numerator: tuple[int, ...]
    weight: int
    compositions: int

    def spread(self, places: Sequence[tuple[int, int]]) -> Sums:
        """The sums per bet from the sums per distinct row (:func:`distinct_rows`' places).

        >>> Sums((3,), (5,), (-7,), 10, 4).spread([(0, 1), (0, 2)]).numerator
        (-7, -14)
        """
        return Sums(
            tuple(self.passing[row] for row, _ in places),
            tuple(self.passing_numerator[row] * factor for row, factor in places),
            tuple(self.numerator[row] * factor for row, factor in places),
            self.weight,
            self.compositions,
        )


def distinct_rows(
    pays: Sequence[Sequence[int]], thresholds: Sequence[int]
) -> tuple[list[list[int]], list[int], list[tuple[int, int]]]:
    """The bets reduced to their distinct primitive pay rows, and where each bet's sums come from.

    A bet's numerator is linear in its pay row, so a row ``g * r`` (``g`` the gcd of the row,
    positive) has the numerator ``g * P_r`` at every composition; and for integers,
    ``g * P > T`` exactly when ``P > T // g`` (floor division).  Bets with the same primitive row
    ``r`` and the same reduced threshold ``T // g`` therefore pass on exactly the same
    compositions, and their numerator sums are ``g`` times the shared row's: one row is solved
    for all of them.  Nothing else is merged: a bet that is another linear combination of rows
    needs the sign of its own EV, which no sum of the others' gives.  Returns the rows, their
    thresholds, and per bet (row index, factor g).

    >>> distinct_rows([[1, -1], [2, -2], [-1, 1], [0, 0]], [0, 1, 0, 0])
    ([[1, -1], [-1, 1], [0, 0]], [0, 0, 0], [(0, 1), (0, 2), (1, 1), (2, 1)])
    >>> distinct_rows([[1, -1], [2, -2]], [0, 2])[2]  # 2P > 2 is P > 1, not P > 0
    [(0, 1), (1, 2)]
    """
    rows: list[list[int]] = []
    limits: list[int] = []
    index: dict[tuple[tuple[int, ...], int], int] = {}
    places: list[tuple[int, int]] = []
    for row, threshold in zip(pays, thresholds, strict=True):
        factor = math.gcd(*row) or 1
        key = (tuple(pay // factor for pay in row), threshold // factor)
        if key not in index:
            index[key] = len(rows)
            rows.append(list(key[0]))
            limits.append(key[1])
        places.append((index[key], factor))
    return rows, limits, places


@dataclass
class _Accumulator:
    """Residues of the weighted sums (3 x bets x primes), the weight residues and the count."""

    residues: Array
    weight: Array
    compositions: int = 0


@cache
def _binomials_mod(count: int, limit: int, primes: tuple[int, ...]) -> Array:
    """``C(count, r) mod p`` for r = 0..min(count, limit) (rows) and each prime (columns).

    Only *limit* (the cards drawn) bounds r: a pool of millions of cards costs no more than one
    of a few (cached: every expansion of a level asks for the same table).

    >>> _binomials_mod(10**9, 2, (7, 11)).tolist()
    [[1, 1], [6, 10], [1, 1]]
    """
    rows, binomial = [], 1
    for r in range(min(count, limit) + 1):
        if r:
            binomial = binomial * (count - r + 1) // r
        rows.append([binomial % p for p in primes])
    return np.array(rows, dtype=np.int64)


@cache
def _blocks(level: int) -> tuple[tuple[int, int], ...]:
    """The rows of *level*'s terms with 0, 1, ... 6 cards: contiguous, since sorted by size."""
    sizes = [sum(term) for term in _terms(level)]
    return tuple((sizes.index(size), len(sizes) - sizes[::-1].index(size)) for size in range(7))


@cache
def _gathers(level: int) -> tuple[npt.NDArray[np.intp], ...]:
    """Per term size of level + 1: the (reach x width) rows of *level* each output term collects."""
    sources = _sources(level)
    return tuple(
        np.array([sources[j][start:stop] for j in range(7 - size)], dtype=np.intp)
        for size, (start, stop) in enumerate(_blocks(level + 1))
    )


def _groups(problem: Problem, level: int, left: Array) -> list[tuple[int, int, int, Array]]:
    """The prefixes (sorted by cards still to draw) as slices of equal *left*, with the counts
    of value *level* each allows."""
    capacity = sum(problem.pool[level + 1 :])
    values, starts = np.unique(left, return_index=True)
    stops = [*starts[1:].tolist(), len(left)]
    groups = []
    for remaining, start, stop in zip(values.tolist(), starts.tolist(), stops, strict=True):
        low, high = max(0, remaining - capacity), min(remaining, problem.pool[level])
        if high >= low:
            groups.append((start, stop, remaining, np.arange(low, high + 1)))
    return groups


def _falling_table(drawn: Array, fixed: int, dtype: Any) -> Array:
    """``ff(fixed + x, j)`` for j = 0..6 (rows) and each x in *drawn* (columns)."""
    return np.array(
        [[falling_factorial(int(x) + fixed, j) for x in drawn] for j in range(7)], dtype=dtype
    )


@cache
def _newton_table(first: int) -> tuple[tuple[int, ...], ...]:
    return tuple(
        tuple(
            falling_factorial(j, i) * falling_factorial(first, j - i) if j >= i else 0
            for j in range(7)
        )
        for i in range(7)
    )


def _newton(first: int, dtype: Any) -> Array:
    """Rows i, columns j: the i-th forward difference at *first* of ``ff(x, j)``.

    ``ff(first + t, j) = sum_i C(j, i) ff(first, j - i) ff(t, i)`` and the i-th difference
    of ``ff(t, i)`` at 0 is ``i!``, so the entry is ``ff(j, i) ff(first, j - i)``.
    """
    return np.array(_newton_table(first), dtype=dtype)


def _expand(
    problem: Problem, level: int, state: tuple[Array, Array, Array], choice: Array | None
) -> tuple[Array, Array, Array]:
    """The prefixes one value longer: every count of value *level* each prefix allows.

    A state is (coefficients: terms x bets x prefixes, cards left to draw per prefix, weight
    residues: prefixes x primes), sorted by cards left.  Prefixes with the same number left
    allow the same counts, so each such slice is one matrix product per term size: the
    coefficients a term of that size collects (terms*bets*prefixes x j) times the falling
    factorials of the counts (j x counts).  *choice* forces one count per prefix instead.
    """
    coefficients, left, weights = state
    dtype = coefficients.dtype
    primes = np.array(problem.primes, dtype=np.int64)
    binomials = _binomials_mod(problem.pool[level], problem.draw, problem.primes)
    width, bets = len(_terms(level + 1)), problem.bets
    fixed = problem.fixed[level]
    if choice is not None:  # one forced count per prefix: an elementwise sum
        factors = _falling_table(choice, fixed, dtype)
        child = np.zeros((width, bets, len(left)), dtype=dtype)
        for j, source in enumerate(_sources(level)):
            child[: len(source)] += coefficients[list(source)] * factors[j][None, None, :]
        return child, left - choice, weights * binomials[choice] % primes
    groups = _groups(problem, level, left)
    total = sum((stop - start) * len(drawn) for start, stop, _, drawn in groups)
    children = np.empty((width, bets, total), dtype=dtype)
    child_left = np.empty(total, dtype=np.int64)
    child_weights = np.empty((total, len(primes)), dtype=np.int64)
    # Each child slice goes straight to its place in the order of cards left (no sort after).
    sizes: dict[int, int] = {}
    for start, stop, remaining, drawn in groups:
        for x in drawn.tolist():
            sizes[remaining - x] = sizes.get(remaining - x, 0) + stop - start
    places, at = {}, 0
    for key in sorted(sizes):
        places[key], at = at, at + sizes[key]
    gathers, blocks = _gathers(level), _blocks(level + 1)
    for start, stop, remaining, drawn in groups:
        count = stop - start
        slots = []
        for x in drawn.tolist():
            slots.append(places[remaining - x])
            places[remaining - x] += count
        newton = _newton(fixed + int(drawn[0]), dtype)
        parent = coefficients[:, :, start:stop]
        for size, (first, last) in enumerate(blocks):
            reach = 7 - size
            gathered = parent[gathers[size]].reshape(reach, -1)
            # Newton's forward differences of each collected polynomial at the first count:
            # each next count is then reach - 1 in-place additions, no multiplication.
            differences = newton[:reach, :reach] @ gathered
            for slot in slots:
                children[first:last, :, slot : slot + count] = differences[0].reshape(
                    last - first, bets, count
                )
                for order in range(reach - 1):
                    differences[order] += differences[order + 1]
        for x, slot in zip(drawn.tolist(), slots, strict=True):
            child_left[slot : slot + count] = remaining - x
            child_weights[slot : slot + count] = weights[start:stop] * binomials[x] % primes
    return children, child_left, child_weights


@cache
def _tail_tables(
    fixed: tuple[int, int], pool: tuple[int, int], remaining: int, primes: tuple[int, ...]
) -> tuple[Array, Array, int] | None:
    """For values 8 and 9 with *remaining* cards to draw: the basis, weight residues, count."""
    low, high = max(0, remaining - pool[1]), min(pool[0], remaining)
    if high < low:
        return None
    drawn = range(low, high + 1)
    basis = [
        [
            falling_factorial(fixed[0] + x, i) * falling_factorial(fixed[1] + remaining - x, j)
            for x in drawn
        ]
        for i, j in _terms(_TAIL)
    ]
    weights = [math.comb(pool[0], x) * math.comb(pool[1], remaining - x) for x in drawn]
    residues = np.array([[w % p for p in primes] for w in weights], dtype=np.int64)
    return np.array(basis, dtype=object), residues, len(drawn)


def _tail(problem: Problem, state: tuple[Array, Array, Array], total: _Accumulator) -> None:
    """Add the prefixes' compositions of values 8 and 9: one matrix product per total left."""
    coefficients, left, weights = state
    primes = np.array(problem.primes, dtype=np.int64)
    dtype = coefficients.dtype
    bets = problem.bets
    thresholds = np.array(problem.thresholds, dtype=dtype)[:, None, None]
    fixed, pool = (problem.fixed[8], problem.fixed[9]), (problem.pool[8], problem.pool[9])
    values, starts = np.unique(left, return_index=True)
    stops = [*starts[1:].tolist(), len(left)]
    for remaining, start, stop in zip(values.tolist(), starts.tolist(), stops, strict=True):
        tables = _tail_tables(fixed, pool, remaining, problem.primes)
        if tables is None:
            continue
        basis, residues, width = tables
        count = stop - start
        block = coefficients[:, :, start:stop].reshape(len(basis), -1)
        numerators = (block.T @ basis.astype(dtype)).reshape(bets, count, width)
        passing = (numerators > thresholds).astype(dtype)
        shifted = numerators + problem.offset
        stacked = np.stack([passing, passing * shifted, shifted])
        inner = (stacked.reshape(-1, width) @ residues.astype(dtype)) % primes
        inner = inner.reshape(3, bets, count, len(primes))
        prefix = weights[start:stop][None, None, :, :]
        total.residues = (total.residues + (inner * prefix % primes).sum(axis=2)) % primes
        tail_sum = residues.sum(axis=0) % primes
        total.weight = (
            total.weight + (weights[start:stop] * tail_sum % primes).sum(axis=0)
        ) % primes
        total.compositions += count * width


def _descend(
    problem: Problem, level: int, state: tuple[Array, Array, Array], total: _Accumulator
) -> None:
    """Expand the prefixes level by level, splitting them when the children would not fit."""
    if level == _TAIL:
        _tail(problem, state, total)
        return
    left = state[1]
    capacity = sum(problem.pool[level + 1 :])
    counts = np.maximum(
        np.minimum(left, problem.pool[level]) - np.maximum(left - capacity, 0) + 1, 0
    )
    size = len(_terms(level + 1)) * problem.bets
    ends = np.cumsum(counts) * size
    if len(left) > 1 and int(ends[-1]) > _CHUNK:
        pieces = np.searchsorted(ends, np.arange(_CHUNK, int(ends[-1]), _CHUNK), side="right")
        bounds = [0, *sorted({int(p) for p in pieces} - {0, len(left)}), len(left)]
        if len(bounds) == 2:
            bounds = [0, len(left) // 2, len(left)]
        for start, stop in itertools.pairwise(bounds):
            if stop > start:
                part = (state[0][:, :, start:stop], left[start:stop], state[2][start:stop])
                _descend(problem, level, part, total)
        return
    _descend(problem, level + 1, _expand(problem, level, state, None), total)


def tasks(problem: Problem, depth: int = 2) -> list[tuple[int, ...]]:
    """The prefixes of the first *depth* values' drawn counts: independent pieces of work.

    Largest first, so that parallel workers finish together.

    >>> from exactodds.engine.polynomial import compile_tableau
    >>> from exactodds.rules import Tableau
    >>> pays = [[1] * 205]
    >>> problem = Problem.build(compile_tableau(Tableau()), pays, [0], (0,) * 10, (1,) * 10, 6)
    >>> len(tasks(problem)), tasks(problem)[0]
    (4, (0, 0))
    """
    found: list[tuple[tuple[int, ...], int]] = []

    def extend(prefix: tuple[int, ...], left: int) -> None:
        level = len(prefix)
        if level == depth:
            found.append((prefix, math.comb(left + 9 - depth, 9 - depth)))
            return
        capacity = sum(problem.pool[level + 1 :])
        for count in range(max(0, left - capacity), min(left, problem.pool[level]) + 1):
            extend((*prefix, count), left - count)

    extend((), problem.draw)
    return [prefix for prefix, _ in sorted(found, key=lambda item: -item[1])]


@dataclass(frozen=True)
class NativePlan:
    """How the compiled walk (engine/kernel/_depth.c) adds a problem's sums below a prefix:
    levels from ``wide_from`` on in unsigned 128-bit integers, the levels above in ``limbs``
    64-bit limbs."""

    wide_from: int
    limbs: int


def native_plan(problem: Problem, level: int) -> NativePlan | None:
    """The compiled walk's integer widths below a prefix of *level* values, or ``None`` where
    a premise of its exactness fails (then the numpy path runs).

    The premises, in the order _depth.c states them: the numerators fit int64 (the
    problem's own bound); ``2 * offset < 2**63`` (a shifted numerator fits uint64); every
    count at most 1400 (its falling factorials fit int64); every binomial ``C(pool[v], x)``
    of the values walked fits uint64; and a level's sums, at most
    ``C(A, r) * 2 * offset`` with ``A`` its pools' cards and ``r <= draw`` the cards drawn,
    fit 128 bits from ``wide_from`` on (the tail, level 8, must) and ``limbs`` limbs above.

    >>> from exactodds.engine.polynomial import compile_tableau
    >>> from exactodds.rules import Tableau
    >>> eight = Problem.build(compile_tableau(Tableau()), [[1] * 205], [0], (0,) * 10,
    ...                       (128,) + (32,) * 9, 26)
    >>> native_plan(eight, 1)
    NativePlan(wide_from=5, limbs=3)
    >>> native_plan(eight, 9) is None  # the numpy path's tail takes a prefix of nine values
    True
    """
    if not problem.exact_int64 or not 0 <= level <= _TAIL or 2 * problem.offset >= _INT64_LIMIT:
        return None
    draw, pool = problem.draw, problem.pool
    if max(problem.fixed) + draw > _MAX_COUNT:
        return None
    if any(math.comb(count, min(draw, count // 2)) >= 2**64 for count in pool[level:]):
        return None

    def bound(first: int) -> int:
        cards = sum(pool[first:])
        return math.comb(cards, min(draw, cards // 2)) * 2 * problem.offset

    wide = [first for first in range(level, _TAIL + 1) if bound(first) < 2**128]
    limbs = max(2, -(-bound(level).bit_length() // 64))
    if not wide or limbs > _MAX_LIMBS:
        return None
    return NativePlan(wide[0], limbs)


@cache
def _native_sources(level: int) -> Array:
    """_sources of levels *level* .. 7 as the walk reads them: per term of the next level,
    the row of (j, term) for j = 0..6, -1 where the term has no room for j more cards."""
    rows = []
    for current in range(level, _TAIL):
        sources = _sources(current)
        for term in range(len(_terms(current + 1))):
            rows.append([s[term] if term < len(s) else -1 for s in sources])
    return np.array(rows, dtype=np.int32).reshape(-1, 7)


def _solve_native(
    problem: Problem, level: int, state: tuple[Array, Array, Array], plan: NativePlan
) -> tuple[list[list[int]], list[int], int]:
    """solve_task's answer from the compiled walk: its exact sums below the prefix, times the
    prefix's weight, modulo the problem's primes."""
    module = native_module()
    assert module is not None
    coefficients, left, weights = state
    remaining, bets = int(left[0]), problem.bets
    binomials = np.zeros((10, remaining + 1), dtype=np.uint64)
    for value in range(level, 10):
        for drawn in range(min(remaining, problem.pool[value]) + 1):
            binomials[value, drawn] = math.comb(problem.pool[value], drawn)
    parameters = np.array([*problem.fixed, *problem.pool, problem.offset], dtype=np.int64)
    out = np.zeros((3 * bets + 1, plan.limbs), dtype=np.uint64)
    compositions = module.depth_sums(
        level,
        remaining,
        bets,
        plan.limbs,
        plan.wide_from,
        np.ascontiguousarray(coefficients[:, :, 0]),
        parameters,
        np.array(problem.thresholds, dtype=np.int64),
        binomials,
        _native_sources(level),
        np.array(_terms(_TAIL), dtype=np.int32),
        out,
    )
    sums = [
        sum(int(limb) << (64 * place) for place, limb in enumerate(row)) for row in out.tolist()
    ]
    pairs = list(zip(problem.primes, weights[0].tolist(), strict=True))
    residues = [[total % prime * int(factor) % prime for prime, factor in pairs] for total in sums]
    return residues[:-1], residues[-1], int(compositions)


def _prefix_state(problem: Problem, prefix: tuple[int, ...]) -> tuple[Array, Array, Array]:
    """The state (coefficients, cards left, weight residues) of the one prefix *prefix*."""
    state = (
        problem.coefficients[:, :, None].copy(),
        np.array([problem.draw], dtype=np.int64),
        np.ones((1, len(problem.primes)), dtype=np.int64),
    )
    for level, count in enumerate(prefix):
        state = _expand(problem, level, state, np.array([count], dtype=np.int64))
    return state


def solve_task(
    problem: Problem, prefix: tuple[int, ...], native: bool = True
) -> tuple[list[list[int]], list[int], int]:
    """The residues, weight residues and composition count of the compositions under *prefix*.

    The compiled walk adds them where the kernel is built and :func:`native_plan` proves its
    integers wide enough (*native* ``False``: the numpy path, its twin, always); both give the
    same residues.
    """
    primes = len(problem.primes)
    dtype = problem.coefficients.dtype
    state = _prefix_state(problem, prefix)
    plan = native_plan(problem, len(prefix)) if native and native_module() is not None else None
    if plan is not None and hasattr(native_module(), "depth_sums"):
        return _solve_native(problem, len(prefix), state, plan)
    total = _Accumulator(
        np.zeros((3, problem.bets, primes), dtype=np.int64 if dtype == np.int64 else object),
        np.zeros(primes, dtype=np.int64),
    )
    _descend(problem, len(prefix), state, total)
    return total.residues.reshape(-1, primes).tolist(), total.weight.tolist(), total.compositions


def _crt(residues: Sequence[int], primes: Sequence[int]) -> int:
    """The integer in [0, prod(primes)) with these residues."""
    modulus = math.prod(primes)
    value = 0
    for residue, prime in zip(residues, primes, strict=True):
        rest = modulus // prime
        value += int(residue) * rest * pow(rest, -1, prime)
    return value % modulus


def solve(
    problem: Problem,
    run: Callable[
        [Problem, list[tuple[int, ...]]], Iterable[tuple[list[list[int]], list[int], int]]
    ]
    | None = None,
) -> Sums:
    """The exact sums over every composition; *run* maps the tasks (defaults to in order).

    However the tasks are run, their residues are added modulo the same primes, so the sums
    are the same integers whatever the order, the processes or the machines.
    """
    pieces = tasks(problem, 1)
    results = run(problem, pieces) if run is not None else (solve_task(problem, p) for p in pieces)
    primes = problem.primes
    residues = [[0] * len(primes) for _ in range(3 * problem.bets)]
    weight = [0] * len(primes)
    compositions = 0
    for piece_residues, piece_weight, piece_compositions in results:
        for row, values in zip(residues, piece_residues, strict=True):
            for column, value in enumerate(values):
                row[column] = (row[column] + int(value)) % primes[column]
        weight = [(a + int(b)) % p for a, b, p in zip(weight, piece_weight, primes, strict=True)]
        compositions += piece_compositions
    totals = [_crt(row, primes) for row in residues]
    bets = problem.bets
    weight_total = _crt(weight, primes)
    passing = totals[:bets]
    shifted_passing = totals[bets : 2 * bets]
    shifted = totals[2 * bets :]
    offset = problem.offset
    return Sums(
        tuple(passing),
        tuple(s - offset * p for s, p in zip(shifted_passing, passing, strict=True)),
        tuple(s - offset * weight_total for s in shifted),
        weight_total,
        compositions,
    )
