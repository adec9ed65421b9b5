"""Per-round moments, covariances and trips: the exact sums behind the risk figures.

A block's :class:`RiskTally` holds, as integers that add exactly (so a run gives the
same tally whatever its blocks, workers or backend):

* per bet and for the combined result of a round (every bet made, summed): the
  per-shoe sums of the squared result of each round (``X**2``), with the sums of
  their squares and products with the shoe's rounds, realized result and exact EV,
  so that the standard deviation per round and DI get delta-method standard
  errors over shoes;
* the products ``sum X_i X_j`` over rounds of every pair of bets (the covariance);
* trips: shoes chained in order into trips of ``trip_shoes`` shoes, and for each
  finished trip the lowest point the combined result reached (in exact units), so
  the empirical frequency of ruin for any bankroll is a count.

Realized results are in units of ``1 / pay_denominator`` (squares in its square);
the combined result in units of ``1 / combined_denominator``, the least common
multiple of the bets' denominators.

>>> empty = RiskTally.empty([20, 1], trip_shoes=2)
>>> empty.merged(empty) == empty, empty.combined_denominator
(True, 20)
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, Self, TypeVar

import numpy as np
import numpy.typing as npt

from exactodds.inputs import whole_number
from exactodds.simulation.risk.sums import Sums, merge_counts

__all__ = [
    "RiskTally",
    "Segment",
    "SeriesMoments",
    "TripPart",
    "TripPiece",
    "TripResults",
    "TripTally",
    "block_risk_tally",
    "joined_parts",
    "shoe_outcomes",
]

IntArray = npt.NDArray[np.int64]
#: Exact second moments are summed in units of 2**-MOMENT_BITS (from float64: stakes**2 x
#: E[X**2] can be far larger than an EV, so fewer fraction bits than EVs' 2**-40).
MOMENT_BITS = 24
#: The version of :meth:`RiskTally.to_dict` records (the ``risk`` key of a checkpoint's tally).
RECORD_VERSION = 1


@dataclass(frozen=True)
class SeriesMoments:
    """Per-shoe sums of X**2 of one series (a bet, or the combined result), exactly.

    ``squares`` holds sum q, sum q**2 and sum q x rounds over shoes (q: a shoe's sum of
    the squared results of its rounds); ``with_realized`` sum q x realized,
    ``with_expected`` sum q x exact EV, and ``realized_expected`` sum realized x exact EV.

    >>> SeriesMoments(Sums(1, 1, 1), 2, 3, 4).merged(SeriesMoments()).with_expected
    3
    """

    squares: Sums = field(default_factory=Sums)
    with_realized: int = 0
    with_expected: int = 0
    realized_expected: int = 0

    def merged(self, other: SeriesMoments) -> SeriesMoments:
        """The sums of both."""
        return SeriesMoments(
            self.squares.merged(other.squares),
            self.with_realized + other.with_realized,
            self.with_expected + other.with_expected,
            self.realized_expected + other.realized_expected,
        )

    @classmethod
    def of(
        cls,
        squares: Sequence[int],
        realized: Sequence[int],
        expected: Sequence[int],
        rounds: Sequence[int],
    ) -> SeriesMoments:
        """The sums of per-shoe values (Python integers: products can pass 2**63)."""
        return cls(
            Sums.of(squares, rounds),
            sum(q * x for q, x in zip(squares, realized, strict=True)),
            sum(q * e for q, e in zip(squares, expected, strict=True)),
            sum(x * e for x, e in zip(realized, expected, strict=True)),
        )

    def as_list(self) -> list[int]:
        """Six integers (records)."""
        s = self.squares
        return [
            s.total,
            s.squares,
            s.cross,
            self.with_realized,
            self.with_expected,
            self.realized_expected,
        ]

    @classmethod
    def from_list(cls, values: Sequence[Any]) -> SeriesMoments:
        """From :meth:`as_list`."""
        numbers = [_whole(value) for value in values]
        if len(numbers) != 6:
            raise ValueError("six integers expected")
        return cls(Sums(*numbers[:3]), *numbers[3:])


@dataclass(frozen=True, order=True)
class Segment:
    """Consecutive shoes of one trip not yet finished: the combined total and lowest point.

    ``minimum`` is the lowest running total over the segment's rounds (0 at its start,
    so never above 0).

    >>> Segment(0, 0, 1, -5, -7).joined(Segment(0, 1, 1, 3, -2))
    Segment(trip=0, first_shoe=0, shoes=2, total=-2, minimum=-7)
    """

    trip: int
    first_shoe: int
    shoes: int
    total: int
    minimum: int

    def joined(self, later: Segment) -> Segment:
        """This segment followed by *later* (the next shoes of the same trip)."""
        return Segment(
            self.trip,
            self.first_shoe,
            self.shoes + later.shoes,
            self.total + later.total,
            min(self.minimum, self.total + later.minimum),
        )


class TripPart(Protocol):
    """Consecutive shoes of one trip not yet finished (:class:`Segment`, a path tally's
    :class:`~exactodds.simulation.risk.paths.TripPiece`): what :func:`joined_parts` joins."""

    @property
    def trip(self) -> int:
        """The trip's number (shoe number // shoes per trip)."""

    @property
    def first_shoe(self) -> int:
        """The part's first shoe."""

    @property
    def shoes(self) -> int:
        """The part's shoes."""

    def joined(self, later: Self) -> Self:
        """This part followed by *later* (the next shoes of the same trip)."""

    def __lt__(self, other: Any) -> bool:
        """Parts sort by trip, then by first shoe."""


PartT = TypeVar("PartT", bound=TripPart)


def joined_parts(parts: Iterable[PartT]) -> list[PartT]:
    """*parts* (of trips split between blocks) by trip and shoe, each run of consecutive
    shoes of one trip joined into one part: the one join of the trip tallies and the paths.

    >>> joined_parts([Segment(0, 1, 1, 3, -2), Segment(1, 3, 1, 1, 0), Segment(0, 0, 1, -5, -7)])
    [Segment(trip=0, first_shoe=0, shoes=2, total=-2, minimum=-7), Segment(trip=1, first_shoe=3, shoes=1, total=1, minimum=0)]
    """
    by_trip: dict[int, list[PartT]] = {}
    for part in sorted(parts):
        by_trip.setdefault(part.trip, []).append(part)
    whole: list[PartT] = []
    for group in by_trip.values():
        joined = [group[0]]
        for part in group[1:]:
            last = joined[-1]
            if last.first_shoe + last.shoes == part.first_shoe:
                joined[-1] = last.joined(part)
            else:
                joined.append(part)
        whole.extend(joined)
    return whole


def _joined_trips(
    trip_shoes: int,
    first: tuple[tuple[int, int], ...],
    second: tuple[tuple[int, int], ...],
    segments: tuple[Segment, ...],
) -> tuple[tuple[tuple[int, int], ...], tuple[Segment, ...]]:
    """Finished trips' lowest points of both, and *segments* joined: those that make a whole
    trip of *trip_shoes* shoes are counted, the rest stay open."""
    minimums = dict(merge_counts(first, second))
    still_open = []
    for segment in joined_parts(segments):
        if segment.shoes == trip_shoes:
            minimums[segment.minimum] = minimums.get(segment.minimum, 0) + 1
        else:
            still_open.append(segment)
    return tuple(sorted(minimums.items())), tuple(sorted(still_open))


@dataclass(frozen=True)
class TripTally:
    """The simulated trips of one more length (a risk grid), as :class:`RiskTally` keeps its
    own: the lowest point of each finished trip -> trips, and the trips still open.

    >>> TripTally(2, (), (Segment(0, 0, 1, -2, -3), Segment(0, 1, 1, -2, -3))).merged(TripTally(2))
    TripTally(shoes=2, minimums=((-5, 1),), open_segments=())
    >>> TripTally.from_dict({"shoes": 2, "trip_minimums": [[-5, -1]], "open_segments": []})
    Traceback (most recent call last):
    ...
    ValueError: a negative count of trips
    """

    shoes: int
    minimums: tuple[tuple[int, int], ...] = ()
    open_segments: tuple[Segment, ...] = ()

    @classmethod
    def of_shoes(
        cls, shoes: int, first_shoe: int, totals: Sequence[int], lows: Sequence[int]
    ) -> TripTally:
        """The trips of *shoes* shoes that consecutive shoes from *first_shoe* make, from each
        shoe's combined total and lowest point (a block's: whole trips counted, the cut ones
        left open), with numpy's grouped sums and minimums.

        >>> TripTally.of_shoes(2, 0, [-2, -2, -2], [-3, -3, -3])  # shoe 2 starts a trip
        TripTally(shoes=2, minimums=((-5, 1),), open_segments=(Segment(trip=1, first_shoe=2, shoes=1, total=-2, minimum=-3),))
        """
        count = len(totals)
        if count == 0:
            return cls(shoes)
        largest = max(max(map(abs, totals)), max(map(abs, lows)))
        kind: Any = np.int64 if largest * (count + 1) < 2**62 else object
        total = np.array(totals, dtype=kind)
        low = np.array(lows, dtype=kind)
        trip = (first_shoe + np.arange(count)) // shoes
        starts = np.flatnonzero(np.concatenate(([True], trip[1:] != trip[:-1])))
        sizes = np.diff(np.append(starts, count))
        running = np.cumsum(total)
        before = running - total - np.repeat((running - total)[starts], sizes)
        minimums = np.minimum.reduceat(before + low, starts).tolist()
        sums = np.add.reduceat(total, starts).tolist()
        finished: dict[int, int] = {}
        still_open = []
        for index, start in enumerate(starts.tolist()):
            if sizes[index] == shoes:
                finished[minimums[index]] = finished.get(minimums[index], 0) + 1
            else:
                still_open.append(
                    Segment(
                        int(trip[start]),
                        first_shoe + start,
                        int(sizes[index]),
                        sums[index],
                        minimums[index],
                    )
                )
        return cls(shoes, tuple(sorted(finished.items())), tuple(sorted(still_open)))

    def merged(self, other: TripTally) -> TripTally:
        """The trips of both (disjoint sets of shoes); trips split between them are joined."""
        if other.shoes != self.shoes:
            raise ValueError("risk sums of trips of different lengths")
        minimums, still_open = _joined_trips(
            self.shoes, self.minimums, other.minimums, self.open_segments + other.open_segments
        )
        return TripTally(self.shoes, minimums, still_open)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data (checkpoints); :meth:`from_dict` reads it back."""
        return {
            "shoes": self.shoes,
            "trip_minimums": [list(pair) for pair in self.minimums],
            "open_segments": [
                [s.trip, s.first_shoe, s.shoes, s.total, s.minimum] for s in self.open_segments
            ],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TripTally:
        """From :meth:`to_dict` data (raises KeyError/TypeError/ValueError)."""
        shoes = _whole(data["shoes"])
        minimums = tuple((_whole(low), _whole(count)) for low, count in data["trip_minimums"])
        segments = tuple(
            Segment(*(_whole(value) for value in entry)) for entry in data["open_segments"]
        )
        if shoes < 1 or any(count < 0 for _, count in minimums):
            raise ValueError("a negative count of trips" if shoes >= 1 else "trips of no shoe")
        if any(not 0 < segment.shoes < shoes for segment in segments):
            raise ValueError("an open trip of a length its trips cannot have")
        return cls(shoes, minimums, segments)


#: A finished trip: (combined result, units rolled, units staked).
Trip = tuple[int, int, int]


@dataclass(frozen=True, order=True)
class TripPiece:
    """Consecutive shoes of one trip not yet finished: the result and turnover so far.

    >>> TripPiece(0, 0, 1, -5, 3, 4).joined(TripPiece(0, 1, 1, 2, 1, 1))
    TripPiece(trip=0, first_shoe=0, shoes=2, total=-3, rolled=4, staked=5)
    """

    trip: int
    first_shoe: int
    shoes: int
    total: int
    rolled: int
    staked: int

    def joined(self, later: TripPiece) -> TripPiece:
        """This part followed by *later* (the next shoes of the same trip)."""
        return TripPiece(
            self.trip,
            self.first_shoe,
            self.shoes + later.shoes,
            self.total + later.total,
            self.rolled + later.rolled,
            self.staked + later.staked,
        )


def _counted(trips: Mapping[Trip, int]) -> tuple[tuple[int, int, int, int], ...]:
    return tuple((*trip, count) for trip, count in sorted(trips.items()))


@dataclass(frozen=True)
class TripResults:
    """Each finished trip's (combined result, units rolled, units staked) -> trips, exactly,
    and the trips still open; results in units of the combined denominator.

    >>> TripResults(2, (), (TripPiece(0, 1, 1, 3, 1, 1),)).merged(
    ...     TripResults.of_shoes(2, 0, [-5], [2], [2]))
    TripResults(shoes=2, finished=((-2, 3, 3, 1),), open_parts=())
    >>> TripResults.from_dict({"shoes": 2, "finished": [[1, 1, 1, -1]], "open": []})
    Traceback (most recent call last):
    ...
    ValueError: a negative count of trips
    """

    shoes: int
    finished: tuple[tuple[int, int, int, int], ...] = ()
    open_parts: tuple[TripPiece, ...] = ()

    @classmethod
    def of_shoes(
        cls,
        shoes: int,
        first_shoe: int,
        totals: Sequence[int],
        rolled: Sequence[int],
        staked: Sequence[int],
    ) -> TripResults:
        """The trips of *shoes* shoes that consecutive shoes from *first_shoe* make, from each
        shoe's combined result, units rolled and units staked."""
        pieces = [
            TripPiece((first_shoe + index) // shoes, first_shoe + index, 1, total, roll, stake)
            for index, (total, roll, stake) in enumerate(zip(totals, rolled, staked, strict=True))
        ]
        return cls(shoes).merged(cls(shoes, (), tuple(pieces)))

    def merged(self, other: TripResults) -> TripResults:
        """The trips of both (disjoint sets of shoes); trips split between them are joined."""
        if other.shoes != self.shoes:
            raise ValueError("trip results of trips of different lengths")
        counts: dict[Trip, int] = {}
        for total, rolled, staked, count in self.finished + other.finished:
            counts[total, rolled, staked] = counts.get((total, rolled, staked), 0) + count
        still_open = []
        for part in joined_parts(self.open_parts + other.open_parts):
            if part.shoes == self.shoes:
                key = (part.total, part.rolled, part.staked)
                counts[key] = counts.get(key, 0) + 1
            else:
                still_open.append(part)
        return TripResults(self.shoes, _counted(counts), tuple(sorted(still_open)))

    @property
    def trips(self) -> int:
        """Finished trips."""
        return sum(entry[3] for entry in self.finished)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data (checkpoints); :meth:`from_dict` reads it back.

        >>> results = TripResults.of_shoes(2, 1, [3, -1], [1, 1], [2, 1])
        >>> TripResults.from_dict(results.to_dict()) == results
        True
        """
        return {
            "shoes": self.shoes,
            "finished": [list(entry) for entry in self.finished],
            "open": [
                [p.trip, p.first_shoe, p.shoes, p.total, p.rolled, p.staked]
                for p in self.open_parts
            ],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TripResults:
        """From :meth:`to_dict` data (raises KeyError/TypeError/ValueError)."""
        shoes = _whole(data["shoes"])
        finished = tuple(
            (_whole(t), _whole(r), _whole(s), _whole(c)) for t, r, s, c in data["finished"]
        )
        parts = tuple(TripPiece(*(_whole(value) for value in entry)) for entry in data["open"])
        if shoes < 1:
            raise ValueError("trips of no shoe")
        if any(entry[3] < 0 for entry in finished):
            raise ValueError("a negative count of trips")
        if any(not 0 < part.shoes < shoes for part in parts):
            raise ValueError("an open trip of a length its trips cannot have")
        return cls(shoes, finished, parts)


def _merge_grid(
    first: tuple[TripTally, ...], second: tuple[TripTally, ...]
) -> tuple[TripTally, ...]:
    if not first or not second:
        return first or second
    if len(first) != len(second):
        raise ValueError("risk sums of different risk grids")
    return tuple(a.merged(b) for a, b in zip(first, second, strict=True))


def _whole(value: Any) -> int:
    """A whole number read back from a checkpoint (hostile: a boolean is not one)."""
    return whole_number(value, "checkpoint", minimum=None)


@dataclass(frozen=True)
class RiskTally:
    """Exact sums for the risk figures over a set of shoes (see the module docstring)."""

    denominators: tuple[int, ...]
    trip_shoes: int
    bets: tuple[SeriesMoments, ...]
    combined_realized: Sums = field(default_factory=Sums)
    combined_expected: Sums = field(default_factory=Sums)
    combined: SeriesMoments = field(default_factory=SeriesMoments)
    #: sum over rounds of X_i X_j, row by row for i <= j (units 1 / (d_i d_j)).
    products: tuple[int, ...] = ()
    #: (lowest point of the combined result, trips), over finished trips.
    trip_minimums: tuple[tuple[int, int], ...] = ()
    open_segments: tuple[Segment, ...] = ()
    #: Units staked on each bet.
    wagered: tuple[int, ...] = ()
    #: Sum over shoes of ln(bankroll at the end / at the start) in units of 2**-40 (Kelly).
    growth: int = 0
    #: With exact moments: per bet, the per-shoe sums of stake**2 x E[X**2 | composition]
    #: over the bets made (units of 2**-MOMENT_BITS), as :class:`SeriesMoments`.
    exact_squares: tuple[SeriesMoments, ...] = ()
    #: For a stake other than flat: the same sums for flat betting (None otherwise).
    flat: RiskTally | None = None
    #: Per shoe, (total, lowest point, shoes) of the combined result, exactly (units of
    #: ``1 / combined_denominator``): what :mod:`~exactodds.simulation.risk.ruin` runs on.
    shoe_outcomes: tuple[tuple[int, int, int], ...] = ()
    #: The simulated trips of a risk grid's other lengths, by length (:meth:`for_trip`).
    grid_trips: tuple[TripTally, ...] = ()
    #: Each trip's result and turnover, for a rebate (None: a study without one).
    trip_results: TripResults | None = None

    @property
    def combined_denominator(self) -> int:
        """The combined result's unit: 1 / lcm of the bets' pay denominators."""
        return math.lcm(*self.denominators) if self.denominators else 1

    @classmethod
    def empty(
        cls, denominators: Iterable[int], trip_shoes: int = 1, grid_trip_shoes: Sequence[int] = ()
    ) -> RiskTally:
        """The risk tally of no shoe."""
        chosen = tuple(denominators)
        size = len(chosen) * (len(chosen) + 1) // 2
        return cls(
            chosen,
            trip_shoes,
            tuple(SeriesMoments() for _ in chosen),
            products=(0,) * size,
            wagered=(0,) * len(chosen),
            grid_trips=tuple(TripTally(shoes) for shoes in grid_trip_shoes),
        )

    def product(self, first: int, second: int) -> int:
        """sum over rounds of X_first X_second (units 1 / (d_first d_second))."""
        i, j = min(first, second), max(first, second)
        size = len(self.denominators)
        return self.products[i * size - i * (i - 1) // 2 + (j - i)]

    @property
    def trips(self) -> int:
        """Finished trips."""
        return sum(count for _, count in self.trip_minimums)

    def ruined_trips(self, bankroll_units: int) -> int:
        """Finished trips whose combined result fell to ``-bankroll`` or below.

        *bankroll_units* is in units of ``1 / combined_denominator``.
        """
        return sum(count for low, count in self.trip_minimums if low <= -bankroll_units)

    def merged(self, other: RiskTally) -> RiskTally:
        """The sums of both (disjoint sets of shoes); trips split between them are joined."""
        minimums, still_open = _joined_trips(
            self.trip_shoes,
            self.trip_minimums,
            other.trip_minimums,
            self.open_segments + other.open_segments,
        )
        return RiskTally(
            self.denominators,
            self.trip_shoes,
            tuple(a.merged(b) for a, b in zip(self.bets, other.bets, strict=True)),
            self.combined_realized.merged(other.combined_realized),
            self.combined_expected.merged(other.combined_expected),
            self.combined.merged(other.combined),
            tuple(a + b for a, b in zip(self.products, other.products, strict=True)),
            minimums,
            still_open,
            tuple(a + b for a, b in zip(self.wagered, other.wagered, strict=True)),
            self.growth + other.growth,
            _merge_series(self.exact_squares, other.exact_squares),
            _merge_flat(self.flat, other.flat),
            _merge_outcomes(self.shoe_outcomes, other.shoe_outcomes),
            _merge_grid(self.grid_trips, other.grid_trips),
            _merge_trip_results(self.trip_results, other.trip_results),
        )

    def for_trip(self, shoes: int) -> RiskTally:
        """This tally with the simulated trips of *shoes* shoes as its own (a risk grid's cell):
        equal to the tally of a run whose trips are that long.

        >>> tally = RiskTally.empty([1], trip_shoes=2, grid_trip_shoes=(5,))
        >>> tally.for_trip(5).trip_shoes, tally.for_trip(2) is tally
        (5, True)
        >>> tally.for_trip(3)
        Traceback (most recent call last):
        ...
        KeyError: 'no simulated trips of 3 shoes in the risk sums'
        """
        if shoes == self.trip_shoes:
            return self
        for trips in self.grid_trips:
            if trips.shoes == shoes:
                return dataclasses.replace(
                    self,
                    trip_shoes=shoes,
                    trip_minimums=trips.minimums,
                    open_segments=trips.open_segments,
                    grid_trips=(),
                )
        raise KeyError(f"no simulated trips of {shoes} shoes in the risk sums")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data (checkpoints); :meth:`from_dict` reads it back.

        >>> tally = RiskTally.empty([20])
        >>> RiskTally.from_dict(tally.to_dict()) == tally
        True
        """
        return (
            {
                "version": RECORD_VERSION,
                "denominators": list(self.denominators),
                "trip_shoes": self.trip_shoes,
                "bets": [moments.as_list() for moments in self.bets],
                "combined_realized": _sums_list(self.combined_realized),
                "combined_expected": _sums_list(self.combined_expected),
                "combined": self.combined.as_list(),
                "products": list(self.products),
                "trip_minimums": [list(pair) for pair in self.trip_minimums],
                "open_segments": [
                    [s.trip, s.first_shoe, s.shoes, s.total, s.minimum] for s in self.open_segments
                ],
                "wagered": list(self.wagered),
                "growth": self.growth,
                "exact_squares": [moments.as_list() for moments in self.exact_squares],
                "flat": None if self.flat is None else self.flat.to_dict(),
                # Exact since record 1's "shoe_outcomes" (bins of the table minimum, rounded),
                # which a checkpoint of that time still holds and is not read back.
                "shoe_results": [list(entry) for entry in self.shoe_outcomes],
            }
            | (
                {"grid_trips": [trips.to_dict() for trips in self.grid_trips]}
                if self.grid_trips
                else {}
            )
            | (
                {"trip_results": self.trip_results.to_dict()}
                if self.trip_results is not None
                else {}
            )
        )

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RiskTally:
        """A risk tally from :meth:`to_dict` data (raises KeyError/TypeError/ValueError)."""
        if data.get("version") != RECORD_VERSION:
            raise ValueError(f"risk sums of record version {data.get('version')!r}")
        return cls(
            tuple(_whole(value) for value in data["denominators"]),
            _whole(data["trip_shoes"]),
            tuple(SeriesMoments.from_list(values) for values in data["bets"]),
            Sums(*(_whole(value) for value in data["combined_realized"])),
            Sums(*(_whole(value) for value in data["combined_expected"])),
            SeriesMoments.from_list(data["combined"]),
            tuple(_whole(value) for value in data["products"]),
            tuple((_whole(low), _whole(count)) for low, count in data["trip_minimums"]),
            tuple(Segment(*(_whole(value) for value in entry)) for entry in data["open_segments"]),
            tuple(_whole(value) for value in data["wagered"]),
            _whole(data["growth"]),
            tuple(SeriesMoments.from_list(values) for values in data["exact_squares"]),
            None if data["flat"] is None else cls.from_dict(data["flat"]),
            tuple(
                (_whole(total), _whole(low), _whole(count))
                for total, low, count in data.get("shoe_results", [])
            ),
            tuple(TripTally.from_dict(entry) for entry in data.get("grid_trips", [])),
            (
                TripResults.from_dict(data["trip_results"])
                if data.get("trip_results") is not None
                else None
            ),
        )


def _merge_outcomes(
    first: tuple[tuple[int, int, int], ...], second: tuple[tuple[int, int, int], ...]
) -> tuple[tuple[int, int, int], ...]:
    merged: dict[tuple[int, int], int] = {(total, low): count for total, low, count in first}
    for total, low, count in second:
        merged[total, low] = merged.get((total, low), 0) + count
    return tuple((total, low, count) for (total, low), count in sorted(merged.items()))


def shoe_outcomes(totals: list[int], lows: list[int]) -> tuple[tuple[int, int, int], ...]:
    """Each shoe's (total, lowest), exactly, counted and sorted as
    :attr:`RiskTally.shoe_outcomes` holds them:

    >>> shoe_outcomes([5, -3, 5], [-2, -4, -2])
    ((-3, -4, 1), (5, -2, 2))
    """
    return _merge_outcomes(
        (), tuple((total, low, 1) for total, low in zip(totals, lows, strict=True))
    )


def _merge_trip_results(
    first: TripResults | None, second: TripResults | None
) -> TripResults | None:
    if first is None or second is None:
        return first or second
    return first.merged(second)


def _merge_flat(first: RiskTally | None, second: RiskTally | None) -> RiskTally | None:
    if first is None or second is None:
        return first or second
    return first.merged(second)


def _merge_series(
    first: tuple[SeriesMoments, ...], second: tuple[SeriesMoments, ...]
) -> tuple[SeriesMoments, ...]:
    if not first or not second:
        return first or second
    return tuple(a.merged(b) for a, b in zip(first, second, strict=True))


def _sums_list(sums: Sums) -> list[int]:
    return [sums.total, sums.squares, sums.cross]


def _products(results: IntArray) -> tuple[int, ...]:
    """sum over rows of results[:, i] * results[:, j] for i <= j, exactly."""
    width = results.shape[1]
    largest = int(np.abs(results).max()) if results.size else 0
    if largest * largest * max(len(results), 1) < 2**52:
        # Every partial sum is an integer below 2**53: float64 is exact here, in any order.
        # einsum, not BLAS (``@``): OpenBLAS's threads on a busy machine cost up to 100x.
        as_float = results.astype(np.float64)
        gram = np.rint(np.einsum("ri,rj->ij", as_float, as_float)).astype(np.int64).tolist()
    else:
        rows = results.astype(object)
        gram = (rows.T @ rows).tolist()
    return tuple(int(gram[i][j]) for i in range(width) for j in range(i, width))


def _exact_enough(
    results: IntArray, expected: IntArray, scale: int
) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
    """*results* and *expected*, as Python integers where int64 could overflow below.

    The largest int64 value computed from *results* is a sum over rows of a squared combined
    result, at most rows x (largest x *scale*)**2; from *expected*, a sum over all its cells.
    """
    rows = max(len(results), 1)
    if results.dtype != object and results.size:
        largest = int(np.abs(results).max()) * max(scale, 1)
        if largest * largest * rows >= 2**62:
            results = results.astype(object)
    if (
        expected.dtype != object
        and expected.size
        and int(np.abs(expected).max()) * expected.size >= 2**62
    ):
        expected = expected.astype(object)
    return results, expected


def block_risk_tally(
    denominators: Sequence[int],
    trip_shoes: int,
    first_shoe: int,
    results: IntArray,
    expected: IntArray,
    rounds_per_shoe: Sequence[int],
    wagered: Sequence[int] = (),
    growth: int = 0,
    exact_squares: IntArray | None = None,
    grid_trip_shoes: Sequence[int] = (),
    turnover: tuple[Sequence[int], Sequence[int]] | None = None,
) -> RiskTally:
    """The risk tally of one block of shoes from its per-round results.

    *results*: rounds x bets, each round's result of each bet (0 when not made) in
    units of the bet's pay denominator; *expected*: the exact EVs of the bets made in
    units of 2**-40; *rounds_per_shoe*: the block's shoes' rounds, in order; *exact_squares*
    (optional): stake**2 x the exact E[X**2] per unit of the bets made, in 2**-MOMENT_BITS;
    *grid_trip_shoes*: more trip lengths to chain the same shoes into (a risk grid);
    *turnover* (for a rebate): each shoe's units rolled (staked on rounds that won or lost)
    and units staked, in order, kept per trip with the trip's result (``trip_results``).

    >>> results = np.array([[20, -1], [-20, 8], [19, -1]])
    >>> tally = block_risk_tally([20, 1], 1, 0, results, np.zeros((3, 2), np.int64), [2, 1])
    >>> tally.product(0, 1), tally.bets[0].squares.total, tally.trip_minimums
    (-199, 1161, ((-1, 1), (0, 1)))
    """
    starts = np.concatenate(([0], np.cumsum(rounds_per_shoe)[:-1])).astype(np.int64)
    empty = RiskTally.empty(denominators, trip_shoes)
    scale = np.array([empty.combined_denominator // d for d in denominators], dtype=np.int64)
    results, expected = _exact_enough(results, expected, int(scale.sum()))
    bets = []
    for column in range(results.shape[1]):
        squares = np.add.reduceat(results[:, column] * results[:, column], starts).tolist()
        bets.append(
            SeriesMoments.of(
                squares,
                np.add.reduceat(results[:, column], starts).tolist(),
                np.add.reduceat(expected[:, column], starts).tolist(),
                rounds_per_shoe,
            )
        )
    exact = []
    if exact_squares is not None:
        for column in range(results.shape[1]):
            exact.append(
                SeriesMoments.of(
                    np.add.reduceat(exact_squares[:, column], starts).tolist(),
                    np.add.reduceat(results[:, column], starts).tolist(),
                    np.add.reduceat(expected[:, column], starts).tolist(),
                    rounds_per_shoe,
                )
            )
    combined = results @ scale
    combined_realized = np.add.reduceat(combined, starts).tolist()
    combined_expected = np.add.reduceat(expected.sum(axis=1), starts).tolist()
    combined_squares = np.add.reduceat(combined * combined, starts).tolist()
    cumulative = np.cumsum(combined)
    running = cumulative - np.repeat((cumulative - combined)[starts], rounds_per_shoe)
    lowest = np.minimum(np.minimum.reduceat(running, starts), 0).tolist()
    segments = [
        Segment((first_shoe + shoe) // trip_shoes, first_shoe + shoe, 1, total, low)
        for shoe, (total, low) in enumerate(zip(combined_realized, lowest, strict=True))
    ]
    return empty.merged(
        RiskTally(
            empty.denominators,
            trip_shoes,
            tuple(bets),
            Sums.of(combined_realized, rounds_per_shoe),
            Sums.of(combined_expected, rounds_per_shoe),
            SeriesMoments.of(
                combined_squares, combined_realized, combined_expected, rounds_per_shoe
            ),
            _products(results),
            (),
            tuple(segments),
            tuple(wagered) if wagered else (0,) * len(denominators),
            growth,
            tuple(exact),
            shoe_outcomes=shoe_outcomes(combined_realized, lowest),
            grid_trips=tuple(
                TripTally.of_shoes(shoes, first_shoe, combined_realized, lowest)
                for shoes in grid_trip_shoes
            ),
            trip_results=(
                None
                if turnover is None
                else TripResults.of_shoes(trip_shoes, first_shoe, combined_realized, *turnover)
            ),
        )
    )
