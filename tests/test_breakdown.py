"""Breakdown tables: published figures, invariants and the three output formats.

Sources (as collected in the project's research notes, .research/published.md):

* Wizard of Odds, "Exact Winning Side and Total in Baccarat",
  https://wizardofodds.com/games/exact-winning-side-and-total-in-baccarat (read
  through the proxy URL https://i77697a6172646f666f646473o636f6dz.oszar.com/games/exact-winning-side-and-total-in-baccarat):
  "the number of combinations of all 28 possible combinations of winning side and
  total (including ties)", 8 decks.  Every cell has at most 15 digits, so every cell is
  exact (only the 16-digit column totals went through Excel's rounding).
* Wizard of Odds, "Side Total Side Bets in Baccarat", mirror
  https://mycraftingplace.com/games/baccarat/side-bets/side-totals/ (8 decks): the
  Player's final total, all ten rows, and the Banker's rows 9 down to 3.
* Wizard of Odds, "Baccarat Side Bets" appendix, 4-5-6 side bet, mirror
  https://www.mycraftingplace.com/games/baccarat/appendix/5/: probabilities of 4, 5
  and 6 cards for 8 and 6 decks, to six places.
* excelpunks, "Concepts 13: Baccarat Vs. Non-Commission Baccarat",
  https://excelpunks.com/2018/05/12/concepts-13-baccarat-vs-non-commission-baccarat-why-does-a-banker-win-on-6-pay-half/:
  Banker wins on each total, e.g. 6: 269,232,304,455,680.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections import Counter
from fractions import Fraction

import pytest
from budget import budgeted
from hypothesis import given
from hypothesis import strategies as st
from published_figures import WINNING_SIDE_AND_TOTAL

from exactodds import Rules, Shoe, Tableau, Winner, analyze, enumerate_rounds
from exactodds.analysis.breakdown import Breakdown, Frequency, breakdown
from exactodds.engine.known import enumerate_known, parse_known
from exactodds.engine.walk import falling_factorial
from exactodds.numbers import decimal_string
from exactodds.report.breakdown import (
    render_breakdown_csv,
    render_breakdown_json,
    render_breakdown_table,
)
from exactodds.report.registry import to_dict
from exactodds.rulefiles import load_rules_file, shipped_rules_files

EIGHT_DECKS = Shoe.standard(decks=8)


def _eight_decks() -> Breakdown:
    return breakdown(enumerate_rounds(EIGHT_DECKS))


# WINNING_SIDE_AND_TOTAL: Wizard of Odds, "Exact Winning Side and Total in Baccarat" (8 decks),
# total -> (Player win, Banker win, Tie), from tests/published_figures.py.


def test_every_winning_side_and_total_matches_the_wizard_of_odds() -> None:
    result = _eight_decks()
    for total, (player, banker, tie) in WINNING_SIDE_AND_TOTAL.items():
        assert result.winning_totals[Winner.PLAYER, total].count == player
        assert result.winning_totals[Winner.BANKER, total].count == banker
        assert result.winning_totals[Winner.TIE, total].count == tie


def test_banker_wins_with_six_as_excelpunks_prints_it() -> None:
    assert _eight_decks().winning_totals[Winner.BANKER, 6].count == 269_232_304_455_680


# Wizard of Odds, "Winning Side and Total Probabilities" (8 decks), six places, as printed.
# https://wizardofodds.com/games/baccarat/side-bets/winning-side-and-total/
WINNING_SIDE_AND_TOTAL_PROBABILITIES = {
    9: ("0.122654", "0.117408", "0.011033"),
    6: ("0.062552", "0.053864", "0.019240"),
    1: ("0.004929", "0.004860", "0.004101"),
}


def test_winning_side_and_total_probabilities_to_six_places() -> None:
    result = _eight_decks()
    for total, printed in WINNING_SIDE_AND_TOTAL_PROBABILITIES.items():
        shown = tuple(
            decimal_string(result.winning_totals[winner, total].probability, 6)
            for winner in (Winner.PLAYER, Winner.BANKER, Winner.TIE)
        )
        assert shown == printed
    assert decimal_string(result.winning_totals[Winner.TIE, 0].probability, 6) == "0.005798"


# Wizard of Odds, "Side Total Side Bets in Baccarat" (8 decks), Player Total table, all rows.
PLAYER_TOTALS = {
    9: 668_220_074_600_448,
    8: 665_982_456_134_400,
    7: 668_117_541_187_584,
    6: 665_920_136_276_736,
    5: 372_435_601_541_376,
    4: 371_426_030_979_072,
    3: 372_517_215_488_256,
    2: 371_465_655_324_672,
    1: 372_517_055_559_936,
    0: 469_796_508_410_880,
}
# Same page, Banker Total table: only rows 9 down to 3 were retrieved.
BANKER_TOTALS = {
    9: 641_996_333_062_144,
    8: 639_959_843_756_800,
    7: 641_950_993_608_704,
    6: 605_184_530_090_752,
    5: 503_359_177_443_584,
    4: 466_997_733_545_984,
    3: 363_761_246_869_760,
}


def test_side_totals_match_the_wizard_of_odds() -> None:
    result = _eight_decks()
    assert {total: f.count for total, f in result.player_totals.items()} == PLAYER_TOTALS
    for total, count in BANKER_TOTALS.items():
        assert result.banker_totals[total].count == count


# Wizard of Odds, 4-5-6 side bet: probability of 4, 5 and 6 cards, six places, as printed.
FOUR_FIVE_SIX = {
    8: ("0.378868", "0.303444", "0.317687"),
    6: ("0.378925", "0.303540", "0.317535"),
}


@pytest.mark.parametrize("decks", sorted(FOUR_FIVE_SIX))
def test_four_five_six_cards_match_the_wizard_of_odds(decks: int) -> None:
    result = breakdown(enumerate_rounds(Shoe.standard(decks=decks)))
    shown = tuple(decimal_string(result.cards_dealt[n].probability, 6) for n in (4, 5, 6))
    assert shown == FOUR_FIVE_SIX[decks]


# --- Invariants ------------------------------------------------------------------------------


def _check_invariants(result: Breakdown, shoe: Shoe, tableau: Tableau) -> None:
    total = result.total
    table = enumerate_rounds(shoe, tableau)
    assert total == table.total
    assert len(result.final_totals) == 100
    assert len(result.winning_totals) == 30
    assert sum(f.count for f in result.final_totals.values()) == total
    assert sum(f.count for f in result.winning_totals.values()) == total
    assert sum(f.count for f in result.cards_dealt.values()) == total
    assert sum(f.count for f in result.draws.values()) == total
    assert sum(f.count for f in result.naturals.values()) == total
    direct: Counter[tuple[int, int]] = Counter()
    for summary, count in table.counts.items():
        direct[summary.player_total, summary.banker_total] += count
    for (player, banker), frequency in result.final_totals.items():
        assert frequency.count == direct[player, banker]
    # The diagonal of final totals is the ties, the rest the wins.
    for value in range(10):
        assert result.final_totals[value, value] == result.winning_totals[Winner.TIE, value]
        assert result.winning_totals[Winner.PLAYER, value].count == sum(
            result.final_totals[value, banker].count for banker in range(value)
        )
        assert result.winning_totals[Winner.BANKER, value].count == sum(
            result.final_totals[player, value].count for player in range(value)
        )
    assert result.winning_totals[Winner.PLAYER, 0].count == 0
    assert result.winning_totals[Winner.BANKER, 0].count == 0
    # Cards dealt and draws say the same thing two ways.
    assert result.cards_dealt[4] == result.draws[False, False]
    assert result.cards_dealt[6] == result.draws[True, True]
    assert result.cards_dealt[5].count == (
        result.draws[True, False].count + result.draws[False, True].count
    )
    assert result.player_draws.count == table.count(lambda s: s.player_cards == 3)
    assert result.banker_draws.count == table.count(lambda s: s.banker_cards == 3)
    # Naturals: both stand, and the first four cards are exchangeable between the hands.
    assert result.any_natural.count == table.count(lambda s: s.natural)
    player_naturals: Counter[int] = Counter()
    for summary, count in table.counts.items():
        if summary.player_natural:
            player_naturals[summary.player_total] += count
    assert set(result.natural_totals) == set(+player_naturals) | {
        s.banker_total for s, c in table.counts.items() if s.banker_natural and c
    }
    for value in result.natural_totals:
        assert result.player_natural(value) == result.banker_natural(value)
        assert result.player_natural(value).count == player_naturals[value]
    assert result.both_natural.count == table.count(lambda s: s.player_natural and s.banker_natural)
    winners = analyze(shoe, Rules(tableau=tableau)).outcomes
    for winner, frequency in result.winners.items():
        assert frequency.count == winners[winner.value].count


def test_invariants_on_eight_decks() -> None:
    _check_invariants(_eight_decks(), EIGHT_DECKS, Tableau.standard())


@budgeted(25, deadline=None)
@given(
    counts=st.lists(st.integers(0, 4), min_size=13, max_size=13).filter(lambda c: sum(c) >= 6),
    naturals=st.sampled_from([frozenset({8, 9}), frozenset({9}), frozenset(), frozenset({7})]),
)
def test_invariants_on_small_shoes_and_other_naturals(
    counts: list[int], naturals: frozenset[int]
) -> None:
    shoe = Shoe.from_ranks(counts)
    tableau = Tableau(natural_totals=naturals, name="naturals")
    _check_invariants(breakdown(enumerate_rounds(shoe, tableau)), shoe, tableau)


def test_symmetric_rules_give_both_hands_the_same_totals() -> None:
    tableau = load_rules_file(shipped_rules_files()["banker_as_player"])
    result = breakdown(enumerate_rounds(EIGHT_DECKS, tableau))
    assert result.player_totals == result.banker_totals
    assert result.player_draws == result.banker_draws
    for player in range(10):
        for banker in range(10):
            assert result.final_totals[player, banker] == result.final_totals[banker, player]


def test_frequencies_are_exact() -> None:
    result = _eight_decks()
    assert result.cards_dealt[4] == Frequency(1_893_735_611_458_560, 4_998_398_275_503_360)
    assert result.cards_dealt[4].probability == Fraction(140356, 370461)
    assert sum((f.probability for f in result.final_totals.values()), Fraction(0)) == 1
    assert result.natural_totals == (8, 9)


# --- Output formats --------------------------------------------------------------------------


def test_json_is_the_contract() -> None:
    text = render_breakdown_json(_eight_decks(), 6, EIGHT_DECKS, Tableau.standard())
    data = json.loads(text)
    assert data["total"] == 4_998_398_275_503_360
    assert data["tableau"] == "standard"
    assert data["shoe"]["cards"] == 416
    banker_six = data["winning_totals"]["banker"]["6"]
    assert banker_six == {
        "count": 269_232_304_455_680,
        "probability": "210337737856/3904998652737",
        "decimal": "0.053864",
    }
    assert set(data) == {
        "shoe",
        "tableau",
        "total",
        "winning_totals",
        "winners",
        "final_totals",
        "player_totals",
        "banker_totals",
        "cards_dealt",
        "draws",
        "naturals",
    }
    assert set(data["draws"]) == {
        "player",
        "banker",
        "both",
        "player_only",
        "banker_only",
        "neither",
    }
    assert len(data["naturals"]["by_totals"]) == 9
    fraction = re.compile(r"-?\d+(/\d+)?")

    def walk(node: object) -> None:
        if isinstance(node, dict):
            if "count" in node:
                assert isinstance(node["count"], int)
                assert fraction.fullmatch(node["probability"])
                assert Fraction(node["probability"]) == Fraction(node["count"], data["total"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(data)
    assert "shoe" not in to_dict(_eight_decks(), digits=6)


def test_csv_has_one_row_per_figure() -> None:
    rows = list(csv.DictReader(io.StringIO(render_breakdown_csv(_eight_decks(), 6))))
    tables = [row["table"] for row in rows]
    assert tables.count("winning_total") == 30
    assert tables.count("winner") == 3
    assert tables.count("final_totals") == 100
    assert tables.count("side_total") == 20
    assert tables.count("cards_dealt") == 3
    assert tables.count("draws") == 6
    assert tables.count("naturals") == 7
    assert tables.count("natural_totals") == 9
    lookup = {(row["table"], row["row"], row["column"]): row for row in rows}
    assert lookup["winning_total", "6", "banker"]["count"] == "269232304455680"
    assert lookup["cards_dealt", "4", ""]["probability_decimal"] == "0.378868"
    assert lookup["side_total", "0", "player"]["count"] == "469796508410880"
    assert lookup["natural_totals", "9", "none"]["probability"] == str(
        _eight_decks().naturals[9, None].probability
    )


def test_known_cards_appear_in_every_format() -> None:
    known = parse_known(["1=9"])
    result = breakdown(enumerate_known(EIGHT_DECKS, None, known))
    assert result.total == 12_015_380_469_960
    text = render_breakdown_table(result, 6, shoe=EIGHT_DECKS, tableau=Tableau(), known=known)
    assert "Known: 9 at position 1 (Player's first card)" in text.splitlines()
    assert json.loads(render_breakdown_json(result, 6, known=known))["known"] == {"1": "9"}
    # Given a 9 first, the Player has a natural 9 exactly when the second card is one of the
    # 128 cards worth 0 among the 415 left; positions 2, 4, 5 and 6 are then filled freely.
    assert result.player_natural(9).count == 128 * falling_factorial(414, 4)
    assert result.player_natural(9).probability == Fraction(128, 415)


def test_table_reads_like_the_published_ones() -> None:
    text = render_breakdown_table(
        _eight_decks(), 6, exact=True, shoe=EIGHT_DECKS, tableau=Tableau.standard()
    )
    lines = text.splitlines()
    assert lines[:3] == [
        "Shoe: 416 cards (8 decks), suits known",
        "Tableau: standard",
        "Rounds: 4,998,398,275,503,360 ordered six-card sequences",
    ]
    assert re.search(
        r"^6 +312,658,895,192,064 +0\.062552 +269,232,304,455,680 +0\.053864", text, re.M
    )
    assert re.search(r"^4 +1,893,735,611,458,560 +0\.378868 +140356/370461$", text, re.M)
    assert re.search(r"^Player natural 9 +474,361,430,409,216 +0\.094903 +512/5395$", text, re.M)
    assert "P 9" in text and "B 9" in text
    assert "Exact" not in render_breakdown_table(_eight_decks(), 6)
