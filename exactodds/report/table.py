"""Plain text tables: tabulate's ``simple`` format for cells that are already strings.

The reports format every number themselves (exact integers with separators, correctly rounded
decimals), so tabulate must not parse or realign them: this is the one place that says so.
tabulate is imported on first use, so that the JSON and CSV paths never load it.

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
