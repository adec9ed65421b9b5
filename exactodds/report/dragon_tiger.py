"""Rendering of Dragon Tiger's results: odds and effects of removal, as table, JSON and CSV.

Plain functions of a result and the display options, one per (result, format), so that a
renderer registry can map each pair to its function. Every figure is read from the result
(:mod:`exactodds.games.dragon_tiger`); nothing here computes one, bar square roots for display.

>>> from exactodds.shoe import Shoe
>>> from exactodds.games.dragon_tiger import dragon_tiger_odds
>>> odds = dragon_tiger_odds(Shoe.standard(decks=8), "dragon,tie")
>>> print(render_odds_csv(odds, 6).splitlines()[1])
dragon,1,-31/830,-0.037349,31/830,0.037349,799/830,0.962651,0.462651,0.074699,0.462651,0.970866,
>>> from exactodds.report.registry import render
>>> render(odds, "xml")
Traceback (most recent call last):
...
exactodds.report.registry.RenderError: A DragonTigerOdds cannot be written as xml; use table, json or csv.
"""

from __future__ import annotations

import csv
import io
from fractions import Fraction
from typing import Any

from exactodds.games.dragon_tiger import DragonTigerBet, DragonTigerOdds, DragonTigerRemoval
from exactodds.games.dragon_tiger_shoes import DragonTigerSimulation, PlayFigures, trigger_text
from exactodds.numbers import (
    decimal_string,
    fraction_string,
    percent_string,
    square_root_decimal_string,
)
from exactodds.report import research
from exactodds.report.table import TABLE_WIDTH, fitted_table, wrapped_lines
from exactodds.report.writer import json_text
from exactodds.studies.dragon_tiger_audit import DragonTigerAudit

__all__ = [
    "ODDS_CSV_COLUMNS",
    "render_audit_json",
    "render_audit_table",
    "render_odds_csv",
    "render_odds_json",
    "render_odds_table",
    "render_removal_csv",
    "render_removal_json",
    "render_removal_table",
    "render_simulation_json",
    "render_simulation_table",
]

#: How each outcome of ``outcomes`` is named in the table.
OUTCOME_LABELS = {
    "dragon": "Dragon",
    "tiger": "Tiger",
    "tie": "Tie",
    "suited_tie": "Suited tie",
    "big": "Big (Dragon 8-K)",
    "seven": "Dragon 7",
    "small": "Small (Dragon A-6)",
}

ODDS_CSV_COLUMNS = (
    "bet",
    "pay",
    "ev",
    "ev_decimal",
    "house_edge",
    "house_edge_decimal",
    "rtp",
    "rtp_decimal",
    "win",
    "half_loss",
    "loss",
    "std_dev",
    "reason",
)

GAME_LINE = "Game: Dragon Tiger (one card each, A low, K high; dragon and tiger lose half on a tie)"


def _pays_line(odds_pays: dict[str, Fraction], names: tuple[str, ...]) -> str:
    return "Pays: " + ", ".join(f"{name} {fraction_string(odds_pays[name])}:1" for name in names)


def _landing(bet: DragonTigerBet) -> tuple[Fraction, Fraction, Fraction]:
    """(win, half loss, loss) probabilities."""
    win = bet.probability(bet.pay)
    half = bet.probability(Fraction(-1, 2))
    return win, half, 1 - win - half


def _std_dev(bet: DragonTigerBet, digits: int) -> str:
    return square_root_decimal_string(bet.variance, digits)


def render_odds_table(
    odds: DragonTigerOdds, digits: int, exact: bool = False, wide: bool = False
) -> str:
    """The odds as text tables: outcomes, what each bet costs, then how it lands."""
    width = None if wide else TABLE_WIDTH
    lines = [
        GAME_LINE,
        f"Shoe: {odds.shoe.describe()}",
        _pays_line(dict(odds.pays), odds.bet_names),
        f"Rounds: {odds.rounds:,} ordered two-card sequences",
        "",
    ]
    rows = []
    for name, count in odds.outcomes.items():
        probability = odds.probability(name)
        row = [OUTCOME_LABELS[name], "-" if count is None else f"{count:,}"]
        row.append("-" if probability is None else decimal_string(probability, digits))
        if exact:
            row.append("-" if probability is None else fraction_string(probability))
        rows.append(row)
    headers = ["Outcome", "Rounds", "Probability"] + (["Exact"] if exact else [])
    lines += [fitted_table(rows, headers, ("left",) + ("right",) * (len(headers) - 1), width), ""]
    costs = ["Bet", "EV"] + (["Exact EV"] if exact else []) + ["House edge", "RTP"]
    lands = ["Win", "Half loss", "Loss", "Std dev"]
    bet_rows = []
    for name in odds.bet_names:
        bet = odds.bets.get(name)
        if bet is None:
            bet_rows.append([name, "not computable"] + ["-"] * (len(costs) + len(lands) - 2))
            continue
        row = [name, decimal_string(bet.expected_value, digits)]
        row += [fraction_string(bet.expected_value)] if exact else []
        row += [
            percent_string(bet.house_edge, digits),
            percent_string(bet.return_to_player, digits),
        ]
        row += [decimal_string(value, digits) for value in _landing(bet)]
        bet_rows.append([*row, _std_dev(bet, digits)])
    headers = costs + lands
    alignments = ("left",) + ("right",) * (len(headers) - 1)
    lines.append(fitted_table(bet_rows, headers, alignments, width, breaks=(len(costs),)))
    notes = [f"{name}: {reason}" for name, reason in odds.unavailable.items()]
    if notes:
        lines += ["", *notes]
    return "\n".join(lines if width is None else wrapped_lines(lines, width))


def render_odds_json(odds: DragonTigerOdds, digits: int) -> str:
    """The odds as JSON: :meth:`DragonTigerOdds.to_dict`, written by the one JSON writer."""
    return json_text(odds.to_dict(digits))


def render_odds_csv(odds: DragonTigerOdds, digits: int) -> str:
    """One row a bet (:data:`ODDS_CSV_COLUMNS`); a bet not computable gives its reason."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=ODDS_CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for name in odds.bet_names:
        bet = odds.bets.get(name)
        if bet is None:
            writer.writerow({"bet": name, "reason": odds.unavailable[name]})
            continue
        win, half, loss = _landing(bet)
        row: dict[str, str] = {"bet": name, "pay": fraction_string(bet.pay)}
        for key, value in (
            ("ev", bet.expected_value),
            ("house_edge", bet.house_edge),
            ("rtp", bet.return_to_player),
        ):
            row[key] = fraction_string(value)
            row[f"{key}_decimal"] = decimal_string(value, digits)
        row |= {
            "win": decimal_string(win, digits),
            "half_loss": decimal_string(half, digits),
            "loss": decimal_string(loss, digits),
            "std_dev": _std_dev(bet, digits),
        }
        writer.writerow(row)
    return buffer.getvalue().rstrip("\n")


def _odds_dict(odds: DragonTigerOdds, digits: int) -> dict[str, Any]:
    """The odds' JSON-ready data (:meth:`DragonTigerOdds.to_dict` at *digits*)."""
    return odds.to_dict(digits)


def render_removal_table(removal: DragonTigerRemoval, digits: int, exact: bool = False) -> str:
    """The effects of removal as ``eor`` prints them, with the game and its pays on top."""
    cards = (
        "1 card of a rank leaves"
        if removal.cards == 1
        else f"{removal.cards} cards of a rank leave"
    )
    lines = [
        GAME_LINE,
        f"Shoe: {removal.shoe.describe()}",
        _pays_line(dict(removal.pays), removal.bet_names),
        f"Effect of removal: the change in each bet's EV when {cards} the shoe",
    ]
    vehicle = removal.as_effect_of_removal()
    for name in removal.effects:
        lines += ["", *research.removal_bet_table(vehicle, name, digits, exact)]
    notes = [f"{name}: not computable. {reason}" for name, reason in removal.unavailable.items()]
    notes += [f"Rank {rank} skipped: {reason}" for rank, reason in removal.skipped.items()]
    if notes:
        lines += ["", *notes]
    return "\n".join(wrapped_lines(lines, TABLE_WIDTH))


def render_removal_json(removal: DragonTigerRemoval, digits: int) -> str:
    """The effects as JSON: :meth:`DragonTigerRemoval.to_dict`."""
    return json_text(removal.to_dict(digits))


def render_removal_csv(removal: DragonTigerRemoval, digits: int) -> str:
    """The effects as CSV, in ``eor``'s columns (one row a bet and rank)."""
    return research.render_removal_csv(removal.as_effect_of_removal(), digits)


def _removal_dict(removal: DragonTigerRemoval, digits: int) -> dict[str, Any]:
    """The effects' JSON-ready data (:meth:`DragonTigerRemoval.to_dict` at *digits*)."""
    return removal.to_dict(digits)


def _units(figures: PlayFigures | None, digits: int) -> str:
    """The exact-EV estimate of the win per 100 rounds, +- its standard error."""
    if figures is None:
        return "-"
    mean, error = figures.exact_ev
    return f"{mean:.{digits}f} ± {error:.{digits}f}" if error == error else f"{mean:.{digits}f}"


def _share(figures: PlayFigures | None) -> str:
    return "-" if figures is None else f"{100 * figures.frequency:.2f}%"


def render_audit_table(audit: DragonTigerAudit, digits: int) -> str:
    """The audit as text: the setting, one row a bet, the counts' tags, then each verdict."""
    threshold = audit.thresholds.deciding()[1]
    confidence = percent_string(audit.thresholds.confidence, 0)
    lines = [
        GAME_LINE,
        _pays_line(dict(audit.pays), tuple(audit.bets)),
        f"Dealt: {audit.decks} decks, cut card {audit.cut} cards from the back, no burn",
        f"Shoes: the trigger chosen on {audit.budget:,} shoes (seed {audit.seed}), the figures "
        f"on {audit.budget:,} fresh shoes (seed {audit.seed + 1}); every round priced exactly",
        f"Safe: the win's {confidence} one-sided upper bound below {threshold}",
        "Count and perfect play: the win in units per 100 rounds dealt ± its standard error (the "
        "exact-EV estimator), and the share of rounds bet",
        "",
    ]
    rows = []
    for name, bet in audit.bets.items():
        rows.append(
            [
                name,
                percent_string(bet.house_edge, digits),
                "-" if bet.trigger is None else trigger_text(bet.trigger),
                _units(bet.count, digits),
                _share(bet.count),
                _units(bet.perfect, digits),
                _share(bet.perfect),
                "safe" if bet.verdict.safe else "beatable",
            ]
        )
    headers = ["Bet", "Edge", "Trigger", "Count", "Bets", "Perfect play", "Bets", "Verdict"]
    alignments = ("left",) + ("right",) * 6 + ("left",)
    lines.append(fitted_table(rows, headers, alignments, TABLE_WIDTH))
    tags = [[name, *(f"{tag:+d}" for tag in bet.tags)] for name, bet in audit.bets.items()]
    lines += [
        "",
        f"The derived count (level {audit.max_tag}, from the exact effects of removal), its "
        "true count per deck left:",
        fitted_table(tags, ["Bet", *"A23456789TJQK"], ("left",) + ("right",) * 13, TABLE_WIDTH),
        "",
    ]
    lines += [bet.verdict.sentence(name) for name, bet in audit.bets.items()]
    lines += [f"{name}: not computable. {reason}" for name, reason in audit.unavailable.items()]
    return "\n".join(wrapped_lines(lines, TABLE_WIDTH))


def render_audit_json(audit: DragonTigerAudit, digits: int) -> str:
    """The audit as JSON: :meth:`DragonTigerAudit.to_dict`."""
    return json_text(audit.to_dict())


def _plain(values: tuple[float, float], digits: int) -> str:
    mean, error = values
    return f"{mean:.{digits}f} ± {error:.{digits}f}" if error == error else f"{mean:.{digits}f}"


def render_simulation_table(simulation: DragonTigerSimulation, digits: int) -> str:
    """The simulation as text: the setting, one row a bet, then each bet's play in words."""
    lines = [
        GAME_LINE,
        _pays_line(dict(simulation.pays), tuple(simulation.figures)),
        f"Dealt: {simulation.shoes:,} shoes (seed {simulation.seed}) of {simulation.decks} "
        f"decks, cut card {simulation.cut} cards from the back, no burn: "
        f"{simulation.rounds:,} rounds, every one priced exactly",
        "Units per 100 rounds dealt ± standard error: by the exact EV of the rounds bet, and by "
        "their results",
        "",
    ]
    rows = [
        [
            name,
            f"{figures.bets:,}",
            f"{100 * figures.frequency:.2f}%",
            _plain(figures.exact_ev, digits),
            _plain(figures.results, digits),
        ]
        for name, figures in simulation.figures.items()
    ]
    headers = ["Bet", "Bets", "Frequency", "Exact EV", "Results"]
    lines.append(fitted_table(rows, headers, ("left",) + ("right",) * 4, TABLE_WIDTH))
    lines += ["", *(f"{name}: {figures.play}" for name, figures in simulation.figures.items())]
    return "\n".join(wrapped_lines(lines, TABLE_WIDTH))


def render_simulation_json(simulation: DragonTigerSimulation, digits: int) -> str:
    """The simulation as JSON: :meth:`DragonTigerSimulation.to_dict`."""
    return json_text(simulation.to_dict())
