"""The exact EV of every bet on many known compositions: the one batch call of a simulation.

:func:`exact_expected_values` is the single place where a simulation asks for
exact figures.  It takes the known compositions of every round of a block of
shoes (52 card counts per row) and returns each bet's EV per row as an exact
ratio of integers, numerator over a positive denominator.  Today it drives
:class:`~exactodds.analysis.many.Analyzer`; a faster exact kernel only has to
replace the body of :func:`exact_expected_values`.

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

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from exactodds.analysis import many
from exactodds.analysis.many import Analyzer
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
    return _trusted_shoe(ranks, suits if suited else None)


def _trusted_shoe(ranks: tuple[int, ...], suits: tuple[int, ...] | None) -> Shoe:
    # Counts that come out of deal_block are valid by construction; Shoe's checks
    # (some 30 microseconds) would cost more than the whole evaluation of a round.
    shoe = object.__new__(Shoe)
    object.__setattr__(shoe, "rank_counts", ranks)
    object.__setattr__(shoe, "suit_counts", suits)
    return shoe


def exact_expected_values(
    analyzer: Analyzer, known: npt.NDArray[np.int64], suited: bool
) -> ExpectedValues:
    """Exact EV of each of *analyzer*'s bets on each row of *known* (52 card counts a row).

    *suited* says whether to price the rows with their suits (needed by suited
    bets only; the other bets' EVs are the same either way).
    """
    rows = np.asarray(known, dtype=np.int64).reshape(-1, 52)
    suit_rows = rows.tolist()
    rank_rows = rows.reshape(-1, 13, 4).sum(axis=2).tolist()

    def shoes() -> list[Shoe]:
        return [
            _trusted_shoe(tuple(ranks), tuple(suits) if suited else None)
            for ranks, suits in zip(rank_rows, suit_rows, strict=True)
        ]

    if hasattr(analyzer, "expected_value_table"):
        return _from_table(analyzer, rank_rows, suit_rows if suited else None, shoes)
    if _has_numbers_path(analyzer):
        return _from_numbers(analyzer, shoes())
    return _from_analyses(analyzer, shoes())


def _from_table(
    analyzer: Analyzer,
    rank_rows: list[list[int]],
    suit_rows: list[list[int]] | None,
    shoes: Callable[[], list[Shoe]],
) -> ExpectedValues:
    """The compiled kernel's road: every kernel-priced bet's EV numerators as one int64 array."""
    table: Any = getattr(analyzer, "expected_value_table")(  # noqa: B009 - not on every Analyzer
        rank_rows, suit_rows, outcomes=False
    )
    outputs: dict[str, int] = getattr(analyzer, "_lean_outputs", {})
    priced: dict[str, Any] = getattr(analyzer, "_priced", {})
    names = [bet.name for bet in analyzer.bets]
    totals = [math.perm(sum(row), 6) for row in rank_rows]
    denominators = [priced[name].denominator if name in priced else 1 for name in names]
    evaluation = getattr(table, "evaluation", None)
    if (
        all(name in outputs for name in names)
        and evaluation is not None
        and not evaluation.exact
        and max(totals, default=0) * max(denominators, default=1) < 2**63
    ):
        columns = [outputs[name] for name in names]
        return ExpectedValues(
            np.ascontiguousarray(evaluation.values[:, columns]),
            np.array(totals, dtype=np.int64)[:, None]
            * np.array(denominators, dtype=np.int64)[None, :],
        )
    numerators: list[list[int]] = [[] for _ in rank_rows]
    ratios: list[list[int]] = [[] for _ in rank_rows]
    analyses = None
    for name in names:
        if name in outputs:
            pairs = [table.ratio(row, name) for row in range(len(rank_rows))]
        else:  # a bet only the walk can price
            analyses = analyses or list(analyzer.analyze_many(shoes(), prefetch=False))
            pairs = [analysis.bets[name].moment_ratio() for analysis in analyses]
        for row, (numerator, denominator) in enumerate(pairs):
            numerators[row].append(numerator)
            ratios[row].append(denominator)
    return _packed(numerators, ratios)


def _has_numbers_path(analyzer: Analyzer) -> bool:
    return all(
        hasattr(analyzer, name)
        for name in ("_numbers", "_route", "_value_bets", "_pair_bets", "_ev_denominators")
    )


def _from_analyses(analyzer: Analyzer, shoes: list[Shoe]) -> ExpectedValues:
    """The public path: one :class:`~exactodds.analysis.single.Analysis` per row."""
    names = [bet.name for bet in analyzer.bets]
    numerators: list[list[int]] = []
    denominators: list[list[int]] = []
    for analysis in analyzer.analyze_many(shoes, prefetch=False):
        ratio = getattr(analysis.bets, "expected_value_ratio", None)
        pairs = [
            ratio(name) if ratio is not None else analysis.bets[name].moment_ratio()
            for name in names
        ]
        numerators.append([numerator for numerator, _ in pairs])
        denominators.append([denominator for _, denominator in pairs])
    return _packed(numerators, denominators)


def _from_numbers(analyzer: Analyzer, shoes: list[Shoe]) -> ExpectedValues:
    """The array path: the analyzer's evaluated columns, no object per row and bet."""
    routes = [analyzer._route[bet.name] for bet in analyzer.bets]
    if all(route == "pairs" for route, _ in routes):
        # Pair bets only: their closed forms, without evaluating the tableau's polynomials.
        value_numerators: Sequence[Sequence[int] | None] = []
        pair_counts: Sequence[dict[tuple[int, int], int] | None] = many._pair_state_counts(shoes)
    else:
        _, value_numerators, pair_counts = analyzer._numbers(shoes)
    totals = [math.perm(shoe.cards, 6) for shoe in shoes]
    analyses: list[Any] = []
    columns: list[list[int]] = []
    denominators: list[list[int]] = []
    for bet, (route, index) in zip(analyzer.bets, routes, strict=True):
        if route == "polynomial" and value_numerators and value_numerators[0] is not None:
            denominator = analyzer._ev_denominators[index]
            columns.append([values[index] for values in value_numerators if values is not None])
            denominators.append([total * denominator for total in totals])
        elif route == "pairs":
            pair_bet = analyzer._pair_bets[index]
            pays, denominator = pair_bet.bet.integer_pays()
            column = []
            for shoe, counts in zip(shoes, pair_counts, strict=True):
                table = pair_bet.suited if shoe.suits_known else pair_bet.rank_only
                assert counts is not None
                column.append(sum(pays[table[state]] * count for state, count in counts.items()))
            columns.append(column)
            denominators.append([total * denominator for total in totals])
        else:  # too large for int64 columns, or a bet only the walk can price
            analyses = analyses or list(analyzer.analyze_many(shoes, prefetch=False))
            ratios = [analysis.bets[bet.name].moment_ratio() for analysis in analyses]
            columns.append([numerator for numerator, _ in ratios])
            denominators.append([denominator for _, denominator in ratios])
    return _packed(
        [list(row) for row in zip(*columns, strict=True)],
        [list(row) for row in zip(*denominators, strict=True)],
    )


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
