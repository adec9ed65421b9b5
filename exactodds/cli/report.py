"""``exactodds report``: a par sheet (HTML, Markdown or xlsx) for the chosen bets, rules and shoe.

openpyxl (xlsx), matplotlib (figures) and sympy (break-even pays) are imported only here, and
only when the chosen output needs them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from exactodds.analysis.removal import DEFAULT_MAX_TAG
from exactodds.bets.bet import Bet
from exactodds.cli.app import emit, note_pure_python
from exactodds.cli.files import check_writable, write_file
from exactodds.cli.header import Header, RecordingCommand, header_options
from exactodds.cli.options import built_options, click_option
from exactodds.cli.plots import figure_options, plot_option, write_plots
from exactodds.cli.progress import finish_progress, progress_line
from exactodds.errors import ExactOddsError, quoted
from exactodds.interface import (
    MULTIPLIERS_OPTION,
    bets_from_values,
    build_shoe,
    rules_from_values,
)
from exactodds.report.registry import formats
from exactodds.rules import Rules
from exactodds.shoe import Shoe
from exactodds.studies.parsheet import (
    DEFAULT_CONFIDENCES,
    DEFAULT_ROUNDS,
    ComparisonRow,
    NothingPricedError,
    ParSheet,
    compare_alternatives,
    dragon_tiger_par_sheet,
    par_sheet,
)

if TYPE_CHECKING:  # the other game and the overlays are loaded only when asked for
    from exactodds.bets.multipliers import MultiplierOverlay
    from exactodds.games.dragon_tiger import DragonTigerTable

#: Output formats, and the file suffixes that choose them when --format is not given.
REPORT_FORMATS = formats(ParSheet)
_SUFFIXES = {
    ".html": "html",
    ".htm": "html",
    ".md": "markdown",
    ".xlsx": "xlsx",
    ".pdf": "pdf",
}


#: Most values --rounds and --confidence take (each is a row or a column of every bet's tables).
MAX_VALUES = 12
#: Most digits of one --rounds or --confidence value (so a number below 10^30).
MAX_DIGITS = 30


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
        if cleaned.isascii() and cleaned.isdigit() and len(cleaned) > MAX_DIGITS:
            raise ExactOddsError(
                f"{what} {quoted(part.strip())} is too large; {option} takes numbers of at most "
                f"{MAX_DIGITS} digits (below 10^{MAX_DIGITS})."
            )
        if not (cleaned.isascii() and cleaned.isdigit()) or int(cleaned) < 1:
            raise ExactOddsError(f"{what} {quoted(part.strip())} is not valid; use {valid}.")
        values.append(int(cleaned))
    return tuple(values)


def _format_for(output_format: str | None, output: str | None) -> str:
    """The format: --format, else the -o suffix; a clash or an unknown suffix is refused."""
    if output is None:
        return output_format or "markdown"
    suffix = Path(output).suffix.lower()
    implied = _SUFFIXES.get(suffix)
    if output_format is not None:
        if implied is not None and implied != output_format:
            raise ExactOddsError(
                f"The file name {output!r} ends in {suffix}, a {implied} suffix, but --format "
                f"is {output_format}; name the file for the format or leave --format out."
            )
        return output_format
    if implied is None:
        shown = f"suffix {suffix!r}" if suffix else "no suffix"
        raise ExactOddsError(
            f"The file name {output!r} has {shown}, which names no format; end it in "
            f"{', '.join(sorted(_SUFFIXES))} or give --format."
        )
    return implied


def default_title(shoe: Shoe, bets: list[Bet]) -> str:
    """The title without --title: the game, the bets and the shoe.

    >>> from exactodds.bets.catalogue import select_bets
    >>> default_title(Shoe.standard(decks=8), select_bets("banker,tie"))
    'Baccarat par sheet: banker, tie, 8 decks'
    >>> default_title(Shoe.standard(decks=1).remove("A"), select_bets("all"))
    'Baccarat par sheet: 27 bets, 51 cards'
    """
    names = ", ".join(bet.name for bet in bets)
    if len(names) > 80:
        names = f"{len(bets)} bets"
    decks = shoe.decks
    size = f"{decks} deck{'s' if decks != 1 else ''}" if decks else f"{shoe.cards:,} cards"
    return f"Baccarat par sheet: {names}, {size}"


def dragon_tiger_title(shoe: Shoe, game: DragonTigerTable) -> str:
    """The title of a Dragon Tiger par sheet without --title: the game, the bets and the shoe.

    >>> from exactodds.games.dragon_tiger import DragonTigerTable
    >>> dragon_tiger_title(Shoe.standard(decks=8), DragonTigerTable(("dragon", "tie")))
    'Dragon Tiger par sheet: dragon, tie, 8 decks'
    """
    baccarat = default_title(shoe, [])
    return f"Dragon Tiger par sheet: {', '.join(game.bet_names)}" + baccarat[baccarat.rindex(",") :]


def _hourly(
    rounds_per_hour: str | None, average_bet: str | None
) -> tuple[Fraction | None, Fraction | None]:
    """--rounds-per-hour and --average-bet, both or neither."""
    hourly = (
        _positive(rounds_per_hour, "--rounds-per-hour"),
        _positive(average_bet, "--average-bet"),
    )
    if (hourly[0] is None) != (hourly[1] is None):
        raise ExactOddsError(
            "Theo and SD an hour need both --rounds-per-hour and --average-bet; give both."
        )
    return hourly


def _positive(text: str | None, option: str) -> Fraction | None:
    if text is None:
        return None
    from exactodds.numbers import parse_number

    try:
        value = parse_number(text, option)
    except ExactOddsError:  # its examples are pays (8:1), not what this option takes
        value = None
    if value is None or value <= 0:
        raise ExactOddsError(
            f"{option} {text!r} is not valid; use a number above 0, such as 5 or 6.5 "
            "(the drop divided by the win)."
        )
    return value


def _alternatives(
    compare: tuple[str, ...], options: dict[str, Any]
) -> list[tuple[str, Any, Any, Any]]:
    """Each --compare KIND=VALUE,... as (label, shoe, rules, bets), every other option as given."""
    rules = rules_from_values(options)
    found = []
    for text in compare:
        kind, _, values = text.partition("=")
        kind = kind.strip().lower()
        parts = [part.strip() for part in values.split(",") if part.strip()]
        if kind not in ("decks", "pays") or not parts:
            raise ExactOddsError(
                f"--compare {text[:60]!r} is not valid; use decks=4,6,8 or pays=FILE,FILE."
            )
        if len(parts) > MAX_VALUES:
            raise ExactOddsError(
                f"--compare takes at most {MAX_VALUES} values; {len(parts)} given."
            )
        for part in parts:
            if kind == "decks":
                shoe = build_shoe(part, None, options["remove"])
                bets = bets_from_values(rules, options)
            else:
                shoe = build_shoe(options["decks"], options["shoe_spec"], options["remove"])
                bets = bets_from_values(rules, options, paytable=part)
            found.append((f"{kind}={part}", shoe, rules, bets))
    return found


def _sheet(
    shoe: Shoe,
    rules: Rules,
    bets: list[Bet],
    game: DragonTigerTable | None,
    settings: dict[str, Any],
    comparisons: tuple[ComparisonRow, ...],
    progress: Callable[[int, int, str], None] | None,
    overlay: MultiplierOverlay | None,
) -> ParSheet:
    """The par sheet of the game asked for, with the sheet's *settings* (rounds, levels...)."""
    if game is not None:
        return dragon_tiger_par_sheet(shoe, game.bet_names, game.pays, **settings)
    return par_sheet(
        shoe, rules, bets, comparisons=comparisons, progress=progress, overlay=overlay, **settings
    )


def _render(
    sheet: ParSheet,
    output_format: str,
    digits: int,
    figures: bool,
    plot_directory: str | None,
    output: str | None,
) -> bytes:
    """The par sheet's bytes in *output_format*; its figures drawn once, only if one is shown.

    Each format's renderer takes the figure callback it uses: a PNG for the PDF, inline SVG
    for HTML (with *figures*), a link to the ``--plot`` folder for Markdown.
    """
    from exactodds.report.registry import render_bytes

    @functools.cache
    def drawn() -> dict[tuple[str, str], Any]:
        from exactodds.report.parsheet.figures import drawn_figures

        return drawn_figures(sheet)

    options = figure_options(lambda bet, kind: drawn()[bet, kind], figures, plot_directory, output)
    return render_bytes(sheet, output_format, digits=digits, **options)


@click.command(cls=RecordingCommand)
@built_options(keep_values=True, rebate=True, games=True, card_bets=True)
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
    help="Numbers of rounds for the win as % of handle: normal bands and the exact distribution.",
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
@header_options(
    "The sheet's title (default: 'Baccarat par sheet: BETS, N decks').",
    "The date in the header (default: SOURCE_DATE_EPOCH if set, else today, UTC).",
    game=True,
)
@click.option(
    "--compare",
    metavar="KIND=V,V,...",
    multiple=True,
    help="Alternatives side by side: decks=4,6,8 or pays=FILE,FILE (pay tables). May be repeated.",
)
@click.option(
    "--drop-ratio",
    metavar="RATIO",
    help="Handle / drop, to show hold as win / drop (e.g. 5 when chips turn over five times).",
)
@click.option("--rounds-per-hour", metavar="N", help="Rounds an hour, for theo and SD an hour.")
@click.option("--average-bet", metavar="AMOUNT", help="Average bet, for theo and SD an hour.")
@click.option("--quiet", is_flag=True, help="No progress line.")
@click_option(MULTIPLIERS_OPTION)
def report(
    shoe: Shoe,
    rules: Rules,
    bets: list[Bet],
    option_values: dict[str, Any],
    output_format: str | None,
    output: str | None,
    digits: int,
    rounds_text: str,
    confidence_text: str,
    max_tag: int,
    figures: bool,
    breakeven: bool,
    plot_directory: str | None,
    header: Header,
    compare: tuple[str, ...],
    drop_ratio: str | None,
    rounds_per_hour: str | None,
    average_bet: str | None,
    quiet: bool,
    game: DragonTigerTable | None,
    multipliers: str | None = None,
) -> None:
    """Par sheet: the probability and accounting report of each chosen bet.

    Per bet: the outcome table (combinations, probability, pay, return,
    1 in X; exact and decimal), house edge, edge per resolved bet, hit
    frequency, variance, standard deviation, volatility index (90/95/99%),
    the win as % of handle after 1,000 to 1,000,000 rounds (the normal band,
    and the exact distribution: P(player ahead), percentiles), effect of
    removal with a derived count, break-even pays, and how it was computed.
    Takes the same shoe, rules and bet options as 'odds'; with --game
    dragon-tiger, Dragon Tiger's bets (docs/dragon-tiger.md). Every format
    starts with a header (title, pay table, version, command line, date)
    and shows the rules of play; --compare adds alternatives side by side;
    --multipliers (or a --table that names an overlay) adds every bet's exact
    RTP under the random multipliers, its law of the paid multiple and its
    variance (docs/multipliers.md).
    A file is written whole or not at all (exit 1 when it cannot be), and
    named on stderr ("Wrote FILE."); a progress line is drawn on stderr when
    it is a terminal (--quiet: none).

    \b
    Examples:
      exactodds report --bets tie                       # Markdown on stdout
      exactodds report --bets dragon7,panda8 --variant ez -o ez.html
      exactodds report --bets lucky6 --pay lucky6.three_card_win=23 -o lucky6.xlsx
      exactodds report --bet-file examples/bets/six_bonus.toml --bets custom -o six.md --plot figs
      exactodds report --bets banker,tie -o main.pdf
      exactodds report --decks 6 --rounds 500,5000 --confidence 95 --format html --no-figures
      exactodds report --bets banker,tie --compare decks=4,6,8 --title "Baccarat" -o sheet.pdf
      exactodds report --bets tie --rounds-per-hour 80 --average-bet 25 --drop-ratio 5
      exactodds report --table golden_wealth -o golden_wealth.html
      exactodds report --game dragon-tiger --pay tie=11 -o dragon-tiger.pdf
    """
    note_pure_python()
    if output is not None:
        check_writable(output, "the par sheet", "sheet.html")
    chosen_format = _format_for(output_format, output)
    if chosen_format in ("xlsx", "pdf") and output is None:
        raise ExactOddsError(
            f"The {chosen_format} par sheet is a binary file; give it a name with "
            f"-o FILE.{chosen_format}."
        )
    if chosen_format == "xlsx":
        from exactodds.report.document.xlsx import require_openpyxl

        require_openpyxl()
    if chosen_format == "pdf":
        from exactodds.report.document.pdf import require_fpdf

        require_fpdf()
    wants_figures = (chosen_format in ("html", "pdf") and figures) or plot_directory is not None
    if wants_figures:
        from exactodds.report.plots import require_matplotlib

        require_matplotlib()
    rounds = _numbers(
        rounds_text,
        "--rounds",
        "Number of rounds",
        f"whole numbers from 1 to 10^{MAX_DIGITS} - 1, such as 1000 or 1_000_000",
    )
    levels = _numbers(
        confidence_text, "--confidence", "Confidence level", "whole percentages from 1 to 99"
    )
    hourly = _hourly(rounds_per_hour, average_bet)
    ratio = _positive(drop_ratio, "--drop-ratio")
    if game is not None and multipliers is not None:
        raise click.UsageError(
            "--multipliers overlays baccarat's bets; leave out --game dragon-tiger, or "
            "--multipliers for Dragon Tiger's sheet."
        )
    if game is not None and compare:
        raise click.UsageError(
            "--compare is a baccarat option; for Dragon Tiger, write one par sheet per shoe "
            "or pay (such as --pay tie=11)."
        )
    title = default_title(shoe, bets) if game is None else dragon_tiger_title(shoe, game)
    identity = header.identity(option_values, title)
    comparisons = compare_alternatives(_alternatives(compare, option_values), levels)
    overlay = None
    if multipliers is not None:
        from exactodds.bets.multipliers import resolve_overlay

        overlay = resolve_overlay(multipliers)
    progress = progress_line(quiet, "report")
    try:
        settings = {
            "rounds": rounds,
            "confidences": levels,
            "max_tag": max_tag,
            "breakeven": breakeven,
            "rounds_per_hour": hourly[0],
            "average_bet": hourly[1],
            "drop_ratio": ratio,
            "identity": identity,
        }
        sheet = _sheet(shoe, rules, bets, game, settings, comparisons, progress, overlay)
        if plot_directory is not None:
            from exactodds.report.parsheet.figures import par_sheet_figures

            if progress is not None:
                progress(1, 1, "drawing the figures")
            write_plots(par_sheet_figures(sheet), plot_directory, progress)
        if progress is not None:
            progress(1, 1, f"writing the {chosen_format}")
        content = _render(sheet, chosen_format, digits, figures, plot_directory, output)
    except NothingPricedError as error:
        raise click.ClickException(str(error)) from None
    finally:
        finish_progress(progress)
    if output is not None:
        write_file(output, content, "the par sheet")
    if output is None:
        emit(content.decode("utf-8").rstrip("\n"))
