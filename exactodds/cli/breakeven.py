"""``exactodds breakeven``: the pay that makes a bet fair (sympy, imported lazily)."""

from __future__ import annotations

import click

from exactodds.analysis.symbolic import find_breakeven
from exactodds.cli.app import emit
from exactodds.cli.options import (
    Function,
    build_bets,
    built_options,
    output_options,
    stack,
    wide_option,
)
from exactodds.errors import BetError, PayError
from exactodds.inputs import MOST_DECKS
from exactodds.report.registry import render
from exactodds.rules import Rules
from exactodds.shoe import Shoe


def breakeven_bet_options(function: Function) -> Function:
    """``--bet``, ``--pay`` (the pay to solve for, or fixed pays), ``--paytable``, ``--bet-file``."""
    options = [
        click.option(
            "--bet",
            "bet_name",
            metavar="BET",
            required=True,
            help="The bet: banker, player, tie, or a side bet such as dragon7 or lucky6 "
            "('exactodds bets' lists them).",
        ),
        click.option(
            "--pay",
            "pays",
            metavar="PAY|NAME=PAY",
            multiple=True,
            help="The pay to solve for, named as in 'exactodds odds --pay' (tie, dragon7, "
            "lucky6.three_card_win), or commission for the Banker commission; by default the "
            "commission for the Banker bet, else the bet's one winning pay. NAME=PAY fixes "
            "another pay instead. May be repeated.",
        ),
        click.option(
            "--paytable",
            metavar="FILE",
            help="A TOML or JSON file of pays, e.g. 'dragon7 = 30' and '[lucky6]' with "
            "'three_card_win = 23'.",
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


def _split_pays(pays: tuple[str, ...]) -> tuple[str | None, tuple[str, ...]]:
    """The one pay to solve for (or ``None``) and the ``NAME=PAY`` pays to fix."""
    unknown = [text.strip() for text in pays if "=" not in text]
    if len(unknown) > 1:
        raise PayError(
            f"--pay names {len(unknown)} pays to solve for ({', '.join(unknown)}); name one, "
            "and fix any other with NAME=PAY."
        )
    return (unknown[0] if unknown else None), tuple(text for text in pays if "=" in text)


@click.command()
@built_options(bets=False, most_decks=MOST_DECKS, infinite=True)
@breakeven_bet_options
@output_options
@click.option("--latex", is_flag=True, help="In the table, show the EV expression as LaTeX.")
@wide_option
def breakeven(
    shoe: Shoe,
    rules: Rules,
    bet_name: str,
    pays: tuple[str, ...],
    paytable: str | None,
    bet_files: tuple[str, ...],
    output_format: str,
    digits: int,
    exact: bool,
    latex: bool,
    wide: bool,
) -> None:
    """Break-even pay: the exact pay (or commission) at which a bet's EV is zero.

    Prints the bet's EV as an exact expression in that pay (x, or c for the
    commission; every other pay as the rules and --pay NAME=PAY set it) and
    the value that makes it zero, as an exact fraction and a decimal. The
    table always shows exact values; JSON and CSV also carry the LaTeX.

    \b
    Examples:
      exactodds breakeven --bet tie                    # Tie pay that makes it fair
      exactodds breakeven --bet banker --pay commission --decks 6
      exactodds breakeven --bet lucky6 --pay lucky6.three_card_win --latex
      exactodds breakeven --bet lucky6 --pay lucky6.two_card_win --pay lucky6.three_card_win=23
      exactodds breakeven --bet dragon7 --variant ez --format json
    """
    unknown, fixed = _split_pays(pays)
    bets = build_bets(rules, bet_name, fixed, paytable, bet_files)
    if len(bets) != 1:
        raise BetError(
            f"--bet {bet_name!r} names {len(bets)} bets; name one, such as tie or dragon7."
        )
    solved = find_breakeven(bets[0], unknown, shoe, rules)
    text = render(
        solved, output_format, digits=digits, shoe=shoe, rules=rules, latex=latex, wide=wide
    )
    emit(text)
