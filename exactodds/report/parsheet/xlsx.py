"""A par sheet as an Excel workbook (openpyxl, the ``report`` extra): one sheet per bet.

Spreadsheets keep 15 significant digits, so every exact value is written
twice: as a number or a formula a reviewer can follow (probability =
combinations / total, return = pay * probability, EV = the sum of the
returns, variance = SUMPRODUCT(pay, pay, probability) - EV^2, VI = z * SD,
the hold's band = house edge -+ z * SD / SQRT(rounds), the break-even pay
from the EV), and, in the column beside it, as exact text: combinations as
all their digits, fractions as ``n/d``, square roots correctly rounded.
Pays are entered as formulas such as ``=19/20``, so the formulas use the
exact pays.  The first sheet, ``Summary``, has the header (title, pay table,
date, version, command line), the shoe, the rules, one line per bet (numbers,
with the exact or correctly rounded text beside), how the figures were
computed and the checks; ``Rules`` the tableau, the pays and each custom
bet's conditions; ``Compare`` the alternatives of ``--compare``.  Every
sheet prints landscape, one page wide, with "page x of y" in the footer.  Every formula carries
its result (a reader that computes nothing, such as pandas, reads numbers), and the workbook asks
to be recalculated when opened.

Another document made of the par sheet's blocks (the countability audit) is written as a
workbook the same way by :func:`write_blocks_xlsx`: the same header, cells and widths.

openpyxl is imported inside :func:`write_xlsx` and :func:`write_blocks_xlsx` only.

>>> import io
>>> from exactodds import Rules, Shoe
>>> from exactodds.bets.catalogue import select_bets
>>> from exactodds.studies.parsheet import par_sheet
>>> sheet = par_sheet(Shoe.standard(decks=1), Rules(), select_bets("tie"), breakeven=False)
>>> buffer = io.BytesIO()
>>> write_xlsx(sheet, buffer)
>>> from openpyxl import load_workbook
>>> workbook = load_workbook(buffer)
>>> workbook.sheetnames
['Summary', 'Rules', 'tie']
>>> workbook["tie"]["F9"].value
'=D9/$B$6'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import IO, Any

from ...errors import import_extra
from ...numbers import decimal_string, fraction_string
from ...studies.parsheet import BetSheet, ParSheet, SheetIdentity
from .render import (
    CHECKING,
    CONVENTION,
    DEFINITIONS,
    METHOD,
    REMOVAL_TEXT,
    Block,
    Heading,
    Paragraph,
    Table,
    document,
    package_version,
)

__all__ = ["require_openpyxl", "write_blocks_xlsx", "write_xlsx"]

#: Digits of the correctly rounded decimals written as text beside formulas.
TEXT_DIGITS = 15
_PROBABILITY_FORMAT = "0.000000000000"
_PERCENT_FORMAT = "0.0000%"


def require_openpyxl(feature: str = "The xlsx par sheet") -> Any:
    """openpyxl, or a :class:`~exactodds.errors.MissingExtraError` saying how to get it
    (*feature* names what needs it: the par sheet, the audit)."""
    return import_extra("openpyxl", feature, "report")


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

    def table(self, table: Table) -> None:
        """A table of the document: numbers as numbers (formatted as shown), text as text."""
        self.line(*table.headers, bold=True)
        for cells in table.rows:
            self.row += 1
            for column, (text, numeric) in enumerate(zip(cells, table.numeric, strict=True), 1):
                value, number_format, note = _cell(text) if numeric else (text, None, None)
                if value == "":
                    continue
                cell = self.worksheet.cell(row=self.row, column=column, value=value)
                if number_format:
                    cell.number_format = number_format
                if note:
                    from openpyxl.comments import Comment

                    cell.comment = Comment(note, "exactodds")

    def blocks(self, blocks: list[Any]) -> None:
        """Headings, paragraphs and tables of the document, in order."""
        for block in blocks:
            if isinstance(block, Heading):
                self.skip()
                self.line(block.text, bold=True)
            elif isinstance(block, Paragraph):
                self.line(block.text)
            elif isinstance(block, Table):
                self.table(block)


_INTEGER = re.compile(r"-?\d{1,3}(?:,\d{3})*|-?\d+")
_DECIMAL = re.compile(r"(-?\d+)\.(\d+)")
_PERCENT = re.compile(r"(-?\d+)(?:\.(\d+))?%")
_BOUNDED = re.compile(r"(\S+) ±(\S+)")


def _cell(text: str) -> tuple[Any, str | None, str | None]:
    """A shown number as (value, number format, note): '1,000' -> 1000, '12.50%' -> 0.125.

    A figure with an error bound ('0.900037 ±6.1e-10') keeps the bound as the cell's note;
    anything else (a range, a dash) stays text.
    """
    note = None
    bounded = _BOUNDED.fullmatch(text)
    if bounded:
        text, note = bounded.group(1), f"Within ±{bounded.group(2)} of the exact value."
    if _INTEGER.fullmatch(text):
        return int(text.replace(",", "")), "#,##0" if "," in text else "0", note
    decimal = _DECIMAL.fullmatch(text)
    if decimal:
        return float(text), "0." + "0" * len(decimal.group(2)), note
    percent = _PERCENT.fullmatch(text)
    if percent:
        places = len(percent.group(2) or "")
        shown = "0." + "0" * places + "%" if places else "0%"
        return float(Fraction(text[:-1]) / 100), shown, note
    return text, None, note


@dataclass(frozen=True)
class _Rows:
    """Where a bet sheet's cells are that later formulas refer to (row numbers)."""

    first: int  # the first outcome
    expected_value: int
    house_edge: int
    deviation: int  # standard deviation


def _bet_sheet(writer: _Writer, sheet: BetSheet, parsheet: ParSheet) -> None:
    """One bet's worksheet: header, outcomes, figures, volatility, hold, removal, break-even,
    the exact tails and per-hour tables of the document, and the rounding convention."""
    name = sheet.name
    analysis = parsheet.analysis
    writer.line(f"Par sheet: {name}", bold=True)
    writer.line("Shoe", analysis.shoe.describe())
    writer.line("Rules", analysis.rules.describe())
    writer.line("Bet", sheet.result.bet.description)
    writer.skip()
    total = writer.line(
        "Total combinations (six-card sequences)", analysis.total, str(analysis.total)
    )
    writer.skip()
    first, last = _outcome_rows(writer, sheet, total)
    rows = _figure_rows(writer, sheet, first, last)
    _volatility_rows(writer, sheet, rows)
    _hold_rows(writer, sheet, parsheet, rows)
    _removal_rows(writer, sheet, parsheet)
    _breakeven_rows(writer, sheet, rows)
    writer.blocks(
        [
            block
            for block in _bet_document(parsheet, name)
            if not isinstance(block, Table)
            or block.identifier
            in (f"{name}-tails", f"{name}-percentiles", f"{name}-hourly", f"{name}-hold")
        ]
    )
    writer.skip()
    writer.line(CONVENTION)


def _outcome_rows(writer: _Writer, sheet: BetSheet, total: int) -> tuple[int, int]:
    """The outcome table (pays, combinations, probability = combinations / total, return =
    pay * probability) and its total; the rows of the first and the last outcome."""
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
            f"=D{current}/$B${total}",
            fraction_string(row.probability),
            f"=B{current}*F{current}",
            fraction_string(row.contribution),
            formats={6: _PROBABILITY_FORMAT, 8: _PROBABILITY_FORMAT},
        )
    last = writer.row
    writer.line(
        "Total",
        None,
        None,
        f"=SUM(D{first}:D{last})",
        str(sum(row.count for row in sheet.rows)),
        f"=SUM(F{first}:F{last})",
        fraction_string(sum((row.probability for row in sheet.rows), Fraction(0))),
        f"=SUM(H{first}:H{last})",
        fraction_string(sheet.expected_value),
        bold=True,
        formats={6: _PROBABILITY_FORMAT, 8: _PROBABILITY_FORMAT},
    )
    writer.skip()
    return first, last


def _figure_rows(writer: _Writer, sheet: BetSheet, first: int, last: int) -> _Rows:
    """EV, house edge, hit, push and loss, edge per resolved bet, variance and SD, as formulas
    over the outcome table (rows *first* to *last*) with the exact value beside."""
    result = sheet.result
    pays, probabilities = f"B{first}:B{last}", f"F{first}:F{last}"
    writer.line("Figure", "Value", "Exact", "How", bold=True)
    ev = writer.line(
        "Expected value (EV)",
        f"=SUM(H{first}:H{last})",
        fraction_string(result.expected_value),
        "sum of the returns",
    )
    edge = writer.line(
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
    push = writer.line(
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
    variance = writer.line(
        "Variance",
        f"=SUMPRODUCT({pays},{pays},{probabilities})-B{ev}^2",
        fraction_string(result.variance),
        "E[result^2] - EV^2",
    )
    deviation = writer.line(
        "Standard deviation (SD)",
        f"=SQRT(B{variance})",
        result.standard_deviation(TEXT_DIGITS),
        "sqrt(variance), correctly rounded",
    )
    writer.skip()
    return _Rows(first, ev, edge, deviation)


def _volatility_rows(writer: _Writer, sheet: BetSheet, rows: _Rows) -> None:
    """The volatility index at each confidence: VI = z * SD, with the exact VI squared."""
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
            f"=B{current}*$B${rows.deviation}",
            index.decimal(TEXT_DIGITS),
            fraction_string(index.squared),
        )
    writer.skip()


def _hold_rows(writer: _Writer, sheet: BetSheet, parsheet: ParSheet, rows: _Rows) -> None:
    """The hold's normal band after each number of rounds (house edge -+ z * SD / SQRT(rounds),
    clipped to what is possible), with the exact chance of landing inside it."""
    writer.line(
        "Rounds",
        "Confidence",
        "z",
        "Expected hold",
        "Band low",
        "Band high",
        "Low (correctly rounded)",
        "High (correctly rounded)",
        "P(inside the band)",
        bold=True,
    )
    coverage = {
        (tails.rounds, level): tails.coverage[index]
        for tails in sheet.tails
        for index, level in enumerate(parsheet.confidences)
    }
    for band in sheet.holds:
        current = writer.row + 1
        half = f"C{current}*$B${rows.deviation}/SQRT(A{current})"
        low, high = f"D{current}-{half}", f"D{current}+{half}"
        if band.clipped_low:
            low = f"MAX({fraction_string(band.floor)},{low})"
        if band.clipped_high:
            high = f"MIN({fraction_string(band.ceiling)},{high})"
        inside = coverage.get((band.rounds, band.confidence))
        writer.line(
            band.rounds,
            f"{band.confidence}%",
            float(band.z),
            f"=$B${rows.house_edge}",
            f"={low}",
            f"={high}",
            band.low_percent(TEXT_DIGITS - 2),
            band.high_percent(TEXT_DIGITS - 2),
            None if inside is None else float(inside.value),
            formats={4: _PERCENT_FORMAT, 5: _PERCENT_FORMAT, 6: _PERCENT_FORMAT},
        )
    writer.skip()


def _removal_rows(writer: _Writer, sheet: BetSheet, parsheet: ParSheet) -> None:
    """Effect of removal of one card of each rank, the derived count's tags and betting
    correlation, and the weighted sum of the effects (or why they were not computed)."""
    writer.line("Effect of removal (one card of each rank)", bold=True)
    if sheet.effects is None or parsheet.removal is None:
        writer.line(f"Not computed: {parsheet.removal_reason}")
        writer.skip()
        return
    writer.line(REMOVAL_TEXT.format(max_tag=parsheet.max_tag))
    writer.line("Rank", "Cards", "Effect", "Effect (exact)", "EV after (exact)", "Tag", bold=True)
    before = parsheet.removal.expected_values[sheet.name]
    count = sheet.count
    for rank, effect in sheet.effects.items():
        tag = count.tags.get(rank, 0) if count is not None else None
        writer.line(
            rank,
            parsheet.shoe.rank_count(rank),
            None if effect is None else float(effect),
            "-" if effect is None else fraction_string(effect),
            "-" if effect is None else fraction_string(before + effect),
            None if effect is None else tag,
        )
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


def _breakeven_rows(writer: _Writer, sheet: BetSheet, rows: _Rows) -> None:
    """Break-even pays (EV = 0, the other pays fixed) as formulas over the EV and the outcome's
    probability, with the exact value beside, when the sheet has them."""
    if not sheet.breakevens:
        return
    outcomes = {row.outcome: rows.first + index for index, row in enumerate(sheet.rows)}
    ev = rows.expected_value
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


def _bet_document(parsheet: ParSheet, name: str) -> list[Any]:
    """The exact-tails and per-hour part of a bet's blocks in the document."""
    blocks = document(parsheet, TEXT_DIGITS)
    start = next(
        index
        for index, block in enumerate(blocks)
        if isinstance(block, Heading) and block.anchor == name
    )
    inside: list[Any] = []
    keep = False
    for block in blocks[start + 1 :]:
        if isinstance(block, Heading) and block.level <= 2:
            break
        if isinstance(block, Heading):
            keep = block.text.startswith(("Win as % of handle", "Per hour"))
        if keep:
            inside.append(block)
    return inside


def _outcome_of(pay_name: str, sheet: BetSheet) -> str:
    outcome = pay_name.partition(".")[2]
    if outcome:
        return outcome
    winning = [row.outcome for row in sheet.rows if row.pay > 0]
    return winning[0] if winning else ""


def _identity_lines(writer: _Writer, identity: SheetIdentity | None, title: str) -> None:
    """The identification header: title, pay table, date, version, command (*title* without)."""
    writer.line(identity.title if identity else title, bold=True)
    if identity:
        for label, value in identity.rows()[1 if not identity.game_name else 0 :]:
            writer.line(label, value)
    else:
        writer.line("exactodds version", package_version())


def _summary(writer: _Writer, parsheet: ParSheet) -> None:
    analysis = parsheet.analysis
    _identity_lines(writer, parsheet.identity, "Par sheet")
    writer.line("Shoe", analysis.shoe.describe())
    writer.line("Rules", analysis.rules.describe())
    writer.line("Rounds counted", analysis.total, str(analysis.total))
    writer.skip()
    writer.line(
        "Bet",
        "House edge",
        "House edge (exact)",
        "Hit frequency",
        "Hit frequency (exact)",
        "SD",
        "SD (correctly rounded)",
        *(
            heading
            for level in parsheet.confidences
            for heading in (f"VI {level}%", f"VI {level}% (correctly rounded)")
        ),
        bold=True,
    )
    for name, sheet in parsheet.bets.items():
        deviation = sheet.result.standard_deviation(TEXT_DIGITS)
        writer.line(
            name,
            float(sheet.result.house_edge),
            fraction_string(sheet.result.house_edge),
            float(sheet.result.win_probability),
            fraction_string(sheet.result.win_probability),
            float(deviation),
            deviation,
            *(
                value
                for index in sheet.volatility
                for value in (float(index.decimal(TEXT_DIGITS)), index.decimal(TEXT_DIGITS))
            ),
            formats={2: _PERCENT_FORMAT, 4: _PROBABILITY_FORMAT},
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
        METHOD.format(version=package_version()),
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
    taken = {"summary", "rules", "compare"}
    rules = workbook.create_sheet("Rules")
    blocks = document(sheet, TEXT_DIGITS)
    _Writer(rules, bold).blocks(_section(blocks, "rules"))
    if sheet.comparisons:
        _Writer(workbook.create_sheet("Compare"), bold).blocks(_section(blocks, "compare"))
    for name, bet_sheet in sheet.bets.items():
        worksheet = workbook.create_sheet(_sheet_title(name, taken))
        _bet_sheet(_Writer(worksheet, bold), bet_sheet, sheet)
    footer = f"{sheet.identity.title} - {sheet.identity.date}" if sheet.identity else "Par sheet"
    for worksheet in workbook.worksheets:
        _finish(worksheet, footer)
    workbook.calculation.fullCalcOnLoad = True
    _save_dated(workbook, target, sheet.identity.date if sheet.identity else None)


def write_blocks_xlsx(
    sheets: Sequence[tuple[str, Sequence[Block]]],
    target: str | Path | IO[bytes],
    identity: SheetIdentity | None,
    title: str,
) -> None:
    """Write a document's *sheets* ((name, headings, paragraphs and tables) each) as a workbook.

    The first sheet starts with the par sheet's identification header (*title* when there is
    no *identity*); tables keep numbers as numbers, as :meth:`_Writer.table` does for the par
    sheet, columns are as wide as their cells, and a dated *identity* dates the file.

    >>> import io
    >>> buffer = io.BytesIO()
    >>> write_blocks_xlsx([("Summary", [Paragraph("Hello.")]), ("bet", [Table("t", ("Figure",
    ...     "Value"), (("House edge", "5.25%"),), (False, True))])], buffer, None, "Audit")
    >>> from openpyxl import load_workbook
    >>> workbook = load_workbook(buffer)
    >>> workbook.sheetnames, workbook["bet"]["B2"].value
    (['Summary', 'bet'], 0.0525)
    """
    openpyxl = require_openpyxl("The xlsx workbook")
    from openpyxl.styles import Font

    workbook = openpyxl.Workbook()
    bold = Font(bold=True)
    taken: set[str] = set()
    for index, (name, blocks) in enumerate(sheets):
        worksheet = workbook.active if index == 0 else workbook.create_sheet()
        worksheet.title = _sheet_title(name, taken)
        writer = _Writer(worksheet, bold)
        if index == 0:
            _identity_lines(writer, identity, title)
        writer.blocks(list(blocks))
    footer = f"{identity.title} - {identity.date}" if identity else title
    for worksheet in workbook.worksheets:
        _finish(worksheet, footer)
    _save_dated(workbook, target, identity.date if identity else None)


def _save_dated(workbook: Any, target: str | Path | IO[bytes], date: str | None) -> None:
    """Save with every timestamp (document properties, zip entries) at *date*, 00:00 UTC, so
    that the same sheet on the same date is the same file, byte for byte; each formula with
    its result stored (:mod:`exactodds.report.parsheet.workbook_values`)."""
    import datetime
    import time
    import zipfile

    from openpyxl.writer.excel import ExcelWriter

    from .workbook_values import cached_values, fill_worksheet

    values = cached_values(workbook)
    sheets = {
        f"xl/worksheets/sheet{index}.xml": worksheet.title
        for index, worksheet in enumerate(workbook.worksheets, 1)
    }
    if date is None:
        moment = None
        stamp = time.localtime()[:6]
    else:
        moment = datetime.datetime.combine(datetime.date.fromisoformat(date), datetime.time())
        stamp = (max(moment.year, 1980), moment.month, moment.day, 0, 0, 0)

    class _DatedZip(zipfile.ZipFile):
        def writestr(
            self,
            zinfo_or_arcname: str | zipfile.ZipInfo,
            data: Any,
            compress_type: int | None = None,
            compresslevel: int | None = None,
        ) -> None:
            name = getattr(zinfo_or_arcname, "filename", zinfo_or_arcname)
            if name in sheets:
                text = data.encode("utf-8") if isinstance(data, str) else data
                data = fill_worksheet(text, values[sheets[name]])
            if isinstance(zinfo_or_arcname, str):
                zinfo_or_arcname = zipfile.ZipInfo(zinfo_or_arcname, date_time=stamp)
                zinfo_or_arcname.compress_type = zipfile.ZIP_DEFLATED
            super().writestr(zinfo_or_arcname, data, compress_type, compresslevel)

        def write(
            self,
            filename: Any,
            arcname: Any = None,
            compress_type: int | None = None,
            compresslevel: int | None = None,
        ) -> None:
            # openpyxl writes each worksheet from a temporary file; date it like the rest.
            with open(filename, "rb") as source:
                self.writestr(arcname or str(filename), source.read(), compress_type, compresslevel)

    if moment is not None:
        workbook.properties.created = moment
        workbook.properties.modified = moment
    archive = _DatedZip(target, "w", zipfile.ZIP_DEFLATED, allowZip64=True)
    ExcelWriter(workbook, archive).save()


def _section(blocks: list[Any], anchor: str) -> list[Any]:
    """The blocks under the level-2 heading with *anchor*, up to the next level-2 heading."""
    found: list[Any] = []
    inside = False
    for block in blocks:
        if isinstance(block, Heading) and block.level <= 2:
            inside = block.anchor == anchor
            continue
        if inside:
            found.append(block)
    return found


#: Widest a column is made, in characters; longer text (a paragraph) overflows to the right.
_MAX_WIDTH = 60


def _finish(worksheet: Any, footer: str) -> None:
    """Columns as wide as their cells (a paragraph alone on its row does not count), landscape,
    fit to one page wide, page x of y in the footer."""
    widths: dict[int, int] = {}
    for row in worksheet.iter_rows():
        filled = [cell for cell in row if cell.value is not None]
        if len(filled) == 1 and isinstance(filled[0].value, str) and len(filled[0].value) > 40:
            continue  # a paragraph: let it overflow
        for cell in filled:
            widths[cell.column] = max(widths.get(cell.column, 8), _shown_width(cell))
    from openpyxl.utils import get_column_letter

    for column, width in widths.items():
        worksheet.column_dimensions[get_column_letter(column)].width = min(width + 2, _MAX_WIDTH)
    worksheet.page_setup.orientation = "landscape"
    worksheet.page_setup.fitToWidth = 1
    worksheet.page_setup.fitToHeight = 0
    worksheet.sheet_properties.pageSetUpPr.fitToPage = True
    worksheet.oddFooter.left.text = footer
    worksheet.oddFooter.right.text = "page &P of &N"


def _shown_width(cell: Any) -> int:
    value = cell.value
    if isinstance(value, str):
        if value.startswith("="):
            return 16  # a formula shows its result
        return len(value)
    if isinstance(value, bool):
        return 5
    if isinstance(value, int):
        return len(f"{value:,}") + 1
    if isinstance(value, float):
        number_format = cell.number_format or ""
        places = number_format.count("0") if "." in number_format else 12
        return max(places + 4, 8)
    return 10
