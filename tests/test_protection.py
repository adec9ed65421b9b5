"""The countermeasure table (``exactodds protection``) against simulate and a slow reference.

* rows of settings simulate has (the baseline, each cut, a team of n at one unit each, which is
  one player at n units) print the figures a ``simulate`` run of those settings prints, to the
  last digit: both commands' JSON, compared exactly;
* cap, required-main-bet and known-card rows against a reference that prices every round of
  the same small shoes one by one with :func:`~exactodds.analysis.single.analyze` (the exact
  enumeration, not the batch kernel the table uses), and applies the lever by hand.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction

import pytest

from exactodds.analysis.single import analyze
from exactodds.bets.bet import main_bets
from exactodds.bets.catalogue import select_bets
from exactodds.rules import Rules
from exactodds.simulation.dealing import DealingProcedure, deal_block
from exactodds.simulation.evaluate import known_shoe
from exactodds.simulation.study import Simulation
from exactodds.studies.audit import AuditError
from exactodds.studies.protection import ProtectionSpec, SideBetCap, protection_table
from tests.cli_runner import run, run_ok

SMALL = DealingProcedure(decks=1, cut=10)
SHOES, SEED = 4, 3


def _study(bet: str = "dragon7", shoes: int = SHOES) -> Simulation:
    return Simulation.of(shoes, SEED, bets=select_bets(bet), procedure=SMALL)


# Equal to simulate, printed figure for printed figure --------------------------------------


def _simulated(*options: str) -> dict[str, object]:
    text = run_ok(
        "simulate",
        "--bets",
        "dragon7",
        "--decks",
        "1",
        "--shoes",
        str(SHOES),
        "--seed",
        str(SEED),
        "--format",
        "json",
        *options,
    ).stdout
    figures: dict[str, object] = json.loads(text)["bets"]["dragon7"]
    return figures


def test_baseline_cut_and_team_rows_are_simulate_figures() -> None:
    table = json.loads(
        run_ok(
            "protection",
            "--bets",
            "dragon7",
            "--decks",
            "1",
            "--cut",
            "10",
            "--shoes",
            str(SHOES),
            "--seed",
            str(SEED),
            "--cuts",
            "20",
            "--teams",
            "3",
            "--format",
            "json",
        ).stdout
    )
    baseline, cut, team = table["rows"]
    for row, options in (
        (baseline, ("--cut", "10")),
        (cut, ("--cut", "20")),
        (team, ("--cut", "10", "--table-min", "3")),  # three seats of 1 = one seat of 3
    ):
        figures = _simulated(*options)
        exact_ev = figures["units_per_shoe"]["exact_ev"]  # type: ignore[index]
        assert row["units_per_shoe"] == {"mean": exact_ev["mean"], "stderr": exact_ev["stderr"]}
        per_100 = figures["units_per_100_rounds"]["exact_ev"]  # type: ignore[index]
        for key in ("mean", "stderr"):  # the same estimate, per 70 rounds instead of 100
            assert f"{row['units_per_hour'][key]:.10f}" == f"{per_100[key] * 0.7:.10f}"
        if row is not team:
            assert row["bets_made"] == figures["bets_made"]
    assert team["bets_made"] == 3 * baseline["bets_made"]


def test_the_printed_table_shows_simulate_figures() -> None:
    text = run_ok(
        "protection",
        "--bets",
        "dragon7",
        "--decks",
        "1",
        "--cut",
        "10",
        "--shoes",
        str(SHOES),
        "--seed",
        str(SEED),
    ).stdout
    exact_ev = _simulated("--cut", "10")["units_per_shoe"]["exact_ev"]  # type: ignore[index]
    line = next(line for line in text.splitlines() if line.startswith("baseline"))
    assert f"{exact_ev['mean']:.4f} ± {exact_ev['stderr']:.4f}" in line


# Against a slow reference, round by round ----------------------------------------------------


def _reference(
    study: Simulation, lever: str, value: Fraction | int | SideBetCap
) -> tuple[list[Fraction], int]:
    """Each shoe's exact-EV win under *lever* and the side bets placed, priced round by round
    by analyze on the same dealt shoes, the lever applied by hand."""
    rules = Rules()
    banker, player = main_bets(rules)[:2]
    bet = study.bets[0]
    block = deal_block(study.procedure, rules.tableau, study.seed, 0, study.shoes)
    totals = [Fraction(0)] * study.shoes
    placed = 0
    for row in range(block.rounds):
        shoe = int(block.round_shoe[row])
        depth = int(block.depth[row])
        counts = block.known[row].copy()
        if lever == "known card":
            assert isinstance(value, int)
            position = value
            first = int(block.depth[(block.round_shoe == shoe) & (block.round_number == 0)][0])
            burned = (1 if block.exposed[shoe] >= 0 else 0) <= position < first
            if burned or position >= depth + 6:
                counts[block.cards[shoe, position]] -= 1
        priced = analyze(known_shoe(counts, suited=False), rules, [bet, banker, player]).bets
        side = priced[bet.name].expected_value
        if side <= 0:
            continue
        best_main = max(priced["banker"].expected_value, priced["player"].expected_value)
        if lever == "cap":
            cap = value
            assert isinstance(cap, SideBetCap)
            main_stake = 1 / cap.share if depth >= cap.from_depth else Fraction(0)
        elif lever == "main bet":
            assert isinstance(value, Fraction)
            main_stake = value
        else:
            main_stake = Fraction(0)
        worth = side + main_stake * best_main
        if worth > 0:
            totals[shoe] += worth
            placed += 1
    return totals, placed


def _check(row: object, totals: list[Fraction], placed: int) -> None:
    shoes = len(totals)
    mean = sum(totals) / shoes
    variance = sum((total - mean) ** 2 for total in totals) / (shoes - 1)
    assert row.bets_made == placed  # type: ignore[attr-defined]
    # The table rounds each round's EV to 2^-40 units, as simulate does.
    assert row.per_shoe.mean == pytest.approx(float(mean), abs=1e-9)  # type: ignore[attr-defined]
    assert row.per_shoe.stderr == pytest.approx(  # type: ignore[attr-defined]
        math.sqrt(variance / shoes), abs=1e-9
    )


@pytest.mark.parametrize("share", [Fraction(1, 2), Fraction(4)])
def test_a_cap_against_the_reference(share: Fraction) -> None:
    study = _study()
    cap = SideBetCap(share, 20)
    (row,) = protection_table(ProtectionSpec(study, caps=(cap,))).rows[1:]
    _check(row, *_reference(study, "cap", cap))


def test_a_required_main_bet_against_the_reference() -> None:
    study = _study()
    (row,) = protection_table(ProtectionSpec(study, main_bets=(Fraction(2),))).rows[1:]
    totals, placed = _reference(study, "main bet", Fraction(2))
    _check(row, totals, placed)
    baseline = protection_table(ProtectionSpec(study)).baseline
    assert placed < baseline.bets_made  # two units at about -1.1% outweigh some small edges


def test_a_cap_that_never_binds_is_the_baseline() -> None:
    study = _study()
    baseline, capped = protection_table(
        ProtectionSpec(study, caps=(SideBetCap(Fraction(1), 52),))
    ).rows
    assert capped.bets_made == baseline.bets_made
    assert capped.per_shoe.mean == pytest.approx(baseline.per_shoe.mean, abs=1e-9)


@pytest.mark.parametrize("position", [3, 30, 51])
def test_a_known_card_against_the_reference(position: int) -> None:
    study = _study()
    (row,) = protection_table(ProtectionSpec(study, known_cards=(position,))).rows[1:]
    _check(row, *_reference(study, "known card", position))


def test_a_team_is_n_players_on_the_same_shoes() -> None:
    study = _study()
    baseline, team = protection_table(ProtectionSpec(study, teams=(4,))).rows
    assert team.per_shoe.mean == pytest.approx(4 * baseline.per_shoe.mean, rel=1e-12)
    assert team.per_shoe.stderr == pytest.approx(4 * baseline.per_shoe.stderr, rel=1e-12)
    assert team.per_hour.mean == pytest.approx(4 * baseline.per_hour.mean, rel=1e-12)


# Bounds and bad input --------------------------------------------------------------------------


def test_the_work_is_bounded_before_any_dealing() -> None:
    study = Simulation.of(600_000, 1, bets=select_bets("dragon7"))
    with pytest.raises(AuditError, match=r"^600,000 shoes x 4 passes is 2,400,000 shoe-passes"):
        ProtectionSpec(study, cuts=(26, 52), known_cards=(415,))


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            ("--teams", "0"),
            "Error: Team size 0 for --teams is not valid; use a whole number of at least 1.\n",
        ),
        (
            ("--caps", "1/2@x"),
            "Error: Cap depth 'x' for --caps is not valid; use a whole number of at least 0.\n",
        ),
        (
            ("--main-bets", "-1"),
            "Error: Main bet -1 for --main-bets is not valid; use a positive number of units, such as 1.\n",
        ),
        (
            ("--known-cards", "52"),
            "Error: Known card position 52 for --known-cards is past the shoe; use a position from 0 to 51 (0 is the first card).\n",
        ),
        (
            ("--rounds-per-hour", "0"),
            "Error: --rounds-per-hour is 0; use a whole number of at least 1.\n",
        ),
        (
            ("--cuts", "999"),
            "Error: Cut card 999 cards from the back is deeper than a 52-card shoe allows; use a "
            "cut of at most 35 (the burn takes up to 11 cards and a round up to 6).\n",
        ),
        (
            ("--bets", "dragon7,panda8"),
            "Error: The countermeasure table prices one bet, not 2; name one with --bets.\n",
        ),
    ],
)
def test_bad_levers_are_one_sentence(options: tuple[str, ...], message: str) -> None:
    arguments = ["protection", "--decks", "1", "--cut", "10", "--shoes", "2"]
    if "--bets" not in options:
        arguments += ["--bets", "dragon7"]
    result = run(*arguments, *options)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == message
