"""The trip's risk of ruin on the exact lattice, against a plain Monte Carlo of the bankroll over
the traced rounds (issue 36): fractional pays (Big's 27/50, Banker's 19/20), a table minimum
above 1 (a stake of 3 on a minimum of 2) and a ramp whose stakes are not multiples of the
minimum (5 on 3).

The programme computes the chance of ruin of a trip of shoes drawn independently from the
shoes dealt; the Monte Carlo draws such trips from the trace (``simulate --trace``: every
round's result) and walks the bankroll round by round.  The two must agree within 3 of the
Monte Carlo's standard errors.  Before the lattice, the programme rounded each shoe's total to
a whole table minimum and was off by up to 8 points here (issue 36, Why 1).
"""

from __future__ import annotations

import io
import json
import math
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from exactodds.bets.catalogue import select_bets
from exactodds.simulation.dealing import DealingProcedure
from exactodds.simulation.risk.ruin import trip_ruin
from exactodds.simulation.run import Simulation, simulate
from exactodds.simulation.strategies import Always
from exactodds.specs import sizing_from_options

EIGHT_DECKS = DealingProcedure(decks=8)


def _traced(bets: str, shoes: int, seed: int, **options: Any) -> tuple[Any, list[list[Fraction]]]:
    """The result and each shoe's rounds' combined results (exact, from the trace)."""
    strategies = {name: Always() for name in bets.split(",") if name != "dragon7"}
    study = Simulation.of(
        shoes,
        seed,
        bets=select_bets(bets),
        strategies=strategies or None,
        procedure=EIGHT_DECKS,
        **sizing_from_options(EIGHT_DECKS, **options),
    )
    stream = io.StringIO()
    result = simulate(study, trace=stream)
    by_shoe: list[list[Fraction]] = [[] for _ in range(shoes)]
    for line in stream.getvalue().splitlines():
        entry = json.loads(line)
        by_shoe[entry["shoe"]].append(sum(map(Fraction, entry["result"].values()), Fraction(0)))
    return result, by_shoe


def _monte_carlo(
    by_shoe: list[list[Fraction]], bankroll: Fraction, trip_shoes: int, trips: int, seed: int
) -> tuple[float, float]:
    """The share of *trips* trips of *trip_shoes* shoes, each drawn at random from the traced
    shoes, whose bankroll falls to 0 or below at some round; and its standard error."""
    denominator = math.lcm(*(value.denominator for rounds in by_shoe for value in rounds), 1)
    totals, lows = [], []
    for rounds in by_shoe:  # each shoe walked round by round, in whole 1/denominator
        running = np.cumsum([int(value * denominator) for value in rounds] or [0])
        totals.append(int(running[-1]))
        lows.append(min(int(running.min()), 0))
    drawn = np.random.default_rng(seed).integers(len(by_shoe), size=(trips, trip_shoes))
    shoe_totals, shoe_lows = np.array(totals)[drawn], np.array(lows)[drawn]
    before = np.cumsum(shoe_totals, axis=1) - shoe_totals  # the result before each shoe
    ruined = ((before + shoe_lows).min(axis=1) <= -bankroll * denominator).mean()
    return float(ruined), math.sqrt(ruined * (1 - ruined) / trips)


def _estimates(result: Any) -> list[tuple[float, int, float]]:
    """The programme's risk at each bankroll and trip length of the run: (bankroll, shoes of a
    trip, risk)."""
    ruin = result.risk_figures.ruin
    cells = ruin.get("grid") or [
        {
            "bankroll": ruin["bankroll"],
            "trip_shoes": ruin["trip_shoes"],
            "estimate": ruin["estimate"]["trip"],
        }
    ]
    return [(cell["bankroll"], cell["trip_shoes"], cell["estimate"]["mean"]) for cell in cells]


def _agrees(result: Any, by_shoe: list[list[Fraction]], trips: int = 100_000) -> None:
    for bankroll, trip_shoes, estimate in _estimates(result):
        share, stderr = _monte_carlo(by_shoe, Fraction(bankroll), trip_shoes, trips, seed=11)
        assert abs(estimate - share) <= 3 * stderr + 1e-9, (bankroll, estimate, share, stderr)


def test_big_always_fractional_pays_agree_with_the_monte_carlo() -> None:
    # Big pays 27/50: no shoe's total is a whole unit; bankrolls 10 and 20, trips of 9 shoes.
    result, by_shoe = _traced("big", 60, 7, bankroll="10,20", trip_rounds="700")
    assert result.tally.risk.trip_shoes == 9
    _agrees(result, by_shoe)


def test_a_stake_of_3_on_a_minimum_of_2_agrees_with_the_monte_carlo() -> None:
    result, by_shoe = _traced(
        "banker", 60, 7, stake="ramp:-100%=3", table_min=2, bankroll="60", trip_rounds="350"
    )
    assert {value.denominator for rounds in by_shoe for value in rounds} >= {20}
    _agrees(result, by_shoe)


def test_a_ramp_of_5_on_a_minimum_of_3_agrees_with_the_monte_carlo() -> None:
    result, by_shoe = _traced(
        "dragon7", 150, 5, stake="ramp:0=5", table_min=3, bankroll="6,21,60", trip_rounds="400"
    )
    _agrees(result, by_shoe)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("bets", "shoes", "seed", "options"),
    [
        ("big", 2000, 1, {"bankroll": "10,20", "trip_rounds": "780"}),
        ("banker", 2000, 2, {"stake": "ramp:-100%=3", "table_min": 2, "bankroll": "60"}),
        (
            "dragon7",
            1500,
            5,
            {"stake": "ramp:0=5", "table_min": 3, "bankroll": "6,21,60", "trip_rounds": "400,2000"},
        ),
    ],
)
def test_the_cases_of_issue_36_agree_with_the_monte_carlo(
    bets: str, shoes: int, seed: int, options: dict[str, Any]
) -> None:
    # Issue 36, Why 1: the same settings (the Banker case's trips of 5 shoes: 400 rounds), every
    # bankroll with every trip length of a grid.
    options.setdefault("trip_rounds", "400")
    result, by_shoe = _traced(bets, shoes, seed, **options)
    _agrees(result, by_shoe, trips=400_000)


def _brute_force(outcomes: list[tuple[int, int, int]], bankroll: int, shoes: int) -> Fraction:
    """Every sequence of shoes, exactly, with a shoe's rounds in full: ruined at the first
    running total at or below minus the bankroll."""
    dealt = sum(count for *_, count in outcomes)
    ruined = Fraction(0)
    for path in np.ndindex(*([len(outcomes)] * shoes)):
        chance = math.prod(Fraction(outcomes[index][2], dealt) for index in path)
        level = bankroll
        for index in path:
            total, low, _ = outcomes[index]
            if level + low <= 0:
                ruined += chance
                break
            level += total
        else:
            continue
    return ruined


@settings(max_examples=60, deadline=None)
@example([(0, 0, 1)], 2, 1, 1)  # every shoe still: the step is 1, not a multiple of 2
@given(
    st.lists(
        st.tuples(st.integers(-9, 12), st.integers(0, 9), st.integers(1, 3)), min_size=1, max_size=3
    ),
    st.sampled_from([1, 2, 3, 5, 19, 20]),
    st.integers(1, 40),
    st.integers(1, 3),
)
def test_the_lattice_equals_brute_force_whatever_the_unit(
    shapes: list[tuple[int, int, int]], scale: int, bankroll: int, shoes: int
) -> None:
    # Results in any unit (a multiple of a common step, as stakes and pays make them), and any
    # bankroll, on the lattice or between its points: the programme is the exact risk.
    outcomes = [
        (scale * total, scale * (min(0, total) - dip), count) for total, dip, count in shapes
    ]
    risk = trip_ruin(outcomes, bankroll, shoes)
    # Shoes that neither win nor dip move nothing: any step is the lattice's, 1 by default.
    still = all(total == 0 == low for total, low, _ in outcomes)
    assert risk.bounds is None and (risk.step % scale == 0 or still)
    assert risk.mean == pytest.approx(float(_brute_force(outcomes, bankroll, shoes)), abs=1e-12)
