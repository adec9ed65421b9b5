"""``exactodds solve``: games with a choice solved exactly.

Chemin de fer (the default, here), a rules file's choice cells (``--rules``: the Player's option
at 5 and its kin) and baccara banque (``--game banque``), those two in
:mod:`exactodds.cli.solve_choice`.
"""

from __future__ import annotations

import click

from exactodds.cli.app import emit
from exactodds.cli.options import build_shoe, shoe_options, wide_option
from exactodds.cli.solve_choice import solve_banque_command, solve_rules_command
from exactodds.cli.solve_peek import solve_peek_command
from exactodds.games.banque import ON_5
from exactodds.games.chemin_de_fer import DEALINGS, SIGHTS, Model, Solution, solve
from exactodds.inputs import MOST_DECKS
from exactodds.numbers import parse_commission
from exactodds.report.registry import formats, render
from exactodds.shoe import Shoe

#: The games ``solve`` knows besides a rules file's choices.
GAMES = ("chemin-de-fer", "peek", "banque")


@click.command(name="solve")
@shoe_options
@click.option(
    "--game",
    type=click.Choice(GAMES),
    default="chemin-de-fer",
    show_default=True,
    help="chemin-de-fer: the two-person game; peek: Peek Baccarat's raise after some of "
    "the first four cards are shown (docs/peek.md); banque: baccara banque's bank against two "
    "Player hands (docs/solve.md says the model).",
)
@click.option(
    "--reveal",
    metavar="POSITIONS",
    default=None,
    help="With --game peek: the cards shown before the raise, such as P1,B1 (P1 B1 P2 B2, or all).",
)
@click.option(
    "--fee",
    metavar="RATE",
    default=None,
    help="With --game peek: the fee on the original stake, such as 20% (the default).",
)
@click.option(
    "--rules",
    "rules_file",
    metavar="FILE",
    default=None,
    help='A rules file whose cells may say "choice" (the Player\'s option at 5, say): each '
    "side's best play, the bets at it and at both fixed tableaux.",
)
@click.option(
    "--players-on-5",
    type=click.Choice(ON_5),
    default="draw",
    show_default=True,
    help="banque: what both Player hands do on a two-card 5 (a fixed rule).",
)
@click.option(
    "--stakes",
    metavar="A:B",
    default="1:1",
    show_default=True,
    help="banque: the stakes on tableau 1 and tableau 2, which the bank weighs.",
)
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
    help="What the Banker (the bank) knows of his own two cards: their total, or their values.",
)
@click.option(
    "--player-sees",
    type=click.Choice(SIGHTS),
    default=None,
    help="What the Player knows of his own two cards when he chooses (default: his total in "
    "chemin de fer, his cards with --rules).",
)
@click.option(
    "--commission",
    metavar="RATE",
    default=None,
    help="The house's share of a Banker win: 5%, 0.05 or 1/20 (default 0; 5% with --rules). "
    "Above 0 chemin de fer is no longer zero-sum, and every equilibrium found is reported with "
    "both payoffs.",
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
    game: str,
    reveal: str | None,
    fee: str | None,
    rules_file: str | None,
    players_on_5: str,
    stakes: str,
    dealing: str,
    banker_sees: str,
    player_sees: str | None,
    commission: str | None,
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

    With --rules, a rules file's "choice" cells are solved instead (the Player's
    option at 5, say): each side's best play, and every bet priced at it and at
    both fixed tableaux. With --game banque, baccara banque's bank plays against
    two Player hands that follow a fixed rule. With --game peek, Peek Baccarat's
    raise after some cards are shown (--reveal), and the RTP under best play.

    \b
    Examples:
      exactodds solve                                  # 6 decks, Banker sees his cards
      exactodds solve --decks 1 --dealing replacement --banker-sees total
                                                       # Kemeny and Snell's 1957 model
      exactodds solve --player-sees cards --format json
      exactodds solve --decks 8 --commission 5%        # a bimatrix game
      exactodds solve --game peek --reveal P1,B1       # Peek Baccarat, 8 decks
      exactodds solve --decks 8 --rules examples/rules/option_at_5.toml
      exactodds solve --game banque --banker-sees total
    """
    if game == "peek":
        _refuse_chemin_options()
        solve_peek_command(decks, shoe_spec, remove, reveal, fee, output_format, digits)
        return
    for name, value in (("--reveal", reveal), ("--fee", fee)):
        if value is not None:
            raise click.UsageError(f"{name} applies to --game peek only.")
    shoe = build_shoe(
        decks if decks is not None or shoe_spec else "6",
        shoe_spec,
        remove,
        most_decks=MOST_DECKS,
        infinite=True,
    )
    dealing = _dealing(shoe, dealing)
    if game != "banque" and (stakes != "1:1" or players_on_5 != "draw"):
        raise click.UsageError("--stakes and --players-on-5 are banque's; add --game banque.")
    if rules_file is not None:
        if game != "chemin-de-fer":
            raise click.UsageError("--rules solves a rules file's choices; leave out --game.")
        solve_rules_command(shoe, rules_file, dealing, banker_sees, player_sees, commission,
                     output_format, digits)  # fmt: skip
        return
    if game == "banque":
        if commission is not None or player_sees is not None:
            raise click.UsageError(
                "Baccara banque here has no commission and fixed Player hands; leave out "
                "--commission and --player-sees."
            )
        solve_banque_command(
            shoe, dealing, banker_sees, players_on_5, stakes, output_format, digits
        )
        return
    model = Model(
        dealing=dealing,
        banker_sees=banker_sees,
        player_sees=player_sees or "total",
        commission=parse_commission(commission or "0", "--commission"),
    )
    solution = solve(shoe, model, max_mixed=max_mixed)
    if not solution.equilibria:
        raise click.ClickException(
            f"No equilibrium was found where the Player mixes in at most {max_mixed} "
            "compositions; search more with --max-mixed 5."
        )
    emit(render(solution, output_format, digits=digits, wide=wide))


def _dealing(shoe: Shoe, dealing: str) -> str:
    """How the cards are dealt: an infinite shoe deals with replacement, whatever the default.

    ``--decks infinite`` is the 1957 model's dealing (``--dealing replacement``) on a full
    deck's proportions; ``--dealing shoe`` given with it is refused in one sentence.
    """
    if not shoe.infinite:
        return dealing
    source = click.get_current_context().get_parameter_source("dealing")
    if dealing == "shoe" and source is not click.core.ParameterSource.DEFAULT:
        raise click.UsageError(
            "--decks infinite draws every card with replacement; leave out --dealing shoe "
            "(or give a whole number of decks)."
        )
    return "replacement"


def _refuse_chemin_options() -> None:
    """Chemin de fer's model options mean nothing in Peek Baccarat: refuse them when given."""
    context = click.get_current_context()
    flags = {
        "dealing": "--dealing",
        "banker_sees": "--banker-sees",
        "player_sees": "--player-sees",
        "commission": "--commission",
        "max_mixed": "--max-mixed",
        "rules_file": "--rules",
        "players_on_5": "--players-on-5",
        "stakes": "--stakes",
    }
    for name, flag in flags.items():
        if context.get_parameter_source(name) is click.core.ParameterSource.COMMANDLINE:
            raise click.UsageError(f"{flag} applies to other games, not to --game peek.")


# The shared --decks option names the default of the other commands (8 decks).
for _parameter in solve_command.params:
    if _parameter.name == "decks" and isinstance(_parameter, click.Option):
        _parameter.help = "A full shoe of N 52-card decks (default 6; 8 with --game peek)."
