"""Kernel programs: the count polynomials and a weight matrix, as flat integer arrays.

A :class:`Program` evaluates, for each shoe, a vector of *inputs*

* the count of every value-level key of the tableau (``compiled.keys``: final
  totals, cards per hand, naturals), as polynomials in the ten value counts;
* the joint pair states of the first two cards of each hand: nine states
  ``(player, banker)`` in {no pair, pair, suited pair}^2 for a shoe that knows
  its suits (input ``keys + 3 * player + banker``), four in {no pair, pair}^2
  for a shoe known by rank (input ``keys + 9 + 2 * player + banker``); the
  other group is zero;
* the total ``ff(N, 6)`` (input ``keys + 13``),

and returns ``weights.T @ inputs``: whatever linear combinations the caller
asked for (outcome counts are 0/1 rows, EV numerators are integer pays).  Every
input group splits the total, so ``|output| <= bound * total`` with
:attr:`Program.bound`, which is what lets the compiled kernel pick 64-bit or
128-bit arithmetic per shoe and prove the result exact (see ``_native.c``).

:func:`evaluate` runs a program on many shoes: in the C extension when it is
built (threads release the interpreter lock), and in the pure-Python twin
(:mod:`exactodds.engine.kernel.twin`) otherwise or for shoes beyond 128 bits.

>>> from exactodds import Shoe
>>> from exactodds.engine.polynomial import compile_tableau
>>> from exactodds.rules import Tableau
>>> compiled = compile_tableau(Tableau())
>>> inputs = input_count(len(compiled.keys))
>>> program = build_program(compiled, [[1]] * len(compiled.keys) + [[0]] * (PAIR_INPUTS + 1))
>>> shoe = Shoe.standard(decks=8)
>>> evaluate(program, [shoe.rank_counts], [None]).row(0) == [416 * 415 * 414 * 413 * 412 * 411]
True
>>> build_program(compiled, [[1]])
Traceback (most recent call last):
...
ValueError: a kernel program needs 219 weight rows (one per input), not 1
"""

from __future__ import annotations

import array
import importlib
import itertools
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cache
from types import ModuleType
from typing import Any

import numpy as np
import numpy.typing as npt

from exactodds.engine.kernel import twin
from exactodds.engine.polynomial import CompiledTableau
from exactodds.engine.walk import RANK_PAIR_STATES, SUITED_PAIR_STATES, sequences

__all__ = [
    "PAIR_INPUTS",
    "SUITED_PAIR_INPUTS",
    "Evaluation",
    "Program",
    "build_program",
    "evaluate",
    "evaluate_one",
    "input_count",
    "native_module",
    "product_tables",
    "rank_pair_input",
    "suited_pair_input",
    "total_input",
]

#: Pair-state inputs after the keys: 9 suited states, then 4 rank-only ones.
SUITED_PAIR_INPUTS = len(SUITED_PAIR_STATES)
PAIR_INPUTS = SUITED_PAIR_INPUTS + len(RANK_PAIR_STATES)
IntArray = npt.NDArray[np.int64]
# Shoes whose every count and whose card total stay below this go to the compiled kernel
# as int64 arrays; larger ones (2**62 cards and more) are evaluated in Python integers.
_NATIVE_CARDS_LIMIT = 2**62
_INT64 = 2**63
# Width codes of the compiled kernel (see _native.c).
_NARROW, _WIDE, _PYTHON, _TOO_FEW = 0, 1, 2, 3


def input_count(keys: int) -> int:
    """How many inputs a program of *keys* value-level keys has: keys, pair states, total.

    >>> input_count(205)
    219
    """
    return keys + PAIR_INPUTS + 1


def total_input(keys: int) -> int:
    """The input index of the total ``ff(N, 6)``, the last input.

    >>> total_input(205)
    218
    """
    return keys + PAIR_INPUTS


def suited_pair_input(keys: int, player: int, banker: int) -> int:
    """The input index of pair state (*player*, *banker*), each 0-2, on a suited shoe.

    >>> suited_pair_input(205, 2, 1)
    212
    """
    return keys + 3 * player + banker


def rank_pair_input(keys: int, player: int, banker: int) -> int:
    """The input index of pair state (*player*, *banker*), each 0-1, on a shoe known by rank.

    >>> rank_pair_input(205, 1, 1)
    217
    """
    return keys + SUITED_PAIR_INPUTS + 2 * player + banker


@cache
def native_module() -> ModuleType | None:
    """The compiled extension, or ``None`` when it was not built (no C compiler).

    >>> native_module() is None or hasattr(native_module(), "evaluate")
    True
    """
    # A top-level module (built from _native.c beside this file), so that a source tree
    # whose package was installed with `pip install .` still finds the compiled kernel.
    try:
        return importlib.import_module("_exactodds_kernel")
    except ImportError:
        return None


@dataclass(frozen=True, eq=False)
class Program:
    """A compiled tableau's polynomials and the caller's weights, ready to evaluate.

    >>> from exactodds.engine.polynomial import compile_tableau
    >>> from exactodds.rules import Tableau
    >>> compiled = compile_tableau(Tableau())
    >>> keys = len(compiled.keys)
    >>> program = build_program(compiled, [[1, 0]] * keys + [[0, 3]] * 13 + [[0, 0]])
    >>> program.outputs, program.bound  # every key once; 3 times every pair state
    (2, 3)
    """

    compiled: CompiledTableau
    #: Per input row, the nonzero (output, weight) pairs.
    weights: tuple[tuple[tuple[int, int], ...], ...]
    outputs: int
    #: |output| <= bound * total for every output and every shoe.
    bound: int
    #: The compiled program (a capsule), or None when the extension or int64 weights are missing.
    native: Any = field(default=None, repr=False)

    @property
    def structure(self) -> twin.Structure:
        """The product table and coefficients as Python tuples, for the twin."""
        return _structure(self.compiled)


@dataclass(frozen=True)
class _Arrays:
    parents: npt.NDArray[np.int32]
    factors: npt.NDArray[np.int16]
    size_start: IntArray
    entry_start: npt.NDArray[np.int32]
    entry_key: npt.NDArray[np.int16]
    entry_coefficient: IntArray


@cache
def _arrays(compiled: CompiledTableau) -> _Arrays:
    """The product table and the sparse coefficients of *compiled*, as flat arrays.

    The product table is the compiled tableau's (:func:`~exactodds.engine.coefficients.multiset_plan`'s):
    row r's product is its parent's times ``n_v - offset``, factor row ``v * 7 + offset``.
    """
    multisets = np.asarray(compiled.multisets, dtype=np.int64)
    rows = multisets.shape[0]
    sizes = multisets.sum(axis=1)
    if np.any(np.diff(sizes) < 0) or int(sizes.max()) != 6 or int(multisets.max()) > 6:
        raise ValueError("compiled multisets must be ordered by size, up to six cards")
    parents, factors = compiled.parents, compiled.factors
    size_start = [int(np.searchsorted(sizes, size)) for size in range(7)] + [rows]
    coefficients = np.asarray(compiled.coefficients)
    nonzero_rows, keys = np.nonzero(coefficients)
    if nonzero_rows.size and int(nonzero_rows.min()) < size_start[4]:
        raise ValueError("a round deals at least four cards")
    return _Arrays(
        parents.astype(np.int32),
        factors.astype(np.int16),
        np.array(size_start, dtype=np.int64),
        np.searchsorted(nonzero_rows, np.arange(rows + 1)).astype(np.int32),
        keys.astype(np.int16),
        coefficients[nonzero_rows, keys].astype(np.int64),
    )


def product_tables(compiled: CompiledTableau) -> _Arrays:
    """The product table and the sparse coefficients of *compiled* as flat arrays (cached):
    ``parents``, ``factors``, ``size_start``, ``entry_start``, ``entry_key``,
    ``entry_coefficient``, the arrays a compiled program is built from
    (:mod:`exactodds.engine.kernel.pruned` cuts them down).

    >>> from exactodds.engine.polynomial import compile_tableau
    >>> from exactodds.rules import Tableau
    >>> tables = product_tables(compile_tableau(Tableau()))
    >>> len(tables.parents), len(tables.entry_key)
    (8008, 35564)
    """
    return _arrays(compiled)


@cache
def _structure(compiled: CompiledTableau) -> twin.Structure:
    """The same tables as Python tuples, for the twin (built only when the twin runs)."""
    arrays = _arrays(compiled)
    starts = arrays.entry_start.tolist()
    keys = arrays.entry_key.tolist()
    values = arrays.entry_coefficient.tolist()
    return twin.Structure(
        keys=len(compiled.keys),
        parents=tuple(arrays.parents.tolist()),
        factors=tuple(arrays.factors.tolist()),
        size_start=tuple(arrays.size_start.tolist()),
        entries=tuple(
            tuple(zip(keys[start:stop], values[start:stop], strict=True))
            for start, stop in itertools.pairwise(starts)
        ),
    )


def build_program(compiled: CompiledTableau, weights: Sequence[Sequence[int]]) -> Program:
    """A program of *compiled*'s polynomials with one weight row per input.

    *weights* has ``len(compiled.keys) + 14`` rows (keys, 13 pair states, the
    total) of equal length, the number of outputs; any integers.
    """
    arrays = _arrays(compiled)
    keys = len(compiled.keys)
    inputs = input_count(keys)
    if len(weights) != inputs:
        raise ValueError(
            f"a kernel program needs {inputs} weight rows (one per input), not {len(weights)}"
        )
    outputs = len(weights[0])
    if any(len(row) != outputs for row in weights):
        raise ValueError("every weight row needs one weight per output")
    sparse = tuple(
        tuple((output, int(weight)) for output, weight in enumerate(row) if weight)
        for row in weights
    )
    groups = (
        range(keys),
        range(keys, keys + SUITED_PAIR_INPUTS),
        range(keys + SUITED_PAIR_INPUTS, keys + PAIR_INPUTS),
        range(total_input(keys), inputs),
    )
    largest = [[0] * outputs for _ in groups]
    for group, rows in enumerate(groups):
        for row in rows:
            for output, weight in sparse[row]:
                largest[group][output] = max(largest[group][output], abs(weight))
    # A shoe fills the keys, one of the two pair groups, and the total.
    bound = max(
        (
            largest[0][output] + max(largest[1][output], largest[2][output]) + largest[3][output]
            for output in range(outputs)
        ),
        default=0,
    )
    native = None
    module = native_module()
    fits = all(-_INT64 <= weight < _INT64 for row in sparse for _, weight in row)
    if module is not None and fits and bound < 2**64:
        output_start = np.zeros(inputs + 1, dtype=np.int32)
        output_start[1:] = np.cumsum([len(row) for row in sparse])
        output_index = np.array([o for row in sparse for o, _ in row], dtype=np.int32)
        output_weight = np.array([w for row in sparse for _, w in row], dtype=np.int64)
        native = module.program(
            arrays.parents,
            arrays.factors,
            arrays.size_start,
            arrays.entry_start,
            arrays.entry_key,
            arrays.entry_coefficient,
            keys,
            output_start,
            output_index,
            output_weight,
            outputs,
            bound,
        )
    return Program(compiled, sparse, outputs, bound, native)


_NO_SUITS = (0,) * 52
# Shoes per numpy step of the fallback: keeps its (terms x shoes) array near 20 MB.
_NUMPY_SHOES = 64


@cache
def _numpy_tables(program: Program) -> tuple[IntArray, IntArray, IntArray, IntArray] | None:
    """The fallback's tables: entry rows and coefficients grouped by key, key starts, weights."""
    if any(not -_INT64 <= weight < _INT64 for row in program.weights for _, weight in row):
        return None
    arrays = _arrays(program.compiled)
    rows = np.repeat(np.arange(len(arrays.parents)), np.diff(arrays.entry_start))
    order = np.argsort(arrays.entry_key, kind="stable")
    keys = arrays.entry_key[order].astype(np.int64)
    starts = np.searchsorted(keys, np.arange(len(program.compiled.keys)))
    if np.any(np.diff(np.append(starts, len(keys))) == 0):
        return None  # a key with no term: reduceat would not give it 0
    weights = np.zeros((len(program.weights), program.outputs), dtype=np.int64)
    for row, pairs in enumerate(program.weights):
        for output, weight in pairs:
            weights[row, output] = weight
    return rows[order], arrays.entry_coefficient[order].astype(np.uint64), starts, weights


def _numpy_rows(
    program: Program,
    rank_counts: Sequence[Sequence[int]],
    suit_counts: Sequence[Sequence[int] | None],
    values: IntArray,
) -> set[int]:
    """The compiled kernel's arithmetic in numpy, for when the extension is not built.

    The same algorithm as the twin, vectorised over shoes in uint64, which wraps
    modulo 2**64 as the C code does; taken only for shoes whose outputs provably
    lie in int64 (``bound * ff(N, 6) < 2**63``), written into *values*.  Returns
    the rows it computed; the twin takes the rest.
    """
    tables = _numpy_tables(program)
    if tables is None:
        return set()
    entry_rows, coefficients, key_starts, weights = tables
    limit = _INT64 // max(program.bound, 1)
    rows = [
        row
        for row, counts in enumerate(rank_counts)
        if max(counts) < 2**58 and sum(counts) >= 6 and sequences(sum(counts)) < limit
    ]
    arrays = _arrays(program.compiled)
    starts = arrays.size_start.tolist()
    for first in range(0, len(rows), _NUMPY_SHOES):
        block = rows[first : first + _NUMPY_SHOES]
        ranks = np.array([rank_counts[row] for row in block], dtype=np.uint64)
        cards = ranks.sum(axis=1)
        counts = np.concatenate([ranks[:, 9:].sum(axis=1, keepdims=True), ranks[:, :9]], axis=1)
        factor_rows = (counts[:, :, None] - np.arange(7, dtype=np.uint64)).reshape(len(block), 70)
        products = np.empty((len(arrays.parents), len(block)), dtype=np.uint64)
        products[0] = 1
        for size in range(1, 7):
            level = slice(starts[size], starts[size + 1])
            products[level] = (
                products[arrays.parents[level]] * factor_rows[:, arrays.factors[level]].T
            )
        products[starts[4] : starts[5]] *= (cards - 4) * (cards - 5)
        products[starts[5] : starts[6]] *= cards - 5
        terms = products[entry_rows] * coefficients[:, None]
        keys = np.add.reduceat(terms, key_starts, axis=0)
        pairs = np.array(
            [twin.pair_states(rank_counts[row], suit_counts[row]) for row in block], dtype=object
        )
        totals = np.array([sequences(int(total)) for total in cards], dtype=np.uint64)
        inputs = np.concatenate([keys, pairs.T.astype(np.uint64), totals[None, :]], axis=0)
        values[block] = (weights.T @ inputs.view(np.int64)).T
    return set(rows)


def _native_ranks(rank_counts: Sequence[Sequence[int]]) -> tuple[IntArray, list[int]]:
    """The rank rows the compiled kernel takes (counts and card totals below 2**62)."""
    try:
        ranks = np.array(rank_counts, dtype=np.int64).reshape(len(rank_counts), 13)
    except OverflowError:
        ranks = None
    # Counts below 2**58 keep 13-count sums below 2**62 without overflowing int64.
    if ranks is not None and int(ranks.min()) >= 0 and int(ranks.max()) < 2**58:
        return ranks, list(range(len(rank_counts)))
    rows = [
        row
        for row, counts in enumerate(rank_counts)
        if max(counts, default=0) < _NATIVE_CARDS_LIMIT and sum(counts) < _NATIVE_CARDS_LIMIT
    ]
    return np.array([rank_counts[row] for row in rows], dtype=np.int64).reshape(-1, 13), rows


@dataclass(frozen=True, eq=False)
class Evaluation:
    """A program's outputs for many shoes.

    ``values`` holds every shoe's outputs as int64 (rows of shoes whose outputs
    do not fit int64 hold zeros there and their exact outputs in ``exact``).

    >>> from exactodds.engine.polynomial import compile_tableau
    >>> from exactodds.rules import Tableau
    >>> compiled = compile_tableau(Tableau())
    >>> program = build_program(compiled, [[0]] * (len(compiled.keys) + 13) + [[1]])
    >>> result = evaluate(program, [(4,) * 13, (2**40,) * 13], [None, None])
    >>> result.row(0), result.row(1) == [13 * 2**40 * (13 * 2**40 - 1) * (13 * 2**40 - 2)
    ...     * (13 * 2**40 - 3) * (13 * 2**40 - 4) * (13 * 2**40 - 5)]
    ([14658134400], True)
    >>> sorted(result.exact)  # the second total passes int64
    [1]
    """

    values: IntArray
    exact: dict[int, list[int]]

    def row(self, index: int) -> list[int]:
        """The exact outputs of shoe *index*, as Python integers."""
        found = self.exact.get(index)
        return found if found is not None else list(self.values[index].tolist())

    def rows(self) -> list[list[int]]:
        """Every shoe's exact outputs."""
        plain = self.values.tolist()
        for index, found in self.exact.items():
            plain[index] = found
        return list(plain)


def evaluate(
    program: Program,
    rank_counts: Sequence[Sequence[int]],
    suit_counts: Sequence[Sequence[int] | None],
    jobs: int = 1,
) -> Evaluation:
    """The outputs of *program* for each shoe (13 rank counts, 52 suit counts or None).

    Every shoe needs at least six cards.  With *jobs* > 1 the compiled kernel
    runs on that many threads at once (it releases the interpreter lock).
    """
    count = len(rank_counts)
    values = np.zeros((count, program.outputs), dtype=np.int64)
    exact: dict[int, list[int]] = {}
    module = native_module()
    native_rows: list[int] = []
    if program.native is not None and module is not None and count:
        ranks, native_rows = _native_ranks(rank_counts)
        if len(native_rows) == count:
            suited = np.fromiter(
                (row is not None for row in suit_counts), dtype=np.int8, count=count
            )
            suits = np.array(
                [row if row is not None else _NO_SUITS for row in suit_counts], dtype=np.int64
            )
        else:
            suited = np.array([suit_counts[row] is not None for row in native_rows], dtype=np.int8)
            suits = np.array([suit_counts[row] or _NO_SUITS for row in native_rows], dtype=np.int64)
    if native_rows:
        assert module is not None
        low = np.empty((len(native_rows), program.outputs), dtype=np.int64)
        high = np.empty_like(low)
        width = np.empty(len(native_rows), dtype=np.int8)
        parts = max(1, min(jobs, len(native_rows) // 64))
        bounds = [len(native_rows) * part // parts for part in range(parts + 1)]

        def run(part: int) -> None:
            start, stop = bounds[part], bounds[part + 1]
            module.evaluate(
                program.native,
                ranks[start:stop],
                suited[start:stop],
                suits[start:stop],
                low[start:stop],
                high[start:stop],
                width[start:stop],
            )

        if parts == 1:
            run(0)
        else:
            with ThreadPoolExecutor(parts) as pool:
                list(pool.map(run, range(parts)))
        narrow = width == _NARROW
        if len(native_rows) == count:
            values[narrow] = low[narrow]
        else:
            rows = np.array(native_rows, dtype=np.int64)
            values[rows[narrow]] = low[narrow]
        for position in np.flatnonzero(~narrow).tolist():
            row = native_rows[position]
            if width[position] == _WIDE:
                exact[row] = [
                    (int(high_part) << 64) + (int(low_part) & (2**64 - 1))
                    for high_part, low_part in zip(
                        high[position].tolist(), low[position].tolist(), strict=True
                    )
                ]
            else:
                exact[row] = twin.evaluate_shoe(
                    program.structure,
                    program.weights,
                    program.outputs,
                    rank_counts[row],
                    suit_counts[row],
                )
    done = set(native_rows)
    if len(done) != count and program.native is None:
        done |= _numpy_rows(program, rank_counts, suit_counts, values)
    for row in range(count) if len(done) != count else ():
        if row not in done:
            result = twin.evaluate_shoe(
                program.structure,
                program.weights,
                program.outputs,
                rank_counts[row],
                suit_counts[row],
            )
            if all(-_INT64 <= value < _INT64 for value in result):
                values[row] = result
            else:
                exact[row] = result
    return Evaluation(values, exact)


# One shoe's counts go to the compiled kernel as plain int64 buffers when every count is
# below 2**58 (so that the card total, a sum of 13 counts, stays below 2**62).
_ONE_SHOE_COUNT_LIMIT = 2**58


def evaluate_one(
    program: Program, rank_counts: Sequence[int], suit_counts: Sequence[int] | None
) -> list[int]:
    """The outputs of *program* for one shoe: ``evaluate(...).row(0)``, without numpy.

    The analysis of a single shoe pays for its arrays more than for its counting, so
    the compiled kernel gets plain int64 buffers here; a shoe that needs 128 bits or
    Python integers, or a machine without the extension, takes :func:`evaluate`.

    >>> from exactodds.engine.polynomial import compile_tableau
    >>> from exactodds.rules import Tableau
    >>> compiled = compile_tableau(Tableau())
    >>> program = build_program(compiled, [[0]] * (len(compiled.keys) + 13) + [[1]])
    >>> evaluate_one(program, (4,) * 13, None)
    [14658134400]
    >>> evaluate_one(program, (2**40,) * 13, None) == evaluate(program, [(2**40,) * 13], [None]).row(0)
    True
    """
    module = native_module()
    if (
        module is None
        or program.native is None
        or max(rank_counts) >= _ONE_SHOE_COUNT_LIMIT
        or min(rank_counts) < 0
    ):
        return evaluate(program, [rank_counts], [suit_counts]).row(0)
    outputs = program.outputs
    low = array.array("q", bytes(8 * outputs))
    high = array.array("q", bytes(8 * outputs))
    width = bytearray(1)
    module.evaluate(
        program.native,
        array.array("q", rank_counts),
        b"\x01" if suit_counts is not None else b"\x00",
        array.array("q", suit_counts if suit_counts is not None else _NO_SUITS),
        low,
        high,
        width,
    )
    if width[0] != _NARROW:
        return evaluate(program, [rank_counts], [suit_counts]).row(0)
    return low.tolist()
