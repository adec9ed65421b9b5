"""Dragon Tiger tables in the tracker (issue 34, item 4): the API, the store and the schema.

A table created with ``"game": "dragon-tiger"`` deals one card to the Dragon and one to the
Tiger. These tests hold its odds three ways on the cards left after real rounds: equal, key for
key, to what ``exactodds odds --game dragon-tiger --format json`` prints for the same remaining
shoe (its EVs compared as Fractions too); equal to a brute force over the ordered pairs of the
physical cards left; and bound by the invariants of any shoe (the outcomes and the results add
up to ``n (n - 1)`` rounds, the cards left to the shoe less the cards dealt, a running count to
its tags summed over the cards dealt). Bad input (a baccarat round, a third card, an unknown
rank, a card the shoe no longer holds, a baccarat setting) gets one JSON sentence and a 4xx,
and changes nothing; every answer matches the OpenAPI document.
"""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from cli_runner import run_ok
from starlette.testclient import TestClient
from test_web_tracker import check_against_schema

from exactodds.cards import RANKS
from exactodds.games.dragon_tiger import dragon_tiger_removal
from exactodds.numbers import decimal_string
from exactodds.shoe import Shoe
from exactodds.web.app import create_app

BASE = "http://127.0.0.1:8000"
SUITS = "SHDC"
RANK_TEXT = [rank.symbol for rank in RANKS]


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(":memory:"), base_url=BASE, raise_server_exceptions=False) as made:
        yield made


def dragon_tiger_table(client: TestClient, **settings: Any) -> dict[str, Any]:
    body = {"name": "DT", "settings": {"game": "dragon-tiger", "decks": 1, **settings}}
    response = client.post("/api/shoes", json=body)
    assert response.status_code == 201, response.text
    view: dict[str, Any] = response.json()
    return view


def deal(client: TestClient, shoe_id: int, seed: int, rounds: int, suits: bool) -> list[str]:
    """*rounds* rounds from a shuffled deck, half by whole round, half card by card."""
    deck = [rank + suit for rank in RANK_TEXT for suit in SUITS]
    random.Random(seed).shuffle(deck)
    dealt = [card if suits else card[0] for card in deck[: 2 * rounds]]
    for number in range(rounds):
        dragon, tiger = dealt[2 * number : 2 * number + 2]
        if number % 2:
            answer = client.post(
                f"/api/shoes/{shoe_id}/rounds", json={"dragon": dragon, "tiger": tiger}
            )
            assert answer.status_code == 200, answer.text
        else:
            for side, card in (("dragon", dragon), ("tiger", tiger)):
                answer = client.post(
                    f"/api/shoes/{shoe_id}/cards", json={"cards": card, "as": side}
                )
                assert answer.status_code == 200, answer.text
    return dealt


def brute_force_evs(cards: list[str], pays: dict[str, Fraction]) -> dict[str, Fraction]:
    """Each bet's EV over every ordered pair of the physical cards left (Dragon, then Tiger)."""
    order = {symbol: index for index, symbol in enumerate(RANK_TEXT)}
    totals = dict.fromkeys(pays, Fraction(0))
    pairs = 0
    for first, dragon in enumerate(cards):
        for second, tiger in enumerate(cards):
            if first == second:
                continue
            pairs += 1
            high, low = order[dragon[0]], order[tiger[0]]
            tie = high == low
            for name, pay in pays.items():
                if name in ("dragon", "tiger"):
                    wins = high > low if name == "dragon" else low > high
                    result = pay if wins else Fraction(-1, 2) if tie else Fraction(-1)
                elif name == "tie":
                    result = pay if tie else Fraction(-1)
                elif name == "suited_tie":
                    result = pay if dragon == tiger else Fraction(-1)
                else:
                    big = high >= order["8"]
                    won = big if name == "big" else high <= order["6"]
                    result = pay if won else Fraction(-1)
                totals[name] += result
    return {name: total / pairs for name, total in totals.items()}


@pytest.mark.parametrize("suits", [False, True], ids=["ranks", "suits"])
def test_the_odds_are_odds_game_dragon_tiger_on_the_cards_left(
    client: TestClient, suits: bool
) -> None:
    shoe_id = dragon_tiger_table(client, suits=suits, pay={"tie": 11})["shoe"]["id"]
    dealt = deal(client, shoe_id, seed=34, rounds=9, suits=suits)
    view = client.get(f"/api/shoes/{shoe_id}").json()
    left = view["state"]["cards_left"]
    if suits:
        shoe = ["--decks", "1", "--remove", " ".join(dealt)]
    else:
        shoe = ["--shoe", ",".join(f"{rank}={count}" for rank, count in left.items())]
    printed = json.loads(
        run_ok(
            "odds",
            "--game",
            "dragon-tiger",
            *shoe,
            "--pay",
            "tie=11",
            "--format",
            "json",
            "--digits",
            "6",
        ).stdout
    )
    odds = view["odds"]
    assert {key: odds[key] for key in ("bets", "outcomes", "rounds", "pays", "unavailable")} == {
        key: printed[key] for key in ("bets", "outcomes", "rounds", "pays", "unavailable")
    }
    assert odds["shoe"]["ranks"] == printed["shoe"]["ranks"]
    assert {name: Fraction(bet["ev"]) for name, bet in odds["bets"].items()} == {
        name: Fraction(bet["ev"]) for name, bet in printed["bets"].items()
    }
    assert ("suited_tie" in odds["bets"]) is suits  # priced only when suits are tracked
    if not suits:
        assert "suits" in odds["unavailable"]["suited_tie"]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_odds_equal_a_brute_force_over_the_physical_cards_left(
    client: TestClient, seed: int
) -> None:
    pays = {"dragon": 1, "tiger": 1, "tie": 8, "suited_tie": 50, "big": 1, "small": 1}
    shoe_id = dragon_tiger_table(client, suits=True, pay={"tie": 8, "small": "9/10"})["shoe"]["id"]
    rounds = random.Random(seed).randrange(5, 24)
    dealt = deal(client, shoe_id, seed=seed, rounds=rounds, suits=True)
    left = [rank + suit for rank in RANK_TEXT for suit in SUITS if rank + suit not in dealt]
    odds = client.get(f"/api/shoes/{shoe_id}").json()["odds"]
    expected = brute_force_evs(
        left, {name: Fraction(pay) for name, pay in pays.items()} | {"small": Fraction(9, 10)}
    )
    assert {name: Fraction(bet["ev"]) for name, bet in odds["bets"].items()} == expected


def test_the_invariants_of_every_answer(client: TestClient) -> None:
    shoe_id = dragon_tiger_table(client, suits=True)["shoe"]["id"]
    client.post(f"/api/shoes/{shoe_id}/cards", json={"as": "unseen"})
    dealt = deal(client, shoe_id, seed=7, rounds=11, suits=True)
    burnt = next(rank + "C" for rank in RANK_TEXT if rank + "C" not in dealt)
    client.post(f"/api/shoes/{shoe_id}/cards", json={"cards": burnt, "as": "burn"})
    view = client.get(f"/api/shoes/{shoe_id}").json()
    state, odds = view["state"], view["odds"]
    cards = sum(state["cards_left"].values())
    assert cards == 52 - state["cards_dealt"] == state["cards_in_shoe"] + state["unseen_burns"]
    assert cards == sum(sum(suits.values()) for suits in state["suits_left"].values())
    outcomes = {name: value["rounds"] for name, value in odds["outcomes"].items()}
    assert odds["rounds"] == cards * (cards - 1)
    assert outcomes["dragon"] + outcomes["tiger"] + outcomes["tie"] == odds["rounds"]
    assert outcomes["big"] + outcomes["seven"] + outcomes["small"] == odds["rounds"]
    assert outcomes["dragon"] == outcomes["tiger"]  # every pair is dealt both ways round
    for bet in odds["bets"].values():
        assert sum(result["rounds"] for result in bet["results"]) == odds["rounds"]
        assert Fraction(bet["rtp"]) == 1 + Fraction(bet["ev"])
    assert len(state["rounds"]) == len(state["bead_plate"]) == 11
    for played in state["rounds"]:
        order = [RANK_TEXT.index(played[side][0]) for side in ("dragon", "tiger")]
        winner = "tie" if order[0] == order[1] else "dragon" if order[0] > order[1] else "tiger"
        assert played["winner"] == winner
        assert played["suited_tie"] is (played["dragon"] == played["tiger"])
    removal = dragon_tiger_removal(Shoe.standard(1), None, None, 1, 2)
    seen = [event["cards"][0] for event in view["events"] if event["cards"]]
    assert set(view["counts"]) == set(odds["bets"])
    for name, count in view["counts"].items():
        tags = dict(removal.counts[name].tags)
        assert count["tags"] == tags
        assert count["running"] == sum(tags[rank] for rank in seen)
        effects = removal.effects[name]
        assert count["eor_decimal"] == {
            rank: decimal_string(effect, 4)
            for rank, effect in effects.items()
            if effect is not None
        }


def one_sentence(response: Any) -> str:
    assert 400 <= response.status_code < 500, response.text
    body = response.json()
    assert list(body) == ["error"]
    error: str = body["error"]
    assert error.endswith((".", ".)")) and "Traceback" not in error
    return error


BAD = [
    ("rounds", {"player": "9K", "banker": "23"}, 422, "This table deals Dragon Tiger"),
    ("rounds", {"dragon": "K", "tiger": "5", "player": "9"}, 400, "A round is baccarat's"),
    ("rounds", {"dragon": "KQ", "tiger": "5"}, 422, "A Dragon Tiger round deals one card"),
    ("rounds", {"dragon": "Z", "tiger": "5"}, 422, "Unknown card 'Z'"),
    ("rounds", {"dragon": "KS", "tiger": "KS"}, 422, "Cannot remove"),
    ("rounds", {}, 422, "A Dragon Tiger round ends by itself"),
    ("rounds", {"misdeal": True}, 422, "No Dragon Tiger round is being dealt"),
    ("rounds", {"dragon": "", "tiger": ""}, 400, "The round names no card"),
    ("cards", {"cards": "9", "as": "player"}, 422, "This table deals Dragon Tiger"),
    ("cards", {"cards": "9", "as": "dragon", "position": 2}, 422, "The Dragon gets one card"),
    ("cards", {"cards": "1", "as": "tiger"}, 422, "Unknown card '1'"),
    ("settings", {"tie_pays": 11}, 422, "Option 'tie_pays' is baccarat's"),
    ("settings", {"bets": "banker"}, 422, "Bet 'banker' in 'bets' is a baccarat bet"),
    ("settings", {"pay": {"tie": 0}}, 422, "Pay '0' for tie in 'pay'"),
    ("settings", {"game": "baccarat"}, 400, "The game, the decks"),
    ("settings", {"game": "poker"}, 422, "Game 'poker' for 'game' is not valid"),
]


@pytest.mark.parametrize(("route", "body", "status", "starts"), BAD)
def test_bad_input_is_one_sentence_and_changes_nothing(
    client: TestClient, route: str, body: dict[str, Any], status: int, starts: str
) -> None:
    shoe_id = dragon_tiger_table(client, suits=True)["shoe"]["id"]
    before = client.post(f"/api/shoes/{shoe_id}/rounds", json={"dragon": "KS", "tiger": "5H"})
    assert before.status_code == 200
    response = client.post(f"/api/shoes/{shoe_id}/{route}", json=body)
    assert response.status_code == status and one_sentence(response).startswith(starts)
    check_against_schema(
        "post", f"/api/shoes/{shoe_id}/{route}", status, response.json(), "application/json"
    )
    after = client.get(f"/api/shoes/{shoe_id}").json()
    assert after["events"] == before.json()["events"]
    assert after["shoe"]["settings"] == before.json()["shoe"]["settings"]


def test_a_dragon_tiger_round_or_setting_at_a_baccarat_table_is_refused(
    client: TestClient,
) -> None:
    made = client.post("/api/shoes", json={"settings": {"decks": 1}}).json()
    shoe = f"/api/shoes/{made['shoe']['id']}"
    refused = client.post(f"{shoe}/rounds", json={"dragon": "K", "tiger": "5"})
    assert one_sentence(refused).startswith("This table deals baccarat")
    assert one_sentence(client.post(f"{shoe}/cards", json={"cards": "K", "as": "tiger"}))
    bad = client.post("/api/shoes", json={"settings": {"game": "dragon-tiger", "variant": "ez"}})
    assert one_sentence(bad).startswith("Option 'variant' is baccarat's")
    # With no card dealt yet, the table may turn into a Dragon Tiger table (its rules dropped).
    turned = client.post(f"{shoe}/settings", json={"game": "dragon-tiger", "pay": ["tie=11"]})
    assert turned.status_code == 200
    assert turned.json()["shoe"]["settings"] == {
        "game": "dragon-tiger",
        "decks": 1,
        "suits": False,
        "bets": "all",
        "pay": {"tie": 11},
    }
    assert turned.json()["tableau"] is None and turned.json()["state"]["next"] == {
        "side": "dragon",
        "position": 1,
    }


def test_undo_reopens_the_round_redo_closes_it_and_new_shoe_keeps_the_game(
    client: TestClient,
) -> None:
    shoe_id = dragon_tiger_table(client, bets="tie,big", pay={"tie": 11})["shoe"]["id"]
    shoe = f"/api/shoes/{shoe_id}"
    view = client.post(f"{shoe}/rounds", json={"dragon": "7", "tiger": "7"}).json()
    assert view["state"]["rounds"] == [
        {"dragon": "7", "tiger": "7", "winner": "tie", "suited_tie": None}
    ]
    undone = client.post(f"{shoe}/undo", json={}).json()
    assert undone["state"]["rounds"] == [] and undone["state"]["pending"] == {
        "dragon": ["7"],
        "tiger": [],
    }
    assert undone["state"]["next"] == {"side": "tiger", "position": 1}
    assert one_sentence(client.post(f"{shoe}/cards", json={"cards": "8", "as": "dragon"}))
    voided = client.post(f"{shoe}/rounds", json={"misdeal": True}).json()
    assert voided["state"]["misdeals"] == 1 and voided["state"]["bead_plate"] == []
    client.post(f"{shoe}/undo", json={})
    redone = client.post(f"{shoe}/redo", json={}).json()
    assert redone["state"]["rounds"][-1]["winner"] == "misdeal"
    client.post(f"{shoe}/undo", json={})
    closed = client.post(f"{shoe}/cards", json={"cards": "2", "as": "tiger"}).json()
    assert closed["state"]["bead_plate"] == ["dragon"]
    assert list(closed["odds"]["bets"]) == ["tie", "big"] and closed["odds"]["pays"]["tie"] == "11"
    following = client.post(f"{shoe}/next", json={}).json()
    assert following["shoe"]["follows"] == shoe_id
    assert following["shoe"]["settings"] == closed["shoe"]["settings"]
    assert following["state"]["cards_dealt"] == 0 and following["odds"]["game"] == "dragon-tiger"
    listed = client.get("/api/shoes?finished=1").json()["shoes"]
    assert [shoe["game"] for shoe in listed] == ["dragon-tiger", "dragon-tiger"]


def test_export_and_import_keep_a_dragon_tiger_shoe(client: TestClient) -> None:
    shoe_id = dragon_tiger_table(client, suits=True)["shoe"]["id"]
    shoe = f"/api/shoes/{shoe_id}"
    client.post(f"{shoe}/rounds", json={"dragon": "QH", "tiger": "3C"})
    client.post(f"{shoe}/cards", json={"cards": "9D", "as": "burn"})
    client.post(f"{shoe}/rounds", json={"dragon": "4S", "tiger": "JS"})
    csv_text = client.get(f"{shoe}/export?format=csv").text
    assert csv_text.splitlines()[1:] == [
        "1,dragon,QH,,1,",
        "2,tiger,3C,,1,dragon",
        "3,burn,9D,,2,",
        "4,dragon,4S,,2,",
        "5,tiger,JS,,2,tiger",
    ]
    exported = client.get(f"{shoe}/export").json()
    check_against_schema("get", f"{shoe}/export", 200, exported, "application/json")
    copy = client.post("/api/shoes/import", json=exported)
    assert copy.status_code == 201 and copy.json()["odds"] == client.get(shoe).json()["odds"]
    settings = exported["settings"]
    from_csv = client.post(
        "/api/shoes/import", json={"format": "csv", "csv": csv_text, "settings": settings}
    )
    assert from_csv.status_code == 201 and from_csv.json()["events"] == exported["events"]


def test_answers_match_the_openapi_schemas(client: TestClient) -> None:
    view = dragon_tiger_table(client, suits=True, bets=["suited_tie", "tie"])
    check_against_schema("post", "/api/shoes", 201, view, "application/json")
    shoe = f"/api/shoes/{view['shoe']['id']}"
    requests: list[tuple[str, str, Any]] = [
        ("get", "/api/options", None),
        ("get", "/api/shoes", None),
        ("post", f"{shoe}/cards", {"cards": "AS", "as": "dragon"}),
        ("post", f"{shoe}/cards", {"cards": "AH", "as": "tiger", "position": 1}),
        ("post", f"{shoe}/rounds", {"dragon": "AC"}),
        ("post", f"{shoe}/rounds", {"misdeal": True}),
        ("post", f"{shoe}/undo", {}),
        ("post", f"{shoe}/settings", {"bets": "all", "pay": {"suited_tie": 25}}),
        ("get", f"{shoe}?digits=3", None),
        ("post", f"{shoe}/next", {}),
    ]
    for method, path, body in requests:
        response = client.request(method.upper(), path, json=body)
        check_against_schema(
            method, path, response.status_code, response.json(), "application/json"
        )
    options = client.get("/api/options").json()
    assert options["games"] == ["baccarat", "dragon-tiger"]
    assert [bet["name"] for bet in options["dragon_tiger_bets"]] == [
        "dragon",
        "tiger",
        "tie",
        "suited_tie",
        "big",
        "small",
    ]


def test_a_version_3_database_reads_and_gains_the_game_column(tmp_path: Path) -> None:
    """A file written before Dragon Tiger (schema 3: no game column) is upgraded in place: its
    shoes read as baccarat, exactly as before, and a Dragon Tiger table can join them."""
    old = tmp_path / "v3.sqlite3"
    with sqlite3.connect(old) as connection:
        connection.executescript(
            "PRAGMA application_id = 1163415364;"
            "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
            "INSERT INTO meta VALUES ('schema_version', '3');"
            "CREATE TABLE shoes (id INTEGER PRIMARY KEY, name TEXT NOT NULL, settings TEXT NOT "
            "NULL, started_at TEXT NOT NULL, finished_at TEXT, follows INTEGER);"
            "CREATE TABLE events (id INTEGER PRIMARY KEY, shoe_id INTEGER NOT NULL, kind TEXT NOT "
            "NULL, cards TEXT NOT NULL, position INTEGER NOT NULL DEFAULT 0, recorded_at TEXT "
            "NOT NULL);"
            "CREATE TABLE undone (id INTEGER PRIMARY KEY, shoe_id INTEGER NOT NULL, kind TEXT NOT "
            "NULL, cards TEXT NOT NULL, position INTEGER NOT NULL DEFAULT 0);"
            "CREATE TABLE requests (shoe_id INTEGER NOT NULL, key TEXT NOT NULL, done_at TEXT NOT "
            "NULL, fingerprint TEXT NOT NULL DEFAULT '', PRIMARY KEY (shoe_id, key));"
            'INSERT INTO shoes VALUES (1, \'Old\', \'{"decks": 1, "bets": "main"}\', '
            "'2026-01-01', NULL, NULL);"
            "INSERT INTO events VALUES (1, 1, 'player', '9', 1, 'x'), (2, 1, 'banker', 'K', 1, 'x'),"
            " (3, 1, 'player', 'K', 2, 'x'), (4, 1, 'banker', '5', 2, 'x'), (5, 1, 'end', '', 0, "
            "'x');"
        )
    connection.close()
    with TestClient(create_app(old), base_url=BASE) as client:
        listed = client.get("/api/shoes").json()["shoes"]
        assert [(shoe["name"], shoe["game"], shoe["events"]) for shoe in listed] == [
            ("Old", "baccarat", 5)
        ]
        view = client.get("/api/shoes/1").json()
        assert view["state"]["rounds"][0]["winner"] == "player"
        assert view["shoe"]["settings"]["bets"] == "main" and "game" not in view["shoe"]["settings"]
        made = dragon_tiger_table(client)
        assert made["shoe"]["game"] == "dragon-tiger"
    with sqlite3.connect(old) as connection:
        version = connection.execute("SELECT value FROM meta WHERE key = 'schema_version'")
        assert version.fetchone() == ("4",)
        games = connection.execute("SELECT id, game FROM shoes ORDER BY id").fetchall()
        assert games == [(1, "baccarat"), (made["shoe"]["id"], "dragon-tiger")]
    connection.close()


def test_review_says_it_reviews_baccarat_tables(tmp_path: Path) -> None:
    from cli_runner import run

    database = tmp_path / "tracker.sqlite3"
    with TestClient(create_app(database), base_url=BASE) as client:
        shoe_id = dragon_tiger_table(client)["shoe"]["id"]
        client.post(f"/api/shoes/{shoe_id}/rounds", json={"dragon": "K", "tiger": "5"})
    result = run("review", "--db", str(database), "--table-id", str(shoe_id), "--stake", "tie=1")
    assert result.exit_code in (1, 2) and "deals Dragon Tiger" in result.stderr
    assert result.stderr.count("\n") <= 2


# docs/serve.md: the Dragon Tiger session, replayed --------------------------------------------

ROOT = Path(__file__).resolve().parent.parent


def dragon_tiger_session() -> list[tuple[str, str]]:
    """The ``$ curl`` lines of the block marked dragon-tiger-session, each with its output."""
    page = (ROOT / "docs" / "serve.md").read_text(encoding="utf-8")
    marked = page.split("<!-- dragon-tiger-session:", 1)[1]
    block = marked.split("```text\n", 1)[1].split("```", 1)[0]
    sessions: list[tuple[str, str]] = []
    for line in block.splitlines():
        if line.startswith("$ curl "):
            sessions.append((line[2:], ""))
        else:
            command, shown = sessions[-1]
            sessions[-1] = (command, shown + line + "\n")
    return sessions


def _piped(program: str, text: str) -> str:
    """What ``python3 -c PROGRAM`` prints for *text* on its stdin, run in this process (a
    subprocess a line would cost a third of a second each)."""
    import contextlib
    import io
    import sys

    printed = io.StringIO()
    stdin = sys.stdin
    try:
        sys.stdin = io.StringIO(text)
        with contextlib.redirect_stdout(printed):
            exec(program, {"__name__": "__main__"})
    finally:
        sys.stdin = stdin
    return printed.getvalue()


def test_the_dragon_tiger_session_in_the_serve_page_is_real() -> None:
    import shlex

    sessions = dragon_tiger_session()
    assert len(sessions) >= 8
    with TestClient(create_app(":memory:"), base_url=BASE) as client:
        for command, shown in sessions:
            curl, _, pipe = command.partition(" | ")
            words = shlex.split(curl)
            url = next(word for word in words if word.startswith(BASE))
            body = words[words.index("-d") + 1]
            response = client.post(url, content=body, headers={"content-type": "application/json"})
            output = response.text
            if pipe:
                program = shlex.split(pipe)
                assert program[:2] == ["python3", "-c"]
                output = _piped(program[2], output)
            assert output.rstrip("\n") + "\n" == shown, command


def test_api_odds_with_game_dragon_tiger_answers_what_odds_prints(client: TestClient) -> None:
    """``POST /api/odds`` takes ``game`` as ``odds`` takes ``--game``: the same JSON."""
    body = {"game": "dragon-tiger", "decks": 6, "remove": "KS 7H 7H", "pay": ["tie=11"]}
    answer = client.post("/api/odds", json={**body, "digits": 8})
    assert answer.status_code == 200, answer.text
    check_against_schema("post", "/api/odds", 200, answer.json(), "application/json")
    printed = run_ok(
        "odds",
        "--game",
        "dragon-tiger",
        "--decks",
        "6",
        "--remove",
        "KS 7H 7H",
        "--pay",
        "tie=11",
        "--format",
        "json",
        "--digits",
        "8",
    ).stdout
    assert answer.json() == json.loads(printed)
    for refused, starts in (
        ({**body, "known": "1=9"}, "Option 'known' is baccarat's"),
        ({**body, "commission": "4%"}, "Option 'commission' is baccarat's"),
        ({**body, "bets": "player"}, "Bet 'player' in 'bets' is a baccarat bet"),
        ({**body, "game": "chemmy"}, "Game 'chemmy' for 'game' is not valid"),
    ):
        response = client.post("/api/odds", json=refused)
        assert response.status_code == 422 and one_sentence(response).startswith(starts)


def test_api_eor_with_game_dragon_tiger_answers_what_eor_prints(client: TestClient) -> None:
    """``POST /api/eor`` takes ``game`` as ``eor`` takes ``--game``: the same JSON, and the
    baccarat options beside it refused in one sentence."""
    body = {"game": "dragon-tiger", "decks": 2, "remove": "7 7 K", "bets": "tie,big"}
    answer = client.post("/api/eor", json={**body, "digits": 6})
    assert answer.status_code == 200, answer.text
    check_against_schema("post", "/api/eor", 200, answer.json(), "application/json")
    printed = run_ok(
        "eor", "--game", "dragon-tiger", "--decks", "2", "--remove", "7 7 K",
        "--bets", "tie,big", "--format", "json", "--digits", "6",
    ).stdout  # fmt: skip
    assert answer.json() == json.loads(printed)
    for refused, starts in (
        ({**body, "tie_pays": 9}, "Option 'tie_pays' is baccarat's"),
        ({**body, "bets": "banker"}, "Bet 'banker' in 'bets' is a baccarat bet"),
    ):
        response = client.post("/api/eor", json=refused)
        assert response.status_code == 422 and one_sentence(response).startswith(starts)


def test_serve_game_starts_the_pages_new_tables_with_that_game() -> None:
    """``serve --game dragon-tiger``: /api/options says it, for the page's new tables; the
    API's own default stays baccarat, and another game is refused before the server starts."""
    from cli_runner import run

    app = create_app(":memory:", game="dragon-tiger")
    with TestClient(app, base_url=BASE) as client:
        options = client.get("/api/options").json()
        assert options["game"] == "dragon-tiger"
        check_against_schema("get", "/api/options", 200, options, "application/json")
        made = client.post("/api/shoes", json={"settings": {}}).json()
        assert "game" not in made["shoe"]["settings"]
    refused = run("serve", "--game", "poker")
    assert refused.exit_code == 2 and "'poker' is not one of" in refused.stderr
    assert "--game [baccarat|dragon-tiger]" in run("serve", "--help").stdout
