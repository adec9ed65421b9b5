"""The options of ``simulate`` for stakes, bankroll and risk, handed over as one value.

:func:`risk_options` adds ``--stake``, ``--spread``, ``--table-min``, ``--table-max``, ``--chip``,
``--bankroll``, ``--risk``, ``--trip-rounds`` and ``--rounds-per-hour`` to a command
and passes them as one keyword, ``sizing_options`` (a dict of the raw values), for
:func:`~exactodds.specs.sizing_from_options` to read and check before any dealing;
``--risk-figures`` arrives as ``show_risk``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import click

__all__ = ["RISK_OPTION_NAMES", "risk_options"]

Function = TypeVar("Function", bound=Callable[..., Any])

_OPTIONS = (
    click.option(
        "--stake",
        default="flat",
        show_default=True,
        metavar="flat|kelly[:FRACTION]|ramp:EDGE=UNITS,...|optimal",
        help="How much each bet made stakes, in whole units: flat (the table minimum); kelly "
        "(FRACTION x bankroll x exact EV / exact second moment at this composition, needs "
        "--bankroll); ramp:0=1,1%=4,2%=8 (units by exact EV above each edge); "
        "ramp:tc:2=1,4=4 (units by the count strategy's true count); optimal (with --spread: "
        "the ramp that maximizes growth at --bankroll, or SCORE without one, on a flat pilot "
        "of as many other shoes; quoted as measured on the run's shoes).",
    ),
    click.option(
        "--spread",
        metavar="MIN-MAX",
        help="The units an optimal ramp stakes, from MIN to MAX, such as 1-8 (with --stake "
        "optimal).",
    ),
    click.option(
        "--table-min", type=int, default=1, show_default=True, help="Table minimum, units."
    ),
    click.option("--table-max", type=int, default=None, help="Table maximum, units."),
    click.option(
        "--chip", type=int, default=1, show_default=True, help="Stakes are multiples of this."
    ),
    click.option(
        "--bankroll",
        metavar="UNITS",
        help="Bankroll in units: risk of ruin (formula and simulated trips) and Kelly sizing. "
        "Several, such as 100,200,400: the risk of each (with each --trip-rounds), one row each.",
    ),
    click.option(
        "--risk",
        metavar="RISK",
        help="A risk of ruin such as 5%: the bankroll it needs (formula and simulated trips).",
    ),
    click.option(
        "--trip-rounds",
        metavar="ROUNDS",
        default=None,
        help="Rounds in a trip for the trip's risk of ruin (simulated trips are whole shoes). "
        "Several, such as 800,4000: all tallied on the same shoes (at most 100 combinations "
        "with --bankroll).",
    ),
    click.option("--rounds-per-hour", type=int, default=None, help="Also give EV and SD per hour."),
    click.option(
        "--unit",
        metavar="MONEY",
        help="One unit in money, such as 25: the table shows money beside units.",
    ),
    click.option(
        "--exact-moments",
        is_flag=True,
        help="Also estimate each bet's SD and DI from the exact second moment of every bet "
        "made at its composition (lower error; a second evaluation of the rounds bet).",
    ),
    click.option(
        "--sweep",
        "sweeps",
        metavar="NAME=V1,V2,...",
        multiple=True,
        help="Run every combination on the same seeded shoes, one row each: decks, cut, play, "
        "stake, min-edge or pays (play and stake values separated by |). May be repeated; "
        "with --plot DIR, units per shoe against penetration.",
    ),
    click.option(
        "--risk-figures",
        is_flag=True,
        help="Show the risk figures in the table (EV and SD per round, DI, SCORE, N0, "
        "covariance); shown anyway with any option above. JSON always has them.",
    ),
)

#: The keyword names the options arrive under.
RISK_OPTION_NAMES = (
    "stake",
    "table_min",
    "table_max",
    "chip",
    "bankroll",
    "risk",
    "trip_rounds",
    "rounds_per_hour",
    "exact_moments",
    "unit",
    "spread",
)
_DEFAULTS = {"stake": "flat", "table_min": 1, "table_max": None, "chip": 1, "exact_moments": False}


def risk_options(function: Function) -> Function:
    """Add the stake and risk options: the command receives ``sizing_options`` and ``show_risk``.

    ``show_risk`` is true with ``--risk-figures`` or any stake or risk option given.
    """

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        sizing = {name: kwargs.pop(name) for name in RISK_OPTION_NAMES}
        shown = kwargs.pop("risk_figures") or any(
            value != _DEFAULTS.get(name) for name, value in sizing.items()
        )
        return function(*args, sizing_options=sizing, show_risk=shown, **kwargs)

    # --sweep reaches the command as ``sweeps``, untouched.

    decorated: Any = wrapper
    for option in reversed(_OPTIONS):
        decorated = option(decorated)
    return decorated  # type: ignore[no-any-return]
