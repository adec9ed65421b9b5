"""What a simulation is: shoes, seed, rules, bets with their strategies, the dealing procedure.

A :class:`Simulation` is a frozen value: two runs of equal simulations deal the same
shoes and give the same tallies, and its :meth:`~Simulation.fingerprint` is what a
checkpoint records to refuse resuming another study.

>>> Simulation.of(shoes=10, seed=1).fingerprint()["procedure"]
{'decks': 8, 'cut': 14, 'burn': 'standard', 'after_cut': 1, 'cut_first_rounds': 2}
>>> Simulation.of(shoes=0, seed=1)
Traceback (most recent call last):
...
exactodds.errors.SimulationError: Number of shoes 0 for `shoes` is not valid; use a whole number of at least 1.
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
from exactodds.bets.multipliers import MultiplierOverlay
from exactodds.errors import SimulationError
from exactodds.inputs import whole_number
from exactodds.numbers import fraction_string
from exactodds.rules import Rules
from exactodds.simulation.dealing import DealingProcedure
from exactodds.simulation.risk.questions import RiskGrid, RiskQuestions, check_trip_shoes
from exactodds.simulation.staking.stakes import Flat, Kelly, Optimal, Ramp, Stake, TableLimits
from exactodds.simulation.strategies import Count, Perfect, Strategy

__all__ = [
    "MOST_SEED",
    "MOST_SHOES",
    "MOST_UNITS",
    "PRICINGS",
    "Simulation",
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
#: How a simulation prices its rounds (``Simulation.pricing``): ``every-round`` prices every
#: bet on every round; ``bet-rounds`` only the rounds where some bet is made, for plays that
#: decide without the EV (a count, always), and leaves out the figures that read every
#: round's EV (the EV deciles, the share of rounds with EV > 0, the EV by deck).
PRICINGS = ("every-round", "bet-rounds")


def seed_words(seed: int) -> str:
    """A seed as a message shows it: its digits, or how many there are when they are many.

    >>> seed_words(2**128), seed_words(10**120)
    ('Seed 340282366920938463463374607431768211456', 'A seed of 121 digits')
    """
    digits = len(str(seed))
    return f"Seed {seed}" if digits <= 40 else f"A seed of {digits:,} digits"


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
    #: How much each bet made stakes (:mod:`~exactodds.simulation.staking.stakes`), whole units.
    stake: Stake = field(default_factory=Flat)
    limits: TableLimits = field(default_factory=TableLimits)
    #: Units at the start of every shoe (Kelly sizing) and of every trip (ruin).
    bankroll: Fraction | None = None
    #: Shoes chained into one trip for the simulated risk of ruin.
    trip_shoes: int = 1
    #: Also estimate each bet's SD from the exact second moment at every bet made.
    exact_moments: bool = False
    questions: RiskQuestions = field(default_factory=RiskQuestions)
    #: Risk of ruin over several bankrolls and trip lengths (None: the one of the study).
    grid: RiskGrid | None = None
    #: A random-multiplier overlay on the bets it names (:mod:`~exactodds.simulation.overlaypays`).
    overlay: MultiplierOverlay | None = None
    #: One of :data:`PRICINGS`: every round priced, or only the rounds a bet is made.
    pricing: str = "every-round"

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
        self._check_pricing()
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

    def _check_pricing(self) -> None:
        if self.pricing not in PRICINGS:
            raise SimulationError(
                f"`pricing` {self.pricing!r} is not valid; use every-round or bet-rounds."
            )
        if self.pricing == "bet-rounds" and any(
            isinstance(play, Perfect) for play in self.strategies
        ):
            raise SimulationError(
                "Pricing bet-rounds prices only the rounds a bet is made, but perfect play "
                "needs every round's exact EV to decide; give a count or always with `play`, "
                "or price every-round."
            )

    @property
    def every_round(self) -> bool:
        """Whether every round's EV is priced (and the figures that read them kept).

        >>> Simulation.of(1, 1).every_round
        True
        >>> from exactodds.simulation.strategies import Always
        >>> Simulation.of(1, 1, strategies={"banker": Always()}, pricing="bet-rounds")
        Traceback (most recent call last):
        ...
        exactodds.errors.SimulationError: Pricing bet-rounds prices only the rounds a bet is made, but perfect play needs every round's exact EV to decide; give a count or always with `play`, or price every-round.
        """
        return self.pricing == "every-round"

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
        ``questions``, ``grid``, ``overlay`` and ``pricing``.
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
            self.stake.to_dict()
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
        overlay = {} if self.overlay is None else {"overlay": self.overlay.to_dict()}
        # Another tally (some figures left out): recorded only when not the default.
        pricing = {} if self.every_round else {"pricing": self.pricing}
        return (
            sizing
            | grid
            | overlay
            | pricing
            | {
                "seed": self.seed,
                "procedure": self.procedure.to_dict(),
                "rules": self.rules.to_dict(),
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
