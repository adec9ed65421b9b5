"""``--plot DIR``, shared by ``eor`` and ``report``: figures as PNG and SVG files (matplotlib).

matplotlib is imported only when ``--plot`` is given; without the ``plot`` extra the option
fails with one sentence saying how to install it (exit 2). A directory that cannot be made
(a path naming a file, or under one; no permission) is refused when the option is read,
before any work (exit 2); a figure that cannot be written then (a full disk) is an output
failure (exit 1).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import click

from exactodds.cli.options import Function
from exactodds.cli.progress import ProgressLine, finish_progress
from exactodds.errors import ExactOddsError, MissingExtraError

__all__ = ["check_plot_directory", "figure_options", "plot_option", "write_plots"]


def figure_options(
    figure: Callable[[str, str], Any],
    figures: bool,
    plot_directory: str | None,
    output: str | None,
) -> dict[str, Any]:
    """The figure callbacks a document's renderers take: with *figures*, ``figure_png`` (the
    PDF's images) and ``figure_markup`` (HTML's inline SVG); with ``--plot``,
    ``figure_path`` (Markdown's link into *plot_directory*, relative to *output*'s folder).
    *figure* gives the matplotlib figure of a bet and a kind; it is asked only when a format
    draws one.

    >>> sorted(figure_options(lambda bet, kind: None, True, None, None))
    ['figure_markup', 'figure_png']
    >>> figure_options(lambda bet, kind: None, False, "plots", None)["figure_path"]("tie", "bands")
    'plots/tie-bands.png'
    """

    def figure_png(bet: str, kind: str) -> bytes:
        from exactodds.report.plots import figure_png

        return figure_png(figure(bet, kind))

    def figure_markup(bet: str, kind: str) -> str:
        from exactodds.report.plots import figure_svg

        return figure_svg(figure(bet, kind), f"{bet}-{kind}")

    options: dict[str, Any] = {}
    if figures:
        options |= {"figure_png": figure_png, "figure_markup": figure_markup}
    if plot_directory is not None:
        base = Path(output).resolve().parent if output else Path.cwd()
        prefix = Path(os.path.relpath(Path(plot_directory).resolve(), base))

        def figure_path(bet: str, kind: str) -> str:
            from exactodds.report.plots import figure_file_stem

            return (prefix / f"{figure_file_stem(bet)}-{kind}.png").as_posix()

        options["figure_path"] = figure_path
    return options


def plot_option(function: Function) -> Function:
    """``--plot DIR``: write the command's figures into DIR as PNG and SVG."""
    return click.option(
        "--plot",
        "plot_directory",
        metavar="DIR",
        help="Also draw the figures (matplotlib, the 'plot' extra) into DIR as "
        "<bet>-<figure>.png and .svg; DIR is created if missing.",
        callback=_checked,
    )(function)


def _checked(_context: click.Context, _parameter: click.Parameter, value: str | None) -> str | None:
    if value is not None:
        check_plot_directory(value)
    return value


def check_plot_directory(directory: str) -> None:
    """Refuse, before any work, a ``--plot`` directory that cannot be made or written.

    >>> check_plot_directory("/dev/null/figures")
    Traceback (most recent call last):
    ...
    click.exceptions.UsageError: Cannot write figures to --plot '/dev/null/figures': '/dev/null' is a file, not a directory; give a directory for the figures.
    """
    where = f"Cannot write figures to --plot {directory!r}"
    if not directory.strip():
        raise click.UsageError(f"{where}: the path is empty; give a directory such as figures.")
    path = Path(directory)
    existing = path
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        shown = "it" if existing == path else repr(str(existing))
        raise click.UsageError(
            f"{where}: {shown} is a file, not a directory; give a directory for the figures."
        )
    if not os.access(existing, os.W_OK | os.X_OK):
        raise click.UsageError(f"{where}: permission denied.")


def write_plots(
    figures: Iterable[tuple[str, str, Any]], directory: str, progress: ProgressLine | None = None
) -> list[Path]:
    """Save *figures* into *directory*, and say on stderr how many files were written (after
    clearing the *progress* line drawn meanwhile, if any)."""
    from exactodds.report.plots import save_figures

    try:
        written = save_figures(iter(figures), directory)
    except MissingExtraError:
        raise
    except ExactOddsError as error:  # an output failure (a full disk): exit 1
        raise click.ClickException(str(error)) from None
    finally:
        finish_progress(progress)
    click.echo(f"Wrote {len(written)} figure files to {directory}.", err=True)
    return written
