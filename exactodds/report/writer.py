"""The one JSON writer: every command's ``--format json`` and every web API answer.

A command writes an indented document (two spaces, ASCII); the web API answers compact
UTF-8, as Starlette's ``JSONResponse`` writes it.  Both are this function, so the two skins
can never drift apart on how a value is written.  The blocks that several results' JSON
share are built here too, once: the shoe (:func:`shoe_block`) and the cards known in
advance (:func:`known_block`).

>>> print(json_text({"ev": "-1/20", "bets": ["tie"]}))
{
  "ev": "-1/20",
  "bets": [
    "tie"
  ]
}
>>> json_text({"error": "No bet é."}, compact=True)
'{"error":"No bet é."}'
>>> json_text({"x": float("nan")}, compact=True)
Traceback (most recent call last):
...
ValueError: Out of range float values are not JSON compliant
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from exactodds.cards import Card
from exactodds.shoe import Shoe

__all__ = ["json_text", "known_block", "shoe_block"]


def json_text(data: Any, *, compact: bool = False) -> str:
    """*data* as JSON text: indented for a command, compact UTF-8 (no NaN) for the web."""
    if compact:
        return json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    return json.dumps(data, indent=2)


def shoe_block(shoe: Shoe) -> dict[str, Any]:
    """The shoe as every command's JSON writes it: cards, decks, suits known, ranks.

    An infinite shoe has no number of cards (``null``), ``"infinite"`` decks, and its ranks
    are each rank's weight per draw (those of one deck).

    >>> shoe_block(Shoe.standard(decks=1).remove("K"))["ranks"]["K"], shoe_block(Shoe.standard(1))["decks"]
    (3, 1)
    >>> block = shoe_block(Shoe.infinite_decks())
    >>> block["cards"], block["decks"], block["ranks"]["K"]
    (None, 'infinite', 4)
    """
    return {
        "cards": None if shoe.infinite else shoe.cards,
        "decks": "infinite" if shoe.infinite else shoe.decks,
        "suits_known": shoe.suits_known,
        "ranks": shoe.to_dict(),
    }


def known_block(known: Mapping[int, Card]) -> dict[str, str]:
    """The cards known in advance as JSON writes them: position (as text) -> card, in order.

    >>> from exactodds.engine.known import parse_known
    >>> known_block(parse_known(["P2=KS", "1=9"]))
    {'1': '9', '3': 'KS'}
    """
    return {str(position): card.symbol for position, card in sorted(known.items())}
