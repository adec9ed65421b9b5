"""What a risk study asks beyond the tally: a risk target, a trip, a grid of bankrolls and trips.

The questions change no dealt shoe and no tally (so they are not in a study's fingerprint);
the grid adds the trips of each length to the same pass over the same shoes.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from exactodds.errors import SimulationError
from exactodds.inputs import whole_number
from exactodds.numbers import fraction_string

__all__ = [
    "MOST_GRID_CELLS",
    "MOST_TRIP_SHOES",
    "RiskGrid",
    "RiskQuestions",
    "check_grid_size",
    "check_trip_shoes",
]

#: The most combinations of bankroll and trip length one risk grid holds (a trip programme each).
MOST_GRID_CELLS = 100
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
    exactodds.errors.SimulationError: `trip_rounds` 100,000,000 makes trips of 1,234,568 shoes, longer than the risk programme follows; use trips of at most 3,000 shoes (about 242,000 rounds on this shoe).
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
    exactodds.errors.SimulationError: `bankroll` and `trip_rounds` make a grid of 110 cells (11 bankrolls x 10 trip lengths); use from 1 to 100.
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
    exactodds.errors.SimulationError: `bankroll` and `trip_rounds` make a grid of 0 cells (3 bankrolls x 0 trip lengths); use from 1 to 100.
    """
    cells = bankrolls * trip_lengths
    if not 1 <= cells <= MOST_GRID_CELLS:
        raise SimulationError(
            f"`bankroll` and `trip_rounds` make a grid of {cells:,} cells ({bankrolls:,} "
            f"bankrolls x {trip_lengths:,} trip lengths); use from 1 to {MOST_GRID_CELLS}."
        )
