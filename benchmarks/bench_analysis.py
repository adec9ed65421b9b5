"""Time one full exact analysis of a fresh 8-deck shoe (Banker, Player, Tie).

Each run clears the enumeration cache, so every run walks the shoe again.
Prints the median, minimum and maximum over --runs runs (default 15).

    python benchmarks/bench_analysis.py [--runs N] [--decks N]
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

from exactodds import Rules, Shoe, analyze
from exactodds.engine.walk import _enumerate_cached


def time_analysis(shoe: Shoe, rules: Rules, runs: int) -> list[float]:
    """Wall-clock seconds of *runs* uncached analyses."""
    seconds = []
    for _ in range(runs):
        _enumerate_cached.cache_clear()
        start = time.perf_counter()
        analyze(shoe, rules)
        seconds.append(time.perf_counter() - start)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--decks", type=int, default=8)
    arguments = parser.parse_args()
    shoe = Shoe.standard(decks=arguments.decks)
    print(f"python {platform.python_version()} on {platform.machine()}, {arguments.runs} runs")
    for label, measured in (
        ("suited shoe (pairs split by rank and suit)", shoe),
        ("rank-only shoe", shoe.without_suits()),
    ):
        seconds = time_analysis(measured, Rules(), arguments.runs)
        print(
            f"{arguments.decks}-deck analysis, {label}: median {statistics.median(seconds) * 1e3:.1f} ms, "
            f"min {min(seconds) * 1e3:.1f} ms, max {max(seconds) * 1e3:.1f} ms"
        )


if __name__ == "__main__":
    main()
