"""A rebate's worth and the effective edge it leaves, per unit staked, exact.

A rolling-chip rebate pays a share *r* of the turnover on every round.  By the casinos'
dead-chip convention a push is not turnover, so a unit stake earns ``r * P(no push)``; a
programme that counts every stake (``Rebate.rolling_counts_pushes``) earns ``r``.

A loss rebate pays a share *s* of the net loss at the end of a trip, so its worth depends on
the trip.  By default the trip is one round: a unit stake earns ``s * E[max(0, -X)]``, *X*
the bet's net result, the most the rebate can be worth per unit staked (over a longer trip
wins offset losses before it is paid: ``E[max(0, -S)] <= sum E[max(0, -X)]``).  With
``Rebate(trip_rounds=N)`` the trip is N independent rounds of the bet, one unit each (each
round dealt from the full shoe, as a round of ``odds`` is): a unit staked earns
``s * E[max(0, -S)] / N``, *S* the sum of N rounds' results, exactly, from the exact
distribution of *S* (:func:`trip_expected_loss`, its work bounded before it starts).
``exactodds simulate --rebate`` prices trips of the shoe as it is dealt.

The effective EV is the EV plus both, per unit staked, the fee left out as the EV leaves it;
the effective RTP is ``(1 + effective EV) / (1 + fee)``.

>>> from exactodds import Rules, Shoe, analyze
>>> from exactodds.rules import Rebate
>>> banker = analyze(Shoe.standard(decks=8), Rules()).bets["banker"]
>>> figures = rebate_figures(banker, Rebate(loss="10%"))
>>> figures.expected_loss == banker.loss_probability
True
>>> figures.effective_expected_value == banker.expected_value + banker.loss_probability / 10
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from exactodds.analysis.single import BetAnalysis
from exactodds.errors import RulesError
from exactodds.rules import Rebate

__all__ = [
    "MOST_TRIP_DIGITS",
    "MOST_TRIP_WORK",
    "RebateFigures",
    "expected_loss",
    "rebate_figures",
    "trip_expected_loss",
    "trip_work",
]

#: The most work :func:`trip_expected_loss` takes on, in word operations (an estimate:
#: sums followed x results per round x words of a weight), some seconds of Python.
MOST_TRIP_WORK = 400_000_000
#: The most digits of the exact trip figure's denominator: below Python's default limit on
#: converting an integer to text and back (4,300 digits), which every reader of the JSON meets.
MOST_TRIP_DIGITS = 4_000


def expected_loss(result: BetAnalysis) -> Fraction:
    """``E[max(0, -X)]``: the bet's expected loss per unit staked, its wins counted as 0.

    >>> from exactodds import Rules, Shoe, analyze
    >>> tie = analyze(Shoe.standard(decks=1), Rules()).bets["tie"]
    >>> expected_loss(tie) == tie.loss_probability
    True
    """
    pays, denominator = result.bet.integer_pays()
    lost = sum(
        count * -pays[outcome]
        for outcome, count in result.outcome_counts.items()
        if pays[outcome] < 0
    )
    return Fraction(lost, result.total * denominator)


def _round_weights(result: BetAnalysis) -> tuple[dict[int, int], int]:
    """The bet's net results of one round (units of its pay denominator) -> integer weights,
    divided by their common factor, and the pay denominator."""
    pays, denominator = result.bet.integer_pays()
    weights: dict[int, int] = {}
    for outcome, count in result.outcome_counts.items():
        if count:
            weights[pays[outcome]] = weights.get(pays[outcome], 0) + count
    common = math.gcd(*weights.values())
    return {value: weight // common for value, weight in weights.items()}, denominator


def trip_work(result: BetAnalysis, rounds: int) -> int:
    """An upper bound on :func:`trip_expected_loss`'s work, in word operations, known before it
    starts: over each count of rounds that do not push, the sums they can reach (at most the
    compositions of the rounds into the bet's other results, and at most their span times the
    rounds) times those results times the 64-bit words of a weight.

    >>> from exactodds import Rules, Shoe, analyze
    >>> tie = analyze(Shoe.standard(decks=1), Rules()).bets["tie"]
    >>> trip_work(tie, 3) < trip_work(tie, 30) < MOST_TRIP_WORK
    True
    """
    weights, _ = _round_weights(result)
    moving = [value for value in weights if value != 0] or [0]
    kinds = len(moving)
    span = max(moving) - min(moving)
    bits = sum(weights.values()).bit_length()
    work = 0
    for done in range(1, rounds + 1):
        sums = min(math.comb(done + kinds - 1, kinds - 1), span * done + 1)
        work += sums * (kinds + 1) * (bits * done // 64 + 1)
        if work > MOST_TRIP_WORK:
            break
    return work


def _trip_digits(result: BetAnalysis, rounds: int) -> int:
    """A bound on the digits of the exact trip figure's denominator, ``total**rounds x d x N``."""
    weights, denominator = _round_weights(result)
    bits = rounds * sum(weights.values()).bit_length() + (denominator * rounds).bit_length()
    return bits * 30103 // 100000 + 1


def _trip_fits(result: BetAnalysis, rounds: int) -> bool:
    """Whether a trip of *rounds* rounds stays within both bounds, known before any work."""
    return (
        _trip_digits(result, rounds) <= MOST_TRIP_DIGITS
        and trip_work(result, rounds) <= MOST_TRIP_WORK
    )


def _most_rounds(result: BetAnalysis) -> int:
    """The longest trip within :data:`MOST_TRIP_WORK` and :data:`MOST_TRIP_DIGITS`."""
    low, high = 1, 2
    while _trip_fits(result, high):
        low, high = high, high * 2
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if _trip_fits(result, middle) else (low, middle)
    return low


def trip_expected_loss(result: BetAnalysis, rounds: int) -> Fraction:
    """``E[max(0, -S)] / rounds``: the expected net loss of a trip of *rounds* independent rounds
    of the bet, one unit each, per unit staked, exactly.

    A push adds 0 to the sum, so *S* is a mixture over the count *m* of rounds that do not push
    (``C(rounds, m)`` ways, each push of its weight): the sums of m rounds are the bet's other
    results convolved m times, integer weights, and each m's expected loss is read off as the
    convolution passes it; one Fraction at the end.  Refused, before any work, when
    :func:`trip_work` passes :data:`MOST_TRIP_WORK` or the exact figure would pass
    :data:`MOST_TRIP_DIGITS` digits.

    >>> from exactodds import Rules, Shoe, analyze
    >>> banker = analyze(Shoe.standard(decks=8), Rules()).bets["banker"]
    >>> trip_expected_loss(banker, 1) == expected_loss(banker)
    True
    >>> trip_expected_loss(banker, 2) < expected_loss(banker)
    True
    >>> trip_expected_loss(banker, 100_000)
    Traceback (most recent call last):
    ...
    exactodds.errors.RulesError: `trip_rounds` 100,000 asks for too long an exact sum of banker's rounds (its work and its exact figure's 4,000 digits are bounded); use at most 294 rounds for this bet.
    """
    if not _trip_fits(result, rounds):
        raise RulesError(
            f"`trip_rounds` {rounds:,} asks for too long an exact sum of {result.bet.name}'s "
            f"rounds (its work and its exact figure's {MOST_TRIP_DIGITS:,} digits are bounded); "
            f"use at most {_most_rounds(result):,} rounds for this bet."
        )
    weights, denominator = _round_weights(result)
    pushes = weights.pop(0, 0)
    total = sum(weights.values()) + pushes
    sums: dict[int, int] = {0: 1}
    lost = 0  # sum over the trips' sums below 0 of -sum x weight, weights over total**rounds
    for moved in range(1, rounds + 1):
        following: dict[int, int] = {}
        for partial, weight in sums.items():
            for value, chance in weights.items():
                reached = partial + value
                following[reached] = following.get(reached, 0) + weight * chance
        sums = following
        loss = sum(-reached * weight for reached, weight in sums.items() if reached < 0)
        if loss:
            lost += math.comb(rounds, moved) * pushes ** (rounds - moved) * loss
    return Fraction(lost, total**rounds * denominator * rounds)


@dataclass(frozen=True)
class RebateFigures:
    """One bet's figures under a rebate, per unit staked (the fee left out, as the EV is).

    ``turnover`` is the share of a unit stake counted as rolling turnover: the chance of no
    push (the dead-chip convention), or 1 when pushes count.  ``expected_loss`` is the
    expected net loss of a trip of ``trip_rounds`` rounds per unit staked, ``E[max(0, -S)] / N``
    (``E[max(0, -X)]`` over a one-round trip).

    >>> figures = RebateFigures(Rebate("1%"), Fraction(9, 10), Fraction(1, 2), Fraction(-1, 100))
    >>> figures.rolling_value, figures.value, figures.effective_house_edge
    (Fraction(9, 1000), Fraction(9, 1000), Fraction(1, 1000))
    >>> figures.effective_return_to_player(Fraction(1, 5)) == Fraction(999, 1200)
    True
    """

    rebate: Rebate
    turnover: Fraction
    expected_loss: Fraction
    expected_value: Fraction
    trip_rounds: int = 1

    @property
    def rolling_value(self) -> Fraction:
        """The rolling rebate per unit staked: ``rolling * turnover``."""
        return self.rebate.rolling * self.turnover

    @property
    def loss_value(self) -> Fraction:
        """The loss rebate per unit staked: ``loss * expected_loss`` (over the trip's rounds)."""
        return self.rebate.loss * self.expected_loss

    @property
    def value(self) -> Fraction:
        """Both rebates per unit staked."""
        return self.rolling_value + self.loss_value

    @property
    def effective_expected_value(self) -> Fraction:
        """The EV with the rebate paid: ``EV + rolling_value + loss_value``."""
        return self.expected_value + self.value

    @property
    def effective_house_edge(self) -> Fraction:
        """The house's edge left after the rebate (negative: the player has the edge)."""
        return -self.effective_expected_value

    def effective_return_to_player(self, fee: Fraction = Fraction(0)) -> Fraction:
        """``(1 + effective EV) / (1 + fee)``: money back over money paid, rebate included."""
        return (1 + self.effective_expected_value) / (1 + fee)


def rebate_figures(result: BetAnalysis, rebate: Rebate) -> RebateFigures:
    """The figures of *result*'s bet under *rebate*, the loss rebate over ``rebate.trip_rounds``
    independent rounds (:func:`trip_expected_loss`; one round by default).

    >>> from exactodds import Rules, Shoe, analyze
    >>> banker = analyze(Shoe.standard(decks=8), Rules()).bets["banker"]
    >>> rebate_figures(banker, Rebate("1%")).turnover == 1 - banker.push_probability
    True
    >>> rebate_figures(banker, Rebate("1%", rolling_counts_pushes=True)).turnover
    Fraction(1, 1)
    >>> rebate_figures(banker, "1%")
    Traceback (most recent call last):
    ...
    TypeError: rebate is '1%', not a Rebate; use Rebate(rolling='1%').
    """
    if not isinstance(rebate, Rebate):
        raise TypeError(f"rebate is {rebate!r}, not a Rebate; use Rebate(rolling='1%').")
    turnover = Fraction(1) if rebate.rolling_counts_pushes else 1 - result.push_probability
    rounds = rebate.trip_rounds
    loss = expected_loss(result) if rounds == 1 else trip_expected_loss(result, rounds)
    return RebateFigures(rebate, turnover, loss, result.expected_value, rounds)
