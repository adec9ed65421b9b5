"""The command line, invoked in-process the one way every CLI test does it."""

from __future__ import annotations

from click.testing import CliRunner, Result

from exactodds.cli import cli


def run(*args: str, input: str | None = None) -> Result:
    """Invoke the CLI in-process; stdout and stderr are kept apart (click 8.2+).

    ``prog_name`` is what the installed console script is called (click would
    otherwise name the program after the function, ``cli``).
    """
    return CliRunner().invoke(cli, list(args), input=input, prog_name="exactodds")


def run_ok(*args: str, input: str | None = None) -> Result:
    """Invoke the CLI and check that it succeeded quietly, its output ending in a newline."""
    result = run(*args, input=input)
    assert result.exception is None, (result.exception, result.stderr)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    assert result.stdout.endswith("\n")
    return result
