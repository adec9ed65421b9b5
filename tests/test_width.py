"""Table widths: the default table output fits 100 columns, header lines included; ``--wide``
keeps the former layouts, one line a bet (``odds``) or a combination (``simulate --sweep``), or
a row of the grid of totals (``breakdown``), or a line of prose (``solve``, ``eor``,
``breakeven``). Every command is either one whose table fits or one with no table format.

Each check runs a small, fast configuration in-process, as the other CLI tests do; the wide
tables are read back cell by cell and compared with the command's own ``--format json``. The last
test holds the documented sessions (README.md and docs/) to the same width.
"""

from __future__ import annotations

import json
import re
import shlex
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from cli_runner import run_ok
from test_docs import SESSIONS

from exactodds import Rules
from exactodds.numbers import percent_string

WIDTH = 100
SIMULATE = ("simulate", "--shoes", "4", "--seed", "3", "--decks", "2", "--jobs", "1")
AUDIT = ("audit", "--bets", "dragon7", "--decks", "1", "--cut", "10", "--budget", "6")
COUNT = "count:0,0,0,-1,-1,-1,-1,2,2,0:4"
SWEEP = (*SIMULATE, "--bets", "dragon7", "--sweep", "cut=14,30", "--sweep", f"play=perfect|{COUNT}")
ODDS_COLUMNS = [
    "Bet",
    "EV",
    "House edge",
    "Edge (no pushes)",
    "RTP",
    "Win",
    "Push",
    "Loss",
    "Std dev",
]
SWEEP_COLUMNS = ["Penetration", "Units/shoe, exact EV", "EV/round", "DI", "SCORE", "N0 rounds"]
#: The commands whose default table fits (``bets`` wraps; the others split tables by columns).
FITTED = (
    "odds",
    "bets",
    "depth",
    "simulate",
    "audit",
    "breakdown",
    "solve",
    "eor",
    "breakeven",
    "edgesort",
    "multipliers",
)
#: The commands with no table to fit, and why.
NO_TABLE = {
    "batch": "one JSON line a shoe",
    "report": "documents: Markdown, HTML, xlsx and PDF, whose tables are the format's own",
    "serve": "a server: its page and JSON",
}
SMALL_SHOE = ("--shoe", "A=4,5=4,9=4,T=16")


def widest(text: str) -> int:
    return max(len(line) for line in text.splitlines())


def words(text: str) -> set[str]:
    """The words of *text*, rules of dashes aside: the same whether a table is split or not."""
    return {word for word in text.split() if word.strip("-")}


def cells(line: str) -> list[str]:
    """A table line's cells: tabulate puts at least two spaces between columns."""
    return re.split(r" {2,}", line.strip())


def table_at(lines: list[str], first: str) -> tuple[list[str], list[list[str]]]:
    """The header cells and the rows of the one table whose header starts with *first*."""
    starts = [index for index, line in enumerate(lines) if line.startswith(first)]
    assert len(starts) == 1, f"{len(starts)} tables start with {first!r}"
    start = starts[0]
    assert set(lines[start + 1]) == {"-", " "}
    end = next((i for i in range(start + 2, len(lines)) if not lines[i]), len(lines))
    return cells(lines[start]), [cells(line) for line in lines[start + 2 : end]]


def shown_as(shown: str, value: float) -> bool:
    """Whether *shown* is *value* rounded to the digits shown (``1,234``, ``1.5e+02``, ``3%``)."""
    number = Decimal(shown.replace(",", "").rstrip("%"))
    exponent = number.as_tuple().exponent
    assert isinstance(exponent, int)
    scale = 100 if shown.endswith("%") else 1
    return abs(number - Decimal(scale * value)) <= Decimal(5).scaleb(exponent - 1) * Decimal(
        "1.001"
    )


@pytest.mark.parametrize(
    "arguments",
    [
        ("odds",),
        ("odds", "--decks", "1", "--bets", "all", "--exact", "--digits", "10"),
        ("odds", "--known", "1=7", "--known", "P2=K", "--bets", "all", "--exact"),
        ("depth", "--decks", "1", "--cards", "6,8", "--bets", "dragon_bonus_player,perfect_pair"),
        (*SIMULATE, "--bets", "all", "--bankroll", "50", "--rounds-per-hour", "70"),
        (*SWEEP, "--bankroll", "100"),
        ("breakdown", "--decks", "1"),
        ("breakdown", "--decks", "1", "--exact", "--digits", "4"),
        ("solve", "--decks", "1", "--dealing", "replacement", "--banker-sees", "total"),
        ("eor", "--decks", "1", "--bets", "tie"),
        ("breakeven", "--bet", "tie", "--decks", "1"),
        ("breakeven", "--bet", "banker", "--pay", "commission", "--latex", "--decks", "1"),
    ],
    ids=[
        "odds",
        "odds-exact-all",
        "odds-known",
        "depth",
        "simulate",
        "sweep",
        "breakdown",
        "breakdown-exact",
        "solve",
        "eor",
        "breakeven",
        "breakeven-latex",
    ],
)
def test_the_default_table_fits_and_wide_holds_the_same_words(arguments: tuple[str, ...]) -> None:
    shown = run_ok(*arguments).stdout
    wide = run_ok(*arguments, "--wide").stdout
    assert widest(shown) <= WIDTH
    assert widest(wide) > WIDTH  # each configuration needs the fitting
    # Splitting a table repeats its leading columns and wrapping moves words: no cell is lost.
    assert words(shown) == words(wide)


@pytest.mark.parametrize(
    "arguments",
    [
        ("bets",),
        ("bets", "--bets", "lucky6,dragon7"),
        (*AUDIT, "--depths", "none", "--cuts", "10"),
        (*AUDIT, "--design", "win=36..44", "--target-edge", "4%..9%", "--design-top", "1"),
        ("edgesort", "--cards", "2", *SMALL_SHOE),
        ("edgesort", "--cards", "1", "--search", "--by", "rank", "--top", "3", *SMALL_SHOE),
    ],
    ids=["bets", "bets-two", "audit", "audit-design", "edgesort", "edgesort-search"],
)
def test_the_default_table_fits(arguments: tuple[str, ...]) -> None:
    assert widest(run_ok(*arguments).stdout) <= WIDTH


@pytest.mark.parametrize(
    "arguments",
    [
        ("--decks", "1", "--bets", "all", "--digits", "6", "--exact"),
        ("--decks", "2", "--bets", "dragon7,lucky6", "--digits", "8"),
        ("--known", "1=7", "--bets", "banker,perfect_pair", "--exact", "--digits", "6"),
    ],
    ids=["exact", "plain", "known"],
)
def test_odds_wide_keeps_each_bet_on_one_line_with_the_json_figures(
    arguments: tuple[str, ...],
) -> None:
    exact = "--exact" in arguments
    digits = int(arguments[arguments.index("--digits") + 1])
    lines = run_ok("odds", *arguments, "--wide").stdout.splitlines()
    data = json.loads(run_ok("odds", *arguments, "--format", "json").stdout)
    assert f"Rules: {Rules().describe()}" in lines  # prose unwrapped too
    headers, rows = table_at(lines, "Bet ")
    assert headers == ODDS_COLUMNS + (["Exact EV"] if exact else [])
    assert [row[0] for row in rows] == list(data["bets"])
    for row in rows:
        bet = data["bets"][row[0]]
        if not bet["computable"]:
            assert row[1:] == ["not computable"] + ["-"] * (len(headers) - 2)
            continue
        per_resolved = bet["house_edge_per_resolved_bet"]
        expected = [
            row[0],
            bet["ev_decimal"],
            percent_string(Fraction(bet["house_edge"]), digits - 2),
            "-" if per_resolved is None else percent_string(Fraction(per_resolved), digits - 2),
            percent_string(Fraction(bet["rtp"]), digits - 2),
            bet["win_probability_decimal"],
            bet["push_probability_decimal"],
            bet["loss_probability_decimal"],
            bet["standard_deviation_decimal"],
            *([bet["ev"]] if exact else []),
        ]
        assert row == expected


def test_simulate_sweep_wide_keeps_one_line_a_combination_with_the_json_figures() -> None:
    arguments = (*SWEEP, "--bankroll", "100")
    lines = run_ok(*arguments, "--wide").stdout.splitlines()
    rows = json.loads(run_ok(*arguments, "--format", "json").stdout)["sweep"]
    headers, table = table_at(lines, "cut ")
    assert headers == ["cut", "play", *SWEEP_COLUMNS, "Risk of ruin"]
    assert len(table) == len(rows) == 4
    for cells_shown, row in zip(table, rows, strict=True):
        assert cells_shown[:2] == [row["values"]["cut"], row["values"]["play"]]
        assert shown_as(cells_shown[2], row["penetration"])
        figures = ("units_per_shoe", "ev_per_round", "di", "score", "n0_rounds", "risk_of_ruin")
        for shown, figure in zip(cells_shown[3:], figures, strict=True):
            estimate: dict[str, Any] = row[figure]
            mean, error = shown.split(" ± ")
            assert shown_as(mean, estimate["mean"]), (figure, shown, estimate)
            assert shown_as(error, 1.96 * estimate["stderr"]), (figure, shown, estimate)


def test_every_command_has_a_table_that_fits_or_none() -> None:
    import click

    from exactodds.cli import cli

    assert isinstance(cli, click.Group)
    commands = set(cli.list_commands(click.Context(cli)))
    assert commands == set(FITTED) | set(NO_TABLE)
    assert not set(FITTED) & set(NO_TABLE)
    for name in NO_TABLE:  # no table format to fit
        command = cli.get_command(click.Context(cli), name)
        assert command is not None
        formats = [p for p in command.params if p.name == "output_format"]
        assert all("table" not in getattr(p.type, "choices", ()) for p in formats), name


def _table_session(command: str) -> bool:
    """Whether *command* is a default-width table session of a command that fits."""
    arguments = shlex.split(command.split(" | ")[0])
    if len(arguments) < 2 or arguments[1] not in FITTED or "--wide" in arguments:
        return False
    formats = [arguments[i + 1] for i, word in enumerate(arguments[:-1]) if word == "--format"]
    formats += [word.split("=", 1)[1] for word in arguments if word.startswith("--format=")]
    return formats in ([], ["table"])


TABLE_SESSIONS = [session for session in SESSIONS if _table_session(session[1])]


def test_there_are_documented_table_sessions_of_every_command_that_fits() -> None:
    assert {shlex.split(command)[1] for _, command, _ in TABLE_SESSIONS} == set(FITTED)


@pytest.mark.parametrize(
    ("where", "command", "expected"),
    TABLE_SESSIONS,
    ids=[f"{where} {command}"[:120] for where, command, _ in TABLE_SESSIONS],
)
def test_documented_table_sessions_fit(where: str, command: str, expected: str) -> None:
    # tests/test_docs.py replays each session byte for byte, so the page is the output. An error
    # is one sentence on stderr, however long (never wrapped): only the data lines must fit.
    data = [line for line in expected.split("\n") if not line.startswith("Error: ")]
    too_wide = [line for line in data if len(line) > WIDTH]
    assert not too_wide, f"{where}: {command}: {len(too_wide)} lines over {WIDTH} columns"
