"""A simulation's result as a table, JSON or CSV.

The JSON is a contract like the other commands': ``shoes``, ``rounds`` and per
bet under ``bets``: ``bets_made``, ``frequency``, ``average_edge``,
``share_positive``, ``units_per_shoe`` and ``units_per_100_rounds`` (each with
``exact_ev`` and ``realized``, each with ``mean``, ``stderr`` and ``ci95``),
``ev_deciles`` and ``ev_by_deck``.  How the run went (time, rate, backend)
stays under ``run``, so that two runs of the same simulation compare equal
outside it.
"""

from __future__ import annotations

import csv
import io
import json
import math

from exactodds.report.table import simple_table
from exactodds.simulation.result import BetResult, SimulationResult
from exactodds.simulation.tally import Estimate

__all__ = ["CSV_COLUMNS", "render_csv", "render_json", "render_table"]


def render_json(result: SimulationResult) -> str:
    """The result as indented JSON."""
    return json.dumps(result.as_dict(), indent=2)


def _number(value: float | None, digits: int) -> str:
    if value is None or math.isnan(value):
        return "-"
    return f"{value:.{digits}f}"


def _percent(value: float | None, digits: int) -> str:
    if value is None or math.isnan(value):
        return "-"
    return f"{100 * value:.{digits}f}%"


def _estimate(estimate: Estimate, digits: int) -> str:
    if math.isnan(estimate.stderr):
        return _number(estimate.mean, digits)
    return f"{_number(estimate.mean, digits)} ± {_number(1.96 * estimate.stderr, digits)}"


def render_table(result: SimulationResult, digits: int = 4) -> str:
    """The result as text tables: per bet, both estimators with 95% intervals."""
    tally = result.tally
    simulation = result.simulation
    histogram = dict(tally.rounds_histogram)
    lines = [
        f"Shoes: {tally.shoes:,} of seed {simulation.seed} ({simulation.procedure.describe()})",
        f"Rules: {simulation.rules.describe()}",
        f"Rounds: {tally.rounds:,}"
        + (
            f", {tally.rounds / tally.shoes:.2f} per shoe (from {min(histogram)} to "
            f"{max(histogram)})"
            if tally.shoes
            else ""
        ),
    ]
    if not result.complete:
        lines.append(
            f"Interrupted: the result covers the first {tally.shoes:,} of "
            f"{simulation.shoes:,} shoes."
        )
    lines.append("")
    bets = result.bets()
    headers = [
        "Bet",
        "Bets made",
        "Frequency",
        "Average edge",
        "Units/shoe, exact EV",
        "Units/shoe, realized",
        "Units/100 rounds, exact EV",
    ]
    rows = [
        [
            bet.name,
            f"{bet.bets_made:,}",
            _percent(bet.frequency, 2),
            _percent(bet.average_edge, 3),
            _estimate(bet.units_per_shoe["exact_ev"], digits),
            _estimate(bet.units_per_shoe["realized"], digits),
            _estimate(bet.units_per_100_rounds["exact_ev"], digits),
        ]
        for bet in bets
    ]
    lines.append(simple_table(rows, headers, ("left",) + ("right",) * (len(headers) - 1)))
    lines += ["", "± is a 95% confidence interval (1.96 standard errors over shoes)."]
    lines += ["", "Strategies and the exact EV over all rounds:"]
    detail_headers = ["Bet", "Strategy", "EV > 0", "EV deciles 10% / 50% / 90%"]
    detail_rows = [
        [
            bet.name,
            bet.strategy,
            _percent(bet.share_positive, 2),
            " / ".join(_percent(bet.ev_deciles[i], 2) for i in (0, 4, 8))
            if len(bet.ev_deciles) == 9
            else "-",
        ]
        for bet in bets
    ]
    lines.append(simple_table(detail_rows, detail_headers, ("left",) * len(detail_headers)))
    lines += ["", _depth_table(bets)]
    return "\n".join(lines)


def _depth_table(bets: list[BetResult]) -> str:
    decks = max((len(bet.ev_by_deck) for bet in bets), default=0)
    headers = ["Mean exact EV by deck dealt"] + [str(deck + 1) for deck in range(decks)]
    rows = [[bet.name] + [_percent(value, 2) for value in bet.ev_by_deck] for bet in bets]
    return simple_table(rows, headers, ("left",) + ("right",) * decks)


CSV_COLUMNS = (
    "bet",
    "strategy",
    "shoes",
    "rounds",
    "bets_made",
    "frequency",
    "average_edge",
    "share_positive",
    "units_per_shoe_exact_ev",
    "units_per_shoe_exact_ev_stderr",
    "units_per_shoe_realized",
    "units_per_shoe_realized_stderr",
    "units_per_100_rounds_exact_ev",
    "units_per_100_rounds_exact_ev_stderr",
    "units_per_100_rounds_realized",
    "units_per_100_rounds_realized_stderr",
)


def render_csv(result: SimulationResult) -> str:
    """One CSV row per bet (floats written with repr: every digit Python has; none: empty)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for bet in result.bets():
        estimates = (
            bet.units_per_shoe["exact_ev"],
            bet.units_per_shoe["realized"],
            bet.units_per_100_rounds["exact_ev"],
            bet.units_per_100_rounds["realized"],
        )
        writer.writerow(
            [
                bet.name,
                bet.strategy,
                result.tally.shoes,
                bet.rounds,
                bet.bets_made,
                repr(bet.frequency),
                repr(bet.average_edge),
                repr(bet.share_positive),
                *(
                    repr(value)
                    for estimate in estimates
                    for value in (estimate.mean, estimate.stderr)
                ),
            ]
        )
    return buffer.getvalue().rstrip("\n")
