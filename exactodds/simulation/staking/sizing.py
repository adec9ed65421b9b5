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
from exactodds.errors import ExactOddsError, SimulationError
from exactodds.numbers import parse_number
from exactodds.rules import Rules
from exactodds.simulation.dealing import DealingProcedure, DealtBlock
from exactodds.simulation.evaluate import ExpectedValues, exact_expected_values
from exactodds.simulation.risk.questions import RiskGrid, RiskQuestions, check_grid_size
from exactodds.simulation.risk.sums import exact_product
from exactodds.simulation.risk.tally import MOMENT_BITS
from exactodds.simulation.staking.stakes import (
    Kelly,
    Ramp,
    TableLimits,
    block_stakes,
    parse_spread,
    parse_stake,
    product_bets,
    squared_bets,
)
from exactodds.simulation.strategies import Count
from exactodds.simulation.study import Simulation

__all__ = [
    "Sized",
    "carried_bankroll",
    "read_number",
    "second_moments",
    "sized",
    "sizing_from_options",
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
    simulation: Simulation, block: DealtBlock, values: ExpectedValues, decisions: list[Any]
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
    simulation: Simulation,
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


def carried_bankroll(simulation: Simulation, first_shoe: int, before: Any) -> Fraction | None:
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
    simulation: Simulation, block: DealtBlock, decisions: list[npt.NDArray[np.bool_]]
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
    simulation: Simulation, block: DealtBlock
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


def read_number(text: str, what: str, valid: str) -> Fraction:
    """*text* read exactly as a number, or one sentence naming *what* and what is *valid*.

    >>> read_number("1/200", "`min_edge`", "use an edge such as 0.5%")
    Fraction(1, 200)
    >>> read_number("abc", "`min_edge`", "use an edge such as 0, 0.5% or 1/200")
    Traceback (most recent call last):
    ...
    exactodds.errors.SimulationError: `min_edge` 'abc' is not a number; use an edge such as 0, 0.5% or 1/200.
    """
    try:
        return parse_number(text, what)
    except ExactOddsError:
        raise SimulationError(f"{what} {text!r} is not a number; {valid}.") from None


def sizing_from_options(
    procedure: DealingProcedure,
    stake: str = "flat",
    table_min: int = 1,
    table_max: int | None = None,
    chip: int = 1,
    bankroll: str | None = None,
    risk: str | None = None,
    trip_rounds: int | str | None = None,
    rounds_per_hour: int | None = None,
    exact_moments: bool = False,
    unit: str | None = None,
    spread: str | None = None,
) -> dict[str, Any]:
    """The sizing keywords of :meth:`Simulation.of` from option values, checked before dealing.

    *bankroll* and *trip_rounds* may each list several values (``"100,200"``, ``"800,4000"``):
    a risk grid (``grid``) of every combination, the first of each the study's own.

    >>> sizing_from_options(DealingProcedure(), "kelly:1/2", bankroll="1000")["bankroll"]
    Fraction(1000, 1)
    >>> sizing_from_options(DealingProcedure(), bankroll="-5")
    Traceback (most recent call last):
    ...
    exactodds.errors.SimulationError: `bankroll` -5 is not valid; use a positive number of units, such as 1000.
    """
    limits = TableLimits(table_min, table_max, chip)
    bankrolls, trips = _listed(bankroll), _listed(trip_rounds)
    check_grid_size(len(bankrolls or ["-"]), len(trips or ["-"]))  # before reading any value
    amounts = [_bankroll(text) for text in bankrolls] if bankrolls is not None else [None]
    lengths = [_trip_rounds(text) for text in trips] if trips is not None else [None]
    shoes = [trip_shoes_for(rounds, procedure) if rounds is not None else 1 for rounds in lengths]
    grid = None
    if len(amounts) > 1 or len(lengths) > 1:
        if amounts[0] is None:
            raise SimulationError(
                f"`trip_rounds` {trip_rounds} asks for a risk grid of several trip lengths, "
                "which needs `bankroll` UNITS."
            )
        grid = RiskGrid(tuple(amounts), tuple(lengths), tuple(shoes))
    amount = amounts[0]
    target = (
        read_number(
            risk, "`risk`", "use a risk of ruin strictly between 0 and 1, such as 5% or 0.05"
        )
        if risk is not None
        else None
    )
    if target is not None and not 0 < target < 1:
        raise SimulationError(
            f"`risk` {risk} is not valid; use a risk of ruin strictly between 0 and 1, such as "
            "5% or 0.05."
        )
    money = (
        read_number(unit, "`unit`", "use a positive amount of money for one unit, such as 25")
        if unit is not None
        else None
    )
    questions = RiskQuestions(target, rounds_per_hour, lengths[0], money)
    optimal = stake.strip().lower() == "optimal"
    if spread is not None and not optimal:
        raise SimulationError(
            f"`spread` {spread} bounds the ramp `stake` optimal derives, not `stake` "
            f"{stake.strip()!r}; give `stake` optimal or leave out `spread`."
        )
    return {
        "stake": parse_spread(spread)
        if optimal and spread is not None
        else parse_stake(stake, limits),
        "limits": limits,
        "bankroll": amount,
        "trip_shoes": shoes[0],
        "questions": questions,
        "exact_moments": exact_moments,
    } | ({"grid": grid} if grid is not None else {})


def _listed(text: str | int | None) -> list[str] | None:
    """*text* split at its commas (a risk grid), or None (the count is bounded before any
    value is read)."""
    if text is None:
        return None
    if isinstance(text, int):
        return [str(text)]
    return text.split(",")


def _bankroll(text: str) -> Fraction:
    valid = "use a positive number of units, such as 1000"
    amount = read_number(text.strip(), "`bankroll`", valid)
    if amount <= 0:
        raise SimulationError(f"`bankroll` {text.strip()} is not valid; {valid}.")
    return amount


def _trip_rounds(text: str) -> int:
    cleaned = text.strip().replace("_", "")
    digits = cleaned.isascii() and cleaned.isdigit() and len(cleaned) <= 19
    if not digits or not 1 <= int(cleaned) <= 10**18:
        raise SimulationError(
            f"`trip_rounds` {text.strip()!r} is not valid; use a whole number of rounds from 1 "
            "to 10^18, such as 800 (or several, such as 800,4000)."
        )
    return int(cleaned)
