"""A slow, obviously correct physical-card reference for chemin de fer as a game.

Nothing here comes from :mod:`exactodds.games`: the shoe's cards are laid out
one by one, every ordered six-card sequence is dealt (without replacement:
permutations of the physical cards; with replacement: every sequence of card
indices), and the round is played card by card from the printed rules for
each possible choice of the Player (at 5) and the Banker.  A strategy pair is
then scored by summing over the sequences.

>>> from exactodds import Shoe
>>> deals = Deals(Shoe.from_ranks({"5": 1, "K": 5}), "shoe", "total", "total")
>>> deals.player_choices, len(deals.banker_cells)
(('5',), 4)
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Mapping
from fractions import Fraction

from exactodds.shoe import Shoe

_VALUES = {"A": 1, "T": 0, "J": 0, "Q": 0, "K": 0, **{str(n): n for n in range(2, 10)}}
_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")

#: One dealt sequence, reduced to what the choices act on.
#: (player choice or None, {player draws: (banker cell, {banker draws: result})})
#: where result is +1 (Banker wins), -1 (Player wins) or 0 (tie).
Record = tuple[
    str | None, tuple[tuple[bool, tuple[tuple[str, str], tuple[tuple[bool, int], ...]]], ...]
]


def _total(cards: list[int]) -> int:
    return sum(cards) % 10


def _label(first: int, second: int) -> str:
    low, high = sorted((first, second))
    return f"{low}+{high}"


def _result(banker: list[int], player: list[int]) -> int:
    banker_total, player_total = _total(banker), _total(player)
    return (banker_total > player_total) - (player_total > banker_total)


def _play(values: tuple[int, ...], banker_sees: str, player_sees: str) -> Record:
    """Play one six-card sequence (P1 B1 P2 B2 then third cards in order) every way it can go."""
    player = [values[0], values[2]]
    banker = [values[1], values[3]]
    player_total, banker_total = _total(player), _total(banker)
    if player_total >= 8 or banker_total >= 8:
        result = _result(banker, player)
        return (None, ((False, (("natural", ""), ((True, result),))),))
    hand = _label(*banker) if banker_sees == "cards" else str(banker_total)
    choice = None
    if player_total <= 4:
        options = [True]
    elif player_total == 5:
        options = [False, True]
        choice = _label(*player) if player_sees == "cards" else "5"
    else:
        options = [False]
    branches = []
    for player_draws in options:
        if player_draws:
            final_player = [*player, values[4]]
            cell = (hand, str(values[4]))
            banker_card = values[5]
        else:
            final_player = player
            cell = (hand, "stood")
            banker_card = values[4]
        stands = _result(banker, final_player)
        draws = _result([*banker, banker_card], final_player)
        branches.append((player_draws, (cell, ((False, stands), (True, draws)))))
    return (choice, tuple(branches))


class Deals:
    """Every six-card sequence of a small shoe, played every way, counted.

    ``weights`` maps each distinct :data:`Record` to how many sequences give it;
    ``denominator`` is the number of sequences.
    """

    def __init__(self, shoe: Shoe, dealing: str, banker_sees: str, player_sees: str) -> None:
        cards = [
            _VALUES[rank]
            for rank, count in zip(_RANKS, shoe.rank_counts, strict=True)
            for _ in range(count)
        ]
        sequences: Iterator[tuple[int, ...]] = (
            itertools.permutations(cards, 6)
            if dealing == "shoe"
            else itertools.product(cards, repeat=6)
        )
        self.weights: Counter[Record] = Counter()
        self.denominator = 0
        for sequence in sequences:
            self.weights[_play(sequence, banker_sees, player_sees)] += 1
            self.denominator += 1
        choices = {choice for choice, _ in self.weights if choice is not None}
        cells = {
            cell
            for _, branches in self.weights
            for _, (cell, _) in branches
            if cell[0] != "natural"
        }
        self.player_choices = tuple(sorted(choices))
        self.banker_cells = tuple(sorted(cells))

    def payoffs(
        self,
        player: Mapping[str, Fraction],
        banker: Mapping[tuple[str, str], Fraction],
        commission: Fraction = Fraction(0),
    ) -> tuple[Fraction, Fraction]:
        """(Banker's, Player's) expected payoff per unit when each draws with these probabilities."""
        banker_total = Fraction(0)
        player_total = Fraction(0)
        for (choice, branches), count in self.weights.items():
            for player_draws, (cell, results) in branches:
                if choice is None:
                    player_weight = Fraction(1)
                else:
                    draw = player[choice]
                    player_weight = draw if player_draws else 1 - draw
                if not player_weight:
                    continue
                for banker_draws, result in results:
                    if cell[0] == "natural":
                        banker_weight = Fraction(1)
                    else:
                        draw = banker[cell]
                        banker_weight = draw if banker_draws else 1 - draw
                    weight = count * player_weight * banker_weight
                    if result > 0:
                        banker_total += weight * (1 - commission)
                        player_total -= weight
                    elif result < 0:
                        banker_total -= weight
                        player_total += weight
        return banker_total / self.denominator, player_total / self.denominator

    def pure_player_strategies(self) -> list[dict[str, Fraction]]:
        """Every pure Player strategy: draw (1) or stand (0) on each choice."""
        return [
            dict(zip(self.player_choices, (Fraction(bit) for bit in bits), strict=True))
            for bits in itertools.product((0, 1), repeat=len(self.player_choices))
        ]

    def pure_banker_strategies(self) -> list[dict[tuple[str, str], Fraction]]:
        """Every pure Banker strategy over the cells this shoe can reach."""
        return [
            dict(zip(self.banker_cells, (Fraction(bit) for bit in bits), strict=True))
            for bits in itertools.product((0, 1), repeat=len(self.banker_cells))
        ]
