"""``exactodds protection``: the countermeasure table, the advantage player's win by lever."""

from __future__ import annotations

from typing import Any

import click

from exactodds.bets.bet import Bet
from exactodds.cli.app import emit, note_pure_python
from exactodds.cli.options import built_options
from exactodds.rules import Rules


@click.command(name="protection")
@built_options(shoe=False)
@click.option("--decks", type=int, default=8, show_default=True, help="Decks in the shoe.")
@click.option("--cut", type=int, default=14, show_default=True, help="Cards behind the cut card.")
@click.option(
    "--burn", default="standard", show_default=True, metavar="standard|none|K", help="Burn rule."
)
@click.option("--shoes", type=int, default=200, show_default=True, help="Shoes dealt per lever.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of every lever's shoes.")
@click.option(
    "--play",
    default="perfect",
    show_default=True,
    metavar="perfect|always|count:TAGS:TRIGGER",
    help="The advantage player's play, as simulate's --play.",
)
@click.option("--min-edge", default="0", show_default=True, help="Perfect play's least edge.")
@click.option(
    "--table-min", type=int, default=1, show_default=True, help="The flat stake, in units."
)
@click.option("--cuts", default=None, metavar="C1,C2,...", help="Cut-card positions to price.")
@click.option(
    "--caps",
    default=None,
    metavar="SHARE@DEPTH,...",
    help="Side bet at most SHARE of the main bet from DEPTH cards dealt, such as 1/2@300.",
)
@click.option(
    "--main-bets", default=None, metavar="U1,U2,...", help="Main-bet units required per side bet."
)
@click.option("--teams", default=None, metavar="N1,N2,...", help="Players betting on one signal.")
@click.option(
    "--known-cards",
    default=None,
    metavar="P1,P2,...",
    help="Shoe positions (0 = first card, burns included) of a card known from the start.",
)
@click.option(
    "--rounds-per-hour", type=int, default=70, show_default=True, help="Rounds dealt an hour."
)
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["table", "json"]),
    default="table",
    show_default=True,
    help="Output format.",
)
@click.option(
    "--digits", type=click.IntRange(0, 17), default=4, show_default=True, help="Decimals shown."
)
@click.option("--jobs", type=click.IntRange(1, 64), default=1, show_default=True, help="Processes.")
def protection(rules: Rules, bets: list[Bet], **values: Any) -> None:
    """The countermeasure table: an advantage player's win per shoe and per hour on one bet
    as the casino's levers move (cut card, a cap on the side bet as a share of the main
    bet, a main bet required with each side bet, team size, a known card), each figure
    with its standard error, every lever on the same shoes.

    Baseline, cut and team rows are simulate's own figures (simulate with the same
    settings and seed prints them); cap, main-bet and known-card rows price Banker,
    Player and the bet on every round of the same shoes. docs/protection.md says what
    each lever assumes.

    \b
    Examples:
      exactodds protection --bets dragon7 --cuts 26,52 --teams 3
      exactodds protection --bets panda8 --caps 1/2@300 --main-bets 1 --format json
      exactodds protection --bets dragon7 --known-cards 415 --shoes 100
    """
    from exactodds.report.registry import render
    from exactodds.simulation.dealing import DealingProcedure
    from exactodds.specs import protection_spec
    from exactodds.studies.protection import protection_table

    note_pure_python(False)
    procedure = DealingProcedure(decks=values["decks"], cut=values["cut"], burn=values["burn"])
    spec = protection_spec(rules, bets, procedure, values)
    table = protection_table(spec, jobs=values["jobs"])
    emit(render(table, values["output_format"], digits=values["digits"]))
