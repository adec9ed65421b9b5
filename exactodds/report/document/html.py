"""Blocks as one self-contained HTML page: styles inline, figures inline when given.

Every table carries its identifier as its ``id``, so a reader, or a test, can find it; a
column whose header says "exact" is set in a monospaced font, a numeric one right-aligned.

>>> from exactodds.report.document.blocks import Paragraph
>>> page = blocks_html([Paragraph("Fish & chips")], "A <title>")
>>> "<title>A &lt;title&gt;</title>" in page, '<p class="note">Fish &amp; chips</p>' in page
(True, True)
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable

from .blocks import Block, Heading, Paragraph, Table

__all__ = ["STYLE", "blocks_html"]

STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em auto;
       max-width: 72em; padding: 0 1em; color: #222; line-height: 1.4; }
h1 { border-bottom: 2px solid #333; }
h2 { border-bottom: 1px solid #aaa; margin-top: 2em; }
table { border-collapse: collapse; margin: 0.5em 0 1em; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; vertical-align: top; }
th { background: #f0f0f0; text-align: left; }
td.number { text-align: right; font-variant-numeric: tabular-nums; }
td.exact { font-family: ui-monospace, monospace; font-size: 0.85em; word-break: break-all;
           max-width: 22em; }
figure { margin: 0.5em 1% 1.5em 0; display: inline-block; width: 48%; min-width: 24em;
         vertical-align: top; }
figure svg, figure img { max-width: 100%; height: auto; }
figcaption { font-size: 0.85em; color: #555; }
p.note { font-size: 0.9em; }
"""


def _table(block: Table) -> list[str]:
    escape = html.escape
    parts = [
        f'<table id="{escape(block.identifier)}">',
        "<thead><tr>"
        + "".join(f"<th>{escape(header)}</th>" for header in block.headers)
        + "</tr></thead>",
        "<tbody>",
    ]
    for row in block.rows:
        cells = []
        for header, numeric, cell in zip(block.headers, block.numeric, row, strict=True):
            kind = "exact" if "exact" in header.lower() else "number" if numeric else ""
            attribute = f' class="{kind}"' if kind else ""
            cells.append(f"<td{attribute}>{escape(cell)}</td>")
        parts.append("<tr>" + "".join(cells) + "</tr>")
    parts.append("</tbody></table>")
    return parts


def blocks_html(
    blocks: Iterable[Block], title: str, figure_markup: Callable[[str, str], str] | None = None
) -> str:
    """Blocks (of a par sheet, an audit ...) as one self-contained HTML page titled *title*.

    *figure_markup* maps a figure's ``(bet, kind)`` to its markup (an inline ``<svg>`` or an
    ``<img>`` with a ``data:`` URI); without it, figures are left out.
    """
    escape = html.escape
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f"<title>{escape(title)}</title>",
        f"<style>{STYLE}</style>",
        "</head>",
        "<body>",
        "<main>",
    ]
    for block in blocks:
        if isinstance(block, Heading):
            anchor = f' id="{escape(block.anchor)}"' if block.anchor else ""
            parts.append(f"<h{block.level}{anchor}>{escape(block.text)}</h{block.level}>")
        elif isinstance(block, Paragraph):
            parts.append(f'<p class="note">{escape(block.text)}</p>')
        elif isinstance(block, Table):
            parts += _table(block)
        elif figure_markup is not None:
            parts.append(
                f'<figure id="{escape(block.bet)}-{block.kind}-figure">'
                f"{figure_markup(block.bet, block.kind)}"
                f"<figcaption>{escape(block.caption)}</figcaption></figure>"
            )
    parts += ["</main>", "</body>", "</html>"]
    return "\n".join(parts) + "\n"
