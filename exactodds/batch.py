"""Exact analysis of many shoes fast: compile once, evaluate with numpy.

:class:`Analyzer` prepares, for one set of rules and bets, everything that
does not depend on the shoe: the count polynomials of the tableau
(:mod:`exactodds.polynomial`) projected onto the outcomes each bet needs.
Each shoe then costs a few vectorised integer operations, and many shoes
cost one matrix product per chunk.  Results are the same :class:`Analysis`
objects :func:`~exactodds.analysis.analyze` returns, with the same exact
values (the tests compare the two on random shoes).

Each bet is sorted once by what it reads from a round summary:

* value-level bets (Banker, Player, Tie, Dragon Bonus, Egalité, ...) read only
  totals, card counts and naturals, so their counts are sums of polynomial
  counts;
* pair bets (pairs, Perfect Pair) read only the pair states of the first two
  cards of each hand, whose joint counts have a closed form in the rank (and
  suit) counts;
* anything else (a user-defined bet mixing pairs and totals) is priced by the
  exact walk, shoe by shoe: still exact, only slower.

>>> from exactodds import Rules, Shoe
>>> from exactodds.catalogue import select_bets
>>> analyzer = Analyzer(Rules(), select_bets("all"))
>>> results = list(analyzer.analyze_many([Shoe.standard(decks=8), Shoe.standard(decks=6)]))
>>> results[0].bets["dragon7"].house_edge_percent(4), results[1].outcomes["tie"].count
('7.6113%', 83552962932288)
>>> analyzer.analyze(Shoe.from_ranks({"A": 5}))
Traceback (most recent call last):
...
exactodds.errors.ShoeError: The shoe holds 5 cards; a round is counted as a sequence of 6 cards, so a shoe needs at least 6.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from .analysis import SUITS_UNKNOWN, Analysis, BetAnalysis, OutcomeCount, price_bet
from .bets import Bet, main_bets
from .enumeration import RoundSummary, Winner, enumerate_rounds, falling_factorial, sequences
from .errors import ShoeError
from .polynomial import ValueKey, compile_tableau
from .rules import Rules
from .shoe import Shoe

__all__ = ["Analyzer", "BadLine", "analyze_many", "read_shoes"]

_PairState = tuple[int, int]
# Pair states of a hand: 0 no pair, 1 a pair (not suited, or suits unknown), 2 a suited pair.
_SUITED_STATES: tuple[_PairState, ...] = tuple((p, b) for p in range(3) for b in range(3))
_RANK_STATES: tuple[_PairState, ...] = tuple((p, b) for p in range(2) for b in range(2))


def _summary(key: ValueKey, states: _PairState, suits_known: bool) -> RoundSummary:
    player_state, banker_state = states
    return RoundSummary(
        *key,
        player_pair=player_state > 0,
        banker_pair=banker_state > 0,
        player_suited_pair=(player_state == 2) if suits_known else None,
        banker_suited_pair=(banker_state == 2) if suits_known else None,
    )


@dataclass(frozen=True)
class _ValueBet:
    bet: Bet
    # (outcome, column) for every outcome but the last; the last takes what is left.
    columns: tuple[tuple[str, int], ...]
    rest: str


@dataclass(frozen=True)
class _PairBet:
    bet: Bet
    suited: dict[_PairState, str]
    rank_only: dict[_PairState, str]


class Analyzer:
    """Exact analyses of any number of shoes under fixed rules and bets.

    Building one compiles the rules' count polynomials (cached per tableau,
    about 0.2 s the first time); after that :meth:`analyze` takes well under
    a millisecond per shoe and :meth:`analyze_many` streams results in input
    order, in chunks, with memory that does not grow with the input.

    >>> from exactodds import Rules, Shoe, analyze
    >>> shoe = Shoe.standard(decks=8).remove("A K 7 7 T")
    >>> Analyzer(Rules()).analyze(shoe).bets["banker"].expected_value == (
    ...     analyze(shoe, Rules()).bets["banker"].expected_value)
    True
    """

    def __init__(self, rules: Rules | None = None, bets: Iterable[Bet] | None = None) -> None:
        self.rules = rules if rules is not None else Rules()
        self.bets: tuple[Bet, ...] = (
            tuple(bets) if bets is not None else tuple(main_bets(self.rules))
        )
        self._compiled = compile_tableau(self.rules.tableau)
        keys = self._compiled.keys
        column_sets: dict[frozenset[int], int] = {}

        def column(indices: Iterable[int]) -> int:
            return column_sets.setdefault(frozenset(indices), len(column_sets))

        winners = [_summary(key, (0, 0), False).winner for key in keys]
        self._player_column = column(i for i, w in enumerate(winners) if w is Winner.PLAYER)
        self._tie_column = column(i for i, w in enumerate(winners) if w is Winner.TIE)
        self._value_bets: list[_ValueBet] = []
        self._pair_bets: list[_PairBet] = []
        self._walk_bets: list[Bet] = []
        for bet in self.bets:
            by_key = self._value_outcomes(bet)
            if by_key is not None:
                outcomes = sorted(set(by_key))
                columns = tuple(
                    (outcome, column(i for i, o in enumerate(by_key) if o == outcome))
                    for outcome in outcomes[:-1]
                )
                self._value_bets.append(_ValueBet(bet, columns, outcomes[-1]))
                continue
            pair_bet = self._pair_outcomes(bet)
            if pair_bet is not None:
                self._pair_bets.append(pair_bet)
            else:
                self._walk_bets.append(bet)
        matrix = np.zeros((len(keys), len(column_sets)), dtype=np.int64)
        for indices, index in column_sets.items():
            matrix[sorted(indices), index] = 1
        self._projection = self._compiled.project(matrix)

    def _value_outcomes(self, bet: Bet) -> list[str] | None:
        """The bet's outcome per value key, if pair states never change it."""
        outcomes = []
        for key in self._compiled.keys:
            seen = {
                bet.settle(_summary(key, states, suits))
                for suits, all_states in ((True, _SUITED_STATES), (False, _RANK_STATES))
                for states in all_states
            }
            if len(seen) != 1:
                return None
            outcomes.append(seen.pop())
        return outcomes

    def _pair_outcomes(self, bet: Bet) -> _PairBet | None:
        """The bet's outcome per pair state, if the value key never changes it."""
        tables: list[dict[_PairState, str]] = []
        for suits, all_states in ((True, _SUITED_STATES), (False, _RANK_STATES)):
            table = {}
            for states in all_states:
                seen = {bet.settle(_summary(key, states, suits)) for key in self._compiled.keys}
                if len(seen) != 1:
                    return None
                table[states] = seen.pop()
            tables.append(table)
        return _PairBet(bet, tables[0], tables[1])

    def routes(self) -> dict[str, str]:
        """How each bet is priced: ``"polynomial"``, ``"pairs"`` or ``"walk"``.

        >>> from exactodds.catalogue import select_bets
        >>> Analyzer(bets=select_bets("banker,either_pair")).routes()
        {'banker': 'polynomial', 'either_pair': 'pairs'}
        """
        routes = {value_bet.bet.name: "polynomial" for value_bet in self._value_bets}
        routes |= {pair_bet.bet.name: "pairs" for pair_bet in self._pair_bets}
        routes |= {bet.name: "walk" for bet in self._walk_bets}
        return {bet.name: routes[bet.name] for bet in self.bets}

    def analyze(self, shoe: Shoe) -> Analysis:
        """The exact analysis of one shoe (same values as :func:`~exactodds.analysis.analyze`)."""
        return next(iter(self.analyze_many([shoe])))

    def analyze_many(self, shoes: Iterable[Shoe], chunk_size: int = 1024) -> Iterator[Analysis]:
        """Exact analyses of *shoes*, in order, computed *chunk_size* shoes at a time."""
        if chunk_size < 1:
            raise ValueError(f"chunk_size must be at least 1, not {chunk_size}.")
        iterator = iter(shoes)
        while chunk := list(itertools.islice(iterator, chunk_size)):
            yield from self._chunk(chunk)

    def _chunk(self, shoes: Sequence[Shoe]) -> list[Analysis]:
        for shoe in shoes:
            if shoe.cards < 6:
                raise ShoeError(
                    f"The shoe holds {shoe.cards} cards; a round is counted as a sequence of 6 "
                    "cards, so a shoe needs at least 6."
                )
        values = np.array([shoe.value_counts for shoe in shoes], dtype=np.int64)
        columns = self._projection.evaluate(values)
        pair_counts = _pair_state_counts(shoes) if self._pair_bets else [None] * len(shoes)
        results = []
        for shoe, counts, pairs in zip(shoes, columns, pair_counts, strict=True):
            results.append(self._assemble(shoe, counts, pairs))
        return results

    def _assemble(
        self, shoe: Shoe, counts: list[int], pairs: dict[_PairState, int] | None
    ) -> Analysis:
        total = sequences(shoe.cards)
        player = counts[self._player_column]
        tie = counts[self._tie_column]
        outcomes = {
            "banker": OutcomeCount("banker", total - player - tie, total),
            "player": OutcomeCount("player", player, total),
            "tie": OutcomeCount("tie", tie, total),
        }
        priced: dict[str, BetAnalysis] = {}
        unavailable: dict[str, str] = {}
        for value_bet in self._value_bets:
            if value_bet.bet.needs_suits and not shoe.suits_known:
                unavailable[value_bet.bet.name] = SUITS_UNKNOWN
                continue
            outcome_counts = {outcome: counts[index] for outcome, index in value_bet.columns}
            outcome_counts[value_bet.rest] = total - sum(outcome_counts.values())
            priced[value_bet.bet.name] = BetAnalysis(value_bet.bet, outcome_counts, total)
        for pair_bet in self._pair_bets:
            if pair_bet.bet.needs_suits and not shoe.suits_known:
                unavailable[pair_bet.bet.name] = SUITS_UNKNOWN
                continue
            assert pairs is not None
            table = pair_bet.suited if shoe.suits_known else pair_bet.rank_only
            outcome_counts = {}
            for states, count in pairs.items():
                outcome = table[states]
                outcome_counts[outcome] = outcome_counts.get(outcome, 0) + count
            priced[pair_bet.bet.name] = BetAnalysis(pair_bet.bet, outcome_counts, total)
        if self._walk_bets:
            table_of_rounds = enumerate_rounds(shoe, self.rules.tableau)
            for bet in self._walk_bets:
                if bet.needs_suits and not shoe.suits_known:
                    unavailable[bet.name] = SUITS_UNKNOWN
                else:
                    priced[bet.name] = price_bet(table_of_rounds, bet)
        names = tuple(bet.name for bet in self.bets)
        ordered = {name: priced[name] for name in names if name in priced}
        return Analysis(shoe, self.rules, outcomes, ordered, unavailable, names)


def analyze_many(
    shoes: Iterable[Shoe],
    rules: Rules | None = None,
    bets: Iterable[Bet] | None = None,
    chunk_size: int = 1024,
) -> Iterator[Analysis]:
    """Exact analyses of many shoes, streamed in input order.

    >>> from exactodds import Shoe
    >>> [result.outcomes["tie"].count for result in analyze_many([Shoe.standard(decks=1)] * 2)]
    [1372227328, 1372227328]
    """
    return Analyzer(rules, bets).analyze_many(shoes, chunk_size)


def _pair_state_counts(shoes: Sequence[Shoe]) -> list[dict[_PairState, int]]:
    """Joint counts of (Player pair state, Banker pair state) per shoe, six-card convention.

    With ``a_r = ff(n_r, 2)`` (ordered same-rank pairs) and ``s_t = ff(n_t, 2)``
    (ordered same-card pairs), ``A = sum a_r`` and ``S = sum s_t``, the ordered
    first four cards P1 B1 P2 B2 give, with X/Y one of any, pair (same rank) or
    suited (same rank and suit) for the Player's and Banker's first two cards:

    * F(any, any) = ff(N, 4); F(pair, any) = A ff(N-2, 2); F(suited, any) = S ff(N-2, 2)
    * F(pair, pair) = A^2 - sum a_r^2 + sum ff(n_r, 4)
    * F(suited, suited) = S^2 - sum s_t^2 + sum ff(n_t, 4)
    * F(suited, pair) = sum_t s_t (A - a_r(t) + ff(n_r(t) - 2, 2))

    and F is symmetric between the hands.  Exclusive states come by
    inclusion-exclusion, and every count is multiplied by ff(N - 4, 2) for the
    two remaining positions of the six-card sequence.
    """
    results = []
    for shoe in shoes:
        total = shoe.cards
        ranks = shoe.rank_counts
        a = [count * (count - 1) for count in ranks]
        big_a = sum(a)
        f_any_any = falling_factorial(total, 4)
        f_pair_any = big_a * falling_factorial(total - 2, 2)
        f_pair_pair = (
            big_a * big_a
            - sum(x * x for x in a)
            + sum(falling_factorial(count, 4) for count in ranks)
        )
        tail = falling_factorial(total - 4, 2)
        if shoe.suit_counts is None:
            exclusive = {
                (0, 0): f_any_any - 2 * f_pair_any + f_pair_pair,
                (1, 0): f_pair_any - f_pair_pair,
                (0, 1): f_pair_any - f_pair_pair,
                (1, 1): f_pair_pair,
            }
        else:
            suits = shoe.suit_counts
            s = [count * (count - 1) for count in suits]
            big_s = sum(s)
            f_suited_any = big_s * falling_factorial(total - 2, 2)
            f_suited_suited = (
                big_s * big_s
                - sum(x * x for x in s)
                + sum(falling_factorial(count, 4) for count in suits)
            )
            f_suited_pair = sum(
                s[index] * (big_a - a[index // 4] + falling_factorial(ranks[index // 4] - 2, 2))
                for index in range(52)
                if s[index]
            )
            # Signed combinations of the nested sets any > pair > suited giving each state.
            state_sets = {0: {"any": 1, "pair": -1}, 1: {"pair": 1, "suited": -1}, 2: {"suited": 1}}
            joint = {
                ("any", "any"): f_any_any,
                ("any", "pair"): f_pair_any,
                ("pair", "any"): f_pair_any,
                ("any", "suited"): f_suited_any,
                ("suited", "any"): f_suited_any,
                ("pair", "pair"): f_pair_pair,
                ("suited", "suited"): f_suited_suited,
                ("suited", "pair"): f_suited_pair,
                ("pair", "suited"): f_suited_pair,
            }
            exclusive = {
                (player, banker): sum(
                    player_sign * banker_sign * joint[(player_set, banker_set)]
                    for player_set, player_sign in state_sets[player].items()
                    for banker_set, banker_sign in state_sets[banker].items()
                )
                for player in range(3)
                for banker in range(3)
            }
        results.append({states: count * tail for states, count in exclusive.items()})
    return results


@dataclass(frozen=True)
class BadLine:
    """A line of batch input that does not describe a shoe exactodds can count.

    >>> str(BadLine(7, "Count -1 for 'A' is negative; use a whole number of at least 0."))
    "Line 7: Count -1 for 'A' is negative; use a whole number of at least 0."
    """

    number: int
    message: str

    def __str__(self) -> str:
        return f"Line {self.number}: {self.message}"


def read_shoes(lines: Iterable[str], bad_lines: list[BadLine], skip_bad: bool) -> Iterator[Shoe]:
    """Shoes from JSON lines (each the object ``--shoe`` takes), in order, blank lines ignored.

    A bad line is appended to *bad_lines*; unless *skip_bad*, reading stops
    there, so that everything before it can still be written out first.

    >>> bad: list[BadLine] = []
    >>> [shoe.cards for shoe in read_shoes(['{"A": 6}', "", '{"A": 2}', '{"K": 7}'], bad, True)]
    [6, 7]
    >>> [str(line) for line in bad]
    ['Line 3: The shoe holds 2 cards; a round is counted as a sequence of 6 cards, so a shoe needs at least 6.']
    """
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if not text:
            continue
        try:
            shoe = Shoe.from_json(text)
            if shoe.cards < 6:
                raise ShoeError(
                    f"The shoe holds {shoe.cards} cards; a round is counted as a sequence of 6 "
                    "cards, so a shoe needs at least 6."
                )
        except ShoeError as error:
            bad_lines.append(BadLine(number, str(error)))
            if skip_bad:
                continue
            return
        yield shoe
