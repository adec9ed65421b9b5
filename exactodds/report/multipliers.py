"""Rendering of bets priced under a random-multiplier overlay: table, JSON and CSV.

Every figure is read from the result (:mod:`exactodds.analysis.multipliers`); nothing here
computes one, bar square roots for display.

>>> from exactodds import Rules, Shoe
>>> from exactodds.analysis.multipliers import analyze_overlay
>>> from exactodds.bets.multipliers import MultiplierOverlay
>>> priced = analyze_overlay(Shoe.standard(decks=1), Rules(),
...                          overlay=MultiplierOverlay(1, {2: 1}, name="twice"))
>>> print(render_overlay_csv(priced, 4).splitlines()[0])
bet,base_pay,multiplied,ev,ev_decimal,rtp,rtp_decimal,variance,std_dev,win,mean_multiple,max_multiple
"""

from __future__ import annotations

import csv
import io
from fractions import Fraction
from typing import Any

from exactodds.analysis.multipliers import MultipliedBet, OverlayAnalysis
from exactodds.bets.multipliers import MultiplierOverlay
from exactodds.numbers import (
    decimal_string,
    fraction_string,
    percent_string,
    square_root_decimal_string,
)
from exactodds.report.table import TABLE_WIDTH, fitted_table, wrapped_lines
from exactodds.report.writer import json_text
from exactodds.studies.multipliers import LawDesign, LawInference

__all__ = [
    "CSV_COLUMNS",
    "overlay_lines",
    "render_design_json",
    "render_design_table",
    "render_inference_json",
    "render_inference_table",
    "render_law_csv",
    "render_law_json",
    "render_law_table",
    "render_overlay_csv",
    "render_overlay_json",
    "render_overlay_table",
]

CSV_COLUMNS = (
    "bet",
    "base_pay",
    "multiplied",
    "ev",
    "ev_decimal",
    "rtp",
    "rtp_decimal",
    "variance",
    "std_dev",
    "win",
    "mean_multiple",
    "max_multiple",
)


def overlay_lines(overlay: MultiplierOverlay) -> list[str]:
    """The overlay in words: faces, law (and whether it is assumed), fee, per-bet settings."""
    law = ", ".join(
        f"{fraction_string(value)}x {fraction_string(chance)}"
        for value, chance in overlay.law_items
    )
    assumed = " (assumed: no one publishes it)" if overlay.assumed else ""
    name = f"{overlay.name}: " if overlay.name else ""
    lines = [
        f"Multipliers: {name}{overlay.faces} faces drawn of {overlay.deck}; "
        f"law {law}{assumed}; mean {decimal_string(overlay.mean, 4)}x"
    ]
    if overlay.fee:
        lines.append(f"Overlay fee: {percent_string(overlay.fee, 2)} on every bet")
    for bet, settings in overlay.bets_items:
        lines.append(f"  {bet}: {settings.describe()}")
    if overlay.source:
        lines.append(f"Source: {overlay.source}")
    return lines


def _base_pay(bet: MultipliedBet) -> str:
    pay = bet.base_pay("win") if "win" in bet.bet.pay_table else None
    return "-" if pay is None else fraction_string(pay)


def _max_multiple(bet: MultipliedBet) -> Fraction | None:
    return max(bet.multiples) if bet.multiples else None


def render_overlay_table(
    analysis: OverlayAnalysis, digits: int, exact: bool = False, wide: bool = False
) -> str:
    """Each bet under the overlay: base pay, chance to win, mean multiple, EV, RTP, spread."""
    width = None if wide else TABLE_WIDTH
    lines = [
        f"Shoe: {analysis.shoe.describe()}",
        f"Rules: {analysis.rules.describe()}",
        *overlay_lines(analysis.overlay),
        f"RTP with a fee of {percent_string(analysis.fee, 2)} on every bet: (1 + EV) / (1 + fee)",
        "",
    ]
    headers = ["Bet", "Base pay", "Win", "Mean multiple", "Max multiple", "EV"]
    headers += ["Exact EV"] if exact else []
    headers += ["RTP", "Std dev"]
    rows = []
    for name in analysis.bet_names:
        bet = analysis.bets.get(name)
        if bet is None:
            rows.append([name, "not computable"] + ["-"] * (len(headers) - 2))
            continue
        mean = bet.mean_multiple
        top = _max_multiple(bet)
        row = [
            name + ("" if bet.multiplied else " (no multipliers)"),
            _base_pay(bet),
            decimal_string(bet.win_probability, digits),
            "-" if mean is None else decimal_string(mean, digits),
            "-" if top is None else fraction_string(top),
            decimal_string(bet.expected_value, digits),
        ]
        row += [fraction_string(bet.expected_value)] if exact else []
        row += [
            percent_string(analysis.return_to_player(name), digits),
            square_root_decimal_string(bet.variance, digits),
        ]
        rows.append(row)
    lines.append(fitted_table(rows, headers, ("left",) + ("right",) * (len(headers) - 1), width))
    notes = [f"{name}: {reason}" for name, reason in analysis.unavailable.items()]
    lines += ["", *notes] if notes else []
    lines += ["", "EV per unit staked, fee excluded; json gives each bet's law of the multiple."]
    return "\n".join(lines if width is None else wrapped_lines(lines, width))


def _overlay_dict(analysis: OverlayAnalysis, digits: int) -> dict[str, Any]:
    """The result's exact data, with decimals at *digits* beside the fractions."""
    data = analysis.to_dict()
    for name, fields in data["bets"].items():
        if name in analysis.bets:
            bet = analysis.bets[name]
            fields["ev_decimal"] = decimal_string(bet.expected_value, digits)
            fields["rtp_decimal"] = decimal_string(analysis.return_to_player(name), digits)
    return data


def render_overlay_json(analysis: OverlayAnalysis, digits: int) -> str:
    """The result as JSON: exact fractions, decimals at *digits*, each bet's law of the multiple."""
    return json_text(_overlay_dict(analysis, digits))


def render_overlay_csv(analysis: OverlayAnalysis, digits: int) -> str:
    """One row a bet (:data:`CSV_COLUMNS`); the law of the multiple is in the JSON."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for name in analysis.bet_names:
        bet = analysis.bets.get(name)
        if bet is None:
            writer.writerow({"bet": name})
            continue
        mean = bet.mean_multiple
        top = _max_multiple(bet)
        rtp = analysis.return_to_player(name)
        writer.writerow(
            {
                "bet": name,
                "base_pay": _base_pay(bet),
                "multiplied": "true" if bet.multiplied else "false",
                "ev": fraction_string(bet.expected_value),
                "ev_decimal": decimal_string(bet.expected_value, digits),
                "rtp": fraction_string(rtp),
                "rtp_decimal": decimal_string(rtp, digits),
                "variance": fraction_string(bet.variance),
                "std_dev": square_root_decimal_string(bet.variance, digits),
                "win": fraction_string(bet.win_probability),
                "mean_multiple": "" if mean is None else fraction_string(mean),
                "max_multiple": "" if top is None else fraction_string(top),
            }
        )
    return buffer.getvalue().rstrip("\n")


def render_law_table(overlay: MultiplierOverlay) -> str:
    """An overlay in words and its law as a table (``exactodds bets --multipliers``)."""
    rows = [
        [f"{fraction_string(value)}x", fraction_string(chance), decimal_string(chance, 6)]
        for value, chance in overlay.law_items
    ]
    table = fitted_table(
        rows, ["Multiplier", "Probability", "Decimal"], ("left", "right", "right"), TABLE_WIDTH
    )
    return "\n".join(wrapped_lines([*overlay_lines(overlay), "", table], TABLE_WIDTH))


def render_law_json(overlay: MultiplierOverlay) -> str:
    """An overlay as JSON (:meth:`~exactodds.bets.multipliers.MultiplierOverlay.to_dict`)."""
    return json_text(overlay.to_dict())


def render_law_csv(overlay: MultiplierOverlay) -> str:
    """An overlay's law as CSV: one row a multiplier."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["multiplier", "probability"])
    writer.writerows(
        [fraction_string(value), fraction_string(chance)] for value, chance in overlay.law_items
    )
    return buffer.getvalue().rstrip("\n")


def render_design_table(design: LawDesign, digits: int = 4) -> str:
    """The laws of a design grid inside every target window, best first."""
    grid = design.grid
    values = ", ".join(f"{fraction_string(value)}x" for value in grid.values)
    targets = ", ".join(
        f"{t.bet} {percent_string(t.low, digits)} to {percent_string(t.high, digits)}"
        for t in design.targets
    )
    lines = [
        f"Grid: {', '.join(map(str, grid.faces))} faces; multipliers {values}; probabilities "
        f"in steps of 1/{grid.steps} ({grid.size:,} laws)",
        f"Targets (RTP, fee {percent_string(design.fee, 2)}): {targets}",
        f"Inside every window: {len(design.laws)} shown (score: the worst bet's distance from "
        "its window's centre, in half-widths)",
        "",
    ]
    bets = [target.bet for target in design.targets]
    rows = [
        [
            str(found.faces),
            ", ".join(f"{fraction_string(v)}x {fraction_string(p)}" for v, p in found.law),
            *(percent_string(found.rtps[bet], digits) for bet in bets),
            decimal_string(found.score, 3),
        ]
        for found in design.laws
    ]
    headers = ["Faces", "Law", *bets, "Score"]
    if rows:
        lines.append(
            fitted_table(
                rows, headers, ("right", "left") + ("right",) * (len(bets) + 1), TABLE_WIDTH
            )
        )
    else:
        lines.append("No law of the grid has every RTP inside its window.")
    return "\n".join(wrapped_lines(lines, TABLE_WIDTH))


def render_design_json(design: LawDesign) -> str:
    """A design as JSON (:meth:`~exactodds.studies.multipliers.LawDesign.to_dict`)."""
    return json_text(design.to_dict())


def render_inference_table(inference: LawInference, digits: int = 6) -> str:
    """What each published RTP implies for the free probability, and what all allow."""
    free = f"P({fraction_string(inference.free)}x)"
    others = ", ".join(
        f"{fraction_string(v)}x" for v, _ in inference.template.law_items if v != inference.free
    )
    lines = [
        f"Overlay: {inference.template.name or 'the overlay'}, {inference.template.faces} faces; "
        f"free: p = {free}, the rest ({others}) in the file's proportions",
        f"RTP with a fee of {percent_string(inference.fee, 2)}; a published figure stands for "
        "every RTP that rounds to it",
        "",
    ]
    rows = []
    for found in inference.implied:
        rows.append(
            [
                found.published.bet,
                found.published.text,
                str(found.degree),
                "-" if found.solution is None else decimal_string(found.solution, digits),
                "; ".join(
                    f"{decimal_string(a, digits)} to {decimal_string(b, digits)}"
                    for a, b in found.intervals
                )
                or "none in [0, 1]",
            ]
        )
    headers = ["Bet", "Published", "Degree", f"{free} exactly", f"{free} rounding to it"]
    lines.append(
        fitted_table(rows, headers, ("left", "right", "right", "right", "left"), TABLE_WIDTH)
    )
    lines.append("")
    if inference.consistent:
        spans = "; ".join(
            f"{decimal_string(a, digits)} to {decimal_string(b, digits)}"
            for a, b in inference.consistent
        )
        lines.append(f"Consistent: every published RTP holds for {free} from {spans}.")
    else:
        lines.append(f"Inconsistent: no {free} gives every published RTP; the bets above disagree.")
    return "\n".join(wrapped_lines(lines, TABLE_WIDTH))


def render_inference_json(inference: LawInference) -> str:
    """An inference as JSON (:meth:`~exactodds.studies.multipliers.LawInference.to_dict`)."""
    return json_text(inference.to_dict())
