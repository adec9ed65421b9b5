"""``exactodds odds``: the exact odds of every chosen bet for one shoe."""

from __future__ import annotations

import click

from exactodds.analysis.single import analyze
from exactodds.bets.bet import Bet
from exactodds.cli.app import emit
from exactodds.cli.options import built_options, known_option, output_options, refuse_card_bets
from exactodds.report.odds import (
    analysis_data,
    render_csv,
    render_json,
    render_table,
)
from exactodds.report.writer import json_text
from exactodds.rules import Rules
from exactodds.shoe import Shoe


@click.command()
@built_options(card_bets=True)
@known_option
@output_options
@click.option(
    "--wide",
    is_flag=True,
    help="Tables as wide as their columns (by default they fit 100 columns, split by columns).",
)
def odds(
    shoe: Shoe,
    rules: Rules,
    bets: list[Bet],
    known: tuple[str, ...],
    output_format: str,
    digits: int,
    exact: bool,
    wide: bool,
) -> None:
    """Exact odds of Banker, Player and Tie, and each bet's EV and house edge.

    \b
    Examples:
      exactodds odds                                   # 8 decks, standard rules
      exactodds odds --decks 6 --remove "A K 7 7 T"    # a partial 6-deck shoe
      exactodds odds --shoe "A=4,2=4,3=4,T=16,K=4"     # an explicit composition
      exactodds odds --variant ez --format json        # EZ Baccarat, as JSON
      exactodds odds --commission 4% --tie-pays 9:1    # another casino's pays
      exactodds odds --bets all                        # every side bet too
      exactodds odds --bets lucky6 --pay lucky6.three_card_win=23
      exactodds odds --bet-file examples/bets/six_bonus.toml
      exactodds odds --rules banker_as_player          # a shipped rules file
      exactodds odds --rules chemin_de_fer_stand --tie-loses  # another tableau, ties lose
      exactodds odds --known 1=9 --known P2=K          # the next cards are partly known
      exactodds odds --exact --wide                    # every column on one line
    """
    if known:
        refuse_card_bets(bets, " --known")
        return _odds_with_known(shoe, rules, bets, known, output_format, digits, (exact, wide))
    analysis = analyze(shoe, rules, bets)
    if output_format == "json":
        emit(render_json(analysis, digits))
    elif output_format == "csv":
        emit(render_csv(analysis, digits))
    else:
        emit(render_table(analysis, digits, exact=exact, wide=wide))


def _odds_with_known(
    shoe: Shoe,
    rules: Rules,
    bets: list[Bet],
    known: tuple[str, ...],
    output_format: str,
    digits: int,
    layout: tuple[bool, bool],
) -> None:
    """``odds --known``: the known-card walk, imported only when cards are known."""

    from exactodds.analysis.known import analyze_known
    from exactodds.engine.known import describe_known, parse_known

    known_cards = parse_known(known)
    analysis = analyze_known(shoe, rules, known_cards, bets)
    if output_format == "json":
        data = analysis_data(analysis, digits)
        data["known"] = {str(position): card.symbol for position, card in known_cards.items()}
        emit(json_text(data))
    elif output_format == "csv":
        emit(render_csv(analysis, digits))
    else:
        exact, wide = layout
        description = describe_known(known_cards) if known_cards else None
        emit(render_table(analysis, digits, exact=exact, wide=wide, known=description))
