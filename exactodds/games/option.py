"""A tableau with choice cells, solved exactly: the Player's option at 5 and its kin.

A rules file may mark any cell of the tableau as a ``"choice"``
(:class:`~exactodds.rulefiles.TableauChoices`): the Player chooses on his
two-card totals so marked, the Banker in his marked cells; every other cell is
forced.  The Player decides seeing his two cards (by default: their values, as
an unordered pair such as ``0+5``, since in a finite shoe the composition
changes what is left) or only their total; the Banker likewise.

Each side's payoff is its bet: the Player's bet pays 1:1, the Banker's 1:1 less
the commission, Player and Banker push (or lose) on a tie, as the
:class:`~exactodds.rules.Rules` say.  With choices on one side only the answer
is that side's best reply, choice by choice; with choices on both sides it is
an equilibrium, found by the solvers of :mod:`exactodds.games.equilibria`
(Foster's algorithm, an exact linear program, or the vertex search), each
checked exactly.

Counting is chemin de fer's (:mod:`exactodds.games.chemin_de_fer`): every deal
by its cards' values, as six-card sequences with one integer denominator.

>>> from exactodds.rulefiles import parse_rules_file, format_rules_file
>>> text = format_rules_file(Tableau.standard()).replace("player_draws = [0, 1, 2, 3, 4, 5]",
...     'player_draws = {0 = true, 1 = true, 2 = true, 3 = true, 4 = true, 5 = "choice", '
...     '6 = false, 7 = false, 8 = false, 9 = false}')
>>> solution = solve_option(Shoe.standard(decks=8), parse_rules_file(text))
>>> [(hand.label, hand.action) for hand in solution.player_hands]
[('0+5', 'draw'), ('1+4', 'draw'), ('2+3', 'draw'), ('6+9', 'draw'), ('7+8', 'draw')]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
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
    search_equilibria,
    solve_one_choice,
    solve_zero_sum,
)
from exactodds.rulefiles import RulesFile, TableauChoices
from exactodds.rules import Rules, Tableau
from exactodds.shoe import Shoe

__all__ = [
    "BetValues",
    "ChoiceCell",
    "OptionError",
    "OptionModel",
    "OptionSolution",
    "PlayerHand",
    "build_option_game",
    "solve_option",
]

DEALINGS = ("shoe", "replacement")
SIGHTS = ("cards", "total")
_STOOD = -1
#: (Player choice label, whether he draws) or None when his hand is forced.
_Situation = tuple[str, bool] | None
#: (Banker hand label, the Player's third card or -1 when he stood) or None when forced.
_Cell = tuple[str, int] | None
_Key = tuple[_Situation, _Cell, bool]


class OptionError(ExactOddsError):
    """A model option of the tableau game is not one of the known ones.

    >>> OptionModel(dealing="deck")
    Traceback (most recent call last):
    ...
    exactodds.games.option.OptionError: Dealing 'deck' is not known; use shoe or replacement.
    """


@dataclass(frozen=True)
class OptionModel:
    """How cards are dealt and what each side sees when he chooses.

    >>> OptionModel().player_sees
    'cards'
    >>> OptionModel(player_sees="hand")
    Traceback (most recent call last):
    ...
    exactodds.games.option.OptionError: The Player sees 'hand' is not known; use cards or total.
    """

    dealing: str = "shoe"
    player_sees: str = "cards"
    banker_sees: str = "cards"

    def __post_init__(self) -> None:
        if self.dealing not in DEALINGS:
            raise OptionError(f"Dealing {self.dealing!r} is not known; use shoe or replacement.")
        for who, sight in (("Player", self.player_sees), ("Banker", self.banker_sees)):
            if sight not in SIGHTS:
                raise OptionError(f"The {who} sees {sight!r} is not known; use cards or total.")

    def describe(self) -> str:
        """One line naming the model.

        >>> OptionModel().describe()
        'dealt without replacement; each side chooses seeing his two cards'
        """
        dealing = "without" if self.dealing == "shoe" else "with"
        if self.player_sees == self.banker_sees:
            sight = f"each side chooses seeing his {_sight(self.player_sees)}"
        else:
            sight = (
                f"the Player chooses seeing his {_sight(self.player_sees)}, the Banker his "
                f"{_sight(self.banker_sees)}"
            )
        return f"dealt {dealing} replacement; {sight}"


def _sight(sight: str) -> str:
    return "two cards" if sight == "cards" else "total"


@dataclass(frozen=True)
class BetValues:
    """The three outcomes' probabilities and the main bets' EVs per unit, exactly.

    >>> values = BetValues(Fraction(1, 2), Fraction(2, 5), Fraction(1, 10), Rules())
    >>> values.player, values.banker, values.tie_bet
    (Fraction(-1, 10), Fraction(3, 40), Fraction(-1, 10))
    """

    banker_wins: Fraction
    player_wins: Fraction
    tie: Fraction
    rules: Rules

    @property
    def player(self) -> Fraction:
        """The Player bet's EV per unit."""
        loss = 0 if self.rules.ties_push else self.tie
        return self.player_wins - self.banker_wins - loss

    @property
    def banker(self) -> Fraction:
        """The Banker bet's EV per unit (its commission taken from wins)."""
        loss = 0 if self.rules.ties_push else self.tie
        return self.banker_wins * (1 - self.rules.commission) - self.player_wins - loss

    @property
    def tie_bet(self) -> Fraction:
        """The Tie bet's EV per unit."""
        return self.tie * self.rules.tie_pays - (1 - self.tie)


@dataclass(frozen=True)
class PlayerHand:
    """One Player decision: his hand (``0+5``, or ``5`` when he sees his total) and his play.

    ``gain`` is what drawing adds to the Player bet's EV per round over standing, at the
    Banker's strategy (zero: indifferent); ``draw`` the probability he draws.

    >>> PlayerHand("0+5", Fraction(1), Fraction(3, 1000)).action
    'draw'
    """

    label: str
    draw: Fraction
    gain: Fraction

    @property
    def action(self) -> str:
        """``"draw"``, ``"stand"``, or the draw probability as ``"n/d"``."""
        return _action(self.draw)


@dataclass(frozen=True)
class ChoiceCell:
    """One Banker choice cell: his hand, what he knows of the Player, and his play.

    >>> ChoiceCell("3", "9", Fraction(0), Fraction(-1, 100)).action
    'stand'
    """

    hand: str
    information: str
    draw: Fraction
    gain: Fraction

    @property
    def action(self) -> str:
        """``"draw"``, ``"stand"``, or the draw probability as ``"n/d"``."""
        return _action(self.draw)


def _action(draw: Fraction) -> str:
    if draw == 1:
        return "draw"
    if draw == 0:
        return "stand"
    return f"{draw.numerator}/{draw.denominator}"


@dataclass(frozen=True)
class OptionSolution:
    """The solved tableau game: each side's play, the bets' values, and the fixed tableaux'.

    ``best`` prices the bets at the solution; ``all_stand`` and ``all_draw`` at
    the two fixed tableaux with every choice cell resolved one way.  With
    choices on both sides, ``player_hands`` and ``banker_cells`` are the first
    equilibrium's and ``equilibria`` counts them.

    >>> solution = solve_option(Shoe.standard(decks=1), _option_at_5())
    >>> solution.best.player >= max(solution.all_stand.player, solution.all_draw.player)
    True
    """

    shoe: Shoe
    model: OptionModel
    rules: Rules
    name: str
    choices: TableauChoices
    player_hands: tuple[PlayerHand, ...]
    banker_cells: tuple[ChoiceCell, ...]
    best: BetValues
    all_stand: BetValues
    all_draw: BetValues
    method: str
    equilibria: int
    verified: bool

    @property
    def one_sided(self) -> str | None:
        """``"Player"`` or ``"Banker"`` when only that side chooses, else None."""
        if self.choices.player and not (
            self.choices.banker or self.choices.banker_when_player_stood
        ):
            return "Player"
        if not self.choices.player:
            return "Banker"
        return None


def _option_at_5() -> RulesFile:
    """The standard tableau with the Player's 5 a choice (for the examples)."""
    return RulesFile(Tableau(), True, "", "option_at_5", TableauChoices(frozenset({5})))


def _label(cards: tuple[int, int]) -> str:
    return f"{cards[0]}+{cards[1]}"


@dataclass
class _Counts:
    """Integer counts of (Banker wins, Player wins, ties) per situation, cell and action."""

    denominator: int
    table: dict[_Key, list[int]]
    choices: set[str]
    cells: set[tuple[str, int]]


def _add(table: dict[_Key, list[int]], key: _Key, banker: int, player: int, weight: int) -> None:
    entry = table.get(key)
    if entry is None:
        entry = table[key] = [0, 0, 0]
    entry[0 if banker > player else 1 if player > banker else 2] += weight


def _count(
    values: tuple[int, ...], drawing: Tableau, choices: TableauChoices, model: OptionModel
) -> _Counts:
    """Count every deal by its cards' values, as six-card sequences (unused ones padded)."""
    replacement = model.dealing == "replacement"
    cards = sum(values)
    if replacement:
        pads = [cards ** (6 - used) for used in range(7)]
    else:
        pads = [falling_factorial(cards - used, 6 - used) for used in range(7)]
    counts = _Counts(pads[0], {}, set(), set())
    hands = list(combinations_with_replacement(range(10), 2))
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
            _deal(counts, drawing, choices, model, player, banker, weight, left, pads, replacement)
    return counts


def _deal(
    counts: _Counts,
    drawing: Tableau,
    choices: TableauChoices,
    model: OptionModel,
    player: tuple[int, int],
    banker: tuple[int, int],
    weight: int,
    left: tuple[int, ...],
    pads: list[int],
    replacement: bool,
) -> None:
    """Count one first-four-card deal every way the round can go from it."""
    table = counts.table
    player_total = sum(player) % 10
    banker_total = sum(banker) % 10
    if player_total in drawing.natural_totals or banker_total in drawing.natural_totals:
        _add(table, (None, None, False), banker_total, player_total, weight * pads[4])
        return
    hand = _label(banker) if model.banker_sees == "cards" else str(banker_total)
    situations: list[tuple[_Situation, bool]]
    if player_total in choices.player:
        choice = _label(player) if model.player_sees == "cards" else str(player_total)
        counts.choices.add(choice)
        situations = [((choice, False), False), ((choice, True), True)]
    else:
        situations = [(None, drawing.player_draws[player_total])]
    for situation, draws in situations:
        if not draws:
            open_cell = banker_total in choices.banker_when_player_stood
            forced = drawing.banker_draws_when_player_stood[banker_total]
            _banker(
                counts,
                situation,
                (hand, _STOOD),
                open_cell,
                forced,
                banker_total,
                player_total,
                weight * pads[4],
                weight,
                left,
                pads[5],
                None,
            )
            continue
        for card in range(10):
            if left[card] <= 0:
                continue
            drawn = weight * left[card]
            total = (player_total + card) % 10
            open_cell = (banker_total, card) in choices.banker
            forced = drawing.banker_draws[banker_total][card]
            removed = None if replacement else card
            _banker(
                counts,
                situation,
                (hand, card),
                open_cell,
                forced,
                banker_total,
                total,
                drawn * pads[5],
                drawn,
                left,
                1,
                removed,
            )


def _banker(
    counts: _Counts,
    situation: _Situation,
    cell: tuple[str, int],
    open_cell: bool,
    forced: bool,
    banker_total: int,
    player_total: int,
    stand_weight: int,
    weight: int,
    left: tuple[int, ...],
    pad: int,
    removed: int | None,
) -> None:
    """Count the Banker's stand and draw from one state (both when his cell is open)."""
    if open_cell:
        counts.cells.add(cell)
        actions: tuple[bool, ...] = (False, True)
        key_cell: _Cell = cell
    else:
        actions = (forced,)
        key_cell = None
    for draws in actions:
        key = (situation, key_cell, draws)
        if not draws:
            _add(counts.table, key, banker_total, player_total, stand_weight)
            continue
        for third in range(10):
            remaining = left[third] - (1 if third == removed else 0)
            if remaining > 0:
                _add(
                    counts.table,
                    key,
                    (banker_total + third) % 10,
                    player_total,
                    weight * remaining * pad,
                )


def _hand_order(cell: tuple[str, int]) -> tuple[int, str, int]:
    hand, information = cell
    return (sum(int(value) for value in hand.split("+")) % 10, hand, information)


@dataclass(frozen=True)
class _Game:
    """The additive game and one payoff per outcome (its probability), for pricing bets."""

    game: AdditiveGame
    outcomes: tuple[Payoff, Payoff, Payoff]


def _payoff(
    counts: _Counts,
    choices: list[str],
    cells: list[tuple[str, int]],
    weigh: Callable[[list[int]], Fraction],
) -> Payoff:
    """One side's (or one outcome's) payoff: additive in the Player's and the Banker's draws.

    U = sum over cells c of [stand_c(p) + q_c (draw_c(p) - stand_c(p))], each term linear in p.
    """
    index = {label: position for position, label in enumerate(choices)}
    cell_index = {cell: position for position, cell in enumerate(cells)}
    constant = Fraction(0)
    linear = [Fraction(0)] * len(choices)
    cell_terms = [Fraction(0)] * len(cells)
    coupling = [[Fraction(0)] * len(choices) for _ in cells]
    for (situation, cell, draws), entry in counts.table.items():
        amount = weigh(entry)
        if not amount:
            continue
        terms: list[tuple[int | None, Fraction]]
        if situation is None:
            terms = [(None, amount)]
        elif situation[1]:
            terms = [(index[situation[0]], amount)]
        else:
            terms = [(None, amount), (index[situation[0]], -amount)]
        for choice, value in terms:
            if cell is None or not draws:
                if choice is None:
                    constant += value
                else:
                    linear[choice] += value
            if cell is not None:
                sign = 1 if draws else -1
                if choice is None:
                    cell_terms[cell_index[cell]] += sign * value
                else:
                    coupling[cell_index[cell]][choice] += sign * value
    scale = Fraction(1, counts.denominator)
    return Payoff(
        constant * scale,
        tuple(value * scale for value in linear),
        tuple(value * scale for value in cell_terms),
        tuple(tuple(value * scale for value in row) for row in coupling),
    )


def build_option_game(
    shoe: Shoe, rules_file: RulesFile, rules: Rules | None = None, model: OptionModel | None = None
) -> tuple[AdditiveGame, tuple[Payoff, Payoff, Payoff]]:
    """The game of *rules_file*'s choices on *shoe*, and each outcome's probability as a payoff.

    The game's Banker side is the Banker bet's EV per unit, the Player side
    the Player bet's, settled as *rules* say (default: the file's ties, 5%
    commission).  The outcomes are (Banker wins, Player wins, tie).

    >>> game, outcomes = build_option_game(Shoe.standard(decks=1), _option_at_5())
    >>> game.player_choices, game.banker_cells
    (('0+5', '1+4', '2+3', '6+9', '7+8'), ())
    >>> build_option_game(Shoe.from_ranks({"K": 5}), _option_at_5())
    Traceback (most recent call last):
    ...
    exactodds.errors.ShoeError: The shoe holds 5 cards; a round deals up to 6, so the shoe needs at least 6 when dealt without replacement.
    """
    model = model if model is not None else OptionModel()
    rules = rules if rules is not None else _settlement(rules_file, None)
    if model.dealing == "shoe" and shoe.cards < 6:
        raise ShoeError(
            f"The shoe holds {shoe.cards} cards; a round deals up to 6, so the shoe needs at "
            "least 6 when dealt without replacement."
        )
    if shoe.cards == 0:
        raise ShoeError("The shoe is empty; dealing with replacement needs at least one card.")
    counts = _count(shoe.value_counts, rules_file.drawing, rules_file.choices, model)
    choices = sorted(
        counts.choices, key=lambda label: (sum(map(int, label.split("+"))) % 10, label)
    )
    cells = sorted(counts.cells, key=_hand_order)
    keep = 1 - rules.commission
    tie_loss = Fraction(0) if rules.ties_push else Fraction(1)
    banker = _payoff(counts, choices, cells, lambda e: e[0] * keep - e[1] - e[2] * tie_loss)
    player = _payoff(counts, choices, cells, lambda e: e[1] - e[0] - e[2] * tie_loss)
    outcomes = tuple(_payoff(counts, choices, cells, _outcome(index)) for index in range(3))
    labels = tuple((hand, "stood" if third == _STOOD else str(third)) for hand, third in cells)
    game = AdditiveGame(tuple(choices), labels, banker, player)
    return game, (outcomes[0], outcomes[1], outcomes[2])


def _outcome(index: int) -> Callable[[list[int]], Fraction]:
    """The weigher that counts one outcome (0 Banker wins, 1 Player wins, 2 tie)."""

    def weigh(entry: list[int]) -> Fraction:
        return Fraction(entry[index])

    return weigh


def _settlement(rules_file: RulesFile, rules: Rules | None) -> Rules:
    if rules is not None:
        return rules
    return Rules(tableau=rules_file.drawing, ties_push=rules_file.ties_push is not False)


def _profiles(game: AdditiveGame) -> tuple[tuple[Profile, ...], str]:
    if not game.player_choices or not game.banker_cells:
        side = "Player" if game.player_choices else "Banker"
        return search_equilibria(game), f"best reply, choice by choice (only the {side} chooses)"
    if len(game.player_choices) <= 1:
        return solve_one_choice(game), "Foster's algorithm (every equilibrium)"
    if game.zero_sum:
        return (solve_zero_sum(game),), "exact linear program"
    return search_equilibria(game), "best replies, choice by choice (vertex search)"


def solve_option(
    shoe: Shoe,
    rules_file: RulesFile,
    rules: Rules | None = None,
    model: OptionModel | None = None,
) -> OptionSolution:
    """Solve *rules_file*'s choices exactly on *shoe*: best replies or an equilibrium.

    >>> solution = solve_option(Shoe.standard(decks=8), _option_at_5())
    >>> solution.one_sided, solution.best.player == solution.all_draw.player
    ('Player', True)
    >>> solve_option(Shoe.standard(decks=8), RulesFile(Tableau(), True, "", "x"))
    Traceback (most recent call last):
    ...
    exactodds.games.option.OptionError: x marks no cell as a choice; mark one "choice" (the Player's 5, say), or price the fixed tableau with odds.
    """
    if not rules_file.choices:
        raise OptionError(
            f'{rules_file.source} marks no cell as a choice; mark one "choice" (the Player\'s '
            "5, say), or price the fixed tableau with odds."
        )
    model = model if model is not None else OptionModel()
    rules = _settlement(rules_file, rules)
    game, outcomes = build_option_game(shoe, rules_file, rules, model)
    profiles, method = _profiles(game)
    if not profiles:  # pragma: no cover - every finite game has an equilibrium; search bound
        raise OptionError("No equilibrium was found; this game needs a wider search.")
    profile = profiles[0]
    labels = [cast(tuple[str, str], label) for label in game.banker_cells]
    failures = best_reply_failures(game, profile)
    player_count, cell_count = len(game.player_choices), len(game.banker_cells)

    def priced(player: tuple[Fraction, ...], banker: tuple[Fraction, ...]) -> BetValues:
        banker_wins, player_wins, tie = (outcome.value(player, banker) for outcome in outcomes)
        return BetValues(banker_wins, player_wins, tie, rules)

    hands = tuple(
        PlayerHand(str(label), draw, game.player.choice_gain(j, profile.banker))
        for j, (label, draw) in enumerate(zip(game.player_choices, profile.player, strict=True))
    )
    cells = tuple(
        ChoiceCell(hand, information, draw, game.banker.cell_gain(c, profile.player))
        for c, ((hand, information), draw) in enumerate(zip(labels, profile.banker, strict=True))
    )
    zero, one = Fraction(0), Fraction(1)
    return OptionSolution(
        shoe=shoe,
        model=model,
        rules=rules,
        name=rules_file.drawing.name,
        choices=rules_file.choices,
        player_hands=hands,
        banker_cells=cells,
        best=priced(profile.player, profile.banker),
        all_stand=priced((zero,) * player_count, (zero,) * cell_count),
        all_draw=priced((one,) * player_count, (one,) * cell_count),
        method=method,
        equilibria=len(profiles),
        verified=not failures,
    )
