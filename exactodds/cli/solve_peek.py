"""``exactodds solve --game peek``: Peek Baccarat's raise, solved exactly (the skin only).

:func:`solve_peek_command` is called by :mod:`exactodds.cli.solve` when ``--game peek`` is given;
it reads the Peek options, calls :func:`~exactodds.games.peek.solve_peek` and writes the report.
"""

from __future__ import annotations

import click

from exactodds.cli.app import emit
from exactodds.cli.options import build_shoe
from exactodds.games.peek import DEFAULT_FEE, solve_peek, survey_peek
from exactodds.report.registry import render

__all__ = ["PEEK_DEFAULT_DECKS", "solve_peek_command"]

#: The studio deals Peek Baccarat from 8 decks.
PEEK_DEFAULT_DECKS = "8"


def solve_peek_command(
    decks: str | None,
    shoe_spec: str | None,
    remove: tuple[str, ...],
    reveal: str | None,
    fee: str | None,
    output_format: str,
    digits: int,
) -> None:
    """Solve Peek Baccarat for the shoe and ``--reveal``, and write the table or JSON."""
    if reveal is None:
        raise click.UsageError(
            "--game peek needs --reveal: the positions of the cards shown before the raise, "
            "such as --reveal P1,B1 (P1 B1 P2 B2, all, or each for a survey of every reveal)."
        )
    shoe = build_shoe(
        decks if decks is not None or shoe_spec else PEEK_DEFAULT_DECKS, shoe_spec, remove
    )
    rate = fee if fee is not None else DEFAULT_FEE
    if reveal.strip().lower() == "each":
        emit(render(survey_peek(shoe, rate), output_format, digits=digits))
        return
    emit(render(solve_peek(shoe, reveal, rate), output_format, digits=digits))
