"""Bankroll paths over trips and the risk curve (``risk_of_ruin.paths`` and ``.curve``).

The paths are checked against numpy's quantiles of the bankrolls recomputed, shoe by shoe,
from the trace of the same study; merging shards, checkpoints and the plots are checked
for what they keep.
"""

from __future__ import annotations

import dataclasses
import io
import itertools
import json
import math
from collections import Counter, defaultdict
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from budget import thorough
from click.testing import CliRunner

from exactodds.bets.catalogue import select_bets
from exactodds.cli import cli
from exactodds.errors import SimulationError
from exactodds.simulation.block import run_block
from exactodds.simulation.checkpoint import check_tally, load_checkpoint, save_checkpoint
from exactodds.simulation.dealing import DealingProcedure
from exactodds.simulation.result import SimulationResult
from exactodds.simulation.risk.paths import PATH_QUANTILES, PathTally, risk_curve
from exactodds.simulation.run import Simulation, simulate
from exactodds.simulation.staking.stakes import TableLimits, parse_stake

TWO_DECKS = DealingProcedure(decks=2)


def _study(shoes: int = 24, trip_shoes: int = 3, minimum: int = 2) -> Simulation:
    limits = TableLimits(minimum)
    return Simulation.of(
        shoes,
        7,
        bets=select_bets("dragon7,banker"),
        procedure=TWO_DECKS,
        stake=parse_stake("flat", limits),
        limits=limits,
        bankroll=Fraction(41),
        trip_shoes=trip_shoes,
    )


def _nearest_bin(total: Fraction, width: int) -> int:
    """*total* in bins of *width* units, halves up (written apart from the library's)."""
    return math.floor(total / width + Fraction(1, 2))


def test_path_quantiles_equal_numpys_on_the_traced_bankrolls() -> None:
    study = _study()
    stream = io.StringIO()
    result = simulate(study, trace=stream)
    per_shoe: dict[int, Fraction] = defaultdict(Fraction)
    for line in stream.getvalue().splitlines():
        record = json.loads(line)
        per_shoe[record["shoe"]] += sum(Fraction(value) for value in record["result"].values())
    trips = study.shoes // study.trip_shoes
    bankrolls = np.zeros((trips, study.trip_shoes))
    for trip in range(trips):
        running = Fraction(0)
        for step in range(study.trip_shoes):
            running += per_shoe[trip * study.trip_shoes + step]
            bankrolls[trip, step] = 41 + 2 * _nearest_bin(running, 2)
    paths = result.to_dict()["combined"]["risk_of_ruin"]["paths"]
    assert paths["trips"] == trips == 8 and paths["bin_units"] == 2
    assert paths["steps"][0] == {"shoes": 0} | {name: 41.0 for name, _ in PATH_QUANTILES}
    for step in range(study.trip_shoes):
        row = paths["steps"][step + 1]
        assert row["shoes"] == step + 1
        for name, share in PATH_QUANTILES:
            expected = np.quantile(bankrolls[:, step], float(share), method="inverted_cdf")
            assert row[name] == expected, (step, name)
    # The spread is real: the quantiles are not all one value.
    assert paths["steps"][-1]["p05"] < paths["steps"][-1]["p95"]


def test_shards_with_trips_split_between_them_merge_to_one_run() -> None:
    study = _study(shoes=10, trip_shoes=4)
    whole = run_block(study, 0, 10).tally
    parts = [run_block(study, first, count).tally for first, count in ((5, 3), (0, 2), (8, 2))]
    parts.append(run_block(study, 2, 3).tally)
    merged = parts[0]
    for part in parts[1:]:
        merged = merged.merged(part)
    assert merged.paths == whole.paths
    assert whole.paths is not None and whole.paths.trips == 2
    assert [piece.first_shoe for piece in whole.paths.open_pieces] == [8]
    assert simulate(study, jobs=2, block_shoes=3).tally == simulate(study).tally


def test_a_checkpoint_keeps_the_paths_and_refuses_altered_ones(tmp_path: Path) -> None:
    study = _study(shoes=7, trip_shoes=3)
    tally = simulate(study).tally  # two trips finished, one open (shoe 6)
    path = tmp_path / "run.json"
    save_checkpoint(path, study, tally, None)
    loaded, _ = load_checkpoint(path, study)
    assert loaded == tally and loaded.paths is not None and loaded.paths.trips == 2
    paths = tally.paths
    assert paths is not None
    step = paths.steps[0]
    extra = dataclasses.replace(
        paths, steps=((*step[:-1], (step[-1][0], step[-1][1] + 1)), *paths.steps[1:])
    )
    with pytest.raises(ValueError, match="histograms of different trips"):
        check_tally(dataclasses.replace(tally, paths=PathTally.from_dict(extra.to_dict())), study)
    unsorted = paths.to_dict()
    unsorted["steps"][0] = unsorted["steps"][0][::-1]
    with pytest.raises(ValueError, match="misorders"):
        PathTally.from_dict(unsorted)
    lost = dataclasses.replace(paths, open_pieces=())
    with pytest.raises(ValueError, match="open trip"):
        check_tally(dataclasses.replace(tally, paths=lost), study)


def test_shoes_counted_without_paths_give_no_paths_rather_than_some() -> None:
    study = _study(shoes=6, trip_shoes=3)
    older = dataclasses.replace(run_block(study, 0, 3).tally, paths=None)
    merged = older.merged(run_block(study, 3, 3).tally)
    assert merged.paths is None
    ruin = SimulationResult(study, merged).to_dict()["combined"]["risk_of_ruin"]
    assert ruin["paths"] is None and ruin["curve"] is not None


def test_the_curve_at_the_asked_bankroll_is_the_estimate() -> None:
    study = _study(shoes=30, trip_shoes=2)
    ruin = simulate(study).to_dict()["combined"]["risk_of_ruin"]
    points = ruin["curve"]["points"]
    (asked,) = [point for point in points if point["asked"]]
    assert asked["bankroll"] == 41.0
    assert asked["trip"]["mean"] == ruin["estimate"]["trip"]["mean"]
    # One programme for every bankroll: the same backward pass (the same mean); the standard
    # error's sums run in another order.
    assert asked["trip"]["stderr"] == pytest.approx(ruin["estimate"]["trip"]["stderr"], rel=1e-9)
    assert asked["unlimited"] == pytest.approx(ruin["estimate"]["unlimited"]["mean"], rel=1e-12)
    bankrolls = [point["bankroll"] for point in points]
    assert bankrolls == sorted(bankrolls) and bankrolls[0] < 41 < bankrolls[-1]
    risks = [point["trip"]["mean"] for point in points]
    assert all(later <= earlier + 1e-12 for earlier, later in itertools.pairwise(risks))


def test_the_curve_runs_to_four_times_the_bankroll_or_below_a_tenth_of_a_percent() -> None:
    even = ((-1, -1, 1), (1, 0, 1))  # a fair coin over 400 shoes: never below 0.1% up to 20
    points = risk_curve(even, Fraction(5), 400, 1)["points"]
    assert [point["bankroll"] for point in points] == [float(b) for b in range(1, 21)]
    assert all(point["unlimited"] == 1.0 for point in points)  # no positive drift
    winning = ((-1, -1, 1), (3, 0, 3))
    short = risk_curve(winning, Fraction(2), 1, 1)["points"]
    assert short[-1]["trip"]["mean"] < 0.001 and len(short) < 8
    with pytest.raises(SimulationError, match="no shoe"):
        risk_curve((), Fraction(5), 1, 1)


def _run(*arguments: str) -> Any:
    return CliRunner().invoke(cli, list(arguments))


@thorough  # two plotted runs; the ruin-programme test draws the same figures by default
def test_plot_writes_the_fan_chart_and_the_risk_curve_the_same_each_time(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    common = ("simulate", "--shoes", "12", "--seed", "3", "--decks", "2", "--jobs", "1")
    options = (*common, "--bets", "dragon7", "--bankroll", "30", "--trip-rounds", "120")
    first = _run(*options, "--plot", str(tmp_path / "a"))
    assert first.exit_code == 0, first.output
    assert first.stderr == f"Wrote 6 figure files to {tmp_path / 'a'}.\n"
    names = sorted(path.name for path in (tmp_path / "a").iterdir())
    assert names == [
        "combined-paths.png",
        "combined-paths.svg",
        "combined-risk.png",
        "combined-risk.svg",
        "dragon7-depth.png",
        "dragon7-depth.svg",
    ]
    again = _run(*options, "--plot", str(tmp_path / "b"))
    assert again.exit_code == 0
    for name in names:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


def test_the_figures_draw_what_the_result_records() -> None:
    pytest.importorskip("matplotlib")
    from exactodds.report.plots import paths_figure, risk_curve_figure

    ruin = simulate(_study(shoes=12, trip_shoes=3)).to_dict()["combined"]["risk_of_ruin"]
    fan = paths_figure(ruin["paths"]).axes[0]
    assert [float(y) for y in fan.lines[0].get_ydata()] == [
        step["median"] for step in ruin["paths"]["steps"]
    ]
    assert [float(x) for x in fan.lines[0].get_xdata()] == [0, 1, 2, 3]
    curve = risk_curve_figure(ruin["curve"]).axes[0]
    points = ruin["curve"]["points"]
    assert [float(y) for y in curve.lines[0].get_ydata()] == [
        100 * point["trip"]["mean"] for point in points
    ]
    marked = [line for line in curve.lines if line.get_label() == "asked bankroll"]
    assert len(marked) == 1 and float(marked[0].get_xdata()[0]) == 41.0


def test_the_curve_past_every_fall_a_trip_can_take_is_safe_without_tracking_its_levels() -> None:
    # A bankroll of 150,000 against shoes that fall at most 1: no level past 2 is tracked.
    coin = ((-1, -1, 1), (2, 0, 1))
    curve = risk_curve(coin, Fraction(150_000), 2, 1)
    assert [point["bankroll"] for point in curve["points"]][-1] == 180_000.0
    assert all(point["trip"]["mean"] == 0.0 for point in curve["points"])
    assert curve["note"] is None


def test_the_ruin_programme_runs_once_per_question_for_the_table_and_the_plots(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The table and the figures of ``simulate --bankroll --risk --plot`` read one result's
    risk figures (:attr:`SimulationResult.risk_figures`): no renderer or plot runs the ruin
    programme again."""
    pytest.importorskip("matplotlib")
    from exactodds.simulation.risk import ruin

    calls: Counter[str] = Counter()

    def counting(name: str, programme: Any) -> Any:
        def counted(*arguments: Any) -> Any:
            calls[name] += 1
            return programme(*arguments)

        return counted

    for name in ("trip_ruin", "trip_ruin_at", "trip_bankroll", "lundberg_ruin"):
        monkeypatch.setattr(ruin, name, counting(name, getattr(ruin, name)))
    common = ("simulate", "--shoes", "12", "--seed", "3", "--decks", "2", "--jobs", "1")
    options = (*common, "--bets", "dragon7", "--bankroll", "30", "--trip-rounds", "120")
    result = _run(*options, "--risk", "5%", "--plot", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert "Risk of ruin" in result.stdout and len(list(tmp_path.iterdir())) == 6
    # One question each: the trip's risk at the bankroll (the programme), the unlimited
    # risk at it (Cramer-Lundberg), the curve (the programme over every bankroll drawn, and
    # the Lundberg coefficient its unlimited line scales) and the bankroll for the target.
    assert calls == {"trip_ruin": 1, "lundberg_ruin": 2, "trip_ruin_at": 1, "trip_bankroll": 1}
