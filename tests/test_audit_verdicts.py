"""The audit's yes/no decided on a stated confidence bound, pair bets audited by perfect play,
DI in both conventions, and a reproduction line that reproduces (issue 36, item 2).

Small shoes and tiny budgets: the decisions and equalities are the point, not the statistics.
"""

from __future__ import annotations

import json
import math
import re
import shlex
import statistics
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from cli_runner import run, run_ok

from exactodds.analysis.single import analyze
from exactodds.bets.catalogue import select_bets
from exactodds.rules import Rules
from exactodds.shoe import Shoe
from exactodds.simulation.dealing import DealingProcedure
from exactodds.simulation.risk.sums import Estimate
from exactodds.simulation.run import Simulation, simulate
from exactodds.simulation.strategies import Perfect, parse_strategy
from exactodds.studies.audit import (
    AuditError,
    CutRow,
    FoundCount,
    Thresholds,
    Verdict,
    safe_cut,
)

ONE_DECK = ("--decks", "1", "--cut", "10")


def test_dragon7_at_cut_156_is_not_safe_on_0093_pm_0017_against_01() -> None:
    # Issue 36: 0.093 +- 0.017 against 0.1 was called safe on the point estimate.
    decision = Verdict("the best count", Estimate(0.093, 0.017), Thresholds())
    assert decision.upper == pytest.approx(0.093 + statistics.NormalDist().inv_cdf(0.95) * 0.017)
    assert not decision.safe
    sentence = decision.sentence("dragon7")
    assert sentence.startswith("dragon7 can be beaten: the best count wins 0.093 ± 0.017 units")
    assert "95% upper bound 0.121" in sentence
    assert "threshold 0.1 units per 100 rounds" in sentence
    assert "not by enough to call it safe" in sentence


def test_a_win_whose_upper_bound_is_below_the_threshold_is_safe() -> None:
    decision = Verdict("the best count", Estimate(0.05, 0.02), Thresholds())
    assert decision.safe  # 0.05 + 1.645 x 0.02 = 0.083
    assert decision.sentence("x").startswith("x is safe: the best count wins 0.050 ± 0.020")


def test_the_bound_is_the_normal_quantile_at_the_stated_confidence() -> None:
    estimate = Estimate(1.0, 0.5)
    for confidence in (Fraction(1, 2), Fraction(9, 10), Fraction(95, 100), Fraction(99, 100)):
        thresholds = Thresholds(confidence=confidence)
        z = statistics.NormalDist().inv_cdf(float(confidence))
        assert thresholds.upper(estimate) == pytest.approx(1.0 + z * 0.5)
    # No error (a single shoe): no bound, never safe.
    assert Thresholds().upper(Estimate(0.0, math.nan)) == math.inf


def test_the_safe_cut_is_the_shallowest_cut_whose_upper_bound_is_below_the_threshold() -> None:
    rows = [
        CutRow(14, Estimate(0.30, 0.02)),
        CutRow(104, Estimate(0.05, 0.01)),  # safe, but a deeper cut is not
        CutRow(156, Estimate(0.093, 0.017)),  # below 0.1 on the estimate, not on the bound
        CutRow(208, Estimate(0.04, 0.01)),
    ]
    assert safe_cut(rows, Thresholds()) == 208
    # At 50% confidence the bound is the estimate itself: 104, 156 and 208 are all safe.
    assert safe_cut(rows, Thresholds(confidence=Fraction(1, 2))) == 104
    assert safe_cut(rows[:1], Thresholds()) is None


def test_the_default_threshold_decides_and_money_decides_only_when_stricter() -> None:
    assert Thresholds().deciding() == (Fraction(1, 10), "0.1 units per 100 rounds")
    # 25 an hour at 100 and 70 rounds an hour is 0.357 units per 100 rounds: never stricter.
    assert Thresholds(money_per_hour=Fraction(25)).deciding()[0] == Fraction(1, 10)
    # 5 an hour is 5 x 100 / (70 x 100) = 1/14 units per 100 rounds: stricter, it decides.
    threshold, words = Thresholds(money_per_hour=Fraction(5)).deciding()
    assert threshold == Fraction(1, 14)
    assert words.startswith("5 an hour betting 100 at 70 rounds an hour")
    # 0.06 + 1.645 x 0.01 = 0.076: below 0.1, not below 1/14 = 0.0714.
    assert Verdict("the best count", Estimate(0.06, 0.01), Thresholds()).safe
    money = Thresholds(money_per_hour=Fraction(5))
    assert not Verdict("the best count", Estimate(0.06, 0.01), money).safe


@pytest.mark.parametrize("confidence", [Fraction(0), Fraction(1, 4), Fraction(1), Fraction(2)])
def test_a_confidence_outside_50_to_100_percent_is_refused(confidence: Fraction) -> None:
    with pytest.raises(AuditError, match="use a confidence from 50% to below 100%"):
        Thresholds(confidence=confidence)


def test_a_float_confidence_is_refused_as_not_exact() -> None:
    with pytest.raises(AuditError, match=r"`thresholds.confidence` 0.95 is not exact"):
        Thresholds(confidence=0.95)  # type: ignore[arg-type]


def test_confidence_option_out_of_range_is_one_sentence_and_exit_2() -> None:
    result = run("audit", "--bets", "dragon7", *ONE_DECK, "--confidence", "40%")
    assert result.exit_code == 2
    assert "--confidence 40% is not valid" in result.stderr
    assert result.stderr.count("\n") == 1 and result.stdout == ""


def _audit_json(*arguments: str) -> dict[str, Any]:
    found = run_ok("audit", *arguments, "--format", "json", "--quiet")
    data: dict[str, Any] = json.loads(found.stdout)
    return data


def test_audit_player_pair_exits_0_with_a_verdict_from_perfect_play() -> None:
    data = _audit_json(
        "--bets", "player_pair", *ONE_DECK, "--budget", "12", "--depths", "8", "--cuts", "10,20"
    )
    result = data["bets"]["player_pair"]
    assert result["count"] is None
    assert result["decision"]["played"] == "perfect play"
    assert result["verdict"].startswith("player_pair ")
    assert "perfect play wins" in result["verdict"]
    # Perfect play at the cut is simulate's perfect play on the figures' seed.
    (bet,) = select_bets("player_pair")
    study = Simulation.of(
        12, 2, Rules(), [bet], {bet.name: Perfect()}, DealingProcedure(decks=1, cut=10)
    )
    simulated = simulate(study).to_dict()["bets"]["player_pair"]["units_per_100_rounds"]
    assert result["perfect_play"]["units_per_100_rounds"]["mean"] == simulated["exact_ev"]["mean"]
    assert (
        result["by_cut"][0]["units_per_100_rounds"]
        == result["perfect_play"]["units_per_100_rounds"]
    )
    # The depth value is the exact perfect play at 8 cards left, and the safe cut agrees with
    # the bounds printed.
    assert Fraction(result["depth"][0]["value"]) > 0
    threshold = Fraction(result["decision"]["threshold"])
    below = [row["cut"] for row in result["by_cut"] if row["upper_bound"] < threshold]
    assert result["safe_cut"] in (below if below else [None])


def test_audit_player_pair_table_says_no_count_and_decides_on_perfect_play() -> None:
    shown = run_ok(
        "audit",
        "--bets",
        "player_pair",
        *ONE_DECK,
        "--budget",
        "6",
        "--depths",
        "none",
        "--cuts",
        "10",
        "--quiet",
    ).stdout
    assert "No count can track player_pair" in shown
    assert "Decided on                                                perfect play" in shown


def test_di_is_given_in_both_conventions_each_named() -> None:
    data = _audit_json(
        "--bets", "dragon7", *ONE_DECK, "--budget", "8", "--depths", "none", "--cuts", "10"
    )
    count = data["bets"]["dragon7"]["count"]
    variance = analyze(Shoe.standard(1), Rules(), select_bets("dragon7")).bets["dragon7"].variance
    units = count["units_per_100_rounds"]
    scale = 1000 / 100 / math.sqrt(count["frequency"] * float(variance))
    assert count["di_jacobson"]["mean"] == pytest.approx(units["mean"] * scale)
    assert count["di_jacobson"]["stderr"] == pytest.approx(units["stderr"] * scale)
    assert count["di"]["mean"] != count["di_jacobson"]["mean"]
    shown = run_ok(
        "audit",
        "--bets",
        "dragon7",
        *ONE_DECK,
        "--budget",
        "8",
        "--depths",
        "none",
        "--cuts",
        "10",
        "--quiet",
    ).stdout
    assert "DI, exactodds (1000 EV / SD of every round)" in shown
    assert "DI, Jacobson (1000 EV / sqrt(frequency x variance))" in shown


def test_a_half_trigger_prints_as_a_decimal_that_simulate_reads_back() -> None:
    count = FoundCount(
        (0, 0, 0, -1, -1, -1, -1, 2, 2, 0), Fraction(11, 2), None, 0.1, None,
        Estimate(0.0, 0.0), Estimate(0.0, 0.0), Estimate(0.0, 0.0), Estimate(0.0, 0.0),
        None, 2, 1, 0.0, 1,
    )  # fmt: skip
    assert count.strategy == "count:0,0,0,-1,-1,-1,-1,2,2,0:5.5"
    strategy = parse_strategy(count.strategy)
    assert getattr(strategy, "trigger", None) == Fraction(11, 2)


def _reproduction(markdown: str) -> list[str]:
    found = re.search(r"as (exactodds simulate .*?) gives", markdown)
    assert found is not None, markdown
    return shlex.split(found.group(1))


def test_the_reproduction_line_carries_the_bet_file_pay_and_rules_and_reproduces(
    tmp_path: Path,
) -> None:
    path = tmp_path / "eights.toml"
    path.write_text(
        '[[bet]]\nname = "eights"\ndescription = "Both final totals are 8."\n\n'
        '[[bet.outcome]]\nname = "win"\nwhen = { player_total = 8, banker_total = 8 }\n'
        "pays = 60\n",
        encoding="utf-8",
    )
    given = (
        "--bet-file", str(path), "--bets", "eights,dragon7", "--pay", "dragon7=30",
        "--variant", "ez", *ONE_DECK, "--budget", "6", "--depths", "none", "--cuts", "10",
    )  # fmt: skip
    data = _audit_json(*given)
    shown = run_ok("audit", *given, "--format", "markdown", "--quiet").stdout
    sections = shown.split("\n## ")[1:]
    assert len(sections) == 2
    for section in sections:
        name = section.split("\n")[0].split(" ")[0]
        words = _reproduction(section)
        assert "--bet-file" in words and "--variant" in words and "dragon7=30" in words
        again = run_ok(*words[1:], "--format", "json")
        simulated = json.loads(again.stdout)["bets"][name]["units_per_100_rounds"]["exact_ev"]
        audited = data["bets"][name]["count"]["units_per_100_rounds"]
        assert simulated["mean"] == audited["mean"]
        assert simulated["stderr"] == audited["stderr"]


def _found(mean: float, stderr: float) -> FoundCount:
    zero = Estimate(0.0, 0.0)
    return FoundCount(
        (0,) * 9 + (1,), Fraction(1), None, 0.1, None, Estimate(mean, stderr), zero, zero, zero,
        None, 2, 1, 0.0, 1,
    )  # fmt: skip


def test_design_tables_within_error_of_each_other_are_ties() -> None:
    from exactodds.studies.design import DesignedTable, ranked

    def table(win: int, mean: float, stderr: float) -> DesignedTable:
        pays = {"win": Fraction(win), "lose": Fraction(-1)}
        return DesignedTable(
            pays, Fraction(1, 20), Fraction(1, 40), Fraction(1), 0.3, _found(mean, stderr)
        )

    # Issue 36: an order decided by differences of 0.007 against errors of 0.06.
    tables = ranked([table(40, 0.500, 0.06), table(41, 0.507, 0.06), table(42, 0.9, 0.01)])
    assert [found.rank for found in tables] == [1, 1, 3]


def test_a_design_of_a_pair_bet_prices_every_table_and_says_why_none_is_audited() -> None:
    shown = run_ok(
        "audit", "--bets", "player_pair", *ONE_DECK, "--design", "win=10..12",
        "--target-edge", "1%..40%", "--design-top", "1", "--budget", "2", "--format", "json",
    ).stdout  # fmt: skip
    data = json.loads(shown)
    assert data["audited"] == 0 and len(data["design"]) == 3
    assert data["note"].startswith("No count can track player_pair")
