"""The risk-of-ruin estimate (``risk_of_ruin.estimate``): the programme over the bankroll
against brute force, against the simulated frequency on the same shoes, and Lundberg.

Sources: the Dragon 7 figures (8 decks, cut at 14, flat perfect play, trips of one shoe,
bankroll 20 units: about 10.9% simulated over 20,000 trips) are those of issue 25's
independent re-derivation; the diffusion formula gives 31.1% there.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import os
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds.bets.catalogue import select_bets
from exactodds.cli import cli
from exactodds.errors import SimulationError
from exactodds.simulation.dealing import DealingProcedure
from exactodds.simulation.risk import ruin
from exactodds.simulation.risk.ruin import lattice_step, lundberg_ruin, trip_bankroll, trip_ruin
from exactodds.simulation.risk.tally import RiskTally, Segment, TripTally
from exactodds.simulation.run import Simulation, simulate
from exactodds.simulation.strategies import Always
from exactodds.specs import sizing_from_options


def _brute_force(outcomes: list[tuple[int, int, int]], bankroll: int, shoes: int) -> Fraction:
    """Every sequence of *shoes* measured shoes, exactly: ruined when the bankroll before a
    shoe plus its lowest point is at most 0."""
    dealt = sum(count for *_, count in outcomes)
    ruined = Fraction(0)
    for path in itertools.product(outcomes, repeat=shoes):
        chance = math.prod(Fraction(count, dealt) for *_, count in path)
        level = bankroll
        for total, low, _ in path:
            if level + low <= 0:
                ruined += chance
                break
            level += total
    return ruined


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(-4, 6), st.integers(0, 4), st.integers(1, 3)), min_size=1, max_size=4
    ),
    st.integers(1, 6),
    st.integers(1, 3),
)
def test_the_programme_equals_brute_force(
    shapes: list[tuple[int, int, int]], bankroll: int, shoes: int
) -> None:
    # A shoe's lowest point is at most 0 and at most its total.
    outcomes = [(total, min(0, total) - dip, count) for total, dip, count in shapes]
    risk = trip_ruin(outcomes, bankroll, shoes).mean
    assert risk == pytest.approx(float(_brute_force(outcomes, bankroll, shoes)), abs=1e-12)


def test_one_shoe_stderr_is_the_binomial_one() -> None:
    outcomes = [(-30, -30, 3), (5, -2, 7)]
    risk, stderr = dataclasses.astuple(trip_ruin(outcomes, 20, 1))[:2]
    assert risk == pytest.approx(0.3)
    assert stderr == pytest.approx(math.sqrt(0.3 * 0.7 / 10))


def test_lundberg_solves_its_equation_and_bad_input_is_refused() -> None:
    outcomes = [(-1, -1, 6), (3, 0, 4)]
    risk, rate = lundberg_ruin(outcomes, 10) or (math.nan, math.nan)
    assert 0.6 * math.exp(rate) + 0.4 * math.exp(-3 * rate) == pytest.approx(1.0)
    assert risk == pytest.approx(math.exp(-10 * rate))
    with pytest.raises(SimulationError, match="no shoe"):
        trip_ruin([], 5, 2)


def test_the_certain_ruin_of_a_level_pushed_below_zero() -> None:
    # A total below its lowest point (figures rounded by a caller): 2 - 1 stands, 2 - 2 is 0;
    # 4 falls to 2 then 0, 5 ends at 1.
    assert trip_ruin(((-2, -1, 1),), 2, 2).mean == 1.0
    assert trip_ruin(((-2, -1, 1),), 4, 2).mean == 1.0
    assert trip_ruin(((-2, -1, 1),), 5, 2).mean == 0.0


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(-9, 12), st.integers(0, 9), st.integers(1, 3)), min_size=1, max_size=4
    ),
    st.integers(1, 12),
    st.integers(1, 3),
)
def test_past_its_bounds_the_programme_brackets_the_exact_risk(
    shapes: list[tuple[int, int, int]], bankroll: int, shoes: int
) -> None:
    # Bounds lowered so that the exact lattice is past them: the risks with every result
    # rounded up and down to coarser bins bracket the brute force's exact risk.
    outcomes = [(total, min(0, total) - dip, count) for total, dip, count in shapes]
    exact = float(_brute_force(outcomes, bankroll, shoes))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ruin, "MOST_STATES", 4)
        risk = trip_ruin(outcomes, bankroll, shoes)
    if risk.bounds is None:
        assert risk.mean == pytest.approx(exact, abs=1e-12)
        return
    low, high = risk.bounds
    assert low - 1e-12 <= exact <= high + 1e-12 and risk.step > lattice_step(outcomes)
    assert risk.mean == pytest.approx((low + high) / 2)


def test_the_lattice_is_exact_where_results_are_not_whole_bins() -> None:
    # Banker at 19/20 in twentieths: one shoe wins 19 twice, the other loses 20 once; a bankroll
    # of 1 unit (20) survives two wins and a loss, not two losses.
    outcomes = [(38, 0, 1), (-20, -20, 1)]
    assert trip_ruin(outcomes, 20, 2).mean == pytest.approx(0.5)
    assert trip_ruin(outcomes, 21, 2).mean == pytest.approx(0.25)
    assert float(_brute_force(outcomes, 21, 2)) == 0.25


@pytest.mark.parametrize("bet", ["player", "banker", "dragon7"])
def test_one_shoe_trips_estimate_the_simulated_frequency_exactly(bet: str) -> None:
    # A trip of one shoe is ruined exactly when its lowest point reaches the bankroll: the
    # programme on the measured shoes is then that frequency (a smooth bet and a long shot).
    procedure = DealingProcedure(decks=2)
    sizing = sizing_from_options(procedure, bankroll="6")
    plays = {bet: Always()} if bet != "dragon7" else {}
    study = Simulation.of(
        40, 5, bets=select_bets(bet), strategies=plays, procedure=procedure, **sizing
    )
    ruin = simulate(study).to_dict()["combined"]["risk_of_ruin"]
    simulated = ruin["simulated"]["trip"]
    assert ruin["estimate"]["trip"]["mean"] == pytest.approx(simulated["mean"], abs=1e-12)
    assert ruin["estimate"]["trip"]["stderr"] == pytest.approx(
        simulated["stderr"], rel=1e-9, abs=1e-12
    )


def test_the_smooth_bet_estimate_agrees_with_simulated_trips() -> None:
    procedure = DealingProcedure(decks=1, cut=10)
    sizing = sizing_from_options(procedure, bankroll="8", trip_rounds=40)
    study = Simulation.of(
        600,
        2,
        bets=select_bets("player"),
        strategies={"player": Always()},
        procedure=procedure,
        **sizing,
    )
    ruin = simulate(study).to_dict()["combined"]["risk_of_ruin"]
    assert ruin["trip_shoes"] > 1
    estimate, simulated = ruin["estimate"]["trip"], ruin["simulated"]["trip"]
    spread = math.hypot(estimate["stderr"], simulated["stderr"])
    assert abs(estimate["mean"] - simulated["mean"]) <= 3 * spread
    assert ruin["formula"]["trip"] == pytest.approx(simulated["mean"], abs=4 * spread)


@pytest.fixture(scope="module")
def dragon7_one_shoe_trips(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Issue 25's case: 8 decks, cut at 14, flat perfect play, one-shoe trips, 4,000 shoes of
    seed 25; the risk of a bankroll of 20 and the bankroll for a 20% risk, from one study (each
    question alone gives the same figures: the shoes and the trips are the same).

    Dealt once a run: kept as JSON in the folder the run's pytest-xdist workers share (each
    worker's base folder is inside it), so a worker that needs it later reads it."""
    base = tmp_path_factory.getbasetemp()
    saved = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "dragon7.json"
    if saved.exists():
        read: dict[str, Any] = json.loads(saved.read_text(encoding="utf-8"))
        return read
    procedure = DealingProcedure()
    sizing = sizing_from_options(procedure, bankroll="20", risk="20%")
    study = Simulation.of(4000, 25, bets=select_bets("dragon7"), procedure=procedure, **sizing)
    combined: dict[str, Any] = simulate(study, jobs=2).to_dict()["combined"]
    partial = saved.with_name(f"dragon7.{os.getpid()}.json")
    partial.write_text(json.dumps(combined), encoding="utf-8")
    partial.replace(saved)  # whole or not there, if two workers deal it at once
    return combined


@pytest.mark.slow
def test_dragon7_long_shot_estimate_agrees_where_the_diffusion_does_not(
    dragon7_one_shoe_trips: dict[str, Any],
) -> None:
    # Issue 25's case: 8 decks, cut at 14, flat perfect play, bankroll 20, one-shoe trips.
    procedure = DealingProcedure()
    ruin = dragon7_one_shoe_trips["risk_of_ruin"]
    estimate, simulated = ruin["estimate"]["trip"], ruin["simulated"]["trip"]
    assert abs(estimate["mean"] - simulated["mean"]) <= max(3 * estimate["stderr"], 0.015)
    assert abs(estimate["mean"] - 0.109) <= max(3 * estimate["stderr"], 0.015)
    assert ruin["formula"]["trip"] > 0.25  # the diffusion's 31%, three times too high
    assert ruin["formula"]["warning"] is not None
    # Five-shoe trips, bankroll 40 (issue 25: 23.2% simulated): the programme on the measured
    # shoes against the trips of the same shoes.
    five = sizing_from_options(procedure, bankroll="40", trip_rounds=400)
    trips = Simulation.of(4000, 25, bets=select_bets("dragon7"), procedure=procedure, **five)
    ruin = simulate(trips, jobs=2).to_dict()["combined"]["risk_of_ruin"]
    assert ruin["trip_shoes"] == 5
    estimate, simulated = ruin["estimate"]["trip"], ruin["simulated"]["trip"]
    spread = math.hypot(estimate["stderr"], simulated["stderr"])
    assert abs(estimate["mean"] - simulated["mean"]) <= 3 * spread
    assert json.dumps(ruin)  # JSON-ready


# Risk over a grid of bankrolls and trip lengths -----------------------------------------

GRID_PROCEDURE = DealingProcedure(decks=2)


def _grid_study(shoes: int = 30, **options: Any) -> Simulation:
    sizing = sizing_from_options(GRID_PROCEDURE, **options)
    return Simulation.of(shoes, 4, bets=select_bets("dragon7"), procedure=GRID_PROCEDURE, **sizing)


def test_every_grid_cell_equals_the_separate_run() -> None:
    # The grid's shoes dealt in blocks of 7 (trips cut by blocks are joined); each separate
    # run in its default blocks: the figures are drawn from exact sums, so equal to the bit.
    grid = simulate(_grid_study(bankroll="6,12,25", trip_rounds="30,150,300"), block_shoes=7)
    combined = grid.to_dict()["combined"]
    cells = combined["risk_of_ruin"]["grid"]
    assert [(cell["bankroll"], cell["trip_rounds"]) for cell in cells] == [
        (bankroll, rounds) for bankroll in (6.0, 12.0, 25.0) for rounds in (30, 150, 300)
    ]
    assert len({cell["trip_shoes"] for cell in cells}) == 3
    for cell in cells:
        alone = simulate(
            _grid_study(bankroll=f"{cell['bankroll']:g}", trip_rounds=cell["trip_rounds"])
        ).to_dict()["combined"]["risk_of_ruin"]
        assert "grid" not in alone
        assert cell["trip_shoes"] == alone["trip_shoes"] and cell["trips"] == alone["trips"]
        assert cell["estimate"] == alone["estimate"]["trip"]
        assert cell["simulated"] == alone["simulated"]
    # The first cell is the study's own figures.
    assert cells[0]["estimate"] == combined["risk_of_ruin"]["estimate"]["trip"]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.integers(-50, 50), st.integers(0, 30)), max_size=20),
    st.integers(1, 5),
    st.integers(0, 9),
)
def test_a_blocks_trips_equal_its_shoes_joined_one_by_one(
    shoes: list[tuple[int, int]], length: int, first: int
) -> None:
    totals = [total for total, _ in shoes]
    lows = [min(0, total) - dip for total, dip in shoes]
    joined = TripTally(length)
    for index, (total, low) in enumerate(zip(totals, lows, strict=True)):
        piece = Segment((first + index) // length, first + index, 1, total, low)
        joined = joined.merged(TripTally(length, (), (piece,)))
    assert TripTally.of_shoes(length, first, totals, lows) == joined


def test_a_grid_of_bankrolls_alone_has_one_shoe_trips_and_merges_shard_by_shard() -> None:
    from exactodds.simulation.block import run_block
    from exactodds.simulation.result import SimulationResult

    study = _grid_study(12, bankroll="4,8", trip_rounds="60,120")
    assert study.grid_trip_shoes and study.grid is not None
    whole = simulate(study)
    shards = [SimulationResult(study, run_block(study, start, 4).tally) for start in (0, 4, 8)]
    merged = shards[2] + shards[0] + shards[1]
    assert merged.tally == whole.tally
    assert (
        merged.to_dict()["combined"]["risk_of_ruin"]["grid"]
        == (whole.to_dict()["combined"]["risk_of_ruin"]["grid"])
    )
    alone = simulate(_grid_study(12, bankroll="4,8")).to_dict()["combined"]["risk_of_ruin"]
    assert [cell["trip_shoes"] for cell in alone["grid"]] == [1, 1]


def test_a_grid_resumes_from_its_checkpoint_and_refuses_another_grids(tmp_path: Path) -> None:
    from exactodds.simulation.checkpoint import check_tally

    checkpoint = tmp_path / "grid.json"
    simulate(_grid_study(5, bankroll="5,9", trip_rounds="60,120"), checkpoint=checkpoint)
    resumed = simulate(
        _grid_study(11, bankroll="5,9", trip_rounds="60,120"), checkpoint=checkpoint, resume=True
    )
    straight = simulate(_grid_study(11, bankroll="5,9", trip_rounds="60,120"))
    assert resumed.tally == straight.tally
    assert (
        resumed.to_dict()["combined"]["risk_of_ruin"]["grid"]
        == (straight.to_dict()["combined"]["risk_of_ruin"]["grid"])
    )
    with pytest.raises(SimulationError, match="belongs to another simulation"):
        simulate(
            _grid_study(11, bankroll="5,9", trip_rounds="60,240"),
            checkpoint=checkpoint,
            resume=True,
        )
    # Hostile sums: the grid's trips checked against the study, whatever the checksum says.
    tally = straight.tally
    assert tally.risk is not None
    study = _grid_study(11, bankroll="5,9", trip_rounds="60,120")
    check_tally(tally, study)
    trips = tally.risk.grid_trips[0]
    for bad in (
        (),
        (dataclasses.replace(trips, shoes=trips.shoes + 1),),
        (dataclasses.replace(trips, minimums=((-3, -1),)),),
        (dataclasses.replace(trips, minimums=((-3, 1000),)),),
    ):
        hostile = dataclasses.replace(tally, risk=dataclasses.replace(tally.risk, grid_trips=bad))
        with pytest.raises(ValueError, match=r"grid|trips"):
            check_tally(hostile, study)
    record = json.loads(json.dumps(tally.risk.to_dict()))
    assert RiskTally.from_dict(record) == tally.risk
    record["grid_trips"][0]["open_segments"] = [[0, 0, 99, 0, 0]]
    with pytest.raises(ValueError, match="open trip"):
        RiskTally.from_dict(record)


def test_one_bankroll_and_one_trip_length_make_no_grid() -> None:
    sizing = sizing_from_options(GRID_PROCEDURE, bankroll="6", trip_rounds="150")
    assert "grid" not in sizing
    assert sizing == sizing_from_options(GRID_PROCEDURE, bankroll="6", trip_rounds=150)
    study = _grid_study(3, bankroll="6", trip_rounds="150")
    assert study.grid is None and "grid_trip_shoes" not in study.fingerprint()
    assert "grid" not in simulate(study).to_dict()["combined"]["risk_of_ruin"]


def test_a_grid_study_is_recorded_and_reads_back_from_its_record() -> None:
    study = _grid_study(3, bankroll="6,1/2", trip_rounds="150,30")
    staking = simulate(study).to_dict()["staking"]
    assert staking["grid"]["bankrolls"] == ["6", "1/2"]
    assert staking["grid"]["trip_rounds"] == [150, 30]
    grid = staking["grid"]
    again = _grid_study(
        3,
        bankroll=",".join(grid["bankrolls"]),
        trip_rounds=",".join(map(str, grid["trip_rounds"])),
    )
    assert again == study and again.digest() == study.digest()
    assert study.digest() != _grid_study(3, bankroll="6", trip_rounds="150").digest()


GRID_COMMAND = ("simulate", "--shoes", "6", "--seed", "3", "--decks", "2", "--jobs", "1")


def test_the_grid_table_has_a_row_per_cell_and_fits_100_columns() -> None:
    result = CliRunner().invoke(
        cli,
        [*GRID_COMMAND, "--bets", "dragon7", "--bankroll", "5,10", "--trip-rounds", "40,80,160"],
    )
    assert result.exit_code == 0, result.stderr
    table = result.stdout.split("Risk of ruin over the grid")[1].split("\n\n")[0]
    rows = [line for line in table.splitlines()[4:] if line.strip()]
    assert len(rows) == 6
    assert max(map(len, result.stdout.splitlines())) <= 100


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (
            (
                "--bankroll",
                ",".join(map(str, range(1, 12))),
                "--trip-rounds",
                "1,2,3,4,5,6,7,8,9,10",
            ),
            "--bankroll and --trip-rounds make a grid of 110 cells",
        ),
        (("--bankroll", "5," * 5000 + "5"), "a grid of 5,001 cells"),
        (("--trip-rounds", "80,160"), "--trip-rounds 80,160 asks for a risk grid"),
        (("--bankroll", "5,5"), "--bankroll 5 is given twice"),
        (("--bankroll", "5,x"), "--bankroll 'x' is not a number"),
        (("--bankroll", "5", "--trip-rounds", "80,1.5"), "--trip-rounds '1.5' is not valid"),
        (("--bankroll", "5,9", "--stake", "kelly"), "give one value of each"),
    ],
)
def test_bad_grids_are_one_sentence_and_exit_2_before_dealing(
    arguments: tuple[str, ...], message: str, tmp_path: Path
) -> None:
    trace = tmp_path / "trace.jsonl"
    result = CliRunner().invoke(cli, [*GRID_COMMAND, "--trace", str(trace), *arguments])
    assert result.exit_code == 2
    assert message in result.stderr and result.stderr.count("\n") == 1
    assert "Traceback" not in result.stderr and not trace.exists()


# The bankroll for a risk target, with its interval -------------------------------------------


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(-4, 6), st.integers(0, 4), st.integers(1, 9)), min_size=1, max_size=4
    ),
    st.integers(1, 3),
    st.sampled_from([0.01, 0.05, 0.2, 0.5]),
)
def test_the_bankroll_for_a_risk_and_its_interval_follow_their_definitions(
    shapes: list[tuple[int, int, int]], shoes: int, target: float
) -> None:
    outcomes = [(total, min(0, total) - dip, count) for total, dip, count in shapes]
    point, low, high = trip_bankroll(outcomes, shoes, target)
    step = lattice_step(outcomes)
    deepest = max(-min(low for _, low, _ in outcomes) // step, 1)
    safe = shoes * deepest + 1  # no trip can fall this far (in steps of the lattice)

    def band(level: int, sign: int) -> float:
        if level >= safe:
            return 0.0
        risk = trip_ruin(outcomes, level * step, shoes)
        return risk.mean + sign * 2 * risk.stderr

    assert point % step == low % step == high % step == 0
    point, low, high = point // step, low // step, high // step
    levels = range(1, safe + 1)
    # The bankroll: the least level whose programme risk is at most the target.
    assert point == next(level for level in levels if band(level, 0) <= target)
    assert 1 <= low <= point <= high <= safe
    # Each end: its band is at most the target there, and above it one level lower.
    for end, sign, start in ((low, -1, 1), (high, 1, point)):
        assert band(end, sign) <= target
        assert end == start or band(end - 1, sign) > target


def test_the_bankroll_estimate_is_in_the_json_and_the_table() -> None:
    result = CliRunner().invoke(
        cli, [*GRID_COMMAND, "--bets", "dragon7", "--risk", "10%", "--format", "json"]
    )
    assert result.exit_code == 0, result.stderr
    figures = json.loads(result.stdout)["combined"]["bankroll_for_risk"]
    estimate = figures["estimate"]["trip"]
    assert set(estimate) == {"bankroll", "interval", "method"}
    low, high = estimate["interval"]
    assert low <= estimate["bankroll"] <= high
    table = CliRunner().invoke(cli, [*GRID_COMMAND, "--bets", "dragon7", "--risk", "10%"])
    said = table.stdout.split("Bankroll for a 10% risk")[1]
    assert f"  use: {estimate['bankroll']:g}; " in said and "others, with what they assume" in said
    assert f"{low:g} to {high:g} at the risk ± 2 standard errors" in " ".join(table.stdout.split())


@pytest.mark.slow
def test_dragon7_bankroll_for_a_risk_and_its_interval(
    dragon7_one_shoe_trips: dict[str, Any],
) -> None:
    # Issue 25: the bankroll for 20% risk of one-shoe trips, 8 decks, cut at 14, flat perfect
    # play: about 14 units simulated, 25.4 by the diffusion.  The programme's bankroll equals
    # the simulated trips' (one-shoe trips: the same frequency), and its interval, a few
    # units wide, leaves the diffusion's out.
    figures = dragon7_one_shoe_trips["bankroll_for_risk"]
    estimate = figures["estimate"]["trip"]
    low, high = estimate["interval"]
    assert estimate["bankroll"] == figures["simulated"]["trip"]
    assert abs(estimate["bankroll"] - 14) <= 3
    assert low <= estimate["bankroll"] <= high < figures["formula"]["trip"]
    assert high - low <= 4  # a few units on 4,000 shoes: the programme's error is small
