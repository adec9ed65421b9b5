"""The winning-player review written out: a table (with each figure's method), JSON, or the
document layer's Markdown, HTML, PDF and xlsx (the par sheet's formats); and the chart of each
bet's stake against its exact EV, round by round (:func:`stake_figure`: inline in HTML, an
image in the PDF, files with ``review --plot DIR``), from the data the review holds
(:attr:`~exactodds.studies.review.Review.charts`).

Every figure comes from the :class:`~exactodds.studies.review.Review`; nothing is computed
here but the rounding of exact values for display.

>>> from exactodds import Rules, Shoe
>>> from exactodds.bets.catalogue import select_bets
>>> from exactodds.studies.review import ReviewSpec, review
>>> from exactodds.studies.review_log import read_log
>>> shoe = Shoe.parse("A=4,2=4,3=4,4=4,5=4,6=4,7=4,8=4,9=4,T=16")
>>> log = read_log('{"cards": "8 T 3 9", "bets": {"banker": 1}}\\n')
>>> result = review(log, ReviewSpec(shoe, Rules(), tuple(select_bets("banker"))))
>>> print(render_review_table(result, digits=4).splitlines()[0])
Review of the log: 1 round in 1 shoe, suits not known, each shoe 52 cards
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from typing import Any

from exactodds.numbers import decimal_string, fraction_string
from exactodds.report.document import Block, Figure, Heading, Paragraph, Table
from exactodds.report.document.html import blocks_html
from exactodds.report.document.markdown import blocks_markdown
from exactodds.report.table import TABLE_WIDTH, fitted_table, wrapped_text
from exactodds.report.writer import json_text
from exactodds.studies.review import METHODS, BetReview, Review

__all__ = [
    "BEHAVIOUR_HEADERS",
    "RESULT_HEADERS",
    "render_review_document",
    "render_review_json",
    "render_review_table",
    "review_document",
    "review_figures",
    "review_pdf",
    "review_xlsx",
    "stake_figure",
]


def _plural(count: int, word: str) -> str:
    return f"{count:,} {word}{'' if count == 1 else 's'}"


def _money(value: object, digits: int, exact: bool) -> str:
    from fractions import Fraction

    assert isinstance(value, Fraction)
    if exact:
        return fraction_string(value)
    return decimal_string(value, digits)


def _result_rows(figures: list[BetReview], digits: int, exact: bool) -> list[list[str]]:
    return [
        [
            figure.name,
            f"{figure.bets_placed:,}",
            _money(figure.wagered, digits, exact),
            _money(figure.actual, digits, exact),
            _money(figure.theoretical, digits, exact),
            figure.luck.decimal(digits),
            figure.luck_without_information.decimal(digits),
        ]
        for figure in figures
    ]


def _behaviour_rows(result: Review, digits: int) -> list[list[str]]:
    rows = []
    for figure in result.bets:
        assert figure.stake_and_ev is not None and figure.stake_and_count is not None
        assert figure.follows_ev is not None and figure.follows_count is not None
        share = figure.positive_share
        trigger = figure.follows_count.trigger
        rows.append(
            [
                figure.name,
                figure.stake_and_ev.decimal(digits),
                figure.stake_and_count.decimal(digits),
                f"{figure.positive_taken:,} of {figure.positive_opportunities:,}",
                "n/a" if share is None else decimal_string(share, digits),
                f"{figure.follows_ev.log10_ratio:.2f}",
                f"{figure.follows_count.log10_ratio:.2f}",
                "n/a" if trigger is None else decimal_string(trigger, 2),
            ]
        )
    return rows


RESULT_HEADERS = ("Bet", "Bets", "Wagered", "Actual", "Theoretical", "Luck", "Luck, no information")
BEHAVIOUR_HEADERS = (
    "Bet",
    "Corr. stake-EV",
    "Corr. stake-count",
    "+EV rounds bet",
    "Share",
    "log10 LR EV",
    "log10 LR count",
    "Trigger",
)


def _count_lines(result: Review) -> list[str]:
    return [
        f"Count of {figure.name}: tags {','.join(str(tag) for tag in figure.count_tags)} (A-K)"
        for figure in result.bets
    ]


def _header_line(result: Review) -> list[str]:
    """What the log's header sets, as written (none without a header)."""
    header = result.header
    if header is None:
        return []
    shown = []
    for key, value in header.settings.items():
        if isinstance(value, dict):
            value = ", ".join(
                f"{name}={pay}"
                if not isinstance(pay, dict)
                else ", ".join(f"{name}.{outcome}={each}" for outcome, each in pay.items())
                for name, pay in value.items()
            )
        elif isinstance(value, list):
            value = ", ".join(str(item) for item in value)
        shown.append(f"{key} = {value}")
    return [f"Header (line {header.line:,}): {'; '.join(shown)}."]


def render_review_table(
    result: Review, digits: int = 4, exact: bool = False, wide: bool = False
) -> str:
    """The review as text: results, betting behaviour, counts, and each figure's method."""
    width = None if wide else TABLE_WIDTH
    suits = "suits known" if result.suits_known else "suits not known"
    head = (
        f"Review of {result.source}: {_plural(len(result.rounds), 'round')} in "
        f"{_plural(result.shoes, 'shoe')}, {suits}, each shoe {result.spec.shoe.cards:,} cards"
    )
    results = fitted_table(
        _result_rows([*result.bets, result.total], digits, exact),
        list(RESULT_HEADERS),
        ("left", "right", "right", "right", "right", "right", "right"),
        width,
    )
    behaviour = fitted_table(
        _behaviour_rows(result, digits),
        list(BEHAVIOUR_HEADERS),
        ("left", "right", "right", "right", "right", "right", "right", "right"),
        width,
    )
    counts = [*_header_line(result), *_count_lines(result)]
    notes = [f"{name[:1].upper()}{name[1:]}: {text}." for name, text in METHODS]
    prose = "\n".join(
        line if width is None else wrapped_text(line, width) for line in [*counts, *notes]
    )
    return "\n\n".join(
        [head if width is None else wrapped_text(head, width), results, behaviour, prose]
    )


def _rounds_table(result: Review, digits: int, exact: bool) -> Table:
    """Every round (numbered over the log, as the charts are), its shoe and cards, and each
    bet's stake and exact EV (the charts' data)."""
    charts = result.charts
    rows = []
    for index, record in enumerate(result.rounds):
        cells = [str(index + 1), record.shoe, " ".join(record.cards)]
        for chart in charts:
            cells.append(_money(chart.stakes[index], digits, exact))
            cells.append(_money(chart.expected_values[index], digits, exact))
        rows.append(tuple(cells))
    headers = ["Round", "Shoe", "Cards"]
    for chart in charts:
        headers += [f"{chart.bet} stake", f"{chart.bet} exact EV"]
    return Table(
        "rounds",
        tuple(headers),
        tuple(rows),
        (True, False, False, *(True,) * (2 * len(charts))),
    )


def review_document(result: Review, digits: int = 4, exact: bool = False) -> list[Block]:
    """The review as document blocks (what the Markdown, HTML, PDF and xlsx formats write):
    results, betting against the cards, methods, and round by round each bet's chart of the
    stake against the exact EV and the table of its data."""
    suits = "suits known" if result.suits_known else "suits not known"
    results = _result_rows([*result.bets, result.total], digits, exact)
    behaviour = _behaviour_rows(result, digits)
    return [
        Heading(1, "Winning-player review", "review"),
        Paragraph(
            f"{result.source[:1].upper()}{result.source[1:]}: {_plural(len(result.rounds), 'round')} in "
            f"{_plural(result.shoes, 'shoe')}, {suits}, each shoe {result.spec.shoe.cards:,} cards."
        ),
        Heading(2, "Results", "results"),
        Table(
            "results",
            RESULT_HEADERS,
            tuple(tuple(row) for row in results),
            (False, *(True,) * (len(RESULT_HEADERS) - 1)),
        ),
        Heading(2, "Betting against the cards", "behaviour"),
        Table(
            "behaviour",
            BEHAVIOUR_HEADERS,
            tuple(tuple(row) for row in behaviour),
            (False, *(True,) * (len(BEHAVIOUR_HEADERS) - 1)),
        ),
        *(Paragraph(line) for line in [*_header_line(result), *_count_lines(result)]),
        Heading(2, "Methods", "methods"),
        *(Paragraph(f"{name[:1].upper()}{name[1:]}: {text}.") for name, text in METHODS),
        Heading(2, "Round by round", "rounds"),
        Paragraph(
            "Each bet's stake (0 where it was not placed) against its exact EV per unit staked "
            "on the cards not yet seen, for every round of the log."
        ),
        *(Figure(chart.bet, "stakes", _caption(chart.bet)) for chart in result.charts),
        _rounds_table(result, digits, exact),
    ]


def _caption(bet: str) -> str:
    return f"{bet}: stake against the exact EV, round by round"


def render_review_document(
    result: Review,
    output_format: str,
    digits: int = 4,
    exact: bool = False,
    figure_markup: Callable[[str, str], str] | None = None,
    figure_path: Callable[[str, str], str] | None = None,
) -> str:
    """The review as Markdown or HTML (the document layer's writers); the charts inline in
    HTML with *figure_markup*, linked in Markdown with *figure_path* (each maps ``(bet,
    kind)`` to the figure's markup or path; without them the charts are left out)."""
    blocks = review_document(result, digits, exact)
    if output_format == "html":
        return blocks_html(blocks, _TITLE, figure_markup).rstrip("\n")
    return blocks_markdown(blocks, figure_path).rstrip("\n")


_TITLE = "Winning-player review"
#: Decimals of the figures in the workbook (its cells keep a float's 15 significant digits).
_XLSX_DIGITS = 15


def review_pdf(
    result: Review, digits: int = 4, figure_png: Callable[[str, str], bytes] | None = None
) -> bytes:
    """The review as PDF bytes, the par sheet's layout (fpdf2, the ``report`` extra); the
    charts as PNG images with *figure_png* (``(bet, kind)`` to the PNG's bytes)."""
    from exactodds.report.document.pdf import blocks_pdf

    return blocks_pdf(
        review_document(result, digits),
        _TITLE,
        figure_png=figure_png,
        subject=f"{_TITLE} of {result.source}",
    )


def review_xlsx(result: Review) -> bytes:
    """The review as an xlsx workbook (openpyxl, the ``report`` extra): a summary sheet (the
    results, the betting, the methods) and a sheet of the rounds, each bet's stake and exact
    EV (the charts' data) as numbers to 15 decimals; the exact fractions are the JSON's."""
    from exactodds.report.document.xlsx import write_blocks_xlsx

    blocks = review_document(result, _XLSX_DIGITS)
    sheets: list[tuple[str, list[Block]]] = [("Summary", [])]
    for block in blocks[1:]:  # the title is the workbook's header
        if isinstance(block, Heading) and block.text == "Round by round":
            sheets.append(("Round by round", []))
        sheets[-1][1].append(block)
    buffer = io.BytesIO()
    write_blocks_xlsx(sheets, buffer, None, _TITLE)
    return buffer.getvalue()


def render_review_json(result: Review) -> str:
    """The review's JSON contract (:meth:`~exactodds.studies.review.Review.to_dict`)."""
    return json_text(result.to_dict())


def stake_figure(result: Review, bet: str) -> Any:
    """One bet's stake against its exact EV, round by round (matplotlib, the ``plot`` extra):
    the exact EV in percent as a line, the stake as bars on a second axis.

    >>> from exactodds import Rules, Shoe
    >>> from exactodds.bets.catalogue import select_bets
    >>> from exactodds.studies.review import ReviewSpec, review
    >>> from exactodds.studies.review_log import read_log
    >>> log = read_log('{"cards": "8 T 3 9", "bets": {"banker": 2}}\\n{"cards": "2 3 4 5"}\\n')
    >>> result = review(log, ReviewSpec(Shoe.standard(1), Rules(), tuple(select_bets("banker"))))
    >>> figure = stake_figure(result, "banker")
    >>> [float(bar.get_height()) for bar in figure.axes[1].patches]
    [2.0, 0.0]
    """
    from exactodds.report.plots import NEUTRAL, POSITIVE, new_figure

    chart = result.chart(bet)
    figure = new_figure(8, 3.6)
    axes = figure.add_subplot()
    values = [float(value * 100) for value in chart.expected_values]
    axes.plot(chart.rounds, values, color=POSITIVE, linewidth=1, label="exact EV")
    axes.axhline(0, color="black", linewidth=0.8)
    axes.set_xlabel("Round of the log")
    axes.set_ylabel("Exact EV (% of stake)", color=POSITIVE)
    stakes_axes = axes.twinx()
    stakes = [float(stake) for stake in chart.stakes]
    stakes_axes.bar(chart.rounds, stakes, color=NEUTRAL, alpha=0.35, width=1.0, label="stake")
    stakes_axes.set_ylabel("Stake", color=NEUTRAL)
    axes.set_title(f"{bet}: stake against the exact EV, round by round")
    return figure


def review_figures(result: Review) -> Iterator[tuple[str, str, Any]]:
    """``(bet, "stakes", figure)`` for every bet of the review."""
    for figure in result.bets:
        yield figure.name, "stakes", stake_figure(result, figure.name)
