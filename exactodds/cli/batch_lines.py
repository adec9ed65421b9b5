"""``exactodds batch``'s lines: JSON shoes read one a line, a JSON result written for each.

The reader (:func:`read_shoes`) and the writer (:func:`batch_lines`) of the batch command.
Simple lines go through the compiled kernel's own JSON-line codec (``_batch_codec.c``), which
parses, counts and writes without the interpreter lock, on the text layout
:func:`batch_program` gives it; every other line goes through :func:`read_shoes` and
:func:`~exactodds.report.odds.batch_line`, the specification the kernel's text is held to.

>>> from exactodds.analysis.many import Analyzer
>>> good, bad = batch_lines(['{"A": 6}', "{bad"], Analyzer(), digits=2)
>>> good[:22], str(bad)[:30]
('{"shoe": {"cards": 6, ', 'Line 2: Shoe JSON is malformed')
"""

from __future__ import annotations

import collections
import itertools
import json
import threading
import weakref
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

from exactodds.analysis.many import PLAYER_OUTPUT, TIE_OUTPUT, Analyzer
from exactodds.analysis.single import SUITS_UNKNOWN
from exactodds.engine.kernel.program import Program, native_module
from exactodds.engine.walk import require_countable
from exactodds.errors import ShoeError
from exactodds.report.odds import batch_line
from exactodds.shoe import Shoe

__all__ = ["BadLine", "batch_lines", "batch_program", "read_shoes"]

# Each analyzer's lean program, laid out for the kernel's writer once (threads ask together).
_LAID_OUT: weakref.WeakKeyDictionary[Analyzer, Program | None] = weakref.WeakKeyDictionary()
_LAYING_OUT = threading.Lock()


def batch_program(analyzer: Analyzer) -> Program | None:
    """*analyzer*'s lean program with the text layout of ``exactodds batch`` set on it.

    None when a bet needs the walk, a pay denominator does not fit 63 bits, the rules charge a
    fee (the kernel's text has no ``rtp``), or the compiled kernel is not built: then every
    line goes through the Python reader and writer.

    >>> from exactodds.bets.catalogue import select_bets
    >>> program = batch_program(Analyzer(bets=select_bets("banker")))
    >>> program is None or program.native is not None
    True
    """
    with _LAYING_OUT:
        if analyzer not in _LAID_OUT:
            _LAID_OUT[analyzer] = _lay_out(analyzer)
        return _LAID_OUT[analyzer]


def _lay_out(analyzer: Analyzer) -> Program | None:
    module = native_module()
    if analyzer.rules.fee:
        return None
    lean = analyzer.lean_outputs() if module is not None else None
    if module is None or lean is None:
        return None
    program, outputs = lean
    if program.native is None or any(output.denominator >= 2**63 for output in outputs):
        return None
    unknown = json.dumps({"computable": False, "reason": SUITS_UNKNOWN})
    layout = [
        (
            f"{json.dumps(output.bet)}: ".encode(),
            f"{json.dumps(output.bet)}: {unknown}".encode(),
            output.needs_suits,
            output.output,
            output.denominator,
        )
        for output in outputs
    ]
    module.set_layout(program.native, PLAYER_OUTPUT, TIE_OUTPUT, layout)
    return program


@dataclass(frozen=True)
class BadLine:
    """A line of batch input that does not describe a shoe exactodds can count.

    >>> str(BadLine(7, "Count -1 for 'A' is negative; use a whole number of at least 0."))
    "Line 7: Count -1 for 'A' is negative; use a whole number of at least 0."
    """

    number: int
    message: str

    def __str__(self) -> str:
        return f"Line {self.number}: {self.message}"


def read_shoes(
    lines: Iterable[str], bad_lines: list[BadLine], skip_bad: bool, start: int = 1
) -> Iterator[Shoe]:
    """Shoes from JSON lines (each the object ``--shoe`` takes), in order, blank lines ignored.

    A bad line is appended to *bad_lines*; unless *skip_bad*, reading stops
    there, so that everything before it can still be written out first.

    >>> bad: list[BadLine] = []
    >>> [shoe.cards for shoe in read_shoes(['{"A": 6}', "", '{"A": 2}', '{"K": 7}'], bad, True)]
    [6, 7]
    >>> [str(line) for line in bad]
    ['Line 3: The shoe holds 2 cards; a round is counted as a sequence of 6 cards, so a shoe needs at least 6.']
    """
    for number, line in enumerate(lines, start=start):
        try:
            shoe = Shoe.from_json_line(line)  # every hostile-input rule lives behind this call
            if shoe is None:
                continue
            require_countable(shoe)
        except ShoeError as error:
            bad_lines.append(BadLine(number, str(error)))
            if skip_bad:
                continue
            return
        yield shoe


def _batch_chunk(
    job: tuple[int, list[str]], settings: tuple[Analyzer, int, bool, bool]
) -> list[str | BadLine]:
    """A chunk's JSON lines as text blocks, with any bad lines in their places.

    Simple lines (a flat JSON object of canonical rank or card symbols and
    plain counts) are parsed, evaluated and written by the compiled kernel
    without the interpreter lock; every other line is read by
    :func:`read_shoes`, so that its result or its error is exactly the one the
    Python reader gives.
    """
    analyzer, digits, full, skip_bad = settings
    program = None if full else batch_program(analyzer)
    module = native_module()
    if program is None or module is None:
        return _python_chunk(job, settings)
    start, lines = job
    text, ends_bytes, status = module.batch(program.native, lines, digits)
    if 2 not in status:
        # One block of text per clean chunk: the caller writes it in one call.
        return [text] if text else []
    ends = memoryview(ends_bytes).cast("q")
    merged: list[str | BadLine] = []
    written = 0
    for index, kind in enumerate(status):
        if kind != 2:
            continue
        if ends[index] > written:
            merged.append(text[written : ends[index]])
            written = ends[index]
        bad: list[BadLine] = []
        for shoe in read_shoes([lines[index]], bad, skip_bad, start + index):
            merged.append(_python_line(analyzer, shoe, digits, full))
        if bad:
            merged.append(bad[0])
            if not skip_bad:
                return merged
    if len(text) > written:
        merged.append(text[written:])
    return merged


def _python_line(analyzer: Analyzer, shoe: Shoe, digits: int, full: bool) -> str:
    return f"{batch_line(analyzer.analyze(shoe), digits, full)}\n"


def _python_chunk(
    job: tuple[int, list[str]], settings: tuple[Analyzer, int, bool, bool]
) -> list[str | BadLine]:
    """The whole chunk through the Python reader and formatter (``--full``, walk-priced bets)."""
    analyzer, digits, full, skip_bad = settings
    start, lines = job
    bad: list[BadLine] = []
    shoes = read_shoes(lines, bad, skip_bad, start)
    records: list[str | BadLine] = [
        batch_line(analysis, digits, full)
        for analysis in analyzer.analyze_many(shoes, prefetch=False)
    ]
    if not bad:
        return ["".join(f"{record}\n" for record in records)] if records else []
    # Put each bad line back where it stood among the good ones.
    merged: list[str | BadLine] = []
    good = iter(records)
    bad_by_number = {line.number: line for line in bad}
    for number, text in enumerate(lines, start=start):
        if number in bad_by_number:
            merged.append(bad_by_number[number])
            if not skip_bad:
                break
        elif text.strip():
            merged.append(f"{next(good)}\n")
    return merged


def batch_lines(
    lines: Iterable[str],
    analyzer: Analyzer,
    digits: int = 10,
    full: bool = False,
    skip_bad: bool = False,
    jobs: int = 1,
    chunk_lines: int = 2048,
) -> Iterator[str | BadLine]:
    """``exactodds batch``: a JSON result line per input line, in input order.

    Yields blocks of text, each one or more whole lines ending in a newline,
    and, for a bad input line, a :class:`BadLine` in its place; unless
    *skip_bad*, nothing follows a bad line.  With *jobs* > 1, chunks of lines
    are computed on that many threads (the compiled kernel parses, counts and
    writes without the interpreter lock), at most two chunks per thread in
    flight, so memory stays flat however long the input.  When the caller
    stops reading (closes the generator, e.g. because the reader of the
    output has gone), chunks not yet started are cancelled.

    >>> out = list(batch_lines(['{"A": 6}', "{bad", '{"K": 6}'], Analyzer(), digits=2))
    >>> out[0][:40], str(out[1])[:30], len(out)
    ('{"shoe": {"cards": 6, "ranks": {"A": 6, ', 'Line 2: Shoe JSON is malformed', 2)
    >>> [block.count("\\n") for block in batch_lines(['{"A": 6}', '{"K": 6}'], Analyzer())]
    [2]
    """
    chunks = _numbered_chunks(lines, chunk_lines)
    settings = (analyzer, digits, full, skip_bad)
    if not full:
        batch_program(analyzer)  # built here once, before any worker thread asks
    if jobs <= 1:
        for chunk in chunks:
            for item in _batch_chunk(chunk, settings):
                yield item
                if isinstance(item, BadLine) and not skip_bad:
                    return
        return
    pool = ThreadPoolExecutor(jobs, thread_name_prefix="exactodds-batch")
    try:
        pending: collections.deque[Future[list[str | BadLine]]] = collections.deque()
        chunks_left = True
        while chunks_left or pending:
            while chunks_left and len(pending) < 2 * jobs:
                next_chunk = next(chunks, None)
                if next_chunk is None:
                    chunks_left = False
                else:
                    pending.append(pool.submit(_batch_chunk, next_chunk, settings))
            if not pending:
                break
            for item in pending.popleft().result():
                yield item
                if isinstance(item, BadLine) and not skip_bad:
                    return
    finally:
        # Reached on a bad line, at the end, or when the caller closes the generator:
        # nothing more is computed for a reader that has gone.
        pool.shutdown(wait=False, cancel_futures=True)


def _numbered_chunks(lines: Iterable[str], size: int) -> Iterator[tuple[int, list[str]]]:
    iterator = iter(lines)
    start = 1
    while chunk := list(itertools.islice(iterator, size)):
        yield start, chunk
        start += len(chunk)
