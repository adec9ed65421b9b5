"""A review log's header (``exactodds review LOG``): the table it was dealt at, in the log.

* a header, as JSON lines' first object or as ``# key = value`` lines before a CSV's rows,
  prices the log exactly as the same settings given as options;
* an option on the command line wins over the header's setting (``--pay`` adds to its
  pays, a pay given winning); ``--table`` with a header is one sentence;
* bad headers: one sentence naming the line, exit 2, nothing written.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli_runner import run, run_ok

ROUNDS = (
    ("8 T 3 9", {"banker": 1, "dragon7": 1}),
    ("2 3 4 5", {"dragon7": 2, "tie": 1}),
    ("A 6 K 7 9 2", {"banker": 3}),
)
JSON_HEADER = '{"decks": 1, "variant": "ez", "tie_pays": 9, "pays": {"dragon7": 30}}\n'
CSV_HEADER = "# A comment, not a setting.\n# decks = 1\n# variant = ez\n# tie_pays = 9\n# pays = dragon7=30\n"
OPTIONS = ("--decks", "1", "--variant", "ez", "--tie-pays", "9", "--pay", "dragon7=30")
# A count named for each bet, so that no effect of removal is derived (the tests stay fast).
COUNTS = tuple(
    word
    for bet in ("banker", "dragon7", "tie")
    for word in ("--count", f"{bet}={','.join('0' * 13)}")
)


def json_rounds() -> str:
    return "".join(json.dumps({"cards": cards, "bets": bets}) + "\n" for cards, bets in ROUNDS)


def csv_rounds() -> str:
    names = ("banker", "dragon7", "tie")
    rows = [
        ",".join([cards, *(str(bets.get(name, "")) for name in names)]) for cards, bets in ROUNDS
    ]
    return "cards,banker,dragon7,tie\n" + "\n".join(rows) + "\n"


def figures(*arguments: str, log: str) -> dict[str, Any]:
    """The review's JSON without its header and lines (a header moves the rounds' lines)."""
    data: dict[str, Any] = json.loads(
        run_ok("review", "-", *COUNTS, *arguments, "--format", "json", input=log).stdout
    )
    for record in data["round_by_round"]:
        del record["line"]
    return data


def test_a_header_prices_the_log_as_its_settings_given_as_options() -> None:
    expected = figures(*OPTIONS, log=json_rounds())
    assert expected.pop("header") is None
    assert expected["shoe"]["A"] == 4  # one deck, not the default eight
    from_json = figures(log=JSON_HEADER + json_rounds())
    assert from_json.pop("header") == {
        "line": 1,
        "settings": {"decks": 1, "variant": "ez", "tie_pays": 9, "pays": {"dragon7": 30}},
    }
    assert from_json == expected
    assert figures(log=CSV_HEADER + csv_rounds())["total"] == expected["total"]
    table = run_ok("review", "-", *COUNTS, input=CSV_HEADER + csv_rounds()).stdout
    assert "Header (line 2): decks = 1; variant = ez; tie_pays = 9; pays = dragon7=30." in table


def test_an_option_on_the_command_line_wins_over_the_header() -> None:
    log = JSON_HEADER + json_rounds()
    overridden = figures("--decks", "2", "--variant", "standard", "--pay", "dragon7=40", log=log)
    expected = figures("--decks", "2", "--tie-pays", "9", "--pay", "dragon7=40", log=json_rounds())
    assert overridden["shoe"]["A"] == 8
    assert overridden.pop("header")["settings"]["decks"] == 1
    assert expected.pop("header") is None
    assert overridden == expected
    # The header's other settings stay: without --tie-pays 9, the default 8 would differ.
    assert expected != figures("--decks", "2", "--pay", "dragon7=40", log=json_rounds())


def test_a_table_and_a_header_are_one_sentence() -> None:
    result = run("review", "-", "--table", "ez", input=JSON_HEADER + json_rounds())
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert "--table ez and the header of standard input (line 1) both give the table" in (
        result.stderr
    )


BAD_HEADERS = {
    "decks 0": ('{"decks": 0}\n', 1, "number of decks 0 for decks in the header is not valid"),
    "unknown field": ('{"decks": 1, "seed": 3}\n', 1, "unknown field 'seed'"),
    "unknown setting": ("# decks = 1\n# seed = 3\n", 2, "the header sets 'seed'"),
    "a game": ('{"game": "dragon-tiger"}\n', 1, "unknown field 'game'"),
    "twice": ("# decks = 1\n# decks = 2\n", 2, "the header sets decks twice"),
    "pays not NAME=PAY": ("# pays = dragon7\n", 1, "are not NAME=PAY"),
    "a pay for no bet": ('{"pays": {"nosuch": 3}}\n', 1, "unknown bet 'nosuch' in pay"),
    "a commission refused": ('{"commission": "150%"}\n', 1, "commission in the header"),
    "not a shipped rules file": ('{"rules": "../secret"}\n', 1, "rules in the header is"),
    "two headers": ('# decks = 1\n{"decks": 1}\n', 2, "the log has a header already (line 1)"),
    "after a round": ("", 2, "a header setting after the first round"),
}


@pytest.mark.parametrize("name", list(BAD_HEADERS))
def test_bad_headers_get_one_sentence_naming_the_line(name: str, tmp_path: Path) -> None:
    header, line, words = BAD_HEADERS[name]
    rounds = json_rounds()
    text = header + rounds if header else rounds.replace("\n", "\n# fee = 5%\n", 1)
    log = tmp_path / "log.jsonl"
    log.write_text(text)
    output = tmp_path / "review.txt"
    result = run("review", str(log), "-o", str(output))
    assert result.exit_code == 2, result.stderr
    assert result.stdout == "" and result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"Error: Line {line} of the log '{log}': "), result.stderr
    assert words in result.stderr, result.stderr
    assert "--" not in result.stderr  # the header's words, not the options'
    assert not output.exists()
