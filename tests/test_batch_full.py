"""``batch --full`` lines written from integers equal the former Fraction-built lines byte for byte.

The reference (``tests/full_batch_reference.py``) builds every field by Fraction arithmetic
from the outcome counts and pays, and rounds with Python's own ``round`` of a Fraction; the
writer under test (:func:`exactodds.report.odds.batch_line` with ``full``) reduces each
field with one gcd and rounds in integers.  Compared on hypothesis-generated shoes (rank
and suited, every rule set, any number of digits) and on edge cases: shoes where bets
never win (zero probabilities), huge counts, and exact half-to-even rounding boundaries.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from budget import budgeted
from full_batch_reference import decimal_string, reference_full_line, square_root_string
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from test_batch import ALL_RULES, MIXED_BET, rank_shoes, suited_shoes

from exactodds import Shoe
from exactodds.analysis.many import Analyzer
from exactodds.bets.catalogue import select_bets
from exactodds.numbers import ratio_decimal_string, ratio_square_root_string
from exactodds.report.odds import batch_line

ANALYZERS = [Analyzer(rules, [*select_bets("all", rules), MIXED_BET]) for rules in ALL_RULES]


def assert_same_line(analyzer: Analyzer, shoe: Shoe, digits: int) -> None:
    analysis = analyzer.analyze(shoe)
    assert batch_line(analysis, digits, full=True) == reference_full_line(analysis, digits)


@budgeted(30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shoe=rank_shoes(40), analyzer=st.sampled_from(ANALYZERS), digits=st.integers(0, 30))
@example(shoe=Shoe.from_ranks({"K": 6}), analyzer=ANALYZERS[0], digits=10)  # Player never wins
@example(shoe=Shoe.from_ranks({"5": 3, "3": 3}), analyzer=ANALYZERS[1], digits=0)
def test_full_line_equals_the_fraction_reference_rank_shoes(
    shoe: Shoe, analyzer: Analyzer, digits: int
) -> None:
    assert_same_line(analyzer, shoe, digits)


@budgeted(20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shoe=suited_shoes(3), digits=st.integers(0, 14))
def test_full_line_equals_the_fraction_reference_suited_shoes(shoe: Shoe, digits: int) -> None:
    assert_same_line(ANALYZERS[0], shoe, digits)


@pytest.mark.parametrize(
    "shoe",
    [
        Shoe.from_ranks({rank: 10**20 for rank in "A23456789TJQK"}),
        Shoe.from_ranks({"A": 10**99, "K": 3, "9": 10**40}),
        Shoe.standard(decks=8),
        Shoe.standard(decks=8).without_suits(),
        Shoe.from_ranks({"A": 6}),
    ],
    ids=["1e20-each", "1e99-aces", "8-decks", "8-decks-rank-only", "six-aces"],
)
@pytest.mark.parametrize("digits", [0, 1, 10, 60])
def test_full_line_equals_the_fraction_reference_edge_shoes(shoe: Shoe, digits: int) -> None:
    assert_same_line(ANALYZERS[0], shoe, digits)


@settings(max_examples=200, deadline=None)
@given(
    numerator=st.integers(-(10**30), 10**30),
    denominator=st.integers(1, 10**30),
    digits=st.integers(0, 12),
)
@example(numerator=1, denominator=8, digits=2)  # 0.125: half, down to even
@example(numerator=3, denominator=8, digits=2)  # 0.375: half, up to even
@example(numerator=-5, denominator=2, digits=0)  # -2.5 -> -2
@example(numerator=-1, denominator=3, digits=0)  # -0.33 -> 0, no sign
@example(numerator=0, denominator=7, digits=3)
def test_integer_rounding_equals_fraction_rounding(
    numerator: int, denominator: int, digits: int
) -> None:
    expected = decimal_string(Fraction(numerator, denominator), digits)
    assert ratio_decimal_string(numerator, denominator, digits) == expected
    # Any common factor leaves the rounding alone.
    assert ratio_decimal_string(numerator * 6, denominator * 6, digits) == expected


@settings(max_examples=200, deadline=None)
@given(root=st.integers(0, 10**12), digits=st.integers(0, 6), scale=st.integers(1, 50))
def test_integer_square_root_equals_fraction_square_root_at_half_boundaries(
    root: int, digits: int, scale: int
) -> None:
    # sqrt(value) * 10**digits = root + 1/2 exactly: the half-to-even boundary of the root.
    boundary = Fraction((2 * root + 1) ** 2, 4 * 10 ** (2 * digits))
    for value in (boundary, Fraction(root**2, 10 ** (2 * digits)), boundary + Fraction(1, 10**40)):
        expected = square_root_string(value, digits)
        got = ratio_square_root_string(value.numerator * scale, value.denominator * scale, digits)
        assert got == expected
