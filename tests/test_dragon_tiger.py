"""Dragon Tiger (exactodds.games.dragon_tiger): counts and EVs against a physical-card brute force,
invariants, effects of removal, published figures, bad input and the command line.

Published figures, as printed by their sources:

- Wizard of Odds' Dragon Tiger analysis (8 decks; counts of unordered two-card hands out of
  86,320 = C(416, 2)), read on two stored copies of the page: http://user-casino.com/games/dragon-tiger/
  ("Last Updated: May 27, 2014") and https://mas888sportsbet.blogspot.com/2014/03/dragon-tiger-table-games.html.
  Dragon/Tiger: win 39,936, tie 6,448 (loses half), loss 39,936, return -0.037349 (house edge
  3.73%); Tie at 8:1: 6,448 wins, house edge 32.77% (and 12:1 2.89%, 11:1 10.36%, 10:1 17.83%,
  9:1 25.30%); Suited Tie at 50:1: 1,456 wins, house edge 13.98%; Big/Small on one card:
  192 of 416 win, house edge 7.69%. Their ranking: "Cards are ranked as in poker, except aces
  are always low."
- Evolution's Dragon Tiger (8 decks, Tie 11:1, Suited Tie 50:1), theoretical RTPs 96.27%
  (Dragon/Tiger), 89.64% (Tie), 86.02% (Suited Tie): livedealer.org, "Playing Evolution's live
  dealer Dragon Tiger" (March 2018), https://www.livedealer.org/blog/2018/03/playing-evolutions-live-dealer-dragon-tiger/,
  and the game's rules as reprinted at https://bitcoincasino.news/games/dragon-tiger-evolution/
  ("Card value from the lowest to the highest ... A-2-3-4-5-6-7-8-9-10-J-Q-K"). One copy,
  https://casinogrounds.com/casino-games/dragon-tiger/, prints the main game's RTP as 96.72%: a
  transposition of 96.27% (the exact figure is 96.2651%, and 96.72% fits no pay or deck count).
- Big and Small lose on a 7 ("If the card is exactly 7, the bet will lose"), Tie 11:1 and Suited
  Tie 50:1, aces lowest and kings highest: a studio's rules page as served by an operator,
  https://playgg.ro/poker-games/en_tablegame_dragontiger/.

Our counts are ordered (the Dragon's card, then the Tiger's: n(n-1) rounds, baccarat's
ordered-sequence convention), so each of the Wizard's unordered counts is doubled here.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from fractions import Fraction

import pytest
from budget import budgeted
from cli_runner import run, run_ok
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds.errors import BetError, PayError, RemovalError, ShoeError
from exactodds.games.dragon_tiger import (
    dragon_tiger_odds,
    dragon_tiger_removal,
)
from exactodds.numbers import percent_string
from exactodds.shoe import Shoe

#: The order of rank, lowest first, written out once here (not read from the library).
RANK_ORDER = "A23456789TJQK"
FACES = [rank + suit for rank in RANK_ORDER for suit in "SHDC"]
EIGHT_DECKS = Shoe.standard(decks=8)


# The brute force ----------------------------------------------------------------------------


def physical_cards(spec: dict[str, int]) -> list[str]:
    """One entry per physical card: a face (rank and suit) or a rank alone, repeated."""
    return [face for face, copies in spec.items() for _ in range(copies)]


def settle(dragon: str, tiger: str, pays: dict[str, Fraction]) -> dict[str, Fraction]:
    """Every bet's net result for one dealt round, by the rules as published."""
    high, low = RANK_ORDER.index(dragon[0]), RANK_ORDER.index(tiger[0])
    results = {
        "dragon": pays["dragon"]
        if high > low
        else Fraction(-1, 2)
        if high == low
        else Fraction(-1),
        "tiger": pays["tiger"] if low > high else Fraction(-1, 2) if high == low else Fraction(-1),
        "tie": pays["tie"] if high == low else Fraction(-1),
        "big": pays["big"] if dragon[0] in "89TJQK" else Fraction(-1),
        "small": pays["small"] if dragon[0] in "A23456" else Fraction(-1),
    }
    if len(dragon) == 2:
        results["suited_tie"] = pays["suited_tie"] if dragon == tiger else Fraction(-1)
    return results


def brute_force(spec: dict[str, int], pays: dict[str, Fraction]) -> dict[str, Counter[Fraction]]:
    """Deal every ordered pair of distinct physical cards; count each bet's net results."""
    cards = physical_cards(spec)
    tallies: dict[str, Counter[Fraction]] = {}
    for first, second in itertools.permutations(range(len(cards)), 2):
        for name, result in settle(cards[first], cards[second], pays).items():
            tallies.setdefault(name, Counter())[result] += 1
    return tallies


PAYS = {"dragon": Fraction(1), "tiger": Fraction(1), "tie": Fraction(8)}
PAYS |= {"suited_tie": Fraction(50), "big": Fraction(1), "small": Fraction(1)}

suited_specs = st.dictionaries(st.sampled_from(FACES), st.integers(1, 3), min_size=1, max_size=7)
rank_specs = st.dictionaries(st.sampled_from(RANK_ORDER), st.integers(1, 4), min_size=1, max_size=6)


def spec_text(spec: dict[str, int]) -> str:
    return ",".join(f"{face}={copies}" for face, copies in spec.items())


@settings(max_examples=60, deadline=None)
@given(spec=st.one_of(suited_specs, rank_specs), tie_pay=st.sampled_from([8, 11, Fraction(17, 2)]))
def test_counts_and_evs_equal_a_brute_force_over_physical_cards(
    spec: dict[str, int], tie_pay: Fraction
) -> None:
    if sum(spec.values()) < 2:
        spec = {**spec, next(iter(spec)): 2}
    pays = PAYS | {"tie": Fraction(tie_pay)}
    shoe = Shoe.parse(spec_text(spec))
    odds = dragon_tiger_odds(shoe, pays={"tie": tie_pay})
    expected = brute_force(spec, pays)
    cards = sum(spec.values())
    assert odds.rounds == cards * (cards - 1)
    assert set(odds.bets) == set(expected)
    for name, tally in expected.items():
        bet = odds.bets[name]
        assert dict(bet.results) == dict(tally), name
        mean = Fraction(sum(result * count for result, count in tally.items()), odds.rounds)
        assert bet.expected_value == mean
    if not shoe.suits_known:
        assert "suited_tie" in odds.unavailable and odds.outcomes["suited_tie"] is None


@settings(max_examples=25, deadline=None)
@given(spec=suited_specs, rank_index=st.integers(0, 12))
def test_an_effect_of_removal_is_the_brute_force_on_the_shoe_less_a_card(
    spec: dict[str, int], rank_index: int
) -> None:
    """Removing a card of a rank unseen: the average over the physical cards of that rank."""
    spec = {**spec, FACES[rank_index * 4]: spec.get(FACES[rank_index * 4], 0) + 1}
    if sum(spec.values()) < 3:
        spec = {**spec, FACES[0]: spec.get(FACES[0], 0) + 2}
    rank = RANK_ORDER[rank_index]
    removal = dragon_tiger_removal(Shoe.parse(spec_text(spec)))
    cards = physical_cards(spec)
    members = [index for index, card in enumerate(cards) if card[0] == rank]
    for name in removal.effects:
        total = Fraction(0)
        for gone in members:
            left = Counter(card for index, card in enumerate(cards) if index != gone)
            tally = brute_force(dict(left), PAYS)[name]
            rounds = sum(tally.values())
            total += Fraction(sum(result * count for result, count in tally.items()), rounds)
        after = total / len(members)
        assert removal.effects[name][rank] == after - removal.expected_values[name], name


@budgeted(15, deadline=None)
@given(spec=suited_specs, rank_index=st.integers(0, 12))
def test_removing_two_cards_of_a_rank_averages_over_which_two(
    spec: dict[str, int], rank_index: int
) -> None:
    """``cards=2`` on a suited shoe: every unordered pair of the rank's physical cards alike."""
    face = FACES[rank_index * 4 + rank_index % 4]
    spec = {**spec, face: spec.get(face, 0) + 2}
    if sum(spec.values()) < 4:
        spec = {**spec, FACES[51]: spec.get(FACES[51], 0) + 2}
    rank = RANK_ORDER[rank_index]
    removal = dragon_tiger_removal(Shoe.parse(spec_text(spec)), cards=2)
    cards = physical_cards(spec)
    members = [index for index, card in enumerate(cards) if card[0] == rank]
    pairs = list(itertools.combinations(members, 2))
    for name in removal.effects:
        total = Fraction(0)
        for gone in pairs:
            left = Counter(card for index, card in enumerate(cards) if index not in gone)
            tally = brute_force(dict(left), PAYS)[name]
            total += Fraction(sum(result * n for result, n in tally.items()), sum(tally.values()))
        assert removal.effects[name][rank] == total / len(pairs) - removal.expected_values[name]


# Invariants ---------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(spec=st.one_of(suited_specs, rank_specs))
def test_probabilities_sum_to_one_and_dragon_and_tiger_are_symmetric(spec: dict[str, int]) -> None:
    if sum(spec.values()) < 2:
        spec = {**spec, next(iter(spec)): 2}
    odds = dragon_tiger_odds(Shoe.parse(spec_text(spec)))
    outcomes = odds.outcomes
    assert outcomes["dragon"] + outcomes["tiger"] + outcomes["tie"] == odds.rounds  # type: ignore[operator]
    assert outcomes["big"] + outcomes["seven"] + outcomes["small"] == odds.rounds  # type: ignore[operator]
    assert outcomes["dragon"] == outcomes["tiger"]
    for bet in odds.bets.values():
        assert sum(bet.results.values()) == odds.rounds
        assert sum(bet.probability(result) for result in bet.results) == 1
    assert odds.bets["dragon"].results == odds.bets["tiger"].results
    if odds.outcomes["suited_tie"] is not None:
        assert odds.outcomes["suited_tie"] <= odds.outcomes["tie"]  # type: ignore[operator]


@settings(max_examples=30, deadline=None)
@given(spec=st.one_of(suited_specs, rank_specs))
def test_the_weighted_effects_of_one_card_sum_to_zero(spec: dict[str, int]) -> None:
    """The bottom-card argument of analysis/removal.py holds for a two-card round too."""
    if sum(spec.values()) < 3:
        spec = {**spec, next(iter(spec)): 3}
    removal = dragon_tiger_removal(Shoe.parse(spec_text(spec)))
    for name in removal.effects:
        assert removal.weighted_sum(name) == 0


def test_the_count_is_the_shared_machinery_s_and_balances_when_it_can() -> None:
    removal = dragon_tiger_removal(EIGHT_DECKS, ["big"], max_tag=7)
    count = removal.counts["big"]
    assert count == removal.as_effect_of_removal().linear_count("big", 7)
    assert count.balanced
    assert {count.tags[rank] for rank in "A23456"} == {6} and count.tags["7"] == 6
    assert {count.tags[rank] for rank in "89TJQK"} == {-7}
    assert count.correlation_decimal(4) == "1.0000"


# Published figures --------------------------------------------------------------------------


def test_wizard_of_odds_counts_doubled_for_ordered_rounds() -> None:
    assert EIGHT_DECKS.suits_known
    odds = dragon_tiger_odds(EIGHT_DECKS)
    assert odds.rounds == 2 * 86_320
    assert odds.outcomes["dragon"] == odds.outcomes["tiger"] == 2 * 39_936
    assert odds.outcomes["tie"] == 2 * 6_448
    assert odds.outcomes["suited_tie"] == 2 * 1_456
    assert odds.bets["big"].results[Fraction(1)] == 192 * 415  # 192 of the 416 Dragon cards


def test_wizard_of_odds_house_edges() -> None:
    odds = dragon_tiger_odds(EIGHT_DECKS)
    assert f"{float(odds.bets['dragon'].expected_value):.6f}" == "-0.037349"
    assert percent_string(odds.bets["tie"].house_edge, 2) == "32.77%"
    assert percent_string(odds.bets["suited_tie"].house_edge, 2) == "13.98%"
    assert percent_string(odds.bets["big"].house_edge, 2) == "7.69%"
    assert odds.bets["small"].house_edge == odds.bets["big"].house_edge == Fraction(1, 13)


@pytest.mark.parametrize(
    ("pay", "edge"), [(12, "2.89%"), (11, "10.36%"), (10, "17.83%"), (9, "25.30%"), (8, "32.77%")]
)
def test_wizard_of_odds_tie_edges_at_other_pays(pay: int, edge: str) -> None:
    odds = dragon_tiger_odds(EIGHT_DECKS, ["tie"], {"tie": pay})
    assert percent_string(odds.bets["tie"].house_edge, 2) == edge


def test_evolution_return_to_player() -> None:
    odds = dragon_tiger_odds(EIGHT_DECKS, pays={"tie": 11})
    assert percent_string(odds.bets["dragon"].return_to_player, 2) == "96.27%"
    assert percent_string(odds.bets["tiger"].return_to_player, 2) == "96.27%"
    assert percent_string(odds.bets["tie"].return_to_player, 2) == "89.64%"
    assert percent_string(odds.bets["suited_tie"].return_to_player, 2) == "86.02%"
    # The copy that prints 96.72% for the main game: no nearby table gives it.
    assert percent_string(odds.bets["dragon"].return_to_player, 2) != "96.72%"


# Bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: dragon_tiger_odds(EIGHT_DECKS, ["banker"]), BetError, "is a baccarat bet"),
        (lambda: dragon_tiger_odds(EIGHT_DECKS, ["dragon7"]), BetError, "is a baccarat bet"),
        (lambda: dragon_tiger_odds(EIGHT_DECKS, ["phoenix"]), BetError, "Unknown Dragon Tiger"),
        (lambda: dragon_tiger_odds(EIGHT_DECKS, ""), BetError, "Unknown Dragon Tiger bet ''"),
        (lambda: dragon_tiger_odds(EIGHT_DECKS, pays={"tie": "-3"}), PayError, "`pays`"),
        (lambda: dragon_tiger_odds(EIGHT_DECKS, pays={"lucky6": 3}), PayError, "baccarat bet"),
        (lambda: dragon_tiger_odds(Shoe.parse("K=1")), ShoeError, "at least 2"),
        (lambda: dragon_tiger_removal(Shoe.parse("K=2")), RemovalError, "round needs 2"),
        (lambda: dragon_tiger_removal(EIGHT_DECKS, cards=33), RemovalError, "at most 32 of a rank"),
        (lambda: dragon_tiger_removal(EIGHT_DECKS, max_tag=0), RemovalError, "`max_tag`"),
    ],
)
def test_bad_input_is_one_sentence(call, error, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(error) as raised:
        call()
    text = str(raised.value)
    assert message in text and text.endswith(".") and "\n" not in text


def test_a_rank_that_cannot_be_removed_is_skipped_with_its_reason() -> None:
    removal = dragon_tiger_removal(Shoe.parse("A=1,K=3"), cards=2)
    assert removal.effects["dragon"]["A"] is None and removal.effects["dragon"]["K"] is not None
    assert removal.skipped["A"] == "Cannot remove 2 A: the shoe holds only 1."


# The command line -----------------------------------------------------------------------------


def test_odds_game_baccarat_is_the_default_byte_for_byte() -> None:
    for extra in ((), ("--format", "json"), ("--bets", "all", "--format", "csv")):
        assert run_ok("odds", "--game", "baccarat", *extra).stdout == run_ok("odds", *extra).stdout
    assert (
        run_ok("eor", "--game", "baccarat", "--bets", "tie").stdout
        == run_ok("eor", "--bets", "tie").stdout
    )


def test_odds_json_is_the_library_s_to_dict() -> None:
    result = run_ok("odds", "--game", "dragon-tiger", "--pay", "tie=11", "--format", "json")
    data = json.loads(result.stdout)
    assert data == dragon_tiger_odds(EIGHT_DECKS, pays={"tie": 11}).to_dict(10)
    assert data["bets"]["tie"]["rtp"] == "372/415" and data["outcomes"]["tie"]["rounds"] == 12_896


def test_odds_table_fits_100_columns_and_shows_the_rtp() -> None:
    for extra in ((), ("--exact",)):
        text = run_ok("odds", "--game", "dragon-tiger", "--pay", "tie=11", *extra).stdout
        assert max(len(line) for line in text.splitlines()) <= 100
        assert "96.2650602410%" in text and "89.6385542169%" in text


def test_odds_csv_and_a_suited_tie_on_a_shoe_without_suits() -> None:
    result = run_ok("odds", "--game", "dragon-tiger", "--shoe", "A=4,K=4", "--format", "csv")
    rows = result.stdout.splitlines()
    assert rows[0].startswith("bet,pay,ev,") and len(rows) == 7
    assert rows[4].startswith("suited_tie,") and "needs suits" in rows[4]
    table = run_ok("odds", "--game", "dragon-tiger", "--shoe", "A=4,K=4").stdout
    assert "not computable" in table


def test_eor_json_is_the_library_s_to_dict() -> None:
    args = ("eor", "--game", "dragon-tiger", "--remove", "7 7 K", "--bets", "big,tie")
    data = json.loads(run_ok(*args, "--format", "json").stdout)
    removal = dragon_tiger_removal(EIGHT_DECKS.remove("77K"), ["big", "tie"])
    assert data == removal.to_dict(10)
    assert "Change in EV" in run_ok(*args).stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("odds", "--bets", "banker"), "Error: Bet 'banker' in --bets is a baccarat bet;"),
        (("odds", "--bets", "dragon9"), "Error: Unknown Dragon Tiger bet 'dragon9' in --bets;"),
        (("odds", "--pay", "dragon7=30"), "Error: Bet 'dragon7' in --pay is a baccarat bet;"),
        (("odds", "--pay", "tie"), "Error: Pay 'tie' in --pay has no value;"),
        (("odds", "--pay", "tie=-1"), "Error: Pay '-1' for tie in --pay is not valid;"),
        (("odds", "--tie-pays", "11"), "Error: --tie-pays is a baccarat option;"),
        (("odds", "--variant", "ez"), "Error: --variant is a baccarat option;"),
        (("odds", "--known", "1=9"), "Error: --known is a baccarat option;"),
        (("eor", "--commission", "4%"), "Error: --commission is a baccarat option;"),
        (("eor", "--cards", "0"), "Error: Number of cards to remove 0 for --cards is not valid;"),
        (("eor", "--shoe", "K=1"), "Error: The shoe holds 1 card;"),
    ],
)
def test_bad_usage_is_one_sentence_on_stderr_and_exit_2(
    args: tuple[str, ...], message: str
) -> None:
    result = run(args[0], "--game", "dragon-tiger", *args[1:])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith(message) and result.stderr.count("\n") == 1


def test_an_unknown_game_is_refused_by_click() -> None:
    result = run("odds", "--game", "dragon_tiger")
    assert result.exit_code == 2 and "dragon-tiger" in result.stderr and result.stdout == ""
