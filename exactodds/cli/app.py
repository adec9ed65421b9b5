"""The click group and its error plumbing: one ``Error:`` line, the right exit code.

Every way a run can end badly ends here, in :meth:`_Group.main`, as one line on stderr that
starts with ``Error:`` and an exit code, never a traceback:

==========================================================  ====  ===========================
what happened                                               exit  stderr
==========================================================  ====  ===========================
bad input: an :class:`~exactodds.errors.ExactOddsError`,     2     ``Error: <the sentence>``
a click usage error
the output cannot be written (a full disk, a closed stdout)  1     ``Error: Cannot write ...``
the reader of a pipe has gone (``| head``)                  1     nothing
Ctrl-C (SIGINT)                                             130   ``Error: Interrupted.``
SIGTERM                                                     143   ``Error: Terminated.``
anything else (a bug)                                       1     ``Error: Internal error ...``
==========================================================  ====  ===========================

Set ``EXACTODDS_DEBUG=1`` to see the traceback of an internal error.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import re
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from importlib import import_module
from types import FrameType
from typing import Any

import click

from exactodds.errors import ExactOddsError, in_words

#: Exit codes: bad input (click's own), a failure, and the shell's 128 + signal number.
EXIT_FAILURE = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 128 + signal.SIGINT
EXIT_TERMINATED = 128 + signal.SIGTERM
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
#: Output errors a command cannot do anything about but report.
_OUTPUT_ERRORS = {errno.ENOSPC, errno.EBADF, errno.EIO, errno.EFBIG, errno.EDQUOT, errno.EROFS}


class Terminated(BaseException):
    """SIGTERM arrived: raised in the main thread so that the run ends like Ctrl-C does."""


class _Interrupted(BaseException):
    """Ctrl-C inside a command, carried past click (which would print a blank line)."""


class _ClosedOutput(io.RawIOBase):
    """Standard output when the process started without one (``exactodds odds >&-``).

    Python then sets ``sys.stdout`` to ``None`` and every write would vanish; this makes the
    first write fail, so that the run reports it and exits 1 instead of 0 with no output.
    """

    def __init__(self) -> None:
        super().__init__()
        self.reported = False

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        if self.reported:
            return len(data)
        raise OSError(errno.EBADF, "standard output is closed")


#: Library parameters whose flag is not their own name (the option table has the rest).
_FLAGS = {
    "limits.minimum": "--table-min",
    "limits.maximum": "--table-max",
    "limits.chip": "--chip",
    "strategies": "--play",
    "overlay": "--multipliers",
    "ranges": "--design",
    "window": "--target-edge",
    "top": "--design-top",
    "thresholds.units_per_100_rounds": "--safe-units",
    "thresholds.money_per_hour": "--safe-per-hour",
    "thresholds.max_bet": "--max-bet",
    "thresholds.rounds_per_hour": "--rounds-per-hour",
    "thresholds.confidence": "--confidence",
}


def flag(name: str) -> str:
    """The command line's flag for the library parameter or field *name*.

    The one place the library's words become the command line's: the option table
    (:mod:`exactodds.interface`) knows each shared option's field, parameter and flag;
    any other parameter is its own flag, ``_`` written ``-``.

    >>> flag("tie_pays"), flag("selection"), flag("pays"), flag("rounds_per_hour")
    ('--tie-pays', '--bets', '--pay', '--rounds-per-hour')
    """
    from exactodds.interface import OPTIONS

    if name in _FLAGS:
        return _FLAGS[name]
    for option in OPTIONS:
        if name in (option.field, option.parameter):
            return option.flag
    return "--" + name.replace("_", "-")


def flag_words(message: str) -> str:
    """*message* with each library parameter it names written as the command line's flag.

    >>> flag_words("Commission '5' for `commission` is not valid.")
    "Commission '5' for --commission is not valid."
    """
    return in_words(message, flag)


def report(message: str) -> None:
    """Write ``Error: <message>`` to stderr as exactly one line, whatever the message holds.

    Control characters (a newline in a quoted value, a terminal escape) are shown escaped,
    and characters stderr cannot encode are written as escapes, never an encoding error.
    """
    line = _CONTROL.sub(lambda match: repr(match.group())[1:-1], message.strip())
    stream = sys.stderr
    if stream is None:  # stderr closed: the exit code still tells
        return
    encoding = getattr(stream, "encoding", None) or "utf-8"
    text = f"Error: {line}\n".encode(encoding, "backslashreplace").decode(encoding, "replace")
    try:
        stream.write(text)
        stream.flush()
    except (OSError, ValueError):
        pass


def _silence_stdout() -> None:
    """After an output error: send what is still buffered nowhere, so exit stays quiet."""
    stream = sys.stdout
    raw = getattr(getattr(stream, "buffer", None), "raw", None)
    if isinstance(raw, _ClosedOutput):
        raw.reported = True
        return
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        pass


def require_stdout() -> None:
    """Fail now if standard output was closed when the process started (before any work)."""
    raw = getattr(getattr(sys.stdout, "buffer", None), "raw", None)
    if isinstance(raw, _ClosedOutput) and not raw.reported:
        raise OSError(errno.EBADF, "standard output is closed")


def _guard_stdout() -> None:
    if sys.stdout is None:
        sys.stdout = io.TextIOWrapper(io.BufferedWriter(_ClosedOutput()), encoding="utf-8")


def _output_failure(error: OSError) -> str:
    reason = (error.strerror or str(error) or type(error).__name__).rstrip(".")
    if error.errno in _OUTPUT_ERRORS and error.filename is None:
        return f"Cannot write the output: {reason[:1].lower()}{reason[1:]}."
    where = f" ({str(error.filename)[:200]})" if error.filename else ""
    return f"{reason}{where}."


class _NeverRaised(Exception):
    """Stands in for click's NoArgsIsHelpError where click (before 8.2) has none."""


# click 8.2 and later raise this for a group called with no arguments; older ones print help.
_NO_ARGS_IS_HELP: type[Exception] = getattr(click.exceptions, "NoArgsIsHelpError", _NeverRaised)


class _Group(click.Group):
    """A group whose errors print as one line: ``Error: <sentence>``.

    Its commands are named in :data:`exactodds.cli.COMMANDS` and imported only when run (or
    when ``--help`` lists them), so that ``exactodds odds`` pays for no other command's imports.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy_commands: dict[str, str] = {}
        self.task_summaries: dict[str, dict[str, str]] = {}

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The commands by task, each with its one line whole (click would cut it at 45
        characters and sort the commands by name); a command in no task is listed last."""
        listed = {name for summaries in self.task_summaries.values() for name in summaries}
        sections = [
            (task, list(summaries.items())) for task, summaries in self.task_summaries.items()
        ]
        others = [name for name in self.list_commands(ctx) if name not in listed]
        if others:
            rows = []
            for name in others:
                command = self.get_command(ctx, name)
                if command is not None and not command.hidden:
                    rows.append((name, command.get_short_help_str(limit=1000)))
            sections.append(("Other commands", rows))
        widest = max((len(name) for _, rows in sections for name, _ in rows), default=0)
        for task, rows in sections:  # one column for the lines of every section
            if rows:
                with formatter.section(task):
                    formatter.write_dl([(name.ljust(widest), line) for name, line in rows])

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy_commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in self.lazy_commands:
            module_name, _, attribute = self.lazy_commands[cmd_name].partition(":")
            command = getattr(import_module(module_name), attribute)
            if not isinstance(command, click.Command):  # pragma: no cover - a wrong registry entry
                raise TypeError(f"{self.lazy_commands[cmd_name]} is not a click command")
            self.add_command(command, cmd_name)
        return super().get_command(ctx, cmd_name)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            raise _Interrupted() from None

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        _guard_stdout()
        code: int | None = None
        try:
            result = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
            if sys.stdout is not None:
                sys.stdout.flush()  # a full disk shows here, not as a warning at exit
        except ExactOddsError as error:
            report(flag_words(str(error)))
            code = EXIT_USAGE
        except (_Interrupted, KeyboardInterrupt, click.Abort):
            report("Interrupted.")
            code = EXIT_INTERRUPTED
        except Terminated:
            report("Terminated.")
            code = EXIT_TERMINATED
        except BrokenPipeError:  # output piped into a command that stopped reading
            _silence_stdout()
            code = EXIT_FAILURE
        except OSError as error:
            report(_output_failure(error))
            _silence_stdout()
            code = EXIT_FAILURE
        except click.ClickException as error:
            if isinstance(error, _NO_ARGS_IS_HELP):
                # Plain `exactodds`: the help, as --help gives it, is the answer.
                click.echo(error.format_message())
                if not standalone_mode:
                    raise
                sys.exit(0)
            report(flag_words(error.format_message()))
            if not standalone_mode:
                raise
            sys.exit(error.exit_code)
        except Exception as error:
            if os.environ.get("EXACTODDS_DEBUG"):
                raise
            detail = f"{type(error).__name__}: {str(error)[:200]}".rstrip(": ")
            report(
                f"Internal error ({detail}); please report it with the command that caused it "
                "(EXACTODDS_DEBUG=1 shows the traceback)."
            )
            code = EXIT_FAILURE
        if code is not None:
            if not standalone_mode:
                raise SystemExit(code)
            sys.exit(code)
        if standalone_mode:
            sys.exit(result if isinstance(result, int) else 0)
        return result


def usage_error(error: ExactOddsError) -> click.UsageError:
    return click.UsageError(str(error))


#: Set to 1 to silence the note that the compiled kernel is not built.
QUIET_KERNEL_VARIABLE = "EXACTODDS_QUIET_KERNEL"


def kernel_line() -> str:
    """Which kernel evaluates many shoes: the compiled one, or the exact pure-Python twin."""
    from exactodds.engine.kernel.program import native_module

    if native_module() is not None:
        return "compiled kernel: in use"
    return "compiled kernel: not built; the exact pure-Python twin runs (slower)"


def note_pure_python(quiet: bool = False) -> None:
    """Say once on stderr, before a command that evaluates many shoes, that the kernel is missing.

    Silenced by ``EXACTODDS_QUIET_KERNEL=1`` or by the command's ``--quiet``.
    """
    from exactodds.engine.kernel.program import native_module

    silenced = quiet or os.environ.get(QUIET_KERNEL_VARIABLE, "") not in ("", "0")
    if native_module() is None and not silenced:
        click.echo(
            "Note: the compiled kernel is not built here, so exactodds runs its exact "
            "pure-Python twin (the same figures, several times slower); "
            f"set {QUIET_KERNEL_VARIABLE}=1 to silence this note.",
            err=True,
        )


def _show_version(context: click.Context, _parameter: click.Parameter, value: bool) -> None:
    if not value or context.resilient_parsing:
        return
    from importlib.metadata import version

    click.echo(f"{context.find_root().info_name}, version {version('exactodds')}")
    click.echo(kernel_line())
    context.exit()


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_show_version,
    help="Show the version and the kernel in use, and exit.",
)
def cli() -> None:
    """Exact odds of baccarat (Punto Banco), by combinatorial enumeration.

    Every figure is an exact rational: counts of every ordered six-card
    sequence a shoe can deal, for any shoe, drawing rules and pay table.

    The manual: README.md and the docs/ folder of the source, also as a site
    (`mkdocs serve`, with the docs extra). `exactodds COMMAND --help` gives a
    command's options and examples.
    """


def emit(text: str) -> None:
    click.echo(text)


#: Held while a block of output is written, so that a signal ends the run between lines.
_output_lock = threading.Lock()
_HANDLED = (signal.SIGINT, signal.SIGTERM)


def write_whole(text: str) -> None:
    """Write *text* to stdout, all of it: Ctrl-C and SIGTERM end the run before or after it.

    Bytes go straight to the binary buffer, in a loop (a write that a signal interrupts may
    return having written only part of its data, and the text layer above would drop the
    rest), under the lock the signal watcher takes before it flushes and leaves.
    """
    stream = sys.stdout
    buffer = getattr(stream, "buffer", None)
    with _output_lock:
        if buffer is None or not hasattr(buffer, "write"):
            stream.write(text)
            return
        data = memoryview(text.encode(stream.encoding or "utf-8", stream.errors or "strict"))
        while data:
            count = buffer.write(data)
            data = data[count if count is not None else 0 :]


#: A command that can end cleanly on a signal (simulate: save, print, leave) puts here what to
#: call; the watcher calls it with the signal number instead of ending the run.
_graceful: list[Callable[[int], None]] = []


@contextlib.contextmanager
def signals_request_stop(request: Callable[[int], None]) -> Iterator[None]:
    """Within this block, SIGINT or SIGTERM calls ``request(number)`` instead of ending the run.

    The command then finishes what it is doing, writes what it has and exits ``128 + number``;
    a second signal ends the run at once, as outside the block.
    """
    _graceful.append(request)
    try:
        yield
    finally:
        _graceful.remove(request)


def _watch_signals(numbers: set[signal.Signals]) -> None:
    """Wait for SIGINT or SIGTERM, then end the run: whole output lines, one ``Error:`` line.

    The signals are blocked in every thread (threads inherit the mask), so they wait here,
    whatever the main thread is blocked on: reading a pipe, a worker's result, a lock. Left
    to the operating system, a signal can land on a worker thread, and the main thread,
    blocked in a read, would never see it. Inside :func:`signals_request_stop` the first
    signal only asks the command to stop.
    """
    number = signal.sigwait(numbers)
    if _graceful:
        _graceful[-1](number)
        number = signal.sigwait(numbers)
    holding = _output_lock.acquire(timeout=5)  # let a block being written finish
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except (OSError, ValueError):
        pass
    report("Terminated." if number == signal.SIGTERM else "Interrupted.")
    if "multiprocessing" in sys.modules:  # forked batch workers leave with us, silently
        import multiprocessing

        for child in multiprocessing.active_children():
            child.terminate()
    del holding
    os._exit(128 + number)


def _leave_quietly(number: int, frame: FrameType | None) -> None:
    os._exit(128 + number)


def _in_forked_child(numbers: set[signal.Signals], parent: int) -> None:
    """A forked worker: no watcher thread here, so the signals end it at once, silently.

    It also ends with its parent (Linux): a pool replaces a worker that was ended, and a
    replacement forked just as the parent leaves would otherwise wait for work forever,
    holding the output pipe open.
    """
    for number in numbers:
        signal.signal(number, _leave_quietly)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, numbers)
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None).prctl(1, int(signal.SIGTERM))  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):  # pragma: no cover - no prctl here
            pass
    if os.getppid() != parent:  # the parent left before the line above
        os._exit(EXIT_TERMINATED)


def _watch() -> None:
    numbers = {
        number
        for number in _HANDLED
        if signal.getsignal(number) in (signal.SIG_DFL, signal.default_int_handler)
    }  # an ignored signal (a background job's SIGINT) stays ignored
    if not numbers or not hasattr(signal, "pthread_sigmask"):
        return
    signal.pthread_sigmask(signal.SIG_BLOCK, numbers)
    parent = os.getpid()
    os.register_at_fork(after_in_child=lambda: _in_forked_child(numbers, parent))
    watcher = threading.Thread(target=_watch_signals, args=(numbers,), daemon=True)
    watcher.name = "exactodds-signals"
    watcher.start()


def main() -> None:
    """Console entry point: the CLI, with SIGINT and SIGTERM ending it in one line."""
    _watch()
    cli()
