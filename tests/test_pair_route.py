"""Pair bets priced by the pair states' closed form, against the walk and against physical cards.

:func:`~exactodds.analysis.single.analyze` prices a bet that reads only the pair states of the
first two cards from :func:`~exactodds.analysis.routing.pair_probe_counts` (the kernel's closed
form), and the overlay's split of a pair bet by suited or unsuited pair does too. The walk is
the oracle here (it is itself held to physical cards in ``test_reference.py``); the tests also
deal physical cards directly on the smallest shoes, and check that the closed form, not the
walk, is what priced them.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from budget import budgeted
from hypothesis import example, given
from hypothesis import strategies as st
from reference import dealt_counts
from test_reference import crowded_suited_shoes, rank_only_shoes

from exactodds import Rules, Shoe, analyze, enumerate_rounds
from exactodds.analysis.multipliers import analyze_overlay
from exactodds.analysis.routing import pair_probe_counts, route_bet
from exactodds.analysis.single import _price_by_value, price_table
from exactodds.bets.bet import Bet
from exactodds.bets.catalogue import select_bets
from exactodds.bets.multipliers import MultiplierOverlay
from exactodds.engine.coefficients import polynomials
from exactodds.rules import Tableau

PAIR_BETS = tuple(select_bets("player_pair,banker_pair,either_pair,perfect_pair"))
KEYS = polynomials(Tableau()).keys


def _walked(shoe: Shoe, bets: tuple[Bet, ...]) -> dict[str, dict[str, int]]:
    priced = price_table(enumerate_rounds(shoe), Rules(), bets)[1]
    return {
        name: {k: v for k, v in bet.outcome_counts.items() if v} for name, bet in priced.items()
    }


def _closed(shoe: Shoe, bets: tuple[Bet, ...]) -> dict[str, dict[str, int]]:
    parts = _price_by_value(shoe, Rules(), bets)
    assert parts is not None, "the pair bets were not priced by their closed form"
    return {
        name: {k: v for k, v in bet.outcome_counts.items() if v} for name, bet in parts[1].items()
    }


def test_every_pair_bet_is_routed_to_the_closed_form() -> None:
    for bet in PAIR_BETS:
        assert route_bet(bet, KEYS, (True,)).how == "pairs"
    # A bet that reads a pair and the winner needs the walk, and analyze still prices it.
    both = Bet(
        "pair_and_player",
        "The Player holds a pair and wins.",
        lambda summary: (
            "win" if summary.player_pair and summary.winner.value == "player" else "lose"
        ),
        {"win": 20, "lose": -1},
    )
    assert route_bet(both, KEYS, (False,)).how == "walk"
    shoe = Shoe.standard(decks=1).remove("K 7")
    assert _price_by_value(shoe, Rules(), (both,)) is None
    assert (
        analyze(shoe, Rules(), [both]).bets["pair_and_player"].outcome_counts
        == _walked(shoe, (both,))["pair_and_player"]
    )


def test_the_probe_counts_sum_to_every_sequence() -> None:
    shoe = Shoe.standard(decks=8).remove("KS KS 7H 2C")
    assert shoe.suit_counts is not None
    suited = pair_probe_counts(shoe.rank_counts, shoe.suit_counts)
    ranked = pair_probe_counts(shoe.rank_counts, None)
    assert sum(suited) == sum(ranked) == shoe.sequences
    # Folding the suited states (none, pair, suited) onto the rank-only ones (none, pair).
    folded = Counter[tuple[int, int]]()
    for index, count in enumerate(suited):
        player, banker = divmod(index, 3)
        folded[(min(player, 1), min(banker, 1))] += count
    assert [folded[(p, b)] for p in (0, 1) for b in (0, 1)] == ranked


@budgeted(24, deadline=None)
@given(rank_only_shoes(most_of_each=4, fewest_cards=6, most_cards=10))
@example(Shoe.from_ranks({"K": 3, "7": 3}))
def test_rank_only_pair_bets_equal_the_walk_and_physical_cards(shoe: Shoe) -> None:
    bets = PAIR_BETS[:3]
    closed = _closed(shoe, bets)
    assert closed == _walked(shoe, bets)
    # Straight from physical cards: the Player's pair rounds, as six-card sequences.
    wins = sum(count for summary, count in dealt_counts(shoe).items() if summary.player_pair)
    assert closed["player_pair"].get("win", 0) == wins


@budgeted(24, deadline=None)
@given(crowded_suited_shoes())
def test_suited_pair_bets_equal_the_walk(shoe: Shoe) -> None:
    assert _closed(shoe, PAIR_BETS) == _walked(shoe, PAIR_BETS)


@budgeted(8, deadline=None)
@given(
    st.integers(1, 8),
    st.lists(st.sampled_from([r + s for r in "A23456789TJQK" for s in "CDHS"]), max_size=30),
)
def test_depleted_shoes_price_pair_bets_as_the_walk_does(decks: int, removed: list[str]) -> None:
    shoe = Shoe.standard(decks=decks)
    for card in removed:
        if shoe.card_count(card):
            shoe = shoe.remove(card)
    assert _closed(shoe, PAIR_BETS) == _walked(shoe, PAIR_BETS)


def _walked_split(shoe: Shoe, bet: Bet) -> dict[str, dict[tuple[int, ...], int]]:
    """A pair bet's wins split by suited pair, straight from the walk's rounds."""
    split: dict[str, Counter[tuple[int, ...]]] = {}
    for summary, count in enumerate_rounds(shoe).counts.items():
        outcome = bet.settle_round(summary)
        suited = (
            summary.player_suited_pair if bet.name == "player_pair" else summary.banker_suited_pair
        )
        pattern = () if bet.pay(outcome) <= 0 else ((2,) if suited else (1, 1))
        split.setdefault(outcome, Counter())[pattern] += count
    return {outcome: dict(patterns) for outcome, patterns in split.items()}


@budgeted(16, deadline=None)
@given(crowded_suited_shoes(), st.sampled_from([2, 3, 5]))
def test_an_overlay_splits_pair_wins_as_the_walk_does(shoe: Shoe, multiplier: int) -> None:
    overlay = MultiplierOverlay(3, {multiplier: 1})
    bets = select_bets("player_pair,banker_pair")
    priced = analyze_overlay(shoe, Rules(), bets, overlay=overlay)
    for bet in bets:
        assert priced.bets[bet.name].pattern_counts == _walked_split(shoe, bet)


def test_a_player_pair_on_eight_decks_is_suited_7_times_in_31() -> None:
    # 8 decks: 8 copies of each card; a Player pair is suited with probability 7/31.
    shoe = Shoe.standard(decks=8)
    bet = select_bets("player_pair")
    priced = analyze_overlay(shoe, Rules(), bet, overlay=MultiplierOverlay(5, {2: 1}))
    wins = priced.bets["player_pair"].pattern_counts["win"]
    assert Fraction(wins[(2,)], wins[(2,)] + wins[(1, 1)]) == Fraction(7, 31)
