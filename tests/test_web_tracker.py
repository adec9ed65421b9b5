"""The tracker's guarantees (issue 20), through the app as a client sees it.

* No other site can change a shoe: a foreign Origin or Host, a cross-site fetch, a form post or
  a text/plain body is refused (403/415/421, one JSON sentence) and the shoe stays as it was.
* Each card is stored in the place it was sent for; a re-sent tap (same key) is stored once.
* Rounds are checked against the table's tableau; a misdeal is recorded as one.
* What a client is told is what the store holds, under racing taps and settings changes, and
  a finished shoe is read-only until reopened.
* No input reaches a 5xx; JSON numbers are exact; a foreign SQLite file is left untouched.
* Every response matches the OpenAPI document's schema for its route and status.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from exactodds import Rules, Shoe, analyze
from exactodds.bets.catalogue import select_bets
from exactodds.numbers import decimal_string
from exactodds.web.app import create_app
from exactodds.web.openapi import openapi_schema
from exactodds.web.security import TOKEN_HEADER
from exactodds.web.store import ForeignDatabaseError

BASE = "http://127.0.0.1:8000"
JSON = {"content-type": "application/json"}


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(":memory:"), base_url=BASE, raise_server_exceptions=False) as made:
        yield made


def new_shoe(client: TestClient, **settings: Any) -> int:
    response = client.post("/api/shoes", json={"name": "T", "settings": {"decks": 1, **settings}})
    assert response.status_code == 201, response.text
    shoe_id: int = response.json()["shoe"]["id"]
    return shoe_id


def events(client: TestClient, shoe_id: int) -> list[dict[str, Any]]:
    listed: list[dict[str, Any]] = client.get(f"/api/shoes/{shoe_id}").json()["events"]
    return listed


# --- Cross-site protection -----------------------------------------------------------------

HOSTILE = [
    ({"origin": "http://evil.example", **JSON}, 403, "A request from the page at"),
    ({"origin": "null", **JSON}, 403, "A request from the page at 'null'"),
    ({"origin": "http://127.0.0.1:9999", **JSON}, 403, "A request from the page at"),
    ({"sec-fetch-site": "cross-site", **JSON}, 403, "A cross-site request"),
    ({"sec-fetch-site": "same-site", **JSON}, 403, "A same-site request"),
    ({"host": "evil.example", **JSON}, 421, "Host 'evil.example' is not an address"),
    ({"host": "evil.example:8000", "origin": "http://evil.example:8000", **JSON}, 421, "Host"),
    ({"content-type": "text/plain"}, 415, "The request body was sent as 'text/plain'"),
    ({"content-type": "application/x-www-form-urlencoded"}, 415, "The request body was sent"),
    ({"content-type": "multipart/form-data; boundary=x"}, 415, "The request body was sent"),
    ({}, 415, "The request body was sent without a Content-Type"),
]


@pytest.mark.parametrize(("headers", "status", "starts"), HOSTILE)
def test_curl_style_requests_from_elsewhere_change_nothing(
    client: TestClient, headers: dict[str, str], status: int, starts: str
) -> None:
    shoe_id = new_shoe(client)
    for path, body in [
        (f"/api/shoes/{shoe_id}/cards", b'{"cards": "K"}'),
        (f"/api/shoes/{shoe_id}/rounds", b'{"player": "9K", "banker": "T8"}'),
        (f"/api/shoes/{shoe_id}/next", b"{}"),
        (f"/api/shoes/{shoe_id}/settings", b'{"bets": "tie"}'),
        ("/api/shoes", b'{"name": "theirs"}'),
    ]:
        response = client.post(path, content=body, headers=headers)
        assert response.status_code == status, (path, response.text)
        assert response.json()["error"].startswith(starts)
        assert list(response.json()) == ["error"]
    view = client.get(f"/api/shoes/{shoe_id}").json()
    assert view["events"] == [] and view["shoe"]["settings"]["bets"] == "main"
    assert [shoe["id"] for shoe in client.get("/api/shoes").json()["shoes"]] == [shoe_id]


def test_the_page_itself_and_loopback_names_may_write(client: TestClient) -> None:
    shoe_id = new_shoe(client)
    for host in ("127.0.0.1:8000", "localhost:8000", "[::1]:8000"):
        origin = {"host": host, "origin": f"http://{host}", "sec-fetch-site": "same-origin"}
        response = client.post(f"/api/shoes/{shoe_id}/cards", json={"cards": "K"}, headers=origin)
        assert response.status_code == 200, response.text
    assert len(events(client, shoe_id)) == 3


def test_a_foreign_host_cannot_read_either(client: TestClient) -> None:
    """DNS rebinding: a page on evil.example resolved to 127.0.0.1 reads nothing."""
    response = client.get("/api/shoes", headers={"host": "evil.example"})
    assert response.status_code == 421 and "error" in response.json()


def test_allow_host_requires_the_start_up_token() -> None:
    app = create_app(":memory:", hosts=("192.168.1.20",), token="s3cret")
    with TestClient(app, base_url="http://192.168.1.20:8000") as lan:
        refused = lan.get("/api/shoes")
        assert refused.status_code == 403 and "start-up token" in refused.json()["error"]
        wrong = lan.get("/api/shoes", headers={TOKEN_HEADER: "guess"})
        assert wrong.status_code == 403
        allowed = lan.post("/api/shoes", json={}, headers={TOKEN_HEADER: "s3cret"})
        assert allowed.status_code == 201
        assert lan.get("/").status_code == 200  # the page loads, then sends the token
    with TestClient(app, base_url="http://evil.example:8000") as other:
        assert other.get("/api/shoes", headers={TOKEN_HEADER: "s3cret"}).status_code == 421


def test_a_token_in_the_address_of_a_post_is_refused() -> None:
    """Round five: a token in an address ends in logs; a request that changes something must
    send the header, so ``?token=`` is honoured on a GET (an export link) only."""
    app = create_app(":memory:", token="s3cret")
    with TestClient(app, base_url=BASE) as client:
        refused = client.post("/api/shoes?token=s3cret", json={})
        assert refused.status_code == 403 and "start-up token" in refused.json()["error"]
        assert client.get("/api/shoes?token=s3cret").status_code == 200
        assert client.get("/api/shoes?token=s3cret").json()["shoes"] == []


def test_the_openapi_schema_needs_the_token_when_one_is_set() -> None:
    app = create_app(":memory:", token="s3cret")
    with TestClient(app, base_url=BASE) as client:
        refused = client.get("/openapi.json")
        assert refused.status_code == 403 and list(refused.json()) == ["error"]
        allowed = client.get("/openapi.json", headers={TOKEN_HEADER: "s3cret"})
        assert allowed.status_code == 200 and allowed.json() == openapi_schema()
    with TestClient(create_app(":memory:"), base_url=BASE) as open_client:
        assert open_client.get("/openapi.json").status_code == 200


@pytest.mark.parametrize(
    "origin", ["https://127.0.0.1:8000", "http://127.0.0.1:8000/x", "http://127.0.0.1:8000?a=1"]
)
def test_an_origin_of_another_scheme_or_with_a_path_may_not_write(origin: str) -> None:
    with TestClient(create_app(":memory:"), base_url=BASE) as client:
        headers = {"host": "127.0.0.1:8000", "origin": origin}
        response = client.post("/api/shoes", json={}, headers=headers)
        assert response.status_code == 403
        assert response.json()["error"].startswith("A request from the page at")
        same = {"host": "127.0.0.1:8000", "origin": "http://127.0.0.1:8000"}
        assert client.post("/api/shoes", json={}, headers=same).status_code == 201


def test_too_many_requests_at_once_get_a_json_503() -> None:
    app = create_app(":memory:", max_in_flight=0)
    with TestClient(app, base_url=BASE) as client:
        response = client.get("/api/options")
        assert response.status_code == 503
        assert response.json() == {
            "error": "The tracker is answering too many requests at once; try again."
        }


# --- Places, keys, rounds ------------------------------------------------------------------


def test_each_card_is_stored_in_the_place_it_was_sent_for(client: TestClient) -> None:
    """Taps that arrive out of order (B1 before P1, P2 before B1) still land in their places."""
    shoe_id = new_shoe(client)
    path = f"/api/shoes/{shoe_id}/cards"
    for card, side, place in [("3", "banker", 1), ("9", "player", 2), ("2", "player", 1)]:
        assert client.post(path, json={"cards": card, "as": side, "position": place}).is_success
    view = client.post(path, json={"cards": "4", "as": "banker", "position": 2}).json()
    assert view["state"]["pending"] == {"player": ["2", "9"], "banker": ["3", "4"]}
    assert view["state"]["next"] == {"side": "player", "position": 3}  # the Player's 1 draws
    taken = client.post(path, json={"cards": "K", "as": "player", "position": 2})
    assert taken.status_code == 409
    assert taken.json()["error"] == (
        "Place P2 of this round holds 9 already; undo it first, or tap the next place."
    )


def test_the_state_says_which_place_is_next(client: TestClient) -> None:
    shoe_id = new_shoe(client)
    path = f"/api/shoes/{shoe_id}/cards"
    nexts = []
    for card, side in [("2", "player"), ("3", "banker"), ("3", "player"), ("4", "banker")]:
        nexts.append(client.post(path, json={"cards": card, "as": side}).json()["state"]["next"])
    assert nexts == [
        {"side": "banker", "position": 1},
        {"side": "player", "position": 2},
        {"side": "banker", "position": 2},
        {"side": "player", "position": 3},  # Player 5 draws
    ]
    view = client.post(path, json={"cards": "5", "as": "player"}).json()
    assert view["state"]["next"] is None  # the Banker's 7 stands


def test_a_re_sent_tap_is_stored_once(client: TestClient) -> None:
    shoe_id = new_shoe(client)
    body = {"cards": "K", "as": "player", "position": 1, "key": "tap-1"}
    first = client.post(f"/api/shoes/{shoe_id}/cards", json=body)
    again = client.post(f"/api/shoes/{shoe_id}/cards", json=body)
    assert first.status_code == again.status_code == 200
    assert (
        first.json()["events"]
        == again.json()["events"]
        == [{"kind": "player", "cards": "K", "position": 1}]
    )
    undo = {"key": "undo-1"}
    client.post(f"/api/shoes/{shoe_id}/undo", json=undo)
    client.post(f"/api/shoes/{shoe_id}/cards", json={"cards": "Q", "key": "tap-2"})
    client.post(f"/api/shoes/{shoe_id}/undo", json=undo)  # re-sent: not a second undo
    assert events(client, shoe_id) == [{"kind": "card", "cards": "Q"}]
    other = new_shoe(client)  # a key is a shoe's own: the same key elsewhere is a new tap
    assert client.post(f"/api/shoes/{other}/cards", json=body).status_code == 200
    assert len(events(client, other)) == 1


THE_THREE = [
    # Player 8 7 against Banker K T with no third card.
    (
        "87",
        "KT",
        "The Player's first two cards total 5, so the Player draws a third card; the Player's "
        "third card is missing. Enter it, or mark the round as a misdeal.",
    ),
    # A natural that drew.
    (
        "8A5",
        "KT",
        "The Player's first two cards total 9, a natural, so neither hand draws; the Player's "
        "third card is extra. Remove it, or mark the round as a misdeal.",
    ),
    # Player 2 3 against Banker 7 7, both standing.
    (
        "23",
        "77",
        "The Player's first two cards total 5, so the Player draws a third card; the Player's "
        "third card is missing. Enter it, or mark the round as a misdeal.",
    ),
]


@pytest.mark.parametrize(("player", "banker", "sentence"), THE_THREE)
def test_the_rounds_that_break_the_rules_are_refused(
    client: TestClient, player: str, banker: str, sentence: str
) -> None:
    shoe_id = new_shoe(client)
    round_ = {"player": player, "banker": banker}
    response = client.post(f"/api/shoes/{shoe_id}/rounds", json=round_)
    assert response.status_code == 422 and response.json() == {"error": sentence}
    assert events(client, shoe_id) == []
    # Card by card, the end of the round is refused the same way, and the cards stay pending.
    path = f"/api/shoes/{shoe_id}/cards"
    for place, (p_card, b_card) in enumerate(zip(player[:2], banker[:2], strict=True), start=1):
        client.post(path, json={"cards": p_card, "as": "player", "position": place})
        client.post(path, json={"cards": b_card, "as": "banker", "position": place})
    for card in player[2:]:
        client.post(path, json={"cards": card, "as": "player", "position": 3})
    ended = client.post(f"/api/shoes/{shoe_id}/rounds", json={})
    assert ended.status_code == 422 and ended.json() == {"error": sentence}
    # Marked as a misdeal, it is recorded: the cards leave the shoe, no result is scored.
    misdeal = client.post(f"/api/shoes/{shoe_id}/rounds", json={"misdeal": True}).json()
    assert misdeal["state"]["misdeals"] == 1 and misdeal["state"]["bead_plate"] == []
    assert misdeal["state"]["cards_dealt"] == len(player) + len(banker)


def test_a_round_that_follows_the_rules_is_scored(client: TestClient) -> None:
    shoe_id = new_shoe(client)
    view = client.post(
        f"/api/shoes/{shoe_id}/rounds", json={"player": "235", "banker": "774"}
    ).json()
    # Player 2 3 draws a 5 (0); Banker 7 7 (4) draws against a 5: a 4, for 8.
    assert view["state"]["rounds"][0] == {
        "player": ["2", "3", "5"],
        "banker": ["7", "7", "4"],
        "player_total": 0,
        "banker_total": 8,
        "winner": "banker",
    }


# --- One source of truth -------------------------------------------------------------------


def bet_names(selection: str) -> set[str]:
    return {bet.name for bet in select_bets(selection, Rules())}


def test_settings_racing_taps_never_disagree_with_what_a_client_was_told(tmp_path: Path) -> None:
    """Threads tap Ks and change the settings (some changes invalid) at once on a 1-deck shoe."""
    app = create_app(tmp_path / "race.sqlite3")
    with TestClient(app, base_url=BASE, raise_server_exceptions=False) as client:
        shoe_id = new_shoe(client, bets="main")
        answers: list[tuple[str, int, dict[str, Any]]] = []
        lock = threading.Lock()
        choices = ["tie", "main,dragon7", "dragon8", "banker"]

        def act(number: int) -> None:
            if number % 3 == 0:
                body: dict[str, Any] = {"bets": choices[number % 4]}
                response = client.post(f"/api/shoes/{shoe_id}/settings", json=body)
                kind = "settings"
            else:
                body = {"cards": "K", "key": f"k{number}"}
                response = client.post(f"/api/shoes/{shoe_id}/cards", json=body)
                kind = "card"
            with lock:
                answers.append((kind, response.status_code, response.json()))

        with ThreadPoolExecutor(8) as pool:
            list(pool.map(act, range(36)))
        assert {status for _, status, _ in answers} <= {200, 422}
        stored = client.get(f"/api/shoes/{shoe_id}").json()
        told = [answer for kind, status, answer in answers if kind == "card" and status == 200]
        assert len(stored["events"]) == len(told) == 4
        assert stored["state"]["cards_left"]["K"] == 0
        for _, status, answer in answers:
            if status == 200:  # each answer is a shoe that was stored, priced for its own bets
                assert len(answer["events"]) <= 4
                assert set(answer["odds"]["bets"]) == bet_names(answer["shoe"]["settings"]["bets"])
        accepted = {
            a["shoe"]["settings"]["bets"] for k, s, a in answers if k == "settings" and s == 200
        }
        assert stored["shoe"]["settings"]["bets"] in accepted and "dragon8" not in accepted


def test_a_finished_shoe_is_read_only_listed_and_reopenable(client: TestClient) -> None:
    shoe_id = new_shoe(client)
    client.post(f"/api/shoes/{shoe_id}/cards", json={"cards": "K"})
    following = client.post(f"/api/shoes/{shoe_id}/next", json={})
    assert following.status_code == 201 and following.json()["shoe"]["follows"] == shoe_id
    before = client.get(f"/api/shoes/{shoe_id}").json()
    for path, body in [
        ("cards", {"cards": "Q"}),
        ("rounds", {"player": "9K", "banker": "T8"}),
        ("undo", {}),
        ("settings", {"bets": "tie"}),
        ("next", {}),
    ]:
        response = client.post(f"/api/shoes/{shoe_id}/{path}", json=body)
        assert response.status_code == 409, (path, response.text)
        assert response.json()["error"].startswith(
            f"Shoe {shoe_id} is finished, so it is read-only"
        )
    assert client.get(f"/api/shoes/{shoe_id}").json() | {"odds_ms": 0} == before | {"odds_ms": 0}
    listed = client.get("/api/shoes?finished=1").json()["shoes"]
    assert [shoe["finished_at"] is not None for shoe in listed] == [True, False]
    reopened = client.post(f"/api/shoes/{shoe_id}/reopen", json={})
    assert reopened.status_code == 200 and reopened.json()["shoe"]["finished_at"] is None
    assert client.post(f"/api/shoes/{shoe_id}/undo", json={}).json()["events"] == []


def test_every_table_and_shoe_has_its_own_address(client: TestClient) -> None:
    shoe_id = new_shoe(client)
    page = client.get(f"/shoes/{shoe_id}")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]


# --- Hostile input -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "status"), [("9" * 5000, 422), ("²", 400), ("101", 422), ("-1", 400), ("", 400)]
)
def test_digits_that_once_reached_a_500(client: TestClient, query: str, status: int) -> None:
    shoe_id = new_shoe(client)
    response = client.get(f"/api/shoes/{shoe_id}?digits={query}")
    assert response.status_code == status and "use a whole number from 0 to 100" in response.text


def test_a_lone_surrogate_table_name_is_refused(client: TestClient) -> None:
    response = client.post("/api/shoes", content=b'{"name": "\\ud800"}', headers=JSON)
    assert response.status_code == 400
    assert "lone surrogate" in response.json()["error"]


def test_json_numbers_are_read_as_exact_decimals(client: TestClient) -> None:
    body = b'{"commission": 0.050000000000000000001, "bets": "banker", "digits": 30}'
    response = client.post("/api/odds", content=body, headers=JSON)
    assert response.json()["rules"]["commission"] == "50000000000000000001/1000000000000000000000"
    tracked = client.post(
        "/api/shoes", content=b'{"settings": {"commission": 0.040000000000000000001}}', headers=JSON
    ).json()
    assert tracked["shoe"]["settings"]["commission"] == "0.040000000000000000001"


def test_an_unseen_burn_with_a_card_is_refused_not_dropped(client: TestClient) -> None:
    shoe_id = new_shoe(client)
    response = client.post(f"/api/shoes/{shoe_id}/cards", json={"cards": "K", "as": "unseen"})
    assert response.status_code == 422 and events(client, shoe_id) == []


def test_decks_as_text_is_read_for_tables_as_for_odds(client: TestClient) -> None:
    assert client.post("/api/shoes", json={"settings": {"decks": "8"}}).status_code == 201
    refused = client.post("/api/shoes", json={"settings": {"decks": "80"}})
    assert refused.status_code == 422 and "'decks'" in refused.json()["error"]


def test_api_errors_name_the_json_field(client: TestClient) -> None:
    response = client.post("/api/odds", json={"commission": "2"})
    assert response.status_code == 422
    assert "'commission'" in response.json()["error"] and "--" not in response.json()["error"]


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_foreign_sqlite_file_is_refused_and_left_byte_identical(tmp_path: Path) -> None:
    foreign = tmp_path / "other.sqlite3"
    with sqlite3.connect(foreign) as connection:
        connection.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total TEXT)")
        connection.execute("INSERT INTO invoices (total) VALUES ('12.50')")
    connection.close()
    before = sha256(foreign)
    names_before = sorted(path.name for path in tmp_path.iterdir())
    with pytest.raises(ForeignDatabaseError, match="is not the tracker's"):
        create_app(foreign)
    assert sha256(foreign) == before
    assert sorted(path.name for path in tmp_path.iterdir()) == names_before  # no -wal, no -shm


def test_a_version_1_tracker_file_is_upgraded_in_place(tmp_path: Path) -> None:
    old = tmp_path / "v1.sqlite3"
    with sqlite3.connect(old) as connection:
        connection.executescript(
            "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
            "INSERT INTO meta VALUES ('schema_version', '1');"
            "CREATE TABLE shoes (id INTEGER PRIMARY KEY, name TEXT NOT NULL, settings TEXT NOT "
            "NULL, started_at TEXT NOT NULL, finished_at TEXT, follows INTEGER);"
            "CREATE TABLE events (id INTEGER PRIMARY KEY, shoe_id INTEGER NOT NULL, kind TEXT NOT "
            "NULL, cards TEXT NOT NULL, recorded_at TEXT NOT NULL);"
            "INSERT INTO shoes VALUES (1, 'Old', '{\"decks\": 1}', '2026-01-01', NULL, NULL);"
            "INSERT INTO events VALUES (1, 1, 'player', '9', 'x'), (2, 1, 'banker', 'K', 'x');"
        )
    connection.close()
    with TestClient(create_app(old), base_url=BASE) as client:
        view = client.get("/api/shoes/1").json()
        assert view["events"][0] == {"kind": "player", "cards": "9", "position": 0}
        assert view["state"]["pending"] == {"player": ["9"], "banker": ["K"]}
        added = client.post("/api/shoes/1/cards", json={"cards": "2", "as": "player"}).json()
        assert added["events"][-1]["position"] == 2


def test_pays_are_stored_as_objects_and_rows_stored_as_texts_still_read(tmp_path: Path) -> None:
    """A table's ``pay`` is kept as an object; a row written before (texts) reads alike, and
    shows its pays as the object they mean: the settings are written from the bets read."""
    path = tmp_path / "pays.sqlite3"
    pay = {"dragon7": 30, "lucky6": {"three_card_win": 23}}
    settings = {"decks": 1, "bets": "main,dragon7,lucky6", "pay": pay}
    with TestClient(create_app(path), base_url=BASE) as client:
        made = client.post("/api/shoes", json={"name": "T", "settings": settings}).json()
        assert made["shoe"]["settings"]["pay"] == pay
        odds = made["odds"]
    with sqlite3.connect(path) as connection:
        (stored,) = connection.execute("SELECT settings FROM shoes WHERE id = 1").fetchone()
        assert json.loads(stored)["pay"] == pay
        old = {**json.loads(stored), "pay": ["dragon7=30", "lucky6.three_card_win=23"]}
        connection.execute("UPDATE shoes SET settings = ? WHERE id = 1", (json.dumps(old),))
    connection.close()
    with TestClient(create_app(path), base_url=BASE) as client:
        view = client.get("/api/shoes/1").json()
        assert view["shoe"]["settings"]["pay"] == pay
        assert view["odds"] == odds
        changed = client.post("/api/shoes/1/settings", json={**settings, "pay": {"dragon7": 35}})
        assert changed.json()["shoe"]["settings"]["pay"] == {"dragon7": 35}


# --- Export and import ---------------------------------------------------------------------


def test_a_shoe_exports_as_json_and_csv_and_imports_back(client: TestClient) -> None:
    shoe_id = new_shoe(client, bets="main,dragon7")
    client.post(f"/api/shoes/{shoe_id}/cards", json={"cards": "5", "as": "burn"})
    client.post(f"/api/shoes/{shoe_id}/rounds", json={"player": "9K", "banker": "23"})
    client.post(f"/api/shoes/{shoe_id}/rounds", json={"player": "A", "misdeal": True})
    exported = client.get(f"/api/shoes/{shoe_id}/export")
    assert "attachment" in exported.headers["content-disposition"]
    data = exported.json()
    assert [round_["winner"] for round_ in data["rounds"]] == ["player", "misdeal"]
    csv_text = client.get(f"/api/shoes/{shoe_id}/export?format=csv").text
    assert csv_text.splitlines() == [
        "event,kind,card,position,round,winner",
        "1,burn,5,,1,",
        "2,player,9,1,1,",
        "3,player,K,2,1,",
        "4,banker,2,1,1,",
        "5,banker,3,2,1,",
        "6,end,,,1,player",
        "7,player,A,1,2,",
        "8,misdeal,,,2,misdeal",
    ]
    imported = client.post("/api/shoes/import", json=data)
    assert imported.status_code == 201, imported.text
    copy = imported.json()
    assert copy["shoe"]["id"] != shoe_id and copy["events"] == data["events"]
    assert copy["odds"] == client.get(f"/api/shoes/{shoe_id}").json()["odds"]
    broken = {**data, "events": [*data["events"], {"kind": "card", "cards": "Z"}]}
    assert client.post("/api/shoes/import", json=broken).status_code == 422
    from_csv = client.post(
        "/api/shoes/import",
        json={"format": "csv", "csv": csv_text, "name": "T", "settings": data["settings"]},
    )
    assert from_csv.status_code == 201, from_csv.text
    assert from_csv.json()["events"] == data["events"]
    bad_csv = {"format": "csv", "csv": "kind,card\nplayer,K\n", "settings": {}}
    assert client.post("/api/shoes/import", json=bad_csv).status_code == 400


# --- The OpenAPI document against real answers ---------------------------------------------


def _operation(method: str, path: str) -> dict[str, Any]:
    template = path.split("?")[0]
    parts = template.split("/")
    for candidate, methods in openapi_schema()["paths"].items():
        pattern = candidate.split("/")
        if (
            len(pattern) == len(parts)
            and all(want in (got, "{shoe_id}") for want, got in zip(pattern, parts, strict=True))
            and method in methods
        ):
            operation: dict[str, Any] = methods[method]
            return operation
    raise AssertionError(f"{method.upper()} {template} is not in the OpenAPI document")


def check_against_schema(method: str, path: str, status: int, body: Any, kind: str) -> None:
    from jsonschema import Draft202012Validator

    responses = _operation(method, path)["responses"]
    assert str(status) in responses, f"{method.upper()} {path} answered {status}, not listed"
    content = responses[str(status)].get("content")
    if content is None:
        assert body is None
        return
    media = kind.split(";")[0]
    assert media in content, (path, status, kind)
    Draft202012Validator(content[media]["schema"]).validate(body)


def test_real_answers_match_the_openapi_schemas(client: TestClient) -> None:
    shoe_id = new_shoe(client, suits=True, bets="main,perfect_pair")
    shoe = f"/api/shoes/{shoe_id}"
    requests: list[tuple[str, str, Any, dict[str, str] | None]] = [
        ("get", "/api/options", None, None),
        ("post", "/api/odds", {"decks": 1, "bets": "all"}, None),
        ("post", "/api/odds", {"decks": 0}, None),
        ("post", "/api/odds", {"deck": 1}, None),
        ("post", "/api/odds", {}, {"content-type": "text/plain"}),
        ("post", "/api/odds", {}, {"origin": "http://evil.example"}),
        ("post", "/api/odds", {}, {"host": "evil.example"}),
        ("post", "/api/eor", {"decks": 1, "bets": "tie"}, None),
        ("post", "/api/batch", {"shoes": [{"A": 6}]}, None),
        ("get", "/api/shoes", None, None),
        ("post", "/api/shoes", {"settings": {"decks": 2}}, None),
        ("get", shoe, None, None),
        ("get", f"{shoe}?digits=500", None, None),
        ("get", "/api/shoes/999", None, None),
        ("post", f"{shoe}/cards", {"cards": "KS", "as": "player", "position": 1}, None),
        ("post", f"{shoe}/cards", {"cards": "QS", "as": "player", "position": 1}, None),
        ("post", f"{shoe}/rounds", {}, None),
        ("post", f"{shoe}/undo", {}, None),
        ("post", f"{shoe}/redo", {}, None),
        ("post", f"{shoe}/undo", {}, None),
        ("post", f"{shoe}/settings", {"bets": "tie"}, None),
        ("post", f"{shoe}/cards", {"cards": "2S", "key": "twice"}, None),
        ("post", f"{shoe}/cards", {"cards": "3S", "key": "twice"}, None),
        ("post", f"{shoe}/redo", {}, None),
        ("get", f"{shoe}/export", None, None),
        ("get", f"{shoe}/export?format=csv", None, None),
        ("post", f"{shoe}/next", {}, None),
        ("post", f"{shoe}/cards", {"cards": "K"}, None),
        ("post", f"{shoe}/reopen", {}, None),
        ("delete", shoe, None, None),
    ]
    for method, path, body, headers in requests:
        response = client.request(method.upper(), path, json=body, headers=headers)
        kind = response.headers.get("content-type", "")
        payload = response.json() if "json" in kind else response.text or None
        check_against_schema(method, path, response.status_code, payload, kind)
    exported = client.get(f"/api/shoes/{new_shoe(client)}/export").json()
    response = client.post("/api/shoes/import", json=exported)
    check_against_schema(
        "post", "/api/shoes/import", response.status_code, response.json(), "application/json"
    )


def test_the_tracked_odds_are_the_libraries(client: TestClient) -> None:
    shoe_id = new_shoe(client, bets="main,dragon7")
    view = client.post(f"/api/shoes/{shoe_id}/rounds", json={"player": "9K", "banker": "23"}).json()
    expected = analyze(
        Shoe.standard(1).remove("9 K 2 3"), Rules(), select_bets("main,dragon7", Rules())
    )
    assert {name: bet["ev_decimal"] for name, bet in view["odds"]["bets"].items()} == {
        name: decimal_string(bet.expected_value, 6) for name, bet in expected.bets.items()
    }
    assert json.loads(json.dumps(view)) == view


def test_the_openapi_bodies_name_the_fields_the_readers_take() -> None:
    """exactodds.web.fields is the one list; the OpenAPI document describes exactly it."""
    from exactodds.web import fields

    paths = openapi_schema()["paths"]

    def properties(path: str) -> set[str]:
        body = paths[path]["post"]["requestBody"]["content"]["application/json"]["schema"]
        return set(body["properties"])

    assert properties("/api/odds") == set(fields.ODDS_FIELDS)
    assert properties("/api/eor") == set(fields.EOR_FIELDS)
    assert properties("/api/batch") == set(fields.BATCH_FIELDS)
    assert properties("/api/shoes") == set(fields.CREATE_FIELDS)
    assert properties("/api/shoes/{shoe_id}/settings") == set(fields.TABLE_FIELDS)
    assert properties("/api/shoes/{shoe_id}/cards") == set(fields.CARD_FIELDS)
    assert properties("/api/shoes/{shoe_id}/rounds") == set(fields.ROUND_FIELDS)


# --- Redo, idempotency keys bound to their request, reliability round four (issue 29) ----------


def test_redo_brings_back_what_undo_took_and_a_new_event_clears_it(client: TestClient) -> None:
    shoe_id = new_shoe(client)
    shoe = f"/api/shoes/{shoe_id}"
    client.post(f"{shoe}/cards", json={"cards": "K", "as": "player", "position": 1})
    client.post(f"{shoe}/cards", json={"cards": "5", "as": "banker", "position": 1})
    stored = events(client, shoe_id)
    client.post(f"{shoe}/undo", json={})
    undone = client.post(f"{shoe}/undo", json={}).json()
    assert undone["events"] == [] and undone["shoe"]["undone"] == stored
    redone = client.post(f"{shoe}/redo", json={"key": "r-1"})
    assert redone.status_code == 200 and redone.json()["events"] == stored[:1]
    again = client.post(f"{shoe}/redo", json={"key": "r-1"})  # re-sent: done once
    assert again.json()["events"] == stored[:1] and again.json()["shoe"]["undone"] == stored[1:]
    assert client.post(f"{shoe}/redo", json={}).json()["events"] == stored
    client.post(f"{shoe}/undo", json={})
    fresh = client.post(f"{shoe}/cards", json={"cards": "9", "as": "banker", "position": 1})
    assert fresh.json()["shoe"]["undone"] == []
    refused = client.post(f"{shoe}/redo", json={})
    assert refused.status_code == 409
    assert refused.json() == {
        "error": f"Shoe {shoe_id} has nothing to redo: no event was undone since the last one "
        "recorded."
    }
    assert events(client, shoe_id)[-1] == {"kind": "banker", "cards": "9", "position": 1}


def test_a_key_sent_again_with_another_body_or_route_is_refused(client: TestClient) -> None:
    shoe_id = new_shoe(client)
    shoe = f"/api/shoes/{shoe_id}"
    body = {"cards": "K", "as": "player", "position": 1, "key": "tap-1"}
    assert client.post(f"{shoe}/cards", json=body).status_code == 200
    sentence = (
        "Key 'tap-1' was sent before with another request (another route or body), so this "
        "one was not done; send a new key with each new request."
    )
    for path, other in [
        ("cards", {**body, "cards": "Q"}),
        ("cards", {**body, "position": 2}),
        ("undo", {"key": "tap-1"}),
        ("redo", {"key": "tap-1"}),
        ("rounds", {"player": "9K", "banker": "T8", "key": "tap-1"}),
        ("next", {"key": "tap-1"}),
    ]:
        response = client.post(f"{shoe}/{path}", json=other)
        assert (response.status_code, response.json()) == (409, {"error": sentence}), path
        check_against_schema(
            "post", f"{shoe}/{path}", 409, response.json(), response.headers["content-type"]
        )
    assert events(client, shoe_id) == [{"kind": "player", "cards": "K", "position": 1}]
    same = client.post(f"{shoe}/cards", json=dict(reversed(body.items())))  # key order aside
    assert same.status_code == 200 and len(same.json()["events"]) == 1


def test_reopening_a_finished_shoe_finishes_the_one_that_followed_it(client: TestClient) -> None:
    first = new_shoe(client)
    second = client.post(f"/api/shoes/{first}/next", json={}).json()["shoe"]["id"]
    client.post(f"/api/shoes/{second}/cards", json={"cards": "K"})
    third = client.post(f"/api/shoes/{second}/next", json={}).json()["shoe"]["id"]
    reopened = client.post(f"/api/shoes/{first}/reopen", json={})
    assert reopened.status_code == 200 and reopened.json()["shoe"]["finished_at"] is None
    listed = {shoe["id"]: shoe for shoe in client.get("/api/shoes?finished=1").json()["shoes"]}
    assert [shoe_id for shoe_id, shoe in listed.items() if shoe["finished_at"] is None] == [first]
    assert listed[second]["events"] == 1  # finished shoes keep their cards
    client.post(f"/api/shoes/{second}/reopen", json={})
    open_now = [shoe["id"] for shoe in client.get("/api/shoes").json()["shoes"]]
    assert open_now == [second] and third not in open_now


@pytest.mark.parametrize("path", ["/api/shoes/" + "9" * 5000, "/shoes/" + "9" * 5000])
def test_a_shoe_id_of_5000_digits_is_no_shoe(client: TestClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code in (200, 404)  # the page itself loads, and then asks the API
    if path.startswith("/api/"):
        assert response.status_code == 404
        assert response.json()["error"].startswith("No tracked shoe has id 99999999999999999999")
    for method in ("POST", "DELETE"):
        answer = client.request(method, path + ("/undo" if method == "POST" else ""), json={})
        assert answer.status_code in (404, 405) and "error" in answer.json()


@pytest.mark.parametrize("position", ["²", "٣", "9" * 5000, "-1", "1.0"])
def test_a_csv_place_that_is_not_an_ascii_digit_is_refused(
    client: TestClient, position: str
) -> None:
    text = f"event,kind,card,position,round,winner\n1,player,K,{position},1,\n"
    response = client.post("/api/shoes/import", json={"format": "csv", "csv": text})
    assert response.status_code in (400, 422)
    assert response.json()["error"].startswith("CSV row 1 is not an event row")


def test_every_write_to_a_full_database_is_one_409_and_nothing_is_stored(tmp_path: Path) -> None:
    app = create_app(tmp_path / "small.sqlite3", max_pages=12)  # SQLite's size cap: a full disk
    with TestClient(app, base_url=BASE, raise_server_exceptions=False) as small:
        shoe_id = new_shoe(small, decks=8)
        answer = None
        for number in range(400):
            answer = small.post(
                f"/api/shoes/{shoe_id}/cards", json={"cards": "A23456789TJQK"[number % 13]}
            )
            if answer.status_code != 200:
                break
        assert answer is not None and answer.status_code == 409
        sentence = answer.json()["error"]
        assert (
            sentence.startswith("The tracker's database is full")
            and "nothing was stored" in sentence
        )
        stored = events(small, shoe_id)
        for path, body in [
            ("cards", {"cards": "K", "key": "full-1"}),
            ("cards", {"cards": "Q", "as": "burn"}),
            ("rounds", {"player": "9K", "banker": "T8"}),
        ]:
            response = small.post(f"/api/shoes/{shoe_id}/{path}", json=body)
            assert (response.status_code, response.json()) == (409, {"error": sentence}), path
        assert events(small, shoe_id) == stored  # and reads still answer
        assert (
            small.post(
                f"/api/shoes/{shoe_id}/cards", json={"cards": "K", "key": "full-1"}
            ).status_code
            == 409
        )


def serve_refusal(*arguments: str) -> tuple[int, str, str]:
    from click.testing import CliRunner

    from exactodds.cli import cli

    result = CliRunner().invoke(cli, ["serve", "--port", "1", *arguments])
    return result.exit_code, result.stdout, result.stderr


def test_serve_refuses_a_database_that_cannot_be_the_trackers_with_exit_1(tmp_path: Path) -> None:
    good = tmp_path / "good.sqlite3"
    create_app(good).state.store.close()
    data = good.read_bytes()
    foreign = tmp_path / "foreign.sqlite3"
    with sqlite3.connect(foreign) as connection:
        connection.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY)")
    connection.close()
    files = {
        foreign: "is not the tracker's (it holds invoices)",
        tmp_path / "notes.txt": "is not an SQLite database",
        tmp_path / "corrupt.sqlite3": "is not an SQLite database",
        tmp_path / "cut.sqlite3": "is not an SQLite database",
    }
    (tmp_path / "notes.txt").write_text("not a database " * 50)
    (tmp_path / "corrupt.sqlite3").write_bytes(data[:100] + b"\xff" * (len(data) - 100))
    (tmp_path / "cut.sqlite3").write_bytes(data[:3000])
    for path, words in files.items():
        before = path.read_bytes()
        status, out, err = serve_refusal("--db", str(path))
        assert (status, out) == (1, "") and words in err and err.count("\n") == 1, path
        assert path.read_bytes() == before


def test_serve_refuses_a_missing_folder_or_a_folder_with_exit_2(tmp_path: Path) -> None:
    missing = tmp_path / "no" / "such" / "folder" / "x.sqlite3"
    status, out, err = serve_refusal("--db", str(missing))
    assert (status, out) == (2, "")
    assert err == (
        f"Error: Cannot keep shoes in '{missing}': the folder '{missing.parent}' does not exist; "
        "create it first, or choose another --db.\n"
    )
    assert not (tmp_path / "no").exists()
    status, out, err = serve_refusal("--db", str(tmp_path))
    assert (status, out) == (2, "") and "is a directory" in err and err.count("\n") == 1
    status, out, err = serve_refusal("--db", "")
    assert (status, out, err) == (
        2,
        "",
        "Error: --db '.' names no file; give a file such as tracker.sqlite3.\n",
    )
