"""The countermeasure table written out: a table with its assumptions, or JSON.

Every figure comes from :class:`~exactodds.studies.protection.ProtectionTable`; nothing here
computes one. Each is a mean with its standard error (``± SE``: one standard error, not the
95% interval simulate prints).

>>> from exactodds.bets.catalogue import select_bets
>>> from exactodds.simulation.dealing import DealingProcedure
>>> from exactodds.simulation.study import Simulation
>>> from exactodds.studies.protection import ProtectionSpec, protection_table
>>> study = Simulation.of(3, 1, bets=select_bets("dragon7"), procedure=DealingProcedure(decks=1, cut=10))
>>> text = render_protection(protection_table(ProtectionSpec(study, teams=(2,))), "table")
>>> [line.split()[0] for line in text.splitlines() if line.startswith(("baseline", "team"))]
['baseline', 'team']
>>> render_protection(protection_table(ProtectionSpec(study)), "csv")
Traceback (most recent call last):
...
ValueError: format 'csv' is not table or json.
"""

from __future__ import annotations

import math

from exactodds.report.table import simple_table, wrapped_text
from exactodds.report.writer import json_text
from exactodds.simulation.risk.sums import Estimate
from exactodds.studies.protection import ProtectionTable

__all__ = ["render_protection"]

_NOTES = (
    "± is one standard error over shoes; every row is dealt from the same shoes (the same "
    "seed). Exact-EV estimator: each bet placed counts its exact EV when it was placed.",
    "cut: the study run again with that cut card, as simulate runs it. cap: from that depth "
    "the side bet needs a main bet of stake/share on it; main bet: each side bet needs that "
    "many units on a main bet; the main bet is the better of Banker and Player then, its "
    "exact EV counted; perfect play skips a side bet its main bet makes unprofitable, a count "
    "keeps its signal. team: that many players each place every bet on the one signal. known "
    "card: the card at that position of the shoe (0 = first, burns included) known from the "
    "start, priced in every round that cannot deal it.",
)


def _figure(estimate: Estimate, digits: int) -> str:
    if math.isnan(estimate.stderr):
        return f"{estimate.mean:.{digits}f}"
    return f"{estimate.mean:.{digits}f} ± {estimate.stderr:.{digits}f}"


def render_protection(table: ProtectionTable, output_format: str, digits: int = 4) -> str:
    """*table* as a text table with its study and assumptions, or as JSON."""
    if output_format == "json":
        return json_text(table.to_dict())
    if output_format != "table":
        raise ValueError(f"format {output_format!r} is not table or json.")
    data = table.to_dict()
    study = table.spec.simulation
    header = [
        f"Bet: {data['bet']}, {data['strategy']}, stake {data['stake']}",
        wrapped_text(
            f"Shoes: {data['shoes']:,} of seed {data['seed']} ({study.procedure.describe()})", 100
        ),
        f"Rounds: {data['rounds']:,}; {data['rounds_per_hour']} rounds an hour",
    ]
    rows = [
        [
            row.lever,
            row.setting,
            _figure(row.per_shoe, digits),
            _figure(row.per_hour, digits),
            f"{row.bets_made:,}",
        ]
        for row in table.rows
    ]
    body = simple_table(
        rows,
        ["Lever", "Setting", "Units/shoe ± SE", "Units/hour ± SE", "Bets made"],
        ("left", "left", "right", "right", "right"),
    )
    notes = "\n".join(wrapped_text(note, 100) for note in _NOTES)
    return "\n".join(header) + "\n\n" + body + "\n\n" + notes
