"""The tracker's JSON API (exactodds.web) through Starlette's ASGI test client.

What these prove:
- the API and the command line are two skins over the same library calls: for the same
  options, ``POST /api/odds`` answers exactly ``exactodds odds --format json``'s object (and
  likewise eor and batch), and a bad value gets exactly the CLI's one-sentence message;
- hostile bodies (malformed, too deep, too large, wrong types, random junk) get 400/413/422
  with one sentence, never a 500 or a trace;
- a tracked shoe's odds are analyze() of the full shoe less the cards recorded, after every
  card, undo and round; the shoe survives a restart (a new app on the same SQLite file).
"""

from __future__ import annotations

import itertools
import json
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from budget import budgeted
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from exactodds import Rules, Shoe, analyze
from exactodds.bets.catalogue import select_bets
from exactodds.cli import cli
from exactodds.numbers import decimal_string
from exactodds.shoe import RANK_SYMBOLS
from exactodds.web.app import create_app
from exactodds.web.openapi import openapi_schema
from exactodds.web.reader import MAX_BODY_BYTES, MAX_NESTING
from exactodds.web.tracker import big_road

ROOT = Path(__file__).resolve().parent.parent
#: The address the test client calls: the tracker answers loopback names only.
BASE = "http://127.0.0.1:8000"
#: What the tracker's own page sends with every body.
JSON = {"content-type": "application/json"}
#: The command line's flags, and the JSON fields the API's sentences name instead.
FLAGS_AS_FIELDS = {
    "--decks": "'decks'",
    "--shoe": "'shoe'",
    "--remove": "'remove'",
    "--tie-pays": "'tie_pays'",
    "--commission": "'commission'",
}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(
        create_app(":memory:"), base_url=BASE, raise_server_exceptions=False
    ) as test_client:
        yield test_client


def cli_json(*arguments: str, stdin: str | None = None) -> Any:
    result = CliRunner().invoke(cli, list(arguments), input=stdin)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def cli_error(*arguments: str) -> str:
    result = CliRunner().invoke(cli, list(arguments))
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1
    return result.stderr.removeprefix("Error: ").rstrip("\n")


SMALL_SHOE = {"A": 4, "5": 8, "9": 4, "K": 16}
SUITED_SHOE = {"KS": 6, "KH": 2, "5D": 4, "9C": 4, "AS": 2}

# The same request twice: as the API's JSON object and as the command line's options.
SAME_REQUESTS: list[tuple[dict[str, Any], list[str]]] = [
    ({}, []),
    (
        {"decks": 6, "remove": "A K 7 7 T", "bets": "banker,tie", "digits": 6},
        ["--decks", "6", "--remove", "A K 7 7 T", "--bets", "banker,tie", "--digits", "6"],
    ),
    (
        {"shoe": SMALL_SHOE, "variant": "ez", "bets": "all", "digits": 12},
        ["--shoe", json.dumps(SMALL_SHOE), "--variant", "ez", "--bets", "all", "--digits", "12"],
    ),
    (
        {"shoe": "A=4,5=8,9=4,K=16", "remove": ["K", "5"]},
        ["--shoe", "A=4,5=8,9=4,K=16", "--remove", "K", "--remove", "5"],
    ),
    (
        {"decks": 1, "commission": "4%", "tie_pays": 9, "tie_loses": True},
        ["--decks", "1", "--commission", "4%", "--tie-pays", "9", "--tie-loses"],
    ),
    (
        {"bets": ["lucky6", "dragon7"], "pay": {"lucky6": {"three_card_win": 23}, "dragon7": 30}},
        ["--bets", "lucky6,dragon7", "--pay", "lucky6.three_card_win=23", "--pay", "dragon7=30"],
    ),
    ({"bets": "big", "pay": {"big": 0.54}}, ["--bets", "big", "--pay", "big=0.54"]),
    (
        {"decks": 1, "fee": "20%", "commission": "4%", "bets": "main,dragon7"},
        ["--decks", "1", "--fee", "20%", "--commission", "4%", "--bets", "main,dragon7"],
    ),
    ({"shoe": SMALL_SHOE, "fee": 0.2}, ["--shoe", json.dumps(SMALL_SHOE), "--fee", "1/5"]),
    (
        {"rules": "banker_as_player", "variant": "super6", "bets": "main"},
        ["--rules", "banker_as_player", "--variant", "super6", "--bets", "main"],
    ),
    (
        {"shoe": SUITED_SHOE, "bets": "perfect_pair,player_pair,banker"},
        ["--shoe", json.dumps(SUITED_SHOE), "--bets", "perfect_pair,player_pair,banker"],
    ),
    (
        {"shoe": SMALL_SHOE, "known": ["1=9", "B1=K"], "bets": "all", "digits": 4},
        [
            "--shoe",
            json.dumps(SMALL_SHOE),
            "--known",
            "1=9",
            "--known",
            "B1=K",
            "--bets",
            "all",
            "--digits",
            "4",
        ],
    ),
]


@pytest.mark.parametrize(("body", "arguments"), SAME_REQUESTS)
def test_odds_answers_exactly_what_odds_format_json_prints(
    client: TestClient, body: dict[str, Any], arguments: list[str]
) -> None:
    response = client.post("/api/odds", json=body)
    assert response.status_code == 200, response.text
    assert response.json() == cli_json("odds", "--format", "json", *arguments)


ALL_BETS = list(select_bets("all"))


@budgeted(40, deadline=None)
@given(
    st.dictionaries(st.sampled_from(RANK_SYMBOLS), st.integers(0, 12), min_size=1),
    st.booleans(),
    st.lists(st.sampled_from([bet.name for bet in ALL_BETS]), min_size=1, max_size=6),
    st.sampled_from(["standard", "ez", "super6"]),
)
def test_the_fast_path_answers_what_the_walk_answers(
    counts: dict[str, int], suited: bool, names: list[str], variant: str
) -> None:
    """The API prices through the shared Analyzer; its JSON must be the walk's, key for key."""
    from exactodds.report.registry import to_dict
    from exactodds.web.inputs import odds_settings
    from exactodds.web.service import answer

    if sum(counts.values()) < 6:
        counts["K"] = counts.get("K", 0) + 6
    shoe = {f"{rank}S": count for rank, count in counts.items()} if suited else counts
    request = {"shoe": shoe, "bets": ",".join(names), "variant": variant, "digits": 8}
    read = odds_settings(request)
    walked = to_dict(analyze(read.shoe, read.rules, read.bets), digits=8)
    assert answer(read) == walked


# A bad value: the API's status 422 and the CLI's exit 2 carry the same sentence.
SAME_ERRORS: list[tuple[dict[str, Any], list[str]]] = [
    ({"decks": 0}, ["--decks", "0"]),
    ({"decks": "eight"}, ["--decks", "eight"]),
    ({"decks": 8, "shoe": SMALL_SHOE}, ["--decks", "8", "--shoe", json.dumps(SMALL_SHOE)]),
    ({"remove": "A Z"}, ["--remove", "A Z"]),
    ({"decks": 1, "remove": "K K K K K"}, ["--decks", "1", "--remove", "K K K K K"]),
    ({"shoe": {"A": -1, "K": 8}}, ["--shoe", '{"A": -1, "K": 8}']),
    ({"shoe": {"A": 2}}, ["--shoe", '{"A": 2}']),
    ({"shoe": {"KS": 2, "Q": 6}}, ["--shoe", '{"KS": 2, "Q": 6}']),
    ({"tie_pays": -3}, ["--tie-pays", "-3"]),
    ({"commission": "2"}, ["--commission", "2"]),
    ({"bets": "main,dragon8"}, ["--bets", "main,dragon8"]),
    ({"pay": ["dragon7"]}, ["--pay", "dragon7"]),
    ({"pay": {"lucky6": 12}, "bets": "lucky6"}, ["--pay", "lucky6=12", "--bets", "lucky6"]),
    ({"known": ["KS"]}, ["--known", "KS"]),
]


@pytest.mark.parametrize(("body", "arguments"), SAME_ERRORS)
def test_a_bad_value_gets_the_clis_sentence(
    client: TestClient, body: dict[str, Any], arguments: list[str]
) -> None:
    response = client.post("/api/odds", json=body)
    assert response.status_code == 422
    expected = cli_error("odds", *arguments)
    for flag, field in FLAGS_AS_FIELDS.items():
        expected = expected.replace(flag, field)
    assert response.json() == {"error": expected}
    assert not any(flag in response.json()["error"] for flag in FLAGS_AS_FIELDS)


@pytest.mark.parametrize(
    ("pay", "named"),
    [
        ({"dragon7": "thirty"}, "'pay' dragon7"),
        ({"dragon7": -1}, "'pay' dragon7"),
        ({"dragon7": True}, "'pay' dragon7"),
        ({"dragon7": None}, "'pay' dragon7"),
        ({"lucky6": {"three_card_win": [23]}}, "'pay' lucky6.three_card_win"),
        ({"lucky6": {"two_card_win": "1/0"}}, "'pay' lucky6.two_card_win"),
        ({"big": {"win": {"x": 1}}}, "'pay' big.win"),
    ],
)
def test_a_bad_pay_names_the_json_field_and_the_bet(
    client: TestClient, pay: dict[str, Any], named: str
) -> None:
    response = client.post("/api/odds", json={"bets": "dragon7,lucky6,big", "pay": pay})
    assert response.status_code == 422, response.text
    message = response.json()["error"]
    assert named in message and "--pay" not in message and "`" not in message, message


def test_a_pay_object_is_read_exactly_not_through_float(client: TestClient) -> None:
    """21 significant digits: a float would round them away; the CLI reads the same text."""
    body = b'{"bets": "big", "pay": {"big": 0.540000000000000000001}, "digits": 30}'
    response = client.post("/api/odds", content=body, headers=JSON)
    assert response.status_code == 200, response.text
    expected = cli_json(
        "odds",
        "--format",
        "json",
        "--bets",
        "big",
        "--pay",
        "big=0.540000000000000000001",
        "--digits",
        "30",
    )
    assert response.json() == expected
    assert expected != cli_json(
        "odds", "--format", "json", "--bets", "big", "--pay", "big=0.54", "--digits", "30"
    )


def test_bets_from_the_servers_bet_files_price_as_odds_bet_file_does() -> None:
    from exactodds.bets.catalogue import available_bets
    from exactodds.bets.custom import load_custom_bets

    bet_file = ROOT / "examples" / "bets" / "six_bonus.toml"
    custom = load_custom_bets(bet_file, list(available_bets()))
    with TestClient(create_app(":memory:", custom), base_url=BASE) as client:
        offered = {bet["name"]: bet["group"] for bet in client.get("/api/options").json()["bets"]}
        assert all(offered[bet.name] == "custom" for bet in custom)
        response = client.post("/api/odds", json={"decks": 6, "bets": "banker,custom"})
        assert response.status_code == 200, response.text
        expected = cli_json(
            "odds",
            "--format",
            "json",
            "--decks",
            "6",
            "--bet-file",
            str(bet_file),
            "--bets",
            "banker,custom",
        )
        assert response.json() == expected


@pytest.mark.parametrize(
    ("body", "starts"),
    [
        (b'{"decks": 6', "The request body is not valid JSON"),
        (b"[1, 2]", "The request body is a JSON array"),
        (b"", "The request body is empty"),
        (b"\xff\xfe{}", "The request body is not UTF-8"),
        (b'{"decks": NaN}', "The request body holds NaN"),
        (b'{"deck": 6}', "Unknown option 'deck'; use bets, commission, decks"),
        (b'{"decks": true}', "Option 'decks' is a JSON boolean"),
        (b'{"tie_loses": "yes"}', "Option 'tie_loses' is a JSON string; use true or false."),
        (b'{"digits": 101}', "Option 'digits' is 101; use a whole number from 0 to 100."),
        (b'{"remove": [["K"]]}', "Option 'remove' is a JSON array"),
        (b'{"rules": "/etc/passwd"}', "Rules '/etc/passwd' is not a shipped rules file"),
        (b'{"shoe": "/etc/passwd"}', "Shoe '/etc/passwd' is not a spec"),
        (b'{"shoe": "-"}', "Shoe '-' is not a spec"),
        (b'{"pay": {"a": {"b": {"c": 1}}}}', "Pay {\"c\": 1} for 'pay' a.b is not a number"),
        (b"[" * (MAX_NESTING + 1) + b"]" * (MAX_NESTING + 1), "The request body nests more than 8"),
        (b'{"a": "' + b"[" * 50 + b'"}', "Unknown option 'a'"),
    ],
)
def test_bodies_that_are_not_requests_get_400_or_422(
    client: TestClient, body: bytes, starts: str
) -> None:
    response = client.post("/api/odds", content=body, headers=JSON)
    assert response.status_code in (400, 422), response.text
    message = response.json()["error"]
    assert message.startswith(starts), message
    assert "\n" not in message and "Traceback" not in message


def test_files_are_never_read_on_behalf_of_a_request(client: TestClient, tmp_path: Path) -> None:
    shoe = tmp_path / "shoe.json"
    shoe.write_text(json.dumps(SMALL_SHOE))
    assert client.post("/api/odds", json={"shoe": str(shoe)}).status_code == 422
    rules = ROOT / "exactodds" / "data" / "rules" / "standard.toml"
    assert client.post("/api/odds", json={"rules": str(rules)}).status_code == 422


def test_large_bodies_are_refused_with_413(client: TestClient) -> None:
    body = json.dumps({"remove": "K " * MAX_BODY_BYTES}).encode()
    response = client.post("/api/odds", content=body, headers=JSON)
    assert response.status_code == 413
    assert response.json()["error"].startswith(f"The request body has {len(body):,} bytes")
    # Without a Content-Length (a chunked upload), the stream is cut at the limit.
    chunks = iter([body[i : i + 65536] for i in range(0, len(body), 65536)])
    streamed = client.post("/api/odds", content=chunks, headers=JSON)
    assert streamed.status_code == 413


def test_unknown_routes_and_methods_answer_json(client: TestClient) -> None:
    missing = client.get("/api/nothing")
    assert missing.status_code == 404 and "see /docs" in missing.json()["error"]
    wrong = client.get("/api/odds")
    assert wrong.status_code == 405 and wrong.json()["error"].startswith("Method GET")


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**30), 10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=6), children, max_size=3)
    ),
    max_leaves=8,
)
OPTION_VALUES = (
    st.sampled_from(["", "8", "0", "-1", "1e9", "A K", "K" * 40, "main", "all", "1=9", "ez"])
    | st.integers(-3, 20)
    | JSON_VALUES
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.sampled_from(["/api/odds", "/api/eor", "/api/batch"]),
    st.dictionaries(
        st.sampled_from(
            [
                "decks",
                "shoe",
                "remove",
                "variant",
                "commission",
                "tie_pays",
                "tie_loses",
                "bets",
                "pay",
                "digits",
                "known",
                "rules",
                "cards",
                "max_tag",
                "shoes",
                "full",
                "other",
            ]
        ),
        OPTION_VALUES,
        max_size=4,
    ),
)
def test_no_request_gets_a_500(client: TestClient, path: str, body: dict[str, Any]) -> None:
    if isinstance(body.get("decks"), int) and body["decks"] > 8:
        body["decks"] = 8  # bigger shoes are valid too, only slower to price with known cards
    response = client.post(path, json=body)
    assert response.status_code in (200, 400, 413, 422), (body, response.text)
    if response.status_code != 200:
        message = response.json()["error"]
        assert message and "\n" not in message and "Traceback" not in message


TRACKER_KEYS = [
    "name",
    "settings",
    "cards",
    "as",
    "player",
    "banker",
    "decks",
    "suits",
    "bets",
    "pay",
    "variant",
    "tie_pays",
    "commission",
    "rules",
    "tie_loses",
    "key",
    "other",
]


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.sampled_from(["", "/cards", "/rounds", "/undo", "/redo", "/settings", "/next", "/reopen"]),
    st.sampled_from(["1", "2", "0", "99", str(2**63), "9" * 30, "9" * 5000]),
    st.dictionaries(
        st.sampled_from(TRACKER_KEYS),
        OPTION_VALUES | st.dictionaries(st.sampled_from(TRACKER_KEYS), OPTION_VALUES, max_size=3),
        max_size=4,
    ),
)
def test_no_tracker_request_gets_a_500(
    client: TestClient, action: str, number: str, body: dict[str, Any]
) -> None:
    if not client.get("/api/shoes").json()["shoes"]:
        client.post("/api/shoes", json={"settings": {"decks": 1}})
    path = "/api/shoes" if action == "" and number == "0" else f"/api/shoes/{number}{action}"
    response = client.post(path, json=body) if action or number == "0" else client.get(path)
    assert response.status_code in (200, 201, 400, 404, 405, 409, 413, 422), (
        path,
        body,
        response.text,
    )
    if response.status_code >= 400:
        message = response.json()["error"]
        assert message and "\n" not in message and "Traceback" not in message


def test_counts_past_64_bits_are_priced_exactly(client: TestClient) -> None:
    huge = {"A": 10**30, "5": 10**30, "K": 3 * 10**30}
    text = json.dumps(huge)
    for path, body, arguments in [
        ("/api/odds", {"shoe": huge, "bets": "all", "digits": 20}, ["odds", "--bets", "all"]),
        ("/api/eor", {"shoe": huge, "bets": "tie", "digits": 20}, ["eor", "--bets", "tie"]),
    ]:
        response = client.post(path, json=body)
        assert response.status_code == 200, response.text
        expected = cli_json(*arguments, "--format", "json", "--shoe", text, "--digits", "20")
        assert response.json() == expected
    response = client.post("/api/batch", json={"shoes": [huge], "bets": "tie"})
    assert response.status_code == 200, response.text
    (record,) = response.json()["results"]
    assert record["bets"]["tie"]["ev"] == expected["bets"]["tie"]["ev"]


def test_eor_removes_at_most_16_cards_of_a_rank(client: TestClient) -> None:
    response = client.post("/api/eor", json={"decks": 64, "cards": 40})
    assert response.status_code == 422
    assert response.json()["error"] == "Option 'cards' is 40; use a whole number from 1 to 16."


def test_eor_answers_what_eor_format_json_prints(client: TestClient) -> None:
    body = {"shoe": SMALL_SHOE, "bets": "tie,banker", "cards": 2, "max_tag": 3, "digits": 6}
    arguments = ["--shoe", json.dumps(SMALL_SHOE), "--bets", "tie,banker", "--cards", "2"]
    response = client.post("/api/eor", json=body)
    assert response.status_code == 200, response.text
    expected = cli_json("eor", "--format", "json", *arguments, "--max-tag", "3", "--digits", "6")
    assert response.json() == expected


@pytest.mark.parametrize("full", [False, True])
def test_batch_answers_batchs_line_for_each_shoe(client: TestClient, full: bool) -> None:
    shoes = [SMALL_SHOE, Shoe.standard(decks=1).remove("K 9").to_dict(), {"A": 3, "9": 2, "K": 4}]
    body = {"shoes": shoes, "bets": "all", "digits": 8, "full": full}
    response = client.post("/api/batch", json=body)
    assert response.status_code == 200, response.text
    lines = "".join(json.dumps(shoe) + "\n" for shoe in shoes)
    arguments = [
        "batch",
        "--bets",
        "all",
        "--digits",
        "8",
        "--jobs",
        "1",
        *(["--full"] if full else []),
    ]
    result = CliRunner().invoke(cli, arguments, input=lines)
    assert result.exit_code == 0, result.stderr
    assert response.json() == {"results": [json.loads(line) for line in result.stdout.splitlines()]}


def test_batch_names_the_bad_shoe_and_caps_the_count(client: TestClient) -> None:
    bad = client.post("/api/batch", json={"shoes": [SMALL_SHOE, {"A": 2}]})
    assert bad.status_code == 422
    assert bad.json()["error"].startswith("Shoe 2: The shoe holds 2 cards")
    many = client.post("/api/batch", json={"shoes": [SMALL_SHOE] * 1001})
    assert many.status_code == 400 and "at most 1,000" in many.json()["error"]


def test_the_schema_lists_every_api_route(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    assert schema == openapi_schema() and schema["openapi"].startswith("3.")
    routes = {
        route.path.replace("{shoe_id:digits}", "{shoe_id}")
        for route in client.app.routes  # type: ignore[attr-defined]
        if getattr(route, "path", "").startswith("/api/")
    }
    assert routes == set(schema["paths"])
    assert client.get("/docs").status_code == 200
    page = client.get("/")
    assert "text/html" in page.headers["content-type"]
    assert page.headers["content-security-policy"].startswith("default-src 'self'")
    assert "<script>" not in page.text and "<script>" not in client.get("/docs").text


# --- Tracked shoes -------------------------------------------------------------------------


def expected_bets(shoe: Shoe, bets: str, digits: int = 6) -> dict[str, str]:
    analysis = analyze(shoe, Rules(), select_bets(bets, Rules()))
    return {
        name: decimal_string(result.expected_value, digits)
        for name, result in analysis.bets.items()
    }


def shown_bets(view: dict[str, Any]) -> dict[str, str]:
    return {
        name: bet["ev_decimal"] for name, bet in view["odds"]["bets"].items() if bet["computable"]
    }


def test_a_tracked_shoe_prices_the_cards_left_after_every_event(tmp_path: Path) -> None:
    database = tmp_path / "tracker.sqlite3"
    bets = "main,dragon7,panda8,player_pair"
    with TestClient(create_app(database), base_url=BASE) as client:
        created = client.post(
            "/api/shoes", json={"name": "Table 7", "settings": {"decks": 6, "bets": bets}}
        )
        assert created.status_code == 201, created.text
        shoe_id = created.json()["shoe"]["id"]
        path = f"/api/shoes/{shoe_id}"
        dealt: list[str] = []
        for card, kind in [
            ("K", "card"),
            ("9", "player"),
            ("5", "banker"),
            ("Q", "player"),
            ("4", "banker"),
            ("7", "burn"),
        ]:
            view = client.post(f"{path}/cards", json={"cards": card, "as": kind}).json()
            dealt.append(card)
            assert shown_bets(view) == expected_bets(Shoe.standard(6).remove(" ".join(dealt)), bets)
        view = client.post(f"{path}/rounds", json={}).json()
        assert view["state"]["rounds"] == [
            {
                "player": ["9", "Q"],
                "banker": ["5", "4"],
                "player_total": 9,
                "banker_total": 9,
                "winner": "tie",
            }
        ]
        view = client.post(f"{path}/rounds", json={"player": "A6", "banker": "T23"}).json()
        dealt += ["A", "6", "T", "2", "3"]
        assert view["state"]["bead_plate"] == ["tie", "player"]
        view = client.post(f"{path}/cards", json={"as": "unseen"}).json()
        assert view["state"]["unseen_burns"] == 1
        assert view["state"]["cards_in_shoe"] == 6 * 52 - len(dealt) - 1
        left = Shoe.standard(6).remove(" ".join(dealt))
        assert view["state"]["cards_left"] == dict(zip(RANK_SYMBOLS, left.rank_counts, strict=True))
        assert shown_bets(view) == expected_bets(left, bets)
        client.post(f"{path}/undo", json={})  # the unseen burn
        view = client.post(f"{path}/undo", json={}).json()  # the end of the second round
        assert view["state"]["pending"] == {"player": ["A", "6"], "banker": ["T", "2", "3"]}
        assert view["state"]["bead_plate"] == ["tie"]

    # A restart: a new app on the same file resumes the same shoe, every card in place.
    with TestClient(create_app(database), base_url=BASE) as client:
        assert [shoe["id"] for shoe in client.get("/api/shoes").json()["shoes"]] == [shoe_id]
        resumed = client.get(f"/api/shoes/{shoe_id}").json()
        assert resumed["shoe"]["name"] == "Table 7"
        assert resumed["state"]["pending"] == {"player": ["A", "6"], "banker": ["T", "2", "3"]}
        assert shown_bets(resumed) == expected_bets(Shoe.standard(6).remove(" ".join(dealt)), bets)
        following = client.post(f"/api/shoes/{shoe_id}/next", json={})
        assert following.status_code == 201
        fresh = following.json()
        assert fresh["shoe"]["id"] != shoe_id and fresh["state"]["cards_dealt"] == 0
        assert fresh["shoe"]["settings"] == resumed["shoe"]["settings"]
        assert [shoe["id"] for shoe in client.get("/api/shoes").json()["shoes"]] == [
            fresh["shoe"]["id"]
        ]
        finished = client.get("/api/shoes?finished=1").json()["shoes"]
        assert finished[0]["finished_at"] is not None


def test_several_tables_side_by_side_and_their_settings() -> None:
    with TestClient(create_app(":memory:"), base_url=BASE) as client:
        first = client.post("/api/shoes", json={"name": "A", "settings": {"decks": 8}}).json()
        second = client.post(
            "/api/shoes",
            json={"name": "B", "settings": {"decks": 1, "suits": True, "bets": "perfect_pair,tie"}},
        ).json()
        view = client.post(f"/api/shoes/{second['shoe']['id']}/cards", json={"cards": "KS"}).json()
        assert view["state"]["suits_known"] and view["odds"]["bets"]["perfect_pair"]["computable"]
        # Settings change the bets; the shoe itself is fixed once cards are dealt.
        changed = client.post(
            f"/api/shoes/{second['shoe']['id']}/settings", json={"bets": "banker", "tie_pays": "9"}
        )
        assert changed.status_code == 200 and list(changed.json()["odds"]["bets"]) == ["banker"]
        refused = client.post(f"/api/shoes/{second['shoe']['id']}/settings", json={"decks": 2})
        assert refused.status_code == 400 and "start a new shoe" in refused.json()["error"]
        untouched = client.get(f"/api/shoes/{first['shoe']['id']}").json()
        assert untouched["state"]["cards_dealt"] == 0
        assert client.delete(f"/api/shoes/{first['shoe']['id']}").status_code == 204
        assert client.get(f"/api/shoes/{first['shoe']['id']}").status_code == 404


def test_a_shoe_whose_settings_no_longer_read_is_listed_refused_and_deletable(
    tmp_path: Path,
) -> None:
    import sqlite3

    database = tmp_path / "tracker.sqlite3"
    with TestClient(create_app(database), base_url=BASE) as client:
        shoe_id = client.post(
            "/api/shoes", json={"name": "Old", "settings": {"bets": "tie"}}
        ).json()["shoe"]["id"]
    with sqlite3.connect(database) as connection:  # as if an upgrade had renamed the bet
        connection.execute(
            "UPDATE shoes SET settings = ? WHERE id = ?", ('{"bets": "tie_bet"}', shoe_id)
        )
    with TestClient(create_app(database), base_url=BASE) as client:
        assert [shoe["name"] for shoe in client.get("/api/shoes").json()["shoes"]] == ["Old"]
        refused = client.get(f"/api/shoes/{shoe_id}")
        assert refused.status_code == 422 and "tie_bet" in refused.json()["error"]
        assert client.delete(f"/api/shoes/{shoe_id}").status_code == 204
        assert client.get("/api/shoes").json()["shoes"] == []


@pytest.mark.parametrize(
    ("body", "status", "starts"),
    [
        ({"cards": "Z"}, 422, "Unknown card 'Z'"),
        ({"cards": "KK", "as": "player"}, 422, "Event kind 'player' takes one card"),
        ({"cards": "K", "as": "dealt"}, 422, "Event kind 'dealt' is not valid"),
        ({"cards": ""}, 400, "Option 'cards' names no card"),
        ({"cards": "K", "side": "P"}, 400, "Unknown option 'side'"),
        ({"cards": ["K", "K", "K", "K", "K"]}, 422, "Cannot remove 5 K"),
    ],
)
def test_a_bad_card_is_refused_and_nothing_is_stored(
    body: dict[str, Any], status: int, starts: str
) -> None:
    with TestClient(create_app(":memory:"), base_url=BASE) as client:
        shoe_id = client.post("/api/shoes", json={"settings": {"decks": 1}}).json()["shoe"]["id"]
        response = client.post(f"/api/shoes/{shoe_id}/cards", json=body)
        assert response.status_code == status and response.json()["error"].startswith(starts)
        assert client.get(f"/api/shoes/{shoe_id}").json()["events"] == []


def test_bad_rounds_and_settings_are_refused() -> None:
    with TestClient(create_app(":memory:"), base_url=BASE) as client:
        shoe_id = client.post("/api/shoes", json={"settings": {"decks": 1}}).json()["shoe"]["id"]
        short = client.post(f"/api/shoes/{shoe_id}/rounds", json={"player": "9", "banker": "55"})
        assert short.status_code == 422 and short.json()["error"].startswith("A round needs 2 or 3")
        assert client.post("/api/shoes", json={"settings": {"decks": 65}}).status_code == 422
        assert client.post("/api/shoes", json={"settings": {"bets": "dragon8"}}).status_code == 422
        assert client.post("/api/shoes", json={"name": "x" * 61}).status_code == 422
        assert client.get("/api/shoes/99").status_code == 404
        assert client.get(f"/api/shoes/{shoe_id}?digits=x").status_code == 400


def test_taps_at_the_same_time_never_record_a_card_the_shoe_lacks() -> None:
    from concurrent.futures import ThreadPoolExecutor

    with TestClient(create_app(":memory:"), base_url=BASE) as client:
        shoe_id = client.post("/api/shoes", json={"settings": {"decks": 1}}).json()["shoe"]["id"]

        def tap(_: int) -> int:
            return client.post(f"/api/shoes/{shoe_id}/cards", json={"cards": "K"}).status_code

        with ThreadPoolExecutor(8) as pool:
            statuses = sorted(pool.map(tap, range(8)))
        assert statuses == [200] * 4 + [422] * 4
        view = client.get(f"/api/shoes/{shoe_id}").json()
        assert view["state"]["cards_left"]["K"] == 0 and len(view["events"]) == 4


def test_one_request_records_at_most_64_cards() -> None:
    with TestClient(create_app(":memory:"), base_url=BASE) as client:
        shoe_id = client.post("/api/shoes", json={"settings": {"decks": 8}}).json()["shoe"]["id"]
        response = client.post(f"/api/shoes/{shoe_id}/cards", json={"cards": "K " * 65})
        assert response.status_code == 400 and "at most 64" in response.json()["error"]


@budgeted(25, deadline=None)
@given(st.lists(st.sampled_from(["card", "burn", "unseen", "undo"]), max_size=30), st.randoms())
def test_the_cards_left_are_the_shoe_less_every_card_recorded(
    actions: list[str], random: Any
) -> None:
    """Brute force: a list of physical cards, removed one by one, against the tracker's counts."""
    with TestClient(create_app(":memory:"), base_url=BASE) as client:
        shoe_id = client.post(
            "/api/shoes", json={"settings": {"decks": 1, "suits": True, "bets": "tie"}}
        ).json()["shoe"]["id"]
        deck = [rank + suit for rank in RANK_SYMBOLS for suit in "SHDC"]
        random.shuffle(deck)
        recorded: list[str | None] = []
        for action in actions:
            if action == "undo":
                client.post(f"/api/shoes/{shoe_id}/undo", json={})
                if recorded:
                    card = recorded.pop()
                    if card is not None:
                        deck.append(card)
            elif action == "unseen":
                client.post(f"/api/shoes/{shoe_id}/cards", json={"as": "unseen"})
                recorded.append(None)
            else:
                card = deck.pop()
                client.post(f"/api/shoes/{shoe_id}/cards", json={"cards": card, "as": action})
                recorded.append(card)
        view = client.get(f"/api/shoes/{shoe_id}").json()
        assert view["state"]["cards_left"] == {
            rank: sum(card[0] == rank for card in deck) for rank in RANK_SYMBOLS
        }
        assert view["state"]["cards_in_shoe"] == len(deck) - recorded.count(None)
        expected = analyze(
            Shoe.from_mapping({card: deck.count(card) for card in deck}),
            Rules(),
            select_bets("tie"),
        )
        assert view["odds"]["bets"]["tie"]["ev"] == str(expected.bets["tie"].expected_value)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(["player", "banker", "tie"]), max_size=60))
def test_the_big_road_has_one_cell_per_decided_round(winners: list[str]) -> None:
    cells = big_road(winners)
    decided = [winner for winner in winners if winner != "tie"]
    assert [cell["winner"] for cell in cells] == decided
    assert len({(cell["column"], cell["row"]) for cell in cells}) == len(cells)
    assert sum(cell["ties"] for cell in cells) == (winners.count("tie") if cells else 0)
    assert all(0 <= cell["row"] < 6 for cell in cells)
    for before, after in itertools.pairwise(cells):
        if before["winner"] != after["winner"]:
            assert after["row"] == 0  # a new streak starts at the top of the next column
        else:
            assert (after["column"], after["row"]) in (
                (before["column"], before["row"] + 1),
                (before["column"] + 1, before["row"]),
            )


# --- The command and the packaging -----------------------------------------------------------


def test_odds_never_imports_the_web_framework() -> None:
    program = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "import exactodds.cli\n"
        "result = CliRunner().invoke(exactodds.cli.cli, ['odds', '--decks', '1'])\n"
        "assert result.exit_code == 0, result.output\n"
        "heavy = [name for name in ('starlette', 'uvicorn', 'exactodds.web', 'platformdirs', 'httpx2')\n"
        "         if name in sys.modules]\n"
        "assert not heavy, heavy\n"
    )
    completed = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=False
    )
    assert completed.returncode == 0, completed.stderr


def test_serve_without_the_web_extra_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "uvicorn", None)
    result = CliRunner().invoke(cli, ["serve", "--db", ":memory:"])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (
        "Error: The tracker needs uvicorn, starlette and platformdirs, which are not installed; "
        'install them with: pip install "exactodds[web]".\n'
    )


def test_serve_refuses_a_port_in_use_and_a_bad_bet_file(tmp_path: Path) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = CliRunner().invoke(
            cli, ["serve", "--port", str(port), "--db", str(tmp_path / "t.db")]
        )
    assert result.exit_code == 1
    assert result.stderr.startswith(f"Error: Cannot listen on 127.0.0.1:{port} (")
    missing = CliRunner().invoke(cli, ["serve", "--bet-file", str(tmp_path / "none.toml")])
    assert missing.exit_code == 2 and missing.stderr.count("\n") == 1
    not_sqlite = tmp_path / "notes.txt"
    not_sqlite.write_text("not a database, " * 100)
    before = not_sqlite.read_bytes()
    refused = CliRunner().invoke(cli, ["serve", "--db", str(not_sqlite)])
    assert refused.exit_code == 1 and refused.stdout == ""
    assert refused.stderr == (
        f"Error: The file '{not_sqlite}' is not an SQLite database; choose another --db.\n"
    )
    assert not_sqlite.read_bytes() == before


def test_serve_binds_to_loopback_and_answers(tmp_path: Path) -> None:
    """The real command, as a user starts it: on 127.0.0.1, a free port, then stopped."""
    import urllib.request

    process = subprocess.Popen(
        [sys.executable, "-m", "exactodds", "serve", "--port", "0", "--db", str(tmp_path / "t.db")],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stderr is not None
        first = process.stderr.readline()
        second = process.stderr.readline()
        assert first.startswith("Serving the exactodds tracker on http://127.0.0.1:")
        assert second.startswith("Only this computer can reach it")
        url = first.split(" on ")[1].strip()
        request = urllib.request.Request(
            url + "api/odds",
            data=b'{"decks": 1, "bets": "tie"}',
            method="POST",
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            assert json.load(response)["bets"]["tie"]["ev"] == "-2003549/12724075"
    finally:
        process.terminate()
        process.wait(timeout=30)


def readme_curl_sessions() -> list[tuple[str, str]]:
    """docs/serve.md's ``$ curl ...`` commands (continuation lines joined) and the output shown."""
    readme = (ROOT / "docs" / "serve.md").read_text(encoding="utf-8")
    sessions: list[tuple[str, str]] = []
    for block in re.findall(r"```shell\n(.*?)```", readme, flags=re.DOTALL):
        lines = block.splitlines()
        index = 0
        while index < len(lines):
            if not lines[index].startswith("$ curl"):
                index += 1
                continue
            command = lines[index][2:]
            while command.endswith("\\"):
                index += 1
                command = command[:-1] + lines[index]
            index += 1
            shown = []
            while index < len(lines) and not lines[index].startswith("$ "):
                shown.append(lines[index])
                index += 1
            sessions.append((command, "\n".join(shown)))
    return sessions


def test_the_readme_has_curl_sessions() -> None:
    assert len(readme_curl_sessions()) >= 2


@pytest.mark.parametrize(("command", "shown"), readme_curl_sessions())
def test_the_readme_curl_sessions_are_real(client: TestClient, command: str, shown: str) -> None:
    """Each curl command, sent through the test client; a pipe into python3 -c is run too."""
    curl, _, pipe = command.partition(" | ")
    words = shlex.split(curl)
    url = next(word for word in words if word.startswith("http://127.0.0.1:8000/"))
    # curl's own default for -d, unless a -H says otherwise.
    headers = {"content-type": "application/x-www-form-urlencoded"}
    for index, word in enumerate(words[:-1]):
        if word == "-H":
            name, _, value = words[index + 1].partition(":")
            headers[name.strip().lower()] = value.strip()
    response = client.post(
        url.removeprefix("http://127.0.0.1:8000"),
        content=words[words.index("-d") + 1],
        headers=headers,
    )
    output = response.text
    if pipe:
        program = shlex.split(pipe)
        assert program[:2] == ["python3", "-c"]
        completed = subprocess.run(
            [sys.executable, "-c", program[2]],
            input=output,
            capture_output=True,
            text=True,
            check=True,
        )
        output = completed.stdout
    assert output.rstrip("\n") == shown


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b'{"shoe": {"K": 4, "K": 9}}', 'The request body names "K" twice; name each key once.'),
        (b'{"decks": 6, "decks": 8}', 'The request body names "decks" twice; name each key once.'),
        (
            b'{"decks": ' + b"9" * 5000 + b"}",
            "The request body holds a number of 5,000 digits; use at most 100 digits.",
        ),
    ],
)
def test_bodies_get_the_checks_every_input_gets(
    client: TestClient, body: bytes, message: str
) -> None:
    # Duplicate keys are never resolved silently, and a number past Python's digit limit is
    # one sentence, not a 500.
    response = client.post("/api/odds", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 400, response.text
    assert response.json() == {"error": message}
