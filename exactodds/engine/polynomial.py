"""The counts as polynomials in the shoe's value counts, laid out as arrays for the kernel.

Any round outcome's count is a fixed polynomial in the ten value counts
``n_0 ... n_9`` of the shoe: a sum, over the multisets ``m`` of values a round
deals (four to six cards), of an integer coefficient (how many ordered value
sequences with that multiset lead to the outcome) times

    ff(n_0, m_0) * ... * ff(n_9, m_9) * ff(N - |m|, 6 - |m|),

where ``ff(n, k) = n (n-1) ... (n-k+1)`` is the number of ordered ways to
pick ``k`` distinct physical cards among ``n``, and the last factor fills the
unused positions of the six-card sequence.  :mod:`exactodds.engine.coefficients`
finds the coefficients by walking value sequences once, independent of any shoe,
and caches them; :func:`compile_tableau` lays them out as the numpy arrays the
kernel (:mod:`exactodds.engine.kernel`) evaluates, exactly, for many shoes at once.

The product table is :func:`~exactodds.engine.coefficients.multiset_plan`'s, the one
copy: row ``r``'s product is its parent's times the factor row ``factors[r]``
(``value * 7 + offset``, the factor ``max(n_value - offset, 0)``).

>>> compiled = compile_tableau(Tableau())
>>> len(compiled.keys), compiled.multisets.shape
(205, (8008, 10))
>>> int(compiled.parents[12]), int(compiled.factors[12]) // 7
(1, 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from exactodds.engine.coefficients import (
    MULTISETS,
    Polynomials,
    ValueKey,
    multiset_plan,
    polynomials,
)
from exactodds.rules import Tableau

__all__ = [
    "CompiledTableau",
    "ValueKey",
    "compile_tableau",
    "compiled_arrays",
]

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True, eq=False)
class CompiledTableau:
    """The coefficients of every value-level outcome's count polynomial, as arrays.

    ``multisets`` lists every multiset of at most six values, by size (row 0 is
    the empty one), in :func:`~exactodds.engine.coefficients.multiset_plan`'s order;
    ``coefficients[i, j]`` is how many ordered value sequences with multiset
    ``multisets[i]`` end in ``keys[j]`` (zero below four cards); ``parents`` and
    ``factors`` are the plan's product table.
    """

    tableau: Tableau
    keys: tuple[ValueKey, ...]
    multisets: IntArray
    coefficients: IntArray
    parents: IntArray
    factors: IntArray


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
    multisets = np.zeros((MULTISETS, 10), dtype=np.int64)
    for row in range(1, MULTISETS):  # parents come first: each row is its parent plus a card
        multisets[row] = multisets[parents[row]]
        multisets[row, factors[row] // 7] += 1
    coefficients = np.zeros((MULTISETS, len(compiled.keys)), dtype=np.int64)
    for column, (term_rows, values) in enumerate(compiled.terms):
        coefficients[list(term_rows), column] = values
    return CompiledTableau(
        compiled.tableau, compiled.keys, multisets, coefficients, parents, factors
    )
