"""The ``exactodds`` command line.

One click group, one function per command; shared option decorators build
the shoe, the rules and the output settings so that every command reads
them the same way.  Errors a user can cause become one sentence on stderr
and exit code 2; data goes to stdout only.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any, TypeVar

import click

from .analysis import analyze
from .bets import Bet
from .cards import parse_cards
from .catalogue import available_bets, select_bets
from .custom_bets import load_custom_bets
from .errors import ExactOddsError, ShoeError
from .numbers import parse_commission, parse_pay
from .paytables import load_paytable, parse_pay_option
from .report import FORMATS, render_bets, render_csv, render_json, render_table
from .rules import Rules, Variant
from .shoe import Shoe

__all__ = ["cli", "main"]

Function = TypeVar("Function", bound=Callable[..., Any])


class _Group(click.Group):
    """A group whose errors print as one line: ``Error: <sentence>``."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        try:
            result = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.ClickException as error:
            click.echo(f"Error: {error.format_message()}", err=True)
            if not standalone_mode:
                raise
            sys.exit(error.exit_code)
        except click.Abort:
            click.echo("Aborted.", err=True)
            sys.exit(1)
        except BrokenPipeError:  # output piped into a command that stopped reading
            sys.stderr.close()
            sys.exit(1)
        if standalone_mode:
            sys.exit(result if isinstance(result, int) else 0)
        return result


def _usage(error: ExactOddsError) -> click.UsageError:
    return click.UsageError(str(error))


def _read_shoe(text: str) -> Shoe:
    """``--shoe``: a file holding a spec or JSON, ``-`` for stdin, or the spec itself."""
    stripped = text.strip()
    if not stripped:
        raise ShoeError(
            "Shoe spec '' is empty; use A=32,2=32,...,K=32, a JSON file or - for stdin."
        )
    if stripped == "-":
        return Shoe.parse(click.get_text_stream("stdin").read())
    path = Path(stripped)
    if path.is_file():
        try:
            content = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise ShoeError(f"Cannot read shoe file {text!r}: {error}.") from None
        return Shoe.parse(content)
    if "=" in stripped or ":" in stripped or stripped.startswith(("{", "[")):
        return Shoe.parse(stripped)
    raise ShoeError(
        f"Shoe {text!r} is neither a spec such as A=32,2=32,...,K=32 nor a file that exists."
    )


def _decks(text: str) -> int:
    try:
        decks = int(text.strip())
    except ValueError:
        raise ShoeError(
            f"Number of decks {text!r} is not valid; use a whole number of at least 1."
        ) from None
    if decks < 1:
        raise ShoeError(f"Number of decks {decks} is not valid; use a whole number of at least 1.")
    return decks


def build_shoe(decks: str | None, shoe: str | None, remove: tuple[str, ...]) -> Shoe:
    """The shoe the shoe options describe (8 decks by default)."""
    if decks is not None and shoe is not None:
        raise ShoeError("--decks and --shoe both describe the shoe; give one of them.")
    built = (
        _read_shoe(shoe)
        if shoe is not None
        else Shoe.standard(_decks("8" if decks is None else decks))
    )
    return built.remove(parse_cards(" ".join(remove), "--remove")) if remove else built


def shoe_options(function: Function) -> Function:
    """``--decks``, ``--shoe`` and ``--remove``."""
    options = [
        click.option(
            "--decks",
            metavar="N",
            help="A full shoe of N 52-card decks (default 8).",
        ),
        click.option(
            "--shoe",
            "shoe_spec",
            metavar="SPEC|FILE|-",
            help="An explicit shoe: 'A=32,2=32,...,K=32' (ranks not named count 0), "
            'a JSON object {"A": 32, ...} or "KS": 8 per card, from a file, or - for stdin.',
        ),
        click.option(
            "--remove",
            metavar="CARDS",
            multiple=True,
            help="Cards already dealt, e.g. 'A K 7 7 T', AK77T or KS,7H (suits optional; "
            "10 means T). May be repeated.",
        ),
    ]
    for option in reversed(options):
        function = option(function)
    return function


def rules_options(function: Function) -> Function:
    """``--variant``, ``--commission``, ``--tie-pays`` and ``--tie-loses``."""
    options = [
        click.option(
            "--variant",
            type=click.Choice([variant.value for variant in Variant]),
            default="standard",
            show_default=True,
            help="standard: Banker pays 1:1 less commission; ez: EZ Baccarat (no commission, "
            "a Banker win with a three-card 7 pushes); super6: Super 6 / Punto 2000 "
            "(no commission, a winning Banker 6 pays 1:2).",
        ),
        click.option(
            "--commission",
            metavar="RATE",
            help="Commission on winning Banker bets: 5%, 0.05 or 1/20 (default 5%; "
            "0 in the no-commission variants).",
        ),
        click.option(
            "--tie-pays",
            metavar="PAY",
            default="8",
            show_default=True,
            help="What a winning Tie bet pays to 1: 8, 8:1, 8/1, 9 ...",
        ),
        click.option(
            "--tie-loses",
            is_flag=True,
            help="Player and Banker bets lose on a tie instead of pushing.",
        ),
    ]
    for option in reversed(options):
        function = option(function)
    return function


def build_rules(variant: str, commission: str | None, tie_pays: str, tie_loses: bool) -> Rules:
    """The rules the rules options describe."""
    return Rules(
        commission=None if commission is None else parse_commission(commission, "--commission"),
        tie_pays=parse_pay(tie_pays, "--tie-pays"),
        ties_push=not tie_loses,
        variant=Variant(variant),
    )


def output_options(function: Function) -> Function:
    """``--format``, ``--digits`` and ``--exact``."""
    options = [
        click.option(
            "--format",
            "output_format",
            type=click.Choice(FORMATS),
            default="table",
            show_default=True,
            help="Output format; json and csv always carry the exact fractions.",
        ),
        click.option(
            "--digits",
            type=click.IntRange(0, 100),
            default=10,
            show_default=True,
            help="Decimal places shown (percentages show two fewer).",
        ),
        click.option(
            "--exact",
            is_flag=True,
            help="In the table, show exact fractions beside the decimals.",
        ),
    ]
    for option in reversed(options):
        function = option(function)
    return function


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="exactodds")
def cli() -> None:
    """Exact odds of baccarat (Punto Banco), by combinatorial enumeration.

    Every figure is an exact rational: counts of every ordered six-card
    sequence a shoe can deal, for any shoe, drawing rules and pay table.
    """


def bet_options(function: Function) -> Function:
    """``--bets``, ``--pay``, ``--paytable`` and ``--bet-file``."""
    options = [
        click.option(
            "--bets",
            "selection",
            metavar="SELECTION",
            help="Which bets: main, side, all, custom, or names such as banker,dragon7,lucky6 "
            "(default main, plus any --bet-file bets). 'exactodds bets' lists them.",
        ),
        click.option(
            "--pay",
            "pays",
            metavar="NAME=PAY",
            multiple=True,
            help="Change one pay (to 1): dragon7=30, big=27/50, lucky6.three_card_win=23, "
            "perfect_pair.both=250. May be repeated; wins over --paytable.",
        ),
        click.option(
            "--paytable",
            metavar="FILE",
            help="A TOML or JSON file of pays for many bets, e.g. 'dragon7 = 30' and "
            "'[lucky6]' with 'three_card_win = 23'.",
        ),
        click.option(
            "--bet-file",
            "bet_files",
            metavar="FILE",
            multiple=True,
            help="A TOML file describing your own bets (see examples/bets/). May be repeated.",
        ),
    ]
    for option in reversed(options):
        function = option(function)
    return function


def build_bets(
    rules: Rules,
    selection: str | None,
    pays: tuple[str, ...],
    paytable: str | None,
    bet_files: tuple[str, ...],
) -> list[Bet]:
    """The bets the bet options choose, with their pays."""
    custom: list[Bet] = []
    taken = list(available_bets(rules))
    for path in bet_files:
        loaded = load_custom_bets(path, taken + [bet.name for bet in custom])
        custom.extend(loaded)
    pay_changes: dict[str, Fraction | str | int] = {}
    if paytable is not None:
        pay_changes |= load_paytable(paytable)
    for text in pays:
        name, value = parse_pay_option(text)
        pay_changes[name] = value
    if selection is None:
        selection = "main,custom" if custom else "main"
    return select_bets(selection, rules, pay_changes, custom)


def _emit(text: str) -> None:
    click.echo(text)


@cli.command()
@shoe_options
@rules_options
@bet_options
@output_options
def odds(
    decks: str | None,
    shoe_spec: str | None,
    remove: tuple[str, ...],
    variant: str,
    commission: str | None,
    tie_pays: str,
    tie_loses: bool,
    selection: str | None,
    pays: tuple[str, ...],
    paytable: str | None,
    bet_files: tuple[str, ...],
    output_format: str,
    digits: int,
    exact: bool,
) -> None:
    """Exact odds of Banker, Player and Tie, and each bet's EV and house edge.

    \b
    Examples:
      exactodds odds                                   # 8 decks, standard rules
      exactodds odds --decks 6 --remove "A K 7 7 T"    # a partial 6-deck shoe
      exactodds odds --shoe "A=4,2=4,3=4,T=16,K=4"     # an explicit composition
      exactodds odds --variant ez --format json        # EZ Baccarat, as JSON
      exactodds odds --commission 4% --tie-pays 9:1    # another casino's pays
      exactodds odds --bets all                        # every side bet too
      exactodds odds --bets lucky6 --pay lucky6.three_card_win=23
      exactodds odds --bet-file examples/bets/six_bonus.toml
    """
    try:
        shoe = build_shoe(decks, shoe_spec, remove)
        rules = build_rules(variant, commission, tie_pays, tie_loses)
        bets = build_bets(rules, selection, pays, paytable, bet_files)
        analysis = analyze(shoe, rules, bets)
    except ExactOddsError as error:
        raise _usage(error) from None
    if output_format == "json":
        _emit(render_json(analysis, digits))
    elif output_format == "csv":
        _emit(render_csv(analysis, digits))
    else:
        _emit(render_table(analysis, digits, exact=exact))


@cli.command(name="bets")
@rules_options
@bet_options
@click.option(
    "--format",
    "output_format",
    type=click.Choice(FORMATS),
    default="table",
    show_default=True,
    help="Output format.",
)
def list_bets(
    variant: str,
    commission: str | None,
    tie_pays: str,
    tie_loses: bool,
    selection: str | None,
    pays: tuple[str, ...],
    paytable: str | None,
    bet_files: tuple[str, ...],
    output_format: str,
) -> None:
    """List the bets exactodds prices, with their outcomes and pays.

    \b
    Examples:
      exactodds bets                                   # every bet and its pays
      exactodds bets --bets side --format json
      exactodds bets --pay lucky6.three_card_win=23 --bets lucky6
    """
    try:
        rules = build_rules(variant, commission, tie_pays, tie_loses)
        bets = build_bets(rules, selection or "all", pays, paytable, bet_files)
    except ExactOddsError as error:
        raise _usage(error) from None
    _emit(render_bets(bets, output_format))


def main() -> None:
    """Console entry point."""
    cli()
