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
