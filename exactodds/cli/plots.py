"""``--plot DIR``, shared by ``eor`` and ``report``: figures as PNG and SVG files (matplotlib).

matplotlib is imported only when ``--plot`` is given; without the ``plot`` extra the option
fails with one sentence saying how to install it (exit 2).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import click

from exactodds.cli.options import Function
from exactodds.cli.progress import ProgressLine, finish_progress

__all__ = ["plot_option", "write_plots"]


def plot_option(function: Function) -> Function:
    """``--plot DIR``: write the command's figures into DIR as PNG and SVG."""
    return click.option(
        "--plot",
        "plot_directory",
        metavar="DIR",
        help="Also draw the figures (matplotlib, the 'plot' extra) into DIR as "
        "<bet>-<figure>.png and .svg; DIR is created if missing.",
    )(function)


def write_plots(
    figures: Iterable[tuple[str, str, Any]], directory: str, progress: ProgressLine | None = None
) -> list[Path]:
    """Save *figures* into *directory*, and say on stderr how many files were written (after
    clearing the *progress* line drawn meanwhile, if any)."""
    from exactodds.report.plots import save_figures

    written = save_figures(iter(figures), directory)
    finish_progress(progress)
    click.echo(f"Wrote {len(written)} figure files to {directory}.", err=True)
    return written
