"""The library's paths against the plain pipelines they compete with, in the same run.

    python benchmarks/bench_pipelines.py [--runs N] [--calls N] [--lines N] [--study-shoes N]
                                         [--only NAME]

The one-shoe path against the compiled batch pipeline of the same shoe, ``batch --full``
against ``batch``, and Jacobson's count study (timed, and its 100 million shoes estimated).
Each figure is a :class:`Figure`: a name, what it measures, what its reference is, and a
function that times both once (interleaved, so that a change in the machine's load falls
on both).  Every figure runs --runs times; the table gives the median and the range of the
figure, of its reference and of their ratio (figure / reference for times, so below 1.0 is
faster than the reference).  The machine's load (``uptime``) is printed before and after:
on a shared machine only the ratios compare across runs.  To add a row, append a Figure
to ``FIGURES``.

Figures:

* ``one-shoe``: ``Analyzer.analyze`` of a warm analyzer on one 8-deck shoe plus every one
  of the 27 bets' exact EVs read (a Fraction each), against two references on the same
  shoe: the plain C pipeline (the compiled kernel's batch codec on the shoe's JSON line:
  it parses, evaluates, reduces every EV and writes the batch line's text, all in C), and
  the kernel's evaluation alone (one call of the compiled evaluation on int64 buffers).
  Times are thread CPU time per call, the three calls interleaved one after the other
  --calls times per run (so a change of load falls on all three alike); each run gives
  the median of its calls, and the ratio of those medians.
* ``batch-full``: ``exactodds batch --bets all --full`` against ``exactodds batch --bets
  all`` on the same --lines random 8-deck shoes, whole processes, wall clock.
* ``jacobson``: Jacobson's Dragon 7 count study (tags 0,0,0,-1,-1,-1,-1,2,2,0, bet at true
  count >= 4, 8 decks, cut 14, standard burn, one round after the cut card) on
  --study-shoes shoes with ``simulate`` on 1 and 2 jobs, and from the rate, the estimated
  time of his 100,000,000 shoes on this machine and on a Dask cluster of such machines
  (an estimate: rate x shoes, assuming the blocks spread evenly and nothing else costs).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from array import array
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from exactodds import Rules, Shoe
from exactodds.analysis.many import Analyzer
from exactodds.bets.catalogue import select_bets
from exactodds.cli.batch_lines import batch_program
from exactodds.engine.kernel.program import native_module

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench import random_shoes  # the benchmarks' shared shoe maker

#: One timing: (label, figure, reference label, reference, unit), times in seconds.
Measure = tuple[str, float, str, float, str]


@dataclass(frozen=True)
class Figure:
    """A row group of the table: what it measures once per run."""

    name: str
    measure: Callable[[argparse.Namespace], list[Measure]]


def uptime() -> str:
    """The machine's load as ``uptime`` says it (load averages over 1, 5 and 15 minutes)."""
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        one, five, fifteen = os.getloadavg()
        return f"load average: {one:.2f}, {five:.2f}, {fifteen:.2f}"


def cpu_per_call(actions: list[Callable[[], object]], calls: int) -> list[float]:
    """The median thread CPU seconds of one call of each action, the actions interleaved.

    Each round calls every action once, in turn, *calls* rounds in all: a change in the
    machine's load during the run falls on every action alike.
    """
    seconds: list[list[int]] = [[] for _ in actions]
    clock = time.thread_time_ns
    for _ in range(calls):
        for action, spent in zip(actions, seconds, strict=True):
            start = clock()
            action()
            spent.append(clock() - start)
    return [statistics.median(spent) / 1e9 for spent in seconds]


def one_shoe(arguments: argparse.Namespace) -> list[Measure]:
    module = native_module()
    if module is None:
        raise SystemExit("the one-shoe figure needs the compiled kernel (build it first)")
    analyzer = _ANALYZER
    shoe = _SHOE
    lean = batch_program(analyzer)
    assert lean is not None and lean.native is not None
    line = json.dumps(shoe.to_dict())

    def every_expected_value() -> None:
        for bet in analyzer.analyze(shoe).bets.values():
            bet.expected_value  # noqa: B018 - materialise the exact Fraction

    program = analyzer._program  # the analyzer's own program: the evaluation analyze runs
    outputs = program.outputs
    buffers = (
        array("q", shoe.rank_counts),
        b"\x01",
        array("q", shoe.suit_counts or (0,) * 52),
        array("q", bytes(8 * outputs)),
        array("q", bytes(8 * outputs)),
        bytearray(1),
    )

    def evaluation_alone() -> None:
        module.evaluate(program.native, *buffers)

    def c_pipeline() -> None:
        module.batch(lean.native, [line], 10)

    fast, pipeline, alone = cpu_per_call(
        [every_expected_value, c_pipeline, evaluation_alone], arguments.calls
    )
    label = "one shoe, 27 bets, warm, thread CPU"
    return [
        (label, fast, "plain C pipeline (codec)", pipeline, "ms"),
        (label, fast, "kernel evaluation alone", alone, "ms"),
    ]


def batch_full(arguments: argparse.Namespace) -> list[Measure]:
    path = _batch_input(arguments.lines)
    full = _run_batch(path, ["--full"])
    plain = _run_batch(path, [])
    label = f"batch --full --bets all, {arguments.lines} shoes"
    return [(label, full, "batch --bets all, same shoes", plain, "s")]


def jacobson(arguments: argparse.Namespace) -> list[Measure]:
    from exactodds.simulation.dealing import DealingProcedure
    from exactodds.simulation.run import Simulation, simulate
    from exactodds.simulation.strategies import parse_strategy

    rules = Rules()

    def study(shoes: int) -> Simulation:
        return Simulation.of(
            shoes=shoes,
            seed=12,
            rules=rules,
            bets=select_bets("dragon7", rules),
            strategies={"dragon7": parse_strategy("count:0,0,0,-1,-1,-1,-1,2,2,0:4")},
            procedure=DealingProcedure(decks=8, cut=14, burn="standard", after_cut=1),
        )

    measures = []
    for jobs in (1, 2):
        simulate(study(2 * jobs), jobs=jobs)  # warm: programs built, workers' imports cached
        cpu_before = _cpu_seconds()
        start = time.perf_counter()
        result = simulate(study(arguments.study_shoes), jobs=jobs)
        wall = time.perf_counter() - start
        cpu = _cpu_seconds() - cpu_before
        shoes = arguments.study_shoes
        label = f"Dragon 7 count study, {jobs} job{'s' if jobs > 1 else ''}"
        measures.append((f"{label}, wall", wall / shoes, "", 0.0, "s/shoe"))
        # CPU seconds per shoe over the jobs: what the run takes on an otherwise idle machine.
        measures.append((f"{label}, CPU / jobs", cpu / shoes / jobs, "", 0.0, "s/shoe"))
        measures.append(
            (f"{label}, rounds/s (wall)", result.rounds_run / wall, "", 0.0, "rounds/s")
        )
    return measures


def _cpu_seconds() -> float:
    """CPU seconds of this process and of its finished children (the forked workers)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


FIGURES = [
    Figure("one-shoe", one_shoe),
    Figure("batch-full", batch_full),
    Figure("jacobson", jacobson),
]

_ANALYZER = Analyzer(Rules(), select_bets("all"))
_SHOE = Shoe.standard(decks=8).remove("AS KD 7H 7C TS")
_INPUTS: dict[int, Path] = {}
_FOLDER = tempfile.TemporaryDirectory()


def _batch_input(lines: int) -> Path:
    if lines not in _INPUTS:
        path = Path(_FOLDER.name) / f"shoes-{lines}.jsonl"
        path.write_text(
            "".join(json.dumps(shoe.to_dict()) + "\n" for shoe in random_shoes(lines, 3))
        )
        _INPUTS[lines] = path
    return _INPUTS[lines]


def _run_batch(path: Path, options: list[str]) -> float:
    command = [sys.executable, "-m", "exactodds", "batch", "--bets", "all", *options, str(path)]
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def _range(values: list[float], scale: float, digits: int) -> str:
    return (
        f"{statistics.median(values) * scale:,.{digits}f} "
        f"({min(values) * scale:,.{digits}f}-{max(values) * scale:,.{digits}f})"
    )


def report(results: dict[tuple[str, str], list[Measure]]) -> None:
    print("| path | figure | reference | reference figure | ratio |")
    print("| --- | --- | --- | --- | --- |")
    for (label, reference), measures in results.items():
        unit = measures[0][4]
        scale, digits, shown = {"ms": (1e3, 3, "ms"), "s": (1.0, 3, "s")}.get(
            unit, (1.0, 4 if unit == "s/shoe" else 0, unit)
        )
        figures = [measure[1] for measure in measures]
        if not reference:
            print(f"| {label} | {_range(figures, scale, digits)} {shown} | | | |")
            continue
        references = [measure[3] for measure in measures]
        ratios = [figure / base for figure, base in zip(figures, references, strict=True)]
        print(
            f"| {label} | {_range(figures, scale, digits)} {shown} | {reference} | "
            f"{_range(references, scale, digits)} {shown} | {_range(ratios, 1, 2)}x |"
        )


def jacobson_estimate(results: dict[tuple[str, str], list[Measure]], machines: list[int]) -> None:
    shoes = 100_000_000
    print(f"\nEstimate (extrapolated from the measured rate, not run): Jacobson's {shoes:,}-shoe")
    print("Dragon 7 count study; 'CPU / jobs' is the rate of an otherwise idle machine")
    for (label, _), measures in results.items():
        if not label.startswith("Dragon 7 count study") or measures[0][4] != "s/shoe":
            continue
        per_shoe = [measure[1] for measure in measures]
        hours = [shoes * seconds / 3600 for seconds in per_shoe]
        which = label[len("Dragon 7 count study, ") :]
        print(f"  this machine, {which}: {_range(hours, 1, 1)} hours")
        if "2 jobs" in label:
            for count in machines:
                minutes = [shoes * seconds / count / 60 for seconds in per_shoe]
                print(
                    f"    Dask cluster of {count} such machines (2 workers each), {which}: "
                    f"{_range(minutes, 1, 1)} minutes"
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--calls", type=int, default=1000, help="one-shoe calls per run")
    parser.add_argument("--lines", type=int, default=200)
    parser.add_argument("--study-shoes", type=int, default=512)
    parser.add_argument("--only", choices=[figure.name for figure in FIGURES], action="append")
    arguments = parser.parse_args()
    chosen = [figure for figure in FIGURES if not arguments.only or figure.name in arguments.only]
    print(
        f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores; "
        f"compiled kernel: {'yes' if native_module() is not None else 'no'}; {arguments.runs} runs"
    )
    print(f"before: {uptime()}")
    _ANALYZER.analyze(_SHOE)  # warm
    results: dict[tuple[str, str], list[Measure]] = {}
    loads = []
    for _ in range(arguments.runs):
        loads.append(os.getloadavg()[0])
        for figure in chosen:
            for measure in figure.measure(arguments):
                results.setdefault((measure[0], measure[2]), []).append(measure)
    print(f"after:  {uptime()}")
    print(f"1-minute load average at the start of each run: {_range(loads, 1, 1)}\n")
    report(results)
    if any(label.startswith("Dragon 7 count study") for label, _ in results):
        jacobson_estimate(results, [10, 100])


if __name__ == "__main__":
    main()
