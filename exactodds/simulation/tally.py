"""What a simulation counts, as exact integers, and the statistics drawn from it.

A :class:`Tally` holds only integer sums, so adding two tallies is exact,
associative and commutative: a run gives the same tally bit for bit whatever
the order, the blocks, the number of workers or the backend, and a checkpoint
plus the rest of the run equals the run in one go.

Per bet and per shoe there are two estimators of the units won:

* ``realized``: the results of the bets made, in exact units of the bet's pay
  denominator (1/20 for a Banker bet at 5% commission);
* ``exact_ev``: the sum of the exact EVs of the bets made.  Each hand's EV is
  exact; for summing it is rounded to a multiple of 2**-40 (from its float64
  value), an error below 1e-12 per hand.  It has the same mean as the realized
  results and far less noise, because it leaves the outcome of each hand out.

:class:`SimulationResult` turns a tally into means, standard errors and 95%
confidence intervals (shoes are independent: standard errors are over shoes;
per 100 rounds is a ratio estimator with the delta-method standard error).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from exactodds.errors import SimulationError
from exactodds.inputs import whole_number
from exactodds.simulation.risk.paths import PathTally
from exactodds.simulation.risk.sums import Sums, merge_counts
from exactodds.simulation.risk.tally import RiskTally

__all__ = [
    "HISTOGRAM_BINS_PER_UNIT",
    "Band",
    "BetTally",
    "Tally",
    "histogram_of",
    "merge_bands",
    "merge_ranges",
]

#: One band's sums: band, rounds, bets made, expected, realized, realized squares, exact squares.
Band = tuple[int, int, int, int, int, int, int]

#: The EV distribution is kept in bins of 0.01% (1/10000 of a unit).
HISTOGRAM_BINS_PER_UNIT = 10_000


def _merge_lists(first: tuple[int, ...], second: tuple[int, ...]) -> tuple[int, ...]:
    size = max(len(first), len(second))
    return tuple(
        (first[i] if i < len(first) else 0) + (second[i] if i < len(second) else 0)
        for i in range(size)
    )


def histogram_of(values: npt.NDArray[Any]) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
    """The distinct *values*, ascending, and how often each occurs (as np.unique counts them).

    Integers over a narrow range are counted by np.bincount, without sorting them.

    >>> [part.tolist() for part in histogram_of(np.array([3, -2, 3, 7]))]
    [[-2, 3, 7], [1, 2, 1]]
    """
    if values.dtype != object and values.size:
        lowest = int(values.min())
        span = int(values.max()) - lowest + 1
        if span <= 4 * values.size + 1024:
            counts = np.bincount(values - lowest, minlength=span)
            present = np.flatnonzero(counts)
            return present + lowest, counts[present]
    distinct, counts = np.unique(values, return_counts=True)
    return distinct, counts


@dataclass(frozen=True)
class BetTally:
    """One bet's exact sums over a set of shoes.

    ``realized`` is in units of ``1 / pay_denominator``, ``expected`` and
    ``ev_made`` in units of ``2**-40``; ``histogram`` counts every round's EV
    by 0.01% bin (the bin's lower end times 10000); ``depth_ev`` and
    ``depth_rounds`` sum every round's EV and count rounds by the deck being
    dealt (cards out of the shoe // 52).  ``bands`` holds, per band of the round's count (the
    true count floored, or the running count, for a count strategy) or of its exact EV (1%
    bands, the floor of 100 EV, otherwise), sorted by band: ``(band, rounds, bets_made,
    expected, realized, realized_squares, exact_squares)`` (summed over the rounds, the
    squares per round).  The seventh, ``exact_squares``, is the band's exact second moment:
    the sum over its bets made of stake**2 x E[X**2 | the composition], in units of
    2**-:data:`~exactodds.simulation.risk.tally.MOMENT_BITS`, kept only by a study with
    exact moments (``exact_moments``, as the optimal ramp's pilot is); 0 otherwise.
    """

    pay_denominator: int
    bets_made: int = 0
    ev_made: int = 0
    positive: int = 0
    realized: Sums = field(default_factory=Sums)
    expected: Sums = field(default_factory=Sums)
    histogram: tuple[tuple[int, int], ...] = ()
    depth_ev: tuple[int, ...] = ()
    depth_rounds: tuple[int, ...] = ()
    bands: tuple[Band, ...] = ()

    def merged(self, other: BetTally) -> BetTally:
        """The sums of both (the same bet over other shoes)."""
        return BetTally(
            self.pay_denominator,
            self.bets_made + other.bets_made,
            self.ev_made + other.ev_made,
            self.positive + other.positive,
            self.realized.merged(other.realized),
            self.expected.merged(other.expected),
            merge_counts(self.histogram, other.histogram),
            _merge_lists(self.depth_ev, other.depth_ev),
            _merge_lists(self.depth_rounds, other.depth_rounds),
            merge_bands(self.bands, other.bands),
        )


def merge_bands(
    first: tuple[tuple[int, ...], ...], second: tuple[tuple[int, ...], ...]
) -> tuple[Band, ...]:
    """Two tallies' bands as one: the sums of a band present in both added, sorted by band.

    A band of six numbers (recorded before the exact squares were kept) has 0 for them.

    >>> merge_bands(((0, 5, 1, 2, 3, 9, 4),), ((-1, 1, 0, 0, 0, 0, 0), (0, 1, 1, 1, 1, 1)))
    ((-1, 1, 0, 0, 0, 0, 0), (0, 6, 2, 3, 4, 10, 4))
    >>> merge_bands(((0, 1),), ())
    Traceback (most recent call last):
    ...
    ValueError: a band needs 7 numbers (band, rounds, bets made, expected, realized, squares, exact squares); one has 2.
    """
    joined: dict[int, list[int]] = {}
    for band in (*first, *second):
        if len(band) not in (6, 7):
            raise ValueError(
                "a band needs 7 numbers (band, rounds, bets made, expected, realized, "
                f"squares, exact squares); one has {len(band)}."
            )
        sums = joined.setdefault(band[0], [0] * 6)
        for index, value in enumerate(band[1:]):
            sums[index] += value
    return tuple((key, *joined[key]) for key in sorted(joined))  # type: ignore[misc]


def merge_ranges(
    first: tuple[tuple[int, int], ...], second: tuple[tuple[int, int], ...]
) -> tuple[tuple[int, int], ...]:
    """Two sets of shoe ranges (``start``, ``stop``: shoes ``start .. stop - 1``) as one.

    Adjacent ranges join; ranges that share a shoe are refused (that shoe would be counted
    twice).

    >>> merge_ranges(((0, 3),), ((3, 5), (8, 9)))
    ((0, 5), (8, 9))
    >>> merge_ranges(((0, 6),), ((3, 9),))
    Traceback (most recent call last):
    ...
    exactodds.errors.SimulationError: These results both hold shoes 3 to 5 of the same study; merge only results of disjoint shoe ranges, so that no shoe is counted twice.
    """
    joined: list[tuple[int, int]] = []
    for start, stop in sorted(first + second):
        if joined and start < joined[-1][1]:
            raise SimulationError(
                f"These results both hold shoes {start} to {min(stop, joined[-1][1]) - 1} of "
                "the same study; merge only results of disjoint shoe ranges, so that no shoe "
                "is counted twice."
            )
        if joined and start == joined[-1][1]:
            joined[-1] = (joined[-1][0], stop)
        else:
            joined.append((start, stop))
    return tuple(joined)


@dataclass(frozen=True)
class Tally:
    """Exact sums over a set of shoes: shoes, rounds, and each bet's :class:`BetTally`.

    >>> empty = Tally.empty([20, 1])
    >>> empty.merged(empty) == empty, empty.shoes
    (True, 0)
    """

    shoes: int
    rounds: int
    rounds_squares: int
    rounds_histogram: tuple[tuple[int, int], ...]
    bets: tuple[BetTally, ...]
    #: The sums behind the risk figures (:mod:`exactodds.simulation.risk.tally`); None: no shoe.
    risk: RiskTally | None = None
    #: The shoes counted, as (start, stop) ranges of shoe numbers, disjoint and ascending.
    ranges: tuple[tuple[int, int], ...] = ()
    #: Where the bankroll stood after each shoe of the trips (:mod:`~exactodds.simulation.risk.paths`);
    #: None: no shoe, or shoes counted without it (a checkpoint written before it was kept).
    paths: PathTally | None = None

    @classmethod
    def empty(cls, pay_denominators: Iterable[int]) -> Tally:
        """The tally of no shoe."""
        return cls(0, 0, 0, (), tuple(BetTally(d) for d in pay_denominators))

    def merged(self, other: Tally) -> Tally:
        """The tally of both sets of shoes (refused if they share a shoe)."""
        ranges = merge_ranges(self.ranges, other.ranges)
        return Tally(
            self.shoes + other.shoes,
            self.rounds + other.rounds,
            self.rounds_squares + other.rounds_squares,
            merge_counts(self.rounds_histogram, other.rounds_histogram),
            tuple(mine.merged(theirs) for mine, theirs in zip(self.bets, other.bets, strict=True)),
            _merge_risk(self.risk, other.risk),
            ranges,
            _merge_paths(self, other),
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data (checkpoints); :meth:`from_dict` reads it back.

        >>> tally = Tally.empty([20])
        >>> Tally.from_dict(tally.to_dict()) == tally
        True
        """
        extra = {"risk": self.risk.to_dict()} if self.risk is not None else {}
        if self.paths is not None:
            extra["paths"] = self.paths.to_dict()
        return extra | {
            "shoes": self.shoes,
            "rounds": self.rounds,
            "rounds_squares": self.rounds_squares,
            "rounds_histogram": [list(pair) for pair in self.rounds_histogram],
            "ranges": [list(pair) for pair in self.ranges],
            "bets": [
                {
                    "pay_denominator": bet.pay_denominator,
                    "bets_made": bet.bets_made,
                    "ev_made": bet.ev_made,
                    "positive": bet.positive,
                    "realized": [bet.realized.total, bet.realized.squares, bet.realized.cross],
                    "expected": [bet.expected.total, bet.expected.squares, bet.expected.cross],
                    "histogram": [list(pair) for pair in bet.histogram],
                    "depth_ev": list(bet.depth_ev),
                    "depth_rounds": list(bet.depth_rounds),
                    "bands": [list(band) for band in bet.bands],
                }
                for bet in self.bets
            ],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Tally:
        """A tally from :meth:`to_dict` data (raises KeyError/TypeError/ValueError if malformed).

        A tally of some shoes without the ``risk`` sums (written before they existed) is
        refused: resuming from it would give risk figures of the later shoes only.
        """
        if data.get("risk") is None and data["shoes"] != 0:
            raise ValueError("a tally without the risk sums")
        risk = RiskTally.from_dict(data["risk"]) if data.get("risk") is not None else None

        def whole(value: Any) -> int:  # a checkpoint is hostile: a boolean is not a number
            return whole_number(value, "checkpoint", minimum=None)

        def pairs(items: Any) -> tuple[tuple[int, int], ...]:
            return tuple((whole(key), whole(count)) for key, count in items)

        return cls(
            whole(data["shoes"]),
            whole(data["rounds"]),
            whole(data["rounds_squares"]),
            pairs(data["rounds_histogram"]),
            tuple(
                BetTally(
                    whole(bet["pay_denominator"]),
                    whole(bet["bets_made"]),
                    whole(bet["ev_made"]),
                    whole(bet["positive"]),
                    Sums(*(whole(value) for value in bet["realized"])),
                    Sums(*(whole(value) for value in bet["expected"])),
                    pairs(bet["histogram"]),
                    tuple(whole(value) for value in bet["depth_ev"]),
                    tuple(whole(value) for value in bet["depth_rounds"]),
                    merge_bands(tuple(tuple(whole(v) for v in band) for band in bet["bands"]), ()),
                )
                for bet in data["bets"]
            ),
            risk,
            # Written before ranges were recorded: a checkpoint, the first shoes.
            pairs(data.get("ranges", [[0, data["shoes"]]] if data["shoes"] else [])),
            PathTally.from_dict(data["paths"]) if data.get("paths") is not None else None,
        )


def _merge_risk(first: RiskTally | None, second: RiskTally | None) -> RiskTally | None:
    if first is None:
        return second
    if second is None:
        return first
    return first.merged(second)


def _merge_paths(first: Tally, second: Tally) -> PathTally | None:
    """Both tallies' paths; None when shoes of either were counted without them (the paths
    of only some shoes would be wrong, not partial)."""
    if first.paths is None or second.paths is None:
        if (first.shoes and first.paths is None) or (second.shoes and second.paths is None):
            return None
        return first.paths or second.paths
    return first.paths.merged(second.paths)
