"""The compiled depth walk (engine/kernel/_depth.c) against its numpy twin and an exact reference.

The walk adds the weighted sums exactly, in 128-bit integers from the level where its bound
fits and in 64-bit limbs above; the numpy path (compositions._descend) takes them modulo
primes.  Both must give the same residues on every piece of work, and on problems placed at
each width boundary (the numerators' int64 limit, the 128-bit levels, the tail's 128 bits)
the sums must equal a reference that adds every composition in Python integers.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest
from budget import budgeted, thorough
from hypothesis import given
from hypothesis import strategies as st

from exactodds import Rules, Shoe
from exactodds.advantage import compositions
from exactodds.advantage.compositions import Problem, Sums, native_plan, solve, solve_task, tasks
from exactodds.advantage.depth import _key_pays, partial_problem, partial_shoe, value_level_bets
from exactodds.bets.catalogue import select_bets
from exactodds.engine.kernel.program import native_module
from exactodds.engine.polynomial import compile_tableau
from exactodds.engine.walk import falling_factorial

needs_kernel = pytest.mark.skipif(
    native_module() is None or not hasattr(native_module(), "depth_sums"),
    reason="the compiled kernel is not built",
)

VALUE_BETS = value_level_bets(select_bets("all"))[0]


@needs_kernel
@budgeted(8, deadline=None)
@given(
    st.integers(1, 8),
    st.integers(6, 10),
    st.lists(st.integers(0, len(VALUE_BETS) - 1), min_size=1, max_size=6, unique=True),
    st.sampled_from([Fraction(0), Fraction(1, 50), Fraction(-1, 7)]),
    st.dictionaries(st.sampled_from(["9", "T", "4"]), st.integers(0, 3), max_size=2),
    st.integers(1, 2),
)
def test_the_walk_equals_the_numpy_path_on_every_piece(
    decks: int,
    cards: int,
    chosen: list[int],
    edge: Fraction,
    known: dict[str, int],
    depth: int,
) -> None:
    """Random bet sets, depths, edges and known cards: the same residues piece by piece."""
    shoe = Shoe.standard(decks=decks)
    partial = partial_shoe(shoe, max(cards, sum(known.values()) + 1), known)
    bets = [VALUE_BETS[index] for index in chosen]
    problem, _ = partial_problem(partial, Rules(), bets, edge)
    assert native_plan(problem, depth) is not None
    for piece in tasks(problem, depth):
        assert solve_task(problem, piece) == solve_task(problem, piece, native=False)


def _splits(total: int, limits: list[int]) -> list[tuple[int, ...]]:
    """Every way to draw *total* cards with at most limits[i] of kind i."""
    if not limits:
        return [()] if total == 0 else []
    return [
        (first, *rest)
        for first in range(min(total, limits[0]) + 1)
        for rest in _splits(total - first, limits[1:])
    ]


def _reference(problem: Problem) -> Sums:
    """Every composition's numerators in Python integers (only the terms the counts allow)."""
    row_of = {term: row for row, term in enumerate(compositions._terms(0))}
    values = [v for v in range(10) if problem.pool[v]]
    totals = [[0] * problem.bets for _ in range(3)]
    weight = found = 0
    for drawn in _splits(problem.draw, [problem.pool[v] for v in values]):
        counts = list(problem.fixed)
        chance = 1
        for value, count in zip(values, drawn, strict=True):
            counts[value] += count
            chance *= math.comb(problem.pool[value], count)
        free = [v for v in range(10) if counts[v]]
        numerators = [0] * problem.bets
        for exponents in itertools.product(*(range(min(counts[v], 6) + 1) for v in free)):
            if sum(exponents) > 6:
                continue
            term = [0] * 10
            for value, exponent in zip(free, exponents, strict=True):
                term[value] = exponent
            factor = math.prod(falling_factorial(counts[v], term[v]) for v in free)
            row = row_of[tuple(term)]
            for bet in range(problem.bets):
                numerators[bet] += int(problem.coefficients[row, bet]) * factor
        for bet, numerator in enumerate(numerators):
            above = numerator > problem.thresholds[bet]
            totals[0][bet] += chance * above
            totals[1][bet] += chance * numerator * above
            totals[2][bet] += chance * numerator
        weight += chance
        found += 1
    return Sums(tuple(totals[0]), tuple(totals[1]), tuple(totals[2]), weight, found)


def _sparse(
    pool: int, draw: int, threshold_bits: int, values: tuple[int, ...] = (1, 4, 8, 9)
) -> Problem:
    """Banker and tie over a few *values* of *pool* cards each (the rest empty): few
    compositions, large binomials; a second tie row with threshold -2**bits sets the offset."""
    pays, _ = _key_pays(select_bets("banker,tie"), Rules())
    pools = tuple(pool if value in values else 0 for value in range(10))
    thresholds = [0, 3 * 10**6, -(2**threshold_bits)]
    compiled = compile_tableau(Rules().tableau)
    return Problem.build(compiled, [*pays, pays[1]], thresholds, (0,) * 10, pools, draw)


@needs_kernel
@thorough  # every width boundary; the budgeted property checks the walk against numpy by default
def test_each_width_boundary_equals_the_python_integer_reference() -> None:
    """Offsets and draws placed so the walk's levels switch width (128-bit from level 2, from
    level 5, none: the tail's 128 bits exceeded), and the numerators leave int64: every case
    equals the reference, whichever path the plan chose."""
    plans = {}
    # 27 cards drawn is the largest draw whose tail sums fit 128 bits (asserted below).
    last = 27
    cases = [(80, 20, 29), (80, 20, 32), (80, 20, 41), (67, last, 20), (67, last + 1, 20)]
    for pool, draw, bits in cases:
        # Three values for the tail's cases: its bound only reads values 8 and 9's pools.
        problem = _sparse(pool, draw, bits, (1, 4, 8, 9) if pool == 80 else (1, 8, 9))
        plans[(pool, draw, bits)] = native_plan(problem, 1), problem.exact_int64
        assert solve(problem) == _reference(problem), (pool, draw, bits)
    assert plans[(80, 20, 29)] == (compositions.NativePlan(2, 3), True)
    assert plans[(80, 20, 32)] == (compositions.NativePlan(5, 3), True)
    assert plans[(80, 20, 41)] == (None, False)  # numerators past int64: the numpy path
    assert plans[(67, last, 20)][0] is not None
    assert plans[(67, last + 1, 20)] == (None, True)  # the tail's sums past 128 bits


@needs_kernel
@pytest.mark.parametrize("plan", [(1, 2), (1, 8), (3, 3), (5, 4), (8, 3), (8, 8)])
def test_every_wider_plan_gives_the_same_residues(plan: tuple[int, int]) -> None:
    """More levels in limbs and more limbs than needed (both safe): every path of the walk."""
    problem = _sparse(80, 20, 29)
    natural = native_plan(problem, 1)
    assert natural is not None
    wide_from, limbs = max(plan[0], natural.wide_from), max(plan[1], natural.limbs)
    chosen = compositions.NativePlan(wide_from, limbs)
    for piece in tasks(problem, 1):
        state = compositions._prefix_state(problem, piece)
        found = compositions._solve_native(problem, len(piece), state, chosen)
        assert found == solve_task(problem, piece, native=False)
