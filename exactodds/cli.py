"""The ``exactodds`` command line.

One click group, one function per command; shared option decorators build
the shoe, the rules and the output settings so that every command reads
them the same way.  Errors a user can cause become one sentence on stderr
and exit code 2; data goes to stdout only.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any, TypeVar

import click

from .analysis import Analysis, analyze
from .bets import Bet
from .breakdown import (
    breakdown,
    render_breakdown_csv,
    render_breakdown_json,
    render_breakdown_table,
)
from .cards import parse_cards
from .catalogue import available_bets, select_bets
from .custom_bets import load_custom_bets
from .enumeration import enumerate_rounds
from .errors import BetError, ExactOddsError, PayError, ShoeError
from .known import analyze_known, describe_known, enumerate_known, parse_known
from .numbers import parse_commission, parse_pay
from .paytables import load_paytable, parse_pay_option
from .removal import DEFAULT_MAX_TAG, effect_of_removal
from .report import FORMATS, analysis_data, render_bets, render_csv, render_json, render_table
from .research_report import render_breakeven, render_removal
from .rulefiles import resolve_rules_file, shipped_rules_files
from .rules import Rules, Tableau, Variant
from .shoe import Shoe
from .symbolic import find_breakeven

__all__ = ["cli", "main"]

Function = TypeVar("Function", bound=Callable[..., Any])


class _NeverRaised(Exception):
    """Stands in for click's NoArgsIsHelpError where click (before 8.2) has none."""


# click 8.2 and later raise this for a group called with no arguments; older ones print help.
_NO_ARGS_IS_HELP: type[Exception] = getattr(click.exceptions, "NoArgsIsHelpError", _NeverRaised)


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
            if isinstance(error, _NO_ARGS_IS_HELP):
                # Plain `exactodds`: the help, as --help gives it, is the answer.
                click.echo(error.format_message())
                if not standalone_mode:
                    raise
                sys.exit(0)
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
        return Shoe.parse(sys.stdin.read())
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


def _stack(options: Sequence[Callable[[Any], Any]], function: Function) -> Function:
    """Apply click option decorators so they appear in --help in the order listed."""
    for option in reversed(options):
        function = option(function)
    return function


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
    return _stack(options, function)


def rules_file_option(function: Function) -> Function:
    """``--rules FILE|NAME``: the drawing tableau from a TOML rules file."""
    return click.option(
        "--rules",
        "rules_file",
        metavar="FILE|NAME",
        help="Drawing rules from a TOML rules file (see exactodds/data/rules/), or a shipped "
        f"one by name: {', '.join(shipped_rules_files())}. The file may also say whether "
        "ties push or lose (--tie-loses wins over it).",
    )(function)


def rules_options(function: Function) -> Function:
    """``--rules``, ``--variant``, ``--commission``, ``--tie-pays`` and ``--tie-loses``."""
    function = rules_file_option(function)
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
    return _stack(options, function)


def build_rules(
    variant: str,
    commission: str | None,
    tie_pays: str,
    tie_loses: bool,
    rules_file: str | None = None,
) -> Rules:
    """The rules the rules options describe (``--rules`` gives the tableau)."""
    tableau = None
    ties_push = not tie_loses
    if rules_file is not None:
        loaded = resolve_rules_file(rules_file)
        tableau = loaded.tableau
        if not tie_loses and loaded.ties_push is not None:
            ties_push = loaded.ties_push
    return Rules(
        tableau=tableau,
        commission=None if commission is None else parse_commission(commission, "--commission"),
        tie_pays=parse_pay(tie_pays, "--tie-pays"),
        ties_push=ties_push,
        variant=Variant(variant),
    )


def known_option(function: Function) -> Function:
    """``--known POSITION=CARD``: cards known before the round is dealt."""
    return click.option(
        "--known",
        metavar="POSITION=CARD",
        multiple=True,
        help="A card known to be dealt at POSITION: 1-6 (P1 B1 P2 B2 for 1-4; 5 is the first "
        "third card dealt, 6 the Banker's third card after a Player third card), e.g. "
        "--known 1=9 or --known P2=KS. May be repeated.",
    )(function)


def _with_known(text: str, known: str) -> str:
    """The table with a ``Known:`` line after its ``Rules:`` line."""
    lines = text.split("\n")
    at = next((i + 1 for i, line in enumerate(lines) if line.startswith("Rules:")), 0)
    return "\n".join([*lines[:at], f"Known: {known}", *lines[at:]])


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
    return _stack(options, function)


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
    return _stack(options, function)


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
@known_option
@output_options
def odds(
    decks: str | None,
    shoe_spec: str | None,
    remove: tuple[str, ...],
    rules_file: str | None,
    variant: str,
    commission: str | None,
    tie_pays: str,
    tie_loses: bool,
    selection: str | None,
    pays: tuple[str, ...],
    paytable: str | None,
    bet_files: tuple[str, ...],
    known: tuple[str, ...],
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
      exactodds odds --rules banker_as_player          # a shipped rules file
      exactodds odds --rules chemin_de_fer_stand --tie-loses  # another tableau, ties lose
      exactodds odds --known 1=9 --known P2=K          # the next cards are partly known
    """
    try:
        shoe = build_shoe(decks, shoe_spec, remove)
        rules = build_rules(variant, commission, tie_pays, tie_loses, rules_file)
        bets = build_bets(rules, selection, pays, paytable, bet_files)
        known_cards = parse_known(known)
        analysis: Analysis = (
            analyze_known(shoe, rules, known_cards, bets)
            if known_cards
            else analyze(shoe, rules, bets)
        )
    except ExactOddsError as error:
        raise _usage(error) from None
    if output_format == "json" and known_cards:
        data = analysis_data(analysis, digits)
        data["known"] = {str(position): card.symbol for position, card in known_cards.items()}
        _emit(json.dumps(data, indent=2))
    elif output_format == "json":
        _emit(render_json(analysis, digits))
    elif output_format == "csv":
        _emit(render_csv(analysis, digits))
    else:
        text = render_table(analysis, digits, exact=exact)
        _emit(_with_known(text, describe_known(known_cards)) if known_cards else text)


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
    rules_file: str | None,
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
        rules = build_rules(variant, commission, tie_pays, tie_loses, rules_file)
        bets = build_bets(rules, selection or "all", pays, paytable, bet_files)
    except ExactOddsError as error:
        raise _usage(error) from None
    _emit(render_bets(bets, output_format))


@cli.command()
@shoe_options
@rules_options
@bet_options
@output_options
@click.option(
    "--cards",
    metavar="K",
    type=int,
    default=1,
    show_default=True,
    help="Remove K cards of each rank in turn (K at least 1).",
)
@click.option(
    "--max-tag",
    metavar="N",
    type=int,
    default=DEFAULT_MAX_TAG,
    show_default=True,
    help="Largest tag of the derived linear count, in absolute value (a level-N count).",
)
def eor(
    decks: str | None,
    shoe_spec: str | None,
    remove: tuple[str, ...],
    rules_file: str | None,
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
    cards: int,
    max_tag: int,
) -> None:
    """Effect of removal: how each bet's exact EV moves when a card of each rank leaves.

    For every rank A 2-9 T J Q K, the exact EV after removing one card (or
    K cards with --cards) minus the EV before, on any shoe; then a linear
    count derived from the effects (integer tags up to --max-tag, balanced
    so a full pass of the shoe counts 0) and its betting correlation.

    \b
    Examples:
      exactodds eor                                    # Banker, Player, Tie on 8 decks
      exactodds eor --bets lucky6 --pay lucky6.three_card_win=23
      exactodds eor --bets dragon7,panda8 --variant ez --max-tag 3
      exactodds eor --decks 6 --remove "A K 7 7 T" --cards 4 --format json
      exactodds eor --shoe "A=4,5=4,9=4,T=16" --bets tie --exact --format csv
    """
    try:
        shoe = build_shoe(decks, shoe_spec, remove)
        rules = build_rules(variant, commission, tie_pays, tie_loses, rules_file)
        bets = build_bets(rules, selection, pays, paytable, bet_files)
        result = effect_of_removal(shoe, rules, bets, cards)
        text = render_removal(result, output_format, digits, max_tag, exact)
    except ExactOddsError as error:
        raise _usage(error) from None
    _emit(text)


def breakeven_bet_options(function: Function) -> Function:
    """``--bet``, ``--pay`` (the pay to solve for, or fixed pays), ``--paytable``, ``--bet-file``."""
    options = [
        click.option(
            "--bet",
            "bet_name",
            metavar="BET",
            required=True,
            help="The bet: banker, player, tie, or a side bet such as dragon7 or lucky6 "
            "('exactodds bets' lists them).",
        ),
        click.option(
            "--pay",
            "pays",
            metavar="PAY|NAME=PAY",
            multiple=True,
            help="The pay to solve for, named as in 'exactodds odds --pay' (tie, dragon7, "
            "lucky6.three_card_win), or commission for the Banker commission; by default the "
            "commission for the Banker bet, else the bet's one winning pay. NAME=PAY fixes "
            "another pay instead. May be repeated.",
        ),
        click.option(
            "--paytable",
            metavar="FILE",
            help="A TOML or JSON file of pays, e.g. 'dragon7 = 30' and '[lucky6]' with "
            "'three_card_win = 23'.",
        ),
        click.option(
            "--bet-file",
            "bet_files",
            metavar="FILE",
            multiple=True,
            help="A TOML file describing your own bets (see examples/bets/). May be repeated.",
        ),
    ]
    return _stack(options, function)


def _split_pays(pays: tuple[str, ...]) -> tuple[str | None, tuple[str, ...]]:
    """The one pay to solve for (or ``None``) and the ``NAME=PAY`` pays to fix."""
    unknown = [text.strip() for text in pays if "=" not in text]
    if len(unknown) > 1:
        raise PayError(
            f"--pay names {len(unknown)} pays to solve for ({', '.join(unknown)}); name one, "
            "and fix any other with NAME=PAY."
        )
    return (unknown[0] if unknown else None), tuple(text for text in pays if "=" in text)


@cli.command()
@shoe_options
@rules_options
@breakeven_bet_options
@output_options
@click.option("--latex", is_flag=True, help="In the table, show the EV expression as LaTeX.")
def breakeven(
    decks: str | None,
    shoe_spec: str | None,
    remove: tuple[str, ...],
    rules_file: str | None,
    variant: str,
    commission: str | None,
    tie_pays: str,
    tie_loses: bool,
    bet_name: str,
    pays: tuple[str, ...],
    paytable: str | None,
    bet_files: tuple[str, ...],
    output_format: str,
    digits: int,
    exact: bool,
    latex: bool,
) -> None:
    """Break-even pay: the exact pay (or commission) at which a bet's EV is zero.

    Prints the bet's EV as an exact expression in that pay (x, or c for the
    commission; every other pay as the rules and --pay NAME=PAY set it) and
    the value that makes it zero, as an exact fraction and a decimal. The
    table always shows exact values; JSON and CSV also carry the LaTeX.

    \b
    Examples:
      exactodds breakeven --bet tie                    # Tie pay that makes it fair
      exactodds breakeven --bet banker --pay commission --decks 6
      exactodds breakeven --bet lucky6 --pay lucky6.three_card_win --latex
      exactodds breakeven --bet lucky6 --pay lucky6.two_card_win --pay lucky6.three_card_win=23
      exactodds breakeven --bet dragon7 --variant ez --format json
    """
    try:
        shoe = build_shoe(decks, shoe_spec, remove)
        rules = build_rules(variant, commission, tie_pays, tie_loses, rules_file)
        unknown, fixed = _split_pays(pays)
        bets = build_bets(rules, bet_name, fixed, paytable, bet_files)
        if len(bets) != 1:
            raise BetError(
                f"--bet {bet_name!r} names {len(bets)} bets; name one, such as tie or dragon7."
            )
        solved = find_breakeven(bets[0], unknown, shoe, rules)
        text = render_breakeven(solved, output_format, digits, shoe, rules, latex)
    except ExactOddsError as error:
        raise _usage(error) from None
    except ImportError as error:  # sympy missing: a failure of the installation, exit 1
        raise click.ClickException(str(error)) from None
    _emit(text)


@cli.command(name="breakdown")
@shoe_options
@rules_file_option
@known_option
@output_options
def breakdown_command(
    decks: str | None,
    shoe_spec: str | None,
    remove: tuple[str, ...],
    rules_file: str | None,
    known: tuple[str, ...],
    output_format: str,
    digits: int,
    exact: bool,
) -> None:
    """Breakdown tables: how rounds end, counted exactly.

    Every (winner, winning total) including ties by total; each side's final
    total and every (Player total, Banker total) pair; 4, 5 and 6 cards dealt;
    who draws a third card; naturals by side and total. JSON and CSV carry
    counts and exact fractions for every figure, the grid of totals included.

    \b
    Examples:
      exactodds breakdown --digits 6                   # 8 decks, standard tableau
      exactodds breakdown --rules banker_as_player     # another drawing tableau
      exactodds breakdown --decks 6 --format csv       # every figure, one per row
      exactodds breakdown --known 1=9 --format json    # given the Player's first card
    """
    try:
        shoe = build_shoe(decks, shoe_spec, remove)
        tableau = resolve_rules_file(rules_file).tableau if rules_file else Tableau.standard()
        known_cards = parse_known(known)
        table = (
            enumerate_known(shoe, tableau, known_cards)
            if known_cards
            else enumerate_rounds(shoe, tableau)
        )
    except ExactOddsError as error:
        raise _usage(error) from None
    result = breakdown(table)
    shown = known_cards or None
    if output_format == "json":
        _emit(render_breakdown_json(result, digits, shoe, tableau, shown))
    elif output_format == "csv":
        _emit(render_breakdown_csv(result, digits))
    else:
        _emit(render_breakdown_table(result, digits, exact, shoe, tableau, shown))


@cli.command(name="batch")
@click.argument("source", metavar="[FILE|-]", default="-")
@rules_options
@bet_options
@click.option(
    "--digits",
    type=click.IntRange(0, 100),
    default=10,
    show_default=True,
    help="Decimal places of the decimal figures.",
)
@click.option(
    "--full",
    is_flag=True,
    help="Give every bet every field 'odds --format json' gives (slower), not just EV and edge.",
)
@click.option(
    "--skip-bad", is_flag=True, help="Skip bad lines (reported on stderr) instead of stopping."
)
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option(
    "--jobs",
    type=click.IntRange(1, 64),
    default=None,
    help="Worker processes (default: one per core); output order never changes.",
)
def batch(
    source: str,
    rules_file: str | None,
    variant: str,
    commission: str | None,
    tie_pays: str,
    tie_loses: bool,
    selection: str | None,
    pays: tuple[str, ...],
    paytable: str | None,
    bet_files: tuple[str, ...],
    digits: int,
    full: bool,
    skip_bad: bool,
    quiet: bool,
    jobs: int | None,
) -> None:
    """Exact EVs for many shoes: one JSON line in, one JSON line out, in order.

    Each input line is a shoe as --shoe takes it in JSON ({"A": 32, ..., "K": 32},
    or per card {"AS": 8, ...}); blank lines are ignored. Each output line has the
    shoe, the total, the outcome counts and a "bets" object shaped like
    'odds --format json' (exact and decimal EV and house edge of each selected
    bet; every field with --full). Output streams as it is computed, so memory
    stays flat on long inputs. A bad line stops the run with its line number
    (exit 2) after the lines before it are written, unless --skip-bad.

    \b
    Examples:
      exactodds batch shoes.jsonl > results.jsonl
      exactodds batch --bets all --skip-bad shoes.jsonl
      echo '{"A": 31, "2": 32, "3": 32, "4": 32, "5": 32, "6": 32, "7": 32, "8": 32, "9": 32, "T": 32, "J": 32, "Q": 32, "K": 32}' | exactodds batch --bets banker,dragon7
    """
    workers = jobs if jobs is not None else (os.cpu_count() or 1)
    if workers > 1 and "numpy" not in sys.modules:
        # The worker processes are the parallelism; BLAS threads spinning beside them
        # only compete for the same cores.
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    from .batch import BadLine, analyzer_for, batch_lines  # numpy only for this command

    try:
        rules = build_rules(variant, commission, tie_pays, tie_loses, rules_file)
        bets = build_bets(rules, selection, pays, paytable, bet_files)
        analyzer = analyzer_for(rules, tuple(bets))
    except ExactOddsError as error:
        raise _usage(error) from None
    try:
        stream = click.open_file(source, "r", encoding="utf-8")
    except OSError as error:
        raise click.UsageError(f"Cannot read batch input {source!r}: {error.strerror}.") from None
    bad_lines: list[BadLine] = []
    written = 0
    show_progress = not quiet and sys.stderr.isatty()
    size = _file_size(source)
    with (
        stream,
        click.progressbar(
            length=size or 1,
            label="Input read",
            update_min_steps=max(1, (size or 0) // 200),
            file=sys.stderr,
            hidden=not show_progress or size is None,
        ) as progress,
    ):

        def counted(lines: Iterable[str]) -> Iterator[str]:
            # The bar follows the input as it is read (a few chunks ahead of the output).
            for line in lines:
                progress.update(len(line))
                yield line

        for item in batch_lines(counted(stream), analyzer, digits, full, skip_bad, workers):
            if isinstance(item, BadLine):
                bad_lines.append(item)
                continue
            sys.stdout.write(item)
            written += item.count("\n")
            if show_progress and size is None:
                click.echo(f"\rShoes: {written:,}", file=sys.stderr, nl=False)
    if show_progress and size is None and written:
        click.echo(file=sys.stderr)
    sys.stdout.flush()
    if skip_bad:
        for line in bad_lines:
            click.echo(f"Skipped {str(line)[0].lower()}{str(line)[1:]}", err=True)
        if bad_lines:
            click.echo(
                f"Skipped {len(bad_lines)} bad line{'s' if len(bad_lines) != 1 else ''}; "
                f"wrote {written} result{'s' if written != 1 else ''}.",
                err=True,
            )
    elif bad_lines:
        raise click.UsageError(
            f"{str(bad_lines[0]).rstrip('.')}; use --skip-bad to go on past bad lines."
        )


def _file_size(source: str) -> int | None:
    """The size in bytes of a regular input file, for the progress bar; None for a stream."""
    if source == "-":
        return None
    try:
        path = Path(source)
        return path.stat().st_size if path.is_file() else None
    except OSError:
        return None


def main() -> None:
    """Console entry point."""
    cli()
