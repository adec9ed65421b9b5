"""The click group and its error plumbing: one ``Error:`` line, the right exit code."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from importlib import import_module
from typing import Any

import click

from exactodds.errors import ExactOddsError


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

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        try:
            result = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.ClickException as error:
            if isinstance(error, _NO_ARGS_IS_HELP):
                # Plain `exactodds`: the help, as --help gives it, is the answer.
                click.echo(error.format_message())
                if not standalone_mode:
                    raise
                sys.exit(0)
            click.echo(f"Error: {error.format_message()}", err=True)
            if not standalone_mode:
                raise
            sys.exit(error.exit_code)
        except click.Abort:
            click.echo("Aborted.", err=True)
            sys.exit(1)
        except BrokenPipeError:  # output piped into a command that stopped reading
            sys.stderr.close()
            sys.exit(1)
        if standalone_mode:
            sys.exit(result if isinstance(result, int) else 0)
        return result


def usage_error(error: ExactOddsError) -> click.UsageError:
    return click.UsageError(str(error))


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="exactodds")
def cli() -> None:
    """Exact odds of baccarat (Punto Banco), by combinatorial enumeration.

    Every figure is an exact rational: counts of every ordered six-card
    sequence a shoe can deal, for any shoe, drawing rules and pay table.
    """


def emit(text: str) -> None:
    click.echo(text)


def main() -> None:
    """Console entry point."""
    cli()
