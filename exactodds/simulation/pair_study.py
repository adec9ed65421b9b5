"""A pairs-only block in one compiled pass: dealt, priced, decided, settled and tallied.

A study whose every bet is a pair bet (:func:`~exactodds.simulation.pairs.pair_shape`),
played ``perfect`` (bet when the exact EV is above 0) or ``always`` at a flat stake,
needs from each round only its rank counts and its first four cards.  The kernel's
``pair_study`` (``_dealing.c``) deals every shoe of the block as the dealing does and
sums, round by round, everything the block's :class:`~exactodds.simulation.tally.Tally`
holds, without writing the rounds out; :func:`pair_block_tally` turns those sums into
the same tally, field for field, as :func:`~exactodds.simulation.block.run_block`'s
numpy road (its twin and specification: ``tests/test_pair_study.py`` holds them equal).

With a bankroll, the block's bankroll paths and its risk grid's trips come from the
kernel's per-shoe totals and lowest points, as the numpy road makes them from its own.
Any other study (a count, a ramp, Kelly, exact moments, a trace, pays of 2**9 units or
more, sums that could pass the kernel's proven ranges, no compiled kernel) gets None
here and takes the numpy road.

>>> from exactodds.bets.catalogue import select_bets
>>> from exactodds.simulation.study import Simulation
>>> study = Simulation.of(4, 1, bets=select_bets("player_pair,banker_pair"))
>>> tally = pair_block_tally(study, 0, 4, study.bets)
>>> tally is None or tally.shoes == 4
True
>>> pair_block_tally(Simulation.of(4, 1, bets=select_bets("tie")), 0, 4, select_bets("tie"))
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from exactodds.bets.bet import Bet
from exactodds.simulation.dealing import (
    dealing_module,
    procedure_parameters,
    shuffled_shoes,
    tableau_flags,
)
from exactodds.simulation.pairs import pair_shape
from exactodds.simulation.risk.paths import PathTally
from exactodds.simulation.risk.sums import EV_SCALE, Sums
from exactodds.simulation.risk.tally import (
    RiskTally,
    Segment,
    SeriesMoments,
    TripTally,
    shoe_outcomes,
)
from exactodds.simulation.staking.stakes import Flat
from exactodds.simulation.strategies import Always, Perfect
from exactodds.simulation.study import Simulation
from exactodds.simulation.tally import HISTOGRAM_BINS_PER_UNIT, BetTally, Tally

__all__ = [
    "BetCounts",
    "block_fits",
    "kernel_tally",
    "pair_block_tally",
    "pair_study_plan",
    "sum_bounds",
    "sum_words",
    "wide_sums",
]

IntArray = npt.NDArray[np.int64]

#: The kernel's per-bet fields (``BET_*`` in ``_dealing.c``), its sums per bet and combined.
_BET_FIELDS = 11
_BET_SUMS = 16
_COMBINED_SUMS = 12
_BAND_FIELDS = 5
#: The most bets the kernel's per-round scratch holds.
_MOST_BETS = 16
#: Bins of the EV histogram per 1% band (block.py's bands of a non-count strategy).
_BAND_BINS = HISTOGRAM_BINS_PER_UNIT // 100
#: The proven ranges: int64 values and sums below 2**62, __int128 sums below 2**126.
_INT64_SAFE = 2**62
_INT128_SAFE = 2**126
#: The block sums of single terms (bands, depth) only need to fit int64: below 2**63.
_INT64_SUMS = 2**63


@dataclass(frozen=True)
class _Plan:
    """What the kernel is told of the bets (rows of ``_BET_FIELDS``) and the study."""

    bets: IntArray
    denominators: tuple[int, ...]
    parameters: IntArray
    flags: tuple[npt.NDArray[np.int8], ...]
    #: Per bet: the per-round bound, and the per-shoe bound of every value summed (see _fits).
    per_round: int
    per_shoe: int


def _bins(low: Any, high: Any) -> tuple[int, int, int, int]:
    """Histogram and band ranges (lowest, span) that hold every EV in [low, high], with room
    for the float's rounding."""
    first = math.floor(low * HISTOGRAM_BINS_PER_UNIT) - 2
    last = math.floor(high * HISTOGRAM_BINS_PER_UNIT) + 2
    return (
        first,
        last - first + 1,
        first // _BAND_BINS,
        last // _BAND_BINS - first // _BAND_BINS + 1,
    )


def _bet_row(bet: Bet, play: Any, stake: int, scale: int) -> list[int] | None:
    shape = pair_shape(bet)
    if shape is None or not isinstance(play, Always | Perfect):
        return None
    if isinstance(play, Perfect) and play.min_edge != 0:
        return None
    hand, win, lose = shape
    denominator = bet.integer_pays()[1]
    first, span, band_first, band_span = _bins(
        min(win, lose) / denominator, max(win, lose) / denominator
    )
    always = int(isinstance(play, Always))
    return [hand - 6, win, lose, denominator, always, stake, scale, first, span, band_first,
            band_span]  # fmt: skip


@lru_cache(maxsize=16)
def _plan(simulation: Simulation, bets: tuple[Bet, ...]) -> _Plan | None:
    """The kernel's inputs for *simulation* (whose analyzer prices *bets*), or None."""
    if (
        not isinstance(simulation.stake, Flat)
        or simulation.exact_moments
        or not 1 <= len(bets) <= _MOST_BETS
        or any(abs(pay) >= 2**9 for bet in bets for pay in bet.pay_table.values())
    ):
        return None
    denominators = tuple(bet.integer_pays()[1] for bet in bets)
    combined = math.lcm(*denominators)
    rows = []
    for bet, play, denominator in zip(bets, simulation.strategies, denominators, strict=True):
        row = _bet_row(bet, play, simulation.stake.units, combined // denominator)
        if row is None:
            return None
        rows.append(row)
    bounds = _fits(simulation, rows)
    if bounds is None:
        return None
    return _Plan(
        np.array(rows, dtype=np.int64),
        denominators,
        np.array(procedure_parameters(simulation.procedure), dtype=np.int64),
        tuple(np.array(flag, dtype=np.int8) for flag in tableau_flags(simulation.rules.tableau)),
        *bounds,
    )


def _fits(simulation: Simulation, rows: list[list[int]]) -> tuple[int, int] | None:
    """(per-round bound, per-shoe bound) if the kernel's sums stay in their proven ranges.

    Per round and bet: the result ``x`` (stake x pay, at most ``stake x largest pay``), the
    fixed-point EV (at most ``largest pay / d x 2**40 + 1``) times the stake, ``x**2``; the
    combined result (sum of ``x x scale``) and its square; the product of two bets' results
    (at most the larger ``x**2``); a bet made (1) and its stake.  A shoe has at most
    ``size / 4 + 1`` rounds: its sums are at most that many times a round's.  The int64
    sums over a block (bands, depth) are at most the block's rounds times a round's bound;
    the __int128 sums over shoes of products of two per-shoe sums at most shoes x their
    product (checked per block, :func:`pair_block_tally`).
    """
    size = simulation.procedure.cards
    widest = max(row[3] * max(abs(row[1]), abs(row[2]), 1) for row in rows)
    if size**6 * widest >= _INT64_SAFE:
        return None  # pairs.py's own bound on the EV integers: else its kernel road
    bounds = sum_bounds(
        size,
        [max(abs(row[1]), abs(row[2])) for row in rows],
        [row[3] for row in rows],
        [row[5] for row in rows],
        [row[6] for row in rows],
    )
    return None if bounds is None else bounds[:2]


def sum_bounds(
    size: int, pays: list[int], denominators: list[int], stakes: list[int], scales: list[int]
) -> tuple[int, int, int] | None:
    """(per-round bound, per-shoe bound, per-round bound of one bet's values) of a kernel
    study's sums (see :func:`_fits`), or None if a per-shoe sum could reach 2**62: each
    bet's largest pay in absolute value (in units of its pay denominator), its denominator,
    its stake and its scale to the combined unit.  The last bounds what one round adds to a
    band or depth sum (one bet's EV, stake x EV, result and squared result), the combined
    result and its square left out.

    >>> sum_bounds(16, [8], [1], [1], [1])
    (8796093022210, 43980465111050, 8796093022210)
    """
    rounds = size // 4 + 1
    largest = [stake * pay for stake, pay in zip(stakes, pays, strict=True)]
    fixed = [pay * EV_SCALE // d + 2 for pay, d in zip(pays, denominators, strict=True)]
    expected = [stake * value for stake, value in zip(stakes, fixed, strict=True)]
    combined = sum(value * scale for value, scale in zip(largest, scales, strict=True))
    per_round = max(*expected, *(value * value for value in largest), *fixed, combined**2, 1)
    per_shoe = rounds * max(per_round, sum(expected), combined)
    if per_shoe >= _INT64_SAFE:
        return None
    per_bet = max(*expected, *(value * value for value in largest), *fixed, 1)
    return per_round, per_shoe, per_bet


def block_fits(per_round: int, per_shoe: int, shoes: int, size: int) -> bool:
    """Whether a block of *shoes* shoes of *size* cards keeps the kernel's sums in range:
    the __int128 sums over shoes (at most shoes x the square of a per-shoe bound) and the
    int64 sums over the block's rounds (bands, depth: at most its rounds x a round's bound,
    and nothing is added to them in int64 after)."""
    rounds = shoes * (size // 4 + 1)
    return per_shoe**2 * shoes < _INT128_SAFE and per_round * rounds < _INT64_SUMS


def pair_study_plan(simulation: Simulation, bets: Sequence[Bet], shoes: int = 1) -> bool:
    """Whether the kernel is built and tallies *simulation*'s blocks of *shoes* shoes (its
    analyzer pricing *bets*).

    >>> from exactodds.bets.catalogue import select_bets
    >>> pair_study_plan(Simulation.of(1, 1, bets=select_bets("tie")), select_bets("tie"))
    False
    """
    module = dealing_module()
    if module is None or not hasattr(module, "pair_study"):
        return False
    plan = _plan(simulation, tuple(bets))
    return plan is not None and block_fits(
        plan.per_round, plan.per_shoe, shoes, simulation.procedure.cards
    )


def pair_block_tally(
    simulation: Simulation, first_shoe: int, shoes: int, bets: tuple[Bet, ...]
) -> Tally | None:
    """The tally of shoes ``first_shoe ..`` of *simulation* by the kernel, or None.

    *bets* are the bets as the study's analyzer prices them; None when the study is not
    one the kernel tallies (see the module docstring) or the kernel is not built.
    """
    module = dealing_module()
    if module is None or not hasattr(module, "pair_study"):
        return None
    plan = _plan(simulation, tuple(bets))
    if plan is None or not block_fits(
        plan.per_round, plan.per_shoe, shoes, simulation.procedure.cards
    ):
        return None
    decks = simulation.procedure.decks
    cards = shuffled_shoes(decks, simulation.seed, first_shoe, shoes, compiled=True)
    width = len(bets)
    per_shoe = np.zeros((shoes, 3), dtype=np.int64)
    words = sum_words(width)
    depth = np.zeros((width, decks, 2), dtype=np.int64)
    histogram = np.zeros(int(plan.bets[:, 8].sum()), dtype=np.int64)
    bands = np.zeros((int(plan.bets[:, 10].sum()), _BAND_FIELDS), dtype=np.int64)
    touched = np.empty((width, 2), dtype=np.int64)
    rounds = module.pair_study(
        shoes, cards, plan.parameters, *plan.flags, plan.bets, per_shoe, words, depth,
        histogram, bands, touched,
    )  # fmt: skip
    if rounds < 0:  # pragma: no cover - the bins are sized for every EV the bets can have
        return None
    counted = _Counted(depth, histogram, bands, touched)
    counts = []
    bin_at = band_at = 0
    for column, row in enumerate(plan.bets.tolist()):
        counts.append(
            (
                counted.bins(column, row, bin_at),
                counted.depth[column],
                counted.in_bands(column, row, band_at),
            )
        )
        bin_at += row[8]
        band_at += row[10]
    return kernel_tally(
        simulation, first_shoe, plan.denominators, rounds, per_shoe, wide_sums(words), counts
    )


def sum_words(bets: int) -> npt.NDArray[np.uint64]:
    """Zeroed room for a kernel study's __int128 sums of *bets* bets, as (low, high) words.

    >>> sum_words(2).shape
    (47, 2)
    """
    return np.zeros((bets * _BET_SUMS + _COMBINED_SUMS + bets * (bets + 1) // 2, 2), np.uint64)


def wide_sums(words: npt.NDArray[np.uint64]) -> list[int]:
    """The kernel's __int128 sums, written as (low, high) 64-bit words, as Python integers.

    >>> wide_sums(np.array([[5, 0], [2**64 - 1, 2**64 - 1]], dtype=np.uint64))
    [5, -1]
    """
    low, high = words[:, 0].tolist(), words[:, 1].view(np.int64).tolist()
    return [(top << 64) | bottom for bottom, top in zip(low, high, strict=True)]


@dataclass(frozen=True)
class _Counted:
    """The kernel's per-bet counts: by deck, by EV bin and by 1% band, and the bins it used."""

    depth: IntArray
    histogram: IntArray
    bands: IntArray
    touched: IntArray

    def bins(self, column: int, row: list[int], at: int) -> tuple[tuple[int, int], ...]:
        """Bet *column*'s EV histogram (its bins start at *at*): (bin, rounds), ascending."""
        low, high = self.touched[column].tolist()
        counts = self.histogram[at + low : at + high + 1]
        present = np.flatnonzero(counts)
        return tuple(zip((present + low + row[7]).tolist(), counts[present].tolist(), strict=True))

    def in_bands(self, column: int, row: list[int], at: int) -> tuple[tuple[int, ...], ...]:
        """Bet *column*'s bands (they start at *at*): (band, rounds, made, EV, result, squares,
        0: a study with exact moments is never tallied here)."""
        low, high = (
            (bin_slot + row[7]) // _BAND_BINS - row[9] for bin_slot in self.touched[column].tolist()
        )
        chosen = self.bands[at + low : at + high + 1]
        held = np.flatnonzero(chosen[:, 0])
        return tuple(
            (band + low + row[9], *values, 0)
            for band, values in zip(held.tolist(), chosen[held].tolist(), strict=True)
        )


#: One bet's counts from a kernel study: its EV histogram, its depth sums (decks x 2: EV,
#: rounds) and its bands.
BetCounts = tuple[tuple[tuple[int, int], ...], IntArray, tuple[tuple[int, ...], ...]]


def kernel_tally(
    simulation: Simulation,
    first_shoe: int,
    denominators: tuple[int, ...],
    rounds: int,
    per_shoe: IntArray,
    sums: list[int],
    counts: list[BetCounts],
) -> Tally:
    """A block's :class:`Tally` from a kernel study's sums (as block.py and figures.py sum):
    the pair study's and the value study's (:mod:`~exactodds.simulation.value_study`)."""
    shoes = len(per_shoe)
    rounds_per_shoe = per_shoe[:, 0]
    histogram = np.unique(rounds_per_shoe, return_counts=True)
    bets = []
    for column, (bins, depth, bands) in enumerate(counts):
        s = sums[column * _BET_SUMS : (column + 1) * _BET_SUMS]
        bets.append(
            BetTally(
                denominators[column],
                s[0],
                s[1],
                s[2],
                Sums(*s[4:7]),
                Sums(*s[7:10]),
                bins,
                tuple(depth[:, 0].tolist()),
                tuple(depth[:, 1].tolist()),
                bands,  # type: ignore[arg-type]
            )
        )
    return Tally(
        shoes,
        rounds,
        int((rounds_per_shoe * rounds_per_shoe).sum()),
        tuple(zip(histogram[0].tolist(), histogram[1].tolist(), strict=True)),
        tuple(bets),
        _risk(simulation, first_shoe, denominators, per_shoe, sums),
        ((first_shoe, first_shoe + shoes),),
        _paths(simulation, first_shoe, denominators, per_shoe),
    )


def _paths(
    simulation: Simulation, first_shoe: int, denominators: tuple[int, ...], per_shoe: IntArray
) -> PathTally | None:
    """The block's bankroll paths, as :func:`~exactodds.simulation.risk.paths.block_path_tally`
    bins them: each shoe's combined total (in units of the lcm of the pay denominators),
    in bins of the table minimum; only for a study with a bankroll."""
    if simulation.bankroll is None:
        return None
    width = math.lcm(*denominators) * simulation.limits.minimum
    totals = per_shoe[:, 1].tolist()
    return PathTally.of_block(simulation.trip_shoes, width, first_shoe, totals)


def _risk(
    simulation: Simulation,
    first_shoe: int,
    denominators: tuple[int, ...],
    per_shoe: IntArray,
    sums: list[int],
) -> RiskTally:
    """The block's :class:`RiskTally`, as :func:`~exactodds.simulation.risk.tally.block_risk_tally`
    gives it for flat stakes."""
    width = len(denominators)
    trip_shoes = simulation.trip_shoes
    empty = RiskTally.empty(denominators, trip_shoes)
    totals, lows = per_shoe[:, 1].tolist(), per_shoe[:, 2].tolist()
    if trip_shoes == 1:  # every shoe a whole trip: its lowest point is the trip's
        distinct = np.unique(per_shoe[:, 2], return_counts=True)
        minimums = tuple(zip(distinct[0].tolist(), distinct[1].tolist(), strict=True))
        segments: tuple[Segment, ...] = ()
    else:
        minimums = ()
        segments = tuple(
            Segment((first_shoe + shoe) // trip_shoes, first_shoe + shoe, 1, total, low)
            for shoe, (total, low) in enumerate(zip(totals, lows, strict=True))
        )
    combined = sums[width * _BET_SUMS : width * _BET_SUMS + _COMBINED_SUMS]
    return empty.merged(
        RiskTally(
            empty.denominators,
            trip_shoes,
            tuple(_moments(sums[j * _BET_SUMS + 10 : (j + 1) * _BET_SUMS]) for j in range(width)),
            Sums(*combined[0:3]),
            Sums(*combined[3:6]),
            _moments(combined[6:12]),
            tuple(sums[width * _BET_SUMS + _COMBINED_SUMS :]),
            minimums,
            segments,
            tuple(sums[j * _BET_SUMS + 3] for j in range(width)),
            0,
            (),
            shoe_outcomes=shoe_outcomes(totals, lows),
            grid_trips=tuple(
                TripTally.of_shoes(shoes, first_shoe, totals, lows)
                for shoes in simulation.grid_trip_shoes
            ),
        )
    )


def _moments(values: list[int]) -> SeriesMoments:
    """SeriesMoments from the kernel's six sums: q, q**2, q x rounds, q x, q e, x e."""
    return SeriesMoments(Sums(*values[0:3]), *values[3:6])
