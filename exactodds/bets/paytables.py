"""Pay tables: changing what a bet pays, one pay or a whole file at a time.

A pay is named ``BET`` when the bet has one winning outcome
(``dragon7=30``, ``big=27/50``), or ``BET.OUTCOME`` otherwise
(``lucky6.three_card_win=23``, ``perfect_pair.both=250``).  A bare ``BET``
for a bet with several pays is refused with the outcomes to choose from, so
a pay such as ``12/23`` can never be misread as two pays.  Pays are "to 1"
and at least 0 (0 is a push); every number is read exactly.

>>> from exactodds.bets.side import side_bets
>>> bets = apply_pays(side_bets(), {"lucky6.three_card_win": "23", "dragon7": "30"})
>>> bets["lucky6"].pay("three_card_win"), bets["dragon7"].pay("win")
(Fraction(23, 1), Fraction(30, 1))
>>> apply_pays(side_bets(), {"lucky6": "23"})
Traceback (most recent call last):
...
exactodds.errors.PayError: Bet 'lucky6' has several pays (three_card_win, two_card_win); name one, e.g. lucky6.three_card_win=23.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

from exactodds.bets.bet import Bet
from exactodds.errors import PayError, quoted
from exactodds.inputs import load_json, load_toml, read_file, shown
from exactodds.numbers import check_digits, fraction_string, not_exact, parse_number

__all__ = [
    "apply_pays",
    "load_paytable",
    "parse_pay_option",
    "parse_paytable",
    "pay_change",
    "read_pays",
]


def pay_change(
    bet: str, outcome: str | None, value: object, what: str | None = None
) -> tuple[str, Fraction | int]:
    """One pay read exactly: the key :func:`apply_pays` takes (``BET`` or ``BET.OUTCOME``) and it.

    The one rule for reading a pay, whatever form it came in (``--pay`` text, a pay table
    file, a JSON object): a whole number is kept as it is, a :class:`~fractions.Fraction`, an
    exact :class:`~decimal.Decimal` or text such as ``"7/2"`` is read exactly; a float (binary,
    inexact) or a boolean is refused.  *what* names the pay in errors (by default the ``pay`` parameter and
    the key).  Whether the bet has that outcome, and may pay it, :func:`apply_pays` decides
    (a negative pay on a main bet is told which rule sets it).

    >>> pay_change("lucky6", "three_card_win", 23), pay_change("big", None, Decimal("0.54"))
    (('lucky6.three_card_win', 23), ('big', Fraction(27, 50)))
    >>> pay_change("dragon7", None, 30.5)
    Traceback (most recent call last):
    ...
    exactodds.errors.PayError: The float 30.5 for `pay` dragon7 is not exact; pass "30.5" (text) or Fraction(61, 2).
    """
    key = bet if outcome is None else f"{bet}.{outcome}"
    where = f"`pay` {_label(key)}" if what is None else what
    if isinstance(value, bool) or not isinstance(value, (int, str, Fraction, Decimal, float)):
        raise PayError(
            f"Pay {shown(value)} for {where} is not a number; use a number such as 30, "
            '"27/50" or 0.54.'
        )
    if isinstance(value, float):
        raise PayError(not_exact(value, where))
    exact = check_digits(value, where) if isinstance(value, int) else parse_number(value, where)
    return key, exact


def parse_pay_option(text: str) -> tuple[str, Fraction | int]:
    """Read one ``--pay NAME=PAY`` option (through :func:`pay_change`).

    >>> parse_pay_option("big=27/50")
    ('big', Fraction(27, 50))
    >>> parse_pay_option("dragon7")
    Traceback (most recent call last):
    ...
    exactodds.errors.PayError: Pay 'dragon7' has no value; use NAME=PAY such as dragon7=30 or lucky6.three_card_win=23.
    """
    if not isinstance(text, str):
        raise PayError(f"Pay {text!r} is not text; use NAME=PAY such as dragon7=30.")
    name, separator, value = text.partition("=")
    name = name.strip()
    if not separator or not name or not value.strip():
        raise PayError(
            f"Pay {quoted(text)} has no value; use NAME=PAY such as dragon7=30 or "
            "lucky6.three_card_win=23."
        )
    return pay_change(name, None, value)


def read_pays(data: Mapping[str, Any], source: str | None = None) -> dict[str, Fraction | int]:
    """Pays as an object (``{"dragon7": 30, "lucky6": {"three_card_win": 23}}``), read exactly.

    The form a JSON or TOML pay table holds and the web's ``pay`` field takes: a bet's name
    to its pay, or to an object of its outcomes' pays.  Each pay goes through
    :func:`pay_change`; *source* names where the object came from in errors (by default
    the ``pay`` parameter).

    >>> read_pays({"dragon7": 30, "lucky6": {"three_card_win": "23"}})
    {'dragon7': 30, 'lucky6.three_card_win': Fraction(23, 1)}
    >>> read_pays({"big": True})
    Traceback (most recent call last):
    ...
    exactodds.errors.PayError: Pay true for `pay` big is not a number; use a number such as 30, "27/50" or 0.54.
    """
    if not isinstance(data, Mapping):
        raise PayError(
            f"Pays {shown(data)} are not an object; use one such as "
            '{"dragon7": 30, "lucky6": {"three_card_win": 23}}.'
        )
    flat: dict[str, Fraction | int] = {}
    for bet, value in data.items():
        pays = value.items() if isinstance(value, Mapping) else [(None, value)]
        for outcome, pay in pays:
            key = bet if outcome is None else f"{bet}.{outcome}"
            what = None if source is None else f"{_label(key)} in {source}"
            name, exact = pay_change(bet, outcome, pay, what)
            flat[name] = exact
    return flat


def _label(name: str) -> str:
    """A pay's name as written, or quoted when it is long or holds odd characters."""
    return name if len(name) <= 60 and name.isprintable() and name.strip() == name else quoted(name)


def parse_paytable(text: str, source: str = "the pay table") -> dict[str, Fraction | int]:
    """Read a pay table from TOML or JSON text into ``{"BET" or "BET.OUTCOME": pay}``.

    Decimals are read exactly (``0.54`` is 27/50), in TOML and JSON alike.

    >>> parse_paytable('dragon7 = 30\\nbig = 0.54\\n[lucky6]\\nthree_card_win = 23\\n')
    {'dragon7': 30, 'big': Fraction(27, 50), 'lucky6.three_card_win': 23}
    >>> parse_paytable('{"big": [1]}', "pays.json")
    Traceback (most recent call last):
    ...
    exactodds.errors.PayError: Pay [1] for big in pays.json is not a number; use a number such as 30, "27/50" or 0.54.
    """
    if not isinstance(text, str):
        raise PayError(f"Pay table {text!r} is not text; use TOML or JSON text.")
    if text.lstrip("\ufeff \t\r\n").startswith("{"):
        data = load_json(text, source, PayError, 'use an object such as {"dragon7": 30}')
        if not isinstance(data, dict):  # pragma: no cover - text that starts with { is an object
            raise PayError(f'{source} must hold a JSON object such as {{"dragon7": 30}}.')
    else:
        data = load_toml(text, source, PayError, "use lines such as dragon7 = 30")
    return read_pays(data, source)


def load_paytable(path: str | Path) -> dict[str, Fraction | int]:
    """Read a pay table file (TOML or JSON)."""
    document = read_file(str(path), "pay table file", PayError)
    return parse_paytable(document.text, document.source)


def _winning_outcomes(bet: Bet) -> list[str]:
    return [outcome for outcome, pay in bet.pay_table.items() if pay > 0]


def apply_pays(bets: Mapping[str, Bet], pays: Mapping[str, Fraction | str | int]) -> dict[str, Bet]:
    """The bets with *pays* (``"BET"`` or ``"BET.OUTCOME"`` -> pay) applied.

    >>> from exactodds.bets.side import side_bets
    >>> apply_pays(side_bets(), {"dragon8": 1})
    Traceback (most recent call last):
    ...
    exactodds.errors.PayError: Unknown bet 'dragon8' in pay 'dragon8'; known bets: player_pair, banker_pair, either_pair, perfect_pair, dragon_bonus_player, dragon_bonus_banker, dragon7, panda8, big, small, egalite_0, egalite_1, egalite_2, egalite_3, egalite_4, egalite_5, egalite_6, egalite_7, egalite_8, egalite_9, lucky6, small_tiger, big_tiger, super6.
    """
    result = dict(bets)
    for key, raw in pays.items():
        bet_name, _, outcome = key.partition(".")
        if bet_name not in result:
            raise PayError(
                f"Unknown bet {bet_name!r} in pay {key!r}; known bets: {', '.join(result)}."
            )
        bet = result[bet_name]
        where = f"`pays` {_label(key)}"
        value = Fraction(pay_change(bet_name, outcome or None, raw, where)[1])
        if value < 0:
            raise PayError(
                f"Pay {fraction_string(value)} for {where} is not valid; pays are to 1 and at "
                "least 0 (0 is a push)."
            )
        table = bet.pay_table
        if not outcome:
            # Which outcome a bare name means is decided by the bet as it came, so an earlier
            # change (say win = 0 in a pay table) cannot change what the name refers to.
            winning = _winning_outcomes(bets[bet_name])
            if len(winning) != 1:
                choices = ", ".join(sorted(winning or set(table) - {"lose"}))
                example = sorted(winning or set(table) - {"lose"})[:1] or ["win"]
                raise PayError(
                    f"Bet {bet_name!r} has several pays ({choices}); name one, "
                    f"e.g. {bet_name}.{example[0]}={fraction_string(value)}."
                )
            outcome = winning[0]
        if outcome not in table:
            raise PayError(
                f"Bet {bet_name!r} has no outcome {outcome!r}; its outcomes are "
                f"{', '.join(sorted(table))}."
            )
        if outcome == "lose":
            raise PayError(
                f"The 'lose' outcome of {bet_name} always costs the stake; it has no pay to set."
            )
        table[outcome] = value
        result[bet_name] = replace(bet, pays=tuple(sorted(table.items())))
    return result
