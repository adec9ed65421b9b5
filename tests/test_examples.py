"""Every research script in examples/ runs and prints what the manual shows, figure for figure.

Each script's whole output is shown in docs/ in a ```text block marked
``<!-- output-of: examples/NAME.py -->``, and must be printed byte for byte; on top of that, a
figure each script must print is checked against its published source or an independent
computation, so that a changed script and a changed page cannot agree on a wrong number.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))
OUTPUT_OF = re.compile(
    r"<!-- output-of: examples/(?P<script>[\w.]+) -->\n```text\n(?P<text>.*?)```", re.S
)

# A figure each script must print, with where it comes from.
EXPECTED = {
    # Wizard of Odds, "Baccarat Odds for 1 to 12 Decks": the 8-deck house edges.
    "compare_tables.py": "banker 1.0579%, player 1.2351%, tie 14.3596%",
    "compare_tableaux.py": "standard                0.458597  0.446247  0.095156",
    "removal_study.py": "Full 8-deck shoe: Banker edge 1.0579% Player edge 1.2351%",
    # Wizard of Odds, "Exact Winning Side and Total": Banker wins with 9.
    "totals_breakdown.py": "586,850,279,002,112",
    # Kemeny and Snell (1957): the Player draws on 5 with probability 9/11.
    "chemin_de_fer_decks.py": "Player draws on 5 with probability 9/11, Banker edge 1.2799%",
    # Eliot Jacobson, "Edge Sorting in Baccarat, Update #1": knowing the first card is worth 6.765%.
    "known_card_value.py": "1  Player's first card     0.06764747",
    # The fair Tie pay and commission of 8 decks, as `exactodds breakeven` solves them exactly
    # (5889024543008/619306544887 and 7535923321/279815987114, tests/test_symbolic.py).
    "fair_pays.py": "    8     9.5091     2.6932%",
    # The level-2 Dragon 7 count's betting correlation, as effect_of_removal gives it (docs/eor.md).
    "side_bet_count.py": "correlation 0.9642",
    # A seeded simulation: its figures are checked against published ones below.
    "dragon7_count_study.py": "Dragon 7, 8 decks, cut card 14, 40 shoes of seed 7",
}

# Units per shoe that a short simulation's 95% interval must contain: Eliot Jacobson's Dragon 7
# count (100 million shoes; "Co-Card Counting the Dragon and Panda Side Bets in EZ Baccarat",
# 888casino blog), and perfect play (EZ Baccarat, cut 14) from 4,000 shoes of
# `exactodds simulate` (docs/simulate.md, Published figures).
PUBLISHED_UNITS_PER_SHOE = {"perfect play": 0.701, "Jacobson count, TC >= 4": 0.597}


def check_published_units(output: str) -> None:
    for strategy, published in PUBLISHED_UNITS_PER_SHOE.items():
        line = next(line for line in output.splitlines() if line.startswith(strategy))
        low, high = map(float, re.findall(r"\(\s*(-?[\d.]+) to\s+(-?[\d.]+)\)", line)[0])
        assert low < published < high, (strategy, low, high)


def documented_outputs() -> dict[str, list[str]]:
    """Each script's output as the pages of docs/ show it."""
    shown: dict[str, list[str]] = {}
    for page in sorted((ROOT / "docs").rglob("*.md")):
        for match in OUTPUT_OF.finditer(page.read_text(encoding="utf-8")):
            shown.setdefault(match.group("script"), []).append(match.group("text"))
    return shown


def test_every_example_is_listed_and_shown() -> None:
    names = {path.name for path in EXAMPLES}
    assert names == set(EXPECTED)
    assert set(documented_outputs()) == names


# Research scripts of several seconds each (chemin de fer solved for 1 to 8 decks; a known card
# at each of six positions of 8 decks): slow tests. Their figures are held in the default run
# too, by tests/test_solve.py (9/11, one deck and 5,000) and tests/test_known.py (6.765%).
LONG_STUDIES = {"chemin_de_fer_decks.py", "known_card_value.py"}
SCRIPTS = [
    pytest.param(path, marks=pytest.mark.slow) if path.name in LONG_STUDIES else path
    for path in EXAMPLES
]


@pytest.mark.parametrize("script", SCRIPTS, ids=[path.name for path in EXAMPLES])
def test_example_prints_what_the_manual_shows(script: Path) -> None:
    result = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert EXPECTED[script.name] in result.stdout
    if script.name == "dragon7_count_study.py":
        check_published_units(result.stdout)
    for shown in documented_outputs()[script.name]:
        assert result.stdout == shown
