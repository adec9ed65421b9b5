"""``exactodds bets``: the catalogue of bets and their pays."""

from __future__ import annotations

import click

from exactodds.bets.bet import Bet
from exactodds.bets.catalogue import BetList
from exactodds.cli.app import emit
from exactodds.cli.options import built_options, click_option
from exactodds.interface import MULTIPLIERS_OPTION
from exactodds.report.registry import formats, render
from exactodds.rules import Rules


@click.command(name="bets")
@built_options(shoe=False, all_bets=True, card_bets=True)
@click.option(
    "--format",
    "output_format",
    type=click.Choice(formats(BetList)),
    default="table",
    show_default=True,
    help="Output format.",
)
@click.option(
    "--wide",
    is_flag=True,
    help="Do not wrap the table's pays and descriptions to 100 columns.",
)
@click_option(MULTIPLIERS_OPTION)
def list_bets(
    rules: Rules,
    bets: list[Bet],
    output_format: str,
    wide: bool,
    multipliers: str | None = None,
) -> None:
    """List the bets exactodds prices, with their outcomes and pays.

    \b
    Examples:
      exactodds bets                                   # every bet and its pays
      exactodds bets --bets side --format json
      exactodds bets --pay lucky6.three_card_win=23 --bets lucky6
      exactodds bets --multipliers prosperity_tree     # an overlay: its law and bets
    """
    if multipliers is not None:
        from exactodds.bets.multipliers import resolve_overlay

        emit(render(resolve_overlay(multipliers), output_format))
        return
    emit(render(BetList.of(bets), output_format, wide=wide))
