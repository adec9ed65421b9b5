"""Time exact depth tables of every value-level bet, and compare with one kernel call per composition.

For each depth (default 18 and 26 cards left of 8 decks) it times ``depth_table`` over every
value-level bet of the catalogue (--runs runs, median, min and max) and prints the cost per
composition.  In the same run it times the compiled kernel (engine/kernel) pricing the same
bets one composition per call, and in batches of 4096 compositions per call, on a sample of
compositions, so the ratios compare like with like on the same machine and load.

    python benchmarks/bench_depth.py [--cards 18,26] [--runs 1] [--jobs 1] [--sample 2000]
                                     [--budget SECONDS] [--twin-budget SECONDS]

It also times, in one process and in CPU time, the compiled walk (engine/kernel/_depth.c) and
the numpy path it replaced (its twin, still the path without a compiler) on the same largest
pieces of work, --twin-budget CPU seconds each (default 5), and prints the ratio.

With --budget, a depth whose full run would take longer is timed on its largest pieces of work
(serially, until the budget is spent) and the full time is extrapolated from the compositions
done: an estimate, printed as one.

    python benchmarks/bench_depth.py --jacobson [--runs 3] [--budget 5] [--machines 10]

times, in one run and one process, the cost per composition of every value-level bet, of
dragon7 + panda8 and of the reference (the main bets alone) at 18 and 26 cards, and of dragon7 +
panda8 and the main bets at 34, 42 and 50 cards, each on its largest pieces of work until the
budget is spent, and prints the ESTIMATED total of Jacobson's five depths for dragon7 + panda8
on this machine with 2 jobs and on a Dask cluster of --machines such machines (the CPU time
divided by 2 jobs per machine: an estimate that assumes the pieces spread evenly, and that the
largest pieces cost per composition what the others do).
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import random
import statistics
import time
from fractions import Fraction

from exactodds import Rules, Shoe
from exactodds.advantage.compositions import solve_task, tasks
from exactodds.advantage.depth import (
    _key_pays,
    depth_table,
    partial_problem,
    partial_shoe,
    value_level_bets,
)
from exactodds.bets.bet import Bet
from exactodds.bets.catalogue import select_bets
from exactodds.engine.kernel.program import build_program, evaluate, native_module
from exactodds.engine.polynomial import compile_tableau


def _random_compositions(cards: int, sample: int, seed: int = 1) -> list[tuple[int, ...]]:
    """Rank counts of *sample* random *cards*-card subsets of 8 decks (value 0 on the tens)."""
    generator = random.Random(seed)
    deck = [rank for rank in range(13) for _ in range(32)]
    found = []
    for _ in range(sample):
        counts = [0] * 13
        for rank in generator.sample(deck, cards):
            counts[rank] += 1
        found.append(tuple(counts))
    return found


def kernel_seconds(bets: tuple[Bet, ...], cards: int, sample: int) -> tuple[float, float]:
    """Seconds per composition: one kernel call each, and in calls of 4096 compositions."""
    compiled = compile_tableau(Rules().tableau)
    pays, _ = _key_pays(bets, Rules())
    weights = [list(row) for row in zip(*pays, strict=True)] + [[0] * len(bets)] * 14
    program = build_program(compiled, weights)
    shoes = _random_compositions(cards, sample)
    start = time.perf_counter()
    for shoe in shoes:
        evaluate(program, [shoe], [None])
    single = (time.perf_counter() - start) / sample
    batch = _random_compositions(cards, 4096 * 4)
    start = time.perf_counter()
    for offset in range(0, len(batch), 4096):
        evaluate(program, batch[offset : offset + 4096], [None] * 4096)
    batched = (time.perf_counter() - start) / len(batch)
    return single, batched


def estimate(
    shoe: Shoe, bets: tuple[Bet, ...], cards: int, budget: float
) -> tuple[float, int, float]:
    """Seconds and compositions of the largest pieces run within *budget*; estimated total."""
    problem, _ = partial_problem(partial_shoe(shoe, cards), Rules(), bets, Fraction(0))
    done, start = 0, time.perf_counter()
    for piece in tasks(problem):
        done += solve_task(problem, piece)[2]
        if time.perf_counter() - start > budget:
            break
    seconds = time.perf_counter() - start
    return seconds, done, seconds * math.comb(cards + 9, 9) / done


#: Depth -> how many leading values a piece of work fixes, so that no piece is too big to time.
_PIECE_DEPTH = {18: 2, 26: 3, 34: 4, 42: 4, 50: 4}
_JACOBSON = (18, 26, 34, 42, 50)


def per_composition(
    shoe: Shoe, bets: tuple[Bet, ...], cards: int, budget: float, native: bool = True
) -> float:
    """CPU seconds per composition on the largest pieces of work run within *budget* CPU
    seconds (one process; CPU time, so that other work on a loaded machine does not count).
    *native* False times the numpy path (the compiled walk's twin) on the same pieces."""
    problem, _ = partial_problem(partial_shoe(shoe, cards), Rules(), bets, Fraction(0))
    done, start = 0, time.process_time()
    for piece in tasks(problem, _PIECE_DEPTH.get(cards, 2)):
        done += solve_task(problem, piece, native)[2]
        if time.process_time() - start > budget:
            break
    return (time.process_time() - start) / done


def jacobson(runs: int, budget: float, machines: int) -> None:
    """Per-composition costs of three bet sets, and the estimate of Jacobson's five depths."""
    shoe = Shoe.standard(decks=8)
    sets = {
        "every value bet": value_level_bets(select_bets("all"))[0],
        "dragon7+panda8": select_bets("dragon7,panda8"),
        "main (reference)": select_bets("main"),
    }
    costs: dict[tuple[str, int], list[float]] = {}
    for _ in range(runs):
        for cards in _JACOBSON:
            for name, bets in sets.items():
                if cards > 26 and name == "every value bet":
                    continue
                cost = per_composition(shoe, tuple(bets), cards, budget)
                costs.setdefault((name, cards), []).append(cost)
    for (name, cards), found in costs.items():
        median = statistics.median(found)
        reference = statistics.median(costs[("main (reference)", cards)])
        print(
            f"{cards} cards, {name}: median {median * 1e9:,.0f} ns of CPU per composition "
            f"(range {min(found) * 1e9:,.0f}-{max(found) * 1e9:,.0f} over {runs} runs; "
            f"{median / reference:.2f}x the main bets)"
        )
    seconds = sum(
        statistics.median(costs[("dragon7+panda8", cards)]) * math.comb(cards + 9, 9)
        for cards in _JACOBSON
    )
    print(
        f"ESTIMATE, Jacobson's five depths (18-50 cards, "
        f"{sum(math.comb(c + 9, 9) for c in _JACOBSON):,} compositions) for dragon7 + panda8: "
        f"{seconds / 3600:.1f} h of CPU; {seconds / 2 / 3600:.1f} h on this machine with 2 jobs; "
        f"{seconds / 2 / machines / 60:.1f} min on a Dask cluster of {machines} such machines; "
        f"load average now {os.getloadavg()[0]:.2f}"
    )


def _cpu() -> float:
    """CPU seconds of this process and of its finished children (the process pool's workers)."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", default="18,26")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--sample", type=int, default=2000)
    parser.add_argument("--budget", type=float, default=None)
    parser.add_argument("--jacobson", action="store_true")
    parser.add_argument("--machines", type=int, default=10)
    parser.add_argument("--twin-budget", type=float, default=5.0)
    arguments = parser.parse_args()
    bets, skipped = value_level_bets(select_bets("all"))
    shoe = Shoe.standard(decks=8)
    print(
        f"python {platform.python_version()} on {platform.machine()}, native kernel: "
        f"{native_module() is not None}, load average {os.getloadavg()[0]:.2f}, "
        f"{len(bets)} value-level bets (skipped {', '.join(skipped)}), jobs {arguments.jobs}"
    )
    if arguments.jacobson:
        jacobson(arguments.runs, arguments.budget or 5.0, arguments.machines)
        return
    for cards in (int(text) for text in arguments.cards.split(",")):
        compositions = math.comb(cards + 9, 9)
        if arguments.budget is not None and compositions > 10_000_000:
            spent, done, total = estimate(shoe, bets, cards, arguments.budget)
            single, batched = kernel_seconds(bets, cards, arguments.sample)
            per = spent / done
            print(
                f"{cards} cards left, {compositions:,} compositions: ESTIMATE {total:.0f} s "
                f"({total / 60:.1f} min) for all, from {done:,} compositions in {spent:.1f} s "
                f"(the largest pieces, one process); {per * 1e9:.0f} ns per composition"
            )
            print(
                f"  kernel, one call per composition: {single * 1e6:.1f} us ({single / per:.1f}x); "
                f"batched 4096 per call: {batched * 1e6:.2f} us ({batched / per:.2f}x); "
                f"load average now {os.getloadavg()[0]:.2f}"
            )
            continue
        seconds, cpu = [], []
        for _ in range(arguments.runs):
            start, before = time.perf_counter(), _cpu()
            table = depth_table(shoe, Rules(), bets, cards=(cards,), jobs=arguments.jobs)
            seconds.append(time.perf_counter() - start)
            cpu.append(_cpu() - before)
            assert table.rows[0].compositions == compositions
        single, batched = kernel_seconds(bets, cards, arguments.sample)
        median = statistics.median(seconds)
        per = median / compositions
        print(
            f"{cards} cards left, {compositions:,} compositions: median {median:.1f} s, "
            f"min {min(seconds):.1f} s, max {max(seconds):.1f} s over {arguments.runs} runs "
            f"(CPU, this process and its workers: median {statistics.median(cpu):.1f} s, "
            f"{min(cpu):.1f}-{max(cpu):.1f} s); {per * 1e9:.0f} ns per composition for all "
            f"{len(bets)} bets"
        )
        walk = per_composition(shoe, bets, cards, arguments.twin_budget)
        twin = per_composition(shoe, bets, cards, arguments.twin_budget, native=False)
        print(
            f"  largest pieces, one process, CPU per composition: compiled walk "
            f"{walk * 1e9:,.0f} ns, numpy path (the twin, the former path) {twin * 1e9:,.0f} ns "
            f"({twin / walk:.1f}x); load average now {os.getloadavg()[0]:.2f}"
        )
        print(
            f"  kernel, one call per composition: {single * 1e6:.1f} us "
            f"({single / per:.1f}x, {single * compositions / 60:.1f} min in all); "
            f"batched 4096 per call: {batched * 1e6:.2f} us ({batched / per:.2f}x); "
            f"load average now {os.getloadavg()[0]:.2f}"
        )


if __name__ == "__main__":
    main()
