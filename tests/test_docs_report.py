"""docs/report.md is real: each ``$ exactodds ...`` session prints what the page shows, and its
Python block runs (the same replay as tests/test_readme.py does for the README)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from exactodds.cli import cli

PAGE = (Path(__file__).resolve().parent.parent / "docs" / "report.md").read_text(encoding="utf-8")


def _sessions() -> list[tuple[str, str]]:
    sessions: list[tuple[str, str]] = []
    for block in re.findall(r"```console\n(.*?)```", PAGE, flags=re.DOTALL):
        command: str | None = None
        output: list[str] = []
        for line in block.splitlines():
            if line.startswith("$ "):
                if command is not None:
                    sessions.append((command, "\n".join(output)))
                command, output = line[2:], []
            else:
                output.append(line)
        if command is not None:
            sessions.append((command, "\n".join(output)))
    return sessions


SESSIONS = _sessions()


def test_the_page_has_sessions() -> None:
    assert len(SESSIONS) >= 8


@pytest.mark.parametrize(("command", "expected"), SESSIONS, ids=[c for c, _ in SESSIONS])
def test_session_output_is_real(command: str, expected: str) -> None:
    command, *pipes = command.split(" | ")
    arguments = shlex.split(command)
    assert arguments[0] == "exactodds"
    result = CliRunner().invoke(cli, arguments[1:])
    shown = (result.stdout + result.stderr).rstrip("\n").split("\n")
    for pipe in pipes:  # only head -N and tail -N
        tool, count = pipe.split()
        assert tool in ("head", "tail")
        number = int(count.lstrip("-"))
        shown = shown[:number] if tool == "head" else shown[-number:]
    assert "\n".join(shown) == expected.rstrip("\n")


def test_the_python_block_runs() -> None:
    (block,) = re.findall(r"```python\n(.*?)```", PAGE, flags=re.DOTALL)
    exec(compile(block, "docs/report.md", "exec"), {})
