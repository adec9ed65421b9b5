"""The drawing-rule check of a dealt round (exactodds.rules.round_problem and next_draw).

Held to the physical-card reference (tests/reference.py plays a round card by card with its
own, separately written, tableau): every round the reference deals passes the check, and
``next_draw`` asks for exactly the cards the reference deals; every round with a third card
dropped or added is refused with a sentence naming that card.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st
from reference import PhysicalCard, play_round

from exactodds.cards import Rank
from exactodds.rulefiles import load_rules_file, shipped_rules_files
from exactodds.rules import Tableau, next_draw, round_problem

VALUES = [Rank(symbol) for symbol in "A23456789T"]  # one rank for each point value 1-9, 0


def dealt(ranks: list[Rank]) -> tuple[list[int], list[int]]:
    """The reference's round from the top of *ranks*: the point values of each hand, in order."""
    cards = [PhysicalCard(rank, None, serial) for serial, rank in enumerate(ranks)]
    summary = play_round(cards, suits_known=False)
    assert summary is not None
    points = [card.value for card in cards]
    player = [points[0], points[2]]
    banker = [points[1], points[3]]
    if summary.player_cards == 3:
        player.append(points[4])
    if summary.banker_cards == 3:
        banker.append(points[4 + (summary.player_cards == 3)])
    return player, banker


def test_every_round_the_reference_deals_passes_and_every_altered_one_is_refused() -> None:
    """All 10^4 first four cards, with fixed fifth and sixth cards of each value."""
    tableau = Tableau.standard()
    for first_four in itertools.product(VALUES, repeat=4):
        for tail in ((VALUES[0], VALUES[5]), (VALUES[9], VALUES[3]), (VALUES[6], VALUES[7])):
            player, banker = dealt([*first_four, *tail])
            assert round_problem(tableau, player, banker) is None
            for hand in (player, banker):
                altered = hand[:2] if len(hand) == 3 else [*hand, 5]
                other = banker if hand is player else player
                if hand is player:
                    problem = round_problem(tableau, altered, other)
                else:
                    problem = round_problem(tableau, other, altered)
                # Changing the Player's third card can change the Banker's duty instead.
                assert problem is not None and "third card is" in problem


@given(st.lists(st.sampled_from(VALUES), min_size=6, max_size=6))
def test_next_draw_asks_for_the_cards_the_reference_deals(ranks: list[Rank]) -> None:
    player, banker = dealt(ranks)
    tableau = Tableau.standard()
    asked: tuple[list[int], list[int]] = ([], [])
    order = iter(ranks)
    while (side := next_draw(tableau, *asked)) is not None:
        asked[0 if side == "player" else 1].append(PhysicalCard(next(order), None, 0).value)
    assert asked == (player, banker)


@pytest.mark.parametrize(
    ("player", "banker", "problem"),
    [
        # The three rounds the tracker used to accept (issue 20), by point value.
        ([8, 7], [0, 0], "the Player draws a third card; the Player's third card is missing"),
        ([8, 0, 5], [1, 0], "a natural, so neither hand draws; the Player's third card is extra"),
        ([2, 3], [7, 7], "the Player draws a third card; the Player's third card is missing"),
        ([7, 0], [2, 2], "so the Banker draws; the Banker's third card is missing"),
        ([2, 2, 8], [3, 0, 1], "worth 8, so the Banker stands; the Banker's third card is extra"),
        ([9], [2, 2], "A round needs 2 or 3 Player cards and 2 or 3 Banker cards"),
    ],
)
def test_a_round_that_breaks_the_tableau_names_the_card(
    player: list[int], banker: list[int], problem: str
) -> None:
    found = round_problem(Tableau.standard(), player, banker)
    assert found is not None and problem in found


def test_a_rules_files_tableau_is_the_one_checked() -> None:
    """The shipped 'banker_as_player' file makes the Banker draw on 0-5 whatever the Player did."""
    tableau = load_rules_file(shipped_rules_files()["banker_as_player"])
    # The Player draws a 2; the Banker holds 5: the standard tableau stands, this one draws.
    assert round_problem(Tableau.standard(), [2, 3, 2], [5, 0]) is None
    assert round_problem(Tableau.standard(), [2, 3, 2], [5, 0, 1]) is not None
    assert round_problem(tableau, [2, 3, 2], [5, 0, 1]) is None
    problem = round_problem(tableau, [2, 3, 2], [5, 0])
    assert problem is not None and "the Banker's third card is missing" in problem
