"""The risk-of-ruin estimate (``risk_of_ruin.estimate``): the programme over the bankroll
against brute force, against the simulated frequency on the same shoes, and Lundberg.

Sources: the Dragon 7 figures (8 decks, cut at 14, flat perfect play, trips of one shoe,
bankroll 20 units: about 10.9% simulated over 20,000 trips) are those of issue 25's
independent re-derivation; the diffusion formula gives 31.1% there.
"""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds.bets.catalogue import select_bets
from exactodds.simulation.dealing import DealingProcedure, SimulationError
from exactodds.simulation.ruin import lundberg_ruin, trip_ruin
from exactodds.simulation.run import Simulation, simulate
from exactodds.simulation.sizing import sizing_from_options
from exactodds.simulation.strategies import Always


def _brute_force(outcomes: list[tuple[int, int, int]], bankroll: int, shoes: int) -> Fraction:
    """Every sequence of *shoes* measured shoes, exactly: ruined when the bankroll before a
    shoe plus its lowest point is at most 0."""
    dealt = sum(count for *_, count in outcomes)
    ruined = Fraction(0)
    for path in itertools.product(outcomes, repeat=shoes):
        chance = math.prod(Fraction(count, dealt) for *_, count in path)
        level = bankroll
        for total, low, _ in path:
            if level + low <= 0:
                ruined += chance
                break
            level += total
    return ruined


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(-4, 6), st.integers(0, 4), st.integers(1, 3)), min_size=1, max_size=4
    ),
    st.integers(1, 6),
    st.integers(1, 3),
)
def test_the_programme_equals_brute_force(
    shapes: list[tuple[int, int, int]], bankroll: int, shoes: int
) -> None:
    # A shoe's lowest point is at most 0 and at most its total.
    outcomes = [(total, min(0, total) - dip, count) for total, dip, count in shapes]
    risk, _ = trip_ruin(outcomes, bankroll, shoes)
    assert risk == pytest.approx(float(_brute_force(outcomes, bankroll, shoes)), abs=1e-12)


def test_one_shoe_stderr_is_the_binomial_one() -> None:
    outcomes = [(-30, -30, 3), (5, -2, 7)]
    risk, stderr = trip_ruin(outcomes, 20, 1)
    assert risk == pytest.approx(0.3)
    assert stderr == pytest.approx(math.sqrt(0.3 * 0.7 / 10))


def test_lundberg_solves_its_equation_and_bad_input_is_refused() -> None:
    outcomes = [(-1, -1, 6), (3, 0, 4)]
    risk, rate = lundberg_ruin(outcomes, 10) or (math.nan, math.nan)
    assert 0.6 * math.exp(rate) + 0.4 * math.exp(-3 * rate) == pytest.approx(1.0)
    assert risk == pytest.approx(math.exp(-10 * rate))
    with pytest.raises(SimulationError, match="no shoe"):
        trip_ruin([], 5, 2)


@pytest.mark.parametrize("bet", ["player", "banker", "dragon7"])
def test_one_shoe_trips_estimate_the_simulated_frequency_exactly(bet: str) -> None:
    # A trip of one shoe is ruined exactly when its lowest point reaches the bankroll: the
    # programme on the measured shoes is then that frequency (a smooth bet and a long shot).
    procedure = DealingProcedure(decks=2)
    sizing = sizing_from_options(procedure, bankroll="6")
    plays = {bet: Always()} if bet != "dragon7" else {}
    study = Simulation.of(
        40, 5, bets=select_bets(bet), strategies=plays, procedure=procedure, **sizing
    )
    ruin = simulate(study).as_dict()["combined"]["risk_of_ruin"]
    simulated = ruin["simulated"]["trip"]
    assert ruin["estimate"]["trip"]["mean"] == pytest.approx(simulated["mean"], abs=1e-12)
    assert ruin["estimate"]["trip"]["stderr"] == pytest.approx(
        simulated["stderr"], rel=1e-9, abs=1e-12
    )


def test_the_smooth_bet_estimate_agrees_with_simulated_trips() -> None:
    procedure = DealingProcedure(decks=1, cut=10)
    sizing = sizing_from_options(procedure, bankroll="8", trip_rounds=40)
    study = Simulation.of(
        600,
        2,
        bets=select_bets("player"),
        strategies={"player": Always()},
        procedure=procedure,
        **sizing,
    )
    ruin = simulate(study).as_dict()["combined"]["risk_of_ruin"]
    assert ruin["trip_shoes"] > 1
    estimate, simulated = ruin["estimate"]["trip"], ruin["simulated"]["trip"]
    spread = math.hypot(estimate["stderr"], simulated["stderr"])
    assert abs(estimate["mean"] - simulated["mean"]) <= 3 * spread
    assert ruin["formula"]["trip"] == pytest.approx(simulated["mean"], abs=4 * spread)


@pytest.mark.slow
def test_dragon7_long_shot_estimate_agrees_where_the_diffusion_does_not() -> None:
    # Issue 25's case: 8 decks, cut at 14, flat perfect play, bankroll 20, one-shoe trips.
    procedure = DealingProcedure()
    sizing = sizing_from_options(procedure, bankroll="20")
    study = Simulation.of(4000, 25, bets=select_bets("dragon7"), procedure=procedure, **sizing)
    ruin = simulate(study, jobs=2).as_dict()["combined"]["risk_of_ruin"]
    estimate, simulated = ruin["estimate"]["trip"], ruin["simulated"]["trip"]
    assert abs(estimate["mean"] - simulated["mean"]) <= max(3 * estimate["stderr"], 0.015)
    assert abs(estimate["mean"] - 0.109) <= max(3 * estimate["stderr"], 0.015)
    assert ruin["formula"]["trip"] > 0.25  # the diffusion's 31%, three times too high
    assert ruin["formula"]["warning"] is not None
    # Five-shoe trips, bankroll 40 (issue 25: 23.2% simulated): the programme on the measured
    # shoes against the trips of the same shoes.
    five = sizing_from_options(procedure, bankroll="40", trip_rounds=400)
    trips = Simulation.of(4000, 25, bets=select_bets("dragon7"), procedure=procedure, **five)
    ruin = simulate(trips, jobs=2).as_dict()["combined"]["risk_of_ruin"]
    assert ruin["trip_shoes"] == 5
    estimate, simulated = ruin["estimate"]["trip"], ruin["simulated"]["trip"]
    spread = math.hypot(estimate["stderr"], simulated["stderr"])
    assert abs(estimate["mean"] - simulated["mean"]) <= 3 * spread
    assert json.dumps(ruin)  # JSON-ready
