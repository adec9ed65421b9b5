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
* the ``golden_wealth`` overlay: ``analyze_overlay`` with every bet's EV, the one road it has, on
  every state, for Banker, Player and Tie at its pays, and for its table's five bets (the two pair
  bets at 9:1 too).

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
from exactodds.bets.bet import Bet
from exactodds.bets.catalogue import select_bets
from exactodds.bets.custom import parse_custom_bets
from exactodds.bets.multipliers import resolve_overlay
from exactodds.engine import cardwalk, faces
from exactodds.engine.walk import _enumerate_cached

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
    table_bets = select_bets(
        "banker,player,tie,player_pair,banker_pair",
        overlay_rules,
        {"player_pair": 9, "banker_pair": 9},
    )
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

        for label, chosen in (("main", main_bets), ("table", table_bets)):

            def overlaid(states: list[Shoe] = states, chosen: list[Bet] = chosen) -> None:
                # Each state new to the face splits' caches, as in a simulation.
                _enumerate_cached.cache_clear()
                faces.pattern_weights.cache_clear()
                faces._merged_patterns.cache_clear()
                for shoe in states:
                    priced = analyze_overlay(shoe, overlay_rules, chosen, overlay=overlay)
                    for bet in priced.bets.values():
                        _ = bet.expected_value

            rates.setdefault(f"golden_wealth {label}", []).append(_rate(overlaid, len(states)))
    for name in ("perfect_9", "all_red"):
        reference = statistics.median(rates[f"{name} walk"])
        print(f"{name}:")
        for road in ("walk", "terms", "terms batch"):
            label = f"{name} {road}"
            print(_line(road, rates[label], None if road == "walk" else reference))
    print("ox_6 and kill_ox_tiger (value bets):")
    print(_line("kernel", rates["ox_6+kill_ox_tiger kernel"], None))
    print("golden_wealth overlay, analyze_overlay:")
    print(_line("banker, player, tie", rates["golden_wealth main"], None))
    print(_line("and the two pair bets", rates["golden_wealth table"], None))
    print(f"load average after: {' '.join(f'{load:.2f}' for load in os.getloadavg())}")


if __name__ == "__main__":
    main()
