"""Jacobson's Dragon 7 count study: its rate on this machine, and his 100,000,000 shoes
extrapolated from it.

    python benchmarks/bench_count_study.py --runs 3 --shoes 4096 --jobs 2

The study is Eliot Jacobson's ("Co-Card Counting the Dragon and Panda Side Bets in EZ
Baccarat", 888casino blog): tags 0,0,0,-1,-1,-1,-1,2,2,0 (A, 2, ..., 9, tens), bet Dragon 7
at true count >= 4, 8 decks, cut card 14 cards from the back, standard burn, one round when
the cut card is the first card of a round; every round's exact EV computed (the exact-EV
estimator, the EV deciles and the EV by deck read them all).

Each run times, interleaved (so a change in the machine's load falls on every road):

* ``simulate`` of --shoes shoes on --jobs worker processes, as the command line runs it
  (value bets priced by the kernel's program cut to the keys they read, in the compiled
  value study, :mod:`exactodds.simulation.value_study`, or on the numpy road,
  :mod:`exactodds.simulation.pruned_pricing`), wall clock and CPU (this process and its
  forked workers), on two roads: ``bet rounds`` (``pricing="bet-rounds"``, ``simulate
  --price bet-rounds``: only the rounds the count bets are priced, about 9% of them, and the
  figures that read every round's EV are left out) and ``every round`` (the default, the
  reference), every figure the first keeps equal to the second's (checked);
* with --former-road, also the default study with the pruned program switched off (the
  kernel's full lean program, as before), the same tally bit for bit (checked);
* in this process, one block of 256 shoes: the pricing alone on each road (thread CPU
  per round of the block), the whole block priced every round and priced bet-rounds, and the
  pricing of only the rounds the count bets, per round of the block.

Then the median (min-max) over the runs, the load average before and after each run, and
Jacobson's 100,000,000 shoes EXTRAPOLATED from each road's measured rates (rate x shoes: not run):
from the wall clock (this machine as loaded during the run) and from CPU / jobs (what an
otherwise idle machine with --jobs cores gives).
"""

from __future__ import annotations

import argparse
import dataclasses
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
#: The figures a bet-rounds study leaves out (null in its JSON, with a note).
LEFT_OUT = ("share_positive", "ev_deciles", "ev_by_deck", "left_out")


def study(shoes: int, seed: int, pricing: str = "every-round") -> Simulation:
    rules = Rules()
    return Simulation.of(
        shoes=shoes,
        seed=seed,
        rules=rules,
        bets=select_bets("dragon7", rules),
        strategies={"dragon7": parse_strategy(TAGS)},
        procedure=DealingProcedure(decks=8, cut=14, burn="standard", cut_first_rounds=1),
        pricing=pricing,
    )


def kept_figures(figures: dict[str, object]) -> str:
    """The result's JSON less what names the pricing and the figures bet-rounds leaves out."""
    kept = {key: value for key, value in figures.items() if key not in ("study", "pricing")}
    bets = figures["bets"]
    assert isinstance(bets, dict)
    kept["bets"] = {
        name: {key: value for key, value in bet.items() if key not in LEFT_OUT}
        for name, bet in bets.items()
    }
    return repr(kept)


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
    placed = dataclasses.replace(simulation, pricing="bet-rounds")
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
        ("whole block, every round", lambda: block_module.run_block(simulation, 0, 256)),
        ("whole block, bet rounds", lambda: block_module.run_block(placed, 0, 256)),
        (
            "pricing the rounds bet only",  # what the bet-rounds study prices
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
    parser.add_argument(
        "--former-road", action="store_true", help="also time the full lean program's road"
    )
    arguments = parser.parse_args()
    shoes, jobs = arguments.shoes, arguments.jobs
    simulate(study(2 * jobs, arguments.seed), jobs=jobs)  # warm: programs built, imports cached
    roads: dict[str, tuple[str, Callable[[], AbstractContextManager[object]]]] = {
        "bet rounds": ("bet-rounds", nullcontext),
        "every round": ("every-round", nullcontext),
    }
    if arguments.former_road:
        roads["former road"] = ("every-round", former_road)
    rates: dict[str, list[float]] = {name: [] for name in roads}
    cpu_per_shoe: dict[str, list[float]] = {name: [] for name in roads}
    phases: dict[str, list[float]] = {}
    print(
        f"Jacobson's Dragon 7 count study, {shoes:,} shoes of seed {arguments.seed}, "
        f"{jobs} jobs, {arguments.runs} runs; {os.cpu_count()} CPUs"
    )
    for run in range(arguments.runs):
        before = _load()
        outputs = {}
        for name, (pricing, road) in roads.items():
            simulation = study(shoes, arguments.seed, pricing)
            wall, cpu, figures = timed_study(simulation, jobs, road)
            outputs[name] = kept_figures(figures)
            rates[name].append(shoes / wall)
            cpu_per_shoe[name].append(cpu / shoes * 1e3)
        for name, value in block_phases(study(256, arguments.seed + run)).items():
            phases.setdefault(name, []).append(value)
        same = len(set(outputs.values())) == 1
        print(
            f"  run {run + 1}: load average {before} before, {_load()} after; every figure "
            f"kept the same: {same}"
        )
    print("\n  median (min-max)                  shoes/s, wall     CPU ms/shoe (all jobs)")
    for name in roads:
        print(f"  {name:32}  {_range(rates[name]):>18}  {_range(cpu_per_shoe[name], 3):>22}")
    for name in roads:
        if name != "bet rounds":
            ratios = [new / old for new, old in zip(rates["bet rounds"], rates[name], strict=True)]
            cpu_ratios = [
                old / new
                for new, old in zip(cpu_per_shoe["bet rounds"], cpu_per_shoe[name], strict=True)
            ]
            print(
                f"  bet rounds / {name}: wall rate {_range(ratios, 2)}x, "
                f"CPU a shoe {_range(cpu_ratios, 2)}x less"
            )
    print("\n  one 256-shoe block in this process, thread CPU per round (us), median (min-max)")
    for name, values in phases.items():
        print(f"    {name:30} {_range(values, 2)}")
    print(
        f"\nEXTRAPOLATED (rate x shoes, not run): Jacobson's {JACOBSON_SHOES:,} shoes on "
        f"{jobs} jobs, hours, median (min-max)"
    )
    for name in roads:
        wall_hours = [JACOBSON_SHOES / rate / 3600 for rate in rates[name]]
        idle_hours = [JACOBSON_SHOES * ms / 1e3 / jobs / 3600 for ms in cpu_per_shoe[name]]
        print(
            f"  {name}: at CPU / jobs (an otherwise idle machine) {_range(idle_hours, 1)}; "
            f"at the wall clock measured here (this load) {_range(wall_hours, 1)}"
        )


if __name__ == "__main__":
    main()
