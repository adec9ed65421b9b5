"""A tracked table reviewed (``exactodds review --db FILE --table-id ID``).

The tracker's database records cards, not bets: a tracked table is reviewed for the
``--stake`` bets placed on every round. The database here is made by the tracker's own store
(``exactodds.web.store.Store``), and its review is the review of the same rounds written as a
log, with the table's settings given as options: every figure alike, the burns shown, a
misdeal's cards and the cards entered without a place taken as seen before the next round.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from cli_runner import run, run_ok

from exactodds.interface import build_bets, build_rules
from exactodds.web.store import Store
from exactodds.web.tracker import Event, TableSettings

ZERO_COUNT = ",".join("0" * 13)
# A count named for each bet, so that no effect of removal is derived (the tests stay fast).
COUNTS = ("--count", f"banker={ZERO_COUNT}", "--count", f"dragon7={ZERO_COUNT}")


def dealt(player: Sequence[str], banker: Sequence[str]) -> list[Event]:
    """A round's events as the tracker records them: each card at its place, then its end."""
    events = []
    for place, (first, second) in enumerate(zip(player[:2], banker[:2], strict=True), 1):
        events += [Event("player", first, place), Event("banker", second, place)]
    events += [Event("player", card, 3) for card in player[2:]]
    events += [Event("banker", card, 3) for card in banker[2:]]
    return [*events, Event("end")]


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("tracker") / "tracker.sqlite3"
    rules = build_rules("standard", None, "9", False)
    settings = TableSettings(
        1, False, rules, tuple(build_bets(rules, "main,dragon7", ["dragon7=30"]))
    )
    store = Store(path)
    first = store.create(
        "Table 1",
        settings,
        events=[
            Event("burn", "7"),
            *dealt("83", "T9"),
            Event("player", "9", 1),
            Event("banker", "9", 1),
            Event("misdeal"),
            *dealt("24", "35"),
        ],
    )
    second = store.finish(first.id)
    store.append(second.id, [Event("card", "Q"), *dealt("AK9", "672")])
    store.create("Table 2", TableSettings(decks=2))  # another table, not reviewed
    store.close()
    return path


LOG = (
    '{"shoe": "1", "burn": "7", "cards": "8 T 3 9", "bets": {"banker": 2, "dragon7": 1}}\n'
    '{"shoe": "1", "burn": "9 9", "cards": "2 3 4 5", "bets": {"banker": 2, "dragon7": 1}}\n'
    '{"shoe": "2", "burn": "Q", "cards": "A 6 K 7 9 2", "bets": {"banker": 2, "dragon7": 1}}\n'
)
STAKES = ("--stake", "banker=2", "--stake", "dragon7=1")


def figures(*arguments: str, log: str | None = None) -> dict[str, Any]:
    """The review's JSON without what names the source (its lines: the log's or the rounds')."""
    result = run_ok("review", *arguments, *COUNTS, "--format", "json", input=log)
    data: dict[str, Any] = json.loads(result.stdout)
    del data["log"]
    return data


def test_a_tracked_table_is_reviewed_as_the_log_of_its_rounds(database: Path) -> None:
    expected = figures("-", "--decks", "1", "--tie-pays", "9", "--pay", "dragon7=30", log=LOG)
    tracked = figures("--db", str(database), "--table-id", "1", *STAKES)
    assert tracked == expected
    assert tracked["shoes"] == 2 and tracked["rounds"] == 3
    # Any shoe of the table names it: the second shoe's id gives the same review.
    result = run_ok(
        "review", "--db", str(database), "--table-id", "2", *STAKES, *COUNTS, "--format", "json"
    )
    data = json.loads(result.stdout)
    assert data.pop("log") == f"the tracked table 'Table 1' (database '{database}')"
    assert data == expected


def test_an_option_wins_over_the_table_s_settings(database: Path) -> None:
    tracked = figures("--db", str(database), "--table-id", "1", *STAKES, "--decks", "2")
    assert tracked["shoe"]["A"] == 8
    assert tracked == figures(
        "-", "--decks", "2", "--tie-pays", "9", "--pay", "dragon7=30", log=LOG
    )


def test_the_default_stake_is_one_unit_on_the_banker(database: Path) -> None:
    result = run_ok(
        "review", "--db", str(database), "--table-id", "1", "--format", "json", *COUNTS[:2]
    )
    data = json.loads(result.stdout)
    assert list(data["bets"]) == ["banker"] and data["total"]["wagered"] == "3"


BAD = {
    "unknown id": (("--table-id", "9"), "No tracked shoe has id 9 in the database"),
    "no table id": ((), "--db and --table-id go together"),
    "a log too": (("--table-id", "1", "LOG"), "Give a LOG, or --db with --table-id, not both."),
    "a stake of 0": (("--table-id", "1", "--stake", "banker=0"), "--stake 'banker=0' is not"),
    "a table too": (("--table-id", "1", "--table", "ez"), "--table ez and the settings of"),
    "an empty table": (("--table-id", "3"), "has no round recorded yet"),
}


@pytest.mark.parametrize("name", list(BAD))
def test_bad_requests_are_one_sentence(name: str, database: Path, tmp_path: Path) -> None:
    arguments, words = BAD[name]
    log = tmp_path / "log.jsonl"
    log.write_text(LOG)
    given = [str(log) if word == "LOG" else word for word in arguments]
    result = run("review", "--db", str(database), *given)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and words in result.stderr, result.stderr


def test_without_a_log_or_a_database_is_one_sentence() -> None:
    result = run("review")
    assert result.exit_code == 2
    assert (
        result.stderr
        == "Error: Give a LOG (a file, or - for stdin), or --db FILE with --table-id ID.\n"
    )
    result = run("review", "-", "--stake", "banker=1", input=LOG)
    assert result.exit_code == 2 and "--stake places bets on a tracked table" in result.stderr


def test_a_table_whose_shoes_were_dealt_differently_is_one_sentence(tmp_path: Path) -> None:
    store = Store(tmp_path / "tracker.sqlite3")
    first = store.create("Table 1", TableSettings(decks=1), events=dealt("83", "T9"))
    second = store.finish(first.id)
    store.update(second.id, lambda shoe: TableSettings(decks=2))
    store.close()
    result = run("review", "--db", str(tmp_path / "tracker.sqlite3"), "--table-id", "1")
    assert result.exit_code == 2 and result.stdout == ""
    assert "were dealt with different settings; export each" in result.stderr
