"""Pay tables designed against the audit: every table in ranges of pays whose exact house edge
falls in a window, the least vulnerable first.

A bet's EV is linear in its pays: ``EV = sum over outcomes of count(outcome) * pay / total``,
with counts that do not depend on the pays.  So one enumeration of the shoe prices every pay
table of the grid exactly (a dot product in integers and fractions), and every table whose
house edge is inside the window is listed: none is missed and none is outside.

The same linearity gives each table's exact effects of removal (ten more enumerations, one
per rank removed) and from them a *removal index*, ``sqrt(sum_r n_r e_r**2 / N) / house
edge``: how far one card moves the EV against how far the edge is below zero (a float, for
ranking only).  The tables with the smallest index (``top`` of them) are audited: the best
count is searched for and simulated (:mod:`exactodds.studies.audit`); the list puts those
first, least won by their best count first, then the others by removal index.

>>> from exactodds.bets.catalogue import select_bets
>>> from exactodds.simulation.dealing import DealingProcedure
>>> dragon7 = select_bets("dragon7")[0]
>>> window = (Fraction(1, 20), Fraction(2, 25))  # 5% to 8%
>>> found = design_paytables(dragon7, [PayRange("win", Fraction(30), Fraction(45), Fraction(1))],
...     window, procedure=DealingProcedure(decks=1, cut=10), top=0)
>>> [str(table.pays["win"]) for table in found.tables]
['40', '41']
>>> far = [PayRange("win", Fraction(100), Fraction(120), Fraction(1))]
>>> design_paytables(dragon7, far, window, top=0)
Traceback (most recent call last):
...
exactodds.studies.audit.AuditError: No pay table in the ranges has a house edge from 5.0000% to 8.0000% for dragon7; the edges in the ranges run from -172.6592% to -127.5916%.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from exactodds.analysis.single import analyze
from exactodds.bets.bet import Bet
from exactodds.cards import RANKS
from exactodds.errors import quoted
from exactodds.inputs import whole_number
from exactodds.numbers import (
    fraction_string,
    percent_string,
    square_root_decimal_string,
)
from exactodds.rules import Rules
from exactodds.shoe import Shoe
from exactodds.simulation.dealing import DealingProcedure
from exactodds.simulation.risk.sums import Estimate
from exactodds.studies.audit import (
    DEFAULT_BUDGET,
    AuditError,
    FoundCount,
    Progress,
    counted_progress,
    found_count,
    mean_and_error,
    require_budget,
    require_jobs,
    require_seed,
    trackable,
)

__all__ = [
    "MOST_TABLES",
    "TIE_SIGMAS",
    "VOLATILITY_Z",
    "DesignedTable",
    "PayDesign",
    "PayRange",
    "design_paytables",
    "ranked",
    "tied",
]

#: Most pay tables one design prices (the product of the ranges' sizes).
MOST_TABLES = 100_000
#: The volatility index is ``z * sd`` at 90% confidence, z rounded to three decimals as par
#: sheets print it (1.645).
VOLATILITY_Z = Fraction(329, 200)


@dataclass(frozen=True)
class PayRange:
    """The pays one outcome may take: ``low`` to ``high`` in steps of ``step`` (1 or 1/2).

    The pays are at least -1 (a bet loses at most its stake, as :class:`Bet` has it), and
    both ends are on the step.

    >>> PayRange("win", Fraction(10), Fraction(11), Fraction(1, 2)).values()
    (Fraction(10, 1), Fraction(21, 2), Fraction(11, 1))
    >>> PayRange("win", Fraction(10), Fraction(11), Fraction(0))
    Traceback (most recent call last):
    ...
    exactodds.studies.audit.AuditError: `step` 0 of the pay range for 'win' is not valid; use 1 or 1/2.
    """

    outcome: str
    low: Fraction
    high: Fraction
    step: Fraction

    def __post_init__(self) -> None:
        where = f"of the pay range for {quoted(str(self.outcome))}"
        if not isinstance(self.outcome, str) or not self.outcome.strip():
            raise AuditError(f"`outcome` {where} is not an outcome's name; use one such as 'win'.")
        for name in ("low", "high", "step"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, Fraction)):
                raise AuditError(
                    f"`{name}` {where} is {quoted(repr(value), 40)[1:-1]}; use an exact number "
                    "(an int or a Fraction)."
                )
            object.__setattr__(self, name, Fraction(value))
        if self.step not in (1, Fraction(1, 2)):
            raise AuditError(
                f"`step` {fraction_string(Fraction(self.step))} {where} is not valid; use 1 or 1/2."
            )
        if (self.low / self.step).denominator != 1 or (self.high / self.step).denominator != 1:
            raise AuditError(
                f"The ends {where} are not whole steps of {fraction_string(Fraction(self.step))}; "
                "use whole pays, or half pays with a step of 1/2."
            )
        if self.low > self.high:
            raise AuditError(
                f"The pay range for {quoted(self.outcome)} is empty ({fraction_string(self.low)} "
                f"above {fraction_string(self.high)}); give `low` at most `high`."
            )
        if self.low < -1:
            raise AuditError(
                f"The pay range for {quoted(self.outcome)} starts at {fraction_string(self.low)}, "
                "below -1; a bet loses at most its stake, so use pays of at least -1."
            )

    @property
    def size(self) -> int:
        """How many pays the range holds (counted, not built)."""
        return int((self.high - self.low) / self.step) + 1

    def values(self) -> tuple[Fraction, ...]:
        """Every pay of the range, ascending."""
        return tuple(self.low + index * self.step for index in range(self.size))


@dataclass(frozen=True)
class DesignedTable:
    """One pay table in the window: its exact figures, and its audit when it was audited."""

    pays: Mapping[str, Fraction]
    house_edge: Fraction
    hit_frequency: Fraction
    variance: Fraction
    removal_index: float
    count: FoundCount | None = None
    #: The audited table's place, best first; tables within error of each other share one.
    rank: int | None = None

    def volatility_index(self, digits: int = 4) -> str:
        """``VI = 1.645 * sd`` (90% confidence), correctly rounded."""
        return square_root_decimal_string(VOLATILITY_Z**2 * self.variance, digits)

    @property
    def units_per_100_rounds(self) -> Estimate | None:
        """The best count's win per 100 rounds (audited tables only)."""
        return None if self.count is None else self.count.units_per_100_rounds

    def to_dict(self) -> dict[str, Any]:
        """One entry of the ``design`` list of the JSON contract."""
        data: dict[str, Any] = {
            "pays": {outcome: fraction_string(pay) for outcome, pay in self.pays.items()},
            "house_edge": fraction_string(self.house_edge),
            "hit_frequency": fraction_string(self.hit_frequency),
            "volatility_index": self.volatility_index(4),
            # A table at or above break even has no finite index; JSON has no Infinity.
            "removal_index": self.removal_index if math.isfinite(self.removal_index) else None,
        }
        if self.count is not None:
            data["units_per_100_rounds"] = mean_and_error(self.count.units_per_100_rounds)
            data["rank"] = self.rank
            data["count"] = {
                "tags": list(self.count.tags),
                "trigger": fraction_string(self.count.trigger),
            }
        return data


@dataclass(frozen=True)
class PayDesign:
    """The design: the bet, the ranges, the window, and the tables inside it, best first."""

    bet: str
    ranges: tuple[PayRange, ...]
    window: tuple[Fraction, Fraction]
    priced: int
    audited: int
    tables: tuple[DesignedTable, ...]
    #: Why no table was audited, when none could be (a bet no count can track).
    note: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON contract of ``exactodds audit --design``."""
        return {
            "bet": self.bet,
            "ranges": {
                pay.outcome: f"{fraction_string(pay.low)}..{fraction_string(pay.high)}"
                f" step {fraction_string(pay.step)}"
                for pay in self.ranges
            },
            "target_edge": [fraction_string(self.window[0]), fraction_string(self.window[1])],
            "priced": self.priced,
            "audited": self.audited,
            "note": self.note,
            "design": [table.to_dict() for table in self.tables],
        }


_Counts = tuple[Mapping[str, int], int]


def _outcome_counts(shoe: Shoe, rules: Rules, bet: Bet) -> _Counts:
    priced = analyze(shoe, rules, [bet]).bets[bet.name]
    return priced.outcome_counts, priced.total


def _moment(counts: _Counts, pays: Mapping[str, Fraction], power: int) -> Fraction:
    outcomes, total = counts
    return (
        sum((count * pays[name] ** power for name, count in outcomes.items()), Fraction(0)) / total
    )


def _grid(bet: Bet, ranges: Sequence[PayRange]) -> Iterable[dict[str, Fraction]]:
    base = bet.pay_table
    seen: set[str] = set()
    for pay in ranges:
        if not isinstance(pay, PayRange):
            raise AuditError(
                f"`ranges` holds {quoted(repr(pay), 40)[1:-1]}, not a PayRange; build each with "
                "PayRange(...) or read text such as 'win=30..45' with "
                "exactodds.specs.parse_pay_range."
            )
        if pay.outcome not in base:
            raise AuditError(
                f"Bet {quoted(bet.name)} has no outcome {quoted(pay.outcome)} to design in `ranges`; its "
                f"outcomes are {', '.join(sorted(base))}."
            )
        if pay.outcome in seen:
            raise AuditError(
                f"`ranges` gives outcome {quoted(pay.outcome)} twice; give each outcome one range."
            )
        seen.add(pay.outcome)
    size = math.prod(pay.size for pay in ranges)  # counted before any table is built
    if size > MOST_TABLES:
        raise AuditError(
            f"The pay ranges in `ranges` hold {size:,} tables; narrow them to at most "
            f"{MOST_TABLES:,}."
        )
    for values in itertools.product(*(pay.values() for pay in ranges)):
        yield base | {pay.outcome: value for pay, value in zip(ranges, values, strict=True)}


def _removal_counts(shoe: Shoe, rules: Rules, bet: Bet) -> list[tuple[int, _Counts]]:
    """(cards of the rank, the outcome counts on the shoe less one card of it), per rank."""
    rows = []
    for rank in RANKS:
        cards = shoe.rank_count(rank.symbol)
        if cards:
            rows.append((cards, _outcome_counts(shoe.remove(rank.symbol), rules, bet)))
    return rows


def _removal_index(
    removals: Sequence[tuple[int, _Counts]], pays: Mapping[str, Fraction], ev: Fraction
) -> float:
    cards = sum(weight for weight, _ in removals)
    spread = sum(
        (weight * (_moment(counts, pays, 1) - ev) ** 2 for weight, counts in removals), Fraction(0)
    )
    return math.inf if ev >= 0 else math.sqrt(spread / cards) / float(-ev)


def _count_win(table: DesignedTable) -> float:
    estimate = table.units_per_100_rounds
    return estimate.mean if estimate is not None and not math.isnan(estimate.mean) else 0.0


#: Standard errors of a difference within which two audited tables are a tie (95%, two-sided).
TIE_SIGMAS = 1.96


def tied(first: Estimate | None, second: Estimate | None) -> bool:
    """Whether two counts' wins are within :data:`TIE_SIGMAS` standard errors of their
    difference (no error: a tie only when equal).

    >>> tied(Estimate(0.50, 0.03), Estimate(0.507, 0.03)), tied(Estimate(0.5, 0.01), Estimate(0.6, 0.01))
    (True, False)
    """
    if first is None or second is None:
        return first is second
    error = math.hypot(first.stderr, second.stderr)
    if math.isnan(error):
        return first.mean == second.mean
    return abs(first.mean - second.mean) <= TIE_SIGMAS * error


def ranked(tables: Sequence[DesignedTable]) -> tuple[DesignedTable, ...]:
    """*tables* (audited, best first) each with its rank: a table tied (:func:`tied`) with the
    first table of the rank before it shares that rank."""
    found: list[DesignedTable] = []
    leader: DesignedTable | None = None
    for place, table in enumerate(tables, start=1):
        if leader is not None and tied(leader.units_per_100_rounds, table.units_per_100_rounds):
            found.append(replace(table, rank=leader.rank))
            continue
        leader = replace(table, rank=place)
        found.append(leader)
    return tuple(found)


def design_paytables(
    bet: Bet,
    ranges: Sequence[PayRange],
    window: tuple[Fraction, Fraction],
    rules: Rules | None = None,
    procedure: DealingProcedure | None = None,
    *,
    top: int = 3,
    budget: int = DEFAULT_BUDGET,
    seed: int = 1,
    jobs: int = 1,
    dask: Any = None,
    progress: Progress | None = None,
) -> PayDesign:
    """Every pay table of *bet* in *ranges* whose exact house edge is in *window*.

    The *top* tables with the least removal index are audited (count search on *budget*
    shoes of seed *seed*, figures on seed ``seed + 1``'s); see the module docstring.
    """
    from exactodds.analysis.removal import effect_of_removal

    rules = Rules.given(rules)
    procedure = procedure if procedure is not None else DealingProcedure()
    if isinstance(ranges, (str, bytes, Mapping)) or not isinstance(ranges, Sequence):
        raise AuditError(
            f"`ranges` is {quoted(repr(ranges), 40)[1:-1]}, not a sequence of PayRange; read "
            "text such as 'win=30..45' with exactodds.specs.parse_pay_range."
        )
    if not ranges:
        raise AuditError(
            "`ranges` is empty; a design needs at least one pay range, such as win=10..40."
        )
    whole_number(top, "top", AuditError)
    require_budget(budget)
    require_seed(seed)
    require_jobs(jobs)
    grid = list(_grid(bet, ranges))  # checked and bounded before the shoe is priced
    shoe = Shoe.standard(procedure.decks)
    if not bet.needs_suits:
        shoe = shoe.without_suits()
    counts = _outcome_counts(shoe, rules, bet)
    edges = [-_moment(counts, pays, 1) for pays in grid]
    inside = [
        (pays, edge)
        for pays, edge in zip(grid, edges, strict=True)
        if window[0] <= edge <= window[1]
    ]
    if not inside:
        raise AuditError(
            f"No pay table in the ranges has a house edge from {percent_string(window[0], 4)} to "
            f"{percent_string(window[1], 4)} for {bet.name}; the edges in the ranges run from "
            f"{percent_string(min(edges), 4)} to {percent_string(max(edges), 4)}."
        )
    removals = _removal_counts(shoe, rules, bet)
    tables = []
    for pays, edge in inside:
        wins = sum(count for name, count in counts[0].items() if pays[name] > 0)
        second = _moment(counts, pays, 2)
        tables.append(
            DesignedTable(
                pays,
                edge,
                Fraction(wins, counts[1]),
                second - edge**2,
                _removal_index(removals, pays, -edge),
            )
        )
    tables.sort(key=lambda table: (table.removal_index, -table.house_edge))
    tell = counted_progress(progress, min(top, len(tables)))
    run = {"jobs": jobs, "dask": dask}
    audited = []
    note = None
    for index, table in enumerate(tables[:top]):
        tell(f"{bet.name}: auditing table {index + 1} of {min(top, len(tables))}")
        designed = replace(bet, pays=tuple(sorted(table.pays.items())))
        removal = effect_of_removal(shoe, rules, [designed])
        if not trackable(removal, designed.name):
            note = (
                f"No count can track {bet.name} (every rank's effect of removal is 0), so no "
                "table was audited; audit a table alone (--pay) to decide it on perfect play."
            )
            break
        count = found_count(designed, rules, procedure, removal, budget, seed, run)
        audited.append(replace(table, count=count))
    tell("done")
    audited.sort(key=_count_win)
    return PayDesign(
        bet.name,
        tuple(ranges),
        window,
        len(grid),
        len(audited),
        (*ranked(audited), *tables[len(audited) :]),
        note,
    )
