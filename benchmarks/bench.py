"""Every speed figure of exactodds, each next to the simple reference walk measured in the same run.

    python benchmarks/bench.py [--runs N] [--shoes N] [--batch-lines N]

Figures (median, min and max over --runs runs unless stated):

1. one full analysis of one shoe, every standard bet, warm, in-process
   (``Analyzer.analyze`` plus every bet's exact EV), against ``analyze`` (the walk);
2. throughput: shoes per second through ``Analyzer.analyze_many`` with every
   standard bet's exact EV materialised, on random partial 8-deck suited shoes;
3. effect of removal for every bet over all 13 ranks (14 shoes);
4. ``exactodds odds`` as a whole process, wall clock;
5. ``exactodds batch`` on --batch-lines JSON lines: wall time and peak memory,
   against a tenth as many lines (memory must stay flat).
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
from exactodds.bets.catalogue import select_bets
from exactodds.cards import RANKS, SUITS
from exactodds.engine.walk import _enumerate_cached


def timings(action: Callable[[], object], runs: int) -> list[float]:
    """Wall-clock seconds of *runs* calls of *action*."""
    seconds = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        seconds.append(time.perf_counter() - start)
    return seconds


def summary(seconds: list[float], scale: float = 1e3, unit: str = "ms") -> str:
    return (
        f"median {statistics.median(seconds) * scale:.3f} {unit}, "
        f"min {min(seconds) * scale:.3f}, max {max(seconds) * scale:.3f}"
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


def every_expected_value(analyzer: Analyzer, shoes: list[Shoe]) -> int:
    priced = 0
    for result in analyzer.analyze_many(shoes):
        for bet in result.bets.values():
            bet.expected_value  # noqa: B018 - materialise the exact Fraction
            priced += 1
    return priced


def walk_every_expected_value(shoe: Shoe, bets: list[Bet]) -> int:
    """The reference: walk the shoe afresh (cache cleared) and price every bet."""
    _enumerate_cached.cache_clear()
    priced = 0
    for bet in analyze(shoe, Rules(), bets).bets.values():
        bet.expected_value  # noqa: B018
        priced += 1
    return priced


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--shoes", type=int, default=20_000)
    parser.add_argument("--batch-lines", type=int, default=100_000)
    arguments = parser.parse_args()
    runs = arguments.runs
    bets = select_bets("all")
    print(
        f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores; "
        f"{len(bets)} bets (main and side); {runs} runs per figure"
    )

    analyzer = Analyzer(Rules(), bets)
    shoe = Shoe.standard(decks=8).remove("AS KD 7H 7C TS")
    analyzer.analyze(shoe)  # warm: compiled polynomials and first call

    def fast_single() -> None:
        for bet in analyzer.analyze(shoe).bets.values():
            bet.expected_value  # noqa: B018

    fast = timings(fast_single, max(runs, 50))
    walk = timings(lambda: walk_every_expected_value(shoe, bets), runs)
    print(f"1. one shoe, every bet, warm:      {summary(fast)}")
    print(f"   reference walk:                  {summary(walk)}")
    print(
        f"   ratio walk/fast (medians):       {statistics.median(walk) / statistics.median(fast):.0f}x"
    )

    shoes = random_shoes(arguments.shoes, seed=1)
    every_expected_value(analyzer, shoes[:512])
    batch = timings(lambda: every_expected_value(analyzer, shoes), runs)
    per_second = [len(shoes) / seconds for seconds in batch]
    sample = shoes[:10]
    walk_batch = timings(lambda: [walk_every_expected_value(s, bets) for s in sample], 1)
    walk_rate = len(sample) / walk_batch[0]
    print(
        f"2. throughput, {len(shoes)} shoes, every bet's EV through bets[name].expected_value: median "
        f"{statistics.median(per_second):,.0f} shoes/s, min {min(per_second):,.0f}, "
        f"max {max(per_second):,.0f}"
    )
    fast_evs = timings(lambda: [r.expected_values() for r in analyzer.analyze_many(shoes)], runs)
    fast_rate = [len(shoes) / seconds for seconds in fast_evs]
    print(
        f"   every EV as a Fraction via Analysis.expected_values(): median "
        f"{statistics.median(fast_rate):,.0f} shoes/s, min {min(fast_rate):,.0f}, "
        f"max {max(fast_rate):,.0f}"
    )
    counts_only = timings(lambda: list(analyzer.analyze_many(shoes)), runs)
    counts_rate = [len(shoes) / seconds for seconds in counts_only]
    print(
        f"   exact analyses only (counts of every outcome of every bet, EVs on demand): median "
        f"{statistics.median(counts_rate):,.0f} shoes/s, min {min(counts_rate):,.0f}, "
        f"max {max(counts_rate):,.0f}"
    )
    print(f"   reference walk ({len(sample)} shoes):       {walk_rate:,.1f} shoes/s")
    print(f"   ratio fast/walk:                 {statistics.median(per_second) / walk_rate:,.0f}x")

    full = Shoe.standard(decks=8)
    removed = [full] + [full.remove(rank.symbol) for rank in RANKS]

    def removal() -> None:
        results = list(analyzer.analyze_many(removed))
        base = results[0].bets
        for result in results[1:]:
            for name, bet in result.bets.items():
                bet.expected_value - base[name].expected_value

    eor = timings(removal, max(runs, 20))
    walk_eor = timings(lambda: [walk_every_expected_value(s, bets) for s in removed], 1)
    print(f"3. effect of removal, 13 ranks, every bet: {summary(eor)}")
    print(f"   reference walk:                  {walk_eor[0] * 1e3:.0f} ms")

    command = [sys.executable, "-m", "exactodds", "odds"]
    process = timings(
        lambda: subprocess.run(command, check=True, capture_output=True), max(runs, 10)
    )
    print(f"4. exactodds odds, whole process:  {summary(process, 1, 's')}")

    with tempfile.TemporaryDirectory() as folder:
        for selection in ("all", "main"):
            for lines in (arguments.batch_lines // 10, arguments.batch_lines):
                path = Path(folder) / f"shoes-{lines}.jsonl"
                if not path.exists():
                    sample_shoes = random_shoes(min(lines, 2000), seed=2)
                    with path.open("w", encoding="utf-8") as handle:
                        for shoe in sample_shoes * (lines // len(sample_shoes)):
                            handle.write(json.dumps(shoe.as_dict()) + "\n")
                elapsed, peak = run_batch(path, selection)
                print(
                    f"5. exactodds batch --bets {selection}, {lines:,} lines: {elapsed:.1f} s "
                    f"({lines / elapsed:,.0f} lines/s), peak memory {peak / 1024:.0f} MiB"
                )


def run_batch(path: Path, selection: str) -> tuple[float, int]:
    """Wall seconds and peak resident memory (KiB) of one ``exactodds batch`` process."""
    code = (
        "import resource, subprocess, sys;"
        "subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL);"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    command = [sys.executable, "-m", "exactodds", "batch", "--bets", selection, str(path)]
    start = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-c", code, *command], check=True, capture_output=True, text=True
    )
    return time.perf_counter() - start, int(result.stdout.strip())


if __name__ == "__main__":
    main()
