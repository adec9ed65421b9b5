"""The bounded reader: a request body's bytes in, one JSON object of exact values out.

Every body the API takes comes through :func:`read_body` once, whatever the route: at most
:data:`MAX_BODY_BYTES` bytes, UTF-8, at most :data:`MAX_NESTING` levels of arrays and
objects, no key twice, and numbers exact: a whole number is an :class:`int` (at most 100
digits), a decimal an exact :class:`~decimal.Decimal`, never a float; ``NaN`` and
``Infinity`` are refused.  What the values must be, each route's checks say
(:mod:`exactodds.web.checks`); this module only reads.

>>> read_body(b'{"decks": 8, "commission": 0.05}')
{'decks': 8, 'commission': Decimal('0.05')}
>>> read_body(b'{"decks": 8, "decks": 6}')
Traceback (most recent call last):
...
exactodds.web.reader.RequestError: The request body names "decks" twice; name each key once.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from exactodds.errors import ExactOddsError
from exactodds.inputs import json_depth, load_json, shown

__all__ = ["MAX_BODY_BYTES", "MAX_NESTING", "RequestError", "json_kind", "read_body"]

#: The largest request body read, in bytes; larger ones are refused unread.
MAX_BODY_BYTES = 256 * 1024
#: The deepest nesting of arrays and objects accepted in a request body.
MAX_NESTING = 8
_SURROGATE = re.compile("[\ud800-\udfff]")


class RequestError(ExactOddsError):
    """A request body that is not the JSON object an endpoint reads (answered with 400).

    >>> read_body(b"[1, 2")
    Traceback (most recent call last):
    ...
    exactodds.web.reader.RequestError: The request body is not valid JSON (Expecting ',' delimiter at line 1 column 6); send one JSON object.
    """


def read_body(body: bytes, limit: int = MAX_BODY_BYTES) -> dict[str, Any]:
    """The JSON object in a request *body*: read once, bounded, numbers exact.

    The shared reader :func:`exactodds.inputs.load_json` parses it (no key twice, at most
    100 digits a number, decimals as exact :class:`~decimal.Decimal`); this adds the web's
    tighter nesting limit and refuses text that cannot be stored or echoed (a lone surrogate).

    >>> read_body(b'{"decks": 6, "commission": 0.050000000000000000001}')
    {'decks': 6, 'commission': Decimal('0.050000000000000000001')}
    >>> read_body(b"[" * 20 + b"]" * 20)
    Traceback (most recent call last):
    ...
    exactodds.web.reader.RequestError: The request body nests more than 8 levels deep; send a flatter object.
    """
    if len(body) > limit:
        raise RequestError(f"The request body has {len(body):,} bytes; at most {limit:,} are read.")
    try:
        text = body.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise RequestError(
            "The request body is not UTF-8 text; send a UTF-8 JSON object."
        ) from None
    if not text.strip():
        raise RequestError('The request body is empty; send one JSON object such as {"decks": 8}.')
    depth = json_depth(text, stop_above=MAX_NESTING)
    if depth > MAX_NESTING:
        raise RequestError(
            f"The request body nests more than {MAX_NESTING} levels deep; send a flatter object."
        )
    data = load_json(text, "the request body", RequestError, hint="send one JSON object")
    if not isinstance(data, dict):
        raise RequestError(
            f"The request body is a JSON {json_kind(data)}; send one JSON object such as "
            '{"decks": 8}.'
        )
    _check_text(data)
    return data


def _check_text(data: dict[str, Any]) -> None:
    """Refuse a lone surrogate (``"\\ud800"``) anywhere: no UTF-8 text can hold it."""
    stack: list[Any] = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str) and _SURROGATE.search(item):
            raise RequestError(
                f"The request body holds the text {shown(item)}, with a lone surrogate that "
                "is not a character; send Unicode characters only."
            )


def json_kind(value: object) -> str:
    """The JSON name of the type of *value*, as :func:`read_body` gives values.

    Total, so that a check can name any value it refuses: a float (which :func:`read_body`
    never gives, but a row read back by :func:`json.loads` may hold) is a number too.

    >>> json_kind(True), json_kind(8), json_kind(Decimal("0.5")), json_kind(None), json_kind([])
    ('boolean', 'number', 'number', 'null', 'array')
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | Decimal | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"
