"""Plain text tables: tabulate's ``simple`` format for cells that are already strings.

The reports format every number themselves (exact integers with separators, correctly rounded
decimals), so tabulate must not parse or realign them: this is the one place that says so.
tabulate is imported on first use, so that the JSON and CSV paths never load it.

A command's table output fits :data:`TABLE_WIDTH` columns unless it is asked to be wide: a
table too wide is split by columns (:func:`fitted_table`), prose is wrapped
(:func:`wrapped_lines`, :func:`wrapped_text`).

>>> print(simple_table([["Banker", "0.4586"], ["Tie", "0.0952"]], ["Outcome", "Probability"],
...                    ("left", "right")))
Outcome      Probability
---------  -------------
Banker            0.4586
Tie               0.0952
"""

from __future__ import annotations

import itertools
import textwrap
from collections.abc import Sequence

__all__ = ["TABLE_WIDTH", "fitted_table", "simple_table", "wrapped_lines", "wrapped_text"]

#: The columns a command's table output fits by default (its ``--wide`` lifts it).
TABLE_WIDTH = 100


def simple_table(
    rows: Sequence[Sequence[str]], headers: Sequence[str], alignments: Sequence[str]
) -> str:
    """*rows* under *headers*, each column aligned ``"left"`` or ``"right"``, numbers untouched.

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
    for row in rows:
        if len(row) != len(headers):
            raise ValueError(
                f"every row needs {len(headers)} cells, as many as the headers; "
                f"a row has {len(row)}."
            )
    from tabulate import tabulate

    return tabulate(
        [list(row) for row in rows],
        headers=list(headers),
        tablefmt="simple",
        disable_numparse=True,
        colalign=tuple(alignments),
    )


def fitted_table(
    rows: list[list[str]],
    headers: list[str],
    alignments: tuple[str, ...],
    width: int | None,
    *,
    lead: int = 1,
    breaks: tuple[int, ...] | None = None,
) -> str:
    """*rows* as one table, or, when it is wider than *width*, as tables of as many columns
    as fit, each led by the first *lead* columns (a column too wide alone stands alone).

    *breaks* (column indexes) cuts the other columns into runs that stay in one table
    together, a run too wide for one table aside (by default every column is its own run);
    a break at a leading column or past the last is no cut.

    >>> print(fitted_table([["a", "1", "2"]], ["Bet", "One", "Two"], ("left",) * 3, 10))
    Bet      One
    -----  -----
    a          1
    <BLANKLINE>
    Bet      Two
    -----  -----
    a          2
    >>> table = fitted_table([["a", "1", "2", "3"]], ["Bet", "A", "B", "C"], ("left",) * 4, 15,
    ...                      breaks=(2,))
    >>> print(table.split("\\n\\n")[1])
    Bet    B    C
    -----  ---  ---
    a      2    3
    >>> table == fitted_table([["a", "1", "2", "3"]], ["Bet", "A", "B", "C"], ("left",) * 4, 15,
    ...                       breaks=(0, 2, 9))
    True
    >>> fitted_table([["a"]], ["Bet", "One"], ("left",) * 2, 10)
    Traceback (most recent call last):
    ...
    ValueError: every row needs 2 cells, as many as the headers; a row has 1.
    """
    whole = simple_table(rows, headers, alignments)
    if width is None or len(headers) < lead + 2 or max(map(len, whole.split("\n"))) <= width:
        return whole

    def column_width(index: int) -> int:  # tabulate pads a header by two
        cells = [row[index] for row in rows]
        longest = max((len(part) for cell in cells for part in cell.split("\n")), default=0)
        return max(longest, len(headers[index]) + 2)

    base = sum(column_width(index) + 2 for index in range(lead)) - 2
    needed = {index: column_width(index) + 2 for index in range(lead, len(headers))}
    cuts = needed if breaks is None else [cut for cut in breaks if cut in needed]
    starts = sorted({lead, *cuts, len(headers)})
    runs = [list(range(start, end)) for start, end in itertools.pairwise(starts) if start < end]
    groups: list[list[int]] = []
    used = base
    for run in runs:
        fits = base + sum(needed[index] for index in run) <= width
        for piece in [run] if fits else [[index] for index in run]:
            piece_width = sum(needed[index] for index in piece)
            if groups and used + piece_width <= width:
                groups[-1] += piece
                used += piece_width
            else:
                groups.append(list(piece))
                used = base + piece_width
    return "\n\n".join(
        simple_table(
            [[*row[:lead], *(row[index] for index in group)] for row in rows],
            [*headers[:lead], *(headers[index] for index in group)],
            (*alignments[:lead], *(alignments[index] for index in group)),
        )
        for group in groups
    )


def wrapped_lines(lines: list[str], width: int) -> list[str]:
    """Prose lines longer than *width* wrapped, continued two spaces further in (tables fit
    already: :func:`fitted_table`).

    >>> wrapped_lines(["Rules: one; two; three", "short"], 15)
    ['Rules: one;', '  two; three', 'short']
    >>> wrapped_lines(["x"], 0)
    Traceback (most recent call last):
    ...
    ValueError: width must be at least 1, not 0.
    """
    if width < 1:
        raise ValueError(f"width must be at least 1, not {width}.")
    fitted: list[str] = []
    for block in lines:
        for line in block.split("\n"):
            if len(line) <= width:
                fitted.append(line)
                continue
            indent = " " * (len(line) - len(line.lstrip(" ")))
            fitted += textwrap.wrap(
                line.strip(),
                width,
                initial_indent=indent,
                subsequent_indent=indent + "  ",
                break_on_hyphens=False,
            )
    return fitted


def wrapped_text(text: str, width: int) -> str:
    """*text* on lines of at most *width* characters, broken between words.

    >>> print(wrapped_text("lose -1, win 40", 9))
    lose -1,
    win 40
    >>> wrapped_text("", 9)
    ''
    """
    return "\n".join(textwrap.wrap(text, width, break_on_hyphens=False)) or text
