"""``--stake optimal --spread MIN-MAX``: the ramp that maximizes growth (or SCORE).

The optimizer against brute force over every nondecreasing choice of chip stakes on random
small band tables; the optimal ramp on a real pilot against flat and every ramp one chip
step away (same objective, same measured statistics); the run with the optimal ramp against
a rerun with the printed ramp typed in, byte for byte; and the bad inputs, refused before
any dealing with one sentence and exit 2.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
from fractions import Fraction

import pytest
from budget import budgeted
from cli_runner import run, run_ok
from hypothesis import given
from hypothesis import strategies as st

from exactodds.bets.catalogue import select_bets
from exactodds.errors import SimulationError
from exactodds.simulation.dealing import DealingProcedure
from exactodds.simulation.risk.figures import RiskFigures
from exactodds.simulation.run import Simulation, simulate
from exactodds.simulation.staking.optimal import (
    MIN_BAND_BETS,
    BandSums,
    derived_study,
    growth,
    merged_bands,
    optimal_stakes,
    pilot_bands,
    pilot_study,
    score,
)
from exactodds.simulation.staking.stakes import Optimal, Ramp, TableLimits, parse_spread
from exactodds.simulation.strategies import parse_plays
from exactodds.specs import sizing_from_options

TWO_DECKS = DealingProcedure(decks=2)
#: A Dragon 7 count (Wizard of Odds' tags for 4-7, 8 and 9), true count to bet at 0.
DRAGON_COUNT = "dragon7=count:0,0,0,-1,-1,-1,-1,2,2,0:0"
COUNT_ARGS = (
    "simulate",
    "--shoes",
    "12",
    "--seed",
    "4",
    "--decks",
    "2",
    "--bets",
    "dragon7",
    "--play",
    DRAGON_COUNT,
    "--jobs",
    "1",
    "--quiet",
)


def _nondecreasing(levels: tuple[int, ...], size: int) -> list[tuple[int, ...]]:
    return list(itertools.combinations_with_replacement(levels, size))


band_tables = st.lists(
    st.tuples(
        st.integers(1, 50),  # bets made
        st.fractions(min_value=-3, max_value=3, max_denominator=50),  # summed EV
        st.fractions(min_value=Fraction(1, 10), max_value=40, max_denominator=20),  # squares
    ),
    min_size=1,
    max_size=4,
)
level_sets = st.lists(st.integers(1, 12), min_size=1, max_size=4, unique=True).map(
    lambda levels: tuple(sorted(levels))
)


def _bands(table: list[tuple[int, Fraction, Fraction]]) -> tuple[BandSums, ...]:
    return tuple(
        BandSums(band, made, expected, made * squares)
        for band, (made, expected, squares) in enumerate(table)
    )


@budgeted(150, deadline=None)
@given(band_tables, level_sets, st.fractions(min_value=1, max_value=500, max_denominator=7))
def test_growth_optimum_equals_brute_force_over_every_ramp(
    table: list[tuple[int, Fraction, Fraction]], levels: tuple[int, ...], bankroll: Fraction
) -> None:
    bands = _bands(table)
    rounds = 200
    chosen = optimal_stakes(bands, levels, bankroll)
    assert list(chosen) == sorted(chosen) and set(chosen) <= set(levels)
    best = max(growth(bands, rounds, s, bankroll) for s in _nondecreasing(levels, len(bands)))
    assert growth(bands, rounds, chosen, bankroll) == best


@budgeted(150, deadline=None)
@given(band_tables, level_sets)
def test_score_optimum_equals_brute_force_over_every_ramp(
    table: list[tuple[int, Fraction, Fraction]], levels: tuple[int, ...]
) -> None:
    bands = _bands(table)
    rounds = 200
    chosen = optimal_stakes(bands, levels, None)
    assert list(chosen) == sorted(chosen) and set(chosen) <= set(levels)
    best = max(score(bands, rounds, s) for s in _nondecreasing(levels, len(bands)))
    assert score(bands, rounds, chosen) == best


def _neighbours(stakes: tuple[int, ...], levels: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every ramp one chip step away from *stakes* in one band (still nondecreasing)."""
    found = []
    for band, units in enumerate(stakes):
        at = levels.index(units)
        for step in (-1, 1):
            if 0 <= at + step < len(levels):
                moved = (*stakes[:band], levels[at + step], *stakes[band + 1 :])
                if list(moved) == sorted(moved):
                    found.append(moved)
    return found


def _count_study(bankroll: str | None, spread: str = "1-8", **sizing: object) -> Simulation:
    bets = select_bets("dragon7")
    options = sizing_from_options(
        TWO_DECKS,
        "optimal",
        spread=spread,
        bankroll=bankroll,
        **sizing,  # type: ignore[arg-type]
    )
    plays = parse_plays((DRAGON_COUNT,), ["dragon7"], Fraction(0))
    return Simulation.of(40, 4, bets=bets, strategies=plays, procedure=TWO_DECKS, **options)


@pytest.mark.parametrize("bankroll", ["1000", None])
def test_optimal_ramp_beats_flat_and_every_ramp_one_step_away(bankroll: str | None) -> None:
    study = _count_study(bankroll, table_min=2, chip=2, table_max=14)
    pilot = simulate(pilot_study(study)).tally
    counted, measured = pilot_bands(pilot, study.strategies)
    assert counted == "true_count" and len(measured) > 3
    bands = merged_bands(measured)  # as derived_study fits them: no band under 100 bets
    assert len(bands) > 1 and all(band.bets_made >= MIN_BAND_BETS for band in bands)
    levels = study.stake.levels(study.limits)  # type: ignore[union-attr]
    assert levels == (2, 4, 6, 8)
    chosen = optimal_stakes(bands, levels, study.bankroll)

    def objective(stakes: tuple[int, ...]) -> Fraction:
        if study.bankroll is None:
            return score(bands, pilot.rounds, stakes)
        return growth(bands, pilot.rounds, stakes, study.bankroll)

    value = objective(chosen)
    for level in levels:
        assert value >= objective(tuple(level for _ in bands))
    neighbours = _neighbours(chosen, levels)
    assert neighbours
    for neighbour in neighbours:
        assert value >= objective(neighbour)
    # The derived study stakes exactly those units, band by band.
    ramp = derived_study(study, pilot).stake
    assert isinstance(ramp, Ramp) and ramp.by_count and ramp.basis is not None
    assert [row["units"] for row in ramp.basis["bands"]] == list(chosen)
    for band, units in zip(bands, chosen, strict=True):
        reached = [step_units for edge, step_units in ramp.steps if edge <= band.band]
        assert reached[-1] == units


def _without_basis(output: str) -> str:
    data = json.loads(output)
    data["staking"].pop("optimal", None)
    data["combined"].pop("ramp_out_of_sample", None)  # what the optimal ramp earned: its basis
    for timing in ("seconds", "rounds_per_second"):  # the clock's, not the figures'
        del data["run"][timing]
    return json.dumps(data, sort_keys=True)


def test_a_rerun_with_the_printed_ramp_gives_the_same_figures() -> None:
    optimal = run_ok(*COUNT_ARGS, "--stake", "optimal", "--spread", "1-8", "--format", "json")
    staking = json.loads(optimal.stdout)["staking"]
    assert staking["kind"] == "ramp" and staking["optimal"]["objective"] == "score"
    assert staking["ramp"][0] == {"true_count": "0", "units": 1}
    typed = run_ok(*COUNT_ARGS, "--stake", staking["text"], "--format", "json")
    assert "optimal" not in json.loads(typed.stdout)["staking"]
    assert _without_basis(optimal.stdout) == _without_basis(typed.stdout)
    table = run_ok(*COUNT_ARGS, "--stake", "optimal", "--spread", "1-8").stdout
    retyped = run_ok(*COUNT_ARGS, "--stake", staking["text"]).stdout
    assert f"type it in as {staking['text']}" in table
    kept = table.split("\nOptimal ramp, spread 1-8:")
    assert len(kept) == 2
    # The basis is one wrapped paragraph: what is left is the typed ramp's table.
    after = kept[1].split("\n", 1)[1]
    while after.startswith("  "):
        after = after.split("\n", 1)[1]
    assert kept[0] + "\n" + after == retyped
    assert max(len(line) for line in table.splitlines()) <= 100


def test_perfect_play_steps_by_exact_ev_band() -> None:
    study = Simulation.of(
        20,
        2,
        bets=select_bets("dragon7"),
        procedure=TWO_DECKS,
        **sizing_from_options(TWO_DECKS, "optimal", spread="1-4", bankroll="400"),
    )
    result = simulate(study)
    ramp = result.simulation.stake
    assert isinstance(ramp, Ramp) and not ramp.by_count and ramp.basis is not None
    assert ramp.basis["counted"] == "ev_band"
    lowest = ramp.basis["bands"][0]["band"]
    assert ramp.steps[0] == (Fraction(lowest - 1, 100), ramp.basis["bands"][0]["units"])
    # Every bet perfect play makes is staked: as many bets as flat betting on the same shoes.
    flat = simulate(dataclasses.replace(pilot_study(study), seed=study.seed))
    assert result.tally.bets[0].bets_made == flat.tally.bets[0].bets_made > 0


def test_several_bets_pool_their_bands() -> None:
    from exactodds.simulation.strategies import Perfect
    from exactodds.simulation.tally import BetTally, Tally

    first = BetTally(1, bands=((0, 4, 2, 2**40, 0, 2, 0), (1, 2, 2, 2**41, 0, 6, 0)))
    second = BetTally(2, bands=((1, 3, 1, 2**39, 0, 16, 0),))
    _, bands = pilot_bands(Tally(1, 9, 81, (), (first, second)), [Perfect(), Perfect()])
    # first: 8 squares over 4 bets made, 2 a bet; second: 16 / 2**2 = 4 a bet.
    assert bands == (
        BandSums(0, 2, Fraction(1), Fraction(4)),
        BandSums(1, 3, Fraction(5, 2), Fraction(2 * 2 + 4)),
    )


def test_library_errors_name_the_parameters() -> None:
    with pytest.raises(SimulationError, match="`spread` 9-2 is not valid: its minimum"):
        parse_spread("9-2")
    with pytest.raises(SimulationError, match="`spread` '1-x' is not MIN-MAX"):
        parse_spread("1-x")
    with pytest.raises(SimulationError, match="`spread` 0-3 is not valid"):
        Optimal(0, 3)
    with pytest.raises(SimulationError, match="give `spread` MIN-MAX"):
        sizing_from_options(TWO_DECKS, "optimal")
    with pytest.raises(SimulationError, match="not `stake` 'flat'"):
        sizing_from_options(TWO_DECKS, "flat", spread="1-8")
    with pytest.raises(SimulationError, match="holds no stake of whole chips"):
        Optimal(1, 4).levels(TableLimits(5, 50, 5))
    with pytest.raises(SimulationError, match="more than 200 stakes"):
        Optimal(1, 1000).levels(TableLimits())
    with pytest.raises(SimulationError, match="made no bet in any band"):
        optimal_stakes((), (1, 2), None)


@pytest.mark.parametrize(
    ("options", "says"),
    [
        (("--stake", "optimal"), "--stake 'optimal' derives a ramp within a spread; give --spread"),
        (("--spread", "1-8"), "--spread 1-8 bounds the ramp --stake optimal derives"),
        (("--stake", "optimal", "--spread", "8-1"), "--spread 8-1 is not valid: its minimum"),
        (("--stake", "optimal", "--spread", "0-8"), "--spread 0-8 is not valid"),
        (("--stake", "optimal", "--spread", "-2-8"), "--spread '-2-8' is not MIN-MAX"),
        (
            ("--stake", "optimal", "--spread", "1-8", "--table-min", "10", "--chip", "10"),
            "no stake",
        ),
        (
            ("--stake", "optimal", "--spread", "1-8", "--play", "tie=count:1,1,1,1,1,1,1,1,1,1:0"),
            "mix true counts, running counts and exact EVs",
        ),
    ],
)
def test_bad_input_is_one_sentence_and_exit_2_before_any_dealing(
    options: tuple[str, ...], says: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import exactodds.simulation.run as runner

    def never(*_args: object, **_options: object) -> None:
        raise AssertionError("dealt before the options were checked")

    monkeypatch.setattr(runner, "simulate", never)
    result = run("simulate", "--bets", "dragon7,tie", "--shoes", "10", *options)
    assert result.exit_code == 2, result.stderr
    assert result.stdout == ""
    assert says in result.stderr and result.stderr.count("\n") == 1


class _Tried:
    """A run's result as risk_limited_study reads it: complete, with a trip risk estimate."""

    def __init__(self, risk: float) -> None:
        self.complete = True
        self.risk = risk

    @property
    def risk_figures(self) -> RiskFigures:
        return RiskFigures(combined={"risk_of_ruin": {"estimate": {"trip": {"mean": self.risk}}}})


def test_a_risk_target_scales_the_bankroll_down_until_the_estimate_meets_it() -> None:
    from exactodds.simulation.staking.optimal import risk_limited_study

    study = _count_study("20000", spread="1-40", risk="5%")
    pilot = simulate(pilot_study(study)).tally
    runs: list[str] = []

    def run(candidate: Simulation) -> _Tried:
        # A stand-in for the study's own estimate: risk in proportion to the multiplier.
        assert isinstance(candidate.stake, Ramp) and candidate.stake.basis is not None
        runs.append(candidate.stake.basis["bankroll_multiplier"])
        return _Tried(float(Fraction(runs[-1]) / 8))

    chosen = risk_limited_study(study, pilot, run)
    assert isinstance(chosen.stake, Ramp) and chosen.stake.basis is not None
    basis = chosen.stake.basis
    assert runs == ["1", "1/2", "1/4"]  # risks 1/8, 1/16, then 1/32: met
    assert basis["risk_target_met"] and basis["risk_target"] == "1/20"
    assert [tried["multiplier"] for tried in basis["tried"]] == runs
    assert basis["bankroll_multiplier"] == "1/4"
    # The stake it ends on is the ramp derived for that multiplier of the bankroll, and
    # smaller multipliers never stake more in any band.
    quarter = derived_study(study, pilot, Fraction(1, 4)).stake
    assert isinstance(quarter, Ramp) and quarter.steps == chosen.stake.steps
    full = derived_study(study, pilot, Fraction(1)).stake
    assert isinstance(full, Ramp) and full.basis is not None and quarter.basis is not None
    for big, small in zip(full.basis["bands"], quarter.basis["bands"], strict=True):
        assert small["units"] <= big["units"]
    # A target no ramp meets ends on the smallest ramp tried, and says so.
    never = risk_limited_study(study, pilot, lambda candidate: _Tried(1.0))
    assert never.stake.basis is not None and not never.stake.basis["risk_target_met"]  # type: ignore[union-attr]


def test_a_risk_target_reads_the_study_s_own_estimate() -> None:
    study = _count_study("200", spread="1-8", risk="1/1000", trip_rounds=400)
    result = simulate(study)
    ramp = result.simulation.stake
    assert isinstance(ramp, Ramp) and ramp.basis is not None
    last = ramp.basis["tried"][-1]
    assert last["ramp"] == ramp.text()
    estimate = result.to_dict()["combined"]["risk_of_ruin"]["estimate"]["trip"]["mean"]
    assert last["risk"] == estimate
    assert ramp.basis["risk_target_met"] == (Fraction(estimate) <= Fraction(1, 1000))
