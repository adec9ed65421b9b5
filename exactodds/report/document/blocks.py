"""The blocks a document is made of: headings, paragraphs (notes), tables and figures.

A report is a list of blocks built once from a result (a par sheet, an audit); each writer
(:mod:`~exactodds.report.document.markdown`, :mod:`~exactodds.report.document.html`,
:mod:`~exactodds.report.document.text`, :mod:`~exactodds.report.document.pdf`,
:mod:`~exactodds.report.document.xlsx`) only serialises them, so every format carries the same
words and numbers. A block holds text already formatted: a writer never computes a figure.

>>> table = Table("t", ("Bet", "Edge"), (("tie", "14.36%"),), (False, True))
>>> table.headers, table.numeric
(('Bet', 'Edge'), (False, True))
>>> Heading(2, "Bet: tie", anchor="tie").anchor
'tie'
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["Block", "Figure", "Heading", "Paragraph", "Table", "package_version", "section"]


@dataclass(frozen=True)
class Heading:
    """A heading of *level* 1-3; ``anchor`` is its id in HTML.

    >>> Heading(1, "Par sheet").level
    1
    """

    level: int
    text: str
    anchor: str = ""


@dataclass(frozen=True)
class Paragraph:
    """A paragraph of plain text: a note beside the tables (``<p class="note">`` in HTML).

    >>> Paragraph("Exact.").text
    'Exact.'
    """

    text: str


@dataclass(frozen=True)
class Table:
    """A table: an id, column headers, rows of preformatted cells, and which columns are numbers.

    >>> Table("t", ("A",), (("1",),), (True,)).rows
    (('1',),)
    """

    identifier: str
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    numeric: tuple[bool, ...]


@dataclass(frozen=True)
class Figure:
    """A place for the figure of *kind* of one bet; the writer is handed the figure itself.

    >>> Figure("tie", "hold", "tie: win as % of handle").kind
    'hold'
    """

    bet: str
    kind: str
    caption: str


Block = Heading | Paragraph | Table | Figure


def section(blocks: Iterable[Block], anchor: str) -> list[Block]:
    """The blocks under the heading of level 1 or 2 anchored *anchor*, up to the next heading
    of level 1 or 2 (a workbook writes such a section as its own sheet).

    >>> blocks = [Heading(2, "Rules", "rules"), Paragraph("Tableau."), Heading(2, "Bet", "tie")]
    >>> section(blocks, "rules")
    [Paragraph(text='Tableau.')]
    """
    found: list[Block] = []
    inside = False
    for block in blocks:
        if isinstance(block, Heading) and block.level <= 2:
            inside = block.anchor == anchor
            continue
        if inside:
            found.append(block)
    return found


def package_version() -> str:
    """The installed exactodds version, as the header of every report shows it.

    >>> isinstance(package_version(), str)
    True
    """
    try:
        return importlib.metadata.version("exactodds")
    except importlib.metadata.PackageNotFoundError:  # pragma: no cover - run from a source tree
        return "source tree"
