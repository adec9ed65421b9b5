"""The exact simplex against brute force: the best vertex of small random programs."""

from __future__ import annotations

import itertools
from fractions import Fraction

from budget import budgeted
from hypothesis import given
from hypothesis import strategies as st

from exactodds.games.simplex import maximize


def _solve(rows: list[list[Fraction]], right: list[Fraction]) -> list[Fraction] | None:
    size = len(rows)
    table = [[*row, value] for row, value in zip(rows, right, strict=True)]
    for column in range(size):
        pivot = next((r for r in range(column, size) if table[r][column] != 0), None)
        if pivot is None:
            return None
        table[column], table[pivot] = table[pivot], table[column]
        for r in range(size):
            if r != column and table[r][column]:
                factor = table[r][column] / table[column][column]
                table[r] = [a - factor * b for a, b in zip(table[r], table[column], strict=True)]
    return [table[i][size] / table[i][i] for i in range(size)]


def _best_vertex(
    objective: list[int],
    rows: list[list[int]],
    bounds: list[int],
    equal: list[list[int]],
    equal_bounds: list[int],
) -> Fraction | None:
    """Try every choice of tight constraints (x >= 0 included); keep the feasible best."""
    width = len(objective)
    inequalities = [[Fraction(v) for v in row] for row in rows] + [
        [Fraction(-1 if i == j else 0) for i in range(width)] for j in range(width)
    ]
    limits = [Fraction(b) for b in bounds] + [Fraction(0)] * width
    equalities = [[Fraction(v) for v in row] for row in equal]
    every_row = equalities + inequalities
    every_limit = [Fraction(b) for b in equal_bounds] + limits
    best: Fraction | None = None
    # A vertex is where some `width` independent constraints hold with equality.
    for chosen in itertools.combinations(range(len(every_row)), width):
        system = [every_row[i] for i in chosen]
        right = [every_limit[i] for i in chosen]
        point = _solve(system, right)
        if point is None:
            continue
        feasible = all(
            sum((a * x for a, x in zip(row, point, strict=True)), Fraction(0)) <= limit
            for row, limit in zip(inequalities, limits, strict=True)
        ) and all(
            sum((a * x for a, x in zip(row, point, strict=True)), Fraction(0)) == Fraction(b)
            for row, b in zip(equalities, equal_bounds, strict=True)
        )
        if feasible:
            value = sum(
                (Fraction(c) * x for c, x in zip(objective, point, strict=True)), Fraction(0)
            )
            best = value if best is None or value > best else best
    return best


@budgeted(150, deadline=None)
@given(st.data())
def test_simplex_finds_the_best_vertex(data: st.DataObject) -> None:
    width = data.draw(st.integers(1, 3))
    coefficient = st.integers(-3, 3)
    objective = data.draw(st.lists(coefficient, min_size=width, max_size=width))
    count = data.draw(st.integers(0, 3))
    rows = [data.draw(st.lists(coefficient, min_size=width, max_size=width)) for _ in range(count)]
    bounds = data.draw(st.lists(st.integers(-2, 5), min_size=count, max_size=count))
    # A box keeps every program bounded.
    rows += [[1 if i == j else 0 for i in range(width)] for j in range(width)]
    bounds += [4] * width
    equal_count = data.draw(st.integers(0, 1))
    equal = [
        data.draw(st.lists(coefficient, min_size=width, max_size=width)) for _ in range(equal_count)
    ]
    equal_bounds = data.draw(
        st.lists(st.integers(-2, 4), min_size=equal_count, max_size=equal_count)
    )
    result = maximize(objective, rows, bounds, equal, equal_bounds)
    expected = _best_vertex(objective, rows, bounds, equal, equal_bounds)
    if expected is None:
        assert result.status == "infeasible"
    else:
        assert result.status == "optimal"
        assert result.value == expected
        point = result.point
        assert all(x >= 0 for x in point)
        for row, bound in zip(rows, bounds, strict=True):
            assert sum(Fraction(a) * x for a, x in zip(row, point, strict=True)) <= bound
        for row, bound in zip(equal, equal_bounds, strict=True):
            assert sum(Fraction(a) * x for a, x in zip(row, point, strict=True)) == bound


def test_degenerate_program_does_not_cycle() -> None:
    """Beale's classic cycling example (for the textbook rule); Bland's rule ends at 1/20."""
    objective: list[Fraction | int] = [Fraction(3, 4), -150, Fraction(1, 50), -6]
    rows: list[list[Fraction | int]] = [
        [Fraction(1, 4), -60, Fraction(-1, 25), 9],
        [Fraction(1, 2), -90, Fraction(-1, 50), 3],
        [0, 0, 1, 0],
    ]
    result = maximize(objective, rows, [0, 0, 1])
    assert result.status == "optimal"
    assert result.value == Fraction(1, 20)
