"""The tracker's ASGI app (Starlette): the page, the JSON API and the SQLite store.

Every route is a thin skin over the library: a request body is read by
:mod:`exactodds.web.inputs` (the command line's builders, the command line's
messages), answered by :mod:`exactodds.web.service` (the commands' JSON
contracts) and, for tracked shoes, kept in :mod:`exactodds.web.store`.

Bad input is answered with a JSON object ``{"error": "<one sentence>"}``
and status 400 (not a JSON object, too deep, unknown option), 404 (no such
shoe or route), 413 (body too large) or 422 (a value the command line would
refuse too); never with a stack trace.

>>> from starlette.testclient import TestClient
>>> client = TestClient(create_app(":memory:"))
>>> client.post("/api/odds", json={"decks": 8, "bets": "tie", "digits": 6}).json()["bets"]["tie"]["house_edge_percent"]
'14.3596%'
>>> response = client.post("/api/odds", json={"decks": 0})
>>> response.status_code, response.json()
(422, {'error': 'Number of decks 0 is not valid; use a whole number of at least 1.'})
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Awaitable, Callable, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import MutableHeaders
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from exactodds.bets.bet import Bet
from exactodds.bets.catalogue import MAIN_BET_NAMES, available_bets
from exactodds.cards import parse_cards
from exactodds.errors import ExactOddsError
from exactodds.numbers import fraction_string
from exactodds.rulefiles import shipped_rules_files
from exactodds.rules import Rules, Variant
from exactodds.web.inputs import (
    MAX_BODY_BYTES,
    RequestError,
    batch_settings,
    eor_settings,
    odds_settings,
    read_json,
)
from exactodds.web.openapi import openapi_schema
from exactodds.web.service import batch_data, eor_data, odds_data
from exactodds.web.store import Store, StoredShoe, UnknownShoeError
from exactodds.web.tracker import MAX_DECKS, Event, TableSettings, table_state

__all__ = ["STATIC", "create_app"]

#: The page's files: plain HTML, CSS and JavaScript, no build step.
STATIC = Path(str(resources.files("exactodds.web") / "static"))
#: The most cards one request may record (a round has six).
MAX_CARDS_PER_REQUEST = 64
#: Digits of the decimals the page shows (percentages get two fewer).
PAGE_DIGITS = 6


class BodyTooLarge(RequestError):
    """A request body past the limit (answered with 413)."""


#: The page loads its own files only, and nothing may frame it.
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
    "style-src 'self' 'unsafe-inline'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


class SecurityHeaders:
    """ASGI middleware adding :data:`SECURITY_HEADERS` to every response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    headers.setdefault(name, value)
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _body(request: Request, limit: int) -> dict[str, Any]:
    """The request's JSON object, refused unread past *limit* bytes."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
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
    return read_json(b"".join(chunks), limit)


def _status(error: ExactOddsError) -> int:
    if isinstance(error, BodyTooLarge):
        return 413
    if isinstance(error, RequestError):
        return 400
    if isinstance(error, UnknownShoeError):
        return 404
    return 422


Handler = Callable[[Request], Awaitable[Response]]


def _guarded(handler: Handler) -> Handler:
    """Turn every error bad input can cause into its one-sentence JSON answer."""

    async def guarded(request: Request) -> Response:
        try:
            return await handler(request)
        except ExactOddsError as error:
            return _error(_status(error), str(error))
        except RecursionError:
            return _error(400, "The request nests too deeply to read; send a flatter object.")

    guarded.__name__ = handler.__name__
    guarded.__doc__ = handler.__doc__
    return guarded


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


def create_app(
    db: str | Path,
    custom_bets: Sequence[Bet] = (),
    max_body: int = MAX_BODY_BYTES,
) -> Starlette:
    """The app, keeping tracked shoes in the SQLite file *db* (``":memory:"`` for none).

    *custom_bets* are user-defined bets (``exactodds serve --bet-file``) that
    requests may name as they name the catalogue's bets.
    """
    store = Store(db)
    custom = tuple(custom_bets)

    def shoe_view(stored: StoredShoe, digits: int = PAGE_DIGITS) -> dict[str, Any]:
        state = table_state(stored.settings, stored.events)
        odds: dict[str, Any] | None = None
        odds_error: str | None = None
        started = time.perf_counter()
        try:
            read = odds_settings({**stored.settings.odds_request(), "digits": digits}, custom)
            odds = odds_data(dataclasses.replace(read, shoe=state.shoe))
        except ExactOddsError as error:
            odds_error = str(error)
        return {
            "shoe": {
                **stored.summary(),
                "settings": stored.settings.as_dict(),
            },
            "state": state.as_dict(),
            "events": [{"kind": event.kind, "cards": event.cards} for event in stored.events],
            "odds": odds,
            "odds_error": odds_error,
            "odds_ms": round((time.perf_counter() - started) * 1000, 2),
        }

    def checked(stored: StoredShoe, more: Sequence[Event]) -> None:
        """Refuse *more* events the shoe could not have dealt (replaying them raises)."""
        table_state(stored.settings, (*stored.events, *more))

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    async def docs(request: Request) -> Response:
        return FileResponse(STATIC / "docs.html", media_type="text/html")

    async def schema(request: Request) -> Response:
        return JSONResponse(openapi_schema())

    async def options(request: Request) -> Response:
        """What the page offers: variants, shipped rules, every bet."""
        return JSONResponse(
            {
                "variants": [variant.value for variant in Variant],
                "rules": list(shipped_rules_files()),
                "bets": await run_in_threadpool(_bet_catalogue, custom),
                "max_decks": MAX_DECKS,
            }
        )

    async def odds(request: Request) -> Response:
        data = await _body(request, max_body)
        return JSONResponse(await run_in_threadpool(lambda: odds_data(odds_settings(data, custom))))

    async def eor(request: Request) -> Response:
        data = await _body(request, max_body)
        return JSONResponse(await run_in_threadpool(lambda: eor_data(eor_settings(data, custom))))

    async def batch(request: Request) -> Response:
        data = await _body(request, max_body)
        return JSONResponse(
            await run_in_threadpool(lambda: batch_data(batch_settings(data, custom)))
        )

    def shoe_id(request: Request) -> int:
        value: int = request.path_params["shoe_id"]
        if not 0 < value < 2**63:  # SQLite's integers; no shoe has any other id
            raise UnknownShoeError(f"No tracked shoe has id {value}; GET /api/shoes lists them.")
        return value

    def digits_of(request: Request) -> int:
        text = request.query_params.get("digits", str(PAGE_DIGITS))
        if not text.isdigit() or not 0 <= int(text) <= 100:
            raise RequestError(f"Digits {text!r} is not valid; use a whole number from 0 to 100.")
        return int(text)

    async def list_shoes(request: Request) -> Response:
        finished = request.query_params.get("finished") in ("1", "true")
        shoes = await run_in_threadpool(store.shoes, finished)
        return JSONResponse({"shoes": shoes})

    async def create_shoe(request: Request) -> Response:
        data = await _body(request, max_body)
        for key in data:
            if key not in ("name", "settings"):
                raise RequestError(f"Unknown option {key!r}; use name, settings.")
        name = data.get("name", "Table")
        if not isinstance(name, str):
            raise RequestError("Option 'name' must be a string such as \"Table 1\".")
        raw = data.get("settings", {})
        if not isinstance(raw, dict):
            raise RequestError("Option 'settings' must be an object such as {\"decks\": 8}.")

        def work() -> dict[str, Any]:
            settings = TableSettings.from_data(raw)
            return shoe_view(store.shoe(store.create(name, settings)))

        return JSONResponse(await run_in_threadpool(work), status_code=201)

    async def get_shoe(request: Request) -> Response:
        number, digits = shoe_id(request), digits_of(request)
        return JSONResponse(await run_in_threadpool(lambda: shoe_view(store.shoe(number), digits)))

    async def record_cards(request: Request) -> Response:
        number = shoe_id(request)
        data = await _body(request, max_body)
        for key in data:
            if key not in ("cards", "as"):
                raise RequestError(f"Unknown option {key!r}; use cards, as.")
        kind = data.get("as", "card")
        cards = data.get("cards", "")
        if not isinstance(kind, str) or not isinstance(cards, str | list):
            raise RequestError(
                'Options \'as\' and \'cards\' must be strings, such as {"cards": "K", "as": '
                '"player"}.'
            )
        texts = cards if isinstance(cards, list) else cards.split()
        if len(texts) > MAX_CARDS_PER_REQUEST:
            raise RequestError(
                f"Option 'cards' names {len(texts):,} cards; record at most "
                f"{MAX_CARDS_PER_REQUEST} a request."
            )
        if kind == "unseen":
            events = [Event("unseen")] * max(1, len(texts))
        else:
            if not texts:
                raise RequestError('Option \'cards\' names no card; send one such as "K" or "KS".')
            events = [Event(kind, str(text)) for text in texts]

        def work() -> dict[str, Any]:
            store.append(number, events, checked)
            return shoe_view(store.shoe(number))

        return JSONResponse(await run_in_threadpool(work))

    async def record_round(request: Request) -> Response:
        """A whole round (``player`` and ``banker`` cards), or the end of the one being dealt."""
        number = shoe_id(request)
        data = await _body(request, max_body)
        for key in data:
            if key not in ("player", "banker"):
                raise RequestError(f"Unknown option {key!r}; use player, banker.")
        events: list[Event] = []
        for side in ("player", "banker"):
            value = data.get(side, "")
            if not isinstance(value, str):
                raise RequestError(f'Option {side!r} must be a string of cards such as "9K".')
            events += [Event(side, card.symbol) for card in parse_cards(value, side)]
        events.append(Event("end"))

        def work() -> dict[str, Any]:
            store.append(number, events, checked)
            return shoe_view(store.shoe(number))

        return JSONResponse(await run_in_threadpool(work))

    async def undo(request: Request) -> Response:
        number = shoe_id(request)

        def work() -> dict[str, Any]:
            store.undo(number)
            return shoe_view(store.shoe(number))

        return JSONResponse(await run_in_threadpool(work))

    async def update_settings(request: Request) -> Response:
        number = shoe_id(request)
        data = await _body(request, max_body)

        def work() -> dict[str, Any]:
            stored = store.shoe(number)
            settings = TableSettings.from_data({**stored.settings.as_dict(), **data})
            if stored.events and (
                settings.decks != stored.settings.decks or settings.suits != stored.settings.suits
            ):
                raise RequestError(
                    "The decks and whether suits are tracked are fixed once cards are recorded; "
                    "start a new shoe to change them."
                )
            checked(dataclasses.replace(stored, settings=settings), ())
            store.update(number, settings)
            return shoe_view(store.shoe(number))

        return JSONResponse(await run_in_threadpool(work))

    async def next_shoe(request: Request) -> Response:
        number = shoe_id(request)
        return JSONResponse(
            await run_in_threadpool(lambda: shoe_view(store.shoe(store.finish(number)))),
            status_code=201,
        )

    async def delete_shoe(request: Request) -> Response:
        await run_in_threadpool(store.delete, shoe_id(request))
        return Response(status_code=204)

    async def http_error(request: Request, error: Exception) -> Response:
        assert isinstance(error, HTTPException)
        messages = {
            404: f"No page or API route at {request.url.path}; see /docs for the API.",
            405: f"Method {request.method} is not allowed on {request.url.path}; see /docs.",
        }
        return _error(error.status_code, messages.get(error.status_code, str(error.detail)))

    async def server_error(request: Request, error: Exception) -> Response:
        # A bug of ours, not the user's: say so in one sentence, never with a trace.
        return _error(500, "The server could not answer this request; it has been logged.")

    shoe_path = "/api/shoes/{shoe_id:int}"
    routes = [
        Route("/", page),
        Route("/docs", docs),
        Route("/openapi.json", schema),
        Route("/api/options", options),
        Route("/api/odds", _guarded(odds), methods=["POST"]),
        Route("/api/eor", _guarded(eor), methods=["POST"]),
        Route("/api/batch", _guarded(batch), methods=["POST"]),
        Route("/api/shoes", _guarded(list_shoes), methods=["GET"]),
        Route("/api/shoes", _guarded(create_shoe), methods=["POST"]),
        Route(shoe_path, _guarded(get_shoe), methods=["GET"]),
        Route(shoe_path, _guarded(delete_shoe), methods=["DELETE"]),
        Route(f"{shoe_path}/cards", _guarded(record_cards), methods=["POST"]),
        Route(f"{shoe_path}/rounds", _guarded(record_round), methods=["POST"]),
        Route(f"{shoe_path}/undo", _guarded(undo), methods=["POST"]),
        Route(f"{shoe_path}/settings", _guarded(update_settings), methods=["POST"]),
        Route(f"{shoe_path}/next", _guarded(next_shoe), methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={HTTPException: http_error, Exception: server_error},
        middleware=[Middleware(SecurityHeaders)],
    )
    app.state.store = store
    return app
