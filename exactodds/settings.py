"""The shoe, rules and bets that option values describe: one reading for every interface.

The command line (:mod:`exactodds.cli.options`) and the web API
(:mod:`exactodds.web`) take the same options (``--decks``/``decks``,
``--remove``/``remove``, ``--tie-pays``/``tie_pays`` ...) as text and hand
them to these builders, so a value means the same thing, and a bad value
gets the same one-sentence message, whichever way it came in.

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
exactodds.errors.ShoeError: --decks and --shoe both describe the shoe; give one of them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from exactodds.bets.bet import Bet
from exactodds.bets.catalogue import available_bets, select_bets
from exactodds.cards import parse_cards
from exactodds.errors import RulesError, ShoeError, quoted
from exactodds.inputs import read_argument
from exactodds.numbers import MAX_DIGITS, parse_commission, parse_pay
from exactodds.rulefiles import RulesFileError, resolve_rules_file, shipped_rules_files
from exactodds.rules import Rules, Variant
from exactodds.shoe import Shoe

__all__ = ["CLI_NAMES", "build_bets", "build_rules", "build_shoe"]

#: How the command line names each option in a message; another caller (the web API) passes
#: its own words for the same keys, so an error names what that caller's user typed.
CLI_NAMES: Mapping[str, str] = {
    "decks": "--decks",
    "shoe": "--shoe",
    "remove": "--remove",
    "commission": "--commission",
    "tie_pays": "--tie-pays",
}


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


def build_shoe(
    decks: str | None,
    shoe: str | Mapping[str, Any] | None,
    remove: Sequence[str],
    *,
    files: bool = True,
    names: Mapping[str, str] = CLI_NAMES,
) -> Shoe:
    """The shoe the shoe options describe (8 decks by default).

    *shoe* is ``--shoe``'s text, or (from JSON) the object itself; *names* are the caller's
    words for the options in messages (see :data:`CLI_NAMES`).

    >>> build_shoe(None, {"A": 4, "K": 4}, ("K",)).cards
    7
    >>> build_shoe(None, "/etc/passwd", (), files=False)
    Traceback (most recent call last):
    ...
    exactodds.errors.ShoeError: Shoe '/etc/passwd' is not a spec such as A=32,2=32,...,K=32 or a JSON object such as {"A": 32, ...}.
    """
    if decks is not None and shoe is not None:
        raise ShoeError(
            f"{names['decks']} and {names['shoe']} both describe the shoe; give one of them."
        )
    if isinstance(shoe, Mapping):
        built = Shoe.from_mapping(shoe)
    elif shoe is not None:
        built = _read_shoe(shoe, files)
    else:
        built = Shoe.standard(_decks("8" if decks is None else decks))
    return built.remove(parse_cards(" ".join(remove), names["remove"])) if remove else built


def build_rules(
    variant: str,
    commission: str | None,
    tie_pays: str,
    tie_loses: bool,
    rules_file: str | None = None,
    *,
    files: bool = True,
    names: Mapping[str, str] = CLI_NAMES,
) -> Rules:
    """The rules the rules options describe (``--rules`` gives the tableau).

    >>> build_rules("standard", None, "8", False, "../secret.toml", files=False)
    Traceback (most recent call last):
    ...
    exactodds.rulefiles.RulesFileError: Rules '../secret.toml' is not a shipped rules file; use one of banker_as_player, chemin_de_fer_stand, standard.
    """
    tableau = None
    ties_push = not tie_loses
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
        else parse_commission(commission, names["commission"]),
        tie_pays=parse_pay(tie_pays, names["tie_pays"]),
        ties_push=ties_push,
        variant=Variant(variant),
    )


def build_bets(
    rules: Rules,
    selection: str | None,
    pays: Iterable[str],
    paytable: str | None = None,
    bet_files: Iterable[str] = (),
    *,
    custom: Iterable[Bet] = (),
) -> list[Bet]:
    """The bets the bet options choose, with their pays.

    *custom* are bets already loaded (the web server's ``--bet-file`` bets);
    *bet_files* are read here.

    >>> [bet.name for bet in build_bets(Rules(), "dragon7", ("dragon7=30",))]
    ['dragon7']
    """
    chosen_custom: list[Bet] = list(custom)
    bet_files = tuple(bet_files)
    if bet_files:  # imported only when used: plain `exactodds odds` reads no bet file
        from exactodds.bets.custom import load_custom_bets

        taken = list(available_bets(rules))
        for path in bet_files:
            loaded = load_custom_bets(path, taken + [bet.name for bet in chosen_custom])
            chosen_custom.extend(loaded)
    pay_changes: dict[str, Fraction | str | int] = {}
    pays = tuple(pays)
    if paytable is not None or pays:
        from exactodds.bets.paytables import load_paytable, parse_pay_option

        if paytable is not None:
            pay_changes |= load_paytable(paytable)
        for text in pays:
            name, value = parse_pay_option(text)
            pay_changes[name] = value
    if selection is None:
        selection = "main,custom" if chosen_custom else "main"
    return select_bets(selection, rules, pay_changes, chosen_custom)
