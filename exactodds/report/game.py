"""Rendering a solved chemin de fer game: a text report and JSON with exact "n/d" strings.

The Banker's strategy is laid out like the Punto Banco tableau: a row per
Banker hand, a column for "the Player stood" and one per value of the Player's
third card.  ``D`` draws, ``S`` stands, ``M1``, ``M2``... mix with the
probabilities listed under the table, and ``*`` marks a cell whose action is
not the Punto Banco tableau's.  When the Banker sees his cards, the hands of
one total share a row when they play alike, else each composition has its own.

>>> from exactodds import Shoe
>>> from exactodds.games.chemin_de_fer import Model, solve
>>> solution = solve(Shoe.standard(decks=1), Model(dealing="replacement", banker_sees="total"))
>>> print(render_solution_table(solution, 6).splitlines()[5])
Value (Banker's expected payoff per unit): 679568/53094899 = 0.012799 (Banker edge 1.2799%)
"""

from __future__ import annotations

from typing import Any

from exactodds.games.chemin_de_fer import (
    INFORMATION,
    BankerCell,
    Equilibrium,
    Solution,
)
from exactodds.numbers import decimal_string, fraction_string, percent_string
from exactodds.report.table import TABLE_WIDTH, simple_table, wrapped_lines
from exactodds.report.writer import json_text, shoe_block

__all__ = ["render_solution_json", "render_solution_table"]


def _exact_and_decimal(value: Any, digits: int) -> str:
    return f"{fraction_string(value)} = {decimal_string(value, digits)}"


def _rows(cells: tuple[BankerCell, ...]) -> list[tuple[str, list[BankerCell]]]:
    """Rows of the tableau: one per hand, hands of one total merged when they play alike."""
    by_hand: dict[str, list[BankerCell]] = {}
    for cell in cells:
        by_hand.setdefault(cell.hand, []).append(cell)
    by_total: dict[int, list[str]] = {}
    for hand in by_hand:
        by_total.setdefault(by_hand[hand][0].total, []).append(hand)
    rows: list[tuple[str, list[BankerCell]]] = []
    for total in sorted(by_total):
        hands = by_total[total]
        actions = {tuple((c.information, c.draw) for c in by_hand[hand]) for hand in hands}
        if len(hands) > 1 and len(actions) == 1:
            rows.append((f"{total} (any)", by_hand[hands[0]]))
        else:
            rows.extend((hand, by_hand[hand]) for hand in hands)
    return rows


def _tableau(equilibrium: Equilibrium, digits: int) -> list[str]:
    mixes: dict[tuple[str, str], str] = {}
    notes: list[str] = []
    table_rows = []
    for label, cells in _rows(equilibrium.banker):
        by_information = {cell.information: cell for cell in cells}
        row = [label]
        for information in INFORMATION:
            cell = by_information.get(information)
            if cell is None:
                row.append("")
                continue
            if cell.draw == 1:
                mark = "D"
            elif cell.draw == 0:
                mark = "S"
            else:
                key = (label, information)
                if key not in mixes:
                    mixes[key] = f"M{len(mixes) + 1}"
                    notes.append(
                        f"  {mixes[key]}: Banker {label}, Player "
                        f"{'stood' if information == 'stood' else 'drew a ' + information}: "
                        f"draw with probability {_exact_and_decimal(cell.draw, digits)}"
                    )
                mark = mixes[key]
            row.append(mark + ("*" if cell.differs_from_punto_banco else ""))
        table_rows.append(row)
    headers = ["Banker", "stood", *INFORMATION[1:]]
    lines = simple_table(table_rows, headers, ("left",) * len(headers)).splitlines()
    return lines + notes


def render_solution_table(solution: Solution, digits: int = 10, wide: bool = False) -> str:
    """The solution as a text report: model, value, both strategies, the check.

    Lines longer than :data:`~exactodds.report.table.TABLE_WIDTH` columns are wrapped
    between words unless *wide* (the Banker's table, 11 narrow columns, always fits).

    >>> from exactodds import Shoe
    >>> from exactodds.games.chemin_de_fer import solve
    >>> text = render_solution_table(solve(Shoe.standard(decks=8)), 4)
    >>> print(text.splitlines()[-2][:40])
    Verified: yes; in every equilibrium each
    >>> wide = render_solution_table(solve(Shoe.standard(decks=8)), 4, wide=True)
    >>> print(wide.splitlines()[-1][-26:])
    cells and 1 Player choice.
    """
    model = solution.model
    count = len(solution.equilibria)
    lines = [
        f"Shoe: {solution.shoe.describe()}",
        f"Model: {model.describe()}",
        f"Method: {solution.method}",
        f"Equilibria: {count}{'' if solution.complete else ' found'}",
    ]
    if solution.incomplete_because:
        lines.append(f"Not every equilibrium is listed: {solution.incomplete_because}")
    if solution.value is not None:
        lines.append(
            f"Value (Banker's expected payoff per unit): {_exact_and_decimal(solution.value, digits)}"
            f" (Banker edge {percent_string(solution.value, max(digits - 2, 0))})"
        )
    for number, equilibrium in enumerate(solution.equilibria, 1):
        lines.append("")
        if count > 1 or solution.value is None:
            lines.append(f"Equilibrium {number} of {count}:")
        if solution.value is None:
            for side, payoff, payoff_range in (
                ("Banker", equilibrium.banker_payoff, equilibrium.banker_payoff_range),
                ("Player", equilibrium.player_payoff, equilibrium.player_payoff_range),
            ):
                text = f"  {side}'s expected payoff per unit: {_exact_and_decimal(payoff, digits)}"
                if payoff_range is not None and payoff_range[0] != payoff_range[1]:
                    text += (
                        f" here; from {_exact_and_decimal(payoff_range[0], digits)} to "
                        f"{_exact_and_decimal(payoff_range[1], digits)} over this set of equilibria"
                    )
                lines.append(text)
        draws = equilibrium.player_draw_at_5
        up_to = equilibrium.player_draw_at_5_up_to
        for label, probability in draws.items():
            hand = "5" if label == "5" else f"5 as {label}"
            text = (
                f"Player draws on {hand} with probability {_exact_and_decimal(probability, digits)}"
            )
            if up_to is not None:
                text += f" to {_exact_and_decimal(up_to[label], digits)} (any value between)"
            lines.append(text)
        if equilibrium.player_draw_at_5_weighted is not None:
            lines.append(
                "Only the Player's draw probability on 5 weighted by how often each composition "
                "is dealt is determined: "
                + _exact_and_decimal(equilibrium.player_draw_at_5_weighted, digits)
                + " (the split above is one of many)"
            )
        if not draws:
            lines.append("Player: this shoe can deal him no two-card 5, so he has no choice.")
        elif not equilibrium.player_unique and up_to is None:
            lines.append(
                "  (other Player strategies are in equilibrium with this Banker strategy too)"
            )
        lines.append("")
        lines.append(
            "Banker's strategy (D draw, S stand, M mixed, * not the Punto Banco tableau's action):"
        )
        lines.extend(_tableau(equilibrium, digits))
        if not equilibrium.banker_unique:
            lines.append(
                "  (other Banker strategies are in equilibrium with this Player strategy too)"
            )
        differences = [cell for cell in equilibrium.banker if cell.differs_from_punto_banco]
        lines.append(f"Cells that differ from Punto Banco: {len(differences)}")
    lines.append("")
    checked = all(equilibrium.verified for equilibrium in solution.equilibria)
    lines.append(
        f"Verified: {'yes' if checked else 'NO'}; in every equilibrium each side's strategy is a "
        f"best reply to the other's, checked exactly in all {solution.banker_cells} Banker "
        f"cells and {solution.player_choices} Player choice"
        f"{'' if solution.player_choices == 1 else 's'}."
    )
    return "\n".join(lines if wide else wrapped_lines(lines, TABLE_WIDTH))


def _range_list(payoff_range: tuple[Any, Any] | None) -> list[str] | None:
    return None if payoff_range is None else [fraction_string(end) for end in payoff_range]


def _equilibrium_dict(equilibrium: Equilibrium) -> dict[str, Any]:
    draws = {label: fraction_string(value) for label, value in equilibrium.player_draw_at_5.items()}
    up_to = equilibrium.player_draw_at_5_up_to
    banker: dict[str, dict[str, str]] = {}
    for cell in equilibrium.banker:
        banker.setdefault(cell.hand, {})[cell.information] = cell.action
    return {
        "player_draw_at_5": draws["5"] if list(draws) == ["5"] else draws,
        "player_draw_at_5_up_to": (
            None
            if up_to is None
            else {label: fraction_string(value) for label, value in up_to.items()}
        ),
        "banker": banker,
        "banker_payoff": fraction_string(equilibrium.banker_payoff),
        "player_payoff": fraction_string(equilibrium.player_payoff),
        "banker_payoff_range": _range_list(equilibrium.banker_payoff_range),
        "player_payoff_range": _range_list(equilibrium.player_payoff_range),
        "player_draw_at_5_weighted": (
            None
            if equilibrium.player_draw_at_5_weighted is None
            else fraction_string(equilibrium.player_draw_at_5_weighted)
        ),
        "banker_unique": equilibrium.banker_unique,
        "player_unique": equilibrium.player_unique,
        "differs_from_punto_banco": [
            {"hand": cell.hand, "information": cell.information, "action": cell.action}
            for cell in equilibrium.banker
            if cell.differs_from_punto_banco
        ],
        "verified": equilibrium.verified,
    }


def _solution_dict(solution: Solution) -> dict[str, Any]:
    """The solution as JSON-ready data; every probability and payoff an exact ``"n/d"``.

    ``value`` is the Banker's expected payoff per unit (in a bimatrix game,
    at the first equilibrium); ``player_draw_at_5`` and ``banker`` are the
    first equilibrium's; ``equilibria`` lists them all.

    >>> from exactodds import Shoe
    >>> from exactodds.games.chemin_de_fer import Model, solve
    >>> data = _solution_dict(solve(Shoe.standard(1), Model(dealing="replacement", banker_sees="total")))
    >>> data["value"], data["player_draw_at_5"], data["banker"]["6"]["stood"]
    ('679568/53094899', '9/11', '859/2288')
    """
    equilibria = [_equilibrium_dict(equilibrium) for equilibrium in solution.equilibria]
    model = solution.model
    first = equilibria[0] if equilibria else {}
    return {
        "model": {
            "dealing": model.dealing,
            "banker_sees": model.banker_sees,
            "player_sees": model.player_sees,
            "commission": fraction_string(model.commission),
            "zero_sum": model.zero_sum,
        },
        "shoe": shoe_block(solution.shoe),
        "method": solution.method,
        "complete": solution.complete,
        "incomplete_because": solution.incomplete_because or None,
        "value": fraction_string(solution.value)
        if solution.value is not None
        else first.get("banker_payoff"),
        "player_payoff": first.get("player_payoff"),
        "player_draw_at_5": first.get("player_draw_at_5"),
        "banker": first.get("banker"),
        "differs_from_punto_banco": first.get("differs_from_punto_banco"),
        "verified": all(equilibrium.verified for equilibrium in solution.equilibria),
        "equilibria": equilibria,
    }


def render_solution_json(solution: Solution) -> str:
    """The solution as indented JSON: every probability and payoff an exact ``"n/d"``.

    >>> import json
    >>> from exactodds import Shoe
    >>> from exactodds.games.chemin_de_fer import solve
    >>> json.loads(render_solution_json(solve(Shoe.standard(decks=8))))["player_draw_at_5"]
    '163305/201968'
    """
    return json_text(_solution_dict(solution))
