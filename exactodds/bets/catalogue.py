"""Choosing bets: the main bets, the side-bet catalogue, user-defined bets, and their pays.

:func:`select_bets` turns a selection such as ``"main"``, ``"side"``,
``"all"`` or ``"banker,dragon7,lucky6"`` into :class:`~exactodds.bets.bet.Bet`
objects, with the rules' settlement for the main bets, any pay changes, and
any user-defined bets.

>>> [bet.name for bet in select_bets("main,dragon7")]
['banker', 'player', 'tie', 'dragon7']
>>> select_bets("lucky6", pays={"lucky6.three_card_win": 23})[0].pay("three_card_win")
Fraction(23, 1)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from exactodds.bets.bet import Bet, main_bets
from exactodds.bets.paytables import apply_pays
from exactodds.bets.side import side_bets
from exactodds.errors import BetError, PayError, quoted
from exactodds.numbers import fraction_string
from exactodds.rules import Rules

__all__ = ["MAIN_BET_NAMES", "BetList", "available_bets", "select_bets"]

MAIN_BET_NAMES = ("banker", "player", "tie")


@dataclass(frozen=True)
class BetList:
    """Bets as ``exactodds bets`` lists them, in order: each with its pays and description.

    >>> BetList.of(select_bets("tie")).to_dict()
    {'tie': {'description': 'The hands tie.', 'needs_suits': False, 'pays': {'lose': '-1', 'win': '8'}}}
    >>> BetList.of(["tie"])
    Traceback (most recent call last):
    ...
    exactodds.errors.BetError: A bet list holds bets, not 'tie'; choose them with select_bets.
    """

    bets: tuple[Bet, ...]

    @classmethod
    def of(cls, bets: Iterable[Bet]) -> BetList:
        """The list of *bets*, in their order."""
        chosen = tuple(bets)
        for bet in chosen:
            if not isinstance(bet, Bet):
                raise BetError(
                    f"A bet list holds bets, not {quoted(repr(bet))[1:-1]}; choose them with "
                    "select_bets."
                )
        return cls(chosen)

    def to_dict(self) -> dict[str, Any]:
        """Each bet's description, whether it needs suits, and its pays as exact ``"n/d"``."""
        return {
            bet.name: {
                "description": bet.description,
                "needs_suits": bet.needs_suits,
                "pays": {outcome: fraction_string(pay) for outcome, pay in bet.pay_table.items()},
            }
            for bet in self.bets
        }


def available_bets(
    rules: Rules | None = None,
    pays: Mapping[str, Fraction | str | int] | None = None,
    custom: Iterable[Bet] = (),
) -> dict[str, Bet]:
    """Every bet by name: main bets under *rules*, side bets, then *custom* bets; pays applied.

    The main bets' pays are part of *rules* (commission, Tie pay, ties push or lose, the
    variant), so a pay that names one is refused with the rule to use instead: the rules a
    report shows and the EV it prints can never disagree.

    >>> list(available_bets())[:5]
    ['banker', 'player', 'tie', 'player_pair', 'banker_pair']
    >>> available_bets(pays={"tie": 9})
    Traceback (most recent call last):
    ...
    exactodds.errors.PayError: The Tie pay is one of the rules; set it with `tie_pays` 9 (Rules(tie_pays=9)), not as pay 'tie', so that the rules shown and the odds agree.
    """
    if rules is not None and not isinstance(rules, Rules):
        raise BetError(f"rules is {_short(rules)}; use Rules(), such as Rules(commission='4%').")
    if pays is not None and not isinstance(pays, Mapping):
        raise PayError(f"pays is {_short(pays)}; use a mapping such as {{'dragon7': 30}}.")
    for key, value in (pays or {}).items():
        if not isinstance(key, str):
            raise PayError(f"Pay name {_short(key)} is not text; use a name such as 'dragon7'.")
        _refuse_main_pay(key, value)
    bets: dict[str, Bet] = {bet.name: bet for bet in main_bets(rules or Rules())}
    bets |= side_bets()
    if isinstance(custom, (str, bytes)) or not isinstance(custom, Iterable):
        raise BetError(f"custom is {_short(custom)}; use a list of Bet objects.")
    for bet in custom:
        if not isinstance(bet, Bet):
            raise BetError(f"Custom bet {_short(bet)} is not a Bet; use load_custom_bets(path).")
        if bet.name in bets:
            raise BetError(
                f"Bet name {bet.name!r} is already taken; give the custom bet another name."
            )
        bets[bet.name] = bet
    return apply_pays(bets, pays or {})


def _short(value: object) -> str:
    return quoted(repr(value), 40)[1:-1]


def _refuse_main_pay(key: str, value: object) -> None:
    """Refuse a pay on a main bet: the rules settle those, and the report shows the rules."""
    bet, _, outcome = key.strip().partition(".")
    if bet not in MAIN_BET_NAMES:
        return
    shown_value = fraction_string(value) if isinstance(value, (int, Fraction)) else str(value)
    if bet == "tie" and outcome in ("", "win"):
        rule = f"The Tie pay is one of the rules; set it with `tie_pays` {shown_value} (Rules(tie_pays={shown_value}))"
    elif outcome == "tie":
        rule = (
            "Whether Banker and Player bets push or lose on a tie is one of the rules; set it "
            "with `tie_loses` (Rules(ties_push=False))"
        )
    elif bet == "banker":
        rule = (
            "The Banker pay is one of the rules; set it with `commission`, such as 4% "
            "(Rules(commission='4%')), or `variant` ez or super6"
        )
    else:
        rule = f"The {bet.capitalize()} bet is settled by the rules (1:1, or as the variant says)"
    raise PayError(f"{rule}, not as pay {quoted(key)}, so that the rules shown and the odds agree.")


def select_bets(
    selection: str = "main",
    rules: Rules | None = None,
    pays: Mapping[str, Fraction | str | int] | None = None,
    custom: Iterable[Bet] = (),
) -> list[Bet]:
    """The bets *selection* names, in catalogue order, without repeats.

    *selection* is a comma-separated list of ``main``, ``side``, ``custom``,
    ``all`` and bet names.

    >>> len(select_bets("all")), len(select_bets("side"))
    (27, 24)
    """
    if not isinstance(selection, str):
        raise BetError(
            f"Bet selection {_short(selection)} is not text; use main, side, all, or bet names "
            "such as 'banker,dragon7'."
        )
    if isinstance(custom, (str, bytes)) or not isinstance(custom, Iterable):
        raise BetError(f"custom is {_short(custom)}; use a list of Bet objects.")
    custom = tuple(custom)
    bets = available_bets(rules, pays, custom)
    custom_names = [bet.name for bet in custom]
    groups = {
        "main": list(MAIN_BET_NAMES),
        "side": [name for name in side_bets()],
        "custom": custom_names,
        "all": list(bets),
    }
    chosen: set[str] = set()
    for token in selection.split(","):
        token = token.strip()
        if not token:
            continue
        if token in groups:
            chosen.update(groups[token])
        elif token in bets:
            chosen.add(token)
        else:
            raise BetError(
                f"Unknown bet {quoted(token)} in the bet selection; use main, side, all, or bet names "
                "such as banker, dragon7, lucky6 (exactodds bets lists them)."
            )
    if not chosen:
        raise BetError(
            f"Bet selection {quoted(selection)} names no bet; use main, side, all, or bet names."
        )
    return [bet for name, bet in bets.items() if name in chosen]
