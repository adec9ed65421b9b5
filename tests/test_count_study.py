"""Count studies of value bets (Jacobson's Dragon 7 count): the pruned program's road.

:func:`~exactodds.simulation.pruned_pricing.pruned_expected_values` prices a block's rounds
with the kernel's program cut to the keys its bets read
(:func:`~exactodds.engine.kernel.pruned.pruned_program`).  It must give the very integers
the kernel's full lean program gives (the numpy road's pricing,
:func:`~exactodds.simulation.evaluate.exact_expected_values`), so every tally drawn from
them is the same field for field; and those integers must be the EVs that dealing physical
cards one at a time gives (``tests/reference.py``).
"""

from __future__ import annotations

import functools
from fractions import Fraction
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import dealt_counts

from exactodds.analysis.many import Analyzer
from exactodds.bets.catalogue import select_bets
from exactodds.engine.kernel.program import Program, evaluate, native_module
from exactodds.engine.kernel.pruned import evaluate_ranks, pruned_program
from exactodds.rules import Rules
from exactodds.shoe import Shoe
from exactodds.simulation import block as block_module
from exactodds.simulation.dealing import DealingProcedure, deal_block
from exactodds.simulation.evaluate import exact_expected_values
from exactodds.simulation.pruned_pricing import pruned_expected_values
from exactodds.simulation.run import Simulation
from exactodds.simulation.strategies import parse_strategy
from exactodds.simulation.tally import Tally

compiled = pytest.mark.skipif(native_module() is None, reason="the compiled kernel is not built")

EZ = Rules(variant="ez")
JACOBSON = "count:0,0,0,-1,-1,-1,-1,2,2,0:4"


def _ranks(rows: list[list[int]]) -> np.ndarray:
    return np.array(rows, dtype=np.int64).reshape(-1, 13)


@functools.cache
def _lean(bets: str) -> tuple[Program, tuple[int, ...]]:
    lean = Analyzer(EZ, select_bets(bets, EZ)).lean_outputs()
    assert lean is not None
    program, outputs = lean
    return program, tuple(output.output for output in outputs)


@compiled
@settings(max_examples=10, deadline=None)
@given(
    st.sampled_from(
        ["dragon7", "dragon7,panda8,tie", "banker,player,panda8", "dragon7,player_pair"]
    ),
    st.lists(st.lists(st.integers(0, 32), min_size=13, max_size=13), min_size=1, max_size=9),
)
def test_the_pruned_program_gives_the_lean_programs_integers(
    bets: str, rows: list[list[int]]
) -> None:
    program, kept = _lean(bets)
    ranks = _ranks([row if sum(row) >= 6 else [4] * 13 for row in rows])
    pruned = evaluate_ranks(pruned_program(program, kept), ranks)
    full = evaluate(program, ranks.tolist(), [None] * len(ranks)).values
    assert pruned is not None
    assert pruned[:, kept].tolist() == full[:, kept].tolist()


@compiled
@settings(max_examples=8, deadline=None)
@given(st.lists(st.integers(0, 9), min_size=6, max_size=7))
def test_pruned_evs_are_the_physical_cards_evs(values: list[int]) -> None:
    """Every six-card sequence of a small shoe's physical cards, dealt one card at a time."""
    shoe = Shoe.from_ranks({"A23456789T"[value]: values.count(value) for value in set(values)})
    bets = select_bets("dragon7,panda8,tie", EZ)
    ranks = _ranks([list(shoe.rank_counts)])
    priced = pruned_expected_values(Analyzer(EZ, bets), ranks, suited=False)
    assert priced is not None
    rounds = dealt_counts(shoe)
    total = sum(rounds.values())
    for column, bet in enumerate(bets):
        pays, denominator = bet.integer_pays()
        numerator = sum(
            count * pays[bet.settle_round(summary)] for summary, count in rounds.items()
        )
        assert priced.fraction(0, column) == Fraction(numerator, total * denominator)


@compiled
def test_pruned_evs_equal_the_numpy_roads_on_dealt_rounds() -> None:
    study = _study(shoes=6, decks=2, bets="dragon7,panda8,banker")
    block = deal_block(study.procedure, study.rules.tableau, study.seed, 0, 6)
    analyzer = block_module.prepare(study.rules, study.bets).analyzer
    ranks = block.rank_counts()
    fast = pruned_expected_values(analyzer, ranks, suited=False)
    slow = exact_expected_values(analyzer, block.known, False, ranks)
    assert fast is not None
    assert fast.numerators.dtype == slow.numerators.dtype == np.int64
    assert np.array_equal(fast.numerators, slow.numerators)
    assert np.array_equal(fast.denominators, slow.denominators)


def _study(shoes: int, decks: int, bets: str, play: str = JACOBSON) -> Simulation:
    chosen = select_bets(bets, EZ)
    return Simulation.of(
        shoes,
        38,
        EZ,
        chosen,
        {"dragon7": parse_strategy(play)},
        DealingProcedure(decks=decks, cut=14 if decks > 1 else 6, cut_first_rounds=1),
    )


def _former_road(study: Simulation, first_shoe: int, shoes: int) -> Tally:
    with mock.patch.object(block_module, "pruned_expected_values", lambda *arguments: None):
        return block_module.run_block(study, first_shoe, shoes).tally


@compiled
@pytest.mark.parametrize(
    ("bets", "decks", "play"),
    [
        ("dragon7", 8, JACOBSON),  # Jacobson's study
        ("dragon7,panda8", 2, "count:1,0,0,-1,-1,-1,-1,2,2,0:0:running:start=-8"),
        ("dragon7,tie", 1, "always"),
    ],
)
def test_a_count_studys_tally_is_the_former_roads_field_for_field(
    bets: str, decks: int, play: str
) -> None:
    study = _study(shoes=3 if decks == 8 else 8, decks=decks, bets=bets, play=play)
    tally = block_module.run_block(study, 1, study.shoes).tally
    assert tally == _former_road(study, 1, study.shoes)
    assert sum(bet.bets_made for bet in tally.bets) > 0


def test_the_pruned_road_declines_what_it_does_not_price() -> None:
    analyzer = Analyzer(EZ, select_bets("dragon7", EZ))
    ranks = _ranks([[32] * 13])
    assert pruned_expected_values(analyzer, ranks, suited=True) is None  # priced with suits
    assert pruned_expected_values(analyzer, ranks[:0], suited=False) is None  # no rounds
    few = _ranks([[1] * 5 + [0] * 8])  # five cards: the kernel's own road says why
    assert pruned_expected_values(analyzer, few, suited=False) is None
    huge = _ranks([[2**40] * 13])  # ff(N, 6) past int64
    assert pruned_expected_values(analyzer, huge, suited=False) is None
