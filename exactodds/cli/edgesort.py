"""``exactodds edgesort``: the exact advantage of seeing the groups of the first cards."""

from __future__ import annotations

import click

from exactodds.bets.bet import Bet
from exactodds.cli.app import emit
from exactodds.cli.options import built_options, output_options
from exactodds.inputs import MOST_DECKS
from exactodds.rules import Rules
from exactodds.shoe import Shoe


@click.command()
@built_options(most_decks=MOST_DECKS, infinite=True)
@click.option(
    "--high",
    default="6789",
    show_default=True,
    metavar="V1,V2,...",
    help="The high group: values (6789 or 6,7,8,9) or, with --by rank, ranks "
    "(e.g. 6789TJ); the rest are low.",
)
@click.option(
    "--cards",
    "seen",
    type=click.IntRange(1, 4),
    default=4,
    show_default=True,
    help="How many of the first cards (P1, B1, P2, B2 in order) are seen by group.",
)
@click.option(
    "--by",
    type=click.Choice(["value", "rank"]),
    default="value",
    show_default=True,
    help="Group the ten values, or the 13 ranks.",
)
@click.option(
    "--search",
    is_flag=True,
    help="Try every two-group split and list the best, instead of one --high.",
)
@click.option(
    "--top",
    type=click.IntRange(1, 10000),
    default=10,
    show_default=True,
    help="How many splits --search lists.",
)
@output_options
@click.option("--quiet", is_flag=True, help="No progress line.")
def edgesort(
    high: str,
    seen: int,
    by: str,
    search: bool,
    top: int,
    output_format: str,
    digits: int,
    exact: bool,
    shoe: Shoe,
    rules: Rules,
    bets: list[Bet],
    quiet: bool,
) -> None:
    """Edge sorting: the best bet for each pattern of groups seen, and the advantage.

    A full shoe takes from seconds to about a minute; a progress line is drawn on stderr
    when it is a terminal (--quiet: none).

    \b
    Examples:
      exactodds edgesort --cards 1                  # Jacobson's one-card sort: 6.765%
      exactodds edgesort --high 6789 --cards 4      # the four-card sort with 6-9 high
      exactodds edgesort --search --top 5           # every split of the ten values
      exactodds edgesort --search --by rank --cards 1 --format json
      exactodds edgesort --cards 1 --decks infinite # cards drawn with replacement
    """
    from exactodds.advantage.edgesort import PartitionSearch, edge_sort, search_partitions
    from exactodds.cli.depth import NO_EXACT
    from exactodds.cli.progress import finish_progress, progress_line
    from exactodds.report.registry import render

    if exact:
        raise click.UsageError(NO_EXACT.format(command="edgesort"))
    progress = progress_line(quiet, "edgesort")
    try:
        if search:
            best = PartitionSearch(search_partitions(shoe, rules, bets, seen, by, progress))
        else:
            result = edge_sort(shoe, rules, bets, high, seen, by, progress)
    finally:
        finish_progress(progress)
    if search:
        emit(render(best, output_format, top=top, digits=digits))
    else:
        emit(render(result, output_format, digits=digits))
