"""Every research script in examples/ runs and prints what it promises."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "examples").glob("*.py"))

# A figure each script must print, taken from published tables or checked elsewhere in the suite.
EXPECTED = {
    "compare_tables.py": "banker 1.0579%, player 1.2351%, tie 14.3596%",
    "compare_tableaux.py": "standard                0.458597  0.446247  0.095156",
    "removal_study.py": "Full 8-deck shoe: Banker edge 1.0579% Player edge 1.2351%",
    "totals_breakdown.py": "586,850,279,002,112",
    # Kemeny and Snell (1957): the Player draws on 5 with probability 9/11.
    "chemin_de_fer_decks.py": "Player draws on 5 with probability 9/11, Banker edge 1.2799%",
}


def test_every_example_is_listed() -> None:
    assert {path.name for path in EXAMPLES} >= set(EXPECTED)


@pytest.mark.parametrize("script", EXAMPLES, ids=[path.name for path in EXAMPLES])
def test_example_runs(script: Path) -> None:
    result = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert result.stdout.strip()
    if script.name in EXPECTED:
        assert EXPECTED[script.name] in result.stdout
