"""``simulate --sweep``: one study per combination of the swept settings, on the same seed.

Every combination's study is built (and so checked) before the first shoe is dealt; then
each runs as a separate ``simulate`` would, and the rows are rendered together.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import click

from exactodds.cli.app import emit
from exactodds.cli.plots import write_plots
from exactodds.errors import ExactOddsError
from exactodds.simulation.dealing import SimulationError

__all__ = ["run_sweep"]


def _whole(name: str, value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise SimulationError(
            f"--sweep {name} value {value!r} is not a whole number; give values such as 6,8."
        ) from None


def _overridden(
    options: dict[str, Any], combination: tuple[tuple[str, str], ...]
) -> dict[str, Any]:
    chosen = dict(options)
    chosen["sizing_options"] = dict(options["sizing_options"])
    for name, value in combination:
        if name in ("decks", "cut"):
            chosen[name] = _whole(name, value)
        elif name == "play":
            chosen["plays"] = (value,)
        elif name == "stake":
            chosen["sizing_options"]["stake"] = value
        elif name == "min-edge":
            chosen["min_edge"] = value
        else:  # pays
            chosen["pays"] = (*options["pays"], value)
    return chosen


def run_sweep(
    build: Callable[[dict[str, Any]], Any],
    options: dict[str, Any],
    texts: tuple[str, ...],
    jobs: int | None,
    output_format: str,
    digits: int,
    plot_directory: str | None,
) -> str:
    """The rendered rows of every combination (figures written to *plot_directory*)."""
    from exactodds.report.sweep import (
        render_sweep_csv,
        render_sweep_json,
        render_sweep_table,
        sweep_figures,
    )
    from exactodds.simulation.run import simulate
    from exactodds.simulation.sweep import parse_sweeps, sweep_row

    sweep = parse_sweeps(texts)
    combinations = list(sweep.combinations())
    studies = [build(_overridden(options, combination)) for combination in combinations]
    workers = jobs if jobs is not None else (os.cpu_count() or 1)
    rows = [
        sweep_row(combination, simulate(study, jobs=workers))
        for combination, study in zip(combinations, studies, strict=True)
    ]
    if output_format == "json":
        text = render_sweep_json(rows)
    elif output_format == "csv":
        text = render_sweep_csv(rows)
    else:
        text = render_sweep_table(rows, digits)
    if plot_directory is not None:
        try:
            write_plots(sweep_figures(rows), plot_directory)
        except ExactOddsError as error:  # the rows are kept: printed, then an output failure
            emit(text)
            raise click.ClickException(str(error)) from None
    return text
