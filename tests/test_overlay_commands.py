"""An overlay on the par sheet: the figures are odds' (simulate and audit: tests/test_overlaysim.py, tests/test_audit_overlay.py).

``report --table golden_wealth`` (and ``--multipliers``) adds every bet's exact RTP under the
overlay, its law of the paid multiple and its variance; each format must carry exactly the
figures that ``odds`` prints for the same table, read from its JSON.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from exactodds.cli import cli

COMMON = ("--decks", "1", "--no-breakeven", "--rounds", "10", "--no-figures", "--quiet")


def run(*arguments: str) -> Any:
    return CliRunner().invoke(cli, list(arguments))


def _flat(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _xlsx_text(path: Path) -> str:
    from openpyxl import load_workbook

    workbook = load_workbook(path)
    return "\n".join(
        " ".join(str(cell.value) for cell in row if cell.value is not None)
        for worksheet in workbook.worksheets
        for row in worksheet.iter_rows()
    )


def _pdf_text(path: Path) -> str:
    from pypdf import PdfReader

    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(path.read_bytes())).pages)


@pytest.fixture(scope="module")
def odds_figures() -> dict[str, Any]:
    """What ``odds`` prints for the table: the reference the par sheet must repeat."""
    result = run("odds", "--table", "golden_wealth", "--decks", "1", "--format", "json")
    assert result.exit_code == 0, result.stderr
    bets: dict[str, Any] = json.loads(result.stdout)["bets"]
    return bets


#: The overlay alone, on the table's pays and fee given as options: the same figures.
_OVERLAY_ALONE = (
    "--multipliers",
    "golden_wealth",
    "--tie-pays",
    "5",
    "--pay",
    "player_pair=9",
    "--pay",
    "banker_pair=9",
    "--bets",
    "banker,player,tie,player_pair,banker_pair",
)


@pytest.mark.parametrize(
    ("suffix", "read", "options"),
    [
        ("md", Path.read_text, ("--table", "golden_wealth")),
        ("html", Path.read_text, _OVERLAY_ALONE),
        ("xlsx", _xlsx_text, ("--table", "golden_wealth")),
        # fpdf2 lays out the long exact fractions slowly (about 10 s): with the slow tests.
        pytest.param("pdf", _pdf_text, ("--table", "golden_wealth"), marks=pytest.mark.slow),
    ],
)
def test_the_par_sheet_carries_odds_figures_under_the_overlay(
    tmp_path: Path, odds_figures: dict[str, Any], suffix: str, read: Any, options: tuple[str, ...]
) -> None:
    path = tmp_path / f"sheet.{suffix}"
    result = run("report", *options, *COMMON, "-o", str(path))
    assert result.exit_code == 0, result.stderr
    text = _flat(read(path))
    assert "Undertherandommultipliers" in text and "golden_wealth" in text
    for name, figures in odds_figures.items():
        assert figures["multiplied"], name
        for field in ("rtp", "variance"):
            assert _flat(figures[field]) in text, (suffix, name, field)
        for multiple, chance in figures["multiples"].items():
            assert f"{multiple}{chance}" in text or chance in text, (suffix, name, multiple)
