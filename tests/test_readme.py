"""The README's sessions are real: each ``$ exactodds ...`` block prints what the README shows.

Also: the README's Python blocks run, and every CLI command has help text and a README mention.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from exactodds.cli import cli

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")


def _blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", README, flags=re.DOTALL)


def _sessions() -> list[tuple[str, str]]:
    sessions: list[tuple[str, str]] = []
    for block in _blocks("console"):
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


def test_readme_has_sessions() -> None:
    assert len(SESSIONS) >= 4


@pytest.mark.parametrize(("command", "expected"), SESSIONS, ids=[c for c, _ in SESSIONS])
def test_readme_session_output_is_real(command: str, expected: str) -> None:
    command, _, pipe = command.partition(" | ")
    arguments = shlex.split(command)
    assert arguments[0] == "exactodds"
    stdin = None
    if "<" in arguments:
        position = arguments.index("<")
        stdin = (Path(__file__).resolve().parent.parent / arguments[position + 1]).read_text()
        del arguments[position : position + 2]
    result = CliRunner().invoke(cli, arguments[1:], input=stdin)
    shown = (result.stdout + result.stderr).rstrip("\n").split("\n")
    if pipe:
        # Only `head -N` and `tail -N` are used in the README.
        tool, count = pipe.split()
        assert tool in ("head", "tail")
        number = int(count.lstrip("-"))
        shown = shown[:number] if tool == "head" else shown[-number:]
    assert "\n".join(shown) == expected.rstrip("\n")


def test_readme_python_blocks_run() -> None:
    blocks = _blocks("python")
    assert blocks
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})


def test_readme_first_two_commands_install_run_and_test() -> None:
    commands = _blocks("sh")[:2]
    assert commands[0].strip() == "pip install . && exactodds odds"
    assert commands[1].strip() == 'pip install ".[test]" && python -m pytest'
    ci = (Path(__file__).resolve().parent.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert commands[0].strip() in ci and commands[1].strip() in ci


def test_every_command_has_help_and_is_in_the_readme() -> None:
    assert isinstance(cli, click.Group)
    context = click.Context(cli)
    names = cli.list_commands(context)
    assert names
    for name in names:
        command = cli.get_command(context, name)
        assert command is not None, name
        assert command.help, f"command {name} has no help text"
        assert "Examples:" in command.help, f"command {name} has no example block"
        assert f"exactodds {name}" in README, f"command {name} is not in the README"
