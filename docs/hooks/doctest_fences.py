"""A griffe extension for the API reference: docstring examples shown as Python sessions.

The docstrings of exactodds carry their examples as bare doctests (``>>>`` lines and their
output), which the test suite runs. Markdown would read them as paragraphs (and ``['KS', '7H']``
as a link), so each run of doctest lines is fenced as a ``pycon`` block before rendering.
"""

from __future__ import annotations

from typing import Any

import griffe


def fence_doctests(text: str) -> str:
    """Wrap each run of doctest lines (from ``>>>`` to the next blank line) in a pycon fence.

    >>> print(fence_doctests("Intro.\\n\\n>>> 1 + 1\\n2\\n\\nMore."))
    Intro.
    <BLANKLINE>
    ```pycon
    >>> 1 + 1
    2
    ```
    <BLANKLINE>
    More.
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
            obj.docstring.value = fence_doctests(obj.docstring.value)
