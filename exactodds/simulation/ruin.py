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
exactodds.simulation.dealing.SimulationError: outcomes holds no shoe; a risk of ruin needs shoes dealt.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from exactodds.simulation.dealing import SimulationError

__all__ = ["MOST_STATES", "lundberg_ruin", "trip_ruin", "trip_ruin_at"]

#: The most bankroll levels the programme tracks (a bound on its memory and time).
MOST_STATES = 200_000

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


def trip_ruin(outcomes: Outcomes, bankroll: int, shoes: int) -> tuple[float, float]:
    """The chance of ruin of a trip of *shoes* shoes with *bankroll* bins, and its stderr.

    *outcomes*: (total, lowest, number of shoes) triples, in bins (see the module docstring).
    """
    return trip_ruin_at(outcomes, [bankroll], shoes)[0]


#: The most floats the forward pass holds at once (bankrolls x shoes x levels): 80 MB.
_MOST_FLOATS = 10_000_000


def trip_ruin_at(
    outcomes: Outcomes, bankrolls: Sequence[int], shoes: int
) -> list[tuple[float, float]]:
    """:func:`trip_ruin` at each of *bankrolls* (bins), one programme for all of them.

    The chance of ruin from every level comes out of one backward pass; the standard
    errors need the mass at each level per bankroll, carried forward for several bankrolls
    at once (in chunks that bound the memory).

    >>> [round(risk, 6) for risk, _ in trip_ruin_at(((-1, -1, 1), (2, 0, 1)), [1, 2, 3], 3)]
    [0.5, 0.25, 0.125]
    """
    totals, lows, weights, dealt = _distribution(outcomes)
    if not bankrolls or min(bankrolls) < 1 or shoes < 1:
        raise SimulationError("bankroll and shoes must be at least 1 for a risk of ruin.")
    deepest = max(int(-lows.min()), 1)
    # States: bankroll levels 1 .. top (index level - 1); above top no ruin can come within
    # the trip (each shoe drops at most `deepest`), so that mass is safe and leaves.
    top = max(shoes * deepest, max(bankrolls))
    if top > MOST_STATES:
        raise SimulationError(
            f"A trip of {shoes} shoes whose shoes can fall {deepest} bins is past the "
            f"{MOST_STATES:,} bankroll levels the risk programme tracks; use shorter trips."
        )
    moves = [
        (min(-low, top), total, weight)  # levels 1 .. -low are ruined by this shoe
        for total, low, weight in zip(totals.tolist(), lows.tolist(), weights.tolist(), strict=True)
    ]
    value = _ruin_by_level(moves, top, shoes)
    chunk = max(1, _MOST_FLOATS // (shoes * top))
    results = []
    for first in range(0, len(bankrolls), chunk):
        part = list(bankrolls[first : first + chunk])
        gradient = _influence(moves, value, top, shoes, part)
        centred = gradient - (gradient @ weights)[:, None]
        variances = ((centred * centred) @ weights) / dealt
        for bankroll, variance in zip(part, variances.tolist(), strict=True):
            risk = float(value[shoes][bankroll - 1])
            results.append((min(max(risk, 0.0), 1.0), math.sqrt(max(variance, 0.0))))
    return results


def _ruin_by_level(moves: list[tuple[int, int, float]], top: int, shoes: int) -> np.ndarray:
    """value[j][i]: the chance of ruin from level i + 1 with j shoes left (column top: safe)."""
    value = np.zeros((shoes + 1, top + 1))
    for left in range(1, shoes + 1):
        previous = value[left - 1]
        current = np.zeros(top + 1)
        for cut, total, weight in moves:
            current[:cut] += weight
            # Levels past top - total leave for the safe region (value 0): they add nothing.
            upper = min(top, top - total)
            if upper > cut:
                current[cut:upper] += weight * previous[cut + total : upper + total]
        current[top] = 0.0
        value[left] = current
    return value


def _influence(
    moves: list[tuple[int, int, float]],
    value: np.ndarray,
    top: int,
    shoes: int,
    bankrolls: list[int],
) -> np.ndarray:
    """Per bankroll (rows) and outcome (columns), the derivative of the risk by the outcome's
    weight: the mass at each level before each shoe, carried forward, times what follows."""
    alive = np.zeros((shoes, len(bankrolls), top))
    alive[0, np.arange(len(bankrolls)), np.array(bankrolls) - 1] = 1.0
    for step in range(1, shoes):
        before = alive[step - 1]
        for cut, total, weight in moves:
            upper = min(top, top - total)  # the levels that stay below top
            if upper > cut:
                alive[step][:, cut + total : upper + total] += weight * before[:, cut:upper]
    gradient = np.zeros((len(bankrolls), len(moves)))
    for step in range(shoes):
        mass = alive[step]
        later = value[shoes - step - 1]
        ruined = np.concatenate((np.zeros((len(bankrolls), 1)), np.cumsum(mass, axis=1)), axis=1)
        for index, (cut, total, _) in enumerate(moves):
            upper = min(top, top - total)
            gradient[:, index] += ruined[:, cut]
            if upper > cut:
                gradient[:, index] += mass[:, cut:upper] @ later[cut + total : upper + total]
    return gradient


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
