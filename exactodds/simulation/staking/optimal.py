"""The ramp that maximizes growth (or SCORE) within a spread, from a flat pilot's bands.

What CVCX calls "optimal bets".  A flat pilot (1 unit whenever the strategy bets) on
*other* shoes than the study's (as many, dealt from :func:`pilot_seed`: the fit never sees
the shoes the ramp is then run and measured on) measures, per band of the count (the true
count floored, or the running count for a running count) or, for other plays, per 1% band
of the exact EV, the bets made, the sum ``E_b`` of their exact EVs per unit staked and the
sum ``S_b`` of their exact second moments E[X**2 | composition] (the pilot keeps exact
moments: the seventh number of :attr:`~exactodds.simulation.tally.BetTally.bands`, so a
bet whose E[X**2] rises with the count, as Dragon 7's does, is priced band by band, and no
band's figure rests on its few realized 40:1 wins).  Bands with fewer than
:data:`MIN_BAND_BETS` bets are merged into their neighbours before fitting
(:func:`merged_bands`), so that no step rests on a handful of bets.  A ramp that stakes
``s_b`` units in band ``b`` then wins, per round of the pilot (N rounds),

    A(s) = sum_b s_b E_b / N     on average, with second moment   Q(s) = sum_b s_b**2 S_b / N.

* With a bankroll B the objective is the expected log growth per round to second order,
  ``(A - Q / (2 B)) / B``: what a Kelly bettor maximizes, with the second moment (as
  :func:`~exactodds.analysis.risk.kelly_stake` sizes) where some texts write the variance
  (they differ by A**2, a term of third order in the edge).
* Without one it is SCORE = 10**6 A**2 / (Q - A**2) (= DI**2; 0 when A <= 0), which no
  scale of the ramp changes.  Its maximum also maximizes A - lam Q for lam = A / (2 Q) at
  the maximum, so it is found among the growth maxima over all lam: their finitely many
  solutions are enumerated exactly (Eisner and Severance's search of a piecewise-linear
  convex function) and the best SCORE among them is taken.

The stakes are chosen among the chip multiples within the spread and the table limits,
and never decrease from one band to the next (a ramp's steps increase); ties go to the
smaller stakes.  Bands where the pilot made no bet take the stake of the band below; the
strategy still decides whether to bet, and the ramp's first step is the lowest band bet.
Every comparison is exact (Fractions from the integer sums; the EVs and second moments
summed are the exact figures rounded to 2**-40 and 2**-24, as the tally keeps them);
floats appear only in the recorded basis.

The objective on the pilot is an in-sample figure (the ramp is fitted to it, so it
overstates what the ramp earns); the figure to quote is the same objective measured on
the study's own shoes, which the fit did not see: the result's
``combined.ramp_out_of_sample`` (:mod:`~exactodds.simulation.result`), with its error.  It
assumes bets whose results are independent of each other (several bets' bands are
pooled; their covariance within a round is left out).  :func:`risk_limited_study` holds
the ramp to a risk target by fitting it to a fraction of the bankroll.

>>> bands = (BandSums(0, 50, Fraction(-1), Fraction(50)), BandSums(2, 10, Fraction(2), Fraction(10)))
>>> optimal_stakes(bands, (1, 2, 4, 8), Fraction(10))  # growth with a bankroll of 10 units
(1, 2)
>>> optimal_stakes(bands, (1, 2, 4, 8), None)  # SCORE
(1, 8)
>>> optimal_stakes((), (1, 2), None)
Traceback (most recent call last):
...
exactodds.errors.SimulationError: The flat pilot made no bet in any band; a ramp needs bets to derive its stakes from.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeVar

from exactodds.errors import SimulationError
from exactodds.numbers import fraction_string
from exactodds.simulation.risk.figures import RiskFigures
from exactodds.simulation.risk.questions import RiskQuestions
from exactodds.simulation.risk.sums import EV_SCALE
from exactodds.simulation.risk.tally import MOMENT_BITS
from exactodds.simulation.staking.stakes import Flat, Optimal, Ramp, TableLimits
from exactodds.simulation.staking.study import StakedStudy
from exactodds.simulation.strategies import counted_by
from exactodds.simulation.tally import Tally

__all__ = [
    "MIN_BAND_BETS",
    "BandSums",
    "derived_study",
    "growth",
    "merged_bands",
    "optimal_stakes",
    "pilot_bands",
    "pilot_seed",
    "pilot_study",
    "ramp_of",
    "risk_limited_study",
    "score",
]

#: Bands of the pilot with fewer bets than this are merged into their neighbours before the
#: ramp is fitted: a step fitted to 1 to 11 bets moved on every refit (issue 36).
MIN_BAND_BETS = 100

#: A study the ramp is derived for: what comes back is the same kind of study, replaced.
StudyT = TypeVar("StudyT", bound=StakedStudy)


@dataclass(frozen=True)
class BandSums:
    """One band of a flat pilot, per unit staked: its bets made, the sum of their exact EVs
    and the sum of their second moments.

    >>> BandSums(3, 4, Fraction(1, 10), Fraction(4)).band
    3
    """

    band: int
    bets_made: int
    expected: Fraction
    squares: Fraction


def pilot_bands(tally: Tally, strategies: Sequence[Any]) -> tuple[str, tuple[BandSums, ...]]:
    """What the bands count (``true_count``, ``running_count`` or ``ev_band``) and, per band
    with a bet made, the pilot's sums over every bet, per unit (the pilot stakes 1 unit): the
    exact EVs of the band's bets and their exact second moments (the bands' seventh number).
    A tally without them (a study without exact moments) gives each band its bets made times
    the bet's realized second moment per bet over all its bands (a thin band's own squares
    are noise: a few 40:1 wins or none).

    >>> from exactodds.simulation.strategies import Perfect
    >>> from exactodds.simulation.tally import BetTally
    >>> bet = BetTally(20, bands=((-1, 9, 1, 0, 0, 400, 2**24), (0, 3, 2, 2**38, 20, 800, 3 * 2**24)))
    >>> pilot_bands(Tally(1, 12, 144, (), (bet,)), [Perfect()])[1][1]
    BandSums(band=0, bets_made=2, expected=Fraction(1, 4), squares=Fraction(3, 1))
    >>> realized = BetTally(20, bands=((-1, 9, 1, 0, 0, 400, 0), (0, 3, 2, 2**38, 20, 800, 0)))
    >>> pilot_bands(Tally(1, 12, 144, (), (realized,)), [Perfect()])[1][1].squares
    Fraction(2, 1)
    """
    kinds = {counted_by(strategy) or "ev_band" for strategy in strategies}
    if len(kinds) > 1:
        raise SimulationError(
            "`stake` optimal steps every bet by the same measure, but the bets' plays count "
            f"{' and '.join(sorted(kinds))}; play every bet by counts of one kind, or every bet "
            "by its exact EV."
        )
    pooled: dict[int, list[Any]] = {}
    for bet in tally.bets:
        made_all = sum(band[2] for band in bet.bands)
        if not made_all:
            continue
        exact = any(len(band) > 6 and band[6] for band in bet.bands)
        moment = Fraction(sum(band[5] for band in bet.bands), made_all * bet.pay_denominator**2)
        for band, _rounds, made, expected, _realized, _squares, *rest in bet.bands:
            if made:
                sums = pooled.setdefault(band, [0, Fraction(0), Fraction(0)])
                sums[0] += made
                sums[1] += Fraction(expected, EV_SCALE)
                sums[2] += Fraction(rest[0], 2**MOMENT_BITS) if exact else made * moment
    return kinds.pop(), tuple(BandSums(band, *pooled[band]) for band in sorted(pooled))


def merged_bands(bands: Sequence[BandSums], minimum: int = MIN_BAND_BETS) -> tuple[BandSums, ...]:
    """*bands* with the thin ones merged: from the top band down, bands are joined until the
    group holds at least *minimum* bets; a thin group left at the bottom joins the one above.
    A group is named by its lowest band (where its step starts).

    >>> bands = [BandSums(b, made, Fraction(made), Fraction(made)) for b, made in
    ...          ((-1, 30), (0, 500), (2, 90), (3, 40), (5, 3))]
    >>> [(band.band, band.bets_made) for band in merged_bands(bands)]
    [(-1, 530), (2, 133)]
    >>> merged_bands(bands[:1])
    (BandSums(band=-1, bets_made=30, expected=Fraction(30, 1), squares=Fraction(30, 1)),)
    """
    groups: list[list[BandSums]] = []
    current: list[BandSums] = []
    for band in reversed(bands):
        current.append(band)
        if sum(part.bets_made for part in current) >= minimum:
            groups.append(current)
            current = []
    if current:
        if groups:
            groups[-1].extend(current)
        else:
            groups.append(current)
    return tuple(
        BandSums(
            min(part.band for part in group),
            sum(part.bets_made for part in group),
            sum((part.expected for part in group), Fraction(0)),
            sum((part.squares for part in group), Fraction(0)),
        )
        for group in reversed(groups)
    )


def _moments(bands: Sequence[BandSums], stakes: Sequence[int]) -> tuple[Fraction, Fraction]:
    """sum s E and sum s**2 S: N times A and Q."""
    mean = sum((s * band.expected for s, band in zip(stakes, bands, strict=True)), Fraction(0))
    square = sum((s * s * band.squares for s, band in zip(stakes, bands, strict=True)), Fraction(0))
    return mean, square


def growth(
    bands: Sequence[BandSums], rounds: int, stakes: Sequence[int], bankroll: Fraction
) -> Fraction:
    """The expected log growth per round to second order, ``(A - Q / (2 B)) / B``, exactly.

    >>> growth((BandSums(0, 2, Fraction(1, 10), Fraction(2)),), 10, (4,), Fraction(100))
    Fraction(3, 12500)
    """
    mean, square = _moments(bands, stakes)
    return (mean - square / (2 * bankroll)) / (rounds * bankroll)


def score(bands: Sequence[BandSums], rounds: int, stakes: Sequence[int]) -> Fraction:
    """SCORE = 10**6 A**2 / (Q - A**2) per round, exactly; 0 when A is not positive.

    >>> score((BandSums(0, 2, Fraction(1, 10), Fraction(2)),), 10, (4,))
    Fraction(1000000, 1999)
    """
    mean, square = _moments(bands, stakes)
    mean, square = mean / rounds, square / rounds
    if mean <= 0 or square <= mean * mean:
        return Fraction(0)
    return 10**6 * mean * mean / (square - mean * mean)


@dataclass(frozen=True)
class _Scaled:
    """The bands' sums times one common denominator: integers, so the search is fast and
    exact (every objective compared is a ratio or a difference of these)."""

    means: tuple[int, ...]
    squares: tuple[int, ...]

    @classmethod
    def of(cls, bands: Sequence[BandSums]) -> _Scaled:
        parts = [Fraction(part) for band in bands for part in (band.expected, band.squares)]
        scale = math.lcm(*(part.denominator for part in parts))
        return cls(
            tuple(int(band.expected * scale) for band in bands),
            tuple(int(band.squares * scale) for band in bands),
        )

    def moments(self, stakes: Sequence[int]) -> tuple[int, int]:
        """sum s E and sum s**2 S, scaled."""
        mean = sum(s * m for s, m in zip(stakes, self.means, strict=True))
        return mean, sum(s * s * q for s, q in zip(stakes, self.squares, strict=True))

    def solve(self, levels: Sequence[int], penalty: Fraction) -> tuple[int, ...]:
        """The nondecreasing stakes maximizing sum s E - penalty s**2 S (ties: smaller).

        A dynamic programme over the bands in order: the best total with this band at each
        level is the best total of the band before at that level or below, plus this band's
        term; O(bands x levels), in integers (the terms times the penalty's denominator).
        """
        best = [0] * len(levels)
        choices: list[list[int]] = []
        for mean, square in zip(self.means, self.squares, strict=True):
            mean, square = mean * penalty.denominator, square * penalty.numerator
            running, where, below, totals = best[0], 0, [], []
            for index, level in enumerate(levels):
                if best[index] > running:
                    running, where = best[index], index
                below.append(where)
                totals.append(running + level * mean - level * level * square)
            best = totals
            choices.append(below)
        index = max(range(len(levels)), key=lambda k: (best[k], -k))
        stakes = []
        for below in reversed(choices):
            stakes.append(levels[index])
            index = below[index]
        return tuple(reversed(stakes))


def _score_stakes(scaled: _Scaled, levels: Sequence[int]) -> tuple[int, ...]:
    """The nondecreasing stakes of the best SCORE: the best of every growth maximum."""
    top = scaled.solve(levels, Fraction(0))
    top_mean, _ = scaled.moments(top)
    lowest = tuple(levels[0] for _ in scaled.means)
    if top_mean <= 0:
        return lowest
    _, most = scaled.moments(tuple(levels[-1] for _ in scaled.means))
    _, least = scaled.moments(lowest)
    if least == 0:  # no result ever but 0: no SCORE to compare
        return top
    bound = levels[-1] * sum(max(mean, 0) for mean in scaled.means)
    # The best SCORE's lam = A / (2 Q) lies within these (halved and doubled, so inside).
    low, high = Fraction(top_mean, 4 * most), Fraction(bound, least)
    ends = (scaled.solve(levels, low), scaled.solve(levels, high))
    found, pending = {top, *ends}, [ends]
    while pending:
        left, right = pending.pop()
        (left_mean, left_square), (right_mean, right_square) = (
            scaled.moments(left),
            scaled.moments(right),
        )
        if left_square == right_square:
            continue
        meet = Fraction(left_mean - right_mean, left_square - right_square)
        middle = scaled.solve(levels, meet)
        mean, square = scaled.moments(middle)
        if mean - meet * square > left_mean - meet * left_square:
            found.add(middle)
            pending += [(left, middle), (middle, right)]

    def rank(stakes: tuple[int, ...]) -> tuple[Fraction, int, tuple[int, ...]]:
        mean, square = scaled.moments(stakes)
        ratio = Fraction(mean * mean, square) if mean > 0 and square > 0 else Fraction(0)
        return ratio, -square, tuple(-s for s in stakes)

    return max(found, key=rank)


def optimal_stakes(
    bands: Sequence[BandSums], levels: Sequence[int], bankroll: Fraction | None
) -> tuple[int, ...]:
    """Each band's stake, among *levels* and nondecreasing: the best growth with *bankroll*,
    or the best SCORE without one (see the module docstring)."""
    if not bands:
        raise SimulationError(
            "The flat pilot made no bet in any band; a ramp needs bets to derive its stakes from."
        )
    scaled = _Scaled.of(bands)
    if bankroll is not None:
        return scaled.solve(levels, 1 / (2 * bankroll))
    return _score_stakes(scaled, levels)


def ramp_of(
    bands: Sequence[BandSums], stakes: Sequence[int], counted: str, basis: Any = None
) -> Ramp:
    """The ramp staking each band its stake: a step wherever the stake rises.

    By count, a step at band b is reached at a count >= b; by EV, above b / 100 (the first
    step one band lower, so that every bet of the lowest band is staked).

    >>> bands = tuple(BandSums(b, 1, Fraction(0), Fraction(1)) for b in (1, 2, 3))
    >>> ramp_of(bands, (1, 1, 4), "true_count").text()
    'ramp:tc:1=1,3=4'
    >>> ramp_of(bands, (1, 1, 4), "ev_band").text()
    'ramp:0=1,3/100=4'
    """
    steps: list[tuple[Fraction, int]] = []
    for index, (band, units) in enumerate(zip(bands, stakes, strict=True)):
        if units < 1 or (steps and units <= steps[-1][1]):  # a step of 0 units bets nothing
            continue
        if counted == "ev_band":
            edge = Fraction(band.band - (1 if index == 0 else 0), 100)
        else:
            edge = Fraction(band.band)
        steps.append((edge, units))
    return Ramp(tuple(steps), counted != "ev_band", basis)


def pilot_seed(seed: int) -> int:
    """The seed of an optimal study's pilot: as many shoes, other than the study's.

    Drawn from ``numpy.random.SeedSequence(seed)`` (128 bits of its state; each shoe is
    one of its spawned children, so no shoe of the study is dealt again).

    >>> pilot_seed(1) != 1, pilot_seed(1) == pilot_seed(1), pilot_seed(1) < 2**128
    (True, True, True)
    """
    import numpy as np

    words = np.random.SeedSequence(seed).generate_state(4, np.uint32).tolist()
    return sum(int(word) << (32 * index) for index, word in enumerate(words))


def pilot_study(simulation: StudyT) -> StudyT:
    """The flat pilot of an optimal study: as many shoes of another seed (:func:`pilot_seed`,
    so that the ramp is measured on shoes its fit did not see), the same plays, 1 unit a
    bet, with exact second moments (each band's, for the fit)."""
    return dataclasses.replace(
        simulation,
        seed=pilot_seed(simulation.seed),
        stake=Flat(1),
        limits=TableLimits(),
        bankroll=None,
        trip_shoes=1,
        exact_moments=True,
        questions=RiskQuestions(),
    )


def derived_study(simulation: StudyT, pilot: Tally, multiplier: Fraction = Fraction(1)) -> StudyT:
    """*simulation* with its optimal stake replaced by the ramp the pilot's bands give
    (with a bankroll: the growth of *multiplier* times it, a Kelly fraction).

    The pilot's bands are merged to at least :data:`MIN_BAND_BETS` bets each first.  The
    ramp records its basis (``staking.optimal`` in the JSON): the objective, the (merged)
    bands with their per-bet figures and stakes, and the objective of the ramp and of flat
    betting at the spread's minimum (floats, for display: the choice was made exactly).
    """
    optimal = simulation.stake
    if not isinstance(optimal, Optimal):
        raise SimulationError("derived_study needs a study whose `stake` is optimal.")
    levels = optimal.levels(simulation.limits)
    counted, measured = pilot_bands(pilot, simulation.strategies)
    bands = merged_bands(measured)
    bankroll = simulation.bankroll
    stakes = optimal_stakes(bands, levels, bankroll * multiplier if bankroll else None)
    flat = tuple(levels[0] for _ in bands)

    def objective(chosen: tuple[int, ...]) -> float:
        if bankroll is None:
            return float(score(bands, pilot.rounds, chosen))
        return float(growth(bands, pilot.rounds, chosen, bankroll))

    basis = {
        "objective": "score" if bankroll is None else "growth",
        "bankroll": fraction_string(bankroll) if bankroll is not None else None,
        "bankroll_multiplier": fraction_string(multiplier) if bankroll is not None else None,
        "spread": f"{optimal.minimum}-{optimal.maximum}",
        "stakes": list(levels) if len(levels) <= 20 else [levels[0], levels[-1]],
        "pilot": {
            "stake": "flat 1",
            "shoes": pilot.shoes,
            "rounds": pilot.rounds,
            "seed": str(pilot_seed(simulation.seed)),
        },
        "counted": counted,
        "second_moment": "per band, the exact E[X**2] of the pilot's bets in it",
        "min_band_bets": MIN_BAND_BETS,
        "bands_measured": len(measured),
        "bands": [
            {
                "band": band.band,
                "bets_made": band.bets_made,
                "ev_per_bet": float(band.expected / band.bets_made),
                "second_moment_per_bet": float(band.squares / band.bets_made),
                "units": units,
            }
            for band, units in zip(bands, stakes, strict=True)
        ],
        "value": objective(stakes),  # in sample: on the pilot the ramp was fitted to
        "flat_value": objective(flat),
    }
    return dataclasses.replace(simulation, stake=ramp_of(bands, stakes, counted, basis))


#: The multipliers of the bankroll tried in turn to meet a risk target (Kelly fractions).
RISK_MULTIPLIERS = tuple(Fraction(1, 2**power) for power in range(7))


def risk_limited_study(simulation: StudyT, pilot: Tally, run: Callable[[StudyT], Any]) -> StudyT:
    """With a bankroll and a `risk` target: the growth-optimal ramp of the largest multiplier
    of the bankroll (1, 1/2, ..., 1/64, :data:`RISK_MULTIPLIERS`) whose trip's risk estimate
    (``risk_of_ruin.estimate.trip``, *run* on the same shoes) is at most the target; else
    the last (smallest) ramp tried.  Without both, :func:`derived_study`.

    The estimate is the study's own (a float, from the dynamic programme over the measured
    shoes); the ramps tried, with their estimates, are recorded in the basis.
    """
    target, bankroll = simulation.questions.risk, simulation.bankroll
    if target is None or bankroll is None:
        return derived_study(simulation, pilot)
    tried: list[dict[str, Any]] = []
    chosen: StudyT | None = None
    met = False
    for multiplier in RISK_MULTIPLIERS:
        study = derived_study(simulation, pilot, multiplier)
        ramp = study.stake
        assert isinstance(ramp, Ramp)
        if chosen is not None and ramp.steps == getattr(chosen.stake, "steps", None):
            continue  # the same ramp as the last: the same risk
        result = run(study)
        if not result.complete:
            raise SimulationError(
                "The run was stopped while the ramps for `risk` were tried; nothing was run "
                "with the ramp."
            )
        risk = _trip_risk(result.risk_figures)
        tried.append({"multiplier": fraction_string(multiplier), "ramp": ramp.text(), "risk": risk})
        chosen = study
        if risk is not None and Fraction(risk) <= target:
            met = True
            break
    assert chosen is not None and isinstance(chosen.stake, Ramp)
    basis = dict(chosen.stake.basis or {}) | {
        "risk_target": fraction_string(target),
        "risk_target_met": met,
        "tried": tried,
    }
    return dataclasses.replace(chosen, stake=dataclasses.replace(chosen.stake, basis=basis))


def _trip_risk(figures: RiskFigures) -> float | None:
    """The trip's risk of ruin estimate of a result's risk figures, if it has one."""
    estimate = (figures.ruin or {}).get("estimate") or {}
    mean = estimate.get("trip", {}).get("mean")
    return float(mean) if mean is not None else None
