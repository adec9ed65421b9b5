"""Baccara banque (baccarat à deux tableaux): one bank against two Player hands, solved exactly.

The model solved here, rule by rule:

* Three hands of two cards: Player 1 (the right-hand tableau), Player 2 (the
  left) and the bank.  Values and totals as in every baccarat.
* A bank natural (8 or 9) is shown at once: nobody draws, and each Player hand
  is settled against it.  A Player natural is shown at once and wins its
  tableau (the bank, without a natural, cannot beat it).
* Each Player hand that is not a natural follows a fixed rule: draws on 0-4,
  stands on 6-7, and on 5 draws or stands as ``players_on_5`` says (the same
  for both hands).  A third card is dealt face up.
* The bank sees his own two cards (their values, or only their total) and
  what each Player hand showed: a natural, that it stood, or its third card's
  value.  He then draws or stands, once for both tableaux, to maximise his
  total expected gain, the two tableaux weighted by their ``stakes``.
* Each tableau is settled against the bank: the higher total wins one unit
  (times its stake), equal totals push.  No commission.

With both Players' rules fixed the bank's problem is a decision, not a game:
in every cell of what he sees he draws when drawing gains (exactly), stands
when it loses, and is indifferent at a zero gain.  The three-person game in
which the Players also choose on 5 (Downton and Lockwood 1976; Ethier and Lee
2015, "On the three-person game baccara banque", Games 6, 57-78, with its
three solution concepts) is not solved here.

Counting is exact: every deal is weighed by its cards' values as a
nine-card sequence with one integer denominator, (N)_9 without replacement
or N**9 with it; without replacement the other hand's cards are summed out
through a cache keyed by the cards already used (the deal is exchangeable, so
the bank's third card may be counted before the other hand's cards).

>>> solution = solve_banque(Shoe.standard(decks=1), BanqueModel(dealing="replacement"))
>>> solution.bank_edge > 0, solution.verified
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement

from exactodds.engine.walk import falling_factorial
from exactodds.errors import ExactOddsError, ShoeError
from exactodds.shoe import Shoe

__all__ = [
    "INFORMATION",
    "BankCell",
    "BanqueError",
    "BanqueModel",
    "BanqueSolution",
    "TableauResult",
    "solve_banque",
]

DEALINGS = ("shoe", "replacement")
SIGHTS = ("cards", "total")
ON_5 = ("draw", "stand")
#: What the bank sees of a Player hand, by index: its third card 0-9, that it stood, a natural.
INFORMATION = (*(str(value) for value in range(10)), "stood", "natural")
_STOOD, _NATURAL = 10, 11
#: Cards a round may use: two per hand, a third for each.
_LENGTH = 9
#: One Player hand's outcome: (information index, final total, cards used, ordered count).
_Outcome = tuple[int, int, tuple[int, ...], int]


class BanqueError(ExactOddsError):
    """A baccara banque model option is not valid.

    >>> BanqueModel(players_on_5="mix")
    Traceback (most recent call last):
    ...
    exactodds.games.banque.BanqueError: The Players on 5 'mix' is not known; use draw or stand.
    """


@dataclass(frozen=True)
class BanqueModel:
    """How cards are dealt, what the bank sees, the Players' fixed play on 5, the stakes.

    ``stakes`` weighs the two tableaux in the bank's gain (whole numbers, at
    least one of them above 0): ``(1, 1)`` when each tableau stakes as much.

    >>> print(BanqueModel().describe())
    dealt without replacement; the bank sees his two cards and each tableau's natural, stand or third card; both Players draw on 0-5, stand on 6-7; stakes 1:1
    >>> BanqueModel(stakes=(0, 0))
    Traceback (most recent call last):
    ...
    exactodds.games.banque.BanqueError: Stakes (0, 0) are not valid; use two whole numbers, not both 0, such as 1:1 or 3:1.
    """

    dealing: str = "shoe"
    bank_sees: str = "cards"
    players_on_5: str = "draw"
    stakes: tuple[int, int] = (1, 1)

    def __post_init__(self) -> None:
        if self.dealing not in DEALINGS:
            raise BanqueError(f"Dealing {self.dealing!r} is not known; use shoe or replacement.")
        if self.bank_sees not in SIGHTS:
            raise BanqueError(f"The bank sees {self.bank_sees!r} is not known; use cards or total.")
        if self.players_on_5 not in ON_5:
            raise BanqueError(
                f"The Players on 5 {self.players_on_5!r} is not known; use draw or stand."
            )
        stakes = self.stakes
        if (
            not isinstance(stakes, tuple)
            or len(stakes) != 2
            or not all(isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in stakes)
            or not any(stakes)
        ):
            raise BanqueError(
                f"Stakes {stakes!r} are not valid; use two whole numbers, not both 0, such as "
                "1:1 or 3:1."
            )

    @property
    def player_draws(self) -> tuple[bool, ...]:
        """A Player hand's draw on each two-card total 0-9 (naturals aside)."""
        return tuple(
            total <= 4 or (total == 5 and self.players_on_5 == "draw") for total in range(10)
        )

    def describe(self) -> str:
        """One line naming the model."""
        dealing = "without" if self.dealing == "shoe" else "with"
        sight = "two cards" if self.bank_sees == "cards" else "total"
        rule = (
            "draw on 0-5, stand on 6-7"
            if self.players_on_5 == "draw"
            else "draw on 0-4, stand on 5-7"
        )
        return (
            f"dealt {dealing} replacement; the bank sees his {sight} and each tableau's natural, "
            f"stand or third card; both Players {rule}; stakes {self.stakes[0]}:{self.stakes[1]}"
        )


@dataclass(frozen=True)
class BankCell:
    """One bank decision: his hand, what each tableau showed, his play and its exact gain.

    ``gain`` is what drawing adds to the bank's expected gain per round (in
    units of stake) over standing; ``draw`` is whether he draws (at a zero gain
    he stands, and ``indifferent`` says so).

    >>> BankCell("5", "4", "stood", True, Fraction(1, 10**6)).action
    'draw'
    """

    hand: str
    first: str
    second: str
    draw: bool
    gain: Fraction

    @property
    def action(self) -> str:
        """``"draw"`` or ``"stand"``."""
        return "draw" if self.draw else "stand"

    @property
    def indifferent(self) -> bool:
        """Whether drawing and standing are worth exactly the same here."""
        return self.gain == 0

    @property
    def total(self) -> int:
        """The bank's two-card total."""
        return sum(int(value) for value in self.hand.split("+")) % 10


@dataclass(frozen=True)
class TableauResult:
    """One tableau's outcome probabilities at the bank's optimal play.

    >>> TableauResult(Fraction(1, 2), Fraction(2, 5)).player_ev
    Fraction(-1, 10)
    """

    bank_wins: Fraction
    player_wins: Fraction

    @property
    def tie(self) -> Fraction:
        """The probability that the tableau ties the bank."""
        return 1 - self.bank_wins - self.player_wins

    @property
    def player_ev(self) -> Fraction:
        """A unit bet on this tableau: its expected result."""
        return self.player_wins - self.bank_wins


@dataclass(frozen=True)
class BanqueSolution:
    """The bank's optimal strategy, and each bet's exact value under it.

    ``bank_edge`` is the bank's expected gain per unit staked on the two
    tableaux together (stakes as the model says); ``tableaux`` gives each
    tableau's probabilities.  ``verified`` says that every deal was counted
    once (each tableau's outcomes sum to the denominator, the bank standing
    everywhere and drawing everywhere).

    >>> solution = solve_banque(Shoe.standard(decks=1), BanqueModel("replacement", "total"))
    >>> solution.indifferent_cells, solution.bank_edge == -solution.tableaux[0].player_ev
    (8, True)
    """

    shoe: Shoe
    model: BanqueModel
    cells: tuple[BankCell, ...]
    tableaux: tuple[TableauResult, TableauResult]
    bank_edge: Fraction
    verified: bool

    @property
    def indifferent_cells(self) -> int:
        """How many cells the bank may play either way at no cost."""
        return sum(cell.indifferent for cell in self.cells)


def _ordered(values: tuple[int, ...], counts: list[int], replacement: bool) -> int:
    """The number of ordered ways to deal *values* from *counts* (which it then reduces)."""
    weight = 1
    for value in values:
        available = counts[value]
        if available <= 0:
            return 0
        weight *= available
        if not replacement:
            counts[value] -= 1
    return weight


_PAIRS = tuple(combinations_with_replacement(range(10), 2))


def _player_outcomes(
    left: tuple[int, ...], draws: tuple[bool, ...], replacement: bool
) -> list[_Outcome]:
    """Every way one Player hand can end from *left*: information, total, cards, count."""
    outcomes: list[_Outcome] = []
    for pair in _PAIRS:
        counts = list(left)
        weight = _ordered(pair, counts, replacement) * (1 if pair[0] == pair[1] else 2)
        if not weight:
            continue
        total = sum(pair) % 10
        if total >= 8:
            outcomes.append((_NATURAL, total, pair, weight))
        elif not draws[total]:
            outcomes.append((_STOOD, total, pair, weight))
        else:
            for third in range(10):
                if counts[third] > 0:
                    outcomes.append(
                        (third, (total + third) % 10, (*pair, third), weight * counts[third])
                    )
    return outcomes


def _information_counts(left: list[int], draws: tuple[bool, ...], replacement: bool) -> list[int]:
    """How many ordered ways one Player hand dealt from *left* shows each information: the
    counts of :func:`_player_outcomes` summed per information, without listing the outcomes."""
    found = [0] * 12
    for first, second in _PAIRS:
        if replacement:
            weight = left[first] * left[second]
        else:
            weight = left[first] * (left[second] - (first == second))
        if weight <= 0:
            continue
        weight *= 1 if first == second else 2
        total = (first + second) % 10
        if total >= 8:
            found[_NATURAL] += weight
        elif not draws[total]:
            found[_STOOD] += weight
        else:
            for third in range(10):
                available = left[third]
                if not replacement:
                    available -= (third == first) + (third == second)
                if available > 0:
                    found[third] += weight * available
    return found


def _compare(bank: int, player: int) -> int:
    """0 when the bank wins, 1 when the Player wins, 2 on a tie."""
    return 0 if bank > player else 1 if player > bank else 2


@dataclass
class _Tally:
    """Per (bank hand, this tableau's information, the other's) and action: counts of results."""

    denominator: int
    cells: dict[tuple[str, int, int], list[list[int]]]
    natural: list[int]


#: Per (bank hand, this tableau's information): the other tableau's information -> its entry.
_Row = dict[int, list[list[int]]]


def _count(shoe: Shoe, model: BanqueModel) -> _Tally:
    replacement = model.dealing == "replacement"
    values = shoe.value_counts
    cards = sum(values)
    pads = [
        cards ** (_LENGTH - used)
        if replacement
        else falling_factorial(cards - used, _LENGTH - used)
        for used in range(_LENGTH + 1)
    ]
    draws = model.player_draws

    @cache
    def weighted(removed: tuple[int, ...], dealt: int) -> tuple[tuple[int, int], ...]:
        """Each information the other hand can show, *removed* dealt, with its ordered ways
        times the ways to fill the rest of the nine cards (*dealt* of them dealt before it)."""
        left = list(values)
        if not replacement:
            for value in removed:
                left[value] -= 1
        found = _information_counts(left, draws, replacement)
        return tuple(
            (information, count * pads[dealt + (3 if information < 10 else 2)])
            for information, count in enumerate(found)
            if count
        )

    tally = _Tally(pads[0], {}, [0, 0, 0])
    rows: dict[tuple[str, int], _Row] = {}
    for bank in _PAIRS:
        counts = list(values)
        bank_weight = _ordered(bank, counts, replacement) * (1 if bank[0] == bank[1] else 2)
        if not bank_weight:
            continue
        bank_total = sum(bank) % 10
        if bank_total >= 8:
            _count_bank_natural(tally, tuple(counts), bank_total, bank_weight, pads, replacement)
            continue
        hand = f"{bank[0]}+{bank[1]}" if model.bank_sees == "cards" else str(bank_total)
        for information, total, used, weight in _player_outcomes(tuple(counts), draws, replacement):
            removed = () if replacement else tuple(sorted(bank + used))
            left = list(counts)
            if not replacement:
                for value in used:
                    left[value] -= 1
            natural = information == _NATURAL
            stood = 1 if natural else _compare(bank_total, total)
            drawn = [
                1 if natural else _compare((bank_total + third) % 10, total) for third in range(10)
            ]
            _count_bank_choice(
                rows.setdefault((hand, information), {}), bank_weight * weight, stood, drawn,
                left, removed, len(used), replacement, weighted,
            )  # fmt: skip
    tally.cells = {
        (hand, information, other): entry
        for (hand, information), row in rows.items()
        for other, entry in row.items()
    }
    return tally


def _count_bank_natural(
    tally: _Tally,
    left: tuple[int, ...],
    bank_total: int,
    weight: int,
    pads: list[int],
    replacement: bool,
) -> None:
    """A bank natural: every tableau settled against it, nobody draws."""
    for pair in _PAIRS:
        counts = list(left)
        count = _ordered(pair, counts, replacement) * (1 if pair[0] == pair[1] else 2)
        if count:
            tally.natural[_compare(bank_total, sum(pair) % 10)] += weight * count * pads[4]


def _count_bank_choice(
    row: _Row,
    base: int,
    stood: int,
    drawn: list[int],
    left: list[int],
    removed: tuple[int, ...],
    used: int,
    replacement: bool,
    weighted: Callable[[tuple[int, ...], int], tuple[tuple[int, int], ...]],
) -> None:
    """Count one tableau's outcome against the bank's stand and draw, the other summed out.

    *stood* is the result (0 bank, 1 Player, 2 tie) when the bank stands, *drawn* the result
    for each third card the bank may draw; the draws' weights are summed per result before
    they are scaled by *base*, so each entry takes one product per result."""
    for other, weight in weighted(removed, 2 + used):
        entry = row.get(other)
        if entry is None:
            entry = row[other] = [[0, 0, 0], [0, 0, 0]]
        entry[0][stood] += base * weight
    sums = [[0] * 12 for _ in range(3)]
    for third in range(10):
        available = left[third]
        if available <= 0:
            continue
        added = sums[drawn[third]]
        after = removed if replacement else tuple(sorted((*removed, third)))
        for other, weight in weighted(after, 3 + used):
            added[other] += available * weight
    for result, added in enumerate(sums):
        for other, weight in enumerate(added):
            if weight:
                entry = row.get(other)
                if entry is None:
                    entry = row[other] = [[0, 0, 0], [0, 0, 0]]
                entry[1][result] += base * weight


def solve_banque(shoe: Shoe | None = None, model: BanqueModel | None = None) -> BanqueSolution:
    """The bank's optimal play against two fixed Player hands on *shoe* (default 6 decks), exactly.

    >>> solution = solve_banque(Shoe.standard(decks=6), BanqueModel(bank_sees="total"))
    >>> len(solution.cells), solution.tableaux[0] == solution.tableaux[1]
    (1152, True)
    >>> solve_banque(Shoe.from_ranks({"K": 8}))
    Traceback (most recent call last):
    ...
    exactodds.errors.ShoeError: The shoe holds 8 cards; baccara banque deals up to 9, so the shoe needs at least 9 when dealt without replacement.
    """
    shoe = shoe if shoe is not None else Shoe.standard(decks=6)
    model = model if model is not None else BanqueModel()
    if model.dealing == "shoe" and shoe.cards < _LENGTH:
        raise ShoeError(
            f"The shoe holds {shoe.cards} cards; baccara banque deals up to {_LENGTH}, so the "
            f"shoe needs at least {_LENGTH} when dealt without replacement."
        )
    if shoe.cards == 0:
        raise ShoeError("The shoe is empty; dealing with replacement needs at least one card.")
    tally = _count(shoe, model)
    first_stake, second_stake = model.stakes
    totals = [[0, 0], [0, 0]]  # per tableau: bank wins, Player wins (counts)
    for tableau in totals:
        tableau[0] += tally.natural[0]
        tableau[1] += tally.natural[1]
    cells: list[BankCell] = []
    empty = [[0, 0, 0], [0, 0, 0]]
    for hand, first, second in sorted(tally.cells, key=_cell_order):
        one = tally.cells[(hand, first, second)]
        two = tally.cells.get((hand, second, first), empty)
        gain_count = first_stake * _net_draw(one) + second_stake * _net_draw(two)
        draw = gain_count > 0
        action = 1 if draw else 0
        for tableau, entry in zip(totals, (one, two), strict=True):
            tableau[0] += entry[action][0]
            tableau[1] += entry[action][1]
        gain = Fraction(gain_count, tally.denominator)
        cells.append(BankCell(hand, INFORMATION[first], INFORMATION[second], draw, gain))
    verified = _every_deal_counted(tally)
    results = tuple(
        TableauResult(Fraction(bank, tally.denominator), Fraction(player, tally.denominator))
        for bank, player in totals
    )
    gain = sum(
        (stake * -result.player_ev for stake, result in zip(model.stakes, results, strict=True)),
        Fraction(0),
    )
    return BanqueSolution(
        shoe=shoe,
        model=model,
        cells=tuple(cells),
        tableaux=(results[0], results[1]),
        bank_edge=gain / (first_stake + second_stake),
        verified=verified,
    )


def _every_deal_counted(tally: _Tally) -> bool:
    """Whether, bank standing everywhere and drawing everywhere, each tableau's outcomes sum to
    the denominator: every nine-card sequence counted once."""
    for action in (0, 1):
        total = sum(tally.natural) + sum(sum(entry[action]) for entry in tally.cells.values())
        if total != tally.denominator:
            return False
    return True


def _net_draw(entry: list[list[int]]) -> int:
    """Drawing's gain over standing for the bank in one tableau, in counts."""
    stand, draw = entry
    return (draw[0] - draw[1]) - (stand[0] - stand[1])


def _cell_order(key: tuple[str, int, int]) -> tuple[int, str, int, int]:
    hand, first, second = key
    order = {_STOOD: -1, _NATURAL: 10}
    return (
        sum(int(value) for value in hand.split("+")) % 10,
        hand,
        order.get(first, first),
        order.get(second, second),
    )
