"""The JSON fields each API body takes, written once, and how messages name them.

Every list of request fields the web reads lives here: the ``odds``, ``eor`` and ``batch``
requests (the commands' options, ``--tie-pays`` spelt ``tie_pays``), a table's settings, and
the tracker's own bodies.  The readers in :mod:`exactodds.web.inputs`, the OpenAPI document and
the page's settings all take their names from this module, so a new option is one edit.

>>> "commission" in ODDS_FIELDS and "known" not in EOR_FIELDS
True
>>> set(DRAGON_TIGER_FIELDS) <= set(TABLE_FIELDS)
True
>>> field_words("Pay 'x' for `pays` dragon7 is not valid.")
"Pay 'x' for 'pay' dragon7 is not valid."
"""

from __future__ import annotations

from exactodds.errors import in_words
from exactodds.interface import (
    BET_OPTIONS,
    KNOWN_OPTION,
    OPTIONS,
    RULES_FILE_OPTION,
    RULES_OPTIONS,
    SHOE_OPTIONS,
    fields,
)

__all__ = [
    "BATCH_FIELDS",
    "CARD_FIELDS",
    "CREATE_FIELDS",
    "DRAGON_TIGER_FIELDS",
    "EOR_DRAGON_TIGER_FIELDS",
    "EOR_FIELDS",
    "IMPORT_FIELDS",
    "ODDS_DRAGON_TIGER_FIELDS",
    "ODDS_FIELDS",
    "ROUND_FIELDS",
    "RULES_FIELDS",
    "SHOE_FIELDS",
    "TABLE_FIELDS",
    "field",
    "field_words",
]

#: What describes the shoe (the shoe options, as :mod:`exactodds.interface` lists them).
SHOE_FIELDS = fields(SHOE_OPTIONS)
#: What describes the rules and the bets priced (the rules and bet options; no file is read).
RULES_FIELDS = fields((RULES_FILE_OPTION,)) + tuple(
    name for name in fields(RULES_OPTIONS, BET_OPTIONS) if name != RULES_FILE_OPTION.field
)
#: ``POST /api/odds``: ``exactodds odds``'s options (``game`` is ``--game``).
ODDS_FIELDS = (*SHOE_FIELDS, *RULES_FIELDS, KNOWN_OPTION.field, "digits", "game")
#: What ``POST /api/odds`` takes with ``"game": "dragon-tiger"`` (as ``odds --game``).
ODDS_DRAGON_TIGER_FIELDS = ("game", *SHOE_FIELDS, "bets", "pay", "digits")
#: ``POST /api/eor``: ``exactodds eor``'s options (``game`` is ``--game``).
EOR_FIELDS = (*SHOE_FIELDS, *RULES_FIELDS, "digits", "cards", "max_tag", "game")
#: What ``POST /api/eor`` takes with ``"game": "dragon-tiger"`` (as ``eor --game``).
EOR_DRAGON_TIGER_FIELDS = ("game", *SHOE_FIELDS, "bets", "pay", "digits", "cards", "max_tag")
#: ``POST /api/batch``: shoes as ``exactodds batch`` reads them, and its options.
BATCH_FIELDS = ("shoes", *RULES_FIELDS, "digits", "full")
#: A tracked table's settings: the game, a full shoe of ``decks``, whether suits are tracked,
#: the rules and the bets.
TABLE_FIELDS = ("game", "decks", "suits", *RULES_FIELDS)
#: What a Dragon Tiger table's settings take (the rest of :data:`TABLE_FIELDS` is baccarat's).
DRAGON_TIGER_FIELDS = ("game", "decks", "suits", "bets", "pay")
#: ``POST /api/shoes``.
CREATE_FIELDS = ("name", "settings")
#: ``POST /api/shoes/{id}/cards``.
CARD_FIELDS = ("cards", "as", "position", "key")
#: ``POST /api/shoes/{id}/rounds``.
ROUND_FIELDS = ("player", "banker", "dragon", "tiger", "misdeal", "key")
#: ``POST /api/shoes/import``.
IMPORT_FIELDS = (
    "format",
    "csv",
    "version",
    "name",
    "settings",
    "started_at",
    "finished_at",
    "events",
    "rounds",
)


def field(name: str) -> str:
    """The JSON field, quoted, of the library parameter or field *name*.

    >>> field("selection"), field("tie_pays"), field("max_tag")
    ("'bets'", "'tie_pays'", "'max_tag'")
    """
    for option in OPTIONS:
        if name in (option.field, option.parameter):
            return f"'{option.field}'"
    return f"'{name}'"


def field_words(message: str) -> str:
    """*message* with each library parameter it names written as its JSON field: the one
    place the web API maps the library's words to its own (the command line has its flags)."""
    return in_words(message, field)
