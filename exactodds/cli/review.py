"""``exactodds review LOG``: a player's logged bets against the exact EV of every moment."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from exactodds.bets.bet import Bet
from exactodds.cli.app import emit
from exactodds.cli.files import check_writable, write_file
from exactodds.cli.options import apply_settings, built_options
from exactodds.cli.plots import plot_option, write_plots
from exactodds.errors import ExactOddsError, in_words
from exactodds.inputs import read_file
from exactodds.interface import build_bets, build_rules, table_values
from exactodds.report.registry import BINARY_FORMATS, render, render_bytes
from exactodds.rules import Rules
from exactodds.shoe import Shoe

if TYPE_CHECKING:
    from exactodds.studies.review import Review
    from exactodds.studies.review_log import BetLog

#: The header's key for each library parameter a message may name.
_HEADER_KEYS = {"rules_file": "rules", "tie_loses": "ties", "pay": "pays", "selection": "bets"}


def _check_header(log: BetLog, settings: dict[str, Any]) -> None:
    """Build the rules and bets the header gives alone, so that a setting the options would
    refuse (a pay for a bet no file defines) names the header's line, not a flag."""
    from exactodds.studies.review_log import ReviewError

    assert log.header is not None
    try:
        rules = build_rules(
            settings.get("variant", "standard"),
            settings.get("commission"),
            settings.get("tie_pays", "8"),
            settings.get("tie_loses", False),
            settings.get("rules_file"),
            fee=settings.get("fee"),
        )
        build_bets(rules, "all", settings["pays"], None, settings["bet_files"])
    except ExactOddsError as error:
        reason = in_words(str(error), lambda name: _HEADER_KEYS.get(name, name)).rstrip(".")
        raise ReviewError(
            f"Line {log.header.line:,} of {log.source}: the header's settings: "
            f"{reason[:1].lower()}{reason[1:]}."
        ) from None


def _read_log(values: dict[str, Any]) -> None:
    """Read the log before the options are built, and set what its header says under them:
    an option given on the command line wins over the header's setting; ``--table`` with a
    header is one sentence (both name the table)."""
    from exactodds.studies.review_log import ReviewError, read_log

    document = read_file(values["log"], "the log", ReviewError)
    log = read_log(document.text, document.source)
    values["log"] = log
    if log.header is None:
        return
    if values["table"] is not None:
        raise click.UsageError(
            f"--table {values['table']} and the header of {log.source} (line "
            f"{log.header.line:,}) both give the table; give one of them (an option such as "
            "--decks overrides one setting of the header)."
        )
    settings = table_values(log.header.table)
    settings.pop("game")
    _check_header(log, settings)
    apply_settings(values, settings)


@click.command(name="review")
@click.argument("log", metavar="LOG")
@built_options(all_bets=True, preset=_read_log)
@click.option(
    "--count",
    "counts",
    multiple=True,
    metavar="[BET=]TAGS",
    help="A count's tags, as simulate's --play count:TAGS takes them (10 for A 2-9 and the "
    "ten-values, or 13 for A-K); BET= for one bet. Default: each bet's effect-of-removal count.",
)
@click.option(
    "--trigger",
    "triggers",
    multiple=True,
    metavar="[BET=]T",
    help="The true count at which the count model bets [default: the best fit].",
)
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["table", "json", "markdown", "html", "pdf", "xlsx"]),
    default="table",
    show_default=True,
    help="Output format; json carries the exact fractions and every round; markdown, html, pdf "
    "and xlsx are the document a report files (pdf and xlsx need --output).",
)
@click.option(
    "--figures/--no-figures",
    default=True,
    show_default=True,
    help="Chart each bet's stake against its exact EV in the HTML page or the PDF (needs "
    "matplotlib, the 'plot' extra).",
)
@click.option(
    "--digits", type=click.IntRange(0, 17), default=4, show_default=True, help="Decimals shown."
)
@click.option("--exact", is_flag=True, help="In the table, money as exact fractions.")
@click.option("--wide", is_flag=True, help="Tables as wide as their columns.")
@plot_option
@click.option(
    "--output",
    "-o",
    metavar="FILE",
    help="Write to FILE instead of stdout (whole or not at all).",
)
def review_command(
    log: BetLog,
    shoe: Shoe,
    rules: Rules,
    bets: list[Bet],
    counts: tuple[str, ...],
    triggers: tuple[str, ...],
    output_format: str,
    figures: bool,
    digits: int,
    exact: bool,
    wide: bool,
    plot_directory: str | None,
    output: str | None,
) -> None:
    """A player's logged bets against the exact EV: luck or skill? (docs/review.md)

    LOG is CSV or JSON lines (- for stdin), one round a line: its cards in dealing order and
    the bets placed on it (name and stake); a new value of "shoe" starts a fresh shoe. For
    each bet and in total: wagered, actual and theoretical results, the exact chance of doing
    at least as well by luck, the stakes' correlation with the exact EV and a count, the
    positive-EV rounds taken, and likelihood ratios of following the EV or the count.

    \b
    Examples:
      exactodds review examples/review/session.jsonl
      exactodds review log.csv --decks 6 --format json
      exactodds review log.jsonl --count dragon7=0,0,0,-1,-1,-1,-1,2,2,0 --trigger 4
      exactodds review log.jsonl --plot figures   # each bet's stake against its exact EV
      exactodds review log.jsonl --format pdf -o review.pdf   # the document, charts inside
    """
    from exactodds.specs import review_spec
    from exactodds.studies.review import review

    figures = figures and output_format in ("html", "pdf")
    _check_output(output_format, output, figures)
    spec = review_spec(shoe, rules, bets, counts, triggers)
    result = review(log, spec)
    options = _figure_options(result, figures, plot_directory, output)
    if output_format in BINARY_FORMATS:
        assert output is not None
        content = render_bytes(result, output_format, digits=digits, **options)
        write_file(output, content, "the review")
    else:
        text = render(result, output_format, digits=digits, exact=exact, wide=wide, **options)
        if output is None:
            emit(text)
        else:
            write_file(output, (text + "\n").encode("utf-8"), "the review")
    if plot_directory is not None:
        from exactodds.report.review import review_figures

        write_plots(review_figures(result), plot_directory)


def _check_output(output_format: str, output: str | None, figures: bool) -> None:
    """Refuse, before any work, a file format without a file, or an extra that is missing."""
    if output_format in BINARY_FORMATS and output is None:
        raise click.UsageError(f"--format {output_format} writes a file; give --output FILE.")
    if output is not None:
        suffix = {"table": "txt", "markdown": "md"}.get(output_format, output_format)
        check_writable(output, "the review", f"review.{suffix}")
    if output_format == "xlsx":
        from exactodds.report.document.xlsx import require_openpyxl

        require_openpyxl("The xlsx review")
    if output_format == "pdf":
        from exactodds.report.document.pdf import require_fpdf

        require_fpdf()
    if figures:
        from exactodds.report.plots import require_matplotlib

        require_matplotlib()


def _figure_options(
    result: Review, figures: bool, plot_directory: str | None, output: str | None
) -> dict[str, Any]:
    """The charts each document format takes: inline SVG (HTML) and PNG (PDF) with *figures*,
    a link into the ``--plot`` folder (Markdown); each drawn once, when first asked for."""
    drawn: dict[str, Any] = {}

    def chart(bet: str) -> Any:
        from exactodds.report.review import stake_figure

        if bet not in drawn:
            drawn[bet] = stake_figure(result, bet)
        return drawn[bet]

    def figure_png(bet: str, kind: str) -> bytes:
        from exactodds.report.plots import figure_png

        return figure_png(chart(bet))

    def figure_markup(bet: str, kind: str) -> str:
        from exactodds.report.plots import figure_svg

        return figure_svg(chart(bet), f"{bet}-{kind}")

    options: dict[str, Any] = {}
    if figures:
        options |= {"figure_png": figure_png, "figure_markup": figure_markup}
    if plot_directory is not None:
        base = Path(output).resolve().parent if output else Path.cwd()
        prefix = Path(os.path.relpath(Path(plot_directory).resolve(), base))

        def figure_path(bet: str, kind: str) -> str:
            from exactodds.report.plots import figure_file_stem

            return (prefix / f"{figure_file_stem(bet)}-{kind}.png").as_posix()

        options["figure_path"] = figure_path
    return options
