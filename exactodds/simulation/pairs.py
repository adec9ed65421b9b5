"""Pair bets in closed form: the exact EV of a Player or Banker pair bet without the kernel.

The Player's first two cards are cards 1 and 3 of the round, the Banker's cards 2 and 4;
for a shoe of n cards with N_r cards of rank r, dealt in random order, each hand's
first two cards are a pair with chance ``S / (n (n - 1))``, ``S = sum N_r (N_r - 1)``.
A bet whose outcome depends only on whether one hand holds a pair (``player_pair``,
``banker_pair`` and custom bets of that shape, rank pairs only) then has the exact EV

    (S x win + (n (n - 1) - S) x lose) / (n (n - 1)),

which this module writes over the kernel's own denominator, ``ff(n, 6) x d`` (the six-card
sequences times the pay denominator): the numerators are the kernel's integers exactly
(``ff(n, 6) = n (n - 1) ff(n - 2, 4)``), so the floats, decisions and tallies drawn from
them are the same bit for bit, at a fraction of the cost.

>>> from exactodds.bets.catalogue import select_bets
>>> bets = select_bets("player_pair,banker_pair")
>>> values = pair_expected_values(bets, np.full((1, 52), 8))
>>> str(values.fraction(0, 0))
'-43/415'
>>> pair_expected_values(select_bets("banker"), np.full((1, 52), 8)) is None
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from exactodds.bets.bet import Bet
from exactodds.engine.walk import summary_of
from exactodds.simulation.dealing import SUMMARY_KEYS, summary_fields
from exactodds.simulation.evaluate import ExpectedValues

__all__ = ["pair_expected_values", "pair_shape"]


@lru_cache(maxsize=64)
def pair_shape(bet: Bet) -> tuple[int, int, int] | None:
    """(hand, pays on a pair, pays otherwise) in units of 1/d, or None if not a pair bet.

    *hand* is 6 for the Player's pair state, 7 for the Banker's (summary fields).  A bet
    qualifies when its outcome, over every round summary, depends only on whether that
    one hand holds a rank pair (suited or not) and it needs no suits.

    >>> from exactodds.bets.catalogue import select_bets
    >>> [pair_shape(bet) for bet in select_bets("player_pair,either_pair")]
    [(6, 11, -1), None]
    """
    if bet.needs_suits:
        return None
    pays, _ = bet.integer_pays()
    for hand in (6, 7):
        by_state: dict[bool, str] = {}
        for key in range(SUMMARY_KEYS):
            fields = summary_fields(key)
            try:
                outcome = bet.settle(summary_of(fields, True))
            except Exception:  # a custom bet that fails on a probe: the kernel's road refuses it
                return None
            if by_state.setdefault(fields[hand] != 0, outcome) != outcome:
                break
        else:
            if len(by_state) == 2:
                return hand, pays[by_state[True]], pays[by_state[False]]
    return None


def pair_expected_values(
    bets: Sequence[Bet],
    known: npt.NDArray[np.int64],
    routes: Mapping[str, str] | None = None,
    ranks: npt.NDArray[np.int64] | None = None,
) -> ExpectedValues | None:
    """Exact EVs of pair bets on each row of *known* (52 card counts), or None.

    *ranks*, when given, is *known* by rank (13 counts a row, as the dealing gives it).

    None unless every bet is a pair bet (:func:`pair_shape`) and every value fits int64.
    *routes* (:meth:`~exactodds.analysis.many.Analyzer.routes`) says how the analyzer prices
    each bet: only bets it prices from the pair states are looked at.
    """
    if routes is not None and any(routes.get(bet.name) != "pairs" for bet in bets):
        return None
    if not bets or any(pair_shape(bet) is None for bet in bets):  # stops at the first
        return None
    shapes = [pair_shape(bet) for bet in bets]
    if ranks is None:
        suits = np.asarray(known, dtype=np.int64).reshape(-1, 13, 4)
        # Four strided adds: ~10x faster than numpy's sum over a short last axis.
        ranks = suits[:, :, 0] + suits[:, :, 1] + suits[:, :, 2] + suits[:, :, 3]
    cards = ranks.sum(axis=1)
    largest = int(cards.max()) if len(cards) else 0
    widest = max(
        (bet.integer_pays()[1] * max(abs(shape[1]), abs(shape[2]), 1))
        for bet, shape in zip(bets, shapes, strict=True)
        if shape is not None
    )
    if len(cards) and (largest**6 * widest >= 2**62 or int(cards.min()) < 6):
        return None  # beyond int64 (or not a countable shoe): the kernel's road
    pairs = (ranks * (ranks - 1)).sum(axis=1)
    ordered = cards * (cards - 1)
    rest = (cards - 2) * (cards - 3) * (cards - 4) * (cards - 5)
    numerators = np.empty((len(cards), len(bets)), dtype=np.int64)
    denominators = np.empty((len(cards), len(bets)), dtype=np.int64)
    for column, (bet, shape) in enumerate(zip(bets, shapes, strict=True)):
        assert shape is not None
        _, win, lose = shape
        numerators[:, column] = (pairs * win + (ordered - pairs) * lose) * rest
        denominators[:, column] = ordered * rest * bet.integer_pays()[1]
    return ExpectedValues(numerators, denominators)
