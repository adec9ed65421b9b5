"""The kernel's pair study (one compiled pass a block) against its twin, the numpy road.

:func:`~exactodds.simulation.pair_study.pair_block_tally` must give the very tally that
:func:`~exactodds.simulation.block.run_block` sums from the dealt rounds with numpy, field
for field, on any pairs-only study it takes; and the compiled stream states must be
numpy's own SeedSequence and PCG64 seeding.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds.bets.catalogue import select_bets
from exactodds.simulation import block as block_module
from exactodds.simulation.dealing import (
    _MASK64,
    DealingProcedure,
    _stream_states,
    _stream_words,
    dealing_module,
)
from exactodds.simulation.pair_study import pair_block_tally, pair_study_plan
from exactodds.simulation.risk.questions import RiskGrid
from exactodds.simulation.run import Simulation, simulate
from exactodds.simulation.staking.stakes import Flat, Kelly, TableLimits
from exactodds.simulation.strategies import Always, Perfect, Strategy, parse_strategy
from exactodds.simulation.tally import Tally
from exactodds.specs import sizing_from_options

compiled = pytest.mark.skipif(
    dealing_module() is None or not hasattr(dealing_module(), "pair_study"),
    reason="the compiled kernel is not built",
)

PAIRS = tuple(select_bets("player_pair,banker_pair"))
# Pair bets at other pays: 25:1, and 23:2 (a pay denominator of 2); the same closed form.
GENEROUS = dataclasses.replace(PAIRS[0], name="generous_pair", pays={"win": 25, "lose": -1})
HALVES = dataclasses.replace(
    PAIRS[1], name="halves_pair", pays={"win": Fraction(23, 2), "lose": -1}
)
CHOICES = (*PAIRS, GENEROUS, HALVES)
PLAYS: tuple[Strategy, ...] = (Perfect(), Always())


def numpy_road(study: Simulation, first_shoe: int, shoes: int) -> Tally:
    with mock.patch.object(block_module, "pair_block_tally", lambda *arguments: None):
        return block_module.run_block(study, first_shoe, shoes).tally


@st.composite
def studies(draw: st.DrawFn) -> Simulation:
    bets = draw(st.lists(st.sampled_from(CHOICES), min_size=1, max_size=4, unique=True))
    plays: dict[str, Strategy] = {bet.name: draw(st.sampled_from(PLAYS)) for bet in bets}
    burn = draw(st.sampled_from(("standard", "none", "3")))
    decks = draw(st.integers(1, 3))
    procedure = DealingProcedure(
        decks=decks,
        cut=draw(st.integers(0, 20)),
        burn=burn,
        after_cut=draw(st.integers(0, 2)),
        cut_first_rounds=draw(st.sampled_from((None, 1))),
    )
    units = draw(st.integers(1, 5))
    trip_shoes = draw(st.integers(1, 3))
    return Simulation.of(
        draw(st.integers(1, 40)),
        draw(st.integers(0, 2**128 - 1)),
        bets=bets,
        strategies=plays,
        procedure=procedure,
        stake=Flat(units),
        limits=TableLimits(units),
        trip_shoes=trip_shoes,
        **draw(st.one_of(st.just({}), bankrolls(trip_shoes))),
    )


@st.composite
def bankrolls(draw: st.DrawFn, trip_shoes: int) -> dict[str, Any]:
    """A bankroll (its paths tallied), and maybe a risk grid of more trip lengths."""
    bankroll = Fraction(draw(st.integers(1, 500)), draw(st.integers(1, 3)))
    more = draw(st.lists(st.integers(1, 5), max_size=3, unique=True))
    if not more:
        return {"bankroll": bankroll}
    grid = RiskGrid(
        (bankroll, bankroll * 2),
        (None, *(shoes * 90 for shoes in more)),
        (trip_shoes, *more),
    )
    return {"bankroll": bankroll, "grid": grid}


@compiled
@settings(max_examples=60, deadline=None)
@given(studies(), st.integers(0, 2**40), st.integers(1, 6))
def test_the_kernels_pair_study_is_the_numpy_road_field_for_field(
    study: Simulation, first_shoe: int, shoes: int
) -> None:
    fast = pair_block_tally(study, first_shoe, shoes, study.bets)
    assert fast is not None  # the study is one the kernel takes
    twin = numpy_road(study, first_shoe, shoes)
    assert fast.bets == twin.bets
    assert fast.risk is not None and twin.risk is not None
    assert fast.risk.grid_trips == twin.risk.grid_trips
    assert fast.risk == twin.risk
    assert fast.paths == twin.paths
    assert (fast.paths is None) == (study.bankroll is None)
    assert len(fast.risk.grid_trips) == len(study.grid_trip_shoes)
    assert fast == twin


@compiled
def test_a_whole_run_is_the_same_in_big_compiled_blocks_and_small_numpy_ones() -> None:
    study = Simulation.of(600, 11, bets=PAIRS, trip_shoes=4)
    with mock.patch.object(block_module, "pair_block_tally", lambda *arguments: None):
        twin = simulate(study, block_shoes=97).tally
    assert simulate(study).tally == twin


@compiled
def test_a_whole_run_with_a_bankroll_and_a_grid_is_the_numpy_roads() -> None:
    # Paths and the grid's trips of 1, 2 and 5 shoes, cut by blocks of 7 shoes and joined.
    sizing = sizing_from_options(
        DealingProcedure(), bankroll="40,90", trip_rounds="160,80,400", table_min=2
    )
    study = Simulation.of(60, 23, bets=PAIRS, **sizing)
    assert study.grid_trip_shoes and study.bankroll is not None
    assert block_module.compiled_pairs(study, 7)
    with mock.patch.object(block_module, "pair_block_tally", lambda *arguments: None):
        twin = simulate(study, block_shoes=7)
    fast = simulate(study, block_shoes=7)
    assert fast.tally.paths is not None and fast.tally.risk is not None
    assert fast.tally.risk.grid_trips
    assert fast.tally == twin.tally
    figures, twins = fast.to_dict(), twin.to_dict()
    assert figures.pop("run")["seconds"] >= 0 and twins.pop("run")  # timings differ
    assert figures["combined"]["risk_of_ruin"]["grid"] and figures == twins


@compiled
def test_studies_the_kernel_does_not_tally_take_the_numpy_road() -> None:
    count = parse_strategy("count:1,1,1,1,1,1,1,1,1,1:2")
    others = [
        Simulation.of(2, 1, bets=PAIRS, strategies={"player_pair": count}),
        Simulation.of(2, 1, bets=PAIRS, strategies={"banker_pair": Perfect(Fraction(1, 100))}),
        Simulation.of(2, 1, bets=PAIRS, stake=Kelly(), bankroll=Fraction(1000)),
        Simulation.of(2, 1, bets=PAIRS, exact_moments=True),
        Simulation.of(2, 1, bets=(*PAIRS, *select_bets("tie"))),
        # Stakes whose sums could pass the kernel's proven ranges: Python integers instead.
        Simulation.of(2, 1, bets=PAIRS, stake=Flat(2**40), limits=TableLimits(2**40)),
    ]
    for study in others:
        assert not pair_study_plan(study, study.bets)
        assert pair_block_tally(study, 0, 2, study.bets) is None
    assert pair_study_plan(Simulation.of(2, 1, bets=PAIRS), PAIRS)
    # A trace needs every round: the block takes the numpy road and still tallies the same.
    traced = block_module.run_block(Simulation.of(2, 1, bets=PAIRS), 0, 2, trace=True)
    assert traced.trace and traced.tally == pair_block_tally(
        Simulation.of(2, 1, bets=PAIRS), 0, 2, PAIRS
    )


@compiled
@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 2**128 - 1),
    st.sampled_from((0, 5, 2**32 - 2, 2**40, 2**64 - 4)),
    st.integers(1, 4),
)
def test_compiled_stream_states_are_numpys_seeding(seed: int, first_shoe: int, shoes: int) -> None:
    words = _stream_words(seed, first_shoe, shoes)
    states = _stream_states(seed, first_shoe, shoes)
    assert words is not None and states is not None
    expected = [[s >> 64, s & _MASK64, i >> 64, i & _MASK64] for s, i in states]
    assert words.tolist() == expected
    numpys = np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(first_shoe,))).state["state"]
    assert (int(words[0, 0]) << 64 | int(words[0, 1])) == numpys["state"]
    assert (int(words[0, 2]) << 64 | int(words[0, 3])) == numpys["inc"]
