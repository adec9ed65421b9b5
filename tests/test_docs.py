"""The README and the manual (docs/) are real: every session prints what the page shows.

Each ```console block of README.md and docs/**/*.md is a list of sessions, a ``$ exactodds ...``
line followed by its exact output (stdout and stderr as a terminal shows them), replayed here byte
for byte. Each page's ```python blocks run in order, in one namespace per page, from the
repository's root. A block that cannot run (it needs a server, installs packages, or shows a
command other than exactodds) carries a marker on the line just before its fence, with the reason:

    <!-- not-run: needs a running server; tests/test_web_api.py checks these answers -->

Shell blocks (```sh, ```shell) and Python sessions (```pycon) never run here: each needs that
marker, except the two set-up commands, which CI runs as written (checked against .ci/run below).
Also checked: every command has help, an example block, a page with a session and a line in the
README; the API reference names every public name; the site's nav lists every page; the
architecture page's floor table covers the package; the README stays a front door.
"""

from __future__ import annotations

import importlib
import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
import pytest
import yaml
from budget import THOROUGH
from click.testing import CliRunner

import exactodds
from exactodds.cli import cli

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]
SETUP_COMMANDS = ("pip install . && exactodds odds", 'pip install ".[test]" && python -m pytest')
NOT_RUN = re.compile(r"<!-- not-run: (?P<reason>.*?) -->")
RUNNABLE = ("console", "python")
UNRUN = ("sh", "shell", "bash", "pycon")


@dataclass(frozen=True)
class Block:
    """One fenced block of a page: where it starts, its language, its text, why it is not run."""

    page: Path
    line: int
    language: str
    text: str
    not_run: str | None

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def read_blocks(page: Path) -> list[Block]:
    """The fenced blocks of a page, each with the reason of a not-run marker just before it."""
    lines = page.read_text(encoding="utf-8").split("\n")
    blocks: list[Block] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.startswith("```"):
            language = line[3:].strip()
            end = index + 1
            while end < len(lines) and lines[end] != "```":
                end += 1
            assert end < len(lines), f"{page.relative_to(ROOT)}:{index + 1}: unclosed fence"
            marker = NOT_RUN.fullmatch(lines[index - 1].strip()) if index else None
            reason = marker.group("reason").strip() if marker else None
            text = "\n".join(lines[index + 1 : end]) + "\n"
            blocks.append(Block(page, index + 1, language, text, reason))
            index = end
        index += 1
    return blocks


BLOCKS = [block for page in PAGES for block in read_blocks(page)]


def sessions(block: Block) -> list[tuple[str, str]]:
    """The ``$ command`` lines of a console block, each with the output printed under it."""
    found: list[tuple[str, str]] = []
    command: str | None = None
    output: list[str] = []
    for line in block.text.rstrip("\n").split("\n"):
        if line.startswith("$ "):
            if command is not None:
                found.append((command, "\n".join(output)))
            command, output = line[2:], []
        else:
            assert command is not None, f"{block.where}: output before the first $ line"
            output.append(line)
    if command is not None:
        found.append((command, "\n".join(output)))
    return found


#: Sessions that run a study of several seconds (edge sorting's search, banque on a full shoe):
#: only the thorough run replays them (tests/budget.py), as CI does after the default run.
HEAVY_SESSIONS = (
    "exactodds edgesort --search",
    "exactodds edgesort --cards 1 --decks infinite",  # the tests price it through the CLI
    "exactodds solve --game banque --decks 8",
    "exactodds solve --game banque --banker-sees total",
    "exactodds eor --bet-file examples/bets/perfect_9.toml",
    "exactodds simulate --shoes 200 --seed 1 --bets dragon7,panda8 --bankroll 100",
    "exactodds simulate --shoes 200 --seed 1 --bets dragon7 --bankroll 40 --trip-rounds 400",
    "exactodds simulate --shoes 100 --seed 1 --bets dragon7 --sweep cut=14,60",
    "exactodds simulate --bet-file examples/bets/perfect_9.toml --bets perfect_9 --shoes 20",
    # Jacobson's 9 over 7 on 8 decks: a 500-shoe audit and his count on its fresh shoes.
    "exactodds audit --bet-file examples/bets/nine_over_seven.toml",
    "exactodds simulate --bet-file examples/bets/nine_over_seven.toml",
)

SESSIONS = [
    (block.where, command, expected)
    for block in BLOCKS
    if block.language == "console" and block.not_run is None
    for command, expected in sessions(block)
]
SESSION_CASES = [
    pytest.param(
        where,
        command,
        expected,
        marks=THOROUGH if command.startswith(HEAVY_SESSIONS) else (),
        id=f"{where} {command}"[:120],
    )
    for where, command, expected in SESSIONS
]


def test_there_are_sessions_and_examples() -> None:
    assert len(SESSIONS) >= 30
    assert sum(block.language == "python" and block.not_run is None for block in BLOCKS) >= 10


@pytest.mark.parametrize(("where", "command", "expected"), SESSION_CASES)
def test_session_output_is_real(
    where: str, command: str, expected: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)  # paths such as examples/two_shoes.jsonl are the checkout's
    command, *pipes = command.split(" | ")
    arguments = shlex.split(command)
    assert arguments[0] == "exactodds", f"{where}: only exactodds runs here; mark it not-run"
    stdin = None
    if "<" in arguments:
        position = arguments.index("<")
        stdin = (ROOT / arguments[position + 1]).read_text(encoding="utf-8")
        del arguments[position : position + 2]
    result = CliRunner().invoke(cli, arguments[1:], input=stdin)
    shown = (result.stdout + result.stderr).rstrip("\n").split("\n")
    for pipe in pipes:  # applied in order: | head -54 | tail -7
        tool, count = pipe.split()
        assert tool in ("head", "tail"), f"{where}: only | head -N and | tail -N are replayed"
        number = int(count.lstrip("-"))
        shown = shown[:number] if tool == "head" else shown[-number:]
    assert "\n".join(shown) == expected.rstrip("\n"), where


PYTHON_PAGES = sorted(
    {block.page for block in BLOCKS if block.language == "python" and block.not_run is None}
)


@pytest.mark.parametrize("page", PYTHON_PAGES, ids=[str(p.relative_to(ROOT)) for p in PYTHON_PAGES])
def test_python_blocks_run(page: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    namespace: dict[str, Any] = {"__name__": "__docs__"}
    for block in read_blocks(page):
        if block.language == "python" and block.not_run is None:
            # Line numbers in a failure point into the page itself.
            code = compile("\n" * block.line + block.text, str(page), "exec")
            exec(code, namespace)


def test_every_block_runs_or_says_why_not() -> None:
    # Console sessions and Python blocks run; shell blocks and Python sessions (pycon) do not, so
    # each needs a not-run marker (the two set-up commands aside, which CI runs as written);
    # anything else (text, toml, json ...) is shown, not run.
    for block in BLOCKS:
        if block.not_run is not None:
            assert block.not_run, f"{block.where}: a not-run marker needs its reason"
            assert block.language in (*RUNNABLE, *UNRUN), (
                f"{block.where}: marker on a non-code block"
            )
        elif block.language in UNRUN:
            assert block.text.strip() in SETUP_COMMANDS, (
                f"{block.where}: a {block.language} block is not run; make it a console session"
                " or a python block, or mark it <!-- not-run: REASON -->"
            )


def test_readme_first_two_commands_install_run_and_test() -> None:
    readme = read_blocks(ROOT / "README.md")
    assert [block.text.strip() for block in readme[:2]] == list(SETUP_COMMANDS)
    assert all(block.language == "sh" for block in readme[:2])
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert all(f"\n{command}\n" in ci for command in SETUP_COMMANDS)


def test_readme_is_a_front_door() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 150
    # No work history: the manual and CHANGELOG.md say what the package does and when it changed.
    for history in (r"\bissue \d", r"\bmerg(e|ed|ing)\b", r"\b[\d,]+ tests\b", r"\bitem \d"):
        assert not re.search(history, text, flags=re.IGNORECASE), history
    library = [b for b in read_blocks(ROOT / "README.md") if b.language == "python"]
    assert len(library) == 1
    assert len(library[0].text.splitlines()) <= 6
    assert re.match(r"from exactodds import [\w, ]+\n", library[0].text)


def _nav_pages(entries: Any) -> list[str]:
    if isinstance(entries, str):
        return [entries]
    if isinstance(entries, list):
        return [page for entry in entries for page in _nav_pages(entry)]
    assert isinstance(entries, dict)
    return [page for value in entries.values() for page in _nav_pages(value)]


def _mkdocs() -> dict[str, Any]:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    assert isinstance(config, dict)
    return config


def test_the_nav_lists_every_page_once() -> None:
    nav = _nav_pages(_mkdocs()["nav"])
    assert len(nav) == len(set(nav))
    pages = {str(page.relative_to(DOCS)) for page in DOCS.rglob("*.md")}
    assert set(nav) == pages


def test_every_command_has_help_a_page_and_a_readme_line() -> None:
    assert isinstance(cli, click.Group)
    context = click.Context(cli)
    names = cli.list_commands(context)
    assert names
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands_nav = next(entry["Commands"] for entry in _mkdocs()["nav"] if "Commands" in entry)
    listed = set(_nav_pages(commands_nav))
    for name in names:
        command = cli.get_command(context, name)
        assert command is not None, name
        assert command.help, f"command {name} has no help text"
        assert "Examples:" in command.help, f"command {name} has no example block"
        page = DOCS / f"{name}.md"
        assert page.exists(), f"command {name} has no page docs/{name}.md"
        assert f"{name}.md" in listed, f"docs/{name}.md is not under Commands in mkdocs.yml"
        assert f"exactodds {name}" in page.read_text(encoding="utf-8"), name
        assert f"[`exactodds {name}`](docs/{name}.md)" in readme, f"README has no line for {name}"


def test_the_api_reference_documents_every_public_name() -> None:
    reference = (DOCS / "api.md").read_text(encoding="utf-8")
    documented = re.findall(r"^::: exactodds\.(\w+)$", reference, flags=re.MULTILINE)
    assert sorted(documented) == sorted(exactodds.__all__)


def floor_table() -> dict[str, str]:
    """The architecture page's floors: each top-level module or package of exactodds -> floor."""
    text = (DOCS / "architecture.md").read_text(encoding="utf-8")
    section = text.split("## Floors", 1)[1]
    floors: dict[str, str] = {}
    for row in re.findall(r"^\| (\d+|top) \| (.+?) \|", section, flags=re.MULTILINE):
        floor, modules = row
        for module in re.findall(r"`(\w+)`", modules):
            assert module not in floors, f"{module} is on two floors"
            floors[module] = floor
    return floors


def test_the_floor_table_is_exactodds_floors() -> None:
    # exactodds.floors.FLOORS is the one written order of the floors (tests/test_layers.py walks
    # every import against it); the architecture page's table must say the same, floor by floor.
    # The page's "top" row is the last floor, and its `__init__` is the package itself.
    floors_module: Any = importlib.import_module("exactodds.floors")
    table = floor_table()
    last = floors_module.FLOORS[-1].number
    shown: dict[int, set[str]] = {}
    for module, floor in table.items():
        if module != "__init__":
            shown.setdefault(last if floor == "top" else int(floor), set()).add(module)
    written = {
        floor.number: {name.rstrip("/") for name in floor.modules} for floor in floors_module.FLOORS
    }
    assert shown == written


def test_the_floor_table_covers_the_package_once() -> None:
    package = ROOT / "exactodds"
    if not package.is_dir():
        pytest.skip("run against an installed package: no source tree to compare the table with")
    tree = {
        path.stem if path.is_file() else path.name
        for path in package.iterdir()
        if (path.suffix == ".py" or (path / "__init__.py").exists())
    }
    assert set(floor_table()) == tree


def test_the_api_reference_hook_keeps_its_doctests() -> None:
    pytest.importorskip("griffe")  # the docs extra
    import doctest
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "doctest_fences", DOCS / "hooks" / "doctest_fences.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    failed, tried = doctest.testmod(module)
    assert tried >= 2 and failed == 0
