"""Exact per-shoe sums, the one piece the tally and the risk figures both add up, and the
estimates (a mean with its standard error over shoes) drawn from them.

Kept apart so that :mod:`exactodds.simulation.tally` can hold the risk sums of
:mod:`exactodds.simulation.risk.tally` while those are built on the same :class:`Sums`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from operator import itemgetter
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

__all__ = [
    "EV_SCALE",
    "INT64_SAFE",
    "Estimate",
    "RoundCounts",
    "Sums",
    "exact_product",
    "filled",
    "merge_counts",
    "nan_to_none",
    "summable",
]

#: Integers below this in magnitude, and their sums and products under the checks below,
#: fit int64 (2**63 - 1) with room: every int64 operation here is proven by one of them.
INT64_SAFE = 2**62


#: Exact EVs are summed in units of 2**-40.
EV_SCALE = 2**40


class RoundCounts(Protocol):
    """What an estimate per rounds reads of a simulation's tally
    (:class:`~exactodds.simulation.tally.Tally`): shoes, rounds and the sum of rounds**2."""

    @property
    def shoes(self) -> int:
        """Shoes dealt."""

    @property
    def rounds(self) -> int:
        """Rounds dealt."""

    @property
    def rounds_squares(self) -> int:
        """The sum over shoes of each shoe's rounds, squared."""


def _largest(values: npt.NDArray[Any]) -> int:
    return int(np.abs(values).max()) if values.size else 0


def summable(values: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """*values*, as Python integers if an int64 sum of any of them could overflow.

    The sum of n values of magnitude at most m is at most n x m: int64 while that is below
    :data:`INT64_SAFE`.

    >>> summable(np.array([2**61, 2**61])).dtype
    dtype('O')
    """
    if values.dtype == object or not values.size:
        return values
    if _largest(values) * values.size < INT64_SAFE:
        return values
    return values.astype(object)


def exact_product(first: npt.NDArray[Any], second: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """*first* times *second*, elementwise and exactly: int64 only where the product and any
    sum of the products provably fit, else Python integers.

    >>> exact_product(np.array([3]), np.array([2**62])).tolist()
    [13835058055282163712]
    """
    if first.dtype == object or second.dtype == object:
        return summable(first * second)
    if _largest(first) * _largest(second) < INT64_SAFE:
        return summable(first * second)
    return summable(first.astype(object) * second.astype(object))


def filled(shape: Any, where: npt.NDArray[np.bool_], value: int) -> npt.NDArray[Any]:
    """An array of *shape*: *value* where *where*, else 0; Python integers for a huge *value*.

    >>> filled((2,), np.array([True, False]), 10**20).tolist()
    [100000000000000000000, 0]
    """
    result = np.zeros(shape, dtype=np.int64 if abs(value) < INT64_SAFE else object)
    result[where] = value
    return result


@dataclass(frozen=True)
class Sums:
    """Per-shoe totals of one estimator: sum x, sum x**2 and sum x * rounds over shoes.

    >>> Sums(1, 1, 5).merged(Sums(2, 4, 10))
    Sums(total=3, squares=5, cross=15)
    """

    total: int = 0
    squares: int = 0
    cross: int = 0

    def merged(self, other: Sums) -> Sums:
        """The sums of both."""
        return Sums(
            self.total + other.total, self.squares + other.squares, self.cross + other.cross
        )

    @classmethod
    def of(cls, per_shoe: Sequence[int], rounds: Sequence[int]) -> Sums:
        """The sums of per-shoe values with each shoe's rounds.

        >>> Sums.of([1, -2], [80, 79])
        Sums(total=-1, squares=5, cross=-78)
        """
        return cls(
            sum(per_shoe),
            sum(value * value for value in per_shoe),
            sum(value * count for value, count in zip(per_shoe, rounds, strict=True)),
        )


def merge_counts(
    first: tuple[tuple[int, int], ...], second: tuple[tuple[int, int], ...]
) -> tuple[tuple[int, int], ...]:
    """Two histograms of (key, count) pairs as one, by key.

    >>> merge_counts(((1, 2), (3, 1)), ((1, 1),))
    ((1, 3), (3, 1))
    """
    merged = dict(first)
    known = merged.get
    for key, count in second:
        merged[key] = known(key, 0) + count
    # Keys are distinct: sorting by key alone is the same order, without comparing pairs.
    return tuple(sorted(merged.items(), key=itemgetter(0)))


def nan_to_none(value: float) -> float | None:
    """*value*, or ``None`` for a NaN (no estimate: JSON has no NaN).

    >>> nan_to_none(0.5), nan_to_none(math.nan)
    (0.5, None)
    """
    return None if math.isnan(value) else value


@dataclass(frozen=True)
class Estimate:
    """A mean with its standard error; ``ci95`` is mean +- 1.96 standard errors.

    >>> Estimate.of_shoes(Sums(10, 30, 0), 5, Fraction(1)).mean
    2.0
    """

    mean: float
    stderr: float

    @property
    def ci95(self) -> tuple[float, float]:
        """The 95% confidence interval (normal approximation)."""
        return (self.mean - 1.96 * self.stderr, self.mean + 1.96 * self.stderr)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        low, high = self.ci95
        return {
            "mean": nan_to_none(self.mean),
            "stderr": nan_to_none(self.stderr),
            "ci95": [nan_to_none(low), nan_to_none(high)],
        }

    @classmethod
    def of_shoes(cls, sums: Sums, shoes: int, unit: Fraction) -> Estimate:
        """Mean and standard error per shoe of values summed in multiples of *unit*."""
        if shoes == 0:
            return cls(math.nan, math.nan)
        mean = Fraction(sums.total, shoes)
        if shoes < 2:
            return cls(float(mean * unit), math.nan)
        variance = (sums.squares - Fraction(sums.total) ** 2 / shoes) / (shoes - 1)
        return cls(float(mean * unit), math.sqrt(float(variance / shoes)) * float(unit))

    @classmethod
    def per_rounds(cls, sums: Sums, tally: RoundCounts, unit: Fraction, per: int = 100) -> Estimate:
        """Units per *per* rounds: total / rounds, with the delta-method standard error."""
        shoes, rounds = tally.shoes, tally.rounds
        if rounds == 0:
            return cls(math.nan, math.nan)
        ratio = Fraction(sums.total, rounds)
        if shoes < 2:
            return cls(float(ratio * unit * per), math.nan)
        # Residuals x_s - ratio * r_s over shoes: their sum of squares, exactly.
        residual = sums.squares - 2 * ratio * sums.cross + ratio**2 * tally.rounds_squares
        mean_rounds = Fraction(rounds, shoes)
        variance = residual / (shoes * (shoes - 1)) / mean_rounds**2
        return cls(
            float(ratio * unit * per), math.sqrt(max(float(variance), 0.0)) * float(unit) * per
        )
