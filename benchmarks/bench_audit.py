"""The audit's default budget: one bet's whole audit within 5 minutes on this 2-core machine.

Times :func:`exactodds.studies.audit.audit` of one bet on 8 decks (cut 14) at the default
``--budget`` (``DEFAULT_BUDGET`` shoes per candidate and per simulated figure), default depths
and cuts, each part on its own (the count search, the exact depth tables, the simulations),
and, as the reference in the same run, one plain ``simulate`` of the same shoes with a fixed
count: the audit's time in units of that simulation says how many shoe-budgets it spends.

    python benchmarks/bench_audit.py --runs 1 --bets dragon7 --jobs 2

State the machine's load (printed) beside the figures: the machine is shared.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from exactodds.bets.catalogue import select_bets
from exactodds.rules import Rules
from exactodds.simulation.dealing import DealingProcedure
from exactodds.simulation.run import Simulation, simulate
from exactodds.simulation.strategies import parse_strategy
from exactodds.studies.audit import DEFAULT_BUDGET, AuditSpec, audit

#: The issue's ceiling for one bet's audit at the default budget, in seconds.
CEILING = 300.0


def _reference(bet_name: str, budget: int, jobs: int) -> float:
    (bet,) = select_bets(bet_name)
    study = Simulation.of(
        budget,
        2,
        Rules(),
        [bet],
        {bet.name: parse_strategy("count:0,0,0,-1,-1,-1,-1,2,2,0:4")},
        DealingProcedure(),
    )
    started = time.perf_counter()
    simulate(study, jobs=jobs)
    return time.perf_counter() - started


def _audit(bet_name: str, budget: int, jobs: int) -> tuple[float, dict[str, float]]:
    parts: dict[str, float] = {}
    last: dict[str, float | str] = {"time": time.perf_counter(), "step": ""}

    def progress(done: int, total: int, step: str) -> None:
        now = time.perf_counter()
        before, what = last["time"], str(last["step"])
        if what:
            key = what.split(": ", 1)[1]
            parts[key] = parts.get(key, 0.0) + now - float(before)
        last["time"], last["step"] = now, step

    started = time.perf_counter()
    audit(AuditSpec(select_bets(bet_name), budget=budget), jobs=jobs, progress=progress)
    progress(0, 0, "end: end")
    return time.perf_counter() - started, parts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--bets", default="dragon7")
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET)
    parser.add_argument("--jobs", type=int, default=2)
    arguments = parser.parse_args()
    print(f"load average before: {os.getloadavg()}")
    for name in arguments.bets.split(","):
        totals, references = [], []
        for _ in range(arguments.runs):
            references.append(_reference(name, arguments.budget, arguments.jobs))
            total, parts = _audit(name, arguments.budget, arguments.jobs)
            totals.append(total)
            shown = ", ".join(f"{key} {seconds:.1f}s" for key, seconds in parts.items())
            print(f"  {name}: audit {total:.1f}s ({shown})")
        median, reference = statistics.median(totals), statistics.median(references)
        print(
            f"{name}: budget {arguments.budget} shoes, jobs {arguments.jobs}, {arguments.runs} "
            f"run(s): audit median {median:.1f}s (range {min(totals):.1f}-{max(totals):.1f}s), "
            f"one simulate of the same shoes {reference:.1f}s, ratio {median / reference:.1f}; "
            f"ceiling {CEILING:.0f}s: {'within' if median <= CEILING else 'OVER'}"
        )
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
