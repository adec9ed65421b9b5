"""One block of consecutive shoes: deal, evaluate in one batch, decide, settle, tally.

:func:`run_block` is the unit of work every runner hands out (in this process, to
worker processes, or to Dask workers): it depends only on the simulation and the
shoe numbers, never on which worker runs it or what ran before.

>>> from exactodds.bets.catalogue import select_bets
>>> from exactodds.simulation.dealing import DealingProcedure
>>> one_deck = Simulation.of(4, 2, bets=select_bets("tie"), procedure=DealingProcedure(decks=1))
>>> whole = run_block(one_deck, 0, 4).tally
>>> whole == run_block(one_deck, 0, 1).tally.merged(run_block(one_deck, 1, 3).tally)
True
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from exactodds.analysis.many import Analyzer
from exactodds.bets.bet import Bet
from exactodds.engine.walk import summary_of
from exactodds.errors import SimulationError
from exactodds.inputs import whole_number
from exactodds.numbers import fraction_string
from exactodds.rules import Rules, Tableau
from exactodds.simulation.cardpays import card_outcome, card_pays
from exactodds.simulation.dealing import (
    CARD_SYMBOLS,
    SUMMARY_KEYS,
    DealtBlock,
    deal_block,
    summary_fields,
)
from exactodds.simulation.evaluate import ExpectedValues, exact_expected_values
from exactodds.simulation.overlaypays import overlay_block
from exactodds.simulation.pair_study import pair_block_tally, pair_study_plan
from exactodds.simulation.pairs import pair_expected_values
from exactodds.simulation.pruned_pricing import pruned_expected_values
from exactodds.simulation.risk.paths import PathTally, block_path_tally
from exactodds.simulation.risk.sums import EV_SCALE, Sums, filled
from exactodds.simulation.risk.sums import exact_product as _product
from exactodds.simulation.risk.sums import summable as _summable
from exactodds.simulation.risk.tally import RiskTally, block_risk_tally
from exactodds.simulation.staking import sizing
from exactodds.simulation.staking.stakes import Flat
from exactodds.simulation.strategies import Count
from exactodds.simulation.study import Simulation
from exactodds.simulation.tally import (
    HISTOGRAM_BINS_PER_UNIT,
    Band,
    BetTally,
    Tally,
    histogram_of,
)
from exactodds.simulation.value_study import value_block_tally, value_study_plan

__all__ = [
    "BlockResult",
    "compiled_pairs",
    "compiled_values",
    "prepare",
    "risk_tally",
    "run_block",
]


@dataclass(frozen=True)
class _Prepared:
    analyzer: Analyzer
    pays: _PayTable


class _PayTable:
    """Each bet's net result per summary key, in units of its pay denominator, filled lazily."""

    def __init__(self, bets: Sequence[Bet]) -> None:
        self.bets = tuple(bets)
        self.integer_pays = [bet.integer_pays() for bet in bets]
        largest = max(
            (abs(pay) for pays, _ in self.integer_pays for pay in pays.values()), default=0
        )
        # Pays past 2**40 units (or their sums) may not fit int64: keep them Python integers.
        self.table = np.zeros(
            (SUMMARY_KEYS, len(bets)), dtype=np.int64 if largest < _INT64_PAYS else object
        )
        self.filled = np.zeros(SUMMARY_KEYS, dtype=bool)

    def lookup(self, keys: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        missing = np.unique(keys[~self.filled[keys]])
        for key in missing.tolist():
            summary = summary_of(summary_fields(key), True)
            for column, bet in enumerate(self.bets):
                if bet.cards is not None:  # paid on its cards: simulation.cardpays
                    continue
                pays, _ = self.integer_pays[column]
                outcome = bet.settle_round(summary)
                bet.pay(outcome)  # an outcome without a pay is refused here, by name
                self.table[key, column] = pays[outcome]
            self.filled[key] = True
        return self.table[keys]

    def outcome(self, key: int, column: int) -> str:
        return self.bets[column].settle_round(summary_of(summary_fields(key), True))


#: Integer pays below this fit int64 summed over 2**22 rounds.
_INT64_PAYS = 2**40
#: EVs of bets whose pays are all below this many units are fixed-point rounded in float64
#: (|EV| * 2**40 < 2**49: exact enough, and an int64); others exactly, in Python integers.
_FLOAT_EV_PAYS = 2**9


def _exact_path(bet: Bet) -> bool:
    return any(abs(pay) >= _FLOAT_EV_PAYS for pay in bet.pay_table.values())


def _fixed_point(
    values: Any, floats: npt.NDArray[np.float64], column: int, exact: bool
) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
    """Each round's EV in units of 2**-40, and its histogram bin (1/10000 units, floor)."""
    if not exact:
        column_floats = floats[:, column]
        return (
            _summable(np.rint(column_floats * EV_SCALE).astype(np.int64)),
            np.floor(column_floats * HISTOGRAM_BINS_PER_UNIT).astype(np.int64),
        )
    pairs = list(
        zip(
            values.numerators[:, column].tolist(),
            values.denominators[:, column].tolist(),
            strict=True,
        )
    )
    fixed = [
        (2 * numerator * EV_SCALE + denominator) // (2 * denominator)
        for numerator, denominator in pairs
    ]
    bins = [numerator * HISTOGRAM_BINS_PER_UNIT // denominator for numerator, denominator in pairs]
    return np.array(fixed, dtype=object), np.array(bins, dtype=object)


class _DeckSums:
    """Sums of per-round values by the deck being dealt: one sort per block, then reduceat.

    Exact (integer sums, int64 or Python integers) and the same as ``np.add.at`` into
    one sum a deck, which costs about 100 ns a round and bet.

    >>> sums = _DeckSums(np.array([0, 2, 0, 2]), 4)
    >>> sums.sums(np.array([1, 2, 3, 4])).tolist(), sums.rounds.tolist()
    ([4, 0, 6, 0], [2, 0, 2, 0])
    """

    def __init__(self, deck_of_round: npt.NDArray[np.int64], decks: int) -> None:
        self.order = np.argsort(deck_of_round, kind="stable")
        self.rounds = np.bincount(deck_of_round, minlength=decks)
        self.present = np.flatnonzero(self.rounds)
        self.starts = (np.cumsum(self.rounds) - self.rounds)[self.present]
        self.decks = decks

    def sums(self, values: npt.NDArray[Any]) -> npt.NDArray[Any]:
        totals = np.zeros(self.decks, dtype=values.dtype)
        if len(self.present):
            totals[self.present] = np.add.reduceat(values[self.order], self.starts)
        return totals


def _band_keys(
    strategy: Any, known: npt.NDArray[np.int64], decks: int, bins: npt.NDArray[Any]
) -> npt.NDArray[Any]:
    """Each round's band: a count strategy's count before it (the true count floored, exactly:
    running count x 52 // unseen cards; or the running count), else its exact EV's 1% band."""
    if isinstance(strategy, Count):
        running = strategy.running_counts(known, decks)
        return running if strategy.running else (52 * running) // known.sum(axis=1)
    return bins // (HISTOGRAM_BINS_PER_UNIT // 100)


def _band_sums(
    keys: npt.NDArray[Any],
    decided: npt.NDArray[np.bool_],
    expected: npt.NDArray[Any],
    realized: npt.NDArray[Any],
    moments: npt.NDArray[Any] | None = None,
) -> tuple[Band, ...]:
    """Per band (sorted): rounds, bets made and the sums of the EV, the results, their
    squares and the exact second moments (*moments*, each round's stake**2 x E[X**2]; 0
    without them), all exact (Python integers where int64 could overflow).

    >>> _band_sums(np.array([1, 0, 1]), np.array([True, False, True]), np.array([3, 0, 4]),
    ...            np.array([2, 0, -1]), np.array([5, 0, 6]))
    ((0, 1, 0, 0, 0, 0, 0), (1, 2, 2, 7, 1, 5, 11))
    """
    if not len(keys):
        return ()
    order = np.argsort(keys, kind="stable")
    ordered = keys[order]
    starts = np.concatenate(([0], np.flatnonzero(ordered[1:] != ordered[:-1]) + 1))
    rounds = np.diff(np.append(starts, len(keys)))
    if realized.dtype != object and len(realized) and np.abs(realized).max() >= 2**31:
        realized = realized.astype(object)
    columns = [
        np.add.reduceat(np.asarray(values)[order], starts).tolist()
        for values in (
            decided.astype(np.int64),
            expected,
            realized,
            realized * realized,
            moments if moments is not None else np.zeros(len(keys), dtype=np.int64),
        )
    ]
    return tuple(
        (int(key), int(count), *(int(column[index]) for column in columns))  # type: ignore[misc]
        for index, (key, count) in enumerate(
            zip(ordered[starts].tolist(), rounds.tolist(), strict=True)
        )
    )


def _made_moments(sized: sizing.Sized, column: int) -> npt.NDArray[Any] | None:
    """Bet *column*'s exact stake**2 x E[X**2] on the rounds it is made (0 elsewhere), or None
    for a study without exact moments."""
    if sized.exact_squares is None:
        return None
    return np.where(sized.stakes[:, column] > 0, sized.exact_squares[:, column], 0)


@lru_cache(maxsize=4)
def prepare(rules: Rules, bets: tuple[Bet, ...]) -> _Prepared:
    # Keyed by rules and bets only: a longer run of the same study reuses the compiled analyzer.
    return _Prepared(Analyzer(rules, bets), _PayTable(bets))


@dataclass(frozen=True)
class BlockResult:
    """One block's tally and, when asked for, its trace lines (JSON, one per round)."""

    first_shoe: int
    shoes: int
    tally: Tally
    trace: str = ""


def _round_pays(
    prepared: _Prepared, simulation: Simulation, block: DealtBlock, values: ExpectedValues
) -> tuple[ExpectedValues, npt.NDArray[Any]]:
    """Each round's pay per bet (integers over its pay denominator): by the summary key, and a
    card-level bet's on the cards the round dealt (:mod:`exactodds.simulation.cardpays`); under
    an overlay, the multiplied bets' EVs and pays (:mod:`exactodds.simulation.overlaypays`)."""
    pays = prepared.pays.lookup(block.summary)
    for column, bet in enumerate(prepared.analyzer.bets):
        if bet.cards is not None:
            pays[:, column] = card_pays(bet, simulation.rules.tableau, block)
    if simulation.overlay is not None:
        values = overlay_block(simulation, prepared.analyzer.bets, block, values, pays)
    return values, pays


def run_block(
    simulation: Simulation, first_shoe: int, shoes: int, trace: bool = False
) -> BlockResult:
    """Deal, evaluate, decide and settle shoes ``first_shoe .. first_shoe + shoes - 1``.

    >>> run_block(Simulation.of(1, 1), 0, 0)
    Traceback (most recent call last):
    ...
    exactodds.errors.SimulationError: `shoes` is 0; use a whole number of at least 1.
    """
    whole_number(first_shoe, "first_shoe", SimulationError)
    whole_number(shoes, "shoes", SimulationError, minimum=1)
    prepared = prepare(simulation.rules, simulation.bets)
    compiled = None if trace else _compiled_tally(simulation, first_shoe, shoes, prepared)
    if compiled is not None:  # the numpy road below is its twin, field for field
        return BlockResult(first_shoe, shoes, _kept_figures(simulation, compiled))
    block = deal_block(
        simulation.procedure, simulation.rules.tableau, simulation.seed, first_shoe, shoes
    )
    values = _priced_rounds(simulation, prepared.analyzer, block, every=trace)
    values, pays = _round_pays(prepared, simulation, block, values)
    floats = values.floats()
    rounds_per_shoe = block.rounds_per_shoe.tolist()
    starts = np.concatenate(([0], np.cumsum(block.rounds_per_shoe)[:-1]))
    decks = simulation.procedure.decks
    deck_of_round = np.minimum(block.depth // 52, decks - 1)
    by_deck = _DeckSums(deck_of_round, decks)
    decisions = [
        strategy.decide(
            values.numerators[:, column], values.denominators[:, column], block.known, decks
        )
        for column, strategy in enumerate(simulation.strategies)
    ]
    carried = sizing.carried_bankroll(
        simulation, first_shoe, lambda start, count: run_block(simulation, start, count).tally
    )
    sized = sizing.sized(
        simulation, prepared.analyzer.bets, block, values, decisions, pays, carried
    )
    bets = []
    fixed_columns = []
    for column in range(len(simulation.strategies)):
        numerators = values.numerators[:, column]
        fixed, bins_of_rounds = _fixed_point(
            values, floats, column, _exact_path(simulation.bets[column])
        )
        fixed_columns.append(fixed)
        stakes = sized.stakes[:, column]
        decided = stakes > 0
        realized = _summable(sized.results[:, column])
        expected = np.where(decided, _product(fixed, stakes), 0)
        unstaked = np.where(decided, fixed, 0)
        bins, counts = histogram_of(bins_of_rounds)
        depth_ev = by_deck.sums(fixed)
        depth_rounds = by_deck.rounds
        keys = _band_keys(simulation.strategies[column], block.known, decks, bins_of_rounds)
        bets.append(
            BetTally(
                prepared.pays.integer_pays[column][1],
                int(decided.sum()),
                int(unstaked.sum()),
                int(np.count_nonzero(numerators > 0)),
                Sums.of(np.add.reduceat(realized, starts).tolist(), rounds_per_shoe),
                Sums.of(np.add.reduceat(expected, starts).tolist(), rounds_per_shoe),
                tuple(zip(bins.tolist(), counts.tolist(), strict=True)),
                tuple(depth_ev.tolist()),
                tuple(depth_rounds.tolist()),
                _band_sums(keys, decided, expected, realized, _made_moments(sized, column)),
            )
        )
    fixed = np.column_stack(fixed_columns)
    histogram = np.unique(block.rounds_per_shoe, return_counts=True)
    tally = Tally(
        shoes,
        block.rounds,
        sum(count * count for count in rounds_per_shoe),
        tuple(zip(histogram[0].tolist(), histogram[1].tolist(), strict=True)),
        tuple(bets),
        risk_tally(simulation, first_shoe, sized, fixed, rounds_per_shoe),
        ((first_shoe, first_shoe + shoes),),
        _path_tally(simulation, first_shoe, sized.results, rounds_per_shoe),
    )
    text = (
        _trace(simulation, block, values, pays, decisions, prepared, sized.stakes) if trace else ""
    )
    return BlockResult(first_shoe, shoes, _kept_figures(simulation, tally), text)


def _priced(
    analyzer: Analyzer,
    block: DealtBlock,
    suited: bool,
    rows: npt.NDArray[np.int64] | None = None,
) -> ExpectedValues:
    """The exact EV of every bet on every round of *block* (or on its *rows*), by the
    cheapest exact road: pair bets alone by their closed form, value bets by the kernel's
    program cut to the keys they read, anything else by the kernel's lean program (the same
    integers every way)."""
    ranks = block.rank_counts()
    known = block.known
    if rows is not None:
        ranks, known = ranks[rows], known[rows]
    return (
        pair_expected_values(analyzer.bets, known, analyzer.routes(), ranks)
        or pruned_expected_values(analyzer, ranks, suited)
        or exact_expected_values(analyzer, known, suited, ranks)
    )


def _priced_rounds(
    simulation: Simulation, analyzer: Analyzer, block: DealtBlock, every: bool
) -> ExpectedValues:
    """The exact EVs the study reads: every round's (``every-round`` pricing, or *every*),
    else only those of the rounds where some bet is made (``bet-rounds``: plays that decide
    without the EV), 0 on the others, where no bet is made and no figure kept reads them."""
    if every or simulation.every_round:
        return _priced(analyzer, block, simulation.suited)
    decks = simulation.procedure.decks
    made = np.zeros(block.rounds, dtype=bool)
    unpriced = np.zeros(block.rounds, dtype=np.int64)  # these plays do not read the EV
    for strategy in simulation.strategies:
        made |= strategy.decide(unpriced, unpriced + 1, block.known, decks)
    rows = np.flatnonzero(made)
    shape = (block.rounds, len(analyzer.bets))
    if not len(rows):
        return ExpectedValues(np.zeros(shape, dtype=np.int64), np.ones(shape, dtype=np.int64))
    part = _priced(analyzer, block, simulation.suited, rows)
    numerators = np.zeros(shape, dtype=part.numerators.dtype)
    denominators = np.ones(shape, dtype=part.denominators.dtype)
    numerators[rows], denominators[rows] = part.numerators, part.denominators
    return ExpectedValues(numerators, denominators)


def _kept_figures(simulation: Simulation, tally: Tally) -> Tally:
    """*tally* as the study keeps it: with ``bet-rounds`` pricing, without the sums that read
    every round's EV (the rounds with EV > 0, the EV histogram, the EV by deck)."""
    if simulation.every_round:
        return tally
    return dataclasses.replace(
        tally,
        bets=tuple(
            dataclasses.replace(bet, positive=0, histogram=(), depth_ev=(), depth_rounds=())
            for bet in tally.bets
        ),
    )


def _compiled_tally(
    simulation: Simulation, first_shoe: int, shoes: int, prepared: _Prepared
) -> Tally | None:
    """The block's tally by the kernel's pair study or value study, or None (the numpy road)."""
    if _compiled_pairs(simulation, prepared.analyzer):
        return pair_block_tally(simulation, first_shoe, shoes, prepared.analyzer.bets)
    return value_block_tally(simulation, first_shoe, shoes, prepared.analyzer, prepared.pays)


def compiled_pairs(simulation: Simulation, shoes: int = 1) -> bool:
    """Whether *simulation*'s blocks of *shoes* shoes are tallied by the kernel's pair study
    (without a trace).

    >>> from exactodds.bets.catalogue import select_bets
    >>> compiled_pairs(Simulation.of(1, 1, bets=select_bets("tie")))
    False
    """
    analyzer = prepare(simulation.rules, simulation.bets).analyzer
    return _compiled_pairs(simulation, analyzer) and pair_study_plan(
        simulation, analyzer.bets, shoes
    )


def compiled_values(simulation: Simulation, shoes: int = 1) -> bool:
    """Whether *simulation*'s blocks of *shoes* shoes are tallied by the kernel's value study
    (:mod:`~exactodds.simulation.value_study`, without a trace).

    >>> from exactodds.bets.catalogue import select_bets
    >>> compiled_values(Simulation.of(1, 1, bets=select_bets("tie"), exact_moments=True))
    False
    """
    analyzer = prepare(simulation.rules, simulation.bets).analyzer
    return not _compiled_pairs(simulation, analyzer) and value_study_plan(
        simulation, analyzer, shoes
    )


def _compiled_pairs(simulation: Simulation, analyzer: Analyzer) -> bool:
    """Whether the block may go to the kernel's pair study (:mod:`pair_study` checks the rest):
    every bet priced from the pair states, none fixed-point rounded exactly."""
    # A rebate keeps each trip's turnover, which the pair study does not count.
    return (
        all(route == "pairs" for route in analyzer.routes().values())
        and not any(_exact_path(bet) for bet in simulation.bets)
        and not simulation.rules.rebate
        and simulation.overlay is None
    )


def risk_tally(
    simulation: Simulation,
    first_shoe: int,
    sized: sizing.Sized,
    fixed: npt.NDArray[np.int64],
    rounds_per_shoe: list[int],
) -> RiskTally:
    """The block's :class:`RiskTally` from its sized results.

    For a stake other than flat, ``flat`` holds the same sums for flat betting (the table
    minimum whenever the strategy bets), so both sets of bankroll figures can be given.
    """
    denominators = [bet.integer_pays()[1] for bet in simulation.bets]
    flat = None
    if (
        not isinstance(simulation.stake, Flat)
        and sized.decided is not None
        and sized.pays is not None
    ):
        stakes = filled(sized.decided.shape, sized.decided, simulation.limits.minimum)
        flat = block_risk_tally(
            denominators,
            simulation.trip_shoes,
            first_shoe,
            _product(stakes, sized.pays),
            _product(fixed, stakes),
            rounds_per_shoe,
            _summable(stakes).sum(axis=0).tolist(),
        )
    tally = block_risk_tally(
        denominators,
        simulation.trip_shoes,
        first_shoe,
        sized.results,
        _product(fixed, sized.stakes),
        rounds_per_shoe,
        _summable(sized.stakes).sum(axis=0).tolist(),
        sum(sized.growth),
        sized.exact_squares,
        grid_trip_shoes=simulation.grid_trip_shoes,
        turnover=_turnover(sized, rounds_per_shoe) if simulation.rules.rebate else None,
    )
    return dataclasses.replace(tally, flat=flat) if flat is not None else tally


def _turnover(sized: sizing.Sized, rounds_per_shoe: list[int]) -> tuple[list[int], list[int]]:
    """Each shoe's units rolled (staked on rounds that won or lost: a push, a result of 0 on
    a stake, is not turnover) and units staked, over every bet."""
    starts = np.concatenate(([0], np.cumsum(rounds_per_shoe)[:-1])).astype(np.int64)
    stakes = _summable(sized.stakes)
    rolled = np.where(sized.results != 0, stakes, 0).sum(axis=1)
    staked = stakes.sum(axis=1)
    return (
        np.add.reduceat(rolled, starts).tolist(),
        np.add.reduceat(staked, starts).tolist(),
    )


def _path_tally(
    simulation: Simulation, first_shoe: int, results: npt.NDArray[Any], rounds_per_shoe: list[int]
) -> PathTally | None:
    """The bankroll paths of the block's trips, in bins of the table minimum; tallied only for
    a study with a bankroll (the figures they give are the bankroll's)."""
    if simulation.bankroll is None:
        return None
    return block_path_tally(
        [bet.integer_pays()[1] for bet in simulation.bets],
        simulation.trip_shoes,
        simulation.limits.minimum,
        first_shoe,
        results,
        rounds_per_shoe,
    )


def _round_outcomes(
    prepared: _Prepared, tableau: Tableau, block: DealtBlock, row: int, key: int
) -> dict[str, str]:
    """Each bet's outcome on round *row*: by its summary *key*, a card-level bet's on its cards."""
    return {
        bet.name: prepared.pays.outcome(key, column)
        if bet.cards is None
        else card_outcome(bet, tableau, block, row)
        for column, bet in enumerate(prepared.pays.bets)
    }


def _trace(
    simulation: Simulation,
    block: DealtBlock,
    values: Any,
    pays: npt.NDArray[np.int64],
    decisions: list[npt.NDArray[np.bool_]],
    prepared: _Prepared,
    stakes: npt.NDArray[np.int64],
) -> str:
    names = [bet.name for bet in simulation.bets]
    lines = []
    for row in range(block.rounds):
        key = int(block.summary[row])
        player, banker = summary_fields(key)[:2]
        winner = "player" if player > banker else "banker" if banker > player else "tie"
        record = {
            "shoe": block.first_shoe + int(block.round_shoe[row]),
            "round": int(block.round_number[row]),
            "depth": int(block.depth[row]),
            "known": {
                CARD_SYMBOLS[card]: count
                for card, count in enumerate(block.known[row].tolist())
                if count
            },
            "ev": {name: fraction_string(values.fraction(row, j)) for j, name in enumerate(names)},
            "bet": {name: bool(decisions[j][row]) for j, name in enumerate(names)},
            "stake": {name: int(stakes[row, j]) for j, name in enumerate(names)},
            "cards": block.dealt(row),
            "winner": winner,
            "player_total": player,
            "banker_total": banker,
            "outcome": _round_outcomes(prepared, simulation.rules.tableau, block, row, key),
            "result": {
                name: fraction_string(
                    Fraction(
                        int(pays[row, j]) * int(stakes[row, j]), prepared.pays.integer_pays[j][1]
                    )
                    if stakes[row, j]
                    else Fraction(0)
                )
                for j, name in enumerate(names)
            },
        }
        if record["round"] == 0:
            exposed = int(block.exposed[block.round_shoe[row]])
            record["burn"] = {
                "exposed": CARD_SYMBOLS[exposed] if exposed >= 0 else None,
                "face_down": int(block.depth[row]) - (exposed >= 0),
            }
        lines.append(json.dumps(record, separators=(", ", ": ")) + "\n")
    return "".join(lines)
