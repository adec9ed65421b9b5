"""Rendering a solved Peek Baccarat game: the decision table as text, the whole strategy as JSON.

The text report opens with each side's figures under three policies (never raise, the EV-best
raise, the RTP-best raise), then one line per seen pattern, grouped by the first card shown:
the pattern's chance, each side's EV of 1x, 2x and 3x per unit of the original stake (the fee
left out; 4 decimals, exact in JSON) and the best raise under each objective (``3x/1x``: 3x for
the most money, 1x for the highest RTP).  JSON carries every figure as an exact ``"n/d"``.

>>> from exactodds import Shoe
>>> from exactodds.games.peek import solve_peek
>>> text = render_peek_table(solve_peek(Shoe.standard(decks=8), "P1"), 6)
>>> print(text.splitlines()[0])
Shoe: 416 cards (8 decks), suits known
>>> max(len(line) for line in text.splitlines()) <= 100
True
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from exactodds.games.peek import (
    POSITION_NAMES,
    RAISES,
    SIDES,
    Pattern,
    PeekSolution,
    PeekSurvey,
)
from exactodds.numbers import (
    decimal_string,
    exact_percent_string,
    fraction_string,
    percent_string,
)
from exactodds.report.table import simple_table
from exactodds.report.writer import json_text, shoe_block

__all__ = [
    "PEEK_FORMATS",
    "render_peek_json",
    "render_peek_table",
    "render_survey_json",
    "render_survey_table",
]

#: The formats ``exactodds solve --game peek`` writes.
PEEK_FORMATS = ("table", "json")
#: Decimals of the EVs in the decision table (JSON is exact).
TABLE_DIGITS = 4

_RTP_DEFINITION = (
    "RTP = E[k (1 + X)] / E[fee + k], money back (stake and winnings) over money paid (fee and "
    "stake);",
    "k the stake after the peek (1, 2 or 3 original stakes), X the bet's result per unit "
    "staked; the fee",
    "is paid on the original stake only, win or lose. EV per round = E[k X] - fee, per original "
    "stake.",
)


def _figure(value: Fraction, digits: int, percent: bool = False) -> str:
    if percent:
        return percent_string(value, max(digits - 2, 0))
    return decimal_string(value, digits)


def _summary(solution: PeekSolution, digits: int) -> list[str]:
    rows = []
    for side in SIDES:
        figures = solution.sides[side]
        for label, ev, rtp, chance in (
            ("never raise", figures.never_raise_ev, figures.never_raise_rtp, Fraction(0)),
            ("EV-best", figures.ev_best_ev, figures.ev_best_rtp, figures.ev_best_raise_chance),
            ("RTP-best", figures.rtp_best_ev, figures.rtp_best_rtp, figures.rtp_best_raise_chance),
        ):
            rows.append(
                [
                    side.capitalize(),
                    label,
                    percent_string(rtp, max(digits - 2, 0)),
                    decimal_string(ev, digits),
                    percent_string(chance, max(digits - 2, 0)),
                ]
            )
    headers = ["Bet", "Raising", "RTP", "EV per round", "Raises in"]
    alignments = ("left", "left", "right", "right", "right")
    return simple_table(rows, headers, alignments).splitlines()


def _group(pattern: Pattern) -> int:
    return pattern.seen[min(pattern.seen)]


def _row(solution: PeekSolution, pattern: Pattern) -> list[str]:
    row = [pattern.label, percent_string(solution.chance(pattern), 3)]
    for side in SIDES:
        row.extend(decimal_string(pattern.ev(side, stake), TABLE_DIGITS) for stake in RAISES)
        rtp_best = solution.sides[side].rtp_raises[pattern.label]
        row.append(f"{pattern.best_raise(side)}x/{rtp_best}x")
    return row


def render_peek_table(solution: PeekSolution, digits: int = 6) -> str:
    """The solution as a text report: the figures of each policy, then the decision table.

    >>> from exactodds import Shoe
    >>> from exactodds.games.peek import solve_peek
    >>> lines = render_peek_table(solve_peek(Shoe.standard(decks=8), "B1"), 6).splitlines()
    >>> lines[-1].split()[0], lines[-1].split()[-1]
    ('B1=9', '3x/3x')
    """
    first = POSITION_NAMES[solution.reveal.positions[0]]
    lines = [
        f"Shoe: {solution.shoe.describe()}",
        f"Game: Peek Baccarat; cards shown before the raise: {solution.reveal.name}; "
        f"fee {exact_percent_string(solution.fee)}",
        "Player pays 1:1, Banker 0.95:1, a tie returns the stake; raise to 2x or 3x with no fee.",
        *_RTP_DEFINITION,
        "",
        *_summary(solution, digits),
        "",
        f"Seen patterns: {len(solution.patterns)}, grouped by {first}. EV of each stake per unit "
        "of the original stake, fee left out;",
        "best raise as EV-best/RTP-best (2x is never strictly best: the EV is linear in the "
        "stake).",
    ]
    headers = ["Seen", "Chance"]
    for side in SIDES:
        letter = side[0].upper()
        headers.extend([f"{letter} 1x", f"{letter} 2x", f"{letter} 3x", "Raise"])
    rows = [_row(solution, pattern) for pattern in solution.patterns]
    table = simple_table(rows, headers, ("left",) + ("right",) * (len(headers) - 1)).splitlines()
    lines.extend(table[:2])
    previous = None
    for pattern, text in zip(solution.patterns, table[2:], strict=True):
        group = _group(pattern)
        if previous is not None and group != previous and len(solution.reveal.positions) > 1:
            lines.append("")
        previous = group
        lines.append(text)
    return "\n".join(lines)


def _pattern_data(solution: PeekSolution, pattern: Pattern) -> dict[str, Any]:
    data: dict[str, Any] = {
        "seen": {POSITION_NAMES[position]: value for position, value in pattern.seen.items()},
        "ways": pattern.ways,
        "rounds": pattern.rounds,
        "chance": fraction_string(solution.chance(pattern)),
        "wins": {"player": pattern.player_wins, "banker": pattern.banker_wins, "tie": pattern.ties},
    }
    for side in SIDES:
        data[side] = {
            "ev": {f"{stake}x": fraction_string(pattern.ev(side, stake)) for stake in RAISES},
            "ev_best_raise": pattern.best_raise(side),
            "rtp_best_raise": solution.sides[side].rtp_raises[pattern.label],
        }
    return data


def _sides_data(solution: PeekSolution) -> dict[str, Any]:
    sides = {}
    for side in SIDES:
        figures = solution.sides[side]
        sides[side] = {
            "win_pays": fraction_string(SIDES[side]),
            "never_raise": {
                "ev": fraction_string(figures.never_raise_ev),
                "rtp": fraction_string(figures.never_raise_rtp),
            },
            "ev_best": {
                "ev": fraction_string(figures.ev_best_ev),
                "rtp": fraction_string(figures.ev_best_rtp),
                "raise_chance": fraction_string(figures.ev_best_raise_chance),
            },
            "rtp_best": {
                "ev": fraction_string(figures.rtp_best_ev),
                "rtp": fraction_string(figures.rtp_best_rtp),
                "raise_chance": fraction_string(figures.rtp_best_raise_chance),
            },
        }
    return sides


def _peek_dict(solution: PeekSolution) -> dict[str, Any]:
    """The solution as JSON-ready data: every figure an exact ``"n/d"``, every pattern listed.

    >>> from exactodds import Shoe
    >>> from exactodds.games.peek import solve_peek
    >>> data = _peek_dict(solve_peek(Shoe.standard(decks=8), "P1"))
    >>> data["reveal"], data["patterns"][9]["seen"], data["patterns"][9]["player"]["ev_best_raise"]
    ('P1', {'P1': 9}, 3)
    """
    sides = _sides_data(solution)
    return {
        "game": "peek",
        "shoe": shoe_block(solution.shoe),
        "reveal": solution.reveal.name,
        "fee": fraction_string(solution.fee),
        "raises": list(RAISES),
        "rtp_definition": " ".join(_RTP_DEFINITION),
        "ev_definition": "per round and unit of original stake: E[k X] - fee",
        "sides": sides,
        "patterns": [_pattern_data(solution, pattern) for pattern in solution.patterns],
    }


def render_peek_json(solution: PeekSolution) -> str:
    """:func:`_peek_dict` as indented JSON text."""
    return json_text(_peek_dict(solution))


def render_survey_table(survey: PeekSurvey, digits: int = 6) -> str:
    """Every reveal's RTPs, one line per class of reveals that share them (``--reveal each``).

    >>> from exactodds import Shoe
    >>> from exactodds.games.peek import survey_peek
    >>> print(render_survey_table(survey_peek(Shoe.standard(decks=1)), 6).splitlines()[-1][:32])
    P1,B1,P2,B2                 3025
    """
    first = survey[0][1]
    places = max(digits - 2, 0)
    lines = [
        f"Shoe: {first.shoe.describe()}",
        f"Game: Peek Baccarat, every reveal; fee {exact_percent_string(first.fee)}",
        *_RTP_DEFINITION,
        "",
        "Never raising: Player RTP "
        f"{percent_string(first.sides['player'].never_raise_rtp, places)}, Banker RTP "
        f"{percent_string(first.sides['banker'].never_raise_rtp, places)}, whatever is shown.",
        "RTP under each side's EV-best and RTP-best raising; reveals on one line share every "
        "figure.",
    ]
    rows = []
    for members, solution in survey:
        player, banker = solution.sides["player"], solution.sides["banker"]
        rows.append(
            [
                " or ".join(reveal.name for reveal in members[:2])
                + (f" (+{len(members) - 2})" if len(members) > 2 else ""),
                str(len(solution.patterns)),
                percent_string(player.ev_best_rtp, places),
                percent_string(player.rtp_best_rtp, places),
                percent_string(banker.ev_best_rtp, places),
                percent_string(banker.rtp_best_rtp, places),
            ]
        )
    headers = ["Shown", "Patterns", "P EV-best", "P RTP-best", "B EV-best", "B RTP-best"]
    lines.extend(simple_table(rows, headers, ("left",) + ("right",) * 5).splitlines())
    return "\n".join(lines)


def _survey_dict(survey: PeekSurvey) -> dict[str, Any]:
    """Every reveal's figures as JSON-ready data: a list of classes, each with its reveals."""
    first = survey[0][1]
    return {
        "game": "peek",
        "shoe": shoe_block(first.shoe),
        "fee": fraction_string(first.fee),
        "rtp_definition": " ".join(_RTP_DEFINITION),
        "reveals": [
            {
                "reveals": [reveal.name for reveal in members],
                "patterns": len(solution.patterns),
                "sides": _sides_data(solution),
            }
            for members, solution in survey
        ],
    }


def render_survey_json(survey: PeekSurvey) -> str:
    """:func:`_survey_dict` as indented JSON text."""
    return json_text(_survey_dict(survey))
