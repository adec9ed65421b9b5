"""Risk figures, stakes and merged results of ``simulate``.

The figures are checked against their definitions recomputed from the per-round trace
(every round's exact EV, stake and result), the formulas against closed forms worked
by hand, the simulated ruin against the formula on a long study, Kelly and ramp stakes
against their definitions at the trace's compositions, and merged runs against one run.
"""

from __future__ import annotations

import io
import json
import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from budget import thorough
from click.testing import CliRunner

from exactodds.analysis.risk import (
    bankroll_for_risk,
    di,
    kelly_stake,
    n0_rounds,
    risk_of_ruin,
    score,
    trip_risk_of_ruin,
)
from exactodds.analysis.single import analyze
from exactodds.bets.bet import Bet
from exactodds.bets.catalogue import select_bets
from exactodds.cli import cli
from exactodds.errors import SimulationError
from exactodds.shoe import Shoe
from exactodds.simulation.block import run_block
from exactodds.simulation.dealing import DealingProcedure
from exactodds.simulation.result import SimulationResult
from exactodds.simulation.risk.questions import RiskQuestions
from exactodds.simulation.risk.tally import RiskTally, block_risk_tally
from exactodds.simulation.run import Simulation, simulate
from exactodds.simulation.staking.stakes import Kelly, Ramp, TableLimits, parse_stake
from exactodds.simulation.strategies import Always, parse_strategy
from exactodds.simulation.tally import Tally

ONE_DECK = DealingProcedure(decks=1)


def traced(simulation: Simulation) -> tuple[SimulationResult, list[dict[str, Any]]]:
    stream = io.StringIO()
    result = simulate(simulation, trace=stream)
    return result, [json.loads(line) for line in stream.getvalue().splitlines()]


# The formulas, by hand ---------------------------------------------------------------


def test_di_score_and_n0_follow_their_definitions() -> None:
    assert di(0.02, 4.0) == 1000 * 0.02 / 4.0 == 5.0
    assert score(0.02, 4.0) == 25.0
    assert n0_rounds(0.02, 4.0) == pytest.approx((4.0 / 0.02) ** 2)
    # N0 = (1000 / DI)**2 = 1e6 / SCORE, for any EV and SD.
    for ev, sd in [(0.013, 2.8), (0.5, 7.0)]:
        assert n0_rounds(ev, sd) == pytest.approx(1e6 / score(ev, sd))
    # A losing bet: Kelly stakes nothing, so SCORE is 0, and the win never passes one SD.
    assert score(-0.01, 0.93) == 0.0 and math.isnan(n0_rounds(-0.01, 0.93))


def test_unlimited_ruin_is_the_closed_form_and_inverts() -> None:
    # EV 0.01, SD 1, B 100: exp(-2 * 0.01 * 100 / 1) = exp(-2).
    assert risk_of_ruin(0.01, 1.0, 100) == pytest.approx(math.exp(-2), rel=1e-15)
    assert bankroll_for_risk(0.01, 1.0, math.exp(-2)) == pytest.approx(100, rel=1e-12)
    assert risk_of_ruin(-0.01, 1.0, 100) == 1.0


def test_trip_ruin_by_hand() -> None:
    # No drift: the reflection principle gives P(min <= -B by T) = 2 Phi(-B / (SD sqrt T)).
    # B = 20, SD = 2, T = 100: 2 Phi(-1) = erfc(1 / sqrt 2) = 0.31731050786291415.
    assert trip_risk_of_ruin(0.0, 2.0, 20, 100) == pytest.approx(0.31731050786291415, 1e-12)
    # With drift: Phi((-B - mu T)/s) + exp(-2 mu B / SD^2) Phi((-B + mu T)/s), s = SD sqrt T.
    # mu = -0.1, SD = 1, B = 10, T = 100: Phi(0) + exp(2) Phi(-2).
    expected = 0.5 + math.exp(2) * 0.5 * math.erfc(2 / math.sqrt(2))
    assert trip_risk_of_ruin(-0.1, 1.0, 10, 100) == pytest.approx(expected, rel=1e-12)
    bankroll = bankroll_for_risk(0.01, 1.0, 0.05, 5000)
    assert trip_risk_of_ruin(0.01, 1.0, bankroll, 5000) == pytest.approx(0.05, rel=1e-9)


def test_kelly_stake_is_exact() -> None:
    assert kelly_stake(Fraction(1, 2), Fraction(900), Fraction(1, 30), Fraction(3)) == 5


# The figures equal their definitions, from the trace --------------------------------


def test_figures_equal_their_definitions_on_the_trace() -> None:
    study = Simulation.of(
        30,
        7,
        bets=select_bets("tie,player_pair"),
        strategies={"tie": Always()},
        procedure=ONE_DECK,
    )
    result, lines = traced(study)
    figures = result.risk_figures
    rounds = len(lines)
    names = ["tie", "player_pair"]
    ev = {
        name: sum(Fraction(line["ev"][name]) * line["stake"][name] for line in lines) / rounds
        for name in names
    }
    won = {name: [Fraction(line["result"][name]) for line in lines] for name in names}
    for name in names:
        second = sum(x * x for x in won[name]) / rounds
        sd = math.sqrt(second - ev[name] ** 2)
        data = figures.of(name)
        assert data["ev_per_round"]["mean"] == pytest.approx(float(ev[name]), rel=1e-9)
        assert data["sd_per_round"]["mean"] == pytest.approx(sd, rel=1e-9)
        assert data["di"]["mean"] == pytest.approx(1000 * float(ev[name]) / sd, rel=1e-9)
        if ev[name] > 0:
            assert data["score"]["mean"] == pytest.approx(data["di"]["mean"] ** 2, rel=1e-12)
            assert data["n0_rounds"]["mean"] == pytest.approx(
                (1000 / data["di"]["mean"]) ** 2, rel=1e-9
            )
        else:  # a losing play: Kelly stakes nothing (SCORE 0) and N0 is never reached
            assert data["score"]["mean"] == 0.0 and data["n0_rounds"]["mean"] is None
        assert data["units_wagered"] == sum(line["stake"][name] for line in lines)
    covariance = figures.combined["covariance"]
    product = sum(a * b for a, b in zip(won["tie"], won["player_pair"], strict=True)) / rounds
    assert covariance["tie"]["player_pair"] == pytest.approx(
        float(product - ev["tie"] * ev["player_pair"]), rel=1e-9
    )
    assert covariance["tie"]["player_pair"] == covariance["player_pair"]["tie"]
    # The combined SD is that of the sum: var = sum of the covariance matrix.
    total_variance = sum(covariance[a][b] for a in names for b in names)
    assert figures.combined["sd_per_round"]["mean"] ** 2 == pytest.approx(total_variance)
    assert covariance["tie"]["tie"] == pytest.approx(figures.of("tie")["sd_per_round"]["mean"] ** 2)


def test_standard_errors_shrink_like_one_over_root_shoes() -> None:
    small = simulate(
        Simulation.of(
            40, 3, bets=select_bets("tie"), strategies={"tie": Always()}, procedure=ONE_DECK
        )
    )
    large = simulate(
        Simulation.of(
            640, 3, bets=select_bets("tie"), strategies={"tie": Always()}, procedure=ONE_DECK
        )
    )
    ratio = (
        small.risk_figures.of("tie")["sd_per_round"]["stderr"]
        / large.risk_figures.of("tie")["sd_per_round"]["stderr"]
    )
    assert 2 < ratio < 8  # sqrt(16) = 4, within the noise of the error estimates


def test_block_tally_by_hand() -> None:
    # Shoe 0: rounds (20, -1), (-20, 8); shoe 1: (19, -1); bet 0 in 1/20, bet 1 in units.
    results = np.array([[20, -1], [-20, 8], [19, -1]])
    tally = block_risk_tally([20, 1], 1, 0, results, np.zeros((3, 2), np.int64), [2, 1])
    assert tally.product(0, 1) == 20 * -1 + -20 * 8 + 19 * -1
    assert tally.bets[1].squares.total == 1 + 64 + 1
    # Combined in 1/20: shoe 0 goes 0 then 140 (lowest 0), shoe 1 goes -1.
    assert tally.trip_minimums == ((-1, 1), (0, 1))
    assert tally.ruined_trips(1) == 1 and tally.ruined_trips(2) == 0


# Ruin: simulated against the formula ---------------------------------------------------


@thorough  # a 4 s simulation; the lattice is checked against Monte Carlo by default
def test_simulated_trip_ruin_agrees_with_the_formula() -> None:
    study = Simulation.of(
        3000,
        11,
        bets=select_bets("banker"),
        strategies={"banker": Always()},
        procedure=ONE_DECK,
        bankroll=Fraction(8),
        trip_shoes=20,
    )
    data = simulate(study, jobs=1).to_dict()["combined"]["risk_of_ruin"]
    formula, simulated = data["formula"]["trip"], data["simulated"]["trip"]
    assert data["trips"] == 150
    # The diffusion formula ignores the overshoot of discrete unit steps: allow 0.05 for it.
    assert abs(simulated["mean"] - formula) < 3 * simulated["stderr"] + 0.05


# Stakes ------------------------------------------------------------------------------


def _both(summary: Any) -> str:
    # Dragon 7 x Panda 8, written from the bets' definitions: Banker wins with a three-card 7
    # (pays 40), Player wins with a three-card 8 (pays 25); each loses 1 otherwise.
    dragon = (
        summary.winner.name == "BANKER" and summary.banker_total == 7 and summary.banker_cards == 3
    )
    panda = (
        summary.winner.name == "PLAYER" and summary.player_total == 8 and summary.player_cards == 3
    )
    return f"{'win' if dragon else 'lose'} {'win' if panda else 'lose'}"


PRODUCT = Bet(
    "dragon_times_panda",
    "The product of the Dragon 7 and Panda 8 results.",
    _both,
    # The product pays per 40 units (its largest loss), as no wager loses more than its stake.
    {
        "win lose": Fraction(-40, 40),
        "lose win": Fraction(-25, 40),
        "lose lose": Fraction(1, 40),
        "win win": Fraction(1000, 40),
    },
)


def _kelly_by_hand(current: Fraction, shoe: Shoe, names: list[str]) -> dict[str, Fraction]:
    """Half Kelly: one bet, f B EV / E[X^2]; both, M s = f B EV solved by Cramer's rule."""
    analysis = analyze(shoe, bets=[*select_bets("dragon7,panda8"), PRODUCT])
    ev = {name: analysis.bets[name].expected_value for name in names}
    second = {
        name: analysis.bets[name].variance + analysis.bets[name].expected_value ** 2
        for name in names
    }
    half = Fraction(1, 2) * current
    if len(names) == 2:
        cross = 40 * analysis.bets["dragon_times_panda"].expected_value
        (a, b), det = names, second[names[0]] * second[names[1]] - cross**2
        stake_a = half * (ev[a] * second[b] - cross * ev[b]) / det
        stake_b = half * (ev[b] * second[a] - cross * ev[a]) / det
        if stake_a > 0 and stake_b > 0:
            return {a: stake_a, b: stake_b}
        names = [a] if stake_a > 0 else [b]
    return {name: half * ev[name] / second[name] for name in names}


def test_kelly_stakes_equal_their_definition_at_the_traced_compositions() -> None:
    bankroll = Fraction(2000)
    limits = TableLimits(2, 60, 2)
    study = Simulation.of(
        20,
        5,
        bets=select_bets("dragon7,panda8"),
        procedure=DealingProcedure(decks=2, cut=14),
        stake=Kelly(Fraction(1, 2)),
        limits=limits,
        bankroll=bankroll,
    )
    _, lines = traced(study)
    current, shoe, checked, together = bankroll, -1, 0, 0
    for line in lines:
        if line["shoe"] != shoe:
            current, shoe = bankroll, line["shoe"]
        names = [
            name
            for name in ("dragon7", "panda8")
            if line["bet"][name] and Fraction(line["ev"][name]) > 0
        ]
        exact = _kelly_by_hand(current, Shoe.from_mapping(line["known"]), names) if names else {}
        together += len(names) == 2
        for name in ("dragon7", "panda8"):
            units = min(math.floor(exact.get(name, Fraction(0))) // 2 * 2, 60)
            assert line["stake"][name] == (units if units >= 2 else 0)
            checked += name in exact
        current += sum(Fraction(value) for value in line["result"].values())
    assert checked > 10 and together > 0


def test_ramp_stakes_follow_the_exact_edges() -> None:
    ramp = parse_stake("ramp:0=1,1%=4,2%=8")
    assert isinstance(ramp, Ramp)
    study = Simulation.of(
        6, 2, bets=select_bets("dragon7"), procedure=DealingProcedure(decks=2), stake=ramp
    )
    _, lines = traced(study)
    for line in lines:
        ev = Fraction(line["ev"]["dragon7"])
        expected = 8 if ev > Fraction(1, 50) else 4 if ev > Fraction(1, 100) else 1 if ev > 0 else 0
        assert line["stake"]["dragon7"] == expected
        assert Fraction(line["result"]["dragon7"]) % 1 == 0 or expected == 0


# Merging, block independence and records -----------------------------------------------


def test_merged_results_equal_one_run_with_trips_across_the_split() -> None:
    study = Simulation.of(9, 4, bets=select_bets("banker,tie"), procedure=ONE_DECK, trip_shoes=4)
    first = SimulationResult(study, run_block(study, 0, 5).tally)
    second = SimulationResult(study, run_block(study, 5, 4).tally)
    whole = simulate(study, block_shoes=2)
    merged = second + first
    assert merged.tally == whole.tally
    one, other = merged.to_dict(), whole.to_dict()
    del one["run"], other["run"]
    assert one == other
    assert whole.tally.risk is not None and whole.tally.risk.trips == 2


def test_merging_two_studies_is_refused() -> None:
    first = simulate(Simulation.of(1, 1, bets=select_bets("tie"), procedure=ONE_DECK))
    second = simulate(Simulation.of(1, 2, bets=select_bets("tie"), procedure=ONE_DECK))
    with pytest.raises(SimulationError, match="different studies"):
        first + second


def test_tally_records_round_trip_and_refuse_a_tally_without_risk_sums() -> None:
    tally = simulate(
        Simulation.of(3, 1, bets=select_bets("tie"), procedure=ONE_DECK, trip_shoes=2)
    ).tally
    assert Tally.from_dict(json.loads(json.dumps(tally.to_dict()))) == tally
    assert tally.risk is not None
    assert RiskTally.from_dict(tally.risk.to_dict()) == tally.risk
    old = tally.to_dict()
    del old["risk"]
    with pytest.raises(ValueError, match="risk"):
        Tally.from_dict(old)


def test_questions_do_not_change_the_fingerprint() -> None:
    plain = Simulation.of(3, 1)
    asked = Simulation.of(3, 1, questions=RiskQuestions(Fraction(1, 20), 80, 1000))
    assert plain.fingerprint() == asked.fingerprint()
    assert "sizing" not in plain.fingerprint()
    assert "sizing" in Simulation.of(3, 1, trip_shoes=2).fingerprint()


# The command line -----------------------------------------------------------------------


def invoke(*arguments: str) -> Any:
    return CliRunner().invoke(cli, list(arguments))


SMALL = ("simulate", "--shoes", "4", "--seed", "3", "--decks", "2", "--jobs", "1")


def test_json_carries_the_figures() -> None:
    result = invoke(
        *SMALL,
        "--bets",
        "dragon7,panda8",
        "--format",
        "json",
        "--bankroll",
        "50",
        "--risk",
        "5%",
        "--trip-rounds",
        "50",
        "--rounds-per-hour",
        "70",
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    for entry in (data["bets"]["dragon7"], data["combined"]):
        for key in ("ev_per_round", "sd_per_round", "di", "score", "n0_rounds", "ev_per_hour"):
            assert set(entry[key]) == {"mean", "stderr", "ci95"}
    combined = data["combined"]
    assert set(combined["covariance"]) == {"dragon7", "panda8"}
    assert set(combined["risk_of_ruin"]["formula"]) == {"unlimited", "trip", "method", "warning"}
    estimate = combined["risk_of_ruin"]["estimate"]
    assert set(estimate) == {"trip", "unlimited"}
    assert {"mean", "stderr", "method"} <= set(estimate["trip"]) & set(estimate["unlimited"])
    assert "trip" in combined["risk_of_ruin"]["simulated"]
    assert set(combined["bankroll_for_risk"]["formula"]) == {"unlimited", "trip"}
    table = invoke(*SMALL, "--bets", "dragon7,panda8", "--bankroll", "50", "--risk", "5%")
    assert "DI" in table.stdout and "Risk of ruin of 50 units" in table.stdout
    assert "formula (diffusion)" in table.stdout and "simulated" in table.stdout


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (("--bankroll", "-5"), "--bankroll -5 is not valid"),
        (("--risk", "0"), "--risk 0 is not valid"),
        (("--risk", "1"), "--risk 1 is not valid"),
        (("--stake", "ramp:0=1,1%=20", "--table-max", "10"), "above the table maximum of 10"),
        (("--stake", "ramp:1%=2,0=1"), "is not increasing"),
        (("--stake", "kelly"), "give --bankroll"),
        (("--stake", "kelly:2", "--bankroll", "10"), "Kelly fraction 2"),
        (("--table-min", "10", "--table-max", "5"), "--table-max 5 is below --table-min 10"),
    ],
)
def test_bad_input_is_one_sentence_and_exit_2_before_dealing(
    arguments: tuple[str, ...], message: str, tmp_path: Path
) -> None:
    trace = tmp_path / "trace.jsonl"
    result = invoke(*SMALL, "--trace", str(trace), *arguments)
    assert result.exit_code == 2
    assert message in result.stderr and result.stderr.count("\n") == 1
    assert "Traceback" not in result.stderr and not trace.exists()


# Results as data ------------------------------------------------------------------------


def test_to_pandas_and_to_arrow_equal_the_json() -> None:
    result = simulate(Simulation.of(5, 2, bets=select_bets("tie,dragon7"), procedure=ONE_DECK))
    data = result.to_dict()
    frame = result.to_pandas()
    assert list(frame.index) == ["tie", "dragon7", "combined"]
    for name in ("tie", "dragon7"):
        entry = data["bets"][name]
        assert frame.loc[name, "bets_made"] == entry["bets_made"]
        assert frame.loc[name, "di"] == entry["di"]["mean"] or entry["di"]["mean"] is None
        assert frame.loc[name, "sd_per_round_stderr"] == entry["sd_per_round"]["stderr"]
        assert (
            frame.loc[name, "units_per_shoe_exact_ev"]
            == entry["units_per_shoe"]["exact_ev"]["mean"]
        )
        assert json.loads(frame.loc[name, "ev_by_deck"]) == entry["ev_by_deck"]
    assert frame.loc["combined", "ev_per_round"] == data["combined"]["ev_per_round"]["mean"]
    table = result.to_arrow()
    assert table.num_rows == 3
    assert table.column("bet").to_pylist() == ["tie", "dragon7", "combined"]
    assert table.column("ev_per_round").to_pylist() == list(frame["ev_per_round"])


def test_the_parquet_trace_round_trips_the_json_lines(tmp_path: Path) -> None:
    import pyarrow.parquet

    jsonl, parquet = tmp_path / "rounds.jsonl", tmp_path / "rounds.parquet"
    arguments = ("--bets", "dragon7,panda8", "--stake", "ramp:0=1,5%=3")
    assert invoke(*SMALL, *arguments, "--trace", str(jsonl)).exit_code == 0
    assert invoke(*SMALL, *arguments, "--trace", str(parquet)).exit_code == 0
    assert not Path(f"{parquet}.jsonl").exists()
    table = pyarrow.parquet.read_table(parquet)
    assert table.schema.metadata[b"exactodds_trace"] == b"1"
    rows = table.to_pylist()
    lines = [json.loads(line) for line in jsonl.read_text().splitlines()]
    assert len(rows) == len(lines)
    for row, line in zip(rows, lines, strict=True):
        assert json.loads(row["known"]) == line["known"]
        assert row["cards"].split() == line["cards"]
        for name in ("dragon7", "panda8"):
            assert Fraction(row[f"ev_{name}"]) == Fraction(line["ev"][name])
            assert row[f"ev_{name}_float"] == float(Fraction(line["ev"][name]))
            assert row[f"stake_{name}"] == line["stake"][name]
            assert Fraction(row[f"result_{name}"]) == Fraction(line["result"][name])


def test_parquet_without_the_extra_is_refused_before_dealing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "pyarrow", None)
    trace = tmp_path / "rounds.parquet"
    result = invoke(*SMALL, "--trace", str(trace))
    assert result.exit_code == 2
    assert 'pip install "exactodds[data]"' in result.stderr and result.stderr.count("\n") == 1
    assert not trace.exists() and not Path(f"{trace}.jsonl").exists()


# Sweeps --------------------------------------------------------------------------------


def test_sweep_rows_equal_separate_runs(tmp_path: Path) -> None:
    common = (*SMALL, "--bets", "dragon7", "--format", "json")
    swept = invoke(
        *common,
        "--sweep",
        "cut=14,30",
        "--sweep",
        "pays=dragon7=30,dragon7=40",
        "--sweep",
        "stake=flat|ramp:0=1,5%=2",
        "--plot",
        str(tmp_path),
    )
    assert swept.exit_code == 0, swept.output
    rows = json.loads(swept.stdout)["sweep"]
    assert len(rows) == 8
    assert rows[3]["values"] == {"cut": "14", "pays": "dragon7=40", "stake": "ramp:0=1,5%=2"}
    for row in (rows[3], rows[4]):
        values = row["values"]
        alone = invoke(
            *common, "--cut", values["cut"], "--pay", values["pays"], "--stake", values["stake"]
        )
        data = json.loads(alone.stdout)
        del data["run"]
        assert row["result"] == data
        assert row["units_per_shoe"] == data["combined"]["units_per_shoe"]["exact_ev"]
    # Common random numbers: the same shoes whatever the pays and stakes.
    assert len({row["result"]["rounds"] for row in rows[:4]}) == 1
    assert (tmp_path / "sweep-penetration.png").exists()


def test_a_swept_play_chooses_its_bets_and_each_set_of_bets_is_built_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import exactodds.interface

    calls: list[str | None] = []
    build = exactodds.interface.bets_from_values

    def counted(rules: Any, values: Any, **changes: Any) -> Any:
        calls.append(changes.get("selection"))
        return build(rules, values, **changes)

    monkeypatch.setattr(exactodds.interface, "bets_from_values", counted)
    common = (*SMALL, "--format", "json")
    plays = "panda8=always|dragon7=always|panda8=perfect"
    swept = invoke(*common, "--sweep", f"play={plays}", "--sweep", "cut=14,30")
    assert swept.exit_code == 0, swept.output
    # The command's own bets (the main bets) are never rebuilt; panda8 and dragon7 once each.
    assert calls == ["panda8", "dragon7"]
    rows = json.loads(swept.stdout)["sweep"]
    assert len(rows) == 6
    for row in rows:
        values = row["values"]
        alone = invoke(*common, "--play", values["play"], "--cut", values["cut"])
        data = json.loads(alone.stdout)
        del data["run"]
        assert row["result"] == data


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (("--sweep", "colour=red"), "Unknown sweep setting 'colour'"),
        (("--sweep", "decks=6,x"), "Value of decks 'x' for --sweep is not valid"),
        (("--sweep", "cut=14", "--trace", "t.jsonl"), "--sweep runs one study per combination"),
        (("--sweep", "stake=flat|ramp:1%=2,0=1"), "is not increasing"),
        (("--sweep", "cut=14,999"), "Cut card 999"),
    ],
)
def test_bad_sweeps_are_refused_before_dealing(arguments: tuple[str, ...], message: str) -> None:
    result = invoke(*SMALL, *arguments)
    assert result.exit_code == 2, result.output
    assert message in result.stderr and result.stderr.count("\n") == 1
    assert result.stdout == ""


def test_a_true_count_ramp_follows_the_count_in_the_trace() -> None:
    tags = (0, 0, 0, -1, -1, -1, -1, 2, 2, 0, 0, 0, 0)  # A .. K
    study = Simulation.of(
        8,
        9,
        bets=select_bets("dragon7"),
        strategies={"dragon7": parse_strategy("count:0,0,0,-1,-1,-1,-1,2,2,0:1")},
        procedure=DealingProcedure(decks=2),
        stake=parse_stake("ramp:tc:1=1,4=3,8=6"),
    )
    _, lines = traced(study)
    ranks = "A23456789TJQK"
    for line in lines:
        known = {rank: 0 for rank in ranks}
        for card, count in line["known"].items():
            known[card[0]] += count
        running = sum(tag * (8 - known[rank]) for tag, rank in zip(tags, ranks, strict=True))
        true_count = Fraction(52 * running, sum(known.values()))
        expected = 6 if true_count >= 8 else 3 if true_count >= 4 else 1 if true_count >= 1 else 0
        assert line["stake"]["dragon7"] == expected
    assert {line["stake"]["dragon7"] for line in lines} >= {0, 1, 3}


def test_a_true_count_ramp_needs_count_strategies() -> None:
    with pytest.raises(SimulationError, match="steps by a count, but dragon7 plays perfect"):
        Simulation.of(1, 1, bets=select_bets("dragon7"), stake=parse_stake("ramp:tc:1=1,2=2"))


def test_exact_moment_sd_is_its_definition_on_the_trace() -> None:
    bets = select_bets("dragon7,panda8")
    study = Simulation.of(
        12,
        4,
        bets=bets,
        procedure=DealingProcedure(decks=2),
        exact_moments=True,
        stake=parse_stake("ramp:0=1,3%=2"),
    )
    result, lines = traced(study)
    figures = result.risk_figures
    rounds = len(lines)
    for name in ("dragon7", "panda8"):
        second = Fraction(0)
        ev = Fraction(0)
        for line in lines:
            stake = line["stake"][name]
            if stake:
                bet = analyze(Shoe.from_mapping(line["known"]), bets=bets).bets[name]
                second += stake**2 * (bet.variance + bet.expected_value**2)
                ev += stake * bet.expected_value
        assert second > 0, f"no {name} bet made: choose another seed"
        sd = math.sqrt(second / rounds - (ev / rounds) ** 2)
        exact = figures.of(name)["exact_moments"]
        assert exact["sd_per_round"]["mean"] == pytest.approx(sd, rel=1e-6)
        assert exact["di"]["mean"] == pytest.approx(1000 * float(ev / rounds) / sd, rel=1e-6)
    plain = simulate(Simulation.of(2, 4, bets=bets)).risk_figures
    assert "exact_moments" not in plain.of("dragon7")


def test_product_bets_give_the_cross_moment() -> None:
    from exactodds.simulation.staking.stakes import product_bets

    shoe = Shoe.standard(decks=1).remove("8 8 9 9 9 K")
    ((product, scale),) = product_bets(tuple(select_bets("dragon7,panda8")))
    assert scale == 40
    analysis = analyze(shoe, bets=[PRODUCT, product])
    by_hand = 40 * analysis.bets["dragon_times_panda"].expected_value
    assert analysis.bets[product.name].expected_value * scale == by_hand
    # Never both win: E[X_d X_p] = P(both lose) - 40 P(dragon) - 25 P(panda).
    assert analysis.bets["dragon_times_panda"].distribution.get(Fraction(1000, 40), 0) == 0


def test_sized_studies_do_not_depend_on_blocks_or_workers() -> None:
    study = Simulation.of(
        7,
        3,
        bets=select_bets("dragon7,panda8"),
        procedure=DealingProcedure(decks=2),
        stake=Kelly(Fraction(1, 2)),
        bankroll=Fraction(500),
        trip_shoes=3,
        exact_moments=True,
    )
    one = simulate(study, block_shoes=1).tally
    assert (
        one == simulate(study, block_shoes=4).tally == simulate(study, jobs=2, block_shoes=2).tally
    )
    assert one.risk is not None and one.risk.trips == 2 and one.risk.growth != 0


def test_sweep_csv_has_one_row_per_combination() -> None:
    result = invoke(*SMALL, "--bets", "tie", "--sweep", "min-edge=0,1%,2%", "--format", "csv")
    assert result.exit_code == 0, result.output
    header, *rows = result.stdout.splitlines()
    assert header.split(",")[:2] == ["min-edge", "penetration"] and len(rows) == 3


def test_flat_figures_beside_a_sizing_equal_a_flat_run() -> None:
    common: dict[str, Any] = {
        "bets": select_bets("dragon7,panda8"),
        "procedure": DealingProcedure(decks=2),
        "bankroll": Fraction(300),
        "trip_shoes": 2,
        "limits": TableLimits(2),
        "questions": RiskQuestions(Fraction(1, 10)),
    }
    sized = simulate(Simulation.of(8, 6, stake=parse_stake("ramp:0=2,2%=6"), **common)).to_dict()
    flat = simulate(Simulation.of(8, 6, stake=parse_stake("flat", TableLimits(2)), **common))
    expected = flat.to_dict()["combined"]
    # The bankroll paths and the risk curve are drawn for the stakes played only.
    for figures in (expected["risk_of_ruin"], sized["combined"]["risk_of_ruin"]):
        assert figures.pop("paths")["trips"] == 4 and figures.pop("curve")["points"]
    for key in ("ev_per_round", "sd_per_round", "di", "risk_of_ruin", "bankroll_for_risk"):
        assert sized["combined"]["flat"][key] == expected[key]
    assert "flat" not in expected
