"""Blocks as GitHub-flavoured Markdown: headings, paragraphs, pipe tables, linked figures.

Text from a user (a bet file's names and descriptions) is shown, never run: what a Markdown
reader would take as raw HTML is escaped.

>>> from exactodds.report.document.blocks import Heading, Table
>>> print(blocks_markdown([Heading(2, "Bet: tie"), Table("t", ("Bet", "Edge"),
...     (("tie", "14.36%"),), (False, True))]), end="")
## Bet: tie
<BLANKLINE>
| Bet | Edge |
|---|---:|
| tie | 14.36% |
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from .blocks import Block, Heading, Paragraph, Table

__all__ = ["blocks_markdown", "markdown_text"]

#: What a Markdown reader would take as raw HTML: a ``<`` that opens a tag, a comment or an
#: autolink, and an ``&`` that opens an entity. A bet file's text is shown, never run.
_MARKUP = re.compile(r"<(?=[A-Za-z/!?])|&(?=#?[A-Za-z0-9]+;)")


def markdown_text(text: str) -> str:
    """*text* as Markdown shows it: HTML's openers escaped (``<=`` and a lone ``&`` stay).

    >>> markdown_text('<img src=x onerror="alert(1)"> & P(win <= w) &amp;')
    '&lt;img src=x onerror="alert(1)"> & P(win <= w) &amp;amp;'
    """
    return _MARKUP.sub(lambda found: "&lt;" if found.group() == "<" else "&amp;", text)


def _markdown_cell(text: str) -> str:
    return markdown_text(text).replace("|", "\\|").replace("\n", " ")


def blocks_markdown(
    blocks: Iterable[Block], figure_path: Callable[[str, str], str] | None = None
) -> str:
    """Blocks (of a par sheet, an audit ...) as GitHub-flavoured Markdown.

    *figure_path* maps a figure's ``(bet, kind)`` to an image path to link; without it,
    figures are left out.
    """
    lines: list[str] = []
    for block in blocks:
        if isinstance(block, Heading):
            lines += ["#" * block.level + " " + markdown_text(block.text), ""]
        elif isinstance(block, Paragraph):
            lines += [markdown_text(block.text), ""]
        elif isinstance(block, Table):
            lines.append("| " + " | ".join(map(_markdown_cell, block.headers)) + " |")
            lines.append(
                "|" + "|".join("---:" if numeric else "---" for numeric in block.numeric) + "|"
            )
            for row in block.rows:
                lines.append("| " + " | ".join(map(_markdown_cell, row)) + " |")
            lines.append("")
        elif figure_path is not None:
            caption = markdown_text(block.caption)
            lines += [f"![{caption}]({figure_path(block.bet, block.kind)})", ""]
    return "\n".join(lines).rstrip("\n") + "\n"
