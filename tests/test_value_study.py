"""The kernel's value study (one compiled pass a block) against its twin, the numpy road.

:func:`~exactodds.simulation.value_study.value_block_tally` must give the very tally that
:func:`~exactodds.simulation.block.run_block` sums from the dealt rounds with numpy (the lean
evaluation's exact EVs, the strategies, flat stakes), field for field, on any study of value
bets it takes: perfect play, always and linear counts (true and running), with and without
a bankroll, on any dealing procedure.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any
from unittest import mock

import numpy as np
import pytest
from budget import budgeted
from hypothesis import given
from hypothesis import strategies as st

from exactodds.bets.catalogue import select_bets
from exactodds.rules import Rebate, Rules
from exactodds.simulation import block as block_module
from exactodds.simulation.block import prepare
from exactodds.simulation.dealing import DealingProcedure, dealing_module
from exactodds.simulation.run import Simulation, simulate
from exactodds.simulation.staking.stakes import Flat, Kelly, TableLimits
from exactodds.simulation.strategies import Always, Perfect, Strategy, parse_strategy
from exactodds.simulation.tally import Tally
from exactodds.simulation.value_study import value_block_tally, value_study_plan

compiled = pytest.mark.skipif(
    dealing_module() is None or not hasattr(dealing_module(), "value_study"),
    reason="the compiled kernel is not built",
)

# Few bet sets, so that each analyzer is built once (prepare keeps four).
BET_SETS = (
    tuple(select_bets("banker,player,tie")),
    tuple(select_bets("dragon7,panda8")),
    tuple(select_bets("all")),
)
PLAYS: tuple[Strategy, ...] = (
    Perfect(),
    Always(),
    parse_strategy("count:0,0,0,-1,-1,-1,-1,2,2,0:4"),  # Jacobson's Dragon 7 count
    parse_strategy("count:1,1,1,1,1,1,1,1,1,1,1,1,-12:-3/2:running:start=-4"),
    parse_strategy("count:1,-1,0,2,-2,0,1,-1,0,3:-1/3"),
)


def numpy_road(study: Simulation, first_shoe: int, shoes: int) -> Tally:
    with mock.patch.object(block_module, "value_block_tally", lambda *arguments: None):
        return block_module.run_block(study, first_shoe, shoes).tally


def compiled_road(study: Simulation, first_shoe: int, shoes: int) -> Tally | None:
    prepared = prepare(study.rules, study.bets)
    return value_block_tally(study, first_shoe, shoes, prepared.analyzer, prepared.pays)


@st.composite
def studies(draw: st.DrawFn) -> Simulation:
    bets = draw(st.sampled_from(BET_SETS))
    plays = {bet.name: draw(st.sampled_from(PLAYS)) for bet in bets}
    procedure = DealingProcedure(
        decks=draw(st.integers(1, 2)),
        cut=draw(st.integers(0, 20)),
        burn=draw(st.sampled_from(("standard", "none", "3"))),
        after_cut=draw(st.integers(0, 2)),
        cut_first_rounds=draw(st.sampled_from((None, 1))),
    )
    units = draw(st.integers(1, 5))
    trip_shoes = draw(st.integers(1, 3))
    extra: dict[str, Any] = {}
    if draw(st.booleans()):
        extra["bankroll"] = Fraction(draw(st.integers(1, 500)), draw(st.integers(1, 3)))
    return Simulation.of(
        draw(st.integers(1, 40)),
        draw(st.integers(0, 2**128 - 1)),
        bets=bets,
        strategies=plays,
        procedure=procedure,
        stake=Flat(units),
        limits=TableLimits(units),
        trip_shoes=trip_shoes,
        **extra,
    )


@compiled
@budgeted(48, deadline=None)
@given(studies(), st.integers(0, 2**40), st.integers(1, 2))
def test_the_kernels_value_study_is_the_numpy_road_field_for_field(
    study: Simulation, first_shoe: int, shoes: int
) -> None:
    fast = compiled_road(study, first_shoe, shoes)
    assert fast is not None  # the study is one the kernel takes
    twin = numpy_road(study, first_shoe, shoes)
    assert fast.bets == twin.bets
    assert fast.risk == twin.risk
    assert fast.paths == twin.paths
    assert (fast.paths is None) == (study.bankroll is None)
    assert fast == twin


@compiled
def test_a_whole_run_of_every_bet_is_the_same_in_compiled_blocks_and_numpy_ones() -> None:
    # Every standard bet, 8 decks, perfect play on some and Jacobson's count on the rest.
    bets = BET_SETS[2]
    count = PLAYS[2]
    study = Simulation.of(5, 38, bets=bets, strategies={bet.name: count for bet in bets[::3]})
    assert block_module.compiled_values(study, 3)
    with mock.patch.object(block_module, "value_block_tally", lambda *arguments: None):
        twin = simulate(study, block_shoes=2)
    fast = simulate(study, block_shoes=3)
    assert fast.tally == twin.tally
    figures, twins = fast.to_dict(), twin.to_dict()
    assert figures.pop("run")["seconds"] >= 0 and twins.pop("run")  # timings differ
    assert figures == twins


@compiled
def test_pays_not_yet_in_the_table_are_filled_before_the_pass() -> None:
    study = Simulation.of(2, 5, bets=BET_SETS[1], procedure=DealingProcedure(decks=1))
    pays = block_module._PayTable(study.bets)
    tally = value_block_tally(study, 0, 2, prepare(study.rules, study.bets).analyzer, pays)
    assert tally is not None and tally == numpy_road(study, 0, 2)
    assert 0 < int(pays.filled.sum()) <= tally.rounds
    assert np.all(pays.table[~pays.filled] == 0)


@compiled
def test_studies_the_kernel_does_not_tally_take_the_numpy_road() -> None:
    tie = BET_SETS[0][2:]
    generous = (dataclasses.replace(tie[0], name="generous_tie", pays={"win": 600, "lose": -1}),)
    others = [
        Simulation.of(2, 1, bets=tie, strategies={"tie": Perfect(Fraction(1, 100))}),
        Simulation.of(2, 1, bets=tie, stake=Kelly(), bankroll=Fraction(1000)),
        Simulation.of(2, 1, bets=tie, exact_moments=True),
        Simulation.of(2, 1, Rules(rebate=Rebate(rolling="1%")), bets=tie),
        # Pays of 2**9 units or more: EVs fixed-point rounded exactly, in Python integers.
        Simulation.of(2, 1, bets=generous),
        # ff(cards, 6) x the pay denominator past 2**62: the EV denominators outgrow int64.
        Simulation.of(1, 1, bets=tie, procedure=DealingProcedure(decks=64)),
        # Stakes whose sums could pass the kernel's proven ranges: Python integers instead.
        Simulation.of(2, 1, bets=tie, stake=Flat(2**40), limits=TableLimits(2**40)),
    ]
    for study in others:
        analyzer = prepare(study.rules, study.bets).analyzer
        assert not value_study_plan(study, analyzer)
        assert not block_module.compiled_values(study)
    assert value_study_plan(Simulation.of(2, 1, bets=tie), prepare(Rules(), tie).analyzer)
    # A trace needs every round: the block takes the numpy road and still tallies the same.
    plain = Simulation.of(2, 1, bets=tie, procedure=DealingProcedure(decks=1))
    traced = block_module.run_block(plain, 0, 2, trace=True)
    assert traced.trace and traced.tally == compiled_road(plain, 0, 2)
