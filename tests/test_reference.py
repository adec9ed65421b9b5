"""Differential tests: the fast engine against the slow physical-card reference.

The reference (``tests/reference.py``) is checked first, on hand-played rounds
and by its two counters agreeing; then the engine's counts must equal the
reference's exactly on many hypothesis-generated small shoes, and the engine's
expected values must equal ones settled here, by hand, from the reference's counts.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from fractions import Fraction

import pytest
from budget import budgeted
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import PhysicalCard, dealt_counts, permutation_counts, play_round

from exactodds import Rules, Shoe, Variant, analyze, enumerate_rounds
from exactodds.cards import Rank, Suit
from exactodds.engine.walk import RoundSummary

RANK_SYMBOLS = "A23456789TJQK"
SUIT_SYMBOLS = "SHDC"
CARD_SYMBOLS = [rank + suit for rank in RANK_SYMBOLS for suit in SUIT_SYMBOLS]


def _cards(symbols: str) -> list[PhysicalCard]:
    """Physical cards from ``"KS 7 9H"``-style text, serials in order of appearance."""
    cards = []
    for serial, token in enumerate(symbols.split()):
        suit = Suit(token[1]) if len(token) > 1 else None
        cards.append(PhysicalCard(Rank(token[0]), suit, serial))
    return cards


def _nonzero(counts: Mapping[RoundSummary, int]) -> dict[RoundSummary, int]:
    return {summary: count for summary, count in counts.items() if count}


# --- The reference plays rounds as the rules say --------------------------------------------

# (Player's two cards, Banker's two cards, the cards after them,
#  expected (Player total, Banker total, Player cards, Banker cards)).
HAND_PLAYED_ROUNDS = [
    pytest.param("3 5", "7 K", "9 9", (8, 7, 2, 2), id="player natural 8: both stand"),
    pytest.param("K Q", "4 5", "9 9", (0, 9, 2, 2), id="banker natural 9 stops a Player 0"),
    pytest.param("9 K", "4 4", "9 9", (9, 8, 2, 2), id="two naturals: both stand"),
    pytest.param("3 3", "5 K", "4 9", (6, 9, 2, 3), id="player stands on 6, banker draws on 5"),
    pytest.param("7 K", "6 K", "9 9", (7, 6, 2, 2), id="player stands on 7, banker stands on 6"),
    pytest.param("K Q", "K J", "8 8", (8, 8, 3, 3), id="banker 0 draws even on an 8"),
    pytest.param("2 K", "3 K", "8 9", (0, 3, 3, 2), id="banker 3 stands on a Player 8"),
    pytest.param("2 K", "3 K", "9 5", (1, 8, 3, 3), id="banker 3 draws on a Player 9"),
    pytest.param("A K", "4 K", "A 5", (2, 4, 3, 2), id="banker 4 stands on a Player 1"),
    pytest.param("A K", "4 K", "2 5", (3, 9, 3, 3), id="banker 4 draws on a Player 2"),
    pytest.param("A K", "4 K", "8 5", (9, 4, 3, 2), id="banker 4 stands on a Player 8"),
    pytest.param("A K", "5 K", "3 2", (4, 5, 3, 2), id="banker 5 stands on a Player 3"),
    pytest.param("A K", "5 K", "4 2", (5, 7, 3, 3), id="banker 5 draws on a Player 4"),
    pytest.param("A K", "6 K", "5 2", (6, 6, 3, 2), id="banker 6 stands on a Player 5"),
    pytest.param("A K", "6 K", "6 3", (7, 9, 3, 3), id="banker 6 draws on a Player 6"),
    pytest.param("A K", "6 K", "8 3", (9, 6, 3, 2), id="banker 6 stands on a Player 8"),
    pytest.param("A K", "7 K", "6 3", (7, 7, 3, 2), id="banker 7 always stands"),
    pytest.param("5 K", "6 K", "K 3", (5, 6, 3, 2), id="player draws on 5"),
]


@pytest.mark.parametrize(("player", "banker", "after", "expected"), HAND_PLAYED_ROUNDS)
def test_reference_plays_hand_checked_rounds(
    player: str, banker: str, after: str, expected: tuple[int, int, int, int]
) -> None:
    first_player, second_player = player.split()
    first_banker, second_banker = banker.split()
    cards = _cards(f"{first_player} {first_banker} {second_player} {second_banker} {after}")
    summary = play_round(cards, suits_known=False)
    assert summary is not None
    assert (
        summary.player_total,
        summary.banker_total,
        summary.player_cards,
        summary.banker_cards,
    ) == expected


def test_reference_reads_pairs_and_suited_pairs() -> None:
    # Player KS KS: a suited pair (two decks' worth of one card); Banker QH QD: a pair, not suited.
    summary = play_round(_cards("KS QH KS QD 9C 9C"), suits_known=True)
    assert summary is not None
    assert (summary.player_pair, summary.player_suited_pair) == (True, True)
    assert (summary.banker_pair, summary.banker_suited_pair) == (True, False)
    # J and Q are both worth 0 but are not a pair; suits unknown gives None.
    summary = play_round(_cards("J 9 Q 9 5 5"), suits_known=False)
    assert summary is not None
    assert (summary.player_pair, summary.player_suited_pair) == (False, None)
    assert (summary.banker_pair, summary.banker_suited_pair) == (True, None)
    assert (summary.player_natural, summary.banker_natural) == (False, True)


def test_reference_needs_enough_cards() -> None:
    assert play_round(_cards("K K K"), suits_known=False) is None
    assert play_round(_cards("K K K K"), suits_known=False) is None  # both hands 0 must draw
    assert play_round(_cards("K K K K K"), suits_known=False) is None
    with pytest.raises(ValueError, match="only 5"):
        permutation_counts(Shoe.from_ranks({"A": 5}))


# --- The reference's two counters agree -----------------------------------------------------

TINY_SHOES = [
    pytest.param(Shoe.from_ranks({"A": 6}), id="six aces"),
    pytest.param(Shoe.parse("A=1,3=1,5=1,9=1,K=2,Q=1"), id="7 ranks-only"),
    pytest.param(Shoe.parse("K=2,Q=2,8=1,9=1,6=1,7=1"), id="8 ranks-only naturals"),
    pytest.param(Shoe.parse("2=2,3=2,4=1,5=1,6=1,7=1"), id="8 ranks-only draws"),
    pytest.param(
        Shoe.from_mapping({"KS": 2, "KH": 1, "QS": 1, "5D": 1, "4C": 1, "6S": 1}),
        id="7 suited with a duplicate card",
    ),
    pytest.param(
        Shoe.from_mapping({"9S": 1, "9H": 1, "8D": 1, "8C": 1, "2S": 2, "3H": 1, "7D": 1}),
        id="8 suited",
    ),
    pytest.param(Shoe.from_mapping({"TS": 3, "JS": 2, "4H": 1}), id="6 suited zeros"),
]


@pytest.mark.parametrize("shoe", TINY_SHOES)
def test_permutations_agree_with_dealing(shoe: Shoe) -> None:
    by_permutation = permutation_counts(shoe)
    assert by_permutation == dealt_counts(shoe)
    assert sum(by_permutation.values()) == math.perm(shoe.cards, 6)


@pytest.mark.parametrize("shoe", TINY_SHOES)
def test_engine_agrees_on_tiny_shoes(shoe: Shoe) -> None:
    assert _nonzero(enumerate_rounds(shoe).counts) == _nonzero(dealt_counts(shoe))


# --- The engine agrees with the reference on random small shoes -----------------------------


def _compositions(
    kinds: int, most_of_each: int, fewest_cards: int, most_cards: int
) -> st.SearchStrategy[list[int]]:
    """*kinds* counts, each 0 to *most_of_each*, adding up to *fewest_cards*..*most_cards*.

    Drawn as the first ``total`` of a shuffled list of card slots, so that every
    shoe size is about as likely (a filter on random counts favours the
    largest, slowest shoes).
    """
    slots = [kind for kind in range(kinds) for _ in range(most_of_each)]

    def first(total: int) -> st.SearchStrategy[list[int]]:
        return st.permutations(slots).map(
            lambda order: [order[:total].count(kind) for kind in range(kinds)]
        )

    return st.integers(fewest_cards, most_cards).flatmap(first)


def rank_only_shoes(
    most_of_each: int = 2, fewest_cards: int = 6, most_cards: int = 14
) -> st.SearchStrategy[Shoe]:
    """Shoes known by rank only, built from a mapping such as ``{"K": 2, "7": 1}``."""
    return _compositions(len(RANK_SYMBOLS), most_of_each, fewest_cards, most_cards).map(
        lambda counts: Shoe.from_mapping(dict(zip(RANK_SYMBOLS, counts, strict=True)))
    )


def suited_shoes(
    most_of_each: int = 1, fewest_cards: int = 6, most_cards: int = 14
) -> st.SearchStrategy[Shoe]:
    """Suited shoes, built from a mapping such as ``{"KS": 1, "7H": 1}``."""
    return _compositions(len(CARD_SYMBOLS), most_of_each, fewest_cards, most_cards).map(
        lambda counts: Shoe.from_mapping(dict(zip(CARD_SYMBOLS, counts, strict=True)))
    )


@st.composite
def crowded_suited_shoes(draw: st.DrawFn) -> Shoe:
    """Suited shoes of a few cards in several copies each, as in a multi-deck shoe.

    With at most one copy of each card (as in :func:`suited_shoes`) no hand can
    hold a suited pair; here the same card often appears two or three times.
    """
    chosen = draw(st.lists(st.sampled_from(CARD_SYMBOLS), min_size=2, max_size=4, unique=True))
    copies = draw(st.lists(st.integers(1, 3), min_size=len(chosen), max_size=len(chosen)))
    counts = dict(zip(chosen, copies, strict=True))
    room = 12 - sum(counts.values())  # the reference slows down sharply past 12 cards
    for symbol in draw(st.lists(st.sampled_from(CARD_SYMBOLS), max_size=room)):
        counts[symbol] = counts.get(symbol, 0) + 1
    while sum(counts.values()) < 6:
        counts[chosen[0]] += 1
    return Shoe.from_mapping(counts)


# A 14-card shoe takes the reference about 2 s (a 10-card one 0.25 s), so examples are few.
@budgeted(15, deadline=None)
@given(rank_only_shoes())
def test_engine_agrees_with_reference_rank_only(shoe: Shoe) -> None:
    assert _nonzero(enumerate_rounds(shoe).counts) == _nonzero(dealt_counts(shoe))


# The longest of these (up to 14 distinct cards, 2 s each): a slow test. Suited shoes of up to
# 12 cards, copies and distinct cards, are held in the default run by the test after it.
@pytest.mark.slow
@settings(max_examples=15, deadline=None)
@given(suited_shoes())
def test_engine_agrees_with_reference_suited(shoe: Shoe) -> None:
    assert _nonzero(enumerate_rounds(shoe).counts) == _nonzero(dealt_counts(shoe))


@budgeted(30, deadline=None)
@given(crowded_suited_shoes())
def test_engine_agrees_with_reference_suited_copies(shoe: Shoe) -> None:
    assert _nonzero(enumerate_rounds(shoe).counts) == _nonzero(dealt_counts(shoe))


@budgeted(40, deadline=None)
@given(rank_only_shoes(most_of_each=4, fewest_cards=6, most_cards=10))
def test_engine_agrees_with_reference_rank_only_copies(shoe: Shoe) -> None:
    assert _nonzero(enumerate_rounds(shoe).counts) == _nonzero(dealt_counts(shoe))


# --- Main bets settled by hand from the reference's counts ----------------------------------

COMMISSIONS = [Fraction(0), Fraction(1, 20), Fraction(1, 25), Fraction(1, 40), Fraction(1, 10)]
TIE_PAYS = [Fraction(8), Fraction(9), Fraction(17, 2), Fraction(5), Fraction(25, 3)]
BANKER_SIX_PAYS = [Fraction(1, 2), Fraction(1), Fraction(3, 4), Fraction(2, 3)]


@st.composite
def any_rules(draw: st.DrawFn) -> Rules:
    """Random settlement rules on the standard tableau."""
    variant = draw(st.sampled_from(list(Variant)))
    return Rules(
        variant=variant,
        commission=draw(st.sampled_from(COMMISSIONS)) if variant is Variant.STANDARD else None,
        tie_pays=draw(st.sampled_from(TIE_PAYS)),
        ties_push=draw(st.booleans()),
        banker_six_pays=draw(st.sampled_from(BANKER_SIX_PAYS)),
    )


def settled_expected_values(counts: Counter[RoundSummary], rules: Rules) -> dict[str, Fraction]:
    """Expected value of each main bet, settled round by round from the printed rules."""
    returns = {"banker": Fraction(0), "player": Fraction(0), "tie": Fraction(0)}
    on_a_tie = Fraction(0) if rules.ties_push else Fraction(-1)
    for summary, count in counts.items():
        if summary.player_total > summary.banker_total:
            banker, player, tie = Fraction(-1), Fraction(1), Fraction(-1)
        elif summary.player_total < summary.banker_total:
            player, tie = Fraction(-1), Fraction(-1)
            if rules.variant is Variant.EZ:
                three_card_seven = summary.banker_cards == 3 and summary.banker_total == 7
                banker = Fraction(0) if three_card_seven else Fraction(1)
            elif rules.variant is Variant.SUPER6:
                banker = rules.banker_six_pays if summary.banker_total == 6 else Fraction(1)
            else:
                banker = 1 - rules.banker_commission
        else:
            banker, player, tie = on_a_tie, on_a_tie, rules.tie_pays
        returns["banker"] += count * banker
        returns["player"] += count * player
        returns["tie"] += count * tie
    total = sum(counts.values())
    return {name: value / total for name, value in returns.items()}


def test_settlement_by_hand_on_one_shoe() -> None:
    # Six aces: every round is a 3-3 tie with three cards each.
    counts = dealt_counts(Shoe.from_ranks({"A": 6}))
    values = settled_expected_values(counts, Rules(tie_pays=Fraction(8), ties_push=False))
    assert values == {"banker": -1, "player": -1, "tie": 8}


@budgeted(40, deadline=None)
@given(rank_only_shoes(most_of_each=3, fewest_cards=6, most_cards=10), any_rules())
def test_main_bet_expected_values_match_hand_settlement(shoe: Shoe, rules: Rules) -> None:
    expected = settled_expected_values(dealt_counts(shoe), rules)
    analysis = analyze(shoe, rules)
    assert {name: bet.expected_value for name, bet in analysis.bets.items()} == expected
