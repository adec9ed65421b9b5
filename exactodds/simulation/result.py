"""The result of a simulation: the exact tally, and the statistics drawn from it per bet.

>>> from exactodds.bets.catalogue import select_bets
>>> from exactodds.simulation.dealing import DealingProcedure
>>> from exactodds.simulation.study import Simulation
>>> from exactodds.simulation.tally import Tally
>>> study = Simulation.of(1, 1, bets=select_bets("tie"), procedure=DealingProcedure(decks=1))
>>> empty = SimulationResult(study, Tally.empty([1]), complete=False)
>>> empty.to_dict()["bets"]["tie"]["units_per_shoe"]["realized"]
{'mean': None, 'stderr': None, 'ci95': [None, None]}
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any

from exactodds.errors import SimulationError
from exactodds.numbers import fraction_string
from exactodds.simulation.risk.figures import RiskFigures, SeriesFigures
from exactodds.simulation.risk.rebates import TripRebateFigures, trip_rebate_figures
from exactodds.simulation.risk.sums import EV_SCALE, Estimate, nan_to_none
from exactodds.simulation.risk.tally import MOMENT_BITS
from exactodds.simulation.staking.stakes import GROWTH_SCALE, Kelly
from exactodds.simulation.strategies import counted_by
from exactodds.simulation.study import Simulation
from exactodds.simulation.tally import HISTOGRAM_BINS_PER_UNIT, Tally

__all__ = [
    "BetResult",
    "SimulationResult",
    "band_rows",
    "merge_results",
]


@dataclass(frozen=True)
class BetResult:
    """One bet's statistics over the shoes simulated (floats: these are estimates)."""

    name: str
    strategy: str
    rounds: int
    bets_made: int
    frequency: float
    #: The mean exact EV of the bets made, each bet counted once whatever its stake.
    average_edge: float
    share_positive: float
    units_per_shoe: Mapping[str, Estimate]
    units_per_100_rounds: Mapping[str, Estimate]
    ev_deciles: tuple[float, ...]
    ev_by_deck: tuple[float | None, ...]
    #: The exact EV won per unit staked: the mean edge weighted by the stakes.
    average_edge_by_stake: float = math.nan
    #: Per band of the count (or of the exact EV for other plays): :func:`band_rows`.
    by_true_count: tuple[Mapping[str, Any], ...] = ()
    #: False for ``bet-rounds`` pricing: ``share_positive``, ``ev_deciles`` and ``ev_by_deck``
    #: read every round's EV and are left out (nan and empty here, null in JSON).
    every_round: bool = True

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data (the ``bets`` entries of ``simulate --format json``)."""
        return {
            "strategy": self.strategy,
            "rounds": self.rounds,
            "bets_made": self.bets_made,
            "frequency": nan_to_none(self.frequency),
            "average_edge": nan_to_none(self.average_edge),
            "average_edge_by_stake": nan_to_none(self.average_edge_by_stake),
            "share_positive": nan_to_none(self.share_positive),
            "units_per_shoe": {
                name: estimate.to_dict() for name, estimate in self.units_per_shoe.items()
            },
            "units_per_100_rounds": {
                name: estimate.to_dict() for name, estimate in self.units_per_100_rounds.items()
            },
            "ev_deciles": list(self.ev_deciles),
            "ev_by_deck": list(self.ev_by_deck),
            "by_true_count": [dict(row) for row in self.by_true_count],
        } | ({} if self.every_round else _LEFT_OUT)


#: What a ``bet-rounds`` study's JSON gives for the figures that read every round's EV.
_LEFT_OUT: dict[str, Any] = {
    "share_positive": None,
    "ev_deciles": None,
    "ev_by_deck": None,
    "left_out": "share_positive, ev_deciles and ev_by_deck need every round's exact EV; "
    "this study priced only the rounds where a bet is made (pricing bet-rounds).",
}


def band_rows(
    bands: tuple[tuple[int, ...], ...],
    counted: str | None,
    rounds: int,
    pay_denominator: int,
) -> tuple[dict[str, Any], ...]:
    """A bet's :attr:`~exactodds.simulation.tally.BetTally.bands` as rows: the band (the
    ``true_count`` or ``running_count`` named by *counted*, floored; else ``ev_from`` and
    ``ev_to``, the exact EV's 1% band), ``rounds``, ``share_of_rounds``, ``bets_made``,
    ``frequency``, ``ev_per_round`` (exact EVs of the bets made, stakes included),
    ``sd_per_round`` (of the realized results), ``units_expected`` and ``units_won``.
    Sums are exact; the ratios are floats.

    >>> row, = band_rows(((2, 4, 2, 2**39, 2, 2, 0),), "true_count", 8, 1)
    >>> row["true_count"], row["share_of_rounds"], row["ev_per_round"], row["sd_per_round"]
    (2, 0.5, 0.125, 0.5)
    >>> band_rows(((2, 0, 0, 0, 0, 0, 0),), None, 8, 1)
    Traceback (most recent call last):
    ...
    ValueError: a band of 0 rounds is not tallied; rounds must be at least 1.
    """
    rows = []
    # Each figure one correctly rounded division of exact integers (as float(Fraction) is).
    for band, count, made, expected, realized, squares, *_ in bands:
        if count < 1:
            raise ValueError(f"a band of {count} rounds is not tallied; rounds must be at least 1.")
        # squares / (count d**2) - (realized / (count d))**2, over (count d)**2
        variance = squares * count - realized * realized
        where: dict[str, Any] = (
            {counted: band}
            if counted is not None
            else {"ev_from": band / 100, "ev_to": (band + 1) / 100}
        )
        rows.append(
            where
            | {
                "rounds": count,
                "share_of_rounds": count / rounds if rounds else None,
                "bets_made": made,
                "frequency": made / count,
                "ev_per_round": expected / (count * EV_SCALE),
                "sd_per_round": math.sqrt(max(variance, 0) / (count * pay_denominator) ** 2),
                "units_expected": expected / EV_SCALE,
                "units_won": realized / pay_denominator,
            }
        )
    return tuple(rows)


def _deciles(histogram: tuple[tuple[int, int], ...], rounds: int) -> tuple[float, ...]:
    result = []
    cumulative = 0
    items = iter(histogram)
    current = next(items, None)
    for tenth in range(1, 10):
        # cumulative + count < tenth x rounds / 10, exactly, in integers
        target = tenth * rounds
        while current is not None and 10 * (cumulative + current[1]) < target:
            cumulative += current[1]
            current = next(items, None)
        if current is None:
            break
        result.append(current[0] / HISTOGRAM_BINS_PER_UNIT)
    return tuple(result)


@dataclass(frozen=True)
class SimulationResult:
    """The result of :func:`simulate`: the exact tally and how the run went.

    ``complete`` is false when the run was interrupted: the tally then covers the
    first ``tally.shoes`` shoes, exactly.
    """

    simulation: Simulation
    tally: Tally
    seconds: float = 0.0
    complete: bool = True
    backend: str = "local"
    jobs: int = 1
    #: Rounds dealt by this run (a resumed run's checkpoint excluded).
    rounds_run: int = 0

    def __add__(self, other: object) -> SimulationResult:
        """The result of both runs of one study over disjoint shoe ranges, as one run.

        Equal to running them in one go (the tallies are exact sums); refused for two
        different studies, for shoe ranges that overlap, and for anything but a result.
        """
        if not isinstance(other, SimulationResult):
            raise SimulationError(
                f"A simulation result adds only to another result of the same study, not to "
                f"{type(other).__name__} {other!r}."
            )
        return merge_results(self, other)

    def __radd__(self, other: object) -> SimulationResult:
        """``0 + result`` is *result*, so that ``sum(results)`` merges them."""
        if isinstance(other, int) and not isinstance(other, bool) and other == 0:
            return self
        return self.__add__(other)

    def to_pandas(self) -> Any:
        """One row per bet (and ``combined``), the figures as columns (the ``data`` extra)."""
        from exactodds.simulation.frame import to_pandas

        return to_pandas(self)

    def to_arrow(self) -> Any:
        """The rows of :meth:`to_pandas` as a pyarrow Table (the ``data`` extra)."""
        from exactodds.simulation.frame import to_arrow

        return to_arrow(self)

    def study_record(self) -> dict[str, Any]:
        """Which shoes of which study this result holds: the study's :meth:`~Simulation.digest`,
        the shoe ranges (``[start, stop]``: shoes ``start .. stop - 1``), each bet's pays and play.
        """
        return _study_record(self)

    @cached_property
    def risk_figures(self) -> RiskFigures:
        """The risk figures of every bet and of the combined result, computed once.

        Every rendering (JSON, table, CSV), plot and study reads them here: the ruin
        programme runs once per question, however many of them a command writes.
        """
        return _risk_figures(self)

    @cached_property
    def rebate_figures(self) -> TripRebateFigures | None:
        """The rules' rebate over the simulated trips (None: no rebate, or no finished trip)."""
        risk = self.tally.risk
        rebate = self.simulation.rules.rebate
        if not rebate or risk is None or risk.trip_results is None:
            return None
        return trip_rebate_figures(
            risk.trip_results, risk.combined_denominator, rebate, self.simulation.bankroll
        )

    @property
    def rounds_per_second(self) -> float:
        """Rounds dealt and evaluated per second of this run."""
        return self.rounds_run / self.seconds if self.seconds > 0 else math.nan

    def bets(self) -> list[BetResult]:
        """Each bet's statistics, in the order simulated."""
        tally = self.tally
        every_round = self.simulation.every_round
        results = []
        for index, (bet, strategy, sums) in enumerate(
            zip(self.simulation.bets, self.simulation.strategies, tally.bets, strict=True)
        ):
            wagered = tally.risk.wagered[index] if tally.risk is not None else sums.bets_made
            realized_unit = Fraction(1, sums.pay_denominator)
            ev_unit = Fraction(1, EV_SCALE)
            rounds = tally.rounds
            results.append(
                BetResult(
                    name=bet.name,
                    strategy=strategy.describe(),
                    rounds=rounds,
                    bets_made=sums.bets_made,
                    frequency=sums.bets_made / rounds if rounds else math.nan,
                    average_edge=(
                        float(Fraction(sums.ev_made, sums.bets_made) * ev_unit)
                        if sums.bets_made
                        else math.nan
                    ),
                    share_positive=(sums.positive / rounds if rounds and every_round else math.nan),
                    units_per_shoe={
                        "exact_ev": Estimate.of_shoes(sums.expected, tally.shoes, ev_unit),
                        "realized": Estimate.of_shoes(sums.realized, tally.shoes, realized_unit),
                    },
                    units_per_100_rounds={
                        "exact_ev": Estimate.per_rounds(sums.expected, tally, ev_unit),
                        "realized": Estimate.per_rounds(sums.realized, tally, realized_unit),
                    },
                    ev_deciles=_deciles(sums.histogram, rounds),
                    ev_by_deck=tuple(
                        float(Fraction(total, count) * ev_unit) if count else None
                        for total, count in zip(sums.depth_ev, sums.depth_rounds, strict=True)
                    ),
                    average_edge_by_stake=(
                        float(Fraction(sums.expected.total, wagered) * ev_unit)
                        if wagered
                        else math.nan
                    ),
                    by_true_count=band_rows(
                        sums.bands, counted_by(strategy), rounds, sums.pay_denominator
                    ),
                    every_round=every_round,
                )
            )
        return results

    def to_dict(self) -> dict[str, Any]:
        """The JSON contract of ``exactodds simulate --format json``."""
        tally = self.tally
        histogram = dict(tally.rounds_histogram)
        figures = self.risk_figures
        return {
            "shoes": tally.shoes,
            "rounds": tally.rounds,
            "seed": self.simulation.seed,
            "procedure": self.simulation.procedure.to_dict(),
            "rules": self.simulation.rules.to_dict(),
            "study": self.study_record(),
            "staking": self.simulation.staking(),
            "pricing": self.simulation.pricing,
            "rounds_per_shoe": {
                "mean": tally.rounds / tally.shoes if tally.shoes else None,
                "min": min(histogram) if histogram else None,
                "max": max(histogram) if histogram else None,
                "histogram": {str(count): shoes for count, shoes in sorted(histogram.items())},
            },
            "bets": {
                result.name: result.to_dict() | figures.of(result.name) for result in self.bets()
            },
            "combined": figures.combined,
            **(
                {"rebate": self.rebate_figures.to_dict()} if self.rebate_figures is not None else {}
            ),
            "run": {
                "complete": self.complete,
                "shoes_requested": self.simulation.shoes,
                "seconds": round(self.seconds, 3),
                "rounds_per_second": (round(self.rounds_per_second) if self.seconds > 0 else None),
                "backend": self.backend,
                "jobs": self.jobs,
            },
        }


def _study_record(result: SimulationResult) -> dict[str, Any]:
    simulation = result.simulation
    return {
        "fingerprint": simulation.digest(),
        "shoe_ranges": [list(pair) for pair in result.tally.ranges],
        "bets": {
            bet.name: {
                "pays": {outcome: fraction_string(pay) for outcome, pay in bet.pay_table.items()},
                "play": strategy.describe(),
            }
            for bet, strategy in zip(simulation.bets, simulation.strategies, strict=True)
        },
    }


def merge_results(first: SimulationResult, second: SimulationResult) -> SimulationResult:
    """One result of two runs of the same study over disjoint shoe ranges.

    >>> from exactodds.bets.catalogue import select_bets
    >>> from exactodds.simulation.block import run_block
    >>> from exactodds.simulation.dealing import DealingProcedure
    >>> study = Simulation.of(3, 4, bets=select_bets("tie"), procedure=DealingProcedure(decks=1))
    >>> part = lambda first, shoes: SimulationResult(study, run_block(study, first, shoes).tally)
    >>> (part(0, 1) + part(1, 2)).tally == part(0, 3).tally
    True
    """
    if first.simulation.fingerprint() != second.simulation.fingerprint():
        raise SimulationError(
            "These results come from different studies (seed, dealing, rules, bets, strategies "
            "or stakes differ); only runs of one study merge."
        )
    return SimulationResult(
        first.simulation,
        first.tally.merged(second.tally),
        first.seconds + second.seconds,
        complete=first.complete and second.complete,
        backend=first.backend if first.backend == second.backend else "mixed",
        jobs=max(first.jobs, second.jobs),
        rounds_run=first.rounds_run + second.rounds_run,
    )


def _bets_per_round(result: SimulationResult, flat: bool = False) -> tuple[float, float]:
    """The most one round can lose (every bet made at once, at the largest stake, or the
    table minimum for the *flat* figures), and the bets made per round: for the diffusion
    formula's warning."""
    simulation, tally = result.simulation, result.tally
    worst = [max(-pay for pay in bet.pay_table.values()) for bet in simulation.bets]
    stake = simulation.limits.minimum if flat else simulation.largest_stake()
    loss = float(sum(max(value, Fraction(0)) for value in worst)) * float(stake)
    made = sum(bet.bets_made for bet in tally.bets)
    return max(loss, 1e-300), made / tally.rounds if tally.rounds else 0.0


def _flat_figures(result: SimulationResult, flat_risk: Any) -> dict[str, Any]:
    """The combined figures had every bet been flat at the table minimum."""
    from exactodds.simulation.risk.figures import ruin_figures, series_figures

    tally, simulation = result.tally, result.simulation
    flat_unit = Fraction(1, flat_risk.combined_denominator)
    flat = series_figures(
        tally,
        flat_risk.combined_expected,
        flat_risk.combined,
        flat_unit**2,
        sum(flat_risk.wagered),
        flat_risk.combined_realized.total * flat_unit,
    )
    return flat.to_dict(simulation.questions.rounds_per_hour) | ruin_figures(
        tally,
        flat_risk,
        flat,
        simulation.bankroll,
        simulation.questions,
        _bets_per_round(result, flat=True),
    )


def _bankroll_figures(result: SimulationResult) -> dict[str, Any]:
    """``risk_of_ruin.paths`` and ``risk_of_ruin.curve`` (None where the tally lacks them: no
    finished trip, or a checkpoint written before they were kept)."""
    from exactodds.simulation.risk.paths import path_figures, risk_curve

    tally, simulation = result.tally, result.simulation
    risk, paths, bankroll = tally.risk, tally.paths, simulation.bankroll
    assert risk is not None and bankroll is not None, "asked only with risk sums and a bankroll"
    minimum = simulation.limits.minimum
    shoes = sum(count for *_, count in risk.shoe_outcomes)
    return {
        "paths": path_figures(paths, bankroll, minimum)
        if paths is not None and paths.trips and paths.trips == risk.trips
        else None,
        "curve": risk_curve(
            risk.shoe_outcomes, bankroll, risk.trip_shoes, risk.combined_denominator
        )
        if shoes and shoes == tally.shoes
        else None,
    }


def _risk_figures(result: SimulationResult) -> RiskFigures:
    """The risk figures of every bet and of the combined result (see :mod:`~exactodds.simulation.risk.figures`)."""
    from exactodds.simulation.risk.figures import (
        combined_covariance,
        ruin_figures,
        series_figures,
    )

    tally = result.tally
    risk = tally.risk
    if risk is None:
        return RiskFigures()
    simulation = result.simulation
    hour = simulation.questions.rounds_per_hour
    data: dict[str, dict[str, Any]] = {}
    series: dict[str, SeriesFigures] = {}
    for index, (bet, sums) in enumerate(zip(simulation.bets, tally.bets, strict=True)):
        unit = Fraction(1, sums.pay_denominator)
        figures = series_figures(
            tally,
            sums.expected,
            risk.bets[index],
            unit**2,
            risk.wagered[index],
            sums.realized.total * unit,
        )
        series[bet.name] = figures
        data[bet.name] = figures.to_dict(hour)
        if risk.exact_squares:
            exact = series_figures(
                tally, sums.expected, risk.exact_squares[index], Fraction(1, 2**MOMENT_BITS)
            ).to_dict()
            data[bet.name]["exact_moments"] = {
                key: exact[key] for key in ("sd_per_round", "di", "score", "n0_rounds")
            }
    unit = Fraction(1, risk.combined_denominator)
    combined = series_figures(
        tally,
        risk.combined_expected,
        risk.combined,
        unit**2,
        sum(risk.wagered),
        risk.combined_realized.total * unit,
    )
    names = [bet.name for bet in simulation.bets]
    per_shoe = {
        "units_per_shoe": {
            "exact_ev": Estimate.of_shoes(
                risk.combined_expected, tally.shoes, Fraction(1, EV_SCALE)
            ).to_dict(),
            "realized": Estimate.of_shoes(risk.combined_realized, tally.shoes, unit).to_dict(),
        }
    }
    data["combined"] = (
        per_shoe
        | combined.to_dict(hour)
        | {"covariance": combined_covariance(tally, risk, names)}
        | ruin_figures(
            tally,
            risk,
            combined,
            simulation.bankroll,
            simulation.questions,
            _bets_per_round(result),
            simulation.grid,
        )
    )
    ruin = data["combined"].get("risk_of_ruin")
    if ruin is not None:
        ruin |= _bankroll_figures(result)
    if risk.flat is not None:
        data["combined"]["flat"] = _flat_figures(result, risk.flat)
    measured = _ramp_out_of_sample(result, combined)
    if measured is not None:
        data["combined"]["ramp_out_of_sample"] = measured
    if isinstance(simulation.stake, Kelly):
        data["combined"]["growth_rate_per_round"] = (
            risk.growth / GROWTH_SCALE / tally.rounds if tally.rounds else None
        )
    series["combined"] = combined
    everything = data.pop("combined")
    return RiskFigures(data, everything, series)


def _ramp_out_of_sample(result: SimulationResult, combined: SeriesFigures) -> dict[str, Any] | None:
    """An optimal ramp's objective measured on the run's shoes, which its pilot did not see
    (:mod:`~exactodds.simulation.staking.optimal`): SCORE (the combined figure), or the
    second-order log growth per round of the bankroll; None for any other stake."""
    from exactodds.simulation.risk.figures import series_growth

    basis = getattr(result.simulation.stake, "basis", None)
    risk = result.tally.risk
    if basis is None or risk is None:
        return None
    bankroll = result.simulation.bankroll
    if basis.get("objective") == "growth" and bankroll is not None:
        unit = Fraction(1, risk.combined_denominator)
        estimate = series_growth(
            result.tally, risk.combined_expected, risk.combined, unit**2, bankroll
        )
        objective = "growth"
    else:
        estimate, objective = combined["score"], "score"
    return {"objective": objective, "shoes": result.tally.shoes} | estimate.to_dict()
