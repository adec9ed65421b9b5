"""Dragon Tiger's par sheet (``report --game dragon-tiger``): every figure is the game's exact one.

The sheet is built from :func:`~exactodds.games.dragon_tiger.dragon_tiger_odds` and
:func:`~exactodds.games.dragon_tiger.dragon_tiger_removal` (themselves held to a brute force
over physical cards in tests/test_dragon_tiger.py); here each of the four formats is read back
and compared with what ``odds --game dragon-tiger`` prints, and with the published figures
cited in tests/test_dragon_tiger.py's docstring (Wizard of Odds' Dragon Tiger analysis: Dragon
-0.037349, Tie at 8:1 32.77%, Suited Tie at 50:1 13.98%, Big/Small 7.69%; Evolution's RTPs at
Tie 11:1: 96.27% Dragon/Tiger, 89.64% Tie, 86.02% Suited Tie).
"""

from __future__ import annotations

import io
import json
import re
from fractions import Fraction
from typing import Any

import pytest
from cli_runner import run, run_ok
from openpyxl import load_workbook

from exactodds.games.dragon_tiger import dragon_tiger_odds, dragon_tiger_removal
from exactodds.numbers import fraction_string, percent_string
from exactodds.report.parsheet.render import render_html, render_markdown
from exactodds.report.parsheet.xlsx import write_xlsx
from exactodds.shoe import Shoe
from exactodds.studies.parsheet import ParSheet, dragon_tiger_par_sheet

EIGHT_DECKS = Shoe.standard(decks=8)
STUDIO = {"tie": 11}


@pytest.fixture(scope="module")
def sheet() -> ParSheet:
    """The studio table's sheet (Tie 11:1), tails left out: they are baccarat's code, tested there."""
    return dragon_tiger_par_sheet(EIGHT_DECKS, pays=STUDIO, rounds=(1_000,), tails=False)


def test_every_bet_sheet_is_the_game_s_exact_odds(sheet: ParSheet) -> None:
    odds = dragon_tiger_odds(EIGHT_DECKS, pays=STUDIO)
    assert list(sheet.bets) == list(odds.bet_names) and sheet.played.rounds == odds.rounds
    for name, bet in odds.bets.items():
        page = sheet.bets[name]
        assert page.expected_value == page.result.expected_value == bet.expected_value
        assert page.result.variance == bet.variance
        assert page.return_to_player == bet.return_to_player
        assert page.result.win_probability == bet.probability(bet.pay)
        assert {row.pay: row.count for row in page.rows} == dict(bet.results)
        assert page.combinations == odds.rounds
    assert all(holds for _, holds in sheet.checks) and len(sheet.checks) == 3


def test_the_published_figures(sheet: ParSheet) -> None:
    def shown(name: str, figure: str) -> str:
        page = sheet.bets[name]
        value = page.return_to_player if figure == "rtp" else page.result.house_edge
        return percent_string(value, 2)

    assert [shown(name, "rtp") for name in ("dragon", "tiger", "tie", "suited_tie")] == [
        "96.27%",
        "96.27%",
        "89.64%",
        "86.02%",
    ]
    assert shown("suited_tie", "edge") == "13.98%" and shown("big", "edge") == "7.69%"
    assert f"{float(sheet.bets['dragon'].expected_value):.6f}" == "-0.037349"
    at_eight = dragon_tiger_par_sheet(EIGHT_DECKS, "tie", rounds=(1_000,), tails=False)
    assert percent_string(at_eight.bets["tie"].result.house_edge, 2) == "32.77%"


def test_break_even_pays_make_the_ev_zero(sheet: ParSheet) -> None:
    for name, page in sheet.bets.items():
        (pay,) = page.breakevens
        assert pay.name == name and pay.value is not None and pay.current == page.rows[0].pay
        again = dragon_tiger_odds(EIGHT_DECKS, [name], {name: pay.value})
        assert again.bets[name].expected_value == 0
    # Wizard of Odds: Tie at 12:1 has a 2.89% edge, at 13:1 the player's; 384/31 is between.
    assert sheet.bets["tie"].breakevens[0].value == Fraction(384, 31)


def test_effects_of_removal_and_the_count_are_the_game_s(sheet: ParSheet) -> None:
    removal = dragon_tiger_removal(EIGHT_DECKS, pays=STUDIO)
    for name, page in sheet.bets.items():
        assert page.effects == removal.effects[name]
        assert page.count == removal.counts[name] and page.weighted_sum == 0


def _markdown_tables(text: str) -> list[list[list[str]]]:
    tables: list[list[list[str]]] = []
    current: list[list[str]] = []
    for line in [*text.splitlines(), ""]:
        if line.startswith("|"):
            if not set(line) <= set("|-: "):
                current.append([cell.strip() for cell in line.strip("|").split(" | ")])
        elif current:
            tables.append(current)
            current = []
    return tables


def _summary_matches_odds(rows: list[list[str]], odds: dict[str, Any], digits: int) -> None:
    """The summary table's house edge and RTP are the odds' exact fractions, rounded."""
    header, *bets = rows
    assert header[:3] == ["Bet", "House edge", "RTP"]
    assert [row[0] for row in bets] == list(odds["bets"])
    for name, edge, rtp, *_ in bets:
        figures = odds["bets"][name]
        assert edge == percent_string(Fraction(figures["house_edge"]), digits - 2)
        assert rtp == percent_string(Fraction(figures["rtp"]), digits - 2)


def test_report_markdown_equals_odds_output() -> None:
    args = ("--game", "dragon-tiger", "--pay", "tie=11", "--bets", "dragon,tie,big")
    odds = json.loads(run_ok("odds", *args, "--format", "json").stdout)
    text = run_ok("report", *args, "--rounds", "100", "--confidence", "95").stdout
    tables = _markdown_tables(text)
    summary = next(
        table for table in tables if table[0][0] == "Bet" and table[0][1] == "House edge"
    )
    _summary_matches_odds(summary, odds, 10)
    assert text.startswith("# Dragon Tiger par sheet: dragon, tie, big, 8 decks")
    assert "| Rounds counted | 172,640 ordered two-card sequences |" in text
    assert "| win | 11 | 12,896 |" in text and "| tie | -1/2 | 12,896 |" in text
    assert "Tableau" not in text and "six-card" not in text


def test_html_tables_are_the_model_s(sheet: ParSheet) -> None:
    cells = re.sub(r"<td[^>]*>", "<td>", render_html(sheet, 8))
    odds = dragon_tiger_odds(EIGHT_DECKS, pays=STUDIO).to_dict()
    for name, bet in odds["bets"].items():
        edge, rtp = (percent_string(Fraction(bet[key]), 6) for key in ("house_edge", "rtp"))
        assert f"<td>{name}</td><td>{edge}</td><td>{rtp}</td>" in cells
        assert f"<td>{fraction_string(Fraction(bet['ev']))}</td>" in cells
    assert render_markdown(sheet, 8).count("## Bet: ") == 6


def test_xlsx_exact_columns_are_the_odds(sheet: ParSheet) -> None:
    buffer = io.BytesIO()
    write_xlsx(sheet, buffer)
    buffer.seek(0)
    workbook = load_workbook(buffer)
    assert workbook.sheetnames == ["Summary", "Rules", *sheet.bets]
    odds = dragon_tiger_odds(EIGHT_DECKS, pays=STUDIO)
    rows = {row[0]: row for row in workbook["Summary"].iter_rows(values_only=True) if row[0]}
    assert rows["Rounds counted"][1:3] == (172_640, "172640")
    for name, bet in odds.bets.items():
        assert rows[name][2] == fraction_string(bet.house_edge)
        assert rows[name][4] == fraction_string(bet.return_to_player)
        page = {row[0]: row for row in workbook[name].iter_rows(values_only=True) if row[0]}
        assert page["Total combinations (two-card sequences)"][1] == odds.rounds
        assert page["win"][4] == str(bet.results[bet.pay])


@pytest.mark.slow  # the PDF embeds its font: some 6 s, as baccarat's PDF tests
def test_pdf_holds_the_summary() -> None:
    from pypdf import PdfReader

    from exactodds.report.parsheet.pdf import render_pdf

    small = dragon_tiger_par_sheet(EIGHT_DECKS, "tie", STUDIO, rounds=(100,), tails=False)
    reader = PdfReader(io.BytesIO(render_pdf(small, 6)))
    text = re.sub(r"\s+", "", "".join(page.extract_text() for page in reader.pages))
    assert "89.6386%" in text and "172,640orderedtwo-cardsequences" in text
    assert reader.metadata is not None and reader.metadata.subject == "Dragon Tiger par sheet: tie"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--compare", "decks=4,6"), "Error: --compare is a baccarat option;"),
        (("--commission", "4%"), "Error: --commission is a baccarat option;"),
        (("--bets", "banker"), "Error: Bet 'banker' in --bets is a baccarat bet;"),
        (("--shoe", "A=1,K=1", "--bets", "suited_tie"), "Error: No chosen bet can be priced"),
    ],
)
def test_bad_usage_is_one_sentence(args: tuple[str, ...], message: str) -> None:
    result = run("report", "--game", "dragon-tiger", *args)
    assert result.exit_code in (1, 2) and result.stdout == ""
    assert result.stderr.startswith(message) and result.stderr.count("\n") == 1
