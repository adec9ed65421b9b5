"""``--game dragon-tiger`` of ``audit`` and ``simulate``: Dragon Tiger's shoes, dealt and audited.

The baccarat audit's thresholds and verdict (``--safe-units``, ``--safe-per-hour``,
``--max-bet``, ``--rounds-per-hour``, ``--confidence``), on Dragon Tiger's own dealing
(``--decks``, ``--cut``, no burn) and study (:mod:`exactodds.studies.dragon_tiger_audit`).
What only baccarat's audit does (the depth tables, the cut-card table, the design of pay
tables, the burn rule, workers, the filed formats) is refused in one sentence.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from exactodds.cli.app import emit
from exactodds.cli.files import write_file
from exactodds.errors import ExactOddsError

if TYPE_CHECKING:
    from exactodds.games.dragon_tiger import DragonTigerTable

__all__ = [
    "BACCARAT_ONLY",
    "SIMULATE_BACCARAT_ONLY",
    "dragon_tiger_audit_command",
    "dragon_tiger_simulate_command",
]

#: audit's options that only its baccarat study reads, by parameter name and flag.
BACCARAT_ONLY = {
    "burn": "--burn",
    "cut_first_rounds": "--cut-first-rounds",
    "depths": "--depths",
    "cuts": "--cuts",
    "design_ranges": "--design",
    "target_edge": "--target-edge",
    "design_top": "--design-top",
    "jobs": "--jobs",
    "dask_address": "--dask",
    "title": "--title",
    "date": "--date",
}

#: The formats the Dragon Tiger audit is written in.
FORMATS = ("table", "json")


#: simulate's options that only its baccarat pipeline reads, by parameter name and flag.
SIMULATE_BACCARAT_ONLY = {
    "burn": "--burn",
    "after_cut": "--after-cut",
    "cut_first_rounds": "--cut-first-rounds",
    "min_edge": "--min-edge",
    "jobs": "--jobs",
    "dask_address": "--dask",
    "trace_file": "--trace",
    "checkpoint_file": "--checkpoint",
    "resume": "--resume",
    "by_count": "--by-count",
    "plot_directory": "--plot",
}


def _refuse_baccarat_options(
    options: dict[str, str] = BACCARAT_ONLY,
    what: str = "the baccarat audit",
    takes: str = "audit --game dragon-tiger takes --decks, --cut, --budget, --seed, --bets, "
    "--pay and the thresholds",
) -> None:
    context = click.get_current_context()
    for parameter, flag in options.items():
        source = context.get_parameter_source(parameter)
        if source is not None and source != click.core.ParameterSource.DEFAULT:
            raise click.UsageError(f"{flag} is an option of {what}; {takes}.")


def dragon_tiger_audit_command(game: DragonTigerTable, values: dict[str, Any]) -> None:
    """Run the audit for *game* with audit's option *values* (by parameter name)."""
    from exactodds.report.registry import render
    from exactodds.specs import audit_thresholds
    from exactodds.studies.audit import DEFAULT_BUDGET
    from exactodds.studies.dragon_tiger_audit import dragon_tiger_audit

    _refuse_baccarat_options()
    if values["output_format"] not in FORMATS:
        raise click.UsageError(
            f"audit --game dragon-tiger writes table or json, not {values['output_format']}."
        )
    try:
        thresholds = audit_thresholds(
            values["safe_units"],
            values["safe_per_hour"],
            values["max_bet"],
            values["rounds_per_hour"],
            values["confidence"],
        )
        budget = values["budget"]
        result = dragon_tiger_audit(
            game.bet_names,
            game.pays,
            decks=values["decks"],
            cut=values["cut"],
            budget=DEFAULT_BUDGET if budget is None else budget,
            seed=values["seed"],
            thresholds=thresholds,
        )
    except ExactOddsError as error:
        raise click.UsageError(str(error)) from None
    text = render(result, values["output_format"], digits=values["digits"])
    if values["output"] is None:
        emit(text)
    else:
        write_file(values["output"], text.encode("utf-8") + b"\n", "the audit")


def dragon_tiger_simulate_command(
    game: DragonTigerTable, values: dict[str, Any], baccarat_risk: bool
) -> None:
    """Run ``simulate --game dragon-tiger`` with simulate's option *values* (by parameter
    name); *baccarat_risk* is whether a stake, risk or sweep option was given (refused)."""
    from exactodds.games.dragon_tiger_shoes import parse_play, simulate_dragon_tiger
    from exactodds.report.registry import render

    takes = (
        "simulate --game dragon-tiger takes --shoes, --seed, --decks, --cut, --bets, --pay, "
        "--play and --format table or json"
    )
    _refuse_baccarat_options(SIMULATE_BACCARAT_ONLY, "the baccarat simulation", takes)
    if baccarat_risk or values["output_format"] not in FORMATS:
        raise click.UsageError(
            "Stakes, risk figures, sweeps and csv are the baccarat simulation's; " + takes + "."
        )
    try:
        plays = dict.fromkeys(game.bet_names, parse_play("perfect")[1])
        for text in values["plays"]:
            name, strategy = parse_play(text)
            if name is not None and name not in plays:
                raise ExactOddsError(
                    f"--play names {name!r}, which is not among the bets simulated "
                    f"({', '.join(plays)}); add it to --bets."
                )
            for bet in (name,) if name is not None else tuple(plays):
                plays[bet] = strategy
        result = simulate_dragon_tiger(
            game.pays,
            plays,
            decks=values["decks"],
            cut=values["cut"],
            shoes=values["shoes"],
            seed=values["seed"],
        )
    except ExactOddsError as error:
        raise click.UsageError(str(error)) from None
    emit(render(result, values["output_format"], digits=values["digits"]))
