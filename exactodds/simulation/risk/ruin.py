"""Risk of ruin from the per-shoe results the study measured: a dynamic programme, and Lundberg.

The diffusion formulas (:mod:`exactodds.analysis.risk`) assume many small, symmetric bets;
a long-shot bet is the opposite (rare big wins, a loss of B units takes B bets in a row).
These estimates assume only what the simulation guarantees: shoes are independent and
alike.  Each shoe's combined result is summarised by two numbers, in bins of ``bin_units``
units (the table minimum): its final total, rounded to the nearest bin, and the lowest point
its running total reached, rounded up (exact for a bankroll that is a whole number of bins:
``low <= -B`` exactly when ``ceil(low) <= -B``).  The measured distribution of those pairs,
over all the shoes dealt, drives:

* :func:`trip_ruin`: the chance that a trip of ``shoes`` shoes starting with B falls to 0 at
  some round: an absorbing-barrier dynamic programme over the bankroll, shoe by shoe (a shoe
  ruins when the bankroll before it plus its lowest point is at most 0, else moves the bankroll
  by its total).  Its standard error is the delta method's (the influence of each measured
  shoe on the result, over the shoes dealt): floats, an estimate.
* :func:`lundberg_ruin`: unlimited play: exp(-R B), R > 0 the adjustment coefficient solving
  E[exp(-R X)] = 1 for the per-shoe total X (Cramer-Lundberg; Lundberg's inequality makes it
  an upper bound for ruin checked at the ends of shoes; dips inside a shoe are not in it).

>>> outcomes = ((-1, -1, 1), (2, 0, 1))  # (total, lowest, shoes): lose 1 or win 2, evenly
>>> round(trip_ruin(outcomes, 1, 1)[0], 6), round(trip_ruin(outcomes, 1, 2)[0], 6)
(0.5, 0.5)
>>> round(trip_ruin(outcomes, 2, 3)[0], 6)  # -1 -1, or +2 -1 -1 -1 is past 3 shoes: 1/4
0.25
>>> trip_ruin((), 1, 1)
Traceback (most recent call last):
...
exactodds.errors.SimulationError: outcomes holds no shoe; a risk of ruin needs shoes dealt.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from exactodds.errors import SimulationError

__all__ = [
    "MOST_CELLS",
    "MOST_STATES",
    "MOST_WORK",
    "lundberg_ruin",
    "trip_bankroll",
    "trip_ruin",
    "trip_ruin_at",
]

#: The most bankroll levels the programme tracks (a bound on its memory and time).
MOST_STATES = 200_000
#: The most shoes x levels its tables hold (8 bytes each, two tables: a bound on memory), and
#: the most shoes x levels x distinct shoe outcomes it steps through (a bound on time).
MOST_CELLS = 10**7
MOST_WORK = 10**9

Outcomes = Sequence[tuple[int, int, int]]


def _distribution(outcomes: Outcomes) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    if not outcomes or sum(count for *_, count in outcomes) == 0:
        raise SimulationError("outcomes holds no shoe; a risk of ruin needs shoes dealt.")
    if max(max(abs(total), abs(low)) for total, low, _ in outcomes) >= 2**53:
        raise SimulationError(
            "outcomes moves by more than 2^53 bins in a shoe; a risk of ruin needs bins "
            "(the table minimum) nearer the stakes."
        )
    totals = np.array([total for total, _, _ in outcomes], dtype=np.int64)
    lows = np.array([low for _, low, _ in outcomes], dtype=np.int64)
    counts = np.array([count for *_, count in outcomes], dtype=np.float64)
    shoes = int(counts.sum())
    return totals, lows, counts / shoes, shoes


def _levels(lows: np.ndarray, shoes: int, bankroll: int) -> int:
    """The bankroll levels the programme tracks: 1 .. top (index level - 1).

    Above ``shoes x deepest`` no ruin can come within the trip (each shoe drops at most
    ``deepest``), so that mass is safe and leaves.
    """
    deepest = max(int(-lows.min()), 1)
    top = max(shoes * deepest, bankroll)
    if top > MOST_STATES:
        raise SimulationError(
            f"A trip of {shoes} shoes whose shoes can fall {deepest} bins is past the "
            f"{MOST_STATES:,} bankroll levels the risk programme tracks; use shorter trips."
        )
    cells = (shoes + 1) * (top + 1)
    if cells > MOST_CELLS or cells * len(lows) > MOST_WORK:
        raise SimulationError(
            f"A trip of {shoes} shoes over {top:,} bankroll levels and {len(lows):,} distinct "
            f"shoes is past what the risk programme tracks ({MOST_CELLS:,} shoes x levels, "
            f"{MOST_WORK:,} with the shoes); use shorter trips."
        )
    return top


def _values(
    totals: np.ndarray, lows: np.ndarray, weights: np.ndarray, shoes: int, top: int
) -> np.ndarray:
    """value[j][i]: the chance of ruin from level i + 1 with j shoes left (column top: safe)."""
    value = np.zeros((shoes + 1, top + 1))
    for left in range(1, shoes + 1):
        previous = value[left - 1]
        current = np.zeros(top + 1)
        for total, low, weight in zip(
            totals.tolist(), lows.tolist(), weights.tolist(), strict=True
        ):
            cut = min(-low, top)  # levels 1 .. -low are ruined by this shoe
            current[:cut] += weight
            targets = np.minimum(np.arange(cut, top) + total, top)
            current[cut:top] += weight * previous[targets]
        current[top] = 0.0
        value[left] = current
    return value


def _stderr(
    distribution: tuple[np.ndarray, np.ndarray, np.ndarray, int],
    value: np.ndarray,
    bankroll: int,
    shoes: int,
) -> float:
    """The delta method's standard error of value[shoes][bankroll - 1] over the shoes dealt."""
    totals, lows, weights, dealt = distribution
    top = value.shape[1] - 1
    alive = np.zeros((shoes, top))
    alive[0, bankroll - 1] = 1.0
    for step in range(1, shoes):
        before = alive[step - 1]
        for total, low, weight in zip(
            totals.tolist(), lows.tolist(), weights.tolist(), strict=True
        ):
            cut = min(-low, top)
            if cut + total >= 0:  # levels cut .. top - 1 move by total; past top is safe
                end = min(top, top - total)
                if end > cut:
                    alive[step][cut + total : end + total] += weight * before[cut:end]
                continue
            targets = np.arange(cut, top) + total  # (a total below the lowest point, rounded)
            keep = targets < top
            np.add.at(alive[step], targets[keep], weight * before[cut:top][keep])
    gradient = np.zeros(len(totals))
    for step in range(shoes):
        mass = alive[step]
        later = value[shoes - step - 1]
        ruined = np.concatenate(([0.0], np.cumsum(mass)))
        for index, (total, low) in enumerate(zip(totals.tolist(), lows.tolist(), strict=True)):
            cut = min(-low, top)
            targets = np.minimum(np.arange(cut, top) + total, top)
            gradient[index] += ruined[cut] + float(mass[cut:top] @ later[targets])
    centred = gradient - float(weights @ gradient)
    variance = float(weights @ (centred * centred)) / dealt
    return math.sqrt(max(variance, 0.0))


def trip_ruin(outcomes: Outcomes, bankroll: int, shoes: int) -> tuple[float, float]:
    """The chance of ruin of a trip of *shoes* shoes with *bankroll* bins, and its stderr.

    *outcomes*: (total, lowest, number of shoes) triples, in bins (see the module docstring).
    """
    distribution = _distribution(outcomes)
    totals, lows, weights, _ = distribution
    if bankroll < 1 or shoes < 1:
        raise SimulationError("bankroll and shoes must be at least 1 for a risk of ruin.")
    top = _levels(lows, shoes, bankroll)
    value = _values(totals, lows, weights, shoes, top)
    risk = float(value[shoes][bankroll - 1])
    return min(max(risk, 0.0), 1.0), _stderr(distribution, value, bankroll, shoes)


def trip_ruin_at(
    outcomes: Outcomes, bankrolls: Sequence[int], shoes: int
) -> list[tuple[float, float]]:
    """:func:`trip_ruin` at each of *bankrolls* (bins): one backward pass gives the risk from
    every level; each bankroll's standard error is its own forward pass.

    >>> [round(risk, 6) for risk, _ in trip_ruin_at(((-1, -1, 1), (2, 0, 1)), [1, 2, 3], 3)]
    [0.5, 0.25, 0.125]
    """
    distribution = _distribution(outcomes)
    totals, lows, weights, _ = distribution
    if not bankrolls or min(bankrolls) < 1 or shoes < 1:
        raise SimulationError("bankroll and shoes must be at least 1 for a risk of ruin.")
    top = _levels(lows, shoes, max(bankrolls))
    value = _values(totals, lows, weights, shoes, top)
    return [
        (
            min(max(float(value[shoes][bankroll - 1]), 0.0), 1.0),
            _stderr(distribution, value, bankroll, shoes),
        )
        for bankroll in bankrolls
    ]


def trip_bankroll(
    outcomes: Outcomes, shoes: int, risk: float, spread: float = 2.0
) -> tuple[int, int, int]:
    """The least bankroll (bins) whose trip risk is at most *risk*, and an interval around it.

    The bankroll is read off the programme's risk at every level (one pass).  The interval
    runs from the least bankroll whose risk minus *spread* standard errors is at most *risk*
    to the least whose risk plus *spread* standard errors is: found by galloping out from the
    bankroll and bisecting, each step one standard error (:func:`trip_ruin`'s), assuming each
    band falls as the bankroll grows.
    A bankroll above ``shoes`` x the deepest fall of a shoe is never ruined (risk 0, no error).

    >>> outcomes = ((-1, -1, 30), (2, 0, 70))  # lose 1 or win 2
    >>> trip_bankroll(outcomes, 3, 0.1)  # risk 0.3 (+- 0.046) at 1 bin, 0.09 at 2, 0.027 at 3
    (2, 2, 3)
    >>> trip_bankroll(outcomes, 3, 1.5)
    Traceback (most recent call last):
    ...
    exactodds.errors.SimulationError: risk 1.5 is not valid; a risk target is strictly between 0 and 1.
    """
    if not 0 < risk < 1:
        raise SimulationError(
            f"risk {risk} is not valid; a risk target is strictly between 0 and 1."
        )
    distribution = _distribution(outcomes)
    totals, lows, weights, _ = distribution
    if shoes < 1:
        raise SimulationError("bankroll and shoes must be at least 1 for a risk of ruin.")
    top = _levels(lows, shoes, 1)
    value = _values(totals, lows, weights, shoes, top)
    curve = value[shoes][:top]
    below = np.flatnonzero(curve <= risk)
    point = int(below[0]) + 1 if len(below) else top + 1
    errors: dict[int, float] = {}

    def band(level: int, sign: int) -> float:
        if level > top:  # past every fall a trip can take: never ruined
            return 0.0
        if level not in errors:
            errors[level] = _stderr(distribution, value, level, shoes)
        return float(curve[level - 1]) + sign * spread * errors[level]

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
    good, step = point, 1
    while good > 1 and band(max(good - step, 1), -1) <= risk:
        good, step = max(good - step, 1), 2 * step
    lower = least(-1, max(good - step, 0) + 1, good)
    bad, step = point - 1, 1
    while bad + step <= top and band(bad + step, 1) > risk:
        bad, step = bad + step, 2 * step
    return point, lower, least(1, bad + 1, min(bad + step, top + 1))


def lundberg_ruin(outcomes: Outcomes, bankroll: int) -> tuple[float, float] | None:
    """exp(-R B) and R for unlimited play (None when the mean per-shoe total is not positive).

    >>> risk, coefficient = lundberg_ruin(((-1, -1, 2), (2, 0, 1)), 1)
    >>> risk, round(coefficient, 9)  # E[exp(-R X)] = 1 has no root above 0: mean 0
    (1.0, 0.0)
    >>> round(lundberg_ruin(((-1, -1, 1), (2, 0, 1)), 2)[0], 6)  # R = ln((1 + sqrt 5) / 2)
    0.381966
    """
    totals, _, weights, _ = _distribution(outcomes)
    mean = float(weights @ totals)
    if mean <= 0 or totals.min() >= 0:
        return (1.0, 0.0) if mean <= 0 else (0.0, math.inf)

    def excess(rate: float) -> float:
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
    return math.exp(-high * bankroll), high
