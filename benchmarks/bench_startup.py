"""``exactodds odds`` as a whole process: wall-clock start-to-finish, hyperfine style.

    python benchmarks/bench_startup.py [--runs N] [--command "odds --format json"]

Each case runs the command N times in fresh processes (cases interleaved, so
that a busy machine slows them alike) and prints median, min and max:

* ``python -c pass``: the interpreter alone, the floor no command can beat;
* the command with the compiled polynomials cached (warm) and with an empty
  cache directory at every run (cold: compiled and written each time);
* the same without exactodds' bytecode: the package is copied without its
  ``__pycache__`` and run with ``-B``, so every exactodds module is compiled
  from source at every run (click and the standard library keep theirs, as an
  installed environment has them);
* the command with the cache turned off (``EXACTODDS_CACHE_DIR=``): what every
  run paid when the polynomials were compiled per run;
* ``exactodds --help``, which imports every command module for its short help.

Then, in this process, the single-shoe routes ``odds`` can take for an 8-deck
shoe and the main bets: the reference walk, the count polynomials read from the
disk cache and evaluated, and the polynomials compiled from nothing.

The target (issue 9) is ``exactodds odds`` at most 0.25 s as a whole process.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import exactodds

PACKAGE = Path(exactodds.__file__).parent


def exactodds_command() -> list[str]:
    """The installed console script if there is one beside this Python, else ``-m``."""
    script = Path(sys.executable).with_name("exactodds")
    return [str(script)] if script.exists() else [sys.executable, "-m", "exactodds"]


def run_once(command: list[str], environment: dict[str, str]) -> tuple[float, float]:
    """Wall-clock and CPU (user + system) seconds of one run of *command*.

    CPU time is what a busy machine inflates least: it leaves out the time
    spent waiting for a core.  Runs in the system's temporary folder: ``-m``
    puts the working directory first on the path, which must not be a source
    tree (the no-bytecode copy would lose to it).
    """
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        command,
        check=True,
        stdout=subprocess.DEVNULL,
        env=environment,
        cwd=tempfile.gettempdir(),
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, cpu


def summary(seconds: list[float]) -> str:
    return (
        f"median {statistics.median(seconds) * 1e3:7.1f} ms   "
        f"min {min(seconds) * 1e3:7.1f}   max {max(seconds) * 1e3:7.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="runs per case (default 20)")
    parser.add_argument(
        "--command", default="odds", help="exactodds arguments to time (default: odds)"
    )
    options = parser.parse_args()
    arguments = shlex.split(options.command)
    base = exactodds_command()
    with tempfile.TemporaryDirectory(prefix="exactodds-startup-") as folder:
        scratch = Path(folder)
        warm = scratch / "warm-cache"
        source_copy = scratch / "source"
        shutil.copytree(
            PACKAGE, source_copy / "exactodds", ignore=shutil.ignore_patterns("__pycache__")
        )
        environment = {**os.environ, "EXACTODDS_CACHE_DIR": str(warm)}
        environment.pop("PYTHONDONTWRITEBYTECODE", None)
        no_bytecode = {
            **environment,
            "PYTHONPATH": str(source_copy),
            "PYTHONDONTWRITEBYTECODE": "1",
        }
        # Fill the warm cache and the installed package's bytecode once, untimed.
        subprocess.run([*base, *arguments], check=True, stdout=subprocess.DEVNULL, env=environment)
        cold_runs = iter(range(10**6))

        def cold(settings: dict[str, str]) -> dict[str, str]:
            return {**settings, "EXACTODDS_CACHE_DIR": str(scratch / f"cold-{next(cold_runs)}")}

        shown = "exactodds " + " ".join(arguments)
        cases: dict[str, Callable[[], tuple[float, float]]] = {
            "python -c pass (floor)": lambda: run_once([sys.executable, "-c", "pass"], environment),
            f"{shown}, warm cache": lambda: run_once([*base, *arguments], environment),
            f"{shown}, cold cache": lambda: run_once([*base, *arguments], cold(environment)),
            f"{shown}, warm cache, no bytecode": lambda: run_once(
                [sys.executable, "-B", "-m", "exactodds", *arguments], no_bytecode
            ),
            f"{shown}, cold cache, no bytecode": lambda: run_once(
                [sys.executable, "-B", "-m", "exactodds", *arguments], cold(no_bytecode)
            ),
            f"{shown}, cache off (compiles every run)": lambda: run_once(
                [*base, *arguments], {**environment, "EXACTODDS_CACHE_DIR": ""}
            ),
            "exactodds --help, warm cache": lambda: run_once([*base, "--help"], environment),
        }
        results: dict[str, list[tuple[float, float]]] = {name: [] for name in cases}
        for _ in range(options.runs):
            for name, case in cases.items():
                results[name].append(case())
    print_report(options.runs, results)
    print_routes(options.runs)


def print_report(runs: int, results: dict[str, list[tuple[float, float]]]) -> None:
    print(
        f"exactodds start-up, {runs} runs per case, cases interleaved; "
        f"Python {platform.python_version()} on {platform.machine()}, "
        f"{os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.2f}"
    )
    width = max(map(len, results))
    floor = statistics.median(wall for wall, _ in next(iter(results.values())))
    print(f"  {'wall clock':<{width}}  {'':42}   {'':16}   CPU (user+sys)")
    for name, pairs in results.items():
        walls = [wall for wall, _ in pairs]
        cpu = statistics.median(cpu for _, cpu in pairs) * 1e3
        above = (statistics.median(walls) - floor) * 1e3
        print(
            f"  {name:<{width}}  {summary(walls)}   floor + {above:6.1f} ms   median {cpu:6.1f} ms"
        )


def print_routes(runs: int) -> None:
    """One 8-deck shoe, main bets, in process: the walk against the polynomial route."""
    from exactodds.analysis import routing, single
    from exactodds.bets.bet import main_bets
    from exactodds.engine import coefficients
    from exactodds.engine.walk import _enumerate_cached, enumerate_rounds
    from exactodds.rules import Rules
    from exactodds.shoe import Shoe

    shoe, rules = Shoe.standard(8), Rules()
    bets = main_bets(rules)

    def walk() -> None:
        _enumerate_cached.cache_clear()
        single.price_table(enumerate_rounds(shoe, rules.tableau), rules, bets)

    def loaded() -> None:
        coefficients._loaded.clear()
        routing._probes.cache_clear()
        assert single._price_by_value(shoe, rules, bets) is not None

    def compiled() -> None:
        coefficients.compile_polynomials(rules.tableau)

    folder = tempfile.mkdtemp(prefix="exactodds-routes-")
    os.environ["EXACTODDS_CACHE_DIR"] = folder
    coefficients.polynomials(rules.tableau)  # the cache file exists
    cases = {
        "reference walk (no cache)": walk,
        "polynomials read from the disk cache + priced": loaded,
        "polynomials compiled from nothing (no pricing)": compiled,
    }
    results: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(runs):
        for name, case in cases.items():
            start = time.perf_counter()
            case()
            results[name].append(time.perf_counter() - start)
    shutil.rmtree(folder, ignore_errors=True)
    print(f"odds' single-shoe routes, 8 decks, main bets, in process, {runs} runs each:")
    width = max(map(len, results))
    for name, seconds in results.items():
        print(f"  {name:<{width}}  {summary(seconds)}")


if __name__ == "__main__":
    main()
