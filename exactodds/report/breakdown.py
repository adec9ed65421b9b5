"""Breakdown tables rendered: text tables for a terminal, JSON and CSV.

:func:`~exactodds.analysis.breakdown.breakdown` counts the figures; this module lays them out,
one function a format, chosen by :mod:`exactodds.report.registry`.

>>> from exactodds import Shoe, enumerate_rounds
>>> from exactodds.analysis.breakdown import breakdown
>>> data = _breakdown_dict(breakdown(enumerate_rounds(Shoe.standard(decks=1))), 4)
>>> data["cards_dealt"]["6"]["decimal"]
'0.3145'
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from exactodds.analysis.breakdown import TOTALS, WINNERS, Breakdown, Frequency
from exactodds.cards import Card
from exactodds.engine.known import describe_known
from exactodds.numbers import decimal_string, fraction_string
from exactodds.report.table import TABLE_WIDTH, fitted_table, wrapped_lines
from exactodds.report.writer import json_text, known_block, shoe_block
from exactodds.rules import Tableau
from exactodds.shoe import Shoe

__all__ = [
    "CSV_COLUMNS",
    "render_breakdown_csv",
    "render_breakdown_json",
    "render_breakdown_table",
]


def _figure(frequency: Frequency, digits: int) -> dict[str, Any]:
    return {
        "count": frequency.count,
        "probability": fraction_string(frequency.probability),
        "decimal": decimal_string(frequency.probability, digits),
    }


def _natural_rows(result: Breakdown) -> list[tuple[str, str, Frequency]]:
    """(label, csv key, frequency) rows of the naturals table."""
    rows = []
    for total in result.natural_totals:
        rows.append((f"Player natural {total}", f"player_{total}", result.player_natural(total)))
    for total in result.natural_totals:
        rows.append((f"Banker natural {total}", f"banker_{total}", result.banker_natural(total)))
    rows.append(("Both naturals", "both", result.both_natural))
    rows.append(("Either natural", "any", result.any_natural))
    rows.append(("No natural", "none", result.naturals[None, None]))
    return rows


def _draw_rows(result: Breakdown) -> list[tuple[str, str, Frequency]]:
    return [
        ("Player draws", "player", result.player_draws),
        ("Banker draws", "banker", result.banker_draws),
        ("Both draw", "both", result.draws[True, True]),
        ("Only the Player draws", "player_only", result.draws[True, False]),
        ("Only the Banker draws", "banker_only", result.draws[False, True]),
        ("Neither draws", "neither", result.draws[False, False]),
    ]


def _natural_key(total: int | None) -> str:
    return "none" if total is None else str(total)


def _breakdown_dict(
    result: Breakdown,
    digits: int,
    shoe: Shoe | None = None,
    tableau: Tableau | None = None,
    known: Mapping[int, Card] | None = None,
) -> dict[str, Any]:
    """The breakdown as JSON-ready data: counts as integers, exact ``"n/d"`` strings.

    Every figure is ``{"count": int, "probability": "n/d", "decimal": "0.xxx"}``.
    *shoe*, *tableau* and *known* (position -> card, see :mod:`exactodds.engine.known`)
    add ``"shoe"``, ``"tableau"`` and ``"known"`` entries when given.

    >>> from exactodds import Shoe, enumerate_rounds
    >>> from exactodds.analysis.breakdown import breakdown
    >>> data = _breakdown_dict(breakdown(enumerate_rounds(Shoe.standard(decks=8))), 6)
    >>> data["winning_totals"]["banker"]["6"]["count"], data["cards_dealt"]["4"]["decimal"]
    (269232304455680, '0.378868')
    >>> data["final_totals"]["9"]["9"]["count"] == data["winning_totals"]["tie"]["9"]["count"]
    True
    """
    data: dict[str, Any] = {}
    if shoe is not None:
        data["shoe"] = shoe_block(shoe)
    if tableau is not None:
        data["tableau"] = tableau.name
    if known is not None:
        data["known"] = known_block(known)
    data["total"] = result.total
    data["winning_totals"] = {
        winner.value: {
            str(total): _figure(result.winning_totals[winner, total], digits) for total in TOTALS
        }
        for winner in WINNERS
    }
    data["winners"] = {
        winner.value: _figure(frequency, digits) for winner, frequency in result.winners.items()
    }
    data["final_totals"] = {
        str(player): {
            str(banker): _figure(result.final_totals[player, banker], digits) for banker in TOTALS
        }
        for player in TOTALS
    }
    data["player_totals"] = {
        str(total): _figure(frequency, digits) for total, frequency in result.player_totals.items()
    }
    data["banker_totals"] = {
        str(total): _figure(frequency, digits) for total, frequency in result.banker_totals.items()
    }
    data["cards_dealt"] = {
        str(number): _figure(frequency, digits) for number, frequency in result.cards_dealt.items()
    }
    data["draws"] = {key: _figure(frequency, digits) for _, key, frequency in _draw_rows(result)}
    data["naturals"] = {
        key: _figure(frequency, digits) for _, key, frequency in _natural_rows(result)
    }
    data["naturals"]["by_totals"] = [
        {"player": player, "banker": banker, **_figure(frequency, digits)}
        for (player, banker), frequency in result.naturals.items()
    ]
    return data


def render_breakdown_json(
    result: Breakdown,
    digits: int,
    shoe: Shoe | None = None,
    tableau: Tableau | None = None,
    known: Mapping[int, Card] | None = None,
) -> str:
    """The breakdown as pretty-printed JSON: every figure a count, an exact ``"n/d"`` and a decimal."""
    return json_text(_breakdown_dict(result, digits, shoe, tableau, known))


CSV_COLUMNS = ("table", "row", "column", "count", "probability", "probability_decimal")


def _csv_rows(result: Breakdown) -> Iterator[tuple[str, str, str, Frequency]]:
    for total in reversed(TOTALS):
        for winner in WINNERS:
            yield "winning_total", str(total), winner.value, result.winning_totals[winner, total]
    for winner, frequency in result.winners.items():
        yield "winner", winner.value, "", frequency
    for player in TOTALS:
        for banker in TOTALS:
            yield "final_totals", str(player), str(banker), result.final_totals[player, banker]
    for total in TOTALS:
        yield "side_total", str(total), "player", result.player_totals[total]
        yield "side_total", str(total), "banker", result.banker_totals[total]
    for number, frequency in result.cards_dealt.items():
        yield "cards_dealt", str(number), "", frequency
    for _, key, frequency in _draw_rows(result):
        yield "draws", key, "", frequency
    for _, key, frequency in _natural_rows(result):
        yield "naturals", key, "", frequency
    for (player_natural, banker_natural), frequency in result.naturals.items():
        yield (
            "natural_totals",
            _natural_key(player_natural),
            _natural_key(banker_natural),
            frequency,
        )


def render_breakdown_csv(result: Breakdown, digits: int) -> str:
    """The breakdown as CSV in long form: one row per figure.

    Columns ``table,row,column,count,probability,probability_decimal``;
    ``winning_total`` rows are (total, winner), ``final_totals`` rows are
    (Player total, Banker total), ``side_total`` rows are (total, side).

    >>> from exactodds import Shoe, enumerate_rounds
    >>> from exactodds.analysis.breakdown import breakdown
    >>> text = render_breakdown_csv(breakdown(enumerate_rounds(Shoe.standard(decks=8))), 6)
    >>> print(text.splitlines()[0]); print(text.splitlines()[11])
    table,row,column,count,probability,probability_decimal
    winning_total,6,banker,269232304455680,210337737856/3904998652737,0.053864
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for table, row, column, frequency in _csv_rows(result):
        writer.writerow(
            [
                table,
                row,
                column,
                frequency.count,
                fraction_string(frequency.probability),
                decimal_string(frequency.probability, digits),
            ]
        )
    return buffer.getvalue().rstrip("\n")


def _simple_table(
    title: str,
    rows: Sequence[tuple[str, Frequency]],
    digits: int,
    exact: bool,
    width: int | None = None,
) -> str:
    headers = [title, "Combinations", "Probability"] + (["Exact"] if exact else [])
    body = []
    for label, frequency in rows:
        row = [label, f"{frequency.count:,}", decimal_string(frequency.probability, digits)]
        if exact:
            row.append(fraction_string(frequency.probability))
        body.append(row)
    return fitted_table(body, headers, ("left",) + ("right",) * (len(headers) - 1), width)


def _count_and_probability(frequency: Frequency, digits: int) -> list[str]:
    return [f"{frequency.count:,}", decimal_string(frequency.probability, digits)]


def _winning_totals_table(result: Breakdown, digits: int, width: int | None = None) -> str:
    rows = [
        [str(total)]
        + [
            cell
            for winner in WINNERS
            for cell in _count_and_probability(result.winning_totals[winner, total], digits)
        ]
        for total in reversed(TOTALS)
    ]
    rows.append(
        ["All"]
        + [
            cell
            for frequency in result.winners.values()
            for cell in _count_and_probability(frequency, digits)
        ]
    )
    headers = ["Winning total"] + [
        heading
        for side in ("Player wins", "Banker wins", "Tie")
        for heading in (side, "Probability")
    ]
    # a side's count and probability stay together
    return fitted_table(rows, headers, ("left",) + ("right",) * 6, width, breaks=(1, 3, 5))


def _side_totals_table(result: Breakdown, digits: int, width: int | None = None) -> str:
    rows = [
        [
            str(total),
            *_count_and_probability(result.player_totals[total], digits),
            *_count_and_probability(result.banker_totals[total], digits),
        ]
        for total in reversed(TOTALS)
    ]
    headers = ["Final total", "Player", "Probability", "Banker", "Probability"]
    return fitted_table(rows, headers, ("left",) + ("right",) * 4, width, breaks=(1, 3))


def _final_totals_grid(result: Breakdown, digits: int, width: int | None = None) -> str:
    grid = [
        [f"P {player}"]
        + [
            decimal_string(result.final_totals[player, banker].probability, digits)
            for banker in TOTALS
        ]
        for player in TOTALS
    ]
    headers = ["", *(f"B {banker}" for banker in TOTALS)]
    # split, the grid falls in two halves, Banker totals 0-4 and 5-9
    return fitted_table(grid, headers, ("left",) + ("right",) * 10, width, breaks=(6,))


def render_breakdown_table(
    result: Breakdown,
    digits: int,
    exact: bool = False,
    shoe: Shoe | None = None,
    tableau: Tableau | None = None,
    known: Mapping[int, Card] | None = None,
    wide: bool = False,
) -> str:
    """The breakdown as text tables for a terminal.

    The grid of final totals shows probabilities only (counts would not fit
    a terminal); JSON and CSV carry its counts and exact fractions.  Every line
    fits :data:`~exactodds.report.table.TABLE_WIDTH` columns unless *wide*: the
    grid is split by columns (the Player's total leading each part), prose wrapped.

    >>> from exactodds import Shoe, enumerate_rounds
    >>> from exactodds.analysis.breakdown import breakdown
    >>> text = render_breakdown_table(breakdown(enumerate_rounds(Shoe.standard(decks=8))), 6)
    >>> print(text.splitlines()[5])
    6                  312,658,895,192,064       0.062552    269,232,304,455,680       0.053864
    >>> wide = render_breakdown_table(breakdown(enumerate_rounds(Shoe.standard(decks=8))), 6, wide=True)
    >>> max(map(len, text.splitlines())), max(map(len, wide.splitlines()))
    (91, 127)
    """
    width = None if wide else TABLE_WIDTH
    lines: list[str] = []
    if shoe is not None:
        lines.append(f"Shoe: {shoe.describe()}")
    if tableau is not None:
        lines.append(f"Tableau: {tableau.name}")
    if known:
        lines.append(f"Known: {describe_known(known)}")
    if lines:
        lines += [f"Rounds: {result.total:,} ordered six-card sequences", ""]
    cards = [(str(number), frequency) for number, frequency in result.cards_dealt.items()]
    draws = [(label, frequency) for label, _, frequency in _draw_rows(result)]
    naturals = [(label, frequency) for label, _, frequency in _natural_rows(result)]
    sections = [
        _winning_totals_table(result, digits, width),
        _side_totals_table(result, digits, width),
        "Final totals (probability): rows are the Player's total, columns the Banker's\n"
        + _final_totals_grid(result, digits, width),
        _simple_table("Cards dealt", cards, digits, exact, width),
        _simple_table("Third cards", draws, digits, exact, width),
        _simple_table("Naturals", naturals, digits, exact, width),
    ]
    text = "\n".join(lines) + ("\n" if lines else "") + "\n\n".join(sections)
    return text if width is None else "\n".join(wrapped_lines([text], width))
