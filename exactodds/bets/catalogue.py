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
from fractions import Fraction

from exactodds.bets.bet import Bet, main_bets
from exactodds.bets.paytables import apply_pays
from exactodds.bets.side import side_bets
from exactodds.errors import BetError
from exactodds.rules import Rules

__all__ = ["MAIN_BET_NAMES", "available_bets", "select_bets"]

MAIN_BET_NAMES = ("banker", "player", "tie")


def available_bets(
    rules: Rules | None = None,
    pays: Mapping[str, Fraction | str | int] | None = None,
    custom: Iterable[Bet] = (),
) -> dict[str, Bet]:
    """Every bet by name: main bets under *rules*, side bets, then *custom* bets; pays applied.

    >>> list(available_bets())[:5]
    ['banker', 'player', 'tie', 'player_pair', 'banker_pair']
    """
    bets: dict[str, Bet] = {bet.name: bet for bet in main_bets(rules or Rules())}
    bets |= side_bets()
    for bet in custom:
        if bet.name in bets:
            raise BetError(
                f"Bet name {bet.name!r} is already taken; give the custom bet another name."
            )
        bets[bet.name] = bet
    return apply_pays(bets, pays or {})


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
                f"Unknown bet {token!r} in the bet selection; use main, side, all, or bet names "
                "such as banker, dragon7, lucky6 (exactodds bets lists them)."
            )
    if not chosen:
        raise BetError(
            f"Bet selection {selection!r} names no bet; use main, side, all, or bet names."
        )
    return [bet for name, bet in bets.items() if name in chosen]
