"""``exactodds depth``: perfect play by depth, exactly, over every composition of the cards left."""

from __future__ import annotations

from typing import Any

import click

from exactodds.bets.bet import Bet
from exactodds.cli.app import emit
from exactodds.cli.options import built_options, output_options
from exactodds.cli.plots import plot_option, write_plots
from exactodds.cli.progress import finish_progress, progress_line
from exactodds.errors import ExactOddsError
from exactodds.rules import Rules
from exactodds.shoe import Shoe


@click.command()
@built_options(keep_values=True)
@click.option(
    "--cards",
    "depths",
    default="18,26",  # advantage.depth.DEFAULT_DEPTHS (a test holds them equal), unimported for --help
    show_default=True,
    metavar="K1,K2,...",
    help="Cards left (a uniformly random subset of the shoe), 6 up to the shoe's size.",
)
@click.option(
    "--min-edge",
    default="0",
    show_default=True,
    metavar="EDGE",
    help="Bet only when the EV is above this: 0, 1%, 0.005 or 1/200.",
)
@click.option(
    "--left-known",
    "left_known",
    multiple=True,
    metavar="RANK=N",
    help="N cards of RANK are known to be among the cards left, the rest random "
    "(Thorp and Walden's model); e.g. --left-known 9=4. May be repeated.",
)
@click.option(
    "--jobs",
    type=click.IntRange(1, 64),
    default=1,
    show_default=True,
    help="Processes to run the compositions in.",
)
@click.option(
    "--dask",
    "dask_address",
    metavar="ADDRESS",
    help="Run on a Dask scheduler instead, e.g. tcp://127.0.0.1:8786.",
)
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option(
    "--wide",
    is_flag=True,
    help="Heading and table as wide as they are (by default they fit 100 columns).",
)
@plot_option
@output_options
def depth(
    depths: str,
    min_edge: str,
    left_known: tuple[str, ...],
    jobs: int,
    dask_address: str | None,
    quiet: bool,
    wide: bool,
    plot_directory: str | None,
    output_format: str,
    digits: int,
    exact: bool,
    shoe: Shoe,
    rules: Rules,
    bets: list[Bet],
    option_values: dict[str, Any],
) -> None:
    """Exact perfect play by depth: how often each bet turns positive, and what that is worth.

    For each number of cards left, every composition of those cards is weighted by its exact
    hypergeometric probability; per bet: P(EV > min edge), the mean EV then, the value of
    betting only then, and the mean EV (checked against the full shoe's).

    \b
    Examples:
      exactodds depth --cards 18,26                 # Banker, Player, Tie, 8 decks
      exactodds depth --decks 1 --cards 13 --bets all --format json
      exactodds depth --cards 26 --min-edge 1% --jobs 2
      exactodds depth --decks 1 --cards 20 --left-known 9=4   # Thorp and Walden's model
    """
    from exactodds.advantage.depth import (
        DepthCheckError,
        depth_level_bets,
        depth_table,
        parse_depths,
        parse_known_counts,
    )
    from exactodds.advantage.parallel import WorkerLostError
    from exactodds.report.advantage import depth_figures
    from exactodds.report.registry import render

    if exact:
        raise click.UsageError(NO_EXACT.format(command="depth"))
    try:
        if option_values["selection"] in ("all", "side"):
            kept, skipped = depth_level_bets(bets, rules)
            bets = list(kept)
            if skipped:
                click.echo(
                    f"Skipped {', '.join(skipped)}: decided by pairs and values together.",
                    err=True,
                )
        cards = parse_depths(depths)
        known = parse_known_counts(left_known)
        if dask_address is not None and jobs != 1:
            raise ExactOddsError("--jobs and --dask both choose where to run; give one of them.")
        line = progress_line(quiet, "depth")
        bar = None if line is None else lambda done, total: line(done, total, "pieces")
        try:
            table = depth_table(shoe, rules, bets, cards, min_edge, jobs, dask_address, bar, known)
        finally:
            finish_progress(line)
    except (DepthCheckError, WorkerLostError) as error:
        raise click.ClickException(str(error)) from None
    emit(render(table, output_format, digits=digits, wide=wide))
    if plot_directory is not None:
        write_plots(depth_figures(table), plot_directory)


#: Why ``--exact`` is refused by depth and edgesort (their JSON and CSV are the exact output).
NO_EXACT = (
    "--exact does not apply to {command}: its exact fractions run to dozens or hundreds of "
    "digits, too long for a table's columns; use --format json or --format csv, which carry "
    "every figure as an exact fraction."
)
