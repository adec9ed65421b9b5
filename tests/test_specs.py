"""Typed study specs: option values are read once, at the interface, into frozen specs.

``simulate``'s options become a :class:`~exactodds.simulation.study.Simulation` and ``audit``'s
an :class:`~exactodds.studies.audit.AuditSpec` (:mod:`exactodds.specs`); the command hands the
library that spec and nothing else, and a sweep's studies are that spec with the swept fields
``dataclasses.replace``\\ d, each equal to the spec of a separate run with those options.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds.bets.catalogue import select_bets
from exactodds.cli import cli
from exactodds.errors import ExactOddsError, SimulationError
from exactodds.interface import build_bets
from exactodds.rules import Rules
from exactodds.simulation.dealing import DealingProcedure
from exactodds.simulation.risk.questions import RiskGrid, RiskQuestions
from exactodds.simulation.staking.sizing import trip_shoes_for
from exactodds.simulation.staking.stakes import Kelly, Ramp, TableLimits
from exactodds.simulation.strategies import Always, Count, Perfect
from exactodds.simulation.study import Simulation
from exactodds.specs import audit_spec, parse_sweeps, simulation_spec, sweep_variants
from exactodds.studies.audit import AuditSpec, Thresholds

TAGS = "0,0,0,-1,-1,-1,-1,2,2,0"
COUNT = f"count:{TAGS}:4"
TWO_DECKS = DealingProcedure(decks=2)


class _Stop(ExactOddsError):
    """Raised by a stand-in for the library: the command got as far as calling it."""


def _options() -> dict[str, Any]:
    """``simulate --bets dragon7,panda8`` with a count, a stake, a risk grid and questions."""
    return {
        "shoes": 10,
        "seed": 3,
        "rules": Rules(),
        "bets": select_bets("dragon7,panda8"),
        "procedure": TWO_DECKS,
        "plays": (f"dragon7={COUNT}",),
        "min_edge": "1%",
        "sizing": {
            "stake": "ramp:0=1,1%=4",
            "table_max": 8,
            "bankroll": "200,400",
            "risk": "5%",
            "trip_rounds": "300",
            "rounds_per_hour": 70,
            "unit": "25",
        },
    }


def _spec() -> Simulation:
    return simulation_spec(**_options())


def test_the_simulation_spec_is_the_typed_study_the_options_say() -> None:
    bets = tuple(select_bets("dragon7,panda8"))
    trip_shoes = trip_shoes_for(300, TWO_DECKS)
    expected = Simulation(
        10,
        3,
        Rules(),
        bets,
        (
            Count((0, 0, 0, -1, -1, -1, -1, 2, 2, 0, 0, 0, 0), Fraction(4)),
            Perfect(Fraction(1, 100)),
        ),
        TWO_DECKS,
        stake=Ramp(((Fraction(0), 1), (Fraction(1, 100), 4))),
        limits=TableLimits(1, 8, 1),
        bankroll=Fraction(200),
        trip_shoes=trip_shoes,
        questions=RiskQuestions(Fraction(1, 20), 70, 300, Fraction(25)),
        grid=RiskGrid((Fraction(200), Fraction(400)), (300,), (trip_shoes,)),
    )
    assert _spec() == expected
    # Frozen: a variant is a replace, never a change in place.
    with pytest.raises(dataclasses.FrozenInstanceError):
        _spec().shoes = 5  # type: ignore[misc]


def test_the_command_hands_the_library_the_spec_the_options_build(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import exactodds.simulation.run

    handed: list[Simulation] = []

    def run(simulation: Simulation, **_: Any) -> Any:
        handed.append(simulation)
        raise _Stop("Stopped before dealing.")

    monkeypatch.setattr(exactodds.simulation.run, "simulate", run)
    arguments = [
        "simulate", "--shoes", "10", "--seed", "3", "--decks", "2", "--jobs", "1",
        "--bets", "dragon7,panda8", "--play", f"dragon7={COUNT}", "--min-edge", "1%",
        "--stake", "ramp:0=1,1%=4", "--table-max", "8", "--bankroll", "200,400",
        "--risk", "5%", "--trip-rounds", "300", "--rounds-per-hour", "70", "--unit", "25",
    ]  # fmt: skip
    result = CliRunner().invoke(cli, arguments)
    assert result.exit_code == 2 and result.stderr == "Error: Stopped before dealing.\n"
    assert handed == [_spec()]


SWEEPS = [
    ("decks", "1", {"procedure": DealingProcedure(decks=1)}),
    ("cut", "30", {"procedure": dataclasses.replace(TWO_DECKS, cut=30)}),
    ("play", "always", {"plays": ("always",)}),
    ("stake", "ramp:0=2,2%=8", {"sizing": {"stake": "ramp:0=2,2%=8"}}),
    ("min-edge", "2%", {"min_edge": "2%"}),
    ("pays", "dragon7=30", {"bets": build_bets(Rules(), "dragon7,panda8", ("dragon7=30",))}),
]


@pytest.mark.parametrize(("name", "value", "separate"), SWEEPS, ids=[row[0] for row in SWEEPS])
def test_each_variant_is_the_spec_replaced_and_equals_a_separate_runs_spec(
    name: str, value: str, separate: dict[str, Any]
) -> None:
    base = _spec()

    def bets_of(selection: str | None, pays: tuple[str, ...]) -> list[Any]:
        return build_bets(Rules(), selection or "dragon7,panda8", pays)

    ((combination, variant),) = sweep_variants(
        base,
        parse_sweeps([f"{name}={value}"]),
        plays=(f"dragon7={COUNT}",),
        min_edge="1%",
        bets_of=bets_of,
    )
    assert combination == ((name, value),)
    options = _options()
    for key, part in separate.items():
        options[key] = options[key] | part if key == "sizing" else part
    assert variant == simulation_spec(**options)
    changed = {
        field.name
        for field in dataclasses.fields(Simulation)
        if getattr(variant, field.name) != getattr(base, field.name)
    }
    assert changed and changed <= {"procedure", "trip_shoes", "grid", "bets", "strategies", "stake"}
    assert variant == dataclasses.replace(base, **{key: getattr(variant, key) for key in changed})


def test_a_new_dealing_recomputes_the_trips_in_shoes() -> None:
    base = _spec()
    ((_, variant),) = sweep_variants(base, parse_sweeps(["decks=6"]))
    shoes = trip_shoes_for(300, DealingProcedure(decks=6))
    assert shoes != base.trip_shoes
    assert variant.trip_shoes == shoes and variant.grid is not None
    assert variant.grid.trip_shoes == (shoes,)


def test_a_variant_is_checked_as_any_study_is() -> None:
    base = simulation_spec(5, 1, Rules(), select_bets("dragon7"), TWO_DECKS)
    with pytest.raises(SimulationError, match="`stake` kelly sizes from a bankroll"):
        sweep_variants(base, parse_sweeps(["stake=flat|kelly:1/2"]))
    with pytest.raises(SimulationError, match="Cut card 999"):
        sweep_variants(base, parse_sweeps(["cut=14,999"]))
    kelly = simulation_spec(
        5, 1, Rules(), select_bets("dragon7"), TWO_DECKS, sizing={"stake": "kelly", "bankroll": "9"}
    )
    ((_, variant),) = sweep_variants(kelly, parse_sweeps(["min-edge=1%"]))
    assert variant.stake == Kelly() and variant.strategies == (Perfect(Fraction(1, 100)),)


def test_the_command_runs_the_sweep_variants(monkeypatch: pytest.MonkeyPatch) -> None:
    import exactodds.simulation.run

    handed: list[Simulation] = []

    def run(simulation: Simulation, **_: Any) -> Any:
        handed.append(simulation)
        raise _Stop("Stopped before dealing.")

    monkeypatch.setattr(exactodds.simulation.run, "simulate", run)
    arguments = ["simulate", "--shoes", "4", "--seed", "2", "--decks", "2", "--jobs", "1"]
    sweeps = ["--sweep", "play=panda8=always|dragon7=always", "--sweep", "cut=14,30"]
    result = CliRunner().invoke(cli, [*arguments, *sweeps])
    assert result.exit_code == 2, result.output
    base = simulation_spec(4, 2, Rules(), select_bets("main"), TWO_DECKS)
    (_, first), *_ = sweep_variants(
        base,
        parse_sweeps(sweeps[1::2]),
        selection_of=lambda plays: plays[0].partition("=")[0] if plays else None,
        bets_of=lambda selection, pays: select_bets(selection or "main"),
    )
    assert handed == [first]
    assert first.bets == tuple(select_bets("panda8")) and first.strategies == (Always(),)


def test_the_audit_spec_is_the_typed_audit_the_options_say() -> None:
    bets = select_bets("dragon7")
    procedure = DealingProcedure(decks=1, cut=10)
    built = audit_spec(
        bets,
        Rules(),
        procedure,
        budget=40,
        seed=2,
        depths="18, 26",
        cuts="10,20",
        safe_units="1/10",
        safe_per_hour="30",
        max_bet="500",
        rounds_per_hour=60,
        confidence="99%",
    )
    expected = AuditSpec(
        tuple(bets),
        Rules(),
        procedure,
        40,
        2,
        (18, 26),
        (10, 20),
        Thresholds(Fraction(1, 10), Fraction(30), Fraction(500), 60, Fraction(99, 100)),
    )
    assert built == expected
    assert audit_spec(bets, Rules(), procedure, depths="none").depths == ()
    assert audit_spec(bets, Rules(), procedure) == AuditSpec(bets, procedure=procedure)


def test_the_audit_command_hands_the_library_its_spec(monkeypatch: pytest.MonkeyPatch) -> None:
    import exactodds.studies.audit

    handed: list[AuditSpec] = []

    def audit(spec: AuditSpec, **_: Any) -> Any:
        handed.append(spec)
        raise _Stop("Stopped before the search.")

    monkeypatch.setattr(exactodds.studies.audit, "audit", audit)
    arguments = ["audit", "--bets", "dragon7", "--decks", "1", "--cut", "10", "--budget", "40"]
    options = ["--depths", "none", "--cuts", "10,20", "--max-bet", "500", "--safe-units", "1/10"]
    result = CliRunner().invoke(cli, [*arguments, *options])
    assert result.exit_code == 2 and result.stderr == "Error: Stopped before the search.\n"
    assert handed == [
        AuditSpec(
            select_bets("dragon7"),
            procedure=DealingProcedure(decks=1, cut=10),
            budget=40,
            depths=(),
            cuts=(10, 20),
            thresholds=Thresholds(Fraction(1, 10), None, Fraction(500), 70),
        )
    ]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["simulate", "--min-edge", "x"], "--min-edge 'x' is not a number; use an edge such as"),
        (["simulate", "--bankroll", "-5"], "--bankroll -5 is not valid; use a positive number"),
        (["simulate", "--trip-rounds", "0"], "--trip-rounds '0' is not valid; use a whole number"),
        (["simulate", "--risk", "2"], "--risk 2 is not valid; use a risk of ruin strictly"),
        (["simulate", "--sweep", "min-edge=0,x"], "--min-edge 'x' is not a number"),
        (["simulate", "--sweep", "decks=6,x"], "Value of decks 'x' for --sweep is not valid"),
        (["audit", "--safe-units", "-1"], "--safe-units '-1' is not valid; use a positive number."),
        (["audit", "--max-bet", "x"], "--max-bet"),
        (["audit", "--cuts", "999"], "Cut card 999"),
        (["audit", "--budget", "0"], "Number of shoes 0 for --budget is not valid"),
    ],
)
def test_bad_option_values_are_one_sentence_in_flags_and_exit_2(
    arguments: list[str], message: str
) -> None:
    result = CliRunner().invoke(cli, [*arguments, "--decks", "1"])
    assert result.exit_code == 2, result.output
    assert message in result.stderr and result.stderr.count("\n") == 1
    assert result.stderr.startswith("Error: ") and "`" not in result.stderr
    assert result.stdout == ""


@settings(max_examples=150, deadline=None)
@given(
    name=st.sampled_from(["min_edge", "bankroll", "trip_rounds", "risk", "unit", "stake"]),
    text=st.text(max_size=30),
)
def test_property_any_option_text_builds_a_spec_or_is_one_sentence(name: str, text: str) -> None:
    options: dict[str, Any] = {"min_edge": text} if name == "min_edge" else {}
    sizing = {name: text} if name != "min_edge" else {}
    try:
        spec = simulation_spec(
            1, 1, Rules(), select_bets("tie"), TWO_DECKS, sizing=sizing, **options
        )
    except ExactOddsError as error:
        message = str(error)
        assert message and "\n" not in message, message
        # simulation/stakes.py's "Unknown stake" sentence has no full stop (kept: output as is).
        assert message.endswith(".") or message.startswith("Unknown stake"), message
    else:
        assert spec == simulation_spec(
            1, 1, Rules(), select_bets("tie"), TWO_DECKS, sizing=sizing, **options
        )


@settings(max_examples=100, deadline=None)
@given(
    name=st.sampled_from(["depths", "cuts", "safe_units", "safe_per_hour", "max_bet"]),
    text=st.text(max_size=30),
)
def test_property_any_audit_option_text_builds_a_spec_or_is_one_sentence(
    name: str, text: str
) -> None:
    try:
        options: dict[str, Any] = {name: text}
        audit_spec(select_bets("dragon7"), Rules(), TWO_DECKS, **options)
    except ExactOddsError as error:
        message = str(error)
        assert message.endswith(".") and "\n" not in message, message
