"""Every dealing method equals the former round-by-round dealing, field by field.

``tests/dealing_reference.py`` keeps the former ``deal_block`` / ``deal_shoes`` verbatim;
the package's dealing methods (``DEALING_METHODS``: the compiled C loop of ``_dealing.c``,
the numpy dealing with every position's round at once, and the C loop's pure-Python twin)
must give the same shoes, rounds, summaries and known compositions, with the same dtypes,
on random seeds and procedures and on stacked shoes (any cards, as the tests stack them).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from budget import budgeted
from dealing_reference import deal_block_reference, deal_shoes_reference
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds.rules import Tableau
from exactodds.simulation.dealing import (
    DEALING_METHODS,
    DealingProcedure,
    DealtBlock,
    _stream_states,
    deal_block,
    deal_shoes,
    dealing_module,
    shuffled_shoe,
    shuffled_shoes,
)
from exactodds.simulation.dealing_twin import pcg64_raw, shuffled_places
from exactodds.simulation.tally import histogram_of

#: The methods this machine has (compiled only where the kernel was built).
METHODS = [
    method for method in DEALING_METHODS if method != "compiled" or dealing_module() is not None
]


def _assert_same(new: DealtBlock, old: DealtBlock) -> None:
    # The rank counts, when the dealing gives them, are the known composition's by rank.
    assert (new.rank_counts() == new.known.reshape(-1, 13, 4).sum(axis=2)).all()
    assert new.rank_counts().dtype == np.int64
    for field in dataclasses.fields(DealtBlock):
        if field.name == "ranks":
            continue
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


@pytest.mark.parametrize("method", METHODS)
@budgeted(60, deadline=None)
@given(
    procedure=_procedures(),
    seed=st.integers(0, 2**64 - 1),
    first_shoe=st.one_of(st.integers(0, 10**6), st.integers(2**32 - 5, 2**40)),
    shoes=st.integers(1, 9),
)
def test_deal_block_equals_the_former_dealing(
    method: str, procedure: DealingProcedure, seed: int, first_shoe: int, shoes: int
) -> None:
    tableau = Tableau()
    _assert_same(
        deal_block(procedure, tableau, seed, first_shoe, shoes, method),
        deal_block_reference(procedure, tableau, seed, first_shoe, shoes),
    )


def test_the_default_method_is_the_compiled_one_where_built() -> None:
    block = deal_block(DealingProcedure(decks=1), Tableau(), 3, 0, 2)
    method = "compiled" if dealing_module() is not None else "numpy"
    _assert_same(block, deal_block(DealingProcedure(decks=1), Tableau(), 3, 0, 2, method))


@pytest.mark.skipif(dealing_module() is None, reason="the compiled kernel is not built")
@settings(max_examples=60, deadline=None)
@given(st.integers(1, 64), st.integers(0, 2**128), st.integers(0, 2**64 - 50), st.integers(1, 5))
def test_the_compiled_shuffle_is_numpys(decks: int, seed: int, first_shoe: int, shoes: int) -> None:
    # 1 to 64 decks (bucket counts up to the sort's widest), seeds of 1 to 5 words.
    compiled = shuffled_shoes(decks, seed, first_shoe, shoes, compiled=True)
    assert compiled.dtype == np.int64
    assert (compiled == shuffled_shoes(decks, seed, first_shoe, shoes)).all()
    assert (compiled[0] == shuffled_shoe(decks, seed, first_shoe)).all()


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**128 - 1), st.integers(0, 2**127 - 1), st.integers(1, 60))
def test_the_twins_pcg64_and_shuffle_are_numpys(state: int, half: int, size: int) -> None:
    increment = 2 * half + 1  # numpy's PCG64 increments are odd
    generator = np.random.PCG64(0)
    generator.state = {
        "bit_generator": "PCG64",
        "state": {"state": state, "inc": increment},
        "has_uint32": 0,
        "uinteger": 0,
    }
    keys = generator.random_raw(size)
    assert pcg64_raw(state, increment, size) == keys.tolist()
    places = shuffled_places(state, increment, size)
    assert places == np.argsort(keys, kind="stable").tolist()


@st.composite
def _tableaux(draw: st.DrawFn) -> Tableau:
    flags = st.lists(st.booleans(), min_size=10, max_size=10)
    return Tableau(
        natural_totals=frozenset(draw(st.sets(st.integers(0, 9), max_size=4))),
        player_draws=tuple(draw(flags)),
        banker_draws_when_player_stood=tuple(draw(flags)),
        banker_draws=tuple(tuple(draw(flags)) for _ in range(10)),
    )


@pytest.mark.parametrize("method", METHODS)
@budgeted(40, deadline=None)
@given(tableau=_tableaux(), seed=st.integers(0, 2**32), decks=st.integers(1, 3))
def test_any_tableau_is_dealt_as_the_former_dealing(
    method: str, tableau: Tableau, seed: int, decks: int
) -> None:
    procedure = DealingProcedure(decks=decks, cut=10)
    _assert_same(
        deal_block(procedure, tableau, seed, 0, 3, method),
        deal_block_reference(procedure, tableau, seed, 0, 3),
    )


@pytest.mark.parametrize("method", METHODS)
@budgeted(60, deadline=None)
@given(procedure=_procedures(), data=st.data())
def test_deal_shoes_equals_the_former_dealing_on_stacked_shoes(
    method: str, procedure: DealingProcedure, data: st.DataObject
) -> None:
    # Any cards, repeats allowed: narrow card choices give many pairs, naturals and draws.
    palette = data.draw(st.lists(st.integers(0, 51), min_size=1, max_size=6))
    shoes = data.draw(st.integers(1, 4))
    seed = data.draw(st.integers(0, 2**32 - 1))
    cards = np.random.default_rng(seed).choice(palette, size=(shoes, procedure.cards))
    tableau = Tableau()
    _assert_same(
        deal_shoes(procedure, tableau, cards.astype(np.int64), 5, method),
        deal_shoes_reference(procedure, tableau, cards.astype(np.int64), 5),
    )


@pytest.mark.parametrize("method", METHODS)
def test_full_blocks_of_the_default_procedure_equal_the_former_dealing(method: str) -> None:
    procedure = DealingProcedure()
    for seed in (0, 1, 2024):
        _assert_same(
            deal_block(procedure, Tableau(), seed, 64 * seed, 64, method),
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
        ours, theirs = histogram_of(data), np.unique(data, return_counts=True)
        assert [part.tolist() for part in ours] == [part.tolist() for part in theirs]
