"""The counts as polynomials in the shoe's value counts, compiled once per tableau.

Any round outcome's count is a fixed polynomial in the ten value counts
``n_0 ... n_9`` of the shoe: a sum, over the multisets ``m`` of values a round
deals (four to six cards), of an integer coefficient (how many ordered value
sequences with that multiset lead to the outcome) times

    ff(n_0, m_0) * ... * ff(n_9, m_9) * ff(N - |m|, 6 - |m|),

where ``ff(n, k) = n (n-1) ... (n-k+1)`` is the number of ordered ways to
pick ``k`` distinct physical cards among ``n``, and the last factor fills the
unused positions of the six-card sequence.  :func:`compile_tableau` finds the
coefficients by walking value sequences once, independent of any shoe; then
:class:`CompiledTableau` evaluates the counts for many shoes at once with
numpy.

Exactness: products of falling factorials are formed in int64, which is
exact because every one is at most ff(N, 6) and the evaluator only takes
shoes for which ff(N, 6) < 2**62.  The weighted sums run as float64 matrix
products so that BLAS does the work; they stay exact because every operand is
split into limbs small enough that each product and every partial sum is an
integer below 2**53, where float64 represents integers exactly (the bound is
checked, not assumed).  The limbs are recombined in int64.  Larger shoes go
through Python integers instead.

>>> from exactodds import Shoe
>>> compiled = compile_tableau(Tableau())
>>> len(compiled.keys), compiled.multisets.shape
(205, (8008, 10))
>>> counts = compiled.key_counts([Shoe.standard(decks=8).value_counts])
>>> sum(counts[0]) == 416 * 415 * 414 * 413 * 412 * 411
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from exactodds.engine.coefficients import (
    MULTISETS,
    Polynomials,
    ValueKey,
    multiset_plan,
    polynomials,
)
from exactodds.engine.walk import falling_factorial
from exactodds.rules import Tableau

__all__ = [
    "EXACT_INT64_LIMIT",
    "CompiledTableau",
    "ValueKey",
    "compile_tableau",
    "compiled_arrays",
]

#: Shoes with ff(N, 6) below this evaluate in int64; larger ones use Python integers.
EXACT_INT64_LIMIT = 2**62

_FLOAT_EXACT_BITS = 53
_FLOAT_EXACT_LIMIT = 2**_FLOAT_EXACT_BITS
IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True, eq=False)
class _Level:
    """One step of the product table: rows start..stop, each a parent row times a factor row."""

    start: int
    stop: int
    parents: IntArray
    factors: IntArray


@dataclass(frozen=True, eq=False)
class CompiledTableau:
    """The coefficients of every value-level outcome's count polynomial.

    ``multisets`` lists every multiset of at most six values, by size (row 0 is
    the empty one); ``coefficients[i, j]`` is how many ordered value sequences
    with multiset ``multisets[i]`` end in ``keys[j]`` (zero below four cards).
    """

    tableau: Tableau
    keys: tuple[ValueKey, ...]
    multisets: IntArray
    coefficients: IntArray
    # The product table is built level by level (one more card per level):
    # product[row] = product[parent] * max(n_value - offset, 0), factor row value * 7 + offset.
    _levels: tuple[_Level, ...]

    def project(self, columns: npt.NDArray[np.int64]) -> Projection:
        """The polynomials of unions of keys, ready to evaluate.

        *columns* is a (keys x L) matrix of 0s and 1s: column l selects a set
        of keys, so each combined count is a number of six-card sequences, at
        most ff(N, 6), which is what keeps the evaluation exact.

        >>> compiled = compile_tableau(Tableau())
        >>> compiled.project(np.full((len(compiled.keys), 1), 2))
        Traceback (most recent call last):
        ...
        ValueError: each column must select keys with 0s and 1s
        """
        if not np.isin(columns, (0, 1)).all():
            raise ValueError("each column must select keys with 0s and 1s")
        projected = np.asarray(self.coefficients @ columns, dtype=np.int64)
        parts = []
        for level in self._levels[3:]:
            block = np.ascontiguousarray(projected[level.start : level.stop])
            size = int(self.multisets[level.start].sum())
            parts.append((size, level.start, level.stop, block, block.astype(np.float64)))
        return Projection(self, projected, tuple(parts))

    def key_counts(self, value_counts: Sequence[Sequence[int]]) -> list[list[int]]:
        """Exact counts of every key for each shoe, as Python integers.

        >>> compiled = compile_tableau(Tableau())
        >>> sum(compiled.key_counts([(16, 4, 4, 4, 4, 4, 4, 4, 4, 4)])[0])
        14658134400
        """
        identity = np.eye(len(self.keys), dtype=np.int64)
        return self.project(identity).evaluate(value_counts)

    def products(self, counts: IntArray, dtype: type[np.generic]) -> npt.NDArray[Any]:
        """ff products of every multiset of up to six cards (multisets x shoes).

        Laid out multiset-major, so each level writes one contiguous block.
        Every product is at most ff(N, 6), so it is exact in float64 when
        ff(N, 6) < 2**53 and in int64 when ff(N, 6) < 2**63.
        """
        by_value = np.ascontiguousarray(counts.T)
        offsets = np.arange(7)
        factor_rows = np.maximum(by_value[:, None, :] - offsets[None, :, None], 0)
        factor_rows = factor_rows.reshape(70, counts.shape[0]).astype(dtype)
        products = np.empty((self.multisets.shape[0], counts.shape[0]), dtype=dtype)
        products[0] = 1
        for level in self._levels:
            np.multiply(
                products[level.parents],
                factor_rows[level.factors],
                out=products[level.start : level.stop],
            )
        return products


@dataclass(frozen=True, eq=False)
class Projection:
    """Count polynomials of chosen unions of keys, evaluated for many shoes at once."""

    compiled: CompiledTableau
    #: (multisets x L) integer coefficients.
    coefficients: IntArray
    # Per size 4, 5, 6: (size, first row, end row, int64 block, float64 block).
    _parts: tuple[tuple[int, int, int, IntArray, npt.NDArray[np.float64]], ...]

    def evaluate(self, value_counts: Sequence[Sequence[int]] | IntArray) -> list[list[int]]:
        """Exact counts per shoe (rows) and column, as Python integers.

        Shoes are grouped by size: while ff(N, 6) < 2**53 everything runs in
        float64, exactly; below 2**62 in int64 with limbs; beyond that in
        Python integers.

        >>> compiled = compile_tableau(Tableau())
        >>> projection = compiled.project(np.ones((len(compiled.keys), 1), dtype=np.int64))
        >>> projection.evaluate([(128,) + (32,) * 9, (1280,) + (320,) * 9])[0]
        [4998398275503360]
        """
        counts = np.asarray(value_counts, dtype=np.int64).reshape(-1, 10)
        sizes = [falling_factorial(int(total), 6) for total in counts.sum(axis=1)]
        result: list[list[int]] = [[] for _ in sizes]
        float_rows = [row for row, size in enumerate(sizes) if size < _FLOAT_EXACT_LIMIT]
        int_rows = [
            row for row, size in enumerate(sizes) if _FLOAT_EXACT_LIMIT <= size < EXACT_INT64_LIMIT
        ]
        for rows, evaluator in ((float_rows, self._float), (int_rows, self._int64)):
            if rows:
                for row, values in zip(rows, evaluator(counts[rows]), strict=True):
                    result[row] = values
        for row, size in enumerate(sizes):
            if size >= EXACT_INT64_LIMIT:
                result[row] = self._python(counts[row])
        return result

    def _tails(self, counts: IntArray, size: int) -> list[int]:
        return [falling_factorial(int(total) - size, 6 - size) for total in counts.sum(axis=1)]

    def _float(self, counts: IntArray) -> list[list[int]]:
        # Every operand and every partial sum is a non-negative integer of at most
        # ff(N, 6) < 2**53, which float64 holds exactly whatever order BLAS adds in.
        products = self.compiled.products(counts, np.float64)
        result = np.zeros((counts.shape[0], self.coefficients.shape[1]), dtype=np.float64)
        for size, start, stop, _, block in self._parts:
            inner = products[start:stop].T @ block
            inner *= np.array(self._tails(counts, size), dtype=np.float64)[:, None]
            result += inner
        return list(result.astype(np.int64).tolist())

    def _int64(self, counts: IntArray) -> list[list[int]]:
        products = self.compiled.products(counts, np.int64)
        result = np.zeros((counts.shape[0], self.coefficients.shape[1]), dtype=np.int64)
        for size, start, stop, block, _ in self._parts:
            inner = _exact_matmul(products[start:stop].T, block)
            result += inner * np.array(self._tails(counts, size), dtype=np.int64)[:, None]
        return list(result.tolist())

    def _python(self, counts: IntArray) -> list[int]:
        values = [int(count) for count in counts]
        total = sum(values)
        sums = [0] * self.coefficients.shape[1]
        rows = zip(self.compiled.multisets.tolist(), self.coefficients.tolist(), strict=True)
        for multiset, row in rows:
            if not any(row):
                continue
            size = sum(multiset)
            weight = falling_factorial(total - size, 6 - size)
            for value, number in enumerate(multiset):
                if number:
                    weight *= falling_factorial(values[value], number)
            if weight:
                for column, coefficient in enumerate(row):
                    if coefficient:
                        sums[column] += coefficient * weight
        return sums


def _exact_matmul(left: IntArray, right: IntArray) -> IntArray:
    """``left @ right`` for non-negative int64 matrices, exactly, through float64 BLAS.

    *right* holds small coefficients; *left* is split into limbs of ``bits``
    bits, so that every product of a limb and a coefficient, and every partial
    sum of them, is an integer below 2**53; the limb products are recombined
    in int64, which wraps modulo 2**64 and so is exact whenever the true
    result is below 2**63 (the caller guarantees it).

    >>> big = np.array([[2**61 + 12345]], dtype=np.int64)
    >>> int(_exact_matmul(big, np.array([[3]], dtype=np.int64))[0, 0]) == 3 * (2**61 + 12345)
    True
    """
    if int(left.min(initial=0)) < 0 or int(right.min(initial=0)) < 0:
        raise ValueError("exact matrix product needs non-negative operands")
    column_sum = int(right.sum(axis=0).max(initial=0))
    bits = _FLOAT_EXACT_BITS - max(column_sum, 1).bit_length()
    if bits < 8:
        raise ValueError("coefficients too large for an exact float64 product")
    limbs = max(1, math.ceil(max(int(left.max(initial=0)), 1).bit_length() / bits))
    right_float = right.astype(np.float64)
    mask = (1 << bits) - 1
    result = np.zeros((left.shape[0], right.shape[1]), dtype=np.int64)
    for limb in range(limbs):
        part = ((left >> (limb * bits)) & mask).astype(np.float64)
        result += (part @ right_float).astype(np.int64) << (limb * bits)
    return result


@cache
def compile_tableau(tableau: Tableau) -> CompiledTableau:
    """The count polynomials of *tableau* as numpy arrays, ready for many shoes.

    The coefficients come from :func:`~exactodds.engine.coefficients.polynomials`:
    compiled once per tableau and user, then read back from the disk cache (a
    few milliseconds) by every later run.  Cached in memory per tableau.
    """
    return compiled_arrays(polynomials(tableau))


def compiled_arrays(compiled: Polynomials) -> CompiledTableau:
    """*compiled*'s coefficients laid out as the arrays of a :class:`CompiledTableau`.

    >>> from exactodds.engine.coefficients import compile_polynomials
    >>> arrays = compiled_arrays(compile_polynomials(Tableau()))
    >>> int(arrays.coefficients.sum()), arrays.multisets[12].tolist()
    (339400, [1, 1, 0, 0, 0, 0, 0, 0, 0, 0])
    """
    plan = multiset_plan()
    parents = np.array(plan.parents, dtype=np.int64)
    factors = np.array(plan.factors, dtype=np.int64)
    sizes = np.array(plan.sizes, dtype=np.int64)
    multisets = np.zeros((MULTISETS, 10), dtype=np.int64)
    levels = []
    for size in range(1, 7):
        rows = np.flatnonzero(sizes == size)
        start, stop = int(rows[0]), int(rows[-1]) + 1
        assert stop - start == len(rows)
        multisets[start:stop] = multisets[parents[start:stop]]
        multisets[np.arange(start, stop), factors[start:stop] // 7] += 1
        levels.append(_Level(start, stop, parents[start:stop].copy(), factors[start:stop].copy()))
    coefficients = np.zeros((MULTISETS, len(compiled.keys)), dtype=np.int64)
    for column, (term_rows, values) in enumerate(compiled.terms):
        coefficients[list(term_rows), column] = values
    return CompiledTableau(compiled.tableau, compiled.keys, multisets, coefficients, tuple(levels))
