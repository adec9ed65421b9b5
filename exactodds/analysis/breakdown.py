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
probability.  :mod:`exactodds.report.breakdown` renders them as a table, JSON or CSV.

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

from collections import defaultdict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction

from exactodds.engine.walk import OutcomeTable, Winner

__all__ = ["TOTALS", "WINNERS", "Breakdown", "Frequency", "breakdown"]

#: Every final total, and the winners in the order the tables show them.
TOTALS = range(10)
WINNERS = (Winner.PLAYER, Winner.BANKER, Winner.TIE)
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
            total: self._sum(self.final_totals[total, banker].count for banker in TOTALS)
            for total in TOTALS
        }

    @property
    def banker_totals(self) -> dict[int, Frequency]:
        """The Banker's final total, whoever wins."""
        return {
            total: self._sum(self.final_totals[player, total].count for player in TOTALS)
            for total in TOTALS
        }

    @property
    def winners(self) -> dict[Winner, Frequency]:
        """Who wins the round, summed over the totals."""
        return {
            winner: self._sum(self.winning_totals[winner, total].count for total in TOTALS)
            for winner in WINNERS
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
            for player in TOTALS
            for banker in TOTALS
        },
        winning_totals={
            (winner, value): Frequency(winning[winner, value], total)
            for winner in WINNERS
            for value in TOTALS
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
