"""``--game dragon-tiger`` of ``audit``: the countability audit of Dragon Tiger's bets.

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

__all__ = ["BACCARAT_ONLY", "dragon_tiger_audit_command"]

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


def _refuse_baccarat_options() -> None:
    context = click.get_current_context()
    for parameter, flag in BACCARAT_ONLY.items():
        source = context.get_parameter_source(parameter)
        if source is not None and source != click.core.ParameterSource.DEFAULT:
            raise click.UsageError(
                f"{flag} is an option of the baccarat audit; audit --game dragon-tiger takes "
                "--decks, --cut, --budget, --seed, --bets, --pay and the thresholds."
            )


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
