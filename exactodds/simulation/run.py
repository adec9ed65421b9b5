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
exactodds.errors.SimulationError: Number of shoes 0 for `shoes` is not valid; use a whole number of at least 1.
"""

from __future__ import annotations

import contextlib
import dataclasses
import multiprocessing
import time
from collections.abc import Callable, Iterable, Iterator
from operator import itemgetter
from pathlib import Path
from typing import IO, Any

from exactodds.errors import SimulationError, import_extra
from exactodds.simulation.block import (
    BlockResult,
    compiled_pairs,
    compiled_values,
    prepare,
    run_block,
)
from exactodds.simulation.checkpoint import (
    Checkpoint,
    CheckpointError,
    read_checkpoint,
    save_checkpoint,
)
from exactodds.simulation.dealing import DealingProcedure
from exactodds.simulation.overlaypays import fee_charged_simulation
from exactodds.simulation.pairs import pair_shape
from exactodds.simulation.result import BetResult, SimulationResult
from exactodds.simulation.staking.stakes import Kelly, Optimal
from exactodds.simulation.study import Simulation
from exactodds.simulation.tally import Tally
from exactodds.simulation.workers import WorkerError, forked_workers

__all__ = [
    "BetResult",
    "BlockResult",
    "DealingProcedure",
    "Simulation",
    "SimulationResult",
    "run_block",
    "simulate",
]

#: Shoes per block: enough rounds for one efficient batch evaluation, small enough for
#: frequent progress and checkpoints.  Results do not depend on it.
BLOCK_SHOES = 64
#: Shoes per block (of up to 8 decks; fewer for more decks) when every bet has the pair
#: closed form (:mod:`~exactodds.simulation.pairs`) and the kernel tallies the blocks in one
#: pass (:mod:`~exactodds.simulation.pair_study`): no round is written out, so a block's
#: memory is its shoes' cards (6.8 MB here), and the per-block work (the histograms, the
#: bands, the tally's merge) would dominate smaller blocks.
CLOSED_FORM_BLOCK_SHOES = 2048
#: At most this many shoes a block on the numpy road, which writes every round out.
NUMPY_CLOSED_FORM_BLOCK_SHOES = 256
#: Shoes per block (of up to 8 decks; fewer for more decks) when the kernel's value study
#: (:mod:`~exactodds.simulation.value_study`) deals, prices and tallies the blocks in one pass:
#: it writes out only each round's EV bin (4 bytes a bet), so a block's memory is about
#: 6 MB for 27 bets, and the per-block work (the tally, its merge) is spread over more rounds.
VALUE_BLOCK_SHOES = 512
#: Seconds between checkpoint writes during a run (one is always written at the end).
CHECKPOINT_SECONDS = 5.0
#: How long to try to reach a Dask scheduler before giving up.
DASK_TIMEOUT = "10s"


# Runners ------------------------------------------------------------------

_Blocks = Iterable[tuple[int, int]]
Stop = Callable[[], bool]
#: The simulation a forked worker process runs (set before the fork).
_WORKER_SIMULATION: Simulation | None = None


def _worker_block(job: tuple[int, int, bool]) -> BlockResult:
    assert _WORKER_SIMULATION is not None, "worker started without its simulation"
    return run_block(_WORKER_SIMULATION, *job)


def _never() -> bool:
    return False


@contextlib.contextmanager
def _serial(
    simulation: Simulation, blocks: _Blocks, trace: bool
) -> Iterator[Iterator[BlockResult]]:
    yield (run_block(simulation, first, count, trace) for first, count in blocks)


@contextlib.contextmanager
def _processes(
    simulation: Simulation,
    blocks: _Blocks,
    trace: bool,
    jobs: int,
    stop: Stop,
    keep: Callable[[Tally], None] | None = None,
) -> Iterator[Iterator[BlockResult]]:
    """The blocks on *jobs* forked workers, each on its own pipe (:mod:`.workers`): a worker
    that dies or stalls stops the run with one sentence, and shutting down never waits on a
    lock a worker held.  The blocks finished but not handed on when the run stops (after
    the gap a dead worker leaves) go to *keep*, each block's tally."""
    global _WORKER_SIMULATION
    _WORKER_SIMULATION = simulation
    prepare(simulation.rules, simulation.bets)  # compiled once here; the workers inherit it
    work = ((first, count, trace) for first, count in blocks)

    def leftover(finished: list[tuple[tuple[int, int, bool], BlockResult]]) -> None:
        for _, block in finished:
            if keep is not None:
                keep(block.tally)

    try:
        with forked_workers(_worker_block, work, jobs, stop, _shoes_of, leftover) as results:
            yield results
    finally:
        _WORKER_SIMULATION = None


def _shoes_of(job: tuple[int, int, bool]) -> str:
    """A block job as a message names it.

    >>> _shoes_of((64, 64, False))
    'shoes 64 to 127'
    """
    return f"shoes {job[0]:,} to {job[0] + job[1] - 1:,}"


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
    import_extra("dask.distributed", "Running on a Dask cluster", "distributed")
    from dask.distributed import Client

    try:
        # A bad address is refused before a Client is built: one that fails half-built
        # blocks for 20 s at exit closing itself, then prints a traceback.
        from distributed.comm.addressing import get_address_host_port

        _, port = get_address_host_port(dask)
        if not 0 < port < 65536:
            raise ValueError(f"port {port} is not from 1 to 65535")
    except (ValueError, TypeError) as error:
        raise SimulationError(
            f"`dask` {dask!r} is not a Dask scheduler address ({error}); give one such as "
            "tcp://127.0.0.1:8786."
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


# The run -------------------------------------------------------------------------


class _Running:
    """A run's tally, block by block, with each bet's EV histogram kept as a dict.

    Merging a block's tally into the whole run's merges the EV histograms (thousands of
    bins a bet, sorted again at every merge), which made long runs slower per round.
    Here the rest of each block's tally is merged as before (cheap without the
    histograms) and its histograms are added into one dict a bet; :meth:`tally` sorts
    them once.  Integer counts: the same tally as merging block by block, bit for bit.

    >>> from exactodds.simulation.tally import BetTally, Tally
    >>> running = _Running(Tally.empty([1]))
    >>> for count in (1, 2, 3):
    ...     running.add(Tally(count, 2 * count, 0, ((2, count),), (BetTally(1, histogram=((count, 1),)),)))
    >>> running.tally().rounds_histogram, running.tally().bets[0].histogram, running.rounds
    (((2, 6),), ((1, 1), (2, 1), (3, 1)), 12)
    """

    def __init__(self, start: Tally) -> None:
        self.rest = _without_histograms(start)
        self.histograms = [dict(bet.histogram) for bet in start.bets]
        self.shoes, self.rounds = start.shoes, start.rounds

    def add(self, block: Tally) -> None:
        self.shoes += block.shoes
        self.rounds += block.rounds
        self.rest = self.rest.merged(_without_histograms(block))
        for counts, bet in zip(self.histograms, block.bets, strict=True):
            known = counts.get
            for key, count in bet.histogram:
                counts[key] = known(key, 0) + count

    def tally(self) -> Tally:
        """The tally of every shoe so far."""
        bets = tuple(
            dataclasses.replace(bet, histogram=tuple(sorted(counts.items(), key=itemgetter(0))))
            for bet, counts in zip(self.rest.bets, self.histograms, strict=True)
        )
        return dataclasses.replace(self.rest, bets=bets)


def _without_histograms(tally: Tally) -> Tally:
    bets = tuple(dataclasses.replace(bet, histogram=()) for bet in tally.bets)
    return dataclasses.replace(tally, bets=bets)


Progress = Callable[[int, int], None]


def _starting_tally(
    simulation: Simulation, checkpoint_path: Path | None, resume: bool
) -> Checkpoint:
    """What a run starts from: an empty tally, or the checkpoint's (with the trace bytes it
    covers and the blocks it kept after a gap)."""
    tally = Tally.empty(bet.integer_pays()[1] for bet in simulation.bets)
    if resume:
        if checkpoint_path is None:
            raise SimulationError("`resume` needs `checkpoint` FILE to resume from.")
        return read_checkpoint(checkpoint_path, simulation)
    if checkpoint_path is not None:
        if checkpoint_path.exists():
            raise SimulationError(
                f"Checkpoint {str(checkpoint_path)!r} already exists; continue its run with "
                "`resume`, or remove it to start again."
            )
        # Find out now, not after hours of dealing, that the checkpoint cannot be written.
        save_checkpoint(checkpoint_path, simulation, tally, None)
    return Checkpoint(tally, None)


class _Kept:
    """Blocks finished after a gap, by their first shoe: read from a checkpoint (so not dealt
    again) or left by the workers when the run stopped (so kept in the checkpoint).

    :meth:`plan` deals the shoes no block holds; :meth:`drain` adds the blocks that start
    where the run's shoes end, in shoe order, as a run in one go adds them.

    >>> from exactodds.simulation.tally import BetTally
    >>> kept = _Kept([Tally(2, 4, 8, ((2, 2),), (BetTally(1),), ranges=((4, 6),))])
    >>> list(kept.plan(0, 8, 3))
    [(0, 3), (3, 1), (6, 2)]
    """

    def __init__(self, blocks: Iterable[Tally] = ()) -> None:
        self.blocks = {block.ranges[0][0]: block for block in blocks}

    def keep(self, block: Tally) -> None:
        """Keep *block* (one range of shoes) for the checkpoint."""
        self.blocks[block.ranges[0][0]] = block

    def plan(self, first: int, shoes: int, block_shoes: int) -> Iterator[tuple[int, int]]:
        """The blocks to deal from shoe *first* to *shoes*: those no kept block holds (the
        kept blocks as they are now; planned lazily, one block at a time)."""
        held = sorted((start, block.shoes) for start, block in self.blocks.items())
        return _planned(held, first, shoes, block_shoes)

    def drain(self, running: _Running) -> int:
        """Add to *running* every kept block that starts where its shoes end; their rounds."""
        rounds = 0
        while running.shoes in self.blocks:
            block = self.blocks.pop(running.shoes)
            running.add(block)
            rounds += block.rounds
        return rounds

    def after(self, shoes: int) -> list[Tally]:
        """The kept blocks after the first *shoes*, ascending (for the checkpoint)."""
        return [self.blocks[start] for start in sorted(self.blocks) if start >= shoes]


def _planned(
    held: list[tuple[int, int]], first: int, shoes: int, block_shoes: int
) -> Iterator[tuple[int, int]]:
    """Blocks of at most *block_shoes* from *first* to *shoes*, around the *held* ranges
    (start, shoes): a run of 10**12 shoes holds one block at a time, not all of them."""
    start = first
    for stop, count in [*held, (shoes, 0)]:
        while start < stop:
            yield start, min(block_shoes, stop - start)
            start += min(block_shoes, stop - start)
        start = max(start, stop + count)


def _block_shoes(
    simulation: Simulation, block_shoes: int | None, trace: bool = False, jobs: int = 1
) -> int:
    """The shoes per block: given, or the default for the study's bets, stake, trace and
    *jobs* (a value study's blocks at least two a job, so that the workers share the run)."""
    if block_shoes is not None:
        return block_shoes
    block_shoes = BLOCK_SHOES
    if all(pair_shape(bet) is not None for bet in simulation.bets):
        decks = simulation.procedure.decks
        block_shoes = max(1, CLOSED_FORM_BLOCK_SHOES * 8 // max(decks, 8))
        if trace or not compiled_pairs(simulation, block_shoes):
            block_shoes = min(block_shoes, NUMPY_CLOSED_FORM_BLOCK_SHOES)
    elif not trace:
        # The largest block (halving from VALUE_BLOCK_SHOES) whose sums the kernel's value
        # study proves in range; none: the numpy road's blocks.
        decks = simulation.procedure.decks
        shoes = max(1, VALUE_BLOCK_SHOES * 8 // max(decks, 8))
        if jobs > 1:
            shoes = min(shoes, max(BLOCK_SHOES, -(-simulation.shoes // (2 * jobs))))
        while shoes > BLOCK_SHOES and not compiled_values(simulation, shoes):
            shoes //= 2
        if compiled_values(simulation, shoes):
            block_shoes = max(shoes, 1)
    if isinstance(simulation.stake, Kelly):
        # Whole trips per block: a block starting inside a trip deals the trip's
        # earlier shoes again to learn the bankroll they left.
        block_shoes = -(-block_shoes // simulation.trip_shoes) * simulation.trip_shoes
    return block_shoes


def _refuse_one_file_for_both(trace: Any, checkpoint_path: Path | None) -> None:
    if (
        isinstance(trace, str | Path)
        and checkpoint_path is not None
        and Path(trace).resolve() == checkpoint_path.resolve()
    ):
        raise SimulationError(
            f"The trace and the checkpoint are the same file {str(checkpoint_path)!r}; each "
            "would overwrite the other: give them different files."
        )


def _with_optimal_ramp(
    simulation: Simulation, jobs: int, dask: Any, block_shoes: int | None, stop: Stop | None
) -> Simulation:
    """*simulation* with the ramp its flat pilot on the same shoes derives
    (:mod:`~exactodds.simulation.staking.optimal`), scaled down to a `risk` target with a bankroll;
    the pilot and the ramps tried are not traced, saved or shown."""
    from exactodds.simulation.staking.optimal import pilot_study, risk_limited_study

    def run(study: Simulation) -> SimulationResult:
        return simulate(study, jobs=jobs, dask=dask, block_shoes=block_shoes, stop=stop)

    pilot = run(pilot_study(simulation))
    if not pilot.complete:
        raise SimulationError(
            f"The flat pilot was stopped after {pilot.tally.shoes:,} of {simulation.shoes:,} "
            "shoes, before the optimal ramp could be derived; nothing was run with it."
        )
    return risk_limited_study(simulation, pilot.tally, run)


def _runner(
    simulation: Simulation,
    blocks: _Blocks,
    trace: bool,
    jobs: int,
    dask: Any,
    stop: Stop,
    kept: _Kept,
) -> tuple[contextlib.AbstractContextManager[Iterator[BlockResult]], str]:
    """Where the blocks run, and its name: Dask, forked workers (whose blocks finished after
    a gap go to *kept*, but with a trace, which is written in order), or this process."""
    if dask is not None:
        return _dask(simulation, blocks, trace, dask), "dask"
    if jobs > 1 and "fork" in multiprocessing.get_all_start_methods():
        keep = None if trace else kept.keep
        return _processes(simulation, blocks, trace, jobs, stop, keep), "processes"
    return _serial(simulation, blocks, trace), "local"


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
    stop: Stop | None = None,
) -> SimulationResult:
    """Deal and evaluate every shoe of *simulation*; the result, complete or not.

    * *jobs* > 1: that many forked worker processes on this machine;
    * *dask*: a Dask scheduler address (or a ``dask.distributed.Client``);
    * *progress*: called with (shoes done, rounds done) after every block;
    * *checkpoint*: a file where the tally of the shoes done so far is kept
      (written atomically every few seconds and at the end, also on Ctrl-C);
      *resume* starts from it;
    * *trace*: a file (or text stream) for one JSON line per round.

    Ctrl-C (KeyboardInterrupt), or *stop* returning true (it is asked after every
    block), stops the run; the result then covers the shoes finished before it, with
    ``complete`` false, and the checkpoint holds them.  A checkpoint that cannot be
    written during the run stops it too: :class:`CheckpointError` then carries the
    result of the shoes finished (``error.result``); so does
    :class:`~exactodds.simulation.workers.WorkerError` when a worker process dies or stalls
    (the checkpoint then holds those shoes, and the blocks finished after the gap it left,
    for *resume*, which deals only the blocks missing).

    >>> from exactodds.bets.catalogue import select_bets
    >>> one_deck = Simulation.of(3, 5, bets=select_bets("tie"), procedure=DealingProcedure(decks=1))
    >>> simulate(one_deck).tally == simulate(one_deck, block_shoes=1).tally
    True
    >>> simulate(one_deck, resume=True)
    Traceback (most recent call last):
    ...
    exactodds.errors.SimulationError: `resume` needs `checkpoint` FILE to resume from.
    """
    # A table's fee is charged on every bet, win or lose: every figure per unit paid.
    simulation = fee_charged_simulation(simulation)
    if isinstance(simulation.stake, Optimal):
        simulation = _with_optimal_ramp(simulation, jobs, dask, block_shoes, stop)
    block_shoes = _block_shoes(simulation, block_shoes, trace is not None, jobs)
    if block_shoes < 1:
        raise SimulationError(f"block_shoes must be at least 1, not {block_shoes}.")
    checkpoint_path = Path(checkpoint) if checkpoint is not None else None
    _refuse_one_file_for_both(trace, checkpoint_path)
    start = _starting_tally(simulation, checkpoint_path, resume)
    tally, trace_bytes = start.tally, start.trace_bytes
    stream, owned = _open_trace(trace, resume, trace_bytes)
    # The trace's length so far, for the checkpoint (a resumed trace is cut to its record).
    position: int | None = ((trace_bytes or 0) if resume else 0) if stream is not None else None
    # Blocks a checkpoint kept after a gap are added, not dealt again; with a trace they are
    # dealt again (their rounds were never written), and none is kept: the trace is in order.
    kept = _Kept(start.blocks if stream is None else ())
    running = _Running(tally)
    kept.drain(running)
    first = running.shoes
    blocks = kept.plan(first, simulation.shoes, block_shoes)
    stop = stop if stop is not None else _never
    several = jobs > 1 and simulation.shoes - first > block_shoes
    runner, backend = _runner(
        simulation, blocks, stream is not None, jobs if several else 1, dask, stop, kept
    )
    started = time.perf_counter()
    last_save = started
    rounds_before = tally.rounds
    rounds_kept = running.rounds - tally.rounds  # dealt by an earlier run, not this one
    failure: CheckpointError | WorkerError | None = None
    try:
        with runner as results:
            for block in results:
                if stream is not None:  # first: a block whose trace is lost is not counted
                    position = _write_trace(stream, block.trace, trace, running.shoes)
                running.add(block.tally)
                rounds_kept += kept.drain(running)
                if progress is not None:
                    progress(running.shoes, running.rounds)
                if (
                    checkpoint_path is not None
                    and time.perf_counter() - last_save > CHECKPOINT_SECONDS
                ):
                    save_checkpoint(
                        checkpoint_path,
                        simulation,
                        running.tally(),
                        position,
                        kept.after(running.shoes),
                    )
                    last_save = time.perf_counter()
                if stop():
                    break
    except KeyboardInterrupt:
        pass  # the result covers the shoes finished
    except (CheckpointError, WorkerError) as error:
        failure = error
    finally:
        kept.drain(running)  # blocks the workers finished may follow the shoes done
        tally = running.tally()
        if checkpoint_path is not None and not isinstance(failure, CheckpointError):
            try:
                save_checkpoint(
                    checkpoint_path, simulation, tally, position, kept.after(tally.shoes)
                )
            except CheckpointError as error:
                failure = error
        if stream is not None and owned:
            with contextlib.suppress(OSError):  # a full disk is already reported
                stream.close()
    result = SimulationResult(
        simulation,
        tally,
        time.perf_counter() - started,
        complete=failure is None and tally.shoes == simulation.shoes,
        backend=backend,
        jobs=jobs if backend == "processes" else 1,
        rounds_run=tally.rounds - rounds_before - rounds_kept,
    )
    if failure is not None:
        raise type(failure)(str(failure), result)
    return result


def _open_trace(
    trace: str | Path | IO[str] | None, resume: bool, trace_bytes: int | None
) -> tuple[IO[str] | None, bool]:
    if trace is None:
        return None, False
    if not isinstance(trace, str | Path):
        return trace, False
    path = Path(trace)
    try:
        if resume and trace_bytes and (not path.exists() or path.stat().st_size < trace_bytes):
            held = f"{path.stat().st_size:,} bytes" if path.exists() else "no file"
            raise SimulationError(
                f"Trace file {str(path)!r} holds {held}, less than the {trace_bytes:,} bytes "
                "the checkpoint records: it was shortened or removed, and resuming would "
                "leave a gap in it; start a new run, or restore the trace."
            )
        if resume and path.exists():
            # Lines written after the checkpoint would be written again: cut them off.
            with path.open("r+b") as stream:
                stream.truncate(trace_bytes or 0)
            return path.open("a", encoding="utf-8"), True
        return path.open("w", encoding="utf-8"), True
    except OSError as error:
        raise SimulationError(f"Cannot write trace file {str(path)!r}: {error}.") from None


def _write_trace(stream: IO[str], text: str, trace: Any, shoes: int) -> int | None:
    """Write one block's trace lines; the trace's length after them (None for a stream
    that cannot tell).  A write that fails (a full disk) stops the run, counting the
    shoes before the block, in one sentence naming the file."""
    try:
        stream.write(text)
        stream.flush()
    except OSError as error:
        name = str(trace) if isinstance(trace, str | Path) else "the trace stream"
        raise CheckpointError(
            f"Cannot write trace file {name!r} ({error.strerror or error}); the run stopped "
            f"after {shoes:,} shoes: free some space or give another file."
        ) from None
    try:
        return stream.tell()
    except (OSError, ValueError):
        return None
