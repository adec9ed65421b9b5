"""Exact per-shoe sums, the one piece the tally and the risk figures both add up.

Kept apart so that :mod:`exactodds.simulation.tally` can hold the risk sums of
:mod:`exactodds.simulation.figures` while those are built on the same :class:`Sums`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from operator import itemgetter

__all__ = ["Sums", "merge_counts"]


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
