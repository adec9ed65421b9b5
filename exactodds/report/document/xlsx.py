"""Blocks as an Excel workbook (openpyxl, the ``report`` extra), and the workbook's primitives.

:class:`SheetWriter` appends rows to one worksheet: cells, bold header rows, the document's
headings, paragraphs and tables (a shown number becomes a number with its format: ``1,000`` ->
1000, ``12.50%`` -> 0.125; a figure with an error bound keeps the bound as the cell's note),
and formulas. A :class:`Formula` carries the value its model already holds, and
:func:`save_dated` stores that value as the formula's result, so a reader that computes
nothing (pandas, ``openpyxl.load_workbook(data_only=True)``) reads numbers; Excel still
recomputes on opening when the workbook asks for it. Columns are as wide as their cells, every
sheet prints landscape, one page wide, with "page x of y" in the footer, and a dated workbook is
the same file, byte for byte, on the same date.

:func:`write_blocks_xlsx` writes a document (the countability audit) as sheets of blocks, the
first led by the par sheet's identification header.

openpyxl is imported inside the functions that write only.

>>> import io
>>> from fractions import Fraction
>>> from openpyxl import Workbook, load_workbook
>>> workbook = Workbook()
>>> writer = SheetWriter(workbook.active)
>>> _ = writer.line("Pay", Formula("=19/20", Fraction(19, 20)))
>>> buffer = io.BytesIO()
>>> save_dated(workbook, buffer, "2026-01-01", {workbook.active.title: writer.cached})
>>> load_workbook(buffer)["Sheet"]["B1"].value
'=19/20'
>>> load_workbook(buffer, data_only=True)["Sheet"]["B1"].value
0.95
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import IO, Any

from ...errors import import_extra
from ...studies.parsheet import SheetIdentity
from .blocks import Block, Heading, Paragraph, Table, package_version

__all__ = [
    "Formula",
    "SheetWriter",
    "fill_worksheet",
    "finish_sheet",
    "identity_lines",
    "require_openpyxl",
    "save_dated",
    "sheet_title",
    "write_blocks_xlsx",
]


def require_openpyxl(feature: str = "The xlsx par sheet") -> Any:
    """openpyxl, or a :class:`~exactodds.errors.MissingExtraError` saying how to get it
    (*feature* names what needs it: the par sheet, the audit)."""
    return import_extra("openpyxl", feature, "report")


@dataclass(frozen=True)
class Formula:
    """A formula a reviewer can follow (``=D9/$B$6``) and its result, which the model holds.

    >>> Formula("=B9*F9", Fraction(4, 5)).value
    Fraction(4, 5)
    """

    text: str
    value: Fraction


def sheet_title(name: str, taken: set[str]) -> str:
    """*name* as a worksheet title Excel accepts, unique among *taken* (which it joins).

    >>> taken = {"summary"}
    >>> sheet_title("Summary", taken), sheet_title("a/b", taken), sheet_title("A/B", taken)
    ('Summary_2', 'a_b', 'A_B_2')
    """
    base = re.sub(r"[\\/*?:\[\]]", "_", name)[:31] or "bet"
    title, suffix = base, 2
    while title.lower() in taken:
        title = f"{base[: 31 - len(str(suffix)) - 1]}_{suffix}"
        suffix += 1
    taken.add(title.lower())
    return title


class SheetWriter:
    """Appends labelled rows to one worksheet, keeping track of the row and of each formula's
    result (``cached``: coordinate -> value, for :func:`save_dated`)."""

    def __init__(self, worksheet: Any) -> None:
        from openpyxl.styles import Font

        self.worksheet = worksheet
        self.bold = Font(bold=True)
        self.row = 0
        self.cached: dict[str, Fraction] = {}

    def line(self, *values: Any, bold: bool = False, formats: dict[int, str] | None = None) -> int:
        """One row of *values* (``None`` leaves a cell empty; a :class:`Formula` is written
        with its result); returns the row's number."""
        self.row += 1
        for column, value in enumerate(values, start=1):
            if value is None:
                continue
            if isinstance(value, Formula):
                cell = self.worksheet.cell(row=self.row, column=column, value=value.text)
                self.cached[cell.coordinate] = value.value
            else:
                cell = self.worksheet.cell(row=self.row, column=column, value=value)
            if bold:
                cell.font = self.bold
            if formats and column in formats:
                cell.number_format = formats[column]
        return self.row

    def skip(self) -> None:
        """Leave one row empty."""
        self.row += 1

    def table(self, table: Table) -> None:
        """A table of the document: numbers as numbers (formatted as shown), text as text."""
        self.line(*table.headers, bold=True)
        for cells in table.rows:
            self.row += 1
            for column, (text, numeric) in enumerate(zip(cells, table.numeric, strict=True), 1):
                value, number_format, note = _cell(text) if numeric else (text, None, None)
                if value == "":
                    continue
                cell = self.worksheet.cell(row=self.row, column=column, value=value)
                if number_format:
                    cell.number_format = number_format
                if note:
                    from openpyxl.comments import Comment

                    cell.comment = Comment(note, "exactodds")

    def blocks(self, blocks: Iterable[Block]) -> None:
        """Headings, paragraphs and tables of the document, in order (figures left out)."""
        for block in blocks:
            if isinstance(block, Heading):
                self.skip()
                self.line(block.text, bold=True)
            elif isinstance(block, Paragraph):
                self.line(block.text)
            elif isinstance(block, Table):
                self.table(block)


_INTEGER = re.compile(r"-?\d{1,3}(?:,\d{3})*|-?\d+")
_DECIMAL = re.compile(r"(-?\d+)\.(\d+)")
_PERCENT = re.compile(r"(-?\d+)(?:\.(\d+))?%")
_BOUNDED = re.compile(r"(\S+) ±(\S+)")


def _cell(text: str) -> tuple[Any, str | None, str | None]:
    """A shown number as (value, number format, note): '1,000' -> 1000, '12.50%' -> 0.125.

    A figure with an error bound ('0.900037 ±6.1e-10') keeps the bound as the cell's note;
    anything else (a range, a dash) stays text.

    >>> _cell("1,000"), _cell("12.50%"), _cell("-")
    ((1000, '#,##0', None), (0.125, '0.00%', None), ('-', None, None))
    >>> _cell("0.900037 ±6.1e-10")
    (0.900037, '0.000000', 'Within ±6.1e-10 of the exact value.')
    """
    note = None
    bounded = _BOUNDED.fullmatch(text)
    if bounded:
        text, note = bounded.group(1), f"Within ±{bounded.group(2)} of the exact value."
    if _INTEGER.fullmatch(text):
        return int(text.replace(",", "")), "#,##0" if "," in text else "0", note
    decimal = _DECIMAL.fullmatch(text)
    if decimal:
        return float(text), "0." + "0" * len(decimal.group(2)), note
    percent = _PERCENT.fullmatch(text)
    if percent:
        places = len(percent.group(2) or "")
        shown = "0." + "0" * places + "%" if places else "0%"
        return float(Fraction(text[:-1]) / 100), shown, note
    return text, None, note


def identity_lines(writer: SheetWriter, identity: SheetIdentity | None, title: str) -> None:
    """The identification header: title, pay table, date, version, command (*title* without)."""
    writer.line(identity.title if identity else title, bold=True)
    if identity:
        for label, value in identity.rows()[1 if not identity.game_name else 0 :]:
            writer.line(label, value)
    else:
        writer.line("exactodds version", package_version())


def write_blocks_xlsx(
    sheets: Sequence[tuple[str, Sequence[Block]]],
    target: str | Path | IO[bytes],
    identity: SheetIdentity | None,
    title: str,
) -> None:
    """Write a document's *sheets* ((name, headings, paragraphs and tables) each) as a workbook.

    The first sheet starts with the par sheet's identification header (*title* when there is
    no *identity*); tables keep numbers as numbers (:meth:`SheetWriter.table`), columns are as
    wide as their cells, and a dated *identity* dates the file.

    >>> import io
    >>> buffer = io.BytesIO()
    >>> write_blocks_xlsx([("Summary", [Paragraph("Hello.")]), ("bet", [Table("t", ("Figure",
    ...     "Value"), (("House edge", "5.25%"),), (False, True))])], buffer, None, "Audit")
    >>> from openpyxl import load_workbook
    >>> workbook = load_workbook(buffer)
    >>> workbook.sheetnames, workbook["bet"]["B2"].value
    (['Summary', 'bet'], 0.0525)
    """
    openpyxl = require_openpyxl("The xlsx workbook")
    workbook = openpyxl.Workbook()
    taken: set[str] = set()
    cached = {}
    for index, (name, blocks) in enumerate(sheets):
        worksheet = workbook.active if index == 0 else workbook.create_sheet()
        worksheet.title = sheet_title(name, taken)
        writer = SheetWriter(worksheet)
        if index == 0:
            identity_lines(writer, identity, title)
        writer.blocks(blocks)
        cached[worksheet.title] = writer.cached
    footer = f"{identity.title} - {identity.date}" if identity else title
    for worksheet in workbook.worksheets:
        finish_sheet(worksheet, footer)
    save_dated(workbook, target, identity.date if identity else None, cached)


def _cached_text(value: Fraction) -> str:
    """A formula's result as its ``<v>`` holds it: a whole number exactly, else the nearest
    double.

    >>> _cached_text(Fraction(12)), _cached_text(Fraction(1, 3))
    ('12', '0.3333333333333333')
    """
    if value.denominator == 1 and abs(value) < 2**53:
        return str(value.numerator)
    return repr(float(value))


_FORMULA_CELL = re.compile(rb'(<c r="([A-Z]+\d+)"[^>]*><f>[^<]*</f>)<v ?/>')


def fill_worksheet(xml: bytes, values: Mapping[str, Fraction]) -> bytes:
    """A saved worksheet's XML with each formula's empty ``<v />`` holding its result.

    >>> fill_worksheet(b'<c r="A2"><f>19/20</f><v /></c>', {"A2": Fraction(19, 20)})
    b'<c r="A2"><f>19/20</f><v>0.95</v></c>'
    """

    def filled(match: re.Match[bytes]) -> bytes:
        value = values.get(match.group(2).decode("ascii"))
        if value is None:
            return match.group(0)
        return match.group(1) + b"<v>" + _cached_text(value).encode("ascii") + b"</v>"

    return _FORMULA_CELL.sub(filled, xml)


def save_dated(
    workbook: Any,
    target: str | Path | IO[bytes],
    date: str | None,
    cached: Mapping[str, Mapping[str, Fraction]],
) -> None:
    """Save with every timestamp (document properties, zip entries) at *date*, 00:00 UTC, so
    that the same workbook on the same date is the same file, byte for byte; each formula with
    its result stored (*cached*: per sheet title, coordinate -> the model's value)."""
    import datetime
    import time
    import zipfile

    from openpyxl.writer.excel import ExcelWriter

    sheets = {
        f"xl/worksheets/sheet{index}.xml": worksheet.title
        for index, worksheet in enumerate(workbook.worksheets, 1)
    }
    if date is None:
        moment = None
        stamp = time.localtime()[:6]
    else:
        moment = datetime.datetime.combine(datetime.date.fromisoformat(date), datetime.time())
        stamp = (max(moment.year, 1980), moment.month, moment.day, 0, 0, 0)

    class _DatedZip(zipfile.ZipFile):
        def writestr(
            self,
            zinfo_or_arcname: str | zipfile.ZipInfo,
            data: Any,
            compress_type: int | None = None,
            compresslevel: int | None = None,
        ) -> None:
            name = getattr(zinfo_or_arcname, "filename", zinfo_or_arcname)
            if name in sheets:
                text = data.encode("utf-8") if isinstance(data, str) else data
                data = fill_worksheet(text, cached.get(sheets[name], {}))
            if isinstance(zinfo_or_arcname, str):
                zinfo_or_arcname = zipfile.ZipInfo(zinfo_or_arcname, date_time=stamp)
                zinfo_or_arcname.compress_type = zipfile.ZIP_DEFLATED
            super().writestr(zinfo_or_arcname, data, compress_type, compresslevel)

        def write(
            self,
            filename: Any,
            arcname: Any = None,
            compress_type: int | None = None,
            compresslevel: int | None = None,
        ) -> None:
            # openpyxl writes each worksheet from a temporary file; date it like the rest.
            with open(filename, "rb") as source:
                self.writestr(arcname or str(filename), source.read(), compress_type, compresslevel)

    if moment is not None:
        workbook.properties.created = moment
        workbook.properties.modified = moment
    archive = _DatedZip(target, "w", zipfile.ZIP_DEFLATED, allowZip64=True)
    ExcelWriter(workbook, archive).save()


#: Widest a column is made, in characters; longer text (a paragraph) overflows to the right.
_MAX_WIDTH = 60


def finish_sheet(worksheet: Any, footer: str) -> None:
    """Columns as wide as their cells (a paragraph alone on its row does not count), landscape,
    fit to one page wide, page x of y in the footer."""
    widths: dict[int, int] = {}
    for row in worksheet.iter_rows():
        filled = [cell for cell in row if cell.value is not None]
        if len(filled) == 1 and isinstance(filled[0].value, str) and len(filled[0].value) > 40:
            continue  # a paragraph: let it overflow
        for cell in filled:
            widths[cell.column] = max(widths.get(cell.column, 8), _shown_width(cell))
    from openpyxl.utils import get_column_letter

    for column, width in widths.items():
        worksheet.column_dimensions[get_column_letter(column)].width = min(width + 2, _MAX_WIDTH)
    worksheet.page_setup.orientation = "landscape"
    worksheet.page_setup.fitToWidth = 1
    worksheet.page_setup.fitToHeight = 0
    worksheet.sheet_properties.pageSetUpPr.fitToPage = True
    worksheet.oddFooter.left.text = footer
    worksheet.oddFooter.right.text = "page &P of &N"


def _shown_width(cell: Any) -> int:
    value = cell.value
    if isinstance(value, str):
        if value.startswith("="):
            return 16  # a formula shows its result
        return len(value)
    if isinstance(value, bool):
        return 5
    if isinstance(value, int):
        return len(f"{value:,}") + 1
    if isinstance(value, float):
        number_format = cell.number_format or ""
        places = number_format.count("0") if "." in number_format else 12
        return max(places + 4, 8)
    return 10
