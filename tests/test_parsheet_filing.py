"""Par sheets as filed (issue 21): identified, complete, exact in the tails, never half-written.

- Every format (Markdown, HTML, xlsx, PDF) carries the header (title, pay table, version, the
  exact command line, the date), a rules file's tableau and a custom bet's conditions.
- ``--compare`` rows equal the summary rows of separate runs.
- The normal bands never pass -100% / +100%; the exact probability printed beside each band is
  checked against a brute force over every sequence of rounds with exact square-root
  comparisons; theo and SD an hour against the textbook formulas.
- Output: written whole or not at all (a full tmpfs, /dev/full, a failing write), exit 1; a
  sheet with no priceable bet exits 1; a suffix that contradicts --format exits 2.
"""

from __future__ import annotations

import errno
import itertools
import math
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from decimal import Decimal, localcontext
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from budget import THOROUGH, thorough
from click.testing import CliRunner
from openpyxl import load_workbook

from exactodds import Rules, Shoe
from exactodds.analysis.single import analyze
from exactodds.bets.catalogue import select_bets
from exactodds.cli import cli
from exactodds.numbers import decimal_string, percent_string
from exactodds.report.document.blocks import package_version
from exactodds.report.parsheet.render import render_markdown
from exactodds.studies.parsheet import par_sheet

ROOT = Path(__file__).resolve().parent.parent
SIX_BONUS = str(ROOT / "examples" / "bets" / "six_bonus.toml")
RULES = "banker_as_player"
COMMON = ["--decks", "1", "--no-breakeven", "--rounds", "10,100", "--date", "2026-01-31"]


def run(*arguments: str, env: dict[str, str] | None = None) -> Any:
    return CliRunner().invoke(cli, list(arguments), env=env)


def pdf_text(path: Path) -> str:
    from pypdf import PdfReader

    return "\n".join(page.extract_text() for page in PdfReader(path).pages)


def xlsx_text(path: Path) -> str:
    workbook = load_workbook(path)
    return "\n".join(
        " ".join(str(cell.value) for cell in row if cell.value is not None)
        for worksheet in workbook.worksheets
        for row in worksheet.iter_rows()
    )


def _flat(text: str) -> str:
    return re.sub(r"\s+", "", text)


@pytest.fixture(scope="module")
def formats(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """One sheet (a rules file, a custom bet, a title) in all four formats, as text."""
    folder = tmp_path_factory.mktemp("formats")
    arguments = [
        "report",
        *COMMON,
        "--rules",
        RULES,
        "--bet-file",
        SIX_BONUS,
        "--bets",
        "banker,six_bonus",
        "--title",
        "Six Bonus Baccarat",
        "--no-figures",
    ]
    texts = {}
    for suffix, read in (
        ("md", Path.read_text),
        ("html", Path.read_text),
        ("xlsx", xlsx_text),
        ("pdf", pdf_text),
    ):
        path = folder / f"sheet.{suffix}"
        result = run(*arguments, "-o", str(path))
        assert result.exit_code == 0, result.stderr
        texts[suffix] = read(path)
    command = "exactodds " + " ".join(arguments)
    texts["command"] = command.replace("Six Bonus Baccarat", "'Six Bonus Baccarat'")
    return texts


@pytest.mark.parametrize("suffix", ["md", "html", "xlsx", "pdf"])
def test_every_format_carries_the_header(formats: dict[str, str], suffix: str) -> None:
    text = formats[suffix]
    assert "Six Bonus Baccarat" in text and "standard pays" in text
    assert "2026-01-31" in text
    assert package_version() in text
    # The exact command line, as typed (the PDF wraps it inside its cell).
    assert _flat(formats["command"]) in _flat(text.replace("&#x27;", "'"))


@pytest.mark.parametrize("suffix", ["md", "html", "xlsx", "pdf"])
def test_every_format_shows_the_tableau_and_the_custom_conditions(
    formats: dict[str, str], suffix: str
) -> None:
    text = _flat(formats[suffix].replace("&#x27;", "'").replace("&quot;", '"'))
    assert _flat("Tableau 'banker_as_player'") in text
    assert _flat("Player drew 9") in text
    # banker_as_player: the Banker on 4 stands... no: draws on 0-5 whatever the third card.
    assert _flat("the Banker wins and the Banker's total is 6 and") in text
    assert _flat('when = { winner = "banker", banker_total = 6, banker_cards = 3 }') in text


def test_the_tableau_table_is_the_rules_file(tmp_path: Path) -> None:
    from exactodds.rulefiles import load_rules_file, shipped_rules_files

    tableau = load_rules_file(shipped_rules_files()[RULES])
    result = run("report", *COMMON, "--rules", RULES, "--bets", "tie")
    assert result.exit_code == 0, result.stderr
    lines = [line for line in result.stdout.splitlines() if re.match(r"\| \d \| [DS] \|", line)]
    expected = [
        f"| {total} | "
        + " | ".join(
            "D" if draws else "S"
            for draws in (
                tableau.banker_draws_when_player_stood[total],
                *tableau.banker_draws[total],
            )
        )
        + " |"
        for total in range(10)
        if total not in tableau.natural_totals
    ]
    assert lines == expected


@pytest.mark.parametrize("suffix", [pytest.param("pdf", marks=THOROUGH), "xlsx"])
def test_reproducible_with_source_date_epoch(tmp_path: Path, suffix: str) -> None:
    outputs = []
    path = tmp_path / f"sheet.{suffix}"  # the same command twice: the header holds the path
    for _ in range(2):
        result = run(
            "report",
            "--decks",
            "1",
            "--bets",
            "tie",
            "--no-breakeven",
            "--no-figures",
            "--rounds",
            "10",
            "-o",
            str(path),
            env={"SOURCE_DATE_EPOCH": "1767225600"},
        )
        assert result.exit_code == 0, result.stderr
        outputs.append(path.read_bytes())
    assert outputs[0] == outputs[1]
    text = pdf_text(path) if suffix == "pdf" else xlsx_text(path)
    assert "2026-01-01" in text


def test_compare_rows_equal_separate_runs() -> None:
    result = run(
        "report", *COMMON, "--bets", "banker,tie", "--compare", "decks=2,6", "--format", "markdown"
    )
    assert result.exit_code == 0, result.stderr
    rows = {
        (cells[0], cells[1]): cells[2:]
        for line in result.stdout.splitlines()
        if line.startswith("| decks=")
        for cells in [[cell.strip() for cell in line.strip("|").split("|")]]
    }
    assert len(rows) == 4
    for decks in (2, 6):
        alone = run("report", *COMMON, "--decks", str(decks), "--bets", "banker,tie")
        summary = {
            cells[0]: cells[1:]
            for line in alone.stdout.splitlines()
            if line.startswith(("| banker |", "| tie |"))
            for cells in [[cell.strip() for cell in line.strip("|").split("|")]]
            if len(cells) == 8
        }
        for bet in ("banker", "tie"):
            assert rows[f"decks={decks}", bet] == summary[bet]


def test_compare_pay_tables(tmp_path: Path) -> None:
    table = tmp_path / "dragon30.toml"
    table.write_text("dragon7 = 30\n", encoding="utf-8")
    sheet = run("report", *COMMON, "--bets", "dragon7", "--compare", f"pays={table}")
    alone = analyze(Shoe.standard(1), Rules(), select_bets("dragon7", pays={"dragon7": 30}))
    assert (
        f"| pays={table} | dragon7 | {percent_string(alone.bets['dragon7'].house_edge, 8)} |"
        in (sheet.stdout)
    )


# Bands and tails ----------------------------------------------------------------------------


def test_no_printed_band_passes_100_percent() -> None:
    # Dragon 7 over 100 rounds: the normal band would reach +164%.
    result = run(
        "report", "--bets", "dragon7,tie", "--rounds", "10,100", "--no-breakeven", "--decks", "8"
    )
    assert result.exit_code == 0, result.stderr
    bands = re.findall(r"(-?\d+\.\d+)% to (-?\d+\.\d+)%", result.stdout)
    assert bands
    assert all(-100 <= float(low) <= float(high) <= 100 for low, high in bands)
    assert "(clipped)" in result.stdout
    sheet = par_sheet(
        Shoe.standard(8), Rules(), select_bets("dragon7"), rounds=[1, 10, 100], breakeven=False
    )
    for band in sheet.bets["dragon7"].holds:
        low, high = band.bounds()
        assert -1 <= low <= high <= 1


def _decimal_sqrt(value: Fraction) -> Decimal:
    return (Decimal(value.numerator) / Decimal(value.denominator)).sqrt()


def test_band_coverage_on_the_sheet_is_the_brute_force_probability() -> None:
    rounds = 4
    sheet = par_sheet(
        Shoe.standard(1),
        Rules(),
        select_bets("banker,tie"),
        rounds=[rounds],
        confidences=[50, 90],
        breakeven=False,
    )
    for bet in sheet.bets.values():
        (tails,) = bet.tails
        assert tails.method == "exact"
        distribution = bet.result.distribution
        for band, printed in zip(bet.holds_at(rounds), tails.coverage, strict=True):
            inside = Fraction(0)
            for sequence in itertools.product(distribution.items(), repeat=rounds):
                win = -sum((result for result, _ in sequence), Fraction(0)) / rounds
                with localcontext() as context:
                    context.prec = 60
                    half = _decimal_sqrt(band.half_width_squared)
                    edge = Decimal(band.house_edge.numerator) / band.house_edge.denominator
                    low = max(edge - half, Decimal(band.floor.numerator) / band.floor.denominator)
                    high = min(edge + half, Decimal(1))
                    value = Decimal(win.numerator) / win.denominator
                if low <= value <= high:
                    inside += math.prod((p for _, p in sequence), start=Fraction(1))
            assert printed.value == inside and printed.exact


def test_hourly_figures_are_the_textbook_formulas() -> None:
    result = run(
        "report",
        *COMMON,
        "--bets",
        "tie",
        "--rounds-per-hour",
        "80",
        "--average-bet",
        "25",
        "--drop-ratio",
        "5",
    )
    assert result.exit_code == 0, result.stderr
    tie = analyze(Shoe.standard(1), Rules(), select_bets("tie")).bets["tie"]
    theo = 80 * 25 * tie.house_edge
    with localcontext() as context:
        context.prec = 50
        sd = 25 * _decimal_sqrt(tie.variance) * Decimal(80).sqrt()
    row = f"| 80 | 25 | 2000 | {decimal_string(theo, 2)} | {sd.quantize(Decimal('0.01'))} |"
    assert row in result.stdout
    assert percent_string(tie.house_edge * 5, 8) in result.stdout  # hold = win / drop


def test_one_in_x_on_every_outcome() -> None:
    result = run("report", *COMMON, "--bets", "dragon7")
    dragon7 = analyze(Shoe.standard(1), Rules(), select_bets("dragon7")).bets["dragon7"]
    win = Fraction(dragon7.outcome_counts["win"], dragon7.total)
    assert re.search(
        rf"\| win \| 40 \|.*\| {re.escape(decimal_string(1 / win, 2))} \|", result.stdout
    )


# xlsx numbers ------------------------------------------------------------------------------


def test_xlsx_figure_cells_are_numbers(tmp_path: Path) -> None:
    path = tmp_path / "sheet.xlsx"
    result = run(
        "report", *COMMON, "--bets", "banker,tie", "--compare", "decks=6,8", "-o", str(path)
    )
    assert result.exit_code == 0, result.stderr
    workbook = load_workbook(path)
    summary = workbook["Summary"]
    header = next(row for row in summary.iter_rows(values_only=True) if row[0] == "Bet" and row[1])
    rows = [row for row in summary.iter_rows(values_only=True) if row[0] in ("banker", "tie")]
    assert len(rows) == 2
    for row in rows:
        for title, value in zip(header, row, strict=False):
            if title in ("House edge", "Hit frequency", "SD") or (
                isinstance(title, str) and re.fullmatch(r"VI \d+%", title)
            ):
                assert isinstance(value, float), (title, value)
    compare = [row for row in workbook["Compare"].iter_rows(values_only=True) if row[0]]
    figures = [row for row in compare if str(row[0]).startswith("decks=")]
    assert len(figures) == 4 and all(
        isinstance(value, float) for row in figures for value in row[2:]
    )
    tails = workbook["tie"]
    numbers = [
        row
        for row in tails.iter_rows(values_only=True)
        if row[0] in (10, 100) and isinstance(row[1], str) and row[1] in ("exact",)
    ]
    assert numbers and all(isinstance(value, (int, float)) for row in numbers for value in row[2:5])
    assert tails.page_setup.orientation == "landscape" and tails.page_setup.fitToWidth == 1


# Files and exit codes ------------------------------------------------------------------------


@pytest.fixture
def small_tmpfs(tmp_path: Path) -> Iterator[Path]:
    """A 16 KiB tmpfs, too small for a par sheet (root only; skipped elsewhere)."""
    folder = tmp_path / "full"
    folder.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", str(folder)],
        capture_output=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip("cannot mount a tmpfs here (needs root)")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=False)


def _exit_one(result: Any) -> None:
    assert result.exit_code == 1, (result.exit_code, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr


@pytest.mark.parametrize("suffix", ["md", pytest.param("pdf", marks=THOROUGH)])
def test_a_full_disk_leaves_no_file_and_exits_1(small_tmpfs: Path, suffix: str) -> None:
    target = small_tmpfs / f"sheet.{suffix}"
    result = run(
        "report", *COMMON, "--bets", "banker,tie,dragon7", "--no-figures", "-o", str(target)
    )
    _exit_one(result)
    assert "No space left on device" in result.stderr and "no file was left" in result.stderr
    assert list(small_tmpfs.iterdir()) == []


def test_dev_full_exits_1() -> None:
    result = run("report", *COMMON, "--bets", "tie", "--format", "markdown", "-o", "/dev/full")
    _exit_one(result)
    assert "No space left on device" in result.stderr
    assert Path("/dev/full").is_char_device()


def test_stdout_on_a_full_device_exits_1() -> None:
    with open("/dev/full", "w") as full:
        completed = subprocess.run(
            [sys.executable, "-m", "exactodds", "report", *COMMON, "--bets", "tie"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
    assert completed.returncode == 1
    assert completed.stderr.strip() == "Error: Cannot write the output: no space left on device."


def test_a_failed_write_keeps_the_old_file_and_leaves_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "sheet.md"
    target.write_text("the previous sheet\n", encoding="utf-8")

    def failing_replace(source: Any, destination: Any) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "replace", failing_replace)
    _exit_one(run("report", *COMMON, "--bets", "tie", "-o", str(target)))
    assert target.read_text(encoding="utf-8") == "the previous sheet\n"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["sheet.md"]


def test_a_written_file_has_the_usual_mode(tmp_path: Path) -> None:
    target = tmp_path / "sheet.md"
    assert run("report", *COMMON, "--bets", "tie", "-o", str(target)).exit_code == 0
    mask = os.umask(0)
    os.umask(mask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~mask


def test_a_sheet_with_no_priceable_bet_exits_1() -> None:
    ranks_only = ",".join(f"{rank}=4" for rank in "A23456789TJQK")
    result = run("report", "--shoe", ranks_only, "--bets", "perfect_pair", "--no-breakeven")
    _exit_one(result)
    assert result.stdout == ""
    assert "No chosen bet can be priced" in result.stderr and "perfect_pair" in result.stderr


@pytest.mark.parametrize(
    ("arguments", "pattern"),
    [
        (
            ["--format", "html", "-o", "{tmp}/x.pdf"],
            r"ends in \.pdf, a pdf suffix, but --format is html",
        ),
        (
            ["--format", "markdown", "-o", "{tmp}/x.xlsx"],
            r"a xlsx suffix, but --format is markdown",
        ),
        (["-o", "{tmp}/x.xls"], r"has suffix '\.xls', which names no format; .* or give --format"),
        (["-o", "{tmp}/sheet"], r"has no suffix, which names no format"),
        (["--date", "31/01/2026"], r"Date '31/01/2026' is not valid; use a date such as"),
        (["--compare", "shoes=1"], r"--compare 'shoes=1' is not valid; use decks=4,6,8"),
        (["--rounds-per-hour", "80"], r"need both --rounds-per-hour and --average-bet"),
        (["--title", "two\nlines"], r"Title 'two\\nlines' is not valid; use one line"),
        (["--drop-ratio", "0", "--average-bet", "1", "--rounds-per-hour", "1"], r"--drop-ratio"),
        (
            ["--drop-ratio", "abc", "--average-bet", "1", "--rounds-per-hour", "1"],
            r"^Error: --drop-ratio 'abc' is not valid; use a number above 0, such as 5 or 6\.5 "
            r"\(the drop divided by the win\)\.$",
        ),
    ],
)
def test_bad_output_and_options_are_exit_2(
    arguments: list[str], pattern: str, tmp_path: Path
) -> None:
    filled = [argument.format(tmp=tmp_path) for argument in arguments]
    result = run("report", "--decks", "1", "--bets", "tie", "--no-breakeven", *filled)
    assert result.exit_code == 2, result.stderr
    assert re.search(pattern, result.stderr), result.stderr
    assert list(tmp_path.iterdir()) == []


def test_an_unknown_suffix_with_format_is_written(tmp_path: Path) -> None:
    target = tmp_path / "sheet.txt"
    result = run("report", *COMMON, "--bets", "tie", "--format", "markdown", "-o", str(target))
    assert result.exit_code == 0, result.stderr
    assert target.read_text(encoding="utf-8").startswith("# Baccarat par sheet: tie, ")


def test_library_sheet_without_identity_still_names_the_version() -> None:
    sheet = par_sheet(Shoe.standard(1), Rules(), select_bets("tie"), rounds=[10], breakeven=False)
    assert f"| exactodds version | {package_version()} |" in render_markdown(sheet)


# Layout: PDF pages and workbook columns --------------------------------------------------------


@pytest.fixture(scope="module")
def pdf_pages(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    from pypdf import PdfReader

    path = tmp_path_factory.mktemp("pdf") / "sheet.pdf"
    result = run(
        "report",
        *COMMON,
        "--bets",
        "banker,tie,dragon7",
        "--compare",
        "decks=4,6,8",
        "--title",
        "Layout",
        "-o",
        str(path),
    )
    assert result.exit_code == 0, result.stderr
    return [page.extract_text() for page in PdfReader(path).pages]


@thorough  # a 3-shoe comparison's PDF; test_document checks the layout on lighter documents
def test_pdf_every_page_is_numbered_x_of_y(pdf_pages: list[str]) -> None:
    total = len(pdf_pages)
    for number, text in enumerate(pdf_pages, start=1):
        assert f"page {number} of {total}" in text
        assert "Layout - exactodds" in text and "2026-01-31" in text


@thorough  # a 3-shoe comparison's PDF; test_document checks the layout on lighter documents
def test_pdf_words_are_never_split(pdf_pages: list[str]) -> None:
    words = set()
    from exactodds.report.document.blocks import Table
    from exactodds.report.parsheet.render import document

    sheet = par_sheet(
        Shoe.standard(1),
        Rules(),
        select_bets("banker,tie,dragon7"),
        rounds=[10, 100],
        breakeven=False,
    )
    for block in document(sheet, 10):
        if isinstance(block, Table):
            words |= {word for header in block.headers for word in header.split()}
    text = "\n".join(pdf_pages)
    found = set(re.findall(r"\S+", text))
    for word in words:
        assert word in found, word


@thorough  # a 3-shoe comparison's PDF; test_document checks the layout on lighter documents
def test_pdf_headings_stay_with_their_small_tables(pdf_pages: list[str]) -> None:
    pairs = [
        ("Outcomes", "Probability (exact)"),
        ("Volatility index", "VI squared (exact)"),
        ("Per hour", "Theo per hour"),
    ]
    for page in pdf_pages:
        lines = page.splitlines()
        for heading, header in pairs:
            if heading in lines:  # a heading line on this page: its table starts here too
                assert header in page, (heading, page[:200])
    # A small table is never split: the Outcomes table's header and its total row share a page.
    for page in pdf_pages:
        if "Probability (exact)" in page:
            assert re.search(r"^total ", page, flags=re.MULTILINE), page[:300]


def test_xlsx_columns_fit_their_headers(tmp_path: Path) -> None:
    path = tmp_path / "sheet.xlsx"
    assert run("report", *COMMON, "--bets", "banker,tie", "-o", str(path)).exit_code == 0
    workbook = load_workbook(path)
    for worksheet in workbook.worksheets:
        for row in worksheet.iter_rows():
            filled = [cell for cell in row if cell.value is not None]
            if len(filled) < 2:
                continue  # a paragraph or a title, left to overflow
            for cell in filled:
                if isinstance(cell.value, str) and not cell.value.startswith("="):
                    width = worksheet.column_dimensions[cell.column_letter].width
                    assert width >= min(len(cell.value), 60), (worksheet.title, cell.value)


def test_band_figure_spans_the_sheets_rounds_and_stays_within_100_percent() -> None:
    from exactodds.report.parsheet.figures import hold_figure

    sheet = par_sheet(
        Shoe.standard(8), Rules(), select_bets("dragon7"), rounds=[10, 300], breakeven=False
    )
    axes = hold_figure(sheet.bets["dragon7"]).axes[0]
    points = [vertex for band in axes.collections for vertex in band.get_paths()[0].vertices]
    assert min(x for x, _ in points) == 10 and max(x for x, _ in points) == 300
    assert all(-100 <= y <= 100 for _, y in points)
