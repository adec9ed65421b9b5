"""Par sheets (``exactodds report``): every number in every format is analyze()'s exact value.

- The xlsx is read back with openpyxl: the exact text columns equal the exact values, and the
  formulas, evaluated here in exact arithmetic by a small evaluator of the few functions the
  workbook uses, give the same values (to float precision after a square root).
- The HTML's tables and the Markdown's tables are parsed back and compared the same way; the
  PDF's text (pypdf) holds every row of every table.
- The volatility index and the hold's bands are checked against the textbook formulas
  (Kilby, Fox and Lucas, *Casino Operations Management*, ch. on game volatility; Hannum and
  Cabot, *Practical Casino Math*: VI = z * sd, hold within house edge +- z * sd / sqrt(N)),
  on bets simple enough to check by hand, computed independently here with 60-digit decimals.
- Bad input (unknown format, unwritable path, missing optional extra) is one sentence, exit 2.
"""

from __future__ import annotations

import io
import math
import re
import subprocess
import sys
from collections.abc import Callable, Sequence
from decimal import ROUND_HALF_EVEN, Decimal, localcontext
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from budget import budgeted, thorough
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from openpyxl import load_workbook

from exactodds import Rules, Shoe
from exactodds.analysis.removal import effect_of_removal
from exactodds.analysis.single import analyze
from exactodds.bets.catalogue import select_bets
from exactodds.cli import cli
from exactodds.numbers import decimal_string, fraction_string, percent_string
from exactodds.report.parsheet.render import render_html, render_markdown
from exactodds.report.parsheet.xlsx import write_xlsx
from exactodds.studies.parsheet import (
    BetSheet,
    HoldBand,
    ParSheet,
    VolatilityIndex,
    offset_root_decimal,
    par_sheet,
    z_score,
)

ROOT = Path(__file__).resolve().parent.parent
BETS = "banker,player,tie,dragon7,lucky6,perfect_pair"


@pytest.fixture(scope="module")
def sheet() -> ParSheet:
    return par_sheet(Shoe.standard(decks=8), Rules(), select_bets(BETS))


def run(*arguments: str) -> Any:
    return CliRunner().invoke(cli, list(arguments))


def _one_error_line(result: Any, pattern: str) -> None:
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: ")
    assert re.search(pattern, lines[0]), lines[0]


# Textbook formulas, computed independently with 60-digit decimals -----------------------


def _decimal(value: Fraction) -> Decimal:
    return Decimal(value.numerator) / Decimal(value.denominator)


def _round(value: Decimal, digits: int) -> str:
    rounded = value.quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_EVEN)
    text = format(rounded, "f")
    return text.lstrip("-") if rounded == 0 else text


def textbook_volatility(variance: Fraction, z: Decimal, digits: int) -> str:
    """VI = z * sd."""
    with localcontext() as context:
        context.prec = 60
        return _round(z * _decimal(variance).sqrt(), digits)


def textbook_band(
    edge: Fraction, variance: Fraction, z: Decimal, rounds: int, digits: int
) -> tuple[str, str]:
    """The hold after N rounds: house edge -+ z * sd / sqrt(N), in percent."""
    with localcontext() as context:
        context.prec = 60
        half = z * _decimal(variance).sqrt() / Decimal(rounds).sqrt()
        low, high = (_decimal(edge) - half) * 100, (_decimal(edge) + half) * 100
        return _round(low, digits) + "%", _round(high, digits) + "%"


def test_z_scores_are_the_published_two_sided_quantiles() -> None:
    # Standard normal table (NIST/SEMATECH e-Handbook, 1.3.6.7.1): 1.645, 1.960, 2.576.
    assert [z_score(level) for level in (90, 95, 99)] == [
        Fraction("1.645"),
        Fraction("1.960"),
        Fraction("2.576"),
    ]


def test_volatility_and_band_of_a_coin_flip_by_hand() -> None:
    # Even money on a fair coin: EV 0, variance 1, sd 1, so VI is z itself, and after
    # 10,000 rounds the hold lies within 0 +- z / 100.
    assert VolatilityIndex(90, z_score(90), Fraction(1)).decimal(3) == "1.645"
    assert VolatilityIndex(99, z_score(99), Fraction(1)).decimal(3) == "2.576"
    band = HoldBand(10_000, 95, z_score(95), Fraction(0), Fraction(1))
    assert (band.low_percent(2), band.high_percent(2)) == ("-1.96%", "1.96%")
    # 3 to 1 on one chance in four: EV 0, variance 9/4 + 3/4 = 3, VI(95%) = 1.96 * sqrt(3).
    assert VolatilityIndex(95, z_score(95), Fraction(3)).decimal(6) == "3.394820"


def test_tie_bet_volatility_and_bands_against_the_textbook_formula(sheet: ParSheet) -> None:
    # The Tie bet has two outcomes, +8 with probability p and -1 otherwise, so by hand its
    # variance is (8 + 1)**2 * p * (1 - p) and its house edge 1 - 9p.
    result = analyze(Shoe.standard(decks=8), Rules())
    p = result.outcomes["tie"].probability
    variance = 81 * p * (1 - p)
    tie = sheet.bets["tie"]
    assert tie.result.variance == variance
    assert tie.result.house_edge == 1 - 9 * p
    for index in tie.volatility:
        z = Decimal(str(float(index.z)))
        assert index.decimal(12) == textbook_volatility(variance, z, 12)
    for band in tie.holds:
        z = Decimal(str(float(band.z)))
        expected = textbook_band(1 - 9 * p, variance, z, band.rounds, 10)
        assert (band.low_percent(10), band.high_percent(10)) == expected
    assert [band.rounds for band in tie.holds_at(1_000_000)] == [1_000_000] * 3


@settings(max_examples=60, deadline=None)
@given(
    st.fractions(min_value=-10, max_value=10, max_denominator=10**6),
    st.fractions(min_value=0, max_value=100, max_denominator=10**6),
    st.sampled_from([-1, 1]),
    st.integers(min_value=0, max_value=12),
)
def test_offset_root_is_correctly_rounded(
    center: Fraction, radicand: Fraction, sign: int, digits: int
) -> None:
    with localcontext() as context:
        context.prec = 80
        exact = _decimal(center) + sign * _decimal(radicand).sqrt()
        # 80 digits decide every rounding but an exact tie, which only a rational root has.
        assert offset_root_decimal(center, radicand, sign, digits) == _round(exact, digits)


# The library's figures are analyze()'s ---------------------------------------------------


def test_every_bet_sheet_carries_analyze_figures(sheet: ParSheet) -> None:
    result = analyze(Shoe.standard(decks=8), Rules(), select_bets(BETS))
    removal = effect_of_removal(Shoe.standard(decks=8), Rules(), select_bets(BETS))
    assert set(sheet.bets) == set(result.bets)
    for name, bet in sheet.bets.items():
        expected = result.bets[name]
        assert {row.outcome: row.count for row in bet.rows if row.count} == dict(
            expected.outcome_counts
        )
        assert bet.expected_value == expected.expected_value
        assert bet.result.variance == expected.variance
        assert bet.effects == removal.effects[name]
        assert bet.count == removal.linear_count(name)
    assert all(holds for _, holds in sheet.checks)


def test_breakeven_pays_make_the_ev_zero(sheet: ParSheet) -> None:
    for bet in sheet.bets.values():
        assert bet.breakevens
        for pay in bet.breakevens:
            assert pay.value is not None
            if pay.name == "commission":
                moved = bet.expected_value - bet.result.win_probability * (pay.value - pay.current)
            else:
                outcome = pay.name.partition(".")[2] or next(
                    row.outcome for row in bet.rows if row.pay > 0
                )
                row = next(row for row in bet.rows if row.outcome == outcome)
                moved = bet.expected_value + row.probability * (pay.value - row.pay)
            assert moved == 0, pay


def test_suited_bet_on_a_rank_only_shoe_is_listed_with_the_reason() -> None:
    shoe = Shoe.standard(decks=8).remove("K")
    result = par_sheet(shoe, Rules(), select_bets("tie,perfect_pair"), breakeven=False)
    assert list(result.bets) == ["tie"]
    assert "needs suits" in result.unavailable["perfect_pair"]
    assert "perfect_pair: not computable." in render_markdown(result)


# xlsx: read back with openpyxl, formulas evaluated exactly ------------------------------

_TOKEN = re.compile(
    r"\s*(?:(?P<range>\$?[A-Z]+\$?\d+:\$?[A-Z]+\$?\d+)|(?P<cell>\$?[A-Z]+\$?\d+)"
    r"|(?P<function>[A-Z]+)\(|(?P<number>\d+(?:\.\d+)?)|(?P<string>\"[^\"]*\")"
    r"|(?P<operator>[-+*/^(),]))"
)


class Workbook:
    """Evaluates the workbook's formulas (SUM, SUMIF, SUMPRODUCT, SQRT, + - * / ^) exactly."""

    def __init__(self, worksheet: Any) -> None:
        self.worksheet = worksheet

    def value(self, reference: str) -> Any:
        raw = self.worksheet[reference.replace("$", "")].value
        if isinstance(raw, str) and raw.startswith("="):
            return self.formula(raw[1:])
        if isinstance(raw, float):
            return Fraction(str(raw))  # decimals such as z = 1.645, exactly as written
        if isinstance(raw, int):
            return Fraction(raw)
        return raw

    def cells(self, text: str) -> list[Any]:
        first, last = text.replace("$", "").split(":")
        column = re.match(r"[A-Z]+", first)
        assert column is not None
        start, end = int(first[column.end() :]), int(last[column.end() :])
        return [self.value(f"{column.group()}{row}") for row in range(start, end + 1)]

    def formula(self, text: str) -> Any:
        python: list[str] = []
        position = 0
        while position < len(text):
            match = _TOKEN.match(text, position)
            assert match, f"cannot read formula {text!r} at {position}"
            position = match.end()
            kind, token = match.lastgroup, match.group(match.lastgroup or 0)
            if kind == "range":
                python.append(f"cells({token!r})")
            elif kind == "cell":
                python.append(f"value({token!r})")
            elif kind == "function":
                python.append(f"{token}(")
            elif kind == "number":
                python.append(f"Fraction({token!r})")
            elif token == "^":
                python.append("**")
            else:
                python.append(token)
        return eval("".join(python), {"Fraction": Fraction, **self.functions()})

    def functions(self) -> dict[str, Callable[..., Any]]:
        def matches(value: Any, criterion: Any) -> bool:
            if isinstance(criterion, str):
                operator, number = criterion[0], Fraction(criterion[1:])
                return bool(value > number if operator == ">" else value < number)
            return bool(value == criterion)

        return {
            "cells": self.cells,
            "value": self.value,
            "SUM": lambda values: sum(values, Fraction(0)),
            "SUMIF": lambda test, criterion, values: sum(
                (v for t, v in zip(test, values, strict=True) if matches(t, criterion)),
                Fraction(0),
            ),
            "SUMPRODUCT": lambda *columns: sum(
                (math.prod(items) for items in zip(*columns, strict=True)), Fraction(0)
            ),
            "SQRT": lambda value: math.sqrt(value),
            "MAX": max,
            "MIN": min,
        }


def _rows(worksheet: Any) -> dict[str, int]:
    """The first row of each label in column A."""
    found: dict[str, int] = {}
    for (cell,) in worksheet.iter_rows(min_col=1, max_col=1):
        if isinstance(cell.value, str) and cell.value not in found:
            found[cell.value] = cell.row
    return found


@pytest.fixture(scope="module")
def workbook(sheet: ParSheet) -> Any:
    buffer = io.BytesIO()
    write_xlsx(sheet, buffer)
    buffer.seek(0)
    return load_workbook(buffer)


def test_xlsx_has_one_sheet_per_bet_and_recalculates_on_opening(
    workbook: Any, sheet: ParSheet
) -> None:
    assert workbook.sheetnames == ["Summary", "Rules", *sheet.bets]
    assert workbook.calculation.fullCalcOnLoad


def test_xlsx_outcome_tables_are_exact_and_their_formulas_agree(
    workbook: Any, sheet: ParSheet
) -> None:
    result = analyze(Shoe.standard(decks=8), Rules(), select_bets(BETS))
    for name, expected in result.bets.items():
        worksheet = workbook[name]
        book = Workbook(worksheet)
        labels = _rows(worksheet)
        total_row = labels["Total combinations (six-card sequences)"]
        assert worksheet.cell(total_row, 2).value == result.total  # an integer, every digit
        assert worksheet.cell(total_row, 3).value == str(result.total)
        for outcome, pay in expected.bet.pay_table.items():
            row = labels[outcome]
            count = expected.outcome_counts.get(outcome, 0)
            probability = Fraction(count, expected.total)
            assert worksheet.cell(row, 4).value == count
            assert worksheet.cell(row, 5).value == str(count)
            assert worksheet.cell(row, 3).value == fraction_string(pay)
            assert worksheet.cell(row, 7).value == fraction_string(probability)
            assert worksheet.cell(row, 9).value == fraction_string(probability * pay)
            assert book.value(f"B{row}") == pay
            assert book.value(f"F{row}") == probability
            assert book.value(f"H{row}") == probability * pay
        exact = {
            "Expected value (EV)": expected.expected_value,
            "House edge": expected.house_edge,
            "Hit frequency": expected.win_probability,
            "Push probability": expected.push_probability,
            "Loss probability": expected.loss_probability,
            "Edge per resolved bet": expected.house_edge_per_resolved_bet,
            "Variance": expected.variance,
        }
        for label, value in exact.items():
            row = labels[label]
            assert value is not None  # no bet here pushes every round
            assert worksheet.cell(row, 3).value == fraction_string(value), label
            assert book.value(f"B{row}") == value, label  # the formula, evaluated exactly
        row = labels["Standard deviation (SD)"]
        deviation = book.value(f"B{row}")
        assert worksheet.cell(row, 3).value == expected.standard_deviation(15)
        assert deviation == pytest.approx(float(expected.standard_deviation(17)), rel=1e-12)
        for level in (90, 95, 99):
            row = labels[f"{level}%"]
            z = z_score(level)
            assert book.value(f"B{row}") == z
            assert book.value(f"C{row}") == pytest.approx(float(z) * deviation, rel=1e-12)
            index = VolatilityIndex(level, z, expected.variance)
            assert worksheet.cell(row, 4).value == index.decimal(15)


def test_xlsx_hold_bands_removal_and_breakeven(workbook: Any, sheet: ParSheet) -> None:
    for name, bet in sheet.bets.items():
        worksheet = workbook[name]
        book = Workbook(worksheet)
        band_rows = [
            row[0].row
            for row in worksheet.iter_rows(min_col=1, max_col=1)
            if isinstance(row[0].value, int) and row[0].row > _rows(worksheet)["Rounds"]
        ][: len(bet.holds)]
        for row, band in zip(band_rows, bet.holds, strict=True):
            assert worksheet.cell(row, 1).value == band.rounds
            assert book.value(f"D{row}") == bet.result.house_edge
            low, high = band.bounds()
            assert float(book.value(f"E{row}")) == pytest.approx(low, rel=1e-9, abs=1e-12)
            assert float(book.value(f"F{row}")) == pytest.approx(high, rel=1e-9, abs=1e-12)
            assert worksheet.cell(row, 7).value == band.low_percent(13)
        labels = _rows(worksheet)
        assert bet.effects is not None
        for rank, effect in bet.effects.items():
            row = next(
                cell.row
                for (cell,) in worksheet.iter_rows(min_col=1, max_col=1)
                if cell.value == rank and cell.row > labels["Rank"]
            )
            assert worksheet.cell(row, 4).value == fraction_string(effect or 0)
        for pay in bet.breakevens:
            row = labels[pay.name]
            assert pay.value is not None
            assert worksheet.cell(row, 4).value == fraction_string(pay.value)
            assert float(book.value(f"C{row}")) == pytest.approx(float(pay.value), rel=1e-9)


def _model_figures(worksheet: Any, bet: BetSheet) -> dict[str, Fraction]:
    """Each formula cell of a bet's worksheet, found by its row's label, and the figure of
    the par-sheet model it stands for (a square root correctly rounded to 40 places)."""
    labels = _rows(worksheet)
    result = bet.result
    figures: dict[str, Fraction] = {}
    for row in bet.rows:
        at = labels[row.outcome]
        if row.pay.denominator != 1:
            figures[f"B{at}"] = row.pay  # a pay such as =19/20
        figures[f"F{at}"] = row.probability
        figures[f"H{at}"] = row.contribution
    total = labels["Total"]
    figures |= {
        f"D{total}": Fraction(bet.combinations),
        f"F{total}": bet.total_probability,
        f"H{total}": bet.expected_value,
    }
    exact = {
        "Expected value (EV)": result.expected_value,
        "House edge": result.house_edge,
        "Return to player (RTP)": bet.return_to_player,
        "Hit frequency": result.win_probability,
        "Push probability": result.push_probability,
        "Loss probability": result.loss_probability,
        "Edge per resolved bet": result.house_edge_per_resolved_bet,
        "Variance": result.variance,
        "Standard deviation (SD)": Fraction(result.standard_deviation(40)),
    }
    figures |= {f"B{labels[label]}": value for label, value in exact.items() if value is not None}
    for index in bet.volatility:
        figures[f"C{labels[f'{index.confidence}%']}"] = Fraction(index.decimal(40))
    band_rows = [
        cell.row
        for (cell,) in worksheet.iter_rows(min_col=1, max_col=1)
        if isinstance(cell.value, int) and cell.row > labels["Rounds"]
    ]
    for at, band in zip(band_rows, bet.holds, strict=False):
        figures[f"D{at}"] = band.house_edge
        figures[f"E{at}"] = Fraction(band.low_percent(40)[:-1]) / 100
        figures[f"F{at}"] = Fraction(band.high_percent(40)[:-1]) / 100
    for pay in bet.breakevens:
        if pay.value is not None:
            figures[f"C{labels[pay.name]}"] = pay.value
    return figures


def test_every_xlsx_formula_carries_the_models_figure_as_its_cached_value(
    sheet: ParSheet,
) -> None:
    buffer = io.BytesIO()
    write_xlsx(sheet, buffer)
    formulas = load_workbook(io.BytesIO(buffer.getvalue()), data_only=False)
    values = load_workbook(io.BytesIO(buffer.getvalue()), data_only=True)
    checked = set()
    for worksheet in formulas.worksheets:
        found = {
            cell.coordinate
            for row in worksheet.iter_rows()
            for cell in row
            if isinstance(cell.value, str) and cell.value.startswith("=")
        }
        bet = sheet.bets.get(worksheet.title)
        figures = _model_figures(worksheet, bet) if bet is not None else {}
        assert found == set(figures), worksheet.title  # every formula cell is a model figure
        for coordinate, figure in figures.items():
            cached = values[worksheet.title][coordinate].value
            assert isinstance(cached, (int, float)), (worksheet.title, coordinate, cached)
            assert cached == float(figure), (worksheet.title, coordinate)
        if figures:
            checked.add(worksheet.title)
    assert checked == set(sheet.bets)  # each bet's sheet has its formulas, none elsewhere


# HTML and Markdown tables, parsed back -------------------------------------------------


class Tables(HTMLParser):
    """Every <table id=...> of a page: id -> rows of cell texts (the header row first)."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self.current: list[list[str]] | None = None
        self.cell: list[str] | None = None
        self.figures: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if tag == "table":
            self.current = self.tables.setdefault(attributes.get("id") or "", [])
        elif tag == "tr" and self.current is not None:
            self.current.append([])
        elif tag in ("td", "th"):
            self.cell = []
        elif tag == "figure":
            self.figures.append(attributes.get("id") or "")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self.current is not None and self.cell is not None:
            self.current[-1].append("".join(self.cell))
            self.cell = None
        elif tag == "table":
            self.current = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def markdown_tables(text: str) -> list[list[list[str]]]:
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


def _check_tables(tables: dict[str, list[list[str]]], sheet: ParSheet, digits: int) -> None:
    result = analyze(Shoe.standard(decks=8), Rules(), select_bets(BETS))
    for name, expected in result.bets.items():
        header, *rows = tables[f"{name}-outcomes"]
        assert header[:3] == ["Outcome", "Pays", "Combinations"]
        by_outcome = {row[0]: row for row in rows}
        for outcome, pay in expected.bet.pay_table.items():
            count = expected.outcome_counts.get(outcome, 0)
            probability = Fraction(count, expected.total)
            assert by_outcome[outcome] == [
                outcome,
                fraction_string(pay),
                f"{count:,}",
                decimal_string(probability, digits),
                fraction_string(probability),
                decimal_string(probability * pay, digits),
                fraction_string(probability * pay),
                "never" if count == 0 else decimal_string(1 / probability, 2),  # 1 in X
                "never" if count == 0 else f"{decimal_string(1 / probability - 1, 2)} to 1",
            ]
        assert by_outcome["total"][6] == fraction_string(expected.expected_value)
        figures = {row[0]: row[1:] for row in tables[f"{name}-figures"][1:]}
        assert figures["House edge"] == [
            percent_string(expected.house_edge, digits - 2),
            fraction_string(expected.house_edge),
        ]
        assert figures["Variance"][1] == fraction_string(expected.variance)
        assert figures["Standard deviation"][0] == expected.standard_deviation(digits)
        assert figures["Hit frequency"][1] == fraction_string(expected.win_probability)
        volatility = {row[0]: row for row in tables[f"{name}-volatility"][1:]}
        for level in (90, 95, 99):
            z = Decimal(str(float(z_score(level))))
            assert volatility[f"{level}%"][2] == textbook_volatility(expected.variance, z, digits)
        hold = {row[0]: row for row in tables[f"{name}-hold"][1:]}
        for rounds in (1_000, 10_000, 100_000, 1_000_000):
            for column, level in zip((2, 4, 6), (90, 95, 99), strict=True):
                z = Decimal(str(float(z_score(level))))
                low, high = textbook_band(expected.house_edge, expected.variance, z, rounds, 8)
                assert hold[f"{rounds:,}"][column] == f"{low} to {high}"
        removal = {row[0]: row for row in tables[f"{name}-removal"][1:]}
        bet = sheet.bets[name]
        assert bet.effects is not None and bet.count is not None
        for rank, effect in bet.effects.items():
            assert removal[rank][2] == fraction_string(effect or 0)
            assert int(removal[rank][5]) == bet.count.tags[rank]


def test_html_tables_are_analyze_values(sheet: ParSheet) -> None:
    parser = Tables()
    parser.feed(render_html(sheet, 10))
    _check_tables(parser.tables, sheet, 10)


def test_markdown_tables_are_analyze_values(sheet: ParSheet) -> None:
    tables = markdown_tables(render_markdown(sheet, 10))
    names = ["identity", "setup", "summary", "tableau", "pays"]
    for name in sheet.bets:
        names += [f"{name}-{kind}" for kind in ("outcomes", "figures", "volatility", "hold")]
        names += [f"{name}-tails", f"{name}-percentiles", f"{name}-removal", f"{name}-breakeven"]
    names.append("checks")
    assert len(tables) == len(names)
    _check_tables(dict(zip(names, tables, strict=True)), sheet, 10)


# The command --------------------------------------------------------------------------


def test_report_html_is_one_self_contained_page_with_figures(tmp_path: Path) -> None:
    output = tmp_path / "tie.html"
    result = run("report", "--bets", "tie", "--decks", "1", "-o", str(output))
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    page = output.read_text(encoding="utf-8")
    parser = Tables()
    parser.feed(page)
    assert parser.figures == ["tie-hold-figure", "tie-distribution-figure", "tie-removal-figure"]
    assert page.count("<svg") == 3
    assert not re.search(r"""(src|href)=["'](?!data:|#)""", page)  # nothing fetched from outside


def test_report_markdown_on_stdout_with_a_custom_bet_and_plots(tmp_path: Path) -> None:
    figures = tmp_path / "figures"
    result = CliRunner().invoke(
        cli,
        [
            "report",
            "--bet-file",
            str(ROOT / "examples" / "bets" / "six_bonus.toml"),
            "--bets",
            "six_bonus",
            "--plot",
            str(figures),
            "--no-breakeven",
        ],
    )
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("# Baccarat par sheet: six_bonus, 8 decks\n")
    # The custom bet's conditions, in words and as given in the bet file.
    assert "| three_card_six | 20 | the Banker wins and the Banker's total is 6 and the " in (
        result.stdout
    )
    assert 'when = { winner = "banker", banker_total = 6, banker_cards = 3 }' in result.stdout
    assert "## Bet: six_bonus" in result.stdout
    assert sorted(path.name for path in figures.iterdir()) == [
        f"six_bonus-{kind}.{extension}"
        for kind in ("distribution", "hold", "removal")
        for extension in ("png", "svg")
    ]
    assert "![six_bonus: effect of removal" in result.stdout
    assert (figures / "six_bonus-removal.png").read_bytes().startswith(b"\x89PNG")


def test_report_xlsx_written_to_a_file(tmp_path: Path) -> None:
    output = tmp_path / "sheet.xlsx"
    result = run("report", "--bets", "dragon7", "--variant", "ez", "-o", str(output))
    assert result.exit_code == 0, result.stderr
    assert load_workbook(output).sheetnames == ["Summary", "Rules", "dragon7"]


def test_eor_plot_writes_one_bar_chart_per_bet(tmp_path: Path) -> None:
    result = run("eor", "--bets", "tie,dragon7", "--decks", "1", "--plot", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    assert sorted(path.name for path in tmp_path.iterdir()) == [
        "dragon7-removal.png",
        "dragon7-removal.svg",
        "tie-removal.png",
        "tie-removal.svg",
    ]


@pytest.mark.parametrize(
    ("arguments", "pattern"),
    [
        (["--format", "docx"], r"Invalid value for '--format': 'docx' is not one of"),
        (["--format", "xlsx"], r"binary file; give it a name with -o FILE.xlsx\.$"),
        (["--format", "pdf"], r"binary file; give it a name with -o FILE.pdf\.$"),
        (["-o", "/nonexistent-directory/sheet.html"], r"directory '/nonexistent-directory'"),
        (["-o", "/"], r"Cannot write the par sheet to '/': it is a directory\.$"),
        (["--rounds", "1000,zero"], r"Number of rounds 'zero' is not valid"),
        (["--confidence", "100"], r"Confidence level 100 for --confidence is not valid"),
        (
            ["--rounds", ",".join(["10"] * 13)],
            r"--rounds takes at most 12 values, separated by commas; 13 were given\.$",
        ),
        (["--bets", "nosuchbet"], r"nosuchbet"),
    ],
)
def test_report_bad_input_is_one_sentence_and_exit_2(arguments: list[str], pattern: str) -> None:
    _one_error_line(run("report", "--decks", "1", *arguments), pattern)


@pytest.mark.parametrize(
    ("module", "arguments", "extra"),
    [
        ("openpyxl", ["-o", "{tmp}/sheet.xlsx"], "report"),
        ("fpdf", ["-o", "{tmp}/sheet.pdf", "--no-figures"], "report"),
        ("matplotlib", ["-o", "{tmp}/sheet.pdf"], "report"),  # the PDF's font ships with it
        ("matplotlib", ["--format", "html"], "plot"),
        ("matplotlib", ["--plot", "{tmp}/figures"], "plot"),
        ("sympy", [], "report"),
    ],
)
def test_report_without_an_extra_says_how_to_install_it(
    module: str,
    arguments: Sequence[str],
    extra: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in list(sys.modules):
        if name == module or name.startswith(module + "."):
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, module, None)  # makes "import <module>" fail
    filled = [argument.format(tmp=tmp_path) for argument in arguments]
    result = run("report", "--decks", "1", "--bets", "tie", *filled)
    _one_error_line(result, rf'pip install "exactodds\[{extra}\]"')
    assert not (tmp_path / "sheet.xlsx").exists() and not (tmp_path / "sheet.pdf").exists()


def test_report_without_matplotlib_still_writes_html_without_figures(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    result = run("report", "--decks", "1", "--bets", "tie", "--format", "html", "--no-figures")
    assert result.exit_code == 0, result.stderr
    assert "<svg" not in result.stdout and "<table" in result.stdout


def test_eor_plot_without_matplotlib_is_one_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    result = run("eor", "--decks", "1", "--bets", "tie", "--plot", "figures")
    _one_error_line(result, r'pip install "exactodds\[plot\]"')


def test_odds_imports_neither_matplotlib_nor_openpyxl() -> None:
    program = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "import exactodds.cli\n"
        "result = CliRunner().invoke(exactodds.cli.cli, ['odds', '--decks', '1'])\n"
        "assert result.exit_code == 0, result.output\n"
        "for name in ('matplotlib', 'openpyxl', 'fpdf'):\n"
        "    assert name not in sys.modules, f'exactodds odds imported {name}'\n"
        "import exactodds.studies.parsheet, exactodds.report.parsheet.render\n"
        "import exactodds.report.plots, exactodds.report.parsheet.xlsx\n"
        "import exactodds.report.parsheet.pdf\n"
        "for name in ('matplotlib', 'openpyxl', 'fpdf', 'sympy'):\n"
        "    assert name not in sys.modules, f'importing the report modules imported {name}'\n"
    )
    completed = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=False
    )
    assert completed.returncode == 0, completed.stderr


# Small shoes, figures ---------------------------------------------------------------------


def test_a_six_card_shoe_has_no_effect_of_removal_and_says_why() -> None:
    shoe = Shoe.parse("A=3,T=3")
    result = par_sheet(shoe, Rules(), select_bets("tie,dragon7"))
    assert result.removal is None
    assert result.removal_reason is not None and "would leave 5 cards" in result.removal_reason
    assert all(bet.effects is None and bet.count is None for bet in result.bets.values())
    text = render_markdown(result)
    assert f"Not computed: {result.removal_reason}" in text
    # Dragon 7 never wins on this shoe: no pay makes it fair, and the report says so.
    (dragon7,) = result.bets["dragon7"].breakevens
    assert dragon7.value is None and dragon7.reason is not None
    assert "never happens" in dragon7.reason
    parser = Tables()
    parser.feed(render_html(result))
    assert "dragon7-removal" not in parser.tables
    assert parser.tables["dragon7-breakeven"][1][2:4] == ["-", "-"]


def test_output_suffix_chooses_the_format(tmp_path: Path) -> None:
    output = tmp_path / "tie.md"
    result = run("report", "--decks", "1", "--bets", "tie", "--no-breakeven", "-o", str(output))
    assert result.exit_code == 0, result.stderr
    assert output.read_text(encoding="utf-8").startswith("# Baccarat par sheet: tie, 1 deck\n")


def test_figures_draw_the_exact_figures(sheet: ParSheet) -> None:
    from exactodds.report.parsheet.figures import distribution_figure, hold_figure
    from exactodds.report.plots import removal_figure

    tie = sheet.bets["tie"]
    assert tie.effects is not None and tie.count is not None
    bars = removal_figure("tie", tie.effects, tie.count.tags).axes[0].patches
    assert [float(bar.get_height()) for bar in bars] == [
        float((effect or 0) * 100) for effect in tie.effects.values()
    ]
    heights = [float(bar.get_height()) for bar in distribution_figure(tie).axes[0].patches]
    assert heights == [float(probability) for probability in tie.result.distribution.values()]
    axes = hold_figure(tie).axes[0]
    band = HoldBand(1_000, 99, z_score(99), tie.result.house_edge, tie.result.variance)
    low, high = band.bounds()
    widest = axes.collections[0].get_paths()[0].vertices  # the 99% band is drawn first
    at_thousand = [y for x, y in widest if x == 1_000]
    assert min(at_thousand) == pytest.approx(low * 100) and max(at_thousand) == pytest.approx(
        high * 100
    )


# PDF --------------------------------------------------------------------------------------


@thorough  # the PDF of every bet; test_report_pdf_with_figures renders one by default
def test_pdf_holds_every_row_of_every_table(sheet: ParSheet) -> None:
    from pypdf import PdfReader

    from exactodds.report.document.blocks import Table
    from exactodds.report.parsheet.pdf import render_pdf
    from exactodds.report.parsheet.render import document

    content = render_pdf(sheet, 10)
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)
    flat = re.sub(r"\s+", "", text)  # long exact fractions wrap inside their cells
    tables = [block for block in document(sheet, 10) if isinstance(block, Table)]
    assert len(tables) == 5 + 8 * len(sheet.bets) + 1
    for table in tables:
        for row in (table.headers, *table.rows):
            assert re.sub(r"\s+", "", "".join(row)) in flat, (table.identifier, row)


def test_report_pdf_with_figures(tmp_path: Path) -> None:
    from pypdf import PdfReader

    output = tmp_path / "tie.pdf"
    result = run("report", "--decks", "1", "--bets", "tie", "-o", str(output))
    assert result.exit_code == 0, result.stderr
    reader = PdfReader(output)
    images = [image for page in reader.pages for image in page.images]
    assert len(images) == 3  # distribution, hold, effect of removal


# Any shoe ---------------------------------------------------------------------------------


@budgeted(8, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=3), min_size=13, max_size=13))
def test_par_sheet_of_any_small_shoe_is_its_analysis(counts: list[int]) -> None:
    shoe = Shoe((*counts[:9], counts[9] + 7, *counts[10:]))  # at least 7 cards
    bets = select_bets("banker,tie,dragon7")
    result = par_sheet(shoe, Rules(), bets, rounds=[100], breakeven=False)
    expected = analyze(shoe, Rules(), bets)
    assert all(holds for _, holds in result.checks)
    for name, bet in result.bets.items():
        reference = expected.bets[name]
        assert bet.expected_value == reference.expected_value
        assert sum(row.count for row in bet.rows) == expected.total
        assert bet.effects is not None
        for rank, effect in bet.effects.items():
            if effect is not None:
                fewer = analyze(shoe.remove(rank), Rules(), bets).bets[name]
                assert effect == fewer.expected_value - reference.expected_value
        band = bet.holds_at(100)[0]
        assert band.half_width_squared == band.z**2 * reference.variance / 100
