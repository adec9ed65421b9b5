"""The closed-form pair path (:mod:`exactodds.simulation.pairs`) against the kernel, exactly.

Both write a pair bet's EV as integers over ff(n, 6) x d: the closed form must give the
kernel's very integers on every composition, so a pairs-only simulation is the same bit
for bit whichever road prices it.
"""

from __future__ import annotations

import dataclasses

import numpy as np
from budget import budgeted
from hypothesis import given
from hypothesis import strategies as st

from exactodds.analysis.many import Analyzer
from exactodds.bets.catalogue import select_bets
from exactodds.simulation.block import run_block
from exactodds.simulation.dealing import DealingProcedure
from exactodds.simulation.pairs import pair_expected_values, pair_shape
from exactodds.simulation.run import Simulation

PAIRS = select_bets("player_pair,banker_pair")
# A pair bet at another pay (25:1 and a push-free loss): the same closed form.
GENEROUS = dataclasses.replace(PAIRS[0], name="generous_pair", pays={"win": 25, "lose": -1})


def kernel_ratios(bets: tuple, counts: list[list[int]]) -> list[list[tuple[int, int]]]:  # type: ignore[type-arg]
    table = Analyzer(bets=bets).expected_value_table(
        [[sum(row[4 * r : 4 * r + 4]) for r in range(13)] for row in counts], outcomes=False
    )
    return [[table.ratio(row, bet.name) for bet in bets] for row in range(len(counts))]


@budgeted(60, deadline=None)
@given(
    st.lists(
        st.lists(st.integers(0, 9), min_size=52, max_size=52).filter(lambda row: sum(row) >= 6),
        min_size=1,
        max_size=4,
    )
)
def test_closed_form_gives_the_kernels_integers(counts: list[list[int]]) -> None:
    bets = (*PAIRS, GENEROUS)
    values = pair_expected_values(bets, np.array(counts, dtype=np.int64))
    assert values is not None
    expected = kernel_ratios(bets, counts)
    for row in range(len(counts)):
        for column in range(len(bets)):
            got = (int(values.numerators[row, column]), int(values.denominators[row, column]))
            assert got == expected[row][column]


def test_only_pair_shaped_bets_take_the_closed_form() -> None:
    assert pair_shape(PAIRS[1]) == (7, 11, -1)
    for name in ("either_pair", "perfect_pair", "banker", "dragon7"):
        assert pair_shape(select_bets(name)[0]) is None
    assert pair_expected_values(select_bets("player_pair,tie"), np.full((1, 52), 8)) is None


def test_a_pairs_study_is_the_same_by_either_road() -> None:
    study = Simulation.of(8, 3, bets=PAIRS, procedure=DealingProcedure(decks=2))
    closed = run_block(study, 0, 8, trace=True)
    # The same bets behind a non-pair bet take the kernel for every column.
    mixed = Simulation.of(
        8, 3, bets=(*PAIRS, *select_bets("tie")), procedure=DealingProcedure(decks=2)
    )
    kernel = run_block(mixed, 0, 8)
    assert closed.tally.bets == kernel.tally.bets[:2]
    assert closed.tally.rounds == kernel.tally.rounds
