"""Shoe states priced per CPU-second for card-level bets and an overlay: the card walk against the
compiled card terms, interleaved in one run.

A simulation prices the shoe left before every round (some 80 a shoe, 8 decks); the figure that
decides whether `simulate` and `audit` can take a bet is how many such shoe states a CPU-second
prices.  Each run draws --states mid-shoe states (8 decks with suits, 10 to 300 cards gone, one
seed) and prices each bet on every state by:

* ``walk``: :func:`~exactodds.analysis.single.price_card_bet`, the card walk (before this change
  the only road; its cache is cleared, each state is new to it anyway);
* ``terms``: :func:`~exactodds.analysis.cardprice.card_expected_values` one state a call, and
  ``terms batch`` all the states in one call (as a simulation's block does); the compile (once per
  bet and process) is timed apart;
* ``ox_6`` and ``kill_ox_tiger`` read no card (they are value bets): the compiled kernel
  (``Analyzer.expected_value_table``) prices them, the reference a card-level bet is compared to;
* the ``golden_wealth`` overlay (Banker, Player, Tie at its pays): ``analyze_overlay`` with every
  bet's EV, the one road it has.

The walk of a bet on every card (``all_red``) takes seconds a state: it prices --walk-states of
the states.  Prints per road the median, min and max over --runs runs of states per CPU-second,
the ratio of the medians to the walk, and the load average before and after.

    python benchmarks/bench_cardprice.py [--runs 3] [--states 40] [--walk-states 4]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from exactodds import Rules, Shoe
from exactodds.analysis.cardprice import card_bet_terms, card_expected_values
from exactodds.analysis.many import Analyzer
from exactodds.analysis.multipliers import analyze_overlay
from exactodds.analysis.single import price_card_bet
from exactodds.bets.catalogue import select_bets
from exactodds.bets.custom import parse_custom_bets
from exactodds.bets.multipliers import resolve_overlay
from exactodds.engine import cardwalk

_EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "bets"


def _states(count: int, seed: int) -> list[Shoe]:
    generator = random.Random(seed)
    states = []
    for _ in range(count):
        faces = [8] * 52
        for _ in range(generator.randrange(10, 300)):
            left = [index for index, number in enumerate(faces) if number]
            faces[generator.choice(left)] -= 1
        ranks = tuple(sum(faces[rank * 4 : rank * 4 + 4]) for rank in range(13))
        states.append(Shoe.from_checked_counts(ranks, tuple(faces)))
    return states


def _rate(work: Callable[[], object], states: int) -> float:
    start = time.process_time()
    work()
    return states / max(time.process_time() - start, 1e-9)


def _line(label: str, rates: list[float], reference: float | None) -> str:
    median = statistics.median(rates)
    ratio = f", {median / reference:,.0f}x the walk" if reference else ""
    return (
        f"  {label:<26} median {_figure(median):>12} states/CPU-s (min {_figure(min(rates))}, "
        f"max {_figure(max(rates))}){ratio}"
    )


def _figure(rate: float) -> str:
    """A rate to a tenth, or to two significant figures below 1 (the walk of a bet on every card)."""
    return f"{rate:,.1f}" if rate >= 1 else f"{rate:.2g}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--states", type=int, default=40)
    parser.add_argument("--walk-states", type=int, default=4)
    arguments = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}, {arguments.runs} runs")
    print(f"load average before: {' '.join(f'{load:.2f}' for load in os.getloadavg())}")
    rules = Rules()
    bets = {
        bet.name: bet
        for name in ("perfect_9", "all_red", "dai_bacc")
        for bet in parse_custom_bets((_EXAMPLES / f"{name}.toml").read_text())
    }
    for name in ("perfect_9", "all_red"):
        start = time.process_time()
        card_bet_terms(bets[name], rules.tableau)
        print(f"compile {name}: {time.process_time() - start:.2f} CPU-s (once per process)")
    kernel = Analyzer(rules, [bets["ox_6"], bets["kill_ox_tiger"]])
    overlay = resolve_overlay("golden_wealth")
    overlay_rules = Rules(tie_pays=5)
    main_bets = select_bets("banker,player,tie", overlay_rules)
    rates: dict[str, list[float]] = {}
    for run in range(arguments.runs):
        states = _states(arguments.states, run)
        walked = states[: arguments.walk_states]
        ranks = [shoe.rank_counts for shoe in states]
        suits = [shoe.suit_counts for shoe in states]
        for name in ("perfect_9", "all_red"):
            bet = bets[name]

            def walk(bet: object = bet, walked: list[Shoe] = walked) -> None:
                for shoe in walked:
                    cardwalk._cached.cache_clear()
                    price_card_bet(shoe, rules, bet)  # type: ignore[arg-type]

            def single(bet: object = bet, states: list[Shoe] = states) -> None:
                for shoe in states:
                    card_expected_values(
                        bet,  # type: ignore[arg-type]
                        rules.tableau,
                        [shoe.rank_counts],
                        [shoe.suit_counts],
                    )

            def batch(bet: object = bet, ranks: object = ranks, suits: object = suits) -> None:
                card_expected_values(bet, rules.tableau, ranks, suits)  # type: ignore[arg-type]

            rates.setdefault(f"{name} walk", []).append(_rate(walk, len(walked)))
            rates.setdefault(f"{name} terms", []).append(_rate(single, len(states)))
            rates.setdefault(f"{name} terms batch", []).append(_rate(batch, len(states)))

        def counted(ranks: list[tuple[int, ...]] = ranks) -> object:
            return kernel.expected_value_table(ranks, outcomes=False)

        rates.setdefault("ox_6+kill_ox_tiger kernel", []).append(_rate(counted, len(states)))

        def overlaid(walked: list[Shoe] = walked) -> None:
            for shoe in walked:
                priced = analyze_overlay(shoe, overlay_rules, main_bets, overlay=overlay)
                for bet in priced.bets.values():
                    _ = bet.expected_value

        rates.setdefault("golden_wealth overlay", []).append(_rate(overlaid, len(walked)))
    for name in ("perfect_9", "all_red"):
        reference = statistics.median(rates[f"{name} walk"])
        print(f"{name}:")
        for road in ("walk", "terms", "terms batch"):
            label = f"{name} {road}"
            print(_line(road, rates[label], None if road == "walk" else reference))
    print("ox_6 and kill_ox_tiger (value bets):")
    print(_line("kernel", rates["ox_6+kill_ox_tiger kernel"], None))
    print("golden_wealth overlay (banker, player, tie):")
    print(_line("analyze_overlay", rates["golden_wealth overlay"], None))
    print(f"load average after: {' '.join(f'{load:.2f}' for load in os.getloadavg())}")


if __name__ == "__main__":
    main()
