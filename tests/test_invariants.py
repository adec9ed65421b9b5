"""Properties every shoe must satisfy, on random shoes of up to a few decks.

Each analysis of a multi-deck shoe takes about a tenth of a second, so the
examples are few; the differential tests in ``test_reference.py`` cover small
shoes exhaustively.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import replace
from fractions import Fraction

from budget import budgeted
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds import Analysis, Rules, Shoe, Variant, Winner, analyze, enumerate_rounds
from exactodds.cards import RANKS, SUITS
from exactodds.engine.walk import RoundSummary

CARD_SYMBOLS = [rank.symbol + suit.symbol for rank in RANKS for suit in SUITS]

#: Up to about two and a half decks of each rank; at least one round's worth of cards.
rank_counts = st.lists(st.integers(0, 32), min_size=13, max_size=13).filter(
    lambda counts: sum(counts) >= 6
)
rank_only_shoes = rank_counts.map(Shoe.from_ranks)
#: Up to eight copies of each card (an eight-deck shoe), suits known.
suited_shoes = (
    st.lists(st.integers(0, 8), min_size=52, max_size=52)
    .filter(lambda counts: sum(counts) >= 6)
    .map(lambda counts: Shoe.from_mapping(dict(zip(CARD_SYMBOLS, counts, strict=True))))
)
shoes = st.one_of(rank_only_shoes, suited_shoes)


@st.composite
def any_rules(draw: st.DrawFn) -> Rules:
    """Random settlement rules on the standard tableau."""
    variant = draw(st.sampled_from(list(Variant)))
    commission = (
        draw(st.sampled_from([Fraction(0), Fraction(1, 20), Fraction(1, 25), Fraction(1, 10)]))
        if variant is Variant.STANDARD
        else None
    )
    return Rules(
        variant=variant,
        commission=commission,
        tie_pays=draw(st.sampled_from([Fraction(8), Fraction(9), Fraction(17, 2), Fraction(5)])),
        ties_push=draw(st.booleans()),
        banker_six_pays=draw(st.sampled_from([Fraction(1, 2), Fraction(1), Fraction(2, 3)])),
    )


FEW = budgeted(20, deadline=None)


def _winner_probabilities(analysis: Analysis) -> dict[str, Fraction]:
    return {name: outcome.probability for name, outcome in analysis.outcomes.items()}


@FEW
@given(shoes)
def test_counts_add_up_to_every_six_card_sequence(shoe: Shoe) -> None:
    table = enumerate_rounds(shoe)
    assert table.total == math.perm(shoe.cards, 6)
    assert sum(table.counts.values()) == table.total
    assert all(count > 0 for count in table.counts.values())


@FEW
@given(shoes)
def test_summaries_are_consistent_with_the_rules(shoe: Shoe) -> None:
    for summary in enumerate_rounds(shoe).counts:
        assert 0 <= summary.player_total <= 9 and 0 <= summary.banker_total <= 9
        assert summary.player_cards in (2, 3) and summary.banker_cards in (2, 3)
        if summary.natural:
            assert (summary.player_cards, summary.banker_cards) == (2, 2)
        if summary.player_natural:
            assert summary.player_total in (8, 9)
        if summary.banker_natural:
            assert summary.banker_total in (8, 9)
        if summary.player_cards == 2 and not summary.natural:
            assert summary.player_total in (6, 7)  # the Player stands only on 6 or 7
        if summary.player_cards == 2 and summary.banker_cards == 2 and not summary.natural:
            assert summary.banker_total in (6, 7)
        if summary.player_suited_pair:
            assert summary.player_pair
        if summary.banker_suited_pair:
            assert summary.banker_pair
        assert (summary.player_suited_pair is None) is (not shoe.suits_known)
        assert (summary.banker_suited_pair is None) is (not shoe.suits_known)


@FEW
@given(shoes, any_rules())
def test_banker_player_tie_probabilities_add_up_to_one(shoe: Shoe, rules: Rules) -> None:
    analysis = analyze(shoe, rules)
    assert sum(_winner_probabilities(analysis).values()) == 1
    assert sum(outcome.count for outcome in analysis.outcomes.values()) == analysis.total


@FEW
@given(shoes, any_rules())
def test_each_bet_distribution_is_a_distribution(shoe: Shoe, rules: Rules) -> None:
    for bet in analyze(shoe, rules).bets.values():
        distribution = bet.distribution
        assert sum(distribution.values()) == 1
        assert all(probability > 0 for probability in distribution.values())
        assert list(distribution) == sorted(distribution)
        assert bet.win_probability + bet.push_probability + bet.loss_probability == 1
        assert bet.win_probability == sum(p for result, p in distribution.items() if result > 0)
        assert bet.push_probability == distribution.get(Fraction(0), Fraction(0))


@FEW
@given(shoes, any_rules())
def test_player_and_tie_expected_values_follow_from_the_winner_probabilities(
    shoe: Shoe, rules: Rules
) -> None:
    analysis = analyze(shoe, rules)
    probability = _winner_probabilities(analysis)
    player, banker, tie = probability["player"], probability["banker"], probability["tie"]
    player_value = analysis.bets["player"].expected_value
    if rules.ties_push:
        assert player_value == player - banker
    else:
        assert player_value == player - banker - tie
    assert analysis.bets["tie"].expected_value == rules.tie_pays * tie - (1 - tie)


@FEW
@given(shoes, any_rules())
def test_banker_expected_value_follows_from_the_winner_probabilities(
    shoe: Shoe, rules: Rules
) -> None:
    analysis = analyze(shoe, rules)
    table = analysis.table
    probability = _winner_probabilities(analysis)
    on_a_tie = 0 if rules.ties_push else -probability["tie"]
    if rules.variant is Variant.STANDARD:
        banker_wins = (1 - rules.banker_commission) * probability["banker"]
    elif rules.variant is Variant.EZ:
        three_card_seven = table.probability(
            lambda s: s.winner is Winner.BANKER and s.banker_cards == 3 and s.banker_total == 7
        )
        banker_wins = probability["banker"] - three_card_seven
    else:
        six = table.probability(lambda s: s.winner is Winner.BANKER and s.banker_total == 6)
        banker_wins = probability["banker"] - six + rules.banker_six_pays * six
    expected = banker_wins - probability["player"] + on_a_tie
    assert analysis.bets["banker"].expected_value == expected


@FEW
@given(shoes, any_rules())
def test_variance_is_the_second_moment_less_the_squared_mean(shoe: Shoe, rules: Rules) -> None:
    for bet in analyze(shoe, rules).bets.values():
        distribution = bet.distribution
        mean = sum((result * p for result, p in distribution.items()), Fraction(0))
        second_moment = sum((result**2 * p for result, p in distribution.items()), Fraction(0))
        assert bet.expected_value == mean
        assert bet.house_edge == -mean
        assert bet.variance >= 0
        assert bet.variance == second_moment - mean**2


def _add_back(shoe: Shoe, symbol: str) -> Shoe:
    """*shoe* with one more card *symbol* (``"K"`` or ``"KS"``), counted by hand."""
    rank_index = "A23456789TJQK".index(symbol[0])
    ranks = list(shoe.rank_counts)
    ranks[rank_index] += 1
    if shoe.suit_counts is None:
        return Shoe(tuple(ranks))
    cards = list(shoe.suit_counts)
    cards[rank_index * 4 + "SHDC".index(symbol[1])] += 1
    return Shoe(tuple(ranks), tuple(cards))


@settings(max_examples=100, deadline=None)
@given(st.one_of(rank_only_shoes, suited_shoes), st.data())
def test_removing_a_card_and_adding_it_back_is_identity(shoe: Shoe, data: st.DataObject) -> None:
    if shoe.suit_counts is None:
        present = [rank.symbol for rank in RANKS if shoe.rank_count(rank)]
    else:
        present = [symbol for symbol in CARD_SYMBOLS if shoe.card_count(symbol)]
    symbol = data.draw(st.sampled_from(present))
    removed = shoe.remove(symbol)
    assert removed.cards == shoe.cards - 1
    assert removed.suits_known == shoe.suits_known
    assert _add_back(removed, symbol) == shoe
    # A card named by rank alone leaves a suited shoe's suits unknown.
    rank_symbol = symbol[0]
    assert _add_back(shoe.remove(rank_symbol), rank_symbol) == shoe.without_suits()


def _without_suited_pairs(counts: Counter[RoundSummary]) -> Counter[RoundSummary]:
    merged: Counter[RoundSummary] = Counter()
    for summary, count in counts.items():
        merged[replace(summary, player_suited_pair=None, banker_suited_pair=None)] += count
    return merged


@FEW
@given(suited_shoes)
def test_suited_and_rank_only_views_agree_but_for_suited_pairs(shoe: Shoe) -> None:
    suited = enumerate_rounds(shoe)
    rank_only = enumerate_rounds(shoe.without_suits())
    assert suited.total == rank_only.total
    assert _without_suited_pairs(Counter(suited.counts)) == Counter(rank_only.counts)
