"""``simulate --fee``: a table's fee charged on every bet, win or lose, as under an overlay.

Per unit paid (the stake plus the fee *f*), a pay ``p`` is ``(p - f) / (1 + f)``, an affine
map: so on the same shoes and the same decisions (``always``), each bet's realized units are
``(won - f * bets) / (1 + f)`` and its average EV ``(1 + e) / (1 + f) - 1``, the RTP less 1.
Before, the fee was printed in the rules line and charged on nothing.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction

from cli_runner import run_ok

FEE = Fraction(1, 5)


def _figures(*fee: str) -> dict[str, dict[str, float]]:
    printed = run_ok(
        "simulate", "--decks", "1", "--shoes", "12", "--seed", "4", "--bets", "banker,tie,dragon7",
        "--play", "always", "--format", "json", "--jobs", "1", *fee,
    ).stdout  # fmt: skip
    bets: dict[str, dict[str, float]] = json.loads(printed)["bets"]
    return bets


def test_the_fee_is_charged_on_every_bet_per_unit_paid() -> None:
    plain, charged = _figures(), _figures("--fee", "20%")
    for name, figures in plain.items():
        made = figures["bets_made"]
        assert charged[name]["bets_made"] == made > 0
        expected_won = (Fraction(figures["units_won"]) - FEE * made) / (1 + FEE)
        assert math.isclose(charged[name]["units_won"], expected_won, rel_tol=1e-12)
        expected_edge = (1 + Fraction(figures["average_edge"])) / (1 + FEE) - 1
        assert math.isclose(charged[name]["average_edge"], expected_edge, rel_tol=1e-9)
