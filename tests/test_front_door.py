"""What a new user meets first: the extras' messages, the kernel note, the version line.

Every "needs an extra" refusal comes from one helper (:func:`exactodds.errors.import_extra`):
the same sentence form, the same install line, exit 2, nothing on stdout. A pure-Python install
(the compiled kernel not built: simulated here by hiding it) says so once on stderr before a
command that evaluates many shoes, unless ``EXACTODDS_QUIET_KERNEL=1`` or ``--quiet``.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import exactodds.engine.kernel.program as kernel_program
from exactodds.cli import cli

#: The one form of every "needs an extra" message.
EXTRA_MESSAGE = re.compile(
    r"^Error: .+ needs .+, which (is|are) not installed; install (it|them) with: "
    r'pip install "exactodds\[(?P<extra>[a-z]+)\]"(, or .+)?\.\n$'
)


def run(*arguments: str) -> Result:
    return CliRunner().invoke(cli, list(arguments))


def _hide(monkeypatch: pytest.MonkeyPatch, module: str) -> None:
    for name in list(sys.modules):
        if name == module or name.startswith(module + "."):
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, module, None)  # makes "import <module>" fail


@pytest.mark.parametrize(
    ("module", "arguments", "extra"),
    [
        ("openpyxl", ["report", "--bets", "tie", "-o", "{tmp}/sheet.xlsx"], "report"),
        ("fpdf", ["report", "--bets", "tie", "-o", "{tmp}/sheet.pdf", "--no-figures"], "report"),
        ("matplotlib", ["report", "--bets", "tie", "--format", "html"], "plot"),
        ("sympy", ["report", "--bets", "tie"], "report"),
        ("sympy", ["breakeven", "--bet", "tie"], "symbolic"),
        ("matplotlib", ["eor", "--bets", "tie", "--plot", "{tmp}/figures"], "plot"),
        ("matplotlib", ["simulate", "--shoes", "1", "--plot", "{tmp}/figures"], "plot"),
        ("pyarrow", ["simulate", "--shoes", "1", "--trace", "{tmp}/trace.parquet"], "data"),
        ("dask", ["simulate", "--shoes", "1", "--dask", "tcp://127.0.0.1:1"], "distributed"),
        ("uvicorn", ["serve", "--db", ":memory:"], "web"),
    ],
)
def test_every_missing_extra_is_one_sentence_one_install_line_exit_2(
    module: str,
    arguments: Sequence[str],
    extra: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _hide(monkeypatch, module)
    filled = [argument.format(tmp=tmp_path) for argument in arguments]
    result = run(*filled[:1], "--decks", "1", *filled[1:]) if filled[0] != "serve" else run(*filled)
    assert result.exit_code == 2, result.stderr
    assert result.stdout == ""
    found = EXTRA_MESSAGE.match(result.stderr)
    assert found is not None, result.stderr
    assert found["extra"] == extra
    assert list(tmp_path.iterdir()) == []


def test_the_extras_table_in_the_readme_names_every_extra() -> None:
    import tomllib

    root = Path(__file__).resolve().parent.parent
    extras = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"
    ]
    readme = (root / "README.md").read_text(encoding="utf-8")
    for name in extras:
        assert f'pip install "exactodds[{name}]"' in readme, name


# The compiled kernel: said by --version, and noted once when it is missing ---------------------

NOTE = "Note: the compiled kernel is not built here"


def _without_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kernel_program, "native_module", lambda: None)
    monkeypatch.delenv("EXACTODDS_QUIET_KERNEL", raising=False)


def test_version_says_which_kernel_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    built = run("--version")
    assert built.exit_code == 0
    if kernel_program.native_module() is not None:
        assert built.stdout.splitlines()[1] == "compiled kernel: in use"
    _without_kernel(monkeypatch)
    missing = run("--version")
    assert missing.exit_code == 0 and missing.stderr == ""
    assert missing.stdout.splitlines()[1] == (
        "compiled kernel: not built; the exact pure-Python twin runs (slower)"
    )


def test_a_pure_python_install_says_so_once_at_a_heavy_command(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _without_kernel(monkeypatch)
    result = run("eor", "--decks", "1", "--bets", "tie")
    assert result.exit_code == 0, result.stderr
    assert result.stderr.count(NOTE) == 1 and result.stderr.count("\n") == 1
    assert "EXACTODDS_QUIET_KERNEL=1" in result.stderr
    assert NOTE not in result.stdout
    light = run("odds", "--decks", "1")  # one shoe: no kernel, no note
    assert light.exit_code == 0 and light.stderr == ""


def test_the_kernel_note_is_silenced_by_the_variable_or_quiet(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _without_kernel(monkeypatch)
    monkeypatch.setenv("EXACTODDS_QUIET_KERNEL", "1")
    assert run("eor", "--decks", "1", "--bets", "tie").stderr == ""
    monkeypatch.delenv("EXACTODDS_QUIET_KERNEL")
    quiet = run("simulate", "--shoes", "1", "--seed", "1", "--decks", "1", "--quiet")
    assert quiet.exit_code == 0, quiet.stderr
    assert NOTE not in quiet.stderr


def test_with_the_kernel_there_is_no_note(monkeypatch: pytest.MonkeyPatch) -> None:
    if kernel_program.native_module() is None:
        pytest.skip("the compiled kernel is not built on this machine")
    monkeypatch.delenv("EXACTODDS_QUIET_KERNEL", raising=False)
    result = run("eor", "--decks", "1", "--bets", "tie")
    assert result.exit_code == 0 and result.stderr == ""


# docs/serve.md: a script's session with the start-up token ---------------------------------

ROOT = Path(__file__).resolve().parent.parent
LAN = "http://192.168.1.20:8000"


def token_session() -> list[tuple[str, str]]:
    """The ``$ curl`` lines of the block marked token-session, each with the output shown."""
    page = (ROOT / "docs" / "serve.md").read_text(encoding="utf-8")
    block = page.split("<!-- token-session:", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    sessions: list[tuple[str, str]] = []
    for line in block.splitlines():
        if line.startswith("$ curl "):
            sessions.append((line[2:], ""))
        else:
            command, shown = sessions[-1]
            sessions[-1] = (command, shown + line + "\n")
    return sessions


def _replay(client: object, command: str) -> str:
    import shlex
    import subprocess

    from starlette.testclient import TestClient

    assert isinstance(client, TestClient)
    curl, _, pipe = command.partition(" | ")
    words = shlex.split(curl)
    url = next(word for word in words if word.startswith(LAN))
    headers = {}
    for index, word in enumerate(words[:-1]):
        if word == "-H":
            name, _, value = words[index + 1].partition(":")
            headers[name.strip().lower()] = value.strip()
    if "-d" in words:
        response = client.post(url, content=words[words.index("-d") + 1], headers=headers)
    else:
        response = client.get(url, headers=headers)
    output = response.text
    if pipe:
        program = shlex.split(pipe)
        assert program[:2] == ["python3", "-c"]
        output = subprocess.run(
            [sys.executable, "-c", program[2]],
            input=output,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    return output.rstrip("\n") + "\n"


def test_the_token_session_in_the_serve_page_is_real() -> None:
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from exactodds.web.app import create_app

    sessions = token_session()
    assert len(sessions) >= 4
    app = create_app(":memory:", hosts=("192.168.1.20",), token="TOKEN")
    with TestClient(app, base_url=LAN) as client:
        for command, shown in sessions:
            assert _replay(client, command) == shown, command


def test_the_token_is_needed_on_every_api_method_and_the_schema() -> None:
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from exactodds.web.app import create_app
    from exactodds.web.security import TOKEN_HEADER

    app = create_app(":memory:", hosts=("192.168.1.20",), token="s3cret")
    with TestClient(app, base_url=LAN) as client:
        assert client.get("/openapi.json").status_code == 403
        assert client.get("/openapi.json?token=s3cret").status_code == 200
        assert client.get("/docs").status_code == 200
        assert client.post("/api/shoes", json={}).status_code == 403
        assert client.post("/api/shoes?token=guess", json={}).status_code == 403
        # A request that changes something sends the header: ?token= is for a GET's link.
        assert client.post("/api/shoes?token=s3cret", json={}).status_code == 403
        created = client.post("/api/shoes", json={}, headers={TOKEN_HEADER: "s3cret"})
        assert created.status_code == 201, created.text
        shoe = created.json()["shoe"]["id"]
        assert client.delete(f"/api/shoes/{shoe}").status_code == 403
        assert client.delete(f"/api/shoes/{shoe}?token=s3cret").status_code == 403
        deleted = client.delete(f"/api/shoes/{shoe}", headers={TOKEN_HEADER: "s3cret"})
        assert deleted.status_code in (200, 204)
        # The header wins: a wrong header is refused even beside a right ?token=.
        wrong = client.get("/api/shoes?token=s3cret", headers={TOKEN_HEADER: "guess"})
        assert wrong.status_code == 403


def test_serve_help_says_what_is_true() -> None:
    result = run("serve", "--help")
    assert result.exit_code == 0
    text = " ".join(result.stdout.split())
    assert "no password" not in text
    assert "token" in text and "X-Exactodds-Token" in text


# Widths: the default table fits 100 columns ---------------------------------------------------


def test_the_bets_table_fits_100_columns_and_wide_does_not_wrap() -> None:
    from exactodds.bets.catalogue import select_bets

    result = run("bets")
    assert result.exit_code == 0, result.stderr
    assert max(len(line) for line in result.stdout.splitlines()) <= 100
    wide = run("bets", "--wide")
    assert wide.exit_code == 0
    names = [bet.name for bet in select_bets("all")]
    assert len(wide.stdout.splitlines()) == 2 + len(names)  # one line a bet
    assert max(len(line) for line in wide.stdout.splitlines()) > 100

    # Wrapping only moves words: the same words, in the same order.
    def words(text: str) -> list[str]:
        return sorted(word for word in text.split() if set(word) != {"-"})

    assert words(result.stdout) == words(wide.stdout)


def test_the_depth_table_fits_100_columns_header_lines_included() -> None:
    result = run("depth", "--decks", "1", "--cards", "6")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 100
    assert "Player and Banker push on a tie" in " ".join(lines[:3])  # wrapped, not cut


# Word on long work: grouped help, progress, "Wrote FILE", the PDF, serve's stop, --risk ------

SMALL_SHOE = ("--shoe", "A=4,5=4,9=4,T=16")
SMALL_SHEET = ("report", "--decks", "1", "--bets", "tie", "--no-breakeven", "--rounds", "10")


def test_help_lists_every_command_once_by_task_each_line_whole() -> None:
    from exactodds.cli import COMMANDS, TASKS

    result = run("--help")
    assert result.exit_code == 0 and result.stderr == ""
    lines = result.stdout.splitlines()
    headings = [line[:-1] for line in lines if line.endswith(":") and not line.startswith(" ")]
    assert headings == ["Options", *TASKS]  # by task, in the order set, after the options
    listed = [line.split()[0] for line in lines if line.startswith("  ") and "  " in line[2:]]
    commands = [name for name in listed if name in COMMANDS]
    assert sorted(commands) == sorted(COMMANDS)  # each command once, none missing
    for task in TASKS.values():
        for name, summary in task.items():
            assert any(line.split() == [name, *summary.split()] for line in lines), name
    assert not any(line.endswith("...") for line in lines[1:])  # nothing cut short
    assert max(map(len, lines)) <= 80
    text = " ".join(result.stdout.split())
    assert "README.md" in text and "docs/" in text and "mkdocs serve" in text
    assert "http" not in text  # no address is invented: there is no hosted manual


def _as_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    import exactodds.cli.progress as progress

    monkeypatch.setattr(progress, "_terminal", lambda stream: True)


@pytest.mark.parametrize(
    "arguments",
    [
        ("edgesort", "--cards", "1", *SMALL_SHOE),
        ("edgesort", "--cards", "1", "--search", "--top", "2", *SMALL_SHOE),
        (*SMALL_SHEET, "--format", "markdown"),
        ("depth", "--decks", "1", "--cards", "6"),
        (
            "audit",
            "--bets",
            "dragon7",
            "--decks",
            "1",
            "--cut",
            "10",
            "--budget",
            "6",
            "--depths",
            "none",
            "--cuts",
            "10",
        ),
    ],
    ids=["edgesort", "edgesort-search", "report", "depth", "audit"],
)
def test_long_work_draws_progress_only_at_a_terminal_and_not_with_quiet(
    arguments: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    quiet_run = run(*arguments)  # CliRunner's stderr is no terminal: no line
    assert quiet_run.exit_code == 0 and quiet_run.stderr == ""
    _as_terminal(monkeypatch)
    from exactodds.advantage import edgesort

    edgesort._TUPLES.clear()  # walked again, not taken from the first run's cache
    shown = run(*arguments)
    assert shown.exit_code == 0, shown.stderr
    assert shown.stdout == quiet_run.stdout  # the result is the same, on stdout alone
    label = arguments[0]
    assert f"\r{label} [" in shown.stderr and "/" in shown.stderr
    assert shown.stderr.endswith("\r" + " " * 99 + "\r")  # the line is cleared at the end
    assert "\n" not in shown.stderr
    edgesort._TUPLES.clear()
    silenced = run(*arguments, "--quiet")
    assert silenced.exit_code == 0 and silenced.stderr == ""
    # (a par sheet's header records its command line, --quiet included)
    assert silenced.stdout.replace(" --quiet", "") == quiet_run.stdout


def test_a_written_file_is_named_on_stderr_and_nothing_on_stdout(tmp_path: Path) -> None:
    target = tmp_path / "sheet.md"
    result = run(*SMALL_SHEET, "-o", str(target))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == ""
    assert result.stderr == f"Wrote {target}.\n"
    assert target.read_text(encoding="utf-8").startswith("# ")


def test_the_pdf_carries_its_metadata_and_its_sections(tmp_path: Path) -> None:
    pytest.importorskip("fpdf")
    target = tmp_path / "sheet.pdf"
    arguments = (*SMALL_SHEET, "--no-figures", "--author", "A. Tester", "--title", "Tie sheet")
    result = run(*arguments, "-o", str(target))
    assert result.exit_code == 0, result.stderr
    data = target.read_bytes()
    assert b"/Author (A. Tester)" in data
    assert b"/Title (Tie sheet)" in data
    assert b"/Subject (Baccarat par sheet: tie)" in data
    assert re.search(rb"/Creator \(exactodds [0-9]", data)
    # The sections are bookmarks and lines of the contents on the first page.
    assert b"/Outlines" in data
    for section in (b"Rules of play", b"Bet: tie", b"How this report was made"):
        assert b"/Title (" + section + b")" in data
    without = tmp_path / "anonymous.pdf"
    assert run(*SMALL_SHEET, "--no-figures", "-o", str(without)).exit_code == 0
    assert b"/Author" not in without.read_bytes()


@pytest.mark.parametrize(
    ("risk", "hint"),
    [("5", True), ("50", True), ("5.5", True), ("150", False), ("0", False), ("1", True)],
)
def test_a_risk_given_as_a_bare_percentage_gets_did_you_mean(risk: str, hint: bool) -> None:
    result = run("simulate", "--shoes", "1", "--jobs", "1", "--risk", risk)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith(f"Error: --risk {risk} is not valid; use a risk of ruin")
    assert result.stderr.count("\n") == 1
    assert result.stderr.endswith(f" (did you mean {risk}%?).\n" if hint else "or 0.05.\n")


def test_the_commission_and_the_risk_share_the_hint() -> None:
    commission = run("odds", "--commission", "5")
    risk = run("simulate", "--shoes", "1", "--jobs", "1", "--risk", "5")
    assert commission.stderr.endswith(" (did you mean 5%?).\n")
    assert risk.stderr.endswith(" (did you mean 5%?).\n")


@pytest.mark.slow
@pytest.mark.parametrize("number", ["SIGTERM", "SIGINT"])
def test_serve_stops_quietly_on_sigterm_and_ctrl_c(number: str, tmp_path: Path) -> None:
    pytest.importorskip("uvicorn")
    import signal
    import subprocess

    process = subprocess.Popen(
        [sys.executable, "-m", "exactodds", "serve", "--port", "0", "--db", str(tmp_path / "t.db")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    shown = []
    for line in process.stderr:  # until it is listening
        shown.append(line)
        if "Press Ctrl+C to stop." in line:
            break
    process.send_signal(getattr(signal, number))
    stdout, rest = process.communicate(timeout=60)
    assert process.returncode == 0, rest
    assert stdout == ""
    assert rest == "Stopped.\n"  # one line, no "Error: Terminated."
    assert shown[0].startswith("Serving the exactodds tracker on http://127.0.0.1:")
