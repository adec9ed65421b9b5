"""The vectorized dealing equals the former round-by-round dealing, field by field.

``tests/dealing_reference.py`` keeps the former ``deal_block`` / ``deal_shoes`` verbatim;
the package's dealing (every position's round at once, a walk over round starts, the
shoes sorted in one call, per-round card counts) must give the same shoes, rounds,
summaries and known compositions, with the same dtypes, on random seeds and procedures
and on stacked shoes (any cards, as the tests stack them).
"""

from __future__ import annotations

import dataclasses

import numpy as np
from dealing_reference import deal_block_reference, deal_shoes_reference
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds.rules import Tableau
from exactodds.simulation.block import _histogram
from exactodds.simulation.dealing import (
    DealingProcedure,
    DealtBlock,
    _stream_states,
    deal_block,
    deal_shoes,
)


def _assert_same(new: DealtBlock, old: DealtBlock) -> None:
    for field in dataclasses.fields(DealtBlock):
        ours, theirs = getattr(new, field.name), getattr(old, field.name)
        if isinstance(theirs, np.ndarray):
            assert ours.dtype == theirs.dtype, field.name
            assert ours.shape == theirs.shape, field.name
            assert (ours == theirs).all(), field.name
        else:
            assert ours == theirs, field.name


@st.composite
def _procedures(draw: st.DrawFn) -> DealingProcedure:
    decks = draw(st.integers(1, 8))
    burns: list[str | int] = ["standard", "none", 0, 1, 3, 7]
    burn = draw(st.sampled_from(burns))
    most = DealingProcedure(decks=decks, cut=0, burn=burn).most_burned
    cut = draw(st.integers(0, 52 * decks - most - 6))
    return DealingProcedure(
        decks=decks,
        cut=cut,
        burn=burn,
        after_cut=draw(st.integers(0, 3)),
        cut_first_rounds=draw(st.one_of(st.none(), st.integers(1, 3))),
    )


@settings(max_examples=60, deadline=None)
@given(
    _procedures(),
    st.integers(0, 2**64 - 1),
    st.one_of(st.integers(0, 10**6), st.integers(2**32 - 5, 2**40)),
    st.integers(1, 9),
)
def test_deal_block_equals_the_former_dealing(
    procedure: DealingProcedure, seed: int, first_shoe: int, shoes: int
) -> None:
    tableau = Tableau()
    _assert_same(
        deal_block(procedure, tableau, seed, first_shoe, shoes),
        deal_block_reference(procedure, tableau, seed, first_shoe, shoes),
    )


@settings(max_examples=60, deadline=None)
@given(_procedures(), st.data())
def test_deal_shoes_equals_the_former_dealing_on_stacked_shoes(
    procedure: DealingProcedure, data: st.DataObject
) -> None:
    # Any cards, repeats allowed: narrow card choices give many pairs, naturals and draws.
    palette = data.draw(st.lists(st.integers(0, 51), min_size=1, max_size=6))
    shoes = data.draw(st.integers(1, 4))
    seed = data.draw(st.integers(0, 2**32 - 1))
    cards = np.random.default_rng(seed).choice(palette, size=(shoes, procedure.cards))
    tableau = Tableau()
    _assert_same(
        deal_shoes(procedure, tableau, cards.astype(np.int64), 5),
        deal_shoes_reference(procedure, tableau, cards.astype(np.int64), 5),
    )


def test_full_blocks_of_the_default_procedure_equal_the_former_dealing() -> None:
    procedure = DealingProcedure()
    for seed in (0, 1, 2024):
        _assert_same(
            deal_block(procedure, Tableau(), seed, 64 * seed, 64),
            deal_block_reference(procedure, Tableau(), seed, 64 * seed, 64),
        )


@settings(max_examples=200, deadline=None)
@given(
    st.one_of(st.integers(0, 2**32), st.integers(0, 2**300)),
    st.one_of(st.integers(0, 2**33), st.integers(0, 2**64 - 40)),
    st.integers(1, 40),
)
def test_stream_states_are_numpys_generators(seed: int, first_shoe: int, shoes: int) -> None:
    # Seeds of 1 to 10 words, shoe numbers of 1 or 2 words (and blocks across 2**32).
    expected = []
    for shoe in range(first_shoe, first_shoe + shoes):
        state = np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(shoe,))).state["state"]
        expected.append((state["state"], state["inc"]))
    assert _stream_states(seed, first_shoe, shoes) == expected


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-(2**40), 2**40), min_size=1, max_size=300), st.integers(0, 2**40))
def test_histogram_counts_as_numpy_unique(values: list[int], spread: int) -> None:
    # The EV histogram of a block: counted by bincount over a narrow range, else unique.
    for data in (np.array(values, dtype=np.int64), np.array(values) % (spread + 1)):
        ours, theirs = _histogram(data), np.unique(data, return_counts=True)
        assert [part.tolist() for part in ours] == [part.tolist() for part in theirs]
