"""A par sheet as a document: Markdown, or one self-contained HTML page.

:func:`document` turns a :class:`~exactodds.report.parsheet.ParSheet` into a
list of blocks (headings, paragraphs, tables, figures), written once; the
Markdown and HTML writers only serialise those blocks, so both formats carry
the same numbers.  Every table has an id (``<bet>-outcomes``,
``<bet>-figures``, ``<bet>-volatility``, ``<bet>-hold``, ``<bet>-removal``,
``<bet>-breakeven``) so a reader, or a test, can find it.

>>> from exactodds import Rules, Shoe
>>> from exactodds.bets.catalogue import select_bets
>>> from exactodds.report.parsheet import par_sheet
>>> sheet = par_sheet(Shoe.standard(decks=8), Rules(), select_bets("tie"), breakeven=False)
>>> text = render_markdown(sheet, digits=6)
>>> print(next(line for line in text.splitlines() if line.startswith("| win")))
| win | 8 | 475,627,426,473,216 | 0.095156 | 619306544887/6508331087895 | 0.761248 | 4954452359096/6508331087895 |
"""

from __future__ import annotations

import html
import importlib.metadata
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction

from ..numbers import decimal_string, fraction_string, percent_string
from .parsheet import BetSheet, ParSheet

__all__ = [
    "Figure",
    "Heading",
    "Paragraph",
    "Table",
    "document",
    "render_html",
    "render_markdown",
]


@dataclass(frozen=True)
class Heading:
    """A heading of *level* 1-3; ``anchor`` is its id in HTML."""

    level: int
    text: str
    anchor: str = ""


@dataclass(frozen=True)
class Paragraph:
    """A paragraph of plain text."""

    text: str


@dataclass(frozen=True)
class Table:
    """A table: an id, column headers, rows of preformatted cells, and which columns are numbers."""

    identifier: str
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    numeric: tuple[bool, ...]


@dataclass(frozen=True)
class Figure:
    """A place for the figure of *kind* (see ``FIGURE_KINDS``) of one bet."""

    bet: str
    kind: str
    caption: str


Block = Heading | Paragraph | Table | Figure

CONVENTION = (
    "Counting convention: every round is counted as an ordered sequence of six cards dealt "
    "without replacement from the shoe, so a round that uses four or five cards counts once "
    "for every way the unused positions could be filled, and every sequence is equally "
    "likely. The combinations of a shoe of n cards add up to n(n-1)(n-2)(n-3)(n-4)(n-5); "
    "a probability is a count divided by that total."
)

METHOD = (
    "How the figures were computed: by exact enumeration of every round the shoe can deal "
    "(exactodds {version}), in integers; each probability, pay, expected value, variance, "
    "effect of removal and break-even pay is an exact fraction, and each decimal shown is "
    "rounded half to even from it. The standard deviation, the volatility index and the "
    "ends of the hold's bands contain a square root; they are correctly rounded to the "
    "digits shown. Net results are per unit staked: a win at 8 to 1 is +8, a push 0, a "
    "loss -1."
)

DEFINITIONS = (
    "Definitions: house edge = -EV per unit staked; edge per resolved bet = house edge / "
    "(1 - push probability); hit frequency = probability that the bet wins; variance and "
    "standard deviation (sd) are those of one round's net result. Volatility index VI = z * "
    "sd, with z the two-sided standard normal quantile of the confidence level rounded to "
    "three decimals as par sheets print it ({zs}). The hold after N rounds of one unit each "
    "is the house's win divided by the money staked; its mean is the house edge and its "
    "standard deviation sd / sqrt(N), so by the central limit theorem it lies within house "
    "edge +- VI / sqrt(N) with the confidence stated (a normal approximation, good when N "
    "times the smallest outcome probability is large)."
)

CHECKING = (
    "How the figures are checked: the engine is tested against a physical-card reference "
    "that deals every permutation on small shoes, against invariants, and against published "
    "figures (Wizard of Odds counts for 1-8 decks; Banker 1.0579%, Player 1.2351%, Tie "
    "14.3596% on 8 decks). This report checked these identities on its own numbers:"
)

REMOVAL_TEXT = (
    "Effect of removal: the exact change in EV when one card of a rank leaves the shoe "
    "(EV after removal - EV before). The count's tags are the effects scaled so the largest "
    "is {max_tag}, rounded and balanced so a full pass of the shoe counts 0; its betting "
    "correlation is the correlation of tags and effects, weighted by the cards of each rank."
)


def _version() -> str:
    try:
        return importlib.metadata.version("exactodds")
    except importlib.metadata.PackageNotFoundError:  # pragma: no cover - run from a source tree
        return "source tree"


def _percent_or_dash(value: Fraction | None, digits: int) -> str:
    return "-" if value is None else percent_string(value, digits)


def _bet_blocks(sheet: BetSheet, parsheet: ParSheet, digits: int) -> Iterator[Block]:
    name = sheet.name
    result = sheet.result
    percent_digits = max(digits - 2, 0)
    yield Heading(2, f"Bet: {name}", anchor=name)
    pays = ", ".join(f"{row.outcome} {fraction_string(row.pay)}" for row in sheet.rows)
    yield Paragraph(f"{result.bet.description} Pays (net, to 1): {pays}.")

    yield Heading(3, "Outcomes")
    rows = [
        (
            row.outcome,
            fraction_string(row.pay),
            f"{row.count:,}",
            decimal_string(row.probability, digits),
            fraction_string(row.probability),
            decimal_string(row.contribution, digits),
            fraction_string(row.contribution),
        )
        for row in sheet.rows
    ]
    total_probability = sum((row.probability for row in sheet.rows), Fraction(0))
    rows.append(
        (
            "total",
            "",
            f"{sum(row.count for row in sheet.rows):,}",
            decimal_string(total_probability, digits),
            fraction_string(total_probability),
            decimal_string(sheet.expected_value, digits),
            fraction_string(sheet.expected_value),
        )
    )
    yield Table(
        f"{name}-outcomes",
        (
            "Outcome",
            "Pays",
            "Combinations",
            "Probability",
            "Probability (exact)",
            "Return",
            "Return (exact)",
        ),
        tuple(rows),
        (False, True, True, True, True, True, True),
    )

    per_resolved = result.house_edge_per_resolved_bet
    figures: list[tuple[str, str, str]] = [
        (
            "Expected value (EV)",
            decimal_string(result.expected_value, digits),
            fraction_string(result.expected_value),
        ),
        (
            "House edge",
            percent_string(result.house_edge, percent_digits),
            fraction_string(result.house_edge),
        ),
        (
            "Edge per resolved bet",
            _percent_or_dash(per_resolved, percent_digits),
            "-" if per_resolved is None else fraction_string(per_resolved),
        ),
        (
            "Hit frequency",
            decimal_string(result.win_probability, digits),
            fraction_string(result.win_probability),
        ),
        (
            "Push probability",
            decimal_string(result.push_probability, digits),
            fraction_string(result.push_probability),
        ),
        (
            "Loss probability",
            decimal_string(result.loss_probability, digits),
            fraction_string(result.loss_probability),
        ),
        ("Variance", decimal_string(result.variance, digits), fraction_string(result.variance)),
        ("Standard deviation", result.standard_deviation(digits), "sqrt(variance)"),
    ]
    yield Heading(3, "Figures")
    yield Table(
        f"{name}-figures", ("Figure", "Value", "Exact"), tuple(figures), (False, True, True)
    )

    yield Heading(3, "Volatility index")
    yield Table(
        f"{name}-volatility",
        ("Confidence", "z", "VI = z * sd", "VI squared (exact)"),
        tuple(
            (
                f"{index.confidence}%",
                decimal_string(index.z, 3),
                index.decimal(digits),
                fraction_string(index.squared),
            )
            for index in sheet.volatility
        ),
        (False, True, True, True),
    )

    yield Heading(3, "Expected hold")
    hold_rows = []
    for rounds in parsheet.rounds:
        cells = [f"{rounds:,}", percent_string(result.house_edge, percent_digits)]
        for band in sheet.holds_at(rounds):
            cells.append(
                f"{band.low_percent(percent_digits)} to {band.high_percent(percent_digits)}"
            )
        hold_rows.append(tuple(cells))
    yield Table(
        f"{name}-hold",
        ("Rounds", "Expected hold", *(f"{level}% band" for level in parsheet.confidences)),
        tuple(hold_rows),
        (True,) * (2 + len(parsheet.confidences)),
    )
    yield Figure(name, "hold", f"{name}: the hold's confidence bands against the rounds played")
    yield Figure(name, "distribution", f"{name}: probability of each net result")

    yield Heading(3, "Effect of removal")
    if sheet.effects is None or parsheet.removal is None:
        yield Paragraph(f"Not computed: {parsheet.removal_reason}")
    else:
        removal = parsheet.removal
        count = sheet.count
        yield Paragraph(REMOVAL_TEXT.format(max_tag=parsheet.max_tag))
        removal_rows = []
        for rank, effect in sheet.effects.items():
            cards = parsheet.shoe.rank_count(rank)
            if effect is None:
                removal_rows.append((rank, f"{cards}", "-", "-", "-", "-"))
                continue
            removal_rows.append(
                (
                    rank,
                    f"{cards}",
                    fraction_string(effect),
                    percent_string(effect, digits),
                    decimal_string(removal.expected_values[name] + effect, digits),
                    "-" if count is None else f"{count.tags.get(rank, 0):+d}".replace("+0", "0"),
                )
            )
        yield Table(
            f"{name}-removal",
            ("Rank", "Cards", "Effect (exact)", "Effect", "EV after", "Tag"),
            tuple(removal_rows),
            (False, True, True, True, True, True),
        )
        for rank, reason in removal.skipped.items():
            yield Paragraph(f"Rank {rank} skipped: {reason}")
        if count is not None:
            if count.correlation is None or not count.correlation.defined:
                correlation = "undefined"
            else:
                correlation = count.correlation.decimal(4)
            balance = "balanced" if count.balanced else f"imbalance {count.imbalance}"
            yield Paragraph(
                f"Derived count: level {count.max_tag} ({balance}), betting correlation "
                f"{correlation}; effects weighted by the cards of each rank add up to "
                f"{fraction_string(sheet.weighted_sum or 0)}."
            )
        yield Figure(name, "removal", f"{name}: effect of removal by rank, with the count's tags")

    if sheet.breakevens:
        yield Heading(3, "Break-even pays")
        yield Table(
            f"{name}-breakeven",
            ("Pay", "Now", "Break-even (exact)", "Break-even", "Note"),
            tuple(
                (
                    pay.name,
                    fraction_string(pay.current),
                    "-" if pay.value is None else fraction_string(pay.value),
                    "-" if pay.value is None else decimal_string(pay.value, digits),
                    pay.reason or pay.note or "",
                )
                for pay in sheet.breakevens
            ),
            (False, True, True, True, False),
        )
        yield Paragraph(
            "The value of each pay (to 1; for the commission, the share of a Banker win) at "
            "which the bet's EV is exactly zero, every other pay as above."
        )


def document(sheet: ParSheet, digits: int = 10) -> list[Block]:
    """The par sheet as blocks, in reading order."""
    analysis = sheet.analysis
    blocks: list[Block] = [
        Heading(1, "Par sheet", anchor="top"),
        Table(
            "setup",
            ("Item", "Value"),
            (
                ("Shoe", analysis.shoe.describe()),
                ("Rules", analysis.rules.describe()),
                ("Rounds counted", f"{analysis.total:,} ordered six-card sequences"),
                ("Bets", ", ".join(analysis.bet_names or tuple(analysis.bets))),
            ),
            (False, False),
        ),
        Table(
            "summary",
            (
                "Bet",
                "House edge",
                "Hit frequency",
                "Standard deviation",
                *(f"VI {level}%" for level in sheet.confidences),
            ),
            tuple(
                (
                    name,
                    percent_string(bet.result.house_edge, max(digits - 2, 0)),
                    decimal_string(bet.result.win_probability, digits),
                    bet.result.standard_deviation(digits),
                    *(index.decimal(digits) for index in bet.volatility),
                )
                for name, bet in sheet.bets.items()
            ),
            (False,) + (True,) * (3 + len(sheet.confidences)),
        ),
    ]
    for name, reason in sheet.unavailable.items():
        blocks.append(Paragraph(f"{name}: not computable. {reason}"))
    for bet in sheet.bets.values():
        blocks.extend(_bet_blocks(bet, sheet, digits))
    zs = (
        ", ".join(
            f"{decimal_string(index.z, 3)} at {index.confidence}%"
            for index in next(iter(sheet.bets.values())).volatility
        )
        if sheet.bets
        else "none"
    )
    blocks += [
        Heading(2, "How this report was made", anchor="method"),
        Paragraph(CONVENTION),
        Paragraph(METHOD.format(version=_version())),
        Paragraph(DEFINITIONS.format(zs=zs)),
        Paragraph(CHECKING),
        Table(
            "checks",
            ("Check", "Result"),
            tuple((text, "holds" if holds else "FAILS") for text, holds in sheet.checks),
            (False, False),
        ),
    ]
    return blocks


def _markdown_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_markdown(
    sheet: ParSheet, digits: int = 10, figure_path: Callable[[str, str], str] | None = None
) -> str:
    """The par sheet as GitHub-flavoured Markdown.

    *figure_path* maps ``(bet, kind)`` to an image path to link (for figures
    written with ``--plot DIR``); without it, figures are left out.
    """
    lines: list[str] = []
    for block in document(sheet, digits):
        if isinstance(block, Heading):
            lines += ["#" * block.level + " " + block.text, ""]
        elif isinstance(block, Paragraph):
            lines += [block.text, ""]
        elif isinstance(block, Table):
            lines.append("| " + " | ".join(map(_markdown_cell, block.headers)) + " |")
            lines.append(
                "|" + "|".join("---:" if numeric else "---" for numeric in block.numeric) + "|"
            )
            for row in block.rows:
                lines.append("| " + " | ".join(map(_markdown_cell, row)) + " |")
            lines.append("")
        elif figure_path is not None:
            lines += [f"![{block.caption}]({figure_path(block.bet, block.kind)})", ""]
    return "\n".join(lines).rstrip("\n") + "\n"


STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em auto;
       max-width: 72em; padding: 0 1em; color: #222; line-height: 1.4; }
h1 { border-bottom: 2px solid #333; }
h2 { border-bottom: 1px solid #aaa; margin-top: 2em; }
table { border-collapse: collapse; margin: 0.5em 0 1em; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; vertical-align: top; }
th { background: #f0f0f0; text-align: left; }
td.number { text-align: right; font-variant-numeric: tabular-nums; }
td.exact { font-family: ui-monospace, monospace; font-size: 0.85em; word-break: break-all;
           max-width: 22em; }
figure { margin: 0.5em 1% 1.5em 0; display: inline-block; width: 48%; min-width: 24em;
         vertical-align: top; }
figure svg, figure img { max-width: 100%; height: auto; }
figcaption { font-size: 0.85em; color: #555; }
p.note { font-size: 0.9em; }
"""


def render_html(
    sheet: ParSheet, digits: int = 10, figure_markup: Callable[[str, str], str] | None = None
) -> str:
    """The par sheet as one self-contained HTML page (styles inline, figures inline).

    *figure_markup* maps ``(bet, kind)`` to the markup of that figure (an
    inline ``<svg>`` or an ``<img>`` with a ``data:`` URI); without it,
    figures are left out and the page needs nothing but the text.
    """
    escape = html.escape
    title = f"Par sheet: {', '.join(sheet.bets) or 'no bets'} - {sheet.shoe.describe()}"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f"<title>{escape(title)}</title>",
        f"<style>{STYLE}</style>",
        "</head>",
        "<body>",
    ]
    for block in document(sheet, digits):
        if isinstance(block, Heading):
            anchor = f' id="{escape(block.anchor)}"' if block.anchor else ""
            parts.append(f"<h{block.level}{anchor}>{escape(block.text)}</h{block.level}>")
        elif isinstance(block, Paragraph):
            parts.append(f'<p class="note">{escape(block.text)}</p>')
        elif isinstance(block, Table):
            parts.append(f'<table id="{escape(block.identifier)}">')
            parts.append(
                "<thead><tr>"
                + "".join(f"<th>{escape(header)}</th>" for header in block.headers)
                + "</tr></thead>"
            )
            parts.append("<tbody>")
            for row in block.rows:
                cells = []
                for header, numeric, cell in zip(block.headers, block.numeric, row, strict=True):
                    kind = "exact" if "exact" in header.lower() else "number" if numeric else ""
                    attribute = f' class="{kind}"' if kind else ""
                    cells.append(f"<td{attribute}>{escape(cell)}</td>")
                parts.append("<tr>" + "".join(cells) + "</tr>")
            parts.append("</tbody></table>")
        elif figure_markup is not None:
            parts.append(
                f'<figure id="{escape(block.bet)}-{block.kind}-figure">'
                f"{figure_markup(block.bet, block.kind)}"
                f"<figcaption>{escape(block.caption)}</figcaption></figure>"
            )
    parts += ["</body>", "</html>"]
    return "\n".join(parts) + "\n"
