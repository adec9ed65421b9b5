"""``exactodds eor``: the effect of removal of each rank, and a linear count."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from exactodds.analysis.removal import DEFAULT_MAX_TAG, INFINITE_REMOVAL, effect_of_removal
from exactodds.bets.bet import Bet
from exactodds.cli.app import emit, note_pure_python
from exactodds.cli.options import (
    built_options,
    click_option,
    output_options,
    refuse_overlay_beside,
    wide_option,
)
from exactodds.cli.plots import plot_option, write_plots
from exactodds.inputs import MOST_DECKS
from exactodds.interface import MULTIPLIERS_OPTION
from exactodds.report.registry import render
from exactodds.rules import Rules
from exactodds.shoe import Shoe

if TYPE_CHECKING:  # the other game is loaded only when asked for
    from exactodds.games.dragon_tiger import DragonTigerTable


@click.command()
@built_options(games=True, most_decks=MOST_DECKS, finite_because=INFINITE_REMOVAL, card_bets=True)
@output_options
@click.option(
    "--cards",
    metavar="K",
    type=int,
    default=1,
    show_default=True,
    help="Remove K cards of each rank in turn (K at least 1).",
)
@click.option(
    "--max-tag",
    metavar="N",
    type=int,
    default=DEFAULT_MAX_TAG,
    show_default=True,
    help="Largest tag of the derived linear count, in absolute value (a level-N count).",
)
@click_option(MULTIPLIERS_OPTION)
@plot_option
@wide_option
def eor(
    shoe: Shoe,
    rules: Rules,
    bets: list[Bet],
    output_format: str,
    digits: int,
    exact: bool,
    cards: int,
    max_tag: int,
    plot_directory: str | None,
    game: DragonTigerTable | None,
    wide: bool,
    multipliers: str | None = None,
) -> None:
    """Effect of removal: how each bet's exact EV moves when a card of each rank leaves.

    For every rank A 2-9 T J Q K, the exact EV after removing one card (or
    K cards with --cards) minus the EV before, on any shoe; then a linear
    count derived from the effects (integer tags up to --max-tag, balanced
    so a full pass of the shoe counts 0) and its betting correlation.

    \b
    Examples:
      exactodds eor                                    # Banker, Player, Tie on 8 decks
      exactodds eor --bets lucky6 --pay lucky6.three_card_win=23
      exactodds eor --bets dragon7,panda8 --variant ez --max-tag 3
      exactodds eor --decks 6 --remove "A K 7 7 T" --cards 4 --format json
      exactodds eor --shoe "A=4,5=4,9=4,T=16" --bets tie --exact --format csv
      exactodds eor --bets dragon7,panda8 --plot figures   # bar charts as PNG and SVG
      exactodds eor --game dragon-tiger --bets tie --remove "7 7 7 K"  # Dragon Tiger
      exactodds eor --table golden_wealth --bets tie   # under a multiplier overlay
    """
    if game is not None and multipliers is not None:
        refuse_overlay_beside("--game dragon-tiger")
    if game is not None:
        _dragon_tiger_eor(
            shoe, game, (output_format, digits, exact), cards, max_tag, plot_directory
        )
        return
    note_pure_python()
    overlay = None
    if multipliers is not None:  # every EV per unit paid under it (docs/multipliers.md)
        from exactodds.bets.multipliers import resolve_overlay

        overlay = resolve_overlay(multipliers)
    result = effect_of_removal(shoe, rules, bets, cards, max_tag, overlay=overlay)
    text = render(result, output_format, digits=digits, exact=exact, wide=wide)
    if plot_directory is not None:
        from exactodds.report.plots import removal_figures

        write_plots(removal_figures(result), plot_directory)
    emit(text)


def _dragon_tiger_eor(
    shoe: Shoe,
    game: DragonTigerTable,
    display: tuple[str, int, bool],
    cards: int,
    max_tag: int,
    plot_directory: str | None,
) -> None:
    """``eor --game dragon-tiger``: the game's own exact effects (no kernel involved)."""
    from exactodds.games.dragon_tiger import dragon_tiger_removal

    output_format, digits, exact = display
    result = dragon_tiger_removal(shoe, game.bet_names, game.pays, cards, max_tag)
    text = render(result, output_format, digits=digits, exact=exact)
    if plot_directory is not None:
        from exactodds.report.plots import removal_figures

        write_plots(removal_figures(result.as_effect_of_removal()), plot_directory)
    emit(text)
