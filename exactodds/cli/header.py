"""The identification header of a filed sheet (``report``, ``audit``): its options, read once.

Both commands take ``--title`` and ``--date`` (``report`` also the game's name and version and
the author); :func:`header_options` adds them and hands the command one :class:`Header`, whose
:meth:`Header.identity` is the sheet's :class:`~exactodds.studies.parsheet.SheetIdentity`:
title, pay table, version, the command line as typed, date.

>>> sheet_date("2026-01-31")
'2026-01-31'
>>> sheet_date("31/01/2026")
Traceback (most recent call last):
...
exactodds.errors.ExactOddsError: Date '31/01/2026' is not valid; use a date such as 2026-01-31.
"""

from __future__ import annotations

import datetime
import functools
import os
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from exactodds.errors import ExactOddsError

if TYPE_CHECKING:
    from exactodds.studies.parsheet import SheetIdentity

__all__ = ["Header", "RecordingCommand", "header_options", "paytable_name", "sheet_date"]

Function = TypeVar("Function", bound=Callable[..., Any])

#: Where :class:`RecordingCommand` keeps a command's arguments as typed.
_ARGUMENTS = "exactodds.report.arguments"


class RecordingCommand(click.Command):
    """A command that keeps its own arguments as typed, for the sheet's header."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta[_ARGUMENTS] = list(args)
        return super().parse_args(ctx, args)


def sheet_date(date: str | None) -> str:
    """--date (YYYY-MM-DD), else SOURCE_DATE_EPOCH, else today (UTC)."""
    if date is not None:
        try:
            return datetime.date.fromisoformat(date.strip()).isoformat()
        except ValueError:
            raise ExactOddsError(
                f"Date {date[:40]!r} is not valid; use a date such as 2026-01-31."
            ) from None
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch is not None:
        if not (epoch.strip().isascii() and epoch.strip().isdigit()) or len(epoch.strip()) > 12:
            raise ExactOddsError(
                f"SOURCE_DATE_EPOCH {epoch[:40]!r} is not valid; use whole seconds since 1970."
            )
        moment = datetime.datetime.fromtimestamp(int(epoch), tz=datetime.UTC)
        return moment.date().isoformat()
    return datetime.datetime.now(datetime.UTC).date().isoformat()


def paytable_name(paytable: str | None, pays: tuple[str, ...]) -> str:
    """The header's pay-table line: the --paytable file's name (or standard pays) and --pay.

    >>> paytable_name("pays/ez.toml", ("dragon7=30",))
    'ez.toml, with dragon7=30'
    """
    name = Path(paytable).name if paytable is not None else "standard pays"
    return name + (f", with {', '.join(pays)}" if pays else "")


@dataclass(frozen=True)
class Header:
    """The header options as given (``None``: not given)."""

    title: str | None = None
    date: str | None = None
    game_name: str | None = None
    game_version: str | None = None
    author: str | None = None

    def identity(self, option_values: dict[str, Any], default_title: str) -> SheetIdentity:
        """The sheet's header: these options, the pay table, the version and the command line."""
        from exactodds.report.document.blocks import package_version
        from exactodds.studies.parsheet import SheetIdentity

        context = click.get_current_context()
        arguments = context.meta.get(_ARGUMENTS, [])
        return SheetIdentity(
            title=self.title if self.title is not None else default_title,
            paytable=paytable_name(option_values["paytable"], tuple(option_values["pays"])),
            version=package_version(),
            command=shlex.join(["exactodds", context.info_name or "", *arguments]),
            date=sheet_date(self.date),
            game_name=self.game_name or "",
            game_version=self.game_version or "",
            author=self.author or "",
        )


_GAME_OPTIONS = (
    click.option("--game-name", metavar="TEXT", help="The game's name in the header."),
    click.option(
        "--game-version", metavar="TEXT", help="The game's or pay table's version in the header."
    ),
    click.option("--author", metavar="TEXT", help="Who prepared the sheet, in the header."),
)


def header_options(
    title_help: str, date_help: str, *, game: bool = False
) -> Callable[[Function], Function]:
    """``--title`` (then, with *game*, the game's name, version and author) and ``--date``.

    The command receives them as one ``header`` argument, a :class:`Header`.
    """
    names = ("title", "date", *(("game_name", "game_version", "author") if game else ()))

    def decorate(function: Function) -> Function:
        @functools.wraps(function)
        def command(*args: Any, **values: Any) -> Any:
            header = Header(**{name: values.pop(name) for name in names})
            return function(*args, header=header, **values)

        options = [
            click.option("--title", metavar="TEXT", help=title_help),
            *(_GAME_OPTIONS if game else ()),
            click.option("--date", metavar="YYYY-MM-DD", help=date_help),
        ]
        for option in reversed(options):
            command = option(command)
        return command  # type: ignore[return-value]

    return decorate
