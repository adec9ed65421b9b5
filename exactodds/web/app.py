"""The tracker's ASGI app (Starlette): a route table over module-level handlers.

The handlers live in :mod:`exactodds.web.views` and read their shared state from
``request.app.state`` (``store``, ``custom``, ``max_body``, ``counts``), as datasette's views
do; :class:`~exactodds.web.security.Guard` checks every request first (Host, Origin, JSON
bodies, the start-up token, the load limit).

Bad input is answered with a JSON object ``{"error": "<one sentence>"}`` and status 400 (not
a JSON object, a value of the wrong type, an unknown field), 403 (another site, or no token),
404 (no such shoe or route), 409 (a finished shoe, a place already filled, an idempotency key
sent again with another route or body, nothing to redo, or a database whose disk is full), 413
(body too large), 415 (not sent as JSON), 421 (a foreign Host), 422 (a value the command line
would refuse too) or 503 (too busy: send it again, with the same key); never with a stack
trace.  A full disk is a 409, not a 5xx: nothing is wrong with the request or the server's
code, a blind retry cannot help, and the one who runs the server can act on its sentence.

>>> from starlette.testclient import TestClient
>>> client = TestClient(create_app(":memory:"), base_url="http://127.0.0.1")
>>> client.post("/api/odds", json={"decks": 8, "bets": "tie", "digits": 6}).json()["bets"]["tie"]["house_edge_percent"]
'14.3596%'
>>> response = client.post("/api/odds", json={"commission": "2"})
>>> response.status_code, response.json()["error"][:45]
(422, "Commission '2' for 'commission' is not valid;")
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from importlib import resources
from pathlib import Path

from starlette.applications import Starlette
from starlette.convertors import Convertor, register_url_convertor
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from exactodds.bets.bet import Bet
from exactodds.errors import ExactOddsError
from exactodds.interface import read_game
from exactodds.web import views
from exactodds.web.fields import field_words
from exactodds.web.inputs import table_settings
from exactodds.web.openapi import openapi_schema
from exactodds.web.reader import MAX_BODY_BYTES
from exactodds.web.security import LOOPBACK_HOSTS, MAX_IN_FLIGHT, Guard
from exactodds.web.service import CountTables
from exactodds.web.store import Store
from exactodds.web.views import JSONResponse

__all__ = ["ROUTES", "STATIC", "create_app"]

#: The page's files: plain HTML, CSS and JavaScript, no build step.
STATIC = Path(str(resources.files("exactodds.web") / "static"))


async def page(request: Request) -> Response:
    """The tracker page (``/``, and ``/shoes/{id}`` for a shoe's own address)."""
    return FileResponse(STATIC / "index.html", media_type="text/html")


async def docs(request: Request) -> Response:
    """The API's documentation page."""
    return FileResponse(STATIC / "docs.html", media_type="text/html")


async def schema(request: Request) -> Response:
    """The OpenAPI document."""
    return JSONResponse(openapi_schema())


class _Digits(Convertor[str]):
    """A path segment of ASCII digits, kept as text: :func:`views.shoe_id` reads it, bounded
    (Starlette's ``int`` convertor would call ``int()`` on 5,000 digits and fail)."""

    regex = "[0-9]+"

    def convert(self, value: str) -> str:
        return value

    def to_string(self, value: str) -> str:
        return str(value)


register_url_convertor("digits", _Digits())

SHOE = "/api/shoes/{shoe_id:digits}"
#: Every route: path, handler, methods.
ROUTES = [
    Route("/", page),
    Route("/shoes/{shoe_id:digits}", page),
    Route("/docs", docs),
    Route("/openapi.json", schema),
    Route("/api/options", views.options),
    Route("/api/odds", views.odds, methods=["POST"]),
    Route("/api/eor", views.eor, methods=["POST"]),
    Route("/api/batch", views.batch, methods=["POST"]),
    Route("/api/shoes", views.list_shoes, methods=["GET"]),
    Route("/api/shoes", views.create_shoe, methods=["POST"]),
    Route("/api/shoes/import", views.import_shoe, methods=["POST"]),
    Route(SHOE, views.get_shoe, methods=["GET"]),
    Route(SHOE, views.delete_shoe, methods=["DELETE"]),
    Route(f"{SHOE}/export", views.export_shoe, methods=["GET"]),
    Route(f"{SHOE}/cards", views.record_cards, methods=["POST"]),
    Route(f"{SHOE}/rounds", views.record_round, methods=["POST"]),
    Route(f"{SHOE}/undo", views.undo, methods=["POST"]),
    Route(f"{SHOE}/redo", views.redo, methods=["POST"]),
    Route(f"{SHOE}/settings", views.update_settings, methods=["POST"]),
    Route(f"{SHOE}/next", views.next_shoe, methods=["POST"]),
    Route(f"{SHOE}/reopen", views.reopen_shoe, methods=["POST"]),
    Mount("/static", StaticFiles(directory=STATIC), name="static"),
]


async def domain_error(request: Request, error: Exception) -> Response:
    """An :class:`ExactOddsError` (or a body too deep to read) as its one JSON sentence."""
    if isinstance(error, RecursionError):
        return JSONResponse(
            {"error": "The request nests too deeply to read; send a flatter object."}, 400
        )
    assert isinstance(error, ExactOddsError)
    return JSONResponse({"error": field_words(str(error))}, status_code=views.status_of(error))


async def http_error(request: Request, error: Exception) -> Response:
    """Starlette's 404 and 405, as JSON sentences."""
    assert isinstance(error, HTTPException)
    messages = {
        404: f"No page or API route at {request.url.path[:200]}; see /docs for the API.",
        405: f"Method {request.method} is not allowed on {request.url.path[:200]}; see /docs.",
    }
    return JSONResponse(
        {"error": messages.get(error.status_code, str(error.detail))},
        status_code=error.status_code,
    )


async def server_error(request: Request, error: Exception) -> Response:
    """A bug of ours, not the user's: one sentence, never a trace."""
    return JSONResponse(
        {"error": "The server could not answer this request; it has been logged."}, 500
    )


def create_app(
    db: str | Path,
    custom_bets: Sequence[Bet] = (),
    max_body: int = MAX_BODY_BYTES,
    *,
    hosts: Iterable[str] = LOOPBACK_HOSTS,
    token: str | None = None,
    max_in_flight: int = MAX_IN_FLIGHT,
    latency: float = 0.0,
    max_pages: int | None = None,
    game: str = "baccarat",
) -> Starlette:
    """The app, keeping tracked shoes in the SQLite file *db* (``":memory:"`` for none).

    *custom_bets* are user-defined bets (``exactodds serve --bet-file``) that requests may
    name as they name the catalogue's bets; *hosts* are the names the tracker answers to
    besides the loopback ones, and *token*, when given, is required on every API request.
    *latency* (seconds, for tests) delays every API request, as a slow network would;
    *max_pages* caps the database's size in pages (SQLite's ``max_page_count``; tests use it as
    a full disk). *game* is the game the page starts new tables with (``serve --game``; the
    API's own default stays ``baccarat``).
    """
    custom = tuple(custom_bets)
    game = read_game(game)
    app = Starlette(
        routes=ROUTES,
        exception_handlers={
            ExactOddsError: domain_error,
            RecursionError: domain_error,
            HTTPException: http_error,
            Exception: server_error,
        },
        middleware=[
            Middleware(
                Guard,
                hosts=tuple(hosts),
                token=token,
                max_in_flight=max_in_flight,
                latency=latency,
            )
        ],
    )
    app.state.store = Store(db, lambda data: table_settings(data, custom), max_pages=max_pages)
    app.state.custom = custom
    app.state.max_body = max_body
    app.state.counts = CountTables()
    app.state.game = game
    return app
