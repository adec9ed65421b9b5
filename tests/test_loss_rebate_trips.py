"""A loss rebate over a trip of N independent rounds (``odds --rebate loss=... --trip-rounds N``),
exact: ``s x E[max(0, -S)] / N`` per unit staked, *S* the sum of N rounds' results.

Checked against a brute force over every N-tuple of one-round outcomes (N = 2, 3), against
trips drawn at random from the exact one-round distribution (larger N, within 3 standard
errors), and against the subadditivity that makes one round the most the rebate is worth.
"""

from __future__ import annotations

import functools
import io
import itertools
import json
import math
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner

from exactodds import Rules, Shoe, analyze
from exactodds.analysis.rebates import (
    expected_loss,
    rebate_figures,
    trip_expected_loss,
    trip_work,
)
from exactodds.analysis.single import BetAnalysis
from exactodds.bets.catalogue import select_bets
from exactodds.cli import cli
from exactodds.errors import RulesError
from exactodds.rules import Rebate

BETS = "banker,player,tie,dragon7,lucky6,panda8,player_pair"


@functools.lru_cache(maxsize=8)
def _bets(decks: int, rules: Rules | None = None) -> dict[str, BetAnalysis]:
    rules = rules if rules is not None else Rules()
    return dict(analyze(Shoe.standard(decks=decks), rules, select_bets(BETS, rules)).bets)


def _brute_force(result: BetAnalysis, rounds: int) -> Fraction:
    """E[max(0, -S)] / rounds over every tuple of outcomes, straight from the pay table."""
    outcomes = [(outcome, count) for outcome, count in result.outcome_counts.items() if count]
    pays = result.bet.pay_table
    lost = Fraction(0)
    for trip in itertools.product(outcomes, repeat=rounds):
        weight = math.prod(count for _, count in trip)
        lost += weight * max(Fraction(0), -sum(Fraction(pays[outcome]) for outcome, _ in trip))
    return Fraction(lost / result.total**rounds / rounds)


@pytest.mark.parametrize("decks", [1, 8])
@pytest.mark.parametrize("rounds", [2, 3])
def test_the_trip_loss_equals_a_brute_force_over_every_tuple_of_rounds(
    decks: int, rounds: int
) -> None:
    for name, result in _bets(decks).items():
        assert trip_expected_loss(result, rounds) == _brute_force(result, rounds), name


def test_a_variant_with_more_pays_by_brute_force() -> None:
    """EZ Baccarat's Banker pushes on a three-card 7 and Super 6's pays half on a 6."""
    for variant in ("ez", "super6"):
        banker = _bets(1, Rules(variant=variant))["banker"]
        assert trip_expected_loss(banker, 3) == _brute_force(banker, 3), variant


def test_one_round_is_the_most_the_rebate_is_worth() -> None:
    """E[max(0, -S)] is subadditive: per unit staked a trip never earns more than a round, and
    a trip twice as long never more than the shorter one."""
    for name, result in _bets(8).items():
        one = expected_loss(result)
        assert trip_expected_loss(result, 1) == one
        for rounds in (2, 5, 20):
            shorter = trip_expected_loss(result, rounds)
            assert shorter <= one, name
            assert trip_expected_loss(result, 2 * rounds) <= shorter, name


@pytest.mark.parametrize(("name", "rounds"), [("banker", 150), ("tie", 150), ("lucky6", 40)])
def test_long_trips_drawn_at_random_agree_within_three_errors(name: str, rounds: int) -> None:
    result = _bets(8)[name]
    trips = 4000
    exact = trip_expected_loss(result, rounds)
    outcomes = [outcome for outcome, count in result.outcome_counts.items() if count]
    values = np.array([float(result.bet.pay_table[outcome]) for outcome in outcomes])
    chances = np.array([result.outcome_counts[outcome] for outcome in outcomes], dtype=float)
    generator = np.random.default_rng(37)
    drawn = generator.choice(values, size=(trips, rounds), p=chances / chances.sum())
    losses = np.maximum(0.0, -drawn.sum(axis=1)) / rounds
    error = losses.std(ddof=1) / math.sqrt(trips)
    assert abs(losses.mean() - float(exact)) < 3 * error
    assert error < float(exact) / 10  # the check bites


def test_the_rebates_figures_take_the_trip() -> None:
    banker = _bets(8)["banker"]
    figures = rebate_figures(banker, Rebate(rolling="1%", loss="10%", trip_rounds=3))
    assert figures.trip_rounds == 3
    assert figures.loss_value == Fraction(1, 10) * _brute_force(banker, 3)
    assert figures.effective_expected_value == (
        banker.expected_value
        + Fraction(1, 100) * (1 - banker.push_probability)
        + Fraction(1, 10) * _brute_force(banker, 3)
    )


def _odds(*arguments: str) -> Any:
    return CliRunner().invoke(cli, ["odds", *arguments])


def test_odds_trip_rounds_in_json_and_table() -> None:
    shown = _odds("--bets", "tie", "--rebate", "loss=10%", "--trip-rounds", "2", "--format", "json")
    assert shown.exit_code == 0, shown.stderr
    data = json.loads(shown.stdout)
    tie = _bets(8)["tie"]
    assert data["bets"]["tie"]["rebate"]["loss_trip_rounds"] == 2
    assert Fraction(data["bets"]["tie"]["rebate"]["loss_value"]) == _brute_force(tie, 2) / 10
    assert data["rules"]["rebate"]["trip_rounds"] == 2
    table = _odds("--bets", "tie", "--rebate", "loss=10%", "--trip-rounds", "2").stdout
    assert "the loss rebate over a trip of 2 independent rounds of the bet" in table


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (
            ["--trip-rounds", "20"],
            "Error: --trip-rounds 20 prices a loss rebate over a trip, and there is none; give "
            "a loss rebate too, such as loss=10%.\n",
        ),
        (
            ["--rebate", "loss=10%", "--trip-rounds", "0"],
            "Error: --trip-rounds is 0; use a whole number of at least 1.\n",
        ),
        (
            ["--bets", "banker", "--rebate", "loss=10%", "--trip-rounds", "5000"],
            "Error: --trip-rounds 5,000 asks for too long an exact sum of banker's rounds (its "
            "work and its exact figure's 4,000 digits are bounded); use at most 294 rounds for "
            "this bet.\n",
        ),
    ],
)
def test_a_bad_trip_is_one_sentence_and_exit_2(arguments: list[str], message: str) -> None:
    result = _odds(*arguments)
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", message)


def test_the_bound_is_known_before_the_work() -> None:
    banker = _bets(8)["banker"]
    assert trip_work(banker, 5000) > trip_work(banker, 294)
    with pytest.raises(RulesError, match="use at most 294 rounds"):
        trip_expected_loss(banker, 5000)
    with pytest.raises(RulesError, match="`trip_rounds` 4 prices a loss rebate"):
        Rebate(rolling="1%", trip_rounds=4)


def test_a_par_sheet_gives_the_trip_loss_in_markdown_and_xlsx() -> None:
    from openpyxl import load_workbook

    from exactodds.report.parsheet.render import render_markdown
    from exactodds.report.parsheet.xlsx import write_xlsx
    from exactodds.studies.parsheet import par_sheet

    rules = Rules(rebate=Rebate(loss="10%", trip_rounds=3))
    sheet = par_sheet(
        Shoe.standard(decks=8),
        rules,
        select_bets("tie", rules),
        breakeven=False,
        tails=False,
        rounds=(1000,),
    )
    trip_loss = _brute_force(_bets(8)["tie"], 3)
    text = render_markdown(sheet)
    assert "over a trip of 3 independent rounds, one unit each" in text
    assert "| Expected trip loss per unit staked E[max(0, -S)] / 3 | " in text
    assert f"| {trip_loss} |" in text
    buffer = io.BytesIO()
    write_xlsx(sheet, buffer)
    worksheet = load_workbook(io.BytesIO(buffer.getvalue()))["tie"]
    labels = {row[0].value: row for row in worksheet.iter_rows() if row[0].value}
    row = labels["Expected trip loss per unit staked E[max(0, -S)] / 3"]
    assert row[1].value == pytest.approx(float(trip_loss)) and row[2].value == str(trip_loss)
