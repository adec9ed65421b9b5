"""Blocks as PDF (fpdf2, pure Python, in the ``report`` extra): A4 landscape pages.

Headings, paragraphs, tables, and figures as PNG images when given.  Every page carries a
footer with the title, the version, the date and "page x of y".  Text is set in DejaVu Sans,
embedded in the file (subset): the TrueType font matplotlib ships in ``mpl-data/fonts/ttf``
(Bitstream Vera licence, which allows redistribution), found without importing matplotlib.
Lines wrap between words; a cell's long exact fraction, one word, wraps between its digits.
A heading stays on the page of what follows it, and a table that fits on one page is split
only when more than a third of the page is left (so no page is left half empty for it);
figures go two side by side.  The first page lists the sections (level 1 and 2 headings, each
a bookmark too) with their pages, and the file's metadata carry the title, the subject, the
author when given, and exactodds as the creator.  fpdf2 is imported inside :func:`blocks_pdf`
only.

>>> from exactodds.report.document.blocks import Heading, Table
>>> blocks_pdf([Heading(1, "Audit"), Table("t", ("A",), (("1",),), (True,))], "Audit",
...     "1.0", "2026-01-01")[:5]
b'%PDF-'
"""

from __future__ import annotations

import importlib.util
import io
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ...errors import MissingExtraError, import_extra
from .blocks import Block, Figure, Heading, Paragraph, Table, package_version

__all__ = ["blocks_pdf", "font_files", "require_fpdf"]

_HEADING_SIZES = {1: 18, 2: 14, 3: 11}
_TEXT_SIZE = 8
_FONT = "DejaVu"
#: Width of a figure on the page, in millimetres (two fit side by side on A4 landscape).
FIGURE_WIDTH = 132
_FIGURE_HEIGHT = FIGURE_WIDTH * 0.53 + 4


def require_fpdf() -> Any:
    """fpdf2's ``FPDF`` class, or a :class:`~exactodds.errors.MissingExtraError`."""
    fpdf = import_extra("fpdf", "The PDF par sheet", "report")
    font_files()
    return fpdf.FPDF


def font_files() -> tuple[Path, Path]:
    """The regular and bold DejaVu Sans TrueType files that matplotlib ships.

    >>> [path.name for path in font_files()]
    ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf']
    """
    spec = importlib.util.find_spec("matplotlib")
    if spec is not None and spec.submodule_search_locations:
        folder = Path(next(iter(spec.submodule_search_locations))) / "mpl-data" / "fonts" / "ttf"
        regular, bold = folder / "DejaVuSans.ttf", folder / "DejaVuSans-Bold.ttf"
        if regular.is_file() and bold.is_file():
            return regular, bold
    import_extra("matplotlib", "The PDF par sheet (its DejaVu Sans font)", "report")
    raise MissingExtraError(
        "The PDF par sheet embeds the DejaVu Sans font that matplotlib ships, and matplotlib's "
        'copy was not found; reinstall it with: pip install "exactodds[report]".'
    )


#: Padding of a table cell, left and right together, in millimetres.
_PADDING = 2.6
#: The widest a column's longest word may make it; longer words (exact fractions) wrap inside.
_WORD_CAP = 62.0


def _widths(pdf: Any, table: Table) -> list[float]:
    """Column widths in millimetres: every word whole, long cells wrapped, within the page.

    Each column gets at least its longest word (capped at :data:`_WORD_CAP`), then the room
    left goes to the columns whose full cells do not fit yet, in proportion to what they miss.
    """
    least, wanted = [], []
    for column, header in enumerate(table.headers):
        pdf.set_font(_FONT, "B", _TEXT_SIZE)  # headings are set in bold
        word = max((pdf.get_string_width(word) for word in header.split()), default=0.0)
        whole = pdf.get_string_width(header)
        pdf.set_font(_FONT, "", _TEXT_SIZE)
        for cell in (row[column] for row in table.rows):
            whole = max(whole, pdf.get_string_width(cell))
            word = max([word, *(pdf.get_string_width(part) for part in cell.split())])
        least.append(min(word + _PADDING, _WORD_CAP))
        wanted.append(whole + _PADDING)
    room = pdf.epw
    if sum(wanted) <= room:
        return wanted
    spare = max(room - sum(least), 0.0)
    missing = [want - low for want, low in zip(wanted, least, strict=True)]
    total = sum(missing) or 1.0
    widths = [low + spare * miss / total for low, miss in zip(least, missing, strict=True)]
    scale = min(1.0, room / sum(widths))
    return [width * scale for width in widths]


def _document_class(pdf_class: Any, footer_text: str) -> Any:
    class _Document(pdf_class):  # type: ignore[misc]
        def footer(self) -> None:
            self.set_y(-10)
            self.set_font(_FONT, "", 7)
            self.cell(0, 5, footer_text, align="L")
            self.set_x(self.l_margin)
            self.cell(0, 5, f"page {self.page_no()} of {{nb}}", align="R")

    return _Document


def _heading(pdf: Any, block: Heading) -> None:
    from fpdf.enums import XPos, YPos

    pdf.set_font(_FONT, "B", _HEADING_SIZES.get(block.level, 10))
    pdf.ln(2)
    if block.level <= 2:  # a section: a bookmark and a line of the contents, on its own page
        if pdf.will_page_break(7):
            pdf.add_page()
        pdf.start_section(block.text, block.level - 1, strict=False)
    pdf.multi_cell(pdf.epw, 7, block.text, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.ln(1)


def _paragraph(pdf: Any, block: Paragraph) -> None:
    from fpdf.enums import XPos, YPos

    pdf.set_font(_FONT, "", _TEXT_SIZE + 1)
    pdf.multi_cell(pdf.epw, 4.5, block.text, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.ln(2)


def _table(pdf: Any, block: Table) -> None:
    from fpdf.enums import WrapMode

    widths = _widths(pdf, block)
    pdf.set_font(_FONT, "", _TEXT_SIZE)
    with pdf.table(
        col_widths=widths,
        width=sum(widths),
        align="LEFT",
        text_align=tuple("RIGHT" if numeric else "LEFT" for numeric in block.numeric),
        wrapmode=WrapMode.WORD,
        line_height=3.8,
        repeat_headings=1,
    ) as table:
        for cells in (block.headers, *block.rows):
            row = table.row()
            for cell in cells:
                row.cell(cell)
    pdf.ln(3)


def _draw(pdf: Any, blocks: Sequence[Block]) -> None:
    for block in blocks:
        if isinstance(block, Heading):
            _heading(pdf, block)
        elif isinstance(block, Paragraph):
            _paragraph(pdf, block)
        elif isinstance(block, Table):
            _table(pdf, block)


def _fits(pdf: Any, scratch: Any, blocks: Sequence[Block], *, fresh_page: bool = False) -> bool:
    """Whether *blocks* fit in what is left of *pdf*'s page (or on a fresh page).

    They are drawn from the same height on a new page of *scratch*, a twin document that is
    never written out: fpdf2's ``offset_rendering`` would copy the whole document, fonts
    included, for every trial, which made a par sheet's PDF take seconds per section.
    """
    scratch.add_page()
    if not fresh_page:
        scratch.set_y(pdf.get_y())
    page = scratch.page
    _draw(scratch, blocks)
    return bool(scratch.page == page)


#: Below this share of the page's body left, a unit that does not fit starts a new page.
_LEFT_TO_SPLIT = 1 / 3


#: The table of contents' layout (mm), read by :func:`_contents` and :func:`_contents_pages`
#: alike: the gap above it, its title's height and each line's.
_CONTENTS_GAP, _CONTENTS_TITLE, _CONTENTS_LINE = 2, 8, 5


def _contents(pdf: Any, outline: list[Any]) -> None:
    """The table of contents: each section's title, dots, its page (fpdf2 calls this last)."""
    from fpdf.enums import XPos, YPos

    pdf.set_font(_FONT, "B", _HEADING_SIZES[2])
    pdf.ln(_CONTENTS_GAP)
    pdf.cell(0, _CONTENTS_TITLE, "Contents", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.set_font(_FONT, "", _TEXT_SIZE + 1)
    for section in outline:
        indent = 6 * section.level
        page = str(section.page_number)
        link = pdf.add_link(page=section.page_number)
        pdf.set_x(pdf.l_margin + indent)
        room = pdf.epw - indent - pdf.get_string_width(page) - 4
        name = section.name
        dots = " " + "." * int(
            (room - pdf.get_string_width(name + " ")) / max(pdf.get_string_width("."), 0.1)
        )
        pdf.cell(room, _CONTENTS_LINE, name + dots, link=link)
        pdf.cell(0, _CONTENTS_LINE, page, align="R", link=link, new_x=XPos.LMARGIN, new_y=YPos.NEXT)


def _place(pdf: Any, scratch: Any, unit: list[Block]) -> None:
    """Draw *unit*: on a new page when it does not fit in less than a third of a page left;
    else here, its prose first, its closing table then on a new page only when that table,
    too long for what is left, fits on one (so a few of its rows never stand alone)."""
    body = pdf.page_break_trigger - pdf.t_margin
    left = pdf.page_break_trigger - pdf.get_y()
    if pdf.get_y() <= pdf.t_margin + 1 or _fits(pdf, scratch, unit):
        _draw(pdf, unit)
        return
    if left < body * _LEFT_TO_SPLIT:
        pdf.add_page()  # keep a heading with its table, and a small table whole
        _draw(pdf, unit)
        return
    *prose, last = unit
    if isinstance(last, Table) and any(isinstance(block, Paragraph) for block in prose):
        _draw(pdf, prose)
        if not _fits(pdf, scratch, [last]) and _fits(pdf, scratch, [last], fresh_page=True):
            pdf.add_page()  # the table fits on a page of its own
        _draw(pdf, [last])
        return
    _draw(pdf, unit)


def _units(blocks: list[Block]) -> list[list[Block]]:
    """Blocks grouped so that headings and paragraphs travel with the table after them."""
    units: list[list[Block]] = []
    pending: list[Block] = []
    for block in blocks:
        if isinstance(block, Figure):
            if pending:
                units.append(pending)
                pending = []
            units.append([block])
            continue
        pending.append(block)
        if isinstance(block, Table):
            units.append(pending)
            pending = []
    if pending:
        units.append(pending)
    return units


def blocks_pdf(
    blocks: Sequence[Block],
    title: str,
    version: str | None = None,
    date: str | None = None,
    figure_png: Callable[[str, str], bytes] | None = None,
    *,
    author: str = "",
    subject: str = "",
) -> bytes:
    """Blocks (of a par sheet, an audit ...) as PDF bytes, *title* and *date* in the footer.

    *title*, *subject* and *author* (when given) are the file's metadata too; the sections
    are listed on the first page, after the blocks before the first level 2 heading, when
    there are at least two.
    """
    pdf_class = require_fpdf()
    regular, bold = font_files()
    footer = f"{title} - exactodds {version or package_version()}"
    if date:
        footer += f" - {date}"
    pdf, scratch = (_new_document(pdf_class, footer, regular, bold) for _ in range(2))
    pdf.set_title(title)
    pdf.set_subject(subject or title)
    if author:
        pdf.set_author(author)
    pdf.set_creator(f"exactodds {package_version()}")
    sections = sum(isinstance(block, Heading) and block.level == 2 for block in blocks)
    listed = sections < 2  # whether the table of contents is in place (or not wanted)
    if date:
        pdf.set_creation_date(_creation_date(date))
    pdf.add_page()
    pending_figure = False
    top = 0.0  # where the current row of figures starts
    for unit in _units(list(blocks)):
        first = unit[0]
        if isinstance(first, Figure):
            if figure_png is None:
                continue
            if pending_figure:  # the second figure of a row, beside the first
                x = pdf.l_margin + FIGURE_WIDTH + 6
                pdf.image(io.BytesIO(figure_png(first.bet, first.kind)), x=x, y=top, w=FIGURE_WIDTH)
                pdf.set_y(top + _FIGURE_HEIGHT)
                pending_figure = False
                continue
            if pdf.get_y() + _FIGURE_HEIGHT > pdf.page_break_trigger:
                pdf.add_page()
            top = pdf.get_y()
            pdf.image(
                io.BytesIO(figure_png(first.bet, first.kind)), x=pdf.l_margin, y=top, w=FIGURE_WIDTH
            )
            pdf.set_y(top)
            pending_figure = True
            continue
        if pending_figure:
            pdf.set_y(top + _FIGURE_HEIGHT)
            pending_figure = False
        if not listed and any(isinstance(b, Heading) and b.level == 2 for b in unit):
            pdf.insert_toc_placeholder(_contents, pages=_contents_pages(pdf, blocks))
            listed = True
        _place(pdf, scratch, unit)
    if pending_figure:
        pdf.set_y(top + _FIGURE_HEIGHT)
    return bytes(pdf.output())


def _new_document(pdf_class: Any, footer: str, regular: Path, bold: Path) -> Any:
    """An A4 landscape document with the fonts, the footer and the page breaks of a sheet."""
    pdf = _document_class(pdf_class, footer)(orientation="L", format="A4")
    pdf.add_font(_FONT, "", str(regular))
    pdf.add_font(_FONT, "B", str(bold))
    pdf.set_auto_page_break(auto=True, margin=14)
    return pdf


def _contents_pages(pdf: Any, blocks: Sequence[Block]) -> int:
    """The pages the table of contents spans from here, laid out as :func:`_contents` does
    (fpdf2 needs the count up front: pages it adds later would leave the page numbers
    already printed in the footers wrong)."""
    sections = sum(isinstance(block, Heading) and block.level <= 2 for block in blocks)
    pages, top = 1, pdf.get_y() + _CONTENTS_GAP
    for height in (_CONTENTS_TITLE, *[_CONTENTS_LINE] * sections):
        if top + height > pdf.page_break_trigger:
            pages, top = pages + 1, pdf.t_margin
        top += height
    return pages


def _creation_date(date: str) -> Any:
    import datetime

    return datetime.datetime.combine(
        datetime.date.fromisoformat(date), datetime.time(), tzinfo=datetime.UTC
    )
