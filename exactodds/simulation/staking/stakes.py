"""How much to bet: ``flat``, ``kelly[:F]``, ``ramp:EDGE=UNITS,...`` or ``optimal``, under limits.

A strategy (:mod:`~exactodds.simulation.strategies`) decides *whether* to bet; the
stake decides *how much*, in whole units, from the exact EV of the known composition:

* ``flat``: one unit (or the table minimum, if higher) every time the strategy bets;
* ``ramp:EDGE=UNITS,...``: the units of the highest step whose EDGE the exact EV is
  above (compared exactly); nothing below the first step.  Edges and units must both
  increase.  ``ramp:tc:COUNT=UNITS,...`` steps by the bet's count strategy instead: the
  true count (or the running count, for a ``running`` count) at least COUNT;
* ``kelly[:FRACTION]``: ``FRACTION x bankroll x EV / E[X**2]`` per unit staked at this
  composition, exactly, where the bankroll is ``--bankroll`` at the start of each trip
  and moves with the results through the trip's shoes, as a Kelly bettor's does (each
  trip starts again from ``--bankroll``, so trips stay independent and a run stays exact
  to split and merge: a block that starts inside a trip is given the bankroll its trip
  reached).
  Several bets made in one round are sized together from the bankroll before the round
  (:func:`~exactodds.analysis.risk.joint_kelly_stakes`, with the exact cross moments).
* ``optimal`` with a ``spread`` MIN-MAX: the ramp by count (or EV band) that maximizes
  growth (or SCORE) on a flat pilot of the same shoes (:mod:`~exactodds.simulation.staking.optimal`).

Every stake is then rounded down to a multiple of ``chip`` and capped at the table
maximum; a stake below the table minimum is not made (a Kelly or ramp stake) or is
refused before dealing (a flat stake or a ramp step above the table maximum).

>>> parse_stake("ramp:0=1,1%=4,2%=8").describe()
'ramp EV > 0: 1, EV > 1/100: 4, EV > 1/50: 8'
>>> parse_stake("ramp:1%=4,0=1")
Traceback (most recent call last):
...
exactodds.errors.SimulationError: Ramp 'ramp:1%=4,0=1' is not increasing at '0=1'; give steps EDGE=UNITS with both edges and units increasing, as in ramp:0=1,1%=4,2%=8.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from exactodds.analysis.risk import joint_kelly_stakes, kelly_stake
from exactodds.errors import SimulationError
from exactodds.inputs import whole_number
from exactodds.numbers import fraction_string, parse_number
from exactodds.simulation.risk.sums import INT64_SAFE, filled

__all__ = [
    "Flat",
    "Kelly",
    "Optimal",
    "Ramp",
    "Stake",
    "TableLimits",
    "block_stakes",
    "parse_spread",
    "parse_stake",
    "product_bets",
    "squared_bets",
]

IntArray = npt.NDArray[np.int64]
_STAKE_HELP = (
    "use flat, kelly, kelly:FRACTION (such as kelly:0.5), ramp:EDGE=UNITS,... (such as "
    "ramp:0=1,1%=4), ramp:tc:COUNT=UNITS,... or optimal (with `spread` MIN-MAX)"
)


@dataclass(frozen=True)
class TableLimits:
    """What a table takes, in units: a minimum, an optional maximum, and the chip.

    >>> TableLimits(5, 100, 5).rounded(np.array([1, 7, 12, 400])).tolist()
    [0, 5, 10, 100]
    """

    minimum: int = 1
    maximum: int | None = None
    chip: int = 1

    def __post_init__(self) -> None:
        for name, value in (("limits.minimum", self.minimum), ("limits.chip", self.chip)):
            whole_number(value, name, SimulationError, minimum=1, what="Number of units")
        if self.minimum % self.chip:
            raise SimulationError(
                f"`limits.minimum` {self.minimum} is not a multiple of `limits.chip` {self.chip}: "
                "no stake of whole chips makes it; give a minimum that is a multiple of the chip."
            )
        if self.maximum is not None and self.maximum < self.minimum:
            raise SimulationError(
                f"`limits.maximum` {self.maximum} is below `limits.minimum` {self.minimum}; give a "
                "maximum at least the minimum."
            )

    def rounded(self, stakes: IntArray) -> IntArray:
        """Stakes rounded down to the chip, capped at the maximum, 0 below the minimum.

        Exact at any size: limits past int64 turn the stakes into Python integers.

        >>> TableLimits(10**20).rounded(np.array([1, 10**21], dtype=object)).tolist()
        [0, 1000000000000000000000]
        """
        largest = max(self.minimum, self.chip, self.maximum or 0)
        if stakes.dtype != object and largest >= INT64_SAFE:
            stakes = stakes.astype(object)
        chipped = stakes // self.chip * self.chip
        if self.maximum is not None:
            chipped = np.minimum(chipped, self.maximum // self.chip * self.chip)
        return np.where(chipped >= self.minimum, chipped, 0)

    def describe(self) -> str:
        """One line for reports."""
        top = f", max {self.maximum}" if self.maximum is not None else ""
        return f"table min {self.minimum}{top}, chip {self.chip}"


@dataclass(frozen=True)
class Flat:
    """The same stake every time the strategy bets.

    >>> Flat().describe()
    'flat 1'
    """

    units: int = 1

    def describe(self) -> str:
        """One line for reports."""
        return f"flat {self.units}"

    def to_dict(self) -> dict[str, Any]:
        """The stake plan as data (``staking`` in the JSON); ``text`` is what :func:`parse_stake` reads."""
        return {"kind": "flat", "text": "flat", "units": self.units}


@dataclass(frozen=True)
class Ramp:
    """Units by exact EV thresholds: ``steps`` of (edge, units), both increasing."""

    steps: tuple[tuple[Fraction, int], ...]
    #: Steps by the count strategy's true (or running) count, reached at >=, not by EV.
    by_count: bool = False
    #: How an optimal ramp was derived (:mod:`~exactodds.simulation.staking.optimal`), for the
    #: record only: a ramp typed in with the same steps is the same ramp.
    basis: Mapping[str, Any] | None = field(default=None, compare=False, repr=False)

    def stakes(self, numerators: npt.NDArray[Any], denominators: npt.NDArray[Any]) -> IntArray:
        """Each round's units: those of the highest step the ratio passes (EV: above it;
        a count: at least it), compared exactly as integers.

        >>> Ramp(((Fraction(0), 1), (Fraction(2), 3)), by_count=True).stakes(
        ...     np.array([-1, 0, 4, 5]), np.array([1, 1, 2, 2])).tolist()
        [0, 1, 3, 3]
        """
        numbers = np.asarray(numerators, dtype=object)
        below = np.asarray(denominators, dtype=object)
        top = max((units for _, units in self.steps), default=0)
        result = np.zeros(len(numbers), dtype=np.int64 if top < INT64_SAFE else object)
        for edge, units in self.steps:
            # n / d > p / q  <=>  q n > p d (d > 0); >= for a count.
            left, right = edge.denominator * numbers, edge.numerator * below
            passed = left >= right if self.by_count else left > right
            result[np.asarray(passed, dtype=bool)] = units
        return result

    def describe(self) -> str:
        """One line for reports."""
        if self.by_count:
            return "ramp " + ", ".join(
                f"count >= {fraction_string(edge)}: {units}" for edge, units in self.steps
            )
        return "ramp " + ", ".join(
            f"EV > {fraction_string(edge)}: {units}" for edge, units in self.steps
        )

    def to_dict(self) -> dict[str, Any]:
        """The stake plan as data; ``text`` is what :func:`parse_stake` reads back.

        >>> parse_stake(Ramp(((Fraction(1, 100), 2),)).to_dict()["text"])
        Ramp(steps=((Fraction(1, 100), 2),), by_count=False)
        """
        key = "true_count" if self.by_count else "edge"
        basis = {"optimal": dict(self.basis)} if self.basis is not None else {}
        return {
            "kind": "ramp",
            "text": self.text(),
            "by_count": self.by_count,
            "ramp": [{key: fraction_string(edge), "units": units} for edge, units in self.steps],
        } | basis

    def text(self) -> str:
        """The ramp as ``--stake`` takes it.

        >>> Ramp(((Fraction(2), 1), (Fraction(4), 8)), by_count=True).text()
        'ramp:tc:2=1,4=8'
        """
        steps = ",".join(f"{fraction_string(edge)}={units}" for edge, units in self.steps)
        return f"ramp:{'tc:' if self.by_count else ''}{steps}"


#: The most stake levels (chip multiples within the spread and table limits) an optimal
#: ramp chooses among: a bound on the optimizer's work before any dealing.
MOST_LEVELS = 200


@dataclass(frozen=True)
class Optimal:
    """A ramp still to be derived: the stakes, from ``minimum`` to ``maximum`` units, that
    maximize growth (or SCORE) on a flat pilot of the same shoes
    (:mod:`~exactodds.simulation.staking.optimal`).  A run replaces it by the :class:`Ramp` it finds.

    >>> Optimal(1, 8).levels(TableLimits(2, 6, 2))
    (2, 4, 6)
    >>> Optimal(8, 1)
    Traceback (most recent call last):
    ...
    exactodds.errors.SimulationError: `spread` 8-1 is not valid: its minimum is above its maximum; give MIN-MAX with MIN at most MAX, such as 1-8.
    """

    minimum: int
    maximum: int

    def __post_init__(self) -> None:
        for value in (self.minimum, self.maximum):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise SimulationError(
                    f"`spread` {self.minimum}-{self.maximum} is not valid; give MIN-MAX in "
                    "whole units of at least 1, such as 1-8."
                )
        if self.minimum > self.maximum:
            raise SimulationError(
                f"`spread` {self.minimum}-{self.maximum} is not valid: its minimum is above "
                "its maximum; give MIN-MAX with MIN at most MAX, such as 1-8."
            )

    def levels(self, limits: TableLimits) -> tuple[int, ...]:
        """The stakes the ramp chooses among: chip multiples in the spread and the limits."""
        low = max(self.minimum, limits.minimum)
        high = min(self.maximum, limits.maximum if limits.maximum is not None else self.maximum)
        first = -(-low // limits.chip) * limits.chip
        if first > high:
            raise SimulationError(
                f"`spread` {self.minimum}-{self.maximum} holds no stake of whole chips within "
                f"the table ({limits.describe()}); give a spread that overlaps the table "
                "limits."
            )
        if (high - first) // limits.chip + 1 > MOST_LEVELS:
            raise SimulationError(
                f"`spread` {self.minimum}-{self.maximum} holds more than {MOST_LEVELS:,} stakes "
                "of whole chips; give a narrower spread or a larger `limits.chip`."
            )
        return tuple(range(first, high + 1, limits.chip))

    def describe(self) -> str:
        """One line for reports."""
        return f"optimal ramp, spread {self.minimum}-{self.maximum}"

    def to_dict(self) -> dict[str, Any]:
        """The stake plan as data (a run records the :class:`Ramp` it derives instead)."""
        return {"kind": "optimal", "text": "optimal", "spread": f"{self.minimum}-{self.maximum}"}


def parse_spread(text: str) -> Optimal:
    """An optimal stake's spread from ``MIN-MAX`` (whole units).

    >>> parse_spread("1-8")
    Optimal(minimum=1, maximum=8)
    >>> parse_spread("8")
    Traceback (most recent call last):
    ...
    exactodds.errors.SimulationError: `spread` '8' is not MIN-MAX; give two whole numbers of units, such as 1-8.
    """
    low, separator, high = text.strip().partition("-")
    if (
        not separator
        or not (low.strip().isascii() and low.strip().isdigit())
        or not (high.strip().isascii() and high.strip().isdigit())
    ):
        raise SimulationError(
            f"`spread` {text.strip()!r} is not MIN-MAX; give two whole numbers of units, such "
            "as 1-8."
        )
    if max(len(low.strip()), len(high.strip())) > 30:
        raise SimulationError(
            f"`spread` {text.strip()[:40]!r}... is past any table; give MIN-MAX of at most 30 "
            "digits each."
        )
    return Optimal(int(low), int(high))


@dataclass(frozen=True)
class Kelly:
    """A fraction of the Kelly stake, from the exact EV and second moment of each round."""

    fraction: Fraction = Fraction(1)

    def stake(self, bankroll: Fraction, ev: Fraction, second_moment: Fraction) -> Fraction:
        """The exact stake before table rounding (see :func:`~exactodds.analysis.risk.kelly_stake`)."""
        return kelly_stake(self.fraction, bankroll, ev, second_moment)

    def describe(self) -> str:
        """One line for reports."""
        return f"kelly x {fraction_string(self.fraction)}"

    def to_dict(self) -> dict[str, Any]:
        """The stake plan as data; ``text`` is what :func:`parse_stake` reads back."""
        fraction = fraction_string(self.fraction)
        return {"kind": "kelly", "text": f"kelly:{fraction}", "fraction": fraction}


Stake = Flat | Ramp | Kelly | Optimal


def parse_stake(text: str, limits: TableLimits | None = None) -> Stake:
    """A stake from ``flat``, ``kelly[:FRACTION]`` or ``ramp:EDGE=UNITS,...``, checked against *limits*.

    >>> parse_stake("kelly:1/2").describe()
    'kelly x 1/2'
    >>> parse_stake("flat", TableLimits(5)).describe()
    'flat 5'
    >>> parse_stake("ramp:0=1,1%=500", TableLimits(1, 100))
    Traceback (most recent call last):
    ...
    exactodds.errors.SimulationError: Stake 500 units in `stake` 'ramp:0=1,1%=500' is above the table maximum of 100; give stakes of at most `limits.maximum`.
    """
    limits = limits or TableLimits()
    cleaned = text.strip().lower()
    where = f"`stake` {text.strip()!r}"
    if cleaned == "flat":
        return Flat(limits.minimum)
    if cleaned == "optimal":
        raise SimulationError(
            f"{where} derives a ramp within a spread; give `spread` MIN-MAX, such as 1-8."
        )
    if cleaned == "kelly" or cleaned.startswith("kelly:"):
        if cleaned == "kelly:":
            raise SimulationError(
                f"{where} gives no Kelly fraction after the colon; write kelly for full Kelly "
                "or kelly:FRACTION, such as kelly:0.5."
            )
        fraction = parse_number(cleaned.partition(":")[2] or "1", where)
        if not 0 < fraction <= 1:
            raise SimulationError(
                f"Kelly fraction {fraction_string(fraction)} in {where} is not valid; use a "
                "number above 0 and at most 1, such as 0.5."
            )
        return Kelly(fraction)
    if not cleaned.startswith("ramp:"):
        raise SimulationError(f"Unknown stake {text.strip()!r}; {_STAKE_HELP}")
    steps: list[tuple[Fraction, int]] = []
    body = cleaned.removeprefix("ramp:")
    by_count = body.startswith("tc:")
    for entry in body.removeprefix("tc:").split(","):
        edge_text, separator, units_text = entry.partition("=")
        if not separator or not (units_text.strip().isascii() and units_text.strip().isdigit()):
            raise SimulationError(
                f"Ramp step {entry.strip()!r} in {where} is not EDGE=UNITS; use e.g. 1%=4."
            )
        edge, units = parse_number(edge_text.strip(), where), int(units_text)
        if units < 1:  # below the first step the ramp already bets nothing
            raise SimulationError(
                f"Ramp step {entry.strip()!r} in {where} bets 0 units; give each step at least "
                "1 unit (below the first step's edge the ramp bets nothing), as in ramp:0=1,1%=4."
            )
        if steps and (edge <= steps[-1][0] or units <= steps[-1][1]):
            raise SimulationError(
                f"Ramp {text.strip()!r} is not increasing at {entry.strip()!r}; give steps "
                "EDGE=UNITS with both edges and units increasing, as in ramp:0=1,1%=4,2%=8."
            )
        steps.append((edge, units))
    for _, units in steps:
        if limits.maximum is not None and units > limits.maximum:
            raise SimulationError(
                f"Stake {units} units in {where} is above the table maximum of "
                f"{limits.maximum}; give stakes of at most `limits.maximum`."
            )
    return Ramp(tuple(steps), by_count)


def product_bets(bets: tuple[Any, ...]) -> tuple[tuple[Any, Fraction], ...]:
    """Each pair of bets as one bet paying the product of their pays, and its scale.

    A product can lose more than one unit (a lost Dragon 7 times a won Panda 8 is -25), which
    no wager does, so each product bet pays the product divided by its largest loss (at least
    1): its EV times the scale is E[X_i X_j], exactly.  Pairs in the order (0, 1), (0, 2),
    ..., (1, 2), ...

    >>> from exactodds.bets.catalogue import select_bets
    >>> (product, scale), = product_bets(select_bets("dragon7,panda8"))
    >>> product.name, scale, product.pay_table["win*lose"] * scale
    ('dragon7*panda8', Fraction(40, 1), Fraction(-40, 1))
    """
    from exactodds.bets.bet import Bet

    def settle(first: Any, second: Any) -> Any:
        return lambda summary: f"{first.settle(summary)}*{second.settle(summary)}"

    products = []
    for i, first in enumerate(bets):
        for second in bets[i + 1 :]:
            pays = {
                f"{a}*{b}": pay_a * pay_b
                for a, pay_a in first.pay_table.items()
                for b, pay_b in second.pay_table.items()
            }
            scale = max(Fraction(1), *(-pay for pay in pays.values()))
            products.append(
                (
                    Bet(
                        f"{first.name}*{second.name}",
                        f"{first.name} times {second.name}, per {scale} units",
                        settle(first, second),
                        {outcome: pay / scale for outcome, pay in pays.items()},
                        first.needs_suits or second.needs_suits,
                    ),
                    scale,
                )
            )
    return tuple(products)


def squared_bets(bets: tuple[Any, ...]) -> tuple[Any, ...]:
    """Each bet with its pays squared: its EV is the bet's exact second moment per unit.

    >>> from exactodds.bets.catalogue import select_bets
    >>> squared_bets(select_bets("tie"))[0].pay_table == {"lose": 1, "win": 64}
    True
    """
    import dataclasses

    return tuple(
        dataclasses.replace(
            bet, name=bet.name, pays={name: pay**2 for name, pay in bet.pay_table.items()}
        )
        for bet in bets
    )


#: Kelly growth per shoe, ln(bankroll at the end / at the start), is summed in units of 2**-40.
GROWTH_SCALE = 2**40


def block_stakes(
    stake: Stake,
    limits: TableLimits,
    bankroll: Fraction | None,
    decisions: list[npt.NDArray[np.bool_]],
    values: Any,
    second_moments: Any,
    pays: IntArray,
    denominators: list[int],
    rounds_per_shoe: list[int],
    true_counts: list[tuple[IntArray, IntArray]] | None = None,
    cross_moments: Any = None,
    trip: tuple[list[bool], Fraction | None] | None = None,
) -> tuple[IntArray, list[int]]:
    """Every round's stake on every bet (rounds x bets, whole units), and Kelly's growth.

    *true_counts* (a count ramp only) holds each bet's count before every round as a ratio
    (numerators, positive denominators).  *cross_moments* (Kelly only) gives E[X_i X_j] per
    unit at a row, ``cross_moments(row, i, j)``, for rows where several bets are made: they
    are then sized together (:func:`~exactodds.analysis.risk.joint_kelly_stakes`); without
    it each bet is sized on its own.  *trip* (Kelly only) says, for each shoe of the block,
    whether it starts a trip (the bankroll goes back to *bankroll*; else it carries on from
    the shoe before), and the bankroll the first shoe starts from when it does not start a
    trip; without it every shoe starts a trip.

    *values* and *second_moments* are :class:`~exactodds.simulation.evaluate.ExpectedValues`
    (the second moments only for Kelly); *pays* each round's result per unit of each bet,
    in units of its pay denominator.  The growth list holds each shoe's
    ln(bankroll at its end / at its start) in units of 2**-40 (Kelly only, else empty).
    """
    decided = np.stack(decisions, axis=1) if decisions else np.zeros((len(pays), 0), bool)
    if isinstance(stake, Flat):
        return filled(decided.shape, decided, stake.units), []
    if isinstance(stake, Ramp):
        ratios = (
            true_counts
            if true_counts is not None
            else [
                (values.numerators[:, column], values.denominators[:, column])
                for column in range(decided.shape[1])
            ]
        )
        units = limits.rounded(np.stack([stake.stakes(*ratio) for ratio in ratios], axis=1))
        return np.where(decided, units, 0).astype(units.dtype), []
    if isinstance(stake, Optimal):
        raise SimulationError("An optimal stake is derived into a ramp before any dealing.")
    assert bankroll is not None and second_moments is not None, "Kelly needs a bankroll"
    return _kelly_stakes(
        stake,
        limits,
        bankroll,
        decided,
        values,
        second_moments,
        pays,
        denominators,
        rounds_per_shoe,
        cross_moments,
        trip,
    )


def _kelly_stakes(
    stake: Kelly,
    limits: TableLimits,
    bankroll: Fraction,
    decided: npt.NDArray[np.bool_],
    values: Any,
    second_moments: Any,
    pays: IntArray,
    denominators: list[int],
    rounds_per_shoe: list[int],
    cross_moments: Any,
    trip: tuple[list[bool], Fraction | None] | None,
) -> tuple[IntArray, list[int]]:
    import math

    starts_trip, carried = trip if trip is not None else ([True] * len(rounds_per_shoe), None)
    current = carried if carried is not None else bankroll

    candidates = decided & (np.asarray(values.numerators > 0, dtype=bool))
    # Python integers while sizing (a bankroll can be any size), int64 after if they fit.
    stakes = np.zeros(decided.shape, dtype=object)
    growth = []
    first = 0
    for count, new_trip in zip(rounds_per_shoe, starts_trip, strict=True):
        if new_trip:
            current = bankroll
        start = current
        for row in np.flatnonzero(candidates[first : first + count].any(axis=1)) + first:
            won = Fraction(0)
            columns = np.flatnonzero(candidates[row]).tolist()
            evs = [values.fraction(row, column) for column in columns]
            if len(columns) > 1 and cross_moments is not None:
                matrix = [
                    [
                        second_moments.fraction(row, i)
                        if i == j
                        else cross_moments(row, min(i, j), max(i, j))
                        for j in columns
                    ]
                    for i in columns
                ]
                exacts = joint_kelly_stakes(stake.fraction, current, evs, matrix)
            else:
                exacts = [
                    stake.stake(current, ev, second_moments.fraction(row, column))
                    for ev, column in zip(evs, columns, strict=True)
                ]
            for column, exact in zip(columns, exacts, strict=True):
                units = int(limits.rounded(np.array([math.floor(exact)], dtype=object))[0])
                stakes[row, column] = units
                won += Fraction(units * int(pays[row, column]), denominators[column])
            current += won
        growth.append(
            round(math.log(current / start) * GROWTH_SCALE) if current > 0 and start > 0 else 0
        )
        first += count
    if not stakes.size or int(np.abs(stakes).max()) < INT64_SAFE:
        stakes = stakes.astype(np.int64)
    return stakes, growth
