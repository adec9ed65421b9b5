"""The risk figures drawn from a tally: EV and SD per round, DI, SCORE, N0, covariance, ruin.

Every figure here is a float estimate from exact integer sums (the sums are exact; the
estimates and their errors are not).  Per bet and for the combined result of a round:

* ``ev_per_round``: the sum of the exact EVs of the bets made over the rounds dealt
  (the low-noise estimator of :mod:`~exactodds.simulation.tally`);
* ``sd_per_round``: sqrt(E[X**2] - EV**2), E[X**2] the mean of the realized squared
  results over rounds;
* ``di`` = 1000 EV / SD, ``score`` = DI**2, ``n0_rounds`` = (SD / EV)**2
  (:mod:`exactodds.analysis.risk`); SCORE is 0 and N0 is absent (``None``) when the EV
  is not positive.

Each comes with a delta-method standard error over shoes (shoes are independent:
the per-shoe sums of rounds, exact EV and squared results are the observations), and
its 95% interval.  Risk of ruin has two figures: ``formula`` (the diffusion formulas
of :mod:`exactodds.analysis.risk` on the estimated EV and SD) and ``simulated`` (the
share of the simulated trips, consecutive shoes chained together, whose combined
result fell to minus the bankroll), with its binomial standard error; the ``estimate``
(:mod:`~exactodds.simulation.risk.ruin`'s programme) comes first.  With a risk grid
(:class:`~exactodds.simulation.risk.questions.RiskGrid`), ``risk_of_ruin.grid`` holds the estimate
and the simulated frequency of every bankroll with every trip length, each as a run of that
one bankroll and trip length gives it.  The bankroll for a risk target has an ``estimate``
too: the programme's least bankroll, with the interval where its risk +- 2 standard errors
crosses the target.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol

from exactodds.analysis import risk as formulas
from exactodds.errors import SimulationError
from exactodds.simulation.risk.questions import RiskGrid, RiskQuestions
from exactodds.simulation.risk.ruin import TRIP_METHOD
from exactodds.simulation.risk.sums import EV_SCALE, Estimate, RoundCounts, Sums
from exactodds.simulation.risk.tally import RiskTally, SeriesMoments


class BetSums(Protocol):
    """What the covariance reads of a bet's tally: the sums of its exact EVs."""

    @property
    def expected(self) -> Sums:
        """The per-shoe sums of the exact EVs of the bets made (units of 2**-40)."""


class TallySums(RoundCounts, Protocol):
    """What the risk figures read of a simulation's tally
    (:class:`~exactodds.simulation.tally.Tally`): its shoes and rounds, and each bet's sums."""

    @property
    def bets(self) -> Sequence[BetSums]:
        """Each bet's sums, in the order simulated."""


def finite(value: float) -> float | None:
    """*value*, or None where there is no finite estimate (JSON has no NaN or infinity).

    >>> finite(0.5), finite(math.inf)
    (0.5, None)
    """
    return value if math.isfinite(value) else None


__all__ = [
    "BetSums",
    "RiskFigures",
    "SeriesFigures",
    "TallySums",
    "combined_covariance",
    "diffusion_warning",
    "finite",
    "ruin_figures",
    "series_figures",
    "series_growth",
]

Means = tuple[float, float, float]


def _figures(means: Means) -> dict[str, float]:
    expected, squares, rounds = means
    if rounds <= 0:
        return dict.fromkeys(("ev", "sd", "di", "score", "n0"), math.nan)
    ev = expected / rounds
    variance = squares / rounds - ev * ev
    sd = math.sqrt(variance) if variance > 0 else 0.0
    return {
        "ev": ev,
        "sd": sd,
        "di": formulas.di(ev, sd),
        "score": formulas.score(ev, sd),
        "n0": formulas.n0_rounds(ev, sd),
    }


def _covariance(
    sums: Sequence[Sequence[Fraction]], totals: Sequence[Fraction], shoes: int
) -> list[list[float]]:
    """The sample covariance of per-shoe values from their exact sums of products."""
    return [
        [
            float((sums[i][j] - totals[i] * totals[j] / shoes) / (shoes - 1))
            for j in range(len(totals))
        ]
        for i in range(len(totals))
    ]


def _delta(
    function: Callable[[Means], float], means: Means, covariance: list[list[float]], shoes: int
) -> float:
    """Delta-method standard error of function(means), central-difference gradient."""
    gradient = []
    for k in range(3):
        step = 1e-6 * max(abs(means[k]), 1e-12)
        high = list(means)
        low = list(means)
        high[k] += step
        low[k] -= step
        gradient.append(
            (function((high[0], high[1], high[2])) - function((low[0], low[1], low[2])))
            / (2 * step)
        )
    variance = sum(gradient[i] * covariance[i][j] * gradient[j] for i in range(3) for j in range(3))
    return math.sqrt(variance / shoes) if variance >= 0 else math.nan


@dataclass(frozen=True)
class RiskFigures:
    """The risk figures of one simulation result, per bet and combined: computed once.

    A result builds them once (:attr:`~exactodds.simulation.result.SimulationResult.risk_figures`,
    a cached attribute); its JSON, table and CSV, its plots and the audit read them there, so
    the ruin programme runs once per question whatever is rendered.  Without risk sums (a
    checkpoint written before they were kept) there are none: :attr:`measured` is false.

    >>> figures = RiskFigures({"tie": {"di": {"mean": 1.0}}}, {"risk_of_ruin": {"curve": None}})
    >>> figures.of("tie")["di"], figures.of("banker"), figures.measured
    ({'mean': 1.0}, {}, True)
    >>> figures.ruin
    {'curve': None}
    >>> RiskFigures().measured, RiskFigures().ruin
    (False, None)
    """

    #: Each bet's figures (EV, SD, DI, SCORE, N0 per round, units wagered, ROI), by name.
    bets: Mapping[str, dict[str, Any]] = field(default_factory=dict)
    #: The combined result's figures: the same, with the covariance, the risk of ruin and
    #: the bankroll for a risk target (``risk_of_ruin``, ``bankroll_for_risk``).
    combined: dict[str, Any] = field(default_factory=dict)
    #: The typed estimates behind them, by bet name and ``"combined"``.
    series: Mapping[str, SeriesFigures] = field(default_factory=dict)

    @property
    def measured(self) -> bool:
        """Whether the result held the risk sums these figures are drawn from."""
        return bool(self.bets)

    def of(self, name: str) -> dict[str, Any]:
        """Bet *name*'s figures (empty for a name not simulated, or without risk sums)."""
        return self.bets.get(name, {})

    def estimate(self, name: str, figure: str) -> Estimate:
        """Bet *name*'s (or ``"combined"``'s) *figure*: ``ev``, ``sd``, ``di``, ``score`` or
        ``n0``, per round; no estimate (NaN) without risk sums.

        >>> RiskFigures().estimate("tie", "di")
        Estimate(mean=nan, stderr=nan)
        """
        series = self.series.get(name)
        return series[figure] if series is not None else Estimate(math.nan, math.nan)

    @property
    def ruin(self) -> dict[str, Any] | None:
        """The combined ``risk_of_ruin`` figures (with its ``paths`` and ``curve``), if asked."""
        ruin: dict[str, Any] | None = self.combined.get("risk_of_ruin")
        return ruin


@dataclass(frozen=True)
class SeriesFigures:
    """EV, SD, DI, SCORE and N0 per round of one bet (or of all bets together)."""

    estimates: dict[str, Estimate] = field(default_factory=dict)
    units_wagered: int | None = None
    units_won: Fraction | None = None

    def __getitem__(self, name: str) -> Estimate:
        return self.estimates[name]

    def to_dict(self, rounds_per_hour: int | None = None) -> dict[str, Any]:
        """JSON-ready data: each figure with ``mean``, ``stderr`` and ``ci95``."""
        names = {
            "ev": "ev_per_round",
            "sd": "sd_per_round",
            "di": "di",
            "score": "score",
            "n0": "n0_rounds",
        }
        data: dict[str, Any] = {
            label: self.estimates[key].to_dict() for key, label in names.items()
        }
        for per, label in ((100, "100_rounds"), (rounds_per_hour, "hour")):
            if per is not None:
                data[f"ev_per_{label}"] = _scaled(self.estimates["ev"], per).to_dict()
                data[f"sd_per_{label}"] = _scaled(self.estimates["sd"], math.sqrt(per)).to_dict()
        if rounds_per_hour is not None:  # N0 in hours of play at that pace
            data["n0_hours"] = _scaled(self.estimates["n0"], 1 / rounds_per_hour).to_dict()
        if self.units_wagered is not None and self.units_won is not None:
            data["units_wagered"] = self.units_wagered
            data["units_won"] = float(self.units_won)
            data["roi"] = (
                finite(float(self.units_won / self.units_wagered)) if self.units_wagered else None
            )
        return data


def _scaled(estimate: Estimate, factor: float) -> Estimate:
    return Estimate(estimate.mean * factor, estimate.stderr * factor)


def _series_moments(
    tally: TallySums, expected: Sums, moments: SeriesMoments, square_unit: Fraction
) -> tuple[Means, list[list[float]] | None]:
    """The per-shoe means of a series' (exact EV, X**2, rounds) and their covariance over
    shoes (None for fewer than two shoes)."""
    shoes = tally.shoes
    ev_unit = Fraction(1, EV_SCALE)
    totals = [
        Fraction(expected.total) * ev_unit,
        Fraction(moments.squares.total) * square_unit,
        Fraction(tally.rounds),
    ]
    means: Means = (
        (float(totals[0] / shoes), float(totals[1] / shoes), float(totals[2] / shoes))
        if shoes
        else (math.nan, math.nan, math.nan)
    )
    if shoes < 2:
        return means, None
    products = [
        [
            Fraction(expected.squares) * ev_unit**2,
            Fraction(moments.with_expected) * ev_unit * square_unit,
            Fraction(expected.cross) * ev_unit,
        ],
        [
            Fraction(moments.with_expected) * ev_unit * square_unit,
            Fraction(moments.squares.squares) * square_unit**2,
            Fraction(moments.squares.cross) * square_unit,
        ],
        [
            Fraction(expected.cross) * ev_unit,
            Fraction(moments.squares.cross) * square_unit,
            Fraction(tally.rounds_squares),
        ],
    ]
    return means, _covariance(products, totals, shoes)


def series_figures(
    tally: TallySums,
    expected: Sums,
    moments: SeriesMoments,
    square_unit: Fraction,
    wagered: int | None = None,
    won: Fraction | None = None,
) -> SeriesFigures:
    """The figures of one series from its exact sums (*square_unit*: the unit of X**2)."""
    means, covariance = _series_moments(tally, expected, moments, square_unit)
    point = _figures(means)
    if covariance is None:
        return SeriesFigures(
            {key: Estimate(value, math.nan) for key, value in point.items()}, wagered, won
        )
    estimates = {
        key: Estimate(
            value,
            _delta(lambda m, key=key: _figures(m)[key], means, covariance, tally.shoes),  # type: ignore[misc]
        )
        for key, value in point.items()
    }
    return SeriesFigures(estimates, wagered, won)


def series_growth(
    tally: TallySums,
    expected: Sums,
    moments: SeriesMoments,
    square_unit: Fraction,
    bankroll: Fraction,
) -> Estimate:
    """The expected log growth per round of *bankroll*, to second order, (EV - E[X**2] / 2B)
    / B, from the same sums as :func:`series_figures` (the optimal ramp's objective, measured),
    with its delta-method error over shoes.

    >>> class Shoes:
    ...     shoes, rounds, rounds_squares, bets = 2, 20, 200, ()
    >>> moments = SeriesMoments(Sums(40, 800, 400))
    >>> series_growth(Shoes(), Sums(2 * 2**40), moments, Fraction(1), Fraction(10)).mean
    0.0
    """
    means, covariance = _series_moments(tally, expected, moments, square_unit)
    size = float(bankroll)

    def growth(m: Means) -> float:
        if m[2] <= 0:
            return math.nan
        return (m[0] - m[1] / (2 * size)) / m[2] / size

    value = growth(means)
    if covariance is None:
        return Estimate(value, math.nan)
    return Estimate(value, _delta(growth, means, covariance, tally.shoes))


def combined_covariance(
    tally: TallySums, risk: RiskTally, names: Sequence[str]
) -> dict[str, dict[str, float | None]]:
    """The per-round covariance of the bets' results: E[X_i X_j] - EV_i EV_j."""
    rounds = tally.rounds
    if rounds == 0:
        return {a: dict.fromkeys(names) for a in names}
    means = [Fraction(bet.expected.total, EV_SCALE * rounds) for bet in tally.bets]
    denominators = risk.denominators
    return {
        first: {
            second: finite(
                float(
                    Fraction(risk.product(i, j), denominators[i] * denominators[j] * rounds)
                    - means[i] * means[j]
                )
            )
            for j, second in enumerate(names)
        }
        for i, first in enumerate(names)
    }


def _simulated_bankroll(risk: RiskTally, target: Fraction) -> float | None:
    """The smallest bankroll whose share of ruined simulated trips is at most *target*."""
    trips = risk.trips
    if trips == 0:
        return None
    allowed = math.floor(target * trips)
    if allowed >= trips:
        return 0.0
    seen = 0
    for low, count in risk.trip_minimums:
        if seen + count > allowed:
            # Trips whose lowest point is below `low` are ruined: at most `allowed` of them.
            return float(Fraction(-low + 1, risk.combined_denominator))
        seen += count
    return 0.0


def _skewness(outcomes: Sequence[tuple[int, int, int]]) -> float:
    """The skewness of the per-shoe totals (in bins), nan for fewer than three shoes."""
    shoes = sum(count for *_, count in outcomes)
    if shoes < 3:
        return math.nan
    mean = Fraction(sum(total * count for total, _, count in outcomes), shoes)
    second = sum((total - mean) ** 2 * count for total, _, count in outcomes) / shoes
    third = sum((total - mean) ** 3 * count for total, _, count in outcomes) / shoes
    return float(third) / float(second) ** 1.5 if second > 0 else math.nan


def diffusion_warning(
    outcomes: Sequence[tuple[int, int, int]], bets_needed: float, bets_per_trip: float
) -> str | None:
    """Why the diffusion formulas do not hold here, or None: the per-shoe results are skewed
    (skewness above 1), or losing the bankroll takes more bets than a trip offers.

    >>> diffusion_warning(((-1, -1, 5), (40, 0, 1)), 20, 8)[:40]
    'per-shoe results are skewed (skewness 1.'
    >>> diffusion_warning(((-1, -1, 1), (1, 0, 1), (0, 0, 1)), 20, 80) is None
    True
    """
    reasons = []
    skew = _skewness(outcomes)
    if abs(skew) > 1:
        reasons.append(f"per-shoe results are skewed (skewness {skew:.2f})")
    if bets_needed > bets_per_trip:
        reasons.append(
            f"losing the bankroll takes at least {bets_needed:.0f} bets, a trip offers "
            f"{bets_per_trip:.0f}"
        )
    return (
        "; ".join(reasons) + ": the diffusion's many small bets are not there" if reasons else None
    )


def _measured(risk: RiskTally, shoes: int) -> bool:
    """Whether the per-shoe outcomes cover the *shoes* (a checkpoint written before they were
    kept exactly has none)."""
    return shoes > 0 and sum(count for *_, count in risk.shoe_outcomes) == shoes


def _in_units(risk: RiskTally, bankroll: Fraction) -> int:
    """*bankroll* in the unit of the per-shoe outcomes, rounded up: a result falls to minus the
    bankroll exactly when it falls to minus this many of its units."""
    return max(math.ceil(bankroll * risk.combined_denominator), 1)


def _trip_estimate(risk: RiskTally, bankroll: Fraction, shoes: int) -> dict[str, Any] | None:
    """``risk_of_ruin.estimate.trip``: the programme's risk for trips of ``risk.trip_shoes``."""
    from exactodds.simulation.risk.ruin import trip_ruin

    if not _measured(risk, shoes):
        return None
    unit = Fraction(1, risk.combined_denominator)
    try:
        found = trip_ruin(risk.shoe_outcomes, _in_units(risk, bankroll), risk.trip_shoes)
    except SimulationError as error:
        return {"mean": None, "stderr": None, "bounds": None, "note": str(error)} | {
            "method": TRIP_METHOD
        }
    return found.to_dict(unit, shoes)


def _simulated(risk: RiskTally, bankroll: Fraction) -> dict[str, Any]:
    """``risk_of_ruin.simulated``: the share of the finished trips that *bankroll* lost."""
    ruined = risk.ruined_trips(math.ceil(bankroll * risk.combined_denominator))
    share = ruined / risk.trips if risk.trips else math.nan
    return {
        "trip": Estimate(
            share,
            math.sqrt(share * (1 - share) / risk.trips) if risk.trips > 1 else math.nan,
        ).to_dict(),
        "ruined_trips": ruined,
    }


def _grid(tally: TallySums, risk: RiskTally, grid: RiskGrid) -> list[dict[str, Any]]:
    """``risk_of_ruin.grid``: each cell's programme estimate and simulated frequency, each
    computed as a run of that one bankroll and trip length computes its own."""
    cells = []
    for bankroll, rounds, shoes in grid.cells():
        trips = risk.for_trip(shoes)
        per_trip = shoes * tally.rounds / tally.shoes if tally.shoes else math.nan
        cells.append(
            {
                "bankroll": float(bankroll),
                "trip_rounds": rounds,
                "trip_shoes": shoes,
                "rounds_per_trip": finite(per_trip),
                "trips": trips.trips,
                "estimate": _trip_estimate(trips, bankroll, tally.shoes),
                "simulated": _simulated(trips, bankroll),
            }
        )
    return cells


def _bankroll_estimate(risk: RiskTally, target: float, shoes: int) -> dict[str, Any] | None:
    """``bankroll_for_risk.estimate.trip``: the least bankroll whose programme risk is at most
    *target*, with the bankrolls where the risk +- 2 standard errors crosses it."""
    from exactodds.simulation.risk.ruin import trip_bankroll

    if not _measured(risk, shoes):
        return None
    method = {
        "method": "least bankroll on the exact lattice of the measured results (or, past the "
        "programme's bounds, on bins with every result rounded down: enough for the exact "
        "risk too) whose programme risk is at most the target; interval: where the risk - and "
        "+ 2 standard errors crosses it (stepping out from the bankroll, then bisection)"
    }
    try:
        point, low, high = trip_bankroll(risk.shoe_outcomes, risk.trip_shoes, target)
    except SimulationError as error:
        return {"bankroll": None, "interval": None, "note": str(error)} | method
    unit = Fraction(1, risk.combined_denominator)
    interval = [float(low * unit), float(high * unit)] if shoes > 1 else None
    return {"bankroll": float(point * unit), "interval": interval} | method


def _estimate(risk: RiskTally, bankroll: Fraction, shoes: int) -> dict[str, Any] | None:
    """``risk_of_ruin.estimate``: the trip by the programme, unlimited play by Lundberg."""
    from exactodds.simulation.risk.ruin import lundberg_ruin

    outcomes = risk.shoe_outcomes
    trip = _trip_estimate(risk, bankroll, shoes)
    if trip is None:
        return None
    try:
        unlimited = lundberg_ruin(outcomes, _in_units(risk, bankroll))
    except SimulationError:
        unlimited = None
    per_unit = risk.combined_denominator  # R per unit of money, from R per outcome unit
    return {
        "trip": trip,
        "unlimited": {
            "mean": finite(unlimited[0]) if unlimited else None,
            "stderr": None,
            "adjustment_coefficient": finite(unlimited[1] * per_unit) if unlimited else None,
            "method": "Cramer-Lundberg, measured per-shoe results",
        },
    }


def ruin_figures(
    tally: TallySums,
    risk: RiskTally,
    combined: SeriesFigures,
    bankroll: Fraction | None,
    questions: RiskQuestions,
    bets: tuple[float, float] | None = None,
    grid: RiskGrid | None = None,
) -> dict[str, Any]:
    """``risk_of_ruin`` and ``bankroll_for_risk`` (estimate, formula and simulated) for the
    combined result.  *bets*: the largest loss of one round and the bets made per round (for the warning);
    *grid*: more bankrolls and trip lengths (``risk_of_ruin.grid``)."""
    ev, sd = combined["ev"].mean, combined["sd"].mean
    rounds_per_trip = risk.trip_shoes * tally.rounds / tally.shoes if tally.shoes else math.nan
    data: dict[str, Any] = {}
    trip = {
        "trip_rounds": questions.trip_rounds,
        "trip_shoes": risk.trip_shoes,
        "rounds_per_trip": finite(rounds_per_trip),
        "trips": risk.trips,
    }
    usable = not (math.isnan(ev) or math.isnan(sd) or math.isnan(rounds_per_trip))
    if bankroll is not None:
        estimate = _estimate(risk, bankroll, tally.shoes)
        loss, per_round = bets if bets is not None else (1.0, 1.0)
        warning = diffusion_warning(
            risk.shoe_outcomes, float(bankroll) / loss, per_round * rounds_per_trip
        )
        data["risk_of_ruin"] = {
            "bankroll": float(bankroll),
            "estimate": estimate,
            "formula": {
                "method": "diffusion (Brownian motion with the measured EV and SD)",
                "warning": warning,
                "unlimited": finite(formulas.risk_of_ruin(ev, sd, float(bankroll)))
                if usable
                else None,
                "trip": finite(formulas.trip_risk_of_ruin(ev, sd, float(bankroll), rounds_per_trip))
                if usable
                else None,
            },
            "simulated": _simulated(risk, bankroll),
        } | trip
        if grid is not None:
            data["risk_of_ruin"]["grid"] = _grid(tally, risk, grid)
    if questions.risk is not None:
        # The target is exact; the formulas take a float, kept strictly inside (0, 1) even
        # for a risk like 0.999999999999999999999, whose nearest float is 1.
        target = min(max(float(questions.risk), math.ulp(0.0)), math.nextafter(1.0, 0.0))
        data["bankroll_for_risk"] = {
            "risk": target,
            "estimate": {"trip": _bankroll_estimate(risk, target, tally.shoes)},
            "formula": {
                "unlimited": finite(formulas.bankroll_for_risk(ev, sd, target)) if usable else None,
                "trip": finite(formulas.bankroll_for_risk(ev, sd, target, rounds_per_trip))
                if usable
                else None,
            },
            "simulated": {"trip": _simulated_bankroll(risk, questions.risk)},
        } | trip
    return data
