"""Forked worker processes for a run's blocks, each on its own pipe: no lock is shared.

``multiprocessing.Pool`` hands work out through one queue guarded by locks that every
worker shares: a worker ended while it held one (a signal, the pool's own terminate) left
the others blocked on it at 0% CPU and the parent waiting in ``join`` forever, with no word
(issue 36: a resumed run with two jobs hung once in three under load).  Here each worker
has its own duplex pipe, reads one job, writes one answer, and nothing else is shared, so
ending a worker never blocks another, and shutting down is: say stop on each pipe, wait a
moment, end whoever is left (SIGTERM, then SIGKILL).

The parent hands the blocks out in order and yields the answers in the same order (an
answer that comes early waits), so a run's tally and checkpoint grow shoe by shoe as with
one process.  A worker that dies (its process ends without an answer), or that has held
one block far longer than any block took before (:data:`STALL_FACTOR` times the longest,
and at least :data:`STALL_SECONDS`), stops the run with :class:`WorkerError`, one sentence
naming the shoes it held; what was answered before it is kept by the caller, and the
answers that came early, after the gap it leaves, are handed to *leftover* (a run keeps
them in its checkpoint, so a resume computes only the blocks missing).

>>> def square(job: int) -> int:
...     return job * job
>>> with forked_workers(square, iter(range(5)), 2, lambda: False) as answers:
...     list(answers)
[0, 1, 4, 9, 16]
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import time
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any, Generic, TypeVar

from exactodds.errors import SimulationError

__all__ = ["STALL_FACTOR", "STALL_SECONDS", "WorkerError", "forked_workers"]

JobT = TypeVar("JobT")
AnswerT = TypeVar("AnswerT")

#: A block held this many times longer than the longest block before it is a stalled worker.
STALL_FACTOR = 20
#: ... and at least this many seconds (a slow machine, a first block of a big study).
STALL_SECONDS = 300.0
#: How often (seconds) the parent looks whether to stop while it waits for an answer.
POLL_SECONDS = 0.05
#: How long a worker told to stop may take to leave before it is ended (seconds).
LEAVE_SECONDS = 2.0


class WorkerError(SimulationError):
    """A worker process died or stalled; the run stopped.  *result*, where the run gives
    one, covers the shoes finished before (they are kept, in the checkpoint too).

    >>> str(WorkerError("A worker process ended."))
    'A worker process ended.'
    """

    def __init__(self, message: str, result: Any = None) -> None:
        super().__init__(message)
        self.result = result


@dataclass
class _Worker(Generic[JobT]):
    process: Any
    connection: Connection
    job: tuple[int, JobT] | None = None
    started: float = 0.0


@dataclass
class _Order(Generic[JobT, AnswerT]):
    """Answers by job number, handed on in order; ``jobs`` holds the job of each answer."""

    answers: dict[int, AnswerT] = field(default_factory=dict)
    jobs: dict[int, JobT] = field(default_factory=dict)
    next: int = 0

    def ready(self) -> Iterator[AnswerT]:
        while self.next in self.answers:
            self.jobs.pop(self.next)
            yield self.answers.pop(self.next)
            self.next += 1

    def early(self) -> list[tuple[JobT, AnswerT]]:
        """The answers not handed on (an earlier one is missing), with their jobs, in order."""
        return [(self.jobs[number], self.answers[number]) for number in sorted(self.answers)]


def _serve(connection: Connection, work: Callable[[Any], Any]) -> None:
    """A worker: answer jobs until told to stop (None) or the parent is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to decide
    while True:
        try:
            job = connection.recv()
        except (EOFError, OSError):
            break
        if job is None:
            break
        try:
            answer: tuple[str, Any] = ("done", work(job))
        except Exception as error:  # the parent raises it, as a pool would
            answer = ("error", error)
        try:
            connection.send(answer)
        except Exception as error:  # an answer or error that does not pickle
            connection.send(("error", SimulationError(f"A worker's answer was lost: {error}.")))
    connection.close()
    os._exit(0)  # no atexit handlers or buffers of the parent's, run twice


def _described(exitcode: int | None) -> str:
    if exitcode is not None and exitcode < 0:
        with contextlib.suppress(ValueError):
            return f"killed by {signal.Signals(-exitcode).name}"
    return f"exit status {exitcode}"


def _held(job: Any) -> str:
    """The work a job stands for, as the caller's ``describe`` says it."""
    return str(job)


@contextlib.contextmanager
def forked_workers(
    work: Callable[[JobT], AnswerT],
    jobs: Iterator[JobT],
    workers: int,
    stop: Callable[[], bool],
    describe: Callable[[JobT], str] = _held,
    leftover: Callable[[list[tuple[JobT, AnswerT]]], None] | None = None,
) -> Iterator[Iterator[AnswerT]]:
    """``work(job)`` for every job, in *workers* forked processes; the answers in order.

    *stop* is asked while waiting; when true the answers end (those in hand are given).
    *describe* names a job in a :class:`WorkerError` (``shoes 64 to 127``).  Leaving the
    ``with`` block ends every worker, whatever state it is in.  When the answers end before
    every job is answered (a stop, a worker that died, an error, the caller leaving early),
    *leftover*, if given, is called once with the answers finished but never handed on
    (those after the first one missing, or after the caller left), each with its job, in
    job order.

    >>> def cube(job: int) -> int:
    ...     return job**3
    >>> kept: list[tuple[int, int]] = []
    >>> with forked_workers(cube, iter(range(9)), 2, lambda: False, leftover=kept.extend) as got:
    ...     next(got)
    0
    >>> all(answer == job**3 and job > 0 for job, answer in kept)
    True
    """
    context = multiprocessing.get_context("fork")
    pool: list[_Worker[JobT]] = []
    for _ in range(workers):
        parent, child = context.Pipe(duplex=True)
        process = context.Process(target=_serve, args=(child, work), daemon=True)
        process.start()
        child.close()
        pool.append(_Worker(process, parent))
    order: _Order[JobT, AnswerT] = _Order()
    answers = _answers(pool, jobs, stop, describe, order)
    try:
        yield answers
    finally:
        answers.close()  # an answer a worker is sending now is not waited for
        early = order.early()
        _shut_down(pool)
        if leftover is not None and early:
            leftover(early)


def _answers(
    pool: list[_Worker[JobT]],
    jobs: Iterator[JobT],
    stop: Callable[[], bool],
    describe: Callable[[JobT], str],
    order: _Order[JobT, AnswerT],
) -> Generator[AnswerT, None, None]:
    """The answers in order.  A worker that dies or stalls stops the handing out; the other
    workers finish the blocks they hold (answers kept in *order*, for the caller's
    *leftover*), and then the answers before the gap are given and the failure raised."""
    numbered = enumerate(jobs)
    longest = 0.0
    exhausted = False
    failure: WorkerError | None = None
    while True:
        # Hand out work while the answers waiting for an earlier one stay few.
        for worker in pool:
            if failure or exhausted or worker.job is not None:
                continue
            if len(order.answers) < 2 * len(pool):
                handed = next(numbered, None)
                if handed is None:
                    exhausted = True
                    break
                worker.connection.send(handed[1])
                worker.job, worker.started = handed, time.perf_counter()
        busy = [worker for worker in pool if worker.job is not None]
        if not busy:
            yield from order.ready()
            if failure is not None:
                raise failure
            return
        if stop():
            return
        waiting = [worker.connection for worker in busy] + [w.process.sentinel for w in busy]
        ready = set(wait(waiting, timeout=POLL_SECONDS))
        now = time.perf_counter()
        for worker in busy:
            assert worker.job is not None
            number, job = worker.job
            kind, answer = _receive(worker, ready)
            if kind == "error":
                raise answer
            if kind == "done":
                order.answers[number], order.jobs[number] = answer, job
                longest = max(longest, now - worker.started)
                worker.job = None
            elif kind == "died":
                worker.process.join(LEAVE_SECONDS)  # for its exit status
                if _stopping(stop):  # a signal to the process group ends workers and run
                    return
                failure = failure or WorkerError(
                    f"A worker process (pid {worker.process.pid}) ended "
                    f"({_described(worker.process.exitcode)}) while dealing {describe(job)}; the "
                    f"run stopped, keeping {_KEPT}."
                )
                worker.job = None
            elif longest and now - worker.started > max(STALL_SECONDS, STALL_FACTOR * longest):
                worker.process.kill()  # its answer is no longer waited for
                failure = failure or WorkerError(
                    f"A worker process (pid {worker.process.pid}) has held {describe(job)} "
                    f"for {now - worker.started:,.0f} s, over {STALL_FACTOR} times the longest "
                    "block before it, without an answer; it was ended and the run stopped, "
                    f"keeping {_KEPT}."
                )
                worker.job = None
        yield from order.ready()


#: What a run stopped by a worker keeps, as its sentence says it.
_KEPT = "the shoes finished before them"


def _receive(worker: _Worker[Any], ready: set[Any]) -> tuple[str, Any]:
    """What *worker* says: ``("done", answer)``, ``("error", error)``, ``("died", None)``
    (its pipe closed or its process ended with no answer), or ``("", None)`` (working)."""
    if worker.connection in ready or worker.connection.poll():
        try:
            kind, answer = worker.connection.recv()
        except (EOFError, OSError):
            return "died", None
        return kind, answer
    if _died(worker, ready):
        return "died", None
    return "", None


def _stopping(stop: Callable[[], bool]) -> bool:
    """Whether *stop* turns true within :data:`LEAVE_SECONDS`: a Ctrl-C or SIGTERM sent to
    the whole process group reaches the workers as it reaches the parent's watcher."""
    deadline = time.perf_counter() + LEAVE_SECONDS
    while time.perf_counter() < deadline:
        if stop():
            return True
        time.sleep(POLL_SECONDS)
    return stop()


def _died(worker: _Worker[Any], ready: set[Any]) -> bool:
    """Whether *worker*'s process ended with no answer waiting on its pipe."""
    if worker.process.sentinel not in ready and worker.process.is_alive():
        return False
    return not worker.connection.poll()


def _shut_down(pool: list[_Worker[Any]]) -> None:
    """Tell every worker to stop, give them a moment, then end whoever is left."""
    for worker in pool:
        with contextlib.suppress(OSError, ValueError):
            if worker.job is None:
                worker.connection.send(None)
    deadline = time.perf_counter() + LEAVE_SECONDS
    for worker in pool:
        if worker.job is not None:  # busy: its answer is not wanted
            worker.process.terminate()
        worker.process.join(max(0.0, deadline - time.perf_counter()))
    for worker in pool:
        if worker.process.is_alive():
            worker.process.kill()
            worker.process.join(LEAVE_SECONDS)
        worker.connection.close()
        with contextlib.suppress(ValueError):
            worker.process.close()
