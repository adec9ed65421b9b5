"""The catalogue of common baccarat side bets, with their usual pay tables.

Each side bet is a :class:`~exactodds.bets.bet.Bet` like the main bets: a settle
function from a round summary to an outcome name, and a pay table "to 1"
(a loss is ``-1``, a push ``0``).  The names are the CLI and JSON keys.
Pays are the common ones; :func:`~exactodds.bets.paytables.apply_pays` changes
them for the casino at hand.

>>> bets = side_bets()
>>> bets["dragon7"].pay_table
{'lose': Fraction(-1, 1), 'win': Fraction(40, 1)}
>>> sorted(bets["lucky6"].pay_table.items())[1:]
[('three_card_win', Fraction(20, 1)), ('two_card_win', Fraction(12, 1))]
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from exactodds.bets.bet import Bet
from exactodds.engine.walk import RoundSummary, Winner

__all__ = ["DRAGON_BONUS_PAYS", "EGALITE_PAYS", "SIDE_BET_NAMES", "side_bets"]

#: Dragon Bonus pays for a non-natural win by this many points (less than 4 loses).
DRAGON_BONUS_PAYS: dict[int, int] = {9: 30, 8: 10, 7: 6, 6: 4, 5: 2, 4: 1}

#: Egalité pays for a tie on each total.
EGALITE_PAYS: dict[int, int] = {
    0: 150,
    1: 215,
    2: 225,
    3: 200,
    4: 120,
    5: 110,
    6: 45,
    7: 45,
    8: 80,
    9: 80,
}


def _win_if(condition: Callable[[RoundSummary], bool]) -> Callable[[RoundSummary], str]:
    def settle(summary: RoundSummary) -> str:
        return "win" if condition(summary) else "lose"

    return settle


def _player_pair(summary: RoundSummary) -> bool:
    return summary.player_pair


def _banker_pair(summary: RoundSummary) -> bool:
    return summary.banker_pair


def _either_pair(summary: RoundSummary) -> bool:
    return summary.player_pair or summary.banker_pair


def _settle_perfect_pair(summary: RoundSummary) -> str:
    suited = int(bool(summary.player_suited_pair)) + int(bool(summary.banker_suited_pair))
    return ("lose", "one", "both")[suited]


def _dragon_bonus(side: Winner) -> Callable[[RoundSummary], str]:
    def settle(summary: RoundSummary) -> str:
        own_natural = summary.player_natural if side is Winner.PLAYER else summary.banker_natural
        if summary.winner is Winner.TIE:
            if summary.player_natural and summary.banker_natural:
                return "natural_tie"
            return "lose"
        if summary.winner is not side:
            return "lose"
        if own_natural:
            return "natural_win"
        if summary.margin >= 4:
            return f"win_by_{summary.margin}"
        return "lose"

    return settle


def _dragon7(summary: RoundSummary) -> bool:
    return (
        summary.winner is Winner.BANKER and summary.banker_cards == 3 and summary.banker_total == 7
    )


def _panda8(summary: RoundSummary) -> bool:
    return (
        summary.winner is Winner.PLAYER and summary.player_cards == 3 and summary.player_total == 8
    )


def _big(summary: RoundSummary) -> bool:
    return summary.cards_dealt >= 5


def _small(summary: RoundSummary) -> bool:
    return summary.cards_dealt == 4


def _egalite(total: int) -> Callable[[RoundSummary], bool]:
    def condition(summary: RoundSummary) -> bool:
        return summary.winner is Winner.TIE and summary.player_total == total

    return condition


def _banker_wins_with_six(summary: RoundSummary) -> bool:
    return summary.winner is Winner.BANKER and summary.banker_total == 6


def _settle_lucky6(summary: RoundSummary) -> str:
    if not _banker_wins_with_six(summary):
        return "lose"
    return "two_card_win" if summary.banker_cards == 2 else "three_card_win"


def _small_tiger(summary: RoundSummary) -> bool:
    return _banker_wins_with_six(summary) and summary.banker_cards == 2


def _big_tiger(summary: RoundSummary) -> bool:
    return _banker_wins_with_six(summary) and summary.banker_cards == 3


_LOSE = Fraction(-1)


def _pair_bets() -> list[Bet]:
    lose = _LOSE
    return [
        Bet(
            "player_pair",
            "The Player's first two cards are the same rank.",
            _win_if(_player_pair),
            {"win": 11, "lose": lose},
        ),
        Bet(
            "banker_pair",
            "The Banker's first two cards are the same rank.",
            _win_if(_banker_pair),
            {"win": 11, "lose": lose},
        ),
        Bet(
            "either_pair",
            "Either hand's first two cards are the same rank.",
            _win_if(_either_pair),
            {"win": 5, "lose": lose},
        ),
        Bet(
            "perfect_pair",
            "A suited pair (same rank and suit) in either hand's first two cards; "
            "'both' when both hands have one.",
            _settle_perfect_pair,
            {"one": 25, "both": 25, "lose": lose},
            needs_suits=True,
        ),
    ]


def _dragon_bonus_bets() -> list[Bet]:
    lose, bets = _LOSE, []
    for side in (Winner.PLAYER, Winner.BANKER):
        pays: dict[str, Fraction | int] = {"natural_win": 1, "natural_tie": 0, "lose": lose}
        pays |= {f"win_by_{margin}": pay for margin, pay in DRAGON_BONUS_PAYS.items()}
        bets.append(
            Bet(
                f"dragon_bonus_{side.value}",
                f"{side.value.capitalize()} wins with a natural (1), or without one by 4 or "
                "more points (1 to 30); a tie of naturals pushes.",
                _dragon_bonus(side),
                pays,
            )
        )
    return bets


def _total_bets() -> list[Bet]:
    lose = _LOSE
    bets = [
        Bet(
            "dragon7",
            "Banker wins with a three-card 7.",
            _win_if(_dragon7),
            {"win": 40, "lose": lose},
        ),
        Bet(
            "panda8",
            "Player wins with a three-card 8.",
            _win_if(_panda8),
            {"win": 25, "lose": lose},
        ),
        Bet(
            "big",
            "Five or six cards are dealt.",
            _win_if(_big),
            {"win": Fraction(27, 50), "lose": lose},
        ),
        Bet(
            "small", "Four cards are dealt.", _win_if(_small), {"win": Fraction(3, 2), "lose": lose}
        ),
    ]
    for total, pay in EGALITE_PAYS.items():
        bets.append(
            Bet(
                f"egalite_{total}",
                f"The hands tie on {total}.",
                _win_if(_egalite(total)),
                {"win": pay, "lose": lose},
            )
        )
    return bets


def _six_bets() -> list[Bet]:
    lose = _LOSE
    return [
        Bet(
            "lucky6",
            "Banker wins with 6 (also sold as Tiger): two-card and three-card wins pay differently.",
            _settle_lucky6,
            {"two_card_win": 12, "three_card_win": 20, "lose": lose},
        ),
        Bet(
            "small_tiger",
            "Banker wins with a two-card 6.",
            _win_if(_small_tiger),
            {"win": 22, "lose": lose},
        ),
        Bet(
            "big_tiger",
            "Banker wins with a three-card 6.",
            _win_if(_big_tiger),
            {"win": 50, "lose": lose},
        ),
        Bet(
            "super6",
            "Banker wins with 6.",
            _win_if(_banker_wins_with_six),
            {"win": 12, "lose": lose},
        ),
    ]


def _catalogue() -> dict[str, Bet]:
    bets = [*_pair_bets(), *_dragon_bonus_bets(), *_total_bets(), *_six_bets()]
    return {bet.name: bet for bet in bets}


_CATALOGUE = _catalogue()

#: Every side bet's name, in catalogue order.
SIDE_BET_NAMES: tuple[str, ...] = tuple(_CATALOGUE)


def side_bets() -> dict[str, Bet]:
    """Every side bet in the catalogue, keyed by name, with its common pay table.

    >>> len(side_bets()), "egalite_6" in side_bets()
    (24, True)
    """
    return dict(_CATALOGUE)
