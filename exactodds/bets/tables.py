"""Named tables: a game as a casino or studio deals it, in one TOML file.

A table file says what a table deals and pays, in the words of the command-line options it
stands for, so that ``--table NAME`` is the same as typing them (and an option typed
explicitly wins over the table's setting):

.. code-block:: toml

    name = "classic"
    description = "8 decks, Banker 1:1 less 5%, Tie 8:1, pairs 11:1."
    game = "baccarat"             # or "dragon-tiger" (keys: decks, bets, pays)
    decks = 8                     # --decks
    rules = "standard"            # --rules: a shipped rules file, by name
    variant = "standard"          # --variant: standard, ez or super6
    commission = "5%"             # --commission
    tie_pays = 8                  # --tie-pays
    ties = "push"                 # "lose" is --tie-loses
    fee = "20%"                   # --fee: on every bet, win or lose
    bets = ["banker", "player", "tie", "player_pair", "banker_pair"]   # --bets
    bet_files = ["dai_bacc"]      # --bet-file: bet files shipped with exactodds, by name
    multipliers = "golden_wealth" # a random-multiplier overlay, by name

    [pays]                        # --pay NAME=PAY, one line each
    player_pair = 11
    lucky6 = { three_card_win = 20 }

Every key but ``name`` is optional; an unknown key, or a value that its option would refuse,
is refused with one sentence that names the file.  The files are read by the same bounded,
checked reader as rules and bet files (:mod:`exactodds.inputs`).

Shipped tables (``exactodds/data/tables/``; :func:`shipped_tables` lists them and
:func:`resolve_table` takes their names): ``classic``, ``no_commission_super6_12``,
``no_commission_super6_15``, ``ez``, ``dai_bacc``, ``dragon_tiger_studio``, and the
random-multiplier tables ``golden_wealth`` and ``prosperity_tree`` (each naming the shipped
overlay of its name, whose law is assumed), each with its source in the file's comments.

>>> table = resolve_table("classic")
>>> table.decks, table.bets, table.pays
(8, ('banker', 'player', 'tie', 'player_pair', 'banker_pair'), ('player_pair=11', 'banker_pair=11'))
>>> parse_table_file('name = "x"\\ndecks = 0\\n', "my.toml")
Traceback (most recent call last):
...
exactodds.bets.tables.TableError: Number of decks 0 for decks in my.toml is not valid; use a whole number from 1 to 64.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from exactodds.bets.paytables import read_pays
from exactodds.errors import ExactOddsError, quoted
from exactodds.inputs import (
    MAX_DECKS,
    load_toml,
    read_file,
    resolve_document,
    whole_number,
)
from exactodds.numbers import parse_commission, parse_fee, parse_pay
from exactodds.rulefiles import shipped_rules_files
from exactodds.rules import Variant

__all__ = [
    "GAMES",
    "Table",
    "TableError",
    "parse_table_file",
    "read_table_file",
    "resolve_table",
    "shipped_bet_files",
    "shipped_tables",
    "table_from_data",
]

#: The games a table may deal, as ``--game`` names them.
GAMES = ("baccarat", "dragon-tiger")

_BACCARAT_KEYS = (
    "name",
    "description",
    "game",
    "decks",
    "rules",
    "variant",
    "commission",
    "tie_pays",
    "ties",
    "fee",
    "bets",
    "bet_files",
    "pays",
    "multipliers",
)
#: What Dragon Tiger takes of the options (its one tableau has no rules, commission or fee).
_DRAGON_TIGER_KEYS = ("name", "description", "game", "decks", "bets", "pays")
_TIES = {"push": True, "lose": False}
_DATA = Path(__file__).parent.parent / "data"


class TableError(ExactOddsError):
    """A table file cannot be read, or says something its options would refuse.

    >>> parse_table_file('name = "x"\\ncolour = "red"\\n', "my.toml")
    Traceback (most recent call last):
    ...
    exactodds.bets.tables.TableError: Unknown key 'colour' in my.toml; use name, description, game, decks, rules, variant, commission, tie_pays, ties, fee, bets, bet_files, pays and multipliers.
    """


@dataclass(frozen=True)
class Table:
    """What a table file sets, each field as its option takes it (``None``: not set).

    ``pays`` are ``NAME=PAY`` texts as ``--pay`` takes them; ``bet_files`` are the paths of
    the shipped bet files it names; ``multipliers`` names a random-multiplier overlay;
    ``source`` names the file in messages.

    >>> Table("mine", "my.toml").game
    'baccarat'
    >>> resolve_table("dragon_tiger_studio").pays
    ('tie=11',)
    """

    name: str
    source: str
    description: str = ""
    game: str = "baccarat"
    decks: int | None = None
    rules: str | None = None
    variant: str | None = None
    commission: str | None = None
    tie_pays: str | None = None
    ties_push: bool | None = None
    fee: str | None = None
    bets: tuple[str, ...] = ()
    pays: tuple[str, ...] = ()
    bet_files: tuple[Path, ...] = ()
    multipliers: str | None = None


def _text(data: Mapping[str, Any], key: str, source: str, example: str) -> str | None:
    """An optional one-line text value, else one sentence with an *example*."""
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip() or "\n" in value or len(value) > 200:
        raise TableError(
            f"{key} in {source} is {value!r:.60}; use text in quotes, such as {example}."
        )
    return value.strip()


def _choice(data: Mapping[str, Any], key: str, source: str, valid: tuple[str, ...]) -> str | None:
    value = data.get(key)
    if value is not None and value not in valid:
        names = ", ".join(valid[:-1]) + " or " + valid[-1]
        raise TableError(f"{key} in {source} is {value!r:.60}; use {names}.")
    return value


def _names(data: Mapping[str, Any], key: str, source: str, example: str) -> tuple[str, ...]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(
        isinstance(name, str) and name.strip() for name in value
    ):
        raise TableError(
            f"{key} in {source} is {value!r:.60}; use a list of names, such as {example}."
        )
    return tuple(dict.fromkeys(name.strip() for name in value))


def _rate(data: Mapping[str, Any], key: str, source: str) -> str | None:
    """A commission or fee, checked as its option checks it, kept as the file writes it."""
    text = _text(data, key, source, f'{key} = "5%"')
    if text is not None:
        try:
            (parse_fee if key == "fee" else parse_commission)(text, f"{key} in {source}")
        except ExactOddsError as error:
            raise TableError(str(error)) from None
    return text


def _tie_pays(data: Mapping[str, Any], source: str) -> str | None:
    value = data.get("tie_pays")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise TableError(f'tie_pays in {source} is {value!r:.60}; use a pay such as 8 or "8:1".')
    try:
        parse_pay(value, f"tie_pays in {source}")
    except ExactOddsError as error:
        raise TableError(str(error)) from None
    return str(value)


def _pays(data: Mapping[str, Any], source: str) -> tuple[str, ...]:
    value = data.get("pays", {})
    if not isinstance(value, dict):
        raise TableError(
            f"pays in {source} is {value!r:.60}; use a [pays] table, such as player_pair = 11."
        )
    try:
        pays = read_pays(value, f"pays in {source}")
    except ExactOddsError as error:
        raise TableError(str(error)) from None
    return tuple(f"{name}={pay}" for name, pay in pays.items())


def _bet_files(data: Mapping[str, Any], source: str) -> tuple[Path, ...]:
    shipped = shipped_bet_files()
    paths = []
    for name in _names(data, "bet_files", source, '["dai_bacc"]'):
        if name not in shipped:
            raise TableError(
                f"Bet file {quoted(name)} in {source} is not a shipped bet file; use one of "
                f"{', '.join(shipped)}."
            )
        paths.append(shipped[name])
    return tuple(paths)


def parse_table_file(text: str, source: str = "the table file") -> Table:
    """Read and check a table file's TOML *text*; *source* names it in errors.

    >>> parse_table_file('name = "dt"\\ngame = "dragon-tiger"\\nbets = ["tie"]\\n').bets
    ('tie',)
    >>> parse_table_file('name = "dt"\\ngame = "dragon-tiger"\\nvariant = "ez"\\n', "dt.toml")
    Traceback (most recent call last):
    ...
    exactodds.bets.tables.TableError: variant in dt.toml is a baccarat setting; a dragon-tiger table takes name, description, game, decks, bets and pays.
    """
    data = load_toml(text, source, TableError, 'use lines such as name = "classic"')
    return table_from_data(data, source)


def table_from_data(data: Mapping[str, Any], source: str) -> Table:
    """Check a table's settings already read (TOML, or a review log's header) into a Table.

    >>> table_from_data({"name": "mine", "decks": 6, "pays": {"tie": 9}}, "my header").pays
    ('tie=9',)
    >>> table_from_data({"name": "mine", "ties": "win"}, "my header")
    Traceback (most recent call last):
    ...
    exactodds.bets.tables.TableError: ties in my header is 'win'; use push or lose.
    """
    game = _choice(data, "game", source, GAMES) or "baccarat"
    keys = _DRAGON_TIGER_KEYS if game == "dragon-tiger" else _BACCARAT_KEYS
    for key in data:
        listed = ", ".join(keys[:-1]) + " and " + keys[-1]
        if key in _BACCARAT_KEYS and key not in keys:
            raise TableError(
                f"{key} in {source} is a baccarat setting; a {game} table takes {listed}."
            )
        if key not in keys:
            raise TableError(f"Unknown key {key!r} in {source}; use {listed}.")
    name = _text(data, "name", source, 'name = "my table"')
    if name is None:
        raise TableError(f'{source} has no name; add name = "my table".')
    rules = _choice(data, "rules", source, tuple(shipped_rules_files()))
    ties = _choice(data, "ties", source, tuple(_TIES))
    decks = data.get("decks")
    return Table(
        name=name,
        source=source,
        description=_text(data, "description", source, 'description = "..."') or "",
        game=game,
        decks=None
        if decks is None
        else whole_number(
            decks,
            "decks",
            TableError,
            minimum=1,
            maximum=MAX_DECKS,
            what="Number of decks",
            within=f"decks in {source}",
        ),
        rules=rules,
        variant=_choice(data, "variant", source, tuple(member.value for member in Variant)),
        commission=_rate(data, "commission", source),
        tie_pays=_tie_pays(data, source),
        ties_push=None if ties is None else _TIES[ties],
        fee=_rate(data, "fee", source),
        bets=_names(data, "bets", source, '["banker", "player", "tie"]'),
        pays=_pays(data, source),
        bet_files=_bet_files(data, source),
        multipliers=_text(data, "multipliers", source, 'multipliers = "golden_wealth"'),
    )


def read_table_file(path: str | Path) -> Table:
    """Read a table file from *path*.

    >>> read_table_file("no/such/table.toml")
    Traceback (most recent call last):
    ...
    exactodds.bets.tables.TableError: Cannot read table file 'no/such/table.toml': it does not exist.
    """
    document = read_file(str(path), "table file", TableError)
    return parse_table_file(document.text, document.source)


def _shipped(folder: Path) -> dict[str, Path]:
    """The TOML files directly in *folder*, by name (a plain directory in every install)."""
    return {
        entry.stem: entry
        for entry in sorted(folder.iterdir(), key=lambda entry: entry.name)
        if entry.name.endswith(".toml") and entry.is_file()
    }


def shipped_tables() -> dict[str, Path]:
    """The tables shipped with exactodds, by name.

    >>> list(shipped_tables())  # doctest: +NORMALIZE_WHITESPACE
    ['classic', 'dai_bacc', 'dragon_tiger_studio', 'ez', 'golden_wealth',
     'no_commission_super6_12', 'no_commission_super6_15', 'prosperity_tree']
    """
    return _shipped(_DATA / "tables")


def shipped_bet_files() -> dict[str, Path]:
    """The bet files shipped with exactodds for its tables, by name.

    >>> list(shipped_bet_files())
    ['dai_bacc']
    """
    return _shipped(_DATA / "bets")


def resolve_table(spec: str | Path) -> Table:
    """A table by path, or by the name of a shipped one (a file that exists wins).

    >>> resolve_table("ez").variant
    'ez'
    >>> resolve_table("no_such_table")
    Traceback (most recent call last):
    ...
    exactodds.bets.tables.TableError: Table 'no_such_table' is neither a file that exists nor a shipped table; use a TOML file or one of classic, dai_bacc, dragon_tiger_studio, ez, golden_wealth, no_commission_super6_12, no_commission_super6_15, prosperity_tree.
    """
    if not isinstance(spec, (str, Path)):
        raise TableError(f"Table {spec!r:.60} is not a file name or a shipped table name.")
    return resolve_document(
        spec,
        "table file",
        TableError,
        parse_table_file,
        shipped_tables(),
        read_table_file,
        ("Table", "shipped table"),
    )
