"""Option decorators and builders shared by every command."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar, cast

import click

from exactodds.cli.app import usage_error
from exactodds.errors import ExactOddsError
from exactodds.interface import (
    BET_OPTIONS,
    KNOWN_OPTION,
    RULES_FILE_OPTION,
    RULES_OPTIONS,
    SHOE_OPTIONS,
    Option,
)

# The builders are library functions, shared with the web API (exactodds.web): one reading of
# every option value, one set of messages.
from exactodds.interface import build_bets as build_bets
from exactodds.interface import build_rules as build_rules
from exactodds.interface import build_shoe as build_shoe
from exactodds.report.odds import FORMATS

Function = TypeVar("Function", bound=Callable[..., Any])


def stack(options: Sequence[Callable[[Any], Any]], function: Function) -> Function:
    """Apply click option decorators so they appear in --help in the order listed."""
    for option in reversed(options):
        function = option(function)
    return function


def click_option(option: Option) -> Callable[[Function], Function]:
    """The click option of one of :mod:`exactodds.interface`'s options (its flag, help ...)."""
    settings: dict[str, Any] = {"help": option.help}
    if option.metavar is not None:
        settings["metavar"] = option.metavar
    if option.multiple:
        settings["multiple"] = True
    if option.is_flag:
        settings["is_flag"] = True
    if option.choices:
        settings["type"] = click.Choice(option.choices)
    if option.default is not None:
        settings["default"] = option.default
        settings["show_default"] = True
    decorator: Callable[[Function], Function] = click.option(
        option.flag, option.parameter, **settings
    )
    return decorator


def shoe_options(function: Function) -> Function:
    """``--decks``, ``--shoe`` and ``--remove``."""
    return stack([click_option(option) for option in SHOE_OPTIONS], function)


def rules_file_option(function: Function) -> Function:
    """``--rules FILE|NAME``: the drawing tableau from a TOML rules file."""
    return click_option(RULES_FILE_OPTION)(function)


def known_option(function: Function) -> Function:
    """``--known POSITION=CARD``: cards known before the round is dealt."""
    return click_option(KNOWN_OPTION)(function)


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


def built_options(
    *,
    shoe: bool = True,
    bets: bool = True,
    all_bets: bool = False,
    default_selection: Callable[[Mapping[str, Any]], str | None] | None = None,
    keep_values: bool = False,
) -> Callable[[Function], Function]:
    """The shoe, rules and bet options, handed to the command as built objects.

    The command receives ``shoe`` (a :class:`~exactodds.shoe.Shoe`, with *shoe*),
    ``rules`` (:class:`~exactodds.rules.Rules`) and ``bets`` (a list of
    :class:`~exactodds.bets.bet.Bet`, with *bets*; every bet by default with *all_bets*)
    in place of the option values, built in that order inside the one usage-error guard:
    a bad value is one sentence and exit 2 before the command runs. Without ``--bets``,
    *default_selection* (given the command's other option values) may choose the bets.
    With *keep_values* the command also receives ``option_values``, the values as given (by
    parameter name), to build other variants from (``simulate --sweep``).
    """

    def decorate(function: Function) -> Function:
        @functools.wraps(function)
        def command(**values: Any) -> Any:
            if keep_values:
                given = {option.parameter: values[option.parameter] for option in options}
            try:
                if shoe:
                    values["shoe"] = build_shoe(
                        values.pop("decks"), values.pop("shoe_spec"), values.pop("remove")
                    )
                rules = build_rules(
                    values.pop("variant"),
                    values.pop("commission"),
                    values.pop("tie_pays"),
                    values.pop("tie_loses"),
                    values.pop("rules_file"),
                )
                values["rules"] = rules
                if bets:
                    selection = values.pop("selection")
                    if selection is None and default_selection is not None:
                        selection = default_selection(values)
                    values["bets"] = build_bets(
                        rules,
                        selection if selection is not None else ("all" if all_bets else None),
                        values.pop("pays"),
                        values.pop("paytable"),
                        values.pop("bet_files"),
                    )
            except ExactOddsError as error:
                raise usage_error(error) from None
            if keep_values:
                values["option_values"] = given
            return function(**values)

        options = [
            *(SHOE_OPTIONS if shoe else ()),
            *RULES_OPTIONS,
            *(BET_OPTIONS if bets else ()),
        ]
        return stack([click_option(option) for option in options], cast(Function, command))

    return decorate
