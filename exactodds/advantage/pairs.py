"""Depth tables for pair and suited-pair bets: the law of two statistics of the cards left.

A pair bet is decided by the first four cards alone (P1, B1, P2, B2): the Player has a pair when
cards 1 and 3 are of one kind, the Banker when cards 2 and 4 are, a kind being a rank (pair
bets) or a rank and suit (suited pairs).  With ``n_k`` cards of kind ``k`` among the ``K`` left,

    P(Player pair) = P(Banker pair) = S / ff(K, 2),   S = sum_k n_k (n_k - 1),
    P(both pairs)  = (S**2 - 2 T) / ff(K, 4),          T = sum_k n_k (n_k - 1) (2 n_k - 3),

(the pairs of one kind in both hands count ``ff(n_k, 4)``, those of two kinds ``S**2`` less its
diagonal ``sum_k (n_k (n_k - 1))**2``, and ``ff(n, 4) - (n (n - 1))**2 = -2 n (n - 1)(2n - 3)``).
So every such bet's EV given the cards left is a function of ``(K, S, T)`` (of ``S`` alone for
a bet that looks at one hand), and its law over every composition of the ``K`` cards drawn from
the shoe is a small exact dynamic programme over the kinds: each kind adds its count's share of
``S`` and ``T`` and multiplies the weight by ``C(cards of the kind, count)``.  The programme
keeps, per (cards so far, S, T), the exact total weight and the number of compositions.

>>> from exactodds import Shoe
>>> from exactodds.bets.catalogue import select_bets
>>> from exactodds.rules import Rules
>>> route = pair_route(select_bets("player_pair")[0], Rules())
>>> route.suited, route.joint
(False, False)
>>> law = pair_law((4,) * 13, (0,) * 13, 6, joint=False)
>>> sum(weight for weight, _ in law.values()) == math.comb(52, 6)
True
>>> pair_route(select_bets("banker")[0], Rules()) is None
True
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from exactodds.bets.bet import Bet
from exactodds.engine.walk import RoundSummary, enumerate_rounds
from exactodds.rules import Rules, Tableau
from exactodds.shoe import Shoe

__all__ = ["PairRoute", "PairSums", "pair_law", "pair_route", "pair_scale", "pair_sums"]

#: The four (Player pair, Banker pair) cases, in the order of :attr:`PairRoute.outcomes`.
CASES = ((True, True), (True, False), (False, True), (False, False))

#: (S, T) -> (total weight, compositions) of the cards left.
Law = dict[tuple[int, int], tuple[int, int]]


@dataclass(frozen=True)
class PairRoute:
    """How a pair bet settles: its outcome in each of :data:`CASES`, on ranks or on suits.

    ``joint``: the outcome depends on both hands together (its EV then needs ``T`` too).
    """

    bet: Bet
    suited: bool
    outcomes: tuple[str, str, str, str]

    @property
    def joint(self) -> bool:
        both, player, banker, neither = self.outcomes
        return not (both == player and banker == neither) and not (
            both == banker and player == neither
        )


@cache
def _summaries(tableau: Tableau) -> tuple[RoundSummary, ...]:
    return tuple(enumerate_rounds(Shoe.standard(decks=8), tableau).counts)


def pair_route(bet: Bet, rules: Rules) -> PairRoute | None:
    """*bet*'s route if only the pairs (or only the suited pairs) of the first four cards
    decide it under *rules*, else ``None``."""
    suited = bool(bet.needs_suits)
    found: dict[tuple[bool, bool], str] = {}
    for summary in _summaries(rules.tableau):
        if suited:
            case = (bool(summary.player_suited_pair), bool(summary.banker_suited_pair))
        else:
            case = (summary.player_pair, summary.banker_pair)
        outcome = bet.settle_round(summary)
        if found.setdefault(case, outcome) != outcome:
            return None
    if len(found) != len(CASES):
        return None
    outcomes = tuple(found[case] for case in CASES)
    return PairRoute(bet, suited, (outcomes[0], outcomes[1], outcomes[2], outcomes[3]))


def pair_law(pool: Sequence[int], fixed: Sequence[int], draw: int, *, joint: bool) -> Law:
    """The exact law of (S, T) over the compositions of the cards left (``T`` is 0 unless
    *joint*): ``fixed[k]`` cards of kind k surely left, and *draw* more drawn from ``pool``.

    >>> pair_law((2, 2), (0, 0), 2, joint=True)  # both of one kind (S = 2, T = 2) or one each
    {(0, 0): (4, 1), (2, 2): (2, 2)}
    """
    capacity = [sum(pool[index:]) for index in range(len(pool) + 1)]
    states: dict[tuple[int, int, int], tuple[int, int]] = {(0, 0, 0): (1, 1)}
    for kind, available in enumerate(pool):
        later = capacity[kind + 1]
        following: dict[tuple[int, int, int], tuple[int, int]] = {}
        for (drawn, s, t), (weight, count) in states.items():
            for more in range(max(0, draw - drawn - later), min(available, draw - drawn) + 1):
                n = fixed[kind] + more
                share = n * (n - 1) * (2 * n - 3) if joint else 0
                key = (drawn + more, s + n * (n - 1), t + share)
                old_weight, old_count = following.get(key, (0, 0))
                following[key] = (
                    old_weight + weight * math.comb(available, more),
                    old_count + count,
                )
        states = following
    return {(s, t): value for (_, s, t), value in sorted(states.items())}


def pair_scale(cards: int, denominator: int) -> int:
    """The denominator of a pair bet's EV numerators at *cards* left: ff(K, 4) x its pays'."""
    return cards * (cards - 1) * (cards - 2) * (cards - 3) * denominator


def _numerator(pays: Sequence[int], cards: int, s: int, t: int) -> int:
    """The EV numerator over :func:`pair_scale` given (S, T), for the pays of :data:`CASES`."""
    both = s * s - 2 * t
    one = s * (cards - 2) * (cards - 3) - both
    neither = cards * (cards - 1) * (cards - 2) * (cards - 3) - 2 * one - both
    return pays[0] * both + pays[1] * one + pays[2] * one + pays[3] * neither


@dataclass(frozen=True)
class PairSums:
    """A pair bet's exact sums over the compositions, as :class:`~exactodds.advantage.
    compositions.Sums` has them for value bets: weights passing and in all, the weighted
    numerators where passing and in all, and the numerators' denominator ``scale``."""

    passing: int
    passing_numerator: int
    numerator: int
    weight: int
    scale: int


def pair_sums(
    route: PairRoute, law: Mapping[tuple[int, int], tuple[int, int]], cards: int, edge: Fraction
) -> PairSums:
    """One pair bet's sums from the law of (S, T) at *cards* left, passing above *edge*."""
    integer_pays, denominator = route.bet.integer_pays()
    pays = [integer_pays[outcome] for outcome in route.outcomes]
    scale = pair_scale(cards, denominator)
    threshold = edge * scale
    total = passing = passing_sum = mean_sum = 0
    for (s, t), (weight, _) in law.items():
        numerator = _numerator(pays, cards, s, t)
        total += weight
        mean_sum += weight * numerator
        if numerator > threshold:
            passing += weight
            passing_sum += weight * numerator
    return PairSums(passing, passing_sum, mean_sum, total, scale)
