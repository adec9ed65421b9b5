"""Rendering of the research tools: effects of removal and break-even pays.

The same three formats as :mod:`exactodds.report.odds`: a terminal table, JSON
(exact values as ``"n/d"`` strings with ``*_decimal`` companions) and CSV, one function
each, chosen by :mod:`exactodds.report.registry`.

>>> from exactodds import Rules, Shoe
>>> from exactodds.bets.catalogue import select_bets
>>> from exactodds.analysis.removal import effect_of_removal
>>> shoe = Shoe.parse("A=2,2=2,3=2,4=2,5=2,6=2,7=2,8=2,9=2,T=8")
>>> result = effect_of_removal(shoe, Rules(), select_bets("tie"))
>>> _removal_dict(result, digits=6)["eor"]["tie"]["7"]
'-501169/23023000'
"""

from __future__ import annotations

import csv
import io
from fractions import Fraction
from typing import Any

from exactodds.analysis.removal import EffectOfRemoval, LinearCount
from exactodds.analysis.symbolic import Breakeven
from exactodds.numbers import decimal_string, fraction_string, percent_string
from exactodds.report.multipliers import overlay_lines
from exactodds.report.table import TABLE_WIDTH, fitted_table, wrapped_lines
from exactodds.report.writer import json_text, shoe_block
from exactodds.rules import Rules
from exactodds.shoe import Shoe

__all__ = [
    "removal_bet_table",
    "render_breakeven_csv",
    "render_breakeven_json",
    "render_breakeven_table",
    "render_removal_csv",
    "render_removal_json",
    "render_removal_table",
]

#: Characters on each side of the axis of a bar in the effect-of-removal table.
BAR_WIDTH = 12


def _exact(value: Fraction | None) -> str | None:
    return None if value is None else fraction_string(value)


def _decimal(value: Fraction | None, digits: int) -> str | None:
    return None if value is None else decimal_string(value, digits)


def _correlation(count: LinearCount, digits: int) -> tuple[str | None, str | None]:
    """The betting correlation as (decimal, exact square), or ``None``s when undefined."""
    if count.correlation is None or not count.correlation.defined:
        return None, None
    return count.correlation.decimal(digits), fraction_string(count.correlation.squared)


def _undefined(count: LinearCount) -> str:
    if count.correlation is None:
        return "undefined (every effect is zero)"
    return "undefined (every tag is the same)"


def _count_dict(count: LinearCount, digits: int) -> dict[str, Any]:
    correlation, squared = _correlation(count, digits)
    return {
        "max_tag": count.max_tag,
        "scale": _exact(count.scale),
        "tags": dict(count.tags),
        "balanced": count.balanced,
        "imbalance": count.imbalance,
        "betting_correlation_decimal": correlation,
        "betting_correlation_squared": squared,
    }


#: What an EV under an overlay is per.
_PER_UNIT_PAID = (
    "Under the overlay, every EV is per unit paid (the stake plus the fee), the RTP less 1."
)


def _removal_dict(result: EffectOfRemoval, digits: int) -> dict[str, Any]:
    """The effects of removal as JSON-ready data (the ``exactodds eor --format json`` contract).

    ``eor`` maps each bet to each rank's exact effect (``null`` for a
    skipped rank); ``bets`` adds the decimals, the EVs before and after, the
    weighted sum and the derived linear count (``result.counts``, derived
    when the effects were).
    """
    bets: dict[str, Any] = {}
    for name, effects in result.effects.items():
        before = result.expected_values[name]
        count = result.counts[name]
        bets[name] = {
            "ev": fraction_string(before),
            "ev_decimal": decimal_string(before, digits),
            "rtp": fraction_string(result.return_to_player(name)),
            "rtp_decimal": decimal_string(result.return_to_player(name), digits),
            "eor_decimal": {rank: _decimal(effect, digits) for rank, effect in effects.items()},
            "ev_after": {
                rank: _exact(None if effect is None else before + effect)
                for rank, effect in effects.items()
            },
            "weighted_sum": fraction_string(result.weighted_sum(name)),
            "count": _count_dict(count, digits),
        }
    return {
        "shoe": shoe_block(result.shoe),
        "rules": result.rules.to_dict(),
        "cards_removed": result.cards,
        "eor": {
            name: {rank: _exact(effect) for rank, effect in effects.items()}
            for name, effects in result.effects.items()
        },
        "bets": bets,
        "skipped": dict(result.skipped),
        "unavailable": dict(result.unavailable),
    } | ({} if result.overlay is None else {"overlay": result.overlay.to_dict()})


def _bar(effect: Fraction, largest: Fraction) -> str:
    """A bar from a central axis: left for a negative effect, right for a positive one."""
    length = 0 if largest == 0 else round(abs(effect) / largest * BAR_WIDTH)
    length = max(length, 1) if effect else 0
    left = "#" * length if effect < 0 else ""
    right = "#" * length if effect > 0 else ""
    return f"{left:>{BAR_WIDTH}}|{right:<{BAR_WIDTH}}".rstrip()


def _removal_table(
    result: EffectOfRemoval, name: str, digits: int, exact: bool, width: int | None = None
) -> list[str]:
    effects = result.effects[name]
    count = result.counts[name]
    correlation, _ = _correlation(count, 4)
    balance = "balanced" if count.balanced else f"imbalance {count.imbalance:+d}"
    heading = (
        f"{name}: EV {decimal_string(result.expected_values[name], digits)}, RTP "
        f"{percent_string(result.return_to_player(name), max(digits - 2, 0))}; "
        f"level-{count.max_tag} count ({balance}), betting correlation "
        + (correlation if correlation is not None else _undefined(count))
    )
    largest = max((abs(effect) for effect in effects.values() if effect is not None), default=0)
    headers = ["Rank", "Cards", "Effect", "Tag", "Change in EV"] + (["Exact"] if exact else [])
    rows = []
    for rank, effect in effects.items():
        cards = str(result.shoe.rank_count(rank))
        if effect is None:
            rows.append([rank, cards, "-", "-", ""] + (["-"] if exact else []))
            continue
        tag = count.tags.get(rank)
        row = [
            rank,
            cards,
            decimal_string(effect, digits),
            "-" if tag is None else f"{tag:+d}" if tag else "0",
            _bar(effect, Fraction(largest)),
        ]
        rows.append(row + ([fraction_string(effect)] if exact else []))
    aligns = ("left", "right", "right", "right", "left") + (("right",) if exact else ())
    table = fitted_table(rows, headers, aligns, width)
    return [heading, "", table]


def removal_bet_table(
    result: EffectOfRemoval, name: str, digits: int, exact: bool = False
) -> list[str]:
    """One bet's effects of removal as table lines: its heading, a blank line, the table.

    The block ``eor`` prints a bet; other games' effects (Dragon Tiger's) print through it too.
    """
    return _removal_table(result, name, digits, exact)


def render_removal_json(result: EffectOfRemoval, digits: int) -> str:
    """The effects of removal as indented JSON (the ``exactodds eor --format json`` contract)."""
    return json_text(_removal_dict(result, digits))


def render_removal_table(
    result: EffectOfRemoval, digits: int, exact: bool = False, wide: bool = False
) -> str:
    """The effects of removal as text tables, a bar chart beside each rank's effect.

    Every line fits :data:`~exactodds.report.table.TABLE_WIDTH` columns unless *wide*:
    prose is wrapped, a table too wide split by columns, each part led by the rank.

    >>> from exactodds import Rules, Shoe
    >>> from exactodds.bets.catalogue import select_bets
    >>> from exactodds.analysis.removal import effect_of_removal
    >>> shoe = Shoe.parse("A=2,2=2,3=2,4=2,5=2,6=2,7=2,8=2,9=2,T=8")
    >>> result = effect_of_removal(shoe, Rules(), select_bets("tie"))
    >>> print(render_removal_table(result, 4).splitlines()[5])
    tie: EV -0.1657, RTP 83.43%; level-2 count (balanced), betting correlation 0.9762
    """
    cards = (
        "1 card of a rank leaves" if result.cards == 1 else f"{result.cards} cards of a rank leave"
    )
    lines = [
        f"Shoe: {result.shoe.describe()}",
        f"Rules: {result.rules.describe()}",
        *(overlay_lines(result.overlay) if result.overlay is not None else []),
        f"Effect of removal: the change in each bet's EV when {cards} the shoe",
        *([_PER_UNIT_PAID] if result.overlay is not None else []),
    ]
    width = None if wide else TABLE_WIDTH
    for name in result.effects:
        lines += ["", *_removal_table(result, name, digits, exact, width)]
    notes = [f"{name}: not computable. {reason}" for name, reason in result.unavailable.items()]
    notes += [f"Rank {rank} skipped: {reason}" for rank, reason in result.skipped.items()]
    if notes:
        lines += ["", *notes]
    return "\n".join(lines if width is None else wrapped_lines(lines, width))


REMOVAL_CSV_COLUMNS = (
    "bet",
    "rank",
    "cards",
    "effect",
    "effect_decimal",
    "ev_after",
    "ev_after_decimal",
    "tag",
    "betting_correlation_decimal",
    "reason",
)


def render_removal_csv(result: EffectOfRemoval, digits: int) -> str:
    """The effects of removal as CSV: one row per bet and rank, then the bets not computable.

    >>> from exactodds import Rules, Shoe
    >>> from exactodds.bets.catalogue import select_bets
    >>> from exactodds.analysis.removal import effect_of_removal
    >>> shoe = Shoe.parse("A=2,2=2,3=2,4=2,5=2,6=2,7=2,8=2,9=2,T=8")
    >>> result = effect_of_removal(shoe, Rules(), select_bets("tie"))
    >>> print(render_removal_csv(result, 4).splitlines()[7])
    tie,7,2,-501169/23023000,-0.0218,-331973/1771000,-0.1874,-2,0.9762,
    """
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=REMOVAL_CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for name, effects in result.effects.items():
        before = result.expected_values[name]
        count = result.counts[name]
        correlation, _ = _correlation(count, digits)
        for rank, effect in effects.items():
            row: dict[str, Any] = {
                "bet": name,
                "rank": rank,
                "cards": result.shoe.rank_count(rank),
                "betting_correlation_decimal": correlation,
            }
            if effect is None:
                row["reason"] = result.skipped[rank]
            else:
                row |= {
                    "effect": fraction_string(effect),
                    "effect_decimal": decimal_string(effect, digits),
                    "ev_after": fraction_string(before + effect),
                    "ev_after_decimal": decimal_string(before + effect, digits),
                    "tag": count.tags.get(rank),
                }
            writer.writerow(row)
    for name, reason in result.unavailable.items():
        writer.writerow({"bet": name, "reason": reason})
    return buffer.getvalue().rstrip("\n")


def _breakeven_dict(
    solved: Breakeven, digits: int, shoe: Shoe | None = None, rules: Rules | None = None
) -> dict[str, Any]:
    """A solved break-even question as JSON-ready data (the ``breakeven`` JSON contract).

    The *shoe* and *rules* it was solved on lead the data when given.

    >>> from exactodds.analysis.symbolic import find_breakeven
    >>> data = _breakeven_dict(find_breakeven("tie", "tie"), 6)
    >>> data["breakeven"], data["breakeven_decimal"], data["expression"]
    ('5889024543008/619306544887', '9.509062', '619306544887*x/6508331087895 - 5889024543008/6508331087895')
    """
    data: dict[str, Any] = {}
    if shoe is not None:
        data["shoe"] = shoe_block(shoe)
    if rules is not None:
        data["rules"] = rules.to_dict()
    data |= {
        "bet": solved.bet,
        "pay": solved.pay.name,
        "outcome": solved.pay.outcome,
        "symbol": solved.symbol,
        "breakeven": fraction_string(solved.value),
        "breakeven_decimal": decimal_string(solved.value, digits),
    }
    if solved.pay.commission:
        data["breakeven_percent"] = percent_string(solved.value, max(digits - 2, 0))
    data |= {
        "in_range": solved.in_range,
        "note": solved.note,
        "expression": solved.expression,
        "latex": solved.latex,
        "current": fraction_string(solved.current),
        "current_decimal": decimal_string(solved.current, digits),
        "ev": fraction_string(solved.expected_value),
        "ev_decimal": decimal_string(solved.expected_value, digits),
    }
    return data


BREAKEVEN_CSV_COLUMNS = (
    "bet",
    "pay",
    "outcome",
    "symbol",
    "breakeven",
    "breakeven_decimal",
    "in_range",
    "expression",
    "latex",
    "current",
    "current_decimal",
    "ev",
    "ev_decimal",
)


def render_breakeven_json(solved: Breakeven, digits: int, shoe: Shoe, rules: Rules) -> str:
    """A solved break-even question as indented JSON, led by the *shoe* and *rules*."""
    return json_text(_breakeven_dict(solved, digits, shoe, rules))


def render_breakeven_csv(solved: Breakeven, digits: int) -> str:
    """A solved break-even question as one CSV row under its header."""
    buffer = io.StringIO()
    writer = csv.DictWriter(
        buffer, fieldnames=BREAKEVEN_CSV_COLUMNS, lineterminator="\n", extrasaction="ignore"
    )
    writer.writeheader()
    row = _breakeven_dict(solved, digits)
    row["in_range"] = "true" if solved.in_range else "false"
    writer.writerow(row)
    return buffer.getvalue().rstrip("\n")


def render_breakeven_table(
    solved: Breakeven,
    digits: int,
    shoe: Shoe,
    rules: Rules,
    latex: bool = False,
    wide: bool = False,
) -> str:
    """A solved break-even question as text; the EV is shown as LaTeX with *latex*.

    Lines longer than :data:`~exactodds.report.table.TABLE_WIDTH` columns are wrapped
    between words, unless *wide* (which keeps the EV expression on one line to copy).

    >>> from exactodds.analysis.symbolic import find_breakeven
    >>> table = render_breakeven_table(find_breakeven("tie"), 6, Shoe.standard(8), Rules())
    >>> print(table.splitlines()[-1])
    Break-even: x = 5889024543008/619306544887 = 9.509062 to 1
    """
    symbol = solved.symbol
    if solved.pay.commission:
        what = (
            f"the commission {symbol} (a win pays 1 - {symbol}); "
            f"now {percent_string(solved.current, 2).replace('.00%', '%')}"
        )
        value = (
            f"{fraction_string(solved.value)} = {decimal_string(solved.value, digits)} "
            f"({percent_string(solved.value, max(digits - 2, 0))})"
        )
    else:
        what = f"the pay {solved.pay.name} ({symbol} to 1); now {fraction_string(solved.current)}"
        value = f"{fraction_string(solved.value)} = {decimal_string(solved.value, digits)} to 1"
    lines = [
        f"Shoe: {shoe.describe()}",
        f"Rules: {rules.describe()}",
        f"Bet: {solved.bet}, solving for {what}; "
        f"EV now {decimal_string(solved.expected_value, digits)}",
        "",
        f"EV = {solved.latex if latex else solved.expression}",
        "",
        f"Break-even: {symbol} = {value}",
    ]
    if solved.note:
        lines.append(solved.note)
    return "\n".join(lines if wide else wrapped_lines(lines, TABLE_WIDTH))
