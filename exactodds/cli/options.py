"""Option decorators and builders shared by every command."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, TypeVar

import click

from exactodds.bets.bet import Bet
from exactodds.bets.catalogue import available_bets, select_bets
from exactodds.bets.custom import load_custom_bets
from exactodds.bets.paytables import load_paytable, parse_pay_option
from exactodds.cards import parse_cards
from exactodds.errors import ShoeError, quoted
from exactodds.inputs import read_argument
from exactodds.numbers import MAX_DIGITS, parse_commission, parse_pay
from exactodds.report.odds import FORMATS
from exactodds.rulefiles import resolve_rules_file, shipped_rules_files
from exactodds.rules import Rules, Variant
from exactodds.shoe import Shoe

Function = TypeVar("Function", bound=Callable[..., Any])


def _read_shoe(text: str) -> Shoe:
    """``--shoe``: a file holding a spec or JSON, ``-`` for stdin, or the spec itself.

    Whether *text* names a file is asked without ever raising :class:`OSError` (a per-card
    JSON shoe is longer than a file name may be), and a file is read within the size limit.
    """
    stripped = text.strip()
    if not stripped:
        raise ShoeError(
            "Shoe spec '' is empty; use A=32,2=32,...,K=32, a JSON file or - for stdin."
        )
    document = read_argument(stripped, "shoe file", ShoeError, stdin_what="the shoe")
    if document is not None:
        return Shoe.parse(document.text)
    if "=" in stripped or ":" in stripped or stripped.startswith(("{", "[")):
        return Shoe.parse(stripped)
    raise ShoeError(
        f"Shoe {quoted(text, 200)} is neither a spec such as A=32,2=32,...,K=32 nor a file that exists."
    )


def _decks(text: str) -> int:
    cleaned = text.strip().removeprefix("+")
    digits = cleaned.removeprefix("-")
    if not (digits.isdigit() and digits.isascii()):
        raise ShoeError(
            f"Number of decks {quoted(text, 20)} is not valid; use a whole number of at least 1."
        )
    if len(digits.lstrip("0")) > MAX_DIGITS:
        raise ShoeError(
            f"Number of decks with {len(digits.lstrip('0')):,} digits is too large; use a whole "
            f"number of at least 1 and at most {MAX_DIGITS} digits."
        )
    decks = int(cleaned)
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


def stack(options: Sequence[Callable[[Any], Any]], function: Function) -> Function:
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
    return stack(options, function)


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
    return stack(options, function)


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


def with_known(text: str, known: str) -> str:
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
    return stack(options, function)


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
    return stack(options, function)


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
