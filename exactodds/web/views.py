"""The tracker's request handlers: one module-level function per route, datasette style.

Each handler reads what it needs from ``request.app.state`` (the :class:`~exactodds.web.store.Store`,
the server's custom bets, the body limit), reads the body once through
:func:`~exactodds.web.reader.read_body`, checks its values (:mod:`exactodds.web.checks`), hands
the work to the library (in a worker thread, so the event loop keeps answering) and returns
JSON.  Errors are raised, not returned: the app's
exception handlers turn each :class:`~exactodds.errors.ExactOddsError` into its status and one
sentence (see :func:`status_of`).
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from collections.abc import Sequence
from typing import Any

from starlette import responses
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from exactodds.bets.bet import Bet
from exactodds.bets.catalogue import MAIN_BET_NAMES, available_bets
from exactodds.cards import parse_cards
from exactodds.errors import ExactOddsError
from exactodds.numbers import fraction_string
from exactodds.report.writer import json_text
from exactodds.rulefiles import shipped_rules_files
from exactodds.rules import Rules, Variant
from exactodds.web.checks import (
    OptionError,
    check_count,
    check_fields,
    check_flag,
    check_pattern,
    check_texts,
    check_type,
)
from exactodds.web.fields import CARD_FIELDS, CREATE_FIELDS, IMPORT_FIELDS, ROUND_FIELDS
from exactodds.web.inputs import batch_settings, eor_settings, odds_settings, table_settings
from exactodds.web.reader import MAX_BODY_BYTES, RequestError, read_body
from exactodds.web.service import answer, shoe_view
from exactodds.web.store import (
    EXPORT_FORMAT,
    KeyReusedError,
    NothingToRedoError,
    ShoeFinishedError,
    StoreBusyError,
    StoredShoe,
    StoreFullError,
    UnknownShoeError,
)
from exactodds.web.tracker import (
    GAMES,
    HAND_PLACES,
    MAX_DECKS,
    Event,
    PositionTakenError,
    placed_events,
    table_state,
)

__all__ = [
    "BodyTooLarge",
    "JSONResponse",
    "checked",
    "digits_of",
    "export_csv",
    "shoe_id",
    "status_of",
]


class JSONResponse(responses.JSONResponse):
    """A JSON answer, written by the one JSON writer (:func:`~exactodds.report.writer.json_text`)."""

    def render(self, content: Any) -> bytes:
        return json_text(content, compact=True).encode("utf-8")


#: The most cards one request may record (a round has six).
MAX_CARDS_PER_REQUEST = 64
#: Digits of the decimals the page shows (percentages get two fewer).
PAGE_DIGITS = 6
#: An idempotency key: what the page's ``crypto.randomUUID()`` gives, or any short token.
_KEY = re.compile(r"[A-Za-z0-9._:-]{1,64}")
#: What the fields of the tracker's bodies take, said when a value is of another type.
_NAME_VALID = 'a string such as "Table 1"'
_SETTINGS_VALID = 'an object such as {"decks": 8}'
_CARDS_VALID = 'a string such as "K" or "9 K", or an array of cards such as ["9", "K"]'
_EVENT_VALID = 'an object such as {"kind": "player", "cards": "K", "position": 1}'


class BodyTooLarge(RequestError):
    """A request body past the limit (answered with 413)."""


def status_of(error: ExactOddsError) -> int:
    """The HTTP status an error is answered with."""
    for kind, status in (
        (BodyTooLarge, 413),
        (RequestError, 400),
        (UnknownShoeError, 404),
        (ShoeFinishedError, 409),
        (PositionTakenError, 409),
        (KeyReusedError, 409),
        (NothingToRedoError, 409),
        (StoreFullError, 409),
        (StoreBusyError, 503),
    ):
        if isinstance(error, kind):
            return status
    return 422


async def body_of(request: Request) -> dict[str, Any]:
    """The request's JSON object, refused unread past the app's limit."""
    limit: int = getattr(request.app.state, "max_body", MAX_BODY_BYTES)
    declared = request.headers.get("content-length", "")
    if declared.isascii() and declared.isdigit() and len(declared) < 20 and int(declared) > limit:
        raise BodyTooLarge(
            f"The request body has {int(declared):,} bytes; at most {limit:,} are read."
        )
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise BodyTooLarge(
                f"The request body has over {limit:,} bytes; at most {limit:,} are read."
            )
        chunks.append(chunk)
    return read_body(b"".join(chunks), limit)


def _custom(request: Request) -> tuple[Bet, ...]:
    custom: tuple[Bet, ...] = request.app.state.custom
    return custom


def _key(data: dict[str, Any], route: str) -> tuple[str | None, str]:
    """The request's idempotency key, and the fingerprint of its *route* and body it is bound to.

    >>> _key({"key": "k1", "cards": "K"}, "cards") == _key({"cards": "K", "key": "k1"}, "cards")
    True
    >>> _key({"key": "k1", "cards": "K"}, "cards")[1] == _key({"key": "k1"}, "undo")[1]
    False
    >>> _key({"key": "no spaces"}, "undo")
    Traceback (most recent call last):
    ...
    exactodds.web.reader.RequestError: Option 'key' is "no spaces"; use 1 to 64 letters, digits or . _ : -, such as a UUID.
    """
    key = data.get("key")
    if key is not None:
        key = check_pattern(key, _KEY, "key", "1 to 64 letters, digits or . _ : -, such as a UUID")
    body = {name: value for name, value in data.items() if name != "key"}
    text = json.dumps([route, body], sort_keys=True, default=str)
    return key, hashlib.sha256(text.encode()).hexdigest()


def shoe_id(request: Request) -> int:
    """The ``{shoe_id}`` of the path, read from its digits (a 404 sentence for one no shoe can
    have, however many digits it has)."""
    text: str = request.path_params["shoe_id"]
    value = int(text) if len(text) <= 19 else 0
    if not 0 < value < 2**63:  # SQLite's integers; no shoe has any other id
        shown = text if len(text) <= 20 else f"{text[:20]}... ({len(text):,} digits)"
        raise UnknownShoeError(f"No tracked shoe has id {shown}; GET /api/shoes lists them.")
    return value


def digits_of(request: Request) -> int:
    """``?digits=``: a whole number from 0 to 100."""
    text = request.query_params.get("digits", str(PAGE_DIGITS))
    if not (text.isascii() and text.isdigit()):
        raise RequestError(
            f"Digits {text[:20]!r} is not a whole number; use a whole number from 0 to 100."
        )
    if len(text) > 3 or int(text) > 100:
        shown = repr(text) if len(text) <= 20 else f"with {len(text):,} digits"
        raise OptionError(f"Digits {shown} is out of range; use a whole number from 0 to 100.")
    return int(text)


# The stateless API: the commands' JSON ------------------------------------------------------


async def odds(request: Request) -> Response:
    """``POST /api/odds``: what ``exactodds odds --format json`` prints."""
    data, custom = await body_of(request), _custom(request)
    return JSONResponse(await run_in_threadpool(lambda: answer(odds_settings(data, custom))))


async def eor(request: Request) -> Response:
    """``POST /api/eor``: what ``exactodds eor --format json`` prints."""
    data, custom = await body_of(request), _custom(request)
    return JSONResponse(await run_in_threadpool(lambda: answer(eor_settings(data, custom))))


async def batch(request: Request) -> Response:
    """``POST /api/batch``: ``exactodds batch``'s line for each shoe."""
    data, custom = await body_of(request), _custom(request)
    return JSONResponse(await run_in_threadpool(lambda: answer(batch_settings(data, custom))))


def _bet_catalogue(custom: Sequence[Bet]) -> list[dict[str, Any]]:
    custom_names = {bet.name for bet in custom}
    listed = []
    for name, bet in available_bets(Rules(), custom=custom).items():
        group = "main" if name in MAIN_BET_NAMES else "custom" if name in custom_names else "side"
        listed.append(
            {
                "name": name,
                "group": group,
                "description": bet.description,
                "needs_suits": bet.needs_suits,
                "pays": {outcome: fraction_string(pay) for outcome, pay in bet.pay_table.items()},
            }
        )
    return listed


def _dragon_tiger_catalogue() -> list[dict[str, Any]]:
    """Dragon Tiger's bets as the page offers them: name, description, suits, pay to 1."""
    from exactodds.games.dragon_tiger import BET_NAMES, DEFAULT_PAYS, DESCRIPTIONS

    return [
        {
            "name": name,
            "description": DESCRIPTIONS[name],
            "needs_suits": name == "suited_tie",
            "pay": fraction_string(DEFAULT_PAYS[name]),
        }
        for name in BET_NAMES
    ]


async def options(request: Request) -> Response:
    """``GET /api/options``: what the page offers: games, variants, shipped rules, every bet."""
    return JSONResponse(
        {
            "games": list(GAMES),
            "game": getattr(request.app.state, "game", "baccarat"),
            "variants": [variant.value for variant in Variant],
            "rules": list(shipped_rules_files()),
            "bets": await run_in_threadpool(_bet_catalogue, _custom(request)),
            "dragon_tiger_bets": _dragon_tiger_catalogue(),
            "max_decks": MAX_DECKS,
        }
    )


# Tracked shoes ------------------------------------------------------------------------------


def _view(request: Request, stored: StoredShoe, digits: int = PAGE_DIGITS) -> dict[str, Any]:
    return shoe_view(stored, digits, request.app.state.counts)


def checked(stored: StoredShoe, more: Sequence[Event]) -> Sequence[Event]:
    """*more* events with their places filled in, or refused if the shoe could not have dealt
    them (a card it lacks, a place taken, a round that breaks the drawing rules)."""
    placed = placed_events(stored.events, more)
    table_state(stored.settings, (*stored.events, *placed), check_from=len(stored.events))
    return placed


async def list_shoes(request: Request) -> Response:
    """``GET /api/shoes``: the open shoes (``?finished=1``: every shoe)."""
    finished = request.query_params.get("finished") in ("1", "true")
    shoes = await run_in_threadpool(request.app.state.store.shoes, finished)
    return JSONResponse({"shoes": shoes})


async def create_shoe(request: Request) -> Response:
    """``POST /api/shoes``: start tracking a shoe at a table."""
    data = await body_of(request)
    check_fields(data, CREATE_FIELDS)
    name = check_type(data.get("name", "Table"), str, "name", _NAME_VALID)
    raw = check_type(data.get("settings", {}), dict, "settings", _SETTINGS_VALID)
    store, custom = request.app.state.store, _custom(request)

    def work() -> dict[str, Any]:
        return _view(request, store.create(name, table_settings(raw, custom)))

    return JSONResponse(await run_in_threadpool(work), status_code=201)


async def get_shoe(request: Request) -> Response:
    """``GET /api/shoes/{id}``: a shoe, its state and the exact odds of the next round."""
    number, digits = shoe_id(request), digits_of(request)
    store = request.app.state.store
    return JSONResponse(await run_in_threadpool(lambda: _view(request, store.shoe(number), digits)))


def _card_events(data: dict[str, Any]) -> list[Event]:
    check_fields(data, CARD_FIELDS)
    kind = check_type(data.get("as", "card"), str, "as", 'a string such as "player"')
    cards: str | list[Any] = check_type(data.get("cards", ""), (str, list), "cards", _CARDS_VALID)
    texts = check_texts(cards, "cards") if isinstance(cards, list) else tuple(cards.split())
    advice = f"record at most {MAX_CARDS_PER_REQUEST} a request"
    check_count(texts, "cards", MAX_CARDS_PER_REQUEST, "cards", advice)
    position = data.get("position")
    place = f"a place 1 to {HAND_PLACES} in the hand"
    if position is not None:
        check_type(position, int, "position", place)
        if len(texts) != 1:
            raise RequestError(f"Option 'position' is {place}, for one card only.")
    if kind == "unseen":
        if texts:
            raise OptionError(
                'An unseen burn card has no rank to record; send {"as": "unseen"} '
                "without 'cards'."
            )
        return [Event("unseen")]
    if not texts:
        raise RequestError('Option \'cards\' names no card; send one such as "K" or "KS".')
    return [Event(kind, text, position or 0) for text in texts]


async def record_cards(request: Request) -> Response:
    """``POST /api/shoes/{id}/cards``: a card dealt, burnt or unseen, in its place."""
    number = shoe_id(request)
    data = await body_of(request)
    events, (key, fingerprint) = _card_events(data), _key(data, "cards")
    store = request.app.state.store

    def work() -> dict[str, Any]:
        return _view(request, store.append(number, events, checked, key, fingerprint))

    return JSONResponse(await run_in_threadpool(work))


def _round_events(data: dict[str, Any]) -> list[Event]:
    """The events a ``rounds`` body stands for: baccarat's hands and an end (or a misdeal), or
    a Dragon Tiger round, one card each (it ends with its second card; a misdeal voids it).

    Which game's fields were sent is checked against the table's game when the events are.

    >>> [event.kind for event in _round_events({"dragon": "K", "tiger": "5"})]
    ['dragon', 'tiger']
    >>> _round_events({"dragon": "KQ"})
    Traceback (most recent call last):
    ...
    exactodds.web.checks.OptionError: A Dragon Tiger round deals one card to the Dragon, but 'dragon' is "KQ" (2 cards); send one card such as "K".
    """
    sides: list[str] = [side for side in ("dragon", "tiger") if side in data]
    misdeal = check_flag(data.get("misdeal", False), "misdeal")
    if sides and ("player" in data or "banker" in data):
        raise RequestError(
            "A round is baccarat's ('player' and 'banker') or Dragon Tiger's ('dragon' and "
            "'tiger'), not both."
        )
    events: list[Event] = []
    valid = 'a card such as "K"' if sides else 'a string of cards such as "9K"'
    for side in sides or ["player", "banker"]:
        value = check_type(data.get(side, ""), str, side, valid)
        cards = parse_cards(value, f"'{side}'") if value.strip() else ()
        if sides and len(cards) > 1:
            raise OptionError(
                f"A Dragon Tiger round deals one card to the {side.capitalize()}, but "
                f"{side!r} is {json.dumps(value[:20])} ({len(cards)} cards); send one card such "
                'as "K".'
            )
        events += [Event(side, card.symbol) for card in cards]
    if sides and not events and not misdeal:
        raise RequestError(
            "The round names no card; send the Dragon's and the Tiger's, such as {\"dragon\": "
            '"K", "tiger": "5"}.'
        )
    if misdeal:
        events.append(Event("misdeal"))
    elif not sides:
        events.append(Event("end"))
    return events


async def record_round(request: Request) -> Response:
    """``POST /api/shoes/{id}/rounds``: a whole round, or the end of the one being dealt."""
    number = shoe_id(request)
    data = await body_of(request)
    check_fields(data, ROUND_FIELDS)
    events = _round_events(data)
    (key, fingerprint), store = _key(data, "rounds"), request.app.state.store

    def work() -> dict[str, Any]:
        return _view(request, store.append(number, events, checked, key, fingerprint))

    return JSONResponse(await run_in_threadpool(work))


async def undo(request: Request) -> Response:
    """``POST /api/shoes/{id}/undo``: forget the last event (redo brings it back)."""
    number = shoe_id(request)
    data = await body_of(request)
    check_fields(data, ("key",))
    (key, fingerprint), store = _key(data, "undo"), request.app.state.store
    return JSONResponse(
        await run_in_threadpool(lambda: _view(request, store.undo(number, key, fingerprint)))
    )


async def redo(request: Request) -> Response:
    """``POST /api/shoes/{id}/redo``: record again the event undone last."""
    number = shoe_id(request)
    data = await body_of(request)
    check_fields(data, ("key",))
    (key, fingerprint), store = _key(data, "redo"), request.app.state.store

    def work() -> dict[str, Any]:
        return _view(request, store.redo(number, checked, key, fingerprint))

    return JSONResponse(await run_in_threadpool(work))


async def update_settings(request: Request) -> Response:
    """``POST /api/shoes/{id}/settings``: change the bets, pays or rules (the shoe stays)."""
    number = shoe_id(request)
    data = await body_of(request)
    data.pop("key", None)  # a settings change done twice is the same change
    store, custom = request.app.state.store, _custom(request)

    def change(stored: StoredShoe) -> Any:
        before = stored.settings.to_dict()
        if data.get("game", stored.settings.game) != stored.settings.game:
            # Another game: its settings start afresh (the shoe's decks and suits kept).
            before = {"decks": before["decks"], "suits": before["suits"]}
        settings = table_settings({**before, **data}, custom)
        if stored.events and (
            settings.decks != stored.settings.decks
            or settings.suits != stored.settings.suits
            or settings.game != stored.settings.game
        ):
            raise RequestError(
                "The game, the decks and whether suits are tracked are fixed once cards are "
                "recorded; start a new shoe to change them."
            )
        table_state(settings, stored.events)
        return settings

    return JSONResponse(
        await run_in_threadpool(lambda: _view(request, store.update(number, change)))
    )


async def next_shoe(request: Request) -> Response:
    """``POST /api/shoes/{id}/next``: finish this shoe and start the next at the table."""
    number, store = shoe_id(request), request.app.state.store
    data = await body_of(request)
    check_fields(data, ("key",))
    key, fingerprint = _key(data, "next")
    return JSONResponse(
        await run_in_threadpool(lambda: _view(request, store.finish(number, key, fingerprint))),
        status_code=201,
    )


async def reopen_shoe(request: Request) -> Response:
    """``POST /api/shoes/{id}/reopen``: make a finished shoe open again (and finish the open
    shoe before or after it at its table: one open shoe per table)."""
    number, store = shoe_id(request), request.app.state.store
    check_fields(await body_of(request), ("key",))
    return JSONResponse(await run_in_threadpool(lambda: _view(request, store.reopen(number))))


async def delete_shoe(request: Request) -> Response:
    """``DELETE /api/shoes/{id}``: forget a shoe."""
    await run_in_threadpool(request.app.state.store.delete, shoe_id(request))
    return Response(status_code=204)


# Export and import --------------------------------------------------------------------------


def export_csv(stored: StoredShoe) -> str:
    """A shoe as CSV: one row per event, with the round it belongs to and, at its end, the winner."""
    state = table_state(stored.settings, stored.events)
    ends = dict(zip(state.round_ends, state.rounds, strict=True))
    output = io.StringIO()
    writer = csv.writer(output, lineterminator="\n")
    writer.writerow(["event", "kind", "card", "position", "round", "winner"])
    round_number = 1
    for index, event in enumerate(stored.events):
        ended = ends.get(index)
        winner = "" if ended is None else ended.winner
        writer.writerow(
            [index + 1, event.kind, event.cards, event.position or "", round_number, winner]
        )
        if winner:
            round_number += 1
    return output.getvalue()


async def export_shoe(request: Request) -> Response:
    """``GET /api/shoes/{id}/export?format=json|csv``."""
    number, store = shoe_id(request), request.app.state.store
    kind = request.query_params.get("format", "json")
    if kind not in ("json", "csv"):
        raise OptionError(f"Format {kind[:20]!r} is not valid; use json or csv.")
    stored = await run_in_threadpool(store.shoe, number)
    filename = f"shoe-{stored.id}.{kind}"
    disposition = {"Content-Disposition": f'attachment; filename="{filename}"'}
    if kind == "csv":
        text = await run_in_threadpool(export_csv, stored)
        return Response(text, media_type="text/csv; charset=utf-8", headers=disposition)
    return JSONResponse(await run_in_threadpool(stored.to_dict), headers=disposition)


def _imported_events(listed: Any) -> list[Event]:
    listed = check_type(listed, list, "events", "an array of events as the export gives them")
    events = []
    for number, item in enumerate(listed, start=1):
        name = f"events[{number}]"
        item = check_type(item, dict, name, _EVENT_VALID)
        check_fields(item, ("kind", "cards", "position"), within=name)
        kind = check_type(item.get("kind"), str, f"{name}.kind", 'a string such as "player"')
        cards = check_type(item.get("cards", ""), str, f"{name}.cards", 'a string such as "K"')
        position = check_type(item.get("position", 0), int, f"{name}.position", "0 to 3")
        try:
            events.append(Event(kind, cards, position))
        except ExactOddsError as error:
            raise OptionError(f"Event {number}: {error}") from None
    return events


CSV_HEADER = ["event", "kind", "card", "position", "round", "winner"]
#: A CSV row's place in the hand: empty or an ASCII digit (``str.isdigit`` takes ``²`` too).
_CSV_POSITION = re.compile(r"[0-9]?")


def _csv_events(text: Any) -> list[dict[str, Any]]:
    """The events of a CSV export (its ``kind``, ``card`` and ``position`` columns)."""
    text = check_type(text, str, "csv", "the text GET /api/shoes/ID/export?format=csv gives")
    rows = list(csv.reader(io.StringIO(text)))
    if not rows or rows[0] != CSV_HEADER:
        raise RequestError(
            f"The CSV does not start with the export's header {','.join(CSV_HEADER)}."
        )
    events = []
    for number, row in enumerate(rows[1:], start=1):
        if len(row) != len(CSV_HEADER) or not _CSV_POSITION.fullmatch(row[3]):
            raise RequestError(f"CSV row {number} is not an event row of the export.")
        events.append({"kind": row[1], "cards": row[2], "position": int(row[3] or 0)})
    return events


async def import_shoe(request: Request) -> Response:
    """``POST /api/shoes/import``: an exported shoe (JSON, or CSV with its settings) tracked again.

    The body is the JSON export itself, or ``{"format": "csv", "csv": "<the CSV export>",
    "name": ..., "settings": {...}}``.
    """
    data = await body_of(request)
    check_fields(data, IMPORT_FIELDS)
    is_csv = data.get("format") == "csv"
    if not is_csv and (data.get("format") != EXPORT_FORMAT or data.get("version") != 1):
        raise RequestError(
            "The body is not an exported shoe; send what GET /api/shoes/ID/export gives "
            f'("format": "{EXPORT_FORMAT}", "version": 1), or {{"format": "csv", "csv": ...}}.'
        )
    name = check_type(data.get("name", "Imported"), str, "name", _NAME_VALID)
    raw = check_type(data.get("settings", {}), dict, "settings", _SETTINGS_VALID)
    listed = _csv_events(data.get("csv")) if is_csv else data.get("events", [])
    events = _imported_events(listed)
    store, custom = request.app.state.store, _custom(request)

    def work() -> dict[str, Any]:
        settings = table_settings(raw, custom)
        table_state(settings, events, check_from=0)
        return _view(request, store.create(name, settings, events=events))

    return JSONResponse(await run_in_threadpool(work), status_code=201)
