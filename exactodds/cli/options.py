"""Option decorators and builders shared by every command."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NoReturn, TypeVar, cast

import click

from exactodds.bets.bet import Bet, card_level_refusal
from exactodds.bets.multipliers import MultiplierOverlay
from exactodds.bets.tables import read_table_file, resolve_table, shipped_tables
from exactodds.cli.app import usage_error
from exactodds.errors import BetError, ExactOddsError, RulesError, ShoeError
from exactodds.inputs import DEALS_FINITE, MAX_DECKS, infinite_decks, number_of_decks
from exactodds.interface import (
    BET_OPTIONS,
    GAME_OPTION,
    KNOWN_OPTION,
    REBATE_OPTION,
    RULES_FILE_OPTION,
    RULES_OPTIONS,
    SHOE_OPTIONS,
    TABLE_OPTION,
    Option,
    build_dragon_tiger,
    table_values,
)

# The builders are library functions, shared with the web API (exactodds.web): one reading of
# every option value, one set of messages.
from exactodds.interface import build_bets as build_bets
from exactodds.interface import build_rules as build_rules
from exactodds.interface import build_shoe as build_shoe
from exactodds.report.odds import FORMATS
from exactodds.rules import Rules

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


#: Shoe states a CPU-second of the ``golden_wealth`` overlay's Banker, Player and Tie
#: (``analyze_overlay``), as ``benchmarks/bench_cardprice.py`` measured them (8 decks, mid-shoe
#: states; 2 December 2026, two cores at a load average of 8 to 11: median 21.8).
OVERLAY_STATES_PER_SECOND = 22.0
#: CPU-seconds the card walk takes a round of its view (``leaf_count``) on one full 8-deck shoe,
#: the lesser of two measures (3 December 2026, one run each, load average about 2): every card
#: a heart or a spade (two marks, 61,724,007 rounds) 78.8 s; every card a heart, with the four
#: suits told apart (338,150,944 rounds) 657 s.
WALKED_CARD_SECONDS_PER_ROUND = 78.8 / 61_724_007


def rounds_asked(shoes: int, cards: int, cut: int, after_cut: int = 1) -> int:
    """About how many rounds *shoes* shoes of *cards* cards with the cut card *cut* from the
    back deal (a round takes about five cards): the shoe states a run prices.

    >>> rounds_asked(100, 416, 14)
    8100
    """
    return shoes * ((cards - cut) // 5 + after_cut)


def slow_duration(seconds: float) -> str:
    """*seconds* in words: ``40 seconds``, ``12 minutes``, ``4.1 hours``, ``3.2 days``.

    >>> slow_duration(400), slow_duration(2e6)
    ('7 minutes', '23 days')
    """
    if seconds < 90:
        return f"{seconds:.0f} seconds"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} minutes"
    if seconds < 48 * 3600:
        return f"{seconds / 3600:.2g} hours"
    return f"{seconds / 86400:.2g} days"


#: The most CPU time a run under a multiplier overlay may be asked for: a day.  Past it the
#: run is a batch job of its own (split it, or use --checkpoint and --resume on smaller runs).
MOST_OVERLAY_SECONDS = 86400


def refuse_multipliers(command: str, multipliers: str | None, rounds: int | None = None) -> None:
    """Refuse ``--multipliers`` (or a ``--table`` naming an overlay) on a command that does not
    price overlays round by round, in one sentence with the measured rate (exit 2)."""
    if multipliers is not None:
        rate = OVERLAY_STATES_PER_SECOND
        time = (
            ""
            if rounds is None
            else (
                f", so the {rounds:,} rounds asked would take about {slow_duration(rounds / rate)}"
            )
        )
        raise click.UsageError(
            f"exactodds {command} does not price random multipliers: it prices the shoe left "
            "before every round, and an overlay's exact EVs, which depend on the faces of every "
            f"card left, take about {1000 / rate:.0f} milliseconds a shoe state (some "
            f"{rate:.0f} states a CPU-second, benchmarks/bench_cardprice.py){time}; price one "
            f"shoe state with exactodds odds --multipliers {multipliers} --remove CARDS."
        )


def overlay_for_run(
    command: str, multipliers: str | None, rounds: int, quiet: bool
) -> MultiplierOverlay | None:
    """The overlay ``--multipliers`` names for a run that prices *rounds* shoe states under
    it: its time said on stderr from the measured rate, a run past :data:`MOST_OVERLAY_SECONDS`
    of CPU refused in one sentence (exit 2)."""
    if multipliers is None:
        return None
    from exactodds.bets.multipliers import resolve_overlay

    try:
        overlay = resolve_overlay(multipliers)
    except ExactOddsError as error:
        raise usage_error(error) from None
    rate = OVERLAY_STATES_PER_SECOND
    seconds = rounds / rate
    if seconds > MOST_OVERLAY_SECONDS:
        raise click.UsageError(
            f"exactodds {command} under the overlay {multipliers} would price about "
            f"{rounds:,} shoe states at about {rate:.0f} a CPU-second "
            f"(benchmarks/bench_cardprice.py), about {slow_duration(seconds)} of CPU, past the "
            f"bound of a day; ask for at most {int(MOST_OVERLAY_SECONDS * rate):,} rounds "
            "(fewer shoes or a smaller shoe)."
        )
    if not quiet:
        say_overlay_time(multipliers, rounds)
    return overlay


def refuse_overlay_beside(other: str) -> NoReturn:
    """Refuse ``--multipliers`` given with *other* (``--game dragon-tiger``, ``--known``): an
    overlay prices baccarat from a full round's cards (exit 2)."""
    raise click.UsageError(
        f"--multipliers prices baccarat from a full round's cards; drop {other}."
    )


def say_overlay_time(multipliers: str, rounds: int) -> None:
    """Say on stderr, before the work, about how long *rounds* shoe states under the overlay
    *multipliers* take at the measured rate."""
    rate = OVERLAY_STATES_PER_SECOND
    seconds = rounds / rate
    click.echo(
        f"Pricing about {rounds:,} rounds under the overlay {multipliers} at about "
        f"{rate:.0f} states a CPU-second: about "
        f"{'under a second' if seconds < 1 else slow_duration(seconds)} of CPU.",
        err=True,
    )


def refuse_walked_card_bets(command: str, bets: Iterable[Bet], rules: Rules, rounds: int) -> None:
    """Refuse a card-level bet whose card terms do not compile (the four suits, or two or more
    sets of suits or faces, of every card), in one sentence with the card walk's time for one
    state, from its measured rate, and the time of the run asked."""
    from exactodds.analysis.cardprice import compiles
    from exactodds.engine.cardterms import leaf_count

    for bet in bets:
        if bet.cards is not None and not compiles(bet, rules.tableau):
            state = leaf_count(bet.cards, rules.tableau) * WALKED_CARD_SECONDS_PER_ROUND
            raise BetError(
                f"Bet {bet.name!r} tells every card of the round apart more finely than the card "
                "terms compile (by its four suits, or by two or more sets of suits or faces), "
                f"so `exactodds {command}` would price each shoe state by the card walk, about "
                f"{slow_duration(state)} for one 8-deck state at the walk's rate measured here: "
                f"the {rounds:,} rounds asked would take about {slow_duration(rounds * state)}; "
                "price it with `exactodds odds`, `exactodds eor` or `exactodds report`, or name "
                "one set of suits or faces on every card, or a colour or ranks alone."
            )


class DealtDecks(click.types.IntParamType):
    """``--decks`` of a command that deals its shoes (a whole number, checked by the library).

    ``infinite`` is refused in the library's sentence, which says what is valid, rather than
    click's "not a valid integer".
    """

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if infinite_decks(value):
            try:
                number_of_decks(value, ShoeError)
            except ExactOddsError as error:
                raise usage_error(error) from None
        return super().convert(value, param, ctx)


#: The type of ``--decks`` where shoes are dealt card by card (``simulate``, ``audit``).
DEALT_DECKS = DealtDecks()


def shoe_options(function: Function) -> Function:
    """``--decks``, ``--shoe`` and ``--remove``."""
    return stack([click_option(option) for option in SHOE_OPTIONS], function)


def rules_file_option(function: Function) -> Function:
    """``--rules FILE|NAME``: the drawing tableau from a TOML rules file."""
    return click_option(RULES_FILE_OPTION)(function)


def known_option(function: Function) -> Function:
    """``--known POSITION=CARD``: cards known before the round is dealt."""
    return click_option(KNOWN_OPTION)(function)


def wide_option(function: Function) -> Function:
    """``--wide``: tables and prose as wide as they are (by default they fit 100 columns)."""
    return click.option(
        "--wide",
        is_flag=True,
        help="Tables and lines as wide as they are (by default they fit 100 columns).",
    )(function)


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


#: Why each command that cannot price a card-level bet cannot (the rest of the sentence).
CARD_BET_REASONS: dict[str, str] = {
    "depth": (
        "it averages over every composition of the cards left by value (4,686,825 at 18 cards), "
        "and a card-level bet's EV also depends on the ranks, suits or colours it reads, whose "
        "compositions of 18 cards number from 86 million (13 ranks) to 3 x 10^14 (values by suit)"
    ),
}


def refuse_card_bets(bets: Iterable[Bet], option: str = "") -> None:
    """Refuse, in one sentence, a bet with card-level conditions on a command that cannot price it.

    The sentence says why where the command is one that prices shoes many times over
    (:data:`CARD_BET_REASONS`), and which commands can price the bet.
    """
    for bet in bets:
        if bet.cards is not None:
            name = click.get_current_context().info_name or ""
            reason = CARD_BET_REASONS.get(name) if not option else None
            if reason is None:
                raise BetError(card_level_refusal(bet.name, f"`exactodds {name}{option}`"))
            raise BetError(
                f"Bet {bet.name!r} reads the cards themselves (card-level conditions), which "
                f"`exactodds {name}` cannot price: {reason}; price it with `exactodds odds`, "
                "`exactodds eor`, `exactodds breakeven` or `exactodds report`."
            )


def built_options(
    *,
    shoe: bool = True,
    bets: bool = True,
    all_bets: bool = False,
    default_selection: Callable[[Mapping[str, Any]], str | None] | None = None,
    keep_values: bool = False,
    most_decks: int = MAX_DECKS,
    games: bool = False,
    card_bets: bool = False,
    rebate: bool = False,
    infinite: bool = False,
    finite_because: str = DEALS_FINITE,
    preset: Callable[[dict[str, Any]], None] | None = None,
) -> Callable[[Function], Function]:
    """The shoe, rules and bet options, handed to the command as built objects.

    The command receives ``shoe`` (a :class:`~exactodds.shoe.Shoe`, with *shoe*),
    ``rules`` (:class:`~exactodds.rules.Rules`) and ``bets`` (a list of
    :class:`~exactodds.bets.bet.Bet`, with *bets*; every bet by default with *all_bets*)
    in place of the option values, built in that order inside the one usage-error guard:
    a bad value is one sentence and exit 2 before the command runs. Without ``--bets``,
    *default_selection* (given the command's other option values) may choose the bets.
    With *keep_values* the command also receives ``option_values``, the values as given (by
    parameter name), to build other variants from (``simulate --sweep``). *most_decks* bounds
    ``--decks``: :data:`~exactodds.inputs.MAX_DECKS` where memory grows with the shoe,
    :data:`~exactodds.inputs.MOST_DECKS` where the work does not; ``--decks infinite`` is an
    infinite shoe with *infinite*, else refused with *finite_because*. Bets with card-level
    conditions are refused in one sentence unless *card_bets* (the command prices card rounds).
    With *rebate*, ``--rebate KIND=SHARE`` comes too, read into ``rules.rebate``.

    ``--table NAME|FILE`` sets any of these options the command takes (and ``--game``)
    from a named table, unless the option is given explicitly (:func:`apply_table`);
    ``--table list`` prints the shipped tables and exits. *preset*, given the values
    first, may set options the same way (``review`` applies a log's header).

    With *games*, ``--game baccarat|dragon-tiger`` comes too and the command receives ``game``:
    None for baccarat (the default, every option as before), or for ``dragon-tiger`` a
    :class:`~exactodds.games.dragon_tiger.DragonTigerTable` built from ``--bets`` and ``--pay``
    (``rules`` is then the default and ``bets`` empty, unused); a baccarat-only option given
    with it is one sentence and exit 2.
    """

    def decorate(function: Function) -> Function:
        @functools.wraps(function)
        def command(**values: Any) -> Any:
            if preset is not None:
                preset(values)
            apply_table(values)
            if games and values.pop("game") == "dragon-tiger":
                if keep_values:
                    values["option_values"] = {
                        option.parameter: values[option.parameter]
                        for option in options
                        if option is not TABLE_OPTION and option.parameter in values
                    }
                return function(
                    **_dragon_tiger_values(values, most_decks, infinite, finite_because)
                )
            if games:
                values["game"] = None
            if keep_values:
                given = {
                    option.parameter: values[option.parameter]
                    for option in options
                    if option is not TABLE_OPTION
                }
            try:
                if shoe:
                    values["shoe"] = build_shoe(
                        values.pop("decks"),
                        values.pop("shoe_spec"),
                        values.pop("remove"),
                        most_decks=most_decks,
                        infinite=infinite,
                        finite_because=finite_because,
                    )
                rules = build_rules(
                    values.pop("variant"),
                    values.pop("commission"),
                    values.pop("tie_pays"),
                    values.pop("tie_loses"),
                    values.pop("rules_file"),
                    fee=values.pop("fee"),
                    rebate=values.pop("rebate") if rebate else (),
                )
                values["rules"] = rules
                if rules.rebate and not rebate:
                    raise RulesError(_rebate_refusal(rules))
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
                    if not card_bets:
                        refuse_card_bets(values["bets"])
            except ExactOddsError as error:
                raise usage_error(error) from None
            if keep_values:
                values["option_values"] = given
            return function(**values)

        options = [
            TABLE_OPTION,
            *((GAME_OPTION,) if games else ()),
            *(SHOE_OPTIONS if shoe else ()),
            *RULES_OPTIONS,
            *((REBATE_OPTION,) if rebate else ()),
            *(BET_OPTIONS if bets else ()),
        ]
        return stack([click_option(option) for option in options], cast(Function, command))

    return decorate


def _rebate_refusal(rules: Rules) -> str:
    """Why a command that prices no rebate refuses a rules file that gives one."""
    command = f"exactodds {click.get_current_context().info_name}"
    return (
        f"The rules file gives a rebate ({', '.join(rules.rebate.texts())}), which `{command}` "
        "does not price; remove it from the file, or use exactodds odds, exactodds report or "
        "exactodds simulate."
    )


def _explicit(context: click.Context, parameter: str) -> bool:
    """Whether the user gave the option *parameter* (not its default)."""
    source = context.get_parameter_source(parameter)
    return source is not None and source != click.core.ParameterSource.DEFAULT


def table_listing() -> str:
    """The shipped tables, one line each: the name and what the table deals.

    >>> print(table_listing().splitlines()[0])
    classic                  8 decks: Banker 1:1 less 5%, Player 1:1, Tie 8:1, pairs 11:1.
    """
    tables = {name: read_table_file(path) for name, path in shipped_tables().items()}
    width = max(len(name) for name in tables) + 2
    return "\n".join(f"{name:<{width}}{table.description}" for name, table in tables.items())


def apply_table(values: dict[str, Any]) -> None:
    """Set, in the command's *values*, what ``--table`` says, unless given explicitly.

    ``--pay`` and ``--bet-file`` add to the table's own (a pay given wins over the table's);
    ``--shoe`` given explicitly replaces the table's decks. A table's game that the command
    cannot deal, or that an explicit ``--game`` contradicts, is one sentence and exit 2.
    """
    spec = values.pop("table")
    if spec is None:
        return
    context = click.get_current_context()
    if spec.strip() == "list":
        click.echo(table_listing())
        context.exit(0)
    try:
        table = resolve_table(spec)
        settings = table_values(table)
    except ExactOddsError as error:
        raise usage_error(error) from None
    game = settings.pop("game")
    if "game" not in values and game != "baccarat":
        raise click.UsageError(
            f"Table {table.name!r} deals {game}, and exactodds {context.info_name} prices "
            "baccarat only; use exactodds odds, eor, report, simulate or audit for it."
        )
    if "game" in values:
        if _explicit(context, "game") and values["game"] != game:
            raise click.UsageError(
                f"--game {values['game']} contradicts --table {spec}, which deals {game}; "
                "give one of them."
            )
        values["game"] = game
    if "multipliers" in settings and "multipliers" not in values:
        raise click.UsageError(
            f"Table {table.name!r} pays random multipliers (the overlay "
            f"{settings['multipliers']!r}), which exactodds {context.info_name} does not price; "
            "use exactodds odds --table for it."
        )
    apply_settings(values, settings)


def apply_settings(values: dict[str, Any], settings: Mapping[str, Any]) -> None:
    """Set in the command's *values* the option *settings* (by parameter name) of a table or
    a log's header, unless the option is given explicitly.

    ``pays`` and ``bet_files`` go before the options' own (a pay given wins); ``--shoe``
    given explicitly replaces the settings' decks; a setting the command takes no option
    for is left out.
    """
    context = click.get_current_context()
    settings = dict(settings)
    if "shoe_spec" in values and _explicit(context, "shoe_spec"):
        settings.pop("decks", None)
    for parameter, value in settings.items():
        if parameter not in values:
            continue  # the command does not take this option (breakeven has no --bets)
        if parameter in ("pays", "bet_files"):
            values[parameter] = (*value, *values[parameter])
        elif not _explicit(context, parameter):
            values[parameter] = value


#: What a Dragon Tiger command takes of the shared options (the rest are baccarat's).
DRAGON_TIGER_TAKES = "--decks, --shoe, --remove, --bets and --pay (such as --pay tie=11)"


def _dragon_tiger_values(
    values: dict[str, Any],
    most_decks: int = MAX_DECKS,
    infinite: bool = False,
    finite_because: str = DEALS_FINITE,
) -> dict[str, Any]:
    """The command's values for ``--game dragon-tiger``: the shoe, and the table in ``game``.

    A baccarat-only option given on the command line (rules, pay tables, bet files, known
    cards) is refused in one sentence rather than silently ignored.
    """
    context = click.get_current_context()
    baccarat_only = [*RULES_OPTIONS, *(option for option in BET_OPTIONS if option.files)]
    if "known" in values:
        baccarat_only.append(KNOWN_OPTION)
    if "rebate" in values:
        baccarat_only.append(REBATE_OPTION)
    for option in baccarat_only:
        source = context.get_parameter_source(option.parameter)
        if source is not None and source != click.core.ParameterSource.DEFAULT:
            raise click.UsageError(
                f"{option.flag} is a baccarat option; --game dragon-tiger takes {DRAGON_TIGER_TAKES}."
            )
    built: dict[str, Any] = {}
    try:
        if "shoe_spec" in values:  # a command that deals its own shoes keeps its --decks
            built["shoe"] = build_shoe(
                values.pop("decks"),
                values.pop("shoe_spec"),
                values.pop("remove"),
                most_decks=most_decks,
                infinite=infinite,
                finite_because=finite_because,
            )
        table = build_dragon_tiger(values.pop("selection"), values.pop("pays"))
    except ExactOddsError as error:
        raise usage_error(error) from None
    for option in (*RULES_OPTIONS, *(option for option in BET_OPTIONS if option.files)):
        values.pop(option.parameter)
    values.pop("rebate", None)
    return values | built | {"rules": Rules(), "bets": [], "game": table}
