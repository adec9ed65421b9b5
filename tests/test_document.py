"""The document layer (exactodds.report.document): each writer on one small document.

The blocks are written by every writer; what each format must keep is checked by reading the
output back (Markdown lines, HTML parsed, terminal width, the PDF's text, the workbook's
cells). The par sheet's four formats are still produced from the command line, and the layer
sits below what uses it: no writer imports the par sheet's or the audit's renderers.
"""

from __future__ import annotations

import ast
import io
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path

import pytest
from budget import THOROUGH
from click.testing import CliRunner

from exactodds.cli import cli
from exactodds.report.document.blocks import Block, Figure, Heading, Paragraph, Table
from exactodds.report.document.html import blocks_html
from exactodds.report.document.markdown import blocks_markdown
from exactodds.report.document.text import blocks_text
from exactodds.report.table import TABLE_WIDTH
from exactodds.studies.parsheet import SheetIdentity

ROOT = Path(__file__).resolve().parent.parent

DOCUMENT: list[Block] = [
    Heading(1, "Small <report>", anchor="top"),
    Paragraph("Exact figures & a <b>tag</b> shown as text."),
    Heading(2, "Bet: tie", anchor="tie"),
    Table(
        "tie-figures",
        ("Figure", "Value", "Value (exact)"),
        (("House edge", "14.36%", "1/7"), ("Combinations", "1,000", "1000"), ("Push", "-", "0")),
        (False, True, True),
    ),
    Figure("tie", "hold", "tie: the hold"),
]
IDENTITY = SheetIdentity("Small report", "standard pays", "9.9", "exactodds report", "2026-01-01")


def test_markdown_writes_every_block_and_escapes_markup() -> None:
    text = blocks_markdown(DOCUMENT, lambda bet, kind: f"figures/{bet}-{kind}.png")
    assert text.splitlines() == [
        "# Small &lt;report>",
        "",
        "Exact figures & a &lt;b>tag&lt;/b> shown as text.",
        "",
        "## Bet: tie",
        "",
        "| Figure | Value | Value (exact) |",
        "|---|---:|---:|",
        "| House edge | 14.36% | 1/7 |",
        "| Combinations | 1,000 | 1000 |",
        "| Push | - | 0 |",
        "",
        "![tie: the hold](figures/tie-hold.png)",
    ]
    assert "![" not in blocks_markdown(DOCUMENT)  # no figure without a path for it


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.cells: list[tuple[str, str]] = []  # (class, text) of each <td>
        self.ids: list[str] = []
        self.title = ""
        self._open: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("id"):
            self.ids.append(found["id"] or "")
        if tag in ("td", "title"):
            self._open = found.get("class") or "" if tag == "td" else "title"

    def handle_data(self, data: str) -> None:
        if self._open == "title":
            self.title += data
        elif self._open is not None:
            self.cells.append((self._open, data))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "title"):
            self._open = None


def test_html_is_one_page_with_ids_classes_and_escaped_text() -> None:
    page = blocks_html(DOCUMENT, "Small <report>", lambda bet, kind: f"<svg id='{bet}'></svg>")
    parsed = _Page()
    parsed.feed(page)
    assert parsed.title == "Small <report>"
    assert parsed.ids == ["top", "tie", "tie-figures", "tie-hold-figure", "tie"]
    assert parsed.cells[:3] == [("", "House edge"), ("number", "14.36%"), ("exact", "1/7")]
    assert "<b>tag</b>" not in page and "&lt;b&gt;tag&lt;/b&gt;" in page
    assert "<figure" not in blocks_html(DOCUMENT, "Small")


def test_text_fits_the_terminal_and_splits_a_wide_table_by_columns() -> None:
    wide = Table(
        "wide",
        ("Rank", *(f"Column {index}" for index in range(12))),
        (("A", *(f"{index}.123456" for index in range(12))),),
        (False,) + (True,) * 12,
    )
    text = blocks_text([Heading(2, "Wide"), Paragraph("word " * 60), wide])
    lines = text.splitlines()
    assert lines[:2] == ["Wide", "===="]
    assert max(len(line) for line in lines) <= TABLE_WIDTH
    assert sum(line.startswith("Rank") for line in lines) >= 2  # each part led by its first column
    assert all(f"{index}.123456" in text for index in range(12))


def test_pdf_holds_every_cell_and_is_the_same_file_on_the_same_date() -> None:
    pypdf = pytest.importorskip("pypdf")
    pytest.importorskip("fpdf")
    from exactodds.report.document.pdf import blocks_pdf

    content = blocks_pdf(DOCUMENT, "Small report", "9.9", "2026-01-01")
    assert content == blocks_pdf(DOCUMENT, "Small report", "9.9", "2026-01-01")
    reader = pypdf.PdfReader(io.BytesIO(content))
    text = "".join(page.extract_text() for page in reader.pages)
    assert reader.metadata.title == "Small report"
    assert "Small report - exactodds 9.9 - 2026-01-01" in text
    assert f"page 1 of {len(reader.pages)}" in text
    for cell in ("House edge", "14.36%", "1/7", "1,000", "Small <report>"):
        assert cell in text


@pytest.mark.parametrize("sections", [3, 40, pytest.param(80, marks=THOROUGH)])
def test_a_long_table_of_contents_keeps_every_page_number_right(sections: int) -> None:
    # A par sheet of all 27 bets lists more sections than a page holds: its contents once ran
    # onto pages fpdf2 added at the end, which crashed the PDF writer.
    pypdf = pytest.importorskip("pypdf")
    pytest.importorskip("fpdf")
    from exactodds.report.document.pdf import blocks_pdf

    blocks: list[Block] = [Heading(1, "Many sections"), Paragraph("Before the contents.")]
    for number in range(sections):
        blocks += [Heading(2, f"Section {number}"), DOCUMENT[3]]
    reader = pypdf.PdfReader(io.BytesIO(blocks_pdf(blocks, "Long", "9.9", "2026-01-01")))
    pages = [page.extract_text() for page in reader.pages]
    for number, text in enumerate(pages, start=1):
        assert f"page {number} of {len(pages)}" in text
    listed = "\n".join(text for text in pages if "...." in text)
    for number in range(sections):
        line = next(line for line in listed.splitlines() if line.startswith(f"Section {number} "))
        page = int(line.rsplit(" ", 1)[1].strip("."))
        assert f"Section {number}" in pages[page - 1]


def test_xlsx_keeps_numbers_as_numbers_and_is_the_same_file_on_the_same_date() -> None:
    openpyxl = pytest.importorskip("openpyxl")
    from exactodds.report.document.xlsx import write_blocks_xlsx

    def written() -> bytes:
        buffer = io.BytesIO()
        write_blocks_xlsx([("Summary", DOCUMENT[:2]), ("tie", DOCUMENT[2:])], buffer, IDENTITY, "x")
        return buffer.getvalue()

    content = written()
    assert content == written()
    workbook = openpyxl.load_workbook(io.BytesIO(content))
    assert workbook.sheetnames == ["Summary", "tie"]
    summary = [row for row in workbook["Summary"].iter_rows(values_only=True) if any(row)]
    assert summary[0][0] == "Small report" and ("Date", "2026-01-01") in (
        row[:2] for row in summary
    )
    cells = {row[0]: row[1:3] for row in workbook["tie"].iter_rows(values_only=True) if row[0]}
    assert cells["House edge"] == (pytest.approx(0.1436), "1/7")
    assert cells["Combinations"] == (1000, 1000)  # a number column: 1,000 and 1000 alike
    assert cells["Push"] == ("-", 0)  # a dash stays text
    assert workbook["tie"].oddFooter.right.text == "page &P of &N"


def test_a_formula_is_stored_with_the_value_it_is_given() -> None:
    openpyxl = pytest.importorskip("openpyxl")
    from exactodds.report.document.xlsx import Formula, SheetWriter, save_dated

    workbook = openpyxl.Workbook()
    writer = SheetWriter(workbook.active)
    writer.line("Pay", Formula("=19/20", Fraction(19, 20)), Formula("=2*3", Fraction(6)))
    writer.line("Third", Formula("=1/3", Fraction(1, 3)), "=1+1")  # the last one is not a model's
    buffer = io.BytesIO()
    save_dated(workbook, buffer, "2026-01-01", {workbook.active.title: writer.cached})
    formulas = openpyxl.load_workbook(io.BytesIO(buffer.getvalue()))
    values = openpyxl.load_workbook(io.BytesIO(buffer.getvalue()), data_only=True)
    sheet, cached = formulas.active, values.active
    assert [sheet[name].value for name in ("B1", "C1", "B2")] == ["=19/20", "=2*3", "=1/3"]
    assert [cached[name].value for name in ("B1", "C1", "B2")] == [0.95, 6, 1 / 3]
    assert cached["C2"].value is None  # a formula without a value is left for Excel


@pytest.mark.parametrize(
    ("output_format", "start"),
    [
        ("markdown", b"# Baccarat par sheet: tie"),
        ("html", b"<!DOCTYPE html>"),
        ("xlsx", b"PK"),
        ("pdf", b"%PDF"),
    ],
)
def test_the_par_sheet_is_still_written_in_its_four_formats(
    tmp_path: Path, output_format: str, start: bytes
) -> None:
    if output_format in ("xlsx", "pdf"):
        pytest.importorskip("openpyxl" if output_format == "xlsx" else "fpdf")
    target = tmp_path / f"sheet.{output_format}"
    arguments = ["report", "--bets", "tie", "--decks", "1", "--no-breakeven"]
    result = CliRunner().invoke(cli, [*arguments, "--format", output_format, "-o", str(target)])
    assert result.exit_code == 0, result.output
    assert target.read_bytes().startswith(start)


def test_the_document_layer_imports_none_of_the_reports_that_use_it() -> None:
    folder = ROOT / "exactodds" / "report" / "document"
    for path in folder.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                package = ["exactodds", "report", "document"][: 4 - node.level]
                module = ".".join([*package, node.module or ""]) if node.level else node.module
                assert not str(module).startswith(
                    ("exactodds.report.parsheet", "exactodds.report.audit")
                ), f"{path.name} imports {module}"
