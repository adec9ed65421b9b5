"""``exactodds bets``: the catalogue of bets and their pays."""

from __future__ import annotations

import click

from exactodds.cli.app import emit, usage_error
from exactodds.cli.options import (
    bet_options,
    build_bets,
    build_rules,
    rules_options,
)
from exactodds.errors import ExactOddsError
from exactodds.report.odds import (
    FORMATS,
    render_bets,
)


@click.command(name="bets")
@rules_options
@bet_options
@click.option(
    "--format",
    "output_format",
    type=click.Choice(FORMATS),
    default="table",
    show_default=True,
    help="Output format.",
)
def list_bets(
    rules_file: str | None,
    variant: str,
    commission: str | None,
    tie_pays: str,
    tie_loses: bool,
    selection: str | None,
    pays: tuple[str, ...],
    paytable: str | None,
    bet_files: tuple[str, ...],
    output_format: str,
) -> None:
    """List the bets exactodds prices, with their outcomes and pays.

    \b
    Examples:
      exactodds bets                                   # every bet and its pays
      exactodds bets --bets side --format json
      exactodds bets --pay lucky6.three_card_win=23 --bets lucky6
    """
    try:
        rules = build_rules(variant, commission, tie_pays, tie_loses, rules_file)
        bets = build_bets(rules, selection or "all", pays, paytable, bet_files)
    except ExactOddsError as error:
        raise usage_error(error) from None
    emit(render_bets(bets, output_format))
