"""``exactodds report``: a par sheet (HTML, Markdown or xlsx) for the chosen bets, rules and shoe.

openpyxl (xlsx), matplotlib (figures) and sympy (break-even pays) are imported only here, and
only when the chosen output needs them.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import click

from exactodds.analysis.removal import DEFAULT_MAX_TAG
from exactodds.bets.bet import Bet
from exactodds.cli.app import emit, usage_error
from exactodds.cli.options import built_options
from exactodds.cli.plots import plot_option, write_plots
from exactodds.errors import ExactOddsError
from exactodds.report.parsheet import DEFAULT_CONFIDENCES, DEFAULT_ROUNDS, ParSheet, par_sheet
from exactodds.rules import Rules
from exactodds.shoe import Shoe

#: Output formats, and the file suffixes that choose them when --format is not given.
REPORT_FORMATS = ("html", "markdown", "xlsx", "pdf")
_SUFFIXES = {
    ".html": "html",
    ".htm": "html",
    ".md": "markdown",
    ".xlsx": "xlsx",
    ".pdf": "pdf",
}


#: Most values --rounds and --confidence take (each is a row or a column of every bet's tables).
MAX_VALUES = 12


def _numbers(text: str, option: str, what: str, valid: str) -> tuple[int, ...]:
    parts = text.split(",")
    if len(parts) > MAX_VALUES:
        raise ExactOddsError(
            f"{option} takes at most {MAX_VALUES} values, separated by commas; {len(parts)} "
            "were given."
        )
    values = []
    for part in parts:
        cleaned = part.strip().replace("_", "")
        if not cleaned.isdigit() or len(cleaned) > 30 or int(cleaned) < 1:
            raise ExactOddsError(f"{what} {part.strip()!r} is not valid; use {valid}.")
        values.append(int(cleaned))
    return tuple(values)


def _format_for(output_format: str | None, output: str | None) -> str:
    if output_format is not None:
        return output_format
    if output is not None:
        return _SUFFIXES.get(Path(output).suffix.lower(), "markdown")
    return "markdown"


def _check_writable(output: str) -> None:
    """Refuse an output path that cannot be written, before any work is done."""
    path = Path(output)
    if path.is_dir():
        raise ExactOddsError(f"Cannot write the par sheet to {output!r}: it is a directory.")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise ExactOddsError(
            f"Cannot write the par sheet to {output!r}: the directory {str(parent)!r} does not "
            "exist."
        )
    if not os.access(parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise ExactOddsError(f"Cannot write the par sheet to {output!r}: permission denied.")


def _write(output: str, content: bytes) -> None:
    try:
        Path(output).write_bytes(content)
    except OSError as error:
        raise ExactOddsError(
            f"Cannot write the par sheet to {output!r}: {error.strerror or error}."
        ) from None


def _render(
    sheet: ParSheet,
    output_format: str,
    digits: int,
    figures: bool,
    plot_directory: str | None,
    output: str | None,
) -> bytes:
    if output_format == "xlsx":
        from exactodds.report.parsheet_xlsx import write_xlsx

        buffer = io.BytesIO()
        write_xlsx(sheet, buffer)
        return buffer.getvalue()
    if output_format == "pdf":
        from exactodds.report.parsheet_pdf import render_pdf

        pictures = None
        if figures:
            from exactodds.report.parsheet_plots import drawn_figures, figure_png

            drawn = drawn_figures(sheet)

            def pictures(bet: str, kind: str) -> bytes:
                return figure_png(drawn[bet, kind])

        return render_pdf(sheet, digits, pictures)
    if output_format == "markdown":
        from exactodds.report.parsheet_render import render_markdown

        figure_path = None
        if plot_directory is not None:
            base = Path(output).resolve().parent if output else Path.cwd()
            folder = Path(plot_directory).resolve()
            prefix = Path(os.path.relpath(folder, base))

            def figure_path(bet: str, kind: str) -> str:
                from exactodds.report.parsheet_plots import figure_file_stem

                return (prefix / f"{figure_file_stem(bet)}-{kind}.png").as_posix()

        return render_markdown(sheet, digits, figure_path).encode("utf-8")
    from exactodds.report.parsheet_render import render_html

    markup = None
    if figures:
        from exactodds.report.parsheet_plots import drawn_figures, figure_svg

        drawn = drawn_figures(sheet)

        def markup(bet: str, kind: str) -> str:
            return figure_svg(drawn[bet, kind], f"{bet}-{kind}")

    return render_html(sheet, digits, markup).encode("utf-8")


@click.command()
@built_options()
@click.option(
    "--format",
    "output_format",
    type=click.Choice(REPORT_FORMATS),
    help="html (one self-contained page, figures inline), markdown, xlsx (a workbook, one "
    "sheet per bet) or pdf; xlsx and pdf need --output. Default: from the --output suffix, "
    "else markdown.",
)
@click.option(
    "-o",
    "--output",
    metavar="FILE",
    help="Write the report to FILE (default: stdout, for html and markdown).",
)
@click.option(
    "--digits",
    type=click.IntRange(0, 100),
    default=10,
    show_default=True,
    help="Decimal places shown (percentages show two fewer).",
)
@click.option(
    "--rounds",
    "rounds_text",
    metavar="N,N,...",
    default=",".join(str(number) for number in DEFAULT_ROUNDS),
    show_default=True,
    help="Numbers of rounds for the hold's confidence band.",
)
@click.option(
    "--confidence",
    "confidence_text",
    metavar="P,P,...",
    default=",".join(str(level) for level in DEFAULT_CONFIDENCES),
    show_default=True,
    help="Confidence levels in percent for the volatility index and the bands.",
)
@click.option(
    "--max-tag",
    metavar="N",
    type=int,
    default=DEFAULT_MAX_TAG,
    show_default=True,
    help="Largest tag of the derived linear count (a level-N count).",
)
@click.option(
    "--figures/--no-figures",
    default=True,
    show_default=True,
    help="Embed the figures in the HTML page or the PDF (needs matplotlib, the 'plot' extra).",
)
@click.option(
    "--breakeven/--no-breakeven",
    default=True,
    show_default=True,
    help="Include the break-even pays (needs sympy, in the 'report' extra).",
)
@plot_option
def report(
    shoe: Shoe,
    rules: Rules,
    bets: list[Bet],
    output_format: str | None,
    output: str | None,
    digits: int,
    rounds_text: str,
    confidence_text: str,
    max_tag: int,
    figures: bool,
    breakeven: bool,
    plot_directory: str | None,
) -> None:
    """Par sheet: the probability and accounting report of each chosen bet.

    Per bet: the outcome table (combinations, probability, pay, return;
    exact and decimal), house edge, edge per resolved bet, hit frequency,
    variance, standard deviation, volatility index (90/95/99%), expected
    hold with its confidence band after 1,000 to 1,000,000 rounds, effect of
    removal with a derived count, break-even pays, and how it was computed.
    Takes the same shoe, rules and bet options as 'odds'.

    \b
    Examples:
      exactodds report --bets tie                       # Markdown on stdout
      exactodds report --bets dragon7,panda8 --variant ez -o ez.html
      exactodds report --bets lucky6 --pay lucky6.three_card_win=23 -o lucky6.xlsx
      exactodds report --bet-file examples/bets/six_bonus.toml --bets custom -o six.md --plot figs
      exactodds report --bets banker,tie -o main.pdf
      exactodds report --decks 6 --rounds 500,5000 --confidence 95 --format html --no-figures
    """
    try:
        chosen_format = _format_for(output_format, output)
        if chosen_format in ("xlsx", "pdf") and output is None:
            raise ExactOddsError(
                f"The {chosen_format} par sheet is a binary file; give it a name with "
                f"-o FILE.{chosen_format}."
            )
        if output is not None:
            _check_writable(output)
        if chosen_format == "xlsx":
            from exactodds.report.parsheet_xlsx import require_openpyxl

            require_openpyxl()
        if chosen_format == "pdf":
            from exactodds.report.parsheet_pdf import require_fpdf

            require_fpdf()
        wants_figures = (chosen_format in ("html", "pdf") and figures) or plot_directory is not None
        if wants_figures:
            from exactodds.report.parsheet_plots import require_matplotlib

            require_matplotlib()
        rounds = _numbers(
            rounds_text, "--rounds", "Number of rounds", "whole numbers of at least 1"
        )
        levels = _numbers(
            confidence_text, "--confidence", "Confidence level", "whole percentages from 1 to 99"
        )
        sheet = par_sheet(
            shoe,
            rules,
            bets,
            rounds=rounds,
            confidences=levels,
            max_tag=max_tag,
            breakeven=breakeven,
        )
        if plot_directory is not None:
            from exactodds.report.parsheet_plots import par_sheet_figures

            write_plots(par_sheet_figures(sheet), plot_directory)
        content = _render(sheet, chosen_format, digits, figures, plot_directory, output)
        if output is not None:
            _write(output, content)
    except ExactOddsError as error:
        raise usage_error(error) from None
    if output is None:
        emit(content.decode("utf-8").rstrip("\n"))
