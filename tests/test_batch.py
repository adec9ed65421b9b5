"""The batch path (compiled polynomials + closed forms) equals the exact walk, shoe by shoe."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactodds import Bet, Rules, Shoe, ShoeError, analyze
from exactodds.analysis.many import Analyzer, analyze_many
from exactodds.bets.catalogue import select_bets
from exactodds.bets.custom import parse_custom_bets
from exactodds.engine.coefficients import polynomials
from exactodds.engine.walk import sequences
from exactodds.rules import Tableau

ALL_RULES = [
    Rules(),
    Rules(variant="ez"),
    Rules(variant="super6"),
    Rules(commission="4%", tie_pays=9, ties_push=False),
]

# A user-defined bet that mixes pair states with totals, so it takes the exact-walk route.
MIXED_BET = parse_custom_bets(
    """
[[bet]]
name = "pair_and_player_wins"
[[bet.outcome]]
when = { player_pair = true, winner = "player" }
pays = 20
"""
)[0]


_ANALYZERS: dict[tuple[Rules, tuple[Bet, ...]], Analyzer] = {}


def assert_same(shoe: Shoe, rules: Rules, bets: list[Bet]) -> None:
    """The batch path and the walk agree on every count and EV (analyzers reused: they compile)."""
    expected = analyze(shoe, rules, bets)
    analyzer = _ANALYZERS.setdefault((rules, tuple(bets)), Analyzer(rules, bets))
    got = analyzer.analyze(shoe)
    assert got.total == expected.total == sequences(shoe.cards)
    assert {n: o.count for n, o in got.outcomes.items()} == {
        n: o.count for n, o in expected.outcomes.items()
    }
    assert got.unavailable == expected.unavailable
    assert list(got.bets) == list(expected.bets)
    for name, result in expected.bets.items():
        counts = {k: v for k, v in got.bets[name].outcome_counts.items() if v}
        assert counts == {k: v for k, v in result.outcome_counts.items() if v}, name
        assert got.bets[name].expected_value == result.expected_value


def rank_shoes(max_count: int) -> st.SearchStrategy[Shoe]:
    return (
        st.lists(st.integers(0, max_count), min_size=13, max_size=13)
        .filter(lambda counts: sum(counts) >= 6)
        .map(lambda counts: Shoe.from_ranks(counts))
    )


def suited_shoes(max_count: int) -> st.SearchStrategy[Shoe]:
    def build(counts: list[int]) -> Shoe:
        ranks = tuple(sum(counts[rank * 4 : rank * 4 + 4]) for rank in range(13))
        return Shoe(ranks, tuple(counts))

    return (
        st.lists(st.integers(0, max_count), min_size=52, max_size=52)
        .filter(lambda counts: sum(counts) >= 6)
        .map(build)
    )


def test_analyze_many_function_streams_in_order() -> None:
    shoes = [Shoe.standard(decks=1), Shoe.standard(decks=2)]
    counts = [result.outcomes["tie"].count for result in analyze_many(shoes)]
    # Wizard of Odds, "Baccarat Odds for 1 to 12 Decks": ties for 1 and 2 decks.
    assert counts == [1372227328, 103154274240]


def test_published_eight_deck_counts() -> None:
    # Wizard of Odds, "Baccarat Odds for 1 to 12 Decks" (exact 8-deck counts, see test_published).
    result = Analyzer().analyze(Shoe.standard(decks=8))
    assert result.outcomes["banker"].count == 2292252566437888
    assert result.outcomes["player"].count == 2230518282592256
    assert result.outcomes["tie"].count == 475627426473216


@pytest.mark.parametrize("decks", range(1, 13))
def test_every_bet_equals_the_walk_on_full_shoes_of_1_to_12_decks(decks: int) -> None:
    shoe = Shoe.standard(decks=decks)
    assert_same(shoe, Rules(), [*select_bets("all"), MIXED_BET])


@pytest.mark.parametrize("rules", ALL_RULES, ids=["standard", "ez", "super6", "4pct-9to1-lose"])
def test_every_rule_set_equals_the_walk(rules: Rules) -> None:
    assert_same(Shoe.standard(decks=6).remove("A K 7 7 T 2S"), rules, select_bets("all", rules))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shoe=rank_shoes(3))
def test_nearly_empty_rank_shoes_equal_the_walk(shoe: Shoe) -> None:
    assert_same(shoe, Rules(), [*select_bets("all"), MIXED_BET])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shoe=suited_shoes(2))
def test_small_suited_shoes_equal_the_walk(shoe: Shoe) -> None:
    assert_same(shoe, Rules(), [*select_bets("all"), MIXED_BET])


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shoe=rank_shoes(48), rules=st.sampled_from(ALL_RULES))
def test_random_shoes_up_to_12_decks_equal_the_walk(shoe: Shoe, rules: Rules) -> None:
    assert_same(shoe, rules, select_bets("all", rules))


@pytest.mark.parametrize("decks", [9, 30, 200])
def test_shoes_past_float_and_int64_limits_stay_exact(decks: int) -> None:
    # 9 decks passes 2**53; 30 and 200 decks pass 2**62 (the kernel's 128-bit outputs).
    shoe = Shoe.standard(decks=decks).remove("A 2 3 K")
    assert sequences(shoe.cards) > 2**53
    if decks > 9:
        assert sequences(shoe.cards) >= 2**62
    assert_same(shoe, Rules(), select_bets("main,dragon7,lucky6,player_pair,perfect_pair"))


def test_mixed_chunk_of_sizes_keeps_input_order() -> None:
    shoes = [
        Shoe.standard(decks=1),
        Shoe.standard(decks=30).remove("KKK"),
        Shoe.standard(decks=9).remove("K"),
        Shoe.from_ranks({"A": 3, "K": 4}),
        Shoe.standard(decks=8),
    ]
    results = list(Analyzer(Rules()).analyze_many(shoes, chunk_size=2))
    assert [result.shoe for result in results] == shoes
    for shoe, result in zip(shoes, results, strict=True):
        assert result.bets["tie"].expected_value == analyze(shoe).bets["tie"].expected_value


def test_key_counts_sum_to_all_sequences() -> None:
    compiled = polynomials(Tableau())
    for counts in [
        (16, 4, 4, 4, 4, 4, 4, 4, 4, 4),
        (6, 0, 0, 0, 0, 0, 0, 0, 0, 0),
        (0,) * 9 + (7,),
    ]:
        assert sum(compiled.key_counts(counts)) == sequences(sum(counts))


def test_too_small_shoe_is_refused() -> None:
    with pytest.raises(ShoeError, match="holds 5 cards"):
        Analyzer().analyze(Shoe.from_ranks({"A": 5}))


def test_chunk_size_must_be_positive() -> None:
    with pytest.raises(ValueError, match="chunk_size"):
        list(Analyzer().analyze_many([Shoe.standard(decks=1)], chunk_size=0))


def test_bets_are_routed_to_the_fast_paths() -> None:
    analyzer = Analyzer(Rules(), [*select_bets("all"), MIXED_BET])
    routes = analyzer.routes()
    assert routes["banker"] == "polynomial" and routes["dragon_bonus_player"] == "polynomial"
    assert routes["player_pair"] == "pairs" and routes["perfect_pair"] == "pairs"
    assert routes["pair_and_player_wins"] == "walk"


def test_ev_is_exact_fraction() -> None:
    result = Analyzer().analyze(Shoe.standard(decks=8))
    assert result.bets["banker"].expected_value == Fraction(-114753351728, 10847218479825)
