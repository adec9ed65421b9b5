"""Pricing only the rounds a bet is made (``pricing="bet-rounds"``, ``--price bet-rounds``).

A count (or always) play decides without the EV, so a study of it needs the exact EV only
on the rounds where some bet is made.  Priced so, every figure it keeps must be the default
study's bit for bit: the tallies are compared field for field, and the JSON and CSV of both
roads key for key; the figures that read every round's EV (the share of rounds with EV > 0,
the EV deciles, the EV by deck) are left out, labelled, in every format.  Perfect play needs
every round's EV to decide, so it is refused.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
from typing import Any

import pytest
from click.testing import CliRunner

from exactodds.bets.catalogue import select_bets
from exactodds.cli import cli
from exactodds.errors import SimulationError
from exactodds.report.simulation import render_csv, render_table
from exactodds.simulation.block import run_block
from exactodds.simulation.dealing import DealingProcedure
from exactodds.simulation.result import SimulationResult
from exactodds.simulation.run import Simulation
from exactodds.simulation.strategies import Always, parse_strategy
from exactodds.specs import sizing_from_options

JACOBSON = parse_strategy("count:0,0,0,-1,-1,-1,-1,2,2,0:4")
LEFT_OUT = ("share_positive", "ev_deciles", "ev_by_deck")


def _studies() -> list[Simulation]:
    """Jacobson's study (8 decks, his cut); three bets on two decks with a ramp by the EV,
    a bankroll, trips and exact moments (the risk tallies), two counts and an always play;
    and a pair bet under a count (the compiled pairs road)."""
    two = DealingProcedure(decks=2, cut=14)
    sizing = sizing_from_options(
        two, stake="ramp:0=1,2%=3", bankroll="30", trip_rounds=150, exact_moments=True
    )
    plays = {
        "dragon7": JACOBSON,
        "panda8": parse_strategy("count:0,0,0,0,0,0,0,-2,1,0:-1"),
        "tie": Always(),
    }
    return [
        Simulation.of(
            3,
            5,
            bets=select_bets("dragon7"),
            strategies={"dragon7": JACOBSON},
            procedure=DealingProcedure(cut_first_rounds=1),
        ),
        Simulation.of(
            4, 7, bets=select_bets("dragon7,panda8,tie"), strategies=plays, procedure=two, **sizing
        ),
        Simulation.of(
            3,
            2,
            bets=select_bets("player_pair"),
            strategies={"player_pair": parse_strategy("count:1,1,1,1,1,1,1,1,1,1:-2")},
            procedure=two,
        ),
    ]


def _without_every_round(data: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in data.items() if key not in (*LEFT_OUT, "left_out")}


@pytest.mark.parametrize("index", range(3))
def test_bet_rounds_keep_every_figure_of_the_default_bit_for_bit(index: int) -> None:
    default = _studies()[index]
    placed = dataclasses.replace(default, pricing="bet-rounds")
    every = run_block(default, 0, default.shoes).tally
    only = run_block(placed, 0, placed.shoes).tally
    assert any(bet.histogram for bet in every.bets)  # the default keeps what is left out
    kept = tuple(
        dataclasses.replace(bet, positive=0, histogram=(), depth_ev=(), depth_rounds=())
        for bet in every.bets
    )
    assert only == dataclasses.replace(every, bets=kept)
    first, second = SimulationResult(default, every), SimulationResult(placed, only)
    one, two = first.to_dict(), second.to_dict()
    assert (one.pop("pricing"), two.pop("pricing")) == ("every-round", "bet-rounds")
    for data in (one, two):
        data.pop("study")  # the fingerprint names the pricing (another tally)
    for name, bet in two.pop("bets").items():
        assert all(bet[key] is None for key in LEFT_OUT) and "every round" in bet["left_out"]
        assert _without_every_round(bet) == _without_every_round(one["bets"][name])
    one.pop("bets")
    assert one == two
    rows = [list(csv.DictReader(io.StringIO(render_csv(run)))) for run in (first, second)]
    for row, other in zip(*rows, strict=True):
        assert (row.pop("pricing"), other.pop("pricing")) == ("every-round", "bet-rounds")
        assert other.pop("share_positive") == "" != row.pop("share_positive")
        assert row == other
    assert "EV by deck dealt" in render_table(first, 4)
    assert "EV by deck dealt" not in render_table(second, 4)
    assert "Left out (priced bet-rounds" in render_table(second, 4)


def test_bet_rounds_are_another_study_and_refuse_perfect_play() -> None:
    default = _studies()[0]
    placed_study = dataclasses.replace(default, pricing="bet-rounds")
    assert placed_study.digest() != default.digest()
    traced = run_block(placed_study, 0, 2, trace=True)  # the trace's EVs: every round priced
    assert traced.tally == run_block(placed_study, 0, 2).tally and '"ev": {"dragon7": "-' in (
        traced.trace
    )
    with pytest.raises(SimulationError, match="perfect play needs every round's exact EV"):
        Simulation.of(1, 1, bets=select_bets("dragon7"), pricing="bet-rounds")
    with pytest.raises(SimulationError, match="`pricing` 'some' is not valid"):
        Simulation.of(1, 1, pricing="some")
    refused = CliRunner().invoke(
        cli, ["simulate", "--shoes", "1", "--bets", "dragon7", "--price", "bet-rounds"]
    )
    assert refused.exit_code == 2
    assert refused.output.count(".") >= 1 and "perfect play needs every" in refused.output
    tiger = CliRunner().invoke(
        cli, ["simulate", "--game", "dragon-tiger", "--shoes", "1", "--price", "bet-rounds"]
    )
    assert tiger.exit_code == 2 and "leave --price out" in tiger.output
    placed = CliRunner().invoke(
        cli,
        [
            *("simulate", "--shoes", "2", "--bets", "dragon7", "--play", "always"),
            *("--format", "json", "--price", "bet-rounds", "--decks", "1", "--cut", "6"),
        ],
    )
    assert placed.exit_code == 0, placed.output
    data = json.loads(placed.output)
    assert data["pricing"] == "bet-rounds" and data["bets"]["dragon7"]["ev_by_deck"] is None


def test_the_compiled_value_study_prices_bet_rounds_as_the_numpy_road() -> None:
    """The kernel's value study prices only the rounds a count bets (value_price), the other
    rounds' outputs 0: its tally equals the numpy road's (block._priced_rounds) field for
    field, on Jacobson's study and on two counts beside an always play."""
    from unittest import mock

    from exactodds.simulation import block

    plays = {"dragon7": JACOBSON, "panda8": parse_strategy("count:0,0,0,0,0,0,0,-2,1,0:-1")}
    studies = (
        dataclasses.replace(_studies()[0], pricing="bet-rounds"),
        Simulation.of(
            3,
            11,
            bets=select_bets("dragon7,panda8,tie"),
            strategies={**plays, "tie": Always()},
            procedure=DealingProcedure(decks=2, cut=14),
            pricing="bet-rounds",
        ),
    )
    for study in studies:
        assert block.compiled_values(study, study.shoes)
        compiled = run_block(study, 0, study.shoes).tally
        with mock.patch.object(block, "value_block_tally", lambda *arguments: None):
            assert run_block(study, 0, study.shoes).tally == compiled
