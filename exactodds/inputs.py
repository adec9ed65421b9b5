"""Reading what users give: bounded, strict, and one sentence when it is wrong.

Every text exactodds reads from outside (a shoe, a pay table, a rules file, a bet file, a
batch line, standard input) comes through this module, so that every input path has the
same limits and the same refusals, whatever the bytes:

* size: a document holds at most :data:`MAX_TEXT_BYTES` (1 MiB), a batch line at most
  :data:`MAX_LINE_BYTES` (64 KiB);
* nesting: at most :data:`MAX_DEPTH` levels of lists and objects (tables);
* numbers: a whole number has at most :data:`~exactodds.numbers.MAX_DIGITS` digits (far
  below Python's int-string limit), JSON's ``NaN`` and ``Infinity`` and TOML's ``nan`` and
  ``inf`` are refused, and decimals are kept exact as :class:`~decimal.Decimal`;
* keys: a JSON object that names a key twice is refused (TOML refuses it itself);
* text: UTF-8, with a leading byte-order mark ignored;
* files: an argument that may be a file or a literal (``--shoe``, ``--rules``) is read
  without ever raising :class:`OSError`: a name too long, a directory, a file that cannot be
  read all become one sentence.

Errors are raised as the caller's :class:`~exactodds.errors.ExactOddsError` subclass, with
the caller's words for the input (``"the shoe JSON"``, ``"pay table file 'pays.toml'"``).

>>> from exactodds.errors import ShoeError
>>> load_json('{"A": 4, "K": 2.5}', "shoe JSON", ShoeError)
{'A': 4, 'K': Decimal('2.5')}
>>> load_json('{"K": 4, "K": 9}', "shoe JSON", ShoeError)
Traceback (most recent call last):
...
exactodds.errors.ShoeError: Shoe JSON names "K" twice; name each key once.
"""

from __future__ import annotations

import codecs
import os
import re
import stat
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any, BinaryIO, NoReturn, TypeVar

from exactodds.errors import ExactOddsError, quoted
from exactodds.numbers import MAX_DIGITS

__all__ = [
    "DEALS_FINITE",
    "INFINITE",
    "MAX_DECKS",
    "MAX_DEPTH",
    "MAX_LINE_BYTES",
    "MAX_TEXT_BYTES",
    "MOST_DECKS",
    "TOO_LONG",
    "Document",
    "boolean",
    "infinite_decks",
    "json_depth",
    "line_problem",
    "load_json",
    "load_toml",
    "number_of_decks",
    "read_argument",
    "read_file",
    "read_lines",
    "read_stdin",
    "resolve_document",
    "sentence",
    "shown",
    "whole_number",
]

#: Largest document read: a shoe, pay table, rules or bet file, or standard input.
MAX_TEXT_BYTES = 1 << 20
#: Largest batch input line (a suited shoe with 100-digit counts takes about 6 KB).
MAX_LINE_BYTES = 1 << 16
#: Deepest nesting of lists and objects (the deepest valid input, a bet file, needs 5).
MAX_DEPTH = 32
#: A batch line longer than :data:`MAX_LINE_BYTES` is replaced by this character and its size
#: in bytes. No decoded line can hold it (a lone high surrogate), so no input can forge it.
TOO_LONG = "\ud800"

_ErrorType = type[ExactOddsError]
_PATH_LIMIT = 200  # a path is quoted whole up to this many characters
_SURROGATE = re.compile("[\ud800-\udfff]")


class _Refused(Exception):
    """Raised inside a parser's hook; turned into the caller's error outside the parser."""


def sentence(what: str) -> str:
    """*what* at the start of a sentence: ``the pay table`` -> ``The pay table``.

    A file name is left as it is (``pays.toml`` is not ``Pays.toml``).
    """
    first, space, _ = what.partition(" ")
    return what[:1].upper() + what[1:] if space and first.isalpha() else what


def shown(value: object, limit: int = 40) -> str:
    """A value read from JSON or TOML as the user wrote it, shortened for a message.

    >>> shown(True), shown(None), shown("K"), shown(Decimal("6.5")), shown({"B": 1})
    ('true', 'null', '"K"', '6.5', '{"B": 1}')
    >>> shown(10**101), shown(10**150)
    ('a number of 102 digits', 'a number of more than 100 digits')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, int):
        if value.bit_length() > 4 * MAX_DIGITS:
            return f"a number of more than {MAX_DIGITS} digits"
        digits = len(str(abs(value)))
        return str(value) if digits <= MAX_DIGITS else f"a number of {digits} digits"
    if isinstance(value, (Decimal, Fraction)):
        return str(value)
    text = _json_like(value)
    if len(text) > limit:
        return text[:limit] + "..."
    return text


def _json_like(value: object, depth: int = 0) -> str:
    if depth > 3:
        return "..."
    if isinstance(value, dict):
        items = list(value.items())
        inner = ", ".join(
            f"{_json_like(k, depth + 1)}: {_json_like(v, depth + 1)}" for k, v in items[:8]
        )
        return "{" + inner + (", ..." if len(items) > 8 else "") + "}"
    if isinstance(value, list):
        inner = ", ".join(_json_like(item, depth + 1) for item in value[:8])
        return "[" + inner + (", ..." if len(value) > 8 else "") + "]"
    if isinstance(value, str):
        short = value if len(value) <= 40 else value[:40] + "..."
        escaped = short.encode("unicode_escape").decode("ascii").replace('"', '\\"')
        return f'"{escaped}"'
    if isinstance(value, (bool, int, Decimal, Fraction)) or value is None:
        return shown(value)
    return type(value).__name__


# JSON -------------------------------------------------------------------------------------


def json_depth(text: str, stop_above: int | None = MAX_DEPTH) -> int:
    """The deepest nesting of ``[`` and ``{`` in JSON *text*, strings skipped.

    The scan stops as soon as the depth passes *stop_above* (``None``: never).

    >>> json_depth('{"a": [1, {"b": "[[["}]}'), json_depth("[" * 50, stop_above=None)
    (3, 50)
    """
    depth = deepest = 0
    in_string = escaped = False
    for character in text:
        if in_string:
            if escaped:
                escaped = False
            elif character == "\\":
                escaped = True
            elif character == '"':
                in_string = False
        elif character == '"':
            in_string = True
        elif character in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if stop_above is not None and deepest > stop_above:
                    return deepest
        elif character in "]}":
            depth -= 1
    return deepest


def _unique_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise _Refused(f"names {_json_like(key)} twice; name each key once")
        result[key] = value
    return result


def _check_digits(token: str) -> None:
    digits = sum(character.isdigit() for character in token)
    if digits > MAX_DIGITS:
        raise _Refused(f"holds a number of {digits:,} digits; use at most {MAX_DIGITS} digits")


def _json_int(token: str) -> int:
    _check_digits(token)
    return int(token)


def _json_decimal(token: str) -> Decimal:
    _check_digits(token)
    return Decimal(token)


def _json_constant(token: str) -> NoReturn:
    raise _Refused(f"holds {token}, which is not a number; use finite numbers")


def load_json(
    text: str, what: str, error: _ErrorType, hint: str = "", invalid: str = "is not valid JSON"
) -> Any:
    """Parse JSON *text* within the limits; *what* names it in errors, *hint* says what is valid.

    Whole numbers come back as :class:`int`, decimals as exact :class:`~decimal.Decimal`.

    >>> from exactodds.errors import PayError
    >>> load_json("[" * 40 + "]" * 40, "the pay table", PayError)
    Traceback (most recent call last):
    ...
    exactodds.errors.PayError: The pay table is nested more than 32 levels deep; use at most 32.
    >>> load_json('{"big": NaN}', "the pay table", PayError)
    Traceback (most recent call last):
    ...
    exactodds.errors.PayError: The pay table holds NaN, which is not a number; use finite numbers.
    """
    _check_size(text, what, error)
    text = text.removeprefix("\ufeff")
    if (text.count("[") + text.count("{") > MAX_DEPTH) and json_depth(text) > MAX_DEPTH:
        _refuse(
            error, what, f"is nested more than {MAX_DEPTH} levels deep; use at most {MAX_DEPTH}"
        )
    import json  # only the commands that read JSON pay for it

    try:
        return json.loads(
            text,
            object_pairs_hook=_unique_object,
            parse_int=_json_int,
            parse_float=_json_decimal,
            parse_constant=_json_constant,
        )
    except json.JSONDecodeError as problem:
        detail = f"{problem.msg} at line {problem.lineno} column {problem.colno}"
        _refuse(error, what, f"{invalid} ({detail})" + (f"; {hint}" if hint else ""))
    except _Refused as problem:
        _refuse(error, what, str(problem))
    except RecursionError:  # pragma: no cover - the depth check comes first
        _refuse(error, what, f"is nested too deeply; use at most {MAX_DEPTH} levels")


# TOML -------------------------------------------------------------------------------------


def _toml_decimal(token: str) -> Decimal:
    if token.lstrip("+-") in ("inf", "nan"):
        raise _Refused(f"holds {token}, which is not a number; use finite numbers")
    _check_digits(token)
    return Decimal(token.replace("_", ""))


def _check_tree(value: object, what: str, error: _ErrorType) -> None:
    """Nesting depth and whole-number size of a parsed document (no recursion)."""
    stack: list[tuple[object, int]] = [(value, 0)]
    limit = 10**MAX_DIGITS
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth >= MAX_DEPTH:
                _refuse(
                    error,
                    what,
                    f"is nested more than {MAX_DEPTH} levels deep; use at most {MAX_DEPTH}",
                )
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
        elif isinstance(item, int) and not isinstance(item, bool) and not -limit < item < limit:
            _refuse(
                error,
                what,
                f"holds a number of more than {MAX_DIGITS} digits; use at most {MAX_DIGITS} digits",
            )


def load_toml(text: str, what: str, error: _ErrorType, hint: str = "") -> dict[str, Any]:
    """Parse TOML *text* within the limits (decimals exact, as :class:`~decimal.Decimal`).

    >>> load_toml("big = 0.54\\n[lucky6]\\nthree_card_win = 23\\n", "the pay table", ExactOddsError)
    {'big': Decimal('0.54'), 'lucky6': {'three_card_win': 23}}
    >>> load_toml("a = 1\\na = 2\\n", "rules file 'my.toml'", ExactOddsError)
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: Rules file 'my.toml' is not valid TOML (Cannot overwrite a value (at line 2, column 6)).
    """
    import tomllib  # only for TOML text: `exactodds odds` reads none

    _check_size(text, what, error)
    text = text.removeprefix("\ufeff")
    try:
        data = tomllib.loads(text, parse_float=_toml_decimal)
    except tomllib.TOMLDecodeError as problem:
        _refuse(error, what, f"is not valid TOML ({problem})" + (f"; {hint}" if hint else ""))
    except _Refused as problem:
        _refuse(error, what, str(problem))
    except RecursionError:
        _refuse(
            error, what, f"is nested more than {MAX_DEPTH} levels deep; use at most {MAX_DEPTH}"
        )
    except ValueError:  # Python's int-string limit, met inside the parser
        _refuse(
            error,
            what,
            f"holds a number of more than {MAX_DIGITS} digits; use at most {MAX_DIGITS} digits",
        )
    _check_tree(data, what, error)
    return data


# Files, standard input and literals ---------------------------------------------------------


@dataclass(frozen=True)
class Document:
    """Text read from a file or standard input, and where it came from (for messages).

    >>> Document("A=4", "standard input").source
    'standard input'
    """

    text: str
    source: str


def _check_size(text: str, what: str, error: _ErrorType) -> None:
    if not isinstance(text, str):
        _refuse(error, what, f"is {type(text).__name__}, not text; pass the text of the document")
    if len(text) > MAX_TEXT_BYTES:
        _refuse(error, what, f"is larger than {MAX_TEXT_BYTES // 1024:,} KiB; use a smaller input")


def _refuse(error: _ErrorType, what: str, reason: str) -> NoReturn:
    raise error(f"{sentence(what)} {reason}.") from None


def _decode(data: bytes, where: str, error: _ErrorType) -> str:
    """*data* as text; *where* completes "Cannot read ..." in errors."""
    if len(data) > MAX_TEXT_BYTES:
        raise error(
            f"Cannot read {where}: it is larger than {MAX_TEXT_BYTES // 1024:,} KiB; use a "
            "smaller input."
        )
    data = data.removeprefix(codecs.BOM_UTF8)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as problem:
        bad = data[problem.start]
        raise error(
            f"Cannot read {where}: it is not UTF-8 text (byte 0x{bad:02x} at offset "
            f"{problem.start:,}); save it as UTF-8."
        ) from None


def _reason(problem: OSError) -> str:
    return (problem.strerror or type(problem).__name__).rstrip(".").lower()


def read_stdin(what: str, error: _ErrorType) -> Document:
    """The text of standard input, for an argument given as ``-``.

    A closed standard input (``exactodds odds --shoe - <&-``) is refused, not a crash.
    """
    stream = sys.stdin
    if stream is None or stream.closed:
        raise error(f"Cannot read {what} from standard input: it is closed.")
    try:
        buffer = getattr(stream, "buffer", None)
        if buffer is not None:
            data = buffer.read(MAX_TEXT_BYTES + 1)
        else:  # a text stream without bytes underneath (some test harnesses, IDEs)
            data = stream.read(MAX_TEXT_BYTES + 1).encode("utf-8", "surrogateescape")
    except (OSError, ValueError) as problem:
        reason = _reason(problem) if isinstance(problem, OSError) else "it is closed"
        raise error(f"Cannot read {what} from standard input: {reason}.") from None
    return Document(_decode(data, f"{what} from standard input", error), "standard input")


def _status(path: str) -> os.stat_result | None:
    try:
        return os.stat(path)
    except (OSError, ValueError):  # no such file, name too long, a NUL in the name ...
        return None


def read_file(path: str, what: str, error: _ErrorType) -> Document:
    """The UTF-8 text of the file at *path* (``-`` for standard input), within the size limit.

    >>> from exactodds.errors import PayError
    >>> read_file("no/such/file.toml", "pay table file", PayError)
    Traceback (most recent call last):
    ...
    exactodds.errors.PayError: Cannot read pay table file 'no/such/file.toml': it does not exist.
    """
    if path == "-":
        return read_stdin(what, error)
    document = _read_existing(path, what, error)
    if document is None:
        raise error(f"Cannot read {what} {quoted(path, _PATH_LIMIT)}: it does not exist.")
    return document


def _read_existing(path: str, what: str, error: _ErrorType) -> Document | None:
    status = _status(path)
    if status is None:
        return None
    shown_path = quoted(path, _PATH_LIMIT)
    if stat.S_ISDIR(status.st_mode):
        raise error(f"Cannot read {what} {quoted(path, _PATH_LIMIT)}: it is a directory.")
    try:
        with open(path, "rb") as stream:
            data = stream.read(MAX_TEXT_BYTES + 1)
    except OSError as problem:
        raise error(f"Cannot read {what} {shown_path}: {_reason(problem)}.") from None
    source = f"{what} {shown_path}"
    return Document(_decode(data, source, error), source)


def read_argument(
    argument: str, what: str, error: _ErrorType, stdin_what: str | None = None
) -> Document | None:
    """The text an argument names: ``-`` (standard input) or a file that exists; else ``None``.

    ``None`` means the argument is a literal (a spec, a shipped name) for the caller to read.
    A name that cannot be a file (too long, a NUL byte) is a literal too, never an
    :class:`OSError`.

    >>> read_argument("A=4," * 100, "shoe file", ExactOddsError) is None
    True
    """
    if argument.strip() == "-":
        return read_stdin(stdin_what or what, error)
    return _read_existing(argument, what, error)


Read = TypeVar("Read")


def resolve_document(
    spec: str | Path,
    what: str,
    error: _ErrorType,
    parse: Callable[[str, str], Read],
    shipped: Mapping[str, Path],
    read_shipped: Callable[[Path], Read],
    naming: tuple[str, str],
) -> Read:
    """A document (a rules, table or overlay file) by path, or by the name of a shipped one;
    a file that exists wins.  *naming* is how the refusal names the argument and what is
    shipped, such as ``("Table", "shipped table")``.

    >>> resolve_document("no_such", "table file", ExactOddsError, lambda text, source: text,
    ...     {"classic": Path("classic.toml")}, str, ("Table", "shipped table"))
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: Table 'no_such' is neither a file that exists nor a shipped table; use a TOML file or one of classic.
    """
    document = read_argument(str(spec), what, error)
    if document is not None:
        return parse(document.text, document.source)
    if str(spec) in shipped:
        return read_shipped(shipped[str(spec)])
    label, shipped_noun = naming
    raise error(
        f"{label} {quoted(str(spec))} is neither a file that exists nor a {shipped_noun}; "
        f"use a TOML file or one of {', '.join(shipped)}."
    )


# Batch lines ------------------------------------------------------------------------------


def read_lines(
    stream: BinaryIO, limit: int = MAX_LINE_BYTES, *, stop_after_long_line: bool = False
) -> Iterator[str]:
    """The lines of a byte stream as text, one per line, in bounded memory.

    Bytes that are not UTF-8 are kept as lone surrogates (``surrogateescape``) and a line
    longer than *limit* bytes is replaced by :data:`TOO_LONG`, the limit and its size, without
    ever being held whole; :func:`line_problem` names either, so a bad line is reported with
    its number in its place, and every good line before it is still read. A byte-order mark
    at the start of the stream is ignored. With *stop_after_long_line*, reading stops at a
    line that is too long instead of skipping to its end (an endless line, ``/dev/zero``, has
    no end: its size is then given as "at least").

    >>> import io
    >>> lines = list(read_lines(io.BytesIO(b'\\xef\\xbb\\xbf{"A": 6}\\n\\xff\\n' + b"x" * 40), 32))
    >>> lines[0], line_problem(lines[1]), line_problem(lines[2])
    ('{"A": 6}\\n', 'is not UTF-8 text (byte 0xff at column 1)', 'is longer than 32 bytes (40 bytes)')
    """
    first = True
    while True:
        raw = stream.readline(limit + 2)  # room for the line's own \r\n
        if not raw:
            return
        if first:
            raw = raw.removeprefix(codecs.BOM_UTF8)
            first = False
        if len(raw.rstrip(b"\r\n")) > limit:
            if stop_after_long_line:
                yield f"{TOO_LONG}{limit} {len(raw)}+"
                return
            size = len(raw)
            while not raw.endswith(b"\n"):  # skip the rest of the line, a chunk at a time
                raw = stream.readline(limit)
                if not raw:
                    break
                size += len(raw)
            ending = 1 if raw.endswith(b"\n") else 0
            yield f"{TOO_LONG}{limit} {size - ending}"
            continue
        yield raw.decode("utf-8", "surrogateescape")


def line_problem(line: str) -> str | None:
    """Why a line from :func:`read_lines` cannot be read as text, or ``None`` if it can.

    >>> line_problem('{"A": 6}'), line_problem("\\udcff")
    (None, 'is not UTF-8 text (byte 0xff at column 1)')
    """
    found = _SURROGATE.search(line)
    if found is None:
        return None
    if line.startswith(TOO_LONG):
        limit, _, size = line[len(TOO_LONG) :].strip().partition(" ")
        if limit.isdigit() and size.isdigit():
            return f"is longer than {int(limit):,} bytes ({int(size):,} bytes)"
        if limit.isdigit() and size.endswith("+") and size[:-1].isdigit():
            return f"is longer than {int(limit):,} bytes (at least {int(size[:-1]):,} bytes)"
        return f"is longer than {MAX_LINE_BYTES:,} bytes"
    byte = ord(found.group()) - 0xDC00
    if 0x80 <= byte <= 0xFF:
        return f"is not UTF-8 text (byte 0x{byte:02x} at column {found.start() + 1})"
    return f"is not UTF-8 text (a lone surrogate at column {found.start() + 1})"


# Argument checks ----------------------------------------------------------------------------

#: The most 52-card decks a shoe named by its number of decks holds where the memory grows
#: with the shoe (``simulate``, ``depth``, ``report``, a tracked table): the most a simulation
#: deals with bounded memory and a tracked table records.
MAX_DECKS = 64
#: The most decks where the work does not grow with the shoe (a :class:`~exactodds.shoe.Shoe`,
#: ``odds``, ``eor``, ``breakeven``, ``breakdown``, ``solve``, ``edgesort``): the walk counts
#: value classes, so 10^12 decks cost what 8 do; every rank's count (4 a deck) stays below
#: 10^100, the bound of every count.
MOST_DECKS = (10**MAX_DIGITS - 1) // 4


#: The number of decks of an infinite shoe (cards drawn with replacement), as ``--decks`` takes it.
INFINITE = "infinite"
#: Why a command refuses an infinite shoe, unless it says its own reason.
DEALS_FINITE = "this deals a finite shoe, card by card"


def infinite_decks(value: object) -> bool:
    """Whether *value* names an infinite shoe: the word ``infinite`` (any case, spaces around).

    >>> infinite_decks("infinite"), infinite_decks(" Infinite "), infinite_decks(8)
    (True, True, False)
    """
    return isinstance(value, str) and value.strip().lower() == INFINITE


def _seen(value: object) -> str:
    """*value* in a message: text quoted, a float as Python writes it, else as read (:func:`shown`)."""
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return quoted(value, 40)
    if isinstance(value, (bool, int, Decimal, Fraction)) or value is None:
        return shown(value)
    return type(value).__name__


def _whole_words(minimum: int | None, maximum: int | None) -> str:
    if minimum is None:
        return "a whole number" if maximum is None else f"a whole number of at most {maximum}"
    if maximum is None:
        return f"a whole number of at least {minimum}"
    return f"a whole number from {minimum} to {maximum}"


def _digits(value: str, name: str, what: str, valid: str, error: _ErrorType) -> int | str:
    """The number *value* writes in digits, or *value* stripped (refused by the caller)."""
    cleaned = value.strip().removeprefix("+")
    digits = cleaned.removeprefix("-")
    if not (digits.isascii() and digits.isdigit()):
        return value.strip()
    if len(digits.lstrip("0")) > MAX_DIGITS:
        raise error(
            f"{what or 'A number'} with {len(digits.lstrip('0')):,} digits for `{name}` is too "
            f"large; use {valid}."
        )
    return int(cleaned)


def whole_number(
    value: object,
    name: str,
    error: _ErrorType = ExactOddsError,
    *,
    minimum: int | None = 0,
    maximum: int | None = None,
    what: str = "",
    text: bool = False,
    within: str = "",
) -> int:
    """*value* if it is a whole number (not a boolean) from *minimum* to *maximum*.

    Else one sentence that names the parameter *name* in backquotes (and says *what* the
    number is, if given), as *error*.  ``None`` for a bound: no bound (a sum that may be
    negative, read back from a checkpoint).  With *text*, a string of digits (a sign
    allowed, at most :data:`~exactodds.numbers.MAX_DIGITS` of them) is read as its number.
    A value inside a document (a bet or rules file) is no parameter: *within* places it
    there and is said instead of *name*.

    >>> whole_number(3, "jobs", minimum=1)
    3
    >>> whole_number(True, "jobs", minimum=1)
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: `jobs` is true; use a whole number of at least 1.
    >>> whole_number(17, "cards", minimum=1, maximum=16)
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: `cards` is 17; use a whole number from 1 to 16.
    >>> whole_number(0, "rounds", minimum=1, what="Number of rounds")
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: Number of rounds 0 for `rounds` is not valid; use a whole number of at least 1.
    >>> whole_number(-7, "total", minimum=None), whole_number("7", "total", minimum=None)
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: `total` is '7'; use a whole number.
    >>> whole_number(" -7 ", "total", minimum=None, text=True)
    -7
    >>> whole_number(10, "total", maximum=9, what="Total", within="player_draws in my.toml")
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: Total 10 for player_draws in my.toml is not valid; use a whole number from 0 to 9.
    """
    valid = _whole_words(minimum, maximum)
    if text and isinstance(value, str):
        bounded = maximum is not None
        value = _digits(
            value, name, what, valid if bounded else f"at most {MAX_DIGITS} digits", error
        )
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or (minimum is not None and value < minimum)
        or (maximum is not None and value > maximum)
    ):
        if what or within:
            place = within or f"`{name}`"
            raise error(f"{what or 'Value'} {_seen(value)} for {place} is not valid; use {valid}.")
        raise error(f"`{name}` is {_seen(value)}; use {valid}.")
    return value


def boolean(value: object, name: str, error: _ErrorType = ExactOddsError) -> bool:
    """*value* if it is ``True`` or ``False``, else one sentence naming *name*, as *error*.

    >>> boolean(False, "outcomes")
    False
    >>> boolean(1, "outcomes")
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: `outcomes` is 1; use true or false.
    """
    if not isinstance(value, bool):
        raise error(f"`{name}` is {_seen(value)}; use true or false.")
    return value


def number_of_decks(
    value: object,
    error: _ErrorType = ExactOddsError,
    name: str = "decks",
    *,
    text: bool = True,
    most: int = MAX_DECKS,
    finite_because: str = DEALS_FINITE,
) -> int:
    """A number of decks from 1 to *most*: a whole number, or (*text*) its digits.

    The one check of a number of decks, so that every path words its limit alike: *most* is
    :data:`MAX_DECKS` where memory grows with the shoe, :data:`MOST_DECKS` where it does not.
    ``infinite`` (:func:`infinite_decks`), which a caller that takes it reads before this,
    is refused here with *finite_because*.

    >>> number_of_decks(8), number_of_decks(" 6 "), number_of_decks("1000000", most=MOST_DECKS)
    (8, 6, 1000000)
    >>> number_of_decks("65")
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: Number of decks 65 for `decks` is not valid; use a whole number from 1 to 64.
    >>> number_of_decks(3 * 10**99, most=MOST_DECKS)
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: Number of decks for `decks` has 100 digits, too many; use fewer than 2.5 x 10^99 decks (each rank's count stays below 10^100).
    >>> number_of_decks("infinite")
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: Number of decks 'infinite' for `decks` is not valid here: this deals a finite shoe, card by card; use a whole number from 1 to 64.
    """
    if text and infinite_decks(value):
        valid = f"from 1 to {most}" if most <= MAX_DECKS else "of decks, such as 8"
        raise error(
            f"Number of decks {_seen(value)} for `{name}` is not valid here: {finite_because}; "
            f"use a whole number {valid}."
        )
    if most <= MAX_DECKS:
        return whole_number(
            value, name, error, minimum=1, maximum=most, what="Number of decks", text=text
        )
    decks = whole_number(value, name, error, minimum=1, what="Number of decks", text=text)
    if decks > most:
        raise error(
            f"Number of decks for `{name}` has {len(str(decks))} digits, too many; use fewer "
            "than 2.5 x 10^99 decks (each rank's count stays below 10^100)."
        )
    return decks
