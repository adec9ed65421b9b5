"""Hostile input, everywhere: one ``Error:`` line and the right exit code, or the right answer.

Issue 8 lists inputs that crashed, lost lines or printed a wrong number; each has a test
here (under a comment naming its item), and property tests feed random bytes and random JSON to every
input path (shoe, pay table, rules, bet file, batch line, standard input). The contract:

* exit 0 with a valid result on stdout, or
* exit 1 or 2 with exactly one line on stderr, starting ``Error:``; never a traceback.

Signals, closed streams and a full disk need a real process; those tests run the command with
``python -m exactodds``.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import select
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactodds import (
    Analyzer,
    Bet,
    ExactOddsError,
    Rules,
    Shoe,
    Tableau,
    analyze,
    enumerate_rounds,
    select_bets,
)
from exactodds.bets.catalogue import available_bets
from exactodds.bets.custom import parse_custom_bets
from exactodds.bets.paytables import apply_pays, parse_pay_option, parse_paytable
from exactodds.cards import parse_cards, parse_rank
from exactodds.cli import cli
from exactodds.engine.known import parse_known
from exactodds.inputs import MAX_DEPTH, MAX_LINE_BYTES, line_problem, load_json, read_lines
from exactodds.numbers import parse_commission, parse_number, parse_pay
from exactodds.rulefiles import parse_rules_file, resolve_rules_file

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
FULL_SHOE_LINE = json.dumps({rank: 32 for rank in "A23456789TJQK"})
PER_CARD_SHOE = json.dumps({rank + suit: 8 for rank in "A23456789TJQK" for suit in "SHDC"})
DEEP_JSON = "[" * 100_000 + "]" * 100_000
DEEP_LINE = "[" * 5_000 + "]" * 5_000  # within the batch line limit
DEEP_TOML = "x = " + "[" * 5000 + "]" * 5000 + "\n"
HUGE = "1" * 5001


def run(*arguments: str, stdin: str | bytes | None = None) -> Result:
    return CliRunner().invoke(cli, list(arguments), input=stdin, prog_name="exactodds")


def assert_one_error(result: Result, *fragments: str, code: int = 2) -> str:
    """The run failed as promised: exit *code*, nothing on stdout, one ``Error:`` line."""
    assert result.exit_code == code, (result.exit_code, result.stdout[:300], result.stderr)
    assert result.stdout == ""
    assert result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1, result.stderr
    assert "Traceback" not in result.stderr and "Internal error" not in result.stderr
    for fragment in fragments:
        assert fragment in result.stderr, (fragment, result.stderr)
    return result.stderr


def assert_clean_outcome(result: Result, valid: Callable[[str], object]) -> None:
    """Either a valid result, or the one-line refusal; never a traceback or internal error."""
    assert "Traceback" not in result.stderr and "Internal error" not in result.stderr
    if result.exit_code == 0:
        valid(result.stdout)
        return
    assert result.exit_code in (1, 2), (result.exit_code, result.exception)
    error_lines = [line for line in result.stderr.splitlines() if line.startswith("Error: ")]
    assert len(error_lines) == 1, result.stderr
    assert result.stderr.endswith(error_lines[0] + "\n")


# Item 2: --pay on a main bet could change the EV but not the rules shown ---------------------


@pytest.mark.parametrize(
    ("arguments", "fragment"),
    [
        (["odds", "--pay", "tie=9"], "--tie-pays 9"),
        (["odds", "--pay", "tie.win=9"], "--tie-pays 9"),
        (["odds", "--pay", "banker=2"], "--commission"),
        (["odds", "--tie-pays", "9", "--pay", "tie=10"], "--tie-pays 10"),
        (["odds", "--pay", "player=2"], "settled by the rules"),
        (["odds", "--pay", "banker.tie=-1"], "--tie-loses"),
        (["breakeven", "--bet", "tie", "--pay", "tie=10"], "--tie-pays 10"),
    ],
)
def test_main_bet_pays_are_refused_for_the_rule(arguments: list[str], fragment: str) -> None:
    assert_one_error(run(*arguments, "--decks", "1"), fragment, "so that the rules shown")


def test_a_pay_table_cannot_set_the_tie_pay_either(tmp_path: Path) -> None:
    table = tmp_path / "pays.toml"
    table.write_text("tie = 9\ndragon7 = 30\n", encoding="utf-8")
    assert_one_error(run("odds", "--paytable", str(table)), "--tie-pays 9")
    with pytest.raises(ExactOddsError, match="`tie_pays` 9"):
        select_bets("main", pays={"tie": 9})


def test_the_rules_shown_are_the_pays_used() -> None:
    data = json.loads(run("odds", "--tie-pays", "9", "--format", "json").stdout)
    assert data["rules"]["tie_pays"] == data["bets"]["tie"]["pays"]["win"] == "9"
    table = run("odds", "--tie-pays", "9").stdout
    assert "Tie pays 9:1" in table


# Item 3: a closed stdout was a silent success ------------------------------------------------


def process(
    *arguments: str,
    close: tuple[int, ...] = (),
    stdin: bytes | None = None,
    stdout: Any = subprocess.PIPE,
    timeout: float = 120,
) -> subprocess.CompletedProcess[bytes]:
    """``python -m exactodds ARGUMENTS`` with the file descriptors *close* closed."""

    def closed() -> None:
        for descriptor in close:
            os.close(descriptor)

    return subprocess.run(
        [sys.executable, "-m", "exactodds", *arguments],
        input=stdin,
        stdout=stdout,
        stderr=subprocess.PIPE,
        preexec_fn=closed if close else None,
        timeout=timeout,
        check=False,
    )


def assert_one_error_line(stderr: bytes, fragment: str) -> None:
    text = stderr.decode()
    assert text.startswith("Error: ") and text.count("\n") == 1, text
    assert fragment in text, text


def test_a_closed_stdout_fails_with_one_line() -> None:
    result = process("odds", "--decks", "1", close=(1,))
    assert result.returncode == 1
    assert_one_error_line(result.stderr, "standard output is closed")


# Item 4: duplicate keys in a JSON shoe were resolved silently ---------------------------------


def test_duplicate_keys_are_refused_everywhere() -> None:
    assert_one_error(run("odds", "--shoe", '{"K": 4, "K": 9}'), '"K" twice')
    with pytest.raises(ExactOddsError, match='"K" twice'):
        Shoe.from_json('{"A": 6, "K": 4, "K": 9}')
    result = run("batch", "--jobs", "1", stdin=FULL_SHOE_LINE + '\n{"A": 6, "A": 7}\n')
    assert result.exit_code == 2 and result.stdout.count("\n") == 1
    assert_one_error_line(result.stderr.encode(), 'Line 2: Shoe JSON names "A" twice')
    pays = '{"dragon7": 30, "dragon7": 40}'
    assert_one_error(run("odds", "--bets", "dragon7", "--paytable", "-", stdin=pays), "twice")


# Item 5: a --shoe or --rules value over 255 bytes raised OSError ------------------------------


@pytest.mark.parametrize(
    "command", [["odds"], ["eor"], ["breakeven", "--bet", "tie"], ["breakdown"]]
)
def test_a_long_per_card_shoe_works_in_every_command(command: list[str]) -> None:
    assert len(PER_CARD_SHOE.encode()) > 255
    result = run(*command, "--shoe", PER_CARD_SHOE, "--digits", "4")
    assert result.exit_code == 0, result.stderr
    assert "416 cards (8 decks), suits known" in result.stdout


def test_long_names_are_literals_not_os_errors() -> None:
    assert_one_error(run("odds", "--shoe", "Q" * 300), "neither a spec")
    assert_one_error(run("odds", "--rules", "r" * 300), "neither a file that exists")
    assert_one_error(run("odds", "--shoe", "A=4\x00,K=4"), "Count")
    assert_one_error(run("odds", "--paytable", "p" * 5000), "Cannot read pay table file")
    assert_one_error(run("odds", "--bet-file", "b" * 5000), "Cannot read bet file")
    assert_one_error(run("batch", "x" * 5000), "Cannot read batch input")


# Item 6: batch on invalid UTF-8, huge numbers, deep nesting; a BOM -----------------------------


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_every_good_line_before_a_bad_one_is_written(jobs: str) -> None:
    good = (FULL_SHOE_LINE + "\n").encode() * 3000
    for bad in (b"\xff\xfe{}\n", b'{"A": ' + HUGE.encode() + b"}\n", DEEP_LINE.encode() + b"\n"):
        result = run("batch", "--jobs", jobs, stdin=good + bad + good)
        assert result.exit_code == 2
        assert result.stdout.count("\n") == 3000
        assert all(line.endswith("}") for line in result.stdout.splitlines())
        assert_one_error_line(result.stderr.encode(), "Line 3001: ")
        skipped = run("batch", "--jobs", jobs, "--skip-bad", stdin=good + bad + good)
        assert skipped.exit_code == 0 and skipped.stdout.count("\n") == 6000
        assert skipped.stderr.startswith("Skipped line 3001: ")


def test_bad_batch_lines_name_the_byte_digits_nesting_or_nan() -> None:
    for line, fragment in [
        (b"\xff\n", "not UTF-8 text (byte 0xff at column 1)"),
        (b'{"A": 6}\xed\xa0\x80\n', "not UTF-8 text (byte 0xed at column 9)"),
        (b'{"A": ' + HUGE.encode() + b"}\n", "5,001 digits"),
        (DEEP_LINE.encode() + b"\n", f"nested more than {MAX_DEPTH} levels"),
        (b'{"A": NaN}\n', "NaN, which is not a number"),
    ]:
        result = run("batch", "--jobs", "1", stdin=line)
        assert_one_error_line(result.stderr.encode(), fragment)


def test_a_byte_order_mark_is_ignored(tmp_path: Path) -> None:
    path = tmp_path / "shoes.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + (FULL_SHOE_LINE + "\n").encode() * 2)
    result = run("batch", str(path))
    assert result.exit_code == 0 and result.stdout.count("\n") == 2, result.stderr
    shoe_file = tmp_path / "shoe.json"
    shoe_file.write_bytes(b"\xef\xbb\xbf" + FULL_SHOE_LINE.encode())
    assert run("odds", "--shoe", str(shoe_file)).exit_code == 0


# Items 7 and 8: deep nesting and numbers past Python's int-string limit -----------------------


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_deep_nesting_in_every_document(tmp_path: Path) -> None:
    deep = f"nested more than {MAX_DEPTH} levels"
    assert_one_error(run("odds", "--shoe", "-", stdin=DEEP_JSON), deep)
    deep_object = '{"dragon7": ' + DEEP_JSON + "}"
    assert_one_error(run("odds", "--paytable", write(tmp_path, "p.json", deep_object)), deep)
    assert_one_error(run("odds", "--paytable", write(tmp_path, "p.toml", DEEP_TOML)), deep)
    assert_one_error(run("odds", "--rules", write(tmp_path, "r.toml", DEEP_TOML)), deep)
    assert_one_error(run("odds", "--bet-file", write(tmp_path, "b.toml", DEEP_TOML)), deep)
    with pytest.raises(ExactOddsError, match=deep):
        Shoe.from_json(DEEP_JSON)


def test_numbers_past_the_int_string_limit(tmp_path: Path) -> None:
    assert_one_error(run("odds", "--tie-pays", HUGE), "5,001 digits")
    assert_one_error(run("odds", "--bets", "dragon7", "--pay", f"dragon7={HUGE}"), "digits")
    assert_one_error(run("odds", "--commission", f"0.{HUGE}"), "digits")
    assert_one_error(run("odds", "--shoe", f"A={HUGE}"), "5,001 digits")
    assert_one_error(run("odds", "--shoe", f'{{"A": {HUGE}}}'), "5,001 digits")
    assert_one_error(run("odds", "--decks", HUGE), "5,001 digits")
    table = write(tmp_path, "p.toml", f"dragon7 = {HUGE}\n")
    assert_one_error(run("odds", "--bets", "dragon7", "--paytable", table), "digits")
    table = write(tmp_path, "p.json", f'{{"dragon7": {HUGE}.5}}')
    assert_one_error(run("odds", "--bets", "dragon7", "--paytable", table), "digits")
    bet_file = write(tmp_path, "b.toml", f'[[bet]]\nname = "x"\n[[bet.outcome]]\npays = {HUGE}\n')
    assert_one_error(run("odds", "--bet-file", bet_file), "digits")


def test_every_exact_result_stays_printable() -> None:
    # The largest shoe accepted: counts just under 10^100; its figures print in full.
    result = run("odds", "--shoe", f"A={10**100 - 1},K={10**100 - 1}", "--format", "json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["total"]
    assert_one_error(run("odds", "--shoe", f"A={10**100}"), "below 10^100")


# Item 9: Ctrl-C and SIGTERM during batch ------------------------------------------------------


def feed_in_background(stream: Any, data: bytes) -> threading.Thread:
    """Write *data* to a child's stdin from a thread, leaving it open (the child may block)."""

    def feed() -> None:
        with contextlib.suppress(BrokenPipeError, ValueError, OSError):
            stream.write(data)
            stream.flush()

    thread = threading.Thread(target=feed, daemon=True)
    thread.start()
    return thread


def wait_for_output(stream: Any, seconds: float) -> bytes:
    """The first bytes the child writes, within *seconds*."""
    ready, _, _ = select.select([stream], [], [], seconds)
    assert ready, "the command wrote nothing in time"
    data: bytes = os.read(stream.fileno(), 65536)
    return data


@pytest.mark.parametrize(
    ("number", "code", "message", "jobs", "group"),
    [
        (signal.SIGINT, 130, "Error: Interrupted.\n", "1", False),
        (signal.SIGINT, 130, "Error: Interrupted.\n", "2", True),
        (signal.SIGTERM, 143, "Error: Terminated.\n", "2", False),
    ],
)
def test_a_signal_ends_batch_in_one_line_with_whole_lines(
    number: int, code: int, message: str, jobs: str, group: bool
) -> None:
    child = subprocess.Popen(
        [sys.executable, "-m", "exactodds", "batch", "--jobs", jobs],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    assert child.stdin is not None and child.stdout is not None
    # stdin stays open: the command is still running when the signal comes.
    feed_in_background(child.stdin, (FULL_SHOE_LINE + "\n").encode() * 20000)
    first = wait_for_output(child.stdout, 60)
    (os.killpg if group else os.kill)(child.pid, number)
    output = first + child.stdout.read()  # not communicate(): the feeding thread holds stdin
    assert child.wait(60) == code
    assert child.stderr is not None
    stderr = child.stderr.read()
    assert child.returncode == code
    assert stderr.decode() == message
    assert output.endswith(b"\n")
    assert all(json.loads(line)["total"] for line in output.splitlines())


# Item 10: closed stdin, a full disk, closed stdout in batch ----------------------------------


def test_closed_stdin_closed_stdout_and_a_full_disk_fail_in_one_line() -> None:
    result = process("odds", "--shoe", "-", close=(0,))
    assert result.returncode == 2
    assert_one_error_line(result.stderr, "Cannot read the shoe from standard input: it is closed")
    result = process("batch", close=(0,))
    assert result.returncode == 2
    assert_one_error_line(result.stderr, "standard input: it is closed")
    result = process("batch", close=(1,), stdin=FULL_SHOE_LINE.encode())
    assert result.returncode == 1
    assert_one_error_line(result.stderr, "standard output is closed")
    if Path("/dev/full").exists():
        with open("/dev/full", "w") as full:
            result = process("odds", "--decks", "1", stdout=full)
        assert result.returncode == 1
        assert_one_error_line(result.stderr, "Cannot write the output: no space left on device")


def test_output_into_a_closed_pipe_is_quiet() -> None:
    reader = subprocess.Popen(
        [sys.executable, "-m", "exactodds", "bets"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert reader.stdout is not None
    reader.stdout.close()  # the reader of the pipe has gone, as with `| head -0`
    _, stderr = reader.communicate(timeout=60)
    assert reader.returncode in (0, 1) and stderr == b""


# Item 11: the Python API raises ExactOddsError, naming the value and what is valid ------------


@pytest.mark.parametrize(
    ("call", "fragments"),
    [
        (lambda: Rules(commission=0.05), ['"5%"', '"0.05"', "Fraction(1, 20)"]),  # type: ignore[arg-type]
        (lambda: Rules(tie_pays=8.5), ['"8.5"', "Fraction(17, 2)"]),  # type: ignore[arg-type]
        (lambda: analyze(None, Rules()), ["None", "Shoe.standard"]),  # type: ignore[arg-type]
        (lambda: analyze(Shoe.standard(1), Rules(), "all"), ["select_bets('all')"]),  # type: ignore[arg-type]
        (lambda: Analyzer(Rules(), "all"), ["select_bets('all')"]),  # type: ignore[arg-type]
        (lambda: select_bets(None), ["None", "not text"]),  # type: ignore[arg-type]
        (lambda: Shoe.parse(None), ["None", "not text"]),  # type: ignore[arg-type]
        (lambda: Shoe.standard().card_count("KSKH"), ["not 2", "KS"]),
        (lambda: Shoe.from_json(DEEP_JSON), ["nested"]),
        (lambda: analyze(Shoe.standard(1), "ez"), ["'ez'", "Rules("]),  # type: ignore[arg-type]
        (lambda: Shoe.standard(decks=2.0), ["2.0"]),  # type: ignore[arg-type]
        (lambda: Shoe((1,) * 12 + (None,)), ["null", "'K'"]),  # type: ignore[arg-type]
        (lambda: Shoe(None), ["rank_counts"]),  # type: ignore[arg-type]
        (lambda: Shoe.from_ranks({1: 4}), ["1", "not a rank"]),
        (lambda: Shoe.standard().remove(None), ["None"]),  # type: ignore[arg-type]
        (lambda: Shoe.standard().remove([7]), ["7"]),  # type: ignore[list-item]
        (lambda: Shoe.standard().rank_count(None), ["None"]),  # type: ignore[arg-type]
        (lambda: parse_rank(["A"]), ["['A']"]),  # type: ignore[arg-type]
        (lambda: Tableau(natural_totals=None), ["natural_totals"]),  # type: ignore[arg-type]
        (lambda: Tableau(name="x\x1b[31m"), ["control"]),
        (lambda: Rules(ties_push="yes"), ["'yes'"]),  # type: ignore[arg-type]
        (lambda: Rules(variant=["ez"]), ["['ez']"]),  # type: ignore[arg-type]
        (lambda: enumerate_rounds(Shoe.standard(1), "standard"), ["Tableau"]),  # type: ignore[arg-type]
        (lambda: parse_known(None), ["None"]),  # type: ignore[arg-type]
        (lambda: parse_known([1]), ["1", "not text"]),  # type: ignore[list-item]
        (lambda: parse_known(["1="]), ["no card"]),
        (lambda: parse_known([f"{HUGE}=K"]), ["not a dealing position"]),
        (lambda: parse_number(object(), "x"), ["object"]),  # type: ignore[arg-type]
        (lambda: parse_number(float("nan"), "x"), ["nan"]),  # type: ignore[arg-type]
        (lambda: parse_pay(Decimal("Infinity"), "x"), ["Infinity"]),
        (lambda: parse_commission(Fraction(1, 10**200)), ["digits"]),
        (lambda: Bet("b", "d", None, {"win": 1}), ["settle"]),  # type: ignore[arg-type]
        (lambda: Bet("b", "d", str, "win"), ["pays"]),  # type: ignore[arg-type]
        (lambda: available_bets(custom=[1]), ["not a Bet"]),  # type: ignore[list-item]
        (lambda: resolve_rules_file(None), ["None"]),  # type: ignore[arg-type]
        (lambda: parse_paytable(None), ["not text"]),  # type: ignore[arg-type]
        (lambda: parse_custom_bets(None), ["not text"]),  # type: ignore[arg-type]
        (lambda: parse_cards("ǰ"), ["Unknown card"]),
    ],
)
def test_api_mistakes_are_exact_odds_errors(
    call: Callable[[], object], fragments: list[str]
) -> None:
    with pytest.raises(ExactOddsError) as raised:
        call()
    message = str(raised.value)
    assert message.endswith(".") and "\n" not in message
    for fragment in fragments:
        assert fragment in message, (fragment, message)


JUNK: list[Any] = [
    None,
    1.5,
    float("nan"),
    "",
    "zz",
    -1,
    10**200,
    [],
    {},
    ["x"],
    {"x": 1},
    object(),
]


def test_junk_anywhere_in_the_api_is_an_exact_odds_error_or_works() -> None:
    shoe = Shoe.standard(decks=1)
    calls: list[Callable[[Any], object]] = [
        Shoe.parse,
        Shoe.from_json,
        Shoe.from_ranks,
        Shoe.from_mapping,
        Shoe.standard,
        shoe.remove,
        shoe.rank_count,
        shoe.card_count,
        lambda value: Shoe(value),
        lambda value: Rules(commission=value),
        lambda value: Rules(tie_pays=value),
        lambda value: Rules(banker_six_pays=value, variant="super6"),
        lambda value: Rules(tableau=value),
        lambda value: Tableau(player_draws=value),
        lambda value: Tableau(banker_draws=value),
        lambda value: analyze(value),
        lambda value: analyze(shoe, value),
        lambda value: analyze(shoe, Rules(), value),
        lambda value: select_bets(value),
        lambda value: select_bets("main", value),
        lambda value: select_bets("main", None, value),
        lambda value: select_bets("main", None, None, value),
        lambda value: apply_pays(available_bets(), {"dragon7": value}),
        parse_pay_option,
        parse_known,
        parse_cards,
        parse_rank,
        lambda value: parse_number(value, "x"),
        lambda value: parse_commission(value),
        lambda value: parse_rules_file(value),
        lambda value: resolve_rules_file(value),
        lambda value: parse_paytable(value),
        lambda value: parse_custom_bets(value),
    ]
    for number, call in enumerate(calls):
        for value in JUNK:
            try:
                call(value)
            except ExactOddsError as error:
                assert str(error) and "\n" not in str(error)
            except Exception as error:  # pragma: no cover - the failure message
                raise AssertionError(f"call {number} with {value!r}: {error!r}") from error


# Item 12: one endless line -------------------------------------------------------------------


def test_an_endless_line_is_refused_in_bounded_memory() -> None:
    result = run("batch", "/dev/zero")
    assert_one_error_line(result.stderr.encode(), f"longer than {MAX_LINE_BYTES:,} bytes")
    long_line = b"x" * (3 * MAX_LINE_BYTES) + b"\n" + FULL_SHOE_LINE.encode() + b"\n"
    result = run("batch", "--skip-bad", stdin=long_line)
    assert result.exit_code == 0 and result.stdout.count("\n") == 1
    assert f"({3 * MAX_LINE_BYTES:,} bytes)" in result.stderr
    lines = list(read_lines(io.BytesIO(b"x" * 100 + b"\ny\n"), 10))
    assert line_problem(lines[0]) == "is longer than 10 bytes (100 bytes)" and lines[1] == "y\n"


# Item 13: --skip-bad reports as it goes, and a run that wrote nothing fails ------------------


def test_every_bad_line_is_a_failure_not_a_success() -> None:
    result = run("batch", "--skip-bad", stdin="{bad\n[1]\n")
    assert result.exit_code == 2 and result.stdout == ""
    lines = result.stderr.splitlines()
    assert lines[0].startswith("Skipped line 1: ") and lines[1].startswith("Skipped line 2: ")
    assert lines[2] == "Error: Every line was bad: skipped 2 lines and wrote no result."
    assert run("batch", stdin="").exit_code == 0  # no input is not a failure


def test_skip_reports_come_as_the_lines_are_read() -> None:
    child = subprocess.Popen(
        [sys.executable, "-m", "exactodds", "batch", "--skip-bad", "--jobs", "1"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert child.stdin is not None and child.stderr is not None
    writer = feed_in_background(child.stdin, b"{bad\n" * 5000)  # more than a chunk
    report = wait_for_output(child.stderr, 60)  # while the input is not finished
    assert report.startswith(b"Skipped line 1: ")
    writer.join(60)
    _, rest = child.communicate((FULL_SHOE_LINE + "\n").encode(), timeout=60)
    assert child.returncode == 0
    assert (report + rest).decode().splitlines()[-1] == "Skipped 5000 bad lines; wrote 1 result."


# Item 15: messages ----------------------------------------------------------------------------


def test_messages_quote_the_value_short_and_without_escapes(tmp_path: Path) -> None:
    assert_one_error(run("odds", "--known", "1="), "'1=' has no card after the '='")
    message = assert_one_error(run("odds", "--decks", HUGE), "too large")
    assert len(message) < 200
    path = write(tmp_path, "pt_malformed.toml", "dragon7 = \n")
    assert_one_error(run("odds", "--paytable", path), "pt_malformed.toml")
    message = assert_one_error(run("eor", "--cards", str(10**30)), "remove at most 410 cards")
    assert "-9" not in message
    assert_one_error(run("odds", "--shoe", '{"A": true, "K": 10}'), "Count true for 'A'")
    assert_one_error(run("odds", "--shoe", '{"A": {"B": 1}}'), 'Count {"B": 1} for')
    if Path("/proc/self/status").exists():
        message = assert_one_error(run("odds", "--shoe", "/proc/self/status"))
        assert len(message) < 300
    message = assert_one_error(run("odds", "--shoe", "\x1b[2J=4"))
    assert "\x1b" not in message  # no terminal escapes from a user's value


# Item 16: a break-even pay the rules refuse is out of range -----------------------------------


def test_a_fair_tie_pay_of_zero_is_out_of_range() -> None:
    result = run("breakeven", "--bet", "tie", "--shoe", "K=6", "--format", "json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["in_range"] is False and data["breakeven"] == "0"
    assert "rules refuse" in run("breakeven", "--bet", "tie", "--shoe", "K=6").stdout
    assert_one_error(run("odds", "--tie-pays", "0"), "positive")


# Items 17 and 18: the README and the examples ---------------------------------------------


def test_fair_pays_without_sympy_is_one_line() -> None:
    script = (
        "import runpy, sys; sys.modules['sympy'] = None; sys.argv = ['fair_pays.py'];"
        f"runpy.run_path({str(ROOT / 'examples' / 'fair_pays.py')!r}, run_name='__main__')"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert 'pip install "exactodds[symbolic]"' in result.stderr
    library = (ROOT / "docs" / "library.md").read_text(encoding="utf-8")
    section = library[library.index("## Research scripts") :]
    assert re.search(r"fair_pays\.py[^.]*\[symbolic\]", section)


def test_the_checking_page_states_the_suite_time_and_every_ci_check() -> None:
    # The README is the front door; docs/checking.md says what CI runs and how long it takes.
    checking = (ROOT / "docs" / "checking.md").read_text(encoding="utf-8")
    assert re.search(r"takes about \d+ minutes", checking)
    for check in ("ruff check .", "ruff format --check .", "mypy"):
        assert check in checking
        assert check in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


# The property tests: random bytes and random JSON on every input path ------------------------

JSON_KEYS = st.one_of(
    st.sampled_from([*"A23456789TJQK", "10", "KS", "AH", "dragon7", "big", "name", "bet"]),
    st.text(max_size=6),
)
JSON_NUMBERS = st.one_of(
    st.integers(-(10**3), 10**3),
    st.integers(-(10**120), 10**120),
    st.floats(allow_nan=False, allow_infinity=False),
    st.just(10**60),
)
JSON_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), JSON_NUMBERS, st.text(max_size=8)),
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(JSON_KEYS, children, max_size=6)
    ),
    max_leaves=20,
)
SHOE_OBJECTS = st.dictionaries(
    st.sampled_from([*"A23456789TJQK", "KS", "QH", "x"]),
    st.one_of(st.integers(-2, 40), st.just(10**99), st.booleans(), st.none()),
    max_size=13,
)
DOCUMENTS = st.one_of(
    st.binary(max_size=200),
    JSON_VALUES.map(json.dumps).map(str.encode),
    SHOE_OBJECTS.map(json.dumps).map(str.encode),
    st.text(max_size=100).map(lambda text: text.encode("utf-8", "surrogatepass")),
)
PROPERTY = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def valid_json(text: str) -> None:
    json.loads(text)


def valid_table(text: str) -> None:
    assert text.strip()


def valid_lines(text: str) -> None:
    for line in text.splitlines():
        assert json.loads(line)["total"] > 0


@PROPERTY
@given(document=DOCUMENTS)
def test_property_any_shoe_on_stdin_or_in_a_file(document: bytes, tmp_path: Path) -> None:
    result = run("odds", "--shoe", "-", "--format", "json", "--bets", "banker", stdin=document)
    assert_clean_outcome(result, valid_json)
    path = tmp_path / "shoe.json"
    path.write_bytes(document)
    result = run("odds", "--shoe", str(path), "--format", "json", "--bets", "banker")
    assert_clean_outcome(result, valid_json)


@PROPERTY
@given(text=st.one_of(st.text(max_size=300), SHOE_OBJECTS.map(json.dumps)))
def test_property_any_shoe_as_an_argument(text: str) -> None:
    if "\x00" in text:  # an argument cannot hold a NUL byte
        text = text.replace("\x00", "")
    result = run("odds", "--shoe", text, "--format", "json", "--bets", "banker")
    assert_clean_outcome(result, valid_json)


@PROPERTY
@given(document=DOCUMENTS)
def test_property_any_pay_table_rules_or_bet_file(document: bytes, tmp_path: Path) -> None:
    path = tmp_path / "input"
    path.write_bytes(document)
    for option in ("--paytable", "--rules", "--bet-file"):
        assert_clean_outcome(run("bets", option, str(path)), valid_table)


@PROPERTY
@given(
    lines=st.lists(
        st.one_of(DOCUMENTS, st.just(FULL_SHOE_LINE.encode()), st.just(b"")), max_size=5
    ),
    skip_bad=st.booleans(),
)
def test_property_any_batch_lines(lines: list[bytes], skip_bad: bool) -> None:
    stdin = b"\n".join(line.replace(b"\n", b" ") for line in lines)
    arguments = ["batch", "--jobs", "1", *(["--skip-bad"] if skip_bad else [])]
    result = run(*arguments, stdin=stdin)
    assert "Traceback" not in result.stderr and "Internal error" not in result.stderr
    valid_lines(result.stdout)
    if result.exit_code == 0:
        assert all(line.startswith("Skipped ") for line in result.stderr.splitlines())
        return
    assert result.exit_code == 2
    *skips, last = result.stderr.splitlines()
    assert last.startswith("Error: ") and all(line.startswith("Skipped ") for line in skips)


@PROPERTY
@given(value=st.one_of(st.text(max_size=40), JSON_NUMBERS.map(str)))
def test_property_any_number_option(value: str) -> None:
    value = value.replace("\x00", "")
    for option in ("--tie-pays", "--commission", "--decks"):
        result = run("odds", option, value, "--bets", "banker", "--format", "json")
        assert_clean_outcome(result, valid_json)
    assert_clean_outcome(run("bets", "--pay", f"dragon7={value}", "--bets", "dragon7"), valid_table)


@PROPERTY
@given(document=JSON_VALUES)
def test_property_the_loader_returns_or_refuses(document: Any) -> None:
    text = json.dumps(document)
    try:
        loaded = load_json(text, "the input", ExactOddsError)
    except ExactOddsError as error:
        assert "\n" not in str(error)
        return
    assert json.dumps(loaded, default=str) is not None


# Round five (issue 36, item 6): the new surfaces (audit, design, specs, serve) -------------

PAIR_CONDITION_BET = """
[[bet]]
name = "tie_pair"
[[bet.outcome]]
name = "win"
when = { winner = "tie", player_total = 0, player_pair = true }
pays = 500
"""
QUICK_AUDIT = ["audit", "--bets", "dragon7", "--budget", "1", "--depths", "none", "--cuts", "14"]


def test_design_refuses_an_outcome_given_twice() -> None:
    result = run("audit", "--bets", "dragon7", "--design", "win=10..40", "--design", "win=20..30")
    assert_one_error(result, "--design gives outcome 'win' twice")


def test_design_json_with_a_window_below_break_even_is_json() -> None:
    result = run(
        "audit", "--bets", "dragon7", "--decks", "1", "--design", "win=42..45",
        "--target-edge", "-10%..-1%", "--design-top", "0", "--format", "json",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr

    def refuse(constant: str) -> None:
        raise AssertionError(f"{constant} is not JSON")

    design = json.loads(result.stdout, parse_constant=refuse)["design"]
    assert design and all(table["removal_index"] is None for table in design)


def test_design_bound_is_checked_before_the_grid_is_built() -> None:
    """10^8 tables: one sentence at once (the grid was built first, which did not answer)."""
    from exactodds.studies.design import PayRange, design_paytables

    huge = PayRange("win", Fraction(1), Fraction(10**8), Fraction(1))
    assert huge.size == 10**8
    with pytest.raises(ExactOddsError, match=r"hold 100,000,000 tables; narrow them"):
        design_paytables(select_bets("dragon7")[0], [huge], (Fraction(0), Fraction(1)))
    result = run("audit", "--bets", "dragon7", "--design", "win=1..100000000")
    assert_one_error(result, "--design hold 100,000,000 tables")


@pytest.mark.parametrize("rounds", ["1000000000", "100000000000", "1000000000000000000"])
def test_trip_rounds_past_what_the_programme_follows_are_refused_before_dealing(
    rounds: str,
) -> None:
    result = run("simulate", "--bets", "tie", "--shoes", "5", "--bankroll", "100",
                 "--trip-rounds", f"800,{rounds}")  # fmt: skip
    assert_one_error(result, f"--trip-rounds {int(rounds):,} makes trips of", "at most 3,000")


def test_an_audit_of_a_pair_condition_bet_says_how_long_before_the_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """30 s for a budget of 1, hours at the default, used to start without a word."""
    import exactodds.cli.audit as audit_cli
    import exactodds.studies.audit as audit_module

    bet_file = tmp_path / "tie_pair.toml"
    bet_file.write_text(PAIR_CONDITION_BET, encoding="utf-8")
    spec = audit_module.AuditSpec(
        parse_custom_bets(PAIR_CONDITION_BET, "tie_pair.toml"), budget=500
    )
    seconds = audit_module.audit_seconds(spec)
    assert list(seconds) == ["tie_pair"] and seconds["tie_pair"] > 0
    assert audit_module.audit_seconds(audit_module.AuditSpec(select_bets("dragon7"))) == {}

    def stop(*_arguments: Any, **_keywords: Any) -> None:
        raise audit_module.AuditError("The work started.")

    monkeypatch.setattr(audit_module, "audit", stop)
    monkeypatch.setattr(audit_cli, "_ANNOUNCED_SECONDS", 0)
    result = run("audit", "--bet-file", str(bet_file), "--bets", "tie_pair", "--depths", "none")
    note, error = result.stderr.splitlines()
    assert note.startswith("Note: tie_pair is priced round by round by the exact walk")
    assert "takes about" in note and "--budget (now 500)" in note
    assert error == "Error: The work started."


@pytest.mark.parametrize(
    ("seed", "fragment"),
    [
        ("1" + "0" * 119, "A seed of 120 digits for --seed is above 2^128 - 2"),
        ("-1", "Seed -1 for --seed is not valid; use a whole number of at least 0"),
        (str(2**128 - 1), f"Seed {2**128 - 1} for --seed is above 2^128 - 2"),
    ],
)
def test_audit_seed_out_of_range_is_one_sentence(seed: str, fragment: str) -> None:
    assert_one_error(run(*QUICK_AUDIT, "--seed", seed), fragment)


def test_audit_seed_of_the_largest_simulation_seed_no_longer_contradicts_itself() -> None:
    """2^128 - 1 was refused with 'A seed of 39 digits ... use 0 to 2^128 - 1'."""
    stderr = assert_one_error(run(*QUICK_AUDIT, "--seed", str(2**128 - 1)))
    assert "digits" not in stderr and "0 to 2^128 - 2" in stderr


@pytest.mark.parametrize(
    ("fields", "fragment"),
    [
        ({"seed": 1.5}, "Seed 1.5 for `seed` is not valid"),
        ({"seed": -1}, "Seed -1 for `seed` is not valid"),
        ({"depths": [18.0]}, "Depth 18.0 for `depths` is not valid; use a whole number from 6"),
        ({"depths": [5, 417]}, "Depth 5 for `depths` is not valid"),
        ({"depths": [18, 18]}, "`depths` names 18 cards left twice"),
        ({"depths": "18"}, "not a sequence of cards left"),
    ],
)
def test_audit_spec_refuses_bad_fields_naming_them(fields: dict[str, Any], fragment: str) -> None:
    from exactodds.studies.audit import AuditError, AuditSpec

    with pytest.raises(AuditError) as raised:
        AuditSpec(select_bets("dragon7"), **fields)
    assert fragment in str(raised.value) and "\n" not in str(raised.value)


def test_audit_and_design_refuse_jobs_zero() -> None:
    from exactodds.studies.audit import AuditError, AuditSpec, audit
    from exactodds.studies.design import PayRange, design_paytables

    spec = AuditSpec(select_bets("dragon7"), budget=1, depths=())
    with pytest.raises(AuditError, match="Number of processes 0 for `jobs`"):
        audit(spec, jobs=0)
    pays = [PayRange("win", Fraction(40), Fraction(41), Fraction(1))]
    with pytest.raises(AuditError, match="Number of processes 0 for `jobs`"):
        design_paytables(select_bets("dragon7")[0], pays, (Fraction(0), Fraction(1)), jobs=0)


def test_design_paytables_given_text_ranges_names_the_parameter() -> None:
    """It raised AttributeError ('str' object has no attribute 'outcome')."""
    from exactodds.studies.audit import AuditError
    from exactodds.studies.design import design_paytables

    window = (Fraction(1, 20), Fraction(2, 25))
    for ranges in ("win=30..45", ["win=30..45"]):
        with pytest.raises(AuditError, match=r"`ranges` .*parse_pay_range"):
            design_paytables(select_bets("dragon7")[0], ranges, window)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("low", "high", "step", "fragment"),
    [
        (10, 20, 0, "`step` 0 of the pay range for 'win' is not valid; use 1 or 1/2"),
        (10, 20, Fraction(1, 3), "use 1 or 1/2"),
        (Fraction(21, 2), 20, 1, "not whole steps of 1"),
        (20, 10, 1, "is empty"),
        (-5, 3, 1, "starts at -5, below -1"),
        (10.5, 20, 1, "use an exact number"),
    ],
)
def test_pay_range_checks_itself(low: Any, high: Any, step: Any, fragment: str) -> None:
    """PayRange(step=0) raised ZeroDivisionError; a pay below -1 was designed."""
    from exactodds.studies.audit import AuditError
    from exactodds.studies.design import PayRange

    with pytest.raises(AuditError) as raised:
        PayRange("win", low, high, step)
    assert fragment in str(raised.value)


@pytest.mark.parametrize(
    ("arguments", "fragment"),
    [
        (["--depths", "5,417"], "Depth 5 for --depths is not valid; use a whole number from 6"),
        (["--depths", "18,417"], "Depth 417 for --depths is not valid"),
        (["--depths", "18,18"], "--depths names 18 cards left twice"),
        (["--bets", ""], "--bets '' names no bet"),
        (["--bets", " , "], "names no bet"),
        (["--design", "win=-5..3"], "starts at -5, below -1"),
        (["--target-edge", "1%..2%"], "--target-edge applies to pay-table design only"),
        (["--design-top", "2"], "--design-top applies to pay-table design only"),
    ],
)
def test_audit_bad_input_that_was_accepted(arguments: list[str], fragment: str) -> None:
    base = ["audit", "--bets", "dragon7", "--budget", "1", "--cuts", "14"]
    assert_one_error(run(*base, *arguments), fragment)


def test_simulate_ramp_of_zero_units_is_refused() -> None:
    result = run("simulate", "--bets", "tie", "--shoes", "1", "--stake", "ramp:0=0")
    assert_one_error(result, "Ramp step '0=0' in --stake 'ramp:0=0' bets 0 units")


def test_optimal_ramp_writes_no_step_of_zero_units() -> None:
    from exactodds.simulation.staking.optimal import BandSums, ramp_of
    from exactodds.simulation.staking.stakes import parse_stake

    bands = tuple(BandSums(band, 1, Fraction(0), Fraction(1)) for band in (1, 2, 3))
    ramp = ramp_of(bands, (0, 1, 4), "true_count")
    assert ramp.text() == "ramp:tc:2=1,3=4"
    assert parse_stake(ramp.text()).describe() == ramp.describe()


# Round four's leftovers ------------------------------------------------------------------


@pytest.mark.parametrize(
    "arguments",
    [
        ["depth", "--decks", "1", "--cards", "6", "--bets", "tie"],
        ["eor", "--decks", "1", "--bets", "tie"],
        ["report", "--decks", "1", "--bets", "tie", "--no-figures"],
    ],
)
def test_a_figure_that_cannot_be_written_is_an_output_failure(
    arguments: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full disk while the figures are written: exit 1 (an output failure), not 2."""
    pytest.importorskip("matplotlib")
    import errno

    from matplotlib.figure import Figure

    def full(*_arguments: Any, **_keywords: Any) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Figure, "savefig", full)
    result = run(*arguments, "--plot", str(tmp_path / "figures"))
    assert result.exit_code == 1, result.stderr
    assert result.stderr.splitlines()[-1].startswith("Error: Cannot write the figure")
    assert "No space left on device" in result.stderr


@pytest.mark.parametrize(
    "arguments",
    [
        ["depth", "--decks", "1", "--cards", "6", "--bets", "tie"],
        ["eor", "--decks", "1", "--bets", "tie"],
        ["report", "--decks", "1", "--bets", "tie", "--no-figures"],
    ],
)
def test_a_plot_directory_that_is_a_file_or_under_one_is_refused_before_the_work(
    arguments: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import exactodds.cli.plots as plots

    a_file = tmp_path / "regular"
    a_file.write_text("x", encoding="utf-8")

    def no_work(*_arguments: Any, **_keywords: Any) -> None:
        raise AssertionError("the figures were drawn before the directory was checked")

    monkeypatch.setattr(plots, "write_plots", no_work)
    for directory, fragment in [
        (a_file, "it is a file, not a directory"),
        (a_file / "figures", f"{str(a_file)!r} is a file, not a directory"),
    ]:
        result = run(*arguments, "--plot", str(directory))
        assert_one_error(result, f"Cannot write figures to --plot {str(directory)!r}", fragment)


@pytest.mark.parametrize("value", ["0", "-1"])
def test_report_max_tag_below_one_is_refused(value: str) -> None:
    result = run("report", "--decks", "1", "--bets", "tie", "--max-tag", value)
    assert_one_error(result, f"Largest tag {value} for --max-tag is not valid")


def test_depth_min_edge_names_the_flag() -> None:
    stderr = assert_one_error(run("depth", "--decks", "1", "--cards", "6", "--min-edge", "x"))
    assert "'x' for --min-edge is not a number" in stderr and "min_edge" not in stderr
