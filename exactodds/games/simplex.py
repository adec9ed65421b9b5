"""A small exact linear-program solver: the simplex method over Fractions.

Two phases, Bland's rule (so it never cycles), dense tableau.  It is meant for
the few dozen variables and constraints of a reduced game, where exactness
matters and size does not.

Maximise ``objective . x`` subject to ``rows_at_most[i] . x <= bounds_at_most[i]``,
``rows_equal[i] . x == bounds_equal[i]`` and ``x >= 0``:

>>> result = maximize([1, 1], [[1, 2], [3, 1]], [4, 6])
>>> result.status, result.value, result.point
('optimal', Fraction(14, 5), (Fraction(8, 5), Fraction(6, 5)))
>>> maximize([1], [[1]], [-1]).status
'infeasible'
>>> maximize([1], [[-1]], [0]).status
'unbounded'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

__all__ = ["LinearProgramResult", "maximize"]

Number = int | Fraction


@dataclass(frozen=True)
class LinearProgramResult:
    """The outcome of :func:`maximize`: a status, and for ``"optimal"`` the point and value.

    >>> maximize([0], [], []).point
    (Fraction(0, 1),)
    """

    status: str
    point: tuple[Fraction, ...] = ()
    value: Fraction | None = None


def _pivot(table: list[list[Fraction]], row: int, column: int) -> None:
    pivot_row = table[row]
    pivot = pivot_row[column]
    if pivot != 1:
        table[row] = pivot_row = [entry / pivot for entry in pivot_row]
    for index, other in enumerate(table):
        if index == row:
            continue
        factor = other[column]
        if factor:
            table[index] = [
                entry - factor * pivot_entry if pivot_entry else entry
                for entry, pivot_entry in zip(other, pivot_row, strict=True)
            ]


def _run(table: list[list[Fraction]], basis: list[int], allowed: int) -> bool:
    """Maximise the last row's objective (stored as reduced costs); False if unbounded.

    The last row holds ``-reduced cost`` per column; a negative entry may enter.
    Only columns below *allowed* may enter (artificials are kept out in phase 2).
    """
    rows = len(table) - 1
    while True:
        objective = table[-1]
        entering = next((j for j in range(allowed) if objective[j] < 0), None)
        if entering is None:
            return True
        leaving = -1
        best = Fraction(0)
        for i in range(rows):
            entry = table[i][entering]
            if entry > 0:
                ratio = table[i][-1] / entry
                if leaving < 0 or ratio < best or (ratio == best and basis[i] < basis[leaving]):
                    best, leaving = ratio, i
        if leaving < 0:
            return False
        _pivot(table, leaving, entering)
        basis[leaving] = entering


def maximize(
    objective: Sequence[Number],
    rows_at_most: Sequence[Sequence[Number]],
    bounds_at_most: Sequence[Number],
    rows_equal: Sequence[Sequence[Number]] = (),
    bounds_equal: Sequence[Number] = (),
) -> LinearProgramResult:
    """Maximise ``objective . x`` over ``x >= 0`` and the given constraints, exactly.

    >>> maximize([1, 0], [[1, 1]], [1], [[1, -1]], [0]).point
    (Fraction(1, 2), Fraction(1, 2))
    >>> maximize([1], [[1, 2]], [1])
    Traceback (most recent call last):
    ...
    ValueError: Constraint row 0 has 2 coefficients; the objective has 1.
    """
    width = len(objective)
    constraints = [
        (list(row), bound, True) for row, bound in zip(rows_at_most, bounds_at_most, strict=True)
    ]
    constraints += [
        (list(row), bound, False) for row, bound in zip(rows_equal, bounds_equal, strict=True)
    ]
    for index, (row, _, _) in enumerate(constraints):
        if len(row) != width:
            raise ValueError(
                f"Constraint row {index} has {len(row)} coefficients; the objective has {width}."
            )
    slacks = sum(1 for _, _, at_most in constraints if at_most)
    count = len(constraints)
    # Columns: x (width), slacks, artificials (one per row), right-hand side.
    columns = width + slacks + count
    table: list[list[Fraction]] = []
    basis: list[int] = []
    slack = width
    for index, (row, bound, at_most) in enumerate(constraints):
        line = (
            [Fraction(value) for value in row]
            + [Fraction(0)] * (slacks + count)
            + [Fraction(bound)]
        )
        slack_column = None
        if at_most:
            slack_column = slack
            line[slack] = Fraction(1)
            slack += 1
        if line[-1] < 0:
            line = [-entry for entry in line]
        if slack_column is not None and line[slack_column] == 1:
            basis.append(slack_column)
        else:
            line[width + slacks + index] = Fraction(1)
            basis.append(width + slacks + index)
        table.append(line)
    # Phase 1: maximise minus the sum of the artificials.
    artificial_start = width + slacks
    phase_one = [Fraction(0)] * (columns + 1)
    for line, basic in zip(table, basis, strict=True):
        if basic >= artificial_start:
            phase_one = [total - entry for total, entry in zip(phase_one, line, strict=True)]
    for basic in basis:
        if basic >= artificial_start:
            phase_one[basic] = Fraction(0)
    table.append(phase_one)
    _run(table, basis, artificial_start)
    if table[-1][-1] != 0:
        return LinearProgramResult("infeasible")
    table.pop()
    # Drive the artificials (all at zero) out of the basis; drop redundant rows.
    index = 0
    while index < len(table):
        if basis[index] >= artificial_start:
            column = next((j for j in range(artificial_start) if table[index][j] != 0), None)
            if column is None:
                del table[index]
                del basis[index]
                continue
            _pivot(table, index, column)
            basis[index] = column
        index += 1
    # Phase 2.
    costs = [Fraction(-value) for value in objective] + [Fraction(0)] * (slacks + count + 1)
    for line, basic in zip(table, basis, strict=True):
        factor = costs[basic]
        if factor:
            costs = [cost - factor * entry for cost, entry in zip(costs, line, strict=True)]
    table.append(costs)
    if not _run(table, basis, artificial_start):
        return LinearProgramResult("unbounded")
    point = [Fraction(0)] * width
    for line, basic in zip(table[:-1], basis, strict=True):
        if basic < width:
            point[basic] = line[-1]
    value = sum((Fraction(c) * x for c, x in zip(objective, point, strict=True)), Fraction(0))
    return LinearProgramResult("optimal", tuple(point), value)
