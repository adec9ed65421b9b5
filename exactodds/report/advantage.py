"""Rendering of depth tables and edge sorts: table, JSON, CSV, and the depth figures.

JSON keeps the library's exact "n/d" strings (``to_dict``) and adds a ``*_decimal`` companion
beside each, rounded to the digits asked for, as every other exactodds JSON does.

>>> from fractions import Fraction
>>> _with_decimals({"value": "1/3", "cards": 6}, 4)
{'value': '1/3', 'cards': 6, 'value_decimal': '0.3333'}
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

from exactodds.advantage.depth import DepthTable
from exactodds.advantage.edgesort import EdgeSort, PartitionSearch
from exactodds.numbers import decimal_string, fraction_string, percent_string
from exactodds.report.table import TABLE_WIDTH, fitted_table, simple_table, wrapped_text
from exactodds.report.writer import json_text

__all__ = [
    "depth_figures",
    "render_depth_csv",
    "render_depth_json",
    "render_depth_table",
    "render_edge_sort_csv",
    "render_edge_sort_json",
    "render_edge_sort_table",
    "render_search_csv",
    "render_search_json",
    "render_search_table",
]

_DEPTH_FIGURES = ("positive_probability", "mean_edge_when_positive", "value", "mean_ev")


def _decimal(text: str | None, digits: int) -> str | None:
    return None if text is None else decimal_string(Fraction(text), digits)


def _with_decimals(data: dict[str, Any], digits: int) -> dict[str, Any]:
    """Every "n/d" figure of *data* (not counts, not names) with its decimal beside it."""
    extra = {
        f"{key}_decimal": _decimal(value, digits)
        for key, value in data.items()
        if (isinstance(value, str) or value is None)
        and key not in ("best_bet", "groups", "high", "by", "shoe", "rules")
    }
    return {**data, **extra}


def render_depth_json(table: DepthTable, digits: int) -> str:
    """A depth table as JSON: its ``to_dict`` with a decimal beside every exact figure.

    >>> from exactodds import Shoe
    >>> from exactodds.advantage.depth import depth_table
    >>> render_depth_json(depth_table(Shoe.standard(decks=1), cards=(6,)), -1)
    Traceback (most recent call last):
    ...
    ValueError: digits must be at least 0, not -1.
    """
    data = table.to_dict()
    for row in data["depths"]:
        row["bets"] = {n: _with_decimals(f, digits) for n, f in row["bets"].items()}
    return json_text(data)


def render_depth_csv(table: DepthTable, digits: int) -> str:
    """A depth table as CSV: one row per depth and bet, every figure exact, the value's decimal."""
    data = table.to_dict()
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["cards", "compositions", "bet", *_DEPTH_FIGURES, "value_decimal"])
    for row in data["depths"]:
        for name, figure in row["bets"].items():
            cells = [figure[key] if figure[key] is not None else "" for key in _DEPTH_FIGURES]
            writer.writerow(
                [
                    row["cards"],
                    row["compositions"],
                    name,
                    *cells,
                    _decimal(figure["value"], digits),
                ]
            )
    return buffer.getvalue().rstrip("\n")


def render_depth_table(table: DepthTable, digits: int, wide: bool = False) -> str:
    """A depth table as text.

    The table fits :data:`~exactodds.report.table.TABLE_WIDTH` columns unless *wide*: its
    heading is wrapped, and rows too wide are split in two, each led by the depth, the
    compositions and the bet: how often the bet turns positive and by how much, then what
    betting only then is worth and the mean EV.

    >>> from exactodds import Shoe
    >>> from exactodds.advantage.depth import depth_table
    >>> table = depth_table(Shoe.standard(decks=1), cards=(6,))
    >>> def widest(text: str) -> int:
    ...     return max(map(len, text.splitlines()))
    >>> widest(render_depth_table(table, 10)), widest(render_depth_table(table, 10, True))
    (100, 131)
    """
    rows = []
    for row in table.rows:
        for name, figure in row.bets.items():
            edge = figure.mean_edge_when_positive
            rows.append(
                [
                    str(row.cards),
                    f"{row.compositions:,}",
                    name,
                    percent_string(figure.positive_probability, max(digits - 2, 0)),
                    "-" if edge is None else percent_string(edge, max(digits - 2, 0)),
                    percent_string(figure.value, max(digits - 2, 0)),
                    percent_string(figure.mean_ev, max(digits - 2, 0)),
                ]
            )
    headers = [
        "cards left",
        "compositions",
        "bet",
        "P(EV > edge)",
        "mean edge then",
        "value/round",
        "mean EV",
    ]
    lines = (
        f"{table.shoe.describe()}, {table.rules.describe()}",
        f"Perfect play: bet only when the EV is above {percent_string(table.min_edge, 2)}; "
        "every composition of the cards left, weighted exactly",
    )
    width = None if wide else TABLE_WIDTH
    heading = "".join(
        (line if width is None else wrapped_text(line, width)) + "\n" for line in lines
    )
    aligns = ("right", "right", "left", "right", "right", "right", "right")
    body = fitted_table(rows, headers, aligns, width, lead=3, breaks=(5,))
    return heading + "\n" + body


def render_edge_sort_json(result: EdgeSort, digits: int) -> str:
    """An edge sort as JSON: its ``to_dict`` with a decimal beside every exact figure."""
    data = result.to_dict()
    data["patterns"] = [_with_decimals(p, digits) for p in data["patterns"]]
    return json_text(_with_decimals(data, digits))


def render_edge_sort_csv(result: EdgeSort, digits: int) -> str:
    """An edge sort as CSV: one row per pattern, then the advantage over all of them."""
    data = result.to_dict()
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["groups", "probability", "best_bet", "ev", "ev_decimal"])
    for pattern in data["patterns"]:
        writer.writerow(
            [
                pattern["groups"],
                pattern["probability"],
                pattern["best_bet"] or "",
                pattern["ev"] or "",
                _decimal(pattern["ev"], digits) or "",
            ]
        )
    writer.writerow(["all", "1", "", data["advantage"], _decimal(data["advantage"], digits)])
    return buffer.getvalue().rstrip("\n")


def render_edge_sort_table(result: EdgeSort, digits: int) -> str:
    """An edge sort's patterns and advantage as text: each pattern's best bet and its EV."""
    places = max(digits - 2, 0)
    rows = [
        [
            pattern.groups,
            percent_string(pattern.probability, places),
            pattern.best_bet or "no bet",
            "-" if pattern.ev is None else percent_string(pattern.ev, places),
        ]
        for pattern in result.patterns
    ]
    seen = " ".join(("P1", "B1", "P2", "B2")[: result.cards])
    heading = (
        f"High group: {result.high} (by {result.by}); the groups of {seen} are seen\n"
        f"Advantage per round: {percent_string(result.advantage, places)} "
        f"({fraction_string(result.advantage)})\n\n"
    )
    table = simple_table(
        rows, ["groups", "probability", "best bet", "EV"], ("left", "right", "left", "right")
    )
    return heading + table


def render_search_json(search: PartitionSearch, top: int, digits: int) -> str:
    """The *top* splits of a ``--search`` as JSON, best first, and how many were tried."""
    entries = [
        {
            "high": high,
            "advantage": f"{a.numerator}/{a.denominator}",
            "advantage_decimal": decimal_string(a, digits),
        }
        for high, a in search.best[:top]
    ]
    return json_text({"best": entries, "partitions": len(search.best)})


def render_search_csv(search: PartitionSearch, top: int, digits: int) -> str:
    """The *top* splits of a ``--search`` as CSV, best first."""
    lines = ["high,advantage,advantage_decimal"]
    lines += [
        f"{h},{a.numerator}/{a.denominator},{decimal_string(a, digits)}"
        for h, a in search.best[:top]
    ]
    return "\n".join(lines)


def render_search_table(search: PartitionSearch, top: int, digits: int) -> str:
    """The *top* splits of a ``--search`` as a numbered table, best first."""
    best = search.best
    shown = list(best[:top])
    rows = [
        [str(i), high, percent_string(a, max(digits - 2, 0))]
        for i, (high, a) in enumerate(shown, start=1)
    ]
    heading = f"The best {len(shown)} of {len(best)} two-group splits (high group holds the 9)\n\n"
    return heading + simple_table(
        rows, ["#", "high group", "advantage"], ("right", "left", "right")
    )


def depth_figures(table: DepthTable) -> Iterator[tuple[str, str, Any]]:
    """Per bet, a figure of P(EV > edge) and the value per round against the cards left."""
    from exactodds.report.plots import require_matplotlib

    require_matplotlib()
    from matplotlib.figure import Figure

    names = list(table.rows[0].bets) if table.rows else []
    depths = [row.cards for row in table.rows]
    for name in names:
        figure = Figure(figsize=(6, 4))
        axes = figure.subplots()
        axes.plot(
            depths,
            [float(r.bets[name].positive_probability) for r in table.rows],
            marker="o",
            label="P(EV > edge)",
        )
        axes.plot(
            depths,
            [float(r.bets[name].value) * 10 for r in table.rows],
            marker="s",
            label="value per round x 10",
        )
        axes.set_xlabel("cards left")
        axes.set_title(f"{name}: perfect play by depth")
        axes.invert_xaxis()
        axes.legend()
        yield name, "depth", figure
