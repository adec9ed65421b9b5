"""The one JSON writer: every command's ``--format json`` and every web API answer.

A command writes an indented document (two spaces, ASCII); the web API answers compact
UTF-8, as Starlette's ``JSONResponse`` writes it.  Both are this function, so the two skins
can never drift apart on how a value is written.

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
from typing import Any

__all__ = ["json_text"]


def json_text(data: Any, *, compact: bool = False) -> str:
    """*data* as JSON text: indented for a command, compact UTF-8 (no NaN) for the web."""
    if compact:
        return json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    return json.dumps(data, indent=2)
