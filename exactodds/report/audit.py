"""Rendering a countability audit (:mod:`exactodds.studies.audit`) and a pay-table design.

One list of blocks (headings, paragraphs, tables: :mod:`exactodds.report.document`) is written
once by :func:`audit_document`; the document layer's writers (terminal text, Markdown, HTML,
PDF, xlsx) only serialise it, and JSON is the result's own ``to_dict()``.  Exact figures are
shown as decimals correctly rounded (and exactly in JSON); simulated figures are estimates,
shown with their standard errors.

>>> from exactodds.studies.design import DesignedTable, PayDesign, PayRange
>>> from fractions import Fraction
>>> table = DesignedTable({"win": Fraction(40), "lose": Fraction(-1)}, Fraction(1, 13),
...     Fraction(1, 44), Fraction(37), 1.5)
>>> design = PayDesign("dragon7", (PayRange("win", Fraction(40), Fraction(40), Fraction(1)),),
...     (Fraction(1, 20), Fraction(2, 25)), 1, 0, (table,))
>>> print(render_design(design, "table", 4).splitlines()[0])
Pay tables for dragon7 with a house edge from 5.00% to 8.00%: 1 of 1 priced, 0 audited.
>>> render_design(design, "csv", 4)
Traceback (most recent call last):
...
exactodds.errors.ExactOddsError: Format 'csv' is not valid for an audit; use table, json, markdown or html.
"""

from __future__ import annotations

import io
import math
import re
import shlex
from collections.abc import Iterator

from exactodds.errors import ExactOddsError
from exactodds.numbers import decimal_string, fraction_string, percent_string
from exactodds.report.document.blocks import Block, Heading, Paragraph, Table
from exactodds.report.document.html import blocks_html
from exactodds.report.document.markdown import blocks_markdown
from exactodds.report.document.text import blocks_text
from exactodds.report.multipliers import overlay_lines
from exactodds.report.writer import json_text
from exactodds.simulation.dealing import DealingProcedure
from exactodds.simulation.risk.sums import Estimate
from exactodds.studies.audit import Audit, BetAudit, fraction_words, percent_words
from exactodds.studies.design import TIE_SIGMAS, PayDesign
from exactodds.studies.parsheet import SheetIdentity

__all__ = [
    "AUDIT_FORMATS",
    "audit_document",
    "audit_pdf",
    "audit_xlsx",
    "design_document",
    "identity_table",
    "render_audit",
    "render_design",
    "reproduction",
]

#: The formats of ``exactodds audit --format``.
AUDIT_FORMATS = ("table", "json", "markdown", "html")


def _estimate(estimate: Estimate, digits: int) -> str:
    if math.isnan(estimate.mean):
        return "-"
    error = "" if math.isnan(estimate.stderr) else f" ± {estimate.stderr:.{digits}f}"
    return f"{estimate.mean:.{digits}f}{error}"


def _float(value: float | None, digits: int) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _simulate_options(procedure: DealingProcedure) -> str:
    """The dealing as ``simulate``'s options."""
    words = [f"--decks {procedure.decks}", f"--cut {procedure.cut}"]
    if procedure.burn != "standard":
        words.append(f"--burn {procedure.burn}")
    if procedure.after_cut != 1:
        words.append(f"--after-cut {procedure.after_cut}")
    if procedure.cut_first_rounds != procedure.after_cut + 1:
        words.append(f"--cut-first-rounds {procedure.cut_first_rounds}")
    return " ".join(words)


def reproduction(result: BetAudit, audit: Audit) -> str:
    """The ``simulate`` command that gives *result*'s decided-on figures again: the dealing,
    every rules and bet option of the run (:attr:`Audit.command_options`), the shoes, the
    seed and the play."""
    shoes, seed = audit.budget, audit.seed + 1
    play = "perfect" if result.count is None else result.count.strategy
    options = " ".join(shlex.quote(word) for word in audit.command_options)
    return " ".join(
        word
        for word in (
            "exactodds simulate",
            _simulate_options(audit.procedure),
            options,
            f"--shoes {shoes} --seed {seed} --bets {shlex.quote(result.name)}",
            f"--play {shlex.quote(result.name + '=' + play)}",
        )
        if word
    )


def _verdict_blocks(result: BetAudit, digits: int) -> Iterator[Block]:
    decision = result.decision
    thresholds = decision.thresholds
    confidence = percent_words(thresholds.confidence)
    yield Paragraph(result.verdict)
    yield Table(
        f"{result.name}-verdict",
        ("Decision", "Value"),
        (
            ("Decided on", decision.played),
            ("Units per 100 rounds (mean ± standard error)", _estimate(decision.estimate, digits)),
            (f"{confidence} upper bound (one-sided)", _bound(decision.upper, digits)),
            ("Threshold", thresholds.deciding()[1]),
            ("Verdict", "safe" if decision.safe else "can be beaten"),
        ),
        (False, True),
    )


def _bound(value: float, digits: int) -> str:
    return "-" if math.isinf(value) else f"{value:.{digits}f}"


def _count_blocks(result: BetAudit, audit: Audit, digits: int) -> Iterator[Block]:
    name, count = result.name, result.count
    if count is None:
        yield Heading(3, "No count: perfect play")
        yield Paragraph(
            f"No count can track {name}: every rank's effect of removal is 0 (a card of any "
            "rank changes its chances alike), so it is audited by its exact perfect play: bet "
            "exactly when the round's exact EV is positive, simulated on "
            f"{audit.budget} shoes (seed {audit.seed + 1}), as {reproduction(result, audit)} "
            "gives it."
        )
        yield Table(
            f"{name}-perfect",
            ("Figure", "Value"),
            (("Perfect play, units per 100 rounds", _estimate(result.perfect_play, digits)),),
            (False, True),
        )
        return
    yield Heading(3, "Best count found")
    yield Table(
        f"{name}-count",
        ("Figure", "Value"),
        (
            ("Tags (A 2 3 4 5 6 7 8 9 T)", " ".join(f"{tag:+d}" for tag in count.tags)),
            ("Trigger (true count at least)", fraction_words(count.trigger)),
            ("Betting correlation", count.betting_correlation or "-"),
            ("Frequency of bets", _float(count.frequency, digits)),
            ("Average edge when betting", _float(count.average_edge, digits)),
            ("Units per 100 rounds", _estimate(count.units_per_100_rounds, digits)),
            ("DI, exactodds (1000 EV / SD of every round)", _estimate(count.di, digits)),
            (
                "DI, Jacobson (1000 EV / sqrt(frequency x variance))",
                _estimate(count.di_jacobson, digits),
            ),
            ("N0 (rounds)", _float(count.n0_rounds, 0)),
            ("Perfect play, units per 100 rounds", _estimate(result.perfect_play, digits)),
        ),
        (False, True),
    )
    yield Paragraph(
        f"Found among {count.candidates} candidates on {count.shoes} shoes (seed "
        f"{count.seed - 1}); simulated on {count.shoes} fresh shoes (seed {count.seed}), as "
        f"{reproduction(result, audit)} gives them."
    )


def _bet_blocks(result: BetAudit, audit: Audit, digits: int) -> Iterator[Block]:
    name = result.name
    yield Heading(2, name, anchor=name)
    yield from _verdict_blocks(result, digits)
    pays = ", ".join(f"{outcome} {fraction_string(pay)}" for outcome, pay in result.pays.items())
    yield Table(
        f"{name}-figures",
        ("Figure", "Value"),
        (
            ("Pays", pays),
            ("House edge", percent_string(result.house_edge, digits)),
            ("Standard deviation", result.standard_deviation(digits)),
            ("Hit frequency", percent_string(result.hit_frequency, digits)),
        ),
        (False, True),
    )
    yield Table(
        f"{name}-removal",
        ("Rank", "Effect of removal"),
        tuple(
            (rank, "-" if effect is None else decimal_string(effect, digits + 4))
            for rank, effect in result.eor.items()
        ),
        (False, True),
    )
    yield from _count_blocks(result, audit, digits)
    if result.depth:
        yield Heading(3, "Perfect play by depth (exact)")
        yield Table(
            f"{name}-depth",
            ("Cards left", "P(EV > 0)", "Value per round"),
            tuple(
                (
                    str(row.cards),
                    decimal_string(row.positive_probability, digits),
                    decimal_string(row.value, digits),
                )
                for row in result.depth
            ),
            (True, True, True),
        )
    elif result.depth_note:
        yield Paragraph(f"Depth tables: {result.depth_note}")
    yield from _cut_blocks(result, digits)


def _cut_blocks(result: BetAudit, digits: int) -> Iterator[Block]:
    decision = result.decision
    thresholds = decision.thresholds
    confidence = percent_words(thresholds.confidence)
    yield Heading(3, "Win by cut card")
    yield Table(
        f"{result.name}-cut",
        (
            "Cards behind the cut card",
            "Units per 100 rounds",
            f"{confidence} upper bound",
            "Below threshold",
        ),
        tuple(
            (
                str(row.cut),
                _estimate(row.units_per_100_rounds, digits),
                _bound(thresholds.upper(row.units_per_100_rounds), digits),
                "yes" if thresholds.upper(row.units_per_100_rounds) < decision.threshold else "no",
            )
            for row in result.by_cut
        ),
        (True, True, True, False),
    )
    yield Paragraph(
        f"From {result.safe_cut} cards behind the cut card on, the {confidence} upper bound of "
        f"{decision.played}'s win is below the threshold: the safe cut."
        if result.safe_cut is not None
        else f"No cut card listed brings the {confidence} upper bound of {decision.played}'s "
        "win below the threshold."
    )


def identity_table(identity: SheetIdentity) -> Table:
    """The identification header, as the par sheet prints it."""
    return Table(
        "identity",
        ("Item", "Value"),
        (
            ("Game", identity.title),
            ("Pay table", identity.paytable),
            ("Date", identity.date),
            ("exactodds version", identity.version),
            ("Command", identity.command),
        ),
        (False, False),
    )


def audit_document(
    result: Audit, digits: int = 4, identity: SheetIdentity | None = None
) -> list[Block]:
    """The audit as blocks: what every format but JSON shows (*identity*: the header)."""
    thresholds = result.thresholds
    blocks: list[Block] = [
        Heading(1, identity.title if identity else "Countability audit", anchor="top"),
        *([identity_table(identity)] if identity else []),
        Paragraph(f"Rules: {result.rules.describe()}"),
        Paragraph(f"Dealing: {result.procedure.describe()}"),
        Paragraph(
            f"Budget: {result.budget} shoes per candidate, seed {result.seed}. Safe when the "
            f"{percent_words(thresholds.confidence)} one-sided upper bound of the win is below "
            f"{thresholds.deciding()[1]}. Simulated figures are estimates (mean ± standard "
            "error)."
        ),
        *(
            Paragraph(line)
            for line in (overlay_lines(result.overlay) if result.overlay is not None else [])
        ),
        *([Paragraph(_overlay_units(result))] if result.overlay is not None else []),
    ]
    for bet in result.bets.values():
        blocks.extend(_bet_blocks(bet, result, digits))
    return blocks


def _overlay_units(result: Audit) -> str:
    """What every figure of an audit under an overlay is per: the unit paid."""
    return (
        f"Every bet is priced and paid under the overlay, the fee of "
        f"{percent_string(result.fee, 2)} charged on every bet: every figure is per unit paid "
        "(the stake plus the fee), so the house edge is 1 less the RTP, and the effects of "
        "removal are changes in the EV per unit paid."
    )


def _check(output_format: str) -> None:
    if output_format not in AUDIT_FORMATS:
        raise ExactOddsError(
            f"Format {output_format!r} is not valid for an audit; use table, json, markdown or "
            "html."
        )


def render_audit(
    result: Audit,
    output_format: str = "table",
    digits: int = 4,
    identity: SheetIdentity | None = None,
) -> str:
    """The audit in *output_format* (see :data:`AUDIT_FORMATS`; PDF is :func:`audit_pdf`)."""
    _check(output_format)
    if output_format == "json":
        return json_text(result.to_dict())
    blocks = audit_document(result, digits, identity)
    if output_format == "markdown":
        return blocks_markdown(blocks).rstrip("\n")
    if output_format == "html":
        return blocks_html(blocks, "Countability audit: " + ", ".join(result.bets)).rstrip("\n")
    return blocks_text(blocks)


def audit_pdf(result: Audit, digits: int = 4, identity: SheetIdentity | None = None) -> bytes:
    """The audit as PDF bytes, the par sheet's layout (the ``report`` extra: fpdf2)."""
    from exactodds.report.document.pdf import blocks_pdf

    return blocks_pdf(
        audit_document(result, digits, identity),
        identity.title if identity else "Countability audit",
        identity.version if identity else None,
        identity.date if identity else None,
        author=identity.author if identity else "",
        subject="Countability audit: " + ", ".join(result.bets),
    )


#: Decimals of the figures in the workbook (its cells keep a float's 15 significant digits).
_XLSX_DIGITS = 15
_ESTIMATE = re.compile(r"(\S+) ± (\S+)")


def _estimates_apart(block: Block) -> Block:
    """A table whose estimates (``mean ± stderr``) are split in two columns, so that both
    are numbers in a workbook; other blocks as they are."""
    if not isinstance(block, Table):
        return block
    split = [
        any(_ESTIMATE.fullmatch(row[column]) for row in block.rows)
        for column in range(len(block.headers))
    ]
    if not any(split):
        return block
    headers: list[str] = []
    numeric: list[bool] = []
    for header, is_number, apart in zip(block.headers, block.numeric, split, strict=True):
        headers.append(header)
        numeric.append(is_number)
        if apart:
            headers.append("Standard error" if header == "Value" else f"{header}, standard error")
            numeric.append(True)
    rows = []
    for row in block.rows:
        cells: list[str] = []
        for cell, apart in zip(row, split, strict=True):
            found = _ESTIMATE.fullmatch(cell)
            cells += (
                ([found.group(1), found.group(2)] if found else [cell, ""]) if apart else [cell]
            )
        rows.append(tuple(cells))
    return Table(block.identifier, tuple(headers), tuple(rows), tuple(numeric))


def audit_xlsx(result: Audit, identity: SheetIdentity | None = None) -> bytes:
    """The audit as an xlsx workbook (the ``report`` extra: openpyxl): a summary sheet with
    the par sheet's identification header, then one sheet per bet.

    Figures are numbers, to 15 decimals (an estimate's standard error in the column beside
    it); the exact fractions are the JSON's.
    """
    from exactodds.report.document.xlsx import write_blocks_xlsx

    blocks = [_estimates_apart(block) for block in audit_document(result, _XLSX_DIGITS, None)]
    sheets: list[tuple[str, list[Block]]] = [("Summary", [])]
    for block in blocks[1:]:  # the title is the header's
        if isinstance(block, Heading) and block.level == 2:
            sheets.append((block.text, []))
        sheets[-1][1].append(block)
    buffer = io.BytesIO()
    write_blocks_xlsx(sheets, buffer, identity, "Countability audit")
    return buffer.getvalue()


def design_document(design: PayDesign, digits: int = 4) -> list[Block]:
    """The design as blocks."""
    low, high = design.window
    rows = []
    for table in design.tables:
        units = table.units_per_100_rounds
        rows.append(
            (
                "-" if table.rank is None else str(table.rank),
                ", ".join(
                    f"{outcome} {fraction_string(pay)}" for outcome, pay in table.pays.items()
                ),
                percent_string(table.house_edge, digits),
                percent_string(table.hit_frequency, digits),
                table.volatility_index(digits),
                f"{table.removal_index:.{digits}f}",
                "-" if units is None else _estimate(units, digits),
            )
        )
    return [
        Heading(1, "Pay-table design", anchor="top"),
        Paragraph(
            f"Pay tables for {design.bet} with a house edge from {percent_string(low, 2)} to "
            f"{percent_string(high, 2)}: {len(design.tables)} of {design.priced} priced, "
            f"{design.audited} audited." + (f" {design.note}" if design.note else "")
        ),
        Table(
            f"{design.bet}-design",
            (
                "Rank",
                "Pays",
                "House edge",
                "Hit frequency",
                "VI (90%)",
                "Removal index",
                "Count's units per 100 rounds",
            ),
            tuple(rows),
            (True, False, True, True, True, True, True),
        ),
        Paragraph(
            "Best first: the audited tables (least won by their best count first), then the "
            "others by removal index (how far one card moves the EV against the house edge). "
            "Audited tables of the same rank are tied: their counts' wins differ by less than "
            f"{TIE_SIGMAS} standard errors of the difference, so the order among them is "
            "chance."
        ),
    ]


def render_design(design: PayDesign, output_format: str = "table", digits: int = 4) -> str:
    """The design in *output_format* (see :data:`AUDIT_FORMATS`)."""
    _check(output_format)
    if output_format == "json":
        return json_text(design.to_dict())
    blocks = design_document(design, digits)
    if output_format == "markdown":
        return blocks_markdown(blocks).rstrip("\n")
    if output_format == "html":
        return blocks_html(blocks, f"Pay-table design: {design.bet}").rstrip("\n")
    return blocks_text(blocks[1:])
