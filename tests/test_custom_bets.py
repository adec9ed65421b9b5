"""User-defined bets: TOML descriptions priced exactly, and every way to get one wrong.

The main check is differential: a catalogue side bet rebuilt by hand from
conditions must settle every round exactly as the catalogue's own code does,
on full shoes, partial shoes and random shoes, so the two agree count for
count.  Then the condition language piece by piece (ranges, lists,
``otherwise``), the example file through the command line, suited bets on
shoes without suits, and the errors: each one sentence in the library, and
one ``Error: ...`` line with exit code 2 on the command line.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest
from budget import budgeted
from cli_runner import run
from click.testing import Result
from hypothesis import given
from hypothesis import strategies as st

from exactodds import (
    Bet,
    ExactOddsError,
    OutcomeTable,
    RoundSummary,
    Rules,
    Shoe,
    Winner,
    analyze,
    enumerate_rounds,
    main_bets,
    price_bet,
)
from exactodds.bets.catalogue import available_bets
from exactodds.bets.custom import CustomBetError, load_custom_bets, parse_custom_bets
from exactodds.bets.side import side_bets
from exactodds.cards import RANKS, SUITS
from exactodds.errors import BetError

SIX_BONUS = Path(__file__).parent.parent / "examples" / "bets" / "six_bonus.toml"
TOTAL_8_DECKS = 4_998_398_275_503_360
CARD_SYMBOLS = [rank.symbol + suit.symbol for rank in RANKS for suit in SUITS]

# Catalogue bets rebuilt from conditions; outcome names match the catalogue's.
REBUILT: dict[str, str] = {
    "dragon7": """
[[bet]]
name = "my_dragon7"
[[bet.outcome]]
name = "win"
when = { winner = "banker", banker_total = 7, banker_cards = 3 }
pays = 40
""",
    "panda8": """
[[bet]]
name = "my_panda8"
[[bet.outcome]]
name = "win"
when = { winner = "player", player_total = 8, player_cards = 3 }
pays = 25
""",
    "lucky6": """
[[bet]]
name = "my_lucky6"
[[bet.outcome]]
name = "three_card_win"
when = { winner = "banker", banker_total = 6, banker_cards = 3 }
pays = 20
[[bet.outcome]]
name = "two_card_win"
when = { winner = "banker", banker_total = 6 }
pays = 12
""",
    "egalite_6": """
[[bet]]
name = "my_egalite_6"
[[bet.outcome]]
name = "win"
when = { winner = "tie", player_total = 6 }
pays = 45
""",
    "either_pair": """
[[bet]]
name = "my_either_pair"
[[bet.outcome]]
name = "win"
when = { either_pair = true }
pays = 5
""",
    "perfect_pair": """
[[bet]]
name = "my_perfect_pair"
[[bet.outcome]]
name = "both"
when = { player_suited_pair = true, banker_suited_pair = true }
pays = 25
[[bet.outcome]]
name = "one"
when = { either_suited_pair = true }
pays = 25
""",
    "dragon_bonus_player": """
[[bet]]
name = "my_dragon_bonus_player"
[[bet.outcome]]
name = "natural_tie"
when = { winner = "tie", player_natural = true, banker_natural = true }
pays = 0
[[bet.outcome]]
name = "natural_win"
when = { winner = "player", player_natural = true }
pays = 1
"""
    + "".join(
        f"""[[bet.outcome]]
name = "win_by_{margin}"
when = {{ winner = "player", margin = {margin} }}
pays = {pay}
"""
        for margin, pay in {9: 30, 8: 10, 7: 6, 6: 4, 5: 2, 4: 1}.items()
    ),
    "big": """
[[bet]]
name = "my_big"
[[bet.outcome]]
name = "win"
when = { cards_dealt = { min = 5 } }
pays = 0.54
""",
    "small": """
[[bet]]
name = "my_small"
[[bet.outcome]]
name = "win"
when = { cards_dealt = [4] }
pays = "3/2"
""",
    "big_tiger": """
[[bet]]
name = "my_big_tiger"
[[bet.outcome]]
name = "win"
when = { winner = "banker", banker_total = { min = 6, max = 6 }, banker_cards = { min = 3 } }
pays = 50
""",
}

# Perfect pair with each hand's suited pair as its own outcome: "one" is their sum.
PERFECT_PAIR_BY_HAND = """
[[bet]]
name = "perfect_pair_by_hand"
[[bet.outcome]]
name = "both"
when = { player_suited_pair = true, banker_suited_pair = true }
pays = 25
[[bet.outcome]]
name = "player_one"
when = { player_suited_pair = true }
pays = 25
[[bet.outcome]]
name = "banker_one"
when = { banker_suited_pair = true }
pays = 25
"""


@cache
def rebuilt(name: str) -> Bet:
    """The hand-built copy of catalogue bet *name* (parsed once)."""
    (bet,) = parse_custom_bets(REBUILT[name])
    return bet


@cache
def by_hand() -> Bet:
    (bet,) = parse_custom_bets(PERFECT_PAIR_BY_HAND)
    return bet


def assert_usage_error(result: Result, *fragments: str) -> None:
    """Exit 2, nothing on stdout, one ``Error:`` line on stderr quoting *fragments*."""
    assert result.exit_code == 2, (result.exception, result.stdout, result.stderr)
    assert isinstance(result.exception, SystemExit), result.exception
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: "), lines[0]
    assert "Traceback" not in result.stderr
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])


def assert_same_bet(table: OutcomeTable, name: str) -> None:
    """The rebuilt bet settles every round of *table* as the catalogue bet does."""
    catalogue = side_bets()[name]
    custom = rebuilt(name)
    expected = price_bet(table, catalogue)
    actual = price_bet(table, custom)
    assert actual.outcome_counts == expected.outcome_counts, name
    assert custom.pay_table == catalogue.pay_table, name
    assert actual.expected_value == expected.expected_value
    assert actual.distribution == expected.distribution
    assert custom.needs_suits == catalogue.needs_suits


def assert_perfect_pair_by_hand(table: OutcomeTable) -> None:
    expected = price_bet(table, side_bets()["perfect_pair"]).outcome_counts
    actual = price_bet(table, by_hand()).outcome_counts
    assert actual.get("both", 0) == expected.get("both", 0)
    assert actual.get("player_one", 0) + actual.get("banker_one", 0) == expected.get("one", 0)
    assert actual.get("lose", 0) == expected.get("lose", 0)


FIXED_SHOES = {
    "8 decks": Shoe.standard(8),
    "6 decks": Shoe.standard(6),
    "1 deck": Shoe.standard(1),
    "8 decks less KS 7H 6D 6C 9S": Shoe.standard(8).remove("KS 7H 6D 6C 9S"),
    "1 deck less every 6 and 7": Shoe.standard(1).remove("6S 6H 6D 6C 7S 7H 7D 7C"),
}


@pytest.mark.parametrize("shoe_name", sorted(FIXED_SHOES))
@pytest.mark.parametrize("name", sorted(REBUILT))
def test_rebuilt_bet_equals_catalogue(name: str, shoe_name: str) -> None:
    assert_same_bet(enumerate_rounds(FIXED_SHOES[shoe_name]), name)


@pytest.mark.parametrize("shoe_name", sorted(FIXED_SHOES))
def test_perfect_pair_by_hand(shoe_name: str) -> None:
    assert_perfect_pair_by_hand(enumerate_rounds(FIXED_SHOES[shoe_name]))


def test_rebuilt_bets_on_a_rank_only_shoe() -> None:
    table = enumerate_rounds(Shoe.standard(8).remove("6 6 7 K"))
    for name in REBUILT:
        if not side_bets()[name].needs_suits:
            assert_same_bet(table, name)


def test_rebuilt_bets_match_published_counts() -> None:
    # Dragon 7 "Win 40 112,633,011,329,024" — EZ Baccarat (WoO text) —
    # http://user-casino.com/games/ez-baccarat/ ; Lucky 6 two-card 186,173,936,904,192 and
    # three-card 83,058,367,551,488 — Lucky 6 — https://wizardofodds.com/games/baccarat/side-bets/lucky-6/
    table = enumerate_rounds(Shoe.standard(8))
    assert price_bet(table, rebuilt("dragon7")).outcome_counts["win"] == 112_633_011_329_024
    lucky6 = price_bet(table, rebuilt("lucky6")).outcome_counts
    assert lucky6["two_card_win"] == 186_173_936_904_192
    assert lucky6["three_card_win"] == 83_058_367_551_488


#: Small suited shoes: up to two copies of each card, at least one round's worth.
suited_shoes = (
    st.lists(st.integers(0, 2), min_size=52, max_size=52)
    .filter(lambda counts: sum(counts) >= 6)
    .map(lambda counts: Shoe.from_mapping(dict(zip(CARD_SYMBOLS, counts, strict=True))))
)
#: Partial multi-deck shoes: a few suited cards dealt from a full shoe.
partial_shoes = st.builds(
    lambda decks, removed: Shoe.standard(decks).remove(removed),
    st.integers(1, 8),
    st.lists(st.sampled_from(CARD_SYMBOLS), max_size=12, unique=True),
)


@budgeted(12, deadline=None)
@given(st.one_of(suited_shoes, partial_shoes))
def test_rebuilt_bets_on_random_shoes(shoe: Shoe) -> None:
    table = enumerate_rounds(shoe)
    for name in REBUILT:
        assert_same_bet(table, name)
    assert_perfect_pair_by_hand(table)


@budgeted(10, deadline=None)
@given(
    st.lists(st.integers(0, 8), min_size=13, max_size=13)
    .filter(lambda counts: sum(counts) >= 6)
    .map(Shoe.from_ranks)
)
def test_rebuilt_bets_on_random_rank_only_shoes(shoe: Shoe) -> None:
    table = enumerate_rounds(shoe)
    for name in REBUILT:
        if not side_bets()[name].needs_suits:
            assert_same_bet(table, name)


# The condition language -----------------------------------------------------------------------


def losing_total(summary: RoundSummary) -> int | None:
    if summary.winner is Winner.TIE:
        return None
    return min(summary.player_total, summary.banker_total)


CONDITIONS: list[tuple[str, Callable[[RoundSummary], bool]]] = [
    ('winner = ["player", "banker"]', lambda s: s.winner is not Winner.TIE),
    ('winner = "tie"', lambda s: s.winner is Winner.TIE),
    ("player_total = { min = 8 }", lambda s: s.player_total >= 8),
    ("banker_total = { max = 2 }", lambda s: s.banker_total <= 2),
    ("banker_total = { min = 3, max = 5 }", lambda s: 3 <= s.banker_total <= 5),
    ("player_total = [0, 5, 9]", lambda s: s.player_total in (0, 5, 9)),
    ("winning_total = [8, 9]", lambda s: s.winning_total in (8, 9)),
    ("winning_total = { min = 0 }", lambda s: s.winner is not Winner.TIE),
    ("losing_total = 0", lambda s: losing_total(s) == 0),
    ("margin = { min = 4, max = 6 }", lambda s: 4 <= s.margin <= 6),
    ("margin = 0", lambda s: s.winner is Winner.TIE),
    ("player_cards = 3", lambda s: s.player_cards == 3),
    ("banker_cards = [2]", lambda s: s.banker_cards == 2),
    ("cards_dealt = [4, 6]", lambda s: s.cards_dealt in (4, 6)),
    ("cards_dealt = { min = 5 }", lambda s: s.cards_dealt >= 5),
    ("player_natural = false", lambda s: not s.player_natural),
    ("banker_natural = true", lambda s: s.banker_natural),
    ("natural = true", lambda s: s.player_natural or s.banker_natural),
    ("player_pair = true", lambda s: s.player_pair),
    ("banker_pair = false", lambda s: not s.banker_pair),
    ("either_pair = true", lambda s: s.player_pair or s.banker_pair),
    ("player_suited_pair = true", lambda s: bool(s.player_suited_pair)),
    ("banker_suited_pair = false", lambda s: s.banker_suited_pair is False),
    (
        "either_suited_pair = false",
        lambda s: s.player_suited_pair is False and s.banker_suited_pair is False,
    ),
    (
        'winner = "banker", banker_total = 6, banker_cards = 3, player_pair = false',
        lambda s: (
            s.winner is Winner.BANKER
            and s.banker_total == 6
            and s.banker_cards == 3
            and not s.player_pair
        ),
    ),
]


@pytest.mark.parametrize(("when", "predicate"), CONDITIONS, ids=[c[0] for c in CONDITIONS])
def test_condition(when: str, predicate: Callable[[RoundSummary], bool]) -> None:
    (bet,) = parse_custom_bets(
        f'[[bet]]\nname = "probe"\n[[bet.outcome]]\nname = "hit"\nwhen = {{ {when} }}\npays = 3\n'
    )
    assert bet.needs_suits == ("suited" in when)
    table = enumerate_rounds(Shoe.standard(8))
    counts = price_bet(table, bet).outcome_counts
    assert counts.get("hit", 0) == table.count(predicate)
    assert counts.get("hit", 0) + counts.get("lose", 0) == TOTAL_8_DECKS


def test_outcome_names_default_and_description() -> None:
    (bet,) = parse_custom_bets(
        '[[bet]]\nname = "plain"\n[[bet.outcome]]\nwhen = { winner = "player" }\npays = 1\n'
        '[[bet.outcome]]\nwhen = { winner = "tie" }\npays = 0\n'
    )
    assert bet.pay_table == {"outcome_1": 1, "outcome_2": 0, "lose": -1}
    assert bet.description == "User-defined bet plain."
    # Without a 5% commission, the Player bet rebuilt by hand.
    player = main_bets(Rules())[1]
    table = enumerate_rounds(Shoe.standard(8))
    assert price_bet(table, bet).distribution == price_bet(table, player).distribution


def test_otherwise() -> None:
    (bet,) = parse_custom_bets(
        '[[bet]]\nname = "no_commission"\notherwise = 0\n'
        '[[bet.outcome]]\nname = "win"\nwhen = { winner = "banker" }\npays = 1\n'
        '[[bet.outcome]]\nname = "player_wins"\nwhen = { winner = "player" }\npays = -1\n'
    )
    assert bet.pay_table == {"win": 1, "player_wins": -1, "lose": 0}
    banker = main_bets(Rules(commission=0))[0]
    table = enumerate_rounds(Shoe.standard(8))
    assert price_bet(table, bet).distribution == price_bet(table, banker).distribution
    assert price_bet(table, bet).expected_value == price_bet(table, banker).expected_value


@pytest.mark.parametrize(
    ("otherwise", "expected"),
    [
        ("-1", Fraction(-1)),
        ("0.5", Fraction(1, 2)),
        ('"-1/2"', Fraction(-1, 2)),
        ("2", Fraction(2)),
    ],
)
def test_otherwise_values(otherwise: str, expected: Fraction) -> None:
    (bet,) = parse_custom_bets(
        f'[[bet]]\nname = "x"\notherwise = {otherwise}\n'
        '[[bet.outcome]]\nwhen = { winner = "tie" }\npays = 8\n'
    )
    assert bet.pay("lose") == expected


@pytest.mark.parametrize(
    ("pays", "expected"),
    [
        ("12", Fraction(12)),
        ("0.54", Fraction(27, 50)),
        ('"27/50"', Fraction(27, 50)),
        ('"3:2"', Fraction(3, 2)),
        ("0", Fraction(0)),
        ("-1", Fraction(-1)),
        ("-0.5", Fraction(-1, 2)),
        ("1e2", Fraction(100)),
    ],
)
def test_pays_are_exact(pays: str, expected: Fraction) -> None:
    (bet,) = parse_custom_bets(
        f'[[bet]]\nname = "x"\n[[bet.outcome]]\nwhen = {{ winner = "tie" }}\npays = {pays}\n'
    )
    assert bet.pay("outcome_1") == expected


def test_several_bets_in_one_file() -> None:
    bets = parse_custom_bets(REBUILT["dragon7"] + REBUILT["panda8"])
    assert [bet.name for bet in bets] == ["my_dragon7", "my_panda8"]


# Suits ------------------------------------------------------------------------------------------


def test_suited_conditions_need_suits() -> None:
    assert rebuilt("perfect_pair").needs_suits
    assert by_hand().needs_suits
    assert not rebuilt("lucky6").needs_suits
    bets = [rebuilt("perfect_pair"), rebuilt("lucky6")]
    rank_only = analyze(Shoe.standard(8).remove("K"), Rules(), bets)
    assert list(rank_only.unavailable) == ["my_perfect_pair"]
    assert "suits" in rank_only.unavailable["my_perfect_pair"]
    assert list(rank_only.bets) == ["my_lucky6"]
    suited = analyze(Shoe.standard(8).remove("KS"), Rules(), bets)
    assert not suited.unavailable
    assert sum(suited.bets["my_perfect_pair"].distribution.values()) == 1


# The example file through the command line ------------------------------------------------------


def test_six_bonus_example_loads() -> None:
    bets = load_custom_bets(SIX_BONUS)
    assert [bet.name for bet in bets] == ["six_bonus", "suited_pair_player_wins"]
    six_bonus, suited = bets
    assert six_bonus.pay_table == {
        "three_card_six": 20,
        "two_card_six": 12,
        "tie_on_six": 0,
        "lose": -1,
    }
    assert not six_bonus.needs_suits
    assert suited.needs_suits


def test_six_bonus_through_the_cli() -> None:
    result = run("odds", "--bet-file", str(SIX_BONUS), "--format", "json", "--digits", "6")
    assert result.exit_code == 0, (result.exception, result.stderr)
    assert result.stderr == ""
    data = json.loads(result.stdout)
    bets = data["bets"]
    assert list(bets) == ["banker", "player", "tie", "six_bonus", "suited_pair_player_wins"]
    six_bonus = bets["six_bonus"]
    # Three-card and two-card Banker wins on 6: the Lucky 6 counts (WoO, Lucky 6 —
    # https://wizardofodds.com/games/baccarat/side-bets/lucky-6/); a tie on 6: the Egalité 6
    # count (Egalite Bets in Baccarat — https://www.daikenfudousan.com/games/baccarat/side-bets/egalite/).
    three, two, tie = 83_058_367_551_488, 186_173_936_904_192, 96_170_001_308_416
    lose = TOTAL_8_DECKS - three - two - tie
    assert six_bonus["outcome_counts"] == {
        "three_card_six": three,
        "two_card_six": two,
        "tie_on_six": tie,
        "lose": lose,
    }
    ev = Fraction(20 * three + 12 * two - lose, TOTAL_8_DECKS)
    assert Fraction(six_bonus["ev"]) == ev
    assert Fraction(six_bonus["push_probability"]) == Fraction(tie, TOTAL_8_DECKS)
    assert sum(Fraction(item["probability"]) for item in six_bonus["distribution"]) == 1
    assert six_bonus["pays"] == {
        "lose": "-1",
        "three_card_six": "20",
        "tie_on_six": "0",
        "two_card_six": "12",
    }
    suited = bets["suited_pair_player_wins"]
    assert suited["computable"] is True
    assert 0 < Fraction(suited["win_probability"]) < 1


def test_six_bonus_cli_on_a_rank_only_shoe() -> None:
    result = run(
        "odds",
        "--bet-file",
        str(SIX_BONUS),
        "--bets",
        "custom",
        "--remove",
        "K",
        "--format",
        "json",
    )
    assert result.exit_code == 0, result.stderr
    bets = json.loads(result.stdout)["bets"]
    assert list(bets) == ["six_bonus", "suited_pair_player_wins"]
    assert bets["six_bonus"]["computable"] is True
    assert bets["suited_pair_player_wins"]["computable"] is False
    assert "suits" in bets["suited_pair_player_wins"]["reason"]


def test_six_bonus_with_a_changed_pay() -> None:
    result = run(
        "odds",
        "--bet-file",
        str(SIX_BONUS),
        "--bets",
        "six_bonus",
        "--pay",
        "six_bonus.three_card_six=23",
        "--format",
        "json",
    )
    assert result.exit_code == 0, result.stderr
    six_bonus = json.loads(result.stdout)["bets"]["six_bonus"]
    assert six_bonus["pays"]["three_card_six"] == "23"


def test_bets_command_lists_custom_bets() -> None:
    result = run("bets", "--bet-file", str(SIX_BONUS), "--bets", "custom", "--format", "json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["six_bonus"]["needs_suits"] is False
    assert data["suited_pair_player_wins"]["needs_suits"] is True
    assert data["suited_pair_player_wins"]["pays"] == {"lose": "-1", "win": "60"}


# Errors -------------------------------------------------------------------------------------------


def one_outcome(when: str, pays: str = "1", extra: str = "", name: str = "x") -> str:
    """A bet file with one bet of one outcome."""
    return f'[[bet]]\nname = "{name}"\n{extra}[[bet.outcome]]\nwhen = {{ {when} }}\npays = {pays}\n'


ERRORS: list[tuple[str, str, list[str]]] = [
    # Contradictions: outcomes no round can reach.
    ("tie margin", one_outcome('winner = "tie", margin = 3'), ["can never happen"]),
    (
        "three-card natural",
        one_outcome("player_cards = 3, player_natural = true"),
        ["can never happen", "player_cards"],
    ),
    ("natural six", one_outcome("player_natural = true, player_total = 6"), ["can never happen"]),
    ("tie winning total", one_outcome('winner = "tie", winning_total = 8'), ["can never happen"]),
    ("four cards dealt", one_outcome("cards_dealt = 4, player_cards = 3"), ["can never happen"]),
    ("empty winner list", one_outcome("winner = []"), ["can never happen"]),
    # Shadowed outcomes.
    (
        "shadowed",
        '[[bet]]\nname = "x"\n[[bet.outcome]]\nname = "banker"\nwhen = { winner = "banker" }\n'
        'pays = 1\n[[bet.outcome]]\nname = "six"\nwhen = { winner = "banker", banker_total = 6 }\n'
        "pays = 12\n",
        ["'six'", "never reached", "earlier"],
    ),
    (
        "after always",
        '[[bet]]\nname = "x"\n[[bet.outcome]]\npays = 1\n[[bet.outcome]]\n'
        'when = { winner = "tie" }\npays = 8\n',
        ["never reached"],
    ),
    # Pays.
    ("word pay", one_outcome('winner = "tie"', '"eight"'), ["'eight'", "not a number"]),
    ("list pay", one_outcome('winner = "tie"', "[8]"), ["[8]", "not a number"]),
    ("boolean pay", one_outcome('winner = "tie"', "true"), ["Pay true", "not a number"]),
    ("table pay", one_outcome('winner = "tie"', "{ a = 1 }"), ["not a number"]),
    ("zero division pay", one_outcome('winner = "tie"', '"1/0"'), ["'1/0'"]),
    ("pay below -1", one_outcome('winner = "tie"', "-2"), ["-2", "at least -1"]),
    ("pay -3/2", one_outcome('winner = "tie"', '"-3/2"'), ["-3/2", "at least -1"]),
    ("otherwise below -1", one_outcome('winner = "tie"', "8", "otherwise = -2\n"), ["-2"]),
    ("otherwise word", one_outcome('winner = "tie"', "8", 'otherwise = "x"\n'), ["'x'"]),
    (
        "missing pays",
        '[[bet]]\nname = "x"\n[[bet.outcome]]\nwhen = { winner = "tie" }\n',
        ["no 'pays'"],
    ),
    # Unknown keys.
    ("unknown condition", one_outcome("banker_totl = 6"), ["'banker_totl'", "banker_total"]),
    ("unknown bet key", one_outcome('winner = "tie"', "8", "pay = 3\n"), ["'pay'"]),
    (
        "unknown outcome key",
        '[[bet]]\nname = "x"\n[[bet.outcome]]\nwhen = { winner = "tie" }\npays = 8\nodds = 1\n',
        ["'odds'"],
    ),
    ("unknown top-level key", 'title = "mine"\n' + one_outcome('winner = "tie"'), ["'title'"]),
    # Out-of-range values.
    ("total 10", one_outcome("player_total = 10"), ["10", "0 to 9"]),
    ("total -1", one_outcome("banker_total = -1"), ["-1", "0 to 9"]),
    ("one card", one_outcome("player_cards = 1"), ["2 to 3"]),
    ("seven cards", one_outcome("cards_dealt = 7"), ["7", "4 to 6"]),
    ("margin list", one_outcome("margin = [4, 12]"), ["12"]),
    ("empty range", one_outcome("margin = { min = 7, max = 3 }"), ["empty"]),
    ("range key", one_outcome("margin = { from = 4 }"), ["from", "min"]),
    ("draw", one_outcome('winner = "draw"'), ["'draw'", "player, banker or tie"]),
    # Wrong types.
    ("text total", one_outcome('player_total = "6"'), ["'6'"]),
    ("number boolean", one_outcome("player_natural = 1"), ["true or false"]),
    ("text boolean", one_outcome('player_pair = "yes"'), ["'yes'", "true or false"]),
    ("boolean total", one_outcome("banker_total = true"), ["Value true"]),
    (
        "text range bound",
        one_outcome('margin = { min = "4" }'),
        ["Bound '4'", "a whole number from"],
    ),
    (
        "when not a table",
        '[[bet]]\nname = "x"\n[[bet.outcome]]\nwhen = "banker wins"\npays = 1\n',
        ["'when'", "not a table"],
    ),
    ("outcome not a table", '[[bet]]\nname = "x"\noutcome = [1]\n', ["not a table"]),
    ("description", one_outcome('winner = "tie"', "8", "description = 3\n"), ["Description"]),
    # Names.
    ("capital name", one_outcome('winner = "tie"', name="Six_Bonus"), ["'Six_Bonus'"]),
    ("hyphen name", one_outcome('winner = "tie"', name="six-bonus"), ["'six-bonus'"]),
    ("digit first", one_outcome('winner = "tie"', name="6bonus"), ["'6bonus'"]),
    ("no name", '[[bet]]\n[[bet.outcome]]\nwhen = { winner = "tie" }\npays = 8\n', ["has no name"]),
    (
        "bad outcome name",
        '[[bet]]\nname = "x"\n[[bet.outcome]]\nname = "Win!"\nwhen = { winner = "tie" }\n'
        "pays = 8\n",
        ["'Win!'"],
    ),
    (
        "outcome named lose",
        '[[bet]]\nname = "x"\n[[bet.outcome]]\nname = "lose"\nwhen = { winner = "tie" }\n'
        "pays = 8\n",
        ["'lose'"],
    ),
    (
        "duplicate outcome",
        '[[bet]]\nname = "x"\n[[bet.outcome]]\nname = "a"\nwhen = { winner = "tie" }\npays = 8\n'
        '[[bet.outcome]]\nname = "a"\nwhen = { winner = "player" }\npays = 1\n',
        ["'a'", "used twice"],
    ),
    (
        "duplicate bet",
        one_outcome('winner = "tie"') + one_outcome('winner = "player"'),
        ["'x'", "already taken"],
    ),
    # Structure.
    ("no outcomes", '[[bet]]\nname = "x"\ndescription = "nothing"\n', ["no [[bet.outcome]]"]),
    ("no bet", 'name = "x"\n', ["'name'"]),
    ("empty file", "", ["no bet"]),
    ("malformed TOML", '[[bet]]\nname = "x\n', ["not valid TOML"]),
    ("malformed TOML 2", "[[bet]\n", ["not valid TOML"]),
]


@pytest.mark.parametrize(("text", "fragments"), [e[1:] for e in ERRORS], ids=[e[0] for e in ERRORS])
def test_error_in_the_library(text: str, fragments: list[str]) -> None:
    with pytest.raises(CustomBetError) as caught:
        parse_custom_bets(text)
    error = caught.value
    assert isinstance(error, ExactOddsError)
    assert isinstance(error, ValueError)
    message = str(error)
    assert "\n" not in message
    assert message.endswith("."), message
    for fragment in fragments:
        assert fragment in message, (fragment, message)


@pytest.mark.parametrize(("text", "fragments"), [e[1:] for e in ERRORS], ids=[e[0] for e in ERRORS])
def test_error_through_the_cli(tmp_path: Path, text: str, fragments: list[str]) -> None:
    path = tmp_path / "bets.toml"
    path.write_text(text, encoding="utf-8")
    assert_usage_error(run("odds", "--bet-file", str(path)), *fragments)


@pytest.mark.parametrize("name", ["dragon7", "banker", "lucky6", "egalite_6"])
def test_name_clashing_with_a_catalogue_bet(tmp_path: Path, name: str) -> None:
    text = one_outcome('winner = "tie"', name=name)
    with pytest.raises(CustomBetError, match=f"'{name}'"):
        parse_custom_bets(text, taken=list(available_bets()))
    (bet,) = parse_custom_bets(text)  # without *taken*, available_bets refuses it
    with pytest.raises(BetError, match=f"'{name}'"):
        available_bets(custom=[bet])
    path = tmp_path / "bets.toml"
    path.write_text(text, encoding="utf-8")
    assert_usage_error(run("odds", "--bet-file", str(path)), f"'{name}'")
    assert_usage_error(run("bets", "--bet-file", str(path)), f"'{name}'")


def test_same_name_in_two_files(tmp_path: Path) -> None:
    first, second = tmp_path / "a.toml", tmp_path / "b.toml"
    first.write_text(one_outcome('winner = "tie"', name="mine"), encoding="utf-8")
    second.write_text(one_outcome('winner = "player"', name="mine"), encoding="utf-8")
    assert_usage_error(
        run("odds", "--bet-file", str(first), "--bet-file", str(second)), "'mine'", "taken"
    )


def test_missing_bet_file(tmp_path: Path) -> None:
    missing = tmp_path / "nope.toml"
    with pytest.raises(CustomBetError, match=r"nope\.toml"):
        load_custom_bets(missing)
    assert_usage_error(run("odds", "--bet-file", str(missing)), "nope.toml")
    assert_usage_error(run("odds", "--bet-file", str(tmp_path)), "Cannot read bet file")


def test_source_is_named_in_file_errors(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text("[[bet]\n", encoding="utf-8")
    with pytest.raises(CustomBetError, match=r"broken\.toml"):
        load_custom_bets(path)


# Bugs found while writing these tests: each input below escapes as a bare Python exception
# (a traceback on the command line) instead of a CustomBetError with exit code 2.
ESCAPING: list[tuple[str, str]] = [
    # TypeError: unhashable type: 'dict' / 'list' (the winner check does `item not in set`).
    ("winner table", one_outcome('winner = { min = "player" }')),
    ("winner nested list", one_outcome('winner = [["player"]]')),
    # AttributeError: 'int' object has no attribute 'get' (a [[bet]] entry that is not a table).
    ("bet entry not a table", "bet = [1]\n"),
    ("bet entry text", 'bet = ["six_bonus"]\n'),
    # ValueError: Invalid literal for Fraction: 'inf' (TOML inf/nan through parse_float=Fraction).
    ("pays inf", one_outcome('winner = "tie"', "inf")),
    ("pays nan", one_outcome('winner = "tie"', "nan")),
    ("otherwise -inf", one_outcome('winner = "tie"', "8", "otherwise = -inf\n")),
    # MemoryError: the range is expanded to a list before its bounds are checked.
    ("huge range", one_outcome("margin = { min = 0, max = 1000000000000000 }")),
]


@pytest.mark.parametrize("text", [e[1] for e in ESCAPING], ids=[e[0] for e in ESCAPING])
def test_malformed_input_is_a_custom_bet_error(tmp_path: Path, text: str) -> None:
    with pytest.raises(CustomBetError):
        parse_custom_bets(text)


@pytest.mark.parametrize("text", [e[1] for e in ESCAPING], ids=[e[0] for e in ESCAPING])
def test_malformed_input_through_the_cli(tmp_path: Path, text: str) -> None:
    path = tmp_path / "bets.toml"
    path.write_text(text, encoding="utf-8")
    assert_usage_error(run("odds", "--bet-file", str(path)))


def test_out_of_range_bound_is_quoted() -> None:
    # The user wrote max = 12; the message should quote that, not the 10 the range expands to.
    with pytest.raises(CustomBetError) as caught:
        parse_custom_bets(one_outcome("player_total = { min = 3, max = 12 }"))
    assert "12" in str(caught.value), str(caught.value)


def test_decimal_condition_value_is_quoted_as_written() -> None:
    # TOML 6.0 is read as Fraction(6, 1); the message should not show Python's repr of it.
    with pytest.raises(CustomBetError) as caught:
        parse_custom_bets(one_outcome("player_total = 6.0"))
    assert "Fraction(" not in str(caught.value), str(caught.value)


@pytest.mark.parametrize("name", ["main", "side", "all", "custom"])
def test_name_clashing_with_a_selection_word(tmp_path: Path, name: str) -> None:
    # A bet named like a --bets group cannot be selected by name: `--bets main` silently means
    # the main bets. The file should be refused, or the name should select the bet.
    path = tmp_path / "bets.toml"
    path.write_text(one_outcome('winner = "tie"', "8", name=name), encoding="utf-8")
    result = run("odds", "--bet-file", str(path), "--bets", f"{name},tie", "--format", "json")
    if result.exit_code == 2:
        assert_usage_error(result, f"'{name}'")
    else:
        assert result.exit_code == 0, result.stderr
        bets = json.loads(result.stdout)["bets"]
        assert name in bets and "tie" in bets
        assert set(bets) == {name, "tie"}


# Reachability under the rules in use (issue 29, E1) -------------------------------------------

_TWO_CARD_PLAYER_FIVE = one_outcome(
    'winner = "player", player_total = 5, player_cards = 2, player_natural = false', pays="10"
)


def test_an_outcome_is_reachable_under_the_rules_file_in_use(tmp_path: Path) -> None:
    from dataclasses import replace

    from exactodds.engine.walk import enumerate_rounds
    from exactodds.rulefiles import resolve_rules_file, shipped_rules_files

    standard = resolve_rules_file("standard").tableau
    stands_on_five = replace(standard, player_draws=(True,) * 5 + (False,) * 5)
    with pytest.raises(CustomBetError, match="can never happen"):
        parse_custom_bets(_TWO_CARD_PLAYER_FIVE)
    (bet,) = parse_custom_bets(_TWO_CARD_PLAYER_FIVE, tableau=stands_on_five)
    # Priced under those rules, the bet wins exactly on the two-card Player 5 wins.
    table = enumerate_rounds(Shoe.standard(decks=1), stands_on_five)
    wins = sum(
        count
        for summary, count in table.counts.items()
        if summary.winner.value == "player"
        and summary.player_total == 5
        and summary.player_cards == 2
    )
    assert wins > 0
    assert price_bet(table, bet).win_probability == Fraction(wins, table.total)
    rules_file = tmp_path / "stand5.toml"
    shipped = shipped_rules_files()["standard"].read_text(encoding="utf-8")
    assert "player_draws = [0, 1, 2, 3, 4, 5]" in shipped
    rules_file.write_text(
        shipped.replace("player_draws = [0, 1, 2, 3, 4, 5]", "player_draws = [0, 1, 2, 3, 4]"),
        encoding="utf-8",
    )
    bet_file = tmp_path / "p5.toml"
    bet_file.write_text(_TWO_CARD_PLAYER_FIVE, encoding="utf-8")
    result = run("odds", "--rules", str(rules_file), "--bet-file", str(bet_file), "--bets", "x")
    assert result.exit_code == 0, result.stderr
    refused = run("odds", "--bet-file", str(bet_file))
    assert refused.exit_code == 2


def test_refusals_show_values_as_toml_writes_them() -> None:
    with pytest.raises(CustomBetError) as refused:
        parse_custom_bets(_TWO_CARD_PLAYER_FIVE)
    message = str(refused.value)
    assert 'winner = "player"' in message and "player_natural = false" in message
    assert "False" not in message and "'player'" not in message
    with pytest.raises(CustomBetError) as listed:
        parse_custom_bets(one_outcome('winner = ["player", "banker"], margin = 0'))
    assert 'winner in ["banker", "player"] and margin = 0' in str(listed.value)
