"""How the API reads a body: numbers as numbers, one stored form per table, 4xx for the rest.

What these prove:
- a JSON number reaches the library as a number (an int, or an exact Decimal) and an array
  as a list, never as command-line text to be read again (the builders are spied on);
- ``"decks": 8`` and ``"decks": "8"`` are both valid and mean the same table (the command
  line's digits, read as ``odds --decks 8`` reads them); ``8.0`` and ``true`` are not;
- requests that mean the same table store the same settings (the stored settings are
  written from the built Shoe, Rules and bets), and the stored form reads back to itself;
- every hostile body gets one JSON sentence and a 4xx, never a 5xx.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from budget import budgeted
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from exactodds import interface
from exactodds.bets.catalogue import available_bets
from exactodds.web import inputs
from exactodds.web.app import create_app
from exactodds.web.inputs import table_settings

BASE = "http://127.0.0.1:8000"
JSON = {"content-type": "application/json"}


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(":memory:"), base_url=BASE, raise_server_exceptions=False) as made:
        yield made


def post(client: TestClient, path: str, body: bytes | dict[str, Any]) -> Any:
    if isinstance(body, bytes):
        return client.post(path, content=body, headers=JSON)
    return client.post(path, json=body)


# --- Numbers as numbers ----------------------------------------------------------------------


def test_numbers_and_lists_reach_the_library_as_they_are(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The builders the command line calls get JSON's own values: no text in between."""
    calls: dict[str, tuple[Any, ...]] = {}

    def spy(name: str) -> Any:
        real = getattr(interface, name)

        def called(*arguments: Any, **keywords: Any) -> Any:
            calls[name] = arguments
            return real(*arguments, **keywords)

        return called

    for name in ("build_shoe", "build_rules", "build_bets"):
        monkeypatch.setattr(inputs, name, spy(name))
    body = (
        b'{"decks": 8, "commission": 0.050000000000000000001, "tie_pays": 9, '
        b'"bets": ["tie", "dragon7"], "pay": {"dragon7": 30, "big": 0.54}}'
    )
    assert post(client, "/api/odds", body).status_code == 200
    decks = calls["build_shoe"][0]
    variant, commission, tie_pays, tie_loses, _ = calls["build_rules"]
    _, selection, pays = calls["build_bets"]
    assert type(decks) is int and decks == 8
    assert commission == Decimal("0.050000000000000000001") and type(tie_pays) is int
    assert (variant, tie_loses) == ("standard", False)
    assert selection == ("tie", "dragon7"), "an array of bets is never joined into text"
    assert pays == {"dragon7": 30, "big": Decimal("0.54")}


def test_decks_is_a_whole_number_or_its_digits_and_both_mean_the_same(
    client: TestClient,
) -> None:
    """``"decks": "8"`` is valid, as ``--decks 8`` is: the same odds, the same stored table."""
    as_number = post(client, "/api/odds", {"decks": 8, "bets": "tie", "digits": 12})
    as_text = post(client, "/api/odds", {"decks": "8", "bets": "tie", "digits": 12})
    assert as_number.status_code == as_text.status_code == 200
    assert as_number.json() == as_text.json()
    tables = [
        post(client, "/api/shoes", {"settings": {"decks": decks}}).json()["shoe"]["settings"]
        for decks in (6, "6", " 6 ")
    ]
    assert tables[0] == tables[1] == tables[2] and tables[0]["decks"] == 6
    default = post(client, "/api/shoes", {"settings": {"decks": None}}).json()["shoe"]["settings"]
    assert default == post(client, "/api/shoes", {}).json()["shoe"]["settings"]
    assert default["decks"] == 8, "null is the default, for a table as for odds"


@pytest.mark.parametrize(
    ("body", "status", "sentence"),
    [
        (b'{"decks": 8.0}', 422, "Number of decks 8.0 for 'decks' is not valid; use a whole"),
        (b'{"decks": "8.0"}', 422, "Number of decks '8.0' for 'decks' is not valid;"),
        (b'{"decks": 1e1}', 422, "Number of decks 1E+1 for 'decks' is not valid;"),
        (b'{"decks": true}', 400, "Option 'decks' is a JSON boolean; use a whole number"),
        (b'{"decks": [8]}', 400, "Option 'decks' is a JSON array; use a whole number"),
    ],
)
def test_decks_that_are_not_a_whole_number_are_refused_in_one_sentence(
    client: TestClient, body: bytes, status: int, sentence: str
) -> None:
    for path, sent in (("/api/odds", body), ("/api/shoes", b'{"settings": ' + body + b"}")):
        response = post(client, path, sent)
        assert response.status_code == status, response.text
        assert response.json()["error"].startswith(sentence), response.text


def test_exact_numbers_price_as_their_text_does(client: TestClient) -> None:
    """A JSON decimal pay and commission are the values their text on the command line is."""
    as_numbers = post(
        client,
        "/api/odds",
        b'{"commission": 0.04, "tie_pays": 8.5, "bets": "all", "pay": {"big": 0.54}}',
    )
    as_text = post(
        client,
        "/api/odds",
        {"commission": "4%", "tie_pays": "17/2", "bets": "all", "pay": ["big=27/50"]},
    )
    assert as_numbers.status_code == 200, as_numbers.text
    assert as_numbers.json() == as_text.json()


# --- One stored form per table -----------------------------------------------------------------

#: Groups of table settings that mean the same table, each written another way.
SAME_TABLES: list[list[bytes]] = [
    [
        b"{}",
        b'{"decks": "8", "variant": "standard", "commission": "5%", "tie_pays": "8:1", '
        b'"tie_loses": false, "rules": "standard", "bets": "banker,player,tie", "pay": []}',
        b'{"decks": 8, "commission": 0.05, "tie_pays": 8, "bets": ["tie", "main"], "pay": {}}',
    ],
    [b'{"commission": "4%"}', b'{"commission": 0.04}', b'{"commission": "1/25"}'],
    [b'{"tie_pays": 9}', b'{"tie_pays": "9:1"}', b'{"tie_pays": "18/2"}'],
    [
        b'{"bets": "main,dragon7", "pay": {"dragon7": 30}}',
        b'{"bets": ["dragon7", "main"], "pay": ["dragon7=30"]}',
        b'{"bets": "tie,player,banker,dragon7", "pay": {"dragon7": {"win": "30/1"}}}',
        b'{"bets": ["main", "dragon7", "dragon7"], "pay": {"dragon7": 30, "big": 0.54}}',
    ],
    [
        b'{"bets": "lucky6", "pay": {"lucky6": {"three_card_win": 23}}}',
        b'{"bets": ["lucky6"], "pay": ["lucky6.three_card_win=23/1"]}',
    ],
    [b'{"bets": "all"}', b'{"bets": "main,side"}', b'{"bets": ["side", "main"]}'],
    [
        b'{"variant": "ez", "rules": "banker_as_player"}',
        b'{"variant": "ez", "commission": 0, "rules": "banker_as_player", "tie_pays": "8"}',
    ],
]


def stored_settings(path: Path) -> list[str]:
    with sqlite3.connect(path) as connection:
        rows = connection.execute("SELECT settings FROM shoes ORDER BY id").fetchall()
    connection.close()
    return [row[0] for row in rows]


@pytest.mark.parametrize("bodies", SAME_TABLES)
def test_settings_that_mean_the_same_table_are_stored_alike(
    tmp_path: Path, bodies: list[bytes]
) -> None:
    database = tmp_path / "tables.sqlite3"
    with TestClient(create_app(database), base_url=BASE) as client:
        shown = []
        for body in bodies:
            created = post(client, "/api/shoes", b'{"settings": ' + body + b"}")
            assert created.status_code == 201, (body, created.text)
            shown.append(created.json()["shoe"]["settings"])
    assert all(one == shown[0] for one in shown), shown
    stored = stored_settings(database)
    assert len(stored) == len(bodies) and len(set(stored)) == 1, stored


def test_settings_that_mean_other_tables_are_stored_apart(tmp_path: Path) -> None:
    database = tmp_path / "tables.sqlite3"
    with TestClient(create_app(database), base_url=BASE) as client:
        for group in SAME_TABLES:
            assert post(client, "/api/shoes", b'{"settings": ' + group[0] + b"}").status_code == 201
    stored = stored_settings(database)
    assert len(set(stored)) == len(SAME_TABLES), stored


def test_the_stored_form_is_written_from_the_objects() -> None:
    read = table_settings({"decks": "6", "commission": "4%", "bets": ["dragon7", "main"]})
    assert read.to_dict() == {
        "decks": 6,
        "suits": False,
        "variant": "standard",
        "commission": "0.04",
        "tie_pays": "8",
        "tie_loses": False,
        "rules": None,
        "bets": "main,dragon7",
        "pay": [],
    }
    exact = table_settings({"commission": Decimal("0.040000000000000000001"), "tie_pays": "17/3"})
    assert exact.to_dict()["commission"] == "0.040000000000000000001"
    assert exact.to_dict()["tie_pays"] == "17/3"


NAMES = [name for name in available_bets() if name not in ("banker", "player", "tie")]
TABLE_BODIES = st.fixed_dictionaries(
    {},
    optional={
        "decks": st.integers(1, 8) | st.integers(1, 8).map(str),
        "suits": st.booleans(),
        "variant": st.sampled_from(["standard", "ez", "super6"]),
        "tie_pays": st.sampled_from([8, 9, "9:1", Decimal("8.5"), "25/3"]),
        "tie_loses": st.booleans(),
        "rules": st.sampled_from(["standard", "banker_as_player", "chemin_de_fer_stand"]),
        "bets": st.lists(st.sampled_from(["main", "side", *NAMES]), min_size=1, max_size=5),
        "pay": st.sampled_from(
            [
                {"dragon7": 30},
                ["lucky6.three_card_win=23", "big=0.54"],
                {"panda8": Decimal("25.5"), "lucky6": {"two_card_win": "7/3"}},
                {"dragon7": 40},
            ]
        ),
    },
)


@settings(max_examples=60, deadline=None)
@given(TABLE_BODIES)
def test_the_stored_form_reads_back_to_the_same_table(body: dict[str, Any]) -> None:
    """The stored settings are a fixed point: read again, the same objects and the same form."""
    first = table_settings(body)
    stored = json.loads(json.dumps(first.to_dict()))  # what the store keeps: plain JSON
    again = table_settings(stored)
    assert again.to_dict() == first.to_dict() == stored
    assert (again.decks, again.suits, again.rules) == (first.decks, first.suits, first.rules)
    assert [(bet.name, bet.pay_table) for bet in again.bets] == [
        (bet.name, bet.pay_table) for bet in first.bets
    ]


# --- Hostile bodies: one sentence, a 4xx ------------------------------------------------------------

BAD_BODIES: list[tuple[str, bytes, int, str]] = [
    ("/api/odds", b'{"bets": ["tie", 7]}', 400, "Option 'bets' is a JSON number"),
    ("/api/odds", b'{"bets": []}', 422, "The bet selection names no bet"),
    ("/api/odds", b'{"bets": 7}', 400, "Option 'bets' is a JSON number"),
    ("/api/odds", b'{"commission": [5]}', 400, "Option 'commission' is a JSON array"),
    ("/api/odds", b'{"commission": 2}', 422, "Commission 2 for 'commission' is not valid"),
    ("/api/odds", b'{"tie_pays": null}', 400, "Option 'tie_pays' is a JSON null"),
    ("/api/odds", b'{"tie_pays": 0}', 422, "Pay '0' for 'tie_pays' is not valid"),
    ("/api/odds", b'{"variant": 6}', 400, "Option 'variant' is a JSON number; use a string."),
    ("/api/odds", b'{"remove": [10]}', 400, "Option 'remove' is a JSON number"),
    ("/api/odds", b'{"shoe": 8}', 400, "Option 'shoe' is a JSON number"),
    ("/api/odds", b'{"pay": 30}', 400, "Option 'pay' is a JSON number"),
    ("/api/odds", b'{"known": {"1": "K"}}', 400, "Option 'known' is a JSON object"),
    ("/api/odds", b'{"digits": 10.0}', 400, "Option 'digits' is 10.0; use a whole number"),
    ("/api/eor", b'{"cards": 0}', 422, "Option 'cards' is 0; use a whole number from 1 to 16."),
    ("/api/batch", b'{"shoes": []}', 400, "Option 'shoes' is an empty array"),
    ("/api/batch", b'{"shoes": [[1]]}', 400, "Option 'shoes[1]' is a JSON array"),
    ("/api/batch", b'{"shoes": {"A": 6}}', 400, "Option 'shoes' is a JSON object"),
    ("/api/shoes", b'{"name": 7}', 400, "Option 'name' is a JSON number"),
    ("/api/shoes", b'{"settings": []}', 400, "Option 'settings' is a JSON array"),
    ("/api/shoes", b'{"settings": {"suits": 1}}', 400, "Option 'suits' is a JSON number"),
    ("/api/shoes/import", b'{"format": "csv", "csv": 7}', 400, "Option 'csv' is a JSON number"),
    (
        "/api/shoes/import",
        b'{"format": "exactodds-tracker-shoe", "version": 1, "events": [7]}',
        400,
        "Option 'events[1]' is a JSON number",
    ),
    (
        "/api/shoes/import",
        b'{"format": "exactodds-tracker-shoe", "version": 1, '
        b'"events": [{"kind": "card", "cards": "K", "card": "Q"}]}',
        400,
        "Unknown option 'card' in events[1]; use cards, kind, position.",
    ),
    (
        "/api/shoes/import",
        b'{"format": "exactodds-tracker-shoe", "version": 1, '
        b'"events": [{"kind": "player", "cards": "K", "position": "1"}]}',
        400,
        "Option 'events[1].position' is a JSON string",
    ),
]


@pytest.mark.parametrize(("path", "body", "status", "sentence"), BAD_BODIES)
def test_a_value_of_the_wrong_kind_gets_one_sentence(
    client: TestClient, path: str, body: bytes, status: int, sentence: str
) -> None:
    response = post(client, path, body)
    assert response.status_code == status, response.text
    assert list(response.json()) == ["error"]
    message = response.json()["error"]
    assert message.startswith(sentence), message
    assert "\n" not in message and "`" not in message and "--" not in message, message


CARD_BODIES: list[tuple[bytes, int, str]] = [
    (b'{"cards": [9]}', 400, "Option 'cards' is a JSON number"),
    (b'{"cards": 9}', 400, "Option 'cards' is a JSON number"),
    (b'{"cards": "K", "position": "1"}', 400, "Option 'position' is a JSON string"),
    (b'{"cards": "K Q", "position": 1}', 400, "Option 'position' is a place 1 to 3"),
    (b'{"cards": "K", "as": 1}', 400, "Option 'as' is a JSON number"),
    (b'{"cards": "' + b"K " * 65 + b'"}', 400, "Option 'cards' holds 65 cards; record at most"),
    (b'{"cards": "K", "key": "a b"}', 400, "Option 'key' is \"a b\"; use 1 to 64 letters"),
]


@pytest.mark.parametrize(("body", "status", "sentence"), CARD_BODIES)
def test_a_bad_card_body_gets_one_sentence_and_stores_nothing(
    client: TestClient, body: bytes, status: int, sentence: str
) -> None:
    shoe_id = client.post("/api/shoes", json={"settings": {"decks": 1}}).json()["shoe"]["id"]
    response = post(client, f"/api/shoes/{shoe_id}/cards", body)
    assert response.status_code == status, response.text
    assert response.json()["error"].startswith(sentence), response.text
    assert client.get(f"/api/shoes/{shoe_id}").json()["events"] == []


JUNK = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**40), 10**40)
    | st.decimals(allow_nan=False, allow_infinity=False, places=3).map(str).map(Decimal)
    | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=10,
)
EVENT_KEYS = st.sampled_from(["kind", "cards", "position", "other"])
HOSTILE_BODIES = st.one_of(
    st.tuples(
        st.just("/api/shoes/import"),
        st.fixed_dictionaries(
            {"format": st.just("exactodds-tracker-shoe"), "version": st.just(1)},
            optional={
                "events": JUNK | st.lists(st.dictionaries(EVENT_KEYS, JUNK, max_size=3)),
                "settings": JUNK | st.dictionaries(st.sampled_from(["decks", "bets"]), JUNK),
                "name": JUNK,
            },
        ),
    ),
    st.tuples(
        st.just("/api/batch"),
        st.fixed_dictionaries({"shoes": JUNK | st.lists(JUNK, max_size=3)}),
    ),
    st.tuples(
        st.sampled_from(["/api/odds", "/api/shoes/1/cards", "/api/shoes/1/rounds"]),
        st.dictionaries(
            st.sampled_from(["bets", "pay", "cards", "as", "position", "player", "misdeal"]),
            JUNK,
            max_size=3,
        ),
    ),
)


def json_text(value: Any) -> str:
    """*value* as JSON text, a Decimal written as the exact number it is (never a float)."""
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(json_text(item) for item in value) + "]"
    if isinstance(value, dict):
        items = (f"{json.dumps(key)}: {json_text(item)}" for key, item in value.items())
        return "{" + ", ".join(items) + "}"
    return json.dumps(value)


@budgeted(120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(HOSTILE_BODIES)
def test_no_hostile_body_gets_a_5xx(client: TestClient, case: tuple[str, Any]) -> None:
    if not client.get("/api/shoes").json()["shoes"]:
        client.post("/api/shoes", json={"settings": {"decks": 1}})
    path, body = case
    response = client.post(path, content=json_text(body).encode(), headers=JSON)
    assert response.status_code in (200, 201, 400, 409, 413, 422), (body, response.text)
    if response.status_code >= 400:
        answer = response.json()
        assert list(answer) == ["error"] and answer["error"], answer
        assert "\n" not in answer["error"] and "Traceback" not in answer["error"]


def test_a_table_on_a_server_with_bet_files_keeps_its_custom_bets(tmp_path: Path) -> None:
    """The default bets are the main ones and the server's own, as for ``odds``; the stored
    form says so (``main,custom``) and reads back to the same bets after a restart."""
    from exactodds.bets.custom import load_custom_bets

    root = Path(__file__).resolve().parent.parent
    custom = load_custom_bets(root / "examples" / "bets" / "six_bonus.toml", list(available_bets()))
    database = tmp_path / "custom.sqlite3"
    names = ["banker", "player", "tie", *(bet.name for bet in custom)]
    with TestClient(create_app(database, custom), base_url=BASE) as client:
        made = client.post("/api/shoes", json={"settings": {"decks": 1}}).json()
        assert made["shoe"]["settings"]["bets"] == "main,custom"
        assert list(made["odds"]["bets"]) == names
    with TestClient(create_app(database, custom), base_url=BASE) as client:
        assert list(client.get("/api/shoes/1").json()["odds"]["bets"]) == names
