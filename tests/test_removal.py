"""Effect of removal (``exactodds.analysis.removal`` and ``exactodds eor``).

Checked four ways: against a direct, independent pricing of each depleted
shoe with ``analyze``; against the identity ``sum_r n_r * EoR_r = 0`` for one
card (proved in the module docstring), exactly, on hypothesis-generated
shoes, suited and not, and in the integer counts themselves; against the one
published per-rank table found; and through the command line.

Published figures: Wizard of Odds, "Card Counting the Lucky 6 Bet in
Baccarat", https://wizardofodds.com/games/baccarat/counting-lucky-6/ (8 decks,
Lucky 6 paying 12 to 1 on a two-card and 23 to 1 on a three-card winning
Banker 6; .research/published.md section 3c).  Its rank "0" row is the
effect of removing ONE ten-valued card: the rows weighted 16:4:4:...:4 (cards
per deck) sum to zero only that way, and exactodds gives T, J, Q and K each
exactly that effect.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
from fractions import Fraction
from typing import Any

import pytest
from budget import budgeted
from cli_runner import run, run_ok
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds import Rules, Shoe, analyze, enumerate_rounds
from exactodds.analysis.removal import (
    DEFAULT_MAX_TAG,
    RANK_SYMBOLS,
    EffectOfRemoval,
    effect_of_removal,
)
from exactodds.bets.bet import Bet
from exactodds.bets.catalogue import select_bets
from exactodds.errors import ExactOddsError, RemovalError
from exactodds.numbers import percent_string

TENS = ("T", "J", "Q", "K")

# Wizard of Odds, "Card Counting the Lucky 6 Bet in Baccarat" (see the module docstring):
# rank -> (effect of removal to 6 places, "Rounded Effect" tag).  Rank "0" is one ten-valued card.
WIZARD_LUCKY6 = {
    "0": (Fraction("-0.000611"), -2),
    "A": (Fraction("-0.000329"), -1),
    "2": (Fraction("-0.000323"), -1),
    "3": (Fraction("-0.001131"), -4),
    "4": (Fraction("-0.000393"), -1),
    "5": (Fraction("-0.000278"), -1),
    "6": (Fraction("-0.005386"), -18),
    "7": (Fraction("0.003907"), 13),
    "8": (Fraction("0.003537"), 12),
    "9": (Fraction("0.002838"), 9),
}

SMALL = "A=2,2=2,3=2,4=2,5=2,6=2,7=2,8=2,9=2,T=8"


@pytest.fixture(scope="module")
def eight_decks() -> EffectOfRemoval:
    """Main bets and the Lucky 6 (23/12) on a fresh 8-deck shoe: 14 analyses, about 1.3 s."""
    bets = select_bets("main,lucky6", pays={"lucky6.three_card_win": 23})
    return effect_of_removal(Shoe.standard(decks=8), Rules(), bets)


def ev(shoe: Shoe, bet: Bet, rules: Rules | None = None) -> Fraction:
    """One bet's EV on one shoe, priced directly."""
    return analyze(shoe, rules or Rules(), [bet]).bets[bet.name].expected_value


def suited_twin(shoe: Shoe) -> Shoe:
    """The same ranks with every card a spade: priced by the suited walk, not the rank-only
    one that ``effect_of_removal`` uses (and not from its cache), with the same figures for
    any bet that does not need suits."""
    return Shoe.from_mapping({f"{symbol}S": shoe.rank_count(symbol) for symbol in RANK_SYMBOLS})


def exact(text: str) -> Fraction:
    """Read ``"n/d"`` (lowest terms) or ``"n"``."""
    match = re.fullmatch(r"(-?\d+)(?:/(\d+))?", text)
    assert match is not None, text
    if match.group(2) is None:
        return Fraction(int(match.group(1)))
    numerator, denominator = int(match.group(1)), int(match.group(2))
    assert denominator > 1 and math.gcd(numerator, denominator) == 1, text
    return Fraction(numerator, denominator)


# Published figures ---------------------------------------------------------------


def test_lucky6_effects_match_the_wizard_of_odds(eight_decks: EffectOfRemoval) -> None:
    effects = eight_decks.effects["lucky6"]
    for rank, (published, _) in WIZARD_LUCKY6.items():
        for symbol in TENS if rank == "0" else (rank,):
            effect = effects[symbol]
            assert effect is not None
            assert round(effect, 6) == published, (symbol, float(effect))
    assert len({effects[symbol] for symbol in TENS}) == 1


def test_lucky6_level_18_count_is_the_wizard_of_odds_count(eight_decks: EffectOfRemoval) -> None:
    count = eight_decks.linear_count("lucky6", max_tag=18)
    published = {
        symbol: tag
        for rank, (_, tag) in WIZARD_LUCKY6.items()
        for symbol in (TENS if rank == "0" else (rank,))
    }
    assert dict(count.tags) == published
    assert count.balanced
    wizard = eight_decks.betting_correlation(
        "lucky6", {r: t for r, (_, t) in WIZARD_LUCKY6.items()}
    )
    assert count.correlation is not None and wizard == count.correlation
    assert float(wizard) > 0.9997


# Exact values, computed independently --------------------------------------------


def test_effects_equal_direct_pricing_of_each_depleted_shoe(eight_decks: EffectOfRemoval) -> None:
    full = Shoe.standard(decks=8)
    tie = select_bets("tie")[0]
    before = ev(full, tie)
    assert eight_decks.expected_values["tie"] == before
    for symbol in ("A", "6", "9", "K"):
        # Less the spade of that rank: the suited walk, and by symmetry the same EV.
        assert eight_decks.effects["tie"][symbol] == ev(full.remove(symbol + "S"), tie) - before


def test_weighted_sum_is_exactly_zero_on_eight_decks(eight_decks: EffectOfRemoval) -> None:
    for name in ("banker", "player", "tie", "lucky6"):
        assert eight_decks.weighted_sum(name) == 0
        assert eight_decks.expected_value_after(name, "5") == (
            eight_decks.expected_values[name] + eight_decks.effect(name, "5")
        )


def test_k_cards_on_a_partial_shoe_equal_direct_pricing() -> None:
    shoe = Shoe.parse("A=3,2=1,3=2,4=2,5=4,6=3,7=3,8=2,9=2,T=4,J=3,Q=2,K=4")
    bets = select_bets("banker,tie,player_pair,dragon_bonus_player")
    result = effect_of_removal(shoe, Rules(tie_pays=9, ties_push=False), bets, cards=2)
    rules = Rules(tie_pays=9, ties_push=False)
    for bet in bets:
        before = ev(suited_twin(shoe), bet, rules)
        for symbol in RANK_SYMBOLS:
            expected = (
                None
                if shoe.rank_count(symbol) < 2
                else ev(suited_twin(shoe.remove(symbol * 2)), bet, rules) - before
            )
            assert result.effects[bet.name][symbol] == expected
    assert result.skipped == {"2": "Cannot remove 2 2: the shoe holds only 1."}
    # For two cards of one rank the weighted sum is not zero in general.
    assert any(result.weighted_sum(bet.name) != 0 for bet in bets)


def test_suited_bet_sees_the_average_over_the_suit_that_left() -> None:
    shoe = Shoe.from_mapping(
        {"AS": 2, "AH": 1, "KS": 1, "KH": 2, "KD": 1, "5C": 2, "5S": 1, "9H": 2, "TD": 2}
    )
    perfect_pair = select_bets("perfect_pair")[0]
    result = effect_of_removal(shoe, Rules(), [perfect_pair])
    before = ev(shoe, perfect_pair)
    for symbol, suits in {"A": "SH", "K": "SHD", "5": "CS"}.items():
        total = shoe.rank_count(symbol)
        after = sum(
            (
                Fraction(shoe.card_count(symbol + suit) or 0, total)
                * ev(shoe.remove(symbol + suit), perfect_pair)
                for suit in suits
            ),
            Fraction(0),
        )
        assert result.effects["perfect_pair"][symbol] == after - before
    assert result.weighted_sum("perfect_pair") == 0


def test_suited_bet_on_a_shoe_known_by_rank_is_unavailable() -> None:
    bets = select_bets("tie,perfect_pair")
    result = effect_of_removal(Shoe.parse(SMALL), Rules(), bets)
    assert list(result.effects) == ["tie"]
    assert "needs suits" in result.unavailable["perfect_pair"]
    with pytest.raises(RemovalError, match="needs suits"):
        result.effect("perfect_pair", "A")


# The identity sum_r n_r * EoR_r = 0, on random shoes ------------------------------

# Shoes as lists of card indices (ranks 0-12, or rank * 4 + suit), counted up.
small_shoes = st.lists(st.integers(0, 12), min_size=8, max_size=16).map(
    lambda cards: Shoe(tuple(cards.count(index) for index in range(13)))
)
small_suited_shoes = st.lists(st.integers(0, 51), min_size=8, max_size=12).map(
    lambda cards: Shoe(
        tuple(sum(cards.count(index * 4 + suit) for suit in range(4)) for index in range(13)),
        tuple(cards.count(index) for index in range(52)),
    )
)
IDENTITY_BETS = (
    select_bets("main,player_pair,either_pair,dragon_bonus_banker,lucky6,egalite_0,big")
    + select_bets("banker,tie", Rules(variant="super6", tie_pays=9))[:1]
)


@settings(max_examples=25, deadline=None)
@given(small_shoes)
def test_weighted_sum_of_one_card_effects_is_exactly_zero(shoe: Shoe) -> None:
    result = effect_of_removal(shoe, Rules(), IDENTITY_BETS[:-1])
    for name in result.effects:
        assert result.weighted_sum(name) == 0
    super6 = effect_of_removal(shoe, Rules(variant="super6"), IDENTITY_BETS[-1:])
    assert super6.weighted_sum("banker") == 0
    # Only ranks the shoe lacks are skipped, and they weigh nothing.
    assert set(result.skipped) == {
        symbol for symbol in RANK_SYMBOLS if shoe.rank_count(symbol) == 0
    }


@settings(max_examples=15, deadline=None)
@given(small_suited_shoes)
def test_weighted_sum_is_zero_for_suited_bets_too(shoe: Shoe) -> None:
    result = effect_of_removal(shoe, Rules(), select_bets("perfect_pair,tie"))
    assert result.weighted_sum("perfect_pair") == 0
    assert result.weighted_sum("tie") == 0


@budgeted(15, deadline=None)
@given(small_shoes)
def test_the_identity_holds_in_the_integer_counts(shoe: Shoe) -> None:
    # sum_r n_r * C(S - r) = (N - 6) * C(S) for every round summary: each six-card sequence
    # of S avoids exactly N - 6 of its N cards.
    counts = shoe.rank_counts
    table = enumerate_rounds(shoe)
    combined: dict[Any, int] = {}
    for index, count in enumerate(counts):
        if count:
            reduced = list(counts)
            reduced[index] -= 1
            for summary, number in enumerate_rounds(Shoe(tuple(reduced))).counts.items():
                combined[summary] = combined.get(summary, 0) + count * number
    expected = {summary: (shoe.cards - 6) * number for summary, number in table.counts.items()}
    assert {key: value for key, value in combined.items() if value} == expected


# The derived linear count ---------------------------------------------------------


@pytest.mark.parametrize("max_tag", [1, 2, 3, 5])
def test_linear_count_is_balanced_signed_bounded_and_shared(
    eight_decks: EffectOfRemoval, max_tag: int
) -> None:
    for name in ("banker", "player", "tie", "lucky6"):
        effects = eight_decks.effects[name]
        count = eight_decks.linear_count(name, max_tag)
        assert count.balanced and count.imbalance == 0
        assert sum(32 * tag for tag in count.tags.values()) == 0
        largest = max(abs(effect) for effect in effects.values() if effect is not None)
        assert count.scale == max_tag / largest
        for symbol, tag in count.tags.items():
            effect = effects[symbol]
            assert effect is not None
            assert abs(tag) <= max_tag
            assert tag * effect >= 0  # never the wrong sign
            assert abs(tag - effect * count.scale) <= 1 + Fraction(1, 2)
        assert len({count.tags[symbol] for symbol in TENS}) == 1
        # Exact parts agree with a float computation of the weighted Pearson correlation.
        tags = [count.tags[symbol] for symbol in RANK_SYMBOLS]
        values = [float(effects[symbol] or 0) for symbol in RANK_SYMBOLS]
        mean_tag, mean_value = sum(tags) / 13, sum(values) / 13
        covariance = sum(
            (t - mean_tag) * (v - mean_value) for t, v in zip(tags, values, strict=True)
        )
        spread = math.sqrt(
            sum((t - mean_tag) ** 2 for t in tags) * sum((v - mean_value) ** 2 for v in values)
        )
        assert math.isclose(float(count.correlation_decimal(12)), covariance / spread, rel_tol=1e-9)


def test_default_count_level_and_a_fine_count_correlates_almost_perfectly(
    eight_decks: EffectOfRemoval,
) -> None:
    assert eight_decks.linear_count("tie").max_tag == DEFAULT_MAX_TAG == 2
    assert eight_decks.linear_count("banker", 2).tags == {
        "A": 1, "2": 1, "3": 1, "4": 2, "5": -1, "6": -2, "7": -1, "8": -1, "9": 0,
        "T": 0, "J": 0, "Q": 0, "K": 0,
    }  # fmt: skip
    assert float(eight_decks.linear_count("banker", 1000).correlation_decimal(9)) > 0.999999


def test_tags_given_together_for_ten_valued_ranks(eight_decks: EffectOfRemoval) -> None:
    together = eight_decks.betting_correlation("tie", {"0": 1, "6": -2, "7": -2, "8": 1})
    apart = eight_decks.betting_correlation(
        "tie", {"T": 1, "J": 1, "Q": 1, "K": 1, "6": -2, "7": -2, "8": 1}
    )
    assert together == apart
    assert together.decimal(4) == "0.9481"
    with pytest.raises(ExactOddsError, match="Unknown rank 'Z'"):
        eight_decks.betting_correlation("tie", {"Z": 1})


def test_count_on_an_uneven_shoe_never_counts_nothing() -> None:
    shoe = Shoe.standard(decks=1).remove("KS 7H 7D")
    result = effect_of_removal(shoe, Rules(), select_bets("player_pair"))
    count = result.linear_count("player_pair")
    assert any(count.tags.values())
    assert count.tags["7"] > 0  # the rank whose removal helps most
    assert count.imbalance == sum(shoe.rank_count(r) * t for r, t in count.tags.items())


def test_all_zero_effects_have_no_correlation() -> None:
    # On a full shoe every rank's removal moves a pair bet alike, and the weighted sum is zero.
    result = effect_of_removal(Shoe.standard(decks=1), Rules(), select_bets("player_pair"))
    assert set(result.effects["player_pair"].values()) == {Fraction(0)}
    count = result.linear_count("player_pair")
    assert count.correlation is None and set(count.tags.values()) == {0}
    with pytest.raises(RemovalError, match="effects of removal are all zero"):
        count.correlation_decimal(4)


# Bad requests ----------------------------------------------------------------------


@pytest.mark.parametrize("cards", [0, -1, True, 1.5, "2"])
def test_bad_number_of_cards(cards: Any) -> None:
    with pytest.raises(RemovalError, match=r"Number of cards to remove .* is not valid"):
        effect_of_removal(Shoe.parse(SMALL), cards=cards)


def test_too_many_cards_and_too_small_shoes() -> None:
    with pytest.raises(
        RemovalError, match="holds at most 8 of a rank; use a number of cards from 1 to 8"
    ):
        effect_of_removal(Shoe.parse(SMALL), cards=9)
    with pytest.raises(RemovalError, match="would leave 5 cards"):
        effect_of_removal(Shoe.parse("A=3,K=3"))
    partial = effect_of_removal(Shoe.parse("A=1,5=3,9=2,T=4"), cards=3)
    assert partial.skipped["A"] == "Cannot remove 3 A: the shoe holds only 1."
    assert partial.skipped["2"] == "Cannot remove 3 2: the shoe holds none."
    assert [symbol for symbol in RANK_SYMBOLS if symbol not in partial.skipped] == ["5", "T"]
    with pytest.raises(
        RemovalError, match="Rank 9 has no effect of removal here: Cannot remove 3 9"
    ):
        partial.effect("banker", "9")
    with pytest.raises(RemovalError, match="was not analysed"):
        partial.effect("dragon7", "A")


def test_a_seven_card_shoe_can_lose_one_card_but_not_two() -> None:
    result = effect_of_removal(Shoe.parse("A=2,K=5"), cards=1)
    assert result.skipped == {
        s: f"Cannot remove 1 {s}: the shoe holds none." for s in "23456789TJQ"
    }
    assert result.weighted_sum("tie") == 0
    with pytest.raises(RemovalError, match="7-card shoe would leave 5 cards"):
        effect_of_removal(Shoe.parse("A=2,K=5"), cards=2)


# Command line ----------------------------------------------------------------------


def test_cli_json_contract(eight_decks: EffectOfRemoval) -> None:
    data = json.loads(run_ok("eor", "--format", "json").stdout)
    assert {"shoe", "eor"} <= set(data)
    assert data["shoe"]["cards"] == 416 and data["cards_removed"] == 1
    assert list(data["eor"]) == ["banker", "player", "tie"]
    for name, effects in data["eor"].items():
        assert list(effects) == list(RANK_SYMBOLS)
        for symbol, text in effects.items():
            assert exact(text) == eight_decks.effects[name][symbol]
        details = data["bets"][name]
        assert exact(details["ev"]) == eight_decks.expected_values[name]
        assert details["weighted_sum"] == "0"
        assert details["count"]["balanced"] is True
        assert set(details["count"]["tags"]) == set(RANK_SYMBOLS)
    assert data["skipped"] == {} and data["unavailable"] == {}


def test_cli_json_skipped_ranks_are_null() -> None:
    data = json.loads(
        run_ok("eor", "--shoe", "A=1,5=3,9=2,T=4", "--cards", "2", "--format", "json").stdout
    )
    assert data["eor"]["banker"]["A"] is None and data["eor"]["banker"]["2"] is None
    assert data["skipped"]["A"] == "Cannot remove 2 A: the shoe holds only 1."
    shoe = Shoe.parse("A=1,5=3,9=2,T=4")
    banker = select_bets("banker")[0]
    assert exact(data["eor"]["banker"]["5"]) == ev(shoe.remove("55"), banker) - ev(shoe, banker)


def test_cli_csv_and_table() -> None:
    csv_text = run_ok(
        "eor", "--shoe", SMALL, "--bets", "tie", "--format", "csv", "--digits", "4"
    ).stdout
    rows = list(csv.DictReader(io.StringIO(csv_text)))
    assert [row["rank"] for row in rows] == list(RANK_SYMBOLS)
    seven = rows[6]
    assert seven["bet"] == "tie" and seven["cards"] == "2"
    assert (
        exact(seven["effect"]) == Fraction(-501169, 23023000)
        and seven["effect_decimal"] == "-0.0218"
    )
    assert (
        rows[10]["reason"] == "Cannot remove 1 J: the shoe holds none." and rows[10]["effect"] == ""
    )
    table = run_ok("eor", "--shoe", SMALL, "--bets", "tie", "--exact", "--digits", "4").stdout
    assert (
        "Effect of removal: the change in each bet's EV when 1 card of a rank leaves the shoe"
        in table
    )
    tie = select_bets("tie")[0]
    expected = ev(Shoe.parse(SMALL), tie)
    heading = (
        f"tie: EV {float(expected):.4f}, RTP {percent_string(1 + expected, 2)}; "
        "level-2 count (balanced)"
    )
    assert heading in table
    seven_line = next(line for line in table.splitlines() if line.startswith("7 "))
    assert "-0.0218" in seven_line and "#|" in seven_line and "-501169/23023000" in seven_line
    assert "Rank J skipped: Cannot remove 1 J: the shoe holds none." in table


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--cards", "0"], "Error: Number of cards to remove 0 for --cards is not valid"),
        (["--cards", "-1"], "Error: Number of cards to remove -1 for --cards is not valid"),
        (
            ["--cards", "9"],
            "Error: Cannot remove 9 cards of any one rank: the shoe holds at most 8",
        ),
        (["--cards", "two"], "Error: Invalid value for '--cards': 'two' is not a valid integer."),
        (["--bets", "dragon8"], "Error: Unknown bet 'dragon8' in the bet selection"),
        (["--max-tag", "0"], "Error: Largest tag 0 for --max-tag is not valid"),
        (["--pay", "dragon7"], "Error: Pay 'dragon7' has no value"),
    ],
)
def test_cli_bad_input_is_one_line_and_exit_2(arguments: list[str], message: str) -> None:
    result = run("eor", "--shoe", SMALL, *arguments)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith(message)
    assert result.stderr.count("\n") == 1


def test_cli_shoe_too_small() -> None:
    result = run("eor", "--shoe", "A=3,K=3")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (
        "Error: Removing 1 card from this 6-card shoe would leave 5 cards; a round is counted "
        "as a sequence of 6 cards, so at least 6 must remain.\n"
    )
