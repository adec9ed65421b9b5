"""Exact analysis of many shoes fast: compile once, evaluate in the compiled kernel.

:class:`Analyzer` prepares, for one set of rules and bets, everything that
does not depend on the shoe: a kernel program (:mod:`exactodds.engine.kernel`)
whose outputs are the outcome counts and EV numerators of every bet, as
integer weights on the count polynomials of the tableau
(:mod:`exactodds.engine.polynomial`) and on the pair states.  Each shoe then
costs some tens of microseconds in the compiled kernel, exact for any shoe.
Results are the same :class:`Analysis` objects
:func:`~exactodds.analysis.single.analyze` returns, with the same exact
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

import array
import itertools
import threading
from collections.abc import ItemsView, Iterable, Iterator, Mapping, Sequence, ValuesView
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache
from types import MappingProxyType
from typing import Any

import numpy as np

from exactodds.analysis.routing import BetRoute, key_winners, route_bet
from exactodds.analysis.single import (
    SUITS_UNKNOWN,
    Analysis,
    BetAnalysis,
    OutcomeCount,
    analyze,
    price_bet,
)
from exactodds.bets.bet import Bet, bets_given
from exactodds.engine.kernel.program import (
    Evaluation,
    IntArray,
    Program,
    build_program,
    evaluate,
    evaluate_one,
    input_count,
    native_module,
    rank_pair_input,
    suited_pair_input,
)
from exactodds.engine.polynomial import compile_tableau
from exactodds.engine.walk import (
    Winner,
    enumerate_rounds,
    require_countable,
    sequences,
)
from exactodds.errors import BetError, ShoeError
from exactodds.inputs import boolean, whole_number
from exactodds.numbers import MAX_DIGITS
from exactodds.rules import Rules
from exactodds.shoe import Shoe

__all__ = [
    "PLAYER_OUTPUT",
    "TIE_OUTPUT",
    "Analyzer",
    "ExpectedValueTable",
    "LeanOutput",
    "analyze_many",
    "analyzer_for",
    "count_rows",
    "require_countable_cards",
]

#: Kernel outputs 0 and 1 of every Analyzer program: the Player and Tie counts.
PLAYER_OUTPUT, TIE_OUTPUT = 0, 1


@dataclass(frozen=True)
class LeanOutput:
    """Where a bet's exact EV numerator comes out of :meth:`Analyzer.lean_outputs`' program.

    Its EV is ``outputs[output] / (total * denominator)``, ``total`` the shoe's ``ff(N, 6)``.
    """

    bet: str
    needs_suits: bool
    output: int
    denominator: int


@dataclass(frozen=True)
class _Priced:
    """A bet the kernel prices: its outcome per kernel input, and where its outputs go."""

    bet: Bet
    #: Per kernel input (keys, then the 13 pair states), the outcome, or None if unused.
    outcomes: tuple[str | None, ...]
    #: The kernel output of the EV numerator (integer pays over ``denominator``).
    ev_output: int
    denominator: int
    #: (outcome, kernel output) for every outcome but the last; the last takes what is left.
    counts: tuple[tuple[str, int], ...]
    rest: str
    #: Every outcome of the pay table (and any other the bet produces), in name order.
    listed: tuple[str, ...] = ()


class Analyzer:
    """Exact analyses of any number of shoes under fixed rules and bets.

    Building one compiles the rules' count polynomials (cached per tableau)
    and a kernel program for the bets; after that :meth:`analyze` takes tens
    of microseconds per shoe and :meth:`analyze_many` streams results in input
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
        self._keys = len(keys)
        self._priced: dict[str, _Priced] = {}
        self._walk_bets: dict[str, Bet] = {}
        self._route: dict[str, str] = {}
        next_output = 2
        for bet in self.bets:
            route = route_bet(bet, keys)
            for produced in sorted(route.produced):
                bet.pay(produced)  # every outcome the bet can produce must have a pay
            outcomes = self._kernel_outcomes(route)
            self._route[bet.name] = route.how
            if outcomes is None:
                self._walk_bets[bet.name] = bet
                continue
            used = sorted({outcome for outcome in outcomes if outcome is not None})
            _, denominator = bet.integer_pays()
            counts = tuple(
                (outcome, next_output + 1 + index) for index, outcome in enumerate(used[:-1])
            )
            listed = tuple(sorted({*bet.pay_table, *used}))
            self._priced[bet.name] = _Priced(
                bet, outcomes, next_output, denominator, counts, used[-1], listed
            )
            next_output += len(used)
        self._outputs = next_output
        weights = self._weight_rows(key_winners(keys), next_output)
        self._weights = weights
        self._program = build_program(self._compiled, weights)
        # The compiled one-shoe functions, when the program runs in the compiled kernel.
        native = native_module() if self._program.native is not None else None
        self._native = native if hasattr(native, "bet_analyses") else None
        self._blank = array.array("q", bytes(8 * self._program.outputs))
        self._lean: dict[bool, Program] = {}
        # Lazy programs are built once even when threads ask at the same time.
        self._building = threading.Lock()
        self._lean_outputs = {name: 2 + index for index, name in enumerate(self._priced)}
        self._needs_suits: Mapping[str, str] = MappingProxyType(
            {bet.name: SUITS_UNKNOWN for bet in self.bets if bet.needs_suits}
        )
        self._names = tuple(bet.name for bet in self.bets)
        # The names a shoe's bets mapping lists: every bet, or (suits unknown) the rest.
        rank_only = tuple(name for name in self._names if name not in self._needs_suits)
        self._available = {
            False: (self._names, frozenset(self._names)),
            True: (rank_only, frozenset(rank_only)),
        }
        # Where a bet comes in the list of every listed bet's analysis, per kind of shoe.
        self._positions = {
            rank_only_shoe: {name: index for index, name in enumerate(names)}
            for rank_only_shoe, (names, _) in self._available.items()
        }
        # For the compiled kernel's bet_analyses, per kind of shoe whose every listed bet
        # it prices: each bet, its EV numerator's output and its pay denominator.
        self._native_makers = {
            rank_only_shoe: tuple(
                (
                    self._priced[name].bet,
                    self._priced[name].ev_output,
                    self._priced[name].denominator,
                )
                for name in names
            )
            for rank_only_shoe, (names, _) in self._available.items()
            if self._native is not None and all(name in self._priced for name in names)
        }

    def _kernel_outcomes(self, route: BetRoute) -> tuple[str | None, ...] | None:
        """The bet's outcome per kernel input on its route (None for an unused input or route)."""
        outcomes: list[str | None] = [None] * input_count(self._keys)
        if route.how == "polynomial":
            outcomes[: self._keys] = route.key_outcomes
        elif route.how == "pairs":
            for (suits, (player, banker)), outcome in route.pair_outcomes:
                place = suited_pair_input if suits else rank_pair_input
                outcomes[place(self._keys, player, banker)] = outcome
        else:
            return None
        return tuple(outcomes)

    def _weight_rows(self, winners: Sequence[Winner], outputs: int) -> list[list[int]]:
        """One row per kernel input: the Player and Tie counts, each bet's counts and EV."""
        weights = [[0] * outputs for _ in range(input_count(self._keys))]
        for key, winner in enumerate(winners):
            if winner is Winner.PLAYER:
                weights[key][PLAYER_OUTPUT] = 1
            elif winner is Winner.TIE:
                weights[key][TIE_OUTPUT] = 1
        for priced in self._priced.values():
            pays, _ = priced.bet.integer_pays()
            column = dict(priced.counts)
            for row, outcome in enumerate(priced.outcomes):
                if outcome is not None:
                    weights[row][priced.ev_output] = pays[outcome]
                    if outcome in column:
                        weights[row][column[outcome]] = 1
        return weights

    def routes(self) -> dict[str, str]:
        """How each bet is priced: ``"polynomial"``, ``"pairs"`` or ``"walk"``.

        >>> from exactodds.bets.catalogue import select_bets
        >>> Analyzer(bets=select_bets("banker,either_pair")).routes()
        {'banker': 'polynomial', 'either_pair': 'pairs'}
        """
        return {bet.name: self._route[bet.name] for bet in self.bets}

    def analyze(self, shoe: Shoe) -> Analysis:
        """The exact analysis of one shoe (same values as :func:`~exactodds.analysis.single.analyze`).

        An infinite shoe is :func:`~exactodds.analysis.single.analyze`'s (the walk with
        replacement): the kernel's polynomials count without it.

        >>> Analyzer().analyze(Shoe.infinite_decks()).outcomes["tie"].count
        1886621696
        """
        if isinstance(shoe, Shoe) and shoe.infinite:
            return analyze(shoe, self.rules, self.bets)
        if self._native is not None and isinstance(shoe, Shoe):
            # The compiled kernel reads the counts themselves and writes the outputs into
            # an int64 array; None: not a plain 64-bit shoe (the Python path answers).
            outputs = self._blank[:]
            total = self._native.evaluate_shoe(
                self._program.native, shoe.rank_counts, shoe.suit_counts, outputs
            )
            if total is not None:
                return self._analysis(shoe, outputs, total)
        require_countable(shoe)
        return self._analysis(shoe, evaluate_one(self._program, shoe.rank_counts, shoe.suit_counts))

    def analyze_many(
        self, shoes: Iterable[Shoe], chunk_size: int = 256, prefetch: bool = True
    ) -> Iterator[Analysis]:
        """Exact analyses of *shoes*, in order, computed *chunk_size* shoes at a time.

        With *prefetch*, the next chunk is evaluated on a second thread (the
        compiled kernel releases the interpreter lock) while this one hands
        out the current chunk's results, so on two cores the two overlap.
        """
        whole_number(chunk_size, "chunk_size", ShoeError, minimum=1)
        if isinstance(shoes, (str, bytes, Mapping, Shoe)) or not isinstance(shoes, Iterable):
            raise ShoeError(
                f"shoes is {type(shoes).__name__}, not an iterable of Shoe objects; pass a list "
                "such as [Shoe.standard(decks=8)]."
            )
        iterator = iter(shoes)
        chunks = iter(lambda: list(itertools.islice(iterator, chunk_size)), [])
        if not prefetch:
            for chunk in chunks:
                yield from self._chunk(chunk, self._numbers(chunk))
            return
        with ThreadPoolExecutor(max_workers=1) as pool:
            current = next(chunks, None)
            pending = pool.submit(self._numbers, current) if current else None
            while current is not None and pending is not None:
                following = next(chunks, None)
                numbers = pending.result()
                pending = pool.submit(self._numbers, following) if following else None
                yield from self._chunk(current, numbers)
                current = following

    def expected_value_table(
        self,
        rank_counts: Sequence[Sequence[int]] | np.ndarray[Any, Any],
        suit_counts: Sequence[Sequence[int] | None] | np.ndarray[Any, Any] | None = None,
        jobs: int = 1,
        outcomes: bool = True,
    ) -> ExpectedValueTable:
        """Exact counts and EVs of every kernel-priced bet for many shoes, as integer arrays.

        The fast road for simulations and studies: no :class:`Shoe` or
        :class:`Analysis` object per shoe.  Each row of *rank_counts* holds 13
        counts (A 2 ... 9 T J Q K); *suit_counts* (52 counts per row, or None
        for a shoe known by rank) defaults to rank-only shoes.  Bets priced by
        the walk are left out.  With *jobs* > 1 the kernel runs on that many
        threads.  Without *outcomes* the Banker, Player and Tie counts are not
        computed (pair bets alone then skip the count polynomials).

        >>> from exactodds.bets.catalogue import select_bets
        >>> table = Analyzer(bets=select_bets("tie")).expected_value_table([(32,) * 13])
        >>> table.expected_value(0, "tie")
        Fraction(-103841353768, 723147898655)
        >>> Analyzer().expected_value_table([(1,) * 5 + (0,) * 8])
        Traceback (most recent call last):
        ...
        exactodds.errors.ShoeError: The shoe holds 5 cards; a round is counted as a sequence of 6 cards, so a shoe needs at least 6.
        """
        ranks = count_rows(rank_counts, 13, "rank_counts")
        suits = (
            count_rows(suit_counts, 52, "suit_counts", optional=True)
            if suit_counts is not None
            else [None] * len(ranks)
        )
        _check_table_options(ranks, suits, jobs, outcomes, _suits_agree(rank_counts, suit_counts))
        rows = [row for row in ranks if row is not None]
        cards = [sum(row) for row in rows]
        for count in cards:
            require_countable_cards(count)
        evaluation = evaluate(self._lean_program(outcomes), rows, suits, jobs)
        return ExpectedValueTable(self, cards, evaluation, outcomes)

    def _numbers(self, shoes: Sequence[Shoe]) -> Evaluation:
        """The kernel's outputs for a chunk of shoes."""
        for shoe in shoes:
            require_countable(shoe)
            shoe.require_finite("Pricing shoes many at a time")
        return evaluate(
            self._program,
            [shoe.rank_counts for shoe in shoes],
            [shoe.suit_counts for shoe in shoes],
        )

    def _chunk(self, shoes: Sequence[Shoe], numbers: Evaluation) -> list[Analysis]:
        return [
            self._analysis(shoe, outputs)
            for shoe, outputs in zip(shoes, numbers.rows(), strict=True)
        ]

    def _analysis(self, shoe: Shoe, outputs: Sequence[int], total: int | None = None) -> Analysis:
        """A shoe's analysis from its kernel outputs; each bet's figures are built when read."""
        if total is None:
            total = sequences(shoe.cards)
        player = outputs[PLAYER_OUTPUT]
        tie = outputs[TIE_OUTPUT]
        outcomes = _outcomes(total, player, tie)
        rank_only = not shoe.suits_known and bool(self._needs_suits)
        unavailable = self._needs_suits if rank_only else _NOTHING
        bets = _Bets(self, shoe, total, outputs, rank_only)
        # Analysis(shoe, rules, outcomes, bets, unavailable, names), without the frozen
        # dataclass's six object.__setattr__ calls: nothing in it checks its fields.
        analysis: Analysis = _NEW(Analysis)
        analysis.__dict__.update(
            shoe=shoe,
            rules=self.rules,
            outcomes=outcomes,
            bets=bets,
            unavailable=unavailable,
            bet_names=self._names,
        )
        return analysis

    def _price(self, name: str, shoe: Shoe, total: int, outputs: Sequence[int]) -> BetAnalysis:
        """A bet the kernel does not price, by the exact walk (``_Bets`` prices the rest)."""
        return price_bet(enumerate_rounds(shoe, self.rules.tableau), self._walk_bets[name])

    def _lean_program(self, outcomes: bool) -> Program:
        """A program of every EV numerator only (output 2 + i: the i-th priced bet).

        Outputs 0 and 1 are the Player and Tie counts with *outcomes*, else 0,
        so that pair bets alone skip the count polynomials.
        """
        with self._building:
            return self._build_lean(outcomes)

    def _build_lean(self, outcomes: bool) -> Program:
        if outcomes not in self._lean:
            priced = list(self._priced.values())
            weights = [
                [
                    row[PLAYER_OUTPUT] if outcomes else 0,
                    row[TIE_OUTPUT] if outcomes else 0,
                    *(row[bet.ev_output] for bet in priced),
                ]
                for row in self._weights
            ]
            self._lean[outcomes] = build_program(self._compiled, weights)
        return self._lean[outcomes]

    def lean_outputs(self, outcomes: bool = True) -> tuple[Program, tuple[LeanOutput, ...]] | None:
        """The lean program with the outcomes, and where each bet's EV numerator comes out.

        Outputs 0 and 1 are the Player and Tie counts (:data:`PLAYER_OUTPUT`,
        :data:`TIE_OUTPUT`), or 0 without *outcomes* (the program
        :meth:`expected_value_table` runs for a simulation); one :class:`LeanOutput` per bet, in the bets' order.  None
        when a bet needs the walk.  :mod:`exactodds.cli.batch_lines` lays the batch
        command's text out on it.

        >>> from exactodds.bets.catalogue import select_bets
        >>> _, outputs = Analyzer(bets=select_bets("tie")).lean_outputs()
        >>> outputs
        (LeanOutput(bet='tie', needs_suits=False, output=2, denominator=1),)
        """
        if self._walk_bets:
            return None
        outputs = tuple(
            LeanOutput(
                bet.name,
                bet.needs_suits,
                self._lean_outputs[bet.name],
                self._priced[bet.name].denominator,
            )
            for bet in self.bets
        )
        return self._lean_program(outcomes), outputs


def count_rows(
    rows: object, width: int, what: str, optional: bool = False
) -> list[list[int] | None]:
    """*rows* (a sequence of rows or a 2-D numpy array) as lists of Python integers.

    Each row holds *width* whole numbers from 0 to below 10^100 (or is None, if *optional*).
    numpy rows of any integer dtype become Python integers here, so nothing downstream wraps;
    floats, booleans, negatives and rows of another length are refused in one sentence.

    >>> count_rows(np.full((1, 13), 2**40, dtype=np.uint64), 13, "rank_counts")[0][0] == 2**40
    True
    >>> count_rows(np.full((2, 13), 4.5), 13, "rank_counts")
    Traceback (most recent call last):
    ...
    exactodds.errors.ShoeError: rank_counts holds float64 counts; give whole numbers (an integer dtype or Python ints).
    """
    if isinstance(rows, np.ndarray) and rows.dtype.kind != "O":
        if rows.dtype.kind not in "iu":
            raise ShoeError(
                f"{what} holds {rows.dtype} counts; give whole numbers (an integer dtype or "
                "Python ints)."
            )
        if rows.size == 0:
            return []
        if rows.ndim != 2 or rows.shape[1] != width:
            raise ShoeError(
                f"{what} has shape {rows.shape}; give one row of {width} counts per shoe."
            )
        if int(rows.min()) < 0:
            raise ShoeError(
                f"{what} holds a negative count ({int(rows.min())}); give whole numbers of at "
                "least 0."
            )
        return list(rows.tolist())
    if isinstance(rows, (str, bytes, Mapping)) or not isinstance(rows, (Sequence, np.ndarray)):
        raise ShoeError(
            f"{what} is {type(rows).__name__}; give a sequence of rows of {width} whole numbers."
        )
    return [_count_row(row, width, what, index, optional) for index, row in enumerate(rows)]


_COUNT_LIMIT = 10**MAX_DIGITS


def _count_row(row: object, width: int, what: str, index: int, optional: bool) -> list[int] | None:
    if row is None and optional:
        return None
    if isinstance(row, (str, bytes, Mapping)) or not isinstance(row, (Sequence, np.ndarray)):
        raise ShoeError(
            f"Row {index} of {what} is {type(row).__name__}; give {width} whole numbers."
        )
    if len(row) != width:
        raise ShoeError(f"Row {index} of {what} holds {len(row)} counts; give {width}.")
    counts = []
    for count in row:
        if type(count) is int and 0 <= count < _COUNT_LIMIT:
            counts.append(count)
            continue
        if isinstance(count, (bool, np.bool_)) or not isinstance(count, (int, np.integer)):
            raise ShoeError(
                f"Count {count!r} in row {index} of {what} is not a whole number; give whole "
                "numbers of at least 0."
            )
        value = int(count)
        if not 0 <= value < _COUNT_LIMIT:
            raise ShoeError(
                f"Count {value if value < 0 else 'of over 100 digits'} in row {index} of {what} "
                f"is out of range; give whole numbers from 0 to below 10^{MAX_DIGITS}."
            )
        counts.append(value)
    return counts


def _suits_agree(rank_counts: object, suit_counts: object) -> bool:
    """Whether numpy rows (of small counts) prove every suit row adds up to its rank row."""
    if not (isinstance(rank_counts, np.ndarray) and isinstance(suit_counts, np.ndarray)):
        return False
    if suit_counts.dtype.kind not in "iu" or not suit_counts.size or suit_counts.max() >= 2**60:
        return False
    sums = suit_counts.astype(np.int64).reshape(len(suit_counts), 13, 4).sum(axis=2)
    return bool(np.array_equal(sums, rank_counts))


def _check_table_options(
    ranks: Sequence[Sequence[int] | None],
    suits: Sequence[Sequence[int] | None],
    jobs: object,
    outcomes: object,
    suits_agree: bool = False,
) -> None:
    if len(suits) != len(ranks):
        raise ShoeError(f"suit_counts has {len(suits)} rows for {len(ranks)} rows of rank_counts.")
    for index, (rank_row, suit_row) in enumerate(zip(ranks, suits, strict=True)):
        if rank_row is None:
            raise ShoeError(f"Row {index} of rank_counts is None; give 13 whole numbers.")
        if (
            suit_row is not None
            and not suits_agree
            and any(
                sum(suit_row[4 * rank : 4 * rank + 4]) != count
                for rank, count in enumerate(rank_row)
            )
        ):
            raise ShoeError(
                f"Row {index} of suit_counts does not add up to its rank counts; give the four "
                "suits of each rank, rank by rank."
            )
    whole_number(jobs, "jobs", ShoeError, minimum=1)
    boolean(outcomes, "outcomes", ShoeError)


def require_countable_cards(cards: int) -> None:
    """Refuse a shoe of fewer than six cards, as :func:`~exactodds.engine.walk.require_countable`."""
    if cards < 6:
        require_countable(Shoe.from_ranks({"A": cards}))


_NOTHING: Mapping[str, str] = MappingProxyType({})


@dataclass(frozen=True, eq=False)
class ExpectedValueTable:
    """Exact counts and EV numerators of many shoes, straight from the kernel.

    ``evaluation.values`` is an int64 array (shoes x kernel outputs); rows too
    large for int64 are in ``evaluation.exact`` as Python integers.

    >>> table = Analyzer().expected_value_table([(4,) * 13], outcomes=False)
    >>> table.expected_value(0, "player"), table.totals
    (Fraction(-163679, 12724075), [14658134400])
    >>> table.outcome_counts(0)
    Traceback (most recent call last):
    ...
    ValueError: this table was computed without the outcome counts
    """

    analyzer: Analyzer
    cards: list[int]
    evaluation: Evaluation
    #: Whether the Banker, Player and Tie counts were computed.
    outcomes: bool = True

    @cached_property
    def totals(self) -> list[int]:
        """Each shoe's number of six-card sequences, ff(N, 6)."""
        return [sequences(cards) for cards in self.cards]

    @cached_property
    def _rows(self) -> list[list[int]]:
        return self.evaluation.rows()

    def ratio(self, shoe: int, name: str) -> tuple[int, int]:
        """Bet *name*'s EV on shoe *shoe* as an unreduced (numerator, denominator)."""
        whole_number(shoe, "shoe", ShoeError, maximum=len(self.cards) - 1, what="Row number")
        if name not in self.analyzer._lean_outputs:
            raise BetError(
                f"Bet {name!r} is not priced in this table; its bets are "
                f"{', '.join(self.analyzer._lean_outputs) or 'none'}."
            )
        output = self.analyzer._lean_outputs[name]
        denominator = self.analyzer._priced[name].denominator
        return self._rows[shoe][output], self.totals[shoe] * denominator

    def expected_value(self, shoe: int, name: str) -> Fraction:
        """Bet *name*'s exact EV on shoe *shoe*."""
        return Fraction(*self.ratio(shoe, name))

    def priced(self, name: str) -> bool:
        """Whether bet *name* is in this table (bets only the walk can price are not)."""
        return name in self.analyzer._lean_outputs

    def denominator(self, name: str) -> int:
        """Bet *name*'s pay denominator: its EV on a shoe is numerator / (total x this)."""
        return self.analyzer._priced[name].denominator

    def numerator_columns(self, names: Sequence[str]) -> IntArray | None:
        """The EV numerators of bets *names* (columns) on every shoe (rows), as one int64 array.

        None when some shoe's outputs needed Python integers (then use :meth:`ratio`).

        >>> from exactodds.bets.catalogue import select_bets
        >>> table = Analyzer(bets=select_bets("tie")).expected_value_table([(32,) * 13])
        >>> int(table.numerator_columns(["tie"])[0, 0]) == table.ratio(0, "tie")[0]
        True
        """
        if self.evaluation.exact:
            return None
        columns = [self.analyzer._lean_outputs[name] for name in names]
        return np.ascontiguousarray(self.evaluation.values[:, columns])

    def outcome_counts(self, shoe: int) -> dict[str, int]:
        """Banker, Player and Tie counts of shoe *shoe*."""
        if not self.outcomes:
            raise ValueError("this table was computed without the outcome counts")
        outputs = self._rows[shoe]
        total = self.totals[shoe]
        player, tie = outputs[PLAYER_OUTPUT], outputs[TIE_OUTPUT]
        return {"banker": total - player - tie, "player": player, "tie": tie}


def _outcomes(total: int, player: int, tie: int) -> dict[str, OutcomeCount]:
    """The three OutcomeCounts of kernel counts (whole numbers that split the total)."""
    outcomes = {}
    for name, count in (("banker", total - player - tie), ("player", player), ("tie", tie)):
        outcome: OutcomeCount = _NEW(OutcomeCount)
        fields = outcome.__dict__
        fields["name"] = name
        fields["count"] = count
        fields["total"] = total
        outcomes[name] = outcome
    return outcomes


_NEW = object.__new__
#: A shoe's cache once every bet was made in one pass (then kept as a list, by position).
_MADE: dict[str, BetAnalysis] = {}


class _Bets(Mapping[str, BetAnalysis]):
    """A shoe's priced bets, each built from the shoe's exact counts when first read.

    Each bet's analysis reads its counts and EV from this mapping (its source) when they
    are first asked for: the EV's Fraction (one gcd) when the EV is read, the outcome
    counts when they are, so a research script that reads two bets of a thousand shoes
    does not pay for thirty.  Reading every bet (``values()``, ``items()``) makes them in
    one pass, in the compiled kernel when it is built, each EV already reduced.
    """

    __slots__ = (
        "_analyzer",
        "_cache",
        "_made",
        "_members",
        "_names",
        "_outputs",
        "_rank_only",
        "_shoe",
        "_source",
        "_total",
    )
    #: Every listed bet's analysis, once made in one pass (then _cache is _MADE).
    _made: list[BetAnalysis]

    def __init__(
        self,
        analyzer: Analyzer,
        shoe: Shoe,
        total: int,
        outputs: Sequence[int],
        rank_only: bool,
    ) -> None:
        self._analyzer = analyzer
        self._shoe = shoe
        self._total = total
        self._outputs = outputs
        self._names, self._members = analyzer._available[rank_only]
        self._rank_only = rank_only
        self._cache: dict[str, BetAnalysis] = {}
        # What each bet's analysis reads its counts from: not this mapping, which holds
        # the analyses (a cycle would leave every shoe's analyses to the garbage collector).
        self._source = _KernelCounts(analyzer._priced, outputs, total)

    def __getitem__(self, name: str) -> BetAnalysis:
        found = self._cache.get(name)
        if found is not None:
            return found
        if name not in self._members:
            raise KeyError(name)
        if self._cache is _MADE:
            return self._made[self._analyzer._positions[self._rank_only][name]]
        priced = self._analyzer._priced.get(name)
        if priced is None:
            found = self._analyzer._price(name, self._shoe, self._total, self._outputs)
        else:
            found = BetAnalysis.from_source(priced.bet, self._total, self._source)
        self._cache[name] = found
        return found

    def _every(self) -> list[BetAnalysis]:
        """Every bet's analysis, in order, made in one pass (what values() and items() read)."""
        if self._cache is _MADE:
            return self._made
        analyzer = self._analyzer
        makers = analyzer._native_makers.get(self._rank_only)
        native = analyzer._native
        if makers is not None and native is not None and not self._cache:
            made: list[BetAnalysis] | None = native.bet_analyses(
                self._outputs, self._total, makers, BetAnalysis, Fraction, self._source
            )
            if made is not None:
                # Kept as the list; __getitem__ finds a bet in it by its position.
                self._cache = _MADE
                self._made = made
                return made
        return [self[name] for name in self._names]

    def values(self) -> ValuesView[BetAnalysis]:
        return _Values(self)

    def items(self) -> ItemsView[str, BetAnalysis]:
        return _Items(self)

    def __contains__(self, name: object) -> bool:
        # Mapping's default would build the bet's analysis just to answer.
        return name in self._members

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
        if name not in self._members:
            raise KeyError(name)
        if name not in self._analyzer._priced:
            return self[name].moment_ratio()
        return self._source.expected_value_ratio(name)


class _KernelCounts:
    """A shoe's kernel outputs, read by name: where its bets' analyses find their figures."""

    __slots__ = ("_outputs", "_priced", "_total")

    def __init__(self, priced: Mapping[str, _Priced], outputs: Sequence[int], total: int) -> None:
        self._priced = priced
        self._outputs = outputs
        self._total = total

    def expected_value_ratio(self, name: str) -> tuple[int, int]:
        """A kernel-priced bet's EV as the unreduced (numerator, total x pay denominator)."""
        priced = self._priced[name]
        return self._outputs[priced.ev_output], self._total * priced.denominator

    def outcome_counts(self, name: str) -> dict[str, int]:
        """A kernel-priced bet's outcome counts, in the form analyze gives them."""
        priced = self._priced[name]
        outputs = self._outputs
        counts = {outcome: outputs[output] for outcome, output in priced.counts}
        counts[priced.rest] = self._total - sum(counts.values())
        # Every outcome of the pay table, in name order.
        return {outcome: counts.get(outcome, 0) for outcome in priced.listed}


class _Values(ValuesView[BetAnalysis]):
    """The bets' analyses, made in one pass rather than one lookup per bet."""

    _mapping: _Bets

    def __iter__(self) -> Iterator[BetAnalysis]:
        return iter(self._mapping._every())


class _Items(ItemsView[str, BetAnalysis]):
    """Each bet's name and analysis, made in one pass rather than one lookup per bet."""

    _mapping: _Bets

    def __iter__(self) -> Iterator[tuple[str, BetAnalysis]]:
        return zip(self._mapping._names, self._mapping._every(), strict=True)


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
