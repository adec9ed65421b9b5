"""Issue 22: every decision exact whatever the magnitudes, every input bounded, nothing lost.

Each test names what it checks; the properties compare the fast path (numpy) against a plain
Python-integer reference on inputs that straddle the 64-bit limits.
"""

from __future__ import annotations

import functools
import io
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from budget import THOROUGH, budgeted
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, example, given
from hypothesis import strategies as st

from exactodds import (
    Analyzer,
    Bet,
    Card,
    ExactOddsError,
    OutcomeCount,
    Rank,
    Rules,
    Shoe,
    analyze,
    analyze_many,
    breakeven,
    load_custom_bets,
    main_bets,
    price_bet,
)
from exactodds.bets.catalogue import select_bets
from exactodds.bets.custom import parse_custom_bets
from exactodds.cli import cli
from exactodds.errors import ShoeError, SimulationError
from exactodds.games.chemin_de_fer import Model as GameModel
from exactodds.games.chemin_de_fer import build_game, solve
from exactodds.games.equilibria import payoff_ranges, solve_one_choice
from exactodds.simulation.checkpoint import (
    CHECKPOINT_LIMIT,
    CheckpointError,
    _checksum,
    check_tally,
    save_checkpoint,
)
from exactodds.simulation.dealing import DealingProcedure
from exactodds.simulation.run import Simulation, simulate
from exactodds.simulation.strategies import Always, Count, parse_strategy

PROPERTY = budgeted(60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
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
        (
            "count:" + "1" * 101 + ",1,1,1,1,1,1,1,1,1:1",
            "Count tag with 101 digits for --play is too large",
        ),
        ("count:1,1,1,1,1,1,1,1,1,1:" + "1" * 101, "101 digits"),
        (
            "count:1,1,1,1,1,1,1,1,1,1:1:start=-" + "1" * 101,
            "Starting count with 101 digits for --play is too large",
        ),
        ("count:1,1,1,1,1,1,1,1,1,1:1e400", "exponent"),
        ("count:1,1,1,1,1,1,1,1,1,1:1:start=1.5", "Starting count '1.5' for --play is not valid"),
    ],
)
def test_count_numbers_past_one_hundred_digits_are_one_sentence(play: str, fragment: str) -> None:
    assert_one_error(run("simulate", "--shoes", "1", "--bets", "tie", "--play", play), fragment)


def test_a_one_hundred_digit_count_still_parses() -> None:
    text = "count:" + ",".join(["9" * 100] * 10) + ":-" + "9" * 100 + ":start=" + "9" * 100
    strategy = parse_strategy(text)
    assert isinstance(strategy, Count)
    assert strategy.count_bound(8) == 10**100 - 1 + 32 * 13 * (10**100 - 1)


# Simulate: bounded before work starts, checkpoints read as hostile input ---------------------


def test_ten_billion_shoes_start_dealing_at_once_in_bounded_memory(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    command = [sys.executable, "-m", "exactodds", "simulate", "--quiet", "--format", "json"]
    process = subprocess.Popen(
        [*command, "--shoes", "10000000000", "--jobs", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    request.addfinalizer(process.kill)  # not left dealing if the test fails before it ends
    # Start-up, then dealing (blocks planned lazily): 3 CPU-seconds of the command's own, however
    # loaded the machine (Linux's /proc says; elsewhere 3.5 s of the clock).
    stat = Path(f"/proc/{process.pid}/stat")
    deadline = time.monotonic() + (60 if stat.exists() else 3.5)
    while time.monotonic() < deadline and process.poll() is None:
        if stat.exists():
            ticks = sum(int(field) for field in stat.read_text().rsplit(")", 1)[1].split()[11:13])
            if ticks >= 3 * os.sysconf("SC_CLK_TCK"):
                break
        time.sleep(0.1)
    status = Path(f"/proc/{process.pid}/status")
    peak = status.read_text() if status.exists() else ""  # this process's own peak, VmHWM
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    assert json.loads(stdout)["shoes"] > 0
    for line in peak.splitlines():
        if line.startswith("VmHWM:"):
            assert int(line.split()[1]) < 200 * 1024, line


@pytest.mark.parametrize("shoes", [str(10**15 + 1), "1" + "0" * 100])
def test_more_shoes_than_a_checkpoint_holds_is_one_sentence(shoes: str) -> None:
    assert_one_error(run("simulate", "--shoes", shoes), "at most 1,000,000,000,000,000")


def small_study(shoes: int = 3) -> Simulation:
    return Simulation.of(
        shoes, 7, bets=select_bets("tie,banker"), procedure=DealingProcedure(decks=1)
    )


@functools.cache
def checkpoint_text() -> str:
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "run.json"
        simulate(small_study(), checkpoint=path)
        return path.read_text(encoding="utf-8")


def written_checkpoint(directory: Path) -> tuple[Path, dict[str, Any]]:
    """A real checkpoint of the first 3 shoes of small_study, freshly written in *directory*."""
    path = directory / "run.json"
    path.write_text(checkpoint_text(), encoding="utf-8")
    return path, json.loads(checkpoint_text())


def test_a_checkpoint_resumes_to_the_run_in_one_go(tmp_path: Path) -> None:
    path, _ = written_checkpoint(tmp_path)
    assert (
        simulate(small_study(5), checkpoint=path, resume=True).tally
        == simulate(small_study(5)).tally
    )


def rewrite(path: Path, data: dict[str, Any], *, forge: bool) -> None:
    if forge:  # a forger recomputes the checksum: the consistency checks still hold
        data["checksum"] = _checksum(data)
    path.write_text(json.dumps(data), encoding="utf-8")


@pytest.mark.parametrize(
    ("edit", "fragment"),
    [
        (
            lambda data: (
                data["tally"].update(shoes=10, rounds=data["tally"]["rounds"])
                or data.update(next_shoe=10)
            ),
            "histogram",
        ),
        (lambda data: data["tally"]["bets"][0]["realized"].__setitem__(0, 10**6), "realized"),
        (lambda data: data["tally"].update(shoes=-1) or data.update(next_shoe=-1), "negative"),
        (lambda data: data["tally"]["bets"][1].update(bets_made=-3), "bets made"),
        (
            lambda data: data["tally"]["bets"][1].update(
                ev_made=data["tally"]["bets"][1]["ev_made"] + 1
            ),
            "EV made",
        ),
    ],
)
def test_forged_checkpoints_are_refused_by_their_consistency(
    tmp_path: Path, edit: Any, fragment: str
) -> None:
    path, data = written_checkpoint(tmp_path)
    rewrite(path, data, forge=False)
    edit(data)
    rewrite(path, data, forge=False)
    with pytest.raises(SimulationError, match="checksum"):
        simulate(small_study(5), checkpoint=path, resume=True)
    rewrite(path, data, forge=True)
    with pytest.raises(SimulationError, match=fragment):
        simulate(small_study(5), checkpoint=path, resume=True)


def json_paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(value, dict):
        return [path for key in value for path in json_paths(value[key], (*prefix, key))] + [prefix]
    if isinstance(value, list):
        return [path for i, item in enumerate(value) for path in json_paths(item, (*prefix, i))] + [
            prefix
        ]
    return [prefix]


REPLACEMENTS = st.one_of(
    MAGNITUDES,
    st.none(),
    st.booleans(),
    st.text(max_size=5),
    st.just([]),
    st.just({}),
    st.floats(allow_nan=False, allow_infinity=False),
)


@PROPERTY
@given(data=st.data(), forge=st.booleans())
def test_any_edit_of_a_checkpoint_is_refused_in_one_sentence_or_resumes_exactly(
    tmp_path: Path, data: st.DataObject, forge: bool
) -> None:
    path, document = written_checkpoint(Path(tempfile.mkdtemp(dir=tmp_path)))
    target = data.draw(st.sampled_from([p for p in json_paths(document) if p]))
    parent = document
    for key in target[:-1]:
        parent = parent[key]
    parent[target[-1]] = data.draw(REPLACEMENTS)
    rewrite(path, document, forge=forge)
    try:
        resumed = simulate(small_study(5), checkpoint=path, resume=True)
    except SimulationError as error:
        assert str(error).count(". ") == 0 and str(error).endswith("."), str(error)
        return
    if forge:
        # A forger who recomputes the checksum can write any tally the consistency checks
        # admit (a bin moved in a histogram, say): no reader can tell that from a real run.
        # What holds is that the resumed run is a consistent tally, never an Internal error.
        check_tally(resumed.tally, small_study(5))
        assert resumed.tally.shoes == 5
        return
    # Unforged and accepted: then the edit did not change what the checkpoint means.
    assert resumed.tally == simulate(small_study(5)).tally


def test_a_device_or_a_fifo_is_not_read_as_a_checkpoint(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for path in ("/dev/zero", str(fifo)):
        with pytest.raises(SimulationError, match="not a regular file"):
            simulate(small_study(), checkpoint=path, resume=True)
    huge = tmp_path / "huge.json"
    with huge.open("wb") as stream:
        stream.truncate(CHECKPOINT_LIMIT + 1)
    with pytest.raises(SimulationError, match="larger than"):
        simulate(small_study(), checkpoint=huge, resume=True)


def test_a_checkpoint_that_fails_mid_run_still_prints_the_finished_shoes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import exactodds.simulation.run as run_module

    calls = []

    def failing(path: Path, *arguments: Any) -> None:
        calls.append(path)
        if len(calls) > 1:
            raise CheckpointError(
                f"Cannot write checkpoint {str(path)!r} (No space left on device)."
            )
        save_checkpoint(path, *arguments)

    monkeypatch.setattr(run_module, "save_checkpoint", failing)
    monkeypatch.setattr(run_module, "CHECKPOINT_SECONDS", -1.0)
    result = run(
        "simulate",
        "--quiet",
        "--shoes",
        "600",
        "--decks",
        "1",
        "--jobs",
        "1",
        "--format",
        "json",
        "--checkpoint",
        str(tmp_path / "run.json"),
    )
    assert result.exit_code == 1, result.stderr
    # The first block (the value study's, of up to 8 decks), finished before the failure.
    assert json.loads(result.stdout)["shoes"] == run_module.VALUE_BLOCK_SHOES
    assert (
        result.stderr
        == f"Error: Cannot write checkpoint {str(tmp_path / 'run.json')!r} (No space left on device).\n"
    )


# Analyzer.expected_value_table: numpy rows become Python integers at the boundary -------------

INTEGER_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
TABLE_BETS = select_bets("tie,player_pair,dragon7")


@st.composite
def integer_rows(draw: st.DrawFn) -> tuple[Any, list[int]]:
    dtype = draw(st.sampled_from(INTEGER_DTYPES))
    largest = int(np.iinfo(dtype).max)  # type: ignore[type-var]
    size = draw(
        st.sampled_from([1, 2, 60, 2**31, 2**40, 2**58, 2**62, 2**63 - 1]).map(
            lambda n: min(n, largest)
        )
    )
    counts = draw(
        st.lists(st.integers(0, size), min_size=13, max_size=13).filter(lambda c: sum(c) >= 6)
    )
    return dtype, counts


@PROPERTY
@given(case=integer_rows())
@example(case=(np.int64, [10**6] * 13))
@example(case=(np.uint64, [2**40] * 13))
def test_numpy_rows_of_every_integer_dtype_price_as_python_integers(
    case: tuple[Any, list[int]],
) -> None:
    dtype, counts = case
    analyzer = Analyzer(bets=TABLE_BETS)
    table = analyzer.expected_value_table(np.array([counts], dtype=dtype))
    reference = analyze(Shoe(tuple(counts)), bets=TABLE_BETS)
    for bet in TABLE_BETS:
        assert table.expected_value(0, bet.name) == reference.bets[bet.name].expected_value


@pytest.mark.parametrize(
    ("rows", "fragment"),
    [
        (np.full((1, 13), 4.5), "float64 counts"),
        (np.full((1, 13), True), "bool counts"),
        (np.full((1, 13), -1, dtype=np.int32), "negative count (-1)"),
        (np.full((2, 12), 4), "shape (2, 12)"),
        ([[4] * 12], "holds 12 counts"),
        ([[4] * 12 + [4.0]], "Count 4.0 in row 0"),
        ([[4] * 12 + [True]], "Count True in row 0"),
        ([[4] * 12 + [-1]], "Count -1 in row 0"),
        (None, "rank_counts is NoneType"),
        ("AAAA", "rank_counts is str"),
    ],
)
def test_bad_table_rows_are_one_sentence(rows: Any, fragment: str) -> None:
    with pytest.raises(ShoeError, match=re.escape(fragment)):
        Analyzer().expected_value_table(rows)


def test_suit_rows_must_add_up_to_their_rank_rows() -> None:
    with pytest.raises(ShoeError, match="does not add up"):
        Analyzer().expected_value_table([[4] * 13], [[1] * 51 + [0]])
    with pytest.raises(ShoeError, match="does not add up"):
        Analyzer().expected_value_table(np.full((1, 13), 4), np.array([[1] * 51 + [0]]))


# Item 6: the Python API refuses wrong types in one ExactOddsError sentence --------------------


def _custom_bet_file() -> Path:
    path = Path(tempfile.mkdtemp()) / "bets.toml"
    path.write_text('[[bet]]\nname = "x"\n', encoding="utf-8")
    return path


ONE_SHOE_TABLE = functools.partial(
    lambda: Analyzer(bets=select_bets("tie")).expected_value_table([[4] * 13])
)
API_MISTAKES: list[tuple[str, Any]] = [
    ("analyze_many(None)", lambda: list(analyze_many(None))),  # type: ignore[arg-type]
    ("chunk_size=0", lambda: list(analyze_many([Shoe.standard(1)], chunk_size=0))),
    ("chunk_size='2'", lambda: list(analyze_many([Shoe.standard(1)], chunk_size="2"))),  # type: ignore[arg-type]
    ("main_bets(None)", lambda: main_bets(None)),  # type: ignore[arg-type]
    ("price_bet(None, bet)", lambda: price_bet(None, select_bets("tie")[0])),  # type: ignore[arg-type]
    ("breakeven(None)", lambda: breakeven(None)),  # type: ignore[arg-type]
    ("taken=None", lambda: load_custom_bets(_custom_bet_file(), taken=None)),  # type: ignore[arg-type]
    ("table row 5", lambda: ONE_SHOE_TABLE().expected_value(5, "tie")),
    ("table bet nosuch", lambda: ONE_SHOE_TABLE().expected_value(0, "nosuch")),
    ("Card('Z')", lambda: Card("Z")),  # type: ignore[arg-type]
    ("Card('K', 'X')", lambda: Card("K", "X")),  # type: ignore[arg-type]
    ("Bet win -2", lambda: Bet("x", "", lambda summary: "win", {"win": -2})),
    ("OutcomeCount total 0", lambda: OutcomeCount("x", 1, 0)),
]


@pytest.mark.parametrize(("name", "call"), API_MISTAKES, ids=[name for name, _ in API_MISTAKES])
def test_python_api_mistakes_are_one_exact_odds_error(name: str, call: Any) -> None:
    with pytest.raises(ExactOddsError) as caught:
        call()
    message = str(caught.value)
    assert message.endswith(".") and "\n" not in message, message


def test_a_card_made_from_symbols_is_a_real_card() -> None:
    assert Card("K") == Card(Rank.KING) and Card("10", "h").symbol == "TH"  # type: ignore[arg-type]


def test_a_dask_address_that_is_not_one_is_refused_at_once() -> None:
    pytest.importorskip("distributed")
    started = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "exactodds", "simulate", "--shoes", "1", "--dask", "not a url"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert time.perf_counter() - started < 15
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("Error: --dask 'not a url' is not a Dask scheduler address")
    assert result.stderr.count("\n") == 1, result.stderr


def test_simulate_with_stderr_closed_still_writes_its_result() -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "exactodds",
            "simulate",
            "--shoes",
            "1",
            "--decks",
            "1",
            "--format",
            "json",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        timeout=60,
        preexec_fn=lambda: os.close(2),
    )
    assert result.returncode == 0
    assert json.loads(result.stdout)["shoes"] == 1


def test_batch_full_notices_a_closed_pipe_within_a_chunk() -> None:
    lines = "".join(
        json.dumps({rank: 32 - i % 5 for rank in "A23456789TJQK"}) + "\n" for i in range(5000)
    )
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "exactodds", "batch", "--full", "--bets", "all"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdin is not None and process.stdout is not None
    feeder = threading.Thread(target=lambda: _feed(process.stdin, lines.encode()))
    feeder.start()
    assert len(process.stdout.read(100)) == 100
    process.stdout.close()  # the reader has gone, as with | head -c 100
    process.wait(timeout=60)
    feeder.join()
    # 2,048-line chunks took most of a minute to notice; a chunk of --full lines takes a second.
    assert time.perf_counter() - started < 20
    assert process.returncode == 1


def _feed(stream: Any, data: bytes) -> None:
    try:
        stream.write(data)
        stream.close()
    except (BrokenPipeError, OSError):
        pass


@pytest.mark.parametrize(
    ("document", "fragment"),
    [
        ('[[bet]]\nname = "b{i}"\n[[bet.outcome]]\nwhen = {{}}\npays = 1\n', "describes 65 bets"),
        (None, "has 65 outcomes"),
    ],
)
def test_bet_files_are_capped_in_bets_and_outcomes(document: str | None, fragment: str) -> None:
    if document is not None:
        text = "".join(document.format(i=i) for i in range(65))
    else:
        text = '[[bet]]\nname = "many"\n' + "".join(
            f'[[bet.outcome]]\nname = "o{i}"\nwhen = {{}}\npays = 1\n' for i in range(65)
        )
    with pytest.raises(ExactOddsError, match=fragment):
        parse_custom_bets(text)


# Item 7: chemin de fer reports the equilibrium set honestly -----------------------------------

TINY_SHOE = "T=3,A=1,2=1,4=1,7=1"


def test_an_interval_of_equilibria_reports_the_range_of_the_banker_payoff() -> None:
    solution = solve(
        Shoe.parse(TINY_SHOE),
        GameModel(banker_sees="total", player_sees="cards", commission=Fraction(1, 20)),
    )
    (equilibrium,) = solution.equilibria
    assert equilibrium.player_draw_at_5_up_to is not None
    assert equilibrium.banker_payoff_range == (Fraction(1, 24), Fraction(353, 8400))
    # The range's ends are reached: the Banker's payoff at the two ends of the Player's interval.
    assert not equilibrium.banker_unique and not solution.complete
    assert "continuum" in solution.incomplete_because
    data = json.loads(
        run(
            "solve",
            "--shoe",
            TINY_SHOE,
            "--banker-sees",
            "total",
            "--player-sees",
            "cards",
            "--commission",
            "1/20",
            "--format",
            "json",
        ).stdout
    )
    assert data["complete"] is False
    assert data["equilibria"][0]["banker_payoff_range"] == ["1/24", "353/8400"]


def test_with_replacement_only_the_weighted_draw_probability_is_claimed() -> None:
    solution = solve(
        Shoe.standard(decks=1),
        GameModel(dealing="replacement", banker_sees="total", player_sees="cards"),
    )
    (equilibrium,) = solution.equilibria
    assert equilibrium.player_draw_at_5_weighted == Fraction(9, 11)  # Kemeny and Snell's 9/11
    assert not solution.complete and "weighted" in solution.incomplete_because
    table = run(
        "solve",
        "--decks",
        "1",
        "--dealing",
        "replacement",
        "--banker-sees",
        "total",
        "--player-sees",
        "cards",
    ).stdout
    # The table wraps its prose at 100 columns: read it as one text.
    assert "weighted by how often each composition is dealt is determined: 9/11" in " ".join(
        table.split()
    )


def test_the_banker_payoff_ranges_hold_at_the_ends_of_the_interval() -> None:
    game = build_game(
        Shoe.parse(TINY_SHOE),
        GameModel(banker_sees="total", player_sees="cards", commission=Fraction(1, 20)),
    )
    (profile,) = solve_one_choice(game)
    assert profile.player_up_to is not None
    (low, high), _ = payoff_ranges(game, profile)
    at_ends = {
        game.banker.value(end, profile.banker) for end in (profile.player, profile.player_up_to)
    }
    assert low <= min(at_ends) and max(at_ends) <= high


@pytest.mark.parametrize(
    ("commission", "message"),
    [
        ("1:1", "such as 5%, 0.05 or 1/20."),
        (
            "x",
            "Commission 'x' for --commission is not a number; use a rate such as 5%, 0.05 or 1/20.",
        ),
        ("5", "(did you mean 5%?)"),
    ],
)
def test_commission_errors_suggest_commissions(commission: str, message: str) -> None:
    result = run("solve", "--commission", commission)
    assert_one_error(result, message)
    assert "8:1" not in result.stderr and "1:1%" not in result.stderr


@pytest.mark.parametrize("tie_pays", [8, 10**8, 10**30])
def test_huge_pays_are_tallied_exactly(tie_pays: int) -> None:
    rules = Rules(tie_pays=tie_pays)
    study = Simulation.of(
        2, 3, rules, select_bets("tie", rules), {"tie": Always()}, DealingProcedure(decks=1)
    )
    trace = io.StringIO()
    tally = simulate(study, trace=trace).tally.bets[0]
    rounds = [json.loads(line) for line in trace.getvalue().splitlines()]
    ties = sum(record["winner"] == "tie" for record in rounds)
    assert tally.realized.total == ties * tie_pays - (len(rounds) - ties)
    exact = sum((Fraction(record["ev"]["tie"]) for record in rounds), Fraction(0))
    # Each EV in units of 2**-40: within one unit of the exact value, whatever the magnitude
    # (below 2**9 units from its float64 value, which is within a unit too).
    assert abs(Fraction(tally.ev_made) - exact * 2**40) <= len(rounds)


# Two limits on the number of decks (issue 28, item 3; issue 36, item 7) ---------------------


def test_the_number_of_decks_is_bounded_where_memory_grows_with_the_shoe() -> None:
    from starlette.testclient import TestClient

    from exactodds.errors import SimulationError
    from exactodds.inputs import MAX_DECKS
    from exactodds.simulation.dealing import DealingProcedure
    from exactodds.web.app import create_app
    from exactodds.web.tracker import TableSettings

    too_many = MAX_DECKS + 1
    limit = f"from 1 to {MAX_DECKS}."
    assert DealingProcedure(decks=MAX_DECKS).decks == TableSettings(decks=MAX_DECKS).decks
    with pytest.raises(ExactOddsError, match=limit):
        TableSettings(decks=too_many)
    with pytest.raises(SimulationError, match=limit):
        DealingProcedure(decks=too_many)
    commands = (["depth", "--cards", "1"], ["simulate", "--shoes", "1"], ["report"])
    for command in commands:
        refused = CliRunner().invoke(cli, [*command, "--decks", str(too_many)])
        assert refused.exit_code == 2, (command, refused.stderr)
        assert refused.stderr.endswith(f"for --decks is not valid; use a whole number {limit}\n")
    accepted = CliRunner().invoke(
        cli, ["depth", "--cards", "6", "--bets", "tie", "--decks", str(MAX_DECKS)]
    )
    assert accepted.exit_code == 0, accepted.stderr
    with TestClient(create_app(":memory:"), base_url="http://localhost") as client:
        response = client.post("/api/shoes", json={"settings": {"decks": too_many}})
        assert response.status_code == 422, response.text
        assert response.json()["error"].endswith(limit)
        # A tracked table records its shoe; the stateless odds answer as the command does.
        assert client.post("/api/odds", json={"decks": 1_000_000}).status_code == 200
        table = client.post("/api/shoes", json={"settings": {"decks": MAX_DECKS}})
        assert table.status_code == 201
        assert client.get("/api/options").json()["max_decks"] == MAX_DECKS


UNGROWING = (
    ["odds"],
    ["eor", "--bets", "tie"],
    ["breakeven", "--bet", "tie"],
    ["breakdown"],
    ["solve"],
    # Edge sorting prices every pattern twice over: the thorough run tries it.
    pytest.param(["edgesort", "--cards", "1", "--digits", "3"], marks=THOROUGH),
)


@pytest.mark.parametrize("command", UNGROWING, ids=lambda command: command[0])
def test_a_million_decks_cost_what_eight_do_where_the_work_does_not_grow(
    command: list[str],
) -> None:
    # The walk counts value classes, so the shoe's size is only the size of its integers.
    result = CliRunner().invoke(cli, [*command, "--decks", "1000000", "--format", "json"])
    assert result.exit_code == 0, result.stderr
    # Every command but edgesort names the shoe it priced; edgesort's chances are the deck's.
    assert "52000000" in result.stdout or '"probability": "9/13"' in result.stdout


def test_a_million_decks_price_as_the_same_shoe_given_by_its_counts() -> None:
    from exactodds.analysis.single import analyze

    by_decks = CliRunner().invoke(cli, ["odds", "--decks", "1000000", "--format", "json"])
    assert by_decks.exit_code == 0, by_decks.stderr
    bets = json.loads(by_decks.stdout)["bets"]
    exact = analyze(Shoe.from_ranks((4_000_000,) * 13))
    for name in ("banker", "player", "tie"):
        assert Fraction(bets[name]["ev"]) == exact.bets[name].expected_value


def test_past_the_largest_count_the_number_of_decks_is_one_sentence() -> None:
    from exactodds.inputs import MOST_DECKS

    assert Shoe.standard(MOST_DECKS).rank_count("A") == 4 * MOST_DECKS < 10**100
    with pytest.raises(ExactOddsError, match=r"has 100 digits, too many; use fewer than 2\.5"):
        Shoe.standard(MOST_DECKS + 1)
    refused = CliRunner().invoke(cli, ["odds", "--decks", str(MOST_DECKS + 1)])
    assert refused.exit_code == 2
    assert refused.stderr.startswith("Error: Number of decks for --decks has 100 digits")
    assert "Traceback" not in refused.stderr
