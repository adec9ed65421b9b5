"""Every speed figure of issue 9, each next to the simple reference walk measured in the same run.

    python benchmarks/bench.py [--runs N] [--shoes N] [--batch-lines N] [--jobs N]

Figures (median, min and max over --runs runs unless stated; wall clock, and for
in-process figures also the CPU time of the measuring thread, which a busy machine
disturbs less):

1. one shoe, every standard bet (27), warm: ``Analyzer.analyze`` plus every bet's
   exact EV as a Fraction (floor 0.15 ms), against ``analyze`` (the walk);
2. many shoes in process, exact counts and EVs of every bet (floor 40,000 shoes/s on
   2 cores): ``Analyzer.expected_value_table`` (integer arrays) on --jobs threads, and
   ``Analyzer.analyze_many`` with every EV read through ``expected_values()``;
3. effect of removal over 13 ranks, every bet, 8 decks with suits (floor 2 ms);
4. ``exactodds odds`` as a whole process (floor 0.25 s; the ``startup`` work);
5. ``exactodds batch --bets all`` on --batch-lines per-rank lines as a whole process
   (floor 30,000 lines/s), with --jobs 1 and 2, and ``--full``; peak memory;
   the walk's rate on the same kind of shoe is the reference.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from exactodds import Bet, Rules, Shoe, analyze
from exactodds.analysis.many import Analyzer
from exactodds.analysis.removal import effect_of_removal
from exactodds.bets.catalogue import select_bets
from exactodds.cards import RANKS, SUITS
from exactodds.engine.kernel.program import native_module
from exactodds.engine.walk import _enumerate_cached


def timings(action: Callable[[], object], runs: int) -> tuple[list[float], list[float]]:
    """Wall-clock and thread-CPU seconds of *runs* calls of *action*."""
    wall, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.thread_time()
        action()
        cpu.append(time.thread_time() - start_cpu)
        wall.append(time.perf_counter() - start)
    return wall, cpu


def summary(seconds: list[float], scale: float = 1e3, unit: str = "ms", digits: int = 3) -> str:
    return (
        f"median {statistics.median(seconds) * scale:.{digits}f} {unit} "
        f"(min {min(seconds) * scale:.{digits}f}, max {max(seconds) * scale:.{digits}f})"
    )


def rate(count: int, seconds: list[float], unit: str) -> str:
    rates = [count / value for value in seconds]
    return (
        f"median {statistics.median(rates):,.0f} {unit}/s "
        f"(min {min(rates):,.0f}, max {max(rates):,.0f})"
    )


def random_shoes(count: int, seed: int) -> list[Shoe]:
    """Partial 8-deck shoes with suits known: 0 to 300 random cards already dealt."""
    generator = random.Random(seed)
    cards = [rank.symbol + suit.symbol for rank in RANKS for suit in SUITS for _ in range(8)]
    shoes = []
    for _ in range(count):
        generator.shuffle(cards)
        shoes.append(Shoe.standard(decks=8).remove(cards[: generator.randint(0, 300)]))
    return shoes


def walk_every_expected_value(shoe: Shoe, bets: list[Bet]) -> int:
    """The reference: walk the shoe afresh (cache cleared) and price every bet."""
    _enumerate_cached.cache_clear()
    priced = 0
    for bet in analyze(shoe, Rules(), bets).bets.values():
        bet.expected_value  # noqa: B018 - materialise the exact Fraction
        priced += 1
    return priced


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--shoes", type=int, default=20_000)
    parser.add_argument("--batch-lines", type=int, default=20_000)
    parser.add_argument("--jobs", type=int, default=2)
    arguments = parser.parse_args()
    runs, jobs = arguments.runs, arguments.jobs
    bets = select_bets("all")
    print(
        f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores; "
        f"{len(bets)} bets; {runs} runs per figure; compiled kernel: "
        f"{'yes' if native_module() is not None else 'no (pure-Python twin)'}; "
        f"load average {os.getloadavg()[0]:.1f}"
    )

    analyzer = Analyzer(Rules(), bets)
    shoe = Shoe.standard(decks=8).remove("AS KD 7H 7C TS")
    analyzer.analyze(shoe)  # warm

    def one_shoe() -> None:
        for bet in analyzer.analyze(shoe).bets.values():
            bet.expected_value  # noqa: B018

    fast, fast_cpu = timings(one_shoe, max(runs, 200))
    walk, _ = timings(lambda: walk_every_expected_value(shoe, bets), runs)
    print(f"1. one shoe, 27 bets, every EV, warm: wall {summary(fast)}; cpu {summary(fast_cpu)}")
    print(f"   reference walk:                     wall {summary(walk)}")

    shoes = random_shoes(arguments.shoes, seed=1)
    ranks = [s.rank_counts for s in shoes]
    suits = [s.suit_counts for s in shoes]
    analyzer.expected_value_table(ranks[:256], suits[:256])
    table, _ = timings(lambda: analyzer.expected_value_table(ranks, suits, jobs=jobs), runs)
    print(
        f"2. {len(shoes):,} shoes, exact counts and EV numerators of every bet as integer "
        f"arrays, {jobs} threads: {rate(len(shoes), table, 'shoes')}"
    )
    one_thread, _ = timings(lambda: analyzer.expected_value_table(ranks, suits, jobs=1), runs)
    print(f"   the same on 1 thread:               {rate(len(shoes), one_thread, 'shoes')}")
    objects, _ = timings(
        lambda: [r.expected_values() for r in analyzer.analyze_many(shoes)], max(1, runs // 2)
    )
    print(
        f"   Analysis objects, every EV a Fraction (analyze_many + expected_values()): "
        f"{rate(len(shoes), objects, 'shoes')}"
    )
    sample = shoes[:5]
    walk_many, _ = timings(lambda: [walk_every_expected_value(s, bets) for s in sample], 1)
    print(f"   reference walk:                     {len(sample) / walk_many[0]:,.1f} shoes/s")

    full = Shoe.standard(decks=8)
    effect_of_removal(full, Rules(), bets)
    eor, eor_cpu = timings(lambda: effect_of_removal(full, Rules(), bets), max(runs, 50))
    removed = [full] + [full.remove(rank.symbol) for rank in RANKS]
    walk_eor, _ = timings(lambda: [walk_every_expected_value(s, bets) for s in removed], 1)
    print(
        f"3. effect of removal, 13 ranks, 27 bets, 8 decks suited: wall {summary(eor)}; "
        f"cpu {summary(eor_cpu)}"
    )
    print(f"   reference walk (14 shoes):          {walk_eor[0] * 1e3:,.0f} ms")

    command = [sys.executable, "-m", "exactodds", "odds"]
    process, _ = timings(
        lambda: subprocess.run(command, check=True, capture_output=True), max(runs, 10)
    )
    print(f"4. exactodds odds, whole process:      wall {summary(process, 1, 's')}")

    with tempfile.TemporaryDirectory() as folder:
        lines = arguments.batch_lines
        path = Path(folder) / "shoes.jsonl"
        sample_shoes = random_shoes(min(lines, 2000), seed=2)
        with path.open("w", encoding="utf-8") as handle:
            for index in range(lines):
                handle.write(json.dumps(sample_shoes[index % len(sample_shoes)].to_dict()) + "\n")
        for options in (["--jobs", "1"], ["--jobs", str(jobs)]):
            results = [run_batch(path, options) for _ in range(runs)]
            peak = max(result[1] for result in results)
            print(
                f"5. exactodds batch --bets all {' '.join(options)}, {lines:,} lines: "
                f"{rate(lines, [result[0] for result in results], 'lines')}, "
                f"peak {peak / 1024:.0f} MiB; CPU {summary([r[2] for r in results], 1, 's')}"
            )
        full_lines = max(200, lines // 50)
        full_path = Path(folder) / "full.jsonl"
        full_path.write_text("".join(path.read_text().splitlines(keepends=True)[:full_lines]))
        results = [run_batch(full_path, ["--full", "--jobs", str(jobs)]) for _ in range(3)]
        print(
            f"   exactodds batch --bets all --full, {full_lines:,} lines: "
            f"{rate(full_lines, [result[0] for result in results], 'lines')}"
        )
        rank_only = [s.without_suits() for s in sample_shoes[:3]]
        walk_batch, _ = timings(lambda: [walk_every_expected_value(s, bets) for s in rank_only], 1)
        print(f"   reference walk, same shoes:         {3 / walk_batch[0]:,.1f} lines/s")


def run_batch(path: Path, options: list[str]) -> tuple[float, int, float]:
    """Wall seconds, peak resident memory (KiB) and CPU seconds of one ``exactodds batch``."""
    code = (
        "import resource, subprocess, sys;"
        "subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL);"
        "usage = resource.getrusage(resource.RUSAGE_CHILDREN);"
        "print(usage.ru_maxrss, usage.ru_utime + usage.ru_stime)"
    )
    command = [sys.executable, "-m", "exactodds", "batch", "--bets", "all", *options, str(path)]
    start = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-c", code, *command], check=True, capture_output=True, text=True
    )
    peak, cpu = result.stdout.split()
    return time.perf_counter() - start, int(peak), float(cpu)


if __name__ == "__main__":
    main()
