"""The API's OpenAPI 3.1 schema, served at ``/openapi.json`` and shown at ``/docs``.

Written out by hand, next to the options it describes: the request bodies
are the commands' options, the responses the commands' JSON contracts.

>>> schema = openapi_schema()
>>> schema["openapi"], sorted(schema["paths"])[:3]
('3.1.0', ['/api/batch', '/api/eor', '/api/odds'])
"""

from __future__ import annotations

from typing import Any

__all__ = ["openapi_schema"]

_TEXT_OR_NUMBER: dict[str, Any] = {"type": ["string", "number"]}
_TEXTS: dict[str, Any] = {
    "oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]
}

_RULES_OPTIONS: dict[str, Any] = {
    "rules": {
        "type": "string",
        "description": "A shipped rules file by name (banker_as_player, chemin_de_fer_stand, "
        "standard); the API reads no files.",
    },
    "variant": {"type": "string", "enum": ["standard", "ez", "super6"], "default": "standard"},
    "commission": {**_TEXT_OR_NUMBER, "description": "5%, 0.05 or 1/20 (default 5%)."},
    "tie_pays": {**_TEXT_OR_NUMBER, "default": "8", "description": "8, 8:1, 9 ..."},
    "tie_loses": {"type": "boolean", "default": False},
    "bets": {
        **_TEXTS,
        "description": "main, side, all, custom or bet names (GET /api/options lists them).",
    },
    "pay": {
        "oneOf": [
            {"type": "object", "additionalProperties": True},
            _TEXTS,
        ],
        "description": 'Pays to change: {"dragon7": 30, "lucky6": {"three_card_win": 23}} '
        'or ["dragon7=30"].',
    },
    "digits": {"type": "integer", "minimum": 0, "maximum": 100, "default": 10},
}

_SHOE_OPTIONS: dict[str, Any] = {
    "decks": {"type": ["integer", "string"], "description": "A full shoe of N decks (default 8)."},
    "shoe": {
        "oneOf": [
            {"type": "object", "additionalProperties": {"type": "integer"}},
            {"type": "string"},
        ],
        "description": 'The shoe as --shoe reads it: {"A": 32, ..., "K": 32}, per card '
        '{"KS": 8, ...}, or a spec "A=32,...,K=32".',
    },
    "remove": {**_TEXTS, "description": "Cards already dealt: 'A K 7 7 T', AK77T or KS,7H."},
}

_ERROR = {
    "description": "Bad input: one sentence naming the bad value and what is valid.",
    "content": {
        "application/json": {
            "schema": {
                "type": "object",
                "properties": {"error": {"type": "string"}},
                "required": ["error"],
            }
        }
    },
}


def _body(properties: dict[str, Any], example: dict[str, Any]) -> dict[str, Any]:
    return {
        "required": True,
        "content": {
            "application/json": {
                "schema": {
                    "type": "object",
                    "properties": properties,
                    "additionalProperties": False,
                },
                "example": example,
            }
        },
    }


def _answer(description: str) -> dict[str, Any]:
    return {
        "200": {"description": description, "content": {"application/json": {}}},
        "400": _ERROR,
        "413": _ERROR,
        "422": _ERROR,
    }


def _shoe_operation(summary: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    operation: dict[str, Any] = {
        "summary": summary,
        "parameters": [
            {"name": "shoe_id", "in": "path", "required": True, "schema": {"type": "integer"}}
        ],
        "responses": {
            **_answer("The tracked shoe: settings, state, events and odds."),
            "404": _ERROR,
        },
    }
    if body is not None:
        operation["requestBody"] = body
    return operation


def openapi_schema() -> dict[str, Any]:
    """The OpenAPI document of every API route."""
    odds_options = {
        **_SHOE_OPTIONS,
        **_RULES_OPTIONS,
        "known": {**_TEXTS, "description": "Known cards POSITION=CARD: 1=9, P2=KS."},
    }
    eor_options = {
        **_SHOE_OPTIONS,
        **_RULES_OPTIONS,
        "cards": {"type": "integer", "minimum": 1, "maximum": 16, "default": 1},
        "max_tag": {"type": "integer", "minimum": 1, "default": 2},
    }
    batch_options = {
        "shoes": {
            "type": "array",
            "maxItems": 1000,
            "items": {"type": "object", "additionalProperties": {"type": "integer"}},
        },
        **{key: value for key, value in _RULES_OPTIONS.items()},
        "full": {"type": "boolean", "default": False},
    }
    settings_properties: dict[str, Any] = {
        "decks": {"type": "integer", "minimum": 1, "maximum": 16, "default": 8},
        "suits": {"type": "boolean", "default": False},
        **{key: value for key, value in _RULES_OPTIONS.items() if key != "digits"},
    }
    settings = {"type": "object", "properties": settings_properties, "additionalProperties": False}
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "exactodds",
            "version": "1",
            "description": "Exact baccarat odds over HTTP: the same options and the same JSON "
            "as the exactodds command line, and live shoe tracking kept in SQLite.",
        },
        "paths": {
            "/api/odds": {
                "post": {
                    "summary": "exactodds odds --format json",
                    "requestBody": _body(
                        odds_options, {"decks": 6, "remove": "A K 7 7 T", "bets": "banker,tie"}
                    ),
                    "responses": _answer("The same object as exactodds odds --format json."),
                }
            },
            "/api/eor": {
                "post": {
                    "summary": "exactodds eor --format json",
                    "requestBody": _body(eor_options, {"decks": 8, "bets": "tie"}),
                    "responses": _answer("The same object as exactodds eor --format json."),
                }
            },
            "/api/batch": {
                "post": {
                    "summary": "exactodds batch, one result per shoe",
                    "requestBody": _body(batch_options, {"shoes": [{"A": 31, "K": 32}]}),
                    "responses": _answer('{"results": [...]}: batch\'s line for each shoe.'),
                }
            },
            "/api/options": {
                "get": {
                    "summary": "Variants, shipped rules and every bet with its pays",
                    "responses": {"200": {"description": "What the page offers."}},
                }
            },
            "/api/shoes": {
                "get": {
                    "summary": "The tracked shoes (?finished=1 for finished ones too)",
                    "responses": {"200": {"description": '{"shoes": [...]}'}},
                },
                "post": {
                    "summary": "Start tracking a shoe",
                    "requestBody": _body(
                        {"name": {"type": "string", "maxLength": 60}, "settings": settings},
                        {"name": "Table 1", "settings": {"decks": 8, "bets": "main,dragon7"}},
                    ),
                    "responses": {"201": {"description": "The new shoe."}, "400": _ERROR},
                },
            },
            "/api/shoes/{shoe_id}": {
                "get": _shoe_operation("A tracked shoe, with the exact odds of the next round"),
                "delete": {
                    **_shoe_operation("Forget a tracked shoe"),
                    "responses": {"204": {"description": "Forgotten."}, "404": _ERROR},
                },
            },
            "/api/shoes/{shoe_id}/cards": {
                "post": _shoe_operation(
                    "Record cards: dealt (card, player, banker), burnt (burn) or unseen",
                    _body(
                        {
                            "cards": _TEXTS,
                            "as": {
                                "type": "string",
                                "enum": ["card", "player", "banker", "burn", "unseen"],
                            },
                        },
                        {"cards": "K", "as": "player"},
                    ),
                )
            },
            "/api/shoes/{shoe_id}/rounds": {
                "post": _shoe_operation(
                    "Record a whole round, or end the round dealt card by card",
                    _body(
                        {"player": {"type": "string"}, "banker": {"type": "string"}},
                        {"player": "9K", "banker": "55"},
                    ),
                )
            },
            "/api/shoes/{shoe_id}/undo": {"post": _shoe_operation("Forget the last event")},
            "/api/shoes/{shoe_id}/settings": {
                "post": _shoe_operation(
                    "Change the bets, pays or rules", _body(settings_properties, {"bets": "all"})
                )
            },
            "/api/shoes/{shoe_id}/next": {
                "post": _shoe_operation("Finish this shoe and start the next at the table")
            },
        },
    }
