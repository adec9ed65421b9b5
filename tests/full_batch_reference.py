"""The former ``batch --full`` writer, kept as the reference its integer writer is held to.

Every field is computed the obvious way, from the outcome counts and each outcome's
``Fraction`` pay (moments as sums of Fractions, probabilities by the pay's sign), and
written by Fraction formatting kept here (rounding by Python's own ``round`` of a
Fraction, half to even, and the former square-root algorithm), so that nothing in it
shares code with the integer writer of ``exactodds.report.odds._bet_dict``.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from fractions import Fraction
from typing import Any

from exactodds.analysis.single import Analysis, BetAnalysis


def fraction_string(value: Fraction | int) -> str:
    value = Fraction(value)
    return (
        str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    )


def _digits(scaled: int, digits: int) -> str:
    sign = "-" if scaled < 0 else ""
    magnitude = str(abs(scaled)).rjust(digits + 1, "0")
    return sign + (magnitude if digits == 0 else f"{magnitude[:-digits]}.{magnitude[-digits:]}")


def decimal_string(value: Fraction | int, digits: int) -> str:
    """Rounded half to even by Python's own ``round`` of a Fraction (exact, banker's)."""
    value = Fraction(value)
    quotient = round(abs(value) * 10**digits)
    return ("-" if value < 0 and quotient else "") + _digits(quotient, digits)


def percent_string(value: Fraction, digits: int) -> str:
    return decimal_string(value * 100, digits) + "%"


def square_root_string(value: Fraction, digits: int) -> str:
    """The former Fraction algorithm: floor root, then round half to even by squares."""
    scaled = value * 10 ** (2 * digits)
    floor_root = math.isqrt(scaled.numerator // scaled.denominator)
    doubled = 2 * floor_root + 1
    if 4 * scaled > doubled * doubled or (4 * scaled == doubled * doubled and floor_root % 2):
        floor_root += 1
    return _digits(floor_root, digits)


def _probabilities(result: BetAnalysis) -> tuple[Fraction, Fraction, Fraction]:
    """Win, push and loss probabilities from each outcome's Fraction pay."""
    by_sign: dict[int, int] = defaultdict(int)
    for outcome, count in result.outcome_counts.items():
        pay = result.bet.pay(outcome)
        by_sign[(pay > 0) - (pay < 0)] += count
    return tuple(Fraction(by_sign[sign], result.total) for sign in (1, 0, -1))  # type: ignore[return-value]


def _moment(result: BetAnalysis, power: int) -> Fraction:
    return sum(
        (
            Fraction(count, result.total) * result.bet.pay(outcome) ** power
            for outcome, count in result.outcome_counts.items()
        ),
        Fraction(0),
    )


def _exact(value: Any, digits: int) -> tuple[str | None, str | None]:
    if value is None:
        return None, None
    return fraction_string(value), decimal_string(value, digits)


def reference_bet_data(
    result: BetAnalysis, digits: int, fee: Fraction = Fraction(0)
) -> dict[str, Any]:
    """One bet's figures as JSON-ready data, by Fraction arithmetic (RTP with *fee*)."""
    data: dict[str, Any] = {"computable": True, "description": result.bet.description}
    expected_value = _moment(result, 1)
    variance = _moment(result, 2) - expected_value**2
    win, push, loss = _probabilities(result)
    per_resolved = None if push == 1 else -expected_value / (1 - push)
    figures = {
        "ev": expected_value,
        "house_edge": -expected_value,
        "rtp": (1 + expected_value) / (1 + fee),
        "house_edge_per_resolved_bet": per_resolved,
        "win_probability": win,
        "push_probability": push,
        "loss_probability": loss,
        "variance": variance,
    }
    for key, value in figures.items():
        data[key], data[f"{key}_decimal"] = _exact(value, digits)
    data["hit_frequency"], data["hit_frequency_decimal"] = _exact(win, digits)
    data["house_edge_percent"] = percent_string(-expected_value, max(digits - 2, 0))
    data["standard_deviation_decimal"] = square_root_string(variance, digits)
    data["pays"] = {outcome: fraction_string(pay) for outcome, pay in result.bet.pay_table.items()}
    data["outcome_counts"] = dict(result.outcome_counts)
    by_result: dict[Fraction, int] = defaultdict(int)
    for outcome, count in result.outcome_counts.items():
        by_result[result.bet.pay(outcome)] += count
    data["distribution"] = [
        {
            "result": fraction_string(net),
            "probability": fraction_string(Fraction(count, result.total)),
            "decimal": decimal_string(Fraction(count, result.total), digits),
        }
        for net, count in sorted(by_result.items())
        if count
    ]
    return data


def reference_full_line(analysis: Analysis, digits: int) -> str:
    """A ``batch --full`` line, as ``json.dumps`` of the Fraction-built record."""
    bets: dict[str, Any] = {}
    for name in analysis.bet_names or tuple(analysis.bets):
        if name in analysis.bets:
            bets[name] = reference_bet_data(analysis.bets[name], digits, analysis.rules.fee)
        else:
            bets[name] = {"computable": False, "reason": analysis.unavailable[name]}
    record = {
        "shoe": {"cards": analysis.shoe.cards, "ranks": analysis.shoe.to_dict()},
        "total": analysis.total,
        "outcomes": {name: outcome.count for name, outcome in analysis.outcomes.items()},
        "bets": bets,
    }
    return json.dumps(record)
