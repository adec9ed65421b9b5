"""``exactodds report``'s inputs read as a user types them: empty paths, huge numbers, hostile text.

Each refusal is one sentence on stderr and exit 2, before any work; what a bet file says is shown
in every format as text, never as markup.
"""

from __future__ import annotations

import time

import pytest
from click.testing import CliRunner, Result

from exactodds.cli import cli


def run(*arguments: str) -> Result:
    return CliRunner().invoke(cli, ["report", "--decks", "1", "--no-breakeven", *arguments])


def _one_error(result: Result, text: str) -> None:
    assert result.exit_code == 2, (result.exit_code, result.stderr)
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("Error: ")
    assert text in result.stderr, result.stderr


def test_an_empty_output_path_is_said_to_be_empty() -> None:
    for empty in ("", "  "):
        result = run("--bets", "tie", "-o", empty)
        _one_error(result, "the path is empty")
        assert "directory" not in result.stderr


@pytest.mark.parametrize(
    ("rounds", "text"),
    [
        ("1" + "0" * 30, "at most 30 digits (below 10^30)"),
        ("10^30", "use whole numbers from 1 to 10^30 - 1"),
        ("0", "use whole numbers from 1 to 10^30 - 1"),
    ],
)
def test_rounds_state_their_limit(rounds: str, text: str) -> None:
    _one_error(run("--bets", "tie", "--rounds", rounds), text)


def test_a_pay_with_a_huge_denominator_is_bounded_before_the_work() -> None:
    started = time.monotonic()
    result = run("--bets", "dragon7", "--pay", "dragon7=1/1000000000000", "--rounds", "10")
    assert result.exit_code == 0, result.stderr
    assert time.monotonic() - started < 60
    assert "Not computed: The exact tails after 10 rounds need 10,000,000,000,011 lattice" in (
        result.stdout
    )
