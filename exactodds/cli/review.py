"""``exactodds review LOG``: a player's logged bets against the exact EV of every moment."""

from __future__ import annotations

import click

from exactodds.bets.bet import Bet
from exactodds.cli.app import emit
from exactodds.cli.files import check_writable, write_file
from exactodds.cli.options import built_options
from exactodds.cli.plots import plot_option, write_plots
from exactodds.inputs import read_file
from exactodds.report.registry import render
from exactodds.rules import Rules
from exactodds.shoe import Shoe


@click.command(name="review")
@click.argument("log", metavar="LOG")
@built_options(all_bets=True)
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
    type=click.Choice(["table", "json", "markdown", "html"]),
    default="table",
    show_default=True,
    help="Output format; json carries the exact fractions and every round; markdown and html "
    "are the document a report files.",
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
    log: str,
    shoe: Shoe,
    rules: Rules,
    bets: list[Bet],
    counts: tuple[str, ...],
    triggers: tuple[str, ...],
    output_format: str,
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
    """
    from exactodds.specs import review_spec
    from exactodds.studies.review import review
    from exactodds.studies.review_log import ReviewError, read_log

    if output is not None:
        check_writable(output, "the review", "review.txt")
    document = read_file(log, "the log", ReviewError)
    spec = review_spec(shoe, rules, bets, counts, triggers)
    result = review(read_log(document.text, document.source), spec)
    text = render(result, output_format, digits=digits, exact=exact, wide=wide)
    if output is None:
        emit(text)
    else:
        write_file(output, (text + "\n").encode("utf-8"), "the review")
    if plot_directory is not None:
        from exactodds.report.review import review_figures

        write_plots(review_figures(result), plot_directory)
