"""Start-up: the compiled polynomials' disk cache, the value-level route, and lazy imports.

``exactodds odds`` must start fast (issue 9: at most 0.25 s as a whole
process; the figures are measured in ``benchmarks/bench_startup.py``, never
here).  What is tested here is what makes that safe:

* the disk cache round-trips exactly: polynomials read back equal freshly
  compiled ones, and so do the numpy arrays built from them;
* a corrupt, truncated, foreign, oversized or unwritable cache is never an
  error and never trusted: it is rebuilt, and the figures do not change;
* ``analyze`` prices value-level bets from the polynomials with exactly the
  walk's counts (on random shoes, every variant, shipped tableaux);
* ``exactodds odds`` imports neither numpy nor sympy nor any other
  command's module, nor tabulate for JSON and CSV (subprocess checks of
  ``sys.modules``), and ``--help`` lists every command with its short help.
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest
from budget import budgeted
from click.testing import CliRunner
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

from exactodds import Rules, Shoe, Tableau, Variant
from exactodds.analysis import single
from exactodds.analysis.routing import route_bet
from exactodds.analysis.single import analyze, price_table
from exactodds.bets.bet import Bet
from exactodds.bets.catalogue import select_bets
from exactodds.cli import COMMANDS, cli
from exactodds.engine import cache as disk
from exactodds.engine import coefficients
from exactodds.engine.coefficients import (
    Polynomials,
    cached_polynomials,
    compile_polynomials,
    decode,
    encode,
    multiset_plan,
    polynomials,
    tableau_label,
)
from exactodds.engine.polynomial import compiled_arrays
from exactodds.engine.walk import enumerate_rounds, falling_factorial
from exactodds.errors import BetError
from exactodds.rulefiles import resolve_rules_file

SHIPPED = tuple(
    resolve_rules_file(name).tableau
    for name in ("standard", "banker_as_player", "chemin_de_fer_stand")
)


#: The compiler, each tableau compiled once for the whole module: what these tests check is the
#: cache's reading and writing, and a compiled result is the same whenever it is compiled (the
#: tests below that compare with a fresh compilation call ``compile_polynomials`` itself).
_compile_once = functools.cache(coefficients.compile_polynomials)


@pytest.fixture(autouse=True)
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Each test has its own empty cache directory and forgets what earlier tests loaded."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("EXACTODDS_CACHE_DIR", str(folder))
    monkeypatch.setattr(coefficients, "_loaded", {})
    monkeypatch.setattr(coefficients, "compile_polynomials", _compile_once)
    yield folder


def cache_file(folder: Path, tableau: Tableau) -> Path:
    files = [path for path in folder.iterdir() if not path.name.startswith(".")]
    label = tableau_label(tableau)
    matching = [path for path in files if disk.read(path.name, label, folder) is not None]
    assert len(matching) == 1, files
    return matching[0]


def forget() -> None:
    coefficients._loaded.clear()


def arrays_equal(left: Polynomials, right: Polynomials) -> bool:
    a, b = compiled_arrays(left), compiled_arrays(right)
    return (
        a.keys == b.keys
        and np.array_equal(a.multisets, b.multisets)
        and np.array_equal(a.coefficients, b.coefficients)
        and np.array_equal(a.parents, b.parents)
        and np.array_equal(a.factors, b.factors)
    )


# The multiset plan and the compiler ----------------------------------------------------


def test_multiset_plan_is_the_combinations_order() -> None:
    import itertools

    plan = multiset_plan()
    expected: list[tuple[int, ...]] = [()] + [
        combination
        for size in range(1, 7)
        for combination in itertools.combinations_with_replacement(range(10), size)
    ]
    assert list(plan.combinations) == expected
    for row in range(1, len(expected)):
        combination = expected[row]
        assert plan.combinations[plan.parents[row]] == combination[:-1]
        largest = combination[-1]
        assert plan.factors[row] == largest * 7 + combination.count(largest) - 1
        assert plan.sizes[row] == len(combination)


def walk_key_counts(shoe: Shoe, tableau: Tableau) -> dict[tuple[object, ...], int]:
    """The walk's counts summed over pair states: each value key's count."""
    expected: dict[tuple[object, ...], int] = {}
    for summary, count in enumerate_rounds(shoe, tableau).counts.items():
        key = (
            summary.player_total,
            summary.banker_total,
            summary.player_cards,
            summary.banker_cards,
            summary.player_natural,
            summary.banker_natural,
        )
        expected[key] = expected.get(key, 0) + count
    return expected


def polynomial_key_counts(shoe: Shoe, compiled: Polynomials) -> dict[tuple[object, ...], int]:
    counts = compiled.key_counts(shoe.value_counts)
    return {key: count for key, count in zip(compiled.keys, counts, strict=True) if count}


SMALL_SHOE = Shoe.from_ranks({"A": 3, "2": 2, "5": 4, "8": 3, "9": 2, "T": 5, "K": 4})


@pytest.mark.parametrize("tableau", SHIPPED, ids=lambda tableau: tableau.name)
def test_polynomials_count_every_summary_of_the_walk(tableau: Tableau) -> None:
    compiled = compile_polynomials(tableau)
    assert polynomial_key_counts(SMALL_SHOE, compiled) == walk_key_counts(SMALL_SHOE, tableau)


# The disk cache round-trips exactly -------------------------------------------------------


@pytest.mark.parametrize("tableau", SHIPPED, ids=lambda tableau: tableau.name)
def test_cache_round_trips_exactly(private_cache: Path, tableau: Tableau) -> None:
    fresh = compile_polynomials(tableau)
    assert cached_polynomials(tableau) is None  # nothing cached yet, and nothing compiled
    first = polynomials(tableau)
    assert first == fresh
    cache_file(private_cache, tableau)  # written
    forget()
    loaded = cached_polynomials(tableau)
    assert loaded is not None and loaded is not first
    assert loaded == fresh
    assert arrays_equal(loaded, fresh)


def random_tableaux() -> st.SearchStrategy[Tableau]:
    row = st.tuples(*[st.booleans()] * 10)
    return st.builds(
        Tableau,
        natural_totals=st.frozensets(st.integers(0, 9), max_size=4),
        player_draws=row,
        banker_draws_when_player_stood=row,
        banker_draws=st.tuples(*[row] * 10),
        name=st.just("random"),
    )


@budgeted(6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tableau=random_tableaux())
def test_cache_round_trips_for_any_tableau(tableau: Tableau) -> None:
    forget()
    fresh = compile_polynomials(tableau)
    assert polynomial_key_counts(SMALL_SHOE, fresh) == walk_key_counts(SMALL_SHOE, tableau)
    assert polynomials(tableau) == fresh
    forget()
    assert cached_polynomials(tableau) == fresh


def test_tableaux_differing_only_in_name_share_one_file(private_cache: Path) -> None:
    standard = polynomials(Tableau())
    renamed = Tableau(name="my_copy")
    forget()
    loaded = cached_polynomials(renamed)
    assert loaded is not None and loaded.tableau == renamed
    assert loaded.terms == standard.terms
    assert len(list(private_cache.iterdir())) == 1


def test_no_temporary_file_is_left_behind(private_cache: Path) -> None:
    for tableau in SHIPPED:
        polynomials(tableau)
    names = sorted(path.name for path in private_cache.iterdir())
    assert len(names) == len(SHIPPED)
    assert not any(name.startswith(".") or name.endswith(".tmp") for name in names)


def test_xdg_cache_home_is_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("EXACTODDS_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert disk.cache_directory() == tmp_path / "xdg" / "exactodds"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/path")  # ignored, as the spec says
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert disk.cache_directory() == tmp_path / "home" / ".cache" / "exactodds"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert disk.cache_directory() == tmp_path / "home" / ".cache" / "exactodds"
    polynomials(Tableau())
    assert len(list((tmp_path / "home" / ".cache" / "exactodds").iterdir())) == 1


# A bad cache is rebuilt, never trusted, never an error --------------------------------------


def damaged_then_rebuilt(folder: Path, damage: Callable[[Path], None]) -> None:
    """Write the cache, damage it, and check that it is refused and then rebuilt."""
    tableau = Tableau()
    fresh = compile_polynomials(tableau)
    polynomials(tableau)
    damage(cache_file(folder, tableau))
    forget()
    assert cached_polynomials(tableau) is None
    rebuilt = polynomials(tableau)
    assert rebuilt == fresh
    forget()
    assert cached_polynomials(tableau) == fresh  # the damaged file was replaced


def flip_byte(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x40
    path.write_bytes(bytes(data))


def truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:-100])


def empty(path: Path) -> None:
    path.write_bytes(b"")


def garbage(path: Path) -> None:
    path.write_bytes(os.urandom(5000))


def extended(path: Path) -> None:
    path.write_bytes(path.read_bytes() + b"\0")


def group_writable(path: Path) -> None:
    path.chmod(0o660)


def symbolic_link(path: Path) -> None:
    target = path.with_name("elsewhere.bin")
    path.rename(target)
    path.symlink_to(target)


@pytest.mark.parametrize(
    "damage",
    [flip_byte, truncate, empty, garbage, extended, group_writable, symbolic_link],
)
def test_damaged_cache_is_rebuilt(private_cache: Path, damage: Callable[[Path], None]) -> None:
    damaged_then_rebuilt(private_cache, damage)


def test_file_of_another_tableau_is_refused(private_cache: Path) -> None:
    # A file renamed to another tableau's name: its label says what it is, and it is not used.
    other = SHIPPED[1]
    polynomials(other)
    other_path = cache_file(private_cache, other)
    label = tableau_label(Tableau())
    standard_name = coefficients._file_name(label)
    other_path.rename(private_cache / standard_name)
    forget()
    assert cached_polynomials(Tableau()) is None
    assert polynomials(Tableau()) == compile_polynomials(Tableau())


def test_older_format_is_refused(private_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(coefficients, "FORMAT_VERSION", coefficients.FORMAT_VERSION + 1)
    polynomials(Tableau())
    monkeypatch.undo()
    monkeypatch.setenv("EXACTODDS_CACHE_DIR", str(private_cache))
    forget()
    assert cached_polynomials(Tableau()) is None


def write_payload(folder: Path, tableau: Tableau, payload: bytes) -> None:
    label = tableau_label(tableau)
    assert disk.write(coefficients._file_name(label), label, payload, folder)


def test_well_formed_file_with_wrong_numbers_is_refused(private_cache: Path) -> None:
    # A checksum protects against accidents, not against a file written with wrong data:
    # the probe shoe's counts must still add up to every six-card sequence.
    fresh = compile_polynomials(Tableau())
    first_rows, first_values = fresh.terms[0]
    wrong = Polynomials(
        fresh.tableau,
        fresh.keys,
        ((first_rows, tuple(value + 1 for value in first_values)), *fresh.terms[1:]),
    )
    write_payload(private_cache, Tableau(), encode(wrong))
    assert cached_polynomials(Tableau()) is None
    assert polynomials(Tableau()) == fresh


@pytest.mark.parametrize(
    "change",
    ["row out of range", "small multiset", "rows out of order", "zero coefficient", "bad key"],
)
def test_structurally_wrong_payload_is_refused(private_cache: Path, change: str) -> None:
    fresh = compile_polynomials(Tableau())
    keys = list(fresh.keys)
    terms = [list(term) for term in fresh.terms]
    rows, values = terms[0]
    if change == "row out of range":
        terms[0][0] = (*rows[:-1], 9000)
    elif change == "small multiset":
        terms[0][0] = (5, *rows[1:])
    elif change == "rows out of order":
        terms[0][0] = (rows[1], rows[0], *rows[2:])
    elif change == "zero coefficient":
        terms[0][1] = (0, *values[1:])
    else:
        keys[0] = (11, *keys[0][1:])
    payload = encode(Polynomials(fresh.tableau, tuple(keys), tuple(map(tuple, terms))))  # type: ignore[arg-type]
    assert decode(payload, Tableau()) is None
    write_payload(private_cache, Tableau(), payload)
    assert cached_polynomials(Tableau()) is None
    assert polynomials(Tableau()) == fresh


@pytest.mark.parametrize("size", [0, 3, 4, 10, 100])
def test_short_payload_is_refused(size: int) -> None:
    assert decode(encode(compile_polynomials(Tableau()))[:size], Tableau()) is None


def test_unwritable_cache_is_not_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("EXACTODDS_CACHE_DIR", str(blocker / "exactodds"))
    assert polynomials(Tableau()) == compile_polynomials(Tableau())
    assert blocker.read_text() == "not a directory"
    result = CliRunner().invoke(cli, ["odds", "--decks", "6"])
    assert result.exit_code == 0, result.output
    assert "Banker" in result.stdout


def test_cache_directory_that_is_a_file_reads_as_nothing(tmp_path: Path) -> None:
    blocker = tmp_path / "a file"
    blocker.write_text("x")
    assert disk.read("anything", b"label", blocker) is None
    assert not disk.write("anything", b"label", b"data", blocker)


def test_cache_turned_off(monkeypatch: pytest.MonkeyPatch, private_cache: Path) -> None:
    monkeypatch.setenv("EXACTODDS_CACHE_DIR", "")
    assert disk.cache_directory() is None
    assert polynomials(Tableau()) == compile_polynomials(Tableau())
    assert not private_cache.exists()


def test_oversized_file_is_not_read(private_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    polynomials(Tableau())
    monkeypatch.setattr(disk, "MAX_BYTES", 1000)
    forget()
    assert cached_polynomials(Tableau()) is None


# The value-level route prices exactly as the walk -----------------------------------------


def walk_parts(shoe: Shoe, rules: Rules, bets: tuple[object, ...]) -> object:
    return price_table(enumerate_rounds(shoe, rules.tableau), rules, bets)  # type: ignore[arg-type]


shoes = st.builds(
    lambda decks, removed, suited: (decks, removed, suited),
    st.integers(1, 12),
    st.lists(st.sampled_from("A23456789TJQK"), max_size=60),
    st.booleans(),
)


@budgeted(12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    shape=shoes,
    variant=st.sampled_from(list(Variant)),
    tableau=st.sampled_from(SHIPPED),
    ties_push=st.booleans(),
)
def test_value_route_equals_the_walk(
    shape: tuple[int, list[str], bool], variant: Variant, tableau: Tableau, ties_push: bool
) -> None:
    decks, removed, suited = shape
    shoe = Shoe.standard(decks).remove(" ".join(removed))
    if not suited:
        shoe = shoe.without_suits()
    rules = Rules(tableau=tableau, variant=variant, ties_push=ties_push)
    value_bets = tuple(
        bet
        for bet in select_bets("all", rules)
        if route_bet(bet, polynomials(tableau).keys, (True,)).how == "polynomial"
    )
    assert {"banker", "player", "tie", "dragon7", "panda8", "lucky6"} <= {
        bet.name for bet in value_bets
    }
    parts = single._price_by_value(shoe, rules, value_bets)
    assert parts is not None
    assert parts == walk_parts(shoe, rules, value_bets)
    # and the whole analysis, through the front door
    assert analyze(shoe, rules, value_bets).bets == dict(parts[1])


@pytest.mark.parametrize(
    "composition",
    [
        {"T": 52},  # every round a 0-0 tie: most outcomes never happen
        {"9": 30, "8": 30},  # naturals only
        {"A": 1, "2": 1, "3": 1, "4": 1, "5": 1, "6": 1},  # the smallest shoe
        {"A": 2**40, "K": 2**41 + 3, "5": 2**39},  # past every fixed-width integer
    ],
)
def test_value_route_on_extreme_shoes(composition: dict[str, int]) -> None:
    shoe = Shoe.from_ranks(composition)
    rules = Rules()
    bets = tuple(select_bets("banker,player,tie,dragon7,lucky6", rules))
    polynomials(rules.tableau)  # small shoes take the route only when it is at hand
    parts = single._price_by_value(shoe, rules, bets)
    assert parts is not None
    total = falling_factorial(shoe.cards, 6)
    assert sum(outcome.count for outcome in parts[0].values()) == total
    if shoe.cards < 2**20:
        assert parts == walk_parts(shoe, rules, bets)


def test_pair_bets_take_the_closed_form_and_a_bet_on_pairs_and_totals_the_walk() -> None:
    shoe = Shoe.standard(2)
    bets = tuple(select_bets("banker,player_pair", Rules()))
    assert single._price_by_value(shoe, Rules(), bets) == walk_parts(shoe, Rules(), bets)
    mixed = Bet(
        "pair_and_natural",
        "The Player holds a pair and a natural.",
        lambda summary: "win" if summary.player_pair and summary.player_natural else "lose",
        {"win": 30, "lose": -1},
    )
    assert single._price_by_value(shoe, Rules(), (*bets, mixed)) is None
    walked = walk_parts(shoe, Rules(), (*bets, mixed))
    assert analyze(shoe, Rules(), (*bets, mixed)).bets == walked[1]  # type: ignore[index]


def test_small_shoe_does_not_compile_polynomials(private_cache: Path) -> None:
    # Below a deck the walk is quicker than compiling a tableau no cache holds.
    analyze(Shoe.from_ranks({"A": 4, "5": 4, "K": 8}), Rules())
    assert not private_cache.exists()
    assert Tableau() not in coefficients._loaded


def test_suited_bet_on_rank_only_shoe_is_unavailable_on_both_routes() -> None:
    shoe = Shoe.from_ranks({rank: 32 for rank in "A23456789TJQK"})
    bets = tuple(select_bets("banker,dragon7,perfect_pair", Rules()))
    parts = single._price_by_value(shoe, Rules(), bets)
    assert parts is not None
    assert list(parts[2]) == ["perfect_pair"]
    assert parts == walk_parts(shoe, Rules(), bets)


@pytest.mark.parametrize(
    "arguments",
    [
        ["odds", "--format", "json"],
        ["odds", "--format", "json", "--variant", "ez", "--decks", "6", "--remove", "A K 7 7 T"],
        ["odds", "--format", "csv", "--variant", "super6", "--tie-loses"],
        ["odds", "--rules", "chemin_de_fer_stand", "--exact"],
        ["odds", "--bets", "dragon7,panda8,lucky6", "--format", "json"],
    ],
)
def test_odds_output_is_the_same_on_both_routes(
    arguments: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    by_value = CliRunner().invoke(cli, arguments)
    assert by_value.exit_code == 0, by_value.output
    monkeypatch.setattr(single, "_price_by_value", lambda *_: None)
    by_walk = CliRunner().invoke(cli, arguments)
    assert by_walk.exit_code == 0, by_walk.output
    assert by_value.stdout == by_walk.stdout
    if "json" in arguments:
        json.loads(by_value.stdout)


# Lazy imports -----------------------------------------------------------------------------------

HEAVY = (
    "numpy",
    "sympy",
    "tomllib",
    "importlib.metadata",
    "exactodds.analysis.many",
    "exactodds.engine.polynomial",
)


def modules_after(arguments: list[str], cache: Path) -> set[str]:
    """Every module loaded by a fresh interpreter running ``exactodds ARGUMENTS``."""
    program = (
        "import sys\n"
        f"sys.argv = ['exactodds', *{arguments!r}]\n"
        "from exactodds.cli import main\n"
        "try:\n"
        "    main()\n"
        "except SystemExit as exit:\n"
        "    assert not exit.code, exit.code\n"
        "print('\\n'.join(sorted(sys.modules)), file=sys.stderr)\n"
    )
    environment = {**os.environ, "EXACTODDS_CACHE_DIR": str(cache)}
    completed = subprocess.run(
        [sys.executable, "-c", program],
        capture_output=True,
        text=True,
        check=False,
        env=environment,
    )
    assert completed.returncode == 0, completed.stderr
    return set(completed.stderr.split())


@pytest.mark.parametrize(
    "arguments",
    [
        ["odds"],
        ["odds", "--format", "json", "--variant", "ez"],
        ["odds", "--format", "csv", "--decks", "6", "--remove", "AK77T"],
        ["odds", "--bets", "all"],
    ],
)
def test_odds_imports_nothing_heavy(private_cache: Path, arguments: list[str]) -> None:
    # A table is drawn by tabulate, which reads its own metadata; JSON and CSV load neither.
    table = "--format" not in arguments
    forbidden = (
        [name for name in HEAVY if name != "importlib.metadata"] if table else [*HEAVY, "tabulate"]
    )
    for cold_then_warm in range(2):
        loaded = modules_after(arguments, private_cache)
        heavy = sorted(
            name
            for name in loaded
            for prefix in forbidden
            if name == prefix or name.startswith(prefix + ".")
        )
        assert heavy == [], (cold_then_warm, heavy)
        other_commands = sorted(
            name for name in COMMANDS if name != "odds" and f"exactodds.cli.{name}" in loaded
        )
        assert other_commands == []
        assert "exactodds.engine.known" not in loaded
        assert "exactodds.bets.custom" not in loaded


def test_plain_import_loads_only_the_package(private_cache: Path) -> None:
    completed = subprocess.run(
        [sys.executable, "-c", "import sys, exactodds; print(sorted(sys.modules))"],
        capture_output=True,
        text=True,
        check=True,
    )
    loaded = eval(completed.stdout)  # a printed list of names
    assert [name for name in loaded if name.startswith("exactodds")] == ["exactodds"]
    assert "importlib.metadata" not in loaded


def test_public_names_still_import() -> None:
    import exactodds

    for name in exactodds.__all__:
        assert getattr(exactodds, name) is not None, name
    assert exactodds.__version__
    assert set(exactodds.__all__) <= set(dir(exactodds))
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        _ = exactodds.nothing


def test_help_lists_every_command_by_task_with_its_whole_line() -> None:
    from exactodds.cli import TASKS

    described = {name: line for commands in TASKS.values() for name, line in commands.items()}
    assert sorted(described) == sorted(COMMANDS)
    result = CliRunner().invoke(cli, ["--help"])
    assert result.exit_code == 0
    for name, described_line in described.items():
        line = next(line for line in result.stdout.splitlines() if line.strip().startswith(name))
        assert line.split(None, 1)[1] == described_line, line
        assert len(line) <= 80, line


def test_help_imports_nothing_heavy(private_cache: Path) -> None:
    # --help writes each command's line from TASKS: no command module, nothing heavy.
    loaded = modules_after(["--help"], private_cache)
    assert not {"numpy", "sympy"} & loaded
    assert not any(f"exactodds.cli.{name}" in loaded for name in COMMANDS)


def test_bet_failing_on_an_unseen_round_is_left_to_the_walk() -> None:
    from exactodds.bets.bet import Bet

    def settle(summary: object) -> str:
        # Fails on a suited Player pair, which a rank-only shoe never deals.
        if getattr(summary, "player_suited_pair", None):
            raise RuntimeError("not for suited pairs")
        return "win" if getattr(summary, "banker_total", 0) == 7 else "lose"

    bet = Bet("banker_seven", "Banker ends on 7.", settle, {"win": 5, "lose": -1})
    suited = Shoe.standard(8)
    assert single._price_by_value(suited, Rules(), (bet,)) is None
    with pytest.raises(BetError, match="settle function raised RuntimeError"):
        analyze(suited, Rules(), [bet])
    rank_only = suited.without_suits()
    parts = single._price_by_value(rank_only, Rules(), (bet,))
    assert parts is not None and parts == walk_parts(rank_only, Rules(), (bet,))


def test_directory_in_place_of_the_file(private_cache: Path) -> None:
    label = tableau_label(Tableau())
    (private_cache / coefficients._file_name(label)).mkdir(parents=True)
    assert cached_polynomials(Tableau()) is None
    assert polynomials(Tableau()) == compile_polynomials(Tableau())  # cannot write: no error


def test_writers_racing_leave_one_whole_file(private_cache: Path) -> None:
    from concurrent.futures import ThreadPoolExecutor

    payloads = [bytes([index]) * (50_000 + index) for index in range(8)]
    with ThreadPoolExecutor(max_workers=8) as pool:
        written = list(
            pool.map(lambda payload: disk.write("race", b"label", payload, private_cache), payloads)
        )
    assert all(written)
    assert disk.read("race", b"label", private_cache) in payloads
    assert [path.name for path in private_cache.iterdir()] == ["race"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_fifo_in_place_of_the_file_does_not_block(private_cache: Path) -> None:
    label = tableau_label(Tableau())
    private_cache.mkdir()
    os.mkfifo(private_cache / coefficients._file_name(label))
    assert cached_polynomials(Tableau()) is None  # returns at once instead of waiting
    assert polynomials(Tableau()) == compile_polynomials(Tableau())


def test_star_import_gives_every_public_name() -> None:
    namespace: dict[str, object] = {}
    exec("from exactodds import *", namespace)
    import exactodds

    assert {name for name in namespace if not name.startswith("__")} == set(exactodds.__all__)
