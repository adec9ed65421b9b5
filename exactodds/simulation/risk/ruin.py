"""Risk of ruin from the per-shoe results the study measured: a dynamic programme, and Lundberg.

The diffusion formulas (:mod:`exactodds.analysis.risk`) assume many small, symmetric bets;
a long-shot bet is the opposite (rare big wins, a loss of B units takes B bets in a row).
These estimates assume only what the simulation guarantees: shoes are independent and
alike.  Each shoe's combined result is summarised by two exact integers, in the caller's unit
(the combined result's: 1 / the least common multiple of the pay denominators): its final
total and the lowest point its running total reached (0 at its start, so never above 0).  The
measured distribution of those pairs, over all the shoes dealt, drives:

* :func:`trip_ruin`: the chance that a trip of ``shoes`` shoes starting with a bankroll of B
  falls to 0 or below at some round: an absorbing-barrier dynamic programme over the bankroll,
  shoe by shoe (a shoe ruins when the bankroll before it plus its lowest point is at most 0,
  else moves the bankroll by its total).  The bankroll's levels are the **exact lattice** of
  the measured results: steps of the greatest common divisor of every total and lowest point,
  so no result is rounded and the programme is exact for the measured distribution.  When that
  lattice is past the programme's bounds (:data:`MOST_STATES`, :data:`MOST_CELLS`,
  :data:`MOST_WORK`, checked before any work) the programme runs twice on coarser bins, once
  with every total and lowest point rounded down and once rounded up: shoe by shoe, the first
  path never lies above the exact one and the second never below, so the two risks bracket the
  exact one (:attr:`TripRisk.bounds`, a proven bound; the figure is their midpoint).  A level
  pushed to 0 or below is ruin.  Its standard error is the delta method's (the influence of each
  measured shoe on the result, over the shoes dealt): floats, an estimate.
* :func:`lundberg_ruin`: unlimited play: exp(-R B), R > 0 the adjustment coefficient solving
  E[exp(-R X)] = 1 for the per-shoe total X (Cramer-Lundberg; Lundberg's inequality makes it
  an upper bound for ruin checked at the ends of shoes; dips inside a shoe are not in it).

>>> outcomes = ((-1, -1, 1), (2, 0, 1))  # (total, lowest, shoes): lose 1 or win 2, evenly
>>> trip_ruin(outcomes, 1, 1).mean, trip_ruin(outcomes, 1, 2).mean
(0.5, 0.5)
>>> trip_ruin(outcomes, 2, 3).mean  # -1 -1, or +2 -1 -1 -1 is past 3 shoes: 1/4
0.25
>>> trip_ruin(((-2, -1, 1),), 2, 2)  # a total below its lowest point (rounded): 2 - 2 is 0
TripRisk(mean=1.0, stderr=0.0, bounds=None, step=2)
>>> trip_ruin(((57, 0, 1), (-60, -60, 1)), 1200, 1).step  # 3 x 19/20 and -3, in twentieths
3
>>> trip_ruin((), 1, 1)
Traceback (most recent call last):
...
exactodds.errors.SimulationError: outcomes holds no shoe; a risk of ruin needs shoes dealt.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from exactodds.errors import SimulationError

__all__ = [
    "MOST_CELLS",
    "MOST_STATES",
    "MOST_WORK",
    "TRIP_METHOD",
    "TripRisk",
    "lattice_step",
    "lundberg_ruin",
    "trip_bankroll",
    "trip_ruin",
    "trip_ruin_at",
]

#: The most bankroll levels the programme tracks (a bound on its memory and time).
MOST_STATES = 200_000
#: The most shoes x levels its tables hold (8 bytes each, two tables: a bound on memory), and
#: the most shoes x levels x distinct shoe totals it steps through (a bound on time).
MOST_CELLS = 10**7
MOST_WORK = 10**9

Outcomes = Sequence[tuple[int, int, int]]

#: How :func:`trip_ruin` found its figure, said beside it.
TRIP_METHOD = (
    "dynamic programme over the bankroll on the exact lattice of the measured per-shoe "
    "results (no result rounded); measured shoes, independent and alike"
)
BRACKET_METHOD = (
    "dynamic programme over the bankroll on bins of {step} units (the exact lattice is past "
    "the programme's bounds), once with every result rounded down and once up, the figure "
    "their midpoint; the two risks (bounds) bracket the exact one: a proven bound"
)
FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class TripRisk:
    """A trip's chance of ruin by the programme, with its delta-method standard error.

    ``step`` is the width of the bankroll's levels in the outcomes' unit: the exact lattice's
    (the gcd of the measured totals and lowest points), or, where that lattice is past the
    programme's bounds, the coarser bins of the bracket; then ``bounds`` holds the risks with
    every result rounded up and rounded down, which bracket the exact one (``mean`` is their
    midpoint, ``stderr`` the larger of theirs).

    >>> TripRisk(0.25, 0.01).exact
    True
    """

    mean: float
    stderr: float
    bounds: tuple[float, float] | None = None
    step: int = 1

    @property
    def exact(self) -> bool:
        """Whether the programme ran on the exact lattice (no result rounded)."""
        return self.bounds is None

    def to_dict(self, unit: Fraction, dealt: int) -> dict[str, Any]:
        """JSON-ready data: ``mean``, ``stderr`` (none from one shoe dealt), ``bounds`` and
        ``method``; *unit*: the outcomes' unit, in units of money.

        >>> TripRisk(0.3, 0.01, (0.2, 0.4), 5).to_dict(Fraction(1, 20), 9)["method"][:60]
        'dynamic programme over the bankroll on bins of 0.25 units (t'
        """
        data: dict[str, Any] = {"mean": self.mean, "stderr": self.stderr if dealt > 1 else None}
        if self.bounds is None:
            return data | {"bounds": None, "method": TRIP_METHOD}
        step = f"{float(self.step * unit):g}"
        return data | {"bounds": list(self.bounds), "method": BRACKET_METHOD.format(step=step)}


def _checked(outcomes: Outcomes) -> tuple[list[int], list[int], list[int]]:
    if not outcomes or sum(count for *_, count in outcomes) == 0:
        raise SimulationError("outcomes holds no shoe; a risk of ruin needs shoes dealt.")
    totals = [total for total, _, _ in outcomes]
    lows = [min(low, total, 0) for total, low, _ in outcomes]
    return totals, lows, [count for *_, count in outcomes]


def lattice_step(outcomes: Outcomes) -> int:
    """The exact lattice of *outcomes*: the gcd of every total and lowest point (1 if all are 0).

    >>> lattice_step(((-20, -20, 4), (57, -40, 1)))
    1
    >>> lattice_step(((-6, -9, 4), (15, 0, 1)))
    3
    """
    totals, lows, _ = _checked(outcomes)
    return math.gcd(*totals, *lows) or 1


@dataclass(frozen=True)
class _Binned:
    """The measured shoes on levels of *step* units, grouped by total: each total's chance and
    the chance, level by level, that a shoe has that total and does not reach the level."""

    totals: tuple[int, ...]
    chances: tuple[float, ...]
    #: per total, P(total, lowest > -level) for levels 0 .. its deepest fall (beyond: chance)
    kept: tuple[FloatArray, ...]
    #: per distinct (total, lowest): its index among totals, its depth and its weight
    pairs: tuple[tuple[int, int, float], ...]
    deepest: int
    dealt: int

    @classmethod
    def of(cls, outcomes: Outcomes, step: int, rounding: int = 0) -> _Binned:
        """*rounding* -1 rounds every value down to the step, +1 up, 0 requires it exact."""
        totals, lows, counts = _checked(outcomes)
        dealt = sum(counts)
        if max(map(abs, (*totals, *lows))) >= 2**53 * step:
            raise SimulationError(
                "outcomes moves by more than 2^53 levels in a shoe; a risk of ruin needs "
                "results nearer the bankroll."
            )

        def binned(value: int) -> int:
            return -(-value // step) if rounding > 0 else value // step

        merged: dict[int, dict[int, int]] = {}
        for total, low, count in zip(totals, lows, counts, strict=True):
            depth = -binned(low)
            by_depth = merged.setdefault(binned(total), {})
            by_depth[depth] = by_depth.get(depth, 0) + count
        ordered = sorted(merged)
        kept, pairs = [], []
        for index, total in enumerate(ordered):
            depths = merged[total]
            histogram = np.zeros(max(depths) + 2)
            for depth, count in depths.items():
                histogram[depth + 1] += count / dealt
                pairs.append((index, depth, count / dealt))
            kept.append(np.cumsum(histogram)[:-1])
        deepest = max(max(depths) for depths in merged.values())
        chances = tuple(sum(merged[total].values()) / dealt for total in ordered)
        return cls(tuple(ordered), chances, tuple(kept), tuple(pairs), deepest, dealt)

    def top(self, shoes: int) -> int:
        """The first level no trip of *shoes* shoes can ruin from (each shoe falls at most
        ``deepest``): levels from it up are safe."""
        return shoes * self.deepest + 1

    def fits(self, shoes: int) -> bool:
        """Whether the programme's tables and steps are within its bounds."""
        top = self.top(shoes)
        cells = (shoes + 1) * (top + 1) + sum(len(kept) for kept in self.kept)
        return (
            top <= MOST_STATES
            and cells <= MOST_CELLS
            and shoes * top * len(self.totals) <= MOST_WORK
        )

    def survival(self, top: int) -> FloatArray:
        """P(lowest > -level) for levels 0 .. top - 1: the shoe does not reach the level."""
        survive = np.zeros(top)
        for kept, chance in zip(self.kept, self.chances, strict=True):
            reach = min(len(kept), top)
            survive[:reach] += kept[:reach]
            survive[reach:] += chance
        return survive

    def moved(self, index: int, source: FloatArray, target: FloatArray, backward: bool) -> None:
        """Adds the shoes of total *index* that survive each level: backward, target[level] +=
        P(total, survive level) x source[level + total]; forward, target[level + total] +=
        source[level] x P(total, survive level).  Levels past the top are safe (dropped)."""
        total, kept, chance = self.totals[index], self.kept[index], self.chances[index]
        top = len(target)
        low = min(max(0, -total), top)
        high = max(low, min(top, top - total))
        middle = min(max(len(kept), low), high)
        if backward:
            target[low:middle] += kept[low:middle] * source[low + total : middle + total]
            target[middle:high] += chance * source[middle + total : high + total]
        else:
            target[low + total : middle + total] += source[low:middle] * kept[low:middle]
            target[middle + total : high + total] += chance * source[middle:high]


def _values(binned: _Binned, shoes: int, top: int) -> FloatArray:
    """value[j][level]: the chance of ruin from *level* with j shoes left (levels 0 .. top - 1;
    level 0 is ruin, levels from *top* up are safe)."""
    value = np.zeros((shoes + 1, top))
    value[:, 0] = 1.0
    reached = 1.0 - binned.survival(top)  # the shoe's lowest point reaches the level: ruin
    for left in range(1, shoes + 1):
        current = reached.copy()
        for index in range(len(binned.totals)):
            binned.moved(index, value[left - 1], current, backward=True)
        current[0] = 1.0
        value[left] = current
    return value


def _stderr(binned: _Binned, value: FloatArray, bankroll: int, shoes: int) -> float:
    """The delta method's standard error of value[shoes][bankroll] over the shoes dealt: the
    gradient of the risk in each distinct shoe's weight, from the chance of each level before
    each shoe (a forward pass) and the risk after it (the backward pass)."""
    top = value.shape[1]
    alive = np.zeros(top)
    alive[bankroll] = 1.0
    by_total: list[list[int]] = [[] for _ in binned.totals]
    for position, (index, _, _) in enumerate(binned.pairs):
        by_total[index].append(position)
    depths = np.array([min(depth, top) for _, depth, _ in binned.pairs], dtype=np.int64)
    gradient = np.zeros(len(binned.pairs))
    for step in range(shoes):
        later = value[shoes - step - 1]
        # A shoe falling d ruins the mass at levels 1 .. d; above d it moves by its total.
        reached = np.concatenate((np.cumsum(alive), [alive.sum()]))
        gradient += reached[depths]
        following = np.zeros(top)
        for index, positions in enumerate(by_total):
            moved = np.zeros(top)
            total = binned.totals[index]
            low = min(max(0, -total), top)
            high = max(low, min(top, top - total))
            moved[low:high] = alive[low:high] * later[low + total : high + total]
            above = np.concatenate((np.cumsum(moved[::-1])[::-1], [0.0, 0.0]))
            gradient[positions] += above[depths[positions] + 1]
            binned.moved(index, alive, following, backward=False)
        alive = following
    weights = np.array([weight for *_, weight in binned.pairs])
    centred = gradient - float(weights @ gradient)
    variance = float(weights @ (centred * centred)) / binned.dealt
    return math.sqrt(max(variance, 0.0))


def _coarse_step(outcomes: Outcomes, step: int, shoes: int) -> int:
    """The least multiple of *step* whose bins (rounded down and up) fit the bounds."""
    factor = 2
    while True:
        width = step * factor
        if all(_Binned.of(outcomes, width, way).fits(shoes) for way in (-1, 1)):
            return width
        factor = max(factor + 1, factor * 5 // 4)


def _programmes(outcomes: Outcomes, shoes: int) -> tuple[int, list[_Binned]]:
    """The lattice step and its programme, or the bins and the two bracketing programmes
    (rounded up, then down), all sizes checked before any work."""
    step = lattice_step(outcomes)
    exact = _Binned.of(outcomes, step)
    if exact.fits(shoes):
        return step, [exact]
    width = _coarse_step(outcomes, step, shoes)
    return width, [_Binned.of(outcomes, width, way) for way in (1, -1)]


def _valid(bankrolls: Sequence[int], shoes: int) -> None:
    if not bankrolls or min(bankrolls) < 1 or shoes < 1:
        raise SimulationError("bankroll and shoes must be at least 1 for a risk of ruin.")


def trip_ruin(outcomes: Outcomes, bankroll: int, shoes: int) -> TripRisk:
    """The chance of ruin of a trip of *shoes* shoes with *bankroll* (in the outcomes' unit).

    *outcomes*: (total, lowest, number of shoes) triples (see the module docstring).
    """
    return _trip_risks(outcomes, [bankroll], shoes)[0]


def trip_ruin_at(outcomes: Outcomes, bankrolls: Sequence[int], shoes: int) -> list[TripRisk]:
    """:func:`trip_ruin` at each of *bankrolls*: one backward pass gives the risk from every
    level; each bankroll's standard error is its own forward pass.

    >>> [risk.mean for risk in trip_ruin_at(((-1, -1, 1), (2, 0, 1)), [1, 2, 3], 3)]
    [0.5, 0.25, 0.125]
    >>> trip_ruin_at(((-1, -1, 1), (2, 0, 1)), [3, 0], 3)
    Traceback (most recent call last):
    ...
    exactodds.errors.SimulationError: bankroll and shoes must be at least 1 for a risk of ruin.
    """
    return _trip_risks(outcomes, bankrolls, shoes)


def _trip_risks(outcomes: Outcomes, bankrolls: Sequence[int], shoes: int) -> list[TripRisk]:
    _checked(outcomes)
    _valid(bankrolls, shoes)
    step, programmes = _programmes(outcomes, shoes)
    levels = [-(-bankroll // step) for bankroll in bankrolls]
    results: list[list[tuple[float, float]]] = [[] for _ in bankrolls]
    for binned in programmes:
        top = binned.top(shoes)
        value = _values(binned, shoes, top)
        for index, level in enumerate(levels):
            if level >= top:  # past every fall the trip can take: never ruined
                results[index].append((0.0, 0.0))
                continue
            risk = min(max(float(value[shoes][level]), 0.0), 1.0)
            results[index].append((risk, _stderr(binned, value, level, shoes)))
    if len(programmes) == 1:
        return [TripRisk(risk, stderr, None, step) for ((risk, stderr),) in results]
    return [
        TripRisk((low + high) / 2, max(low_error, high_error), (low, high), step)
        for (low, low_error), (high, high_error) in results
    ]


def trip_bankroll(
    outcomes: Outcomes, shoes: int, risk: float, spread: float = 2.0
) -> tuple[int, int, int]:
    """The least bankroll (the outcomes' unit) whose trip risk is at most *risk*, and an
    interval around it.

    The bankroll is read off the programme's risk at every level (one pass), on the exact
    lattice, or where that is past the bounds on the bins with every result rounded down (the
    bracket's upper risk: enough bankroll for the exact risk too).  The interval runs from the
    least bankroll whose risk minus *spread* standard errors is at most *risk* to the least
    whose risk plus *spread* standard errors is: found by galloping out from the bankroll and
    bisecting, each step one standard error (:func:`trip_ruin`'s), assuming each band falls as
    the bankroll grows.  A bankroll above ``shoes`` x the deepest fall of a shoe is never ruined
    (risk 0, no error).

    >>> outcomes = ((-1, -1, 30), (2, 0, 70))  # lose 1 or win 2
    >>> trip_bankroll(outcomes, 3, 0.1)  # risk 0.3 (+- 0.046) at 1, 0.09 at 2, 0.027 at 3
    (2, 2, 3)
    >>> trip_bankroll(((-3, -3, 30), (6, 0, 70)), 3, 0.1)  # the same on a lattice of 3
    (6, 6, 9)
    >>> trip_bankroll(outcomes, 3, 1.5)
    Traceback (most recent call last):
    ...
    exactodds.errors.SimulationError: risk 1.5 is not valid; a risk target is strictly between 0 and 1.
    """
    if not 0 < risk < 1:
        raise SimulationError(
            f"risk {risk} is not valid; a risk target is strictly between 0 and 1."
        )
    _checked(outcomes)
    _valid([1], shoes)
    step, programmes = _programmes(outcomes, shoes)
    binned = programmes[-1]
    top = binned.top(shoes)
    value = _values(binned, shoes, top)
    curve = value[shoes]
    below = np.flatnonzero(curve[1:] <= risk)
    point = int(below[0]) + 1 if len(below) else top
    errors: dict[int, float] = {}

    def band(level: int, sign: int) -> float:
        if level >= top:  # past every fall a trip can take: never ruined
            return 0.0
        if level not in errors:
            errors[level] = _stderr(binned, value, level, shoes)
        return float(curve[level]) + sign * spread * errors[level]

    def least(sign: int, low: int, high: int) -> int:
        while low < high:  # band(high) <= risk throughout
            middle = (low + high) // 2
            if band(middle, sign) <= risk:
                high = middle
            else:
                low = middle + 1
        return high

    # Each end is usually near the bankroll: gallop out from it (steps 1, 2, 4, ...) to
    # bracket the end, then bisect the bracket (a few standard errors, not log2(top)).
    good, gallop = point, 1
    while good > 1 and band(max(good - gallop, 1), -1) <= risk:
        good, gallop = max(good - gallop, 1), 2 * gallop
    lower = least(-1, max(good - gallop, 0) + 1, good)
    bad, gallop = point - 1, 1
    while bad + gallop < top and band(bad + gallop, 1) > risk:
        bad, gallop = bad + gallop, 2 * gallop
    upper = least(1, bad + 1, min(bad + gallop, top))
    return point * step, lower * step, upper * step


def lundberg_ruin(outcomes: Outcomes, bankroll: int) -> tuple[float, float] | None:
    """exp(-R B) and R for unlimited play (None when the mean per-shoe total is not positive).

    >>> risk, coefficient = lundberg_ruin(((-1, -1, 2), (2, 0, 1)), 1)
    >>> risk, round(coefficient, 9)  # E[exp(-R X)] = 1 has no root above 0: mean 0
    (1.0, 0.0)
    >>> round(lundberg_ruin(((-1, -1, 1), (2, 0, 1)), 2)[0], 6)  # R = ln((1 + sqrt 5) / 2)
    0.381966
    """
    values, _, counts = _checked(outcomes)
    step = lattice_step(outcomes)  # R is found on the lattice, then per unit of the outcomes
    totals = np.array([total // step for total in values], dtype=np.float64)
    weights = np.array(counts, dtype=np.float64) / sum(counts)
    mean = float(weights @ totals)
    if mean <= 0 or totals.min() >= 0:
        return (1.0, 0.0) if mean <= 0 else (0.0, math.inf)

    def excess(rate: float) -> float:
        with np.errstate(over="ignore"):  # past the root the sum is infinite: still above 1
            return float(weights @ np.exp(-rate * totals)) - 1.0

    high = 1.0
    while excess(high) < 0 and high < 1e6:
        high *= 2
    low = 0.0
    for _ in range(200):
        middle = (low + high) / 2
        if excess(middle) < 0:
            low = middle
        else:
            high = middle
    return math.exp(-high * bankroll / step), high / step
