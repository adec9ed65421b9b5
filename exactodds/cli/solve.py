"""``exactodds solve``: baccara chemin de fer solved exactly as a two-person game."""

from __future__ import annotations

import click

from exactodds.cli.app import emit
from exactodds.cli.options import build_shoe, shoe_options, wide_option
from exactodds.games.chemin_de_fer import DEALINGS, SIGHTS, Model, Solution, solve
from exactodds.numbers import parse_commission
from exactodds.report.registry import formats, render


@click.command(name="solve")
@shoe_options
@click.option(
    "--dealing",
    type=click.Choice(DEALINGS),
    default="shoe",
    show_default=True,
    help="shoe: cards dealt without replacement from the shoe; replacement: each card drawn "
    "with the shoe's proportions (the classic 1957 model; use --decks 1).",
)
@click.option(
    "--banker-sees",
    type=click.Choice(SIGHTS),
    default="cards",
    show_default=True,
    help="What the Banker knows of his own two cards: their total, or their values.",
)
@click.option(
    "--player-sees",
    type=click.Choice(SIGHTS),
    default="total",
    show_default=True,
    help="What the Player knows of his own two cards when he holds 5.",
)
@click.option(
    "--commission",
    metavar="RATE",
    default="0",
    show_default=True,
    help="The house's share of a Banker win: 5%, 0.05 or 1/20. Above 0 the game is no "
    "longer zero-sum, and every equilibrium found is reported with both payoffs.",
)
@click.option(
    "--max-mixed",
    type=click.IntRange(0, 5),
    default=5,
    show_default=True,
    help="With a commission and --player-sees cards: search equilibria where the Player "
    "mixes in up to this many of his five compositions (fewer is faster).",
)
@click.option(
    "--format",
    "output_format",
    type=click.Choice(formats(Solution)),
    default="table",
    show_default=True,
    help="table: the report; json: every probability and payoff as an exact 'n/d'.",
)
@click.option(
    "--digits",
    type=click.IntRange(2, 100),
    default=10,
    show_default=True,
    help="Decimal places shown beside the exact fractions in the table.",
)
@wide_option
def solve_command(
    decks: str | None,
    shoe_spec: str | None,
    remove: tuple[str, ...],
    dealing: str,
    banker_sees: str,
    player_sees: str,
    commission: str,
    max_mixed: int,
    output_format: str,
    digits: int,
    wide: bool,
) -> None:
    """Chemin de fer as a game: each side's optimal strategy, exactly.

    The Player must draw on 0-4 and stand on 6-7 but may draw or stand on 5;
    the Banker may draw or stand in every cell of what he knows (his total or
    his cards, and the Player's third card or that he stood). Naturals end the
    round. Every deal is counted exactly, Foster's algorithm or an exact linear
    program finds the equilibria, and each is checked exactly: each side's
    strategy is a best reply to the other's. Default: 6 decks, no commission.

    \b
    Examples:
      exactodds solve                                  # 6 decks, Banker sees his cards
      exactodds solve --decks 1 --dealing replacement --banker-sees total
                                                       # Kemeny and Snell's 1957 model
      exactodds solve --player-sees cards --format json
      exactodds solve --decks 8 --commission 5%        # a bimatrix game
    """
    shoe = build_shoe(decks if decks is not None or shoe_spec else "6", shoe_spec, remove)
    model = Model(
        dealing=dealing,
        banker_sees=banker_sees,
        player_sees=player_sees,
        commission=parse_commission(commission, "--commission"),
    )
    solution = solve(shoe, model, max_mixed=max_mixed)
    if not solution.equilibria:
        raise click.ClickException(
            f"No equilibrium was found where the Player mixes in at most {max_mixed} "
            "compositions; search more with --max-mixed 5."
        )
    emit(render(solution, output_format, digits=digits, wide=wide))


# The shared --decks option names the default of the other commands (8 decks).
for _parameter in solve_command.params:
    if _parameter.name == "decks" and isinstance(_parameter, click.Option):
        _parameter.help = "A full shoe of N 52-card decks (default 6)."
