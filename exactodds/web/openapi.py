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
    "fee": {
        **_TEXT_OR_NUMBER,
        "description": "A fee on every bet, win or lose: 20%, 0.2 or 1/5 (default none). "
        "EVs stay per unit staked; rtp = (1 + ev) / (1 + fee).",
    },
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
    "decks": {
        "type": ["integer", "string"],
        "description": 'A full shoe of N decks (default 8), or "infinite" (odds: cards drawn '
        "with replacement).",
    },
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

_STRING: dict[str, Any] = {"type": "string"}
_INTEGER: dict[str, Any] = {"type": "integer"}
_NULLABLE_STRING: dict[str, Any] = {"type": ["string", "null"]}


def _object(properties: dict[str, Any], *, extra: bool = True) -> dict[str, Any]:
    """An object schema whose *properties* are all required."""
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": extra,
    }


_RANK_COUNTS = {"type": "object", "additionalProperties": _INTEGER}
_SHOE = _object(
    {
        "cards": {"type": ["integer", "null"]},
        "decks": {"type": ["integer", "string", "null"]},
        "suits_known": {"type": "boolean"},
        "ranks": _RANK_COUNTS,
    }
)
_RULES = _object(
    {
        "tableau": _STRING,
        "variant": _STRING,
        "commission": _STRING,
        "tie_pays": _STRING,
        "ties": {"enum": ["push", "lose"]},
        "banker_six_pays": _NULLABLE_STRING,
    }
)
#: Written only when the table charges a fee, so not required.
_FEE = {**_STRING, "description": "The fee on every bet, present only when one is charged."}
_RULES["properties"]["fee"] = _FEE
_OUTCOME = _object({"count": _INTEGER, "probability": _STRING, "decimal": _STRING})
_BET_RESULT = {
    "type": "object",
    "properties": {
        "computable": {"type": "boolean"},
        "ev": _STRING,
        "ev_decimal": _STRING,
        "rtp": {**_STRING, "description": "(1 + ev) / (1 + fee), exact."},
        "rtp_decimal": _STRING,
    },
    "required": ["computable"],
}
ODDS_SCHEMA = _object(
    {
        "shoe": _SHOE,
        "rules": _RULES,
        "total": _INTEGER,
        "outcomes": {"type": "object", "additionalProperties": _OUTCOME},
        "bets": {"type": "object", "additionalProperties": _BET_RESULT},
    }
)
EOR_SCHEMA = _object(
    {
        "shoe": _SHOE,
        "rules": _RULES,
        "cards_removed": _INTEGER,
        "eor": {"type": "object", "additionalProperties": {"type": "object"}},
        "bets": {"type": "object", "additionalProperties": {"type": "object"}},
        "skipped": {"type": "object"},
        "unavailable": {"type": "object"},
    }
)
#: ``exactodds eor --game dragon-tiger --format json``: the game's effects of removal.
DRAGON_TIGER_EOR_SCHEMA = _object(
    {
        "game": {"const": "dragon-tiger"},
        "shoe": _SHOE,
        "pays": {"type": "object", "additionalProperties": _STRING},
        "cards_removed": _INTEGER,
        "bets": {"type": "object", "additionalProperties": {"type": "object"}},
        "skipped": {"type": "object"},
        "unavailable": {"type": "object"},
    }
)
BATCH_SCHEMA = _object({"results": {"type": "array", "items": {"type": "object"}}})
_GAMES = {"enum": ["baccarat", "dragon-tiger"]}
OPTIONS_SCHEMA = _object(
    {
        "games": {"type": "array", "items": _GAMES},
        "game": {
            **_GAMES,
            "description": "The game the page starts new tables with (serve --game).",
        },
        "variants": {"type": "array", "items": _STRING},
        "rules": {"type": "array", "items": _STRING},
        "bets": {
            "type": "array",
            "items": _object(
                {
                    "name": _STRING,
                    "group": {"enum": ["main", "side", "custom"]},
                    "description": _STRING,
                    "needs_suits": {"type": "boolean"},
                    "pays": {"type": "object", "additionalProperties": _STRING},
                }
            ),
        },
        "dragon_tiger_bets": {
            "type": "array",
            "items": _object(
                {
                    "name": _STRING,
                    "description": _STRING,
                    "needs_suits": {"type": "boolean"},
                    "pay": _STRING,
                }
            ),
        },
        "max_decks": _INTEGER,
    }
)
_SUMMARY_FIELDS: dict[str, Any] = {
    "id": _INTEGER,
    "name": _STRING,
    "game": _GAMES,
    "started_at": _STRING,
    "finished_at": _NULLABLE_STRING,
    "events": _INTEGER,
    "follows": {"type": ["integer", "null"]},
}
SHOES_SCHEMA = _object({"shoes": {"type": "array", "items": _object(_SUMMARY_FIELDS)}})
_SETTINGS = _object(
    {
        "decks": _INTEGER,
        "suits": {"type": "boolean"},
        "variant": _STRING,
        "commission": _NULLABLE_STRING,
        "tie_pays": _STRING,
        "tie_loses": {"type": "boolean"},
        "rules": _NULLABLE_STRING,
        "bets": _STRING,
        "pay": {
            "oneOf": [
                {"type": "object", "additionalProperties": True},
                {"type": "array", "items": _STRING},
            ]
        },
    }
)
_SETTINGS["properties"]["fee"] = _FEE
#: A Dragon Tiger table's settings (``game`` is written for it alone: a baccarat table's
#: settings read as they always have).
_DRAGON_TIGER_SETTINGS = _object(
    {
        "game": {"const": "dragon-tiger"},
        "decks": _INTEGER,
        "suits": {"type": "boolean"},
        "bets": _STRING,
        "pay": _SETTINGS["properties"]["pay"],
    },
    extra=False,
)
_TABLE_SETTINGS = {"oneOf": [_SETTINGS, _DRAGON_TIGER_SETTINGS]}
_SETTINGS["properties"]["game"] = {"const": "baccarat"}
_CARDS = {"type": "array", "items": _STRING}
_BACCARAT_ROUND = _object(
    {
        "player": _CARDS,
        "banker": _CARDS,
        "player_total": _INTEGER,
        "banker_total": _INTEGER,
        "winner": {"enum": ["player", "banker", "tie", "misdeal"]},
    }
)
_DRAGON_TIGER_ROUND = _object(
    {
        "dragon": _NULLABLE_STRING,
        "tiger": _NULLABLE_STRING,
        "winner": {"enum": ["dragon", "tiger", "tie", "misdeal"]},
        "suited_tie": {"type": ["boolean", "null"]},
    }
)
_ROUND = {"oneOf": [_BACCARAT_ROUND, _DRAGON_TIGER_ROUND]}
_SIDES = ["player", "banker", "dragon", "tiger"]
_EVENT = {
    "type": "object",
    "properties": {
        "kind": {
            "enum": [
                "card",
                "player",
                "banker",
                "dragon",
                "tiger",
                "burn",
                "unseen",
                "end",
                "misdeal",
            ]
        },
        "cards": _STRING,
        "position": {"type": "integer", "minimum": 1, "maximum": 3},
    },
    "required": ["kind", "cards"],
    "additionalProperties": False,
}
_STATE = _object(
    {
        "cards_left": _RANK_COUNTS,
        "suits_left": {
            "type": ["object", "null"],
            "additionalProperties": {"type": "object", "additionalProperties": _INTEGER},
        },
        "cards_in_shoe": _INTEGER,
        "cards_dealt": _INTEGER,
        "unseen_burns": _INTEGER,
        "suits_known": {"type": "boolean"},
        "rounds": {"type": "array", "items": _ROUND},
        "misdeals": _INTEGER,
        "pending": {
            "oneOf": [
                _object({"player": _CARDS, "banker": _CARDS}, extra=False),
                _object({"dragon": _CARDS, "tiger": _CARDS}, extra=False),
            ]
        },
        "next": {
            "oneOf": [
                {"type": "null"},
                _object({"side": {"enum": _SIDES}, "position": _INTEGER}),
            ]
        },
        "bead_plate": {"type": "array", "items": {"enum": [*_SIDES, "tie"]}},
        "big_road": {"type": "array", "items": {"type": "object"}},
    }
)
_COUNT = _object(
    {
        "running": _INTEGER,
        "true_decimal": _STRING,
        "tags": _RANK_COUNTS,
        "eor_decimal": {"type": "object", "additionalProperties": _STRING},
    }
)
_BOOLS = {"type": "array", "items": {"type": "boolean"}, "minItems": 10, "maxItems": 10}
_TABLEAU = _object(
    {
        "name": _STRING,
        "natural_totals": {"type": "array", "items": _INTEGER},
        "player_draws": _BOOLS,
        "banker_draws_when_player_stood": _BOOLS,
        "banker_draws": {"type": "array", "items": _BOOLS, "minItems": 10, "maxItems": 10},
    }
)
_DRAGON_TIGER_BET = _object(
    {
        "pay": _STRING,
        "ev": _STRING,
        "ev_decimal": _STRING,
        "house_edge": _STRING,
        "house_edge_decimal": _STRING,
        "house_edge_percent": _STRING,
        "rtp": _STRING,
        "rtp_decimal": _STRING,
        "variance": _STRING,
        "variance_decimal": _STRING,
        "results": {
            "type": "array",
            "items": _object({"result": _STRING, "rounds": _INTEGER, "probability": _STRING}),
        },
    }
)
#: ``exactodds odds --game dragon-tiger --format json``: a Dragon Tiger table's odds.
DRAGON_TIGER_ODDS_SCHEMA = _object(
    {
        "game": {"const": "dragon-tiger"},
        "shoe": _SHOE,
        "pays": {"type": "object", "additionalProperties": _STRING},
        "rounds": _INTEGER,
        "outcomes": {
            "type": "object",
            "additionalProperties": _object(
                {
                    "rounds": {"type": ["integer", "null"]},
                    "probability": _NULLABLE_STRING,
                    "probability_decimal": _NULLABLE_STRING,
                }
            ),
        },
        "bets": {"type": "object", "additionalProperties": _DRAGON_TIGER_BET},
        "unavailable": {"type": "object", "additionalProperties": _STRING},
    }
)
SHOE_VIEW_SCHEMA = _object(
    {
        "shoe": _object(
            {
                **_SUMMARY_FIELDS,
                "settings": _TABLE_SETTINGS,
                "undone": {
                    "type": "array",
                    "items": _EVENT,
                    "description": "The events undone since the last new one, the next to redo "
                    "first.",
                },
            }
        ),
        "tableau": {
            "oneOf": [{"type": "null"}, _TABLEAU],
            "description": "The drawing tableau (null at a Dragon Tiger table).",
        },
        "state": _STATE,
        "events": {"type": "array", "items": _EVENT},
        "odds": {"oneOf": [{"type": "null"}, ODDS_SCHEMA, DRAGON_TIGER_ODDS_SCHEMA]},
        "odds_error": _NULLABLE_STRING,
        "counts": {"type": "object", "additionalProperties": _COUNT},
        "odds_ms": {"type": "number"},
    }
)
EXPORT_SCHEMA = _object(
    {
        "format": {"const": "exactodds-tracker-shoe"},
        "version": {"const": 1},
        "name": _STRING,
        "settings": _TABLE_SETTINGS,
        "started_at": _STRING,
        "finished_at": _NULLABLE_STRING,
        "events": {"type": "array", "items": _EVENT},
        "rounds": {"type": "array", "items": _ROUND},
    }
)
ERROR_SCHEMA = _object({"error": _STRING}, extra=False)

_ERROR_MEANINGS = {
    "400": "The body is not a JSON object of the fields this route reads (a wrong type, an "
    "unknown field).",
    "403": "Sent from another site, or without the start-up token.",
    "404": "No such shoe.",
    "409": "The shoe is finished (read-only), the card's place is filled already, the key was "
    "sent before with another route or body, there is nothing to redo, or the database's disk "
    "is full (nothing was stored).",
    "413": "The body is larger than 256 KiB.",
    "415": "The body was not sent as Content-Type: application/json.",
    "421": "The Host header names an address this tracker does not serve.",
    "422": "A value the command line would refuse too (or a round that breaks the rules).",
    "503": "Too many requests at once, or the database stayed busy; send it again with the same "
    "key.",
}
#: Errors any request may get from the guard in front of every route.
_GUARD = ("403", "421", "503")
_BODY_ERRORS = ("400", "413", "415", "422")


def _json(description: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _responses(success: dict[str, Any], *codes: str) -> dict[str, Any]:
    """*success* (status -> response) and an error response for each of *codes* and the guard's."""
    errors = {
        code: _json(_ERROR_MEANINGS[code], ERROR_SCHEMA) for code in sorted({*codes, *_GUARD})
    }
    return {**success, **errors}


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


_SHOE_ID = [{"name": "shoe_id", "in": "path", "required": True, "schema": {"type": "integer"}}]
_KEY_FIELD = {
    "type": "string",
    "maxLength": 64,
    "description": "An idempotency key, bound to its route and body: a re-sent request with "
    "the same key is done once; the same key with another route or body is refused (409).",
}


def _shoe_write(summary: str, body: dict[str, Any], status: str = "200") -> dict[str, Any]:
    return {
        "summary": summary,
        "parameters": _SHOE_ID,
        "requestBody": body,
        "responses": _responses(
            {status: _json("The shoe as stored after the change.", SHOE_VIEW_SCHEMA)},
            *_BODY_ERRORS,
            "404",
            "409",
        ),
    }


def _stateless(
    summary: str, properties: dict[str, Any], example: dict[str, Any], schema: dict[str, Any]
) -> dict[str, Any]:
    return {
        "post": {
            "summary": summary,
            "requestBody": _body(properties, example),
            "responses": _responses({"200": _json(summary, schema)}, *_BODY_ERRORS),
        }
    }


def _options() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any], dict[str, Any]]:
    odds_options = {
        **_SHOE_OPTIONS,
        **_RULES_OPTIONS,
        "known": {**_TEXTS, "description": "Known cards POSITION=CARD: 1=9, P2=KS."},
        "game": {
            **_GAMES,
            "default": "baccarat",
            "description": "--game: dragon-tiger answers odds --game dragon-tiger's JSON; it "
            "takes decks, shoe, remove, bets, pay and digits, and no baccarat rule.",
        },
    }
    eor_options = {
        **_SHOE_OPTIONS,
        **_RULES_OPTIONS,
        "cards": {"type": "integer", "minimum": 1, "maximum": 16, "default": 1},
        "max_tag": {"type": "integer", "minimum": 1, "default": 2},
        "game": {
            **_GAMES,
            "default": "baccarat",
            "description": "--game: dragon-tiger answers eor --game dragon-tiger's JSON; it "
            "takes decks, shoe, remove, bets, pay, digits, cards and max_tag, and no baccarat "
            "rule.",
        },
    }
    batch_options = {
        "shoes": {
            "type": "array",
            "maxItems": 1000,
            "items": {"type": "object", "additionalProperties": {"type": "integer"}},
        },
        **_RULES_OPTIONS,
        "full": {"type": "boolean", "default": False},
    }
    settings = {
        "game": {
            **_GAMES,
            "default": "baccarat",
            "description": "dragon-tiger: one card to the Dragon, one to the Tiger; it takes "
            'decks, suits, bets (dragon, tiger, tie, suited_tie, big, small) and pay ({"tie": '
            "11}), and no baccarat rule. Fixed once cards are recorded.",
        },
        "decks": {"type": ["integer", "string"], "minimum": 1, "maximum": 16, "default": 8},
        "suits": {"type": "boolean", "default": False},
        **{key: value for key, value in _RULES_OPTIONS.items() if key != "digits"},
    }
    return odds_options, eor_options, batch_options, settings


def _tracker_paths(settings: dict[str, Any]) -> dict[str, Any]:
    settings_object = {"type": "object", "properties": settings, "additionalProperties": False}
    view = _json("The tracked shoe: settings, state, events, odds and counts.", SHOE_VIEW_SCHEMA)
    card_body = _body(
        {
            "cards": _TEXTS,
            "as": {"enum": ["card", "player", "banker", "dragon", "tiger", "burn", "unseen"]},
            "position": {"type": "integer", "minimum": 1, "maximum": 3},
            "key": _KEY_FIELD,
        },
        {"cards": "K", "as": "player", "position": 1, "key": "3f2a-1"},
    )
    round_body = _body(
        {
            "player": _STRING,
            "banker": _STRING,
            "dragon": {**_STRING, "description": "A Dragon Tiger round: the Dragon's one card."},
            "tiger": {**_STRING, "description": "A Dragon Tiger round: the Tiger's one card."},
            "misdeal": {"type": "boolean"},
            "key": _KEY_FIELD,
        },
        {"player": "9K", "banker": "55"},
    )
    empty = _body({"key": _KEY_FIELD}, {})
    return {
        **_collection_paths(settings_object, view),
        "/api/shoes/{shoe_id}/cards": {
            "post": _shoe_write("Record a card in its place: dealt, burnt or unseen", card_body)
        },
        "/api/shoes/{shoe_id}/rounds": {
            "post": _shoe_write(
                "End the round (checked against the tableau unless a misdeal), or record one "
                "whole (a Dragon Tiger round: its two cards; it ends with the second)",
                round_body,
            )
        },
        "/api/shoes/{shoe_id}/undo": {
            "post": _shoe_write("Forget the last event (redo brings it back)", empty)
        },
        "/api/shoes/{shoe_id}/redo": {
            "post": _shoe_write("Record again the event undone last", empty)
        },
        "/api/shoes/{shoe_id}/settings": {
            "post": _shoe_write("Change the bets, pays or rules", _body(settings, {"bets": "all"}))
        },
        "/api/shoes/{shoe_id}/next": {
            "post": _shoe_write("Finish this shoe and start the next at the table", empty, "201")
        },
        "/api/shoes/{shoe_id}/reopen": {
            "post": _shoe_write(
                "Make a finished shoe open again (the open shoe before or after it at its table "
                "is finished: one open shoe per table)",
                empty,
            )
        },
    }


def _collection_paths(settings_object: dict[str, Any], view: dict[str, Any]) -> dict[str, Any]:
    """The list of shoes, a new shoe, an import, one shoe and its export."""
    return {
        "/api/shoes": {
            "get": {
                "summary": "The tracked shoes (?finished=1 for finished ones too)",
                "responses": _responses({"200": _json("The shoes.", SHOES_SCHEMA)}),
            },
            "post": {
                "summary": "Start tracking a shoe",
                "requestBody": _body(
                    {"name": {"type": "string", "maxLength": 60}, "settings": settings_object},
                    {"name": "Table 1", "settings": {"decks": 8, "bets": "main,dragon7"}},
                ),
                "responses": _responses({"201": view}, *_BODY_ERRORS),
            },
        },
        "/api/shoes/import": {
            "post": {
                "summary": "Track a shoe exported by GET /api/shoes/{shoe_id}/export again",
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {
                                "oneOf": [
                                    EXPORT_SCHEMA,
                                    _object(
                                        {
                                            "format": {"const": "csv"},
                                            "csv": _STRING,
                                            "name": _STRING,
                                            "settings": {"type": "object"},
                                        }
                                    ),
                                ]
                            }
                        }
                    },
                },
                "responses": _responses({"201": view}, *_BODY_ERRORS),
            }
        },
        "/api/shoes/{shoe_id}": {
            "get": {
                "summary": "A tracked shoe, with the exact odds of the next round (?digits=0-100)",
                "parameters": _SHOE_ID,
                "responses": _responses({"200": view}, "400", "404", "422"),
            },
            "delete": {
                "summary": "Forget a tracked shoe",
                "parameters": _SHOE_ID,
                "responses": _responses({"204": {"description": "Forgotten."}}, "404"),
            },
        },
        "/api/shoes/{shoe_id}/export": {
            "get": {
                "summary": "Every card and round of a shoe (?format=json or csv)",
                "parameters": _SHOE_ID,
                "responses": _responses(
                    {
                        "200": {
                            "description": "The shoe as JSON, or as CSV (one row per event).",
                            "content": {
                                "application/json": {"schema": EXPORT_SCHEMA},
                                "text/csv": {"schema": {"type": "string"}},
                            },
                        }
                    },
                    "404",
                    "422",
                ),
            }
        },
    }


def openapi_schema() -> dict[str, Any]:
    """The OpenAPI document of every API route."""
    odds_options, eor_options, batch_options, settings = _options()
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "exactodds",
            "version": "2",
            "description": "Exact baccarat odds over HTTP: the same options and the same JSON "
            "as the exactodds command line, and live shoe tracking kept in SQLite. Every "
            'error is {"error": "<one sentence>"}.',
        },
        "paths": {
            "/api/odds": _stateless(
                "The same object as exactodds odds --format json",
                odds_options,
                {"decks": 6, "remove": "A K 7 7 T", "bets": "banker,tie"},
                {"oneOf": [ODDS_SCHEMA, DRAGON_TIGER_ODDS_SCHEMA]},
            ),
            "/api/eor": _stateless(
                "The same object as exactodds eor --format json",
                eor_options,
                {"decks": 8, "bets": "tie"},
                {"oneOf": [EOR_SCHEMA, DRAGON_TIGER_EOR_SCHEMA]},
            ),
            "/api/batch": _stateless(
                "exactodds batch's line for each shoe",
                batch_options,
                {"shoes": [{"A": 31, "K": 32}]},
                BATCH_SCHEMA,
            ),
            "/api/options": {
                "get": {
                    "summary": "Variants, shipped rules and every bet with its pays",
                    "responses": _responses(
                        {"200": _json("What the page offers.", OPTIONS_SCHEMA)}
                    ),
                }
            },
            **_tracker_paths(settings),
        },
    }
