"""The kernel in Python integers: the specification of ``_native.c``, step for step.

The tests hold the compiled kernel to this code on every shoe they try, and
:func:`~exactodds.engine.kernel.program.evaluate` falls back to it when the
extension is not built or a shoe is too large for 128-bit integers (2**63
cards and far beyond: Python integers have no limit).

For one shoe with value counts ``n_0 ... n_9`` and ``N`` cards:

1. the product table: ``product[0] = 1`` and, for each multiset row r with
   parent p and factor ``v * 7 + o``, ``product[r] = product[p] * (n_v - o)``,
   so ``product[m] = prod_v ff(n_v, m_v)`` (a factor hits 0 when a value runs
   out, so no clamp is needed);
2. rows of four and five cards are multiplied by ``ff(N - 4, 2)`` and
   ``N - 5``, the ways to fill the unused positions of the six-card sequence;
3. ``key[k] = sum over rows r of coefficient[r][k] * product[r]``;
4. the pair states by their closed forms (:func:`pair_states`);
5. ``output[j] = sum_i weight[i][j] * input[i]``.

>>> from exactodds.engine.kernel.program import build_program
>>> from exactodds.engine.polynomial import compile_tableau
>>> from exactodds.rules import Tableau
>>> compiled = compile_tableau(Tableau())
>>> program = build_program(compiled, [[1]] * len(compiled.keys) + [[0]] * 14)
>>> evaluate_shoe(program.structure, program.weights, 1, (4,) * 13, None)
[14658134400]
>>> evaluate_shoe(program.structure, program.weights, 1, (1,) * 5 + (0,) * 8, None)
Traceback (most recent call last):
...
ValueError: a shoe needs at least 6 cards, not 5
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "Structure",
    "evaluate_shoe",
    "key_counts",
    "pair_states",
]


@dataclass(frozen=True, eq=False)
class Structure:
    """The product table and sparse coefficients of a compiled tableau."""

    keys: int
    #: Per multiset row: the parent row and the factor (value * 7 + offset).
    parents: tuple[int, ...]
    factors: tuple[int, ...]
    #: First row of each multiset size 0-6, then the number of rows.
    size_start: tuple[int, ...]
    #: Per row, the nonzero (key, coefficient) pairs.
    entries: tuple[tuple[tuple[int, int], ...], ...]


def _value_counts(ranks: Sequence[int]) -> list[int]:
    return [ranks[9] + ranks[10] + ranks[11] + ranks[12], *ranks[:9]]


def key_counts(structure: Structure, ranks: Sequence[int]) -> list[int]:
    """Steps 1-3: the count of every value-level key (six-card sequences)."""
    counts = _value_counts(ranks)
    cards = sum(counts)
    factor_rows = [counts[value] - offset for value in range(10) for offset in range(7)]
    products = [1] * len(structure.parents)
    for row in range(1, len(products)):
        products[row] = products[structure.parents[row]] * factor_rows[structure.factors[row]]
    starts = structure.size_start
    tails = {4: (cards - 4) * (cards - 5), 5: cards - 5, 6: 1}
    keys = [0] * structure.keys
    for size in (4, 5, 6):
        tail = tails[size]
        for row in range(starts[size], starts[size + 1]):
            weight = products[row] * tail
            for key, coefficient in structure.entries[row]:
                keys[key] += coefficient * weight
    return keys


def pair_states(ranks: Sequence[int], suits: Sequence[int] | None) -> list[int]:
    """Step 4: the 13 pair-state inputs (9 suited, then 4 rank-only; the other group 0).

    With ``a_r = ff(n_r, 2)`` and ``s_t = ff(n_t, 2)`` (same rank, same card),
    ``A = sum a_r`` and ``S = sum s_t``, the ordered first four cards P1 B1 P2
    B2 give, for "any", "pair" and "suited" first two cards of each hand:
    F(any, any) = ff(N, 4); F(pair, any) = A ff(N-2, 2); F(suited, any) =
    S ff(N-2, 2); F(pair, pair) = A^2 - sum a_r^2 + sum ff(n_r, 4);
    F(suited, suited) likewise in s; F(suited, pair) = sum_t s_t (A - a_r(t)
    + ff(n_r(t) - 2, 2)); F is symmetric.  Exclusive states come by
    inclusion-exclusion, times ff(N - 4, 2) for the last two positions.

    >>> pair_states((4,) * 13, None)[9:]  # one deck: (no, no), (no, pair), (pair, no), (pair, pair)
    [12985030656, 810860544, 810860544, 51382656]
    >>> sum(pair_states((4,) * 13, None)) == 52 * 51 * 50 * 49 * 48 * 47
    True
    """
    total = sum(ranks)
    pair = [n * (n - 1) for n in ranks]
    big_a = sum(pair)
    any_any = total * (total - 1) * (total - 2) * (total - 3)
    pair_any = big_a * (total - 2) * (total - 3)
    pair_pair = (
        big_a * big_a
        - sum(a * a for a in pair)
        + sum(a * (n - 2) * (n - 3) for a, n in zip(pair, ranks, strict=True))
    )
    tail = (total - 4) * (total - 5)
    states = [0] * 13
    if suits is None:
        states[9 + 3] = pair_pair * tail
        states[9 + 2] = states[9 + 1] = (pair_any - pair_pair) * tail
        states[9 + 0] = (any_any - 2 * pair_any + pair_pair) * tail
        return states
    same = [n * (n - 1) for n in suits]
    big_s = sum(same)
    suited_any = big_s * (total - 2) * (total - 3)
    suited_suited = (
        big_s * big_s
        - sum(s * s for s in same)
        + sum(s * (n - 2) * (n - 3) for s, n in zip(same, suits, strict=True))
    )
    suited_pair = sum(
        s * (big_a - pair[t // 4] + (ranks[t // 4] - 2) * (ranks[t // 4] - 3))
        for t, s in enumerate(same)
    )
    joint = [
        [any_any, pair_any, suited_any],
        [pair_any, pair_pair, suited_pair],
        [suited_any, suited_pair, suited_suited],
    ]
    # State 0 = any - pair, 1 = pair - suited, 2 = suited.
    signed_sets = ([(0, 1), (1, -1)], [(1, 1), (2, -1)], [(2, 1)])
    for player in range(3):
        for banker in range(3):
            states[3 * player + banker] = tail * sum(
                player_sign * banker_sign * joint[player_set][banker_set]
                for player_set, player_sign in signed_sets[player]
                for banker_set, banker_sign in signed_sets[banker]
            )
    return states


def evaluate_shoe(
    structure: Structure,
    weights: Sequence[Sequence[tuple[int, int]]],
    outputs: int,
    ranks: Sequence[int],
    suits: Sequence[int] | None,
) -> list[int]:
    """Every output of one shoe, exactly: steps 1-5."""
    cards = sum(ranks)
    if cards < 6:
        raise ValueError(f"a shoe needs at least 6 cards, not {cards}")
    total = 1
    for factor in range(cards, cards - 6, -1):
        total *= factor
    inputs = [*key_counts(structure, ranks), *pair_states(ranks, suits), total]
    result = [0] * outputs
    for value, row in zip(inputs, weights, strict=True):
        if value:
            for output, weight in row:
                result[output] += weight * value
    return result
