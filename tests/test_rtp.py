"""A fee on every bet and each bet's return to player: rtp = (1 + EV) / (1 + fee), exact.

The EV and house edge stay per unit staked, fee excluded; a fee changes nothing but the RTP,
and with no fee the RTP is one minus the house edge.
"""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from budget import budgeted
from click.testing import CliRunner
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

from exactodds import Rules, Shoe, analyze
from exactodds.analysis.removal import effect_of_removal
from exactodds.bets.catalogue import select_bets
from exactodds.cli import cli
from exactodds.errors import RulesError
from exactodds.numbers import percent_string, return_to_player_ratio
from exactodds.report.odds import batch_line, batch_record
from exactodds.rulefiles import format_rules_file, parse_rules_file
from exactodds.rules import Tableau
from exactodds.studies.parsheet import par_sheet

#: A fee's rates: from 0 up to but not including 1, exact.
FEES = st.fractions(min_value=0, max_value=Fraction(99, 100))


def run(*arguments: str) -> Any:
    return CliRunner().invoke(cli, list(arguments))


def odds_json(*arguments: str) -> dict[str, Any]:
    result = run("odds", "--format", "json", *arguments)
    assert result.exit_code == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_banker_rtp_with_no_fee_is_one_minus_the_published_house_edge() -> None:
    # The Wizard of Odds (wizardofodds.com/games/baccarat/), 8 decks: Banker house edge 1.0579%.
    banker = odds_json("--digits", "6")["bets"]["banker"]
    assert banker["house_edge_percent"] == "1.0579%"
    rtp = Fraction(banker["rtp"])
    assert rtp == 1 - Fraction(banker["house_edge"]) == 1 + Fraction(banker["ev"])
    assert percent_string(rtp, 4) == "98.9421%" and banker["rtp_decimal"] == "0.989421"


def test_a_20_percent_fee_divides_one_plus_the_ev_by_six_fifths_and_leaves_the_ev() -> None:
    plain, charged = odds_json(), odds_json("--fee", "20%")
    assert charged["rules"]["fee"] == "1/5" and "fee" not in plain["rules"]
    for name, bet in charged["bets"].items():
        assert bet["ev"] == plain["bets"][name]["ev"]
        assert bet["house_edge"] == plain["bets"][name]["house_edge"]
        assert Fraction(bet["rtp"]) == (1 + Fraction(bet["ev"])) / Fraction(6, 5)
    exact = analyze(Shoe.standard(decks=8), Rules(fee="20%")).bets["banker"]
    assert exact.return_to_player(Fraction(1, 5)) == (1 + exact.expected_value) * Fraction(5, 6)


def test_a_fee_of_zero_changes_nothing_but_adds_the_rtp() -> None:
    assert odds_json("--fee", "0") == odds_json() == odds_json("--fee", "0%")
    assert run("odds", "--fee", "0").stdout == run("odds").stdout
    analysis = analyze(Shoe.standard(decks=1), Rules(fee=0))
    assert analysis.rules == Rules() and "rtp" not in batch_record(analysis, 6)["bets"]["tie"]


@budgeted(25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    counts=st.lists(st.integers(0, 3), min_size=13, max_size=13).filter(lambda c: sum(c) >= 6),
    fee=FEES,
)
def test_the_rtp_is_exact_for_any_shoe_and_fee(counts: list[int], fee: Fraction) -> None:
    shoe = Shoe(tuple(counts))
    analysis = analyze(shoe, Rules(fee=fee), select_bets("all"))
    for name, result in analysis.bets.items():
        # The EV over the counted rounds, by Fraction arithmetic: the stake back plus the EV,
        # over the stake plus the fee.
        expected_value = sum(
            (
                Fraction(count, result.total) * result.bet.pay(outcome)
                for outcome, count in result.outcome_counts.items()
            ),
            Fraction(0),
        )
        rtp = result.return_to_player(fee)
        assert rtp == (1 + expected_value) / (1 + fee), name
        assert rtp * (1 + fee) - 1 == result.expected_value
    line = json.loads(batch_line(analysis, 8))
    assert line == batch_record(analysis, 8)
    for name, result in analysis.bets.items():
        figures = line["bets"][name]
        assert ("rtp" in figures) == (fee != 0)
        if fee:
            assert Fraction(figures["rtp"]) == result.return_to_player(fee)


def test_the_ratio_is_the_fraction() -> None:
    assert Fraction(*return_to_player_ratio(-3, 7, Fraction(2, 9))) == Fraction(4, 7) / Fraction(
        11, 9
    )


def test_csv_and_table_carry_the_rtp() -> None:
    result = run("odds", "--fee", "1/5", "--format", "csv", "--digits", "6")
    rows = {row["name"]: row for row in csv.DictReader(io.StringIO(result.stdout))}
    data = odds_json("--fee", "1/5", "--digits", "6")
    for name, bet in data["bets"].items():
        assert rows[name]["rtp"] == bet["rtp"] and rows[name]["rtp_decimal"] == bet["rtp_decimal"]
    table = run("odds", "--fee", "1/5", "--digits", "6").stdout
    assert "a fee of 20% on every bet" in table
    rtp = percent_string(Fraction(data["bets"]["tie"]["rtp"]), 4)
    assert any(line.startswith("tie") and line.endswith(rtp) for line in table.splitlines())


@pytest.mark.parametrize(
    ("fee", "sentence"),
    [
        ("-5%", "Fee '-5%' for --fee is not valid; use a value from 0 up to but not including"),
        ("120%", "Fee '120%' for --fee is not valid; use a value from 0 up to but not including"),
        ("1", "Fee '1' for --fee is not valid"),
        ("20", "(did you mean 20%?)"),
        ("abc", "Fee 'abc' for --fee is not a number; use a rate such as 20%, 0.2 or 1/5."),
    ],
)
def test_a_bad_fee_is_one_sentence_and_exit_2(fee: str, sentence: str) -> None:
    result = run("odds", "--fee", fee)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1
    assert sentence in result.stderr
    with pytest.raises(RulesError):
        Rules(fee=fee)


def test_a_rules_file_sets_the_fee_and_the_option_wins(tmp_path: Path) -> None:
    path = tmp_path / "fee.toml"
    path.write_text('fee = "1/5"\n' + format_rules_file(Tableau.standard()), encoding="utf-8")
    assert parse_rules_file(path.read_text(encoding="utf-8")).fee == Fraction(1, 5)
    assert odds_json("--rules", str(path))["rules"]["fee"] == "1/5"
    assert odds_json("--rules", str(path), "--fee", "10%")["rules"]["fee"] == "1/10"
    assert "fee" not in odds_json("--rules", str(path), "--fee", "0")["rules"]
    path.write_text("fee = 20\n" + format_rules_file(Tableau.standard()), encoding="utf-8")
    result = run("odds", "--rules", str(path))
    assert result.exit_code == 2 and 'use a rate in quotes, such as fee = "20%"' in result.stderr


def test_batch_default_line_gains_the_rtp_only_with_a_fee() -> None:
    shoes = '{"A": 4, "5": 8, "9": 4, "K": 16}\n'
    without = CliRunner().invoke(cli, ["batch", "--digits", "6"], input=shoes)
    charged = CliRunner().invoke(cli, ["batch", "--digits", "6", "--fee", "20%"], input=shoes)
    assert without.exit_code == charged.exit_code == 0
    before, after = json.loads(without.stdout), json.loads(charged.stdout)
    for name, figures in after["bets"].items():
        assert {key: figures[key] for key in before["bets"][name]} == before["bets"][name]
        assert "rtp" not in before["bets"][name]
        assert Fraction(figures["rtp"]) == (1 + Fraction(figures["ev"])) / Fraction(6, 5)


def test_eor_shows_each_bets_rtp() -> None:
    result = run("eor", "--decks", "1", "--bets", "tie", "--fee", "20%", "--format", "json")
    data = json.loads(result.stdout)
    tie = data["bets"]["tie"]
    assert Fraction(tie["rtp"]) == (1 + Fraction(tie["ev"])) / Fraction(6, 5)
    removal = effect_of_removal(Shoe.standard(decks=1), Rules(), select_bets("tie"))
    assert removal.return_to_player("tie") == 1 + removal.expected_values["tie"]
    table = run("eor", "--decks", "1", "--bets", "tie", "--digits", "6").stdout
    assert f"RTP {percent_string(removal.return_to_player('tie'), 4)};" in table


def test_a_par_sheet_files_the_rtp() -> None:
    sheet = par_sheet(
        Shoe.standard(decks=8), Rules(fee="20%"), select_bets("main"), breakeven=False, tails=False
    )
    banker = sheet.bets["banker"]
    assert banker.return_to_player == (1 + banker.expected_value) / Fraction(6, 5)
    result = run("report", "--bets", "banker", "--fee", "20%", "--no-breakeven")
    assert result.exit_code == 0, result.stderr
    assert "Return to player (RTP)" in result.stdout
    assert percent_string(banker.return_to_player, 8) in result.stdout
