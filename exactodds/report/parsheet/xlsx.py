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
its result, the value the par-sheet model already holds (a square root correctly rounded to
more digits than a double keeps), so a reader that computes nothing, such as pandas, reads
numbers; the workbook asks to be recalculated when opened.  The cells, widths and dated saving
are the document layer's (:mod:`exactodds.report.document.xlsx`).

openpyxl is imported inside :func:`write_xlsx` only.

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

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import IO

from ...numbers import decimal_string, fraction_string
from ...studies.parsheet import BetSheet, ParSheet
from ..document.blocks import Block, Heading, Table, package_version, section
from ..document.xlsx import (
    Formula,
    SheetWriter,
    finish_sheet,
    identity_lines,
    require_openpyxl,
    save_dated,
    sheet_title,
)
from .render import DEFINITIONS, METHOD, REMOVAL_TEXT, document, game_texts

__all__ = ["write_xlsx"]

#: Digits of the correctly rounded decimals written as text beside formulas.
TEXT_DIGITS = 15
_PROBABILITY_FORMAT = "0.000000000000"
_PERCENT_FORMAT = "0.0000%"


#: Decimals of a square root (the SD, the VI, a band's end) behind the double a formula's
#: stored result holds: more than a double can tell apart, so the double is the root's own.
_ROOT_DIGITS = 40


def _root(text: str) -> Fraction:
    """A correctly rounded decimal (``'0.123'`` or ``'12.3%'``) as the fraction it shows."""
    return Fraction(text[:-1]) / 100 if text.endswith("%") else Fraction(text)


def _number(value: Fraction) -> int | Formula:
    """An exact pay as a cell: an integer, or a formula ``=n/d`` Excel evaluates."""
    if value.denominator == 1:
        return value.numerator
    return Formula(f"={value.numerator}/{value.denominator}", value)


@dataclass(frozen=True)
class _Rows:
    """Where a bet sheet's cells are that later formulas refer to (row numbers)."""

    first: int  # the first outcome
    expected_value: int
    house_edge: int
    deviation: int  # standard deviation


def _bet_sheet(writer: SheetWriter, sheet: BetSheet, parsheet: ParSheet) -> None:
    """One bet's worksheet: header, outcomes, figures, volatility, hold, removal, break-even,
    the exact tails and per-hour tables of the document, and the rounding convention."""
    name = sheet.name
    analysis = parsheet.analysis
    writer.line(f"Par sheet: {name}", bold=True)
    game = parsheet.played
    writer.line("Shoe", analysis.shoe.describe())
    writer.line("Rules", game.settlement)
    writer.line("Bet", sheet.result.bet.description)
    writer.skip()
    sequences = game.round_words.removeprefix("ordered ")
    total = writer.line(f"Total combinations ({sequences})", game.rounds, str(game.rounds))
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
    writer.line(game_texts(parsheet)[0])


def _outcome_rows(writer: SheetWriter, sheet: BetSheet, total: int) -> tuple[int, int]:
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
            Formula(f"=D{current}/$B${total}", row.probability),
            fraction_string(row.probability),
            Formula(f"=B{current}*F{current}", row.contribution),
            fraction_string(row.contribution),
            formats={6: _PROBABILITY_FORMAT, 8: _PROBABILITY_FORMAT},
        )
    last = writer.row
    writer.line(
        "Total",
        None,
        None,
        Formula(f"=SUM(D{first}:D{last})", Fraction(sheet.combinations)),
        str(sheet.combinations),
        Formula(f"=SUM(F{first}:F{last})", sheet.total_probability),
        fraction_string(sheet.total_probability),
        Formula(f"=SUM(H{first}:H{last})", sheet.expected_value),
        fraction_string(sheet.expected_value),
        bold=True,
        formats={6: _PROBABILITY_FORMAT, 8: _PROBABILITY_FORMAT},
    )
    writer.skip()
    return first, last


def _figure_rows(writer: SheetWriter, sheet: BetSheet, first: int, last: int) -> _Rows:
    """EV, house edge, hit, push and loss, edge per resolved bet, variance and SD, as formulas
    over the outcome table (rows *first* to *last*) with the exact value beside."""
    result = sheet.result
    pays, probabilities = f"B{first}:B{last}", f"F{first}:F{last}"
    writer.line("Figure", "Value", "Exact", "How", bold=True)
    ev = writer.line(
        "Expected value (EV)",
        Formula(f"=SUM(H{first}:H{last})", sheet.expected_value),
        fraction_string(result.expected_value),
        "sum of the returns",
    )
    edge = writer.line(
        "House edge",
        Formula(f"=-B{ev}", result.house_edge),
        fraction_string(result.house_edge),
        "-EV",
        formats={2: _PERCENT_FORMAT},
    )
    fee = sheet.fee
    writer.line(
        "Return to player (RTP)",
        Formula(
            f"=(1+B{ev})*{fee.denominator}/{fee.denominator + fee.numerator}",
            sheet.return_to_player,
        ),
        fraction_string(sheet.return_to_player),
        f"(1 + EV) / (1 + fee), fee {fraction_string(fee)}",
        formats={2: _PERCENT_FORMAT},
    )
    writer.line(
        "Hit frequency",
        Formula(f'=SUMIF({pays},">0",{probabilities})', result.win_probability),
        fraction_string(result.win_probability),
        "probability of a win",
    )
    push = writer.line(
        "Push probability",
        Formula(f"=SUMIF({pays},0,{probabilities})", result.push_probability),
        fraction_string(result.push_probability),
        "probability of a net result of 0",
    )
    writer.line(
        "Loss probability",
        Formula(f'=SUMIF({pays},"<0",{probabilities})', result.loss_probability),
        fraction_string(result.loss_probability),
        "probability of a loss",
    )
    edge_resolved = result.house_edge_per_resolved_bet
    writer.line(
        "Edge per resolved bet",
        "-" if edge_resolved is None else Formula(f"=B{edge}/(1-B{push})", edge_resolved),
        "-" if edge_resolved is None else fraction_string(edge_resolved),
        "house edge / (1 - push probability)",
        formats={2: _PERCENT_FORMAT},
    )
    variance = writer.line(
        "Variance",
        Formula(f"=SUMPRODUCT({pays},{pays},{probabilities})-B{ev}^2", result.variance),
        fraction_string(result.variance),
        "E[result^2] - EV^2",
    )
    deviation = writer.line(
        "Standard deviation (SD)",
        Formula(f"=SQRT(B{variance})", _root(result.standard_deviation(_ROOT_DIGITS))),
        result.standard_deviation(TEXT_DIGITS),
        "sqrt(variance), correctly rounded",
    )
    writer.skip()
    if sheet.rebate is not None:
        _rebate_rows(writer, sheet, (first, last), ev, push)
    return _Rows(first, ev, edge, deviation)


def _rebate_rows(
    writer: SheetWriter, sheet: BetSheet, outcomes: tuple[int, int], ev: int, push: int
) -> None:
    """With a rebate: its worth per unit staked and the effective EV, edge and RTP, as formulas
    over the outcome table (rows *outcomes*), the EV (row *ev*) and the push probability (row
    *push*), the exact value beside."""
    figures = sheet.rebate
    assert figures is not None  # the caller asks only with a rebate
    rebate, fee = figures.rebate, sheet.fee
    first, last = outcomes
    writer.line("Rebate", "Value", "Exact", "How", bold=True)
    turnover = writer.line(
        "Turnover counted per unit staked",
        Formula("=1", figures.turnover)
        if rebate.rolling_counts_pushes
        else Formula(f"=1-B{push}", figures.turnover),
        fraction_string(figures.turnover),
        "every stake" if rebate.rolling_counts_pushes else "1 - push probability (dead chips)",
    )
    # Over a trip of many rounds the expected loss is an exact convolution, no sheet formula:
    # its value is written, the exact fraction beside it.
    loss = writer.line(
        *(
            (
                "Expected loss E[max(0, -X)]",
                Formula(f'=-SUMIF(B{first}:B{last},"<0",H{first}:H{last})', figures.expected_loss),
                fraction_string(figures.expected_loss),
                "minus the returns of the losing outcomes: a trip of one round",
            )
            if figures.trip_rounds == 1
            else (
                f"Expected trip loss per unit staked E[max(0, -S)] / {figures.trip_rounds:,}",
                float(figures.expected_loss),
                fraction_string(figures.expected_loss),
                f"a trip of {figures.trip_rounds:,} independent rounds, exact (exactodds)",
            )
        )
    )
    value = writer.line(
        "Rebate per unit staked",
        Formula(
            f"={fraction_string(rebate.rolling)}*B{turnover}+{fraction_string(rebate.loss)}*B{loss}",
            figures.value,
        ),
        fraction_string(figures.value),
        f"rolling {fraction_string(rebate.rolling)} x turnover + loss "
        f"{fraction_string(rebate.loss)} x expected loss",
    )
    effective = writer.line(
        "Effective EV",
        Formula(f"=B{ev}+B{value}", figures.effective_expected_value),
        fraction_string(figures.effective_expected_value),
        "EV + rebate",
    )
    writer.line(
        "Effective house edge",
        Formula(f"=-B{effective}", figures.effective_house_edge),
        fraction_string(figures.effective_house_edge),
        "-effective EV",
        formats={2: _PERCENT_FORMAT},
    )
    rtp = figures.effective_return_to_player(fee)
    writer.line(
        "Effective RTP",
        Formula(f"=(1+B{effective})*{fee.denominator}/{fee.denominator + fee.numerator}", rtp),
        fraction_string(rtp),
        "(1 + effective EV) / (1 + fee)",
        formats={2: _PERCENT_FORMAT},
    )
    writer.skip()


def _volatility_rows(writer: SheetWriter, sheet: BetSheet, rows: _Rows) -> None:
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
            Formula(f"=B{current}*$B${rows.deviation}", _root(index.decimal(_ROOT_DIGITS))),
            index.decimal(TEXT_DIGITS),
            fraction_string(index.squared),
        )
    writer.skip()


def _hold_rows(writer: SheetWriter, sheet: BetSheet, parsheet: ParSheet, rows: _Rows) -> None:
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
            Formula(f"=$B${rows.house_edge}", band.house_edge),
            Formula(f"={low}", _root(band.low_percent(_ROOT_DIGITS))),
            Formula(f"={high}", _root(band.high_percent(_ROOT_DIGITS))),
            band.low_percent(TEXT_DIGITS - 2),
            band.high_percent(TEXT_DIGITS - 2),
            None if inside is None else float(inside.value),
            formats={4: _PERCENT_FORMAT, 5: _PERCENT_FORMAT, 6: _PERCENT_FORMAT},
        )
    writer.skip()


def _removal_rows(writer: SheetWriter, sheet: BetSheet, parsheet: ParSheet) -> None:
    """Effect of removal of one card of each rank, the derived count's tags and betting
    correlation, and the weighted sum of the effects (or why they were not computed)."""
    writer.line("Effect of removal (one card of each rank)", bold=True)
    after = sheet.expected_values_after
    if sheet.effects is None or parsheet.removal is None or after is None:
        writer.line(f"Not computed: {parsheet.removal_reason}")
        writer.skip()
        return
    writer.line(REMOVAL_TEXT.format(max_tag=parsheet.max_tag))
    writer.line("Rank", "Cards", "Effect", "Effect (exact)", "EV after (exact)", "Tag", bold=True)
    count = sheet.count
    for rank, effect in sheet.effects.items():
        tag = count.tags.get(rank, 0) if count is not None else None
        ev_after = after[rank]
        writer.line(
            rank,
            parsheet.shoe.rank_count(rank),
            None if effect is None else float(effect),
            "-" if effect is None else fraction_string(effect),
            "-" if ev_after is None else fraction_string(ev_after),
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


def _breakeven_rows(writer: SheetWriter, sheet: BetSheet, rows: _Rows) -> None:
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
            formula: Formula | str = "-"
        elif pay.name == "commission":
            # EV is linear in c: EV(c) = EV(now) - p(win) * (c - now).
            formula = Formula(f"=B{ev}/F{at}+B{writer.row + 1}", pay.value)
        else:
            formula = Formula(f"=B{at}-B{ev}/F{at}", pay.value)
        writer.line(
            pay.name,
            float(pay.current) if pay.current.denominator != 1 else pay.current.numerator,
            formula,
            "-" if pay.value is None else fraction_string(pay.value),
            pay.reason or pay.note or "",
        )


def _bet_document(parsheet: ParSheet, name: str) -> list[Block]:
    """The exact-tails and per-hour part of a bet's blocks in the document."""
    inside: list[Block] = []
    keep = False
    for block in section(document(parsheet, TEXT_DIGITS), name):
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


def _summary(writer: SheetWriter, parsheet: ParSheet) -> None:
    analysis = parsheet.analysis
    identity_lines(writer, parsheet.identity, "Par sheet")
    game = parsheet.played
    writer.line("Shoe", analysis.shoe.describe())
    if game.key != "baccarat":
        writer.line("Game", game.name)
    writer.line("Rules", game.settlement)
    writer.line("Rounds counted", game.rounds, str(game.rounds))
    writer.skip()
    writer.line(
        "Bet",
        "House edge",
        "House edge (exact)",
        "RTP",
        "RTP (exact)",
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
            float(sheet.return_to_player),
            fraction_string(sheet.return_to_player),
            float(sheet.result.win_probability),
            fraction_string(sheet.result.win_probability),
            float(deviation),
            deviation,
            *(
                value
                for index in sheet.volatility
                for value in (float(index.decimal(TEXT_DIGITS)), index.decimal(TEXT_DIGITS))
            ),
            formats={2: _PERCENT_FORMAT, 4: _PERCENT_FORMAT, 6: _PROBABILITY_FORMAT},
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
    convention, checking = game_texts(parsheet)
    for text in (
        convention,
        METHOD.format(version=package_version()),
        DEFINITIONS.format(zs=zs),
        checking,
    ):
        writer.line(text)
    for text, holds in parsheet.checks:
        writer.line(text, "holds" if holds else "FAILS")


def write_xlsx(sheet: ParSheet, target: str | Path | IO[bytes]) -> None:
    """Write *sheet* as an xlsx workbook to *target* (a path or a binary file)."""
    openpyxl = require_openpyxl()
    workbook = openpyxl.Workbook()
    summary = workbook.active
    summary.title = "Summary"
    _summary(SheetWriter(summary), sheet)
    taken = {"summary", "rules", "compare", "multipliers"}
    blocks = document(sheet, TEXT_DIGITS)
    SheetWriter(workbook.create_sheet("Rules")).blocks(section(blocks, "rules"))
    if sheet.comparisons:
        SheetWriter(workbook.create_sheet("Compare")).blocks(section(blocks, "compare"))
    if sheet.overlay is not None:
        SheetWriter(workbook.create_sheet("Multipliers")).blocks(section(blocks, "multipliers"))
    cached = {}
    for name, bet_sheet in sheet.bets.items():
        writer = SheetWriter(workbook.create_sheet(sheet_title(name, taken)))
        _bet_sheet(writer, bet_sheet, sheet)
        cached[writer.worksheet.title] = writer.cached
    footer = f"{sheet.identity.title} - {sheet.identity.date}" if sheet.identity else "Par sheet"
    for worksheet in workbook.worksheets:
        finish_sheet(worksheet, footer)
    workbook.calculation.fullCalcOnLoad = True
    save_dated(workbook, target, sheet.identity.date if sheet.identity else None, cached)
