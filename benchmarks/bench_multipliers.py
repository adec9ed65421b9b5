"""Time an overlay's exact RTP for every bet of a table against the same table without it.

The table: Banker, Player, Tie, Player Pair and Banker Pair on one shoe (8 decks by default;
``--bets main`` for the main bets alone, whose plain analysis needs no walk: the tableau's count
polynomials answer it, so the ratio is far larger there).
Each run clears the walks' caches, so both sides count the shoe from scratch: without the
overlay, one :func:`~exactodds.analysis.single.analyze` (the pair bets need the walk); with it,
:func:`~exactodds.analysis.multipliers.analyze_overlay` (the same analysis, the face-pattern
walk, and every bet's EV and law of the paid multiple). Prints the median, minimum and maximum
over --runs runs of each, and the ratio of the medians (the target is at most 10), in wall
time and in the process's CPU time (steadier on a shared machine), with the load average.
The count polynomials of the tableau (plain and per face signature) are shoe-independent and
kept per process on both sides, as a second table in the same process finds them.

    python benchmarks/bench_multipliers.py [--runs N] [--decks 8] [--overlay golden_wealth]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from collections.abc import Callable

from exactodds import Rules, Shoe, analyze
from exactodds.analysis.multipliers import analyze_overlay
from exactodds.bets.catalogue import select_bets
from exactodds.bets.multipliers import resolve_overlay
from exactodds.engine import faces
from exactodds.engine.walk import _enumerate_cached


def _clear() -> None:
    _enumerate_cached.cache_clear()
    faces.pattern_weights.cache_clear()
    faces._merged_patterns.cache_clear()


def _times(work: Callable[[], object], runs: int) -> tuple[list[float], list[float]]:
    work()  # the tableau's polynomials, once per process on both sides
    wall, cpu = [], []
    for _ in range(runs):
        _clear()
        start, start_cpu = time.perf_counter(), time.process_time()
        work()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return wall, cpu


def _line(label: str, seconds: list[float]) -> str:
    return (
        f"{label}: median {statistics.median(seconds):.3f} s, min {min(seconds):.3f} s, "
        f"max {max(seconds):.3f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--decks", type=int, default=8)
    parser.add_argument("--overlay", default="golden_wealth")
    parser.add_argument("--bets", default="main,player_pair,banker_pair")
    arguments = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}, {arguments.runs} runs")
    shoe = Shoe.standard(decks=arguments.decks)
    rules = Rules()
    bets = select_bets(arguments.bets, rules)

    def plain() -> object:
        return analyze(shoe, rules, bets).expected_values()

    def overlaid() -> object:
        overlay = resolve_overlay(arguments.overlay)  # a fresh overlay: no law cached
        priced = analyze_overlay(shoe, rules, bets, overlay=overlay)
        return [(bet.expected_value, bet.multiples) for bet in priced.bets.values()]

    print(f"load average before: {' '.join(f'{load:.2f}' for load in os.getloadavg())}")
    without = _times(plain, arguments.runs)
    with_overlay = _times(overlaid, arguments.runs)
    table = f"{arguments.decks} decks, --bets {arguments.bets}"
    for clock, index in (("wall", 0), ("cpu", 1)):
        print(_line(f"{clock} {table} without an overlay", without[index]))
        print(_line(f"{clock} {table} under {arguments.overlay}", with_overlay[index]))
        ratio = statistics.median(with_overlay[index]) / statistics.median(without[index])
        print(f"{clock} ratio of the medians: {ratio:.1f}x (target at most 10x)")
    print(f"load average after: {' '.join(f'{load:.2f}' for load in os.getloadavg())}")


if __name__ == "__main__":
    main()
