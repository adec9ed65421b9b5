"""The review as the par sheet's documents (``review --format markdown|html|pdf|xlsx``).

Each format is written, and what it shows is the JSON's: every round's stake and exact EV (the
data of each bet's chart) and each bet's results, in the workbook as numbers and in the PDF's
text; the chart itself (matplotlib) draws the JSON's stakes and exact EVs; the PDF holds one
chart a bet and the HTML one figure a bet.
"""

from __future__ import annotations

import io
import json
import os
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from cli_runner import run, run_ok

from exactodds import Rules, Shoe
from exactodds.bets.catalogue import select_bets
from exactodds.numbers import decimal_string
from exactodds.report.registry import render, render_bytes
from exactodds.studies.review import Review, ReviewSpec, review
from exactodds.studies.review_log import read_log

LOG = (
    '{"cards": "8 T 3 9", "bets": {"banker": 2}}\n'
    '{"cards": "2 3 4 5", "bets": {"tie": 1}}\n'
    '{"cards": "A 6 K 7 9 2", "bets": {"banker": 1, "tie": 1}}\n'
)
# A count named for each bet, so that no effect of removal is derived (the tests stay fast).
COUNTS = {"banker": (0,) * 13, "tie": (0,) * 13}
ARGUMENTS = ("--decks", "1", *(f"--count={bet}={','.join('0' * 13)}" for bet in COUNTS))


@pytest.fixture(scope="module")
def reviewed() -> tuple[Review, dict[str, Any]]:
    spec = ReviewSpec(Shoe.standard(decks=1), Rules(), tuple(select_bets("all")), COUNTS)
    result = review(read_log(LOG), spec)
    return result, json.loads(render(result, "json"))


def chart_data(data: dict[str, Any]) -> dict[str, list[tuple[Fraction, Fraction]]]:
    """Each bet's (stake, exact EV) round by round, from the JSON."""
    return {
        bet: [
            (
                Fraction(record["bets"][bet]["stake"]),
                Fraction(record["bets"][bet]["expected_value"]),
            )
            for record in data["round_by_round"]
        ]
        for bet in data["bets"]
    }


def test_the_charts_draw_the_json_s_stakes_and_exact_evs(
    reviewed: tuple[Review, dict[str, Any]],
) -> None:
    pytest.importorskip("matplotlib")
    from exactodds.report.review import stake_figure

    result, data = reviewed
    for bet, points in chart_data(data).items():
        figure = stake_figure(result, bet)
        line = figure.axes[0].lines[0]
        assert list(line.get_xdata()) == [1, 2, 3]
        assert list(line.get_ydata()) == [float(value * 100) for _, value in points]
        assert [bar.get_height() for bar in figure.axes[1].patches] == [
            float(stake) for stake, _ in points
        ]


def test_the_workbook_holds_the_json_s_figures(reviewed: tuple[Review, dict[str, Any]]) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    result, data = reviewed
    workbook = openpyxl.load_workbook(io.BytesIO(render_bytes(result, "xlsx")))
    assert workbook.sheetnames == ["Summary", "Round by round"]
    rows = list(workbook["Round by round"].iter_rows(values_only=True))
    start = next(index for index, row in enumerate(rows) if row[0] == "Round") + 1
    assert rows[start - 1][3:] == ("banker stake", "banker exact EV", "tie stake", "tie exact EV")
    points = chart_data(data)
    for index, row in enumerate(rows[start:]):
        shown = [(row[3], row[4]), (row[5], row[6])]
        for (stake, value), (cell_stake, cell_value) in zip(
            (points["banker"][index], points["tie"][index]), shown, strict=True
        ):
            assert cell_stake == stake  # whole stakes are whole numbers
            assert cell_value == pytest.approx(float(value), abs=1e-15)
    assert len(rows) - start == len(data["round_by_round"])
    summary: dict[str, tuple[Any, ...]] = {}
    for row in workbook["Summary"].iter_rows(values_only=True):
        summary.setdefault(str(row[0]), row)  # the results come before the betting
    for bet in ("banker", "tie", "total"):
        figures = data["total"] if bet == "total" else data["bets"][bet]
        for column, key in ((2, "wagered"), (3, "actual"), (4, "theoretical")):
            assert summary[bet][column] == pytest.approx(float(Fraction(figures[key])), abs=1e-15)


def test_the_pdf_shows_the_json_s_figures(reviewed: tuple[Review, dict[str, Any]]) -> None:
    pypdf = pytest.importorskip("pypdf")
    pytest.importorskip("fpdf")
    result, data = reviewed
    content = render_bytes(result, "pdf")  # the charts are the slow test's (drawing is slow)
    text = " ".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(content)).pages)
    for points in chart_data(data).values():
        for stake, value in points:
            assert decimal_string(value, 4) in text
            assert decimal_string(stake, 4) in text
    for figures in (*data["bets"].values(), data["total"]):
        for key in ("wagered", "actual", "theoretical"):
            assert decimal_string(Fraction(figures[key]), 4) in text


def test_html_and_markdown_show_the_charts_data(reviewed: tuple[Review, dict[str, Any]]) -> None:
    _, data = reviewed
    page = run_ok("review", "-", *ARGUMENTS, "--format", "html", "--no-figures", input=LOG).stdout
    markdown = run_ok("review", "-", *ARGUMENTS, "--format", "markdown", input=LOG).stdout
    assert "<figure" not in page and "![" not in markdown  # no chart asked for
    for points in chart_data(data).values():
        for _, value in points:
            assert decimal_string(value, 4) in page and decimal_string(value, 4) in markdown


@pytest.mark.slow
def test_the_pdf_and_the_html_page_hold_a_chart_a_bet(tmp_path: Path) -> None:
    pypdf = pytest.importorskip("pypdf")
    pytest.importorskip("matplotlib")
    output = tmp_path / "review.pdf"
    result = run("review", "-", *ARGUMENTS, "--format", "pdf", "-o", str(output), input=LOG)
    assert result.exit_code == 0 and result.stderr == f"Wrote {output}.\n", result.stderr
    reader = pypdf.PdfReader(output)
    assert sum(len(page.images) for page in reader.pages) == 2  # banker and tie
    page = run_ok("review", "-", *ARGUMENTS, "--format", "html", input=LOG).stdout
    assert page.count("<figure") == 2 and page.count("<svg") == 2
    plots = tmp_path / "figures"
    result = run("review", "-", *ARGUMENTS, "--format", "markdown", "--plot", str(plots), input=LOG)
    assert result.exit_code == 0, result.stderr
    linked = Path(os.path.relpath(plots, Path.cwd())).as_posix()
    assert f"]({linked}/tie-stakes.png)" in result.stdout
    assert (plots / "tie-stakes.png").is_file()


@pytest.mark.parametrize("output_format", ["pdf", "xlsx"])
def test_a_file_format_without_a_file_is_one_sentence(output_format: str) -> None:
    result = run("review", "-", *ARGUMENTS, "--format", output_format, input=LOG)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == f"Error: --format {output_format} writes a file; give --output FILE.\n"
