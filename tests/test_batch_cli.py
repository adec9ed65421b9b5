"""`exactodds batch`: JSON lines in, JSON lines out, exact, in order, with clear bad-line errors."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from exactodds import Rules, Shoe, analyze
from exactodds.bets.catalogue import select_bets
from exactodds.cli import cli

SHOES = [
    Shoe.standard(decks=8),
    Shoe.standard(decks=1).remove("K K K"),
    Shoe.from_ranks({"A": 3, "9": 2, "K": 4}),
    Shoe.standard(decks=6).remove("A 2 3 4 5 6 7 8 9"),
]


def lines_of(shoes: list[Shoe]) -> str:
    return "".join(json.dumps(shoe.as_dict()) + "\n" for shoe in shoes)


def run(*arguments: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(arguments), input=stdin)
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_every_line_matches_analyze_in_input_order(jobs: str) -> None:
    code, stdout, stderr = run("batch", "--bets", "all", "--jobs", jobs, stdin=lines_of(SHOES))
    assert code == 0 and stderr == ""
    records = [json.loads(line) for line in stdout.splitlines()]
    assert len(records) == len(SHOES)
    for shoe, record in zip(SHOES, records, strict=True):
        # The lines give ranks only, so the suited bet is not computable on any of them.
        expected = analyze(shoe.without_suits(), Rules(), select_bets("all"))
        assert record["shoe"]["ranks"] == shoe.as_dict()
        assert record["total"] == expected.total
        assert record["outcomes"] == {n: o.count for n, o in expected.outcomes.items()}
        assert list(record["bets"]) == list(expected.bet_names)
        for name, data in record["bets"].items():
            if name in expected.unavailable:
                assert data == {"computable": False, "reason": expected.unavailable[name]}
                continue
            ev = expected.bets[name].expected_value
            assert Fraction(data["ev"]) == ev
            assert Fraction(data["house_edge"]) == -ev
            assert Fraction(data["ev_decimal"]) == round(ev, 10)
            assert Fraction(data["house_edge_decimal"]) == round(-ev, 10)


def test_full_records_carry_every_odds_field(tmp_path: Path) -> None:
    path = tmp_path / "shoes.jsonl"
    path.write_text(lines_of(SHOES[:1]))
    code, stdout, _ = run("batch", "--full", "--digits", "4", str(path))
    assert code == 0
    banker = json.loads(stdout)["bets"]["banker"]
    assert banker["house_edge_percent"] == "1.06%" and "variance" in banker


def test_suited_lines_and_blank_lines() -> None:
    suited = {f"{rank}{suit}": 1 for rank in "A23456789TJQK" for suit in "SHDC"}
    stdin = "\n" + json.dumps(suited) + "\n\n"
    code, stdout, _ = run("batch", "--bets", "perfect_pair", stdin=stdin)
    assert code == 0
    (record,) = [json.loads(line) for line in stdout.splitlines()]
    expected = analyze(Shoe.standard(decks=1), Rules(), select_bets("perfect_pair"))
    assert (
        Fraction(record["bets"]["perfect_pair"]["ev"])
        == expected.bets["perfect_pair"].expected_value
    )


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_bad_line_stops_after_the_lines_before_it(jobs: str) -> None:
    stdin = lines_of(SHOES[:2]) + '{"A": 2}\n' + lines_of(SHOES[2:])
    code, stdout, stderr = run("batch", "--jobs", jobs, stdin=stdin)
    assert code == 2
    assert len(stdout.splitlines()) == 2
    assert stderr.startswith("Error: Line 3: The shoe holds 2 cards")
    assert "--skip-bad" in stderr and len(stderr.splitlines()) == 1


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_skip_bad_reports_each_and_counts(jobs: str) -> None:
    stdin = '{"A": 2}\n' + lines_of(SHOES[:2]) + "{bad\n" + '["list"]\n' + lines_of(SHOES[2:])
    code, stdout, stderr = run("batch", "--skip-bad", "--jobs", jobs, stdin=stdin)
    assert code == 0
    assert [json.loads(line)["shoe"]["ranks"] for line in stdout.splitlines()] == [
        shoe.as_dict() for shoe in SHOES
    ]
    lines = stderr.splitlines()
    assert lines[0].startswith("Skipped line 1: ")
    assert lines[1].startswith("Skipped line 4: Shoe JSON is malformed")
    assert lines[2].startswith("Skipped line 5: Shoe JSON is a list")
    assert lines[3] == "Skipped 3 bad lines; wrote 4 results."


def test_bad_usage() -> None:
    code, stdout, stderr = run("batch", "/no/such/file.jsonl")
    assert code == 2 and stdout == ""
    assert (
        stderr
        == "Error: Cannot read batch input '/no/such/file.jsonl': No such file or directory.\n"
    )
    code, stdout, stderr = run("batch", "--bets", "nope", stdin="")
    assert code == 2 and stdout == "" and "Unknown bet 'nope'" in stderr


def test_empty_input_writes_nothing() -> None:
    assert run("batch", stdin="") == (0, "", "")


def test_batch_line_text_equals_json_dumps_of_the_record() -> None:
    from exactodds.analysis.many import Analyzer
    from exactodds.report.odds import batch_line, batch_record

    analyzer = Analyzer(Rules(), select_bets("all"))
    for shoe in [Shoe.standard(decks=8), Shoe.standard(decks=2).remove("K Q"), SHOES[2]]:
        for analysis in (analyzer.analyze(shoe), analyze(shoe, Rules(), select_bets("all"))):
            for digits in (0, 4, 12):
                assert batch_line(analysis, digits) == json.dumps(batch_record(analysis, digits))


def test_plain_exactodds_prints_help() -> None:
    code, stdout, stderr = run()
    assert code == 0 and stderr == ""
    assert stdout.startswith("Usage: ") and "odds" in stdout and "batch" in stdout
