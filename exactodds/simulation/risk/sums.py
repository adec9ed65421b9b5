"""Exact per-shoe sums, the one piece the tally and the risk figures both add up.

Kept apart so that :mod:`exactodds.simulation.tally` can hold the risk sums of
:mod:`exactodds.simulation.risk.tally` while those are built on the same :class:`Sums`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["INT64_SAFE", "Sums", "exact_product", "filled", "merge_counts", "summable"]

#: Integers below this in magnitude, and their sums and products under the checks below,
#: fit int64 (2**63 - 1) with room: every int64 operation here is proven by one of them.
INT64_SAFE = 2**62


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
