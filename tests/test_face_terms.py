"""The overlay's face terms against the plain count polynomials, and the signature's split.

:func:`exactodds.engine.faces.face_terms` walks the tableau by hand values, apart from
:mod:`exactodds.engine.coefficients`' walk by multiset; summed over signatures, each role's
counts must be the plain counts of every round summary, for any shoe. A signature must split a
count by face pattern exactly as the full values do.
"""

from __future__ import annotations

import math

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from exactodds.engine.coefficients import multiset_weights, polynomials
from exactodds.engine.faces import (
    ROLES,
    face_terms,
    signature,
    split_by_pattern,
    split_by_signature,
)
from exactodds.engine.walk import falling_factorial
from exactodds.rules import Tableau

_VALUE_COUNTS = st.lists(st.integers(0, 40), min_size=10, max_size=10).filter(
    lambda counts: sum(counts) >= 6
)


@settings(max_examples=5, deadline=None)
@given(_VALUE_COUNTS)
def test_each_role_adds_up_to_the_plain_counts(value_counts: list[int]) -> None:
    plain = polynomials(Tableau())
    expected = dict(zip(plain.keys, plain.key_counts(value_counts), strict=True))
    weights = multiset_weights(value_counts)
    for role in ROLES:
        found: dict[tuple[object, ...], int] = {}
        for (head, _), count in face_terms(Tableau())[role].counts(weights).items():
            found[head] = found.get(head, 0) + count
        assert found == {head: count for head, count in expected.items() if count}, role


@settings(max_examples=30, deadline=None)
@given(
    st.lists(st.integers(0, 9), min_size=2, max_size=6),
    st.lists(st.integers(0, 3), min_size=52, max_size=52),
    st.integers(1, 5),
)
def test_a_signature_splits_as_the_values_do(
    values: list[int], faces: list[int], share: int
) -> None:
    from exactodds.cards import VALUES

    value_counts = [
        sum(count for index, count in enumerate(faces) if VALUES[index // 4] == value)
        for value in range(10)
    ]
    ordered = tuple(sorted(values))
    ways = math.prod(
        falling_factorial(value_counts[value], ordered.count(value)) for value in set(ordered)
    )
    assume(ways > 0)  # the shoe must hold the values
    count = share * ways
    by_values = split_by_pattern(count, tuple(faces), value_counts, ordered)
    by_signature = split_by_signature(count, tuple(faces), value_counts, signature(ordered))
    assert by_signature == by_values
    assert sum(by_signature.values()) == count
