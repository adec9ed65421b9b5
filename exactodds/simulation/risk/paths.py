"""Bankroll paths over trips, and the risk of ruin against the bankroll: the fan chart's data.

A :class:`PathTally` counts, for each shoe of a trip (``trip_shoes`` shoes, the trips of
:class:`~exactodds.simulation.risk.tally.RiskTally`), where the combined result of every bet
made stood at the end of that shoe, counted from the trip's start: a histogram per shoe in
bins of ``width`` (the table minimum, in units of ``1 / combined_denominator``), the
cumulative result rounded to the nearest bin (halves up).  Its memory is bounded by the bins
the results reach, not by the trips; the counts are exact integers, so tallies of disjoint
shoes add exactly (a trip split between two blocks, shards or jobs is joined when both
parts are there, from the exact per-shoe totals it keeps until then), and a quantile is read
off the histogram exactly: the lowest bin whose cumulative count reaches ``q x trips``
(numpy's ``inverted_cdf``).  The paths are not stopped at ruin: they show where the bankroll
would stand had play gone on (the share that ruined is the risk of ruin).

:func:`risk_curve` gives the risk of ruin of a trip (the dynamic programme of
:mod:`~exactodds.simulation.risk.ruin`, with its delta-method standard error) and of unlimited
play (Cramer-Lundberg) at a range of bankrolls: floats, estimates.

>>> tally = PathTally.of_block(2, 10, 0, [10, -30, 4, 6])  # two trips of two shoes
>>> tally.steps  # after shoe 1: +1 and 0 bins; after shoe 2: -2 and +1 bins
(((0, 1), (1, 1)), ((-2, 1), (1, 1)))
>>> tally.quantile(1, Fraction(1, 2)), tally.trips
(-2, 2)
>>> PathTally.of_block(2, 10, 1, [5]).merged(PathTally.of_block(2, 10, 0, [5])).steps
(((1, 1),), ((1, 1),))
>>> PathTally.of_block(0, 10, 0, [5])
Traceback (most recent call last):
...
ValueError: trip_shoes 0 is not valid; a trip holds at least 1 shoe.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from exactodds.errors import SimulationError
from exactodds.simulation.risk.sums import merge_counts, summable
from exactodds.simulation.risk.tally import joined_parts

__all__ = [
    "PATH_QUANTILES",
    "PathTally",
    "TripPiece",
    "block_path_tally",
    "path_figures",
    "risk_curve",
]

#: The record version of :meth:`PathTally.to_dict` (the ``paths`` key of a checkpoint's tally).
RECORD_VERSION = 1
#: The quantiles the fan chart shows, with their JSON names: its 90% and 50% bands and median.
PATH_QUANTILES = (
    ("p05", Fraction(5, 100)),
    ("p25", Fraction(25, 100)),
    ("median", Fraction(1, 2)),
    ("p75", Fraction(75, 100)),
    ("p95", Fraction(95, 100)),
)
#: The risk curve's bankrolls: multiples of the asked one, in fifths (0.2x .. 4x).
CURVE_FIFTHS = 20
#: The curve stops past the asked bankroll once the trip's risk is below this.
CURVE_FLOOR = 0.001

Histogram = tuple[tuple[int, int], ...]


@dataclass(frozen=True, order=True)
class TripPiece:
    """Consecutive shoes of a trip not yet finished, with each shoe's exact combined total.

    >>> TripPiece(0, 0, (3,)).joined(TripPiece(0, 1, (-1, 2)))
    TripPiece(trip=0, first_shoe=0, totals=(3, -1, 2))
    """

    trip: int
    first_shoe: int
    totals: tuple[int, ...]

    @property
    def shoes(self) -> int:
        """The piece's shoes."""
        return len(self.totals)

    def joined(self, later: TripPiece) -> TripPiece:
        """This piece followed by *later* (the next shoes of the same trip)."""
        return TripPiece(self.trip, self.first_shoe, self.totals + later.totals)


def _whole(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("not a whole number")
    return value


def _require(condition: bool, problem: str) -> None:
    if not condition:
        raise ValueError(problem)


def _binned(total: int, width: int) -> int:
    """*total* in bins of *width*, to the nearest bin (halves up)."""
    return (2 * total + width) // (2 * width)


def _finished(steps: list[Counter[int]], totals: Sequence[int], width: int) -> None:
    running = 0
    for step, total in enumerate(totals):
        running += total
        steps[step][_binned(running, width)] += 1


def _histograms(steps: list[Counter[int]]) -> tuple[Histogram, ...]:
    return tuple(tuple(sorted(counts.items())) for counts in steps)


@dataclass(frozen=True)
class PathTally:
    """Where the combined result stood after each shoe of the finished trips (module docs)."""

    trip_shoes: int
    #: The bins, in units of ``1 / combined_denominator`` (the table minimum).
    width: int
    #: Per shoe of the trip (the first shoe first): (bin, trips) pairs, sorted by bin.
    steps: tuple[Histogram, ...]
    open_pieces: tuple[TripPiece, ...] = ()

    def __post_init__(self) -> None:
        if isinstance(self.trip_shoes, bool) or self.trip_shoes < 1:
            raise ValueError(
                f"trip_shoes {self.trip_shoes} is not valid; a trip holds at least 1 shoe."
            )
        if self.width < 1:
            raise ValueError(f"width {self.width} is not valid; bins are at least 1 wide.")
        if len(self.steps) != self.trip_shoes:
            raise ValueError(
                f"{len(self.steps)} histograms for trips of {self.trip_shoes} shoes; one a shoe."
            )

    @classmethod
    def empty(cls, trip_shoes: int, width: int) -> PathTally:
        """The path tally of no shoe."""
        return cls(trip_shoes, width, ((),) * max(trip_shoes, 0))

    @classmethod
    def of_block(
        cls, trip_shoes: int, width: int, first_shoe: int, totals: Sequence[int]
    ) -> PathTally:
        """The tally of consecutive shoes from *first_shoe*, each shoe's combined *totals*.

        The trips wholly inside are binned at once (numpy, Python integers where int64 could
        overflow); the shoes of a trip cut by either end of the block stay open.
        """
        empty = cls.empty(trip_shoes, width)
        count = len(totals)
        head = min((-first_shoe) % trip_shoes, count)
        full = (count - head) // trip_shoes
        tail = head + full * trip_shoes
        pieces = [
            TripPiece((first_shoe + start) // trip_shoes, first_shoe + start, tuple(part))
            for start, part in ((0, totals[:head]), (tail, totals[tail:]))
            if part
        ]
        steps: list[Counter[int]] = [Counter() for _ in range(trip_shoes)]
        if full:
            largest = max(max(totals[head:tail]), -min(totals[head:tail]))
            kind: Any = np.int64 if (largest * trip_shoes + width) * 2 < 2**62 else object
            trips = np.array(totals[head:tail], dtype=kind).reshape(full, trip_shoes)
            bins = (2 * np.cumsum(trips, axis=1) + width) // (2 * width)
            for step in range(trip_shoes):
                values, counts = np.unique(bins[:, step], return_counts=True)
                steps[step].update(dict(zip(values.tolist(), counts.tolist(), strict=True)))
        return empty._with_pieces(pieces, steps)

    def _with_pieces(self, pieces: list[TripPiece], steps: list[Counter[int]]) -> PathTally:
        """Finish the complete *pieces* into *steps*; keep the others open."""
        still_open = []
        for piece in pieces:
            if len(piece.totals) == self.trip_shoes:
                _finished(steps, piece.totals, self.width)
            else:
                still_open.append(piece)
        return PathTally(self.trip_shoes, self.width, _histograms(steps), tuple(sorted(still_open)))

    @property
    def trips(self) -> int:
        """Finished trips."""
        return sum(count for _, count in self.steps[0])

    def merged(self, other: PathTally) -> PathTally:
        """The tally of both (disjoint sets of shoes); trips split between them are joined."""
        if (self.trip_shoes, self.width) != (other.trip_shoes, other.width):
            raise ValueError("path tallies of other trips or bins do not merge")
        pieces = joined_parts(self.open_pieces + other.open_pieces)
        steps = [
            Counter(dict(merge_counts(mine, theirs)))
            for mine, theirs in zip(self.steps, other.steps, strict=True)
        ]
        return self._with_pieces(pieces, steps)

    def quantile(self, step: int, share: Fraction) -> int:
        """The bin of quantile *share* after shoe ``step + 1``: the lowest bin whose
        cumulative count reaches ``share x trips`` (exact; numpy's ``inverted_cdf``)."""
        histogram = self.steps[step]
        trips = sum(count for _, count in histogram)
        if trips == 0:
            raise SimulationError("No trip is finished; bankroll paths need whole trips.")
        seen = 0
        for value, count in histogram:
            seen += count
            if seen >= share * trips:
                return value
        return histogram[-1][0]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data (checkpoints); :meth:`from_dict` reads it back.

        >>> tally = PathTally.of_block(3, 20, 0, [40, -20])
        >>> PathTally.from_dict(tally.to_dict()) == tally
        True
        """
        return {
            "version": RECORD_VERSION,
            "trip_shoes": self.trip_shoes,
            "width": self.width,
            "steps": [[list(pair) for pair in step] for step in self.steps],
            "open_pieces": [
                [piece.trip, piece.first_shoe, list(piece.totals)] for piece in self.open_pieces
            ],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PathTally:
        """A path tally from :meth:`to_dict` data, refused (ValueError, TypeError or KeyError)
        unless every histogram is sorted, of counts of at least 1, over the same trips.

        >>> PathTally.from_dict({"version": 1, "trip_shoes": 1, "width": 1,
        ...                      "steps": [[[0, 0]]], "open_pieces": []})
        Traceback (most recent call last):
        ...
        ValueError: a bankroll path histogram holds a count below 1
        """
        _require(data.get("version") == RECORD_VERSION, "bankroll paths of another version")
        trip_shoes, width = _whole(data["trip_shoes"]), _whole(data["width"])
        _require(len(data["steps"]) == trip_shoes, "one bankroll path histogram per shoe")
        steps = tuple(
            tuple((_whole(value), _whole(count)) for value, count in step) for step in data["steps"]
        )
        for step in steps:
            values = [value for value, _ in step]
            _require(values == sorted(set(values)), "a bankroll path histogram misorders bins")
            _require(
                all(count > 0 for _, count in step),
                "a bankroll path histogram holds a count below 1",
            )
        _require(
            len({sum(count for _, count in step) for step in steps}) <= 1,
            "bankroll path histograms of different trips",
        )
        pieces = tuple(
            TripPiece(_whole(trip), _whole(first), tuple(_whole(total) for total in totals))
            for trip, first, totals in data["open_pieces"]
        )
        for piece in pieces:
            _require(
                0 < len(piece.totals) < trip_shoes
                and piece.first_shoe >= 0
                and piece.first_shoe // trip_shoes == piece.trip
                and (piece.first_shoe + len(piece.totals) - 1) // trip_shoes == piece.trip,
                "an open trip outside its trip",
            )
        return cls(trip_shoes, width, steps, tuple(sorted(pieces)))

    def check(self, shoes: int, trip_shoes: int, width: int, first: int = 0) -> None:
        """Raise ValueError unless this is the tally of shoes ``first .. first + shoes - 1``
        (a checkpoint's first shoes, or a block it kept): the trips wholly inside finished,
        the trips cut by either end open, as :meth:`of_block` leaves them.

        >>> PathTally.of_block(3, 20, 4, [40, -20, 20, 0]).check(4, 3, 20, first=4)
        >>> PathTally.of_block(3, 20, 4, [40, -20, 20, 0]).check(4, 3, 20)
        Traceback (most recent call last):
        ...
        ValueError: the paths' finished trips
        """
        _require((self.trip_shoes, self.width) == (trip_shoes, width), "the paths' trips or bins")
        head = min((-first) % trip_shoes, shoes)
        full = (shoes - head) // trip_shoes
        tail = head + full * trip_shoes
        _require(self.trips == full, "the paths' finished trips")
        expected = [(first // trip_shoes, first, head)] if head else []
        if shoes > tail:
            expected.append(((first + tail) // trip_shoes, first + tail, shoes - tail))
        found = [(piece.trip, piece.first_shoe, len(piece.totals)) for piece in self.open_pieces]
        _require(found == expected, "the paths' open trip")


def block_path_tally(
    denominators: Sequence[int],
    trip_shoes: int,
    table_minimum: int,
    first_shoe: int,
    results: npt.NDArray[Any],
    rounds_per_shoe: Sequence[int],
) -> PathTally:
    """The path tally of a block: *results* rounds x bets in units of each bet's pay
    denominator (as :func:`~exactodds.simulation.risk.tally.block_risk_tally` takes them).

    >>> block_path_tally([20, 1], 1, 1, 0, np.array([[20, -1], [-20, 8], [19, -1]]), [2, 1]).steps
    (((0, 1), (7, 1)),)
    """
    combined = math.lcm(*denominators) if denominators else 1
    scales = [combined // denominator for denominator in denominators]
    starts = np.concatenate(([0], np.cumsum(rounds_per_shoe)[:-1])).astype(np.int64)
    if not len(results):
        return PathTally.of_block(trip_shoes, combined * table_minimum, first_shoe, [])
    per_shoe = np.add.reduceat(summable(results), starts, axis=0)
    weights = np.array(scales, dtype=per_shoe.dtype)
    if per_shoe.dtype != object and int(np.abs(per_shoe).max()) * sum(scales) >= 2**62:
        per_shoe, weights = per_shoe.astype(object), weights.astype(object)
    totals = (per_shoe @ weights).tolist()
    return PathTally.of_block(trip_shoes, combined * table_minimum, first_shoe, totals)


def path_figures(paths: PathTally, bankroll: Fraction, bin_units: int) -> dict[str, Any]:
    """``risk_of_ruin.paths``: the bankroll's quantiles at the start and after each shoe of
    the trip, in units (the bankroll plus the binned cumulative result; floats for JSON)."""
    steps: list[dict[str, Any]] = [
        {"shoes": 0} | {name: float(bankroll) for name, _ in PATH_QUANTILES}
    ]
    for step in range(paths.trip_shoes):
        steps.append(
            {"shoes": step + 1}
            | {
                name: float(bankroll + paths.quantile(step, share) * bin_units)
                for name, share in PATH_QUANTILES
            }
        )
    return {
        "method": "simulated trips, each shoe's end; quantiles exact over bins of the table "
        "minimum (the cumulative result rounded to the nearest bin), paths not stopped at ruin",
        "bin_units": bin_units,
        "trips": paths.trips,
        "steps": steps,
    }


def _curve_levels(asked: int) -> list[int]:
    return sorted({max(1, math.ceil(asked * fifth / 5)) for fifth in range(1, CURVE_FIFTHS + 1)})


def risk_curve(
    outcomes: Sequence[tuple[int, int, int]],
    bankroll: Fraction,
    trip_shoes: int,
    denominator: int,
) -> dict[str, Any]:
    """``risk_of_ruin.curve``: the risk of ruin at bankrolls from 0.2x to 4x *bankroll*
    (stopping past it where a trip's risk is below 0.1%), by the methods of
    ``risk_of_ruin.estimate``; the asked bankroll's point is that estimate.  *outcomes* are
    in units of 1 / *denominator* (the combined result's).

    >>> curve = risk_curve(((-1, -1, 1), (2, 0, 1)), Fraction(2), 3, 1)
    >>> [(point["bankroll"], round(point["trip"]["mean"], 4)) for point in curve["points"]][:3]
    [(1.0, 0.5), (2.0, 0.25), (3.0, 0.125)]
    >>> risk_curve((), Fraction(2), 1, 1)
    Traceback (most recent call last):
    ...
    exactodds.errors.SimulationError: outcomes holds no shoe; a risk of ruin needs shoes dealt.
    """
    from exactodds.simulation.risk.ruin import TRIP_METHOD, lundberg_ruin, trip_ruin_at

    asked = max(math.ceil(bankroll * denominator), 1)
    unit = Fraction(1, denominator)
    dealt = sum(count for *_, count in outcomes)
    if dealt == 0:
        raise SimulationError("outcomes holds no shoe; a risk of ruin needs shoes dealt.")
    points: list[dict[str, Any]] = []
    note = None
    try:
        unlimited = lundberg_ruin(outcomes, 1)
    except SimulationError as error:  # the trip's programme below says the same
        unlimited, note = None, str(error)
    coefficient = unlimited[1] if unlimited is not None else None
    levels = _curve_levels(asked)
    try:
        risks = trip_ruin_at(outcomes, levels, trip_shoes)
    except SimulationError as error:
        risks, note = [], str(error)
    for level, risk in zip(levels, risks, strict=False):
        points.append(
            {
                "bankroll": float(bankroll) if level == asked else float(level * unit),
                "asked": level == asked,
                "trip": risk.to_dict(unit, dealt),
                "unlimited": _lundberg_at(coefficient, level),
            }
        )
        if level > asked and risk.mean < CURVE_FLOOR:
            break
    return {
        "method": {
            "trip": TRIP_METHOD + " (float estimate, delta-method standard error)",
            "unlimited": "Cramer-Lundberg, measured per-shoe results (float estimate)",
        },
        "points": points,
        "note": note,
    }


def _lundberg_at(coefficient: float | None, bins: int) -> float | None:
    if coefficient is None:
        return None
    if math.isinf(coefficient):
        return 0.0
    return math.exp(-coefficient * bins)
