"""Issue 22: every decision exact whatever the magnitudes, every input bounded, nothing lost.

Each test names what it checks; the properties compare the fast path (numpy) against a plain
Python-integer reference on inputs that straddle the 64-bit limits.
"""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from exactodds.cli import cli
from exactodds.simulation.strategies import Count, parse_strategy

PROPERTY = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
#: Magnitudes around every 64/128-bit edge, small ones, and 100-digit ones.
EDGES = st.sampled_from(
    [0, 1, 2**31, 2**62, 2**63 - 1, 2**63, 2**64, 2**127, 2**128, 10**99, 10**100 - 1]
)
MAGNITUDES = st.one_of(
    st.integers(-20, 20),
    st.builds(
        lambda edge, d, sign: sign * (edge + d), EDGES, st.integers(-2, 2), st.sampled_from([1, -1])
    ),
)


def run(*arguments: str) -> Result:
    return CliRunner().invoke(cli, list(arguments), prog_name="exactodds")


def assert_one_error(result: Result, *fragments: str, code: int = 2) -> None:
    assert result.exit_code == code, (result.exit_code, result.stdout[:300], result.stderr)
    assert result.stdout == ""
    assert result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1, result.stderr
    assert "Internal error" not in result.stderr
    for fragment in fragments:
        assert fragment in result.stderr, (fragment, result.stderr)


# Count strategies decide exactly ---------------------------------------------------------------


def reference_decisions(count: Count, known: list[list[int]], decks: int) -> list[bool]:
    """The count by hand, in Python integers and Fractions, card by card."""
    decisions = []
    for row in known:
        running = count.start + sum(
            count.tags[card // 4] * (decks - left) for card, left in enumerate(row)
        )
        unseen = sum(row)
        value = Fraction(running) if count.running else Fraction(running * 52, unseen)
        decisions.append(value >= count.trigger)
    return decisions


@st.composite
def counts_and_shoes(draw: st.DrawFn) -> tuple[Count, list[list[int]], int]:
    decks = draw(st.integers(1, 8))
    tags = tuple(draw(st.lists(MAGNITUDES, min_size=13, max_size=13)))
    trigger = Fraction(
        draw(MAGNITUDES), draw(st.one_of(st.just(1), MAGNITUDES.filter(bool)).map(abs))
    )
    count = Count(tags, trigger, draw(st.booleans()), draw(MAGNITUDES))
    rows = draw(
        st.lists(st.lists(st.integers(0, decks), min_size=52, max_size=52), min_size=1, max_size=6)
    )
    rows = [row if sum(row) else [decks] * 52 for row in rows]
    return count, rows, decks


@PROPERTY
@given(case=counts_and_shoes())
@example(case=(Count((1,) * 13, Fraction(3 * 10**16)), [[7] * 52, [8] * 40 + [0] * 12], 8))
@example(case=(Count((1,) + (0,) * 12, Fraction(0), True, 2**63 - 1), [[4] * 52], 8))
def test_count_decisions_match_python_integers_at_any_magnitude(
    case: tuple[Count, list[list[int]], int],
) -> None:
    count, rows, decks = case
    known = np.array(rows, dtype=np.int64)
    assert count.decide(None, None, known, decks).tolist() == reference_decisions(
        count, rows, decks
    )


@pytest.mark.parametrize(
    ("play", "bets_made"),
    [
        ("count:1,1,1,1,1,1,1,1,1,1:30000000000000000", lambda rounds: 0),
        ("count:1,1,1,1,1,1,1,1,1,1:10000000000000000000", lambda rounds: 0),
        ("count:1,0,0,0,0,0,0,0,0,0:0:running:start=9223372036854775807", lambda rounds: rounds),
        ("count:-1,0,0,0,0,0,0,0,0,0:0:running:start=-9223372036854775809", lambda rounds: 0),
    ],
)
def test_simulate_count_strategies_past_int64_bet_exactly(play: str, bets_made: object) -> None:
    result = run(
        "simulate",
        "--quiet",
        "--shoes",
        "3",
        "--jobs",
        "1",
        "--bets",
        "tie",
        "--play",
        play,
        "--format",
        "json",
    )
    assert result.exit_code == 0, result.stderr
    tie = json.loads(result.stdout)["bets"]["tie"]
    assert callable(bets_made)
    assert tie["bets_made"] == bets_made(tie["rounds"])


@pytest.mark.parametrize(
    ("play", "fragment"),
    [
        ("count:" + "1" * 101 + ",1,1,1,1,1,1,1,1,1:1", "101 digits for a count tag"),
        ("count:1,1,1,1,1,1,1,1,1,1:" + "1" * 101, "101 digits"),
        ("count:1,1,1,1,1,1,1,1,1,1:1:start=-" + "1" * 101, "101 digits for the starting count"),
        ("count:1,1,1,1,1,1,1,1,1,1:1e400", "exponent"),
        ("count:1,1,1,1,1,1,1,1,1,1:1:start=1.5", "'1.5' for the starting count"),
    ],
)
def test_count_numbers_past_one_hundred_digits_are_one_sentence(play: str, fragment: str) -> None:
    assert_one_error(run("simulate", "--shoes", "1", "--bets", "tie", "--play", play), fragment)


def test_a_one_hundred_digit_count_still_parses() -> None:
    text = "count:" + ",".join(["9" * 100] * 10) + ":-" + "9" * 100 + ":start=" + "9" * 100
    assert parse_strategy(text).count_bound(8) == 10**100 - 1 + 32 * 13 * (10**100 - 1)
