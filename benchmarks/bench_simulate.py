"""Simulation speed: exact rounds per second, dealt, evaluated, decided and tallied.

Measures :func:`exactodds.simulation.run.simulate` with perfect play (every round's
exact EV computed) for three bet sets, on 1 and 2 worker processes, and, as the
reference in the same run, the batch evaluation alone
(:func:`~exactodds.simulation.evaluate.exact_expected_values` on the same rounds'
compositions), which bounds what the rest of the simulation may cost.

    python benchmarks/bench_simulate.py --runs 5 --shoes 64

The issue's floor: 30,000 exact rounds per second on this 2-core machine for
perfect play on every standard bet at once.

Then the cost of the risk figures (issue 18: at most 10% of the rounds per second):
the time of the stakes and the risk sums (:func:`~exactodds.simulation.staking.sizing.sized`,
:func:`~exactodds.simulation.block.risk_tally` and the bankroll paths'
:func:`~exactodds.simulation.risk.paths.block_path_tally`) as a share of the whole block
(:func:`~exactodds.simulation.block.run_block`), on the same block; and the pair
bets' closed form (:mod:`exactodds.simulation.pairs`) against the kernel's evaluation
of the same compositions (the floor: 1,000,000 rounds per second per job).

Last, a whole pairs-only study (issue 18 item 6: ``exactodds simulate --bets
player_pair,banker_pair --jobs 1``, perfect play, 8 decks; the floor: 1,000,000 rounds
per second per job), in rounds per CPU second, interleaved in each run with a plain C
loop (``plain_pairs_loop.c``, built here with the system ``cc``: shuffle, burn, deal to
the cut, price both pairs from the rank counts; issue 27's target: the study at least
0.25x its rounds per second) and with the same study on the numpy road (the kernel's pair
study switched off); then where a block's time goes.  Issue 27's target for the first
table: simulate on one job at least 0.9x the evaluation alone.

    python benchmarks/bench_simulate.py --runs 7 --pairs-only --pair-shoes 1024

``--command-line``: ``python -m exactodds simulate --jobs 1`` as a person runs it (a new
process: start-up, the study, the table printed), for every standard bet and for Dragon 7 +
Panda 8, under perfect play and under Jacobson's Dragon 7 count, interleaved in each run with
the lean evaluation of the same rounds (the same shoes dealt, every round's exact EV
numerators by :func:`~exactodds.simulation.evaluate.exact_expected_values` in blocks of 64
shoes, in this process); the command's CPU time is its process's (``RUSAGE_CHILDREN``),
the reference's this process's.  Also the command's steady rate: its CPU time less that of
the same command over one shoe (start-up and the table), per round.  Issue 38's target:
the command at least 0.9x the lean evaluation.

    python benchmarks/bench_simulate.py --runs 3 --command-line --cli-shoes 1500

``--grid``: the cost of a risk grid (issue 25: at most 10% of the rounds per second): the
pairs-only study's blocks (the fastest rounds, so the tally's share is the largest) run with
one bankroll and trip length and, alternately in the same run, with a grid of 10 bankrolls x
10 trip lengths (every trip length tallied in the same pass), in CPU time.

    python benchmarks/bench_simulate.py --runs 7 --grid --pair-shoes 1024
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from unittest import mock

from exactodds.analysis.many import Analyzer
from exactodds.bets.catalogue import select_bets
from exactodds.rules import Rules
from exactodds.simulation import block as block_module
from exactodds.simulation.block import prepare, risk_tally, run_block
from exactodds.simulation.dealing import DealingProcedure, deal_block, shuffled_shoes
from exactodds.simulation.evaluate import exact_expected_values
from exactodds.simulation.pair_study import pair_block_tally
from exactodds.simulation.pairs import pair_expected_values
from exactodds.simulation.risk.paths import block_path_tally
from exactodds.simulation.run import (
    CLOSED_FORM_BLOCK_SHOES,
    NUMPY_CLOSED_FORM_BLOCK_SHOES,
    Simulation,
    simulate,
)
from exactodds.simulation.staking.sizing import sized

#: The blocks the pairs-only study deals (its bets have the pair closed form): compiled, and
#: on the numpy road.
SIZE = CLOSED_FORM_BLOCK_SHOES
SIZE_NUMPY = NUMPY_CLOSED_FORM_BLOCK_SHOES

BET_SETS = {
    "all 27 bets": "all",
    "dragon7,panda8": "dragon7,panda8",
    "player_pair,banker_pair": "player_pair,banker_pair",
}


def _load() -> str:
    return ", ".join(f"{figure:.2f}" for figure in os.getloadavg())


def _plain_c_loop(shoes: int) -> float | None:
    """Rounds per CPU second of ``plain_pairs_loop.c`` over *shoes* shoes (None: no cc)."""
    compiler = shutil.which("cc")
    if compiler is None:
        return None
    source = Path(__file__).resolve().parent / "plain_pairs_loop.c"
    with tempfile.TemporaryDirectory() as folder:
        program = Path(folder) / "plain_pairs_loop"
        subprocess.run([compiler, "-O3", "-o", str(program), str(source)], check=True)
        rounds, _, seconds, *_ = subprocess.run(
            [str(program), str(shoes)], check=True, capture_output=True, text=True
        ).stdout.split()
    return int(rounds) / float(seconds)


def _summary(rates: list[float]) -> str:
    return f"{statistics.median(rates):>9,.0f} ({min(rates):,.0f}-{max(rates):,.0f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--shoes", type=int, default=64)
    parser.add_argument("--pair-shoes", type=int, default=1024)
    parser.add_argument("--pairs-only", action="store_true", help="only the pairs-only study")
    parser.add_argument("--grid", action="store_true", help="only the cost of a risk grid")
    parser.add_argument(
        "--command-line", action="store_true", help="only simulate from the command line"
    )
    parser.add_argument("--cli-shoes", type=int, default=1500)
    arguments = parser.parse_args()
    rules = Rules()
    if arguments.command_line:
        _command_line(rules, arguments.runs, arguments.cli_shoes)
        return
    if arguments.grid:
        _grid_cost(rules, arguments.runs, arguments.pair_shoes)
        return
    if arguments.pairs_only:
        _pairs_study(rules, arguments.runs, arguments.pair_shoes)
        return
    print(
        f"{arguments.shoes} 8-deck shoes per run, {arguments.runs} runs; rounds/s median (min-max)"
        f"; load average {_load()}"
    )
    print(
        f"{'bets':26} {'evaluation only':>26} {'simulate, 1 job':>26} {'simulate, 2 jobs':>26}"
        f" {'1 job / evaluation (CPU)':>24}"
    )
    for label, selection in BET_SETS.items():
        bets = select_bets(selection, rules)
        simulation = Simulation.of(arguments.shoes, 1, rules, bets)
        simulate(Simulation.of(2, 99, rules, bets))  # compile and warm up once
        analyzer = Analyzer(rules, bets)
        block = deal_block(DealingProcedure(), rules.tableau, 1, 0, arguments.shoes)
        suited = any(bet.needs_suits for bet in bets)
        exact_expected_values(analyzer, block.known[:64], suited)
        reference: list[float] = []
        one: list[float] = []
        two: list[float] = []
        ratios: list[float] = []  # in CPU time: a busy machine shares the cores unevenly
        for _ in range(arguments.runs):
            started, cpu = time.perf_counter(), time.process_time()
            exact_expected_values(analyzer, block.known, suited)
            reference.append(block.rounds / (time.perf_counter() - started))
            alone = block.rounds / (time.process_time() - cpu)
            for jobs, rates in ((1, one), (2, two)):
                started, cpu = time.perf_counter(), time.process_time()
                result = simulate(simulation, jobs=jobs)
                rates.append(result.tally.rounds / (time.perf_counter() - started))
                if jobs == 1:
                    ratios.append(result.tally.rounds / (time.process_time() - cpu) / alone)
        print(
            f"{label:26} {_summary(reference):>26} {_summary(one):>26} {_summary(two):>26} "
            f"{statistics.median(ratios):>11.2f} ({min(ratios):.2f}-{max(ratios):.2f})"
        )
    _risk_share(rules, arguments.runs, arguments.shoes)
    _pairs(rules, arguments.runs, arguments.shoes)
    _pairs_study(rules, arguments.runs, arguments.pair_shoes)


#: Jacobson's Dragon 7 count (docs/simulation.md), played on every bet of the study.
JACOBSON = "count:0,0,0,-1,-1,-1,-1,2,2,0:4"


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _command(selection: str, play: str, shoes: int) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of ``simulate`` over *shoes* shoes in a new process."""
    root = Path(__file__).resolve().parent.parent
    environment = dict(os.environ, PYTHONPATH=str(root))
    environment.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed package has its bytecode
    command = [sys.executable, "-m", "exactodds", "simulate", "--bets", selection, "--jobs",
               "1", "--shoes", str(shoes), "--seed", "1", "--play", play, "--quiet"]  # fmt: skip
    cpu, started = _children_cpu(), time.perf_counter()
    subprocess.run(command, check=True, env=environment, stdout=subprocess.DEVNULL)
    return _children_cpu() - cpu, time.perf_counter() - started


def _lean(analyzer: Analyzer, blocks: list[Any], suited: bool) -> float:
    """CPU seconds of the lean evaluation of every round of *blocks*."""
    cpu = time.process_time()
    for block in blocks:
        exact_expected_values(analyzer, block.known, suited, block.rank_counts())
    return time.process_time() - cpu


def _command_line(rules: Rules, runs: int, shoes: int) -> None:
    """simulate from the command line against the lean evaluation of the same rounds."""
    root = Path(__file__).resolve().parent.parent
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(root / "exactodds")], check=True)
    print(
        f"simulate --jobs 1 --shoes {shoes} --seed 1 from the command line against the lean "
        f"evaluation of the same rounds, {runs} runs interleaved; load average before "
        f"{_load()}; rounds per CPU second, median (min-max)"
    )
    for label, selection in (("all 27 bets", "all"), ("dragon7,panda8", "dragon7,panda8")):
        bets = select_bets(selection, rules)
        analyzer = Analyzer(rules, bets)
        suited = any(bet.needs_suits for bet in bets)
        procedure = DealingProcedure()
        blocks = [
            deal_block(procedure, rules.tableau, 1, first, min(64, shoes - first))
            for first in range(0, shoes, 64)
        ]
        rounds = sum(block.rounds for block in blocks)
        exact_expected_values(analyzer, blocks[0].known[:64], suited)  # build the program
        for play in ("perfect", JACOBSON):
            _command(selection, play, 1)  # warm the file cache
            lean: list[float] = []
            whole: list[float] = []
            steady: list[float] = []
            walls: list[float] = []
            for _ in range(runs):
                reference = rounds / _lean(analyzer, blocks, suited)
                cpu, wall = _command(selection, play, shoes)
                start, _ = _command(selection, play, 1)
                lean.append(reference)
                whole.append(rounds / cpu / reference)
                steady.append(rounds / max(cpu - start, 1e-9) / reference)
                walls.append(rounds / wall)
            name = "perfect" if play == "perfect" else "Jacobson's count"
            print(
                f"  {label}, {name}: {rounds:,} rounds; lean {_summary(lean)}; the command "
                f"{_ratio(whole)}x of it (wall {_summary(walls)} rounds/s); after start-up "
                f"{_ratio(steady)}x"
            )
    print(f"  load average after {_load()}")


def _grid_cost(rules: Rules, runs: int, shoes: int) -> None:
    """Rounds per CPU second of the same blocks without and with a 10 x 10 risk grid."""
    from exactodds.specs import sizing_from_options

    bets = select_bets("player_pair,banker_pair", rules)
    procedure = DealingProcedure()
    grid = {
        "bankroll": ",".join(str(100 * step) for step in range(1, 11)),
        "trip_rounds": ",".join(str(400 * step) for step in range(1, 11)),
    }
    studies = {
        label: Simulation.of(
            shoes, 1, rules, bets, procedure=procedure, **sizing_from_options(procedure, **options)
        )
        for label, options in (("one", {"bankroll": "100", "trip_rounds": 400}), ("grid", grid))
    }
    run_block(studies["grid"], 0, 8)  # warm up
    rates: dict[str, list[float]] = {"one": [], "grid": []}
    block = CLOSED_FORM_BLOCK_SHOES
    for _ in range(runs):
        for label, study in studies.items():
            cpu, rounds = time.process_time(), 0
            for first in range(0, shoes, block):
                rounds += run_block(study, first, min(block, shoes - first)).tally.rounds
            rates[label].append(rounds / (time.process_time() - cpu))
    ratios = [grid / one for one, grid in zip(rates["one"], rates["grid"], strict=True)]
    print(
        f"risk grid, pairs-only blocks, {shoes} shoes x {runs} runs, rounds per CPU second "
        f"median (min-max); load average {_load()}"
    )
    print(f"  one bankroll and trip length: {_summary(rates['one'])}")
    print(f"  10 bankrolls x 10 trip lengths: {_summary(rates['grid'])}")
    print(f"  grid / one: {statistics.median(ratios):.3f} ({min(ratios):.3f}-{max(ratios):.3f})")


def _risk_share(rules: Rules, runs: int, shoes: int) -> None:
    print(f"\nrisk figures' share of a block of {shoes} shoes, median (min-max) of {runs} runs")
    for label, selection in BET_SETS.items():
        bets = select_bets(selection, rules)
        simulation = Simulation.of(shoes, 1, rules, bets)
        block = deal_block(simulation.procedure, rules.tableau, 1, 0, shoes)
        prepared = prepare(rules, simulation.bets)
        values = exact_expected_values(prepared.analyzer, block.known, simulation.suited)
        pays = prepared.pays.lookup(block.summary)
        fixed = (values.floats() * 2**40).round().astype("int64")
        decisions = [values.numerators[:, column] > 0 for column in range(len(bets))]
        denominators = [bet.integer_pays()[1] for bet in simulation.bets]
        shares = []
        for _ in range(runs):
            started = time.perf_counter()
            run_block(simulation, 0, shoes)
            whole = time.perf_counter() - started
            started = time.perf_counter()
            done = sized(simulation, simulation.bets, block, values, decisions, pays)
            risk_tally(simulation, 0, done, fixed, block.rounds_per_shoe.tolist())
            block_path_tally(denominators, 1, 1, 0, done.results, block.rounds_per_shoe.tolist())
            shares.append(100 * (time.perf_counter() - started) / whole)
        exact = Simulation.of(shoes, 1, rules, bets, exact_moments=True)
        run_block(exact, 0, 2)  # compile the squared pays' program once
        ratios = []
        for _ in range(runs):
            started = time.perf_counter()
            run_block(simulation, 0, shoes)
            plain = time.perf_counter() - started
            started = time.perf_counter()
            run_block(exact, 0, shoes)
            ratios.append(plain / (time.perf_counter() - started))
        print(
            f"{label:26} {statistics.median(shares):6.1f}% "
            f"({min(shares):.1f}-{max(shares):.1f}%) of the block's time; with --exact-moments "
            f"{statistics.median(ratios):.2f}x the rounds/s ({min(ratios):.2f}-{max(ratios):.2f})"
        )


def _pairs(rules: Rules, runs: int, shoes: int) -> None:
    bets = select_bets("player_pair,banker_pair", rules)
    analyzer = Analyzer(rules, bets)
    block = deal_block(DealingProcedure(), rules.tableau, 1, 0, shoes)
    table = analyzer.expected_value_table  # the kernel's road, as before the closed form
    ranks = block.known.reshape(-1, 13, 4).sum(axis=2).tolist()
    kernel: list[float] = []
    closed: list[float] = []
    for _ in range(runs):
        started = time.perf_counter()
        table(ranks, outcomes=False)
        kernel.append(block.rounds / (time.perf_counter() - started))
        started = time.perf_counter()
        pair_expected_values(bets, block.known)
        closed.append(block.rounds / (time.perf_counter() - started))
    ratio = statistics.median(closed) / statistics.median(kernel)
    print(
        f"\npairs, evaluation only: kernel {_summary(kernel)}, closed form {_summary(closed)} "
        f"rounds/s ({ratio:.1f}x)"
    )


def _pairs_study(rules: Rules, runs: int, shoes: int) -> None:
    """The pairs-only study against a plain C loop and against its numpy road, interleaved.

    Per run, in this order: the study as it runs (the kernel's pair study, blocks of
    CLOSED_FORM_BLOCK_SHOES), the plain C loop (its own CPU clock), and the same study on
    the numpy road (``pair_block_tally`` switched off: the dealt rounds tallied with numpy,
    in blocks of NUMPY_CLOSED_FORM_BLOCK_SHOES).  The study's rates are rounds per second
    of this thread's CPU time (one job: every block runs on this thread), so that other
    processes on a shared machine slow the figures but not their ratios much.
    """
    bets = select_bets("player_pair,banker_pair", rules)
    simulation = Simulation.of(shoes, 1, rules, bets)
    simulate(Simulation.of(2, 99, rules, bets))  # build the tables and warm up once
    compiled = simulate(simulation, jobs=1).tally
    with mock.patch.object(block_module, "pair_block_tally", lambda *arguments: None):
        assert simulate(simulation, block_shoes=SIZE_NUMPY).tally == compiled  # bit for bit
    load_before = _load()
    now: list[float] = []
    numpy_road: list[float] = []
    plain: list[float] = []
    for _ in range(runs):
        cpu = time.thread_time()
        rounds = simulate(simulation, jobs=1).tally.rounds
        now.append(rounds / (time.thread_time() - cpu))
        plain_rate = _plain_c_loop(20 * shoes)
        if plain_rate is not None:
            plain.append(plain_rate)
        with mock.patch.object(block_module, "pair_block_tally", lambda *arguments: None):
            cpu = time.thread_time()
            simulate(simulation, jobs=1, block_shoes=SIZE_NUMPY)
            numpy_road.append(rounds / (time.thread_time() - cpu))
    ratios = [mine / theirs for mine, theirs in zip(now, numpy_road, strict=True)]
    print(
        f"\npairs-only study, {shoes} 8-deck shoes, perfect play, 1 job, {runs} runs, "
        f"interleaved; load average before {load_before}, after {_load()}; rounds per CPU "
        f"second, median (min-max):\n  simulate {_summary(now)}; on the numpy road "
        f"{_summary(numpy_road)}: {_ratio(ratios)}x"
    )
    if plain:
        ratios = [mine / theirs for mine, theirs in zip(now, plain, strict=True)]
        print(
            f"  a plain C loop ({20 * shoes} shoes a run) {_summary(plain)}; the study "
            f"{_ratio(ratios, 3)}x of it (issue 27's target: at least 0.25x)"
        )
    else:
        print("  a plain C loop: not measured (no cc on this machine)")
    _block_shares(simulation, runs)


def _ratio(values: list[float], digits: int = 2) -> str:
    return (
        f"{statistics.median(values):.{digits}f} "
        f"({min(values):.{digits}f}-{max(values):.{digits}f})"
    )


def _block_shares(simulation: Simulation, runs: int) -> None:
    """Where one block of the pairs-only study spends its time, in ms of CPU (median).

    The compiled block (SIZE shoes, as the study deals them): its shuffle (the compiled
    stream states and shuffle), the kernel's pass with the tally built from its sums (the
    whole :func:`pair_block_tally`, shuffle included); and, for comparison, a numpy-road
    block of SIZE_NUMPY shoes.
    """
    decks = simulation.procedure.decks
    parts: dict[str, list[float]] = {"shuffle": [], "whole block": [], "numpy-road block": []}
    bets = prepare(simulation.rules, simulation.bets).analyzer.bets
    for run in range(runs):
        started = time.thread_time()
        shuffled_shoes(decks, 1, SIZE * run, SIZE, compiled=True)
        parts["shuffle"].append(time.thread_time() - started)
        started = time.thread_time()
        tally = pair_block_tally(simulation, SIZE * run, SIZE, bets)
        parts["whole block"].append(time.thread_time() - started)
        with mock.patch.object(block_module, "pair_block_tally", lambda *arguments: None):
            started = time.thread_time()
            run_block(simulation, SIZE * run, SIZE_NUMPY)
            parts["numpy-road block"].append(time.thread_time() - started)
    assert tally is not None
    shares = ", ".join(
        f"{name} {1000 * statistics.median(times):.2f} ms" for name, times in parts.items()
    )
    print(
        f"  a {SIZE}-shoe compiled block ({tally.rounds} rounds), CPU time: {shares} "
        f"(of {SIZE_NUMPY} shoes)"
    )


if __name__ == "__main__":
    main()
