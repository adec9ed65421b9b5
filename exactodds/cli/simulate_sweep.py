"""``simulate --sweep``: one study per combination of the swept settings, on the same seed.

Every combination's study is built (and so checked) before the first shoe is dealt, at the
interface (:func:`exactodds.specs.sweep_variants`: the command's spec with the swept fields
replaced); then each runs as a separate ``simulate`` would, and the rows are rendered
together.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

import click

from exactodds.cli.app import emit
from exactodds.cli.plots import write_plots
from exactodds.errors import ExactOddsError

if TYPE_CHECKING:
    from exactodds.simulation.study import Simulation

__all__ = ["run_sweep"]


def run_sweep(
    studies: Sequence[tuple[tuple[tuple[str, str], ...], Simulation]],
    jobs: int | None,
    output_format: str,
    digits: int,
    plot_directory: str | None,
    wide: bool = False,
) -> str:
    """The rendered rows of every combination's study (figures written to *plot_directory*).

    *studies* are each combination (its settings as given) with its study; the table fits
    100 columns unless *wide*.
    """
    from exactodds.report.registry import render
    from exactodds.report.sweep import sweep_figures
    from exactodds.simulation.run import simulate
    from exactodds.simulation.sweep import SweepResult, sweep_row

    workers = jobs if jobs is not None else (os.cpu_count() or 1)
    rows = [sweep_row(combination, simulate(study, jobs=workers)) for combination, study in studies]
    text = render(SweepResult(tuple(rows)), output_format, digits=digits, wide=wide)
    if plot_directory is not None:
        try:
            write_plots(sweep_figures(rows), plot_directory)
        except ExactOddsError as error:  # the rows are kept: printed, then an output failure
            emit(text)
            raise click.ClickException(str(error)) from None
    return text
