"""Reading a log of rounds and bets for the winning-player review, line by line, strictly.

A log is CSV or JSON lines (the first line that is not blank or a ``#`` comment decides:
``{`` starts JSON lines). Each line is a round: its cards in dealing order (Player,
Banker, Player, Banker, then the third cards the tableau deals; ranks ``A 2-9 T J Q K``,
suits optional) and the bets placed on it, each a bet's name and its stake.

* JSON lines: ``{"shoe": "1", "cards": "8 K 3 9 5", "bets": {"banker": 1}}``;
  ``bets`` maps names to stakes (omitted or ``{}`` when nothing was bet), ``burn`` lists
  burned cards the player saw before the round; a line holding only ``shoe`` marks the
  start of a shoe.
* CSV: a header row names the columns: ``cards`` (required), ``shoe`` and ``burn``
  (optional) and one column per bet, its cells the stakes (empty: no bet).

A log may start with a **header**: the table it was dealt at, in a table file's words
(:mod:`exactodds.bets.tables`; the keys :data:`HEADER_KEYS`), either as ``# key = value``
comment lines before the first round (either format; ``pays = dragon7=40, panda8=25`` and
``bet_files = dai_bacc`` list theirs with commas) or, in JSON lines, as a first object with
no field of a round (``{"decks": 6, "variant": "ez", "pays": {"dragon7": 40}}``). It is
read into :attr:`BetLog.header`; who applies it (the command line, under its own options)
says so. Other ``#`` lines are comments.

A new value of ``shoe`` starts a fresh shoe; without the field the whole log is one shoe.
Stakes are exact (``5``, ``2.5``, ``5/2``) and positive. Every problem is one sentence
that names the line, raised as :class:`ReviewError`; the checks against the shoe and the
tableau are :mod:`exactodds.studies.review`'s, which knows both.

>>> log = read_log('{"cards": "8 K 3 9", "bets": {"banker": 1}}\\n{"cards": "2 3 4 5 6 7"}\\n')
>>> [(line.line, line.cards, dict(line.bets)) for line in log.rounds]
[(1, '8 K 3 9', {'banker': Fraction(1, 1)}), (2, '2 3 4 5 6 7', {})]
>>> read_log("# decks = 6\\n# variant = ez\\ncards,banker\\n8 K 3 9,1\\n").header.table.variant
'ez'
>>> read_log("cards,banker\\n8 K 3 9,0\\n")
Traceback (most recent call last):
...
exactodds.studies.review_log.ReviewError: Line 2 of the log: the stake of banker is 0; a bet's stake is a positive number (leave the cell empty when nothing was bet).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from exactodds.bets.tables import Table, TableError, table_from_data
from exactodds.errors import ExactOddsError, quoted
from exactodds.inputs import MAX_LINE_BYTES, MAX_TEXT_BYTES, load_json
from exactodds.numbers import parse_number

__all__ = ["HEADER_KEYS", "MAX_ROUNDS", "BetLog", "LogHeader", "LogLine", "ReviewError", "read_log"]

#: The most rounds a log may hold (a shoe deals about 80; this is over 12,000 shoes).
MAX_ROUNDS = 1_000_000
_JSON_FIELDS = ("shoe", "cards", "burn", "bets")
_CSV_FIELDS = ("shoe", "cards", "burn")
#: What a log's header may set: a table file's keys for the table a log was dealt at (its
#: bets are the ones the log names, its game baccarat, without multipliers).
HEADER_KEYS = (
    "decks",
    "rules",
    "variant",
    "commission",
    "tie_pays",
    "ties",
    "fee",
    "pays",
    "bet_files",
)
_HEADER_LINE = re.compile(r"#\s*([A-Za-z_][A-Za-z0-9_]*)\s*=(.*)")


class ReviewError(ExactOddsError):
    """A log the review cannot read, or a round it cannot replay: one sentence naming the line."""


@dataclass(frozen=True)
class LogLine:
    """One round of the log as written: its line, shoe, cards, seen burns and bets (name -> stake)."""

    line: int
    shoe: str
    cards: str
    burn: str
    bets: Mapping[str, Fraction]


@dataclass(frozen=True)
class LogHeader:
    """A log's header: the table settings it gives (checked as a table file's), as written,
    and the lines that give them (the first names the header in messages).

    >>> header = read_log('{"decks": 1, "pays": {"tie": 9}}\\n{"cards": "8 K 3 9"}').header
    >>> header.lines, header.table.decks, header.table.pays, dict(header.settings)
    ((1,), 1, ('tie=9',), {'decks': 1, 'pays': {'tie': 9}})
    """

    lines: tuple[int, ...]
    table: Table
    settings: Mapping[str, Any]

    @property
    def line(self) -> int:
        """The header's first line."""
        return self.lines[0]


@dataclass(frozen=True)
class BetLog:
    """Every round of a log, in order, and the bets the log names (in the order first named)."""

    rounds: tuple[LogLine, ...]
    bet_names: tuple[str, ...]
    source: str
    #: The line that first names each bet (the CSV header, or a round's line).
    named_at: Mapping[str, int] = field(default_factory=dict)
    #: The table settings the log's header gives, if it has one.
    header: LogHeader | None = None


def _problem(line: int, source: str, text: str) -> ReviewError:
    return ReviewError(f"Line {line:,} of {source}: {text}.")


def _stake(value: object, name: str, line: int, source: str) -> Fraction:
    if isinstance(value, (Decimal, int, str)) and not isinstance(value, bool):
        try:
            stake = parse_number(value, f"the stake of {name}")
        except ExactOddsError:
            stake = None
    else:
        stake = None
    if stake is None:
        shown = quoted(str(value), 30) if isinstance(value, str) else repr(value)
        raise _problem(
            line, source, f"the stake of {name} is {shown}, not a number; give a number such as 5"
        )
    if stake <= 0:
        raise _problem(
            line,
            source,
            f"the stake of {name} is {value}; a bet's stake is a positive number (leave the "
            "cell empty when nothing was bet)",
        )
    return stake


def _bet_name(name: object, line: int, source: str) -> str:
    if not isinstance(name, str) or not name.strip() or len(name) > 60:
        raise _problem(line, source, f"the bet name {quoted(str(name), 30)} is not a bet's name")
    return name.strip().lower()


def _text(value: object, field: str, line: int, source: str) -> str:
    if isinstance(value, (int, Decimal)) and not isinstance(value, bool) and field == "shoe":
        return str(value)
    if not isinstance(value, str):
        raise _problem(line, source, f"the field {field!r} is not text")
    return value.strip()


def _json_line(text: str, line: int, source: str, shoe: str) -> LogLine | str:
    """A round, or the new shoe's name when the line only marks a shoe."""
    try:
        data = load_json(text, "the line", ReviewError)
    except ReviewError as error:
        reason = str(error).removeprefix("The line ").rstrip(".").replace(" at at ", " at ")
        raise _problem(
            line, source, f"the line {reason} (a truncated line?); each line is one JSON object"
        ) from None
    if not isinstance(data, dict):
        raise _problem(line, source, "the line is not a JSON object")
    for key in data:
        if key not in _JSON_FIELDS:
            raise _problem(
                line, source, f"unknown field {quoted(key, 30)}; use {', '.join(_JSON_FIELDS)}"
            )
    if "shoe" in data:
        shoe = _text(data["shoe"], "shoe", line, source)
    if "cards" not in data:
        if set(data) == {"shoe"}:
            return shoe
        raise _problem(line, source, "the round has no cards; give them in dealing order")
    bets = data.get("bets", {})
    if not isinstance(bets, dict):
        raise _problem(line, source, 'the bets are not an object such as {"banker": 5}')
    stakes = {}
    for name, value in bets.items():
        bet = _bet_name(name, line, source)
        stakes[bet] = _stake(value, bet, line, source)
    cards = _text(data["cards"], "cards", line, source)
    burn = _text(data.get("burn", ""), "burn", line, source)
    return LogLine(line, shoe, cards, burn, stakes)


def _json_rounds(lines: list[tuple[int, str]], source: str) -> list[LogLine]:
    rounds: list[LogLine] = []
    shoe = "1"
    for number, text in lines:
        found = _json_line(text, number, source, shoe)
        if isinstance(found, str):
            shoe = found
            continue
        shoe = found.shoe
        rounds.append(found)
    return rounds


def _csv_rounds(lines: list[tuple[int, str]], source: str) -> list[LogLine]:
    (header_line, header_text), rows = lines[0], lines[1:]
    header = [cell.strip().lower() for cell in next(csv.reader([header_text]))]
    if "cards" not in header:
        raise _problem(header_line, source, "the CSV header names no cards column")
    if len(set(header)) != len(header):
        raise _problem(header_line, source, "the CSV header names a column twice")
    bets = [_bet_name(name, header_line, source) for name in header if name not in _CSV_FIELDS]
    rounds: list[LogLine] = []
    shoe = "1"
    for number, text in rows:
        cells = next(csv.reader([text]), [])
        if len(cells) != len(header):
            raise _problem(
                number,
                source,
                f"the row has {len(cells)} fields and the header {len(header)} (a truncated "
                "line?); give one field per column",
            )
        row = dict(zip(header, (cell.strip() for cell in cells), strict=True))
        shoe = row.get("shoe") or shoe
        stakes = {name: _stake(row[name], name, number, source) for name in bets if row[name]}
        rounds.append(LogLine(number, shoe, row["cards"], row.get("burn", ""), stakes))
    return rounds


def _header_value(key: str, text: str, line: int, source: str) -> Any:
    """A ``# key = value`` line's value as a table file's TOML holds it."""
    text = text.strip()
    if key == "decks" and re.fullmatch("[0-9]{1,6}", text):
        return int(text)
    if key == "bet_files":
        return [name.strip() for name in text.split(",")]
    if key != "pays":
        return text
    pays: dict[str, Any] = {}
    for item in text.split(","):
        name, equals, pay = (part.strip() for part in item.partition("="))
        bet, dot, outcome = name.partition(".")
        if not equals or not name or not pay or (dot and isinstance(pays.get(bet), str)):
            raise _problem(
                line,
                source,
                f"the header's pays {quoted(text, 40)} are not NAME=PAY with commas between, "
                "such as pays = dragon7=40, panda8=25",
            )
        if dot:
            pays.setdefault(bet, {})[outcome] = pay
        else:
            pays[bet] = pay
    return pays


def _plain(value: Any) -> Any:
    """A JSON header's value with its numbers as a table file's TOML would hold them."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else str(value)
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value


def _header(given: list[tuple[int, str, Any]], source: str) -> LogHeader:
    """The header's settings checked one by one (each problem names its line), then together."""
    settings: dict[str, Any] = {}
    for line, key, value in given:
        if key not in HEADER_KEYS:
            raise _problem(
                line,
                source,
                f"the header sets {quoted(key, 30)}, which a log's header does not take; "
                f"use {', '.join(HEADER_KEYS)}",
            )
        if key in settings:
            raise _problem(line, source, f"the header sets {key} twice")
        settings[key] = value
        try:
            table_from_data({"name": "header", key: value}, "the header")
        except TableError as error:
            reason = str(error).rstrip(".")
            raise _problem(line, source, reason[:1].lower() + reason[1:]) from None
    table = table_from_data({"name": "the log's header", **settings}, "the header")
    return LogHeader(tuple(dict.fromkeys(line for line, _, _ in given)), table, settings)


def _json_header(number: int, text: str, source: str) -> list[tuple[int, str, Any]]:
    """The settings of a JSON-lines log's first object when it holds no field of a round."""
    try:
        data = load_json(text, "the line", ReviewError)
    except ReviewError:
        return []  # the rounds' reader says what is wrong with the line
    if not isinstance(data, dict) or not data or any(key in _JSON_FIELDS for key in data):
        return []
    for key in data:
        if key not in HEADER_KEYS:
            raise _problem(
                number,
                source,
                f"unknown field {quoted(key, 30)}: a round takes {', '.join(_JSON_FIELDS)}, and "
                f"a header (the first line, without a round's fields) {', '.join(HEADER_KEYS)}",
            )
    return [(number, key, _plain(value)) for key, value in data.items()]


def _lines(text: str, source: str) -> tuple[list[tuple[int, str]], list[tuple[int, str, Any]]]:
    """The log's lines that are not blank or comments, and its ``# key = value`` header."""
    lines: list[tuple[int, str]] = []
    header: list[tuple[int, str, Any]] = []
    for number, line in enumerate(io.StringIO(text.removeprefix("\ufeff")), start=1):
        if len(line) > MAX_LINE_BYTES:
            raise _problem(number, source, f"the line is longer than {MAX_LINE_BYTES:,} characters")
        stripped = line.strip()
        setting = _HEADER_LINE.fullmatch(stripped)
        if setting and lines and setting.group(1).lower() in HEADER_KEYS:
            raise _problem(
                number, source, "a header setting after the first round; the header comes first"
            )
        if setting and not lines:
            key = setting.group(1).lower()
            header.append((number, key, _header_value(key, setting.group(2), number, source)))
        elif stripped and not stripped.startswith("#"):
            lines.append((number, stripped))
    return lines, header


def read_log(text: str, source: str = "the log") -> BetLog:
    """The rounds of a log's *text* (CSV or JSON lines); *source* names it in messages.

    >>> read_log('{"cards": "8 K 3 9", "bets": {"banker": -1}}')
    Traceback (most recent call last):
    ...
    exactodds.studies.review_log.ReviewError: Line 1 of the log: the stake of banker is -1; a bet's stake is a positive number (leave the cell empty when nothing was bet).
    """
    if not isinstance(text, str) or len(text) > MAX_TEXT_BYTES:
        raise ReviewError(f"{source[:1].upper()}{source[1:]} is larger than 1,024 KiB.")
    lines, header = _lines(text, source)
    if lines and lines[0][1].startswith("{"):
        found = _json_header(*lines[0], source)
        if found and header:
            raise _problem(
                lines[0][0],
                source,
                f"the log has a header already (line {header[0][0]:,}); give it once, as "
                "'# key = value' lines or as the first object",
            )
        if found:
            header, lines = found, lines[1:]
    checked = _header(header, source) if header else None
    if not lines:
        raise ReviewError(f"{source[:1].upper()}{source[1:]} holds no rounds.")
    reader = _json_rounds if lines[0][1].startswith("{") else _csv_rounds
    rounds = reader(lines, source)
    if not rounds:
        raise ReviewError(f"{source[:1].upper()}{source[1:]} holds no rounds.")
    if len(rounds) > MAX_ROUNDS:
        raise ReviewError(f"{source} holds {len(rounds):,} rounds; review at most {MAX_ROUNDS:,}.")
    named: dict[str, int] = {}
    if reader is _csv_rounds:
        for name in next(csv.reader([lines[0][1]])):
            if name.strip().lower() not in _CSV_FIELDS:
                named.setdefault(name.strip().lower(), lines[0][0])
    for logged in rounds:
        for name in logged.bets:
            named.setdefault(name, logged.line)
    return BetLog(tuple(rounds), tuple(named), source, named, checked)
