"""The side-bet catalogue against published figures, and its structure.

Golden figures are copied from the pages listed in ``.research/published.md``
(sections 2-4); each test names its source.  The Wizard of Odds tables were
made in Excel, so a count of 16 digits may be rounded in its last digits:
only counts under 10**15 are compared digit for digit, and the 16-digit
"Loss" and "Total" rows are checked through the exact total instead.

Every figure here comes from a fresh shoe of 8 decks unless the test says
otherwise; one enumeration prices every bet, and each shoe is enumerated once.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import pytest
from budget import budgeted
from hypothesis import given
from hypothesis import strategies as st

from exactodds import Analysis, BetAnalysis, Rules, Shoe, analyze
from exactodds.bets.paytables import apply_pays
from exactodds.bets.side import SIDE_BET_NAMES, side_bets
from exactodds.cards import RANKS, SUITS

#: Every ordered six-card sequence of an 8-deck shoe: 416*415*414*413*412*411.
TOTAL_8_DECKS = 4_998_398_275_503_360

WOO_SIDE_BETS = "Baccarat Side Bets — https://wizardofodds.com/games/baccarat/side-bets/"
WOO_EZ = "EZ Baccarat — http://user-casino.com/games/ez-baccarat/"
WOO_LUCKY6 = "Lucky 6 — https://wizardofodds.com/games/baccarat/side-bets/lucky-6/"
WOO_EGALITE = (
    "Egalite Bets in Baccarat — https://www.daikenfudousan.com/games/baccarat/side-bets/egalite/"
)


@cache
def priced(decks: int = 8, pays: tuple[tuple[str, str], ...] = ()) -> Analysis:
    """Every side bet priced on a fresh shoe of *decks* decks, with *pays* applied."""
    bets = apply_pays(side_bets(), dict(pays))
    return analyze(Shoe.standard(decks), Rules(), list(bets.values()))


def bet(name: str, decks: int = 8, pays: tuple[tuple[str, str], ...] = ()) -> BetAnalysis:
    """One side bet's analysis."""
    return priced(decks, pays).bets[name]


# House edges to four decimals --------------------------------------------------------------

# Sources, in order of the rows below:
# - Pairs "The house edge is 10.361%." — Computer-perfect play against the baccarat Pairs bet
#   (888casino) — https://www.888casino.com/blog/side-bets/computer-perfect-play-against-the-baccarat-pairs-bet/
# - Either Pair "13.71%" — Top-10 Baccarat Side Games Odds —
#   https://wordstreetjournal.com/top-ten-baccarat-side-games-detailed-odds-and-payouts/
# - Perfect Pairs 25 to 1: "-0.130294" — Perfect Pairs (Version 1) —
#   https://mycraftingplace.com/games/baccarat/side-bets/perfect-pairs-ver1/
# - Perfect Pairs one 25, both 250: "-0.066235" — Perfect Pairs (Version 2) —
#   https://daikenfudousan.com/games/baccarat/side-bets/perfect-pairs-ver2/
# - Dragon Bonus "-0.026517" / "-0.093731" — Baccarat Side Bets (WoO) —
#   https://wizardofodds.com/games/baccarat/side-bets/
# - Dragon 7 "-0.076113", Panda 8 "-0.101876" — EZ Baccarat (WoO text) —
#   http://user-casino.com/games/ez-baccarat/ ; "baseline house edge of 10.1876%" — Card Counting
#   the Dragon and Panda Side Bets in EZ Baccarat (888casino) —
#   https://www.888casino.com/blog/side-bets/co-card-counting-the-dragon-and-panda-side-bets-in-ez-baccarat
# - Lucky 6 "-0.166836" (12/20) and "-0.116985" (12/23) — Lucky 6 (WoO) —
#   https://wizardofodds.com/games/baccarat/side-bets/lucky-6/
# - Big Tiger "The house edge is 15.2533%." — Card Counting the Big Tiger Baccarat Side Bet —
#   https://advancedadvantageplay.com/2024/07/card-counting-the-big-tiger-baccarat-side-bet
# - Small Tiger "Small Tiger House Edge: 14.333" — baccarat.c README (Skycity Adelaide pay set),
#   published.md §1b; the fourth decimal is the exact figure from the Lucky 6 two-card count.
HOUSE_EDGES: list[tuple[str, tuple[tuple[str, str], ...], str]] = [
    ("player_pair", (), "10.3614%"),
    ("banker_pair", (), "10.3614%"),
    ("either_pair", (), "13.7099%"),
    ("perfect_pair", (), "13.0294%"),
    ("perfect_pair", (("perfect_pair.both", "250"),), "6.6235%"),
    ("dragon_bonus_player", (), "2.6517%"),
    ("dragon_bonus_banker", (), "9.3731%"),
    ("dragon7", (), "7.6113%"),
    ("panda8", (), "10.1876%"),
    ("lucky6", (), "16.6836%"),
    ("lucky6", (("lucky6.three_card_win", "23"),), "11.6985%"),
    ("big_tiger", (), "15.2533%"),
    ("small_tiger", (), "14.3325%"),
]


@pytest.mark.parametrize(("name", "pays", "edge"), HOUSE_EDGES)
def test_house_edge_8_decks(name: str, pays: tuple[tuple[str, str], ...], edge: str) -> None:
    assert bet(name, pays=pays).house_edge_percent(4) == edge


def test_pairs_hit_frequency() -> None:
    # "The hit frequency is 7.470%." — Computer-perfect play against the baccarat Pairs bet
    # (888casino) — https://www.888casino.com/blog/side-bets/computer-perfect-play-against-the-baccarat-pairs-bet/
    for name in ("player_pair", "banker_pair"):
        assert f"{float(bet(name).win_probability) * 100:.3f}%" == "7.470%"


def test_big_tiger_hit_frequency_and_variance() -> None:
    # "The hit percentage is 1.662%." — Card Counting the Big Tiger Baccarat Side Bet —
    # https://advancedadvantageplay.com/2024/07/card-counting-the-big-tiger-baccarat-side-bet
    # "House edge: 15.253%  Variance: 42.503" — Baccarat Side Bets (advancedadvantageplay) —
    # https://advancedadvantageplay.com/side-bets/baccarat-side-bets/
    big_tiger = bet("big_tiger")
    assert f"{float(big_tiger.win_probability) * 100:.3f}%" == "1.662%"
    assert f"{float(big_tiger.variance):.3f}" == "42.503"
    assert big_tiger.house_edge_percent(3) == "15.253%"


def test_tiger_edges_to_three_decimals() -> None:
    # "Tiger House Edge: 16.684", "Small Tiger House Edge: 14.333", "Big Tiger House Edge: 15.253"
    # — baccarat.c README ("The bets listed are as provided by Skycity Adelaide Casino in 2020"),
    # published.md §1b; Tiger pays 12/20 like Lucky 6, Small Tiger 22, Big Tiger 50.
    assert bet("lucky6").house_edge_percent(3) == "16.684%"
    assert bet("small_tiger").house_edge_percent(3) == "14.333%"
    assert bet("big_tiger").house_edge_percent(3) == "15.253%"


# Exact combination counts ------------------------------------------------------------------

# Dragon Bonus — Player / Banker: Baccarat Side Bets — https://wizardofodds.com/games/baccarat/side-bets/
# (also Baccarat Appendix 5 — http://wizardofodds.com/games/baccarat/appendix/5/). Win rows are
# under 10**15, so exact; the Loss row (16 digits) is Excel-rounded and left out.
DRAGON_BONUS_COUNTS: dict[str, dict[str, int]] = {
    "dragon_bonus_player": {
        "win_by_9": 18_409_431_764_992,
        "win_by_8": 34_097_645_543_424,
        "win_by_7": 89_590_261_473_280,
        "win_by_6": 141_238_897_317_888,
        "win_by_5": 166_169_165_987_840,
        "win_by_4": 186_780_352_174_080,
        "natural_win": 812_685_054_124_032,
        "natural_tie": 89_325_908_267_520,
    },
    "dragon_bonus_banker": {
        "win_by_9": 15_390_342_909_952,
        "win_by_8": 28_305_092_784_128,
        "win_by_7": 79_517_099_278_336,
        "win_by_6": 119_200_072_366_080,
        "win_by_5": 157_275_882_332_160,
        "win_by_4": 201_147_167_287_296,
        "natural_win": 812_685_054_124_032,
        "natural_tie": 89_325_908_267_520,
    },
}


@pytest.mark.parametrize("name", sorted(DRAGON_BONUS_COUNTS))
def test_dragon_bonus_counts(name: str) -> None:
    counts = bet(name).outcome_counts
    published = DRAGON_BONUS_COUNTS[name]
    assert {outcome: counts[outcome] for outcome in published} == published
    # The Loss row is the rest of the exact total (its printed 16-digit value is rounded).
    assert counts["lose"] == TOTAL_8_DECKS - sum(published.values())
    assert bet(name).total == TOTAL_8_DECKS


def test_dragon7_and_panda8_counts() -> None:
    # Dragon 7 "Win 40 112,633,011,329,024" and Panda 8 "Win 25 172,660,763,262,976" —
    # EZ Baccarat (WoO text) — http://user-casino.com/games/ez-baccarat/
    assert bet("dragon7").outcome_counts["win"] == 112_633_011_329_024
    assert bet("panda8").outcome_counts["win"] == 172_660_763_262_976


def test_lucky6_counts() -> None:
    # "2-Card Winning Banker 6 12 186,173,936,904,192" and "3-Card Winning Banker 6 ...
    # 83,058,367,551,488" — Lucky 6 — https://wizardofodds.com/games/baccarat/side-bets/lucky-6/
    two_card, three_card = 186_173_936_904_192, 83_058_367_551_488
    counts = bet("lucky6").outcome_counts
    assert counts["two_card_win"] == two_card
    assert counts["three_card_win"] == three_card
    # The Tiger family settles on the same events.
    assert bet("small_tiger").outcome_counts["win"] == two_card
    assert bet("big_tiger").outcome_counts["win"] == three_card
    # "Banker Win" on total 6: 269,232,304,455,680 — Exact Winning Side and Total in Baccarat
    # (WoO) — https://i77697a6172646f666f646473o636f6dz.oszar.com/games/exact-winning-side-and-total-in-baccarat
    assert bet("super6").outcome_counts["win"] == 269_232_304_455_680 == two_card + three_card


# "Individual Egalite Bets" (Bet, Pays, Combinations, Probability, Return) — Egalite Bets in
# Baccarat — https://www.daikenfudousan.com/games/baccarat/side-bets/egalite/
EGALITE: dict[int, tuple[int, int, str]] = {
    9: (80, 55_146_054_060_032, "-0.106348"),
    8: (80, 54_879_416_675_072, "-0.110669"),
    7: (45, 101_717_538_899_968, "-0.063899"),
    6: (45, 96_170_001_308_416, "-0.114952"),
    5: (110, 39_684_046_743_808, "-0.118732"),
    4: (120, 36_294_133_463_040, "-0.121401"),
    3: (200, 22_250_510_129_408, "-0.105243"),
    2: (225, 20_006_606_104_576, "-0.095412"),
    1: (215, 20_499_217_668_352, "-0.114150"),
    0: (150, 28_979_901_420_544, "-0.124527"),
}


@pytest.mark.parametrize("total", sorted(EGALITE))
def test_egalite(total: int) -> None:
    pays, count, expected_return = EGALITE[total]
    egalite = bet(f"egalite_{total}")
    assert egalite.bet.pay("win") == pays
    assert egalite.outcome_counts["win"] == count
    assert egalite.expected_value_decimal(6) == expected_return


def test_egalite_counts_add_up_to_the_ties() -> None:
    # Tie 475,627,426,473,216 — Baccarat Odds for 1 to 12 Decks (WoO) —
    # https://wizardofodds.com/games/baccarat/one-to-twelve-decks/
    assert sum(bet(f"egalite_{total}").outcome_counts["win"] for total in range(10)) == (
        475_627_426_473_216
    )


# Perfect pairs ------------------------------------------------------------------------------

# WoO counts Perfect Pairs over the first four cards (two unordered two-card hands), so its
# counts differ from ours by a constant factor: compare probabilities.
# Version 1 (25 to 1 on one or both): "Win 25 246,848,784 ... Total 7,379,583,120" (8 decks),
# "Win 25 74,114,820 ... Total 2,323,673,820" (6 decks) — Perfect Pairs (Version 1) —
# https://mycraftingplace.com/games/baccarat/side-bets/perfect-pairs-ver1/
# Version 2: "Two perfect pairs 250 2,101,008", "One perfect pair 25 244,747,776" —
# Perfect Pairs (Version 2) — https://daikenfudousan.com/games/baccarat/side-bets/perfect-pairs-ver2/


def perfect_pair_probabilities(decks: int) -> dict[str, Fraction]:
    """P(one suited pair), P(two suited pairs) on a fresh shoe."""
    perfect = bet("perfect_pair", decks)
    return {
        outcome: Fraction(perfect.outcome_counts[outcome], perfect.total)
        for outcome in ("one", "both")
    }


def test_perfect_pair_probabilities_8_decks() -> None:
    probabilities = perfect_pair_probabilities(8)
    assert probabilities["one"] + probabilities["both"] == Fraction(246_848_784, 7_379_583_120)
    assert probabilities["both"] == Fraction(2_101_008, 7_379_583_120)
    assert probabilities["one"] == Fraction(244_747_776, 7_379_583_120)


def test_perfect_pair_6_decks() -> None:
    probabilities = perfect_pair_probabilities(6)
    assert probabilities["one"] + probabilities["both"] == Fraction(74_114_820, 2_323_673_820)
    # "The lower right cell shows a house edge of 17.07%." (6 decks, 25 to 1)
    assert bet("perfect_pair", 6).house_edge_percent(2) == "17.07%"


def test_perfect_pair_26_to_1() -> None:
    # "Win Pays 26 to 1 — Eight Decks ... -0.096844" ("house edge of 9.68%") — Perfect Pairs
    # (Version 1) — https://mycraftingplace.com/games/baccarat/side-bets/perfect-pairs-ver1/
    pays = (("perfect_pair.one", "26"), ("perfect_pair.both", "26"))
    assert bet("perfect_pair", pays=pays).expected_value_decimal(6) == "-0.096844"


# Other shoe sizes -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("decks", "player", "banker"),
    [(4, "2.70%", "9.42%"), (6, "2.67%", "9.39%"), (8, "2.65%", "9.37%")],
)
def test_dragon_bonus_by_decks(decks: int, player: str, banker: str) -> None:
    # "Dragon Bonus House Edge — Number of decks | Player House Edge | Banker House Edge" —
    # Baccarat Side Bets — https://wizardofodds.com/games/baccarat/side-bets/
    assert bet("dragon_bonus_player", decks).house_edge_percent(2) == player
    assert bet("dragon_bonus_banker", decks).house_edge_percent(2) == banker


def test_big_and_small_6_decks() -> None:
    # "Small bets pay 3:2 whereas the Big bet payout is 0.54:1. The house edge for these bets is
    # 5.27% and 4.35% respectively when the game is played with six decks." — Side Bets in
    # Baccarat Explained — https://www.playbaccarat.com/baccarat-strategy/side-bets-in-baccarat-explained/
    assert bet("big", 6).bet.pay("win") == Fraction(27, 50)
    assert bet("small", 6).bet.pay("win") == Fraction(3, 2)
    assert bet("big", 6).house_edge_percent(2) == "4.35%"
    assert bet("small", 6).house_edge_percent(2) == "5.27%"


# "Rank Effect" column (8 decks, 23-12 pay table; rank 0 is any ten-valued card) — Card Counting
# the Lucky 6 Bet in Baccarat — https://wizardofodds.com/games/baccarat/counting-lucky-6/
LUCKY6_EFFECT_OF_REMOVAL = {
    "T": "-0.000611",
    "A": "-0.000329",
    "2": "-0.000323",
    "3": "-0.001131",
    "4": "-0.000393",
    "5": "-0.000278",
    "6": "-0.005386",
    "7": "0.003907",
    "8": "0.003537",
    "9": "0.002838",
}


def test_lucky6_effect_of_removal() -> None:
    lucky6 = apply_pays(side_bets(), {"lucky6.three_card_win": 23})["lucky6"]
    full = bet("lucky6", pays=(("lucky6.three_card_win", "23"),)).expected_value
    for rank, effect in LUCKY6_EFFECT_OF_REMOVAL.items():
        shoe = Shoe.standard(8).remove(rank + "S")
        after = analyze(shoe, Rules(), [lucky6]).bets["lucky6"].expected_value
        assert f"{float(after - full):.6f}" == effect, rank


# Structure ------------------------------------------------------------------------------------


def test_catalogue_names() -> None:
    assert tuple(side_bets()) == SIDE_BET_NAMES
    assert len(SIDE_BET_NAMES) == len(set(SIDE_BET_NAMES)) == 24
    assert [name for name, side_bet in side_bets().items() if side_bet.needs_suits] == [
        "perfect_pair"
    ]


def test_every_distribution_sums_to_one_8_decks() -> None:
    analysis = priced()
    assert list(analysis.bets) == list(SIDE_BET_NAMES)
    for name, result in analysis.bets.items():
        assert sum(result.distribution.values()) == 1, name
        assert sum(result.outcome_counts.values()) == TOTAL_8_DECKS, name
        assert result.win_probability + result.push_probability + result.loss_probability == 1


CARD_SYMBOLS = [rank.symbol + suit.symbol for rank in RANKS for suit in SUITS]


@budgeted(8, deadline=None)
@given(
    st.lists(st.sampled_from(CARD_SYMBOLS), max_size=40),
    st.integers(1, 2),
)
def test_every_distribution_sums_to_one_on_partial_shoes(removed: list[str], decks: int) -> None:
    full = Shoe.standard(decks)
    shoe = full.remove([card for card in removed if removed.count(card) <= decks])
    analysis = analyze(shoe, Rules(), list(side_bets().values()))
    assert not analysis.unavailable
    for name, result in analysis.bets.items():
        assert sum(result.distribution.values()) == 1, name
        assert sum(result.outcome_counts.values()) == analysis.total, name


def test_suited_bet_on_a_rank_only_shoe_is_unavailable() -> None:
    shoe = Shoe.standard(8).remove("K")
    assert not shoe.suits_known
    analysis = analyze(shoe, Rules(), list(side_bets().values()))
    assert list(analysis.unavailable) == ["perfect_pair"]
    reason = analysis.unavailable["perfect_pair"]
    assert "suits" in reason
    assert reason.endswith(".")
    assert set(analysis.bets) == set(SIDE_BET_NAMES) - {"perfect_pair"}
    assert analysis.bet_names == SIDE_BET_NAMES
    for result in analysis.bets.values():
        assert sum(result.distribution.values()) == 1


def test_suited_bet_on_a_suited_partial_shoe_is_priced() -> None:
    shoe = Shoe.standard(8).remove("KS")
    assert shoe.suits_known
    analysis = analyze(shoe, Rules(), list(side_bets().values()))
    assert not analysis.unavailable
    perfect = analysis.bets["perfect_pair"]
    assert sum(perfect.distribution.values()) == 1
    assert perfect.total == 415 * 414 * 413 * 412 * 411 * 410
    assert set(perfect.outcome_counts) == {"one", "both", "lose"}
