"""Option decorators and builders shared by every command."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import click

# The builders are library functions, shared with the web API (exactodds.web): one reading of
# every option value, one set of messages.
from exactodds.interface import build_bets as build_bets
from exactodds.interface import build_rules as build_rules
from exactodds.interface import build_shoe as build_shoe
from exactodds.report.odds import FORMATS
from exactodds.rulefiles import shipped_rules_files
from exactodds.rules import Variant

Function = TypeVar("Function", bound=Callable[..., Any])


def stack(options: Sequence[Callable[[Any], Any]], function: Function) -> Function:
    """Apply click option decorators so they appear in --help in the order listed."""
    for option in reversed(options):
        function = option(function)
    return function


def shoe_options(function: Function) -> Function:
    """``--decks``, ``--shoe`` and ``--remove``."""
    options = [
        click.option(
            "--decks",
            metavar="N",
            help="A full shoe of N 52-card decks (default 8).",
        ),
        click.option(
            "--shoe",
            "shoe_spec",
            metavar="SPEC|FILE|-",
            help="An explicit shoe: 'A=32,2=32,...,K=32' (ranks not named count 0), "
            'a JSON object {"A": 32, ...} or "KS": 8 per card, from a file, or - for stdin.',
        ),
        click.option(
            "--remove",
            metavar="CARDS",
            multiple=True,
            help="Cards already dealt, e.g. 'A K 7 7 T', AK77T or KS,7H (suits optional; "
            "10 means T). May be repeated.",
        ),
    ]
    return stack(options, function)


def rules_file_option(function: Function) -> Function:
    """``--rules FILE|NAME``: the drawing tableau from a TOML rules file."""
    return click.option(
        "--rules",
        "rules_file",
        metavar="FILE|NAME",
        help="Drawing rules from a TOML rules file (see exactodds/data/rules/), or a shipped "
        f"one by name: {', '.join(shipped_rules_files())}. The file may also say whether "
        "ties push or lose (--tie-loses wins over it).",
    )(function)


def rules_options(function: Function) -> Function:
    """``--rules``, ``--variant``, ``--commission``, ``--tie-pays`` and ``--tie-loses``."""
    function = rules_file_option(function)
    options = [
        click.option(
            "--variant",
            type=click.Choice([variant.value for variant in Variant]),
            default="standard",
            show_default=True,
            help="standard: Banker pays 1:1 less commission; ez: EZ Baccarat (no commission, "
            "a Banker win with a three-card 7 pushes); super6: Super 6 / Punto 2000 "
            "(no commission, a winning Banker 6 pays 1:2).",
        ),
        click.option(
            "--commission",
            metavar="RATE",
            help="Commission on winning Banker bets: 5%, 0.05 or 1/20 (default 5%; "
            "0 in the no-commission variants).",
        ),
        click.option(
            "--tie-pays",
            metavar="PAY",
            default="8",
            show_default=True,
            help="What a winning Tie bet pays to 1: 8, 8:1, 8/1, 9 ...",
        ),
        click.option(
            "--tie-loses",
            is_flag=True,
            help="Player and Banker bets lose on a tie instead of pushing.",
        ),
    ]
    return stack(options, function)


def known_option(function: Function) -> Function:
    """``--known POSITION=CARD``: cards known before the round is dealt."""
    return click.option(
        "--known",
        metavar="POSITION=CARD",
        multiple=True,
        help="A card known to be dealt at POSITION: 1-6 (P1 B1 P2 B2 for 1-4; 5 is the first "
        "third card dealt, 6 the Banker's third card after a Player third card), e.g. "
        "--known 1=9 or --known P2=KS. May be repeated.",
    )(function)


def with_known(text: str, known: str) -> str:
    """The table with a ``Known:`` line after its ``Rules:`` line."""
    lines = text.split("\n")
    at = next((i + 1 for i, line in enumerate(lines) if line.startswith("Rules:")), 0)
    return "\n".join([*lines[:at], f"Known: {known}", *lines[at:]])


def output_options(function: Function) -> Function:
    """``--format``, ``--digits`` and ``--exact``."""
    options = [
        click.option(
            "--format",
            "output_format",
            type=click.Choice(FORMATS),
            default="table",
            show_default=True,
            help="Output format; json and csv always carry the exact fractions.",
        ),
        click.option(
            "--digits",
            type=click.IntRange(0, 100),
            default=10,
            show_default=True,
            help="Decimal places shown (percentages show two fewer).",
        ),
        click.option(
            "--exact",
            is_flag=True,
            help="In the table, show exact fractions beside the decimals.",
        ),
    ]
    return stack(options, function)


def bet_options(function: Function) -> Function:
    """``--bets``, ``--pay``, ``--paytable`` and ``--bet-file``."""
    options = [
        click.option(
            "--bets",
            "selection",
            metavar="SELECTION",
            help="Which bets: main, side, all, custom, or names such as banker,dragon7,lucky6 "
            "(default main, plus any --bet-file bets). 'exactodds bets' lists them.",
        ),
        click.option(
            "--pay",
            "pays",
            metavar="NAME=PAY",
            multiple=True,
            help="Change one pay (to 1): dragon7=30, big=27/50, lucky6.three_card_win=23, "
            "perfect_pair.both=250. May be repeated; wins over --paytable.",
        ),
        click.option(
            "--paytable",
            metavar="FILE",
            help="A TOML or JSON file of pays for many bets, e.g. 'dragon7 = 30' and "
            "'[lucky6]' with 'three_card_win = 23'.",
        ),
        click.option(
            "--bet-file",
            "bet_files",
            metavar="FILE",
            multiple=True,
            help="A TOML file describing your own bets (see examples/bets/). May be repeated.",
        ),
    ]
    return stack(options, function)
