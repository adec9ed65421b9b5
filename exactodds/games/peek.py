"""Peek Baccarat solved exactly: when to raise after some of the first four cards are shown.

The game (a live studio's; the operator's terms are cited in ``docs/peek.md``)
------------------------------------------------------------------------------
Punto Banco dealt from the shoe with the standard tableau: Player pays 1:1, Banker 0.95:1, a tie
returns both.  A bet on Player or Banker pays a **fee** of 20% of its stake up front, never
returned.  The four first cards are dealt, some of them are shown (the **reveal**: a set of the
positions P1 B1 P2 B2), and the player may then keep the stake or **raise** it to 2x or 3x; the
raise pays no fee.  The rest of the round is dealt as usual.

What is computed
----------------
For a reveal and a shoe, every **seen pattern** (the values shown, 0 for a ten or a face card;
values are all that decides Player and Banker) is counted exactly with the known-cards walk
(:func:`~exactodds.engine.known.enumerate_known`): the shoe's sequences are counted once by the
values of the four first cards, and a pattern's counts are the sums over the cards not shown.
When both cards of a hand are shown their order does not matter, so ``3+5`` and ``5+3`` are one
pattern.  For each pattern and each side the EV of each raise ``k`` is ``k * e``, where ``e`` is the
bet's EV per unit of the original stake given the cards seen (the fee, already paid, is left out
of a decision: it does not depend on it).  So the best raise is 3x when ``e > 0`` and 1x when
``e <= 0``; 2x is never strictly best.

Fee model and RTP
-----------------
Per round and per unit of original stake the player pays ``fee + k`` and gets back ``k * (1 + X)``
(stake returned plus winnings; ``X`` the bet's result per unit staked: +1 or +0.95 on a win, 0 on a
tie, -1 on a loss).  The **RTP** of a raising policy is the ratio of expectations::

    RTP = E[k (1 + X)] / E[fee + k]

With ``k = 1`` always (never raising) it is ``(1 + EV) / (1 + fee)``, the fee's RTP of the
standard game.  Two policies are reported per side: the **EV-best** (the most money back per
round: raise to 3x exactly when ``e > 0``) and the **RTP-best** (the largest ratio; since the
ratio rewards staking more, it raises wherever ``1 + e`` beats the ratio itself, found exactly
by Dinkelbach's iteration).  Neither is beaten by any policy on its own measure.

>>> from exactodds import Shoe
>>> solution = solve_peek(Shoe.standard(decks=8), "P1,B1,P2,B2")
>>> player = solution.sides["player"]
>>> player.never_raise_rtp == (1 + player.never_raise_ev + solution.fee) / (1 + solution.fee)
True
>>> player.rtp_best_rtp >= player.ev_best_rtp >= player.never_raise_rtp
True
>>> solve_peek(Shoe.standard(decks=8), "P3")
Traceback (most recent call last):
...
exactodds.games.peek.PeekError: Reveal 'P3' for `reveal` names no card position; use a comma-separated list of the first four cards' positions P1, B1, P2, B2 (such as P1,B1), or all.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache
from itertools import combinations, product

from exactodds.cards import RANKS, VALUES
from exactodds.engine.known import enumerate_known
from exactodds.engine.walk import Winner, falling_factorial, require_countable
from exactodds.errors import ExactOddsError, quoted
from exactodds.numbers import parse_number
from exactodds.rules import Tableau
from exactodds.shoe import Shoe

__all__ = [
    "DEFAULT_FEE",
    "POSITION_NAMES",
    "RAISES",
    "REVEALS",
    "REVEAL_CLASSES",
    "SIDES",
    "Pattern",
    "PeekError",
    "PeekSide",
    "PeekSolution",
    "PeekSurvey",
    "Reveal",
    "parse_reveal",
    "policy_figures",
    "solve_peek",
    "survey_peek",
]

#: The operator's fee on a Player or Banker bet's original stake.
DEFAULT_FEE = Fraction(1, 5)
#: The stakes the player may choose after the peek, in units of the original stake.
RAISES = (1, 2, 3)
#: The two bets that carry the fee and the raise, with what a win pays per unit staked.
SIDES: dict[str, Fraction] = {"player": Fraction(1), "banker": Fraction(19, 20)}
#: The names of dealing positions 1-4 (the known-cards numbering).
POSITION_NAMES = {1: "P1", 2: "B1", 3: "P2", 4: "B2"}
_BY_NAME = {name: position for position, name in POSITION_NAMES.items()}
_HINT = (
    "use a comma-separated list of the first four cards' positions P1, B1, P2, B2 "
    "(such as P1,B1), or all"
)


class PeekError(ExactOddsError):
    """A reveal or a fee that Peek Baccarat cannot take.

    >>> parse_reveal("P1,P1")
    Traceback (most recent call last):
    ...
    exactodds.games.peek.PeekError: Reveal 'P1,P1' for `reveal` names P1 twice; name each position once.
    """


@dataclass(frozen=True)
class Reveal:
    """Which of the first four cards are shown before the raise: positions 1-4, in order.

    >>> Reveal((1, 2)).name, Reveal((1, 2, 3, 4)).name
    ('P1,B1', 'P1,B1,P2,B2')
    >>> Reveal((5,))
    Traceback (most recent call last):
    ...
    exactodds.games.peek.PeekError: Reveal '5' for `reveal` names no card position; use a comma-separated list of the first four cards' positions P1, B1, P2, B2 (such as P1,B1), or all.
    """

    positions: tuple[int, ...]

    def __post_init__(self) -> None:
        if not isinstance(self.positions, tuple | list):
            raise PeekError(
                f"Reveal {quoted(repr(self.positions), 40)} for `reveal` is not a list of positions; {_HINT}."
            )
        positions = tuple(self.positions)
        shown = ",".join(str(p) for p in positions)
        if not positions:
            raise PeekError(f"Reveal '' for `reveal` shows no card; {_HINT}.")
        if any(isinstance(p, bool) or p not in POSITION_NAMES for p in positions):
            raise PeekError(f"Reveal {quoted(shown)} for `reveal` names no card position; {_HINT}.")
        if len(set(positions)) != len(positions):
            raise PeekError(
                f"Reveal {quoted(shown)} for `reveal` names a position twice; name each once."
            )
        object.__setattr__(self, "positions", tuple(sorted(positions)))

    @property
    def name(self) -> str:
        """The positions as ``--reveal`` writes them, such as ``P1,B1``."""
        return ",".join(POSITION_NAMES.get(p, str(p)) for p in self.positions)


#: Every reveal: the 15 non-empty sets of the first four cards, by size then position.
REVEALS: tuple[Reveal, ...] = tuple(
    Reveal(chosen) for size in range(1, 5) for chosen in combinations((1, 2, 3, 4), size)
)


def _shown_per_hand(reveal: Reveal) -> tuple[int, int]:
    return (
        sum(p in (1, 3) for p in reveal.positions),
        sum(p in (2, 4) for p in reveal.positions),
    )


#: The reveals grouped by how many cards of each hand they show: the 8 classes whose members
#: share every figure.  A round depends on the hands' totals, so on the sums of P1 and P2 and of
#: B1 and B2, and the cards of a shoe dealt without replacement are exchangeable: showing P2
#: instead of P1 (or B2 instead of B1) shows a value with the same law and leaves the rest of the
#: round with the same law given it.
REVEAL_CLASSES: tuple[tuple[Reveal, ...], ...] = tuple(
    tuple(reveal for reveal in REVEALS if _shown_per_hand(reveal) == shown)
    for shown in sorted(
        {_shown_per_hand(reveal) for reveal in REVEALS}, key=lambda pair: (sum(pair), -pair[0])
    )
)


def parse_reveal(text: str | Reveal | Iterable[str | int]) -> Reveal:
    """Read a reveal: ``"P1,B1"``, ``"all"`` (the four cards), positions or names in a list.

    >>> parse_reveal("b1, p1").name, parse_reveal("all").name, parse_reveal([3, 4]).name
    ('P1,B1', 'P1,B1,P2,B2', 'P2,B2')
    >>> parse_reveal("")
    Traceback (most recent call last):
    ...
    exactodds.games.peek.PeekError: Reveal '' for `reveal` shows no card; use a comma-separated list of the first four cards' positions P1, B1, P2, B2 (such as P1,B1), or all.
    """
    if isinstance(text, Reveal):
        return text
    if isinstance(text, str):
        shown = text
        if text.strip().lower() == "all":
            return REVEALS[-1]
        items: list[str | int] = [item.strip() for item in text.split(",")]
        if items == [""]:
            items = []
    elif isinstance(text, Iterable):
        items = list(text)
        shown = ",".join(str(item) for item in items)
    else:
        raise PeekError(f"Reveal {quoted(repr(text), 40)} for `reveal` is not text; {_HINT}.")
    positions: list[int] = []
    for item in items:
        position = item if isinstance(item, int) and not isinstance(item, bool) else None
        if isinstance(item, str):
            position = _BY_NAME.get(item.strip().upper())
        if position not in POSITION_NAMES:
            raise PeekError(f"Reveal {quoted(shown)} for `reveal` names no card position; {_HINT}.")
        if position in positions:
            raise PeekError(
                f"Reveal {quoted(shown)} for `reveal` names {POSITION_NAMES[position]} twice; "
                "name each position once."
            )
        positions.append(position)
    if not positions:
        raise PeekError(f"Reveal {quoted(shown)} for `reveal` shows no card; {_HINT}.")
    return Reveal(tuple(positions))


@dataclass(frozen=True)
class Pattern:
    """One set of cards seen: its values at the shown positions, and the round's counts given it.

    ``seen`` maps each shown position (1-4) to a value (0 for a ten or a face card); when both
    cards of a hand are shown, the smaller value is at the lower position and ``ways`` counts
    both orders.  ``ways`` is how many ordered choices of physical cards show this pattern, and
    ``rounds`` how many ways the other ``6 - k`` positions fill given them, so the pattern's
    sequences number ``ways * rounds`` and all patterns' add up to ``(N)_6``.  ``player_wins``,
    ``banker_wins`` and ``ties`` split ``rounds``.

    >>> pattern = Pattern({1: 9}, 32, 100, 60, 30, 10)
    >>> pattern.unit_ev("player"), pattern.best_raise("banker"), pattern.ev("player", 3)
    (Fraction(3, 10), 1, Fraction(9, 10))
    >>> Pattern({1: 9}, 32, 100, 60, 30, 11)
    Traceback (most recent call last):
    ...
    ValueError: A pattern's wins and ties must add up to its rounds (101 against 100).
    """

    seen: Mapping[int, int]
    ways: int
    rounds: int
    player_wins: int
    banker_wins: int
    ties: int

    def __post_init__(self) -> None:
        added = self.player_wins + self.banker_wins + self.ties
        if added != self.rounds:
            raise ValueError(
                f"A pattern's wins and ties must add up to its rounds ({added} against "
                f"{self.rounds})."
            )

    @property
    def label(self) -> str:
        """The cards seen: ``P1=3 B1=0``, or a hand shown whole as ``P 3+5`` (either order).

        >>> Pattern({1: 3, 3: 5, 4: 0}, 1, 1, 1, 0, 0).label
        'P 3+5 B2=0'
        """
        parts = []
        for letter, first, second in (("P", 1, 3), ("B", 2, 4)):
            if first in self.seen and second in self.seen:
                parts.append(f"{letter} {self.seen[first]}+{self.seen[second]}")
            else:
                parts.extend(
                    f"{POSITION_NAMES[p]}={self.seen[p]}" for p in (first, second) if p in self.seen
                )
        return " ".join(parts)

    def unit_ev(self, side: str) -> Fraction:
        """The bet's EV per unit staked given these cards, the fee left out."""
        wins, losses = (
            (self.player_wins, self.banker_wins)
            if side == "player"
            else (self.banker_wins, self.player_wins)
        )
        return (SIDES[side] * wins - losses) / self.rounds

    def ev(self, side: str, raise_to: int) -> Fraction:
        """The EV of staking *raise_to* times the original stake, per unit of it, fee left out."""
        return raise_to * self.unit_ev(side)

    def best_raise(self, side: str) -> int:
        """The EV-best stake: 3 when the bet is favourable given the cards seen, else 1."""
        return RAISES[-1] if self.unit_ev(side) > 0 else RAISES[0]


@dataclass(frozen=True)
class PeekSide:
    """One bet (Player or Banker) under the peek: its policies and their exact figures.

    ``ev`` figures are per unit of original stake and per round, the fee *included*
    (``E[k X] - fee``); ``rtp`` figures are ``E[k (1 + X)] / E[fee + k]``.  ``rtp_raises``
    maps each pattern's label to the RTP-best stake, ``rtp_threshold`` is that policy's RTP:
    it raises to 3x exactly where ``1 + e`` exceeds it.

    >>> from exactodds import Shoe
    >>> banker = solve_peek(Shoe.standard(decks=8), "B1").sides["banker"]
    >>> banker.ev_best_raise_chance, banker.rtp_best_rtp > banker.ev_best_rtp
    (Fraction(4, 13), True)
    >>> PeekSide("banker")
    Traceback (most recent call last):
    ...
    TypeError: PeekSide.__init__() missing 9 required positional arguments: 'never_raise_ev', 'never_raise_rtp', 'ev_best_ev', 'ev_best_rtp', 'ev_best_raise_chance', 'rtp_best_ev', 'rtp_best_rtp', 'rtp_best_raise_chance', and 'rtp_raises'
    """

    side: str
    never_raise_ev: Fraction
    never_raise_rtp: Fraction
    ev_best_ev: Fraction
    ev_best_rtp: Fraction
    ev_best_raise_chance: Fraction
    rtp_best_ev: Fraction
    rtp_best_rtp: Fraction
    rtp_best_raise_chance: Fraction
    rtp_raises: Mapping[str, int]


@dataclass(frozen=True)
class PeekSolution:
    """Peek Baccarat solved for one shoe and reveal: every pattern and both sides' figures.

    >>> from exactodds import Shoe
    >>> solution = solve_peek(Shoe.standard(decks=1), "B1")
    >>> [pattern.label for pattern in solution.patterns][:3]
    ['B1=0', 'B1=1', 'B1=2']
    >>> sum(p.ways * p.rounds for p in solution.patterns) == 52 * 51 * 50 * 49 * 48 * 47
    True
    """

    shoe: Shoe
    reveal: Reveal
    fee: Fraction
    patterns: tuple[Pattern, ...]

    @cached_property
    def sides(self) -> dict[str, PeekSide]:
        """Player and Banker: each policy's exact EV and RTP (computed once)."""
        return {side: _side(self.patterns, side, self.fee) for side in SIDES}

    @property
    def total(self) -> int:
        """Every ordered six-card sequence: ``(N)_6``."""
        return sum(pattern.ways * pattern.rounds for pattern in self.patterns)

    def chance(self, pattern: Pattern) -> Fraction:
        """The probability of seeing *pattern*."""
        return Fraction(pattern.ways * pattern.rounds, self.total)


def _policy_figures(
    patterns: tuple[Pattern, ...], side: str, fee: Fraction, raises: Iterable[int]
) -> tuple[Fraction, Fraction, Fraction]:
    """(EV per round with the fee, RTP, chance of raising) of one stake per pattern."""
    staked = returned = raised = total = 0
    pay = SIDES[side]
    for pattern, stake in zip(patterns, raises, strict=True):
        weight = pattern.ways
        wins, losses = (
            (pattern.player_wins, pattern.banker_wins)
            if side == "player"
            else (pattern.banker_wins, pattern.player_wins)
        )
        total += weight * pattern.rounds
        staked += weight * stake * pattern.rounds
        returned += (
            weight * stake * (pay.denominator * (pattern.rounds - losses) + pay.numerator * wins)
        )
        raised += weight * pattern.rounds if stake > 1 else 0
    money_back = Fraction(returned, pay.denominator)
    ev = (money_back - staked) / total - fee
    rtp = money_back / (fee * total + staked)
    return ev, rtp, Fraction(raised, total)


def policy_figures(
    solution: PeekSolution, side: str, raises: Mapping[str, int] | int
) -> tuple[Fraction, Fraction]:
    """(EV per round with the fee, RTP) of *side* under any policy: a stake per pattern's label.

    >>> from exactodds import Shoe
    >>> solution = solve_peek(Shoe.standard(decks=1), "P1")
    >>> policy_figures(solution, "player", 1)[1] == solution.sides["player"].never_raise_rtp
    True
    """
    stakes = [
        raises if isinstance(raises, int) else raises[pattern.label]
        for pattern in solution.patterns
    ]
    ev, rtp, _ = _policy_figures(solution.patterns, side, solution.fee, stakes)
    return ev, rtp


def _side(patterns: tuple[Pattern, ...], side: str, fee: Fraction) -> PeekSide:
    never_ev, never_rtp, _ = _policy_figures(patterns, side, fee, [1] * len(patterns))
    best = [pattern.best_raise(side) for pattern in patterns]  # 3x exactly where e > 0
    best_ev, best_rtp, best_chance = _policy_figures(patterns, side, fee, best)
    # Dinkelbach: the RTP-best policy raises where 1 + e beats the ratio; iterate to a fixed point.
    # Each step raises the ratio strictly until the policy repeats, so it ends.
    ratio = never_rtp
    returns = [1 + pattern.unit_ev(side) for pattern in patterns]
    while True:
        stakes = [RAISES[-1] if back > ratio else RAISES[0] for back in returns]
        rtp_ev, rtp_rtp, rtp_chance = _policy_figures(patterns, side, fee, stakes)
        if rtp_rtp <= ratio:
            break
        ratio = rtp_rtp
    return PeekSide(
        side=side,
        never_raise_ev=never_ev,
        never_raise_rtp=never_rtp,
        ev_best_ev=best_ev,
        ev_best_rtp=best_rtp,
        ev_best_raise_chance=best_chance,
        rtp_best_ev=rtp_ev,
        rtp_best_rtp=rtp_rtp,
        rtp_best_raise_chance=rtp_chance,
        rtp_raises={p.label: s for p, s in zip(patterns, stakes, strict=True)},
    )


def _ranks_for(values: tuple[int, ...], shoe: Shoe) -> tuple[str, ...] | None:
    """A rank symbol per value that the shoe can supply together (any rank of the value will do)."""
    left = list(shoe.rank_counts)
    symbols: list[str] = []
    for value in values:
        for index, rank in enumerate(RANKS):
            if VALUES[index] == value and left[index]:
                left[index] -= 1
                symbols.append(rank.symbol)
                break
        else:
            return None
    return tuple(symbols)


def _patterns(reveal: Reveal) -> Iterator[dict[int, int]]:
    """Every seen pattern of *reveal*, a hand's two shown cards in one order (smaller first)."""
    positions = reveal.positions
    for values in product(range(10), repeat=len(positions)):
        seen = dict(zip(positions, values, strict=True))
        if 1 in seen and 3 in seen and seen[1] > seen[3]:
            continue
        if 2 in seen and 4 in seen and seen[2] > seen[4]:
            continue
        yield seen


def _ways(seen: Mapping[int, int], value_counts: tuple[int, ...]) -> int:
    """Ordered choices of physical cards showing *seen*, both orders of a shown hand counted."""
    ways = 1
    for value in range(10):
        ways *= falling_factorial(value_counts[value], list(seen.values()).count(value))
    for first, second in ((1, 3), (2, 4)):
        if first in seen and second in seen and seen[first] != seen[second]:
            ways *= 2
    return ways


def solve_peek(
    shoe: Shoe,
    reveal: str | Reveal | Iterable[str | int],
    fee: Fraction | str | int = DEFAULT_FEE,
    tableau: Tableau | None = None,
) -> PeekSolution:
    """Solve Peek Baccarat for *shoe* when the cards of *reveal* are shown: every pattern counted.

    *fee* is the share of the original stake paid up front (20% by default; ``"20%"``,
    ``"1/5"`` or a Fraction); *tableau* the drawing rules (the standard one by default).

    >>> from exactodds import Shoe
    >>> solution = solve_peek(Shoe.standard(decks=8), "P1")
    >>> len(solution.patterns), solution.reveal.name
    (10, 'P1')
    >>> solve_peek(Shoe.standard(decks=8), "P1", fee="-5%")
    Traceback (most recent call last):
    ...
    exactodds.games.peek.PeekError: Fee '-5%' for `fee` is negative; use a share of the stake such as 20%, 0.2 or 1/5.
    """
    chosen = parse_reveal(reveal)
    rate = parse_number(fee, "`fee`") if not isinstance(fee, Fraction) else fee
    if rate < 0:
        raise PeekError(
            f"Fee {quoted(str(fee))} for `fee` is negative; use a share of the stake such as "
            "20%, 0.2 or 1/5."
        )
    require_countable(shoe)
    return _solved(shoe, chosen, rate, tableau if tableau is not None else Tableau())


#: A count of ordered six-card sequences split by who wins: (all, Player, Banker, Tie).
_Counts = tuple[int, int, int, int]


@lru_cache(maxsize=16)
def _four_card_counts(shoe: Shoe, tableau: Tableau) -> dict[tuple[int, ...], _Counts]:
    """The ordered six-card sequences of *shoe*, split by the values of its first four cards.

    Keyed by the values at positions 1-4 in that order; each entry counts the sequences that
    deal those values there, by winner.  Every reveal's patterns are sums of these entries, so
    a survey of all reveals walks the known-cards table once per set of four values (both
    orders of a hand's two cards deal the same totals, so they share one walk).
    """
    value_counts = shoe.value_counts
    counts: dict[tuple[int, ...], _Counts] = {}
    for values in product(range(10), repeat=4):
        player_first, banker_first, player_second, banker_second = values
        if player_first > player_second or banker_first > banker_second:
            continue
        ranks = _ranks_for(values, shoe)
        if ranks is None:
            continue
        table = enumerate_known(shoe, tableau, dict(zip((1, 2, 3, 4), ranks, strict=True)))
        wins = {winner: 0 for winner in Winner}
        for summary, count in table.counts.items():
            wins[summary.winner] += count
        ways = 1
        for value in range(10):
            ways *= falling_factorial(value_counts[value], values.count(value))
        entry: _Counts = (
            ways * table.total,
            ways * wins[Winner.PLAYER],
            ways * wins[Winner.BANKER],
            ways * wins[Winner.TIE],
        )
        for order in {
            values,
            (player_second, banker_first, player_first, banker_second),
            (player_first, banker_second, player_second, banker_first),
            (player_second, banker_second, player_first, banker_first),
        }:
            counts[order] = entry
    return counts


@lru_cache(maxsize=64)
def _solved(shoe: Shoe, chosen: Reveal, rate: Fraction, tableau: Tableau) -> PeekSolution:
    # Cached as the walk's tables are (every argument is immutable): a survey and the reveals
    # it shares with a single solve are counted once a process.
    positions = [position - 1 for position in chosen.positions]
    summed: dict[tuple[int, ...], list[int]] = {}
    for values, entry in _four_card_counts(shoe, tableau).items():
        shown = tuple(values[index] for index in positions)
        totals = summed.setdefault(shown, [0, 0, 0, 0])
        for index, count in enumerate(entry):
            totals[index] += count
    value_counts = shoe.value_counts
    patterns: list[Pattern] = []
    for seen in _patterns(chosen):
        ways = _ways(seen, value_counts)
        if not ways:
            continue
        orders = _orders(seen)
        added = [sum(summed.get(order, [0] * 4)[index] for order in orders) for index in range(4)]
        # Each way to see the pattern leaves the same values in the shoe, so each has the same
        # completions: the sums divide exactly.
        rounds, player_wins, banker_wins, ties = (count // ways for count in added)
        patterns.append(Pattern(seen, ways, rounds, player_wins, banker_wins, ties))
    return PeekSolution(shoe=shoe, reveal=chosen, fee=rate, patterns=tuple(patterns))


def _orders(seen: Mapping[int, int]) -> set[tuple[int, ...]]:
    """The values of *seen* in every order it stands for: a hand shown whole, either way round."""
    orders = {tuple(seen.values())}
    for first, second in ((1, 3), (2, 4)):
        if first in seen and second in seen:
            positions = list(seen)
            one, other = positions.index(first), positions.index(second)
            for order in list(orders):
                swapped = list(order)
                swapped[one], swapped[other] = order[other], order[one]
                orders.add(tuple(swapped))
    return orders


@dataclass(frozen=True)
class PeekSurvey:
    """Every reveal's solution (``--reveal each``): one entry per class of reveals that share
    every figure, as (the class's reveals, the solution of its first member).

    It iterates, indexes and counts as its tuple of entries.
    """

    entries: tuple[tuple[tuple[Reveal, ...], PeekSolution], ...]

    def __iter__(self) -> Iterator[tuple[tuple[Reveal, ...], PeekSolution]]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def __getitem__(self, index: int) -> tuple[tuple[Reveal, ...], PeekSolution]:
        return self.entries[index]


def survey_peek(
    shoe: Shoe, fee: Fraction | str | int = DEFAULT_FEE, tableau: Tableau | None = None
) -> PeekSurvey:
    """Every reveal's solution, one per class of :data:`REVEAL_CLASSES` (its first member).

    >>> from exactodds import Shoe
    >>> survey = survey_peek(Shoe.standard(decks=1))
    >>> [(len(members), solution.reveal.name) for members, solution in survey][:3]
    [(2, 'P1'), (2, 'B1'), (1, 'P1,P2')]
    """
    return PeekSurvey(
        tuple((members, solve_peek(shoe, members[0], fee, tableau)) for members in REVEAL_CLASSES)
    )
