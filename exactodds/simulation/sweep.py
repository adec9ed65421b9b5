"""Sweeps: every combination of a few settings, simulated on the same seeded shoes.

``--sweep NAME=V1,V2,...`` (repeatable) names a setting and its values; a sweep runs the
study once per combination (the product of all the values) with the same seed, so shoe
``i`` is shuffled from the same random numbers in every combination (common random
numbers: differences between combinations have small errors).  Where the dealing itself
changes (``decks``), the shoes differ, as they must.  Each combination's result equals a
separate run with those options.

:data:`SWEEP_NAMES` are the settings a sweep can vary.  ``play`` and ``stake`` values use
commas themselves (count tags, ramp steps), so their values are separated by ``|``.

>>> sweep = parse_sweeps(["cut=14,30", "min-edge=0,1%"])
>>> [dict(combination) for combination in sweep.combinations()][:2]
[{'cut': '14', 'min-edge': '0'}, {'cut': '14', 'min-edge': '1%'}]
>>> parse_sweeps(["colour=red"])
Traceback (most recent call last):
...
exactodds.errors.SimulationError: Unknown sweep setting 'colour' in `sweep` 'colour=red'; sweep one of decks, cut, play, stake, min-edge, pays.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from exactodds.errors import SimulationError

__all__ = ["MOST_COMBINATIONS", "SWEEP_NAMES", "Sweep", "parse_sweeps", "sweep_row"]

SWEEP_NAMES = ("decks", "cut", "play", "stake", "min-edge", "pays")
#: A sweep runs one study per combination: refuse an accidental product of thousands.
MOST_COMBINATIONS = 256
_PIPED = ("play", "stake")


@dataclass(frozen=True)
class Sweep:
    """The settings swept and their values, in the order given."""

    settings: tuple[tuple[str, tuple[str, ...]], ...]

    def combinations(self) -> Iterator[tuple[tuple[str, str], ...]]:
        """Every combination, as (name, value) pairs, the last setting varying fastest."""
        names = [name for name, _ in self.settings]
        for values in itertools.product(*(values for _, values in self.settings)):
            yield tuple(zip(names, values, strict=True))


def parse_sweeps(texts: Iterable[str]) -> Sweep:
    """The sweep of ``--sweep NAME=V1,V2,...`` values, checked before any dealing."""
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
    sweep = Sweep(tuple(settings))
    count = 1
    for _, values in settings:
        count *= len(values)
    if count > MOST_COMBINATIONS:
        raise SimulationError(
            f"The sweep has {count:,} combinations, more than {MOST_COMBINATIONS}; sweep fewer "
            "values."
        )
    return sweep


def sweep_row(combination: tuple[tuple[str, str], ...], result: Any) -> dict[str, Any]:
    """One combination's row: its values, the penetration, the combined figures and the result.

    ``penetration`` is the share of the shoe in front of the cut card.
    """
    procedure = result.simulation.procedure
    data = result.to_dict()
    data.pop("run")
    combined = data["combined"]
    return {
        "values": dict(combination),
        "penetration": 1 - procedure.cut / procedure.cards,
        "units_per_shoe": combined.get("units_per_shoe", {}).get("exact_ev"),
        "ev_per_round": combined.get("ev_per_round"),
        "di": combined.get("di"),
        "score": combined.get("score"),
        "n0_rounds": combined.get("n0_rounds"),
        # The trip's risk estimate (with --bankroll), else None.
        "risk_of_ruin": ((combined.get("risk_of_ruin") or {}).get("estimate") or {}).get("trip"),
        "result": data,
    }
