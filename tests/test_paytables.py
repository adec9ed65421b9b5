"""Pay overrides and pay-table files, in the library and through the command line.

A pay change must change exactly the pay it names: every other pay of every
bet, and so every other bet's figures, stay as they were, and the changed
bet's expected value moves by exactly P(outcome) * (new pay - old pay).
Numbers are read exactly, in TOML and JSON alike; every mistake is an
:class:`~exactodds.errors.ExactOddsError` (a ``ValueError``) in the library
and one ``Error: ...`` line with exit code 2 on the command line.
"""

from __future__ import annotations

import json
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest
from cli_runner import run
from click.testing import Result
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds import Analysis, ExactOddsError, PayError, Rules, Shoe, analyze, price_bet
from exactodds.bets.bet import Bet
from exactodds.bets.catalogue import MAIN_BET_NAMES, available_bets
from exactodds.bets.paytables import apply_pays, load_paytable, parse_pay_option, parse_paytable
from exactodds.bets.side import SIDE_BET_NAMES, side_bets

ALL_BET_NAMES = (*MAIN_BET_NAMES, *SIDE_BET_NAMES)
EXAMPLE_PAYTABLE = Path(__file__).parent.parent / "examples" / "paytable.toml"


@cache
def base_analysis() -> Analysis:
    """Every catalogue bet priced once on a fresh 8-deck shoe."""
    return analyze(Shoe.standard(8), Rules(), list(available_bets().values()))


def json_output(*args: str) -> dict[str, object]:
    """Run a command that must succeed quietly and return its JSON."""
    result = run(*args, "--format", "json")
    assert result.exit_code == 0, (result.exception, result.stderr)
    assert result.stderr == ""
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


def bets_json(*args: str) -> dict[str, dict[str, object]]:
    """The ``bets`` object of ``odds --format json``."""
    bets = json_output("odds", *args)["bets"]
    assert isinstance(bets, dict)
    return bets


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


# parse_pay_option ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("dragon7=30", ("dragon7", Fraction(30))),
        ("big=27/50", ("big", Fraction(27, 50))),
        ("big=0.54", ("big", Fraction(27, 50))),
        ("lucky6.three_card_win=23", ("lucky6.three_card_win", Fraction(23))),
        (" perfect_pair.both = 250 ", ("perfect_pair.both", Fraction(250))),
        ("tie=9:1", ("tie", Fraction(9))),
        ("dragon7=0", ("dragon7", Fraction(0))),
    ],
)
def test_parse_pay_option(text: str, expected: tuple[str, Fraction]) -> None:
    assert parse_pay_option(text) == expected


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("dragon7", "'dragon7'"),
        ("dragon7=", "'dragon7='"),
        ("=30", "'=30'"),
        ("dragon7=thirty", "'thirty'"),
        ("dragon7=1/0", "'1/0'"),
    ],
)
def test_parse_pay_option_errors(text: str, fragment: str) -> None:
    with pytest.raises(PayError) as caught:
        parse_pay_option(text)
    assert isinstance(caught.value, ExactOddsError)
    assert isinstance(caught.value, ValueError)
    assert fragment in str(caught.value)


# apply_pays: exactly the named pay changes --------------------------------------------------


@st.composite
def pay_changes(draw: st.DrawFn) -> tuple[str, str, Fraction, bool]:
    """A bet, one of its non-losing outcomes, a new pay >= 0, and whether to name it bare."""
    name = draw(st.sampled_from(ALL_BET_NAMES))
    table = available_bets()[name].pay_table
    outcome = draw(st.sampled_from(sorted(o for o in table if o != "lose")))
    pay = draw(st.fractions(min_value=0, max_value=1000, max_denominator=1000))
    winning = [o for o, p in table.items() if p > 0]
    bare = winning == [outcome] and draw(st.booleans())
    return name, outcome, pay, bare


@settings(max_examples=60, deadline=None)
@given(pay_changes(), st.sampled_from(["fraction", "text", "decimal"]))
def test_apply_pays_changes_exactly_one_pay(
    change: tuple[str, str, Fraction, bool], form: str
) -> None:
    name, outcome, pay, bare = change
    before = available_bets()
    key = name if bare else f"{name}.{outcome}"
    value: Fraction | str = pay
    if form == "text":
        value = f"{pay.numerator}/{pay.denominator}"
    elif form == "decimal" and 10**6 % pay.denominator == 0:
        value = f"{float(pay):.6f}"
    after = apply_pays(before, {key: value})
    assert list(after) == list(before)
    assert after[name].pay_table == before[name].pay_table | {outcome: pay}
    assert after[name].settle is before[name].settle
    assert after[name].needs_suits == before[name].needs_suits
    analysis = base_analysis()
    for other in before:
        if other != name:
            assert after[other] == before[other]
            assert after[other].pay_table == before[other].pay_table
    old = analysis.bets[name]
    new = price_bet(analysis.table, after[name])
    probability = Fraction(old.outcome_counts.get(outcome, 0), old.total)
    old_pay = before[name].pay(outcome)
    assert new.expected_value - old.expected_value == probability * (pay - old_pay)
    assert new.outcome_counts == old.outcome_counts


def test_apply_pays_leaves_its_input_alone() -> None:
    bets = side_bets()
    apply_pays(bets, {"dragon7": 30})
    assert bets["dragon7"].pay("win") == 40
    assert side_bets()["dragon7"].pay("win") == 40


def test_apply_pays_later_pays_win() -> None:
    changed = apply_pays(side_bets(), {"dragon7": 30, "dragon7.win": 35})
    assert changed["dragon7"].pay("win") == 35


def test_main_bets_take_pays_too() -> None:
    bets = apply_pays(available_bets(), {"tie": 9, "banker.tie": 0})
    assert bets["tie"].pay("win") == 9
    tie = price_bet(base_analysis().table, bets["tie"])
    assert tie.house_edge_percent(4) == "4.8440%"


# Reading pay tables -------------------------------------------------------------------------


def test_toml_paytable_is_read_exactly() -> None:
    text = 'dragon7 = 30\nbig = 0.54\nsmall = "3/2"\n[lucky6]\nthree_card_win = 23\n'
    text += "[perfect_pair]\none = 25.5\nboth = 2.5e2\n"
    assert parse_paytable(text) == {
        "dragon7": 30,
        "big": Fraction(27, 50),
        "small": Fraction(3, 2),
        "lucky6.three_card_win": 23,
        "perfect_pair.one": Fraction(51, 2),
        "perfect_pair.both": Fraction(250),
    }


def test_json_paytable_is_read_exactly() -> None:
    text = '{"dragon7": 30, "big": 0.54, "small": "3/2", "lucky6": {"three_card_win": 23}, '
    text += '"perfect_pair.both": 2.5e2, "egalite_6": 0.1}'
    table = parse_paytable(text, "pays.json")
    assert table == {
        "dragon7": 30,
        "big": Fraction(27, 50),
        "small": Fraction(3, 2),
        "lucky6.three_card_win": 23,
        "perfect_pair.both": Fraction(250),
        "egalite_6": Fraction(1, 10),
    }
    bets = apply_pays(side_bets(), table)
    assert bets["big"].pay("win") == Fraction(27, 50)
    assert bets["small"].pay("win") == Fraction(3, 2)
    assert bets["egalite_6"].pay("win") == Fraction(1, 10)


def test_example_paytable() -> None:
    table = load_paytable(EXAMPLE_PAYTABLE)
    bets = apply_pays(side_bets(), table)
    assert bets["dragon7"].pay("win") == 30
    assert bets["big"].pay("win") == Fraction(27, 50)
    assert bets["small"].pay("win") == Fraction(3, 2)
    assert bets["lucky6"].pay_table == {
        "lose": -1,
        "two_card_win": 12,
        "three_card_win": 23,
    }
    assert bets["perfect_pair"].pay_table == {"lose": -1, "one": 25, "both": 250}
    changed = {"dragon7", "big", "small", "lucky6", "perfect_pair"}
    for name, original in side_bets().items():
        if name not in changed:
            assert bets[name] == original


def test_json_and_toml_tables_agree() -> None:
    toml = parse_paytable("big = 0.54\n[lucky6]\nthree_card_win = 23\n")
    as_json = parse_paytable('{"big": 0.54, "lucky6": {"three_card_win": 23}}')
    assert toml == as_json


# Errors ---------------------------------------------------------------------------------------

APPLY_ERRORS: list[tuple[dict[str, Fraction | str | int], list[str]]] = [
    ({"dragon8": 30}, ["'dragon8'", "dragon7"]),
    ({"dragon7.lose_big": 3}, ["'lose_big'", "lose, win"]),
    ({"lucky6": 23}, ["'lucky6'", "three_card_win", "two_card_win", "lucky6.three_card_win=23"]),
    ({"perfect_pair": 250}, ["both", "one"]),
    ({"dragon_bonus_player": 30}, ["win_by_9", "natural_win"]),
    ({"dragon7": -5}, ["-5", "at least 0"]),
    ({"lucky6.two_card_win": "-1/2"}, ["-1/2"]),
    ({"dragon7": "thirty"}, ["'thirty'"]),
    ({"dragon7": "1/0"}, ["'1/0'"]),
    ({"dragon7.lose": 3}, ["'lose'", "dragon7"]),
    ({"": 3}, ["''"]),
]


@pytest.mark.parametrize(("pays", "fragments"), APPLY_ERRORS)
def test_apply_pays_errors(pays: dict[str, Fraction | str | int], fragments: list[str]) -> None:
    with pytest.raises(PayError) as caught:
        apply_pays(available_bets(), pays)
    message = str(caught.value)
    assert isinstance(caught.value, ValueError)
    assert "\n" not in message
    assert message.endswith(".")
    for fragment in fragments:
        assert fragment in message, (fragment, message)


PAYTABLE_ERRORS: list[tuple[str, list[str]]] = [
    ("dragon7 = \n", ["not valid TOML"]),
    ("[lucky6\nthree_card_win = 23\n", ["not valid TOML"]),
    ('{"dragon7": 30,}', ["not valid JSON", "line 1"]),
    ('{"dragon7": 30', ["not valid JSON"]),
    ('{"big": [1]}', ["[1]", "big"]),
    ("big = [0.54]\n", ["big", "not a number"]),
    ('{"big": true}', ["Pay true", "big"]),
    ('{"big": null}', ["Pay null", "big"]),
    ("big = 2024-01-01\n", ["big", "not a number"]),
    ('{"lucky6": {"three_card_win": {"x": 1}}}', ["lucky6.three_card_win"]),
]


@pytest.mark.parametrize(("text", "fragments"), PAYTABLE_ERRORS)
def test_parse_paytable_errors(text: str, fragments: list[str]) -> None:
    with pytest.raises(PayError) as caught:
        parse_paytable(text, "pays.file")
    message = str(caught.value)
    assert "\n" not in message
    for fragment in fragments:
        assert fragment in message, (fragment, message)


def test_paytable_top_level_must_be_a_table() -> None:
    for text in ("[1, 2]", '"dragon7"', "30"):
        with pytest.raises(PayError):
            parse_paytable(text)


def test_missing_paytable_file(tmp_path: Path) -> None:
    missing = tmp_path / "nope.toml"
    with pytest.raises(PayError, match=r"nope\.toml"):
        load_paytable(missing)
    with pytest.raises(PayError, match="Cannot read"):
        load_paytable(tmp_path)


@pytest.mark.parametrize(
    "text", ["dragon7 = inf\n", "dragon7 = nan\n", "[lucky6]\ntwo_card_win = -inf\n"]
)
def test_toml_infinity_is_a_pay_error(text: str) -> None:
    # TOML's inf and nan are floats; they must be refused like any other non-number, as a
    # PayError (currently a bare ValueError from Fraction escapes, and the CLI shows a traceback).
    with pytest.raises(PayError):
        parse_paytable(text)


def test_bare_name_after_a_zero_pay() -> None:
    # A pay table sets dragon7.win to 0 and a later --pay names dragon7 bare. Either the bare
    # name still finds the bet's one paying outcome, or a PayError says why; never IndexError.
    try:
        bets = apply_pays(side_bets(), {"dragon7.win": 0, "dragon7": 30})
    except PayError:
        return
    assert bets["dragon7"].pay("win") == 30


# CLI: odds --format json ----------------------------------------------------------------------

BET_FIELDS = {
    "computable",
    "description",
    "ev",
    "ev_decimal",
    "house_edge",
    "house_edge_decimal",
    "rtp",
    "rtp_decimal",
    "house_edge_percent",
    "hit_frequency",
    "hit_frequency_decimal",
    "win_probability",
    "win_probability_decimal",
    "push_probability",
    "push_probability_decimal",
    "loss_probability",
    "loss_probability_decimal",
    "variance",
    "variance_decimal",
    "standard_deviation_decimal",
    "pays",
    "outcome_counts",
    "distribution",
}


def test_odds_all_bets_json() -> None:
    bets = bets_json("--bets", "all", "--digits", "12")
    assert list(bets) == list(ALL_BET_NAMES)
    analysis = base_analysis()
    for name, data in bets.items():
        assert set(data) >= BET_FIELDS, (name, BET_FIELDS - set(data))
        assert data["computable"] is True
        expected = analysis.bets[name]
        ev = Fraction(str(data["ev"]))
        assert ev == expected.expected_value, name
        assert Fraction(str(data["house_edge"])) == -ev
        assert data["ev_decimal"] == expected.expected_value_decimal(12)
        win = Fraction(str(data["win_probability"]))
        push = Fraction(str(data["push_probability"]))
        loss = Fraction(str(data["loss_probability"]))
        assert win + push + loss == 1
        assert Fraction(str(data["hit_frequency"])) == win
        assert Fraction(str(data["variance"])) == expected.variance
        assert data["standard_deviation_decimal"] == expected.standard_deviation(12)
        assert data["outcome_counts"] == dict(expected.outcome_counts)
        distribution = data["distribution"]
        assert isinstance(distribution, list)
        assert sum(Fraction(item["probability"]) for item in distribution) == 1
        results = [Fraction(item["result"]) for item in distribution]
        assert results == sorted(results)
        pays = data["pays"]
        assert isinstance(pays, dict)
        assert {k: Fraction(v) for k, v in pays.items()} == expected.bet.pay_table


def test_odds_json_suited_bet_on_rank_only_shoe() -> None:
    bets = bets_json("--bets", "perfect_pair,dragon7", "--remove", "K")
    assert bets["perfect_pair"]["computable"] is False
    assert "suits" in str(bets["perfect_pair"]["reason"])
    assert bets["dragon7"]["computable"] is True
    assert bets_json("--bets", "perfect_pair", "--remove", "KS")["perfect_pair"]["computable"]


def test_odds_pay_option() -> None:
    bets = bets_json("--bets", "lucky6", "--pay", "lucky6.three_card_win=23", "--digits", "6")
    assert bets["lucky6"]["house_edge_percent"] == "11.6985%"
    assert bets["lucky6"]["pays"] == {"lose": "-1", "three_card_win": "23", "two_card_win": "12"}
    bets = bets_json("--bets", "perfect_pair", "--pay", "perfect_pair.both=250", "--digits", "6")
    assert bets["perfect_pair"]["house_edge_percent"] == "6.6235%"
    bets = bets_json("--bets", "dragon7,big", "--pay", "dragon7=30", "--pay", "big=0.5")
    assert bets["dragon7"]["pays"] == {"lose": "-1", "win": "30"}
    assert bets["big"]["pays"] == {"lose": "-1", "win": "1/2"}


def write(path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_odds_paytable_toml_and_json(tmp_path: Path) -> None:
    toml = write(tmp_path / "pays.toml", "big = 0.54\n[lucky6]\nthree_card_win = 23\n")
    as_json = write(tmp_path / "pays.json", '{"big": 0.54, "lucky6": {"three_card_win": 23}}')
    results = [
        bets_json("--bets", "big,lucky6", "--paytable", path, "--digits", "6")
        for path in (toml, as_json)
    ]
    assert results[0] == results[1]
    assert results[0]["lucky6"]["house_edge_percent"] == "11.6985%"
    assert results[0]["big"]["pays"] == {"lose": "-1", "win": "27/50"}


def test_odds_example_paytable() -> None:
    bets = bets_json("--bets", "side", "--paytable", str(EXAMPLE_PAYTABLE), "--digits", "6")
    assert bets["lucky6"]["house_edge_percent"] == "11.6985%"
    assert bets["perfect_pair"]["house_edge_percent"] == "6.6235%"
    assert bets["dragon7"]["pays"] == {"lose": "-1", "win": "30"}
    assert bets["panda8"]["pays"] == {"lose": "-1", "win": "25"}


def test_pay_option_wins_over_paytable(tmp_path: Path) -> None:
    table = write(tmp_path / "pays.toml", "dragon7 = 30\n[lucky6]\nthree_card_win = 23\n")
    bets = bets_json(
        "--bets",
        "dragon7,lucky6",
        "--paytable",
        table,
        "--pay",
        "dragon7=45",
        "--pay",
        "lucky6.three_card_win=22",
    )
    assert bets["dragon7"]["pays"] == {"lose": "-1", "win": "45"}
    assert bets["lucky6"]["pays"] == {"lose": "-1", "three_card_win": "22", "two_card_win": "12"}
    # A bare name on the command line against BET.OUTCOME in the file, and the reverse.
    table = write(tmp_path / "pays2.toml", "[dragon7]\nwin = 30\n[panda8]\nwin = 20\n")
    bets = bets_json(
        "--bets",
        "dragon7,panda8",
        "--paytable",
        table,
        "--pay",
        "dragon7=45",
        "--pay",
        "panda8.win=21",
    )
    assert bets["dragon7"]["pays"] == {"lose": "-1", "win": "45"}
    assert bets["panda8"]["pays"] == {"lose": "-1", "win": "21"}


def test_pay_option_over_a_zero_pay_in_the_paytable(tmp_path: Path) -> None:
    # The file makes dragon7 a push; --pay dragon7=30 should win (or be refused cleanly).
    table = write(tmp_path / "pays.toml", "[dragon7]\nwin = 0\n")
    result = run("odds", "--bets", "dragon7", "--paytable", table, "--pay", "dragon7=30")
    if result.exit_code == 2:
        assert_usage_error(result, "dragon7")
    else:
        assert result.exit_code == 0, (result.exception, result.stderr)


# CLI: --bets selections -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("selection", "expected"),
    [
        ("main", list(MAIN_BET_NAMES)),
        ("side", list(SIDE_BET_NAMES)),
        ("all", list(ALL_BET_NAMES)),
        ("dragon7,banker", ["banker", "dragon7"]),
        ("main,lucky6,tie", [*MAIN_BET_NAMES, "lucky6"]),
        (" egalite_6 , egalite_7 ,", ["egalite_6", "egalite_7"]),
    ],
)
def test_bets_selection(selection: str, expected: list[str]) -> None:
    result = run("bets", "--bets", selection, "--format", "json")
    assert result.exit_code == 0, result.stderr
    assert list(json.loads(result.stdout)) == expected


def test_default_selection_is_main() -> None:
    assert list(bets_json()) == list(MAIN_BET_NAMES)


def test_custom_selection(tmp_path: Path) -> None:
    bet_file = write(
        tmp_path / "bets.toml",
        '[[bet]]\nname = "my_six"\n[[bet.outcome]]\n'
        'when = { winner = "banker", banker_total = 6 }\npays = 12\n',
    )
    assert list(bets_json("--bet-file", bet_file)) == [*MAIN_BET_NAMES, "my_six"]
    assert list(bets_json("--bet-file", bet_file, "--bets", "custom")) == ["my_six"]
    assert list(bets_json("--bet-file", bet_file, "--bets", "my_six,tie")) == ["tie", "my_six"]
    all_bets = list(bets_json("--bet-file", bet_file, "--bets", "all"))
    assert all_bets == [*ALL_BET_NAMES, "my_six"]
    assert_usage_error(run("odds", "--bets", "custom"), "'custom'")


@pytest.mark.parametrize("selection", ["dragon8", "main,dragon8", "Banker"])
def test_unknown_bet_selection(selection: str) -> None:
    name = selection.split(",")[-1]
    assert_usage_error(run("odds", "--bets", selection), f"'{name}'")
    assert_usage_error(run("bets", "--bets", selection), f"'{name}'")


def test_empty_selection() -> None:
    assert_usage_error(run("odds", "--bets", " , "), "names no bet")


# CLI: the bets command ------------------------------------------------------------------------


def test_bets_command_json() -> None:
    result = run("bets", "--format", "json")
    assert result.exit_code == 0 and result.stderr == ""
    data = json.loads(result.stdout)
    bets = available_bets()
    assert list(data) == list(ALL_BET_NAMES)
    for name, entry in data.items():
        assert entry["description"] == bets[name].description
        assert entry["needs_suits"] is bets[name].needs_suits
        assert {k: Fraction(v) for k, v in entry["pays"].items()} == bets[name].pay_table


def test_bets_command_csv() -> None:
    result = run("bets", "--format", "csv")
    assert result.exit_code == 0 and result.stderr == ""
    lines = result.stdout.splitlines()
    assert lines[0] == "bet,outcome,pays,description"
    bets = available_bets()
    assert len(lines) - 1 == sum(len(bet.pay_table) for bet in bets.values())
    assert "lucky6,three_card_win,20," in result.stdout
    assert "big,win,27/50,Five or six cards are dealt." in lines


def test_bets_command_table() -> None:
    result = run("bets")
    assert result.exit_code == 0 and result.stderr == ""
    for name in ALL_BET_NAMES:
        assert name in result.stdout
    assert "(needs suits)" in result.stdout
    assert "three_card_win 20" in result.stdout


def test_bets_command_shows_changed_pays(tmp_path: Path) -> None:
    table = write(tmp_path / "pays.json", '{"big": 0.5}')
    result = run(
        "bets", "--bets", "lucky6,big", "--pay", "lucky6.three_card_win=23", "--paytable", table
    )
    assert result.exit_code == 0, result.stderr
    assert "three_card_win 23" in result.stdout
    assert "win 1/2" in result.stdout


# CLI: bad pays and pay tables -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("pay", "fragments"),
    [
        ("dragon7", ["'dragon7'"]),
        ("dragon7=", ["'dragon7='"]),
        ("dragon7=thirty", ["'thirty'"]),
        ("dragon8=30", ["'dragon8'"]),
        ("lucky6=23", ["'lucky6'", "three_card_win"]),
        ("dragon7=-5", ["-5"]),
        ("dragon7.lose=3", ["'lose'"]),
        ("dragon7.push=3", ["'push'"]),
        ("dragon7=1/0", ["'1/0'"]),
    ],
)
@pytest.mark.parametrize("command", ["odds", "bets"])
def test_bad_pay_option(command: str, pay: str, fragments: list[str]) -> None:
    assert_usage_error(run(command, "--bets", "all", "--pay", pay), *fragments)


@pytest.mark.parametrize(
    ("name", "text", "fragments"),
    [
        ("bad.toml", "dragon7 = \n", ["not valid TOML"]),
        ("bad.json", '{"dragon7": 30,}', ["not valid JSON"]),
        ("list.json", '{"big": [1]}', ["[1]", "big"]),
        ("list.toml", "big = [1]\n", ["[1]", "big"]),
        ("word.toml", 'dragon7 = "thirty"\n', ["'thirty'"]),
        ("unknown.toml", "dragon8 = 30\n", ["'dragon8'"]),
        ("outcome.toml", "[lucky6]\nfour_card_win = 3\n", ["'four_card_win'"]),
        ("bare.toml", "lucky6 = 23\n", ["'lucky6'"]),
        ("negative.json", '{"dragon7": -1}', ["-1"]),
        ("lose.toml", "[dragon7]\nlose = 3\n", ["'lose'"]),
        ("inf.toml", "dragon7 = inf\n", ["holds inf, which is not a number"]),
    ],
)
def test_bad_paytable_file(tmp_path: Path, name: str, text: str, fragments: list[str]) -> None:
    path = write(tmp_path / name, text)
    assert_usage_error(run("odds", "--bets", "all", "--paytable", path), *fragments)


def test_missing_paytable_file_cli(tmp_path: Path) -> None:
    missing = str(tmp_path / "nope.toml")
    assert_usage_error(run("odds", "--paytable", missing), "nope.toml")
    assert_usage_error(run("bets", "--paytable", str(tmp_path)), "Cannot read")


def test_bet_objects_are_unchanged_by_the_cli() -> None:
    run("odds", "--bets", "dragon7", "--pay", "dragon7=30")
    assert side_bets()["dragon7"].pay("win") == 40
    assert isinstance(available_bets()["dragon7"], Bet)
