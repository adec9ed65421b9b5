"""Time ``solve`` for chemin de fer, 1 to 8 decks, under each model.

Prints the median, minimum and maximum over --runs runs (default 5) of one solve per model
and number of decks, beside the same figures for one exact Punto Banco analysis of the same shoe
(the reference, measured in the same run).

    python benchmarks/bench_solve.py [--runs N] [--decks 1,6,8]
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from collections.abc import Callable
from fractions import Fraction

from exactodds import Rules, Shoe, analyze
from exactodds.engine.walk import _enumerate_cached
from exactodds.games.chemin_de_fer import Model, solve

MODELS = {
    "B2 (Banker cards, Player total)": Model(),
    "B3 zero-sum (both see cards)": Model(player_sees="cards"),
    "B2, 5% commission": Model(commission=Fraction(1, 20)),
    "B3, 5% commission (vertex search)": Model(player_sees="cards", commission=Fraction(1, 20)),
}


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
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--decks", default="1,2,3,4,5,6,7,8")
    arguments = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}, {arguments.runs} runs")
    for decks in (int(text) for text in arguments.decks.split(",")):
        shoe = Shoe.standard(decks=decks)

        def reference(shoe: Shoe = shoe) -> object:
            _enumerate_cached.cache_clear()
            return analyze(shoe, Rules())

        print(
            f"{decks} deck(s), Punto Banco analysis (reference): {_times(reference, arguments.runs)}"
        )
        for label, model in MODELS.items():

            def work(model: Model = model, shoe: Shoe = shoe) -> object:
                return solve(shoe, model)

            print(f"{decks} deck(s), {label}: {_times(work, arguments.runs)}")


if __name__ == "__main__":
    main()
