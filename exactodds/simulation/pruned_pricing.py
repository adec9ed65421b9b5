"""Exact EVs of a simulation's rounds from the kernel's pruned program, in one call.

The numpy road prices a block's rounds through
:meth:`~exactodds.analysis.many.Analyzer.expected_value_table`, which runs the study's
lean program (every key count of the tableau) and reads its rows back as Python lists.
Here the same program, reweighted and cut to the keys its bets read
(:func:`~exactodds.engine.kernel.pruned.pruned_program`), runs on the block's rank rows
as one int64 array, and the totals ``ff(N, 6)`` are computed in numpy: the numerators
and denominators are the same integers, in the same int64 arrays, as
:func:`~exactodds.simulation.evaluate.exact_expected_values` gives, so every float,
decision and tally drawn from them is the same bit for bit (``tests/test_count_study.py``
holds them equal).  A bet only the walk prices, a study priced with its suits, or a
value past int64 gets None here and takes that road.  Jacobson's Dragon 7 count study
(one value bet) costs about a fifth of the kernel's time per round this way.

>>> from exactodds import Rules
>>> from exactodds.analysis.many import Analyzer
>>> from exactodds.bets.catalogue import select_bets
>>> from exactodds.simulation.evaluate import exact_expected_values
>>> analyzer = Analyzer(Rules(), select_bets("dragon7,tie"))
>>> known = np.full((2, 52), 8)
>>> known[1, :10] = 5
>>> ranks = known.reshape(-1, 13, 4).sum(axis=2)
>>> fast = pruned_expected_values(analyzer, ranks, suited=False)
>>> slow = exact_expected_values(analyzer, known, False, ranks)
>>> fast is not None and (np.array_equal(fast.numerators, slow.numerators)
...                  and np.array_equal(fast.denominators, slow.denominators))
True
>>> pruned_expected_values(analyzer, ranks, suited=True) is None
True
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from exactodds.analysis.many import Analyzer
from exactodds.engine.kernel.pruned import evaluate_ranks, pruned_program
from exactodds.simulation.evaluate import ExpectedValues

__all__ = ["pruned_expected_values"]

IntArray = npt.NDArray[np.int64]


def _sequences(cards: IntArray) -> IntArray:
    """ff(N, 6) of each count, in int64 (the caller keeps N**6 below 2**63)."""
    total = np.ones_like(cards)
    for offset in range(6):
        total *= cards - offset
    return total


def pruned_expected_values(
    analyzer: Analyzer, ranks: IntArray, suited: bool
) -> ExpectedValues | None:
    """Exact EVs of *analyzer*'s bets (columns) on each rank row of *ranks* (rows), or None.

    None unless every bet is priced by the kernel, the study is priced by rank (*suited*
    is False), the compiled kernel is built and every numerator and denominator fits int64.
    """
    lean = analyzer.lean_outputs()
    if suited or lean is None or not len(ranks):
        return None
    program, outputs = lean
    cards = ranks.sum(axis=1)
    denominators = [output.denominator for output in outputs]
    largest = int(cards.max())
    if largest**6 * max(denominators) >= 2**63:
        return None
    columns = [output.output for output in outputs]
    values = evaluate_ranks(pruned_program(program, tuple(columns)), ranks)
    if values is None:
        return None
    numerators = np.ascontiguousarray(values[:, columns])
    totals = _sequences(cards.astype(np.int64))
    return ExpectedValues(
        numerators, totals[:, None] * np.array(denominators, dtype=np.int64)[None, :]
    )
