"""What keeps other web pages out: the Host, the Origin, JSON bodies only, a token, a load limit.

The tracker listens on this computer, but any page the user opens in the same browser can send
it requests, and a name that resolves to 127.0.0.1 (DNS rebinding) can even read the answers.
So every request passes :class:`Guard` first:

* ``Host`` must name an address the tracker serves (the loopback names, the ``--host`` it was
  bound to, and each ``--allow-host``), else **421**;
* a request that changes something (any method but GET, HEAD, OPTIONS) must come from the
  tracker's own page: a foreign ``Origin`` (``null`` included; the page's origin is exactly
  ``http://`` and the Host, no other scheme and no path), or no Origin with a
  ``Sec-Fetch-Site`` of ``cross-site`` or ``same-site``, is refused with **403**; and a POST's
  body must be sent as ``Content-Type: application/json`` (which no HTML form and no
  ``no-cors`` fetch can send), else **415**;
* with a start-up token (``--allow-host`` requires one), every API request (``/api/...``, any
  method) and ``/openapi.json`` carries it in an ``X-Exactodds-Token`` header, or, on a GET
  or HEAD only (an export link), as ``?token=`` in its address (the page reads it once from
  the address that ``serve`` printed, then sends the header), else **403**: a token in an
  address ends up in logs and histories, so a request that changes something must send the
  header; the page and ``/docs`` hold no shoe and need no token;
* past :data:`MAX_IN_FLIGHT` requests at once, **503** at once rather than an unbounded queue.

Each refusal is one JSON sentence, ``{"error": "..."}``, as every other error.
"""

from __future__ import annotations

import asyncio
import hmac
from collections.abc import Iterable
from urllib.parse import parse_qs

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from exactodds.report.writer import json_text

__all__ = [
    "LOOPBACK_HOSTS",
    "MAX_IN_FLIGHT",
    "SECURITY_HEADERS",
    "TOKEN_HEADER",
    "Guard",
    "host_name",
]

#: Names of this computer that every tracker answers to.
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
#: Requests served at once; past it the answer is 503.
MAX_IN_FLIGHT = 100
#: The header that carries the start-up token.
TOKEN_HEADER = "x-exactodds-token"
_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
#: Methods whose body must be JSON (DELETE carries none; no form or no-cors fetch can send it).
_BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})
#: The page loads its own files only, and nothing may frame it.
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
    "style-src 'self' 'unsafe-inline'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def host_name(host: str) -> str:
    """The host part of a ``Host`` header value, lower case, without the port or brackets.

    >>> host_name("127.0.0.1:8000"), host_name("[::1]:80"), host_name("Example.COM")
    ('127.0.0.1', '::1', 'example.com')
    """
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


class Guard:
    """ASGI middleware: the checks above, and :data:`SECURITY_HEADERS` on every answer."""

    def __init__(
        self,
        app: ASGIApp,
        hosts: Iterable[str] = LOOPBACK_HOSTS,
        token: str | None = None,
        max_in_flight: int = MAX_IN_FLIGHT,
        latency: float = 0.0,
    ) -> None:
        self.app = app
        self.latency = latency  # a test hook: seconds each API request waits, as on a slow network
        self.hosts = frozenset(host_name(host) for host in (*LOOPBACK_HOSTS, *hosts))
        self.token = token
        self.max_in_flight = max_in_flight
        self.in_flight = 0

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

        refusal = self.refusal(scope)
        if refusal is None and self.in_flight >= self.max_in_flight:
            refusal = (503, "The tracker is answering too many requests at once; try again.")
        if refusal is not None:
            await _answer(send_with_headers, *refusal)
            return
        self.in_flight += 1
        try:
            if self.latency and scope.get("path", "").startswith("/api/"):
                await asyncio.sleep(self.latency)
            await self.app(scope, receive, send_with_headers)
        finally:
            self.in_flight -= 1

    def refusal(self, scope: Scope) -> tuple[int, str] | None:
        """The status and sentence a request is refused with, or ``None`` to serve it."""
        headers = Headers(scope=scope)
        host = headers.get("host", "")
        if host_name(host) not in self.hosts:
            return (
                421,
                f"Host {host[:100]!r} is not an address this tracker serves; open the address "
                "exactodds serve printed, or start it with --allow-host for that name.",
            )
        path: str = scope.get("path", "")
        if self.token is not None and (path.startswith("/api/") or path == "/openapi.json"):
            given = headers.get(TOKEN_HEADER, "")
            if not given and scope["method"] in ("GET", "HEAD"):  # an export link
                given = parse_qs(scope.get("query_string", b"").decode("latin-1")).get(
                    "token", [""]
                )[0]
            if not hmac.compare_digest(given.encode(), self.token.encode()):
                return (
                    403,
                    "This tracker answers requests with its start-up token only: send it in an "
                    "X-Exactodds-Token header (or as ?token= on a GET), or open the address "
                    "exactodds serve printed (it ends in ?token=...).",
                )
        if scope["method"] in _SAFE_METHODS:
            return None
        refusal = _cross_site(headers, host)
        if refusal is None and scope["method"] in _BODY_METHODS:
            refusal = _not_json(headers)
        return refusal


def _cross_site(headers: Headers, host: str) -> tuple[int, str] | None:
    origin = headers.get("origin")
    if origin is not None:
        # The page is served over plain http; an origin is a scheme and a host, no path.
        if origin.strip().lower() != f"http://{host.strip().lower()}":
            return (
                403,
                f"A request from the page at {origin[:100]!r} may not change the tracker; only "
                "the tracker's own page may.",
            )
        return None
    site = headers.get("sec-fetch-site", "").lower()
    if site in ("cross-site", "same-site"):
        return (
            403,
            f"A {site} request may not change the tracker; only the tracker's own page may.",
        )
    return None


def _not_json(headers: Headers) -> tuple[int, str] | None:
    kind = headers.get("content-type", "")
    if kind.split(";", 1)[0].strip().lower() != "application/json":
        shown = f"as {kind[:60]!r}" if kind else "without a Content-Type"
        return (
            415,
            f"The request body was sent {shown}; send JSON with Content-Type: application/json.",
        )
    return None


async def _answer(send: Send, status: int, message: str) -> None:
    body = json_text({"error": message}, compact=True).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
