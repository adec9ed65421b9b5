"""Card-level bets beyond `odds`: the effect of removal, break-even pays and the par sheet.

Each is priced by the card walk that :func:`~exactodds.analysis.single.analyze` uses, so the
checks are: the effects of removal and the break-even pays against a brute force over physical
cards on tiny suited shoes (every shoe left after a physical card is removed dealt out in full,
each round settled by code written from the condition's words, in ``test_card_bets``); the
identity that one card's effects, weighted by the shoe's cards of each rank, add up to 0; and
the par sheet's figures, in all four formats, against the analysis that ``odds`` prints, with
the published Perfect 9 figures on 8 decks.
"""

from __future__ import annotations

import io
import itertools
import json
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from budget import budgeted, thorough
from cli_runner import run
from hypothesis import given
from hypothesis import strategies as st
from test_card_bets import EXAMPLES, _brute_force, _Condition, _outcomes
from test_parsheet import Tables, markdown_tables

from exactodds import Rules, Shoe
from exactodds.analysis.removal import effect_of_removal
from exactodds.analysis.single import analyze
from exactodds.analysis.symbolic import find_breakeven
from exactodds.bets.bet import Bet
from exactodds.bets.custom import load_custom_bets, parse_custom_bets
from exactodds.cards import RANKS
from exactodds.numbers import fraction_string
from exactodds.report.parsheet.render import render_html, render_markdown
from exactodds.report.registry import render_bytes
from exactodds.studies.parsheet import ParSheet, par_sheet

#: An 8-card suited shoe with every Perfect 9 outcome (suited and unsuited nines, a 9 with a ten).
SMALL = "AH=1,8H=1,8S=1,9S=1,KD=1,KS=1,4C=1,5C=1"
_FACES = [f"{rank}{suit}" for rank in "9K" for suit in "SHDC"] + ["AH", "AS", "5D", "5C"]


def _shoe(faces: list[str]) -> Shoe:
    return Shoe.from_mapping(dict(Counter(faces)))


def _bet(outcomes: list[_Condition]) -> Bet:
    text = '[[bet]]\nname = "card_bet"\n' + "".join(
        f'[[bet.outcome]]\nname = "o{index}"\nwhen = {{ {toml} }}\npays = {index + 2}\n'
        for index, (toml, _) in enumerate(outcomes)
    )
    (bet,) = parse_custom_bets(text)
    return bet


def _physical_ev(bet: Bet, faces: list[str], outcomes: list[_Condition]) -> Fraction:
    counts = _brute_force(_shoe(faces), outcomes)
    return Fraction(sum(bet.pay(name) * count for name, count in counts.items()), counts.total())


@thorough  # each example compiles card terms; test_card_terms holds them to physical cards
@budgeted(12, deadline=None)
@given(
    faces=st.lists(st.sampled_from(_FACES), min_size=7, max_size=8),
    outcomes=st.lists(_outcomes(), min_size=1, max_size=2),
    cards=st.sampled_from([1, 2]),
)
def test_card_bet_removal_matches_physical_cards(
    faces: list[str], outcomes: list[_Condition], cards: int
) -> None:
    """Each rank's effect is the mean, over the physical cards of that rank that could leave,
    of the brute-force EV of the shoe left, less the brute-force EV of the whole shoe."""
    if len(faces) - cards < 6:
        cards = 1
    bet = _bet(outcomes)
    shoe = _shoe(faces)
    result = effect_of_removal(shoe, Rules(), [bet], cards=cards)
    before = _physical_ev(bet, faces, outcomes)
    assert result.expected_values["card_bet"] == before
    for rank in RANKS:
        positions = [index for index, face in enumerate(faces) if face[0] == rank.symbol]
        if len(positions) < cards:
            assert rank.symbol in result.skipped
            continue
        removed = list(itertools.combinations(positions, cards))
        after = sum(
            (
                _physical_ev(bet, [f for i, f in enumerate(faces) if i not in gone], outcomes)
                for gone in removed
            ),
            Fraction(0),
        ) / len(removed)
        assert result.effect("card_bet", rank.symbol) == after - before
    if cards == 1:
        assert result.weighted_sum("card_bet") == 0


@budgeted(8, deadline=None)
@given(
    faces=st.lists(st.sampled_from(_FACES), min_size=6, max_size=8),
    outcomes=st.lists(_outcomes(), min_size=1, max_size=2),
)
def test_card_bet_breakeven_makes_the_physical_ev_zero(
    faces: list[str], outcomes: list[_Condition]
) -> None:
    """The break-even pay of each winning outcome, put in its place, makes the brute-force EV
    over physical cards exactly 0 (the EV is linear in a pay)."""
    bet = _bet(outcomes)
    counts = _brute_force(_shoe(faces), outcomes)
    for outcome in sorted(name for name, pay in bet.pay_table.items() if pay > 0):
        pay = f"card_bet.{outcome}" if len(outcomes) > 1 else None
        if counts[outcome] == 0:
            continue
        solved = find_breakeven(bet, pay, _shoe(faces), Rules())
        pays = {name: bet.pay(name) for name in counts} | {outcome: solved.value}
        assert sum(pays[name] * count for name, count in counts.items()) == 0


@pytest.mark.slow
def test_effects_of_a_card_bet_weigh_to_zero_on_a_deck() -> None:
    """On a full suited deck, Perfect 9's effects weighted by the cards of each rank add up to
    0, and the ranks that pair with one another to make 9 (A with 8, 2 with 7...) move it alike."""
    (perfect_9,) = load_custom_bets(EXAMPLES / "perfect_9.toml")
    result = effect_of_removal(Shoe.standard(decks=1), Rules(), [perfect_9])
    assert result.weighted_sum("perfect_9") == 0
    effects = result.effects["perfect_9"]
    for low in "1234":
        high = str(9 - int(low))
        assert effects["A" if low == "1" else low] == effects[high]


@pytest.fixture(scope="module")
def small_sheet() -> ParSheet:
    (perfect_9,) = load_custom_bets(EXAMPLES / "perfect_9.toml")
    return par_sheet(Shoe.parse(SMALL), Rules(), [perfect_9], rounds=(1_000,))


def test_par_sheet_of_a_card_bet_is_its_analysis(small_sheet: ParSheet) -> None:
    """The sheet's outcome rows, removal and break-even pays are the analysis', the effect of
    removal's and the solved pays' (each pay in its place makes the EV 0)."""
    shoe = Shoe.parse(SMALL)
    analysis = analyze(shoe, Rules(), [small_sheet.analysis.bets["perfect_9"].bet])
    expected = analysis.bets["perfect_9"]
    sheet = small_sheet.bets["perfect_9"]
    assert sheet.result.outcome_counts == expected.outcome_counts
    assert sheet.expected_value == expected.expected_value
    assert small_sheet.removal is not None
    assert sheet.effects == small_sheet.removal.effects["perfect_9"]
    assert small_sheet.removal.weighted_sum("perfect_9") == 0
    for pay in sheet.breakevens:
        assert pay.value is not None, pay.reason
        outcome = pay.name.split(".")[1]
        pays = dict(expected.bet.pay_table) | {outcome: pay.value}
        ev = sum(pays[name] * count for name, count in expected.outcome_counts.items())
        assert ev == 0
    assert all(holds for _, holds in small_sheet.checks)


def _outcome_rows(tables: dict[str, list[list[str]]], sheet: ParSheet) -> None:
    """The par sheet's outcome table of perfect_9 is the analysis' counts, pays and exact
    probabilities, row by row."""
    result = sheet.bets["perfect_9"].result
    header, *rows = tables["perfect_9-outcomes"]
    assert header[:5] == ["Outcome", "Pays", "Combinations", "Probability", "Probability (exact)"]
    shown = {row[0]: (row[1], row[2], row[4]) for row in rows}
    for outcome, count in result.outcome_counts.items():
        probability = Fraction(count, result.total)
        assert shown[outcome] == (
            fraction_string(result.bet.pay(outcome)),
            f"{count:,}",
            fraction_string(probability),
        )


def test_par_sheet_of_a_card_bet_in_every_format(small_sheet: ParSheet) -> None:
    """Markdown and HTML tables hold the analysis' outcome rows; the xlsx has the bet's sheet
    with its combinations (the PDF: the slow test below)."""
    names = ["identity", "setup", "summary", "tableau", "pays"]
    for name in small_sheet.bets:
        names += [f"{name}-{kind}" for kind in ("outcomes", "figures", "volatility", "hold")]
        names += [f"{name}-tails", f"{name}-percentiles", f"{name}-removal", f"{name}-breakeven"]
    names.append("checks")
    tables = markdown_tables(render_markdown(small_sheet, 10))
    _outcome_rows(dict(zip(names, tables, strict=True)), small_sheet)
    parser = Tables()
    parser.feed(render_html(small_sheet, 10))
    _outcome_rows(parser.tables, small_sheet)
    from openpyxl import load_workbook

    workbook = load_workbook(io.BytesIO(render_bytes(small_sheet, "xlsx", digits=10)))
    cells = {cell.value for row in workbook["perfect_9"].iter_rows() for cell in row}
    for count in small_sheet.bets["perfect_9"].result.outcome_counts.values():
        assert count in cells or f"{count:,}" in cells


@pytest.mark.slow
def test_par_sheet_of_a_card_bet_as_pdf(small_sheet: ParSheet) -> None:
    """The PDF's text names the card bet and holds its house edge (slow: the PDF's font)."""
    from pypdf import PdfReader

    pdf = render_bytes(small_sheet, "pdf", digits=10, figures=False)
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    assert "perfect_9" in text
    assert small_sheet.bets["perfect_9"].result.house_edge_percent(8) in text


@pytest.mark.slow
def test_perfect_9_par_sheet_published_and_equal_to_odds() -> None:
    """Wizard of Odds, "Perfect 9 Bonus Baccarat" (wizardofodds.com/article/perfect-9-bonus-baccarat/,
    cited in test_card_bets): 8 decks, 1,024 / 3,072 / 4,096 / 78,128 of 86,320 two-card hands,
    house edge 7.47%; the par sheet's rows and edge are `odds`' JSON, exactly."""
    (perfect_9,) = load_custom_bets(EXAMPLES / "perfect_9.toml")
    sheet = par_sheet(Shoe.standard(decks=8), Rules(), [perfect_9]).bets["perfect_9"]
    per_hand = sheet.result.total // 86_320
    assert {row.outcome: row.count // per_hand for row in sheet.rows} == {
        "suited_nine": 1_024,
        "unsuited_nine": 3_072,
        "nine_with_ten": 4_096,
        "lose": 78_128,
    }
    assert sheet.result.house_edge_percent(2) == "7.47%"
    printed = run("odds", "--bet-file", str(EXAMPLES / "perfect_9.toml"), "--format", "json")
    odds = json.loads(printed.stdout)["bets"]["perfect_9"]
    assert Fraction(odds["house_edge"]) == sheet.result.house_edge
    assert odds["outcome_counts"] == {row.outcome: row.count for row in sheet.rows}


def test_eor_breakeven_and_report_take_card_bets(tmp_path: Path) -> None:
    """The three commands price a card-level bet, on stdout or in a file, exit 0."""
    bet_file = str(EXAMPLES / "perfect_9.toml")
    removal = run(
        "eor", "--shoe", SMALL, "--bet-file", bet_file, "--bets", "perfect_9", "--format", "json"
    )
    assert removal.exit_code == 0, removal.stderr
    assert json.loads(removal.stdout)["bets"]["perfect_9"]["weighted_sum"] == "0"
    solved = run(
        "breakeven",
        "--shoe",
        SMALL,
        "--bet-file",
        bet_file,
        "--bet",
        "perfect_9",
        "--pay",
        "perfect_9.suited_nine",
        "--format",
        "json",
    )
    assert solved.exit_code == 0, solved.stderr
    sheet = run(
        "report",
        "--shoe",
        SMALL,
        "--bet-file",
        bet_file,
        "--bets",
        "perfect_9",
        "--quiet",
        "--no-breakeven",
    )
    assert sheet.exit_code == 0, sheet.stderr
    assert "## Bet: perfect_9" in sheet.stdout


def test_the_tracker_prices_a_card_bet_after_every_round() -> None:
    """`serve --bet-file perfect_9.toml`: a suited table's view after a round holds Perfect 9's
    exact EV on the cards left (analyze's), and counts for the other bets only."""
    from starlette.testclient import TestClient

    from exactodds.bets.catalogue import available_bets
    from exactodds.web.app import create_app

    custom = load_custom_bets(EXAMPLES / "perfect_9.toml", list(available_bets()))
    app = create_app(":memory:", custom)
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:
        settings = {"decks": 1, "suits": True, "bets": "banker,perfect_9"}
        made = client.post("/api/shoes", json={"name": "T", "settings": settings})
        assert made.status_code == 201, made.text
        shoe_id = made.json()["shoe"]["id"]
        view = client.post(
            f"/api/shoes/{shoe_id}/rounds", json={"player": "2H3S5D", "banker": "7C7D4H"}
        ).json()
    left = Shoe.standard(decks=1).remove("2H 3S 5D 7C 7D 4H")
    expected = analyze(left, Rules(), custom).bets["perfect_9"].expected_value
    assert view["odds_error"] is None
    assert Fraction(view["odds"]["bets"]["perfect_9"]["ev"]) == expected
    assert list(view["counts"]) == ["banker"]


def test_shoes_with_one_class_key_walk_alike() -> None:
    """The effect of removal walks one shoe per class key: shoes whose suits differ by a
    permutation the view cannot see (every one, or those keeping colours) have one key and
    one card table, and a permutation the view can see changes the key."""
    from exactodds.engine.cardwalk import CardView, class_key, enumerate_card_rounds

    shoe = Shoe.parse("AH=2,8H=1,8S=1,9S=1,KD=1,KS=1,4C=1,5C=1")
    swapped = Shoe.parse("AS=2,8S=1,8H=1,9H=1,KC=1,KH=1,4D=1,5D=1")  # S<->H, D<->C
    views = {
        CardView(suited=True, player_first=True): True,
        CardView(colours=True, whole_round=True, values=False): False,
        CardView(ranks=True, suits=True, banker_first=True): False,
    }
    for view, alike in views.items():
        assert (class_key(shoe, view) == class_key(swapped, view)) is alike
        if alike:
            assert enumerate_card_rounds(shoe, view).counts == (
                enumerate_card_rounds(swapped, view).counts
            )
