"""Run a simulation: blocks of shoes, in this process, in worker processes or on Dask.

:func:`simulate` deals ``shoes`` shoes of a :class:`Simulation` in blocks of
consecutive shoes.  Shoe ``i`` is always shuffled from child ``i`` of
``numpy.random.SeedSequence(seed)`` and the tallies are exact integer sums,
so the result is the same bit for bit whatever the block size, ``jobs`` or
backend, and a run resumed from a checkpoint equals a run in one go.

Each block is one :func:`run_block` call: deal every shoe of the block
(:func:`~exactodds.simulation.dealing.deal_block`), evaluate every round's known
composition exactly in one batch (:func:`~exactodds.simulation.evaluate.exact_expected_values`),
let each bet's strategy decide, settle, and sum.

>>> from exactodds.bets.catalogue import select_bets
>>> from exactodds.simulation.strategies import Perfect
>>> simulation = Simulation.of(shoes=2, seed=1, bets=select_bets("player_pair"),
...     procedure=DealingProcedure(decks=1))
>>> result = simulate(simulation)
>>> result.tally.shoes, result.tally.rounds == sum(count * shoes for count, shoes in result.tally.rounds_histogram)
(2, True)
>>> Simulation.of(shoes=0, seed=1)
Traceback (most recent call last):
...
exactodds.simulation.dealing.SimulationError: Number of shoes 0 is not valid; use a whole number of at least 1.
"""

from __future__ import annotations

import contextlib
import json
import math
import multiprocessing
import os
import signal
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import IO, Any

import numpy as np
import numpy.typing as npt

from exactodds.analysis.many import Analyzer
from exactodds.bets.bet import Bet, main_bets
from exactodds.engine.walk import summary_of
from exactodds.numbers import fraction_string
from exactodds.rules import Rules
from exactodds.simulation.dealing import (
    CARD_SYMBOLS,
    SUMMARY_KEYS,
    DealingProcedure,
    DealtBlock,
    SimulationError,
    deal_block,
    summary_fields,
)
from exactodds.simulation.evaluate import exact_expected_values
from exactodds.simulation.strategies import Perfect, Strategy
from exactodds.simulation.tally import (
    EV_SCALE,
    HISTOGRAM_BINS_PER_UNIT,
    BetTally,
    Estimate,
    Sums,
    Tally,
    finite,
)

__all__ = [
    "BetResult",
    "BlockResult",
    "Simulation",
    "SimulationResult",
    "run_block",
    "simulate",
]

#: Shoes per block: enough rounds for one efficient batch evaluation, small enough for
#: frequent progress and checkpoints.  Results do not depend on it.
BLOCK_SHOES = 64
#: Seconds between checkpoint writes during a run (one is always written at the end).
CHECKPOINT_SECONDS = 5.0
_CHECKPOINT_VERSION = 1
#: A checkpoint holds sums and histograms: far below this many bytes.
CHECKPOINT_LIMIT = 64 * 2**20
#: How long to try to reach a Dask scheduler before giving up.
DASK_TIMEOUT = "10s"
_WINNERS = ("player", "banker", "tie")


def _whole(value: object, what: str, least: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise SimulationError(
            f"{what} {value!r} is not valid; use a whole number of at least {least}."
        )
    return value


@dataclass(frozen=True)
class Simulation:
    """What to simulate: how many shoes, the seed, rules, bets with strategies, dealing.

    Build one with :meth:`of`; ``strategies[i]`` plays ``bets[i]``.
    """

    shoes: int
    seed: int
    rules: Rules
    bets: tuple[Bet, ...]
    strategies: tuple[Strategy, ...]
    procedure: DealingProcedure

    def __post_init__(self) -> None:
        _whole(self.shoes, "Number of shoes", 1)
        _whole(self.seed, "Seed", 0)
        if not self.bets:
            raise SimulationError("A simulation needs at least one bet; name some with --bets.")
        if len(self.strategies) != len(self.bets):
            raise SimulationError(
                f"{len(self.bets)} bets need {len(self.bets)} strategies, "
                f"not {len(self.strategies)}."
            )

    @classmethod
    def of(
        cls,
        shoes: int,
        seed: int,
        rules: Rules | None = None,
        bets: Sequence[Bet] | None = None,
        strategies: Mapping[str, Strategy] | None = None,
        procedure: DealingProcedure | None = None,
    ) -> Simulation:
        """A simulation with defaults: standard rules, main bets, perfect play, 8 decks, cut 14."""
        rules = rules if rules is not None else Rules()
        chosen = tuple(bets) if bets is not None else main_bets(rules)
        plays = strategies or {}
        return cls(
            shoes,
            seed,
            rules,
            chosen,
            tuple(plays.get(bet.name, Perfect()) for bet in chosen),
            procedure if procedure is not None else DealingProcedure(),
        )

    @property
    def suited(self) -> bool:
        """Whether any bet needs the suits of the known composition."""
        return any(bet.needs_suits for bet in self.bets)

    def fingerprint(self) -> dict[str, Any]:
        """What makes two runs the same run (all but the number of shoes): checkpoints hold it."""
        return {
            "seed": self.seed,
            "procedure": self.procedure.as_dict(),
            "rules": self.rules.as_dict(),
            "bets": {
                bet.name: {
                    "pays": {
                        outcome: fraction_string(pay) for outcome, pay in bet.pay_table.items()
                    },
                    "strategy": strategy.describe(),
                }
                for bet, strategy in zip(self.bets, self.strategies, strict=True)
            },
        }


@dataclass(frozen=True)
class _Prepared:
    analyzer: Analyzer
    pays: _PayTable


class _PayTable:
    """Each bet's net result per summary key, in units of its pay denominator, filled lazily."""

    def __init__(self, bets: Sequence[Bet]) -> None:
        self.bets = tuple(bets)
        self.integer_pays = [bet.integer_pays() for bet in bets]
        self.table = np.zeros((SUMMARY_KEYS, len(bets)), dtype=np.int64)
        self.filled = np.zeros(SUMMARY_KEYS, dtype=bool)

    def lookup(self, keys: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        missing = np.unique(keys[~self.filled[keys]])
        for key in missing.tolist():
            summary = summary_of(summary_fields(key), True)
            for column, bet in enumerate(self.bets):
                pays, _ = self.integer_pays[column]
                outcome = bet.settle(summary)
                bet.pay(outcome)  # an outcome without a pay is refused here, by name
                self.table[key, column] = pays[outcome]
            self.filled[key] = True
        return self.table[keys]

    def outcome(self, key: int, column: int) -> str:
        return self.bets[column].settle(summary_of(summary_fields(key), True))


@lru_cache(maxsize=4)
def _prepare(rules: Rules, bets: tuple[Bet, ...]) -> _Prepared:
    # Keyed by rules and bets only: a longer run of the same study reuses the compiled analyzer.
    return _Prepared(Analyzer(rules, bets), _PayTable(bets))


@dataclass(frozen=True)
class BlockResult:
    """One block's tally and, when asked for, its trace lines (JSON, one per round)."""

    first_shoe: int
    shoes: int
    tally: Tally
    trace: str = ""


def run_block(
    simulation: Simulation, first_shoe: int, shoes: int, trace: bool = False
) -> BlockResult:
    """Deal, evaluate, decide and settle shoes ``first_shoe .. first_shoe + shoes - 1``."""
    block = deal_block(
        simulation.procedure, simulation.rules.tableau, simulation.seed, first_shoe, shoes
    )
    prepared = _prepare(simulation.rules, simulation.bets)
    values = exact_expected_values(prepared.analyzer, block.known, simulation.suited)
    pays = prepared.pays.lookup(block.summary)
    floats = values.floats()
    fixed = np.rint(floats * EV_SCALE).astype(np.int64)
    rounds_per_shoe = block.rounds_per_shoe.tolist()
    starts = np.concatenate(([0], np.cumsum(block.rounds_per_shoe)[:-1]))
    decks = simulation.procedure.decks
    deck_of_round = np.minimum(block.depth // 52, decks - 1)
    decisions = []
    bets = []
    for column, strategy in enumerate(simulation.strategies):
        numerators = values.numerators[:, column]
        decided = strategy.decide(numerators, values.denominators[:, column], block.known, decks)
        decisions.append(decided)
        realized = np.where(decided, pays[:, column], 0)
        expected = np.where(decided, fixed[:, column], 0)
        bins, counts = np.unique(
            np.floor(floats[:, column] * HISTOGRAM_BINS_PER_UNIT).astype(np.int64),
            return_counts=True,
        )
        depth_ev = np.zeros(decks, dtype=np.int64)
        np.add.at(depth_ev, deck_of_round, fixed[:, column])
        depth_rounds = np.bincount(deck_of_round, minlength=decks)
        bets.append(
            BetTally(
                prepared.pays.integer_pays[column][1],
                int(decided.sum()),
                int(expected.sum()),
                int(np.count_nonzero(numerators > 0)),
                Sums.of(np.add.reduceat(realized, starts).tolist(), rounds_per_shoe),
                Sums.of(np.add.reduceat(expected, starts).tolist(), rounds_per_shoe),
                tuple(zip(bins.tolist(), counts.tolist(), strict=True)),
                tuple(depth_ev.tolist()),
                tuple(depth_rounds.tolist()),
            )
        )
    histogram = np.unique(block.rounds_per_shoe, return_counts=True)
    tally = Tally(
        shoes,
        block.rounds,
        sum(count * count for count in rounds_per_shoe),
        tuple(zip(histogram[0].tolist(), histogram[1].tolist(), strict=True)),
        tuple(bets),
    )
    text = _trace(simulation, block, values, pays, decisions, prepared) if trace else ""
    return BlockResult(first_shoe, shoes, tally, text)


def _trace(
    simulation: Simulation,
    block: DealtBlock,
    values: Any,
    pays: npt.NDArray[np.int64],
    decisions: list[npt.NDArray[np.bool_]],
    prepared: _Prepared,
) -> str:
    names = [bet.name for bet in simulation.bets]
    lines = []
    for row in range(block.rounds):
        key = int(block.summary[row])
        player, banker = summary_fields(key)[:2]
        winner = "player" if player > banker else "banker" if banker > player else "tie"
        record = {
            "shoe": block.first_shoe + int(block.round_shoe[row]),
            "round": int(block.round_number[row]),
            "depth": int(block.depth[row]),
            "known": {
                CARD_SYMBOLS[card]: count
                for card, count in enumerate(block.known[row].tolist())
                if count
            },
            "ev": {name: fraction_string(values.fraction(row, j)) for j, name in enumerate(names)},
            "bet": {name: bool(decisions[j][row]) for j, name in enumerate(names)},
            "cards": block.dealt(row),
            "winner": winner,
            "player_total": player,
            "banker_total": banker,
            "outcome": {name: prepared.pays.outcome(key, j) for j, name in enumerate(names)},
            "result": {
                name: fraction_string(
                    Fraction(int(pays[row, j]), prepared.pays.integer_pays[j][1])
                    if decisions[j][row]
                    else Fraction(0)
                )
                for j, name in enumerate(names)
            },
        }
        if record["round"] == 0:
            exposed = int(block.exposed[block.round_shoe[row]])
            record["burn"] = {
                "exposed": CARD_SYMBOLS[exposed] if exposed >= 0 else None,
                "face_down": int(block.depth[row]) - (exposed >= 0),
            }
        lines.append(json.dumps(record, separators=(", ", ": ")) + "\n")
    return "".join(lines)


@dataclass(frozen=True)
class BetResult:
    """One bet's statistics over the shoes simulated (floats: these are estimates)."""

    name: str
    strategy: str
    rounds: int
    bets_made: int
    frequency: float
    average_edge: float
    share_positive: float
    units_per_shoe: Mapping[str, Estimate]
    units_per_100_rounds: Mapping[str, Estimate]
    ev_deciles: tuple[float, ...]
    ev_by_deck: tuple[float | None, ...]

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready data (the ``bets`` entries of ``simulate --format json``)."""
        return {
            "strategy": self.strategy,
            "rounds": self.rounds,
            "bets_made": self.bets_made,
            "frequency": finite(self.frequency),
            "average_edge": finite(self.average_edge),
            "share_positive": finite(self.share_positive),
            "units_per_shoe": {
                name: estimate.as_dict() for name, estimate in self.units_per_shoe.items()
            },
            "units_per_100_rounds": {
                name: estimate.as_dict() for name, estimate in self.units_per_100_rounds.items()
            },
            "ev_deciles": list(self.ev_deciles),
            "ev_by_deck": list(self.ev_by_deck),
        }


def _deciles(histogram: tuple[tuple[int, int], ...], rounds: int) -> tuple[float, ...]:
    result = []
    cumulative = 0
    items = iter(histogram)
    current = next(items, None)
    for tenth in range(1, 10):
        target = Fraction(tenth * rounds, 10)
        while current is not None and cumulative + current[1] < target:
            cumulative += current[1]
            current = next(items, None)
        if current is None:
            break
        result.append(current[0] / HISTOGRAM_BINS_PER_UNIT)
    return tuple(result)


@dataclass(frozen=True)
class SimulationResult:
    """The result of :func:`simulate`: the exact tally and how the run went.

    ``complete`` is false when the run was interrupted: the tally then covers the
    first ``tally.shoes`` shoes, exactly.
    """

    simulation: Simulation
    tally: Tally
    seconds: float = 0.0
    complete: bool = True
    backend: str = "local"
    jobs: int = 1
    #: Rounds dealt by this run (a resumed run's checkpoint excluded).
    rounds_run: int = 0

    @property
    def rounds_per_second(self) -> float:
        """Rounds dealt and evaluated per second of this run."""
        return self.rounds_run / self.seconds if self.seconds > 0 else math.nan

    def bets(self) -> list[BetResult]:
        """Each bet's statistics, in the order simulated."""
        tally = self.tally
        results = []
        for bet, strategy, sums in zip(
            self.simulation.bets, self.simulation.strategies, tally.bets, strict=True
        ):
            realized_unit = Fraction(1, sums.pay_denominator)
            ev_unit = Fraction(1, EV_SCALE)
            rounds = tally.rounds
            results.append(
                BetResult(
                    name=bet.name,
                    strategy=strategy.describe(),
                    rounds=rounds,
                    bets_made=sums.bets_made,
                    frequency=sums.bets_made / rounds if rounds else math.nan,
                    average_edge=(
                        float(Fraction(sums.ev_made, sums.bets_made) * ev_unit)
                        if sums.bets_made
                        else math.nan
                    ),
                    share_positive=sums.positive / rounds if rounds else math.nan,
                    units_per_shoe={
                        "exact_ev": Estimate.of_shoes(sums.expected, tally.shoes, ev_unit),
                        "realized": Estimate.of_shoes(sums.realized, tally.shoes, realized_unit),
                    },
                    units_per_100_rounds={
                        "exact_ev": Estimate.per_rounds(sums.expected, tally, ev_unit),
                        "realized": Estimate.per_rounds(sums.realized, tally, realized_unit),
                    },
                    ev_deciles=_deciles(sums.histogram, rounds),
                    ev_by_deck=tuple(
                        float(Fraction(total, count) * ev_unit) if count else None
                        for total, count in zip(sums.depth_ev, sums.depth_rounds, strict=True)
                    ),
                )
            )
        return results

    def as_dict(self) -> dict[str, Any]:
        """The JSON contract of ``exactodds simulate --format json``."""
        tally = self.tally
        histogram = dict(tally.rounds_histogram)
        return {
            "shoes": tally.shoes,
            "rounds": tally.rounds,
            "seed": self.simulation.seed,
            "procedure": self.simulation.procedure.as_dict(),
            "rules": self.simulation.rules.as_dict(),
            "rounds_per_shoe": {
                "mean": tally.rounds / tally.shoes if tally.shoes else None,
                "min": min(histogram) if histogram else None,
                "max": max(histogram) if histogram else None,
                "histogram": {str(count): shoes for count, shoes in sorted(histogram.items())},
            },
            "bets": {result.name: result.as_dict() for result in self.bets()},
            "run": {
                "complete": self.complete,
                "shoes_requested": self.simulation.shoes,
                "seconds": round(self.seconds, 3),
                "rounds_per_second": (round(self.rounds_per_second) if self.seconds > 0 else None),
                "backend": self.backend,
                "jobs": self.jobs,
            },
        }


# Runners ------------------------------------------------------------------

_Blocks = Sequence[tuple[int, int]]
#: The simulation a forked worker process runs (set before the fork).
_WORKER_SIMULATION: Simulation | None = None


def _worker_block(job: tuple[int, int, bool]) -> BlockResult:
    assert _WORKER_SIMULATION is not None, "worker started without its simulation"
    return run_block(_WORKER_SIMULATION, *job)


def _ignore_interrupts() -> None:
    # Ctrl-C goes to the whole process group: the parent decides what to do with it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextlib.contextmanager
def _serial(
    simulation: Simulation, blocks: _Blocks, trace: bool
) -> Iterator[Iterator[BlockResult]]:
    yield (run_block(simulation, first, count, trace) for first, count in blocks)


@contextlib.contextmanager
def _processes(
    simulation: Simulation, blocks: _Blocks, trace: bool, jobs: int
) -> Iterator[Iterator[BlockResult]]:
    global _WORKER_SIMULATION
    _WORKER_SIMULATION = simulation
    _prepare(simulation.rules, simulation.bets)  # compiled once here; the workers inherit it
    context = multiprocessing.get_context("fork")
    pool = context.Pool(jobs, initializer=_ignore_interrupts)
    try:
        yield pool.imap(_worker_block, [(first, count, trace) for first, count in blocks])
    finally:
        pool.terminate()
        pool.join()
        _WORKER_SIMULATION = None


@contextlib.contextmanager
def _dask(
    simulation: Simulation, blocks: _Blocks, trace: bool, dask: Any
) -> Iterator[Iterator[BlockResult]]:
    client, owned = _dask_client(dask)
    try:
        shared = client.scatter(simulation, broadcast=True)
        window = 4 * max(1, len(client.scheduler_info().get("workers", {})) or 1)

        def results() -> Iterator[BlockResult]:
            pending: list[Any] = []
            jobs = iter(blocks)
            while True:
                while len(pending) < window:
                    job = next(jobs, None)
                    if job is None:
                        break
                    pending.append(client.submit(run_block, shared, *job, trace, pure=False))
                if not pending:
                    return
                yield pending.pop(0).result()

        yield results()
    finally:
        if owned:
            client.close()


def _dask_client(dask: Any) -> tuple[Any, bool]:
    if not isinstance(dask, str):
        return dask, False
    try:
        from dask.distributed import Client
    except ImportError:
        raise SimulationError(
            '--dask needs dask.distributed; install it with pip install "exactodds[distributed]".'
        ) from None
    try:
        client = Client(  # type: ignore[no-untyped-call]
            dask, timeout=DASK_TIMEOUT, set_as_default=False
        )
        return client, True
    except (OSError, TimeoutError, ValueError) as error:
        raise SimulationError(
            f"Cannot reach a Dask scheduler at {dask!r} ({error}); start one with "
            "'dask scheduler' and give its address, such as tcp://127.0.0.1:8786."
        ) from None


# Checkpoints -----------------------------------------------------------------


def _write_atomically(path: Path, text: str) -> None:
    """Write *text* to *path* so that a reader sees the old file or the new one, never half."""
    directory = path.parent if str(path.parent) else Path(".")
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=directory)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def save_checkpoint(
    path: Path, simulation: Simulation, tally: Tally, trace_bytes: int | None
) -> None:
    """Write the tally of the first ``tally.shoes`` shoes of *simulation* to *path*."""
    data = {
        "exactodds_checkpoint": _CHECKPOINT_VERSION,
        "simulation": simulation.fingerprint(),
        "next_shoe": tally.shoes,
        "trace_bytes": trace_bytes,
        "tally": tally.as_dict(),
    }
    _write_atomically(path, json.dumps(data))


def load_checkpoint(path: Path, simulation: Simulation) -> tuple[Tally, int | None]:
    """The tally in checkpoint *path*, refused if it belongs to another simulation."""
    try:
        if path.stat().st_size > CHECKPOINT_LIMIT:
            raise SimulationError(
                f"Checkpoint {str(path)!r} is larger than {CHECKPOINT_LIMIT:,} bytes; it is not "
                "an exactodds simulate checkpoint."
            )
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SimulationError(
            f"Checkpoint {str(path)!r} does not exist; run without --resume to start one."
        ) from None
    except (OSError, UnicodeDecodeError) as error:
        raise SimulationError(f"Cannot read checkpoint {str(path)!r}: {error}.") from None
    try:
        data = json.loads(text)
        if data.get("exactodds_checkpoint") != _CHECKPOINT_VERSION:
            raise ValueError("not a checkpoint")
        tally = Tally.from_dict(data["tally"])
        trace_bytes = data.get("trace_bytes")
        if trace_bytes is not None and (not isinstance(trace_bytes, int) or trace_bytes < 0):
            raise ValueError("bad trace offset")
        if len(tally.bets) != len(simulation.bets) or data["next_shoe"] != tally.shoes:
            raise ValueError("inconsistent")
        recorded = data["simulation"]
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
        raise SimulationError(
            f"Checkpoint {str(path)!r} is not an exactodds simulate checkpoint."
        ) from None
    if recorded != json.loads(json.dumps(simulation.fingerprint())):
        raise SimulationError(
            f"Checkpoint {str(path)!r} belongs to another simulation (seed, dealing, rules, "
            "bets or strategies differ); resume with the same options, or start a new one."
        )
    if tally.shoes > simulation.shoes:
        raise SimulationError(
            f"Checkpoint {str(path)!r} already holds {tally.shoes} shoes, more than the "
            f"{simulation.shoes} asked for; ask for at least {tally.shoes}."
        )
    return tally, trace_bytes


# The run -------------------------------------------------------------------------


Progress = Callable[[int, int], None]


def simulate(
    simulation: Simulation,
    *,
    jobs: int = 1,
    dask: Any = None,
    block_shoes: int | None = None,
    progress: Progress | None = None,
    checkpoint: str | Path | None = None,
    resume: bool = False,
    trace: str | Path | IO[str] | None = None,
) -> SimulationResult:
    """Deal and evaluate every shoe of *simulation*; the result, complete or not.

    * *jobs* > 1: that many forked worker processes on this machine;
    * *dask*: a Dask scheduler address (or a ``dask.distributed.Client``);
    * *progress*: called with (shoes done, rounds done) after every block;
    * *checkpoint*: a file where the tally of the shoes done so far is kept
      (written atomically every few seconds and at the end, also on Ctrl-C);
      *resume* starts from it;
    * *trace*: a file (or text stream) for one JSON line per round.

    Ctrl-C (KeyboardInterrupt) stops the run; the result then covers the shoes
    finished before it, with ``complete`` false.

    >>> from exactodds.bets.catalogue import select_bets
    >>> one_deck = Simulation.of(3, 5, bets=select_bets("tie"), procedure=DealingProcedure(decks=1))
    >>> simulate(one_deck).tally == simulate(one_deck, block_shoes=1).tally
    True
    >>> simulate(one_deck, resume=True)
    Traceback (most recent call last):
    ...
    exactodds.simulation.dealing.SimulationError: --resume needs --checkpoint FILE to resume from.
    """
    block_shoes = BLOCK_SHOES if block_shoes is None else block_shoes
    if block_shoes < 1:
        raise SimulationError(f"block_shoes must be at least 1, not {block_shoes}.")
    checkpoint_path = Path(checkpoint) if checkpoint is not None else None
    tally = Tally.empty(bet.integer_pays()[1] for bet in simulation.bets)
    trace_bytes: int | None = None
    if resume:
        if checkpoint_path is None:
            raise SimulationError("--resume needs --checkpoint FILE to resume from.")
        tally, trace_bytes = load_checkpoint(checkpoint_path, simulation)
    stream, owned = _open_trace(trace, resume, trace_bytes)
    first = tally.shoes
    blocks = [
        (start, min(block_shoes, simulation.shoes - start))
        for start in range(first, simulation.shoes, block_shoes)
    ]
    if dask is not None:
        runner = _dask(simulation, blocks, stream is not None, dask)
        backend = "dask"
    elif jobs > 1 and len(blocks) > 1 and "fork" in multiprocessing.get_all_start_methods():
        runner = _processes(simulation, blocks, stream is not None, jobs)
        backend = "processes"
    else:
        runner = _serial(simulation, blocks, stream is not None)
        backend = "local"
    started = time.perf_counter()
    last_save = started
    rounds_before = tally.rounds
    interrupted = False
    try:
        with runner as results:
            for block in results:
                tally = tally.merged(block.tally)
                if stream is not None:
                    stream.write(block.trace)
                if progress is not None:
                    progress(tally.shoes, tally.rounds)
                if (
                    checkpoint_path is not None
                    and time.perf_counter() - last_save > CHECKPOINT_SECONDS
                ):
                    save_checkpoint(checkpoint_path, simulation, tally, _position(stream))
                    last_save = time.perf_counter()
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if checkpoint_path is not None:
            save_checkpoint(checkpoint_path, simulation, tally, _position(stream))
        if stream is not None and owned:
            stream.close()
    return SimulationResult(
        simulation,
        tally,
        time.perf_counter() - started,
        complete=not interrupted and tally.shoes == simulation.shoes,
        backend=backend,
        jobs=jobs if backend == "processes" else 1,
        rounds_run=tally.rounds - rounds_before,
    )


def _open_trace(
    trace: str | Path | IO[str] | None, resume: bool, trace_bytes: int | None
) -> tuple[IO[str] | None, bool]:
    if trace is None:
        return None, False
    if not isinstance(trace, str | Path):
        return trace, False
    path = Path(trace)
    try:
        if resume and path.exists():
            # Lines written after the checkpoint would be written again: cut them off.
            with path.open("r+b") as stream:
                stream.truncate(trace_bytes or 0)
            return path.open("a", encoding="utf-8"), True
        return path.open("w", encoding="utf-8"), True
    except OSError as error:
        raise SimulationError(f"Cannot write trace file {str(path)!r}: {error}.") from None


def _position(stream: IO[str] | None) -> int | None:
    if stream is None:
        return None
    stream.flush()
    try:
        return stream.tell()
    except (OSError, ValueError):
        return None
