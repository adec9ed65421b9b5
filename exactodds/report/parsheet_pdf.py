"""A par sheet as PDF (fpdf2, pure Python, in the ``report`` extra).

The same blocks as the HTML and Markdown (:func:`~exactodds.report.parsheet_render.document`)
laid out on A4 landscape pages: headings, paragraphs, tables whose long exact fractions wrap
inside their cells, and the figures as PNG images when given.  fpdf2 is imported inside
:func:`render_pdf` only.

>>> from exactodds import Rules, Shoe
>>> from exactodds.bets.catalogue import select_bets
>>> from exactodds.report.parsheet import par_sheet
>>> sheet = par_sheet(Shoe.standard(decks=1), Rules(), select_bets("tie"), breakeven=False)
>>> render_pdf(sheet, 6)[:5]
b'%PDF-'
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from .parsheet import MissingExtraError, ParSheet
from .parsheet_render import Figure, Heading, Paragraph, Table, document

__all__ = ["render_pdf", "require_fpdf"]

_HEADING_SIZES = {1: 18, 2: 14, 3: 11}
_TEXT_SIZE = 8
#: Width of a figure on the page, in millimetres (two fit side by side on A4 landscape).
FIGURE_WIDTH = 132


def require_fpdf() -> Any:
    """fpdf2's ``FPDF`` class, or a :class:`~exactodds.report.parsheet.MissingExtraError`."""
    try:
        from fpdf import FPDF
    except ImportError:
        raise MissingExtraError(
            "The PDF par sheet is written with fpdf2, which is not installed; install it with "
            'pip install "exactodds[report]".'
        ) from None
    return FPDF


def _latin(text: str) -> str:
    # The PDF core fonts cover Latin-1; anything else (a user's bet description) becomes '?'.
    return text.encode("latin-1", "replace").decode("latin-1")


def _widths(table: Table) -> list[float]:
    """Column weights: about the longest cell, exact fractions capped so they wrap."""
    weights = []
    for column, header in enumerate(table.headers):
        longest = max([len(row[column]) for row in table.rows] + [len(header) + 1, 5])
        weights.append(min(longest, 34.0))
    return weights


def render_pdf(
    sheet: ParSheet, digits: int = 10, figure_png: Callable[[str, str], bytes] | None = None
) -> bytes:
    """The par sheet as PDF bytes; *figure_png* maps ``(bet, kind)`` to a PNG of that figure."""
    pdf_class = require_fpdf()
    from fpdf.enums import WrapMode, XPos, YPos

    pdf = pdf_class(orientation="L", format="A4")
    pdf.set_auto_page_break(auto=True, margin=12)
    pdf.set_title("Par sheet")
    pdf.set_creator("exactodds")
    pdf.add_page()
    width = pdf.epw
    pending_figure_row = False
    top = 0.0  # where the current row of figures starts
    for block in document(sheet, digits):
        if not isinstance(block, Figure) and pending_figure_row:
            pdf.ln(FIGURE_WIDTH * 0.53 + 4)
            pending_figure_row = False
        if isinstance(block, Heading):
            if block.level == 2 and pdf.get_y() > pdf.h / 3:
                pdf.add_page()
            pdf.set_font("Helvetica", "B", _HEADING_SIZES.get(block.level, 10))
            pdf.ln(2)
            pdf.multi_cell(width, 7, _latin(block.text), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
            pdf.ln(1)
        elif isinstance(block, Paragraph):
            pdf.set_font("Helvetica", "", _TEXT_SIZE + 1)
            pdf.multi_cell(width, 4.5, _latin(block.text), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
            pdf.ln(2)
        elif isinstance(block, Table):
            pdf.set_font("Helvetica", "", _TEXT_SIZE)
            weights = _widths(block)
            total = sum(weights)
            table_width = min(width, total * 2.1)
            with pdf.table(
                col_widths=weights,
                width=table_width,
                align="LEFT",
                text_align=tuple("RIGHT" if numeric else "LEFT" for numeric in block.numeric),
                wrapmode=WrapMode.CHAR,
                line_height=3.8,
            ) as table:
                for cells in (block.headers, *block.rows):
                    row = table.row()
                    for cell in cells:
                        row.cell(_latin(cell))
            pdf.ln(3)
        elif figure_png is not None:
            if pending_figure_row:  # the second figure of a row, beside the first
                x = pdf.l_margin + FIGURE_WIDTH + 6
                pdf.image(io.BytesIO(figure_png(block.bet, block.kind)), x=x, y=top, w=FIGURE_WIDTH)
                pdf.ln(FIGURE_WIDTH * 0.53 + 4)
                pending_figure_row = False
                continue
            if pdf.get_y() + FIGURE_WIDTH * 0.53 > pdf.h - pdf.b_margin:
                pdf.add_page()
            top = pdf.get_y()
            pdf.image(
                io.BytesIO(figure_png(block.bet, block.kind)), x=pdf.l_margin, y=top, w=FIGURE_WIDTH
            )
            pdf.set_y(top)
            pending_figure_row = True
    if pending_figure_row:
        pdf.ln(FIGURE_WIDTH * 0.53 + 4)
    return bytes(pdf.output())
