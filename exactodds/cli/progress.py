"""Word on long work: one progress line on stderr, redrawn in place, only at a terminal.

A command that may run for more than a couple of seconds (``edgesort``, ``report``, ``audit``,
``depth``) passes :func:`progress_line`'s callback to the library, which calls it with what
is done, out of how much, and what is being counted.  Nothing is drawn when stderr is not a
terminal (a pipe, a file, a test) or with the command's ``--quiet``; the line is cleared when
the work ends, so the terminal shows only the result.

>>> progress_line(quiet=True) is None
True
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import IO

__all__ = ["ProgressLine", "finish_progress", "progress_line"]

#: The callback: ``(done, total, step)``; *step* says what is counted ("splits", "bets").
ProgressLine = Callable[[int, int, str], None]

_BAR = 30


def _terminal(stream: IO[str] | None) -> bool:
    return stream is not None and stream.isatty()


def progress_line(quiet: bool = False, label: str = "") -> ProgressLine | None:
    """A callback drawing ``label [####------] done/total step`` on stderr, or ``None`` when
    *quiet* or when stderr is not a terminal (so the library skips the calls altogether)."""
    if quiet or not _terminal(sys.stderr):
        return None

    def report(done: int, total: int, step: str = "") -> None:
        filled = _BAR * min(done, total) // max(total, 1)
        text = f"{label} [{'#' * filled}{'-' * (_BAR - filled)}] {done:,}/{total:,} {step}"
        sys.stderr.write("\r" + text.strip()[:99].ljust(99))
        sys.stderr.flush()

    return report


def finish_progress(progress: ProgressLine | None) -> None:
    """Clear the progress line, if one was drawn, so the output starts on a clean line."""
    if progress is not None and sys.stderr is not None:
        sys.stderr.write("\r" + " " * 99 + "\r")
        sys.stderr.flush()
