"""A block of value bets in one compiled pass: dealt, priced, decided, settled and tallied.

The pair study's design (:mod:`~exactodds.simulation.pair_study`) for every bet the
kernel's lean program prices (Banker, Player, Tie, Dragon 7, Panda 8 and the other side
bets), played ``perfect`` (bet when the exact EV is above 0), ``always`` or by a linear
``count`` (true or running, compared with its trigger exactly), at a flat stake.  The
kernel's ``value_study`` (``_dealing.c``) deals every shoe of the block as the dealing
does, prices each round's known composition with ``evaluate_many`` (the function the
lean evaluation, :func:`~exactodds.simulation.evaluate.exact_expected_values`, runs),
and sums round by round what the block's :class:`~exactodds.simulation.tally.Tally`
holds; it writes out only each round's EV histogram bin.  :func:`value_block_tally`
turns those sums into the same tally, field for field, as
:func:`~exactodds.simulation.block.run_block`'s numpy road (its twin and specification:
``tests/test_value_study.py`` holds them equal).

Any other study (a ramp or Kelly stake, a minimum edge, exact moments, a rebate, a trace,
a bet only the walk prices, pays of 2**9 units or more, more than 32 bets, sums that could
pass the kernel's proven ranges, no compiled kernel) gets None here and takes the numpy
road; so does a block one of whose rounds needs more than 64 bits (the kernel says so).

>>> from exactodds.bets.catalogue import select_bets
>>> from exactodds.simulation.block import prepare
>>> study = Simulation.of(4, 1, bets=select_bets("tie,dragon7"))
>>> prepared = prepare(study.rules, study.bets)
>>> tally = value_block_tally(study, 0, 4, prepared.analyzer, prepared.pays)
>>> tally is None or tally.shoes == 4
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from exactodds.analysis.many import Analyzer, LeanOutput
from exactodds.bets.bet import Bet
from exactodds.engine.kernel.pruned import pruned_program
from exactodds.simulation.dealing import (
    SUMMARY_KEYS,
    dealing_module,
    procedure_parameters,
    shuffled_shoes,
    tableau_flags,
)
from exactodds.simulation.pair_study import (
    BetCounts,
    block_fits,
    kernel_tally,
    sum_bounds,
    sum_words,
    wide_sums,
)
from exactodds.simulation.staking.stakes import Flat
from exactodds.simulation.strategies import Always, Count, Perfect
from exactodds.simulation.study import Simulation
from exactodds.simulation.tally import HISTOGRAM_BINS_PER_UNIT, Tally, histogram_of

__all__ = ["PayLookup", "value_block_tally", "value_study_plan"]

IntArray = npt.NDArray[np.int64]

#: The kernel's per-bet fields (``VALUE_*`` in ``_dealing.c``): output, denominator, play,
#: stake, scale, band low, band span, trigger numerator and denominator, start, 13 tags.
_FIELDS = 23
_PLAYS = {Perfect: 0, Always: 1}
_TRUE_COUNT, _RUNNING_COUNT = 2, 3
_BAND_FIELDS = 5
#: The most bets the kernel's per-shoe sums hold (``SHOE_BETS_MAX``).
_MOST_BETS = 32
#: Pays of this many units or more are fixed-point rounded exactly (block.py's road).
_FLOAT_EV_PAYS = 2**9
#: Counts' products and the EV denominators stay below this (int64 with room).
_INT64_SAFE = 2**62
#: Bands of the kernel's band sums, over every bet: at most this many (40 bytes each; else
#: the numpy road).
_MOST_BANDS = 2**20
#: Per 1% band, this many histogram bins.
_BAND_BINS = HISTOGRAM_BINS_PER_UNIT // 100
#: The kernel's answers that send the block to the numpy road, and its "fill these pays".
_MISSING_PAYS = -3


class PayLookup(Protocol):
    """Each bet's net result per summary key (block.py's pay table), filled on demand."""

    table: npt.NDArray[Any]
    filled: npt.NDArray[np.bool_]

    def lookup(self, keys: IntArray) -> npt.NDArray[Any]:
        """The pays of summary keys *keys*, filling the table where they are missing."""


@dataclass(frozen=True)
class _Plan:
    """What the kernel is told of the bets (rows of ``_FIELDS``) and the study."""

    bets: IntArray
    denominators: tuple[int, ...]
    program: Any
    parameters: IntArray
    flags: tuple[npt.NDArray[np.int8], ...]
    #: Bounds (pair_study.sum_bounds): what a shoe's sums hold, and what a round adds to the
    #: int64 band and depth sums over a block (one bet's values).
    per_shoe: int
    per_bet: int


def _play(strategy: Any, decks: int) -> list[int] | None:
    """(play, band low, band span, trigger numerator, trigger denominator, start, 13 tags) of
    a count, or the play alone (band fields 0) of perfect play and always; None otherwise."""
    if isinstance(strategy, Perfect) and strategy.min_edge != 0:
        return None
    if isinstance(strategy, Perfect | Always):
        return [_PLAYS[type(strategy)], 0, 0, 0, 1, 0, *(0,) * 13]
    if not isinstance(strategy, Count):
        return None
    p, q = strategy.trigger.numerator, strategy.trigger.denominator
    bound = strategy.count_bound(decks)
    # strategies.py's own int64 conditions, and 52 x running (the band) below 2**62 too.
    if strategy.running:
        if bound * q > _INT64_SAFE or abs(p) > _INT64_SAFE:
            return None
        reach = bound
    else:
        if 52 * q * bound > _INT64_SAFE or abs(p) * 52 * decks > _INT64_SAFE:
            return None
        # A round starts with at least 6 cards unseen: |52 x running / unseen| <= 52 bound / 6.
        reach = -(-52 * bound // 6)
    if 2 * reach + 1 > _MOST_BANDS:
        return None
    play = _RUNNING_COUNT if strategy.running else _TRUE_COUNT
    return [play, -reach, 2 * reach + 1, p, q, strategy.start, *strategy.tags]


def _bands(bet: Bet) -> tuple[int, int]:
    """The 1% bands (lowest, span) that hold every EV of *bet*, with room for rounding."""
    pays, denominator = bet.integer_pays()
    low = math.floor(min(pays.values()) * HISTOGRAM_BINS_PER_UNIT / denominator) - 2
    high = math.floor(max(pays.values()) * HISTOGRAM_BINS_PER_UNIT / denominator) + 2
    return low // _BAND_BINS, high // _BAND_BINS - low // _BAND_BINS + 1


def _rows(
    simulation: Simulation, bets: tuple[Bet, ...], outputs: tuple[LeanOutput, ...], units: int
) -> list[list[int]] | None:
    """Each bet's row of ``_FIELDS`` for the kernel (a flat stake of *units*), or None if a
    bet's play or EV denominator is not one it takes."""
    decks, size = simulation.procedure.decks, simulation.procedure.cards
    denominators = [bet.integer_pays()[1] for bet in bets]
    combined = math.lcm(*denominators)
    rows = []
    for bet, strategy, output, denominator in zip(
        bets, simulation.strategies, outputs, denominators, strict=True
    ):
        play = _play(strategy, decks)
        if play is None or math.perm(size, 6) * output.denominator >= _INT64_SAFE:
            return None
        if play[0] < _TRUE_COUNT:
            play[1:3] = _bands(bet)
        scale = combined // denominator
        rows.append([output.output, output.denominator, play[0], units, scale,
                     *play[1:]])  # fmt: skip
    return rows


@lru_cache(maxsize=16)
def _plan(simulation: Simulation, analyzer: Analyzer) -> _Plan | None:
    """The kernel's inputs for *simulation* priced by *analyzer*, or None."""
    bets = analyzer.bets
    lean = analyzer.lean_outputs(outcomes=False)
    if (
        lean is None
        or lean[0].native is None
        or not isinstance(simulation.stake, Flat)
        or simulation.exact_moments
        or simulation.rules.rebate
        # An overlay multiplies the pays round by round (simulation.overlaypays).
        or simulation.overlay is not None
        or not 1 <= len(bets) <= _MOST_BETS
        or any(abs(pay) >= _FLOAT_EV_PAYS for bet in bets for pay in bet.pay_table.values())
    ):
        return None
    program, outputs = lean
    rows = _rows(simulation, bets, outputs, simulation.stake.units)
    if rows is None or sum(row[6] for row in rows) > _MOST_BANDS:
        return None
    size = simulation.procedure.cards
    denominators = tuple(bet.integer_pays()[1] for bet in bets)
    combined = math.lcm(*denominators)
    bounds = sum_bounds(
        size,
        [max(abs(pay) for pay in bet.integer_pays()[0].values()) for bet in bets],
        list(denominators),
        [simulation.stake.units] * len(bets),
        [combined // d for d in denominators],
    )
    if bounds is None:
        return None
    _, per_shoe, per_bet = bounds
    # The program cut to the keys the bets read (engine.kernel.pruned): the same integers.
    pruned = pruned_program(program, tuple(output.output for output in outputs))
    return _Plan(
        np.array(rows, dtype=np.int64),
        denominators,
        pruned.native if pruned.native is not None else program.native,
        np.array(procedure_parameters(simulation.procedure), dtype=np.int64),
        tuple(np.array(flag, dtype=np.int8) for flag in tableau_flags(simulation.rules.tableau)),
        per_shoe,
        per_bet,
    )


def value_study_plan(simulation: Simulation, analyzer: Analyzer, shoes: int = 1) -> bool:
    """Whether the kernel is built and tallies *simulation*'s blocks of *shoes* shoes, its
    bets priced by *analyzer*.

    >>> from exactodds.bets.catalogue import select_bets
    >>> study = Simulation.of(1, 1, bets=select_bets("tie"), exact_moments=True)
    >>> value_study_plan(study, Analyzer(bets=study.bets))
    False
    """
    module = dealing_module()
    if module is None or not hasattr(module, "value_study"):
        return False
    plan = _plan(simulation, analyzer)
    # The band and depth sums add one bet's values a round (the kernel's value_round).
    return plan is not None and block_fits(
        plan.per_bet, plan.per_shoe, shoes, simulation.procedure.cards
    )


def value_block_tally(
    simulation: Simulation, first_shoe: int, shoes: int, analyzer: Analyzer, pays: PayLookup
) -> Tally | None:
    """The tally of shoes ``first_shoe ..`` of *simulation* by the kernel, or None.

    *analyzer* prices the study's bets and *pays* is their pay table by summary key (its
    missing keys are filled here); None when the study is not one the kernel tallies (see
    the module docstring) or the kernel is not built.
    """
    if not value_study_plan(simulation, analyzer, shoes):
        return None
    module = dealing_module()
    plan = _plan(simulation, analyzer)
    assert module is not None and plan is not None
    cards = shuffled_shoes(simulation.procedure.decks, simulation.seed, first_shoe, shoes, True)
    width, size = len(plan.denominators), simulation.procedure.cards
    per_shoe = np.zeros((shoes, 3), dtype=np.int64)
    words = sum_words(width)
    depth = np.zeros((width, simulation.procedure.decks, 2), dtype=np.int64)
    bins = np.empty((width, shoes * (size // 4 + 1)), dtype=np.int32)
    bands = np.zeros((int(plan.bets[:, 6].sum()), _BAND_FIELDS), dtype=np.int64)
    touched = np.empty((width, 2), dtype=np.int64)
    missing = np.zeros(SUMMARY_KEYS, dtype=np.int8)
    for _ in range(2):  # the second call finds every pay filled
        table = np.ascontiguousarray(pays.table, dtype=np.int64)
        rounds = module.value_study(
            shoes, cards, plan.parameters, *plan.flags, plan.program, simulation.suited,
            not simulation.every_round, plan.bets, table, pays.filled.view(np.int8), missing, per_shoe, words, depth,
            bins, bands, touched,
        )  # fmt: skip
        if rounds != _MISSING_PAYS:
            break
        pays.lookup(np.flatnonzero(missing))
        missing[:] = 0
    if rounds < 0:  # an output past int64 or a band out of range: the numpy road
        return None
    counts = _counts(plan, bins[:, :rounds], depth, bands, touched)
    return kernel_tally(
        simulation, first_shoe, plan.denominators, rounds, per_shoe, wide_sums(words), counts
    )


def _counts(
    plan: _Plan, bins: npt.NDArray[np.int32], depth: IntArray, bands: IntArray, touched: IntArray
) -> list[BetCounts]:
    """Each bet's EV histogram (as block.py counts it), depth sums and bands, in order."""
    counts: list[BetCounts] = []
    at = 0
    for column, row in enumerate(plan.bets.tolist()):
        distinct, rounds = histogram_of(bins[column])
        low, high = touched[column].tolist()
        chosen = bands[at + low : at + high + 1]
        held = np.flatnonzero(chosen[:, 0])
        in_bands = tuple(
            (band + low + row[5], *values, 0)
            for band, values in zip(held.tolist(), chosen[held].tolist(), strict=True)
        )
        histogram = tuple(zip(distinct.tolist(), rounds.tolist(), strict=True))
        counts.append((histogram, depth[column], in_bands))
        at += row[6]
    return counts
