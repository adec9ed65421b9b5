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

A new value of ``shoe`` starts a fresh shoe; without the field the whole log is one shoe.
Stakes are exact (``5``, ``2.5``, ``5/2``) and positive. Every problem is one sentence
that names the line, raised as :class:`ReviewError`; the checks against the shoe and the
tableau are :mod:`exactodds.studies.review`'s, which knows both.

>>> log = read_log('{"cards": "8 K 3 9", "bets": {"banker": 1}}\\n{"cards": "2 3 4 5 6 7"}\\n')
>>> [(line.line, line.cards, dict(line.bets)) for line in log.rounds]
[(1, '8 K 3 9', {'banker': Fraction(1, 1)}), (2, '2 3 4 5 6 7', {})]
>>> read_log("cards,banker\\n8 K 3 9,0\\n")
Traceback (most recent call last):
...
exactodds.studies.review_log.ReviewError: Line 2 of the log: the stake of banker is 0; a bet's stake is a positive number (leave the cell empty when nothing was bet).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from exactodds.errors import ExactOddsError, quoted
from exactodds.inputs import MAX_LINE_BYTES, MAX_TEXT_BYTES, load_json
from exactodds.numbers import parse_number

__all__ = ["MAX_ROUNDS", "BetLog", "LogLine", "ReviewError", "read_log"]

#: The most rounds a log may hold (a shoe deals about 80; this is over 12,000 shoes).
MAX_ROUNDS = 1_000_000
_JSON_FIELDS = ("shoe", "cards", "burn", "bets")
_CSV_FIELDS = ("shoe", "cards", "burn")


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
class BetLog:
    """Every round of a log, in order, and the bets the log names (in the order first named)."""

    rounds: tuple[LogLine, ...]
    bet_names: tuple[str, ...]
    source: str
    #: The line that first names each bet (the CSV header, or a round's line).
    named_at: Mapping[str, int] = field(default_factory=dict)


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


def read_log(text: str, source: str = "the log") -> BetLog:
    """The rounds of a log's *text* (CSV or JSON lines); *source* names it in messages.

    >>> read_log('{"cards": "8 K 3 9", "bets": {"banker": -1}}')
    Traceback (most recent call last):
    ...
    exactodds.studies.review_log.ReviewError: Line 1 of the log: the stake of banker is -1; a bet's stake is a positive number (leave the cell empty when nothing was bet).
    """
    if not isinstance(text, str) or len(text) > MAX_TEXT_BYTES:
        raise ReviewError(f"{source[:1].upper()}{source[1:]} is larger than 1,024 KiB.")
    lines = []
    for number, line in enumerate(io.StringIO(text.removeprefix("\ufeff")), start=1):
        if len(line) > MAX_LINE_BYTES:
            raise _problem(number, source, f"the line is longer than {MAX_LINE_BYTES:,} characters")
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            lines.append((number, stripped))
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
        header = next(csv.reader([lines[0][1]]))
        for name in header:
            if name.strip().lower() not in _CSV_FIELDS:
                named.setdefault(name.strip().lower(), lines[0][0])
    for found in rounds:
        for name in found.bets:
            named.setdefault(name, found.line)
    return BetLog(tuple(rounds), tuple(named), source, named)
