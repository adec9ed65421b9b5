"""A rebate's worth and the effective edge it leaves, per unit staked, exact.

A rolling-chip rebate pays a share *r* of the turnover on every round.  By the casinos'
dead-chip convention a push is not turnover, so a unit stake earns ``r * P(no push)``; a
programme that counts every stake (``Rebate.rolling_counts_pushes``) earns ``r``.

A loss rebate pays a share *s* of the net loss at the end of a trip, so its worth depends on
the trip.  Here the trip is one round, the only trip a single bet's exact distribution
prices alone: a unit stake earns ``s * E[max(0, -X)]``, *X* the bet's net result.  Over a
longer trip wins offset losses before the rebate is paid, so the rebate is worth less per
unit staked (by Jensen's inequality, ``E[max(0, -S)] <= sum E[max(0, -X)]``); ``exactodds
simulate --trip-rounds`` prices a trip of many rounds from the shoe as it is dealt.

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

from dataclasses import dataclass
from fractions import Fraction

from exactodds.analysis.single import BetAnalysis
from exactodds.rules import Rebate

__all__ = ["RebateFigures", "expected_loss", "rebate_figures"]


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


@dataclass(frozen=True)
class RebateFigures:
    """One bet's figures under a rebate, per unit staked (the fee left out, as the EV is).

    ``turnover`` is the share of a unit stake counted as rolling turnover: the chance of no
    push (the dead-chip convention), or 1 when pushes count.  ``expected_loss`` is
    ``E[max(0, -X)]`` over a one-round trip.

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

    @property
    def rolling_value(self) -> Fraction:
        """The rolling rebate per unit staked: ``rolling * turnover``."""
        return self.rebate.rolling * self.turnover

    @property
    def loss_value(self) -> Fraction:
        """The loss rebate per unit staked over a one-round trip: ``loss * E[max(0, -X)]``."""
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
    """The figures of *result*'s bet under *rebate* (a one-round trip for the loss rebate).

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
    return RebateFigures(rebate, turnover, expected_loss(result), result.expected_value)
