"""``exactodds batch``: exact odds for a stream of shoes, one JSON line each."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import BinaryIO, cast

import click

from exactodds.bets.bet import Bet
from exactodds.cli.app import note_pure_python, require_stdout, write_whole
from exactodds.cli.options import built_options
from exactodds.errors import quoted
from exactodds.inputs import read_lines
from exactodds.rules import Rules

#: Lines per chunk with --full (each line is priced and written in Python).
FULL_CHUNK_LINES = 32


@click.command(name="batch")
@click.argument("source", metavar="[FILE|-]", default="-")
@built_options(shoe=False)
@click.option(
    "--digits",
    type=click.IntRange(0, 100),
    default=10,
    show_default=True,
    help="Decimal places of the decimal figures.",
)
@click.option(
    "--full",
    is_flag=True,
    help="Give every bet every field 'odds --format json' gives (slower), not just EV and edge.",
)
@click.option(
    "--skip-bad", is_flag=True, help="Skip bad lines (reported on stderr) instead of stopping."
)
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option(
    "--jobs",
    type=click.IntRange(1, 64),
    default=None,
    help="Worker threads (default: one per core); output order never changes.",
)
def batch(
    source: str,
    rules: Rules,
    bets: list[Bet],
    digits: int,
    full: bool,
    skip_bad: bool,
    quiet: bool,
    jobs: int | None,
) -> None:
    """Exact EVs for many shoes: one JSON line in, one JSON line out, in order.

    Each input line is a shoe as --shoe takes it in JSON ({"A": 32, ..., "K": 32},
    or per card {"AS": 8, ...}); blank lines are ignored. Each output line has the
    shoe, the total, the outcome counts and a "bets" object shaped like
    'odds --format json' (exact and decimal EV and house edge of each selected
    bet; every field with --full). Output streams as it is computed, so memory
    stays flat on long inputs. A bad line stops the run with its line number
    (exit 2) after the lines before it are written, unless --skip-bad.

    \b
    Examples:
      exactodds batch shoes.jsonl > results.jsonl
      exactodds batch --bets all --skip-bad shoes.jsonl
      echo '{"A": 31, "2": 32, "3": 32, "4": 32, "5": 32, "6": 32, "7": 32, "8": 32, "9": 32, "T": 32, "J": 32, "Q": 32, "K": 32}' | exactodds batch --bets banker,dragon7
    """
    # Threads, not processes: the compiled kernel parses, counts and writes each chunk
    # without the interpreter lock, so nothing is pickled between processes.
    workers = jobs if jobs is not None else (os.cpu_count() or 1)
    from exactodds.analysis.many import analyzer_for  # numpy only for this command
    from exactodds.cli.batch_lines import BadLine, batch_lines

    analyzer = analyzer_for(rules, tuple(bets))
    note_pure_python(quiet)
    require_stdout()  # a closed stdout fails now, not after the whole input is computed
    stream = _open_input(source)
    skipped = 0
    written = 0
    show_progress = not quiet and sys.stderr is not None and sys.stderr.isatty()
    size = _file_size(source)
    with (
        stream if source != "-" else contextlib.nullcontext(stream),  # stdin stays open
        click.progressbar(
            length=size or 1,
            label="Input read",
            update_min_steps=max(1, (size or 0) // 200),
            file=sys.stderr,
            hidden=not show_progress or size is None,
        ) as progress,
    ):

        def counted(lines: Iterable[str]) -> Iterator[str]:
            # The bar follows the input as it is read (a few chunks ahead of the output).
            for line in lines:
                progress.update(len(line))
                yield line

        # Bytes in, lines of bounded length out: bad UTF-8 and overlong lines are reported by
        # the shoe reader in their places, so every good line before them is still written.
        read = read_lines(stream, stop_after_long_line=not skip_bad)
        # Without a bar to move, the lines go straight to the workers.
        lines = counted(read) if show_progress and size is not None else read
        # --full lines cost some milliseconds each in Python: small chunks, so the first lines
        # come out at once and a reader that has gone (| head) is noticed within a chunk.
        chunk = FULL_CHUNK_LINES if full else 2048
        for item in batch_lines(lines, analyzer, digits, full, skip_bad, workers, chunk):
            if isinstance(item, BadLine):
                if not skip_bad:
                    sys.stdout.flush()
                    raise click.UsageError(
                        f"{str(item).rstrip('.')}; use --skip-bad to go on past bad lines."
                    )
                skipped += 1
                sys.stdout.flush()  # the report follows the results before it
                click.echo(f"Skipped {str(item)[0].lower()}{str(item)[1:]}", err=True)
                continue
            write_whole(item)  # Ctrl-C waits for the block: output stays whole lines
            written += item.count("\n")
            if show_progress and size is None:
                click.echo(f"\rShoes: {written:,}", file=sys.stderr, nl=False)
    if show_progress and size is None and written:
        click.echo(file=sys.stderr)
    sys.stdout.flush()
    if skipped and not written:
        raise click.UsageError(
            f"Every line was bad: skipped {skipped} line{'s' if skipped != 1 else ''} and "
            "wrote no result."
        )
    if skipped:
        click.echo(
            f"Skipped {skipped} bad line{'s' if skipped != 1 else ''}; "
            f"wrote {written} result{'s' if written != 1 else ''}.",
            err=True,
        )


def _open_input(source: str) -> BinaryIO:
    """The batch input as bytes: a file, or ``-`` for stdin; any failure is one sentence."""
    if source == "-":
        stdin = sys.stdin
        buffer = getattr(stdin, "buffer", None) if stdin is not None else None
        if stdin is None or stdin.closed or buffer is None:
            raise click.UsageError("Cannot read batch input from standard input: it is closed.")
        return cast(BinaryIO, buffer)
    try:
        return open(source, "rb")
    except (OSError, ValueError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else "not a file"
        raise click.UsageError(
            f"Cannot read batch input {quoted(source, 200)}: {reason}."
        ) from None


def _file_size(source: str) -> int | None:
    """The size in bytes of a regular input file, for the progress bar; None for a stream."""
    if source == "-":
        return None
    try:
        path = Path(source)
        return path.stat().st_size if path.is_file() else None
    except OSError:
        return None
