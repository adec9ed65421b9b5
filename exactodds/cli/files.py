"""Writing a command's output file: refused before any work when it cannot be written, and
written whole or not at all.

``report`` (a par sheet) and ``audit`` both write with these: the path is checked first (a
directory, a missing folder, no permission: one sentence, exit 2), and the content goes to a
temporary file beside it, renamed into place, so that a full disk leaves no half-written file
(one sentence, exit 1).

>>> check_writable("/", "the par sheet", "sheet.html")
Traceback (most recent call last):
...
exactodds.errors.ExactOddsError: Cannot write the par sheet to '/': it is a directory.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import click

from exactodds.errors import ExactOddsError

__all__ = ["check_writable", "write_file"]


def check_writable(output: str, what: str, example: str) -> None:
    """Refuse an output path that cannot be written, before any work is done.

    *what* names the content in the sentence ("the par sheet", "the audit"), *example* a file
    name to suggest for an empty path.

    >>> check_writable("no/such/folder/audit.md", "the audit", "audit.md")
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: Cannot write the audit to 'no/such/folder/audit.md': the directory 'no/such/folder' does not exist.
    """
    if not output.strip():
        raise ExactOddsError(
            f"Cannot write {what} to {output!r}: the path is empty; give a file name such as "
            f"-o {example}."
        )
    path = Path(output)
    if path.is_dir():
        raise ExactOddsError(f"Cannot write {what} to {output!r}: it is a directory.")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise ExactOddsError(
            f"Cannot write {what} to {output!r}: the directory {str(parent)!r} does not exist."
        )
    if not os.access(parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise ExactOddsError(f"Cannot write {what} to {output!r}: permission denied.")


def write_file(output: str, content: bytes, what: str) -> None:
    """Write *content* whole or not at all: a temporary file beside *output*, renamed into place,
    and say so on stderr ("Wrote FILE.").

    A device or a pipe (``/dev/stdout``, ``/dev/full``) is written in place. On any failure the
    temporary file is removed and the run ends with exit 1, in one sentence naming *what*.
    """
    path = Path(output)
    try:
        if path.exists() and not path.is_file():
            with open(path, "wb") as stream:
                stream.write(content)
            return  # a device or a pipe: nothing to name

        handle, temporary = tempfile.mkstemp(
            prefix=f".{path.name}.", suffix=".tmp", dir=path.parent if str(path.parent) else "."
        )
        try:
            # mkstemp makes the file private; give it the mode a new file would have.
            mask = os.umask(0)
            os.umask(mask)
            mode = path.stat().st_mode & 0o7777 if path.exists() else 0o666 & ~mask
            os.chmod(temporary, mode)
            with os.fdopen(handle, "wb") as stream:
                stream.write(content)
                stream.flush()
                os.fsync(stream.fileno())
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        if sys.stderr is not None:
            click.echo(f"Wrote {output}.", err=True)
    except OSError as error:
        raise click.ClickException(
            f"Cannot write {what} to {output!r}: {error.strerror or error}; no file was left "
            "behind."
        ) from None
