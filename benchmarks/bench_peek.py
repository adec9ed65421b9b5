"""Time ``solve --game peek`` on 8 decks: one solve per reveal class, and the survey of them all.

Prints the median, minimum and maximum over --runs runs (default 3) of one ``solve_peek`` per
reveal (the first of each of the 8 classes that share every figure, so every kind of reveal is
timed) with both sides' policies computed, then of ``survey_peek`` (every reveal), beside one
exact Punto Banco analysis of the same shoe (the reference, measured in the same run).

    python benchmarks/bench_peek.py [--runs N] [--decks 8]
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from collections.abc import Callable

from exactodds import Rules, Shoe, analyze
from exactodds.engine.walk import _enumerate_cached
from exactodds.games import peek
from exactodds.games.peek import REVEAL_CLASSES, solve_peek, survey_peek


def _times(work: Callable[[], object], runs: int) -> str:
    seconds = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        seconds.append(time.perf_counter() - start)
    return (
        f"median {statistics.median(seconds):.2f} s, min {min(seconds):.2f} s, "
        f"max {max(seconds):.2f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--decks", type=int, default=8)
    arguments = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}, {arguments.runs} runs")
    shoe = Shoe.standard(decks=arguments.decks)

    def reference() -> object:
        _enumerate_cached.cache_clear()
        return analyze(shoe, Rules())

    print(
        f"{arguments.decks} decks, Punto Banco analysis (reference): {_times(reference, arguments.runs)}"
    )
    for members in REVEAL_CLASSES:
        reveal = members[0]

        def work(reveal: str = reveal.name) -> object:
            peek._solved.cache_clear()  # every run counts: solutions are cached a process
            return solve_peek(shoe, reveal).sides  # the policies too, not only the counts

        print(f"{arguments.decks} decks, --reveal {reveal.name}: {_times(work, arguments.runs)}")

    def survey() -> object:
        peek._solved.cache_clear()
        return [solution.sides for _, solution in survey_peek(shoe)]

    print(f"{arguments.decks} decks, --reveal each: {_times(survey, arguments.runs)}")


if __name__ == "__main__":
    main()
