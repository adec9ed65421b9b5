"""Rendering the games with a choice: a tableau's choice cells solved, and baccara banque.

Text reports and JSON with exact ``"n/d"`` strings, for
:func:`exactodds.games.option.solve_option` and
:func:`exactodds.games.banque.solve_banque`.  Rendering only: every figure is
the solution's.

>>> from exactodds import Shoe
>>> from exactodds.games.option import _option_at_5, solve_option
>>> report = render_option_table(solve_option(Shoe.standard(decks=8), _option_at_5()), 6)
>>> [line for line in report.splitlines() if line.startswith("Choices")]
["Choices: the Player's 5"]
"""

from __future__ import annotations

import textwrap
from fractions import Fraction
from typing import Any

from exactodds.games.banque import INFORMATION, BankCell, BanqueSolution
from exactodds.games.option import BetValues, OptionSolution
from exactodds.numbers import decimal_string, fraction_string, percent_string
from exactodds.report.table import simple_table
from exactodds.report.writer import json_text, shoe_block

__all__ = [
    "_banque_dict",
    "_option_dict",
    "render_banque_json",
    "render_banque_table",
    "render_option_json",
    "render_option_table",
]


def _exact(value: Fraction, digits: int) -> str:
    return f"{fraction_string(value)} = {decimal_string(value, digits)}"


def _signed(value: Fraction, digits: int) -> str:
    text = decimal_string(value, digits)
    return text if text.startswith("-") else "+" + text


def _bets_rows(solution: OptionSolution, digits: int) -> list[list[str]]:
    columns = (solution.best, solution.all_stand, solution.all_draw)
    rows = []
    for name in ("player", "banker", "tie"):
        rows.append([name, *(decimal_string(_ev(values, name), digits) for values in columns)])
    return rows


def _ev(values: BetValues, bet: str) -> Fraction:
    """One main bet's EV per unit: ``player``, ``banker`` or ``tie``."""
    return (
        values.player if bet == "player" else values.banker if bet == "banker" else values.tie_bet
    )


def render_option_table(solution: OptionSolution, digits: int = 10) -> str:
    """The solved tableau game as a text report: each side's play, the bets, the option's value.

    >>> from exactodds import Shoe
    >>> from exactodds.games.option import _option_at_5, solve_option
    >>> report = render_option_table(solve_option(Shoe.standard(decks=8), _option_at_5()), 6)
    >>> report.splitlines()[-1][:40]
    'Verified: yes; each choice above is a be'
    """
    lines = [
        f"Shoe: {solution.shoe.describe()}",
        *textwrap.wrap(f"Rules: {solution.rules.describe()}", 100, subsequent_indent="  "),
        f"Model: {solution.model.describe()}",
        *textwrap.wrap(f"Choices: {solution.choices.describe()}", 100, subsequent_indent="  "),
        f"Method: {solution.method}"
        + (
            ""
            if solution.equilibria == 1
            else f"; {solution.equilibria} equilibria, the first shown"
        ),
    ]
    if solution.player_hands:
        lines += ["", "The Player's play (gain: what drawing adds to the Player bet's EV a round):"]
        rows = [
            [hand.label, hand.action, _signed(hand.gain, digits)] for hand in solution.player_hands
        ]
        lines += simple_table(
            rows, ["Hand", "Play", "Gain"], ("left", "left", "right")
        ).splitlines()
    if solution.banker_cells:
        lines += ["", "The Banker's play (gain: what drawing adds to the Banker bet's EV a round):"]
        rows = [
            [cell.hand, _seen(cell.information), cell.action, _signed(cell.gain, digits)]
            for cell in solution.banker_cells
        ]
        headers = ["Banker", "Player", "Play", "Gain"]
        lines += simple_table(rows, headers, ("left", "left", "left", "right")).splitlines()
    lines += ["", "EV per unit:"]
    headers = ["Bet", "Best play", "Every choice stands", "Every choice draws"]
    lines += simple_table(
        _bets_rows(solution, digits), headers, ("left",) + ("right",) * 3
    ).splitlines()
    lines += ["", *_option_value_lines(solution, digits)]
    lines.append(
        f"Verified: {'yes' if solution.verified else 'NO'}; each choice above is a best reply to "
        "the other side's play, checked exactly."
    )
    return "\n".join(lines)


def _seen(information: str) -> str:
    return "stood" if information == "stood" else f"drew {information}"


def _option_value_lines(solution: OptionSolution, digits: int) -> list[str]:
    side = solution.one_sided
    if side is None:
        return [
            "Both sides choose: the EVs under 'Best play' are at the equilibrium shown.",
        ]
    bet = side.lower()
    best = _ev(solution.best, bet)
    return [
        f"Value of the option to the {side} bet, per unit: "
        f"{_signed(best - _ev(solution.all_stand, bet), digits)} over standing on every choice,",
        f"  {_signed(best - _ev(solution.all_draw, bet), digits)} over drawing on every choice.",
    ]


def _values_data(values: BetValues) -> dict[str, str]:
    return {
        "banker_wins": fraction_string(values.banker_wins),
        "player_wins": fraction_string(values.player_wins),
        "tie": fraction_string(values.tie),
        "player_ev": fraction_string(values.player),
        "banker_ev": fraction_string(values.banker),
        "tie_ev": fraction_string(values.tie_bet),
    }


def _option_dict(solution: OptionSolution) -> dict[str, Any]:
    """The solved tableau game as JSON-ready data, every probability and EV an exact ``"n/d"``.

    >>> from exactodds import Shoe
    >>> from exactodds.games.option import _option_at_5, solve_option
    >>> data = _option_dict(solve_option(Shoe.standard(decks=8), _option_at_5()))
    >>> data["player_hands"]["0+5"]["action"], data["option_value"]["over_all_draw"]
    ('draw', '0')
    """
    best, stand, draw = solution.best, solution.all_stand, solution.all_draw
    side = solution.one_sided
    value: dict[str, str] | None = None
    if side is not None:
        bet = side.lower()
        value = {
            "side": bet,
            "over_all_stand": fraction_string(_ev(best, bet) - _ev(stand, bet)),
            "over_all_draw": fraction_string(_ev(best, bet) - _ev(draw, bet)),
        }
    return {
        "shoe": shoe_block(solution.shoe),
        "rules": {
            "tableau": solution.name,
            "commission": fraction_string(solution.rules.commission),
            "tie_pays": fraction_string(solution.rules.tie_pays),
            "ties": "push" if solution.rules.ties_push else "lose",
        },
        "choices": solution.choices.describe(),
        "model": {
            "dealing": solution.model.dealing,
            "player_sees": solution.model.player_sees,
            "banker_sees": solution.model.banker_sees,
        },
        "method": solution.method,
        "equilibria": solution.equilibria,
        "player_hands": {
            hand.label: {
                "action": hand.action,
                "draw": fraction_string(hand.draw),
                "gain": fraction_string(hand.gain),
            }
            for hand in solution.player_hands
        },
        "banker_cells": [
            {
                "hand": cell.hand,
                "information": cell.information,
                "action": cell.action,
                "draw": fraction_string(cell.draw),
                "gain": fraction_string(cell.gain),
            }
            for cell in solution.banker_cells
        ],
        "best": _values_data(best),
        "all_stand": _values_data(stand),
        "all_draw": _values_data(draw),
        "option_value": value,
        "verified": solution.verified,
    }


def render_option_json(solution: OptionSolution) -> str:
    """:func:`_option_dict` as indented JSON text.

    >>> import json
    >>> from exactodds import Shoe
    >>> from exactodds.games.option import _option_at_5, solve_option
    >>> json.loads(render_option_json(solve_option(Shoe.standard(decks=8), _option_at_5())))["verified"]
    True
    """
    return json_text(_option_dict(solution))


# Baccara banque ---------------------------------------------------------------------------

#: The order of what a tableau showed, in the grids: stood first, then its third card, then a
#: natural.
_SHOWN = ("stood", *(str(value) for value in range(10)), "natural")
_SHORT = {"stood": "st", "natural": "nat"}


def _grids(
    solution: BanqueSolution,
) -> list[tuple[str, dict[tuple[str, str], BankCell], list[str]]]:
    """One grid per bank total: each cell the play of most of its two-card hands, and a line
    for each hand that plays some cell otherwise."""
    by_hand: dict[str, dict[tuple[str, str], BankCell]] = {}
    for cell in solution.cells:
        by_hand.setdefault(cell.hand, {})[(cell.first, cell.second)] = cell
    by_total: dict[int, list[str]] = {}
    for hand, cells in by_hand.items():
        by_total.setdefault(next(iter(cells.values())).total, []).append(hand)
    grids: list[tuple[str, dict[tuple[str, str], BankCell], list[str]]] = []
    for total in sorted(by_total):
        hands = by_total[total]
        if len(hands) == 1:
            grids.append((hands[0], by_hand[hands[0]], []))
            continue
        majority: dict[tuple[str, str], BankCell] = {}
        for key in {key for hand in hands for key in by_hand[hand]}:
            present = [by_hand[hand][key] for hand in hands if key in by_hand[hand]]
            draws = 2 * sum(cell.draw for cell in present) > len(present)
            majority[key] = min(present, key=lambda cell: (cell.draw != draws, cell.indifferent))
        exceptions = []
        for hand in hands:
            odd = [
                f"{cell.action[0].upper()} at ({_SHORT.get(key[0], key[0])}, "
                f"{_SHORT.get(key[1], key[1])})"
                for key, cell in sorted(by_hand[hand].items(), key=_shown_order)
                if cell.draw != majority[key].draw and not cell.indifferent
            ]
            if odd:
                text = f"  Bank {hand} instead: " + ", ".join(odd)
                exceptions += textwrap.wrap(text, 100, subsequent_indent="    ")
        label = f"{total} (any two cards)" if not exceptions else f"{total} (most two cards)"
        grids.append((label, majority, exceptions))
    return grids


def _shown_order(item: tuple[tuple[str, str], BankCell]) -> tuple[int, int]:
    first, second = item[0]
    return _SHOWN.index(first), _SHOWN.index(second)


def _grid_lines(label: str, cells: dict[tuple[str, str], BankCell]) -> list[str]:
    plays = {cell.draw for cell in cells.values() if not cell.indifferent}
    if len(plays) == 1:
        play = "draws" if plays.pop() else "stands"
        return [f"Bank {label}: {play} whatever the tableaux showed."]
    rows = []
    for first in _SHOWN:
        row = [_SHORT.get(first, first)]
        for second in _SHOWN:
            cell = cells.get((first, second))
            row.append("" if cell is None else "=" if cell.indifferent else cell.action[0].upper())
        rows.append(row)
    headers = [f"Bank {label}", *(_SHORT.get(shown, shown) for shown in _SHOWN)]
    return simple_table(rows, headers, ("left",) * len(headers)).splitlines()


def render_banque_table(solution: BanqueSolution, digits: int = 10) -> str:
    """The bank's optimal strategy and each bet's value, as a text report.

    >>> from exactodds import Shoe
    >>> from exactodds.games.banque import BanqueModel, solve_banque
    >>> model = BanqueModel(dealing="replacement", bank_sees="total")
    >>> report = render_banque_table(solve_banque(Shoe.standard(decks=1), model), 6)
    >>> report.splitlines()[3][:40]
    "Bank's edge per unit staked: 97784512/10"
    """
    edge = solution.bank_edge
    lines = [
        f"Shoe: {solution.shoe.describe()}",
        *textwrap.wrap(f"Model: {solution.model.describe()}", 100, subsequent_indent="  "),
        f"Bank's edge per unit staked: {_exact(edge, digits)} ({percent_string(edge, max(digits - 2, 0))})",
    ]
    for number, result in enumerate(solution.tableaux, 1):
        lines.append(
            f"Tableau {number}: bank wins {decimal_string(result.bank_wins, digits)}, Player wins "
            f"{decimal_string(result.player_wins, digits)}, tie {decimal_string(result.tie, digits)}"
        )
        lines.append(f"  a unit bet on it: EV {decimal_string(result.player_ev, digits)}")
    lines += [
        "",
        "The bank's play: D draw, S stand, = either (no gain either way); rows: what tableau 1",
        "showed (st stood, 0-9 its third card, nat a natural), columns: what tableau 2 showed.",
    ]
    if solution.model.bank_sees == "cards":
        lines += [
            "Seeing his cards, a grid shows what most two-card hands of a total do, and the lines",
            "under it each hand that plays a cell (tableau 1, tableau 2) otherwise.",
        ]
    previous_short = False
    for label, cells, exceptions in _grids(solution):
        grid = _grid_lines(label, cells) + exceptions
        short = len(grid) == 1
        lines += grid if short and previous_short else ["", *grid]
        previous_short = short
    lines += [
        "",
        f"Cells: {len(solution.cells)}, of which {solution.indifferent_cells} indifferent.",
        f"Verified: {'yes' if solution.verified else 'NO'}; every deal counted once, the bank "
        "standing everywhere and drawing everywhere.",
    ]
    return "\n".join(lines)


def _banque_dict(solution: BanqueSolution) -> dict[str, Any]:
    """The solved banque as JSON-ready data: the bank's play per cell, every value exact.

    >>> from exactodds import Shoe
    >>> from exactodds.games.banque import BanqueModel, solve_banque
    >>> model = BanqueModel(dealing="replacement", bank_sees="total")
    >>> data = _banque_dict(solve_banque(Shoe.standard(decks=1), model))
    >>> data["strategy"]["7"]["stood"]["stood"], data["strategy"]["0"]["stood"]["stood"]
    ('stand', 'draw')
    """
    strategy: dict[str, dict[str, dict[str, str]]] = {}
    for cell in solution.cells:
        strategy.setdefault(cell.hand, {}).setdefault(cell.first, {})[cell.second] = (
            "either" if cell.indifferent else cell.action
        )
    model = solution.model
    return {
        "shoe": shoe_block(solution.shoe),
        "model": {
            "dealing": model.dealing,
            "bank_sees": model.bank_sees,
            "players_on_5": model.players_on_5,
            "stakes": list(model.stakes),
        },
        "bank_edge": fraction_string(solution.bank_edge),
        "tableaux": [
            {
                "bank_wins": fraction_string(result.bank_wins),
                "player_wins": fraction_string(result.player_wins),
                "tie": fraction_string(result.tie),
                "player_ev": fraction_string(result.player_ev),
            }
            for result in solution.tableaux
        ],
        "information": list(INFORMATION),
        "strategy": strategy,
        "gains": [
            {
                "hand": cell.hand,
                "first": cell.first,
                "second": cell.second,
                "gain": fraction_string(cell.gain),
            }
            for cell in solution.cells
        ],
        "verified": solution.verified,
    }


def render_banque_json(solution: BanqueSolution) -> str:
    """:func:`_banque_dict` as indented JSON text.

    >>> import json
    >>> from exactodds import Shoe
    >>> from exactodds.games.banque import BanqueModel, solve_banque
    >>> solution = solve_banque(Shoe.standard(decks=1), BanqueModel("replacement", "total"))
    >>> json.loads(render_banque_json(solution))["model"]["stakes"]
    [1, 1]
    """
    return json_text(_banque_dict(solution))
