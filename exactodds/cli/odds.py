"""``exactodds odds``: the exact odds of every chosen bet for one shoe."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

import click

from exactodds.analysis.single import Analysis, analyze
from exactodds.bets.bet import Bet
from exactodds.cli.app import emit
from exactodds.cli.options import (
    built_options,
    click_option,
    known_option,
    output_options,
    refuse_card_bets,
    refuse_overlay_beside,
)
from exactodds.inputs import MOST_DECKS
from exactodds.interface import MULTIPLIERS_OPTION
from exactodds.report.registry import render
from exactodds.rules import Rebate, Rules
from exactodds.shoe import Shoe

if TYPE_CHECKING:  # the other game is loaded only when asked for
    from exactodds.games.dragon_tiger import DragonTigerTable


@click.command()
@built_options(games=True, most_decks=MOST_DECKS, card_bets=True, rebate=True, infinite=True)
@known_option
@click_option(MULTIPLIERS_OPTION)
@output_options
@click.option(
    "--trip-rounds",
    type=int,
    default=None,
    metavar="ROUNDS",
    help="Price the loss rebate (--rebate loss=SHARE) over a trip of this many independent "
    "rounds of each bet, one unit each, exactly (default one round, the most it is worth).",
)
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
    game: DragonTigerTable | None,
    multipliers: str | None = None,
    trip_rounds: int | None = None,
) -> None:
    """Exact odds of Banker, Player and Tie, and each bet's EV and house edge.

    With --game dragon-tiger, Dragon Tiger from the same shoe: its outcomes and each bet's
    EV, house edge and RTP (docs/dragon-tiger.md). With --table NAME, a named table's
    decks, rules, pays, fee, game and bets; an option given explicitly wins (docs/tables.md).

    \b
    Examples:
      exactodds odds                                   # 8 decks, standard rules
      exactodds odds --decks 6 --remove "A K 7 7 T"    # a partial 6-deck shoe
      exactodds odds --decks infinite                  # cards drawn with replacement
      exactodds odds --shoe "A=4,2=4,3=4,T=16,K=4"     # an explicit composition
      exactodds odds --variant ez --format json        # EZ Baccarat, as JSON
      exactodds odds --commission 4% --tie-pays 9:1    # another casino's pays
      exactodds odds --bets all                        # every side bet too
      exactodds odds --bets lucky6 --pay lucky6.three_card_win=23
      exactodds odds --bet-file examples/bets/six_bonus.toml
      exactodds odds --rules banker_as_player          # a shipped rules file
      exactodds odds --table ez --decks 6              # a named table, on 6 decks
      exactodds odds --table list                      # the shipped tables
      exactodds odds --rules chemin_de_fer_stand --tie-loses  # another tableau, ties lose
      exactodds odds --known 1=9 --known P2=K          # the next cards are partly known
      exactodds odds --exact --wide                    # every column on one line
      exactodds odds --game dragon-tiger --pay tie=11  # Dragon Tiger as a studio deals it
      exactodds odds --rebate rolling=1.2%             # the effective edge after a rebate
      exactodds odds --rebate loss=10% --trip-rounds 200  # a loss rebate over a trip
      exactodds odds --multipliers golden_wealth --bets main,player_pair,banker_pair
    """
    analysis: Analysis
    if trip_rounds is not None:
        rules = _over_trip(rules, trip_rounds)
    if multipliers is not None:
        _odds_with_multipliers(
            shoe, rules, bets, known, game, multipliers, output_format, digits, exact, wide
        )
        return
    if game is not None:
        from exactodds.games.dragon_tiger import dragon_tiger_odds

        result = dragon_tiger_odds(shoe, game.bet_names, game.pays)
        emit(render(result, output_format, digits=digits, exact=exact, wide=wide))
        return
    if known:  # the known-card walk, imported only when cards are known
        refuse_card_bets(bets, " --known")
        from exactodds.analysis.known import analyze_known
        from exactodds.engine.known import parse_known

        analysis = analyze_known(shoe, rules, parse_known(known), bets)
    else:
        analysis = analyze(shoe, rules, bets)
    emit(render(analysis, output_format, digits=digits, exact=exact, wide=wide))


def _over_trip(rules: Rules, trip_rounds: int) -> Rules:
    """*rules* with the loss rebate paid over a trip of *trip_rounds* rounds (refused, naming
    the parameter, without a loss rebate or with a trip of no round)."""
    rebate = rules.rebate
    over_trip = Rebate(rebate.rolling, rebate.loss, rebate.rolling_counts_pushes, trip_rounds)
    return dataclasses.replace(rules, rebate=over_trip)


def _odds_with_multipliers(
    shoe: Shoe,
    rules: Rules,
    bets: list[Bet],
    known: tuple[str, ...],
    game: DragonTigerTable | None,
    multipliers: str,
    output_format: str,
    digits: int,
    exact: bool,
    wide: bool,
) -> None:
    """``--multipliers``: every bet priced under the overlay (docs/multipliers.md)."""
    if game is not None or known:
        other = "--game dragon-tiger" if game is not None else "--known"
        refuse_overlay_beside(other)
    from exactodds.analysis.multipliers import analyze_overlay
    from exactodds.bets.multipliers import resolve_overlay

    overlay = resolve_overlay(multipliers)
    result = analyze_overlay(shoe, rules, bets, overlay=overlay)
    emit(render(result, output_format, digits=digits, exact=exact, wide=wide))
