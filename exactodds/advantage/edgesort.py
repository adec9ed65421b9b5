"""Edge sorting: the best bet for every pattern of card groups the player can see.

The cards are sorted into two groups, "high" and "low", that the player can tell apart by their
backs.  Before betting he sees the group of each of the first ``cards`` cards of the round (in
dealing order P1, B1, P2, B2).  For each pattern of groups, :func:`edge_sort` gives its exact
probability and every bet's exact EV given it, averaged over the cards that fit the pattern;
the player bets the best bet when its EV is positive and nothing otherwise, and the advantage
is that best positive EV averaged over all rounds.  :func:`search_partitions` tries every
two-group split of the ten values (or of the 13 ranks).

How it counts: for every tuple of the first four values, the known-card walk
(:func:`~exactodds.engine.known.enumerate_known`) counts the rounds that follow; each tuple's
net pay numerator, times the number of ordered ways to deal its four cards, is an integer, and
a pattern's EV is the sum of those over the tuples it holds, divided by the rounds it holds.
On an infinite shoe (cards drawn with replacement) the same walk deals with replacement: a
tuple's ways are powers of its class counts, the rounds that follow independent draws from the
full shoe, and the advantage the limit of the finite shoes' as the decks grow.

>>> from exactodds import Shoe
>>> result = edge_sort(Shoe.standard(decks=8), high="6789", cards=1)
>>> [(p.groups, p.best_bet) for p in result.patterns]
[('L', 'banker'), ('H', 'player')]
>>> round(float(result.advantage), 5)
0.06765
>>> edge_sort(Shoe.standard(decks=8), high="", cards=1)
Traceback (most recent call last):
...
exactodds.advantage.edgesort.EdgeSortError: The high group '' is empty; name some of the values 0-9 (or ranks, with by='rank') and leave some out.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from exactodds.advantage.depth import value_level_bets
from exactodds.bets.bet import Bet, bets_given
from exactodds.cards import RANKS, VALUES, parse_rank
from exactodds.engine.known import enumerate_known
from exactodds.engine.walk import ordered_ways, require_countable
from exactodds.errors import ExactOddsError, quoted
from exactodds.inputs import whole_number
from exactodds.numbers import fraction_string
from exactodds.rules import Rules
from exactodds.shoe import Shoe

__all__ = [
    "EdgeSort",
    "EdgeSortError",
    "PartitionSearch",
    "Pattern",
    "edge_sort",
    "search_partitions",
]

_SYMBOLS = "TA23456789"  # a rank of each value 0-9, to stand for the value in a known-card walk
_POSITIONS = ("P1", "B1", "P2", "B2")


class EdgeSortError(ExactOddsError):
    """A group, a number of cards or a bet that edge sorting cannot take."""


@dataclass(frozen=True)
class Pattern:
    """One pattern of groups seen (``H``/``L`` per card, P1 B1 P2 B2 order) and its best bet."""

    groups: str
    probability: Fraction
    evs: tuple[tuple[str, Fraction], ...]
    best_bet: str | None
    ev: Fraction | None

    def to_dict(self) -> dict[str, Any]:
        """``groups``, ``probability``, ``best_bet``, ``ev`` and every bet's EV, exact."""
        return {
            "groups": self.groups,
            "probability": fraction_string(self.probability),
            "best_bet": self.best_bet,
            "ev": None if self.ev is None else fraction_string(self.ev),
            "evs": {name: fraction_string(ev) for name, ev in self.evs},
        }


@dataclass(frozen=True)
class EdgeSort:
    """The advantage of one grouping: per pattern its probability and best bet.

    ``high`` holds value digits (``by="value"``) or rank symbols (``by="rank"``).
    """

    high: str
    by: str
    cards: int
    patterns: tuple[Pattern, ...]
    advantage: Fraction

    def to_dict(self) -> dict[str, Any]:
        """The JSON contract: ``advantage`` ("n/d"), ``patterns``, and the grouping."""
        return {
            "high": self.high,
            "by": self.by,
            "cards": self.cards,
            "seen": list(_POSITIONS[: self.cards]),
            "advantage": fraction_string(self.advantage),
            "patterns": [pattern.to_dict() for pattern in self.patterns],
        }


@dataclass(frozen=True)
class PartitionSearch:
    """The splits :func:`search_partitions` found, each with its advantage, best first.

    >>> search = PartitionSearch((("6789", Fraction(1, 50)), ("789", Fraction(1, 80))))
    >>> search.to_dict()["best"][0]
    {'high': '6789', 'advantage': '1/50'}
    """

    best: tuple[tuple[str, Fraction], ...]

    def to_dict(self) -> dict[str, Any]:
        """``best``: every split's high group and exact advantage; ``partitions``: how many."""
        return {
            "best": [
                {"high": high, "advantage": fraction_string(advantage)}
                for high, advantage in self.best
            ],
            "partitions": len(self.best),
        }


@dataclass(frozen=True, eq=False)
class _Tuples:
    """Every tuple of the first four cards' classes (values or ranks), its weight, its numerators.

    ``classes``: (tuples x 4) class indices; ``weights``: ordered ways to deal the four cards;
    ``numerators``: (tuples x bets) weight times the net pay numerator of the rounds that follow.
    """

    classes: Any
    weights: Any
    numerators: Any
    denominators: tuple[int, ...]
    total: int


def _check_bets(bets: Sequence[Bet], rules: Rules) -> None:
    _, skipped = value_level_bets(bets, rules)
    if skipped:
        raise EdgeSortError(
            f"Bet {quoted(skipped[0])} depends on pairs or suits, which the groups of the "
            "cards do not show; use value-level bets (banker, player, tie, dragon7, ...)."
        )


#: A progress callback: ``(done, total, step)``, the step a few words saying what is counted.
Progress = Callable[[int, int, str], None]

#: The tuples of the last few shoes, rules and bets (by value or rank): a search and a sort of
#: one shoe walk its rounds once.  A dict, not ``lru_cache``, so that a progress callback is no
#: part of the key.
_TUPLES: dict[tuple[str, Shoe, Rules, tuple[Bet, ...]], _Tuples] = {}
_TUPLES_KEPT = 8


def _tuples(
    shoe: Shoe, rules: Rules, bets: tuple[Bet, ...], by: str, progress: Progress | None
) -> _Tuples:
    """The value (or rank) tuples of the first four cards, computed once per shoe, rules, bets."""
    key = (by, shoe, rules, bets)
    if key not in _TUPLES:
        count = _value_numerators if by == "value" else _rank_numerators
        tuples = count(shoe, rules, bets, progress)
        while len(_TUPLES) >= _TUPLES_KEPT:
            del _TUPLES[next(iter(_TUPLES))]
        _TUPLES[key] = tuples
    return _TUPLES[key]


def _value_numerators(
    shoe: Shoe, rules: Rules, bets: tuple[Bet, ...], progress: Progress | None = None
) -> _Tuples:
    """Per tuple of the first four values: weight and weighted net pay numerators."""
    counts = shoe.value_counts
    taken = 0 if shoe.infinite else 1  # cards a draw takes from its class
    # One rank per value holds all of that value's cards: the walk of a value-level bet sees the
    # same value counts, and every feasible value tuple has its cards in this shoe.
    by_value = Shoe.from_ranks({_SYMBOLS[value]: count for value, count in enumerate(counts)})
    shoe = Shoe(by_value.rank_counts, infinite=shoe.infinite)
    integer_pays = [bet.integer_pays() for bet in bets]
    rows, weights, numerators = [], [], []
    # A hand's two first cards in either order deal the same hand: each order of P1, P2 and of
    # B1, B2 shares the walk of the tuple with the smaller value first.
    walked: dict[tuple[int, ...], list[int]] = {}
    for done, values in enumerate(itertools.product(range(10), repeat=4)):
        if progress is not None and done % 100 == 0:
            progress(done, 10**4, "first four cards' values")
        weight = ordered_ways(counts, values, taken)
        if weight == 0:
            continue
        player, banker = sorted(values[0::2]), sorted(values[1::2])
        ordered = (player[0], banker[0], player[1], banker[1])
        sums = walked.get(ordered)
        if sums is None:
            known = {position + 1: _SYMBOLS[value] for position, value in enumerate(ordered)}
            table = enumerate_known(shoe, rules.tableau, known)
            sums = walked[ordered] = [0] * len(bets)
            for summary, count in table:
                for index, bet in enumerate(bets):
                    sums[index] += integer_pays[index][0][bet.settle(summary)] * count
        rows.append(values)
        weights.append(weight)
        numerators.append([weight * s for s in sums])
    if progress is not None:
        progress(10**4, 10**4, "first four cards' values")
    return _arrays(rows, weights, numerators, [d for _, d in integer_pays], shoe)


def _arrays(
    rows: list[Any],
    weights: list[int],
    numerators: list[list[int]],
    denominators: list[int],
    shoe: Shoe,
) -> _Tuples:
    total = shoe.sequences
    bound = sum(abs(n) for row in numerators for n in row) + sum(weights)
    dtype: Any = np.int64 if bound < 2**62 else object
    return _Tuples(
        np.array(rows, dtype=np.int64),
        np.array(weights, dtype=dtype),
        np.array(numerators, dtype=dtype),
        tuple(denominators),
        total,
    )


def _rank_numerators(
    shoe: Shoe, rules: Rules, bets: tuple[Bet, ...], progress: Progress | None = None
) -> _Tuples:
    """The same by rank: each rank tuple weighs its own ordered ways, numerators by value."""
    by_value = _tuples(shoe, rules, bets, "value", progress)
    per_value = {
        tuple(row): (int(w), [int(n) for n in numerators])
        for row, w, numerators in zip(
            by_value.classes.tolist(), by_value.weights, by_value.numerators, strict=True
        )
    }
    counts = shoe.rank_counts
    taken = 0 if shoe.infinite else 1
    rows, weights, numerators = [], [], []
    for ranks in itertools.product(range(13), repeat=4):
        weight = ordered_ways(counts, ranks, taken)
        if weight == 0:
            continue
        values = tuple(VALUES[rank] for rank in ranks)
        value_weight, value_numerators = per_value[values]
        rows.append(ranks)
        weights.append(weight)
        # The rounds after the four cards depend on their values only: scale the value tuple's.
        numerators.append([n // value_weight * weight for n in value_numerators])
    return _arrays(rows, weights, numerators, list(by_value.denominators), shoe)


def _high_classes(high: str | Iterable[str], by: str) -> frozenset[int]:
    """The high group as class indices: values 0-9, or rank indices 0-12."""
    if isinstance(high, str):
        text = high
    elif isinstance(high, Iterable) and all(isinstance(item, str) for item in high):
        text = ",".join(high)
    else:
        raise EdgeSortError(
            f"high is {quoted(repr(high), 40)[1:-1]}, not text; give the group as text such as "
            "'6789' or a list of text such as ['6', '7', '8', '9']."
        )
    items = [item for item in text.replace(",", " ").split()]
    if by == "value" and len(items) == 1 and (items[0].isascii() and items[0].isdigit()):
        items = list(items[0])
    if by == "value":
        if not all((item.isascii() and item.isdigit()) and len(item) == 1 for item in items):
            raise EdgeSortError(
                f"The high group {quoted(text)} is not a list of values; use digits 0-9, "
                "such as 6789 or 6,7,8,9."
            )
        chosen = frozenset(int(item) for item in items)
        size = 10
    else:
        if len(items) == 1 and len(items[0]) > 1:
            # A run of ranks such as 10JQK or 6789TJ: "10" is the ten, every other letter one rank.
            items = re.findall(r"10|.", items[0])
        chosen = frozenset(parse_rank(item).index for item in items)
        size = 13
    if not chosen or len(chosen) == size:
        what = "empty" if not chosen else "everything"
        raise EdgeSortError(
            f"The high group {quoted(text)} is {what}; name some of the values 0-9 (or ranks, "
            "with by='rank') and leave some out."
        )
    return chosen


def _evaluate(tuples: _Tuples, high: frozenset[int], cards: int) -> tuple[Any, Any]:
    """Per pattern: the weight (four-card ways) and the numerators, summed exactly."""
    bits = np.isin(tuples.classes[:, :cards], sorted(high)).astype(np.int64)
    index = (bits * (1 << np.arange(cards - 1, -1, -1))).sum(axis=1)
    weights = np.zeros(1 << cards, dtype=tuples.weights.dtype)
    numerators = np.zeros((1 << cards, tuples.numerators.shape[1]), dtype=tuples.weights.dtype)
    np.add.at(weights, index, tuples.weights)
    np.add.at(numerators, index, tuples.numerators)
    return weights, numerators


def _advantage(tuples: _Tuples, weights: Any, numerators: Any) -> Fraction:
    """The best positive EV averaged over all rounds, exactly, for pattern sums."""
    # Each numerator counts six-card sequences: four-card ways times the rounds that follow.
    best = Fraction(0)
    for row in numerators.tolist():
        top = max(Fraction(int(n), d) for n, d in zip(row, tuples.denominators, strict=True))
        if top > 0:
            best += top
    return best / tuples.total


def edge_sort(
    shoe: Shoe,
    rules: Rules | None = None,
    bets: Iterable[Bet] | None = None,
    high: str | Iterable[str] = "6789",
    cards: int = 4,
    by: str = "value",
    progress: Progress | None = None,
) -> EdgeSort:
    """The exact advantage of seeing the groups of the first *cards* cards (1-4) before betting.

    *high* lists the high group: values (``"6789"`` or ``"6,7,8,9"``) or, with ``by="rank"``,
    ranks (``"6789TJ"``); the rest are low.  *bets* default to Banker, Player and Tie as
    *rules* pay them.  *progress*, if given, is called now and then with the tuples of the
    first four cards counted so far, their number and what they are.
    """
    rules, chosen, tuples = _prepare(shoe, rules, bets, cards, by, progress)
    classes = _high_classes(high, by)
    weights, numerators = _evaluate(tuples, classes, cards)
    follow = tuples.total // int(tuples.weights.sum())
    patterns = []
    for index in range(1 << cards):
        groups = "".join("H" if index >> (cards - 1 - i) & 1 else "L" for i in range(cards))
        weight = int(weights[index])
        if weight == 0:
            continue
        evs = tuple(
            (bet.name, Fraction(int(n), weight * follow * d))
            for bet, n, d in zip(
                chosen, numerators[index].tolist(), tuples.denominators, strict=True
            )
        )
        name, ev = max(evs, key=lambda item: item[1])
        patterns.append(
            Pattern(
                groups,
                Fraction(weight, int(tuples.weights.sum())),
                evs,
                name if ev > 0 else None,
                ev if ev > 0 else None,
            )
        )
    advantage = sum((p.probability * p.ev for p in patterns if p.ev is not None), Fraction(0))
    return EdgeSort(_label(classes, by), by, cards, tuple(patterns), advantage)


def _prepare(
    shoe: Shoe,
    rules: Rules | None,
    bets: Iterable[Bet] | None,
    cards: int,
    by: str,
    progress: Progress | None = None,
) -> tuple[Rules, tuple[Bet, ...], _Tuples]:
    rules = Rules.given(rules)
    chosen = bets_given(bets, rules)
    require_countable(shoe)
    whole_number(cards, "cards", EdgeSortError, minimum=1, maximum=4, what="Number of cards seen")
    if not isinstance(by, str) or by not in ("value", "rank"):
        raise EdgeSortError(f"Grouping by {by!r} is not valid; use 'value' or 'rank'.")
    if not chosen:
        raise EdgeSortError("No bets were chosen; edge sorting needs at least one bet.")
    _check_bets(chosen, rules)
    plain = shoe.without_suits()
    if plain.cards < 6 and not plain.infinite:
        raise EdgeSortError(f"The shoe holds {plain.cards} cards; a round needs at least 6.")
    return rules, chosen, _tuples(plain, rules, chosen, by, progress)


def _label(classes: frozenset[int], by: str) -> str:
    if by == "value":
        return "".join(str(value) for value in sorted(classes))
    return "".join(RANKS[index].symbol for index in sorted(classes))


def search_partitions(
    shoe: Shoe,
    rules: Rules | None = None,
    bets: Iterable[Bet] | None = None,
    cards: int = 4,
    by: str = "value",
    progress: Progress | None = None,
) -> tuple[tuple[str, Fraction], ...]:
    """Every split into two groups and its advantage, best first.

    The high group is taken to be the one holding the 9 (both labels give the same advantage),
    so each split is listed once: 511 by value, 4095 by rank.  *progress*, if given, is called
    now and then as :func:`edge_sort` calls it, then with the splits tried so far.
    """
    _, _, tuples = _prepare(shoe, rules, bets, cards, by, progress)
    size = 10 if by == "value" else 13
    nine = 9 if by == "value" else 8  # rank index of the 9
    others = [c for c in range(size) if c != nine]
    found = []
    splits = (1 << len(others)) - 1
    for mask in range(splits):
        if progress is not None and mask % 16 == 0:
            progress(mask, splits, "splits")
        classes = frozenset([nine] + [c for i, c in enumerate(others) if mask >> i & 1])
        weights, numerators = _evaluate(tuples, classes, cards)
        found.append((_label(classes, by), _advantage(tuples, weights, numerators)))
    if progress is not None:
        progress(splits, splits, "splits")
    found.sort(key=lambda item: (-item[1], item[0]))
    return tuple(found)
