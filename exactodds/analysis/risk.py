"""Risk formulas: DI, SCORE, N0, risk of ruin, the bankroll for a risk, and Kelly stakes.

Pure functions of a bet's per-round mean ``ev`` and standard deviation ``sd`` (in
units), the conventions of Jacobson's baccarat side-bet catalogue and of Schlesinger's
*Blackjack Attack*:

* DI (desirability index) = 1000 x EV / SD per round;
* SCORE = DI**2: the expected win per 100 rounds, in units, of a 10,000-unit bankroll
  bet by Kelly; 0 when the EV is not positive (Kelly stakes nothing);
* N0 = (SD / EV)**2: the rounds after which the expected win equals one standard
  deviation; none (NaN) when the EV is not positive.

Risk of ruin uses the diffusion (Brownian motion with drift) approximation of the
bankroll's path: these are floats, labelled estimates, never exact figures:

* unlimited play: ``exp(-2 EV B / SD**2)`` for EV > 0, else 1;
* a trip of T rounds: the chance that a Brownian motion with drift EV and variance
  SD**2 per round falls to -B by time T (the reflection formula).

Kelly stakes are exact: ``fraction x bankroll x EV / second moment`` as a Fraction.

>>> di(0.01, 1.0), score(0.01, 1.0), n0_rounds(0.01, 1.0)
(10.0, 100.0, 10000.0)
>>> round(risk_of_ruin(0.01, 1.0, 100), 6) == round(math.exp(-2), 6)
True
>>> bankroll_for_risk(0.01, 1.0, 0)
Traceback (most recent call last):
...
exactodds.analysis.risk.RiskError: Risk of ruin 0 is not valid; use a number strictly between 0 and 1, such as 5% or 0.05.
"""

from __future__ import annotations

import math
from fractions import Fraction

from exactodds.errors import ExactOddsError

__all__ = [
    "RiskError",
    "bankroll_for_risk",
    "di",
    "joint_kelly_stakes",
    "kelly_stake",
    "n0_rounds",
    "risk_of_ruin",
    "score",
    "trip_risk_of_ruin",
]


class RiskError(ExactOddsError):
    """A bankroll, risk or stake that is not valid."""


def di(ev: float, sd: float) -> float:
    """Desirability index: 1000 x EV / SD per round (NaN without a spread).

    >>> di(-0.0106, 0.9)
    -11.777777777777777
    """
    return 1000.0 * ev / sd if sd > 0 else math.nan


def score(ev: float, sd: float) -> float:
    """SCORE = DI**2: win per 100 rounds of a 10,000-unit bankroll bet by Kelly.

    A Kelly bettor stakes nothing on a bet whose EV is not positive, so its SCORE is 0
    (DI squared would rank a losing bet by the size of its loss).

    >>> score(0.02, 2.0), score(-0.1449, 2.6)
    (100.0, 0.0)
    """
    if not ev > 0:
        return 0.0 if not math.isnan(ev) else math.nan
    return di(ev, sd) ** 2


def n0_rounds(ev: float, sd: float) -> float:
    """N0 = (SD / EV)**2 rounds: where the expected win equals one standard deviation.

    Only a positive EV ever gets there: N0 is NaN (no figure) for an EV of 0 or less.

    >>> n0_rounds(0.5, 1.0), n0_rounds(-0.1449, 2.6)
    (4.0, nan)
    """
    return (sd / ev) ** 2 if ev > 0 else math.nan


def _check_bankroll(bankroll: float) -> None:
    if not bankroll > 0:
        raise RiskError(
            f"Bankroll {bankroll!r} is not valid; use a positive number of units, such as 1000."
        )


def _check_risk(risk: float) -> None:
    if not 0 < risk < 1:
        shown = f"{risk:g}" if isinstance(risk, float) else str(risk)
        raise RiskError(
            f"Risk of ruin {shown} is not valid; use a number strictly between 0 and 1, "
            "such as 5% or 0.05."
        )


def risk_of_ruin(ev: float, sd: float, bankroll: float) -> float:
    """Risk of losing *bankroll* units in unlimited play: exp(-2 EV B / SD**2) (diffusion).

    >>> risk_of_ruin(-0.01, 1.0, 100), risk_of_ruin(0.0, 1.0, 100)
    (1.0, 1.0)
    """
    _check_bankroll(bankroll)
    if sd <= 0:  # no spread: a sure loss ruins in the end, anything else never
        return 1.0 if ev < 0 else 0.0
    if ev <= 0:
        return 1.0
    return math.exp(-2.0 * ev * bankroll / sd**2)


def _log_normal_cdf(x: float) -> float:
    """log of the standard normal distribution function, accurate far in the left tail."""
    if x > -30:
        return math.log(0.5 * math.erfc(-x / math.sqrt(2.0)))
    # Mills ratio: Phi(x) ~ phi(x) / -x (1 - 1/x**2) for x -> -inf.
    return -x * x / 2 - math.log(-x) - 0.5 * math.log(2 * math.pi) + math.log1p(-1 / x**2)


def trip_risk_of_ruin(ev: float, sd: float, bankroll: float, rounds: float) -> float:
    """Risk of losing *bankroll* within a trip of *rounds* rounds (diffusion, reflection).

    P(min over t <= T of B + EV t + SD W_t <= 0)
    = Phi((-B - EV T) / (SD sqrt T)) + exp(-2 EV B / SD**2) Phi((-B + EV T) / (SD sqrt T)).

    >>> round(trip_risk_of_ruin(0.0, 1.0, 10, 100), 6)  # driftless: 2 Phi(-1)
    0.317311
    >>> trip_risk_of_ruin(0.1, 1.0, 10, 1e9) == risk_of_ruin(0.1, 1.0, 10)
    True
    """
    _check_bankroll(bankroll)
    if sd <= 0 or rounds <= 0:
        return 1.0 if rounds > 0 and ev * rounds <= -bankroll else 0.0
    spread = sd * math.sqrt(rounds)
    first = _log_normal_cdf((-bankroll - ev * rounds) / spread)
    second = -2.0 * ev * bankroll / sd**2 + _log_normal_cdf((-bankroll + ev * rounds) / spread)
    return min(1.0, math.exp(first) + math.exp(second))


def bankroll_for_risk(ev: float, sd: float, risk: float, rounds: float | None = None) -> float:
    """The bankroll in units whose risk of ruin is *risk* (unlimited play, or a trip).

    Unlimited play: B = -SD**2 ln(risk) / (2 EV), infinite for EV <= 0.  A trip of
    *rounds* rounds: :func:`trip_risk_of_ruin` solved for B by bisection.

    >>> round(bankroll_for_risk(0.01, 1.0, math.exp(-2)), 9)
    100.0
    >>> bankroll_for_risk(-0.01, 1.0, 0.05)
    inf
    """
    _check_risk(risk)
    if rounds is None:
        return -(sd**2) * math.log(risk) / (2.0 * ev) if ev > 0 else math.inf
    if sd <= 0:
        return max(0.0, -ev * rounds)
    low, high = 0.0, abs(ev) * rounds + 40.0 * sd * math.sqrt(rounds)
    for _ in range(200):
        middle = (low + high) / 2
        if trip_risk_of_ruin(ev, sd, max(middle, 1e-300), rounds) > risk:
            low = middle
        else:
            high = middle
    return high


def kelly_stake(
    fraction: Fraction, bankroll: Fraction, ev: Fraction, second_moment: Fraction
) -> Fraction:
    """The Kelly stake, exactly: fraction x bankroll x EV / E[X**2] (0 when EV <= 0).

    *ev* and *second_moment* are per unit staked at this composition.

    >>> kelly_stake(Fraction(1, 2), Fraction(1000), Fraction(1, 100), Fraction(2))
    Fraction(5, 2)
    >>> kelly_stake(Fraction(1), Fraction(1000), Fraction(-1, 100), Fraction(2))
    Fraction(0, 1)
    """
    if ev <= 0 or second_moment <= 0:
        return Fraction(0)
    return fraction * bankroll * ev / second_moment


def _solve(matrix: list[list[Fraction]], vector: list[Fraction]) -> list[Fraction] | None:
    """The exact solution of matrix x = vector (Gauss-Jordan), or None if singular."""
    size = len(vector)
    rows = [[*row, value] for row, value in zip(matrix, vector, strict=True)]
    for column in range(size):
        pivot = next((r for r in range(column, size) if rows[r][column] != 0), None)
        if pivot is None:
            return None
        rows[column], rows[pivot] = rows[pivot], rows[column]
        lead = rows[column][column]
        rows[column] = [value / lead for value in rows[column]]
        for other in range(size):
            if other != column and rows[other][column] != 0:
                factor = rows[other][column]
                rows[other] = [
                    a - factor * b for a, b in zip(rows[other], rows[column], strict=True)
                ]
    return [row[-1] for row in rows]


def joint_kelly_stakes(
    fraction: Fraction,
    bankroll: Fraction,
    evs: list[Fraction],
    moments: list[list[Fraction]],
) -> list[Fraction]:
    """Kelly stakes of several bets made in one round, sized together, exactly.

    Maximizing the second-order growth ``s . EV - s' M s / (2 bankroll)`` gives
    ``M s = fraction x bankroll x EV``, M the matrix of E[X_i X_j] per unit staked at
    this composition.  A bet whose stake comes out at or below 0 is dropped and the rest
    solved again.  With one bet this is :func:`kelly_stake`.

    >>> half = Fraction(1, 2)
    >>> joint_kelly_stakes(half, Fraction(1000), [Fraction(1, 100)], [[Fraction(2)]])
    [Fraction(5, 2)]
    >>> joint_kelly_stakes(Fraction(1), Fraction(100), [Fraction(1, 10), Fraction(1, 10)],
    ...     [[Fraction(2), Fraction(1)], [Fraction(1), Fraction(2)]])
    [Fraction(10, 3), Fraction(10, 3)]
    """
    active = [index for index, ev in enumerate(evs) if ev > 0]
    while active:
        solution = _solve(
            [[moments[i][j] for j in active] for i in active],
            [fraction * bankroll * evs[i] for i in active],
        )
        if solution is None:  # singular: each bet on its own
            return [kelly_stake(fraction, bankroll, ev, moments[i][i]) for i, ev in enumerate(evs)]
        if all(value > 0 for value in solution):
            stakes = [Fraction(0)] * len(evs)
            for index, value in zip(active, solution, strict=True):
                stakes[index] = value
            return stakes
        active = [index for index, value in zip(active, solution, strict=True) if value > 0]
    return [Fraction(0)] * len(evs)
