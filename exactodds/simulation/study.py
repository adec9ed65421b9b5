"""What a simulation is: shoes, seed, rules, bets with their strategies, the dealing procedure.

A :class:`Simulation` is a frozen value: two runs of equal simulations deal the same
shoes and give the same tallies, and its :meth:`~Simulation.fingerprint` is what a
checkpoint records to refuse resuming another study.

>>> Simulation.of(shoes=10, seed=1).fingerprint()["procedure"]
{'decks': 8, 'cut': 14, 'burn': 'standard', 'after_cut': 1, 'cut_first_rounds': 2}
>>> Simulation.of(shoes=0, seed=1)
Traceback (most recent call last):
...
exactodds.simulation.dealing.SimulationError: Number of shoes 0 for `shoes` is not valid; use a whole number of at least 1.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from exactodds.bets.bet import Bet, main_bets
from exactodds.inputs import whole_number
from exactodds.numbers import fraction_string
from exactodds.rules import Rules
from exactodds.simulation.dealing import DealingProcedure, SimulationError
from exactodds.simulation.stakes import Flat, Kelly, Optimal, Ramp, Stake, TableLimits
from exactodds.simulation.strategies import Count, Perfect, Strategy

__all__ = [
    "MOST_GRID_CELLS",
    "MOST_SEED",
    "MOST_SHOES",
    "MOST_TRIP_SHOES",
    "MOST_UNITS",
    "RiskGrid",
    "RiskQuestions",
    "Simulation",
    "check_grid_size",
    "check_trip_shoes",
    "seed_words",
]

#: Most shoes one run deals: a checkpoint keeps each exact sum of a run in at most 1,000
#: digits, which this many shoes cannot pass (and no machine deals them in a lifetime).
MOST_SHOES = 10**15
#: The most units one bet may win or lose in a round (stake x pay): the sums stay exact at
#: any size, but the figures drawn from them are floats, whose squared sums of squared
#: results must stay below 1e308.
MOST_UNITS = 10**70
#: The largest seed: 128 bits, as many as numpy's SeedSequence draws its entropy from.
MOST_SEED = 2**128 - 1
#: The most shoes a trip holds. The risk programme follows (shoes + 1) x (levels + 1) cells,
#: at most 10^7, with at least as many levels as shoes (each shoe can lose a bin), so it can
#: follow no trip of more than 3,161 shoes; and the trips' paths keep a tally per shoe of a
#: trip in every block. Checked before dealing, where memory would grow with the trip.
MOST_TRIP_SHOES = 3_000


def check_trip_shoes(shoes: int, rounds: int | None) -> None:
    """Refuse a trip of more than :data:`MOST_TRIP_SHOES` shoes, naming `trip_rounds`.

    >>> check_trip_shoes(1_234_568, 100_000_000)
    Traceback (most recent call last):
    ...
    exactodds.simulation.dealing.SimulationError: `trip_rounds` 100,000,000 makes trips of 1,234,568 shoes, longer than the risk programme follows; use trips of at most 3,000 shoes (about 242,000 rounds on this shoe).
    """
    if shoes <= MOST_TRIP_SHOES:
        return
    if rounds is None:
        raise SimulationError(
            f"`trip_shoes` {shoes:,} is longer than the risk programme follows; use trips of at "
            f"most {MOST_TRIP_SHOES:,} shoes."
        )
    most_rounds = rounds * MOST_TRIP_SHOES // shoes
    most_rounds -= most_rounds % 1000 if most_rounds >= 1000 else 0
    raise SimulationError(
        f"`trip_rounds` {rounds:,} makes trips of {shoes:,} shoes, longer than the risk "
        f"programme follows; use trips of at most {MOST_TRIP_SHOES:,} shoes (about "
        f"{most_rounds:,} rounds on this shoe)."
    )


def seed_words(seed: int) -> str:
    """A seed as a message shows it: its digits, or how many there are when they are many.

    >>> seed_words(2**128), seed_words(10**120)
    ('Seed 340282366920938463463374607431768211456', 'A seed of 121 digits')
    """
    digits = len(str(seed))
    return f"Seed {seed}" if digits <= 40 else f"A seed of {digits:,} digits"


#: The most combinations of bankroll and trip length one risk grid holds (a trip programme each).
MOST_GRID_CELLS = 100


@dataclass(frozen=True)
class RiskQuestions:
    """What the report is asked beyond the tally: a risk target, rounds per hour, a trip.

    They change no dealt shoe and no tally, so they are not in the fingerprint.

    >>> RiskQuestions(risk=Fraction(1, 20)).risk
    Fraction(1, 20)
    """

    risk: Fraction | None = None
    rounds_per_hour: int | None = None
    #: The trip length asked for (the simulated trips are whole shoes: ``trip_shoes``).
    trip_rounds: int | None = None
    #: One unit in money, for display beside the units (``--unit 25``).
    unit: Fraction | None = None

    def __post_init__(self) -> None:
        if self.unit is not None and self.unit <= 0:
            raise SimulationError(
                f"`unit` {fraction_string(self.unit)} is not valid; use a positive amount of "
                "money for one unit, such as 25."
            )
        if self.risk is not None and not 0 < self.risk < 1:
            raise SimulationError(
                f"`risk` {fraction_string(self.risk)} is not valid; use a risk of ruin strictly "
                "between 0 and 1, such as 5% or 0.05."
            )
        if self.rounds_per_hour is not None:
            whole_number(self.rounds_per_hour, "rounds_per_hour", SimulationError, minimum=1)
        if self.trip_rounds is not None:
            whole_number(self.trip_rounds, "trip_rounds", SimulationError, minimum=1)


@dataclass(frozen=True)
class RiskGrid:
    """Risk of ruin over every bankroll with every trip length (``risk_of_ruin.grid``).

    ``trip_rounds[i]`` is a trip length as asked (None: one shoe) and ``trip_shoes[i]`` the
    whole shoes it became.  The simulated trips of every length are tallied in the same pass
    over the same shoes; the first bankroll and trip length are the study's own.

    >>> grid = RiskGrid((Fraction(100), Fraction(200)), (800, 4000), (10, 49))
    >>> [(float(bankroll), shoes) for bankroll, _, shoes in grid.cells()][:3]
    [(100.0, 10), (100.0, 49), (200.0, 10)]
    >>> RiskGrid((Fraction(1),) * 11, (1,) * 10, (1,) * 10)
    Traceback (most recent call last):
    ...
    exactodds.simulation.dealing.SimulationError: `bankroll` and `trip_rounds` make a grid of 110 cells (11 bankrolls x 10 trip lengths); use from 1 to 100.
    """

    bankrolls: tuple[Fraction, ...]
    trip_rounds: tuple[int | None, ...]
    trip_shoes: tuple[int, ...]

    def __post_init__(self) -> None:
        check_grid_size(len(self.bankrolls), len(self.trip_rounds))
        if len(self.trip_shoes) != len(self.trip_rounds):
            raise SimulationError(
                f"A risk grid of {len(self.trip_rounds)} trip lengths needs as many shoes per "
                f"trip, not {len(self.trip_shoes)}."
            )
        for name, values in (("bankroll", self.bankrolls), ("trip_rounds", self.trip_rounds)):
            twice = next((value for value in values if values.count(value) > 1), False)
            if twice is not False:
                shown = fraction_string(twice) if isinstance(twice, Fraction) else twice
                raise SimulationError(
                    f"`{name}` {shown} is given twice in a risk grid; give each value once."
                )
        for bankroll in self.bankrolls:
            if bankroll <= 0:
                raise SimulationError(
                    f"`bankroll` {fraction_string(bankroll)} is not valid; use a positive "
                    "number of units, such as 1000."
                )
        for rounds in self.trip_rounds:
            if rounds is not None:
                whole_number(rounds, "trip_rounds", SimulationError, minimum=1)
        for rounds, shoes in zip(self.trip_rounds, self.trip_shoes, strict=True):
            whole_number(shoes, "trip_shoes", SimulationError, minimum=1, what="Shoes per trip")
            check_trip_shoes(shoes, rounds)

    def cells(self) -> list[tuple[Fraction, int | None, int]]:
        """(bankroll, trip rounds asked, shoes per trip) of every cell, bankroll by bankroll."""
        return [
            (bankroll, rounds, shoes)
            for bankroll in self.bankrolls
            for rounds, shoes in zip(self.trip_rounds, self.trip_shoes, strict=True)
        ]


def check_grid_size(bankrolls: int, trip_lengths: int) -> None:
    """Refuse a grid of more than :data:`MOST_GRID_CELLS` cells, or of no cell.

    >>> check_grid_size(25, 4)
    >>> check_grid_size(3, 0)
    Traceback (most recent call last):
    ...
    exactodds.simulation.dealing.SimulationError: `bankroll` and `trip_rounds` make a grid of 0 cells (3 bankrolls x 0 trip lengths); use from 1 to 100.
    """
    cells = bankrolls * trip_lengths
    if not 1 <= cells <= MOST_GRID_CELLS:
        raise SimulationError(
            f"`bankroll` and `trip_rounds` make a grid of {cells:,} cells ({bankrolls:,} "
            f"bankrolls x {trip_lengths:,} trip lengths); use from 1 to {MOST_GRID_CELLS}."
        )


def _shown(value: int) -> str:
    if value.bit_length() > 4000:
        return "a number of more than 1,000 digits of"
    digits = len(str(value))
    return f"{value:,}" if digits <= 30 else f"a {digits}-digit number of"


@dataclass(frozen=True)
class Simulation:
    """What to simulate: how many shoes, the seed, rules, bets with strategies, dealing.

    Build one with :meth:`of`; ``strategies[i]`` plays ``bets[i]``.
    """

    shoes: int
    seed: int
    rules: Rules
    bets: tuple[Bet, ...]
    strategies: tuple[Strategy, ...]
    procedure: DealingProcedure
    #: How much each bet made stakes (:mod:`~exactodds.simulation.stakes`), whole units.
    stake: Stake = field(default_factory=Flat)
    limits: TableLimits = field(default_factory=TableLimits)
    #: Units at the start of every shoe (Kelly sizing) and of every trip (ruin).
    bankroll: Fraction | None = None
    #: Shoes chained into one trip for the simulated risk of ruin.
    trip_shoes: int = 1
    #: Also estimate each bet's SD from the exact second moment at every bet made.
    exact_moments: bool = False
    questions: RiskQuestions = RiskQuestions()
    #: Risk of ruin over several bankrolls and trip lengths (None: the one of the study).
    grid: RiskGrid | None = None

    def __post_init__(self) -> None:
        whole_number(self.shoes, "shoes", SimulationError, minimum=1, what="Number of shoes")
        if self.shoes > MOST_SHOES:
            raise SimulationError(
                f"A run of {_shown(self.shoes)} shoes is more than one run can hold; use at "
                f"most {MOST_SHOES:,} (10^15), the most a checkpoint and its exact sums keep."
            )
        whole_number(self.seed, "seed", SimulationError, what="Seed")
        if self.seed > MOST_SEED:
            raise SimulationError(
                f"{seed_words(self.seed)} for `seed` is above 2^128 - 1; use a whole number "
                "from 0 to 2^128 - 1 (128 bits)."
            )
        whole_number(
            self.trip_shoes, "trip_shoes", SimulationError, minimum=1, what="Shoes per trip"
        )
        check_trip_shoes(self.trip_shoes, self.questions.trip_rounds)
        if self.bankroll is not None and self.bankroll <= 0:
            raise SimulationError(
                f"`bankroll` {fraction_string(self.bankroll)} is not valid; use a positive "
                "number of units, such as 1000."
            )
        if isinstance(self.stake, Kelly) and self.bankroll is None:
            raise SimulationError("`stake` kelly sizes from a bankroll; give `bankroll` UNITS.")
        if isinstance(self.stake, Ramp) and self.stake.by_count:
            for bet, strategy in zip(self.bets, self.strategies, strict=True):
                if not isinstance(strategy, Count):
                    raise SimulationError(
                        f"`stake` ramp:tc: steps by a count, but {bet.name} plays "
                        f"{strategy.describe()}; give it a count with `play` "
                        f"{bet.name}=count:TAGS:TRIGGER."
                    )
        if not self.bets:
            raise SimulationError("A simulation needs at least one bet; name some with `bets`.")
        if isinstance(self.stake, Optimal):
            self.stake.levels(self.limits)  # a spread the table cannot take: refused now
            kinds = {
                (isinstance(play, Count), getattr(play, "running", False))
                for play in self.strategies
            }
            if len(kinds) > 1:
                raise SimulationError(
                    "`stake` optimal steps every bet by one measure, but the bets' plays mix "
                    "true counts, running counts and exact EVs; give every bet a play of one kind."
                )
        self._check_grid()
        self._check_magnitude()
        if len(self.strategies) != len(self.bets):
            raise SimulationError(
                f"{len(self.bets)} bets need {len(self.bets)} strategies, "
                f"not {len(self.strategies)}."
            )

    def _check_grid(self) -> None:
        grid = self.grid
        if grid is None:
            return
        if isinstance(self.stake, Kelly):
            raise SimulationError(
                "`stake` kelly sizes from the bankroll and the trip, so each cell of a grid of "
                "`bankroll` and `trip_rounds` is another study: give one value of each."
            )
        first = (grid.bankrolls[0], grid.trip_rounds[0], grid.trip_shoes[0])
        if first != (self.bankroll, self.questions.trip_rounds, self.trip_shoes):
            raise SimulationError(
                "A risk grid's first bankroll and trip length must be the study's `bankroll`, "
                "`trip_rounds` and `trip_shoes`."
            )

    @property
    def grid_trip_shoes(self) -> tuple[int, ...]:
        """The grid's trip lengths in shoes other than ``trip_shoes``, each once, in order.

        >>> grid = RiskGrid((Fraction(5),), (None, 9), (1, 3))
        >>> Simulation.of(1, 1, bankroll=Fraction(5), grid=grid).grid_trip_shoes
        (3,)
        """
        if self.grid is None:
            return ()
        return tuple(sorted(set(self.grid.trip_shoes) - {self.trip_shoes}))

    def largest_stake(self) -> int | Fraction:
        """A bound on any one stake of this study, in units (the table maximum caps it)."""
        stake = self.stake
        if isinstance(stake, Flat):
            largest: int | Fraction = stake.units
        elif isinstance(stake, Ramp):
            largest = max(units for _, units in stake.steps)
        elif isinstance(stake, Optimal):
            largest = stake.maximum
        else:
            largest = self.bankroll if self.bankroll is not None else 1
        if self.limits.maximum is not None:
            largest = min(largest, self.limits.maximum)
        return max(largest, self.limits.minimum)

    def _check_magnitude(self) -> None:
        largest = self.largest_stake()
        for bet in self.bets:
            pay = max(abs(value) for value in bet.pay_table.values())
            if largest * pay > MOST_UNITS:
                raise SimulationError(
                    f"Stakes of up to {_shown(math.ceil(largest))} units on {bet.name}, which "
                    f"pays up to {fraction_string(pay)}, are past what the figures (floats) can "
                    "hold; keep a stake times its largest pay at most 10^70 units."
                )

    @classmethod
    def of(
        cls,
        shoes: int,
        seed: int,
        rules: Rules | None = None,
        bets: Sequence[Bet] | None = None,
        strategies: Mapping[str, Strategy] | None = None,
        procedure: DealingProcedure | None = None,
        **sizing: Any,
    ) -> Simulation:
        """A simulation with defaults: standard rules, main bets, perfect play, 8 decks, cut 14.

        *sizing* takes ``stake``, ``limits``, ``bankroll``, ``trip_shoes``, ``exact_moments``,
        ``questions`` and ``grid``.
        """
        rules = rules if rules is not None else Rules()
        chosen = tuple(bets) if bets is not None else main_bets(rules)
        plays = strategies or {}
        return cls(
            shoes,
            seed,
            rules,
            chosen,
            tuple(plays.get(bet.name, Perfect()) for bet in chosen),
            procedure if procedure is not None else DealingProcedure(),
            **sizing,
        )

    @property
    def suited(self) -> bool:
        """Whether any bet needs the suits of the known composition."""
        return any(bet.needs_suits for bet in self.bets)

    def digest(self) -> str:
        """A short SHA-256 of :meth:`fingerprint`: the name of the study a result holds shoes of.

        >>> Simulation.of(10, 1).digest() == Simulation.of(99, 1).digest() != Simulation.of(10, 2).digest()
        True
        """
        canonical = json.dumps(self.fingerprint(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16]

    def staking(self) -> dict[str, Any]:
        """The stake plan, table limits, bankroll, trip and questions as data (JSON ``staking``).

        Fed back as options (``text`` to ``--stake``, and the rest to the options of their
        names) they make the same study.

        >>> Simulation.of(1, 1).staking()["text"], Simulation.of(1, 1).staking()["table_min"]
        ('flat', 1)
        """
        questions = self.questions
        return (
            self.stake.as_dict()
            | {
                "table_min": self.limits.minimum,
                "table_max": self.limits.maximum,
                "chip": self.limits.chip,
                "bankroll": fraction_string(self.bankroll) if self.bankroll is not None else None,
                "trip_shoes": self.trip_shoes,
                "trip_rounds": questions.trip_rounds,
                "rounds_per_hour": questions.rounds_per_hour,
                "risk": fraction_string(questions.risk) if questions.risk is not None else None,
                "unit": fraction_string(questions.unit) if questions.unit is not None else None,
                "exact_moments": self.exact_moments,
            }
            | ({"grid": self._grid_record()} if self.grid is not None else {})
        )

    def _grid_record(self) -> dict[str, Any]:
        assert self.grid is not None
        return {
            "bankrolls": [fraction_string(bankroll) for bankroll in self.grid.bankrolls],
            "trip_rounds": list(self.grid.trip_rounds),
            "trip_shoes": list(self.grid.trip_shoes),
        }

    def fingerprint(self) -> dict[str, Any]:
        """What makes two runs the same run (all but the number of shoes): checkpoints hold it.

        The sizing is recorded only when it is not the default flat unit, so that a flat
        study keeps the fingerprint it always had.
        """
        sizing = (
            {
                "sizing": {
                    "stake": self.stake.describe(),
                    "limits": self.limits.describe(),
                    "bankroll": (
                        fraction_string(self.bankroll)
                        if self.bankroll is not None and isinstance(self.stake, Kelly)
                        else None
                    ),
                    "trip_shoes": self.trip_shoes,
                    "exact_moments": self.exact_moments,
                }
                # Kelly's bankroll runs on through a trip's shoes (it once restarted each shoe).
                | (
                    {"kelly_bankroll": "per trip"}
                    if isinstance(self.stake, Kelly) and self.trip_shoes > 1
                    else {}
                )
            }
            if (self.stake, self.limits, self.trip_shoes, self.exact_moments)
            != (Flat(), TableLimits(), 1, False)
            else {}
        )
        # Trips of other lengths are tallied too (a grid): another tally, another study.
        grid = {"grid_trip_shoes": list(self.grid_trip_shoes)} if self.grid_trip_shoes else {}
        return (
            sizing
            | grid
            | {
                "seed": self.seed,
                "procedure": self.procedure.as_dict(),
                "rules": self.rules.as_dict(),
                "bets": {
                    bet.name: {
                        "pays": {
                            outcome: fraction_string(pay) for outcome, pay in bet.pay_table.items()
                        },
                        "strategy": strategy.describe(),
                    }
                    for bet, strategy in zip(self.bets, self.strategies, strict=True)
                },
            }
        )
