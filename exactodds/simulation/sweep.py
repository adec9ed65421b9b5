"""Sweeps: every combination of a few settings, simulated on the same seeded shoes.

``--sweep NAME=V1,V2,...`` (repeatable) names a setting and its values; a sweep runs the
study once per combination (the product of all the values) with the same seed, so shoe
``i`` is shuffled from the same random numbers in every combination (common random
numbers: differences between combinations have small errors).  Where the dealing itself
changes (``decks``), the shoes differ, as they must.  Each combination's result equals a
separate run with those options.

The sweep is read, and its variants made (each the study's spec with the swept fields
replaced), at the interface: :func:`exactodds.specs.parse_sweeps` and
:func:`exactodds.specs.sweep_variants`. Here is one combination's row of the result.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["SweepResult", "sweep_row"]


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


@dataclass(frozen=True)
class SweepResult:
    """Every combination's row (:func:`sweep_row`), in the sweep's order.

    >>> SweepResult(({"values": {"cut": "14"}, "penetration": 0.5},)).to_dict()["sweep"][0]["values"]
    {'cut': '14'}
    """

    rows: tuple[dict[str, Any], ...]

    def to_dict(self) -> dict[str, Any]:
        """``{"sweep": [row, ...]}``: what ``simulate --sweep --format json`` writes."""
        return {"sweep": list(self.rows)}
