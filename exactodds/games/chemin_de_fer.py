"""Baccara chemin de fer as a two-person game, solved exactly.

The rules of the round are Punto Banco's except for two people's choices.
The Player draws on 0-4 and stands on 6-7, but may draw or stand on a
two-card 5; the Banker may draw or stand in every cell of what he knows: his
own two cards (their total, or their composition by values) and whether the
Player stood or which value his face-up third card has.  A natural 8 or 9
ends the round.  The Banker wins a unit or loses one; a tie is a push.  With
a commission the Banker keeps only ``1 - commission`` of a win, and the game
is no longer zero-sum.

:func:`solve` counts every deal exactly (without replacement from any
:class:`~exactodds.shoe.Shoe`, or with replacement in the shoe's proportions),
builds the additive game of :mod:`exactodds.games.equilibria`, finds its
equilibria and checks each side's strategy against the other's, exactly.

The classic model of Kemeny and Snell (1957): cards dealt with replacement
from one deck, each side seeing only his total.

>>> classic = solve(Shoe.standard(decks=1), Model(dealing="replacement", banker_sees="total"))
>>> classic.player_draw_at_5
{'5': Fraction(9, 11)}
>>> classic.value
Fraction(679568, 53094899)
>>> [(cell.hand, cell.information, cell.draw) for cell in classic.differences_from_punto_banco()]
[('6', 'stood', Fraction(859, 2288))]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations_with_replacement
from typing import cast

from exactodds.engine.walk import falling_factorial
from exactodds.errors import ExactOddsError, ShoeError
from exactodds.games.equilibria import (
    AdditiveGame,
    Payoff,
    Profile,
    best_reply_failures,
    payoff_ranges,
    search_equilibria,
    solve_one_choice,
    solve_zero_sum,
)
from exactodds.numbers import exact_percent_string, parse_commission
from exactodds.rules import Tableau
from exactodds.shoe import Shoe

__all__ = [
    "BankerCell",
    "Equilibrium",
    "Model",
    "ModelError",
    "Solution",
    "build_game",
    "composition_weights",
    "solve",
]

DEALINGS = ("shoe", "replacement")
SIGHTS = ("total", "cards")
#: The Banker's information about the Player: he stood, or his third card's value.
INFORMATION = ("stood", *(str(value) for value in range(10)))
_STOOD = -1
#: Who is deciding what in a count: None (the Player's hand is forced), or (choice, draws).
_Situation = tuple[str, bool] | None
_Key = tuple[_Situation, tuple[str, int], bool]


class ModelError(ExactOddsError):
    """A chemin de fer model option is not one of the known ones.

    >>> Model(dealing="deck")
    Traceback (most recent call last):
    ...
    exactodds.games.chemin_de_fer.ModelError: Dealing 'deck' is not known; use shoe or replacement.
    """


@dataclass(frozen=True)
class Model:
    """Which game is solved: how cards are dealt, who sees what, and the commission.

    * ``dealing``: ``"shoe"`` (without replacement) or ``"replacement"`` (each
      card drawn with the shoe's proportions, the classic 1957 model).
    * ``banker_sees`` / ``player_sees``: ``"total"`` of his two cards, or his
      two ``"cards"`` (their composition by values).
    * ``commission``: the share of a Banker win kept by the house, 0 <= c < 1
      (:func:`~exactodds.numbers.parse_commission` reads ``"5%"`` and the like).

    >>> Model(commission=Fraction(5, 100)).commission
    Fraction(1, 20)
    >>> Model(player_sees="hand")
    Traceback (most recent call last):
    ...
    exactodds.games.chemin_de_fer.ModelError: The Player sees 'hand' is not known; use total or cards.
    """

    dealing: str = "shoe"
    banker_sees: str = "cards"
    player_sees: str = "total"
    commission: Fraction = field(default=Fraction(0))

    def __post_init__(self) -> None:
        if self.dealing not in DEALINGS:
            raise ModelError(f"Dealing {self.dealing!r} is not known; use shoe or replacement.")
        for who, sight in (("Banker", self.banker_sees), ("Player", self.player_sees)):
            if sight not in SIGHTS:
                raise ModelError(f"The {who} sees {sight!r} is not known; use total or cards.")
        commission = self.commission
        if not isinstance(commission, Fraction) or not 0 <= commission < 1:
            commission = parse_commission(commission, "the commission")
        object.__setattr__(self, "commission", commission)

    @property
    def zero_sum(self) -> bool:
        """No commission: what one side wins the other loses."""
        return self.commission == 0

    def describe(self) -> str:
        """One line naming the model.

        >>> Model().describe()
        'dealt without replacement; Banker sees his cards, Player sees his total; no commission (zero-sum)'
        """
        dealing = (
            "dealt without replacement" if self.dealing == "shoe" else "dealt with replacement"
        )
        banker = "his cards" if self.banker_sees == "cards" else "his total"
        player = "his cards" if self.player_sees == "cards" else "his total"
        if self.commission:
            commission = (
                f"{exact_percent_string(self.commission)} commission on Banker wins (bimatrix game)"
            )
        else:
            commission = "no commission (zero-sum)"
        return f"{dealing}; Banker sees {banker}, Player sees {player}; {commission}"


@dataclass(frozen=True)
class BankerCell:
    """One Banker decision: his hand (a total or a composition), what he knows of the Player, and his draw probability.

    >>> BankerCell("6", "stood", Fraction(1)).action
    'draw'
    """

    hand: str
    information: str
    draw: Fraction

    @property
    def total(self) -> int:
        """The Banker's two-card total."""
        return sum(int(value) for value in self.hand.split("+")) % 10

    @property
    def action(self) -> str:
        """``"draw"``, ``"stand"``, or the exact draw probability as ``"n/d"``."""
        if self.draw == 1:
            return "draw"
        if self.draw == 0:
            return "stand"
        return f"{self.draw.numerator}/{self.draw.denominator}"

    @property
    def punto_banco_draws(self) -> bool:
        """Whether the Punto Banco tableau draws in this cell."""
        tableau = Tableau.standard()
        third = None if self.information == "stood" else int(self.information)
        return tableau.banker_draws_on(self.total, third)

    @property
    def differs_from_punto_banco(self) -> bool:
        """Whether this cell's action is not the Punto Banco tableau's."""
        return self.draw != (1 if self.punto_banco_draws else 0)


@dataclass(frozen=True)
class Equilibrium:
    """A Nash equilibrium: both strategies, both expected payoffs per unit, exactly.

    ``player_draw_at_5`` maps each hand the Player can tell apart (``"5"``, or a
    composition such as ``"1+4"``) to his probability of drawing.  When
    ``player_draw_at_5_up_to`` is set, every Player strategy between the two is
    also in equilibrium with this Banker strategy.  ``banker_unique`` says
    whether this Banker strategy is the only one in equilibrium with the
    Player's, ``player_unique`` whether the Player's is the only one in
    equilibrium with the Banker's.  ``verified`` is set only after each side's strategy was checked
    to be a best reply to the other's, choice by choice, exactly.

    >>> equilibrium = solve(Shoe.standard(decks=8)).equilibria[0]
    >>> equilibrium.verified, equilibrium.banker_payoff == -equilibrium.player_payoff
    (True, True)
    """

    player_draw_at_5: Mapping[str, Fraction]
    banker: tuple[BankerCell, ...]
    banker_payoff: Fraction
    player_payoff: Fraction
    banker_unique: bool = True
    player_draw_at_5_up_to: Mapping[str, Fraction] | None = None
    verified: bool = False
    player_unique: bool = True
    #: (lowest, highest) payoff over the equilibria this one stands for: a Player interval,
    #: or every Banker strategy in equilibrium with the Player's.  Equal ends: one payoff.
    banker_payoff_range: tuple[Fraction, Fraction] | None = None
    player_payoff_range: tuple[Fraction, Fraction] | None = None
    #: Set when the payoffs depend on the Player's draws only through their average weighted by
    #: how often each composition is dealt (with replacement): only this value is determined.
    player_draw_at_5_weighted: Fraction | None = None


@dataclass(frozen=True)
class Solution:
    """The solved game: the model, the shoe, and the equilibria found.

    ``value`` is the Banker's expected payoff per unit at equilibrium in the
    zero-sum game (the value of the game), else ``None``.  ``complete`` says
    whether ``equilibria`` lists them all: always with Foster's algorithm;
    with the linear program when it proves both optimal strategies unique;
    with the bimatrix search when its exact checks prove the list complete.

    >>> solution = solve(Shoe.standard(decks=2), Model(commission=Fraction(1, 20)))
    >>> solution.value is None, len(solution.equilibria), solution.banker_cells
    (True, 1, 484)
    """

    model: Model
    shoe: Shoe
    equilibria: tuple[Equilibrium, ...]
    value: Fraction | None
    method: str
    complete: bool
    banker_cells: int
    player_choices: int
    #: Why the list is not every equilibrium, when it is not (one sentence), else "".
    incomplete_because: str = ""

    @property
    def player_draw_at_5(self) -> Mapping[str, Fraction]:
        """The first equilibrium's Player strategy (the only one, usually)."""
        return self.equilibria[0].player_draw_at_5

    def differences_from_punto_banco(self, index: int = 0) -> tuple[BankerCell, ...]:
        """The Banker cells of equilibrium *index* whose action is not the Punto Banco tableau's."""
        return tuple(
            cell for cell in self.equilibria[index].banker if cell.differs_from_punto_banco
        )


def _label(cards: tuple[int, int]) -> str:
    return f"{cards[0]}+{cards[1]}"


@dataclass
class _Counts:
    """Integer counts of (Banker wins, Player wins) per situation, cell and Banker action."""

    denominator: int
    natural: list[int]
    table: dict[_Key, list[int]]
    classes: list[str]


def _count(values: tuple[int, ...], model: Model) -> _Counts:
    """Count every deal by the values of its cards, as sequences of six cards.

    A round that uses fewer than six cards is weighted by the number of ways
    to deal the unused positions, so every count shares one denominator,
    ``(N)_6`` without replacement or ``N**6`` with it.
    """
    replacement = model.dealing == "replacement"
    cards = sum(values)
    if replacement:
        denominator = cards**6
        pads = [cards ** (6 - used) for used in range(7)]
    else:
        denominator = falling_factorial(cards, 6)
        pads = [falling_factorial(cards - used, 6 - used) for used in range(7)]
    table: dict[_Key, list[int]] = {}
    natural = [0, 0]
    classes: set[str] = set()
    hands = list(combinations_with_replacement(range(10), 2))

    def add(key: _Key, banker_total: int, player_total: int, weight: int) -> None:
        entry = table.get(key)
        if entry is None:
            entry = table[key] = [0, 0]
        if banker_total > player_total:
            entry[0] += weight
        elif player_total > banker_total:
            entry[1] += weight

    for player in hands:
        for banker in hands:
            used = [0] * 10
            weight = (1 if player[0] == player[1] else 2) * (1 if banker[0] == banker[1] else 2)
            for value in player + banker:
                weight *= values[value] - (0 if replacement else used[value])
                used[value] += 1
                if weight <= 0:
                    break
            if weight <= 0:
                continue
            left = values if replacement else tuple(values[v] - used[v] for v in range(10))
            player_total = (player[0] + player[1]) % 10
            banker_total = (banker[0] + banker[1]) % 10
            if player_total >= 8 or banker_total >= 8:
                scaled = weight * pads[4]
                if banker_total > player_total:
                    natural[0] += scaled
                elif player_total > banker_total:
                    natural[1] += scaled
                continue
            hand = _label(banker) if model.banker_sees == "cards" else str(banker_total)
            situations: list[tuple[_Situation, bool]]
            if player_total == 5:
                choice = _label(player) if model.player_sees == "cards" else "5"
                classes.add(choice)
                situations = [((choice, False), False), ((choice, True), True)]
            else:
                situations = [(None, player_total <= 4)]
            for situation, draws in situations:
                if not draws:
                    cell = (hand, _STOOD)
                    add((situation, cell, False), banker_total, player_total, weight * pads[4])
                    for third in range(10):
                        if left[third] > 0:
                            add(
                                (situation, cell, True),
                                (banker_total + third) % 10,
                                player_total,
                                weight * left[third] * pads[5],
                            )
                    continue
                for card in range(10):
                    if left[card] <= 0:
                        continue
                    drawn = weight * left[card]
                    total = (player_total + card) % 10
                    cell = (hand, card)
                    add((situation, cell, False), banker_total, total, drawn * pads[5])
                    for third in range(10):
                        remaining = left[third] - (1 if third == card and not replacement else 0)
                        if remaining > 0:
                            add(
                                (situation, cell, True),
                                (banker_total + third) % 10,
                                total,
                                drawn * remaining,
                            )
    return _Counts(denominator, natural, table, sorted(classes))


def _hand_order(hand: str) -> tuple[int, str]:
    return (sum(int(value) for value in hand.split("+")) % 10, hand)


def build_game(shoe: Shoe, model: Model) -> AdditiveGame:
    """The additive game of *model* on *shoe*, every payoff an exact Fraction per unit bet.

    Player choices are labelled ``"5"`` or a composition like ``"1+4"``;
    Banker cells are ``(hand, information)`` pairs, ``information`` being
    ``"stood"`` or the Player's third-card value ``"0"``-``"9"``.

    >>> game = build_game(Shoe.standard(decks=1), Model(dealing="replacement", banker_sees="total"))
    >>> game.player_choices, len(game.banker_cells), game.banker_cells[:2]
    (('5',), 88, (('0', 'stood'), ('0', '0')))
    >>> build_game(Shoe.from_ranks({"K": 5}), Model())
    Traceback (most recent call last):
    ...
    exactodds.errors.ShoeError: The shoe holds 5 cards; chemin de fer deals up to 6, so the shoe needs at least 6 when dealt without replacement.
    """
    values = shoe.value_counts
    if shoe.infinite and model.dealing == "shoe":
        raise ShoeError(
            "The shoe is infinite, so every card is drawn with replacement; use "
            'Model(dealing="replacement"), or a shoe of a whole number of decks.'
        )
    if model.dealing == "shoe" and shoe.cards < 6:
        raise ShoeError(
            f"The shoe holds {shoe.cards} cards; chemin de fer deals up to 6, so the shoe "
            "needs at least 6 when dealt without replacement."
        )
    if shoe.cards == 0:
        raise ShoeError("The shoe is empty; dealing with replacement needs at least one card.")
    counts = _count(values, model)
    choices = counts.classes
    index = {label: position for position, label in enumerate(choices)}
    cells = sorted(
        {cell for (_, cell, _) in counts.table},
        key=lambda cell: (_hand_order(cell[0]), cell[1]),
    )
    cell_index = {cell: position for position, cell in enumerate(cells)}
    keep = 1 - model.commission
    # Per side: constant, linear (per choice), cell (per cell), coupling (cell x choice),
    # all in counts; divided by the denominator at the end.
    sides = []
    for banker_side in (True, False):
        constant = Fraction(0)
        linear = [Fraction(0)] * len(choices)
        cell_terms = [Fraction(0)] * len(cells)
        coupling = [[Fraction(0)] * len(choices) for _ in cells]
        banker_wins, player_wins = counts.natural
        constant += banker_wins * keep - player_wins if banker_side else player_wins - banker_wins
        for (situation, cell, draws), (banker_wins, player_wins) in counts.table.items():
            payoff = (
                banker_wins * keep - player_wins
                if banker_side
                else Fraction(player_wins - banker_wins)
            )
            if not payoff:
                continue
            position = cell_index[cell]
            # U = sum_c [stand_c(p) + q_c (draw_c(p) - stand_c(p))]; each term is linear in p.
            sign = 1 if draws else -1
            terms: list[tuple[int | None, Fraction]]
            if situation is None:
                terms = [(None, Fraction(payoff))]
            else:
                label, player_draws = situation
                if player_draws:
                    terms = [(index[label], payoff)]
                else:
                    terms = [(None, payoff), (index[label], -payoff)]
            for choice, amount in terms:
                if choice is None:
                    if not draws:
                        constant += amount
                    cell_terms[position] += sign * amount
                else:
                    if not draws:
                        linear[choice] += amount
                    coupling[position][choice] += sign * amount
        scale = Fraction(1, counts.denominator)
        sides.append(
            Payoff(
                constant * scale,
                tuple(value * scale for value in linear),
                tuple(value * scale for value in cell_terms),
                tuple(tuple(value * scale for value in row) for row in coupling),
            )
        )
    labels = tuple((hand, INFORMATION[information + 1]) for hand, information in cells)
    return AdditiveGame(tuple(choices), labels, sides[0], sides[1])


def composition_weights(game: AdditiveGame) -> tuple[Fraction, ...] | None:
    """Weights w (summing to 1) when every payoff depends on the Player's draws p only via w . p.

    With replacement, each two-card 5 the Player can tell apart leads to the same future: the
    payoffs' terms in his draw probabilities are then proportional, choice by choice, to how
    often each composition is dealt, and only the weighted average is determined.  None when
    the Player has at most one choice or his choices are not interchangeable so.
    """
    if len(game.player_choices) < 2:
        return None
    columns = [
        [side.linear[j] for side in (game.banker, game.player)]
        + [row[j] for side in (game.banker, game.player) for row in side.coupling]
        for j in range(len(game.player_choices))
    ]
    pivot = next((index for index, value in enumerate(columns[0]) if value != 0), None)
    if pivot is None:
        return None
    ratios = []
    for column in columns:
        ratio = column[pivot] / columns[0][pivot]
        if ratio <= 0 or any(
            value != ratio * first for value, first in zip(column, columns[0], strict=True)
        ):
            return None
        ratios.append(ratio)
    total = sum(ratios)
    return tuple(ratio / total for ratio in ratios)


def _equilibrium(
    game: AdditiveGame, profile: Profile, weights: tuple[Fraction, ...] | None = None
) -> Equilibrium:
    failures = best_reply_failures(game, profile)
    if failures:  # pragma: no cover - a solver bug
        raise AssertionError(" ".join(failures))
    player = dict(zip(game.player_choices, profile.player, strict=True))
    up_to = None
    if profile.player_up_to is not None:
        up_to = dict(zip(game.player_choices, profile.player_up_to, strict=True))
        upper = Profile(profile.player_up_to, profile.banker)
        if best_reply_failures(game, upper):  # pragma: no cover - a solver bug
            raise AssertionError("The interval's far end is not in equilibrium.")
    banker = tuple(
        BankerCell(*cast(tuple[str, str], label), probability)
        for label, probability in zip(game.banker_cells, profile.banker, strict=True)
    )
    banker_range, player_range = payoff_ranges(game, profile)
    weighted = (
        sum((w * p for w, p in zip(weights, profile.player, strict=True)), Fraction(0))
        if weights is not None
        else None
    )
    return Equilibrium(
        player_draw_at_5={str(label): value for label, value in player.items()},
        banker=banker,
        banker_payoff=game.banker.value(profile.player, profile.banker),
        player_payoff=game.player.value(profile.player, profile.banker),
        banker_unique=profile.banker_unique,
        player_unique=profile.player_unique and profile.player_up_to is None,
        player_draw_at_5_up_to=(
            {str(label): value for label, value in up_to.items()} if up_to is not None else None
        ),
        verified=True,
        banker_payoff_range=banker_range,
        player_payoff_range=player_range,
        player_draw_at_5_weighted=weighted,
    )


def solve(shoe: Shoe | None = None, model: Model | None = None, *, max_mixed: int = 5) -> Solution:
    """Solve chemin de fer exactly for *shoe* (default 6 decks) under *model*.

    With one Player choice (he sees his total), Foster's algorithm finds every
    equilibrium.  With several (he sees his cards), the zero-sum game is
    solved by an exact linear program (which also tells whether the optimal
    strategies are unique), and the bimatrix game by a search of every
    equilibrium whose Player strategy is a vertex of the Banker's
    indifference hyperplanes, mixing in at most *max_mixed* compositions,
    with exact checks that prove the list complete when it is.

    >>> solution = solve(Shoe.standard(decks=6))
    >>> solution.player_draw_at_5, solution.complete
    ({'5': Fraction(477191, 592524)}, True)
    >>> solve(Shoe.standard(decks=1), Model(commission=Fraction(1)))
    Traceback (most recent call last):
    ...
    exactodds.errors.RulesError: Commission 1 for the commission is not valid; use a value from 0 up to but not including 1 (100%), such as 5%, 0.05 or 1/20.
    """
    shoe = shoe if shoe is not None else Shoe.standard(decks=6)
    model = model if model is not None else Model()
    game = build_game(shoe, model)
    if len(game.player_choices) <= 1:
        profiles = solve_one_choice(game)
        method = "Foster's algorithm (every equilibrium)"
        complete = True
    elif game.zero_sum:
        optimal = solve_zero_sum(game)
        profiles = (optimal,)
        complete = optimal.player_unique and optimal.banker_unique
        method = "exact linear program" + (
            " (both optimal strategies proved unique)" if complete else " (an optimal pair)"
        )
    else:
        profiles = search_equilibria(game, max_mixed)
        complete = (
            bool(profiles)
            and max_mixed >= len(game.player_choices)
            and all(profile.banker_unique and profile.player_unique for profile in profiles)
        )
        method = "vertex search" + (
            " (every equilibrium, proved complete)"
            if complete
            else " (every equilibrium whose Player strategy the Banker's indifferences pin down"
            + ("" if max_mixed >= 5 else f", mixing in at most {max_mixed} compositions")
            + ")"
        )
    weights = composition_weights(game) if model.dealing == "replacement" else None
    equilibria = tuple(_equilibrium(game, profile, weights) for profile in profiles)
    value = equilibria[0].banker_payoff if game.zero_sum and equilibria else None
    reasons = []
    if weights is not None:
        reasons.append(
            "with replacement only the Player's draw probability on 5 weighted by how often each "
            "composition is dealt is determined: every split of it is in equilibrium, one is shown"
        )
    if any(not profile.banker_unique for profile in profiles):
        reasons.append(
            "the Banker's equilibrium strategies form a continuum: one is shown, with the range "
            "of each payoff over them"
        )
    if reasons:
        complete = False
    elif not complete:
        reasons.append("the search could not prove that no other equilibrium exists")
    if reasons and method.startswith("Foster"):
        method = "Foster's algorithm (every Player strategy in equilibrium; see below)"
    because = "; ".join(reasons)
    because = because[:1].upper() + because[1:] + "." if because else ""
    return Solution(
        model=model,
        shoe=shoe,
        equilibria=equilibria,
        value=value,
        method=method,
        complete=complete,
        banker_cells=len(game.banker_cells),
        player_choices=len(game.player_choices),
        incomplete_because=because,
    )
