"""Two ``exactodds serve`` processes on one database: safe, by SQLite transactions.

What "address in use, choose another --port" leads to: a second server on the same file. Every
write is one ``BEGIN IMMEDIATE`` transaction that re-reads the shoe, so 50 writers split over
the two servers, all tapping a K on a 1-deck shoe at once, store exactly four Ks; the others are
refused with the shoe's own sentence, none gets a 5xx or "database is locked".
"""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")


def start_server(database: Path) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "exactodds", "serve", "--port", "0", "--db", str(database)],
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    first = process.stderr.readline()
    assert first.startswith("Serving the exactodds tracker on http://127.0.0.1:"), first
    return process, first.split(" on ")[1].strip()


@pytest.fixture
def two_servers(tmp_path: Path) -> Iterator[list[str]]:
    database = tmp_path / "shared.sqlite3"
    started = [start_server(database) for _ in range(2)]
    try:
        yield [url for _, url in started]
    finally:
        for process, _ in started:
            process.terminate()
            process.wait(timeout=30)
            assert process.stderr is not None
            process.stderr.close()


def call(url: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        url,
        data=data,
        method="GET" if body is None else "POST",
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def test_fifty_writers_on_two_servers_store_exactly_four_kings(two_servers: list[str]) -> None:
    first, second = two_servers
    status, created = call(first + "api/shoes", {"name": "Shared", "settings": {"decks": 1}})
    assert status == 201
    shoe_id = created["shoe"]["id"]

    def tap(number: int) -> tuple[int, Any]:
        server = two_servers[number % 2]
        return call(f"{server}api/shoes/{shoe_id}/cards", {"cards": "K", "key": f"w{number}"})

    with ThreadPoolExecutor(50) as pool:
        answers = list(pool.map(tap, range(50)))
    statuses = sorted(status for status, _ in answers)
    assert statuses == [200] * 4 + [422] * 46
    for status, body in answers:
        if status != 200:
            assert body == {"error": "Cannot remove 5 K: the shoe holds only 4."}
            assert "locked" not in body["error"]
    for server in (first, second):
        status, view = call(f"{server}api/shoes/{shoe_id}")
        assert status == 200
        assert view["state"]["cards_left"]["K"] == 0 and len(view["events"]) == 4
