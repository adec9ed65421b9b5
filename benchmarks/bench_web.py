"""Load test of the tracker's API on loopback: requests per second, median and p99 latency.

Starts ``exactodds serve`` on 127.0.0.1 (a free port, a throwaway database) as a separate
process, then sends requests from --clients concurrent client threads, each with its own
keep-alive connection, and stops after --requests requests or --seconds seconds, whichever
comes first. Traffic goes to 127.0.0.1 only. Two workloads:

- ``odds``: ``POST /api/odds`` for 8-deck shoes with a few cards removed (a different shoe each
  request, seeded, so no cache answers for it), main bets; the references, in this process and
  the same run, are the route's own function (``answer``) and the walk ``exactodds odds`` runs
  (``analyze``) on the same shoes;
- ``tap``: a card recorded on a tracked shoe and taken back (``POST /api/shoes/N/cards`` then
  ``.../undo``, each with its idempotency key, as the page sends them), main bets and four side
  bets, from --tap-clients clients (20 by default): each client its own table, or with
  --shared-shoe all on one shoe (every write then waits its turn for the database). Each client
  taps once every --pace seconds (0.25 s, a fast dealer, by default; 0 sends back to back,
  which measures throughput: then latency is the queue of 20 clients, not a tap).

Prints, per workload and run, the requests per second, the median and 99th percentile latency,
and the errors (any status but 200/201); then the median, min and max over --runs runs.
Exits 1 if any request failed.

    python benchmarks/bench_web.py [--runs 3] [--clients 4] [--tap-clients 20] [--shared-shoe]
        [--requests 300] [--seconds 60]
"""

from __future__ import annotations

import argparse
import http.client
import json
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from exactodds import Rules, Shoe, analyze
from exactodds.shoe import RANK_SYMBOLS
from exactodds.web.inputs import odds_settings
from exactodds.web.service import answer

HOST = "127.0.0.1"  # loopback only: never send load anywhere else
SIDE_BETS = "main,dragon7,panda8,lucky6,either_pair"


#: A step of a workload: (client, request number) -> the requests to send, in order.
Step = Callable[[int, int], list[tuple[str, object]]]


@dataclass(frozen=True)
class Run:
    """One run of one workload."""

    requests: int
    errors: int
    seconds: float
    latencies: tuple[float, ...]

    @property
    def per_second(self) -> float:
        return self.requests / self.seconds

    def percentile(self, fraction: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def start_server(database: Path) -> tuple[subprocess.Popen[str], int]:
    """``exactodds serve`` on a free loopback port; the process and its port."""
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "exactodds",
            "serve",
            "--host",
            HOST,
            "--port",
            "0",
            "--db",
            str(database),
        ],
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    line = process.stderr.readline()
    if "http://" not in line:
        process.kill()
        raise SystemExit(f"exactodds serve did not start: {line}{process.stderr.read()}")
    port = int(line.rsplit(":", 1)[1].strip().rstrip("/"))
    return process, port


def post(connection: http.client.HTTPConnection, path: str, body: object) -> tuple[int, bytes]:
    connection.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
    response = connection.getresponse()
    return response.status, response.read()


def load(
    port: int,
    clients: int,
    requests: int,
    seconds: float,
    make: Step,
    pace: float = 0.0,
) -> Run:
    """Send *requests* requests from *clients* threads (bounded by *seconds*); *make*(client,
    number) gives the requests of one step (timed one by one). With *pace*, each client sends
    one request every *pace* seconds at most (a dealer tapping), else back to back."""
    counter = iter(range(requests))
    lock = threading.Lock()
    latencies: list[float] = []
    errors = [0]
    deadline = time.monotonic() + seconds

    def client(index: int) -> None:
        connection = http.client.HTTPConnection(HOST, port, timeout=120)
        time.sleep(pace * index / clients)  # paced clients tap out of step, as dealers do
        try:
            while time.monotonic() < deadline:
                with lock:
                    number = next(counter, None)
                if number is None:
                    return
                for path, body in make(index, number):
                    started = time.perf_counter()
                    status, _ = post(connection, path, body)
                    elapsed = time.perf_counter() - started
                    if pace:
                        time.sleep(max(0.0, pace - elapsed))
                    with lock:
                        latencies.append(elapsed)
                        if status not in (200, 201):
                            errors[0] += 1
        finally:
            connection.close()

    threads = [threading.Thread(target=client, args=(index,)) for index in range(clients)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    return Run(len(latencies), errors[0], elapsed, tuple(latencies))


def odds_bodies(count: int, seed: int) -> list[dict[str, object]]:
    """*count* 8-deck requests, each with 1-12 random cards removed (seeded)."""
    chooser = random.Random(seed)
    return [
        {
            "decks": 8,
            "remove": " ".join(chooser.choices(RANK_SYMBOLS, k=chooser.randint(1, 12))),
            "digits": 10,
        }
        for _ in range(count)
    ]


def odds_step(bodies: list[dict[str, object]]) -> Step:
    """One ``/api/odds`` request per step, the *number*-th body."""

    def step(client: int, number: int) -> list[tuple[str, object]]:
        return [("/api/odds", bodies[number])]

    return step


def tap_step(shoe_ids: list[int]) -> Step:
    """A card recorded and taken back, with the page's idempotency keys: the page's tap, twice."""

    def step(client: int, number: int) -> list[tuple[str, object]]:
        card = RANK_SYMBOLS[number % len(RANK_SYMBOLS)]
        shoe_id = shoe_ids[client % len(shoe_ids)]
        return [
            (f"/api/shoes/{shoe_id}/cards", {"cards": card, "key": f"c{client}-{number}"}),
            (f"/api/shoes/{shoe_id}/undo", {"key": f"u{client}-{number}"}),
        ]

    return step


def report(label: str, runs: list[Run]) -> None:
    for number, run in enumerate(runs, start=1):
        print(
            f"  {label} run {number}: {run.per_second:8.1f} requests/s, median "
            f"{run.percentile(0.5) * 1e3:7.1f} ms, p99 {run.percentile(0.99) * 1e3:7.1f} ms, "
            f"{run.requests} requests, {run.errors} errors"
        )
    rates = [run.per_second for run in runs]
    medians = [run.percentile(0.5) * 1e3 for run in runs]
    p99s = [run.percentile(0.99) * 1e3 for run in runs]
    print(
        f"{label}: requests/s median {statistics.median(rates):.1f} (min {min(rates):.1f}, "
        f"max {max(rates):.1f}); latency median {statistics.median(medians):.1f} ms, "
        f"p99 {statistics.median(p99s):.1f} ms (max p99 {max(p99s):.1f} ms); "
        f"errors {sum(run.errors for run in runs)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--clients", type=int, default=4, help="clients of /api/odds")
    parser.add_argument("--tap-clients", type=int, default=20, help="clients tapping cards")
    parser.add_argument("--shared-shoe", action="store_true", help="every tap client on one shoe")
    parser.add_argument(
        "--pace",
        type=float,
        default=0.25,
        help="seconds between one tap client's taps (0: back to back); 0.25 is a fast dealer",
    )
    parser.add_argument("--requests", type=int, default=300, help="per run and workload")
    parser.add_argument("--seconds", type=float, default=60.0, help="cap per run and workload")
    arguments = parser.parse_args()
    print(
        f"python {platform.python_version()} on {platform.machine()}, {arguments.runs} runs, "
        f"{arguments.clients} odds clients, {arguments.tap_clients} tap clients "
        f"({'one shared shoe' if arguments.shared_shoe else 'a table each'}), up to "
        f"{arguments.requests} requests or "
        f"{arguments.seconds:.0f} s a run, server and clients on {HOST}"
    )
    with tempfile.TemporaryDirectory() as folder:
        process, port = start_server(Path(folder) / "bench.sqlite3")
        try:
            odds_runs: list[Run] = []
            tap_runs: list[Run] = []
            direct: list[float] = []
            walked: list[float] = []
            connection = http.client.HTTPConnection(HOST, port, timeout=120)
            shoe_ids = []
            for table in range(1 if arguments.shared_shoe else arguments.tap_clients):
                status, text = post(
                    connection,
                    "/api/shoes",
                    {"name": f"bench {table}", "settings": {"decks": 8, "bets": SIDE_BETS}},
                )
                assert status == 201, text
                shoe_ids.append(json.loads(text)["shoe"]["id"])
            post(connection, "/api/odds", {"decks": 1})  # warm the server up
            connection.close()
            for run in range(arguments.runs):
                bodies = odds_bodies(arguments.requests, seed=run)
                # References, same run, in this process: the route's function, and the walk.
                for body in bodies[:20]:
                    started = time.perf_counter()
                    answer(odds_settings(body))
                    direct.append(time.perf_counter() - started)
                    shoe = Shoe.standard(8).remove(str(body["remove"]))
                    started = time.perf_counter()
                    analyze(shoe, Rules())
                    walked.append(time.perf_counter() - started)
                odds_runs.append(
                    load(
                        port,
                        arguments.clients,
                        arguments.requests,
                        arguments.seconds,
                        odds_step(bodies),
                    )
                )
                tap_runs.append(
                    load(
                        port,
                        arguments.tap_clients,
                        arguments.requests // 2,
                        arguments.seconds,
                        tap_step(shoe_ids),
                        arguments.pace,
                    )
                )
        finally:
            process.terminate()
            process.wait(timeout=30)
    for label, seconds in (
        ("answer() (the route's function)", direct),
        ("analyze() (the walk)", walked),
    ):
        print(
            f"reference, in this process: {label} of the same shoes: median "
            f"{statistics.median(seconds) * 1e3:.2f} ms (min {min(seconds) * 1e3:.2f}, max "
            f"{max(seconds) * 1e3:.2f}) over {len(seconds)} shoes"
        )
    report("POST /api/odds (8 decks, fresh shoes, main bets)", odds_runs)
    report(
        f"tracker tap (card or undo, bets {SIDE_BETS}, {arguments.tap_clients} clients, "
        f"{'back to back' if not arguments.pace else f'one every {arguments.pace:g} s each'})",
        tap_runs,
    )
    if any(run.errors for run in odds_runs + tap_runs):
        raise SystemExit(1)


if __name__ == "__main__":
    main()
