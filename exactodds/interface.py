"""The shoe, rules and bets that option values describe: one reading for every interface.

The command line (:mod:`exactodds.cli.options`) and the web API
(:mod:`exactodds.web`) take the same options (``--decks``/``decks``,
``--remove``/``remove``, ``--tie-pays``/``tie_pays`` ...) and hand them to
these builders, so a value means the same thing, and a bad value gets the
same one-sentence message, whichever way it came in.  The command line hands
text; the web API hands what JSON holds as it is: numbers as numbers (whole
ones as :class:`int`, decimals as exact :class:`~decimal.Decimal`) and lists
as lists, never written out as text to be read again.

With ``files=False`` (the web API: every request is hostile), nothing is read
from a file or from standard input: a shoe is a spec or a JSON object, rules
are a shipped rules file by name, bets have no paytable or bet files.

>>> build_shoe("6", None, ("A K 7 7 T",)).cards
307
>>> build_rules("ez", None, "8", False).variant.value
'ez'
>>> [bet.name for bet in build_bets(build_rules("standard", None, "8", False), "tie", ())]
['tie']
>>> build_shoe("8", "A=4", ())
Traceback (most recent call last):
...
exactodds.errors.ShoeError: `decks` and `shoe` both describe the shoe; give one of them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from exactodds.bets.bet import Bet
from exactodds.bets.catalogue import available_bets, select_bets
from exactodds.bets.tables import Table, shipped_tables
from exactodds.cards import parse_cards
from exactodds.errors import BetError, PayError, RulesError, ShoeError, parameter, quoted
from exactodds.inputs import (
    DEALS_FINITE,
    MAX_DECKS,
    infinite_decks,
    number_of_decks,
    read_argument,
)
from exactodds.numbers import NumberLike, parse_commission, parse_fee, parse_pay
from exactodds.rulefiles import RulesFileError, resolve_rules_file, shipped_rules_files
from exactodds.rules import Rebate, Rules, Variant
from exactodds.shoe import Shoe

if TYPE_CHECKING:
    from exactodds.games.dragon_tiger import DragonTigerTable

__all__ = [
    "BET_OPTIONS",
    "GAMES",
    "GAME_OPTION",
    "KNOWN_OPTION",
    "MULTIPLIERS_OPTION",
    "OPTIONS",
    "REBATE_OPTION",
    "RULES_FILE_OPTION",
    "RULES_OPTIONS",
    "SHOE_OPTIONS",
    "TABLE_OPTION",
    "Option",
    "bets_by_names",
    "bets_from_values",
    "build_bets",
    "build_dragon_tiger",
    "build_rules",
    "build_shoe",
    "fields",
    "read_game",
    "rules_from_values",
    "table_values",
]


@dataclass(frozen=True)
class Option:
    """One option both skins take: its JSON field, its command-line flag, and its help.

    The command line's click options are made from these (:mod:`exactodds.cli.options`);
    the web API can read the same list for its field names and help. ``parameter`` is the
    name the command line hands the value under; ``files`` marks an option that reads a
    file, which the web API never does.

    >>> [option.field for option in SHOE_OPTIONS]
    ['decks', 'shoe', 'remove']
    >>> [option.flag for option in BET_OPTIONS if not option.files]
    ['--bets', '--pay']
    """

    field: str
    flag: str
    parameter: str
    help: str
    metavar: str | None = None
    multiple: bool = False
    is_flag: bool = False
    default: str | None = None
    choices: tuple[str, ...] = ()
    files: bool = False


SHOE_OPTIONS: tuple[Option, ...] = (
    Option("decks", "--decks", "decks", "A full shoe of N 52-card decks (default 8).", "N"),
    Option(
        "shoe",
        "--shoe",
        "shoe_spec",
        "An explicit shoe: 'A=32,2=32,...,K=32' (ranks not named count 0), "
        'a JSON object {"A": 32, ...} or "KS": 8 per card, from a file, or - for stdin.',
        "SPEC|FILE|-",
    ),
    Option(
        "remove",
        "--remove",
        "remove",
        "Cards already dealt, e.g. 'A K 7 7 T', AK77T or KS,7H (suits optional; "
        "10 means T). May be repeated.",
        "CARDS",
        multiple=True,
    ),
)

#: ``--rules``: the drawing tableau from a rules file (the web names a shipped one).
RULES_FILE_OPTION = Option(
    "rules",
    "--rules",
    "rules_file",
    "Drawing rules from a TOML rules file (see exactodds/data/rules/), or a shipped "
    f"one by name: {', '.join(shipped_rules_files())}. The file may also say whether "
    "ties push or lose (--tie-loses wins over it).",
    "FILE|NAME",
)

RULES_OPTIONS: tuple[Option, ...] = (
    Option(
        "variant",
        "--variant",
        "variant",
        "standard: Banker pays 1:1 less commission; ez: EZ Baccarat (no commission, "
        "a Banker win with a three-card 7 pushes); super6: Super 6 / Punto 2000 "
        "(no commission, a winning Banker 6 pays 1:2).",
        default="standard",
        choices=tuple(variant.value for variant in Variant),
    ),
    Option(
        "commission",
        "--commission",
        "commission",
        "Commission on winning Banker bets: 5%, 0.05 or 1/20 (default 5%; "
        "0 in the no-commission variants).",
        "RATE",
    ),
    Option(
        "fee",
        "--fee",
        "fee",
        "A fee on every bet, win or lose: 20%, 0.2 or 1/5 (default none, or the rules "
        "file's fee). EVs stay per unit staked; the RTP is (1 + EV) / (1 + fee).",
        "RATE",
    ),
    Option(
        "tie_pays",
        "--tie-pays",
        "tie_pays",
        "What a winning Tie bet pays to 1: 8, 8:1, 8/1, 9 ...",
        "PAY",
        default="8",
    ),
    Option(
        "tie_loses",
        "--tie-loses",
        "tie_loses",
        "Player and Banker bets lose on a tie instead of pushing.",
        is_flag=True,
    ),
    RULES_FILE_OPTION,
)

BET_OPTIONS: tuple[Option, ...] = (
    Option(
        "bets",
        "--bets",
        "selection",
        "Which bets: main, side, all, custom, or names such as banker,dragon7,lucky6 "
        "(default main, plus any --bet-file bets). 'exactodds bets' lists them.",
        "SELECTION",
    ),
    Option(
        "pay",
        "--pay",
        "pays",
        "Change one pay (to 1): dragon7=30, big=27/50, lucky6.three_card_win=23, "
        "perfect_pair.both=250. May be repeated; wins over --paytable.",
        "NAME=PAY",
        multiple=True,
    ),
    Option(
        "paytable",
        "--paytable",
        "paytable",
        "A TOML or JSON file of pays for many bets, e.g. 'dragon7 = 30' and "
        "'[lucky6]' with 'three_card_win = 23'.",
        "FILE",
        files=True,
    ),
    Option(
        "bet_file",
        "--bet-file",
        "bet_files",
        "A TOML file describing your own bets (see examples/bets/). May be repeated.",
        "FILE",
        multiple=True,
        files=True,
    ),
)

KNOWN_OPTION = Option(
    "known",
    "--known",
    "known",
    "A card known to be dealt at POSITION: 1-6 (P1 B1 P2 B2 for 1-4; 5 is the first "
    "third card dealt, 6 the Banker's third card after a Player third card), e.g. "
    "--known 1=9 or --known P2=KS. May be repeated.",
    "POSITION=CARD",
    multiple=True,
)


#: ``--rebate``: a rebate programme (``odds``, ``report`` and ``simulate`` take it).
REBATE_OPTION = Option(
    "rebate",
    "--rebate",
    "rebate",
    "A rebate paid back to the player: rolling=1.2% (a share of the stakes that win or lose; "
    "pushes are not turnover), rolling-with-pushes=1.2% (every stake counts) or loss=10% (a "
    "share of the net loss at a trip's end: one round, or odds' --trip-rounds; simulate's "
    "simulated trips). May be repeated, one of each kind.",
    "KIND=SHARE",
    multiple=True,
)

#: ``--multipliers``: a random-multiplier overlay (``odds``, ``bets``, ``multipliers``, ``report``,
#: ``simulate`` and ``audit`` price it).
MULTIPLIERS_OPTION = Option(
    "multipliers",
    "--multipliers",
    "multipliers",
    "A random-multiplier overlay: a TOML file (faces drawn, [law] of each face's multiplier, "
    "optional fee and [bets.NAME] pay, cap or off), or a shipped one by name: golden_wealth, "
    "prosperity_tree (docs/multipliers.md).",
    "FILE|NAME",
    files=True,
)


#: ``--game``: which game the shoe deals (``odds`` and ``eor`` for now).
GAME_OPTION = Option(
    "game",
    "--game",
    "game",
    "The game dealt from the shoe: baccarat (Punto Banco), or dragon-tiger (one card each to "
    "Dragon and Tiger; bets dragon, tiger, tie, suited_tie, big, small; --pay tie=11).",
    default="baccarat",
    choices=("baccarat", "dragon-tiger"),
)


#: ``--table``: a named table's settings, each overridden by its option given explicitly.
TABLE_OPTION = Option(
    "table",
    "--table",
    "table",
    "A named table: its decks, rules, pays, fee, game and bets, from a TOML table file or a "
    f"shipped one by name: {', '.join(shipped_tables())} ('list' lists them). An option "
    "given explicitly overrides the table's setting (--pay and --bet-file add to its own).",
    "NAME|FILE",
)


def table_values(table: Table) -> dict[str, Any]:
    """The option values a table sets, by the parameter names the command line hands them.

    ``game`` is always there; ``pays`` and ``bet_files`` are tuples to go before the
    options' own; every other key is one option's value, to take unless given explicitly;
    ``multipliers``, the overlay a table names, is there only when it names one.

    >>> from exactodds.bets.tables import resolve_table
    >>> table_values(resolve_table("no_commission_super6_15"))["pays"]
    ('super6=15',)
    >>> table_values(resolve_table("golden_wealth"))["multipliers"]
    'golden_wealth'
    """
    settings: dict[str, Any] = {
        "game": table.game,
        "decks": table.decks,
        "rules_file": table.rules,
        "variant": table.variant,
        "commission": table.commission,
        "tie_pays": table.tie_pays,
        "tie_loses": None if table.ties_push is None else not table.ties_push,
        "fee": table.fee,
        "selection": ",".join(table.bets) if table.bets else None,
        "multipliers": table.multipliers,
    }
    values = {name: value for name, value in settings.items() if value is not None}
    return values | {
        "pays": table.pays,
        "bet_files": tuple(str(path) for path in table.bet_files),
    }


def fields(*groups: Sequence[Option], files: bool = False) -> tuple[str, ...]:
    """The JSON field names of the options in *groups*; file-reading ones only with *files*.

    What a web request may name, from the same list the command line's flags come from.

    >>> fields(SHOE_OPTIONS, RULES_OPTIONS, BET_OPTIONS, (KNOWN_OPTION,))
    ('decks', 'shoe', 'remove', 'variant', 'commission', 'fee', 'tie_pays', 'tie_loses', 'rules', 'bets', 'pay', 'known')
    """
    return tuple(option.field for group in groups for option in group if files or not option.files)


#: Every option both skins take, once: the command line maps a message's parameter names to
#: flags from it (:func:`exactodds.cli.app.flag`), the web API to JSON fields.
OPTIONS: tuple[Option, ...] = (
    *SHOE_OPTIONS,
    *RULES_OPTIONS,
    *BET_OPTIONS,
    KNOWN_OPTION,
    REBATE_OPTION,
)


def _read_shoe(text: str, files: bool) -> Shoe:
    """``--shoe``: a file holding a spec or JSON, ``-`` for stdin, or the spec itself.

    Whether *text* names a file is asked without ever raising :class:`OSError` (a per-card
    JSON shoe is longer than a file name may be), and a file is read within the size limit.
    """
    stripped = text.strip()
    if not stripped:
        raise ShoeError(
            "Shoe spec '' is empty; use A=32,2=32,...,K=32, a JSON file or - for stdin."
        )
    if files:
        document = read_argument(stripped, "shoe file", ShoeError, stdin_what="the shoe")
        if document is not None:
            return Shoe.parse(document.text)
    if "=" in stripped or ":" in stripped or stripped.startswith(("{", "[")):
        return Shoe.parse(stripped)
    if not files:
        raise ShoeError(
            f"Shoe {quoted(text, 200)} is not a spec such as A=32,2=32,...,K=32 or a JSON object "
            'such as {"A": 32, ...}.'
        )
    raise ShoeError(
        f"Shoe {quoted(text, 200)} is neither a spec such as A=32,2=32,...,K=32 nor a file that "
        "exists."
    )


def build_shoe(
    decks: NumberLike | None,
    shoe: str | Mapping[str, Any] | None,
    remove: Sequence[str],
    *,
    files: bool = True,
    most_decks: int = MAX_DECKS,
    infinite: bool = False,
    finite_because: str = DEALS_FINITE,
) -> Shoe:
    """The shoe the shoe options describe (8 decks by default).

    *decks* is ``--decks``'s text or (from JSON) the number itself; *shoe* is ``--shoe``'s
    text, or (from JSON) the object itself. *most_decks* bounds *decks*:
    :data:`~exactodds.inputs.MAX_DECKS` where memory grows with the shoe,
    :data:`~exactodds.inputs.MOST_DECKS` where the work does not. *decks* ``infinite`` is
    an infinite shoe (:meth:`~exactodds.shoe.Shoe.infinite_decks`) where *infinite* says
    the command prices one, else refused with *finite_because*.

    >>> build_shoe("infinite", None, (), infinite=True).describe()
    'infinite decks (cards drawn with replacement), suits known'
    >>> build_shoe("infinite", None, ())
    Traceback (most recent call last):
    ...
    exactodds.errors.ShoeError: Number of decks 'infinite' for `decks` is not valid here: this deals a finite shoe, card by card; use a whole number from 1 to 64.

    >>> build_shoe(None, {"A": 4, "K": 4}, ("K",)).cards
    7
    >>> build_shoe(6, None, ()) == build_shoe("6", None, ())
    True
    >>> build_shoe(None, "/etc/passwd", (), files=False)
    Traceback (most recent call last):
    ...
    exactodds.errors.ShoeError: Shoe '/etc/passwd' is not a spec such as A=32,2=32,...,K=32 or a JSON object such as {"A": 32, ...}.
    """
    if decks is not None and shoe is not None:
        raise ShoeError(
            f"{parameter('decks')} and {parameter('shoe')} both describe the shoe; give one of them."
        )
    if isinstance(shoe, Mapping):
        built = Shoe.from_mapping(shoe)
    elif shoe is not None:
        built = _read_shoe(shoe, files)
    elif infinite and infinite_decks(decks):
        built = Shoe.infinite_decks()
    else:
        built = Shoe.standard(
            number_of_decks(
                "8" if decks is None else decks,
                ShoeError,
                most=most_decks,
                finite_because=finite_because,
            )
        )
    return built.remove(parse_cards(" ".join(remove), parameter("remove"))) if remove else built


def build_rules(
    variant: str,
    commission: NumberLike | None,
    tie_pays: NumberLike,
    tie_loses: bool,
    rules_file: str | None = None,
    *,
    fee: NumberLike | None = None,
    rebate: Sequence[str] = (),
    files: bool = True,
) -> Rules:
    """The rules the rules options describe (``--rules`` gives the tableau).

    *commission*, *tie_pays* and *fee* are text (``"5%"``, ``"8:1"``) or exact numbers; a
    *fee* given wins over the rules file's, and so does a *rebate* (``--rebate`` texts such as
    ``"rolling=1.2%"``, read by :meth:`~exactodds.rules.Rebate.parse`).

    >>> from decimal import Decimal
    >>> build_rules("standard", Decimal("0.04"), 9, False) == build_rules("standard", "4%", "9", False)
    True
    >>> build_rules("standard", None, "8", False, "../secret.toml", files=False)
    Traceback (most recent call last):
    ...
    exactodds.rulefiles.RulesFileError: Rules '../secret.toml' is not a shipped rules file; use one of banker_as_player, chemin_de_fer_stand, standard.
    """
    tableau = None
    ties_push = not tie_loses
    table_fee = None if fee is None else parse_fee(fee, parameter("fee"))
    table_rebate = Rebate.parse(rebate, parameter("rebate")) if rebate else None
    if rules_file is not None:
        shipped = shipped_rules_files()
        if not files and rules_file not in shipped:
            raise RulesFileError(
                f"Rules {rules_file!r} is not a shipped rules file; use one of "
                f"{', '.join(shipped)}."
            )
        loaded = resolve_rules_file(shipped[rules_file] if not files else rules_file)
        tableau = loaded.tableau
        if not tie_loses and loaded.ties_push is not None:
            ties_push = loaded.ties_push
        if table_fee is None:
            table_fee = loaded.fee
        if table_rebate is None:
            table_rebate = loaded.rebate
    if variant not in {member.value for member in Variant}:
        # The command line's click.Choice refuses it first; the web API needs the sentence.
        variants = [member.value for member in Variant]
        raise RulesError(
            f"Variant {variant!r} is not valid; use {', '.join(variants[:-1])} or {variants[-1]}."
        )
    return Rules(
        tableau=tableau,
        commission=None
        if commission is None
        else parse_commission(commission, parameter("commission")),
        tie_pays=parse_pay(tie_pays, parameter("tie_pays")),
        ties_push=ties_push,
        variant=Variant(variant),
        fee=table_fee or 0,
        rebate=table_rebate,
    )


def build_bets(
    rules: Rules,
    selection: str | Sequence[str] | None,
    pays: Iterable[str] | Mapping[str, Any],
    paytable: str | None = None,
    bet_files: Iterable[str] = (),
    *,
    custom: Iterable[Bet] = (),
) -> list[Bet]:
    """The bets the bet options choose, with their pays.

    *selection* is ``--bets``'s text (``"main,dragon7"``) or (from JSON) a list of its words,
    read by :func:`bets_by_names`.  *custom* are bets already loaded (the web server's
    ``--bet-file`` bets); *bet_files* are read here.  *pays* are ``--pay`` texts
    (``"dragon7=30"``) or one object of pays as a pay table holds them (``{"dragon7": 30,
    "lucky6": {"three_card_win": 23}}``, the web's ``pay``), read by
    :func:`~exactodds.bets.paytables.read_pays`.

    >>> [bet.name for bet in build_bets(Rules(), "dragon7", ("dragon7=30",))]
    ['dragon7']
    >>> build_bets(Rules(), "dragon7", {"dragon7": 30})[0].pay("win")
    Fraction(30, 1)
    """
    if isinstance(selection, str) and not selection.replace(",", " ").strip():
        raise BetError(
            f"{parameter('selection')} {selection!r} names no bet; give bet names such as "
            "banker,dragon7 (or main, side, all), or leave it out for Banker, Player and Tie."
        )
    chosen_custom: list[Bet] = list(custom)
    bet_files = tuple(bet_files)
    if bet_files:  # imported only when used: plain `exactodds odds` reads no bet file
        from exactodds.bets.custom import load_custom_bets

        taken = list(available_bets(rules))
        for path in bet_files:
            names = taken + [bet.name for bet in chosen_custom]
            loaded = load_custom_bets(path, names, rules.tableau)
            chosen_custom.extend(loaded)
    pay_changes: dict[str, Fraction | str | int] = {}
    pays = pays if isinstance(pays, Mapping) else tuple(pays)
    if paytable is not None or pays:
        from exactodds.bets.paytables import load_paytable, parse_pay_option, read_pays

        if paytable is not None:
            pay_changes |= load_paytable(paytable)
        if isinstance(pays, Mapping):
            pay_changes |= read_pays(pays)
        else:
            pay_changes.update(parse_pay_option(text) for text in pays)
    if selection is None:
        selection = "main,custom" if chosen_custom else "main"
    if not isinstance(selection, str):
        return bets_by_names(selection, rules, pay_changes, chosen_custom)
    return select_bets(selection, rules, pay_changes, chosen_custom)


def bets_by_names(
    names: Sequence[str],
    rules: Rules,
    pays: Mapping[str, Fraction | str | int] | None = None,
    custom: Iterable[Bet] = (),
) -> list[Bet]:
    """The bets a list of selection words and bet names chooses, in catalogue order.

    Each entry is read as :func:`~exactodds.bets.catalogue.select_bets` reads a selection
    (``"main"``, ``"dragon7"``), so a list is never joined into text to be split again; an
    entry given twice is read once.

    >>> [bet.name for bet in bets_by_names(["tie", "main", "dragon7"], Rules())]
    ['banker', 'player', 'tie', 'dragon7']
    >>> bets_by_names([], Rules())
    Traceback (most recent call last):
    ...
    exactodds.errors.BetError: The bet selection names no bet; use main, side, all, or bet names.
    """
    entries = list(dict.fromkeys(name.strip() if isinstance(name, str) else name for name in names))
    if not entries:
        raise BetError("The bet selection names no bet; use main, side, all, or bet names.")
    custom = tuple(custom)
    chosen = {bet.name for entry in entries for bet in select_bets(entry, rules, pays, custom)}
    return [bet for bet in select_bets("all", rules, pays, custom) if bet.name in chosen]


def build_dragon_tiger(
    selection: str | Sequence[str] | None, pays: Iterable[str] | Mapping[str, Any]
) -> DragonTigerTable:
    """Dragon Tiger's bets and pays from ``--bets`` and ``--pay NAME=PAY`` texts.

    From JSON (the web API), *selection* may be a list of names and *pays* one object of
    name -> pay, its numbers read exactly.

    >>> build_dragon_tiger("tie,dragon", ("tie=11",)).pays["tie"]
    Fraction(11, 1)
    >>> build_dragon_tiger(["tie"], {"tie": 11}).pays["tie"]
    Fraction(11, 1)
    >>> build_dragon_tiger(None, ("tie",))
    Traceback (most recent call last):
    ...
    exactodds.errors.PayError: Pay 'tie' in `pays` has no value; use NAME=PAY such as tie=11.
    """
    # Imported here: baccarat's commands never load the other game.
    from exactodds.games.dragon_tiger import (
        DragonTigerTable,
        dragon_tiger_pays,
        select_dragon_tiger_bets,
    )

    if isinstance(pays, Mapping):
        return DragonTigerTable(select_dragon_tiger_bets(selection), dragon_tiger_pays(pays))
    changes: dict[str, str] = {}
    for text in pays:
        name, separator, value = str(text).partition("=")
        if not separator or not name.strip() or not value.strip():
            raise PayError(
                f"Pay {quoted(str(text))} in {parameter('pays')} has no value; use NAME=PAY such "
                "as tie=11."
            )
        changes[name.strip()] = value.strip()
    return DragonTigerTable(select_dragon_tiger_bets(selection), dragon_tiger_pays(changes))


#: The games a shoe deals (``--game``; the web API's ``game``).
GAMES = GAME_OPTION.choices


def read_game(game: str) -> str:
    """The game *game* names (``--game``, the web API's ``game``), checked.

    >>> read_game("dragon-tiger")
    'dragon-tiger'
    >>> read_game("poker")
    Traceback (most recent call last):
    ...
    exactodds.errors.RulesError: Game 'poker' for `game` is not valid; use baccarat or dragon-tiger.
    """
    if game not in GAMES:
        raise RulesError(
            f"Game {quoted(game)} for {parameter('game')} is not valid; use "
            f"{', '.join(GAMES[:-1])} or {GAMES[-1]}."
        )
    return game


def rules_from_values(values: Mapping[str, Any]) -> Rules:
    """The rules that option values describe, keyed by parameter name (as click hands them).

    For a command that builds variants of what its options say (``report --compare``,
    ``simulate --sweep``) from the values as typed.

    >>> rules_from_values({"variant": "ez", "commission": None, "tie_pays": "8",
    ...                    "tie_loses": False, "rules_file": None}).variant.value
    'ez'
    >>> rules_from_values({"variant": "ez"})
    Traceback (most recent call last):
    ...
    KeyError: 'commission'
    """
    return build_rules(
        values["variant"],
        values["commission"],
        values["tie_pays"],
        values["tie_loses"],
        values["rules_file"],
        fee=values.get("fee"),
        rebate=values.get("rebate", ()),
    )


def bets_from_values(rules: Rules, values: Mapping[str, Any], **changes: Any) -> list[Bet]:
    """The bets that option values describe (keyed by parameter name), with *changes* applied.

    >>> values = {"selection": "dragon7", "pays": (), "paytable": None, "bet_files": ()}
    >>> [bet.pay_table["win"] for bet in bets_from_values(Rules(), values, pays=("dragon7=30",))]
    [Fraction(30, 1)]
    >>> bets_from_values(Rules(), values, selection="nosuch")
    Traceback (most recent call last):
    ...
    exactodds.errors.BetError: Unknown bet 'nosuch' in the bet selection; use main, side, all, or bet names such as banker, dragon7, lucky6 (exactodds bets lists them).
    """
    chosen = {**values, **changes}
    return build_bets(
        rules, chosen["selection"], chosen["pays"], chosen["paytable"], chosen["bet_files"]
    )
