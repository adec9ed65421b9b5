"""A par sheet as PDF (fpdf2, pure Python, in the ``report`` extra).

The same blocks as the HTML and Markdown (:func:`~exactodds.report.parsheet.render.document`)
laid out by the document layer's PDF writer (:func:`~exactodds.report.document.pdf.blocks_pdf`:
A4 landscape, DejaVu Sans embedded, "page x of y" in the footer), the figures as PNG images
when given.  fpdf2 is imported when the PDF is written only.

>>> from exactodds import Rules, Shoe
>>> from exactodds.bets.catalogue import select_bets
>>> from exactodds.studies.parsheet import par_sheet
>>> sheet = par_sheet(Shoe.standard(decks=1), Rules(), select_bets("tie"), breakeven=False)
>>> render_pdf(sheet, 6)[:5]
b'%PDF-'
"""

from __future__ import annotations

from collections.abc import Callable

from ...studies.parsheet import ParSheet
from ..document.pdf import blocks_pdf
from .render import document

__all__ = ["render_pdf"]


def render_pdf(
    sheet: ParSheet, digits: int = 10, figure_png: Callable[[str, str], bytes] | None = None
) -> bytes:
    """The par sheet as PDF bytes; *figure_png* maps ``(bet, kind)`` to a PNG of that figure."""
    identity = sheet.identity
    return blocks_pdf(
        document(sheet, digits),
        identity.title if identity else "Par sheet",
        identity.version if identity else None,
        identity.date if identity else None,
        figure_png,
        author=identity.author if identity else "",
        subject=f"{sheet.played.name} par sheet: " + ", ".join(sheet.bets),
    )
