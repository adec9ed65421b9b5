"""Tests of the ``exactodds`` command line, through click's ``CliRunner``.

Data must reach stdout and nothing else; every mistake a user can make must
reach stderr as one line ``Error: ...`` quoting the bad value, with exit code 2
and no traceback.  Figures are checked three ways: against published values,
against the library (``analyze``), and between the table, JSON and CSV outputs.

Published figures are from the Wizard of Odds baccarat pages:
https://wizardofodds.com/games/baccarat/basics/ (8- and 6-deck counts and
house edges, Tie at 9:1), https://wizardofodds.com/games/baccarat/ez-baccarat/
and https://wizardofodds.com/games/baccarat/super-6/.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
import shlex
import subprocess
import sys
from fractions import Fraction
from importlib.metadata import version
from pathlib import Path
from typing import Any

import click
import pytest
from cli_runner import run, run_ok
from published_figures import EIGHT_DECK_BANKER, EIGHT_DECK_PLAYER, EIGHT_DECK_TIE, EIGHT_DECK_TOTAL

from exactodds import Rules, Shoe, analyze
from exactodds.cli import cli
from exactodds.engine.kernel.program import native_module

RANK_SYMBOLS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")

# Published 8-deck counts of ordered six-card sequences (Wizard of Odds).
BANKER_COUNT, PLAYER_COUNT, TIE_COUNT = EIGHT_DECK_BANKER, EIGHT_DECK_PLAYER, EIGHT_DECK_TIE
TOTAL_8_DECKS = EIGHT_DECK_TOTAL

BET_KEYS = {
    "computable",
    "hit_frequency",
    "hit_frequency_decimal",
    "description",
    "ev",
    "ev_decimal",
    "house_edge",
    "house_edge_decimal",
    "rtp",
    "rtp_decimal",
    "house_edge_per_resolved_bet",
    "house_edge_per_resolved_bet_decimal",
    "win_probability",
    "win_probability_decimal",
    "push_probability",
    "push_probability_decimal",
    "loss_probability",
    "loss_probability_decimal",
    "variance",
    "variance_decimal",
    "house_edge_percent",
    "standard_deviation_decimal",
    "pays",
    "outcome_counts",
    "distribution",
}
EXACT_BET_FIGURES = (
    "ev",
    "house_edge",
    "rtp",
    "house_edge_per_resolved_bet",
    "win_probability",
    "push_probability",
    "loss_probability",
    "variance",
)
CSV_COLUMNS = [
    "kind",
    "name",
    "count",
    "probability",
    "probability_decimal",
    "ev",
    "ev_decimal",
    "house_edge",
    "house_edge_decimal",
    "rtp",
    "rtp_decimal",
    "house_edge_per_resolved_bet",
    "house_edge_per_resolved_bet_decimal",
    "win_probability",
    "push_probability",
    "loss_probability",
    "variance",
    "variance_decimal",
    "standard_deviation_decimal",
    "computable",
    "reason",
]


# Helpers -----------------------------------------------------------------


def odds_json(*options: str, input: str | None = None) -> dict[str, Any]:
    """``exactodds odds OPTIONS --format json``, parsed."""
    data = json.loads(run_ok("odds", *options, "--format", "json", input=input).stdout)
    assert isinstance(data, dict)
    return data


def odds_csv(*options: str) -> tuple[list[str], list[dict[str, str]]]:
    """``exactodds odds OPTIONS --format csv``: the header and the rows."""
    reader = csv.DictReader(io.StringIO(run_ok("odds", *options, "--format", "csv").stdout))
    rows = list(reader)
    assert reader.fieldnames is not None
    return list(reader.fieldnames), rows


def exact(text: str) -> Fraction:
    """Read an exact value written ``"n/d"`` in lowest terms, or ``"n"`` when whole."""
    match = re.fullmatch(r"(-?\d+)(?:/(\d+))?", text)
    assert match is not None, f"{text!r} is not an exact fraction string"
    numerator = int(match.group(1))
    if match.group(2) is None:
        return Fraction(numerator)
    denominator = int(match.group(2))
    assert denominator > 1, f"{text!r}: a whole number must be written without /1"
    assert math.gcd(numerator, denominator) == 1, f"{text!r} is not in lowest terms"
    return Fraction(numerator, denominator)


def check_decimal(text: str, value: Fraction, digits: int) -> None:
    """*text* has exactly *digits* places and is *value* rounded to them."""
    pattern = r"-?\d+" + (rf"\.\d{{{digits}}}" if digits else "")
    assert re.fullmatch(pattern, text), f"{text!r} does not have {digits} decimal places"
    assert abs(Fraction(text) - value) <= Fraction(1, 2 * 10**digits), (text, value)


def check_square_root(text: str, square: Fraction, digits: int) -> None:
    """*text* has *digits* places and is the square root of *square*, correctly rounded."""
    pattern = r"\d+" + (rf"\.\d{{{digits}}}" if digits else "")
    assert re.fullmatch(pattern, text), f"{text!r} does not have {digits} decimal places"
    half = Fraction(1, 2 * 10**digits)
    shown = Fraction(text)
    assert max(shown - half, Fraction(0)) ** 2 <= square <= (shown + half) ** 2, (text, square)


def falling_product(cards: int) -> int:
    """How many ordered six-card sequences a shoe of *cards* cards holds."""
    return math.prod(range(cards - 5, cards + 1))


def check_contract(data: dict[str, Any], digits: int) -> None:
    """The ``--format json`` contract, for any shoe and rules."""
    assert set(data) == {"shoe", "rules", "total", "outcomes", "bets"}
    total = data["total"]
    assert type(total) is int
    assert total == falling_product(data["shoe"]["cards"])
    assert sum(data["shoe"]["ranks"].values()) == data["shoe"]["cards"]
    assert list(data["shoe"]["ranks"]) == list(RANK_SYMBOLS)
    assert list(data["outcomes"]) == ["banker", "player", "tie"]
    assert sum(outcome["count"] for outcome in data["outcomes"].values()) == total
    for outcome in data["outcomes"].values():
        assert type(outcome["count"]) is int
        probability = exact(outcome["probability"])
        assert probability == Fraction(outcome["count"], total)
        check_decimal(outcome["decimal"], probability, digits)
    assert list(data["bets"]) == ["banker", "player", "tie"]
    for bet in data["bets"].values():
        assert set(bet) == BET_KEYS
        for key in EXACT_BET_FIGURES:
            if bet[key] is not None:
                check_decimal(bet[f"{key}_decimal"], exact(bet[key]), digits)
        assert exact(bet["house_edge"]) == -exact(bet["ev"])
        fee = exact(data["rules"].get("fee", "0"))
        assert exact(bet["rtp"]) == (1 + exact(bet["ev"])) / (1 + fee)
        probabilities = ("win_probability", "push_probability", "loss_probability")
        assert sum(exact(bet[key]) for key in probabilities) == 1
        assert sum(bet["outcome_counts"].values()) == total
        assert sum(exact(entry["probability"]) for entry in bet["distribution"]) == 1
        mean = sum(
            exact(entry["result"]) * exact(entry["probability"]) for entry in bet["distribution"]
        )
        assert mean == exact(bet["ev"])
        check_square_root(bet["standard_deviation_decimal"], exact(bet["variance"]), digits)
        assert bet["house_edge_percent"].endswith("%")
        check_decimal(
            bet["house_edge_percent"][:-1], exact(bet["house_edge"]) * 100, max(digits - 2, 0)
        )


def check_against_library(data: dict[str, Any], shoe: Shoe, rules: Rules) -> None:
    """Every exact figure in *data* equals what ``analyze(shoe, rules)`` computes."""
    analysis = analyze(shoe, rules)
    assert data["total"] == analysis.total
    assert data["shoe"]["ranks"] == shoe.to_dict()
    assert data["shoe"]["suits_known"] == shoe.suits_known
    for name, outcome in analysis.outcomes.items():
        assert data["outcomes"][name]["count"] == outcome.count
    for name, result in analysis.bets.items():
        bet = data["bets"][name]
        assert exact(bet["ev"]) == result.expected_value
        assert exact(bet["house_edge"]) == result.house_edge
        assert exact(bet["variance"]) == result.variance
        assert exact(bet["win_probability"]) == result.win_probability
        assert exact(bet["push_probability"]) == result.push_probability
        assert exact(bet["loss_probability"]) == result.loss_probability


def probabilities(data: dict[str, Any]) -> dict[str, Fraction]:
    """Outcome name -> exact probability."""
    return {name: exact(outcome["probability"]) for name, outcome in data["outcomes"].items()}


def edges(data: dict[str, Any]) -> dict[str, str]:
    """Bet name -> house edge percentage string."""
    return {name: bet["house_edge_percent"] for name, bet in data["bets"].items()}


# odds: the default 8-deck shoe ------------------------------------------------


def test_odds_table_default_eight_decks() -> None:
    result = run_ok("odds")
    lines = result.stdout.splitlines()
    assert lines[:5] == [  # the rules line wrapped to fit 100 columns (tests/test_width.py)
        "Shoe: 416 cards (8 decks), suits known",
        "Rules: standard tableau; Banker pays 1:1 less 5% commission; Tie pays 8:1; "
        "Player and Banker push on",
        "  a tie",
        "Rounds: 4,998,398,275,503,360 ordered six-card sequences",
        "",
    ]
    assert re.search(r"Banker\s+2,292,252,566,437,888\s+0\.4585974226$", result.stdout, re.M)
    assert re.search(r"Player\s+2,230,518,282,592,256\s+0\.4462466093$", result.stdout, re.M)
    assert re.search(r"Tie\s+475,627,426,473,216\s+0\.0951559680$", result.stdout, re.M)
    for header in ("Outcome", "Combinations", "Probability", "Bet", "EV", "House edge"):
        assert header in result.stdout
    assert re.search(r"^banker\s+-0\.0105790578\s+1\.05790578%", result.stdout, re.M)
    assert re.search(r"^player\s+-0\.0123508133\s+1\.23508133%", result.stdout, re.M)
    assert re.search(r"^tie\s+-0\.1435962878\s+14\.35962878%", result.stdout, re.M)
    assert "Exact" not in result.stdout
    assert "/" not in result.stdout


def test_odds_json_contract_default() -> None:
    data = odds_json()
    check_contract(data, digits=10)
    shoe = data["shoe"]
    assert shoe["cards"] == 416
    assert shoe["decks"] == 8
    assert shoe["suits_known"] is True
    assert shoe["ranks"] == dict.fromkeys(RANK_SYMBOLS, 32)
    assert data["total"] == TOTAL_8_DECKS
    assert data["rules"] == {
        "tableau": "standard",
        "variant": "standard",
        "commission": "1/20",
        "tie_pays": "8",
        "ties": "push",
        "banker_six_pays": None,
    }
    counts = {name: outcome["count"] for name, outcome in data["outcomes"].items()}
    assert counts == {"banker": BANKER_COUNT, "player": PLAYER_COUNT, "tie": TIE_COUNT}
    assert data["outcomes"]["banker"]["probability"] == "8954111587648/19524993263685"
    assert data["outcomes"]["banker"]["decimal"] == "0.4585974226"
    banker = data["bets"]["banker"]
    assert banker["ev"] == "-114753351728/10847218479825"
    assert banker["ev_decimal"] == "-0.0105790578"
    assert banker["pays"] == {"lose": "-1", "tie": "0", "win": "19/20"}
    assert data["bets"]["tie"]["pays"] == {"lose": "-1", "win": "8"}
    assert data["bets"]["tie"]["push_probability"] == "0"
    check_against_library(data, Shoe.standard(decks=8), Rules())


def test_odds_json_is_raw_json_numbers_not_strings() -> None:
    text = run_ok("odds", "--format", "json").stdout
    assert '"count": 2292252566437888' in text
    assert '"total": 4998398275503360' in text


def test_published_house_edges_eight_decks() -> None:
    data = odds_json("--digits", "6")
    check_contract(data, digits=6)
    assert edges(data) == {"banker": "1.0579%", "player": "1.2351%", "tie": "14.3596%"}


@pytest.mark.parametrize("digits", [0, 3, 25])
def test_digits_sets_decimal_places_in_json(digits: int) -> None:
    data = odds_json("--digits", str(digits))
    check_contract(data, digits=digits)


def test_odds_csv_agrees_with_json() -> None:
    header, rows = odds_csv()
    data = odds_json()
    assert header == CSV_COLUMNS
    assert [(row["kind"], row["name"]) for row in rows] == [
        ("outcome", "banker"),
        ("outcome", "player"),
        ("outcome", "tie"),
        ("bet", "banker"),
        ("bet", "player"),
        ("bet", "tie"),
    ]
    for row in rows[:3]:
        outcome = data["outcomes"][row["name"]]
        assert int(row["count"]) == outcome["count"]
        assert row["probability"] == outcome["probability"]
        assert exact(row["probability"]) == Fraction(outcome["count"], data["total"])
        assert row["probability_decimal"] == outcome["decimal"]
        assert all(row[column] == "" for column in CSV_COLUMNS[5:])
    for row in rows[3:]:
        bet = data["bets"][row["name"]]
        assert row["count"] == row["probability"] == row["probability_decimal"] == ""
        assert row["computable"] == "true" and row["reason"] == ""
        for column in CSV_COLUMNS[5:-2]:
            assert row[column] == bet[column], column
    counts = {row["name"]: int(row["count"]) for row in rows[:3]}
    assert counts == {"banker": BANKER_COUNT, "player": PLAYER_COUNT, "tie": TIE_COUNT}


def test_odds_csv_digits() -> None:
    _, rows = odds_csv("--digits", "4")
    assert rows[0]["probability_decimal"] == "0.4586"
    assert rows[3]["ev_decimal"] == "-0.0106"


# odds: options ---------------------------------------------------------------


def test_decks_six() -> None:
    data = odds_json("--decks", "6", "--digits", "6")
    check_contract(data, digits=6)
    assert data["shoe"]["cards"] == 312
    assert data["shoe"]["decks"] == 6
    assert data["total"] == falling_product(312)
    assert edges(data) == {"banker": "1.0558%", "player": "1.2374%", "tie": "14.4382%"}
    check_against_library(data, Shoe.standard(decks=6), Rules())
    assert run_ok("odds", "--decks", "6").stdout.startswith("Shoe: 312 cards (6 decks)")


def test_remove_spellings_agree() -> None:
    spaced = odds_json("--decks", "6", "--remove", "A K 7 7 T")
    assert odds_json("--decks", "6", "--remove", "AK77T") == spaced
    assert odds_json("--decks", "6", "--remove", "a k 7 7 10") == spaced
    assert odds_json("--decks", "6", "--remove", "A K", "--remove", "77T") == spaced
    check_contract(spaced, digits=10)
    ranks = dict.fromkeys(RANK_SYMBOLS, 24) | {"A": 23, "K": 23, "7": 22, "T": 23}
    assert spaced["shoe"] == {"cards": 307, "decks": None, "suits_known": False, "ranks": ranks}
    check_against_library(spaced, Shoe.standard(decks=6).remove("A K 7 7 T"), Rules())


def test_remove_with_suits_keeps_suits_known() -> None:
    data = odds_json("--decks", "1", "--remove", "KS,7H")
    assert data["shoe"]["suits_known"] is True
    assert data["shoe"]["ranks"]["K"] == 3
    assert data["shoe"]["ranks"]["7"] == 3


SPEC = "A=4,2=4,3=4,T=16,K=4"
SPEC_RANKS = dict.fromkeys(RANK_SYMBOLS, 0) | {"A": 4, "2": 4, "3": 4, "T": 16, "K": 4}


def test_shoe_spec() -> None:
    data = odds_json("--shoe", SPEC)
    check_contract(data, digits=10)
    assert data["shoe"] == {"cards": 32, "decks": None, "suits_known": False, "ranks": SPEC_RANKS}
    check_against_library(data, Shoe.from_ranks(SPEC_RANKS), Rules())
    assert odds_json("--shoe", "A:4; 2:4; 3:4; 10:16; K:4") == data
    assert run_ok("odds", "--shoe", SPEC).stdout.startswith("Shoe: 32 cards, suits not known")


def test_shoe_spec_of_eight_full_decks_matches_default_counts() -> None:
    spec = ",".join(f"{rank}=32" for rank in RANK_SYMBOLS)
    data = odds_json("--shoe", spec)
    default = odds_json()
    assert data["outcomes"] == default["outcomes"]
    assert data["bets"] == default["bets"]
    assert data["shoe"]["suits_known"] is False


def test_shoe_json_with_suits() -> None:
    data = odds_json("--shoe", '{"KS": 8, "KH": 8, "AS": 2}')
    assert data["shoe"]["suits_known"] is True
    assert data["shoe"]["cards"] == 18
    assert data["shoe"]["ranks"]["K"] == 16


def test_shoe_files(tmp_path: Path) -> None:
    inline = odds_json("--shoe", SPEC)
    spec_file = tmp_path / "shoe.txt"
    spec_file.write_text(SPEC + "\n", encoding="utf-8")
    json_file = tmp_path / "shoe.json"
    json_file.write_text(json.dumps(SPEC_RANKS), encoding="utf-8")
    assert odds_json("--shoe", str(spec_file)) == inline
    assert odds_json("--shoe", str(json_file)) == inline


def test_shoe_stdin() -> None:
    inline = odds_json("--shoe", SPEC)
    assert odds_json("--shoe", "-", input=SPEC + "\n") == inline
    assert odds_json("--shoe", "-", input=json.dumps(SPEC_RANKS)) == inline


@pytest.mark.parametrize("name", ["shoe=1.txt", "a:b.json"])
def test_shoe_file_whose_name_contains_equals_or_colon(tmp_path: Path, name: str) -> None:
    # --shoe is documented as SPEC|FILE|-: a file that exists must be read, even
    # when its name contains "=" or ":" (as "shoe=1.txt" or a Windows "C:\\..." path).
    path = tmp_path / name
    path.write_text(SPEC, encoding="utf-8")
    assert odds_json("--shoe", str(path)) == odds_json("--shoe", SPEC)


@pytest.mark.parametrize("commission", ["4%", "0.04", "1/25"])
def test_commission_spellings_agree(commission: str) -> None:
    data = odds_json("--commission", commission)
    check_contract(data, digits=10)
    assert data["rules"]["commission"] == "1/25"
    chance = probabilities(data)
    assert (
        exact(data["bets"]["banker"]["ev"])
        == Fraction(24, 25) * chance["banker"] - chance["player"]
    )
    assert data["bets"]["banker"]["pays"]["win"] == "24/25"
    check_against_library(data, Shoe.standard(decks=8), Rules(commission=Fraction(1, 25)))
    table = run_ok("odds", "--commission", commission).stdout
    assert "Banker pays 1:1 less 4% commission" in table


def test_commission_spellings_give_identical_output() -> None:
    outputs = {run_ok("odds", "--commission", text).stdout for text in ("4%", "0.04", "1/25")}
    assert len(outputs) == 1


@pytest.mark.parametrize("tie_pays", ["9", "9:1", "9/1"])
def test_tie_pays_spellings_agree(tie_pays: str) -> None:
    data = odds_json("--tie-pays", tie_pays, "--digits", "6")
    assert data["rules"]["tie_pays"] == "9"
    tie = data["bets"]["tie"]
    assert tie["pays"] == {"lose": "-1", "win": "9"}
    assert exact(tie["ev"]) == 10 * probabilities(data)["tie"] - 1
    assert tie["house_edge_percent"] == "4.8440%"  # published 9:1 Tie edge
    assert "Tie pays 9:1" in run_ok("odds", "--tie-pays", tie_pays).stdout


def test_tie_pays_spellings_give_identical_output() -> None:
    outputs = {run_ok("odds", "--tie-pays", text).stdout for text in ("9", "9:1", "9/1")}
    assert len(outputs) == 1


def test_tie_loses() -> None:
    data = odds_json("--tie-loses")
    check_contract(data, digits=10)
    assert data["rules"]["ties"] == "lose"
    chance = probabilities(data)
    player = data["bets"]["player"]
    assert exact(player["ev"]) == chance["player"] - chance["banker"] - chance["tie"]
    assert exact(data["bets"]["banker"]["ev"]) == (
        Fraction(19, 20) * chance["banker"] - chance["player"] - chance["tie"]
    )
    assert player["push_probability"] == "0"
    assert player["house_edge_per_resolved_bet"] == player["house_edge"]
    check_against_library(data, Shoe.standard(decks=8), Rules(ties_push=False))
    pushing = odds_json()
    assert exact(player["ev"]) < exact(pushing["bets"]["player"]["ev"])
    assert "Player and Banker lose on a tie" in run_ok("odds", "--tie-loses", "--wide").stdout


@pytest.mark.parametrize(
    ("variant", "banker_edge", "rules_text"),
    [
        ("ez", "1.0183%", "EZ Baccarat: no commission, a Banker win with a three-card 7 pushes"),
        ("super6", "1.4581%", "Super 6: no commission, a winning Banker 6 pays 1:2"),
    ],
)
def test_variants(variant: str, banker_edge: str, rules_text: str) -> None:
    data = odds_json("--variant", variant, "--digits", "6")
    check_contract(data, digits=6)
    assert data["rules"]["variant"] == variant
    assert data["rules"]["commission"] == "0"
    assert edges(data) == {"banker": banker_edge, "player": "1.2351%", "tie": "14.3596%"}
    check_against_library(data, Shoe.standard(decks=8), Rules(variant=variant))
    assert rules_text in run_ok("odds", "--variant", variant).stdout


def test_variant_accepts_explicit_zero_commission() -> None:
    assert odds_json("--variant", "ez", "--commission", "0") == odds_json("--variant", "ez")


def test_digits_three_table() -> None:
    table = run_ok("odds", "--digits", "3").stdout
    assert re.search(r"Banker\s+2,292,252,566,437,888\s+0\.459$", table, re.M)
    assert re.search(r"^banker\s+-0\.011\s+1\.1%", table, re.M)
    assert re.search(r"^tie\s+-0\.144\s+14\.4%", table, re.M)


def test_exact_adds_fractions_to_table() -> None:
    table = run_ok("odds", "--exact").stdout
    assert "Exact" in table
    assert "Exact EV" in table
    assert re.search(r"^Banker\s+2,292,252,566,437,888.*8954111587648/19524993263685$", table, re.M)
    # Beside the EV in the default (fitted) table; last in the wide one (tests/test_width.py).
    exact_ev = "-114753351728/10847218479825"
    assert re.search(rf"^banker\s+-0\.0105790578\s+{exact_ev}\s", table, re.M)
    assert re.search(rf"^banker\s.*{exact_ev}$", run_ok("odds", "--exact", "--wide").stdout, re.M)
    assert (
        run_ok("odds", "--exact").stdout.splitlines()[:3] == run_ok("odds").stdout.splitlines()[:3]
    )


# Version and help ---------------------------------------------------------------


def test_version() -> None:
    result = run_ok("--version")
    assert version("exactodds") in result.stdout
    assert result.stdout == (
        f"exactodds, version {version('exactodds')}\ncompiled kernel: in use\n"
        if native_module() is not None
        else f"exactodds, version {version('exactodds')}\n"
        "compiled kernel: not built; the exact pure-Python twin runs (slower)\n"
    )


@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_group_help(flag: str) -> None:
    result = run_ok(flag)
    assert result.stdout.startswith("Usage: exactodds [OPTIONS] COMMAND [ARGS]...")
    assert "Exact odds of baccarat" in result.stdout
    assert "odds" in result.stdout


@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_odds_help_has_examples(flag: str) -> None:
    result = run_ok("odds", flag)
    assert "Examples:" in result.stdout
    assert "exactodds odds --decks 6 --remove" in result.stdout
    for option in ("--decks", "--shoe", "--remove", "--variant", "--commission", "--tie-pays"):
        assert option in result.stdout
    for option in ("--tie-loses", "--format", "--digits", "--exact"):
        assert option in result.stdout


def test_every_command_has_help_with_examples() -> None:
    assert isinstance(cli, click.Group)
    context = click.Context(cli)
    names = cli.list_commands(context)
    assert names
    for name in names:
        command = cli.get_command(context, name)
        assert command is not None, name
        assert command.help, name
        result = run_ok(name, "--help")
        assert "Examples:" in result.stdout, name
        assert f"exactodds {name}" in result.stdout, name


def test_help_examples_run() -> None:
    # Every example line in `odds --help` is a working command.
    text = run_ok("odds", "--help").stdout
    examples = re.findall(r"^\s+exactodds (odds[^#\n]*?)\s*(?:#.*)?$", text, re.M)
    assert len(examples) >= 5
    for example in examples:
        run_ok(*shlex.split(example))


# Bad input ------------------------------------------------------------------------

BAD_JSON = '{"A": 4,'

BAD_INPUTS: list[tuple[list[str], str | None, list[str]]] = [
    # (arguments, stdin, fragments the one-line message must contain)
    (["odds", "--remove", "A Z 7"], None, ["'Z'"]),
    (["odds", "--decks", "0"], None, ["decks 0 "]),
    (["odds", "--decks", "-3"], None, ["-3"]),
    (["odds", "--decks", "abc"], None, ["'abc'"]),
    (["odds", "--decks", "1.5"], None, ["'1.5'"]),
    (["odds", "--decks", ""], None, ["''"]),
    (["odds", "--decks", "1", "--remove", "A A A A A"], None, ["5 A", "4"]),
    (["odds", "--shoe", "A=4,K=4", "--remove", "KKKKK"], None, ["5 K", "4"]),
    (["odds", "--shoe", "A=x"], None, ["'x'"]),
    (["odds", "--shoe", "A32"], None, ["'A32'"]),
    (["odds", "--shoe", "Z=4"], None, ["'Z'"]),
    (["odds", "--shoe", ""], None, ["''"]),
    (["odds", "--shoe", "A=4,K=4,A=2"], None, ["'A'", "twice"]),
    (["odds", "--shoe", "-"], BAD_JSON, ["malformed", "line 1 column 9"]),
    (["odds", "--shoe", "-"], "[1, 2, 3]", ["list", "not an object"]),
    (["odds", "--shoe", "-"], '{"A": -4, "K": 10}', ["-4", "'A'"]),
    (["odds", "--shoe", "-"], '{"A": 4.5, "K": 10}', ["4.5", "'A'"]),
    (["odds", "--shoe", "-"], '{"A": true, "K": 10}', ["Count true", "'A'"]),
    (["odds", "--shoe", "-"], "", ["''"]),
    (["odds", "--shoe", "A=2,K=3"], None, ["5 cards", "6"]),
    (["odds", "--shoe", "-"], "{}", ["0 cards"]),
    (["odds", "--commission", "150%"], None, ["'150%'"]),
    (["odds", "--commission", "5"], None, ["'5'", "did you mean 5%"]),
    (["odds", "--commission", "abc"], None, ["'abc'"]),
    (["odds", "--commission", "1/0"], None, ["'1/0'"]),
    (["odds", "--tie-pays", "-1"], None, ["'-1'"]),
    (["odds", "--tie-pays", "0"], None, ["'0'"]),
    (["odds", "--tie-pays", "abc"], None, ["'abc'"]),
    (["odds", "--variant", "nope"], None, ["'nope'"]),
    (["odds", "--variant", "ez", "--commission", "5%"], None, ["EZ Baccarat", "5%"]),
    (["odds", "--decks", "6", "--shoe", SPEC], None, ["--decks", "--shoe"]),
    (["odds", "--shoe", "/nonexistent-dir/no-such-shoe.json"], None, ["no-such-shoe.json"]),
    (["odds", "--digits", "-1"], None, ["-1"]),
    (["odds", "--digits", "abc"], None, ["'abc'"]),
    (["odds", "--format", "xml"], None, ["'xml'"]),
    (["nope"], None, ["'nope'"]),
    (["odds", "--nope"], None, ["'--nope'"]),
    (["--nope"], None, ["'--nope'"]),
]


@pytest.mark.parametrize(
    ("arguments", "stdin", "fragments"),
    BAD_INPUTS,
    ids=[
        " ".join(arguments) + (f" <<< {stdin!r}" if stdin is not None else "")
        for arguments, stdin, _ in BAD_INPUTS
    ],
)
def test_bad_input_is_one_line_usage_error(
    arguments: list[str], stdin: str | None, fragments: list[str]
) -> None:
    result = run(*arguments, input=stdin)
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert isinstance(result.exception, SystemExit), result.exception
    assert result.stdout == ""
    assert result.stderr.startswith("Error: "), result.stderr
    assert result.stderr.endswith("\n")
    assert result.stderr.count("\n") == 1, result.stderr
    assert "Traceback" not in result.stderr
    for fragment in fragments:
        assert fragment in result.stderr, (fragment, result.stderr)


def test_missing_shoe_file_in_tmp_path(tmp_path: Path) -> None:
    missing = tmp_path / "gone.json"
    result = run("odds", "--shoe", str(missing))
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (
        f"Error: Shoe {str(missing)!r} is neither a spec such as A=32,2=32,...,K=32 "
        "nor a file that exists.\n"
    )


def test_unreadable_shoe_file(tmp_path: Path) -> None:
    binary = tmp_path / "shoe.bin"
    binary.write_bytes(b"\xff\xfe\x00")
    result = run("odds", "--shoe", str(binary))
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith(f"Error: Cannot read shoe file {str(binary)!r}")
    assert result.stderr.count("\n") == 1


def test_running_one_command_imports_no_other_command() -> None:
    # The group imports a command's module only when that command runs.
    code = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from exactodds.cli import COMMANDS, cli\n"
        "result = CliRunner().invoke(cli, ['odds', '--decks', '1'])\n"
        "assert result.exit_code == 0, result.output\n"
        "loaded = sorted(name for name in COMMANDS if f'exactodds.cli.{name}' in sys.modules)\n"
        "print(loaded)\n"
    )
    completed = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert completed.stdout.strip() == "['odds']"
