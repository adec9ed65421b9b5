"""``exactodds breakdown``: how often each total, card count and natural occurs."""

from __future__ import annotations

import click

from exactodds.analysis.breakdown import breakdown
from exactodds.cli.app import emit
from exactodds.cli.options import (
    build_shoe,
    known_option,
    output_options,
    rules_file_option,
    shoe_options,
    wide_option,
)
from exactodds.engine.known import enumerate_known, parse_known
from exactodds.engine.walk import enumerate_rounds
from exactodds.inputs import MOST_DECKS
from exactodds.report.registry import render
from exactodds.rulefiles import resolve_rules_file
from exactodds.rules import Tableau


@click.command(name="breakdown")
@shoe_options
@rules_file_option
@known_option
@output_options
@wide_option
def breakdown_command(
    decks: str | None,
    shoe_spec: str | None,
    remove: tuple[str, ...],
    rules_file: str | None,
    known: tuple[str, ...],
    output_format: str,
    digits: int,
    exact: bool,
    wide: bool,
) -> None:
    """Breakdown tables: how rounds end, counted exactly.

    Every (winner, winning total) including ties by total; each side's final
    total and every (Player total, Banker total) pair; 4, 5 and 6 cards dealt;
    who draws a third card; naturals by side and total. JSON and CSV carry
    counts and exact fractions for every figure, the grid of totals included.

    \b
    Examples:
      exactodds breakdown --digits 6                   # 8 decks, standard tableau
      exactodds breakdown --rules banker_as_player     # another drawing tableau
      exactodds breakdown --decks 6 --format csv       # every figure, one per row
      exactodds breakdown --known 1=9 --format json    # given the Player's first card
      exactodds breakdown --wide                       # the grid of totals on 11 columns
    """
    shoe = build_shoe(decks, shoe_spec, remove, most_decks=MOST_DECKS, infinite=True)
    tableau = resolve_rules_file(rules_file).tableau if rules_file else Tableau.standard()
    known_cards = parse_known(known)
    table = (
        enumerate_known(shoe, tableau, known_cards)
        if known_cards
        else enumerate_rounds(shoe, tableau)
    )
    result = breakdown(table)
    options = {"digits": digits, "exact": exact, "shoe": shoe, "tableau": tableau, "wide": wide}
    emit(render(result, output_format, **options, known=known_cards or None))
