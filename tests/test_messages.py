"""The library speaks in its own parameters; each skin maps them to its own words, once.

A library error names the Python parameter or field it is about (in backquotes,
:func:`exactodds.errors.parameter`), never a command-line flag; the command line writes each
as its flag (:func:`exactodds.cli.app.flag`) and the web API as its JSON field
(:func:`exactodds.web.fields.field`).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest
from click.testing import CliRunner

from exactodds import Rules, Shoe
from exactodds.advantage.depth import parse_depths, parse_known_counts
from exactodds.analysis.known import KNOWN_SUITS_MISSING, analyze_known
from exactodds.analysis.removal import effect_of_removal
from exactodds.analysis.single import SUITS_UNKNOWN
from exactodds.analysis.symbolic import price
from exactodds.bets.catalogue import select_bets
from exactodds.bets.paytables import parse_pay_option
from exactodds.cli import cli
from exactodds.cli.app import flag, flag_words
from exactodds.errors import ExactOddsError
from exactodds.interface import build_bets, build_rules, build_shoe
from exactodds.numbers import parse_commission, parse_pay
from exactodds.simulation.dealing import DealingProcedure
from exactodds.simulation.risk.questions import RiskQuestions
from exactodds.simulation.run import simulate
from exactodds.simulation.staking.stakes import TableLimits, parse_stake
from exactodds.simulation.strategies import parse_plays
from exactodds.simulation.study import Simulation
from exactodds.specs import (
    audit_spec,
    parse_edge_window,
    parse_pay_range,
    parse_sweeps,
    parse_threshold,
    simulation_spec,
    sizing_from_options,
)
from exactodds.studies.audit import AuditSpec, Thresholds
from exactodds.studies.design import design_paytables
from exactodds.web.fields import field_words

#: A flag as the command line spells it: two dashes and a lower-case word.
FLAG = re.compile(r"(?<![\w-])--[a-z]")

#: Bad calls of the library, each refused with one sentence.
BAD_CALLS: dict[str, Callable[[], Any]] = {
    "shoe and decks": lambda: build_shoe("8", "A=4", ()),
    "bad removed card": lambda: build_shoe(None, None, ("AZ",)),
    "commission": lambda: build_rules("standard", "5", "8", False),
    "tie pays": lambda: build_rules("standard", None, "eight", False),
    "ez commission": lambda: Rules(variant="ez", commission=Fraction(1, 20)),
    "pay value": lambda: parse_pay_option("dragon7=x"),
    "tie as a pay": lambda: select_bets("tie", pays={"tie": 9}),
    "banker as a pay": lambda: build_bets(Rules(), "banker", ("banker=1",)),
    "pay": lambda: parse_pay("0", "`tie_pays`"),
    "commission number": lambda: parse_commission("2", "`commission`"),
    "no bets": lambda: Simulation.of(10, 1, bets=[]),
    "risk": lambda: RiskQuestions(risk=Fraction(2)),
    "rounds per hour": lambda: RiskQuestions(rounds_per_hour=0),
    "kelly without bankroll": lambda: Simulation.of(
        10, 1, **sizing_from_options(DealingProcedure(), "kelly:1/2")
    ),
    "bankroll": lambda: sizing_from_options(DealingProcedure(), bankroll="-5"),
    "table limits": lambda: TableLimits(minimum=5, maximum=2),
    "chip": lambda: TableLimits(chip=0),
    "stake over the maximum": lambda: parse_stake("ramp:0=1,1%=500", TableLimits(maximum=100)),
    "play": lambda: parse_plays(["lucky7=always"], ["dragon7"]),
    "play twice": lambda: parse_plays(["tie=always", "tie=perfect"], ["tie"]),
    "sweep": lambda: parse_sweeps(["colour=red"]),
    "resume": lambda: simulate(Simulation.of(1, 1), resume=True),
    "depths": lambda: parse_depths("x"),
    "left known": lambda: parse_known_counts(["9"]),
    "max tag": lambda: effect_of_removal(Shoe.standard(1), max_tag=0),
    "audit budget": lambda: AuditSpec(select_bets("dragon7"), budget=0),
    "audit no bets": lambda: AuditSpec([]),
    "audit threshold": lambda: Thresholds(max_bet=Fraction(0)),
    "audit rounds per hour": lambda: Thresholds(rounds_per_hour=0),
    "audit threshold text": lambda: parse_threshold("-1", "thresholds.units_per_100_rounds"),
    "audit spec threshold": lambda: audit_spec(
        select_bets("dragon7"), Rules(), DealingProcedure(), safe_per_hour="x"
    ),
    "min edge": lambda: simulation_spec(
        1, 1, Rules(), select_bets("tie"), DealingProcedure(), min_edge="x"
    ),
    "negative pay": lambda: build_bets(Rules(), "dragon7", {"dragon7": -1}),
    "pay object": lambda: build_bets(Rules(), "lucky6", {"lucky6": {"three_card_win": None}}),
    "limits not whole chips": lambda: TableLimits(minimum=5, chip=3),
    "seed": lambda: Simulation.of(10, -1),
    "suited bet on a shoe by rank": lambda: price(Shoe.standard(1).remove("K"), "perfect_pair"),
    "design range": lambda: parse_pay_range("win=40..10"),
    "design window": lambda: parse_edge_window("8%..x"),
    "design no ranges": lambda: design_paytables(
        select_bets("dragon7")[0], [], (Fraction(0), Fraction(1))
    ),
    "design top": lambda: design_paytables(
        select_bets("dragon7")[0],
        [parse_pay_range("win=40..41")],
        (Fraction(0), Fraction(1)),
        top=-1,
    ),
}


def test_the_reasons_a_suited_bet_is_not_priced_name_no_flag() -> None:
    """They are data (``reason`` in odds and batch output), read by callers of every kind."""
    for reason in (SUITS_UNKNOWN, KNOWN_SUITS_MISSING):
        assert not FLAG.search(reason) and "`" not in reason, reason
    analysis = analyze_known(Shoe.standard(1), Rules(), ["1=K"], select_bets("perfect_pair"))
    assert analysis.unavailable == {"perfect_pair": KNOWN_SUITS_MISSING}


@pytest.mark.parametrize("call", BAD_CALLS.values(), ids=list(BAD_CALLS))
def test_library_errors_name_no_command_line_flag(call: Callable[[], Any]) -> None:
    with pytest.raises(ExactOddsError) as caught:
        call()
    message = str(caught.value)
    assert not FLAG.search(message), message
    assert message.endswith("."), message


def test_the_list_of_bad_calls_is_long_and_varied() -> None:
    assert len(BAD_CALLS) >= 15
    named = set()
    for call in BAD_CALLS.values():
        with pytest.raises(ExactOddsError) as caught:
            call()
        named |= set(re.findall(r"`([\w.]+)`", str(caught.value)))
    assert {"decks", "commission", "tie_pays", "bets", "bankroll", "limits.minimum"} <= named
    assert {"budget", "thresholds.max_bet", "ranges", "window", "top"} <= named


def test_the_command_line_writes_each_parameter_as_its_flag() -> None:
    assert flag("commission") == "--commission"
    assert flag("selection") == flag("bets") == "--bets"
    assert flag("pays") == flag("pay") == "--pay"
    assert flag("limits.minimum") == "--table-min"
    assert flag_words("Use `variant` standard or `tie_pays` 9.") == (
        "Use --variant standard or --tie-pays 9."
    )


def test_the_command_line_still_names_its_flags() -> None:
    result = CliRunner().invoke(cli, ["odds", "--decks", "8", "--shoe", "A=4"])
    assert result.exit_code == 2
    assert "--decks and --shoe both describe the shoe" in result.stderr
    assert "`" not in result.stderr
    result = CliRunner().invoke(cli, ["odds", "--commission", "5"])
    assert result.exit_code == 2
    assert "for --commission is not valid" in result.stderr


@pytest.mark.parametrize(
    ("arguments", "sentence"),
    [
        (["--budget", "0"], "Error: Number of shoes 0 for --budget is not valid;"),
        (["--safe-units", "0"], "Error: --safe-units '0' is not valid;"),
        (["--max-bet", "-1"], "Error: --max-bet '-1' is not valid;"),
        (["--rounds-per-hour", "0"], "Error: --rounds-per-hour is 0; use a whole number"),
        (["--depths", "x"], "Error: --depths 'x' is not a number of cards;"),
        (["--cuts", "y"], "Error: --cuts 'y' is not a number of cards;"),
        (["--design", "win=40..10"], "Error: Pay range 'win=40..10' for --design is empty;"),
        (["--design", "win=1..2", "--target-edge", "8..x"], "window '8..x' for --target-edge"),
        (
            ["--design", "win=1..2", "--design-top", "-1"],
            "Error: --design-top is -1; use a whole number of at least 0.",
        ),
        (["--format", "xlsx"], "Error: --format xlsx writes a file; give --output FILE."),
    ],
)
def test_the_audit_names_its_flags(arguments: list[str], sentence: str) -> None:
    result = CliRunner().invoke(cli, ["audit", "--bets", "dragon7", "--decks", "1", *arguments])
    assert result.exit_code == 2, result.stderr
    assert sentence in result.stderr and result.stderr.count("\n") == 1, result.stderr
    assert "`" not in result.stderr and result.stdout == ""


def test_a_par_sheet_without_sympy_names_its_breakeven_parameter(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The library names ``breakeven``; the command line writes it as its flag."""
    from exactodds.errors import MissingExtraError
    from exactodds.studies.parsheet import par_sheet

    monkeypatch.setitem(sys.modules, "sympy", None)  # as if the extra were not installed
    with pytest.raises(MissingExtraError) as caught:
        par_sheet(Shoe.standard(decks=1), Rules(), select_bets("tie"))
    message = str(caught.value)
    assert "`breakeven`" in message and not FLAG.search(message), message
    assert "--breakeven" in flag_words(message)


def test_the_web_writes_each_parameter_as_its_json_field() -> None:
    assert field_words("`selection` and `pays` and `tie_pays`") == "'bets' and 'pay' and 'tie_pays'"


def test_the_web_names_the_json_field_of_a_bad_pay() -> None:
    from starlette.testclient import TestClient

    from exactodds.web.app import create_app

    with TestClient(create_app(":memory:"), base_url="http://127.0.0.1:8000") as client:
        response = client.post("/api/odds", json={"bets": "dragon7", "pay": {"dragon7": "x"}})
    assert 400 <= response.status_code < 500
    message = response.json()["error"]
    assert "'pay' dragon7" in message, message
    assert not FLAG.search(message) and "`" not in message, message
