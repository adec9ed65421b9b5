"""Jacobson's Dragon 7 count study: its rate on this machine, and his 100,000,000 shoes
extrapolated from it.

    python benchmarks/bench_count_study.py --runs 3 --shoes 4096 --jobs 2

The study is Eliot Jacobson's ("Co-Card Counting the Dragon and Panda Side Bets in EZ
Baccarat", 888casino blog): tags 0,0,0,-1,-1,-1,-1,2,2,0 (A, 2, ..., 9, tens), bet Dragon 7
at true count >= 4, 8 decks, cut card 14 cards from the back, standard burn, one round when
the cut card is the first card of a round; every round's exact EV computed (the exact-EV
estimator, the EV deciles and the EV by deck read them all).

Each run times, interleaved (so a change in the machine's load falls on both):

* ``simulate`` of --shoes shoes on --jobs worker processes, as the command line runs it
  (value bets priced by the kernel's program cut to the keys they read, in the compiled
  value study, :mod:`exactodds.simulation.value_study`, or on the numpy road,
  :mod:`exactodds.simulation.pruned_pricing`), wall clock and CPU (this process and its
  forked workers);
* the reference: the same study with that road switched off (the kernel's full lean
  program, as before), the same shoes, the same tally bit for bit (checked);
* in this process, one block of 256 shoes: the pricing alone on each road (thread CPU
  per round of the block), the whole block on the new road, and the pricing of only the
  rounds the count bets (about 9%: what a study that skipped the figures read from every
  round's EV, the EV deciles and the EV by deck, would price), per round of the block.

Then the median (min-max) over the runs, the load average before and after each run, and
Jacobson's 100,000,000 shoes EXTRAPOLATED from the measured rates (rate x shoes: not run):
from the wall clock (this machine as loaded during the run) and from CPU / jobs (what an
otherwise idle machine with --jobs cores gives).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from unittest import mock

from exactodds.bets.catalogue import select_bets
from exactodds.rules import Rules
from exactodds.simulation import block as block_module
from exactodds.simulation import value_study
from exactodds.simulation.dealing import DealingProcedure, deal_block
from exactodds.simulation.evaluate import exact_expected_values
from exactodds.simulation.pruned_pricing import pruned_expected_values
from exactodds.simulation.run import Simulation, simulate
from exactodds.simulation.strategies import Count, parse_strategy

JACOBSON_SHOES = 100_000_000
TAGS = "count:0,0,0,-1,-1,-1,-1,2,2,0:4"


def study(shoes: int, seed: int) -> Simulation:
    rules = Rules()
    return Simulation.of(
        shoes=shoes,
        seed=seed,
        rules=rules,
        bets=select_bets("dragon7", rules),
        strategies={"dragon7": parse_strategy(TAGS)},
        procedure=DealingProcedure(decks=8, cut=14, burn="standard", cut_first_rounds=1),
    )


def _cpu_seconds() -> float:
    """CPU seconds of this process and of its finished children (the forked workers)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def _load() -> str:
    return ", ".join(f"{figure:.2f}" for figure in os.getloadavg())


@contextmanager
def former_road() -> Iterator[None]:
    """The pruned program switched off on both roads (the compiled value study and the numpy
    road): every round priced by the kernel's full lean program."""
    with (
        mock.patch.object(block_module, "pruned_expected_values", lambda *arguments: None),
        mock.patch.object(value_study, "pruned_program", lambda program, kept=None: program),
    ):
        value_study._plan.cache_clear()  # the plans cached hold the program they were made with
        try:
            yield
        finally:
            value_study._plan.cache_clear()


def timed_study(
    simulation: Simulation, jobs: int, road: Callable[[], AbstractContextManager[object]]
) -> tuple[float, float, dict[str, object]]:
    """(wall seconds, CPU seconds, the result's JSON outside ``run``) of one simulate call."""
    with road():
        cpu = _cpu_seconds()
        start = time.perf_counter()
        result = simulate(simulation, jobs=jobs)
        wall = time.perf_counter() - start
        cpu = _cpu_seconds() - cpu
    figures = result.to_dict()
    figures.pop("run", None)
    return wall, cpu, figures


def block_phases(simulation: Simulation) -> dict[str, float]:
    """Microseconds of thread CPU per round of one 256-shoe block: each road's pricing, and
    the whole block on the new road."""
    prepared = block_module.prepare(simulation.rules, simulation.bets)
    block = deal_block(simulation.procedure, simulation.rules.tableau, simulation.seed, 0, 256)
    ranks = block.rank_counts()
    count = parse_strategy(TAGS)
    assert isinstance(count, Count)
    bet = count.decide(None, None, block.known, simulation.procedure.decks)
    figures = {}
    for name, price in (
        (
            "pricing, pruned program",
            lambda: pruned_expected_values(prepared.analyzer, ranks, False),
        ),
        (
            "pricing, full lean program",
            lambda: exact_expected_values(prepared.analyzer, block.known, False, ranks),
        ),
        ("whole block, pruned", lambda: block_module.run_block(simulation, 0, 256)),
        (
            "pricing the rounds bet only",  # what a study without the all-round figures needs
            lambda: pruned_expected_values(prepared.analyzer, ranks[bet], False),
        ),
    ):
        start = time.thread_time()
        price()
        figures[name] = (time.thread_time() - start) / block.rounds * 1e6
    return figures


def _range(values: list[float], digits: int = 0) -> str:
    return (
        f"{statistics.median(values):,.{digits}f} "
        f"({min(values):,.{digits}f}-{max(values):,.{digits}f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--shoes", type=int, default=4096)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=38)
    parser.add_argument("--no-reference", action="store_true", help="time the new road only")
    arguments = parser.parse_args()
    shoes, jobs = arguments.shoes, arguments.jobs
    simulate(study(2 * jobs, arguments.seed), jobs=jobs)  # warm: programs built, imports cached
    rates: dict[str, list[float]] = {"this road": [], "former road": []}
    cpu_per_shoe: dict[str, list[float]] = {"this road": [], "former road": []}
    phases: dict[str, list[float]] = {}
    roads: dict[str, Callable[[], AbstractContextManager[object]]] = {
        "this road": nullcontext,
        "former road": former_road,
    }
    if arguments.no_reference:
        del roads["former road"]
    print(
        f"Jacobson's Dragon 7 count study, {shoes:,} shoes of seed {arguments.seed}, "
        f"{jobs} jobs, {arguments.runs} runs; {os.cpu_count()} CPUs"
    )
    for run in range(arguments.runs):
        before = _load()
        outputs = {}
        for name, road in roads.items():
            wall, cpu, outputs[name] = timed_study(study(shoes, arguments.seed), jobs, road)
            rates[name].append(shoes / wall)
            cpu_per_shoe[name].append(cpu / shoes * 1e3)
        for name, value in block_phases(study(256, arguments.seed + run)).items():
            phases.setdefault(name, []).append(value)
        same = len(set(map(repr, outputs.values()))) == 1
        print(
            f"  run {run + 1}: load average {before} before, {_load()} after; same result: {same}"
        )
    print("\n  median (min-max)                  shoes/s, wall     CPU ms/shoe (all jobs)")
    for name in roads:
        print(f"  {name:32}  {_range(rates[name]):>18}  {_range(cpu_per_shoe[name], 3):>22}")
    if "former road" in roads:
        ratios = [
            new / old for new, old in zip(rates["this road"], rates["former road"], strict=True)
        ]
        print(f"  this road / former road, wall rate: {_range(ratios, 2)}")
    print("\n  one 256-shoe block in this process, thread CPU per round (us), median (min-max)")
    for name, values in phases.items():
        print(f"    {name:30} {_range(values, 2)}")
    wall_hours = [JACOBSON_SHOES / rate / 3600 for rate in rates["this road"]]
    idle_hours = [JACOBSON_SHOES * ms / 1e3 / jobs / 3600 for ms in cpu_per_shoe["this road"]]
    print(
        f"\nEXTRAPOLATED (rate x shoes, not run): Jacobson's {JACOBSON_SHOES:,} shoes on "
        f"{jobs} jobs\n  at the wall-clock rate measured here (this load): "
        f"{_range(wall_hours, 1)} hours\n  at CPU / jobs (an otherwise idle machine): "
        f"{_range(idle_hours, 1)} hours"
    )


if __name__ == "__main__":
    main()
