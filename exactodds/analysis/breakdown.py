"""Breakdown tables: how rounds end, counted exactly.

:func:`breakdown` reads an :class:`~exactodds.engine.walk.OutcomeTable` once
and counts, out of the same ``n(n-1)...(n-5)`` six-card sequences:

* every (Player final total, Banker final total) pair, and each side's total;
* each (winner, winning total), ties by their total (the Wizard of Odds
  "Exact Winning Side and Total" table);
* rounds of 4, 5 and 6 cards (the 4-5-6 side bet, Big and Small);
* the Player drawing and the Banker drawing, alone and together;
* naturals, by side and total.

Each figure is a :class:`Frequency`: an integer count, the total, and the exact
probability.  :func:`breakdown_data`, :func:`render_breakdown_table`,
:func:`render_breakdown_json` and :func:`render_breakdown_csv` render them.

>>> from exactodds import Shoe, enumerate_rounds
>>> result = breakdown(enumerate_rounds(Shoe.standard(decks=8)))
>>> result.winning_totals[Winner.BANKER, 6].count
269232304455680
>>> result.cards_dealt[4].probability
Fraction(140356, 370461)
>>> result.final_totals[10, 0]
Traceback (most recent call last):
...
KeyError: (10, 0)
"""

from __future__ import annotations

import csv
import io
import json
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from tabulate import tabulate

from exactodds.cards import Card
from exactodds.engine.known import describe_known
from exactodds.engine.walk import OutcomeTable, Winner
from exactodds.numbers import decimal_string, fraction_string
from exactodds.report.odds import shoe_data
from exactodds.rules import Tableau
from exactodds.shoe import Shoe

__all__ = [
    "Breakdown",
    "Frequency",
    "breakdown",
    "breakdown_data",
    "render_breakdown_csv",
    "render_breakdown_json",
    "render_breakdown_table",
]

_TOTALS = range(10)
_WINNERS = (Winner.PLAYER, Winner.BANKER, Winner.TIE)
#: A side's natural total, or ``None`` when that side has no natural.
NaturalKey = tuple[int | None, int | None]


@dataclass(frozen=True)
class Frequency:
    """How often something happens: *count* sequences out of *total*.

    >>> Frequency(3, 12).probability
    Fraction(1, 4)
    >>> Frequency(3, 0).probability
    Traceback (most recent call last):
    ...
    ZeroDivisionError: Fraction(3, 0)
    """

    count: int
    total: int

    @property
    def probability(self) -> Fraction:
        """The exact probability, ``count / total``."""
        return Fraction(self.count, self.total)


@dataclass(frozen=True)
class Breakdown:
    """Exact counts of how the rounds of one table end.

    * ``final_totals[(p, b)]``: the Player ends on ``p`` and the Banker on ``b``
      (all 100 pairs, zeros included).
    * ``winning_totals[(winner, t)]``: ``winner`` wins with ``t``, or the hands
      tie on ``t`` (all 30 keys; a side never wins with 0, so those are 0).
    * ``cards_dealt[k]``: the round uses ``k`` = 4, 5 or 6 cards.
    * ``draws[(player_draws, banker_draws)]``: who took a third card.
    * ``naturals[(p, b)]``: the Player's natural total (or ``None`` for no
      natural) and the Banker's, over every natural total that occurs;
      ``(None, None)`` counts the rounds without a natural.

    >>> from exactodds import Shoe, enumerate_rounds
    >>> result = breakdown(enumerate_rounds(Shoe.standard(decks=1)))
    >>> result.player_draws.count + result.draws[False, False].count > 0
    True
    >>> result.naturals[8, 9].count == result.naturals[9, 8].count
    True
    """

    total: int
    final_totals: Mapping[tuple[int, int], Frequency]
    winning_totals: Mapping[tuple[Winner, int], Frequency]
    cards_dealt: Mapping[int, Frequency]
    draws: Mapping[tuple[bool, bool], Frequency]
    naturals: Mapping[NaturalKey, Frequency]

    def _sum(self, counts: Iterator[int]) -> Frequency:
        return Frequency(sum(counts), self.total)

    @property
    def player_totals(self) -> dict[int, Frequency]:
        """The Player's final total, whoever wins (the Side Total bets)."""
        return {
            total: self._sum(self.final_totals[total, banker].count for banker in _TOTALS)
            for total in _TOTALS
        }

    @property
    def banker_totals(self) -> dict[int, Frequency]:
        """The Banker's final total, whoever wins."""
        return {
            total: self._sum(self.final_totals[player, total].count for player in _TOTALS)
            for total in _TOTALS
        }

    @property
    def winners(self) -> dict[Winner, Frequency]:
        """Who wins the round, summed over the totals."""
        return {
            winner: self._sum(self.winning_totals[winner, total].count for total in _TOTALS)
            for winner in _WINNERS
        }

    @property
    def player_draws(self) -> Frequency:
        """The Player takes a third card."""
        return self._sum(self.draws[True, banker].count for banker in (False, True))

    @property
    def banker_draws(self) -> Frequency:
        """The Banker takes a third card."""
        return self._sum(self.draws[player, True].count for player in (False, True))

    @property
    def natural_totals(self) -> tuple[int, ...]:
        """The natural totals that occur, ascending (8 and 9 in the standard game)."""
        totals = {total for key in self.naturals for total in key if total is not None}
        return tuple(sorted(totals))

    def player_natural(self, total: int) -> Frequency:
        """The Player has a natural *total* (whatever the Banker has)."""
        return self._sum(
            frequency.count for (player, _), frequency in self.naturals.items() if player == total
        )

    def banker_natural(self, total: int) -> Frequency:
        """The Banker has a natural *total* (whatever the Player has)."""
        return self._sum(
            frequency.count for (_, banker), frequency in self.naturals.items() if banker == total
        )

    @property
    def both_natural(self) -> Frequency:
        """Both hands are naturals."""
        return self._sum(
            frequency.count
            for (player, banker), frequency in self.naturals.items()
            if player is not None and banker is not None
        )

    @property
    def any_natural(self) -> Frequency:
        """At least one hand is a natural."""
        return Frequency(self.total - self.naturals[None, None].count, self.total)


def breakdown(table: OutcomeTable) -> Breakdown:
    """Count how the rounds of *table* end, by totals, cards, draws and naturals.

    >>> from exactodds import Shoe, enumerate_rounds
    >>> result = breakdown(enumerate_rounds(Shoe.standard(decks=8)))
    >>> result.player_totals[0].count, result.winners[Winner.TIE].count
    (469796508410880, 475627426473216)
    >>> breakdown(None)  # type: ignore[arg-type]
    Traceback (most recent call last):
    ...
    AttributeError: 'NoneType' object has no attribute 'counts'
    """
    finals: dict[tuple[int, int], int] = defaultdict(int)
    winning: dict[tuple[Winner, int], int] = defaultdict(int)
    cards: dict[int, int] = defaultdict(int)
    draws: dict[tuple[bool, bool], int] = defaultdict(int)
    naturals: dict[NaturalKey, int] = defaultdict(int)
    for summary, count in table.counts.items():
        finals[summary.player_total, summary.banker_total] += count
        winner = summary.winner
        winning_total = summary.player_total if winner is Winner.PLAYER else summary.banker_total
        winning[winner, winning_total] += count
        cards[summary.cards_dealt] += count
        draws[summary.player_cards == 3, summary.banker_cards == 3] += count
        naturals[
            summary.player_total if summary.player_natural else None,
            summary.banker_total if summary.banker_natural else None,
        ] += count
    total = table.total
    natural_totals = sorted({value for key in naturals for value in key if value is not None})
    natural_options: list[int | None] = [None, *natural_totals]
    return Breakdown(
        total=total,
        final_totals={
            (player, banker): Frequency(finals[player, banker], total)
            for player in _TOTALS
            for banker in _TOTALS
        },
        winning_totals={
            (winner, value): Frequency(winning[winner, value], total)
            for winner in _WINNERS
            for value in _TOTALS
        },
        cards_dealt={number: Frequency(cards[number], total) for number in (4, 5, 6)},
        draws={
            (player, banker): Frequency(draws[player, banker], total)
            for player in (False, True)
            for banker in (False, True)
        },
        naturals={
            (player, banker): Frequency(naturals[player, banker], total)
            for player in natural_options
            for banker in natural_options
        },
    )


# Rendering -------------------------------------------------------------------------------


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


def breakdown_data(
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
    >>> data = breakdown_data(breakdown(enumerate_rounds(Shoe.standard(decks=8))), 6)
    >>> data["winning_totals"]["banker"]["6"]["count"], data["cards_dealt"]["4"]["decimal"]
    (269232304455680, '0.378868')
    >>> data["final_totals"]["9"]["9"]["count"] == data["winning_totals"]["tie"]["9"]["count"]
    True
    """
    data: dict[str, Any] = {}
    if shoe is not None:
        data["shoe"] = shoe_data(shoe)
    if tableau is not None:
        data["tableau"] = tableau.name
    if known is not None:
        data["known"] = {str(position): card.symbol for position, card in sorted(known.items())}
    data["total"] = result.total
    data["winning_totals"] = {
        winner.value: {
            str(total): _figure(result.winning_totals[winner, total], digits) for total in _TOTALS
        }
        for winner in _WINNERS
    }
    data["winners"] = {
        winner.value: _figure(frequency, digits) for winner, frequency in result.winners.items()
    }
    data["final_totals"] = {
        str(player): {
            str(banker): _figure(result.final_totals[player, banker], digits) for banker in _TOTALS
        }
        for player in _TOTALS
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
    """The breakdown as pretty-printed JSON (see :func:`breakdown_data`)."""
    return json.dumps(breakdown_data(result, digits, shoe, tableau, known), indent=2)


CSV_COLUMNS = ("table", "row", "column", "count", "probability", "probability_decimal")


def _csv_rows(result: Breakdown) -> Iterator[tuple[str, str, str, Frequency]]:
    for total in reversed(_TOTALS):
        for winner in _WINNERS:
            yield "winning_total", str(total), winner.value, result.winning_totals[winner, total]
    for winner, frequency in result.winners.items():
        yield "winner", winner.value, "", frequency
    for player in _TOTALS:
        for banker in _TOTALS:
            yield "final_totals", str(player), str(banker), result.final_totals[player, banker]
    for total in _TOTALS:
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
) -> str:
    headers = [title, "Combinations", "Probability"] + (["Exact"] if exact else [])
    body = []
    for label, frequency in rows:
        row = [label, f"{frequency.count:,}", decimal_string(frequency.probability, digits)]
        if exact:
            row.append(fraction_string(frequency.probability))
        body.append(row)
    return tabulate(
        body,
        headers=headers,
        disable_numparse=True,
        colalign=("left",) + ("right",) * (len(headers) - 1),
    )


def render_breakdown_table(
    result: Breakdown,
    digits: int,
    exact: bool = False,
    shoe: Shoe | None = None,
    tableau: Tableau | None = None,
    known: Mapping[int, Card] | None = None,
) -> str:
    """The breakdown as text tables for a terminal.

    The grid of final totals shows probabilities only (counts would not fit
    a terminal); JSON and CSV carry its counts and exact fractions.

    >>> from exactodds import Shoe, enumerate_rounds
    >>> text = render_breakdown_table(breakdown(enumerate_rounds(Shoe.standard(decks=8))), 6)
    >>> print(text.splitlines()[5])
    6  312,658,895,192,064  0.062552  269,232,304,455,680  0.053864  96,170,001,308,416  0.019240
    """
    lines: list[str] = []
    if shoe is not None:
        lines.append(f"Shoe: {shoe.describe()}")
    if tableau is not None:
        lines.append(f"Tableau: {tableau.name}")
    if known:
        lines.append(f"Known: {describe_known(known)}")
    if lines:
        lines += [f"Rounds: {result.total:,} ordered six-card sequences", ""]
    winning_rows = []
    for total in reversed(_TOTALS):
        row = [str(total)]
        for winner in _WINNERS:
            frequency = result.winning_totals[winner, total]
            row += [f"{frequency.count:,}", decimal_string(frequency.probability, digits)]
        winning_rows.append(row)
    totals_row = ["All"]
    for frequency in result.winners.values():
        totals_row += [f"{frequency.count:,}", decimal_string(frequency.probability, digits)]
    winning_rows.append(totals_row)
    lines.append(
        tabulate(
            winning_rows,
            headers=[
                "Winning total",
                "Player wins",
                "Probability",
                "Banker wins",
                "Probability",
                "Tie",
                "Probability",
            ],
            disable_numparse=True,
            colalign=("left",) + ("right",) * 6,
        )
    )
    lines.append("")
    side_rows = []
    for total in reversed(_TOTALS):
        player, banker = result.player_totals[total], result.banker_totals[total]
        side_rows.append(
            [
                str(total),
                f"{player.count:,}",
                decimal_string(player.probability, digits),
                f"{banker.count:,}",
                decimal_string(banker.probability, digits),
            ]
        )
    lines.append(
        tabulate(
            side_rows,
            headers=["Final total", "Player", "Probability", "Banker", "Probability"],
            disable_numparse=True,
            colalign=("left",) + ("right",) * 4,
        )
    )
    lines.append("")
    lines.append("Final totals (probability): rows are the Player's total, columns the Banker's")
    grid = [
        [f"P {player}"]
        + [
            decimal_string(result.final_totals[player, banker].probability, digits)
            for banker in _TOTALS
        ]
        for player in _TOTALS
    ]
    lines.append(
        tabulate(
            grid,
            headers=["", *(f"B {banker}" for banker in _TOTALS)],
            disable_numparse=True,
            colalign=("left",) + ("right",) * 10,
        )
    )
    lines.append("")
    lines.append(
        _simple_table(
            "Cards dealt",
            [(str(number), frequency) for number, frequency in result.cards_dealt.items()],
            digits,
            exact,
        )
    )
    lines.append("")
    lines.append(
        _simple_table(
            "Third cards",
            [(label, frequency) for label, _, frequency in _draw_rows(result)],
            digits,
            exact,
        )
    )
    lines.append("")
    lines.append(
        _simple_table(
            "Naturals",
            [(label, frequency) for label, _, frequency in _natural_rows(result)],
            digits,
            exact,
        )
    )
    return "\n".join(lines)
