"""Time ``solve`` for chemin de fer, 1 to 8 decks, under each model, and the games with a choice.

Prints the median, minimum and maximum over --runs runs (default 5) of one solve per model
and number of decks, beside the same figures for one exact Punto Banco analysis of the same shoe
(the reference, measured in the same run). Then, on --choice-decks decks (default 8): a rules
file's choices (the Player's option at 5; chemin de fer's three options) and baccara banque
(the bank seeing his total, then his cards). The machine's load average is printed before and
after: a figure taken on a loaded machine says so.

    python benchmarks/bench_solve.py [--runs N] [--decks 1,6,8] [--choice-decks 8]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from collections.abc import Callable
from fractions import Fraction

from exactodds import Rules, Shoe, analyze
from exactodds.engine.walk import _enumerate_cached
from exactodds.games.banque import BanqueModel, solve_banque
from exactodds.games.chemin_de_fer import Model, solve
from exactodds.games.option import solve_option
from exactodds.rulefiles import RulesFile, read_rules_file

RULES = os.path.join(os.path.dirname(__file__), "..", "examples", "rules")

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
    parser.add_argument("--choice-decks", type=int, default=8)
    arguments = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}, {arguments.runs} runs")
    print(f"load average before: {_load()}")
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
    _choice_games(arguments.choice_decks, arguments.runs)
    print(f"load average after: {_load()}")


def _load() -> str:
    return ", ".join(f"{value:.2f}" for value in os.getloadavg())


def _choice_games(decks: int, runs: int) -> None:
    """The rules-file choices and baccara banque on one shoe."""
    shoe = Shoe.standard(decks=decks)
    for name in ("option_at_5", "chemin_de_fer"):
        rules_file = read_rules_file(os.path.join(RULES, f"{name}.toml"))

        def option(rules_file: RulesFile = rules_file) -> object:
            return solve_option(shoe, rules_file)

        print(f"{decks} deck(s), solve --rules {name}: {_times(option, runs)}")
    for sees in ("total", "cards"):
        model = BanqueModel(bank_sees=sees)

        def banque(model: BanqueModel = model) -> object:
            return solve_banque(shoe, model)

        print(f"{decks} deck(s), solve --game banque, bank sees his {sees}: {_times(banque, runs)}")


if __name__ == "__main__":
    main()
