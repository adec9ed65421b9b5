"""docs/depth.md and docs/edgesort.md are real: each session prints what the page shows."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from exactodds.cli import cli

PAGES = [
    Path(__file__).resolve().parent.parent / "docs" / name for name in ("depth.md", "edgesort.md")
]


def _sessions() -> list[tuple[str, str, str]]:
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for block in re.findall(r"```console\n(.*?)```", text, flags=re.DOTALL):
            lines = block.rstrip("\n").split("\n")
            assert lines[0].startswith("$ exactodds "), lines[0]
            found.append((page.name, lines[0][2:], "\n".join(lines[1:])))
    return found


SESSIONS = _sessions()


@pytest.mark.parametrize(("page", "command", "expected"), SESSIONS, ids=[s[1] for s in SESSIONS])
def test_docs_session_output_is_real(page: str, command: str, expected: str) -> None:
    arguments = shlex.split(command)
    result = CliRunner().invoke(cli, arguments[1:])
    assert result.exit_code == 0, result.stderr
    assert (result.stdout + result.stderr).rstrip("\n") == expected


@pytest.mark.parametrize("page", PAGES, ids=[page.name for page in PAGES])
def test_docs_python_blocks_run(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)
    assert blocks
    for block in blocks:
        exec(compile(block, page.name, "exec"), {})
