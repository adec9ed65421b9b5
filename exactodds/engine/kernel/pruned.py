"""A kernel program cut down to the inputs its outputs read: the same integers, less work.

Each group of a program's inputs splits the total: the value-level key counts of a shoe
of at least six cards add up to ``ff(N, 6)``, and so do its pair-state counts.  So an
output ``sum_k w_k c_k + ...`` is the same integer when a constant ``b`` is taken from
every key weight and ``b`` times the total is added back (the total is an input too).
With ``b`` the commonest key weight (a bet's losing pay: most keys lose), most key
weights become 0; the key counts no output reads any more, their coefficients and the
rows of the product table that feed none of the rest are left out of the compiled
program, which counts only the keys read.  Dragon 7 alone then reads 8 of the 205 keys, 2,116 of the 35,564 coefficients
and 3,646 of the 8,008 product rows: about a fifth of the kernel's work per shoe, for
exactly the same outputs (``tests/test_count_study.py`` holds them equal).

:func:`pruned_program` builds it (cached per program); :func:`evaluate_ranks` runs it on
rank rows in one call of the compiled kernel, for callers that already hold the rows as
one int64 array (a simulation's dealt rounds) and want every output in int64.

>>> from exactodds import Rules
>>> from exactodds.analysis.many import Analyzer
>>> from exactodds.bets.catalogue import select_bets
>>> program, _ = Analyzer(Rules(), select_bets("dragon7")).lean_outputs()
>>> pruned = pruned_program(program, (2,))  # output 2: the EV numerator (0, 1: outcomes)
>>> ranks = np.array([[32] * 13, [30, 31, 29, 32, 32, 27, 30, 32, 31, 32, 30, 31, 29]])
>>> values = evaluate_ranks(pruned, ranks)
>>> from exactodds.engine.kernel.program import evaluate
>>> values is None or values[:, 2].tolist() == evaluate(program, ranks.tolist(), [None] * 2).values[:, 2].tolist()
True
>>> evaluate_ranks(pruned, np.array([[1] * 5 + [0] * 8]))  # fewer than six cards: not here
"""

from __future__ import annotations

from collections import Counter
from functools import cache

import numpy as np
import numpy.typing as npt

from exactodds.engine.kernel.program import (
    PAIR_INPUTS,
    Program,
    build_program,
    native_module,
    product_tables,
)
from exactodds.engine.walk import sequences

__all__ = ["evaluate_ranks", "pruned_program"]

IntArray = npt.NDArray[np.int64]
# Width code of a shoe whose outputs the kernel gives in int64 (see _native.c).
_NARROW = 0


def _shifted_weights(program: Program, kept: tuple[int, ...] | None) -> list[list[int]]:
    """Dense weight rows (one per input) with each output's commonest key weight moved onto
    the total: the same outputs on every shoe of six cards or more (0 for an output not
    *kept*)."""
    keys = len(program.compiled.keys)
    dense = [[0] * program.outputs for _ in program.weights]
    for row, pairs in enumerate(program.weights):
        for output, weight in pairs:
            if kept is None or output in kept:
                dense[row][output] = weight
    for output in range(program.outputs):
        common, _ = Counter(dense[row][output] for row in range(keys)).most_common(1)[0]
        for row in range(keys):
            dense[row][output] -= common
        dense[keys + PAIR_INPUTS][output] += common
    return dense


@cache
def pruned_program(program: Program, kept: tuple[int, ...] | None = None) -> Program:
    """*program* with its key weights shifted onto the total and its compiled tables cut to
    the keys still read (the same outputs on every shoe of at least six cards).  With
    *kept*, only those outputs are computed (the others read 0).

    Without the compiled kernel the program is only reweighted (the twin and numpy paths
    give the same outputs either way).
    """
    keys = len(program.compiled.keys)
    weights = _shifted_weights(program, kept)
    reweighted = build_program(program.compiled, weights)
    module = native_module()
    if module is None or reweighted.native is None:
        return reweighted
    arrays = product_tables(program.compiled)
    read = [key for key in range(keys) if any(weights[key])]
    entry_rows = np.repeat(np.arange(len(arrays.parents)), np.diff(arrays.entry_start))
    reading = np.isin(arrays.entry_key, read)
    needed = np.zeros(len(arrays.parents), dtype=bool)
    needed[0] = True
    needed[entry_rows[reading]] = True
    parents = arrays.parents
    for row in range(len(needed) - 1, 0, -1):  # parents come before their children
        if needed[row]:
            needed[parents[row]] = True
    rows = np.flatnonzero(needed)
    renumbered = np.full(len(needed), -1, dtype=np.int64)
    renumbered[rows] = np.arange(len(rows))
    new_parents = renumbered[parents[rows]]
    new_parents[0] = 0
    sizes = np.searchsorted(arrays.size_start, rows, side="right") - 1
    size_start = [int(np.searchsorted(sizes, size)) for size in range(7)] + [len(rows)]
    new_entry_rows = renumbered[entry_rows[reading]]
    # The compiled program counts only the keys read, numbered 0, 1, ... in their order.
    key_number = np.zeros(keys, dtype=np.int16)
    key_number[read] = np.arange(len(read), dtype=np.int16)
    sparse = [reweighted.weights[key] for key in read] + list(reweighted.weights[keys:])
    output_start = np.zeros(len(sparse) + 1, dtype=np.int32)
    output_start[1:] = np.cumsum([len(row) for row in sparse])
    native = module.program(
        new_parents.astype(np.int32),
        arrays.factors[rows],
        np.array(size_start, dtype=np.int64),
        np.searchsorted(new_entry_rows, np.arange(len(rows) + 1)).astype(np.int32),
        key_number[arrays.entry_key[reading]],
        arrays.entry_coefficient[reading],
        len(read),
        output_start,
        np.array([output for row in sparse for output, _ in row], dtype=np.int32),
        np.array([weight for row in sparse for _, weight in row], dtype=np.int64),
        program.outputs,
        reweighted.bound,
    )
    # The Python weights stay the tableau's (the twin's and numpy's roads read them).
    return Program(program.compiled, reweighted.weights, program.outputs, reweighted.bound, native)


def evaluate_ranks(program: Program, ranks: IntArray) -> IntArray | None:
    """Every output of *program* on each rank row (13 counts a row, int64), shoes known by
    rank, in one call of the compiled kernel; None unless the kernel is built, every row
    holds at least six cards and every output fits int64 (then use
    :func:`~exactodds.engine.kernel.program.evaluate`).
    """
    module = native_module()
    count = len(ranks)
    if module is None or program.native is None or not count:
        return None
    ranks = np.ascontiguousarray(ranks, dtype=np.int64)
    cards = ranks.sum(axis=1)
    if int(ranks.min()) < 0 or int(cards.min()) < 6 or sequences(int(cards.max())) >= 2**63:
        return None
    low = np.empty((count, program.outputs), dtype=np.int64)
    high = np.empty_like(low)
    width = np.empty(count, dtype=np.int8)
    suited = np.zeros(count, dtype=np.int8)
    suits = np.zeros((count, 52), dtype=np.int64)
    module.evaluate(program.native, ranks, suited, suits, low, high, width)
    if np.any(width != _NARROW):
        return None
    return low
