"""The exact EV of every bet on many known compositions: the one batch call of a simulation.

:func:`exact_expected_values` is the single place where a simulation asks for
exact figures.  It takes the known compositions of every round of a block of
shoes (52 card counts per row) and returns each bet's EV per row as an exact
ratio of integers, numerator over a positive denominator.  It drives
:meth:`~exactodds.analysis.many.Analyzer.expected_value_table`, the compiled
kernel's integer arrays.

>>> import numpy as np
>>> from exactodds.bets.catalogue import select_bets
>>> from exactodds.analysis.many import Analyzer
>>> analyzer = Analyzer(bets=select_bets("banker,dragon7"))
>>> full = np.full((1, 52), 8)
>>> values = exact_expected_values(analyzer, full, suited=False)
>>> [str(values.fraction(0, bet)) for bet in range(2)]
['-114753351728/10847218479825', '-64613588827/848912750595']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from exactodds.analysis.cardprice import card_expected_values
from exactodds.analysis.many import Analyzer
from exactodds.bets.bet import Bet
from exactodds.shoe import Shoe

__all__ = ["ExpectedValues", "exact_expected_values", "known_shoe"]


@dataclass(frozen=True)
class ExpectedValues:
    """Exact EVs of every bet (columns) on every composition (rows), as integer ratios.

    ``numerators`` and ``denominators`` are int64 arrays when every value fits,
    object arrays of Python integers otherwise; denominators are positive.
    """

    numerators: npt.NDArray[Any]
    denominators: npt.NDArray[Any]

    def fraction(self, row: int, bet: int) -> Fraction:
        """The exact EV of column *bet* on row *row*."""
        return Fraction(int(self.numerators[row, bet]), int(self.denominators[row, bet]))

    def floats(self) -> npt.NDArray[np.float64]:
        """Every EV as float64 (each the float division of the exact integers)."""
        return np.asarray(self.numerators, dtype=np.float64) / np.asarray(
            self.denominators, dtype=np.float64
        )


def known_shoe(counts: npt.NDArray[np.int64], suited: bool) -> Shoe:
    """The :class:`~exactodds.shoe.Shoe` of 52 card counts (rank by rank, suits S H D C).

    >>> known_shoe(np.full(52, 1), suited=False).rank_counts[:3]
    (4, 4, 4)
    """
    suits = tuple(int(count) for count in counts)
    ranks = tuple(sum(suits[index : index + 4]) for index in range(0, 52, 4))
    # Counts that come out of deal_block are valid by construction; Shoe's checks
    # (some 30 microseconds) would cost more than the whole evaluation of a round.
    return Shoe.from_checked_counts(ranks, suits if suited else None)


def exact_expected_values(
    analyzer: Analyzer,
    known: npt.NDArray[np.int64],
    suited: bool,
    ranks: npt.NDArray[np.int64] | None = None,
) -> ExpectedValues:
    """Exact EV of each of *analyzer*'s bets on each row of *known* (52 card counts a row).

    *suited* says whether to price the rows with their suits (needed by suited
    bets only; the other bets' EVs are the same either way).  *ranks*, when given,
    is *known* by rank (13 counts a row, as the dealing gives it).
    """
    rows = np.asarray(known, dtype=np.int64).reshape(-1, 52)
    rank_rows = rows.reshape(-1, 13, 4).sum(axis=2) if ranks is None else ranks

    def shoes() -> list[Shoe]:
        return [
            Shoe.from_checked_counts(tuple(ranks), tuple(suits) if suited else None)
            for ranks, suits in zip(rank_rows.tolist(), rows.tolist(), strict=True)
        ]

    # numpy rows: the table checks them by dtype, not count by count.
    return _from_table(analyzer, rank_rows, rows if suited else None, shoes)


def _from_table(
    analyzer: Analyzer,
    rank_rows: npt.NDArray[np.int64],
    suit_rows: npt.NDArray[np.int64] | None,
    shoes: Callable[[], list[Shoe]],
) -> ExpectedValues:
    """The compiled kernel's road: every kernel-priced bet's EV numerators as one int64 array."""
    table = analyzer.expected_value_table(rank_rows, suit_rows, outcomes=False)
    names = [bet.name for bet in analyzer.bets]
    totals = table.totals
    if all(table.priced(name) for name in names):
        denominators = [table.denominator(name) for name in names]
        columns = table.numerator_columns(names)
        if columns is not None and max(totals, default=0) * max(denominators, default=1) < 2**63:
            return ExpectedValues(
                columns,
                np.array(totals, dtype=np.int64)[:, None]
                * np.array(denominators, dtype=np.int64)[None, :],
            )
    numerators: list[list[int]] = [[] for _ in rank_rows]
    ratios: list[list[int]] = [[] for _ in rank_rows]
    analyses = None
    by_name = {bet.name: bet for bet in analyzer.bets}
    for name in names:
        if table.priced(name):
            pairs = [table.ratio(row, name) for row in range(len(rank_rows))]
        elif by_name[name].cards is not None:  # a card-level bet: its compiled card terms
            pairs = _card_ratios(analyzer, by_name[name], rank_rows, suit_rows)
        else:  # a bet only the walk can price
            analyses = analyses or list(analyzer.analyze_many(shoes(), prefetch=False))
            pairs = [analysis.bets[name].moment_ratio() for analysis in analyses]
        for row, (numerator, denominator) in enumerate(pairs):
            numerators[row].append(numerator)
            ratios[row].append(denominator)
    return _packed(numerators, ratios)


def _card_ratios(
    analyzer: Analyzer,
    bet: Bet,
    rank_rows: npt.NDArray[np.int64],
    suit_rows: npt.NDArray[np.int64] | None,
) -> list[tuple[int, int]]:
    """A card-level bet's exact EV on each row (:mod:`exactodds.analysis.cardprice`)."""
    numerators, denominators = card_expected_values(
        bet, analyzer.rules.tableau, rank_rows, suit_rows
    )
    return list(zip(numerators, denominators, strict=True))


def _packed(numerators: list[list[int]], denominators: list[list[int]]) -> ExpectedValues:
    width = len(numerators[0]) if numerators else 0
    try:
        return ExpectedValues(
            np.array(numerators, dtype=np.int64).reshape(-1, width),
            np.array(denominators, dtype=np.int64).reshape(-1, width),
        )
    except OverflowError:  # shoes past 2**63 sequences: exact Python integers
        return ExpectedValues(
            np.array(numerators, dtype=object).reshape(-1, width),
            np.array(denominators, dtype=object).reshape(-1, width),
        )
