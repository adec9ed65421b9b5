"""A rebate over simulated trips: each trip's result and turnover kept exactly, the rebate paid at
the trip's end, and the mean per unit staked against ``odds``' exact effective EV.

A trip's result with the rebate is ``X + r x T + s x max(0, -X)``: *X* the trip's combined
result, *T* the units staked on rounds that won or lost (every unit staked with
``rolling-with-pushes``).
"""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest
from click.testing import CliRunner

from exactodds import Rules, Shoe, analyze
from exactodds.analysis.rebates import rebate_figures
from exactodds.bets.catalogue import select_bets
from exactodds.cli import cli
from exactodds.rules import Rebate
from exactodds.simulation.block import run_block
from exactodds.simulation.dealing import DealingProcedure
from exactodds.simulation.result import SimulationResult
from exactodds.simulation.risk.rebates import trip_rebate_figures
from exactodds.simulation.risk.tally import RiskTally, TripResults, block_risk_tally
from exactodds.simulation.run import Simulation, simulate
from exactodds.simulation.strategies import Always

ROLLING = Rebate(rolling="1%")
WITH_PUSHES = Rebate(rolling="1%", rolling_counts_pushes=True)
LOSS = Rebate(loss="10%")


def _hand_tally() -> RiskTally:
    """Four shoes in two blocks, trips of two shoes, Banker (pays in 1/20) and Tie (in units).

    Shoe 0: Banker +1, Tie -1; Banker pushes, Tie -1   (3 units rolled of 4 staked, -1)
    Shoe 1: Banker -1, Tie +8                          (2 of 2, +7)
    Shoe 2: Banker -1, Tie -1                          (2 of 2, -2)
    Shoe 3: Banker pushes, Tie -1                      (1 of 2, -1)
    Trip 0 (shoes 0, 1): +6, 5 rolled, 6 staked; trip 1 (shoes 2, 3): -3, 3 rolled, 4 staked.
    """
    results = np.array([[20, -1], [0, -1], [-20, 8], [-20, -1], [0, -1]], dtype=np.int64)
    zero = np.zeros((5, 2), np.int64)
    # Block one holds shoes 0-2 (trip 1 cut after its first shoe), block two shoe 3.
    first = block_risk_tally(
        [20, 1], 2, 0, results[:4], zero[:4], [2, 1, 1], turnover=([3, 2, 2], [4, 2, 2])
    )
    second = block_risk_tally([20, 1], 2, 3, results[4:], zero[4:], [1], turnover=([1], [2]))
    return first.merged(second)


def test_each_trip_keeps_its_result_and_turnover_across_blocks() -> None:
    tally = _hand_tally()
    assert tally.trip_results == TripResults(2, ((-60, 3, 4, 1), (120, 5, 6, 1)))
    assert RiskTally.from_dict(json.loads(json.dumps(tally.to_dict()))) == tally


@pytest.mark.parametrize(
    ("rebate", "trips"),
    [
        # Rolling 1% of the stakes that won or lost: 6 + 5/100, -3 + 3/100.
        (ROLLING, (Fraction(605, 100), Fraction(-297, 100))),
        # Pushes counted: 6 + 6/100, -3 + 4/100.
        (WITH_PUSHES, (Fraction(606, 100), Fraction(-296, 100))),
        # 10% of the net loss: the winning trip gets nothing, the losing one 3/10.
        (LOSS, (Fraction(6), Fraction(-27, 10))),
    ],
)
def test_a_rebate_paid_at_each_trips_end_by_hand(
    rebate: Rebate, trips: tuple[Fraction, Fraction]
) -> None:
    results = _hand_tally().trip_results
    assert results is not None
    figures = trip_rebate_figures(results, 20, rebate, bankroll=Fraction(5, 2))
    assert figures is not None
    assert figures.without_rebate.mean == Fraction(3, 2)
    assert figures.with_rebate.mean == sum(trips) / 2
    assert figures.mean_rebate == (sum(trips) - 3) / 2
    assert figures.effective_ev == sum(trips) / 10  # 10 units staked over the two trips
    assert figures.with_rebate.quantiles[0] == min(trips)
    assert figures.with_rebate.quantiles[-1] == max(trips)
    # Down 3 without the rebate; 2.97, 2.96 or 2.7 with it: all at or past a bankroll of 2.5.
    assert figures.without_rebate.ending_down_bankroll == 1
    assert figures.with_rebate.ending_down_bankroll == 1
    # A 20% loss rebate brings the losing trip back to -2.4, above the bankroll's -2.5.
    larger = trip_rebate_figures(results, 20, Rebate(loss="20%"), Fraction(5, 2))
    assert larger is not None and larger.with_rebate.ending_down_bankroll == 0


def test_traced_rounds_give_the_trips_turnover() -> None:
    """One-deck shoes (a few rounds each), trips of two shoes: the tally's results and
    turnover are the sums of the traced rounds, pushes (a result of 0 on a stake) excluded."""
    study = Simulation.of(
        4,
        11,
        rules=Rules(rebate=LOSS),
        bets=select_bets("banker,tie"),
        strategies={"banker": Always(), "tie": Always()},
        procedure=DealingProcedure(decks=1),
        trip_shoes=2,
    )
    block = run_block(study, 0, 4, trace=True)
    rounds = [json.loads(line) for line in block.trace.splitlines()]
    assert any(round_["winner"] == "tie" for round_ in rounds)  # the Banker pushes at least once
    expected: dict[tuple[int, int, int], int] = {}
    for trip in (0, 1):
        mine = [round_ for round_ in rounds if round_["shoe"] // 2 == trip]
        total = sum(Fraction(value) for round_ in mine for value in round_["result"].values())
        staked = sum(stake for round_ in mine for stake in round_["stake"].values())
        rolled = sum(
            round_["stake"][name]
            for round_ in mine
            for name, value in round_["result"].items()
            if Fraction(value) != 0
        )
        key = (int(total * 20), rolled, staked)
        expected[key] = expected.get(key, 0) + 1
    risk = block.tally.risk
    assert risk is not None and risk.trip_results is not None
    assert {(t, r, s): c for t, r, s, c in risk.trip_results.finished} == expected
    assert risk.trip_results.trips == 2


def test_the_mean_per_unit_staked_is_odds_effective_edge_within_three_errors() -> None:
    """100 eight-deck shoes of Banker on every round, one shoe a trip: the realized result with
    a 20% rolling rebate per unit staked agrees with ``odds``' exact effective EV (the rebate is
    large so that the check bites: it moves the EV by some 18 standard errors)."""
    rebate = Rebate(rolling="20%")
    study = Simulation.of(
        100,
        5,
        rules=Rules(rebate=rebate),
        bets=select_bets("banker"),
        strategies={"banker": Always()},
    )
    result = simulate(study)
    banker = analyze(Shoe.standard(decks=8), Rules()).bets["banker"]
    risk = result.tally.risk
    assert risk is not None and risk.trip_results is not None
    for kind in (rebate, Rebate(rolling="20%", rolling_counts_pushes=True)):
        figures = trip_rebate_figures(risk.trip_results, risk.combined_denominator, kind)
        assert figures is not None
        exact = rebate_figures(banker, kind).effective_expected_value
        assert abs(float(figures.effective_ev - exact)) < 3 * figures.effective_ev_stderr
        assert figures.effective_ev_stderr < float(rebate_figures(banker, kind).rolling_value) / 10
    assert result.rebate_figures == trip_rebate_figures(
        risk.trip_results, risk.combined_denominator, rebate
    )


def test_no_rebate_no_trip_results_and_the_output_unchanged() -> None:
    study = Simulation.of(2, 1, bets=select_bets("banker"), procedure=DealingProcedure(decks=1))
    result = SimulationResult(study, run_block(study, 0, 2).tally)
    assert result.tally.risk is not None and result.tally.risk.trip_results is None
    assert result.rebate_figures is None
    assert "rebate" not in result.to_dict()


def test_simulate_rebate_on_the_command_line() -> None:
    runner = CliRunner()
    arguments = ["simulate", "--shoes", "3", "--seed", "2", "--decks", "1", "--bets", "banker"]
    shown = runner.invoke(cli, [*arguments, "--rebate", "loss=10%", "--bankroll", "5"])
    assert shown.exit_code == 0, shown.stderr
    assert (
        "Rebate: a loss rebate of 10% of the net loss; paid at the end of each trip" in shown.stdout
    )
    assert "Trips ending down the bankroll (5 units) or more, simulated:" in shown.stdout
    data = json.loads(
        runner.invoke(cli, [*arguments, "--rebate", "loss=10%", "--format", "json"]).stdout
    )
    assert data["rebate"]["trips"] == 3
    assert data["rules"]["rebate"]["loss"] == "1/10"
    bad = runner.invoke(cli, [*arguments, "--rebate", "loss=100%"])
    assert bad.exit_code == 2 and not bad.stdout
    assert bad.stderr.startswith("Error: Rebate '100%' for --rebate is not valid")


def test_no_finished_trip_is_said_not_priced() -> None:
    arguments = ["simulate", "--shoes", "3", "--seed", "1", "--decks", "1", "--bets", "banker"]
    result = CliRunner().invoke(cli, [*arguments, "--rebate", "loss=10%", "--trip-rounds", "100"])
    assert result.exit_code == 0, result.stderr
    assert result.stdout.endswith(
        "Rebate: a loss rebate of 10% of the net loss; paid at the end of each trip of 13 shoes, "
        "and no trip\n  finished in the shoes simulated.\n"
    )
