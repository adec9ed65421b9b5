"""Where the pieces of a depth table run: in this process, in a process pool, or on Dask.

Every piece returns residues modulo the same primes, and :func:`~exactodds.advantage.
compositions.solve` adds them up in whatever order they arrive: the figures are the same
integers whichever runner computed them.

>>> with runner(1, None, None, 1) as run:
...     callable(run)
True
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from exactodds.advantage.compositions import Problem, solve_task
from exactodds.errors import ExactOddsError, import_extra, quoted

__all__ = ["Run", "WorkerLostError", "check_dask_address", "runner"]

Result = tuple[list[list[int]], list[int], int]
Run = Callable[[Problem, list[tuple[int, ...]]], Iterable[Result]]

#: How long to wait for a Dask scheduler before giving up, in seconds.
DASK_TIMEOUT = 10


class WorkerLostError(ExactOddsError):
    """A worker process of the pool ended before its pieces were done (exit 1: a failure,
    not the user's input).

    >>> str(WorkerLostError("A worker process ended."))
    'A worker process ended.'
    """


def _reporting(
    results: Iterable[Result], total: int, progress: Callable[[int, int], None] | None
) -> Iterator[Result]:
    from concurrent.futures.process import BrokenProcessPool

    done = 0
    try:
        for done, result in enumerate(results, start=1):
            if progress is not None:
                progress(done, total)
            yield result
    except BrokenProcessPool:
        raise WorkerLostError(
            f"A worker process ended abruptly after {done:,} of {total:,} pieces of the depth "
            "table (killed, or out of memory); nothing was computed with it: run again, or "
            "with fewer jobs."
        ) from None


@contextmanager
def runner(
    jobs: int, dask: Any, progress: Callable[[int, int], None] | None, depths: int
) -> Iterator[Run]:
    """A function that runs a problem's pieces, open for as long as the ``with`` block.

    *depths* is how many problems will be run (a pool is worth starting only for work).
    """
    if dask is not None:
        with _dask_runner(dask, progress) as run:
            yield run
        return
    if jobs <= 1 or depths == 0:

        def serial(problem: Problem, pieces: list[tuple[int, ...]]) -> Iterable[Result]:
            work = (solve_task(problem, piece) for piece in pieces)
            return _reporting(work, len(pieces), progress)

        yield serial
        return
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=jobs) as pool:

        def pooled(problem: Problem, pieces: list[tuple[int, ...]]) -> Iterable[Result]:
            # The problem is pickled once per chunk of pieces, not once per piece.
            chunk = max(1, math.ceil(len(pieces) / (jobs * 8)))
            work = pool.map(functools.partial(solve_task, problem), pieces, chunksize=chunk)
            return _reporting(work, len(pieces), progress)

        yield pooled


#: A scheduler address: an optional protocol, a host name or address, an optional port.
_ADDRESS = re.compile(
    r"(?:(?:tcp|tls|ws|wss|ucx|inproc)://)?(?:[A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?"
)


def check_dask_address(address: str) -> str:
    """*address* checked as a Dask scheduler address before any connection is tried.

    >>> check_dask_address("tcp://127.0.0.1:8786")
    'tcp://127.0.0.1:8786'
    >>> check_dask_address("not a url")
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: dask 'not a url' is not a scheduler address; use PROTOCOL://HOST:PORT, such as tcp://127.0.0.1:8786.
    """
    if len(address) > 300 or not _ADDRESS.fullmatch(address):
        raise ExactOddsError(
            f"dask {quoted(address, 60)} is not a scheduler address; use PROTOCOL://HOST:PORT, "
            "such as tcp://127.0.0.1:8786."
        )
    return address


@contextmanager
def _dask_runner(dask: Any, progress: Callable[[int, int], None] | None) -> Iterator[Run]:
    owned = isinstance(dask, str)
    if owned:
        check_dask_address(dask)
        import_extra("dask.distributed", "Running on a Dask cluster", "distributed")
        from dask.distributed import Client

        try:
            client = Client(dask, timeout=DASK_TIMEOUT, set_as_default=False)  # type: ignore[no-untyped-call]
        except (OSError, TimeoutError) as error:
            raise ExactOddsError(
                f"Cannot reach a Dask scheduler at {dask!r} ({error}); start one with "
                "'dask scheduler' and give its address, such as tcp://127.0.0.1:8786."
            ) from None
    else:
        client = dask

    def distributed(problem: Problem, pieces: list[tuple[int, ...]]) -> Iterable[Result]:
        from dask.distributed import as_completed

        shared = client.scatter(problem, broadcast=True)  # type: ignore[no-untyped-call]
        futures = [client.submit(solve_task, shared, piece, pure=False) for piece in pieces]
        work = (future.result() for future in as_completed(futures))  # type: ignore[no-untyped-call]
        return _reporting(work, len(pieces), progress)

    try:
        yield distributed
    finally:
        if owned:
            client.close()  # type: ignore[no-untyped-call]
