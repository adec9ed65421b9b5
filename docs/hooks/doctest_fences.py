"""A griffe extension for the API reference: docstrings written for Python, read as Markdown.

The docstrings of exactodds carry their examples as bare doctests (``>>>`` lines and their
output), which the test suite runs. Markdown would read them as paragraphs (and ``['KS', '7H']``
as a link), so each run of doctest lines is fenced as a ``pycon`` block before rendering. Their
Sphinx roles (``:func:`~exactodds.analyze```) become inline code naming the object.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:attr|class|data|func|meth|mod|exc|obj):`(~?)([\w.]+)`")


def plain_roles(text: str) -> str:
    """Sphinx cross-reference roles as inline code; ``~`` keeps the last name only.

    >>> plain_roles("See :func:`~exactodds.analyze` and :mod:`exactodds.engine`.")
    'See `analyze` and `exactodds.engine`.'
    """
    return ROLE.sub(
        lambda match: f"`{match[2].rpartition('.')[2] if match[1] else match[2]}`", text
    )


def fence_doctests(text: str) -> str:
    """Wrap each run of doctest lines (from ``>>>`` to the next blank line) in a pycon fence.

    >>> fence_doctests("Intro.\\n\\n>>> 1 + 1\\n2\\n\\nMore.").split("\\n")
    ['Intro.', '', '```pycon', '>>> 1 + 1', '2', '```', '', 'More.']
    """
    lines: list[str] = []
    inside = False
    for line in text.split("\n"):
        if not inside and line.lstrip().startswith(">>>"):
            lines.append("```pycon")
            inside = True
        elif inside and not line.strip():
            lines.append("```")
            inside = False
        lines.append(line)
    if inside:
        lines.append("```")
    return "\n".join(lines)


class DoctestFences(griffe.Extension):
    """Fence the doctests of every docstring griffe reads."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fence_doctests(plain_roles(obj.docstring.value))
