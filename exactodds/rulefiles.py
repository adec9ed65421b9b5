"""Drawing rules from a TOML file: a custom tableau, checked cell by cell.

A rules file names every drawing decision of the game, in the same words as
:class:`~exactodds.rules.Tableau`, one line per Banker total so that a person
can read the tableau as it is printed on a layout:

.. code-block:: toml

    name = "standard"
    description = "Punto Banco, as dealt in every casino."
    ties = "push"                      # optional: "push" or "lose"

    natural_totals = [8, 9]            # two-card totals that end the round
    player_draws = [0, 1, 2, 3, 4, 5]  # two-card totals on which the Player draws
    banker_draws_when_player_stood = [0, 1, 2, 3, 4, 5]

    [banker_draws]
    # Banker total = [does the Banker draw when the Player's third card is 0, 1, ..., 9]
    #    0      1      2      3      4      5      6      7      8      9
    0 = [true,  true,  true,  true,  true,  true,  true,  true,  true,  true ]
    ...
    3 = [true,  true,  true,  true,  true,  true,  true,  true,  false, true ]
    ...
    9 = [false, false, false, false, false, false, false, false, false, false]

``player_draws`` and ``banker_draws_when_player_stood`` are a list of totals
(``[0, 1, 2, 3, 4, 5]``; ``[]`` for never), ten booleans for totals 0-9, or a
table ``{0 = true, ..., 9 = false}`` naming all ten.  ``banker_draws`` needs
all ten rows (Banker totals 0-9), each of ten booleans (the Player's third
card, valued 0-9).  Every key is required except ``description`` and
``ties``; an unknown key, a missing cell or a cell that is not a boolean is
refused with one sentence that names it.

A cell may instead say ``"choice"`` (in the ten-entry and table forms): the hand's
owner may draw or stand there, as the Player on 5 under European rules.  Such a
file describes a game, not a fixed tableau: :attr:`RulesFile.tableau` refuses it
with one sentence, and :mod:`exactodds.games.option` finds the best play.

>>> choice = parse_rules_file(format_rules_file(Tableau.standard()).replace(
...     "player_draws = [0, 1, 2, 3, 4, 5]",
...     'player_draws = [true, true, true, true, true, "choice", false, false, false, false]'))
>>> choice.choices.describe()
"the Player's 5"

Shipped files (``exactodds/data/rules/``; :func:`shipped_rules_files` lists
them, and :func:`resolve_rules_file` accepts their names):

* ``standard``: the Punto Banco tableau; it equals :meth:`Tableau.standard`.
* ``banker_as_player``: the Banker draws like the Player (0-5) whatever the
  Player's third card, the symmetric game of Allan N. Wilson's *The Casino
  Gambler's Guide*, in which "neither side would have an advantage".
* ``chemin_de_fer_stand``: the chemin de fer *règle* with each of its options
  (Player on 5; Banker 3 against a 9, 5 against a 4) resolved to stand.

>>> text = format_rules_file(Tableau.standard())
>>> loaded = parse_rules_file(text)
>>> loaded.tableau == Tableau.standard(), loaded.ties_push
(True, None)
>>> parse_rules_file('fee = "20%"\\n' + text).fee
Fraction(1, 5)
>>> parse_rules_file('fee = "120%"\\n' + text, "my.toml")
Traceback (most recent call last):
...
exactodds.rulefiles.RulesFileError: Fee '120%' for fee in my.toml is not valid; use a value from 0 up to but not including 1 (100%), such as 20%, 0.2 or 1/5.
>>> parse_rules_file('rebate = ["rolling=1.2%", "loss=10%"]\\n' + text).rebate.describe()
'a rolling rebate of 1.2% of each stake that wins or loses (pushes not counted); a loss rebate of 10% of the net loss'
>>> parse_rules_file('rebate = "loss=100%"\\n' + text, "my.toml")
Traceback (most recent call last):
...
exactodds.rulefiles.RulesFileError: Rebate '100%' for rebate in my.toml is not valid; use a value from 0 up to but not including 1 (100%), such as 10%, 0.1 or 1/10.
>>> parse_rules_file(text.replace("player_draws = [0, 1,", "player_draws = [0, 10,"), "my.toml")
Traceback (most recent call last):
...
exactodds.rulefiles.RulesFileError: Total 10 for player_draws in my.toml is not valid; use a whole number from 0 to 9.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from exactodds.errors import RulesError
from exactodds.inputs import load_toml, read_file, resolve_document, whole_number
from exactodds.numbers import parse_fee
from exactodds.rules import Rebate, Tableau

__all__ = [
    "CHOICE",
    "RulesFile",
    "RulesFileError",
    "TableauChoices",
    "format_rules_file",
    "load_rules_file",
    "parse_rules_file",
    "read_rules_file",
    "resolve_rules_file",
    "shipped_rules_files",
]

_KEYS = (
    "name",
    "description",
    "ties",
    "fee",
    "rebate",
    "natural_totals",
    "player_draws",
    "banker_draws_when_player_stood",
    "banker_draws",
)
_REQUIRED_HINTS = {
    "name": 'name = "my rules"',
    "natural_totals": "natural_totals = [8, 9]",
    "player_draws": "player_draws = [0, 1, 2, 3, 4, 5]",
    "banker_draws_when_player_stood": "banker_draws_when_player_stood = [0, 1, 2, 3, 4, 5]",
    "banker_draws": "a [banker_draws] table with one line per Banker total, 0 = [true, ...]",
}
_TIES = {"push": True, "lose": False}
#: What a cell says when its hand's owner may draw or stand there.
CHOICE = "choice"
_CELL_HINT = f'use true, false or "{CHOICE}"'

_TOTALS = tuple(str(total) for total in range(10))


class RulesFileError(RulesError):
    """A rules file cannot be read, or does not describe a complete tableau.

    >>> parse_rules_file('name = "x"\\ncolour = "red"\\n', "my.toml")
    Traceback (most recent call last):
    ...
    exactodds.rulefiles.RulesFileError: Unknown key 'colour' in my.toml; use name, description, ties, fee, rebate, natural_totals, player_draws, banker_draws_when_player_stood and banker_draws.
    """


@dataclass(frozen=True)
class TableauChoices:
    """The cells of a tableau where the hand's owner chooses to draw or stand.

    ``player``: the Player's two-card totals; ``banker_when_player_stood``: the
    Banker's totals when the Player stood; ``banker``: (Banker total, the
    Player's third card) pairs.

    >>> TableauChoices(frozenset({5}), frozenset(), frozenset({(3, 9)})).describe()
    "the Player's 5 and the Banker's 3 against a third card of 9"
    >>> bool(TableauChoices())
    False
    """

    player: frozenset[int] = frozenset()
    banker_when_player_stood: frozenset[int] = frozenset()
    banker: frozenset[tuple[int, int]] = frozenset()

    def __bool__(self) -> bool:
        return bool(self.player or self.banker_when_player_stood or self.banker)

    def describe(self) -> str:
        """The choice cells in words."""
        parts = [f"the Player's {total}" for total in sorted(self.player)]
        parts += [
            f"the Banker's {total} when the Player stood"
            for total in sorted(self.banker_when_player_stood)
        ]
        parts += [
            f"the Banker's {total} against a third card of {third}"
            for total, third in sorted(self.banker)
        ]
        if len(parts) <= 1:
            return "".join(parts)
        return ", ".join(parts[:-1]) + " and " + parts[-1]

    def resolve(self, tableau: Tableau, draw: bool) -> Tableau:
        """*tableau* with every choice cell set to draw (True) or stand (False).

        >>> TableauChoices(frozenset({5})).resolve(Tableau(), False).player_draws[5]
        False
        """
        player = tuple(
            draw if total in self.player else flag
            for total, flag in enumerate(tableau.player_draws)
        )
        stood = tuple(
            draw if total in self.banker_when_player_stood else flag
            for total, flag in enumerate(tableau.banker_draws_when_player_stood)
        )
        rows = tuple(
            tuple(draw if (total, third) in self.banker else flag for third, flag in enumerate(row))
            for total, row in enumerate(tableau.banker_draws)
        )
        return Tableau(tableau.natural_totals, player, stood, rows, tableau.name)


@dataclass(frozen=True)
class RulesFile:
    """What a rules file says: the tableau, how ties settle if it says so, and its choices.

    ``ties_push`` is ``True`` (Player and Banker bets push on a tie),
    ``False`` (they lose) or ``None`` when the file leaves it to the caller.
    ``drawing`` is the tableau with every choice cell set to stand; ``choices``
    names those cells.  :attr:`tableau` is the fixed tableau, refused when the
    file leaves a choice open (a game to solve, not a tableau to price).
    ``fee`` is the table's fee on every bet (``fee = "20%"``), or ``None`` when the file sets
    none; ``rebate`` its rebate programme (``rebate = ["rolling=1.2%", "loss=10%"]``, read as
    ``--rebate`` is), or ``None``.

    >>> shipped = read_rules_file(shipped_rules_files()["standard"])
    >>> shipped.tableau.name, shipped.ties_push
    ('standard', True)
    >>> RulesFile(Tableau(), None, "", "x").tableau.name
    'standard'
    >>> RulesFile(Tableau(), None, "", "my.toml", TableauChoices(frozenset({5}))).tableau
    Traceback (most recent call last):
    ...
    exactodds.rulefiles.RulesFileError: my.toml leaves the Player's 5 as a choice, so it is a game to solve, not a fixed tableau to price; set each choice cell to true or false, or find the best play with exactodds solve --rules.
    """

    drawing: Tableau
    ties_push: bool | None
    description: str
    source: str
    choices: TableauChoices = TableauChoices()
    fee: Fraction | None = None
    rebate: Rebate | None = None

    @property
    def tableau(self) -> Tableau:
        """The fixed drawing tableau (refused when a choice cell is open)."""
        if self.choices:
            raise RulesFileError(
                f"{self.source} leaves {self.choices.describe()} as a choice, so it is a game to "
                "solve, not a fixed tableau to price; set each choice cell to true or false, or "
                "find the best play with exactodds solve --rules."
            )
        return self.drawing


def _kind(value: object) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    return type(value).__name__


def _total_list(values: list[Any], key: str, source: str) -> tuple[bool, ...]:
    """A list of totals 0-9 (no repeats) as ten flags."""
    flags = [False] * 10
    for value in values:
        whole_number(
            value, key, RulesFileError, maximum=9, what="Total", within=f"{key} in {source}"
        )
        if flags[value]:
            raise RulesFileError(
                f"{key} in {source} lists total {value} twice; name each total once."
            )
        flags[value] = True
    return tuple(flags)


def _controls(text: str) -> bool:
    """Whether *text* holds a control character (a name is printed in reports, on terminals)."""
    return any(ord(character) < 0x20 or 0x7F <= ord(character) < 0xA0 for character in text)


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value)
    return str(value)


def _flags(value: object, key: str, source: str) -> tuple[tuple[bool, ...], frozenset[int]]:
    """Ten draw flags (choices as stand) and the choice totals, from a list of totals, ten
    booleans or choices, or a table 0-9."""
    if isinstance(value, dict):
        for name in value:
            if name not in _TOTALS:
                raise RulesFileError(
                    f"Unknown total {name!r} in {key} in {source}; use totals 0-9 as keys."
                )
        missing = [name for name in _TOTALS if name not in value]
        if missing:
            raise RulesFileError(
                f"{key} in {source} does not say what happens on total "
                f"{', '.join(missing)}; give all ten totals 0-9 as true or false."
            )
        flags = []
        choices = set()
        for total, name in enumerate(_TOTALS):
            cell = value[name]
            if cell == CHOICE:
                choices.add(total)
                cell = False
            if not isinstance(cell, bool):
                raise RulesFileError(f"{key}.{name} in {source} is {_toml(cell)}; {_CELL_HINT}.")
            flags.append(cell)
        return tuple(flags), frozenset(choices)
    if not isinstance(value, list):
        raise RulesFileError(
            f"{key} in {source} is {_kind(value)} ({_toml(value)}); use a list of totals such "
            "as [0, 1, 2, 3, 4, 5], ten booleans, or a table {0 = true, ..., 9 = false}."
        )
    if value and all(isinstance(cell, bool) or cell == CHOICE for cell in value):
        if len(value) != 10:
            raise RulesFileError(
                f"{key} in {source} has {len(value)} booleans; give ten, one per total 0-9, "
                "or a list of totals such as [0, 1, 2, 3, 4, 5]."
            )
        return (
            tuple(cell is True for cell in value),
            frozenset(total for total, cell in enumerate(value) if cell == CHOICE),
        )
    if any(isinstance(cell, bool) or cell == CHOICE for cell in value):
        bad = next(cell for cell in value if not (isinstance(cell, bool) or cell == CHOICE))
        raise RulesFileError(
            f"{key} in {source} mixes booleans with {_kind(bad)} ({_toml(bad)}); use ten "
            "booleans or a list of totals, not both."
        )
    return _total_list(value, key, source), frozenset()


def _natural_totals(value: object, source: str) -> frozenset[int]:
    if not isinstance(value, list):
        raise RulesFileError(
            f"natural_totals in {source} is {_kind(value)} ({_toml(value)}); use a list of "
            "totals such as [8, 9], or [] for no naturals."
        )
    flags = _total_list(value, "natural_totals", source)
    return frozenset(total for total in range(10) if flags[total])


def _banker_rows(
    value: object, source: str
) -> tuple[tuple[tuple[bool, ...], ...], frozenset[tuple[int, int]]]:
    if not isinstance(value, dict):
        raise RulesFileError(
            f"banker_draws in {source} is {_kind(value)}; use a [banker_draws] table with one "
            "line per Banker total 0-9, such as 3 = [true, ..., false, true] (ten booleans)."
        )
    for name in value:
        if name not in _TOTALS:
            raise RulesFileError(
                f"Unknown Banker total {name!r} in banker_draws in {source}; use rows 0-9."
            )
    missing = [name for name in _TOTALS if name not in value]
    if missing:
        rows = "rows" if len(missing) > 1 else "row"
        raise RulesFileError(
            f"banker_draws in {source} has no {rows} for Banker total {', '.join(missing)}; "
            "give all ten rows 0-9, each of ten booleans."
        )
    result = []
    choices = set()
    for total, name in enumerate(_TOTALS):
        row = value[name]
        where = f"banker_draws row {name} in {source}"
        if not isinstance(row, list):
            raise RulesFileError(
                f"{where} is {_kind(row)} ({_toml(row)}); use ten booleans, one per "
                "Player's third card 0-9."
            )
        if len(row) != 10:
            raise RulesFileError(
                f"{where} has {len(row)} entries; give ten booleans, one per Player's third "
                "card 0-9."
            )
        flags = []
        for card, cell in enumerate(row):
            if cell == CHOICE:
                choices.add((total, card))
                cell = False
            if not isinstance(cell, bool):
                raise RulesFileError(
                    f"banker_draws row {name}, Player's third card {card}, in {source} is "
                    f"{_toml(cell)}; {_CELL_HINT}."
                )
            flags.append(cell)
        result.append(tuple(flags))
    return tuple(result), frozenset(choices)


def parse_rules_file(text: str, source: str = "the rules file") -> RulesFile:
    """Read and check a rules file's TOML *text*; *source* names it in errors.

    >>> rules = parse_rules_file(shipped_rules_files()["banker_as_player"].read_text())
    >>> rules.tableau.name, rules.tableau.banker_draws[6][6]
    ('banker_as_player', False)
    >>> parse_rules_file('name = "x"\\n', "my.toml")
    Traceback (most recent call last):
    ...
    exactodds.rulefiles.RulesFileError: my.toml has no natural_totals; add natural_totals = [8, 9].
    """
    data = load_toml(text, source, RulesFileError, "use lines such as natural_totals = [8, 9]")
    for key in data:
        if key not in _KEYS:
            valid = ", ".join(_KEYS[:-1]) + " and " + _KEYS[-1]
            raise RulesFileError(f"Unknown key {key!r} in {source}; use {valid}.")
    for key, hint in _REQUIRED_HINTS.items():
        if key not in data:
            raise RulesFileError(f"{source} has no {key}; add {hint}.")
    name = data["name"]
    if not isinstance(name, str) or not name.strip() or len(name) > 100 or _controls(name):
        raise RulesFileError(
            f"name in {source} is {_kind(name)} ({_toml(name)}); use a short non-empty name "
            'on one line, such as name = "my rules".'
        )
    description = data.get("description", "")
    if not isinstance(description, str):
        raise RulesFileError(
            f"description in {source} is {_kind(description)}; use text in quotes."
        )
    ties = data.get("ties")
    if ties is not None and ties not in _TIES:
        raise RulesFileError(
            f'ties in {source} is {_toml(ties)}; use "push" (Player and Banker bets push on '
            'a tie) or "lose" (they lose).'
        )
    fee = data.get("fee")
    if fee is not None and not isinstance(fee, str):
        raise RulesFileError(
            f'fee in {source} is {_kind(fee)}; use a rate in quotes, such as fee = "20%".'
        )
    rebate = _rebate(data.get("rebate"), source)
    natural_totals = _natural_totals(data["natural_totals"], source)
    player_draws, player_choices = _flags(data["player_draws"], "player_draws", source)
    stood, stood_choices = _flags(
        data["banker_draws_when_player_stood"], "banker_draws_when_player_stood", source
    )
    banker_draws, banker_choices = _banker_rows(data["banker_draws"], source)
    tableau = Tableau(natural_totals, player_draws, stood, banker_draws, name.strip())
    choices = TableauChoices(player_choices, stood_choices, banker_choices)
    return RulesFile(
        tableau,
        None if ties is None else _TIES[ties],
        description,
        source,
        choices,
        None if fee is None else _fee(fee, source),
        rebate,
    )


def _rebate(value: object, source: str) -> Rebate | None:
    """A rules file's rebate: ``KIND=SHARE`` text or a list of them, read as ``--rebate`` is."""
    if value is None:
        return None
    texts = [value] if isinstance(value, str) else value
    if not isinstance(texts, list) or not all(isinstance(text, str) for text in texts):
        raise RulesFileError(
            f"rebate in {source} is {_kind(value)}; use text in quotes or a list of them, such "
            'as rebate = ["rolling=1.2%", "loss=10%"].'
        )
    try:
        return Rebate.parse(texts, f"rebate in {source}")
    except RulesError as error:
        raise RulesFileError(str(error)) from None


def _fee(text: str, source: str) -> Fraction:
    """A rules file's fee, read as ``--fee`` is, its error naming the file."""
    try:
        return parse_fee(text, f"fee in {source}")
    except RulesError as error:
        raise RulesFileError(str(error)) from None


def read_rules_file(path: str | Path) -> RulesFile:
    """Read a rules file from *path*: the tableau and how ties settle.

    >>> read_rules_file("no/such/rules.toml")
    Traceback (most recent call last):
    ...
    exactodds.rulefiles.RulesFileError: Cannot read rules file 'no/such/rules.toml': it does not exist.
    """
    document = read_file(str(path), "rules file", RulesFileError)
    return parse_rules_file(document.text, document.source)


def load_rules_file(path: str | Path) -> Tableau:
    """The drawing tableau of the rules file at *path*.

    >>> load_rules_file(shipped_rules_files()["standard"]) == Tableau.standard()
    True
    """
    return read_rules_file(path).tableau


def shipped_rules_files() -> dict[str, Path]:
    """The rules files shipped with exactodds, by name.

    >>> sorted(shipped_rules_files())
    ['banker_as_player', 'chemin_de_fer_stand', 'standard']
    """
    # Beside this module (a plain directory in every install): importlib.resources would
    # bring tempfile, zipfile and more into every command's start, for a help text.
    folder = Path(__file__).parent / "data" / "rules"
    return {
        Path(entry.name).stem: Path(str(entry))
        for entry in sorted(folder.iterdir(), key=lambda entry: entry.name)
        if entry.name.endswith(".toml")
    }


def resolve_rules_file(spec: str | Path) -> RulesFile:
    """A rules file by path, or by the name of a shipped one (``standard``, ...).

    A file that exists wins over a shipped name.

    >>> resolve_rules_file("banker_as_player").tableau.name
    'banker_as_player'
    >>> resolve_rules_file("no_such_rules")
    Traceback (most recent call last):
    ...
    exactodds.rulefiles.RulesFileError: Rules 'no_such_rules' is neither a file that exists nor a shipped rules file; use a TOML file or one of banker_as_player, chemin_de_fer_stand, standard.
    """
    if not isinstance(spec, (str, Path)):
        raise RulesFileError(f"Rules {spec!r} is not a file name or a shipped rules name.")
    return resolve_document(
        spec,
        "rules file",
        RulesFileError,
        parse_rules_file,
        shipped_rules_files(),
        read_rules_file,
        ("Rules", "shipped rules file"),
    )


def format_rules_file(
    tableau: Tableau, ties_push: bool | None = None, description: str = ""
) -> str:
    """A tableau as rules-file TOML, one aligned line per Banker total.

    >>> text = format_rules_file(Tableau.standard(), ties_push=False)
    >>> print(text.splitlines()[-7])
    3 = [true,  true,  true,  true,  true,  true,  true,  true,  false, true ]
    >>> parse_rules_file(text).ties_push
    False
    """
    lines = [f"name = {_quoted(tableau.name)}"]
    if description:
        lines.append(f"description = {_quoted(description)}")
    if ties_push is not None:
        lines.append(f'ties = "{"push" if ties_push else "lose"}"')
    lines += [
        "",
        f"natural_totals = {_totals(tableau.natural_totals)}",
        f"player_draws = {_totals(_on(tableau.player_draws))}",
        f"banker_draws_when_player_stood = {_totals(_on(tableau.banker_draws_when_player_stood))}",
        "",
        "[banker_draws]",
        "# Banker total = [does the Banker draw when the Player's third card is 0, 1, ..., 9]",
        "#    " + "".join(f"{card:<7}" for card in range(10)).rstrip(),
    ]
    for total, row in enumerate(tableau.banker_draws):
        cells = "".join(f"{_toml(flag) + ',':<7}" for flag in row[:-1])
        lines.append(f"{total} = [{cells}{_toml(row[-1]):<5}]")
    return "\n".join(lines) + "\n"


def _on(flags: Sequence[bool]) -> list[int]:
    return [total for total, flag in enumerate(flags) if flag]


def _totals(totals: Iterable[int]) -> str:
    return "[" + ", ".join(str(total) for total in sorted(totals)) + "]"


def _quoted(text: str) -> str:
    """*text* as a TOML basic string: quotes, backslashes and control characters escaped."""
    escaped = []
    for character in text:
        if character in '"\\':
            escaped.append("\\" + character)
        elif ord(character) < 0x20 or ord(character) == 0x7F:
            escaped.append(f"\\u{ord(character):04x}")
        else:
            escaped.append(character)
    return '"' + "".join(escaped) + '"'
