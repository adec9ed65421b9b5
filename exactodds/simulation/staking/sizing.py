"""The stakes of a block's rounds: the hook :mod:`~exactodds.simulation.block` calls.

:func:`sized` turns each strategy's decisions into stakes (flat, ramp or Kelly, under
the table limits) and each round's result into units won; the block then sums what the
risk figures need from them (:func:`~exactodds.simulation.block.risk_tally`).

>>> from exactodds.bets.catalogue import select_bets
>>> from exactodds.simulation.dealing import DealingProcedure
>>> from exactodds.simulation.study import Simulation
>>> from exactodds.simulation.block import run_block
>>> study = Simulation.of(2, 1, bets=select_bets("tie"), procedure=DealingProcedure(decks=1))
>>> run_block(study, 0, 2).tally.risk.trips
2
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from exactodds.analysis.many import Analyzer
from exactodds.bets.bet import Bet
from exactodds.errors import SimulationError
from exactodds.rules import Rules
from exactodds.simulation.dealing import DealingProcedure, DealtBlock
from exactodds.simulation.evaluate import ExpectedValues, exact_expected_values
from exactodds.simulation.risk.sums import exact_product
from exactodds.simulation.risk.tally import MOMENT_BITS
from exactodds.simulation.staking.stakes import (
    Kelly,
    Ramp,
    block_stakes,
    product_bets,
    squared_bets,
)
from exactodds.simulation.staking.study import StakedStudy
from exactodds.simulation.strategies import Count

__all__ = [
    "Sized",
    "carried_bankroll",
    "second_moments",
    "sized",
    "trip_shoes_for",
]

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Sized:
    """A block's stakes and results (rounds x bets): whole units staked, results in 1/d."""

    stakes: IntArray
    results: IntArray
    growth: list[int]
    #: With exact moments: stake**2 x E[X**2 | composition] (units 2**-MOMENT_BITS).
    exact_squares: IntArray | None = None
    #: The strategies' decisions and each round's result per unit (for the flat figures).
    decided: npt.NDArray[np.bool_] | None = None
    pays: IntArray | None = None


@lru_cache(maxsize=4)
def _squared_analyzer(rules: Rules, bets: tuple[Bet, ...]) -> Analyzer:
    return Analyzer(rules, squared_bets(bets))


@lru_cache(maxsize=4)
def _product_analyzer(
    rules: Rules, bets: tuple[Bet, ...]
) -> tuple[Analyzer, tuple[Fraction, ...]] | None:
    """The pairs of bets as product bets with their scales, or None if the walk would price
    any (too slow)."""
    products = product_bets(bets)
    analyzer = Analyzer(rules, [bet for bet, _ in products])
    if "walk" in analyzer.routes().values():
        return None
    return analyzer, tuple(scale for _, scale in products)


def _cross_moments(
    simulation: StakedStudy, block: DealtBlock, values: ExpectedValues, decisions: list[Any]
) -> Any:
    """``cross(row, i, j)``: E[X_i X_j] per unit where two or more bets are made, or None."""
    if len(simulation.bets) < 2:
        return None
    candidates = np.stack(decisions, axis=1) & np.asarray(values.numerators > 0, dtype=bool)
    rows = np.flatnonzero(candidates.sum(axis=1) > 1)
    product = _product_analyzer(simulation.rules, simulation.bets) if len(rows) else None
    if product is None:
        return None
    analyzer, scales = product
    products = exact_expected_values(analyzer, block.known[rows], simulation.suited)
    position = {int(row): index for index, row in enumerate(rows)}
    size = len(simulation.bets)

    def cross(row: int, first: int, second: int) -> Any:
        column = first * size - first * (first + 1) // 2 + (second - first - 1)
        return products.fraction(position[row], column) * scales[column]

    return cross


def second_moments(
    rules: Rules, bets: tuple[Bet, ...], known: npt.NDArray[np.int64], suited: bool
) -> ExpectedValues:
    """Each bet's exact second moment per unit staked, E[X**2], on every row of *known*.

    The EV of the bet with its pays squared: the same kernel, the same exactness.
    """
    return exact_expected_values(_squared_analyzer(rules, bets), known, suited)


def sized(
    simulation: StakedStudy,
    bets: tuple[Bet, ...],
    block: DealtBlock,
    values: ExpectedValues,
    decisions: list[npt.NDArray[np.bool_]],
    pays: IntArray,
    carried: Fraction | None = None,
) -> Sized:
    """The stakes of every round and bet, and the results they win (units of 1/d).

    *carried* (Kelly): the bankroll the block's first shoe starts from, when that shoe is
    not the first of its trip.
    """
    kelly = isinstance(simulation.stake, Kelly)
    shoes = len(block.rounds_per_shoe)
    first = block.first_shoe
    trip = (
        [(first + shoe) % simulation.trip_shoes == 0 for shoe in range(shoes)],
        carried,
    )
    moments = (
        _moments_where_bet(simulation, block, decisions)
        if kelly or simulation.exact_moments
        else None
    )
    stakes, growth = block_stakes(
        simulation.stake,
        simulation.limits,
        simulation.bankroll,
        decisions,
        values,
        moments,
        pays,
        [bet.integer_pays()[1] for bet in simulation.bets],
        block.rounds_per_shoe.tolist(),
        _true_counts(simulation, block) if isinstance(simulation.stake, Ramp) else None,
        _cross_moments(simulation, block, values, decisions) if kelly else None,
        trip,
    )
    exact = None
    if simulation.exact_moments and moments is not None:
        # stake**2 x E[X**2 | composition], in units of 2**-MOMENT_BITS, for the bets made.
        scaled = moments.floats() * (stakes.astype(np.float64) ** 2) * 2.0**MOMENT_BITS
        if (
            scaled.size
            and float(np.abs(scaled).max()) * max(block.rounds_per_shoe.max(), 1) >= 2**62
        ):
            raise SimulationError(
                "Stakes this large overflow the exact second moments; use smaller stakes "
                "or leave out `exact_moments`."
            )
        exact = np.rint(scaled).astype(np.int64)
    decided = np.stack(decisions, axis=1) if decisions else None
    return Sized(stakes, exact_product(stakes, pays), growth, exact, decided, pays)


def carried_bankroll(simulation: StakedStudy, first_shoe: int, before: Any) -> Fraction | None:
    """The Kelly bankroll shoe *first_shoe* starts from, when a trip carries it there.

    None when no bankroll carries over (another stake, or the shoe starts its trip);
    else ``before(trip_start, shoes)`` must give the tally of the trip's earlier shoes,
    whose combined result the bankroll moved by.
    """
    if not isinstance(simulation.stake, Kelly) or simulation.bankroll is None:
        return None
    inside = first_shoe % simulation.trip_shoes
    if inside == 0:
        return None
    risk = before(first_shoe - inside, inside).risk
    return simulation.bankroll + Fraction(risk.combined_realized.total, risk.combined_denominator)


def _moments_where_bet(
    simulation: StakedStudy, block: DealtBlock, decisions: list[npt.NDArray[np.bool_]]
) -> ExpectedValues:
    """The exact second moments on every row where some bet is made (1 elsewhere, unused).

    Only those rows are evaluated: a second kernel pass over the rounds bet, not all.
    """
    rows = np.flatnonzero(np.logical_or.reduce(decisions)) if decisions else np.zeros(0, int)
    width = len(simulation.bets)
    if len(rows) == 0:
        ones = np.ones((len(block.known), width), dtype=np.int64)
        return ExpectedValues(np.zeros_like(ones), ones)
    some = second_moments(simulation.rules, simulation.bets, block.known[rows], simulation.suited)
    kind = object if some.numerators.dtype == object else np.int64
    numerators = np.zeros((len(block.known), width), dtype=kind)
    denominators = np.ones((len(block.known), width), dtype=kind)
    numerators[rows] = some.numerators
    denominators[rows] = some.denominators
    return ExpectedValues(numerators, denominators)


def _true_counts(
    simulation: StakedStudy, block: DealtBlock
) -> list[tuple[IntArray, IntArray]] | None:
    """Each bet's count before every round as a ratio, for a count ramp (else None)."""
    assert isinstance(simulation.stake, Ramp)
    if not simulation.stake.by_count:
        return None
    decks = simulation.procedure.decks
    ratios = []
    for strategy in simulation.strategies:
        assert isinstance(strategy, Count), "checked when the simulation was built"
        running = strategy.running_counts(block.known, decks)
        if strategy.running:
            ratios.append((running, np.ones_like(running)))
        else:  # true count = running / (unseen / 52)
            ratios.append((52 * running, block.known.sum(axis=1)))
    return ratios


#: Cards a baccarat round uses on average (8 decks: about 4.94), for the trip length.
_CARDS_PER_ROUND = 4.94


def trip_shoes_for(trip_rounds: int, procedure: DealingProcedure) -> int:
    """Whole shoes that make about *trip_rounds* rounds (at least one).

    The simulated trips chain whole shoes (so shoes stay independent units of work);
    the formulas are given the rounds per trip the simulation actually dealt.

    >>> trip_shoes_for(800, DealingProcedure())
    10
    """
    dealt = 52 * procedure.decks - procedure.cut - 6
    per_shoe = max(1.0, dealt / _CARDS_PER_ROUND + procedure.after_cut)
    return max(1, round(trip_rounds / per_shoe))
