"""Blocks as terminal text within :data:`~exactodds.report.table.TABLE_WIDTH` columns.

A heading is underlined (``=`` for levels 1 and 2), a paragraph wrapped between words, a table
too wide split by columns, each part led by its first column; figures are left out.

>>> from exactodds.report.document.blocks import Heading, Paragraph, Table
>>> print(blocks_text([Heading(2, "tie"), Paragraph("Exact."), Table("t", ("Figure",
...     "Value"), (("House edge", "14.36%"),), (False, True))]))
tie
===
Exact.
<BLANKLINE>
Figure        Value
----------  -------
House edge   14.36%
"""

from __future__ import annotations

from collections.abc import Iterable

from ..table import TABLE_WIDTH, fitted_table, wrapped_text
from .blocks import Block, Heading, Paragraph, Table

__all__ = ["blocks_text"]


def blocks_text(blocks: Iterable[Block]) -> str:
    """The blocks as terminal text within :data:`TABLE_WIDTH` columns: paragraphs wrapped,
    a table too wide split by columns, each part led by its first column."""
    lines: list[str] = []
    for block in blocks:
        if isinstance(block, Heading):
            lines += [block.text, "=" * len(block.text) if block.level < 3 else ""]
        elif isinstance(block, Paragraph):
            lines += [_fitted_paragraph(block.text), ""]
        elif isinstance(block, Table):
            align = tuple("right" if numeric else "left" for numeric in block.numeric)
            rows = [list(row) for row in block.rows]
            lines += [fitted_table(rows, list(block.headers), align, TABLE_WIDTH), ""]
    return "\n".join(line for line in lines).rstrip("\n")


def _fitted_paragraph(text: str) -> str:
    """*text* with each line longer than :data:`TABLE_WIDTH` wrapped between words."""
    return "\n".join(
        wrapped_text(line, TABLE_WIDTH) if len(line) > TABLE_WIDTH else line
        for line in text.split("\n")
    )
