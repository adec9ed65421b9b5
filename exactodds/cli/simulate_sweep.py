"""``simulate --sweep``: one study per combination of the swept settings, on the same seed.

Every combination's study is built (and so checked) before the first shoe is dealt; then
each runs as a separate ``simulate`` would, and the rows are rendered together. The rules
and bets the command built are reused; a swept pay or play that changes the bets builds
each distinct set of bets once.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import click

from exactodds.bets.bet import Bet
from exactodds.cli.app import emit
from exactodds.cli.plots import write_plots
from exactodds.errors import ExactOddsError, SimulationError
from exactodds.inputs import whole_number
from exactodds.rules import Rules

__all__ = ["run_sweep"]


def _whole(name: str, value: str) -> int:
    return whole_number(value, "sweep", SimulationError, what=f"Value of {name}", text=True)


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


def _studies(
    build: Callable[[dict[str, Any], Rules, list[Bet]], Any],
    options: dict[str, Any],
    combinations: list[tuple[tuple[str, str], ...]],
    built: tuple[Rules, list[Bet]],
    selection_of: Callable[[dict[str, Any]], str | None],
) -> list[Any]:
    """Each combination's study, on the command's rules, its bets reused where they are the same.

    The bets depend only on the selection (which a swept play may name) and the pays (which
    may be swept); each distinct pair is built once.
    """
    from exactodds.interface import bets_from_values

    rules, bets = built
    cache: dict[tuple[str | None, tuple[str, ...]], list[Bet]] = {
        (selection_of(options), tuple(options["pays"])): bets
    }
    studies = []
    for combination in combinations:
        chosen = _overridden(options, combination)
        key = (selection_of(chosen), tuple(chosen["pays"]))
        if key not in cache:
            cache[key] = bets_from_values(rules, chosen, selection=key[0])
        studies.append(build(chosen, rules, cache[key]))
    return studies


def run_sweep(
    build: Callable[[dict[str, Any], Rules, list[Bet]], Any],
    options: dict[str, Any],
    texts: tuple[str, ...],
    jobs: int | None,
    output_format: str,
    digits: int,
    plot_directory: str | None,
    built: tuple[Rules, list[Bet]],
    selection_of: Callable[[dict[str, Any]], str | None],
    wide: bool = False,
) -> str:
    """The rendered rows of every combination (figures written to *plot_directory*).

    *built* is the rules and bets the command's options describe; *selection_of* gives the
    bet selection of option values (``--bets``, else the bets ``--play`` names); the table
    fits 100 columns unless *wide*.
    """
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
    studies = _studies(build, options, combinations, built, selection_of)
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
        text = render_sweep_table(rows, digits, wide)
    if plot_directory is not None:
        try:
            write_plots(sweep_figures(rows), plot_directory)
        except ExactOddsError as error:  # the rows are kept: printed, then an output failure
            emit(text)
            raise click.ClickException(str(error)) from None
    return text
