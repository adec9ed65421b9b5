"""``exactodds solve --rules FILE`` and ``solve --game banque``: the games with a choice, skins only.

>>> from exactodds import Shoe
>>> solve_banque_command(Shoe.standard(decks=1), "shoe", "total", "draw", "1", "table", 6)
Traceback (most recent call last):
...
click.exceptions.BadParameter: '1' is not two whole numbers; use A:B, such as 1:1 or 3:1.
"""

from __future__ import annotations

import click

from exactodds.cli.app import emit
from exactodds.games.banque import BanqueModel, solve_banque
from exactodds.games.option import OptionModel, solve_option
from exactodds.numbers import parse_commission
from exactodds.report.registry import render
from exactodds.rulefiles import resolve_rules_file
from exactodds.rules import Rules
from exactodds.shoe import Shoe

__all__ = ["solve_banque_command", "solve_rules_command"]


def solve_rules_command(
    shoe: Shoe,
    rules_file: str,
    dealing: str,
    banker_sees: str,
    player_sees: str | None,
    commission: str | None,
    output_format: str,
    digits: int,
) -> None:
    """``solve --rules FILE``: a tableau's choice cells, solved."""
    loaded = resolve_rules_file(rules_file)
    rules = Rules(
        tableau=loaded.drawing,
        commission=None if commission is None else parse_commission(commission, "--commission"),
        ties_push=loaded.ties_push is not False,
    )
    model = OptionModel(
        dealing=dealing, player_sees=player_sees or "cards", banker_sees=banker_sees
    )
    solution = solve_option(shoe, loaded, rules, model)
    emit(render(solution, output_format, digits=digits))


def solve_banque_command(
    shoe: Shoe,
    dealing: str,
    banker_sees: str,
    players_on_5: str,
    stakes: str,
    output_format: str,
    digits: int,
) -> None:
    """``solve --game banque``: the bank's optimal play against two fixed Player hands."""
    parts = stakes.split(":")
    if len(parts) != 2 or not all(
        part.strip().isascii() and part.strip().isdigit() for part in parts
    ):
        raise click.BadParameter(
            f"{stakes!r} is not two whole numbers; use A:B, such as 1:1 or 3:1.",
            param_hint="'--stakes'",
        )
    model = BanqueModel(
        dealing=dealing,
        bank_sees=banker_sees,
        players_on_5=players_on_5,
        stakes=(int(parts[0]), int(parts[1])),
    )
    solution = solve_banque(shoe, model)
    emit(render(solution, output_format, digits=digits))
