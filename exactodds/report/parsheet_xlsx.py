"""A par sheet as an Excel workbook (openpyxl, the ``report`` extra): one sheet per bet.

Spreadsheets keep 15 significant digits, so every exact value is written
twice: as a number or a formula a reviewer can follow (probability =
combinations / total, return = pay * probability, EV = the sum of the
returns, variance = SUMPRODUCT(pay, pay, probability) - EV^2, VI = z * SD,
the hold's band = house edge -+ z * SD / SQRT(rounds), the break-even pay
from the EV), and, in the column beside it, as exact text: combinations as
all their digits, fractions as ``n/d``, square roots correctly rounded.
Pays are entered as formulas such as ``=19/20``, so the formulas use the
exact pays.  The first sheet, ``Summary``, has the shoe, the rules, one line
per bet, how the figures were computed and the checks.  The workbook asks to
be recalculated when opened (openpyxl stores formulas without results).

openpyxl is imported inside :func:`write_xlsx` only.

>>> import io
>>> from exactodds import Rules, Shoe
>>> from exactodds.bets.catalogue import select_bets
>>> from exactodds.report.parsheet import par_sheet
>>> sheet = par_sheet(Shoe.standard(decks=1), Rules(), select_bets("tie"), breakeven=False)
>>> buffer = io.BytesIO()
>>> write_xlsx(sheet, buffer)
>>> from openpyxl import load_workbook
>>> workbook = load_workbook(buffer)
>>> workbook.sheetnames
['Summary', 'tie']
>>> workbook["tie"]["F9"].value
'=D9/$B$6'
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path
from typing import IO, Any

from ..numbers import decimal_string, fraction_string
from .parsheet import BetSheet, MissingExtraError, ParSheet
from .parsheet_render import CHECKING, CONVENTION, DEFINITIONS, METHOD, REMOVAL_TEXT, _version

__all__ = ["require_openpyxl", "write_xlsx"]

#: Digits of the correctly rounded decimals written as text beside formulas.
TEXT_DIGITS = 15
_PROBABILITY_FORMAT = "0.000000000000"
_PERCENT_FORMAT = "0.0000%"


def require_openpyxl() -> Any:
    """openpyxl, or a :class:`~exactodds.report.parsheet.MissingExtraError` saying how to get it."""
    try:
        import openpyxl
    except ImportError:
        raise MissingExtraError(
            "The xlsx par sheet is written with openpyxl, which is not installed; install it "
            'with pip install "exactodds[report]".'
        ) from None
    return openpyxl


def _number(value: Fraction) -> int | str:
    """An exact pay as a cell: an integer, or a formula ``=n/d`` Excel evaluates."""
    if value.denominator == 1:
        return value.numerator
    return f"={value.numerator}/{value.denominator}"


def _sheet_title(name: str, taken: set[str]) -> str:
    base = re.sub(r"[\\/*?:\[\]]", "_", name)[:31] or "bet"
    title, suffix = base, 2
    while title.lower() in taken:
        title = f"{base[: 31 - len(str(suffix)) - 1]}_{suffix}"
        suffix += 1
    taken.add(title.lower())
    return title


class _Writer:
    """Appends labelled rows to one worksheet, keeping track of the row."""

    def __init__(self, worksheet: Any, bold: Any) -> None:
        self.worksheet = worksheet
        self.bold = bold
        self.row = 0

    def line(self, *values: Any, bold: bool = False, formats: dict[int, str] | None = None) -> int:
        self.row += 1
        for column, value in enumerate(values, start=1):
            if value is None:
                continue
            cell = self.worksheet.cell(row=self.row, column=column, value=value)
            if bold:
                cell.font = self.bold
            if formats and column in formats:
                cell.number_format = formats[column]
        return self.row

    def skip(self) -> None:
        self.row += 1


def _bet_sheet(writer: _Writer, sheet: BetSheet, parsheet: ParSheet) -> None:
    name = sheet.name
    analysis = parsheet.analysis
    writer.line(f"Par sheet: {name}", bold=True)
    writer.line("Shoe", analysis.shoe.describe())
    writer.line("Rules", analysis.rules.describe())
    writer.line("Bet", sheet.result.bet.description)
    writer.skip()
    total_row = writer.line(
        "Total combinations (six-card sequences)", analysis.total, str(analysis.total)
    )
    writer.skip()
    writer.line(
        "Outcome",
        "Pays (to 1)",
        "Pays (exact)",
        "Combinations",
        "Combinations (exact)",
        "Probability",
        "Probability (exact)",
        "Return",
        "Return (exact)",
        bold=True,
    )
    first = writer.row + 1
    for row in sheet.rows:
        current = writer.row + 1
        writer.line(
            row.outcome,
            _number(row.pay),
            fraction_string(row.pay),
            row.count,
            str(row.count),
            f"=D{current}/$B${total_row}",
            fraction_string(row.probability),
            f"=B{current}*F{current}",
            fraction_string(row.contribution),
            formats={6: _PROBABILITY_FORMAT, 8: _PROBABILITY_FORMAT},
        )
    last = writer.row
    outcomes = {row.outcome: first + index for index, row in enumerate(sheet.rows)}
    pays, probabilities = f"B{first}:B{last}", f"F{first}:F{last}"
    writer.line(
        "Total",
        None,
        None,
        f"=SUM(D{first}:D{last})",
        str(sum(row.count for row in sheet.rows)),
        f"=SUM({probabilities})",
        fraction_string(sum((row.probability for row in sheet.rows), Fraction(0))),
        f"=SUM(H{first}:H{last})",
        fraction_string(sheet.expected_value),
        bold=True,
        formats={6: _PROBABILITY_FORMAT, 8: _PROBABILITY_FORMAT},
    )
    writer.skip()

    result = sheet.result
    writer.line("Figure", "Value", "Exact", "How", bold=True)
    top = writer.row
    # The rows below, in order: EV, house edge, hit, push, loss, per resolved, variance, SD.
    ev, edge, push, variance, deviation = top + 1, top + 2, top + 4, top + 7, top + 8
    writer.line(
        "Expected value (EV)",
        f"=SUM(H{first}:H{last})",
        fraction_string(result.expected_value),
        "sum of the returns",
    )
    writer.line(
        "House edge",
        f"=-B{ev}",
        fraction_string(result.house_edge),
        "-EV",
        formats={2: _PERCENT_FORMAT},
    )
    writer.line(
        "Hit frequency",
        f'=SUMIF({pays},">0",{probabilities})',
        fraction_string(result.win_probability),
        "probability of a win",
    )
    writer.line(
        "Push probability",
        f"=SUMIF({pays},0,{probabilities})",
        fraction_string(result.push_probability),
        "probability of a net result of 0",
    )
    writer.line(
        "Loss probability",
        f'=SUMIF({pays},"<0",{probabilities})',
        fraction_string(result.loss_probability),
        "probability of a loss",
    )
    edge_resolved = result.house_edge_per_resolved_bet
    writer.line(
        "Edge per resolved bet",
        "-" if edge_resolved is None else f"=B{edge}/(1-B{push})",
        "-" if edge_resolved is None else fraction_string(edge_resolved),
        "house edge / (1 - push probability)",
        formats={2: _PERCENT_FORMAT},
    )
    writer.line(
        "Variance",
        f"=SUMPRODUCT({pays},{pays},{probabilities})-B{ev}^2",
        fraction_string(result.variance),
        "E[result^2] - EV^2",
    )
    writer.line(
        "Standard deviation (SD)",
        f"=SQRT(B{variance})",
        result.standard_deviation(TEXT_DIGITS),
        "sqrt(variance), correctly rounded",
    )
    writer.skip()

    writer.line(
        "Confidence",
        "z",
        "Volatility index",
        "VI (correctly rounded)",
        "VI squared (exact)",
        bold=True,
    )
    for index in sheet.volatility:
        current = writer.row + 1
        writer.line(
            f"{index.confidence}%",
            float(index.z),
            f"=B{current}*$B${deviation}",
            index.decimal(TEXT_DIGITS),
            fraction_string(index.squared),
        )
    writer.skip()

    writer.line(
        "Rounds",
        "Confidence",
        "z",
        "Expected hold",
        "Band low",
        "Band high",
        "Low (correctly rounded)",
        "High (correctly rounded)",
        bold=True,
    )
    for band in sheet.holds:
        current = writer.row + 1
        half = f"C{current}*$B${deviation}/SQRT(A{current})"
        writer.line(
            band.rounds,
            f"{band.confidence}%",
            float(band.z),
            f"=$B${edge}",
            f"=D{current}-{half}",
            f"=D{current}+{half}",
            band.low_percent(TEXT_DIGITS - 2),
            band.high_percent(TEXT_DIGITS - 2),
            formats={4: _PERCENT_FORMAT, 5: _PERCENT_FORMAT, 6: _PERCENT_FORMAT},
        )
    writer.skip()

    writer.line("Effect of removal (one card of each rank)", bold=True)
    if sheet.effects is None or parsheet.removal is None:
        writer.line(f"Not computed: {parsheet.removal_reason}")
    else:
        writer.line(REMOVAL_TEXT.format(max_tag=parsheet.max_tag))
        writer.line(
            "Rank", "Cards", "Effect", "Effect (exact)", "EV after (exact)", "Tag", bold=True
        )
        before = parsheet.removal.expected_values[name]
        for rank, effect in sheet.effects.items():
            tag = sheet.count.tags.get(rank, 0) if sheet.count is not None else None
            writer.line(
                rank,
                parsheet.shoe.rank_count(rank),
                None if effect is None else float(effect),
                "-" if effect is None else fraction_string(effect),
                "-" if effect is None else fraction_string(before + effect),
                None if effect is None else tag,
            )
        count = sheet.count
        if count is not None:
            defined = count.correlation is not None and count.correlation.defined
            writer.line(
                "Betting correlation",
                count.correlation_decimal(TEXT_DIGITS) if defined else "undefined",
                f"level {count.max_tag}, "
                + ("balanced" if count.balanced else f"imbalance {count.imbalance}"),
            )
        writer.line("Weighted sum of effects", fraction_string(sheet.weighted_sum or 0))
    writer.skip()

    if sheet.breakevens:
        writer.line("Break-even pays (EV = 0, other pays fixed)", bold=True)
        writer.line("Pay", "Now", "Break-even", "Break-even (exact)", "Note", bold=True)
        for pay in sheet.breakevens:
            outcome = "win" if pay.name == "commission" else _outcome_of(pay.name, sheet)
            at = outcomes.get(outcome)
            if pay.value is None or at is None:
                formula: Any = "-"
            elif pay.name == "commission":
                # EV is linear in c: EV(c) = EV(now) - p(win) * (c - now).
                formula = f"=B{ev}/F{at}+B{writer.row + 1}"
            else:
                formula = f"=B{at}-B{ev}/F{at}"
            writer.line(
                pay.name,
                float(pay.current) if pay.current.denominator != 1 else pay.current.numerator,
                formula,
                "-" if pay.value is None else fraction_string(pay.value),
                pay.reason or pay.note or "",
            )
    writer.skip()
    writer.line(CONVENTION)


def _outcome_of(pay_name: str, sheet: BetSheet) -> str:
    outcome = pay_name.partition(".")[2]
    if outcome:
        return outcome
    winning = [row.outcome for row in sheet.rows if row.pay > 0]
    return winning[0] if winning else ""


def _summary(writer: _Writer, parsheet: ParSheet) -> None:
    analysis = parsheet.analysis
    writer.line("Par sheet", bold=True)
    writer.line("Shoe", analysis.shoe.describe())
    writer.line("Rules", analysis.rules.describe())
    writer.line("Rounds counted", analysis.total, str(analysis.total))
    writer.skip()
    writer.line(
        "Bet",
        "House edge",
        "House edge (exact)",
        "Hit frequency",
        "SD",
        *(f"VI {level}%" for level in parsheet.confidences),
        bold=True,
    )
    for name, sheet in parsheet.bets.items():
        writer.line(
            name,
            float(sheet.result.house_edge),
            fraction_string(sheet.result.house_edge),
            float(sheet.result.win_probability),
            sheet.result.standard_deviation(TEXT_DIGITS),
            *(index.decimal(TEXT_DIGITS) for index in sheet.volatility),
            formats={2: _PERCENT_FORMAT},
        )
    for name, reason in parsheet.unavailable.items():
        writer.line(name, "not computable", reason)
    writer.skip()
    zs = (
        ", ".join(
            f"{decimal_string(index.z, 3)} at {index.confidence}%"
            for index in next(iter(parsheet.bets.values())).volatility
        )
        if parsheet.bets
        else "none"
    )
    for text in (
        CONVENTION,
        METHOD.format(version=_version()),
        DEFINITIONS.format(zs=zs),
        CHECKING,
    ):
        writer.line(text)
    for text, holds in parsheet.checks:
        writer.line(text, "holds" if holds else "FAILS")


def write_xlsx(sheet: ParSheet, target: str | Path | IO[bytes]) -> None:
    """Write *sheet* as an xlsx workbook to *target* (a path or a binary file)."""
    openpyxl = require_openpyxl()
    from openpyxl.styles import Font

    workbook = openpyxl.Workbook()
    bold = Font(bold=True)
    summary = workbook.active
    summary.title = "Summary"
    _summary(_Writer(summary, bold), sheet)
    summary.column_dimensions["A"].width = 28
    taken = {"summary"}
    for name, bet_sheet in sheet.bets.items():
        worksheet = workbook.create_sheet(_sheet_title(name, taken))
        _bet_sheet(_Writer(worksheet, bold), bet_sheet, sheet)
        worksheet.column_dimensions["A"].width = 26
        for column in "BCDEFGHI":
            worksheet.column_dimensions[column].width = 18
    workbook.calculation.fullCalcOnLoad = True
    workbook.save(target)
