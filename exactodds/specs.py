"""Study specs from option values: a simulation, its sweep's variants and an audit, read once.

A skin hands the options of ``simulate`` and ``audit`` as given (``--bankroll 100,200``,
``--min-edge 0.5%``, ``--safe-units 1/10``); these builders read that text once, here, into
the library's frozen specs, which the library then runs:

* a :class:`~exactodds.simulation.study.Simulation` (the simulation's spec: it already is the
  frozen, checked, fingerprinted value the runners take, so it is not wrapped again), by
  :func:`simulation_spec`;
* a sweep's variants, by :func:`sweep_variants`: the same spec with the swept fields
  ``dataclasses.replace``\\ d, so that every variant is checked as any study is;
* an :class:`~exactodds.studies.audit.AuditSpec`, by :func:`audit_spec`;
* a :class:`~exactodds.studies.review.ReviewSpec`, by :func:`review_spec`.

The option text is read here and handed down as typed values: numbers (``--min-edge``,
``--risk``, ``--unit``, the thresholds), lists (``--bankroll 100,200``, ``--trip-rounds``,
``--depths``), ranges (``--design win=30..45``, ``--target-edge 5%..8%``) and the sweep. What stays text below is the library's own notation for its
objects, each read by the object's module as a shoe spec is by :meth:`Shoe.parse
<exactodds.shoe.Shoe.parse>`: a stake plan (``ramp:0=1,1%=4``), a play (``count:TAGS:4``),
a burn rule and a pay. Messages name the library's parameters (`` `bankroll` ``,
`` `min_edge` ``); each skin writes them in its own words.

>>> from exactodds.bets.catalogue import select_bets
>>> from exactodds.simulation.dealing import DealingProcedure
>>> study = simulation_spec(10, 1, Rules(), select_bets("tie"), DealingProcedure(decks=1),
...                         sizing={"bankroll": "100,200", "trip_rounds": "80"})
>>> study.bankroll, study.trip_shoes, len(study.grid.cells())
(Fraction(100, 1), 11, 2)
>>> [variant.procedure.cut for _, variant in sweep_variants(study, parse_sweeps(["cut=14,20"]))]
[14, 20]
>>> simulation_spec(10, 1, Rules(), select_bets("tie"), DealingProcedure(), min_edge="x")
Traceback (most recent call last):
...
exactodds.errors.SimulationError: `min_edge` 'x' is not a number; use an edge such as 0, 0.5% or 1/200.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from exactodds.bets.bet import Bet
from exactodds.bets.multipliers import MultiplierOverlay
from exactodds.errors import ExactOddsError, SimulationError, parameter, quoted
from exactodds.inputs import whole_number
from exactodds.numbers import parse_number, percent_hint
from exactodds.rules import Rules
from exactodds.shoe import Shoe
from exactodds.simulation.dealing import DealingProcedure
from exactodds.simulation.risk.questions import RiskGrid, RiskQuestions, check_grid_size
from exactodds.simulation.staking.sizing import trip_shoes_for
from exactodds.simulation.staking.stakes import Stake, TableLimits, parse_spread, parse_stake
from exactodds.simulation.strategies import Strategy, parse_plays
from exactodds.simulation.study import Simulation

if TYPE_CHECKING:  # the audit's study is imported by the audit alone
    from exactodds.studies.audit import AuditSpec, Thresholds
    from exactodds.studies.design import PayRange
    from exactodds.studies.protection import ProtectionSpec
    from exactodds.studies.review import ReviewSpec

__all__ = [
    "MOST_COMBINATIONS",
    "SWEEP_NAMES",
    "Sweep",
    "audit_spec",
    "audit_thresholds",
    "parse_edge_window",
    "parse_pay_range",
    "parse_sweeps",
    "parse_threshold",
    "protection_spec",
    "read_number",
    "review_spec",
    "simulation_spec",
    "sizing_from_options",
    "sweep_variants",
]

SWEEP_NAMES = ("decks", "cut", "play", "stake", "min-edge", "pays")
#: A sweep runs one study per combination: refuse an accidental product of thousands.
MOST_COMBINATIONS = 256
_PIPED = ("play", "stake")
_EDGE_HELP = "use an edge such as 0, 0.5% or 1/200"


def read_number(text: str, name: str, valid: str) -> Fraction:
    """*text* read exactly as a number, or one sentence naming the parameter *name* and what
    is *valid*.

    >>> read_number("1/200", "min_edge", "use an edge such as 0.5%")
    Fraction(1, 200)
    >>> read_number("abc", "min_edge", _EDGE_HELP)
    Traceback (most recent call last):
    ...
    exactodds.errors.SimulationError: `min_edge` 'abc' is not a number; use an edge such as 0, 0.5% or 1/200.
    """
    try:
        return parse_number(text, parameter(name))
    except ExactOddsError:
        raise SimulationError(f"{parameter(name)} {text!r} is not a number; {valid}.") from None


# Simulation -----------------------------------------------------------------------------


def sizing_from_options(
    procedure: DealingProcedure,
    stake: str = "flat",
    table_min: int = 1,
    table_max: int | None = None,
    chip: int = 1,
    bankroll: str | None = None,
    risk: str | None = None,
    trip_rounds: int | str | None = None,
    rounds_per_hour: int | None = None,
    exact_moments: bool = False,
    unit: str | None = None,
    spread: str | None = None,
) -> dict[str, Any]:
    """The sizing fields of a :class:`Simulation` read from option values, before dealing.

    *bankroll* and *trip_rounds* may each list several values (``"100,200"``, ``"800,4000"``):
    a risk grid (``grid``) of every combination, the first of each the study's own.

    >>> sizing_from_options(DealingProcedure(), "kelly:1/2", bankroll="1000")["bankroll"]
    Fraction(1000, 1)
    >>> sizing_from_options(DealingProcedure(), bankroll="-5")
    Traceback (most recent call last):
    ...
    exactodds.errors.SimulationError: `bankroll` -5 is not valid; use a positive number of units, such as 1000.
    """
    limits = TableLimits(table_min, table_max, chip)
    bankrolls, trips = _listed(bankroll), _listed(trip_rounds)
    check_grid_size(len(bankrolls or ["-"]), len(trips or ["-"]))  # before reading any value
    amounts = [_bankroll(text) for text in bankrolls] if bankrolls is not None else [None]
    lengths = [_trip_rounds(text) for text in trips] if trips is not None else [None]
    shoes = [_trip_shoes(rounds, procedure) for rounds in lengths]
    grid = None
    if len(amounts) > 1 or len(lengths) > 1:
        if amounts[0] is None:
            raise SimulationError(
                f"`trip_rounds` {trip_rounds} asks for a risk grid of several trip lengths, "
                "which needs `bankroll` UNITS."
            )
        grid = RiskGrid(tuple(amounts), tuple(lengths), tuple(shoes))
    target = (
        read_number(risk, "risk", "use a risk of ruin strictly between 0 and 1, such as 5% or 0.05")
        if risk is not None
        else None
    )
    if target is not None and not 0 < target < 1:
        raise SimulationError(
            f"`risk` {risk} is not valid; use a risk of ruin strictly between 0 and 1, such as "
            f"5% or 0.05{percent_hint(risk, target)}."
        )
    money = (
        read_number(unit, "unit", "use a positive amount of money for one unit, such as 25")
        if unit is not None
        else None
    )
    return {
        "stake": _stake(stake, spread, limits),
        "limits": limits,
        "bankroll": amounts[0],
        "trip_shoes": shoes[0],
        "questions": RiskQuestions(target, rounds_per_hour, lengths[0], money),
        "exact_moments": exact_moments,
    } | ({"grid": grid} if grid is not None else {})


def _stake(text: str, spread: str | None, limits: TableLimits) -> Stake:
    """``--stake`` under the table *limits*; ``optimal`` with a *spread* is that spread's ramp."""
    optimal = text.strip().lower() == "optimal"
    if spread is not None and not optimal:
        raise SimulationError(
            f"`spread` {spread} bounds the ramp `stake` optimal derives, not `stake` "
            f"{text.strip()!r}; give `stake` optimal or leave out `spread`."
        )
    return parse_spread(spread) if optimal and spread is not None else parse_stake(text, limits)


def _trip_shoes(rounds: int | None, procedure: DealingProcedure) -> int:
    return trip_shoes_for(rounds, procedure) if rounds is not None else 1


def _listed(text: str | int | None) -> list[str] | None:
    """*text* split at its commas (a risk grid), or None (the count is bounded before any
    value is read)."""
    if text is None:
        return None
    if isinstance(text, int):
        return [str(text)]
    return text.split(",")


def _bankroll(text: str) -> Fraction:
    valid = "use a positive number of units, such as 1000"
    amount = read_number(text.strip(), "bankroll", valid)
    if amount <= 0:
        raise SimulationError(f"`bankroll` {text.strip()} is not valid; {valid}.")
    return amount


def _trip_rounds(text: str) -> int:
    cleaned = text.strip().replace("_", "")
    digits = cleaned.isascii() and cleaned.isdigit() and len(cleaned) <= 19
    if not digits or not 1 <= int(cleaned) <= 10**18:
        raise SimulationError(
            f"`trip_rounds` {text.strip()!r} is not valid; use a whole number of rounds from 1 "
            "to 10^18, such as 800 (or several, such as 800,4000)."
        )
    return int(cleaned)


def _strategies(
    plays: Iterable[str], bets: Sequence[Bet], min_edge: Fraction
) -> tuple[Strategy, ...]:
    """Each bet's strategy from ``--play`` values (``perfect`` above *min_edge* by default)."""
    chosen = parse_plays(plays, [bet.name for bet in bets], min_edge)
    return tuple(chosen[bet.name] for bet in bets)


def simulation_spec(
    shoes: int,
    seed: int,
    rules: Rules,
    bets: Sequence[Bet],
    procedure: DealingProcedure,
    plays: Sequence[str] = (),
    min_edge: str = "0",
    sizing: Mapping[str, Any] | None = None,
) -> Simulation:
    """The :class:`Simulation` that ``simulate``'s option values describe, checked before dealing.

    *rules*, *bets* and *procedure* are built objects; *plays* are ``--play`` values,
    *min_edge* ``--min-edge``'s and *sizing* the stake and risk options by parameter name
    (:func:`sizing_from_options`).

    >>> from exactodds.bets.catalogue import select_bets
    >>> simulation_spec(5, 2, Rules(), select_bets("tie"), DealingProcedure(), ("always",)).strategies
    (Always(),)
    """
    threshold = read_number(min_edge, "min_edge", _EDGE_HELP)
    strategies = _strategies(plays, bets, threshold)
    fields = sizing_from_options(procedure, **(sizing or {}))
    return Simulation(shoes, seed, rules, tuple(bets), strategies, procedure, **fields)


@dataclass(frozen=True)
class Sweep:
    """The settings swept and their values as given, in the order given.

    >>> sweep = parse_sweeps(["cut=14,30", "min-edge=0,1%"])
    >>> [dict(combination) for combination in sweep.combinations()][:2]
    [{'cut': '14', 'min-edge': '0'}, {'cut': '14', 'min-edge': '1%'}]
    """

    settings: tuple[tuple[str, tuple[str, ...]], ...]

    def combinations(self) -> Iterator[tuple[tuple[str, str], ...]]:
        """Every combination, as (name, value) pairs, the last setting varying fastest."""
        names = [name for name, _ in self.settings]
        for values in itertools.product(*(values for _, values in self.settings)):
            yield tuple(zip(names, values, strict=True))


def parse_sweeps(texts: Iterable[str]) -> Sweep:
    """The sweep of ``--sweep NAME=V1,V2,...`` values, checked before any dealing.

    ``play`` and ``stake`` values use commas themselves (count tags, ramp steps), so their
    values are separated by ``|``.

    >>> parse_sweeps(["colour=red"])
    Traceback (most recent call last):
    ...
    exactodds.errors.SimulationError: Unknown sweep setting 'colour' in `sweep` 'colour=red'; sweep one of decks, cut, play, stake, min-edge, pays.
    """
    settings: list[tuple[str, tuple[str, ...]]] = []
    for text in texts:
        name, separator, values_text = text.partition("=")
        name = name.strip().lower()
        where = f"`sweep` {text!r}"
        if name not in SWEEP_NAMES:
            raise SimulationError(
                f"Unknown sweep setting {name!r} in {where}; sweep one of {', '.join(SWEEP_NAMES)}."
            )
        if any(name == seen for seen, _ in settings):
            raise SimulationError(f"{where} sweeps {name} a second time; give it once.")
        values = tuple(value.strip() for value in values_text.split("|" if name in _PIPED else ","))
        if not separator or not all(values):
            raise SimulationError(
                f"{where} has no values; give NAME=V1,V2 (play and stake values separated by |)."
            )
        settings.append((name, values))
    count = math.prod(len(values) for _, values in settings)
    if count > MOST_COMBINATIONS:
        raise SimulationError(
            f"The sweep has {count:,} combinations, more than {MOST_COMBINATIONS}; sweep fewer "
            "values."
        )
    return Sweep(tuple(settings))


#: The bets of a selection (None: the default) with ``--pay`` values, built for a variant.
BetsOf = Callable[[str | None, tuple[str, ...]], Sequence[Bet]]


@dataclass(frozen=True)
class _Given:
    """The option values a spec was built from, which a variant's swept settings replace."""

    plays: tuple[str, ...]
    min_edge: str
    spread: str | None
    pays: tuple[str, ...]


def _whole(name: str, value: str) -> int:
    return whole_number(value, "sweep", SimulationError, what=f"Value of {name}", text=True)


def _dealt(simulation: Simulation, procedure: DealingProcedure) -> dict[str, Any]:
    """The fields a new dealing *procedure* changes: it, and the trips' lengths in shoes."""
    grid = simulation.grid
    if grid is not None:
        shoes = tuple(_trip_shoes(rounds, procedure) for rounds in grid.trip_rounds)
        grid = dataclasses.replace(grid, trip_shoes=shoes)
    trip_shoes = _trip_shoes(simulation.questions.trip_rounds, procedure)
    return {"procedure": procedure, "trip_shoes": trip_shoes, "grid": grid}


def _swept(
    simulation: Simulation, combination: tuple[tuple[str, str], ...], given: _Given
) -> tuple[dict[str, Any], _Given]:
    """The fields one combination replaces but the bets, and the option values it gives."""
    changes: dict[str, Any] = {}
    procedure = simulation.procedure
    plays, min_edge, pays = given.plays, given.min_edge, given.pays
    for name, value in combination:
        if name in ("decks", "cut"):
            procedure = dataclasses.replace(procedure, **{name: _whole(name, value)})
        elif name == "play":
            plays = (value,)
        elif name == "stake":
            changes["stake"] = _stake(value, given.spread, simulation.limits)
        elif name == "min-edge":
            min_edge = value
        else:  # pays
            pays = (*pays, value)
    if procedure != simulation.procedure:
        changes |= _dealt(simulation, procedure)
    return changes, _Given(plays, min_edge, given.spread, pays)


def sweep_variants(
    simulation: Simulation,
    sweep: Sweep,
    *,
    plays: Sequence[str] = (),
    min_edge: str = "0",
    spread: str | None = None,
    pays: Sequence[str] = (),
    selection_of: Callable[[tuple[str, ...]], str | None] = lambda plays: None,
    bets_of: BetsOf | None = None,
) -> list[tuple[tuple[tuple[str, str], ...], Simulation]]:
    """Each combination of *sweep* with its study: *simulation* with the swept fields replaced.

    *plays*, *min_edge*, *spread* and *pays* are the option values *simulation* was built
    from, which a swept setting replaces (a swept pay is added to *pays*). The bets depend
    only on the selection (``selection_of(plays)``: a swept play may name them) and the
    pays; each distinct pair other than the spec's own is built once, by ``bets_of``.
    Every study is built, and so checked, before the first is run.

    >>> from exactodds.bets.catalogue import select_bets
    >>> base = simulation_spec(5, 2, Rules(), select_bets("tie"), DealingProcedure(decks=1))
    >>> [variant.strategies[0].describe()
    ...  for _, variant in sweep_variants(base, parse_sweeps(["min-edge=0,1%"]))]
    ['perfect (bet when the exact EV > 0)', 'perfect (bet when the exact EV > 1/100)']
    >>> sweep_variants(base, parse_sweeps(["pays=tie=9"]))
    Traceback (most recent call last):
    ...
    exactodds.errors.SimulationError: A swept pay or play changes the bets; give `bets_of` to build them.
    """
    given = _Given(tuple(plays), min_edge, spread, tuple(pays))
    built: dict[tuple[str | None, tuple[str, ...]], tuple[Bet, ...]] = {
        (selection_of(given.plays), given.pays): simulation.bets
    }
    variants = []
    for combination in sweep.combinations():
        changes, chosen = _swept(simulation, combination, given)
        key = (selection_of(chosen.plays), chosen.pays)
        if key not in built:
            if bets_of is None:
                raise SimulationError(
                    "A swept pay or play changes the bets; give `bets_of` to build them."
                )
            built[key] = tuple(bets_of(*key))
        threshold = read_number(chosen.min_edge, "min_edge", _EDGE_HELP)
        changes["bets"] = built[key]
        changes["strategies"] = _strategies(chosen.plays, built[key], threshold)
        variants.append((combination, dataclasses.replace(simulation, **changes)))
    return variants


# Audit ----------------------------------------------------------------------------------


def parse_threshold(text: str, name: str) -> Fraction:
    """A positive threshold (``0.1``, ``1/10``, ``25``) or one sentence naming the parameter
    *name*.

    >>> parse_threshold("1/10", "thresholds.units_per_100_rounds")
    Fraction(1, 10)
    >>> parse_threshold("0", "thresholds.max_bet")
    Traceback (most recent call last):
    ...
    exactodds.studies.audit.AuditError: `thresholds.max_bet` '0' is not valid; use a positive number.
    """
    from exactodds.studies.audit import AuditError

    value = parse_number(text, parameter(name))
    if value <= 0 or not math.isfinite(float(value)):
        raise AuditError(f"{parameter(name)} {text!r} is not valid; use a positive number.")
    return value


def audit_spec(
    bets: Sequence[Bet],
    rules: Rules,
    procedure: DealingProcedure,
    *,
    budget: int | None = None,
    seed: int = 1,
    depths: str = "18,26",
    cuts: str | None = None,
    safe_units: str = "0.1",
    safe_per_hour: str | None = None,
    max_bet: str = "100",
    rounds_per_hour: int = 70,
    confidence: str = "95%",
    overlay: MultiplierOverlay | None = None,
) -> AuditSpec:
    """The :class:`AuditSpec` that ``audit``'s option values describe (under *overlay*, a
    random-multiplier table, when one is given).

    *depths* are cards left (``"18,26"``, or ``"none"``), *cuts* cut-card positions (None:
    the default cuts), the thresholds positive numbers (*safe_per_hour* None: no money
    threshold), *confidence* the one-sided confidence of the verdict's bound (``"95%"``).

    >>> from exactodds.bets.catalogue import select_bets
    >>> audit_spec(select_bets("dragon7"), Rules(), DealingProcedure(), depths="none").depths
    ()
    >>> audit_spec(select_bets("dragon7"), Rules(), DealingProcedure(), max_bet="-1")
    Traceback (most recent call last):
    ...
    exactodds.studies.audit.AuditError: `thresholds.max_bet` '-1' is not valid; use a positive number.
    """
    from exactodds.advantage.depth import parse_depths
    from exactodds.studies.audit import DEFAULT_BUDGET, AuditSpec

    depths_text = depths.strip().lower()
    depth_cards = () if depths_text == "none" else parse_depths(depths_text, "`depths`")
    cut_cards = parse_depths(cuts, "`cuts`") if cuts else ()
    thresholds = audit_thresholds(safe_units, safe_per_hour, max_bet, rounds_per_hour, confidence)
    return AuditSpec(
        tuple(bets),
        rules,
        procedure,
        budget if budget is not None else DEFAULT_BUDGET,
        seed,
        depth_cards,
        cut_cards,
        thresholds,
        overlay,
    )


def audit_thresholds(
    safe_units: str = "0.1",
    safe_per_hour: str | None = None,
    max_bet: str = "100",
    rounds_per_hour: int = 70,
    confidence: str = "95%",
) -> Thresholds:
    """The audit's :class:`~exactodds.studies.audit.Thresholds` from ``audit``'s option values.

    >>> audit_thresholds("0.2").deciding()[1]
    '0.2 units per 100 rounds'
    >>> audit_thresholds(confidence="101%")
    Traceback (most recent call last):
    ...
    exactodds.studies.audit.AuditError: `thresholds.confidence` 101% is not valid; use a confidence from 50% to below 100%, such as 95%.
    """
    from exactodds.studies.audit import Thresholds

    return Thresholds(
        parse_threshold(safe_units, "thresholds.units_per_100_rounds"),
        None
        if safe_per_hour is None
        else parse_threshold(safe_per_hour, "thresholds.money_per_hour"),
        parse_threshold(max_bet, "thresholds.max_bet"),
        rounds_per_hour,
        parse_threshold(confidence, "thresholds.confidence"),
    )


def protection_spec(
    rules: Rules, bets: Sequence[Bet], procedure: DealingProcedure, values: Mapping[str, Any]
) -> ProtectionSpec:
    """The :class:`~exactodds.studies.protection.ProtectionSpec` that ``protection``'s option
    values (by parameter name: ``shoes``, ``seed``, ``play``, ``min_edge``, ``table_min``,
    ``cuts``, ``caps``, ``main_bets``, ``teams``, ``known_cards``, ``rounds_per_hour``)
    describe.

    >>> from exactodds.bets.catalogue import select_bets
    >>> spec = protection_spec(Rules(), select_bets("dragon7"), DealingProcedure(),
    ...                        {"shoes": 10, "seed": 1, "caps": "1/2@300", "teams": "2,3"})
    >>> spec.caps[0].from_depth, spec.teams
    (300, (2, 3))
    >>> protection_spec(Rules(), select_bets("dragon7"), DealingProcedure(),
    ...                 {"shoes": 10, "seed": 1, "teams": "two"})
    Traceback (most recent call last):
    ...
    exactodds.studies.audit.AuditError: Team size 'two' for `teams` is not valid; use a whole number of at least 1.
    """
    from exactodds.studies.audit import AuditError
    from exactodds.studies.protection import ProtectionSpec, parse_caps, parse_values

    def whole(name: str, what: str, minimum: int) -> tuple[int, ...]:
        text = values.get(name)
        if not text:
            return ()
        return parse_values(
            text,
            name,
            lambda value: whole_number(
                value, name, AuditError, minimum=minimum, what=what, text=True
            ),
        )

    def units(value: str) -> Fraction:
        return read_number(value, "main_bets", "use a positive number of units, such as 1")

    study = simulation_spec(
        values["shoes"],
        values["seed"],
        rules,
        bets,
        procedure,
        (values.get("play", "perfect"),),
        values.get("min_edge", "0"),
        {"table_min": values.get("table_min", 1)},
    )
    caps = values.get("caps")
    mains = values.get("main_bets")
    return ProtectionSpec(
        study,
        cuts=whole("cuts", "Cut card depth", 0),
        caps=parse_caps(parse_values(caps, "caps", str)) if caps else (),
        main_bets=parse_values(mains, "main_bets", units) if mains else (),
        teams=whole("teams", "Team size", 1),
        known_cards=whole("known_cards", "Known card position", 0),
        rounds_per_hour=values.get("rounds_per_hour", 70),
    )


def parse_pay_range(text: str, what: str = "`ranges`") -> PayRange:
    """``OUTCOME=LOW..HIGH`` (integer steps, or half steps when an end is a half); *what* names
    the parameter it was given for, in backquotes (:func:`~exactodds.errors.parameter`).

    >>> parse_pay_range("win=10..12.5").step
    Fraction(1, 2)
    >>> parse_pay_range("win=40..10")
    Traceback (most recent call last):
    ...
    exactodds.studies.audit.AuditError: Pay range 'win=40..10' for `ranges` is empty; give OUTCOME=LOW..HIGH with LOW at most HIGH, such as win=10..40.
    """
    from exactodds.studies.audit import AuditError
    from exactodds.studies.design import PayRange

    outcome, separator, span = text.partition("=")
    if not separator or not outcome.strip():
        span = ""  # refused below as not OUTCOME=LOW..HIGH
    low, high = _span(span, text, what, "Pay range", "OUTCOME=LOW..HIGH", "win=10..40")
    steps = {value.denominator for value in (low, high)}
    if not steps <= {1, 2}:
        raise AuditError(
            f"Pay range {quoted(text)} for {what} has an end that is not a whole or half number; "
            "use pays such as 10, 10.5 or 21/2."
        )
    return PayRange(outcome.strip().lower(), low, high, Fraction(1, max(steps)))


def parse_edge_window(text: str, what: str = "`window`") -> tuple[Fraction, Fraction]:
    """``LOW..HIGH`` house edges (``5%..8%``, ``0.05..0.08``), both ends included; *what*
    names the parameter it was given for, in backquotes.

    >>> parse_edge_window("5%..8%")
    (Fraction(1, 20), Fraction(2, 25))
    >>> parse_edge_window("8%..5%")
    Traceback (most recent call last):
    ...
    exactodds.studies.audit.AuditError: House edge window '8%..5%' for `window` is empty; give LOW..HIGH with LOW at most HIGH, such as 5%..8%.
    """
    return _span(text, text, what, "House edge window", "LOW..HIGH", "5%..8%")


def _span(
    span: str, text: str, what: str, kind: str, form: str, example: str
) -> tuple[Fraction, Fraction]:
    """``LOW..HIGH`` in *span* (part of *text*, given for *what*), read exactly, LOW <= HIGH.

    *kind* names the text in errors (``Pay range``), *form* and *example* say what is valid.
    """
    from exactodds.studies.audit import AuditError

    low_text, dots, high_text = span.partition("..")
    if not dots:
        raise AuditError(
            f"{kind} {quoted(text)} for {what} is not {form}; give one such as {example}."
        )
    try:
        low = parse_number(low_text, f"the {kind.lower()} {quoted(text)} for {what}")
        high = parse_number(high_text, f"the {kind.lower()} {quoted(text)} for {what}")
    except ExactOddsError as error:
        raise AuditError(str(error)) from None
    if low > high:
        raise AuditError(
            f"{kind} {quoted(text)} for {what} is empty; give {form} with LOW at most HIGH, "
            f"such as {example}."
        )
    return low, high


def review_spec(
    shoe: Shoe,
    rules: Rules,
    bets: Sequence[Bet],
    counts: Iterable[str] = (),
    triggers: Iterable[str] = (),
) -> ReviewSpec:
    """The :class:`~exactodds.studies.review.ReviewSpec` of ``review``'s option values.

    *counts* are ``TAGS`` (every bet) or ``BET=TAGS``, the tags as simulate's ``--play
    count:TAGS:T`` takes them (10 for A 2-9 and the ten-values, or 13 for A-K); *triggers*
    ``T`` or ``BET=T``, the true count at which the count model bets (fitted when not given).

    >>> from exactodds.bets.catalogue import select_bets
    >>> spec = review_spec(Shoe.standard(8), Rules(), select_bets("dragon7"),
    ...                    ["dragon7=0,0,0,-1,-1,-1,-1,2,2,0"], ["4"])
    >>> spec.counts["dragon7"][-3:], spec.triggers["dragon7"]
    ((0, 0, 0), Fraction(4, 1))
    >>> review_spec(Shoe.standard(8), Rules(), select_bets("tie"), ["lucky=1,1"])
    Traceback (most recent call last):
    ...
    exactodds.errors.SimulationError: Unknown bet 'lucky' in `count` 'lucky=1,1'; the bets are tie.
    """
    from exactodds.simulation.strategies import parse_strategy
    from exactodds.studies.review import ReviewSpec

    names = [bet.name for bet in bets]

    def split(text: str, what: str) -> tuple[list[str], str]:
        name, separator, value = text.partition("=")
        if not separator:
            return names, text
        if name.strip().lower() not in names:
            raise SimulationError(
                f"Unknown bet {name.strip()!r} in {parameter(what)} {text!r}; the bets are "
                f"{', '.join(names)}."
            )
        return [name.strip().lower()], value

    tags: dict[str, tuple[int, ...]] = {}
    for text in counts:
        chosen, value = split(text, "count")
        count = parse_strategy(f"count:{value}:0", where=f"{parameter('count')} {text!r}")
        tags |= dict.fromkeys(chosen, tuple(getattr(count, "tags", ())))
    levels: dict[str, Fraction] = {}
    for text in triggers:
        chosen, value = split(text, "trigger")
        levels |= dict.fromkeys(chosen, read_number(value, "trigger", "use a true count such as 4"))
    return ReviewSpec(shoe, rules, tuple(bets), tags, levels)
