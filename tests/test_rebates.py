"""Rebates: a rolling-chip rebate and a loss rebate, and the effective edge they leave, exact.

Per unit staked, a rolling rebate of share r pays ``r * P(no push)`` (pushes are not turnover,
the casinos' dead-chip convention) or ``r`` (``rolling-with-pushes``); a loss rebate of share s
over a one-round trip pays ``s * E[max(0, -X)]``. The effective EV is the EV plus both.
"""

from __future__ import annotations

import csv
import io
import json
from collections import defaultdict
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from budget import budgeted
from click.testing import CliRunner
from hypothesis import HealthCheck, given
from hypothesis import strategies as st
from published_figures import (
    EIGHT_DECK_BANKER,
    EIGHT_DECK_PLAYER,
    EIGHT_DECK_TIE,
    EIGHT_DECK_TOTAL,
)
from reference import dealt_counts

from exactodds import Rules, Shoe, analyze
from exactodds.analysis.rebates import expected_loss, rebate_figures
from exactodds.bets.catalogue import select_bets
from exactodds.cli import cli
from exactodds.errors import RulesError
from exactodds.numbers import decimal_string
from exactodds.rulefiles import format_rules_file, parse_rules_file
from exactodds.rules import Rebate, Tableau

#: A rebate's shares: from 0 up to but not including 1, exact.
SHARES = st.fractions(min_value=0, max_value=Fraction(99, 100))


def run(*arguments: str) -> Any:
    return CliRunner().invoke(cli, list(arguments))


def odds_json(*arguments: str) -> dict[str, Any]:
    result = run("odds", "--format", "json", *arguments)
    assert result.exit_code == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


# Checked by hand on the standard Banker bet, from the published counts ---------------------
# The Wizard of Odds, "Baccarat: basics" (wizardofodds.com/games/baccarat/basics/), 8 decks:
# Banker wins 2,292,252,566,437,888, Player wins 2,230,518,282,592,256 and ties
# 475,627,426,473,216 of 4,998,398,275,503,360 ordered six-card sequences.
WINS, LOSSES, TIES, TOTAL = EIGHT_DECK_BANKER, EIGHT_DECK_PLAYER, EIGHT_DECK_TIE, EIGHT_DECK_TOTAL
#: The Banker's EV, by hand: a win pays 19/20, a loss costs 1, a tie pushes.
BANKER_EV = Fraction(19 * WINS - 20 * LOSSES, 20 * TOTAL)


def test_the_published_counts_add_up() -> None:
    assert WINS + LOSSES + TIES == TOTAL


def test_a_rolling_rebate_on_the_banker_by_hand() -> None:
    # 1.2% of the stakes that win or lose: the (wins + losses) / total of each unit staked.
    banker = odds_json("--rebate", "rolling=1.2%", "--bets", "banker")["bets"]["banker"]
    assert Fraction(banker["ev"]) == BANKER_EV
    rebate = banker["rebate"]
    assert Fraction(rebate["turnover"]) == Fraction(WINS + LOSSES, TOTAL)
    assert Fraction(rebate["rolling_value"]) == Fraction(12, 1000) * (WINS + LOSSES) / TOTAL
    effective = BANKER_EV + Fraction(12, 1000) * (WINS + LOSSES) / TOTAL
    assert Fraction(rebate["effective_ev"]) == effective
    assert Fraction(rebate["effective_house_edge"]) == -effective
    # 1.2% of the 90.48% of stakes that win or lose is 1.086%, past the Banker's 1.058% edge:
    # the player has the edge, a little.
    assert effective > 0 and rebate["effective_house_edge_decimal"].startswith("-0.00027")


def test_a_rolling_rebate_counting_pushes_adds_the_whole_share() -> None:
    banker = odds_json("--rebate", "rolling-with-pushes=1.2%", "--bets", "banker")["bets"]["banker"]
    assert Fraction(banker["rebate"]["effective_ev"]) == BANKER_EV + Fraction(3, 250)
    assert banker["rebate"]["turnover"] == "1"


def test_a_loss_rebate_on_the_banker_by_hand() -> None:
    # A one-round trip loses 1 exactly when the Player wins: E[max(0, -X)] = losses / total.
    banker = odds_json("--rebate", "loss=10%", "--bets", "banker")["bets"]["banker"]
    rebate = banker["rebate"]
    assert rebate["loss_trip_rounds"] == 1
    assert Fraction(rebate["expected_loss"]) == Fraction(LOSSES, TOTAL)
    assert Fraction(rebate["effective_ev"]) == BANKER_EV + Fraction(LOSSES, 10 * TOTAL)


def test_both_rebates_add_and_the_fee_divides_only_the_rtp() -> None:
    banker = odds_json(
        "--rebate", "loss=10%", "--rebate", "rolling=1.2%", "--fee", "1%", "--bets", "banker"
    )["bets"]["banker"]
    effective = (
        BANKER_EV + Fraction(LOSSES, 10 * TOTAL) + Fraction(3, 250) * (WINS + LOSSES) / TOTAL
    )
    assert Fraction(banker["rebate"]["effective_ev"]) == effective
    assert Fraction(banker["rebate"]["effective_rtp"]) == (1 + effective) / Fraction(101, 100)


# Against a physical-card brute force on small shoes ----------------------------------------


@budgeted(20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    counts=st.lists(st.integers(0, 2), min_size=13, max_size=13).filter(lambda c: 6 <= sum(c) <= 9),
    rolling=SHARES,
    loss=SHARES,
    pushes=st.booleans(),
)
def test_the_rebate_equals_a_brute_force_over_physical_cards(
    counts: list[int], rolling: Fraction, loss: Fraction, pushes: bool
) -> None:
    shoe, rules = Shoe(tuple(counts)), Rules(ties_push=True)
    bets = select_bets("main,dragon_bonus_banker,either_pair", rules)
    rounds = dealt_counts(shoe)
    total = sum(rounds.values())
    rebate = Rebate(rolling, loss, pushes)
    analysis = analyze(shoe, rules, bets)
    for bet in bets:
        lost: Fraction = Fraction(0)
        turnover = 0
        net: dict[Fraction, int] = defaultdict(int)
        for summary, count in rounds.items():
            pay = bet.pay(bet.settle_round(summary))
            net[pay] += count
            lost += count * max(Fraction(0), -pay)
            turnover += count if pay != 0 or pushes else 0
        ev = sum(pay * count for pay, count in net.items()) / Fraction(total)
        by_hand = ev + rolling * Fraction(turnover, total) + loss * lost / total
        figures = rebate_figures(analysis.bets[bet.name], rebate)
        assert figures.effective_expected_value == by_hand
        # E[X] = E[max(0, X)] - E[max(0, -X)]: the loss is the EV's negative part.
        gained = sum(max(Fraction(0), pay) * count for pay, count in net.items()) / total
        assert expected_loss(analysis.bets[bet.name]) == gained - ev


# Invariants ---------------------------------------------------------------------------------


@pytest.mark.parametrize("output", ["table", "json", "csv"])
def test_a_zero_rebate_leaves_the_output_byte_identical(output: str) -> None:
    plain = run("odds", "--format", output, "--bets", "main,dragon7")
    for zero in (["rolling=0"], ["loss=0%"], ["rolling-with-pushes=0", "loss=0/7"]):
        given_zero = run(
            "odds", "--format", output, "--bets", "main,dragon7",
            *(word for share in zero for word in ("--rebate", share)),
        )  # fmt: skip
        assert given_zero.exit_code == 0 and given_zero.stdout == plain.stdout


@budgeted(30, deadline=None)
@given(low=SHARES, high=SHARES, kind=st.sampled_from(["rolling", "loss", "pushes"]))
def test_the_effective_edge_falls_as_the_share_grows(
    low: Fraction, high: Fraction, kind: str
) -> None:
    low, high = min(low, high), max(low, high)
    analysis = analyze(Shoe.standard(decks=1), Rules(), select_bets("all", Rules()))

    def rebate(share: Fraction) -> Rebate:
        if kind == "loss":
            return Rebate(loss=share)
        return Rebate(rolling=share, rolling_counts_pushes=kind == "pushes")

    for result in analysis.bets.values():
        smaller = rebate_figures(result, rebate(low)).effective_house_edge
        larger = rebate_figures(result, rebate(high)).effective_house_edge
        assert larger <= smaller <= result.house_edge
        pushes = rebate_figures(result, Rebate(high, rolling_counts_pushes=True)).value
        assert pushes >= rebate_figures(result, Rebate(high)).value


def test_every_format_carries_the_same_exact_figures() -> None:
    arguments = ("--rebate", "rolling=1.2%", "--rebate", "loss=10%", "--bets", "main,dragon7")
    data = odds_json(*arguments)
    table = run("odds", *arguments, "--exact", "--wide").stdout
    rows = list(csv.DictReader(io.StringIO(run("odds", "--format", "csv", *arguments).stdout)))
    assert data["rules"]["rebate"] == {
        "rolling": "3/250",
        "rolling_counts_pushes": False,
        "loss": "1/10",
    }
    for row in rows:
        if row["kind"] == "bet":
            bet = data["bets"][row["name"]]["rebate"]
            assert row["rebate_effective_ev"] == bet["effective_ev"]
            assert bet["effective_ev"] in table
    assert "With the rebate, per unit staked; the loss rebate over a trip of one round" in table


# Rules files and bad input ------------------------------------------------------------------


def test_a_rules_file_gives_a_rebate_and_the_option_wins_over_it(tmp_path: Path) -> None:
    path = tmp_path / "rebate.toml"
    path.write_text('rebate = ["loss=10%"]\n' + format_rules_file(Tableau.standard()))
    assert parse_rules_file(path.read_text()).rebate == Rebate(loss="1/10")
    from_file = odds_json("--rules", str(path))
    assert from_file["rules"]["rebate"]["loss"] == "1/10"
    given = odds_json("--rules", str(path), "--rebate", "rolling=1%")
    assert given["rules"]["rebate"] == {
        "rolling": "1/100",
        "rolling_counts_pushes": False,
        "loss": "0",
    }


@pytest.mark.parametrize(
    ("share", "message"),
    [
        ("loss=-5%", "Error: Rebate '-5%' for --rebate is not valid; use a value from 0 up to"),
        ("rolling=100%", "Error: Rebate '100%' for --rebate is not valid"),
        ("rolling=1.5", "Error: Rebate '1.5' for --rebate is not valid"),
        ("cashback=5%", "Error: Unknown rebate 'cashback=5%' in --rebate; use rolling=SHARE,"),
        ("rolling", "Error: Unknown rebate 'rolling' in --rebate"),
        ("loss=ten", "Error: Rebate 'ten' for --rebate is not a number"),
    ],
)
def test_a_bad_rebate_is_one_sentence_and_exit_2(share: str, message: str) -> None:
    result = run("odds", "--rebate", share)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith(message) and result.stderr.count("\n") == 1


def test_each_kind_once_and_no_rebate_for_dragon_tiger() -> None:
    twice = run("odds", "--rebate", "rolling=1%", "--rebate", "rolling-with-pushes=1%")
    assert twice.exit_code == 2
    assert (
        twice.stderr
        == "Error: The rolling rebate is given twice in --rebate; give each kind once.\n"
    )
    dragon = run("odds", "--game", "dragon-tiger", "--rebate", "loss=10%")
    assert dragon.exit_code == 2 and "--rebate is a baccarat option" in dragon.stderr


def test_the_library_refuses_what_is_not_a_rebate() -> None:
    with pytest.raises(RulesError, match="rebate is '10%'; use a Rebate"):
        Rules(rebate="10%")  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="Rebate 1 for `rebate` is not valid"):
        Rebate(loss=1)


# Par sheets ---------------------------------------------------------------------------------

SHEET_OPTIONS: dict[str, Any] = {"breakeven": False, "tails": False, "rounds": (1000,)}


def test_a_par_sheet_without_a_rebate_is_unchanged() -> None:
    from exactodds.report.parsheet.render import render_markdown
    from exactodds.studies.parsheet import par_sheet

    bets = select_bets("banker,dragon7", Rules())
    plain = par_sheet(Shoe.standard(decks=8), Rules(), bets, **SHEET_OPTIONS)
    zero = par_sheet(Shoe.standard(decks=8), Rules(rebate=Rebate(0, 0)), bets, **SHEET_OPTIONS)
    assert render_markdown(zero) == render_markdown(plain)
    assert "Rebate" not in render_markdown(plain)


def test_a_par_sheet_gives_the_rebate_section_in_markdown_and_xlsx() -> None:
    from openpyxl import load_workbook
    from test_parsheet import Workbook, _rows

    from exactodds.report.parsheet.render import render_markdown
    from exactodds.report.parsheet.xlsx import write_xlsx
    from exactodds.studies.parsheet import par_sheet

    rules = Rules(fee="1%", rebate=Rebate("1.2%", "10%"))
    sheet = par_sheet(Shoe.standard(decks=8), rules, select_bets("banker,dragon7", rules), **SHEET_OPTIONS)  # fmt: skip
    text = render_markdown(sheet)
    assert text.count("### Rebate") == 2
    effective = (
        BANKER_EV + Fraction(LOSSES, 10 * TOTAL) + Fraction(3, 250) * (WINS + LOSSES) / TOTAL
    )
    assert f"| Effective EV | {decimal_string(effective, 10)} | {effective} |" in text
    buffer = io.BytesIO()
    write_xlsx(sheet, buffer)
    book = load_workbook(io.BytesIO(buffer.getvalue()))
    for name, bet in sheet.bets.items():
        assert bet.rebate is not None
        worksheet = book[name]
        rows, evaluated = _rows(worksheet), Workbook(worksheet)
        for label, value in (
            ("Turnover counted per unit staked", bet.rebate.turnover),
            ("Expected loss E[max(0, -X)]", bet.rebate.expected_loss),
            ("Rebate per unit staked", bet.rebate.value),
            ("Effective EV", bet.rebate.effective_expected_value),
            ("Effective house edge", bet.rebate.effective_house_edge),
            ("Effective RTP", bet.rebate.effective_return_to_player(Fraction(1, 100))),
        ):
            assert evaluated.value(f"B{rows[label]}") == value, (name, label)  # exact formulas
            assert worksheet[f"C{rows[label]}"].value == str(value)
    assert sheet.bets["banker"].rebate.effective_expected_value == effective  # type: ignore[union-attr]


def test_report_takes_the_rebate_option() -> None:
    result = run(
        "report", "--bets", "tie", "--rebate", "loss=10%", "--no-figures", "--rounds", "1000"
    )
    assert result.exit_code == 0, result.stderr
    assert "a loss rebate of 10% of the net loss" in result.stdout
    assert "| Loss rebate per unit staked |" in result.stdout


@pytest.mark.parametrize("command", [["eor"], ["batch"]])
def test_a_command_that_prices_no_rebate_refuses_a_rules_file_with_one(
    tmp_path: Path, command: list[str]
) -> None:
    path = tmp_path / "rebate.toml"
    path.write_text('rebate = "loss=10%"\n' + format_rules_file(Tableau.standard()))
    result = run(*command, "--rules", str(path))
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (
        f"Error: The rules file gives a rebate (loss=1/10), which `exactodds {command[0]}` does "
        "not price; remove it from the file, or use exactodds odds, exactodds report or "
        "exactodds simulate.\n"
    )


def test_simulate_takes_a_rules_files_rebate(tmp_path: Path) -> None:
    path = tmp_path / "rebate.toml"
    path.write_text('rebate = "loss=10%"\n' + format_rules_file(Tableau.standard()))
    result = run("simulate", "--shoes", "2", "--decks", "1", "--rules", str(path))
    assert result.exit_code == 0, result.stderr
    assert "Rebate: a loss rebate of 10% of the net loss; paid at the end of each trip" in (
        result.stdout
    )
