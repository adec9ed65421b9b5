"""simulate under a random-multiplier overlay (issue 34, item 3): each round's exact EV is
``odds --multipliers``' (analyze_overlay) on the round's known shoe, the fee charged per unit
paid; the realized multiple is drawn per round from the run's seed."""

from __future__ import annotations

import json
import math
from fractions import Fraction

from cli_runner import run

from exactodds.analysis.multipliers import analyze_overlay
from exactodds.bets.catalogue import select_bets
from exactodds.bets.multipliers import BetMultipliers, MultiplierOverlay, resolve_overlay
from exactodds.rules import Rules, Tableau
from exactodds.simulation.block import run_block
from exactodds.simulation.dealing import DealingProcedure, deal_block
from exactodds.simulation.evaluate import known_shoe
from exactodds.simulation.overlaypays import (
    draw_multipliers,
    overlaid_simulation,
    overlay_generator,
    round_multiple,
)
from exactodds.simulation.strategies import Always
from exactodds.simulation.study import Simulation

ONE_DECK = DealingProcedure(decks=1, cut=30)
BETS = "banker,tie,player_pair"


def _study(overlay: MultiplierOverlay, seed: int = 5) -> Simulation:
    return overlaid_simulation(
        Simulation.of(1, seed, bets=select_bets(BETS), procedure=ONE_DECK), overlay
    )


def test_each_rounds_ev_is_odds_multipliers_on_its_known_shoe() -> None:
    """The trace's EV per round equals analyze_overlay's on the same composition, exactly:
    without a fee the EV itself; with Golden Wealth's 20% fee, RTP - 1 per unit paid."""
    for overlay in (
        MultiplierOverlay(5, {2: Fraction(1, 2), 3: Fraction(1, 2)}),
        resolve_overlay("golden_wealth"),
    ):
        study = _study(overlay)
        lines = run_block(study, 0, 1, trace=True).trace.splitlines()
        block = deal_block(ONE_DECK, Tableau(), study.seed, 0, 1)
        assert len(lines) == block.rounds >= 2
        fee = overlay.fee or Fraction(0)
        for row in (0, block.rounds - 1):
            exact = analyze_overlay(
                known_shoe(block.known[row], suited=True),
                Rules(),
                select_bets(BETS),
                overlay=overlay,
            )
            traced = json.loads(lines[row])["ev"]
            for name in BETS.split(","):
                rtp = exact.bets[name].return_to_player(fee)
                assert Fraction(traced[name]) == rtp - 1, (name, row)


def test_the_all_ones_law_without_a_fee_is_the_plain_simulation() -> None:
    """Multipliers of 1 and no fee: the same tally as no overlay, the same seed."""
    plain = Simulation.of(1, 9, bets=select_bets(BETS), procedure=ONE_DECK)
    ones = overlaid_simulation(plain, MultiplierOverlay(5, {1: 1}))
    assert run_block(ones, 0, 1).tally == run_block(plain, 0, 1).tally


def test_the_realized_multiple_averages_the_exact_mean() -> None:
    """The Tie's multiple on six given cards (two of one face), drawn 4000 times from the
    run's generator: its mean within 3 standard errors of the exact mean multiple."""
    overlay = MultiplierOverlay(8, {2: Fraction(3, 4), 5: Fraction(1, 4)})
    cards = [0, 0, 5, 9, 13, 17]  # AS twice, 2H, 3H, 4H, 5H: four cards drawn (both third)
    tableau = Tableau()
    generator = overlay_generator(11, 0)
    draws = [
        float(round_multiple("tie", cards, draw_multipliers(overlay, generator), tableau))
        for _ in range(4000)
    ]
    mean = sum(draws) / len(draws)
    spread = math.sqrt(sum((x - mean) ** 2 for x in draws) / (len(draws) - 1))
    pattern = tuple(sorted((cards.count(card) for card in set(cards)), reverse=True))
    exact = float(overlay.mean_multiple(pattern))
    assert abs(mean - exact) < 3 * spread / math.sqrt(len(draws)), (mean, exact)


def test_blocks_and_jobs_do_not_change_the_run() -> None:
    """Each shoe's faces come from its own generator: two blocks tally as one, and the CLI
    prints the same with --jobs 1 and --jobs 2."""
    study = Simulation.of(2, 5, bets=select_bets("player"), procedure=ONE_DECK)
    study = overlaid_simulation(study, MultiplierOverlay(6, {2: 1}))
    whole = run_block(study, 0, 2).tally
    assert whole == run_block(study, 0, 1).tally.merged(run_block(study, 1, 1).tally)
    arguments = (
        "simulate",
        "--multipliers",
        "golden_wealth",
        "--bets",
        "player",
        "--decks",
        "1",
        "--cut",
        "30",
        "--shoes",
        "2",
        "--seed",
        "4",
        "--play",
        "player=always",
    )
    one, two = run(*arguments, "--jobs", "1"), run(*arguments, "--jobs", "2")
    assert one.exit_code == two.exit_code == 0, (one.stderr, two.stderr)
    assert one.stdout == two.stdout and "player" in one.stdout
    assert one.stderr.startswith("Pricing about ")


def test_a_run_past_a_day_of_cpu_is_refused_in_one_sentence() -> None:
    result = run("simulate", "--multipliers", "golden_wealth", "--shoes", "30000")
    assert result.exit_code == 2 and result.stdout == ""
    message = result.stderr.strip().removeprefix("Error: ")
    assert "past the bound of a day" in message and message.count(". ") == 0


def test_a_round_is_paid_the_overlays_base_pay_times_its_drawn_multiples() -> None:
    """Every face drawn at 2x and the Tie's own base pay 5: a Tie won with n cards pays 5 * 2**n,
    a lost one -1 (the trace's result per round, always betting)."""
    overlay = MultiplierOverlay(52, {2: 1}, bets={"tie": BetMultipliers(pay=Fraction(5))})
    plain = Simulation.of(
        4, 3, bets=select_bets("tie"), strategies={"tie": Always()}, procedure=ONE_DECK
    )
    lines = run_block(overlaid_simulation(plain, overlay), 0, 4, trace=True).trace.splitlines()
    records = [json.loads(line) for line in lines]
    assert any(record["outcome"]["tie"] == "win" for record in records)  # seed 3 deals ties
    for record in records:
        won = record["outcome"]["tie"] == "win"
        expected = 5 * 2 ** len(record["cards"]) if won else -1
        assert Fraction(record["result"]["tie"]) == expected, record
