"""Exact analysis of many shoes fast: compile once, evaluate with numpy.

:class:`Analyzer` prepares, for one set of rules and bets, everything that
does not depend on the shoe: the count polynomials of the tableau
(:mod:`exactodds.engine.polynomial`) projected onto the outcomes each bet needs.
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
>>> from exactodds.bets.catalogue import select_bets
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

import collections
import itertools
import multiprocessing
import multiprocessing.pool
from collections.abc import Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Any

import numpy as np
import numpy.typing as npt

from exactodds.analysis.single import SUITS_UNKNOWN, Analysis, BetAnalysis, OutcomeCount, price_bet
from exactodds.bets.bet import Bet, bets_given
from exactodds.engine.polynomial import EXACT_INT64_LIMIT, ValueKey, compile_tableau
from exactodds.engine.walk import (
    RoundSummary,
    Winner,
    enumerate_rounds,
    require_countable,
    sequences,
    summary_of,
)
from exactodds.errors import ShoeError
from exactodds.rules import Rules
from exactodds.shoe import Shoe

__all__ = ["Analyzer", "BadLine", "analyze_many", "analyzer_for", "batch_lines", "read_shoes"]

_PairState = tuple[int, int]
# A chunk's numbers: columns, value-bet EV numerators (None where too large for int64), pairs.
_Numbers = tuple[
    list[list[int]], "list[list[int]] | list[None]", "Sequence[dict[_PairState, int] | None]"
]
# Pair states of a hand: 0 no pair, 1 a pair (not suited, or suits unknown), 2 a suited pair.
_SUITED_STATES: tuple[_PairState, ...] = tuple((p, b) for p in range(3) for b in range(3))
_RANK_STATES: tuple[_PairState, ...] = tuple((p, b) for p in range(2) for b in range(2))


@lru_cache(maxsize=8)
def _probes(
    keys: tuple[ValueKey, ...],
) -> tuple[tuple[tuple[bool, _PairState, RoundSummary], ...], ...]:
    """Per value key, a summary for every pair state, suits known and not (built once)."""
    return tuple(
        tuple(
            (suits, states, summary_of((*key, *states), suits))
            for suits, all_states in ((True, _SUITED_STATES), (False, _RANK_STATES))
            for states in all_states
        )
        for key in keys
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
        self.rules = Rules.given(rules)
        self.bets: tuple[Bet, ...] = bets_given(bets, self.rules)
        self._compiled = compile_tableau(self.rules.tableau)
        keys = self._compiled.keys
        column_sets: dict[frozenset[int], int] = {}

        def column(indices: Iterable[int]) -> int:
            return column_sets.setdefault(frozenset(indices), len(column_sets))

        winners = [summary_of((*key, 0, 0), False).winner for key in keys]
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
        self._route: dict[str, tuple[str, int]] = {}
        for route, group in (
            ("polynomial", [value_bet.bet for value_bet in self._value_bets]),
            ("pairs", [pair_bet.bet for pair_bet in self._pair_bets]),
            ("walk", self._walk_bets),
        ):
            for index, bet in enumerate(group):
                self._route[bet.name] = (route, index)
        self._needs_suits: Mapping[str, str] = MappingProxyType(
            {bet.name: SUITS_UNKNOWN for bet in self.bets if bet.needs_suits}
        )
        matrix = np.zeros((len(keys), len(column_sets)), dtype=np.int64)
        for indices, index in column_sets.items():
            matrix[sorted(indices), index] = 1
        self._projection = self._compiled.project(matrix)
        # EV numerators of the value-level bets are linear in the columns:
        # rest_pay * total + sum((pay - rest_pay) * column), integer pays over each bet's denominator.
        self._ev_weights = np.zeros((len(column_sets), len(self._value_bets)), dtype=np.int64)
        self._ev_rest = np.zeros(len(self._value_bets), dtype=np.int64)
        self._ev_largest = 1
        self._ev_denominators: list[int] = []
        for index, value_bet in enumerate(self._value_bets):
            pays, denominator = value_bet.bet.integer_pays()
            self._ev_denominators.append(denominator)
            self._ev_rest[index] = pays[value_bet.rest]
            for outcome, position in value_bet.columns:
                self._ev_weights[position, index] += pays[outcome] - pays[value_bet.rest]
            self._ev_largest = max(self._ev_largest, *(abs(pay) for pay in pays.values()))

    def _value_outcomes(self, bet: Bet) -> list[str] | None:
        """The bet's outcome per value key, if pair states never change it."""
        outcomes = []
        for probes in _probes(self._compiled.keys):
            seen = {bet.settle(summary) for _, _, summary in probes}
            if len(seen) != 1:
                return None
            outcomes.append(seen.pop())
        for outcome in set(outcomes):
            bet.pay(outcome)  # every outcome the bet can produce must have a pay
        return outcomes

    def _pair_outcomes(self, bet: Bet) -> _PairBet | None:
        """The bet's outcome per pair state, if the value key never changes it."""
        by_state: dict[tuple[bool, _PairState], set[str]] = {}
        for probes in _probes(self._compiled.keys):
            for suits, states, summary in probes:
                by_state.setdefault((suits, states), set()).add(bet.settle(summary))
        tables: tuple[dict[_PairState, str], dict[_PairState, str]] = ({}, {})
        for (suits, states), seen in by_state.items():
            if len(seen) != 1:
                return None
            tables[0 if suits else 1][states] = outcome = seen.pop()
            bet.pay(outcome)
        return _PairBet(bet, tables[0], tables[1])

    def routes(self) -> dict[str, str]:
        """How each bet is priced: ``"polynomial"``, ``"pairs"`` or ``"walk"``.

        >>> from exactodds.bets.catalogue import select_bets
        >>> Analyzer(bets=select_bets("banker,either_pair")).routes()
        {'banker': 'polynomial', 'either_pair': 'pairs'}
        """
        return {bet.name: self._route[bet.name][0] for bet in self.bets}

    def analyze(self, shoe: Shoe) -> Analysis:
        """The exact analysis of one shoe (same values as :func:`~exactodds.analysis.analyze`)."""
        return self._chunk([shoe], *self._numbers([shoe]))[0]

    def analyze_many(
        self, shoes: Iterable[Shoe], chunk_size: int = 256, prefetch: bool = True
    ) -> Iterator[Analysis]:
        """Exact analyses of *shoes*, in order, computed *chunk_size* shoes at a time.

        With *prefetch*, the numbers of the next chunk are computed on a second
        thread (numpy releases the interpreter lock) while this one hands out
        the current chunk's results, so on two cores the two overlap.
        """
        if chunk_size < 1:
            raise ValueError(f"chunk_size must be at least 1, not {chunk_size}.")
        iterator = iter(shoes)
        chunks = iter(lambda: list(itertools.islice(iterator, chunk_size)), [])
        if not prefetch:
            for chunk in chunks:
                yield from self._chunk(chunk, *self._numbers(chunk))
            return
        with ThreadPoolExecutor(max_workers=1) as pool:
            current = next(chunks, None)
            pending = pool.submit(self._numbers, current) if current else None
            while current is not None and pending is not None:
                following = next(chunks, None)
                numbers = pending.result()
                pending = pool.submit(self._numbers, following) if following else None
                yield from self._chunk(current, *numbers)
                current = following

    def _numbers(self, shoes: Sequence[Shoe]) -> _Numbers:
        """The evaluated columns, value-bet EV numerators and pair-state counts of a chunk."""
        for shoe in shoes:
            require_countable(shoe)
        values = np.array([shoe.value_counts for shoe in shoes], dtype=np.int64)
        columns = self._projection.evaluate(values)
        totals = [sequences(shoe.cards) for shoe in shoes]
        numerators: list[list[int]] | list[None] = [None] * len(shoes)
        if self._value_bets and max(totals) * self._ev_largest < EXACT_INT64_LIMIT:
            # Every numerator is at most (largest pay) * total < 2**62 in size, so int64
            # arithmetic, which wraps modulo 2**64 on the way, ends exact.
            counts = np.array(columns, dtype=np.int64)
            rests = np.array(totals, dtype=np.int64)[:, None] * self._ev_rest[None, :]
            numerators = (counts @ self._ev_weights + rests).tolist()
        pair_counts: Sequence[dict[_PairState, int] | None] = (
            _pair_state_counts(shoes) if self._pair_bets else [None] * len(shoes)
        )
        return columns, numerators, pair_counts

    def _chunk(
        self,
        shoes: Sequence[Shoe],
        columns: list[list[int]],
        numerators: list[list[int]] | list[None],
        pair_counts: Sequence[dict[_PairState, int] | None],
    ) -> list[Analysis]:
        names = tuple(bet.name for bet in self.bets)
        results = []
        for shoe, counts, evs, pairs in zip(shoes, columns, numerators, pair_counts, strict=True):
            total = sequences(shoe.cards)
            player = counts[self._player_column]
            tie = counts[self._tie_column]
            outcomes = {
                "banker": OutcomeCount("banker", total - player - tie, total),
                "player": OutcomeCount("player", player, total),
                "tie": OutcomeCount("tie", tie, total),
            }
            unavailable = (
                self._needs_suits if not shoe.suits_known and self._needs_suits else _NOTHING
            )
            bets = _Bets(self, shoe, total, counts, evs, pairs, unavailable)
            results.append(Analysis(shoe, self.rules, outcomes, bets, unavailable, names))
        return results

    def _price(
        self,
        name: str,
        shoe: Shoe,
        total: int,
        counts: list[int],
        pairs: dict[_PairState, int] | None,
    ) -> BetAnalysis:
        """One bet's exact counts from a shoe's evaluated columns (or by the walk)."""
        route, index = self._route[name]
        if route == "polynomial":
            value_bet = self._value_bets[index]
            outcome_counts = {outcome: counts[column] for outcome, column in value_bet.columns}
            outcome_counts[value_bet.rest] = total - sum(outcome_counts.values())
            return BetAnalysis(value_bet.bet, outcome_counts, total)
        if route == "pairs":
            pair_bet = self._pair_bets[index]
            assert pairs is not None
            table = pair_bet.suited if shoe.suits_known else pair_bet.rank_only
            outcome_counts = {}
            for states, count in pairs.items():
                outcome = table[states]
                outcome_counts[outcome] = outcome_counts.get(outcome, 0) + count
            return BetAnalysis(pair_bet.bet, outcome_counts, total)
        return price_bet(enumerate_rounds(shoe, self.rules.tableau), self._walk_bets[index])


_NOTHING: Mapping[str, str] = MappingProxyType({})


class _Bets(Mapping[str, BetAnalysis]):
    """A shoe's priced bets, each built from the shoe's exact counts when first read.

    Building a :class:`BetAnalysis` is cheap but not free; a research script
    that reads two bets of a thousand shoes should not pay for thirty.
    """

    __slots__ = (
        "_analyzer",
        "_cache",
        "_counts",
        "_names",
        "_numerators",
        "_pairs",
        "_shoe",
        "_total",
    )

    def __init__(
        self,
        analyzer: Analyzer,
        shoe: Shoe,
        total: int,
        counts: list[int],
        numerators: list[int] | None,
        pairs: dict[_PairState, int] | None,
        unavailable: Mapping[str, str],
    ) -> None:
        self._analyzer = analyzer
        self._shoe = shoe
        self._total = total
        self._counts = counts
        self._numerators = numerators
        self._pairs = pairs
        self._names = [bet.name for bet in analyzer.bets if bet.name not in unavailable]
        self._cache: dict[str, BetAnalysis] = {}

    def __getitem__(self, name: str) -> BetAnalysis:
        if name not in self._cache:
            if name not in self._names:
                raise KeyError(name)
            self._cache[name] = self._analyzer._price(
                name, self._shoe, self._total, self._counts, self._pairs
            )
        return self._cache[name]

    def __contains__(self, name: object) -> bool:
        # Mapping's default would build the bet's analysis just to answer.
        return name in self._cache or name in self._names

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)

    def __repr__(self) -> str:
        return f"<bets {', '.join(self._names)}>"

    def expected_value_ratio(self, name: str) -> tuple[int, int]:
        """A bet's EV as an unreduced (numerator, denominator), straight from the counts.

        The same value as ``Fraction(*self[name].moment_ratio())``, without
        building the bet's analysis: the batch command needs only this.
        """
        if name not in self._names:
            raise KeyError(name)
        route, index = self._analyzer._route[name]
        if route == "polynomial":
            if self._numerators is not None:
                denominator = self._analyzer._ev_denominators[index]
                return self._numerators[index], self._total * denominator
            value_bet = self._analyzer._value_bets[index]
            pays, denominator = value_bet.bet.integer_pays()
            rest = pays[value_bet.rest]
            numerator = rest * self._total + sum(
                (pays[outcome] - rest) * self._counts[column]
                for outcome, column in value_bet.columns
            )
            return numerator, self._total * denominator
        if route == "pairs":
            pair_bet = self._analyzer._pair_bets[index]
            pays, denominator = pair_bet.bet.integer_pays()
            table = pair_bet.suited if self._shoe.suits_known else pair_bet.rank_only
            assert self._pairs is not None
            numerator = sum(pays[table[states]] * count for states, count in self._pairs.items())
            return numerator, self._total * denominator
        return self[name].moment_ratio()


@lru_cache(maxsize=32)
def analyzer_for(rules: Rules, bets: tuple[Bet, ...]) -> Analyzer:
    """A shared :class:`Analyzer` for these rules and bets (building one sorts the bets).

    >>> from exactodds.bets.bet import main_bets
    >>> analyzer_for(Rules(), main_bets(Rules())) is analyzer_for(Rules(), main_bets(Rules()))
    True
    """
    return Analyzer(rules, bets)


def analyze_many(
    shoes: Iterable[Shoe],
    rules: Rules | None = None,
    bets: Iterable[Bet] | None = None,
    chunk_size: int = 256,
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

    Computed with int64 arrays while ff(N, 6) < 2**62: every result is below
    2**63, so wrapping intermediate values (int64 arithmetic is modulo 2**64)
    cannot change it; larger shoes use Python integers (object arrays).
    """
    small = [sequences(shoe.cards) < EXACT_INT64_LIMIT for shoe in shoes]
    results: list[dict[_PairState, int]] = [{} for _ in shoes]
    for suited in (False, True):
        for fits in (True, False):
            rows = [
                row
                for row, shoe in enumerate(shoes)
                if shoe.suits_known == suited and small[row] == fits
            ]
            if not rows:
                continue
            dtype: type = np.int64 if fits else object
            ranks: npt.NDArray[Any] = np.array(
                [shoes[row].rank_counts for row in rows], dtype=dtype
            )
            suits: npt.NDArray[Any] | None = (
                np.array([shoes[row].suit_counts for row in rows], dtype=dtype) if suited else None
            )
            for row, counts in zip(rows, _pair_states(ranks, suits), strict=True):
                results[row] = counts
    return results


def _pair_states(
    ranks: npt.NDArray[Any], suits: npt.NDArray[Any] | None
) -> list[dict[_PairState, int]]:
    """The exclusive joint pair-state counts for shoes given as rows of rank (and suit) counts."""
    total = ranks.sum(axis=1)
    a = ranks * (ranks - 1)
    big_a = a.sum(axis=1)
    four = (ranks * (ranks - 1) * (ranks - 2) * (ranks - 3)).sum(axis=1)
    f_any_any = total * (total - 1) * (total - 2) * (total - 3)
    f_pair_any = big_a * (total - 2) * (total - 3)
    f_pair_pair = big_a * big_a - (a * a).sum(axis=1) + four
    tail = (total - 4) * (total - 5)
    joint = {
        ("any", "any"): f_any_any,
        ("any", "pair"): f_pair_any,
        ("pair", "any"): f_pair_any,
        ("pair", "pair"): f_pair_pair,
    }
    state_sets: dict[int, dict[str, int]] = {0: {"any": 1, "pair": -1}, 1: {"pair": 1}}
    states = 2
    if suits is not None:
        s = suits * (suits - 1)
        big_s = s.sum(axis=1)
        f_suited_any = big_s * (total - 2) * (total - 3)
        f_suited_suited = (
            big_s * big_s
            - (s * s).sum(axis=1)
            + (suits * (suits - 1) * (suits - 2) * (suits - 3)).sum(axis=1)
        )
        # For a card type t of rank r: A - a_r + ff(n_r - 2, 2), the Banker's rank pairs left.
        left = big_a[:, None] - a + (ranks - 2) * (ranks - 3)
        f_suited_pair = (s * np.repeat(left, 4, axis=1)).sum(axis=1)
        joint |= {
            ("any", "suited"): f_suited_any,
            ("suited", "any"): f_suited_any,
            ("suited", "suited"): f_suited_suited,
            ("suited", "pair"): f_suited_pair,
            ("pair", "suited"): f_suited_pair,
        }
        state_sets = {0: {"any": 1, "pair": -1}, 1: {"pair": 1, "suited": -1}, 2: {"suited": 1}}
        states = 3
    columns = {}
    for player in range(states):
        for banker in range(states):
            combined = sum(
                player_sign * banker_sign * joint[(player_set, banker_set)]
                for player_set, player_sign in state_sets[player].items()
                for banker_set, banker_sign in state_sets[banker].items()
            )
            columns[(player, banker)] = (combined * tail).tolist()
    keys = list(columns)
    return [
        {key: int(value) for key, value in zip(keys, values, strict=True)}
        for values in zip(*columns.values(), strict=True)
    ]


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


def read_shoes(
    lines: Iterable[str], bad_lines: list[BadLine], skip_bad: bool, start: int = 1
) -> Iterator[Shoe]:
    """Shoes from JSON lines (each the object ``--shoe`` takes), in order, blank lines ignored.

    A bad line is appended to *bad_lines*; unless *skip_bad*, reading stops
    there, so that everything before it can still be written out first.

    >>> bad: list[BadLine] = []
    >>> [shoe.cards for shoe in read_shoes(['{"A": 6}', "", '{"A": 2}', '{"K": 7}'], bad, True)]
    [6, 7]
    >>> [str(line) for line in bad]
    ['Line 3: The shoe holds 2 cards; a round is counted as a sequence of 6 cards, so a shoe needs at least 6.']
    """
    for number, line in enumerate(lines, start=start):
        try:
            shoe = Shoe.from_json_line(line)  # every hostile-input rule lives behind this call
            if shoe is None:
                continue
            require_countable(shoe)
        except ShoeError as error:
            bad_lines.append(BadLine(number, str(error)))
            if skip_bad:
                continue
            return
        yield shoe


#: What a forked batch worker needs: the analyzer and the record settings (see batch_lines).
_WORKER: tuple[Analyzer, int, bool, bool] | None = None


def _batch_chunk(
    job: tuple[int, list[str]], settings: tuple[Analyzer, int, bool, bool] | None = None
) -> list[str | BadLine]:
    """A chunk's JSON lines as text blocks, with any bad lines in their places."""
    from exactodds.report.odds import batch_line

    analyzer, digits, full, skip_bad = settings or _WORKER or _missing_worker()
    start, lines = job
    bad: list[BadLine] = []
    # A worker process has a core to itself already: no prefetch thread inside it.
    shoes = read_shoes(lines, bad, skip_bad, start)
    records: list[str | BadLine] = [
        batch_line(analysis, digits, full)
        for analysis in analyzer.analyze_many(shoes, prefetch=settings is not None)
    ]
    if not bad:
        # One block of text per clean chunk: the parent writes it in one call.
        return ["".join(f"{record}\n" for record in records)] if records else []
    # Put each bad line back where it stood among the good ones.
    merged: list[str | BadLine] = []
    good = iter(records)
    bad_by_number = {line.number: line for line in bad}
    for number, text in enumerate(lines, start=start):
        if number in bad_by_number:
            merged.append(bad_by_number[number])
            if not skip_bad:
                break
        elif text.strip():
            merged.append(f"{next(good)}\n")
    return merged


def _missing_worker() -> tuple[Analyzer, int, bool, bool]:
    raise RuntimeError("batch worker started without its analyzer")


def batch_lines(
    lines: Iterable[str],
    analyzer: Analyzer,
    digits: int = 10,
    full: bool = False,
    skip_bad: bool = False,
    jobs: int = 1,
    chunk_lines: int = 2048,
) -> Iterator[str | BadLine]:
    """``exactodds batch``: a JSON result line per input line, in input order.

    Yields blocks of text, each one or more whole lines ending in a newline,
    and, for a bad input line, a :class:`BadLine` in its place; unless
    *skip_bad*, nothing follows a bad line.  With *jobs* > 1, chunks of lines are
    computed by that many worker processes (forked, so they share the
    compiled analyzer), at most two chunks per worker in flight, so memory
    stays flat however long the input.

    >>> out = list(batch_lines(['{"A": 6}', "{bad", '{"K": 6}'], Analyzer(), digits=2))
    >>> out[0][:40], str(out[1])[:30], len(out)
    ('{"shoe": {"cards": 6, "ranks": {"A": 6, ', 'Line 2: Shoe JSON is malformed', 2)
    >>> [block.count("\\n") for block in batch_lines(['{"A": 6}', '{"K": 6}'], Analyzer())]
    [2]
    """
    chunks = _numbered_chunks(lines, chunk_lines)
    settings = (analyzer, digits, full, skip_bad)
    if jobs <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        for chunk in chunks:
            for item in _batch_chunk(chunk, settings):
                yield item
                if isinstance(item, BadLine) and not skip_bad:
                    return
        return
    global _WORKER
    _WORKER = settings
    context = multiprocessing.get_context("fork")
    with context.Pool(jobs) as pool:
        pending: collections.deque[multiprocessing.pool.AsyncResult[list[str | BadLine]]]
        pending = collections.deque()
        chunks_left = True
        while chunks_left or pending:
            while chunks_left and len(pending) < 2 * jobs:
                next_chunk = next(chunks, None)
                if next_chunk is None:
                    chunks_left = False
                else:
                    pending.append(pool.apply_async(_batch_chunk, (next_chunk,)))
            if not pending:
                break
            for item in pending.popleft().get():
                yield item
                if isinstance(item, BadLine) and not skip_bad:
                    pool.terminate()
                    return


def _numbered_chunks(lines: Iterable[str], size: int) -> Iterator[tuple[int, list[str]]]:
    iterator = iter(lines)
    start = 1
    while chunk := list(itertools.islice(iterator, size)):
        yield start, chunk
        start += len(chunk)
