"""A rebate over simulated trips: each trip's result and turnover, and the figures they give.

A rebate programme settles at the end of a trip: a rolling rebate pays a share of the
trip's turnover, a loss rebate a share of the trip's net loss (nothing when it wins).
So a trip's result with the rebate is ``X + r x T + s x max(0, -X)``, *X* the trip's
combined result and *T* its turnover: the units staked on rounds that won or lost (a push
is not turnover, the dead-chip convention), or every unit staked when the rolling rebate
counts pushes.

:class:`TripResults` keeps, exactly, each finished trip's ``(X, rolled, staked)`` counted,
and the parts of trips split between blocks (joined by the trip tallies' one joiner,
:func:`~exactodds.simulation.risk.tally.joined_parts`).  :func:`trip_rebate_figures` draws
from it the trips' result distribution with and without the rebate (mean with its standard
error, quantiles), the effective EV per unit staked, and how many trips end down the
bankroll or more.

Paid at the trip's end, neither rebate moves a trip's path before it, so the risk of ruin
*within* a trip (its lowest point, what the ruin programme prices) is the one without the
rebate; what the rebate changes is where the trip ends, and that is simulated.

>>> results = TripResults.of_shoes(1, 0, [-40, 20, 0], [4, 2, 0], [4, 2, 1])
>>> figures = trip_rebate_figures(results, 20, Rebate(rolling="1%", loss="10%"))
>>> figures.trips, figures.mean_rebate
(3, Fraction(13, 150))
>>> [str(value) for value in figures.with_rebate.quantiles]
['-44/25', '-44/25', '-44/25', '0', '51/50', '51/50', '51/50']
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from exactodds.numbers import fraction_string
from exactodds.rules import Rebate
from exactodds.simulation.risk.tally import TripResults

__all__ = [
    "QUANTILE_LEVELS",
    "TripDistribution",
    "TripRebateFigures",
    "trip_rebate_figures",
]

#: The quantiles of a trip's result that the figures give.
QUANTILE_LEVELS = (
    Fraction(1, 100),
    Fraction(5, 100),
    Fraction(25, 100),
    Fraction(1, 2),
    Fraction(75, 100),
    Fraction(95, 100),
    Fraction(99, 100),
)


def _exact(name: str, value: Fraction) -> dict[str, Any]:
    """An exact figure for JSON: ``"n/d"`` and its float beside it."""
    return {name: fraction_string(value), f"{name}_decimal": float(value)}


@dataclass(frozen=True)
class TripDistribution:
    """The simulated distribution of a trip's result in units: its mean (exact over the trips
    simulated) with the mean's standard error, the :data:`QUANTILE_LEVELS` quantiles (the
    lowest result with at least that share of trips at or below it), and the trips that end
    down the bankroll or more (None without a bankroll).

    >>> TripDistribution.of({Fraction(-1): 1, Fraction(3): 1}).mean
    Fraction(1, 1)
    """

    mean: Fraction
    stderr: float
    quantiles: tuple[Fraction, ...]
    trips: int
    ending_down_bankroll: int | None = None

    @classmethod
    def of(
        cls, results: Mapping[Fraction, int], bankroll: Fraction | None = None
    ) -> TripDistribution:
        """The distribution of *results* (a trip's result -> trips), at least one trip."""
        trips = sum(results.values())
        mean = sum((value * count for value, count in results.items()), Fraction(0)) / trips
        spread = sum(float(value - mean) ** 2 * count for value, count in results.items())
        stderr = math.sqrt(spread / (trips - 1) / trips) if trips > 1 else math.nan
        ordered = sorted(results.items())
        quantiles = []
        for level in QUANTILE_LEVELS:
            cumulative = 0
            for value, count in ordered:
                cumulative += count
                if cumulative >= level * trips:
                    quantiles.append(value)
                    break
        down = (
            None
            if bankroll is None
            else sum(count for value, count in results.items() if value <= -bankroll)
        )
        return cls(mean, stderr, tuple(quantiles), trips, down)

    @property
    def share_down_bankroll(self) -> tuple[float, float] | None:
        """The share of trips ending down the bankroll or more, with its standard error."""
        if self.ending_down_bankroll is None:
            return None
        share = self.ending_down_bankroll / self.trips
        return share, math.sqrt(share * (1 - share) / self.trips)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: exact figures as ``"n/d"`` strings beside their floats."""
        data: dict[str, Any] = {
            "trips": self.trips,
            **_exact("mean", self.mean),
            "mean_stderr": None if math.isnan(self.stderr) else self.stderr,
            "quantiles": {
                f"{float(level * 100):g}%": fraction_string(value)
                for level, value in zip(QUANTILE_LEVELS, self.quantiles, strict=True)
            },
        }
        shares = self.share_down_bankroll
        if shares is not None:
            data["ending_down_bankroll"] = {
                "trips": self.ending_down_bankroll,
                "share": shares[0],
                "stderr": shares[1],
            }
        return data


@dataclass(frozen=True)
class TripRebateFigures:
    """A rebate over the simulated trips (:func:`trip_rebate_figures`), in units per trip.

    ``effective_ev`` is the trips' result with the rebate over the units they staked (a ratio
    estimate), with its delta-method standard error over trips.
    """

    rebate: Rebate
    trip_shoes: int
    trips: int
    without_rebate: TripDistribution
    with_rebate: TripDistribution
    mean_rolled: Fraction
    mean_staked: Fraction
    mean_rolling_rebate: Fraction
    mean_loss_rebate: Fraction
    effective_ev: Fraction
    effective_ev_stderr: float

    @property
    def mean_rebate(self) -> Fraction:
        """The rebate paid per trip, both kinds."""
        return self.mean_rolling_rebate + self.mean_loss_rebate

    def to_dict(self) -> dict[str, Any]:
        """The ``rebate`` object of ``simulate``'s JSON."""
        return {
            "shares": self.rebate.to_dict(),
            "paid": "at the end of each trip",
            "trip_shoes": self.trip_shoes,
            "trips": self.trips,
            **_exact(
                "turnover_per_trip",
                self.mean_staked if self.rebate.rolling_counts_pushes else self.mean_rolled,
            ),
            **_exact("staked_per_trip", self.mean_staked),
            **_exact("rolling_rebate_per_trip", self.mean_rolling_rebate),
            **_exact("loss_rebate_per_trip", self.mean_loss_rebate),
            "effective_ev_per_unit_staked": {
                "mean": float(self.effective_ev),
                "stderr": self.effective_ev_stderr,
            },
            "without_rebate": self.without_rebate.to_dict(),
            "with_rebate": self.with_rebate.to_dict(),
        }


def trip_rebate_figures(
    results: TripResults,
    denominator: int,
    rebate: Rebate,
    bankroll: Fraction | None = None,
) -> TripRebateFigures | None:
    """The figures of *rebate* over the finished trips of *results* (None: no finished trip).

    *denominator* is the combined result's unit (``1 / denominator``); *bankroll*, in units,
    counts the trips ending down that much or more.

    >>> two = TripResults.of_shoes(1, 0, [-60, 20], [3, 1], [3, 2])
    >>> figures = trip_rebate_figures(two, 20, Rebate(loss="10%"), bankroll=Fraction(3))
    >>> figures.with_rebate.mean, figures.effective_ev, figures.with_rebate.ending_down_bankroll
    (Fraction(-17, 20), Fraction(-17, 50), 0)
    >>> trip_rebate_figures(TripResults(2), 20, Rebate(loss="10%")) is None
    True
    """
    trips = results.trips
    if trips == 0:
        return None
    without: dict[Fraction, int] = {}
    with_rebate: dict[Fraction, int] = {}
    rolled_total = staked_total = 0
    rolling_paid = loss_paid = Fraction(0)
    for total, rolled, staked, count in results.finished:
        result = Fraction(total, denominator)
        turnover = staked if rebate.rolling_counts_pushes else rolled
        rolling = rebate.rolling * turnover
        loss = rebate.loss * max(Fraction(0), -result)
        without[result] = without.get(result, 0) + count
        with_rebate[result + rolling + loss] = with_rebate.get(result + rolling + loss, 0) + count
        rolled_total += rolled * count
        staked_total += staked * count
        rolling_paid += rolling * count
        loss_paid += loss * count
    effective, stderr = _ratio(results, denominator, rebate)
    return TripRebateFigures(
        rebate,
        results.shoes,
        trips,
        TripDistribution.of(without, bankroll),
        TripDistribution.of(with_rebate, bankroll),
        Fraction(rolled_total, trips),
        Fraction(staked_total, trips),
        rolling_paid / trips,
        loss_paid / trips,
        effective,
        stderr,
    )


def _ratio(results: TripResults, denominator: int, rebate: Rebate) -> tuple[Fraction, float]:
    """sum(Y) / sum(staked) over trips, Y a trip's result with the rebate, and its
    delta-method standard error ``sqrt(sum (Y - R staked)^2 / (n (n - 1))) / mean staked``."""
    trips = results.trips
    pairs = []
    for total, rolled, staked, count in results.finished:
        result = Fraction(total, denominator)
        turnover = staked if rebate.rolling_counts_pushes else rolled
        paid = rebate.rolling * turnover + rebate.loss * max(Fraction(0), -result)
        pairs.append((result + paid, staked, count))
    staked_total = sum(staked * count for _, staked, count in pairs)
    if staked_total == 0:
        return Fraction(0), math.nan
    ratio = sum((value * count for value, _, count in pairs), Fraction(0)) / staked_total
    if trips < 2:
        return ratio, math.nan
    spread = sum(float(value - ratio * staked) ** 2 * count for value, staked, count in pairs)
    return ratio, math.sqrt(spread / (trips * (trips - 1))) / (staked_total / trips)
