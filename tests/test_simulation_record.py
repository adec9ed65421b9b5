"""What a simulation result records and refuses: columns, shoe ranges, the study, stakes.

Nothing silently wrong: ``to_arrow()`` carries every column of ``to_pandas()``; a result
says which shoes of which study it holds, and merging counts no shoe twice; a losing play
has SCORE 0 and no N0; the stake-weighted edge sits beside the plain one; the JSON records
the whole study, and the recorded stake plan read back makes the same study.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from exactodds.bets.catalogue import select_bets
from exactodds.errors import ExactOddsError, SimulationError
from exactodds.simulation.block import run_block
from exactodds.simulation.dealing import DealingProcedure
from exactodds.simulation.result import SimulationResult
from exactodds.simulation.run import Simulation, simulate
from exactodds.simulation.staking.stakes import parse_stake
from exactodds.simulation.strategies import Always
from exactodds.specs import sizing_from_options

ONE_DECK = DealingProcedure(decks=1)


def _study(shoes: int = 9, bets: str = "tie", **sizing: object) -> Simulation:
    options = sizing_from_options(ONE_DECK, **sizing)  # type: ignore[arg-type]
    return Simulation.of(shoes, 3, bets=select_bets(bets), procedure=ONE_DECK, **options)


def _part(study: Simulation, first: int, shoes: int) -> SimulationResult:
    return SimulationResult(study, run_block(study, first, shoes).tally)


def test_arrow_table_equals_the_pandas_frame_column_for_column() -> None:
    pandas = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    study = _study(bets="tie,dragon7", stake="ramp:0=1,1%=3", bankroll="20", risk="5%")
    result = simulate(study)
    frame = result.to_pandas()
    table = result.to_arrow()
    # The risk columns exist only in the combined row: they used to be dropped.
    assert "combined_risk_of_ruin_simulated_ruined_trips" not in frame.columns
    assert any(column.startswith("risk_of_ruin") for column in frame.columns)
    assert table.num_rows == len(frame) and table.num_columns == len(frame.columns) + 1
    pandas.testing.assert_frame_equal(table.to_pandas().set_index("bet"), frame)


def test_overlapping_and_twice_counted_shoes_are_refused() -> None:
    study = _study()
    first, later = _part(study, 0, 6), _part(study, 3, 6)
    with pytest.raises(SimulationError, match="both hold shoes 0 to 5"):
        first + first
    with pytest.raises(SimulationError, match="both hold shoes 3 to 5"):
        first + later


def test_foreign_studies_and_other_values_are_refused() -> None:
    first = _part(_study(), 0, 3)
    other = _part(_study(bets="player_pair"), 3, 3)
    with pytest.raises(SimulationError, match="different studies"):
        first + other
    with pytest.raises(ExactOddsError, match="not to int 1"):
        first + 1
    with pytest.raises(ExactOddsError, match="not to str"):
        "x" + first


def test_adjacent_and_disjoint_ranges_merge_to_one_run() -> None:
    study = _study()
    whole = simulate(study)
    parts = [_part(study, 6, 3), _part(study, 0, 2), _part(study, 2, 4)]
    merged = sum(parts)
    assert isinstance(merged, SimulationResult)
    assert merged.tally == whole.tally
    assert merged.to_dict()["study"]["shoe_ranges"] == [[0, 9]]
    gap = _part(study, 0, 2) + _part(study, 5, 2)
    assert gap.to_dict()["study"]["shoe_ranges"] == [[0, 2], [5, 7]]
    assert gap.tally.shoes == 4


def test_run_block_refuses_no_shoes_naming_the_parameter() -> None:
    study = _study()
    with pytest.raises(SimulationError, match=r"^`shoes` is 0; use a whole number"):
        run_block(study, 0, 0)
    with pytest.raises(SimulationError, match=r"^`first_shoe` is -1; use a whole number"):
        run_block(study, -1, 2)


def test_a_losing_play_has_score_zero_and_no_n0() -> None:
    study = Simulation.of(
        20,
        1,
        bets=select_bets("tie"),
        strategies={"tie": Always()},
        procedure=ONE_DECK,
        **sizing_from_options(ONE_DECK, bankroll="100"),
    )
    data = simulate(study).to_dict()["bets"]["tie"]
    assert data["ev_per_round"]["mean"] < 0
    assert data["score"]["mean"] == 0.0
    assert data["n0_rounds"] == {"mean": None, "stderr": None, "ci95": [None, None]}


def test_stake_weighted_edge_beside_the_plain_one() -> None:
    study = _study(shoes=30, bets="dragon7", stake="ramp:0=1,2%=5")
    result = simulate(study)
    bet = result.bets()[0]
    trace_study = simulate(study, trace=(stream := __import__("io").StringIO()))
    assert trace_study.tally == result.tally
    import json

    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    made = [line for line in lines if line["stake"]["dragon7"]]
    plain = sum(Fraction(line["ev"]["dragon7"]) for line in made) / len(made)
    staked = sum(Fraction(line["ev"]["dragon7"]) * line["stake"]["dragon7"] for line in made)
    by_stake = staked / sum(line["stake"]["dragon7"] for line in made)
    assert bet.average_edge == pytest.approx(float(plain), abs=1e-9)
    assert bet.average_edge_by_stake == pytest.approx(float(by_stake), abs=1e-9)
    assert bet.average_edge_by_stake > bet.average_edge  # bigger stakes at bigger edges
    data = result.to_dict()["bets"]["dragon7"]
    assert data["average_edge_by_stake"] == bet.average_edge_by_stake


def test_the_json_records_the_whole_study() -> None:
    study = _study(
        bets="dragon7",
        stake="ramp:1/100=2,1/20=8",
        table_min=2,
        table_max=50,
        chip=2,
        bankroll="400",
        risk="5%",
        trip_rounds=100,
        rounds_per_hour=80,
    )
    data = simulate(study).to_dict()
    record, staking = data["study"], data["staking"]
    assert record["fingerprint"] == study.digest() and len(record["fingerprint"]) == 16
    assert record["shoe_ranges"] == [[0, 9]]
    assert record["bets"]["dragon7"]["pays"] == {"lose": "-1", "win": "40"}
    assert record["bets"]["dragon7"]["play"].startswith("perfect")
    assert staking["kind"] == "ramp"
    assert staking["ramp"] == [{"edge": "1/100", "units": 2}, {"edge": "1/20", "units": 8}]
    expected = {"table_min": 2, "table_max": 50, "chip": 2, "bankroll": "400", "risk": "1/20"}
    assert {key: staking[key] for key in expected} == expected
    assert (staking["trip_rounds"], staking["rounds_per_hour"]) == (100, 80)
    # Fed back as options, the record makes the same study.
    again = _study(
        bets="dragon7",
        stake=staking["text"],
        table_min=staking["table_min"],
        table_max=staking["table_max"],
        chip=staking["chip"],
        bankroll=staking["bankroll"],
        risk=staking["risk"],
        trip_rounds=staking["trip_rounds"],
        rounds_per_hour=staking["rounds_per_hour"],
    )
    assert again == study and again.digest() == study.digest()


@pytest.mark.parametrize("text", ["flat", "kelly:1/2", "ramp:-1/100=1,1/50=4", "ramp:tc:2=1,4=6"])
def test_a_stake_plan_reads_back_from_its_record(text: str) -> None:
    stake = parse_stake(text)
    assert parse_stake(stake.to_dict()["text"]) == stake


def test_huge_stakes_are_summed_exactly() -> None:
    # int64 wrapped at 3 x 10**17 units a bet (units wagered came out negative).
    table_min = 3 * 10**17
    small = simulate(_study(shoes=3, bets="dragon7", table_min=1)).to_dict()["bets"]["dragon7"]
    for minimum in (table_min, 10**20, 10**60):
        data = simulate(_study(shoes=3, bets="dragon7", table_min=minimum)).to_dict()
        bet = data["bets"]["dragon7"]
        assert bet["units_wagered"] == small["units_wagered"] * minimum
        assert bet["roi"] == pytest.approx(small["roi"], rel=1e-12)
        assert data["combined"]["units_wagered"] == small["units_wagered"] * minimum
    ramp = simulate(_study(shoes=3, bets="dragon7", stake=f"ramp:0=1,1%={10**22}"))
    assert ramp.to_dict()["bets"]["dragon7"]["units_wagered"] > 10**22
    kelly = simulate(_study(shoes=3, bets="dragon7", stake="kelly", bankroll="1e25"))
    assert kelly.to_dict()["bets"]["dragon7"]["units_wagered"] > 10**21


def test_stakes_past_what_the_figures_hold_are_refused() -> None:
    with pytest.raises(SimulationError, match="at most 10\\^70 units"):
        _study(bets="dragon7", table_min=10**106)


def test_kelly_keeps_the_running_bankroll_through_a_trip() -> None:
    import dataclasses
    import io
    import json
    import math

    base = _study(shoes=9, bets="dragon7", stake="kelly", bankroll="2000")
    trips = dataclasses.replace(base, trip_shoes=3)
    streams = io.StringIO(), io.StringIO()
    simulate(base, trace=streams[0])
    per_trip = simulate(trips, trace=streams[1])
    # Any blocks give the same tally: a block inside a trip is given the bankroll it reached.
    assert simulate(trips, block_shoes=1).tally == per_trip.tally
    assert simulate(trips, block_shoes=2).tally == per_trip.tally
    first, second = ([json.loads(line) for line in s.getvalue().splitlines()] for s in streams)
    bankroll = Fraction(2000)
    checked = 0
    for one, run_on in zip(first, second, strict=True):
        if run_on["shoe"] % 3 == 0 and run_on["round"] == 0:
            bankroll = Fraction(2000)
        alone, carried = one["stake"]["dragon7"], run_on["stake"]["dragon7"]
        if run_on["shoe"] % 3 == 0:
            assert carried == alone  # a trip's first shoe starts from the bankroll
        elif alone:
            # alone = floor(2000 k), carried = floor(B k) for the same k = EV / E[X**2].
            low, high = alone * bankroll / 2000, (alone + 1) * bankroll / 2000
            assert math.floor(low) <= carried <= math.floor(high)
            checked += 1
        bankroll += Fraction(run_on["result"]["dragon7"])
    assert checked > 0
    assert trips.fingerprint() != base.fingerprint()


def test_staked_checkpoints_resume(tmp_path: object) -> None:
    from pathlib import Path

    folder = Path(str(tmp_path))
    for stake in (
        {"table_min": 2},
        {"stake": "ramp:0=1,1%=4"},
        {"stake": "kelly:1/2", "bankroll": "1000"},
    ):
        checkpoint = folder / f"{len(stake)}{sorted(stake)[0]}.json"
        simulate(_study(shoes=5, bets="dragon7", **stake), checkpoint=checkpoint)
        resumed = simulate(
            _study(shoes=8, bets="dragon7", **stake), checkpoint=checkpoint, resume=True
        )
        assert resumed.tally == simulate(_study(shoes=8, bets="dragon7", **stake)).tally


def test_n0_in_hours_beside_rounds() -> None:
    study = _study(shoes=20, bets="dragon7", bankroll="50", rounds_per_hour=80)
    data = simulate(study).to_dict()["combined"]
    if data["n0_rounds"]["mean"] is None:
        assert data["n0_hours"]["mean"] is None
    else:
        assert data["n0_hours"]["mean"] == pytest.approx(data["n0_rounds"]["mean"] / 80)
        assert data["n0_hours"]["stderr"] == pytest.approx(data["n0_rounds"]["stderr"] / 80)


def test_a_checkpoint_tally_holding_a_boolean_or_text_is_refused() -> None:
    """A checkpoint is hostile input: ``true`` is not the whole number 1, nor ``"5"`` 5."""
    from exactodds.simulation.tally import Tally

    data = Tally.empty([20]).to_dict()
    assert Tally.from_dict(data) == Tally.empty([20])
    for bad in (
        {"rounds": True},
        {"rounds_squares": "5"},
        {"rounds_histogram": [[True, 1]]},
        {"rounds_histogram": [[1, 2.0]]},
    ):
        with pytest.raises(ValueError, match="whole number"):
            Tally.from_dict({**data, **bad})
