"""The one-shoe path of ``Analyzer.analyze`` equals the Python path it stands in for, exactly.

``Analyzer.analyze`` asks the compiled kernel for one shoe's outputs straight from its
counts (``_one_shoe.c``'s ``evaluate_shoe``) and, when every bet is read, for every bet's
analysis with its EV already reduced (``bet_analyses``); anything outside plain 64-bit
ranges goes back to the Python path.  These tests compare, on random shoes (small and
large, suited and not, across the 64-bit limits) and for bets read in every order, each
figure of the fast analysis with the same analyzer's Python path (the compiled one-shoe
functions switched off: the former ``evaluate_one`` and a ``BetAnalysis`` per bet) and with
:func:`exactodds.analyze` itself, field for field, down to the Fraction's numerator,
denominator, type and hash.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from budget import budgeted
from hypothesis import HealthCheck, example, given
from hypothesis import strategies as st

from exactodds import Rules, Shoe, analyze
from exactodds.analysis.many import Analyzer
from exactodds.analysis.single import Analysis, BetAnalysis
from exactodds.bets.catalogue import select_bets
from exactodds.engine.kernel.program import native_module

ALL = select_bets("all")
FAST = Analyzer(Rules(), ALL)
SLOW = Analyzer(Rules(), ALL)
SLOW._native = None  # the Python path: evaluate_one, and one BetAnalysis per bet read
SLOW._native_makers = {}
# The compiled evaluation with the bets made one by one in Python.
WHOLE = Analyzer(Rules(), ALL)
WHOLE._native_makers = {}
COMPILED = native_module() is not None and hasattr(native_module(), "bet_analyses")


def shoes() -> st.SearchStrategy[Shoe]:
    """Partial shoes of 1-12 decks (cards dealt at random), or any rank counts up to 2**40."""

    def dealt(decks: int, seed: int, suited: bool) -> Shoe:
        generator = random.Random(seed)
        cards = [r + s for r in "A23456789TJQK" for s in "SHDC" for _ in range(decks)]
        generator.shuffle(cards)
        shoe = Shoe.standard(decks=decks).remove(cards[: generator.randint(0, 52 * decks - 6)])
        return shoe if suited else shoe.without_suits()

    counted = st.lists(st.integers(0, 2**40), min_size=13, max_size=13).filter(
        lambda counts: sum(counts) >= 6
    )
    return st.one_of(
        st.builds(dealt, st.integers(1, 12), st.integers(0, 2**32), st.booleans()),
        counted.map(lambda counts: Shoe(tuple(counts))),
    )


def assert_same_bet(fast: BetAnalysis, slow: BetAnalysis) -> None:
    value, expected = fast.expected_value, slow.expected_value
    assert type(value) is Fraction
    assert (value.numerator, value.denominator) == (expected.numerator, expected.denominator)
    assert hash(value) == hash(expected) and value == expected
    assert fast.moment_ratio() == slow.moment_ratio()
    assert fast.total == slow.total and fast.bet is slow.bet
    assert dict(fast.outcome_counts) == dict(slow.outcome_counts)
    assert list(fast.outcome_counts) == list(slow.outcome_counts)
    assert fast.variance_ratio() == slow.variance_ratio()
    assert fast.sign_counts == slow.sign_counts
    assert fast == slow and repr(fast) == repr(slow)


def assert_same_analysis(fast: Analysis, slow: Analysis) -> None:
    assert fast.shoe == slow.shoe and fast.rules == slow.rules
    assert fast.total == slow.total and fast.bet_names == slow.bet_names
    assert dict(fast.unavailable) == dict(slow.unavailable)
    assert fast.outcomes == slow.outcomes
    assert list(fast.bets) == list(slow.bets)
    assert fast.expected_values() == slow.expected_values()
    for (name, fast_bet), (slow_name, slow_bet) in zip(
        fast.bets.items(), slow.bets.items(), strict=True
    ):
        assert name == slow_name
        assert_same_bet(fast_bet, slow_bet)
    assert fast == slow


@budgeted(40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shoe=shoes(), order=st.sampled_from(["values", "items", "one by one", "mixed"]))
# Past the compiled one-shoe range: 128-bit outputs, and counts of 2**58 and more.
@example(shoe=Shoe((2000,) * 13), order="values")
@example(shoe=Shoe((2**58,) + (1,) * 12), order="values")
@example(shoe=Shoe.standard(decks=8), order="mixed")
def test_fast_path_equals_the_python_path(shoe: Shoe, order: str) -> None:
    fast, slow = FAST.analyze(shoe), SLOW.analyze(shoe)
    names = list(fast.bets)
    if order == "values":
        read = list(fast.bets.values())
    elif order == "items":
        read = [bet for _, bet in fast.bets.items()]
    elif order == "one by one":
        read = [fast.bets[name] for name in names]
    else:  # one bet read alone first, then all of them, then the first again
        first = fast.bets[names[len(names) // 2]]
        read = list(fast.bets.values())
        assert read[len(names) // 2] is first
    assert [bet.name for bet in read] == names
    assert all(again is bet for again, bet in zip(fast.bets.values(), read, strict=True))
    assert all(fast.bets[name] is bet for name, bet in zip(names, read, strict=True))
    assert_same_analysis(fast, slow)
    whole = WHOLE.analyze(shoe)
    list(whole.bets.values())
    assert_same_analysis(whole, slow)


@budgeted(10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shoe=shoes().filter(lambda shoe: shoe.cards <= 12 * 52))
def test_fast_path_equals_analyze(shoe: Shoe) -> None:
    fast, walked = FAST.analyze(shoe), analyze(shoe, Rules(), ALL)
    assert fast.expected_values() == walked.expected_values()
    assert fast.outcomes == walked.outcomes
    for name, bet in walked.bets.items():
        counts = {outcome: count for outcome, count in bet.outcome_counts.items() if count}
        assert {k: v for k, v in fast.bets[name].outcome_counts.items() if v} == counts
        assert fast.bets[name].expected_value == bet.expected_value


@pytest.mark.skipif(not COMPILED, reason="needs the compiled kernel")
def test_the_compiled_path_is_the_one_taken() -> None:
    shoe = Shoe.standard(decks=8).remove("AS KD 7H 7C TS")
    bets = FAST.analyze(shoe).bets
    made = list(bets.values())
    # Every EV was reduced in C and kept where the cached property looks first.
    assert all("expected_value" in bet.__dict__ for bet in made)
    assert "outcome_counts" not in made[0].__dict__  # counts wait until they are read
    assert made[0].outcome_counts == SLOW.analyze(shoe).bets[made[0].name].outcome_counts


@pytest.mark.skipif(not COMPILED, reason="needs the compiled kernel")
def test_compiled_functions_refuse_what_they_cannot_take() -> None:
    module = native_module()
    assert module is not None
    program = FAST._program
    blank = FAST._blank[:]
    assert module.evaluate_shoe(program.native, (1,) * 5 + (0,) * 8, None, blank) is None
    assert module.evaluate_shoe(program.native, [4] * 13, None, blank) is None  # not a tuple
    assert module.evaluate_shoe(program.native, (True,) * 13, None, blank) is None
    with pytest.raises(ValueError, match="wrong size"):
        module.evaluate_shoe(program.native, (4,) * 13, None, blank[:-1])
    with pytest.raises(ValueError, match="int64"):
        module.bet_analyses(b"\0" * 8, 1, (), BetAnalysis, Fraction, None)
    # A total past 64 bits: Python makes the bets.
    assert module.bet_analyses(blank, 2**70, (), BetAnalysis, Fraction, None) is None
    with pytest.raises(TypeError, match="maker"):
        module.bet_analyses(blank, 10, ((1, 2),), BetAnalysis, Fraction, None)


def test_a_walk_bet_takes_the_python_path() -> None:
    from exactodds.bets.bet import Bet

    odd = Bet(
        "banker_seven_unsuited",
        "Banker ends on 7 without a suited Player pair (read from the round).",
        lambda summary: (
            "win" if summary.banker_total == 7 and not summary.player_suited_pair else "lose"
        ),
        {"win": 1, "lose": -1},
    )
    shoe = Shoe.standard(decks=1).remove("AS KD")
    mixed = Analyzer(Rules(), (*select_bets("main,perfect_pair"), odd))
    assert mixed.routes()[odd.name] == "walk"
    fast = mixed.analyze(shoe)
    expected = analyze(shoe, Rules(), (*select_bets("main,perfect_pair"), odd))
    assert {name: bet.expected_value for name, bet in fast.bets.items()} == (
        expected.expected_values()
    )
