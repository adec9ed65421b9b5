"""A sweep's rows (a :class:`~exactodds.simulation.sweep.SweepResult`) as a table, JSON, CSV or a figure.

One row per combination: the values swept, the penetration, and the figures of all bets
together (exact-EV estimators, 95% intervals).  The JSON holds every combination's whole
``simulate`` result under ``result``.

>>> from exactodds.simulation.sweep import SweepResult
>>> rows = [{"values": {"cut": "14"}, "penetration": 0.97, "units_per_shoe": {"mean": 0.5,
...     "stderr": 0.1}, "ev_per_round": {"mean": 0.006, "stderr": 0.001}, "di": {"mean": 3.0,
...     "stderr": 0.5}, "result": {"rounds": 81, "bets": {}}}]
>>> print(render_sweep_table(SweepResult(tuple(rows)), 3))
cut      Penetration    Units/shoe, exact EV       EV/round        DI    SCORE    N0 rounds
-----  -------------  ----------------------  -------------  --------  -------  -----------
14            97.00%               0.5 ± 0.2  0.006 ± 0.002  3 ± 0.98        -            -
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Any

from exactodds.report.simulation import count_text, figure_text
from exactodds.report.table import TABLE_WIDTH, fitted_table
from exactodds.report.writer import json_text
from exactodds.simulation.sweep import SweepResult

__all__ = ["render_sweep_csv", "render_sweep_json", "render_sweep_table", "sweep_figures"]


def render_sweep_table(sweep: SweepResult, digits: int = 4, wide: bool = False) -> str:
    """One line per combination, within :data:`~exactodds.report.table.TABLE_WIDTH` columns
    unless *wide*: a table too wide is split by columns, each part led by the values swept:
    what the play wins (penetration, units, EV), then how well (DI, SCORE, N0), then the risk
    of ruin, each run kept whole where it fits (the last two share a part if they fit).

    >>> print(render_sweep_table(SweepResult(()), 3))
    Penetration    Units/shoe, exact EV    EV/round    DI    SCORE    N0 rounds
    -------------  ----------------------  ----------  ----  -------  -----------
    >>> render_sweep_table(SweepResult(({"values": {}},)), 3)
    Traceback (most recent call last):
    ...
    KeyError: 'penetration'
    """
    rows = sweep.rows
    names = list(rows[0]["values"]) if rows else []
    risk = any(row.get("risk_of_ruin") for row in rows)
    headers = [*names, "Penetration", "Units/shoe, exact EV", "EV/round", "DI", "SCORE"]
    headers += ["N0 rounds", *(["Risk of ruin"] if risk else [])]
    table = [
        [
            *row["values"].values(),
            f"{100 * row['penetration']:.2f}%",
            figure_text(row["units_per_shoe"], digits),
            figure_text(row["ev_per_round"], digits),
            figure_text(row["di"], digits),
            figure_text(row.get("score"), digits),
            count_text(row.get("n0_rounds"), 0),
            *([_risk_text(row.get("risk_of_ruin"))] if risk else []),
        ]
        for row in rows
    ]
    alignments = ("left",) * len(names) + ("right",) * (len(headers) - len(names))
    quality = headers.index("DI")
    return fitted_table(
        table,
        headers,
        alignments,
        None if wide else TABLE_WIDTH,
        lead=max(len(names), 1),
        breaks=(quality, *([quality + 3] if risk else [])),
    )


def _risk_text(estimate: dict[str, Any] | None) -> str:
    if not estimate or estimate.get("mean") is None:
        return "-"
    error = estimate.get("stderr")
    shown = f"{100 * estimate['mean']:.2f}%"
    return shown if error is None else f"{shown} ± {100 * 1.96 * error:.2f}%"


def render_sweep_json(sweep: SweepResult) -> str:
    """``{"sweep": [row, ...]}`` as indented JSON."""
    return json_text(sweep.to_dict())


def render_sweep_csv(sweep: SweepResult) -> str:
    """One CSV row per combination (floats with repr)."""
    rows = sweep.rows
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    names = list(rows[0]["values"]) if rows else []
    figures = ("units_per_shoe", "ev_per_round", "di", "score", "n0_rounds", "risk_of_ruin")
    writer.writerow([*names, "penetration", *(f"{f}{s}" for f in figures for s in ("", "_stderr"))])
    for row in rows:
        cells = []
        for figure in figures:
            estimate = row.get(figure) or {}
            cells += [
                "" if estimate.get(key) is None else repr(estimate[key])
                for key in ("mean", "stderr")
            ]
        writer.writerow([*row["values"].values(), repr(row["penetration"]), *cells])
    return buffer.getvalue().rstrip("\n")


def sweep_figures(rows: Sequence[dict[str, Any]]) -> list[tuple[str, str, Any]]:
    """``[("sweep", "penetration", figure)]``: units per shoe against penetration.

    One line per combination of the settings other than ``cut``, with 95% error bars.
    """
    from exactodds.report.plots import require_matplotlib

    require_matplotlib()
    from matplotlib.figure import Figure

    figure = Figure(figsize=(6.4, 3.6), layout="constrained")
    axes = figure.add_subplot()
    lines: dict[str, list[tuple[float, float, float]]] = {}
    for row in rows:
        label = ", ".join(f"{k}={v}" for k, v in row["values"].items() if k != "cut") or "all"
        estimate = row["units_per_shoe"] or {}
        if estimate.get("mean") is None:
            continue
        error = 1.96 * (estimate.get("stderr") or 0.0)
        lines.setdefault(label, []).append((100 * row["penetration"], estimate["mean"], error))
    for label, points in lines.items():
        points.sort()
        axes.errorbar(
            [x for x, _, _ in points],
            [y for _, y, _ in points],
            yerr=[e for _, _, e in points],
            marker="o",
            capsize=3,
            label=label,
        )
    axes.axhline(0, color="black", linewidth=0.8)
    axes.set_xlabel("Penetration (% of the shoe before the cut card)")
    axes.set_ylabel("Units per shoe (exact EV)")
    axes.set_title("Units per shoe against penetration")
    if len(lines) > 1:
        axes.legend(fontsize="small")
    return [("sweep", "penetration", figure)]
