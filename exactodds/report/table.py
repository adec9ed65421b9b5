"""Plain text tables, laid out as tabulate's ``simple`` format, without importing tabulate.

``exactodds odds`` prints two small tables at every run.  tabulate lays them
out well but, at import, reads its own package metadata (importlib.metadata,
email, zipfile, csv, ...): about as long as the rest of the command's imports
together.  :func:`simple_table` draws the same tables, character for
character (a test holds it to tabulate on random tables), for the case the
reports use: cells that are already strings, single-line, aligned left or
right.

>>> print(simple_table([["Banker", "0.4586"], ["Tie", "0.0952"]], ["Outcome", "Probability"],
...                    ("left", "right")))
Outcome      Probability
---------  -------------
Banker            0.4586
Tie               0.0952
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["simple_table"]

# tabulate leaves two spaces more than a header needs, and two between columns.
_HEADER_PADDING = 2
_SEPARATOR = "  "


def simple_table(
    rows: Sequence[Sequence[str]], headers: Sequence[str], alignments: Sequence[str]
) -> str:
    """*rows* under *headers*, each column aligned ``"left"`` or ``"right"``.

    Cells are stripped of surrounding spaces and padded to the column's width:
    the longest cell, or the header plus two.  Lines carry no trailing spaces.

    >>> simple_table([["a"]], ["x", "y"], ("left", "left"))
    Traceback (most recent call last):
    ...
    ValueError: every row needs 2 cells, as many as the headers; a row has 1.
    >>> simple_table([["a"]], ["x"], ("middle",))
    Traceback (most recent call last):
    ...
    ValueError: alignment 'middle' is not left or right.
    """
    for alignment in alignments:
        if alignment not in ("left", "right"):
            raise ValueError(f"alignment {alignment!r} is not left or right.")
    if len(alignments) != len(headers):
        raise ValueError(f"{len(headers)} headers need {len(headers)} alignments.")
    cells = [[cell.strip() for cell in row] for row in rows]
    for row in cells:
        if len(row) != len(headers):
            raise ValueError(
                f"every row needs {len(headers)} cells, as many as the headers; "
                f"a row has {len(row)}."
            )
    widths = [
        max([len(header) + _HEADER_PADDING, *(len(row[column]) for row in cells)])
        for column, header in enumerate(headers)
    ]

    def line(texts: Sequence[str]) -> str:
        padded = (
            text.rjust(width) if alignment == "right" else text.ljust(width)
            for text, width, alignment in zip(texts, widths, alignments, strict=True)
        )
        return _SEPARATOR.join(padded).rstrip()

    return "\n".join(
        [line(headers), _SEPARATOR.join("-" * width for width in widths), *map(line, cells)]
    )
