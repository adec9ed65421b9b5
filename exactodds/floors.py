"""The package's floors, written once: each module imports only modules on lower floors.

``tests/test_layers.py`` walks every import in :mod:`exactodds` (lazy ones inside functions
too) and fails on an arrow that runs up a floor or round a circle; :func:`floor_map` renders
the same table for the architecture notes (a package is named with a trailing ``/``). A module belongs to the floor of its longest listed
prefix, so ``exactodds.engine.kernel.twin`` is on ``engine``'s floor.

>>> floor_of("exactodds.engine.kernel.twin")
3
>>> floor_of("exactodds.interface")
9
>>> floor_map().splitlines()[2].split()[:3]
['floor', '3', 'engine/']
>>> room_of("exactodds.simulation.risk.ruin").name
'simulation.risk'
>>> room_allows("exactodds.simulation.risk.figures", "exactodds.simulation.tally")
False
>>> floor_of("exactodds.nowhere")
Traceback (most recent call last):
...
KeyError: "Module 'exactodds.nowhere' has no floor in exactodds.floors.FLOORS; add it there."
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["FLOORS", "ROOMS", "Floor", "Room", "floor_map", "floor_of", "room_allows", "room_of"]


class Floor(NamedTuple):
    """One floor: its number, its modules or packages (under ``exactodds.``) and what they hold."""

    number: int
    modules: tuple[str, ...]
    holds: str


FLOORS: tuple[Floor, ...] = (
    Floor(1, ("errors", "numbers", "cards", "floors"), "words and exact numbers everything speaks"),
    Floor(
        2,
        ("rules", "shoe", "inputs", "rulefiles"),
        "the game's vocabulary and the bounded reader",
    ),
    Floor(3, ("engine/",), "every way to count a shoe's rounds, all exact"),
    Floor(4, ("bets/",), "what a round pays: Bet, side bets, custom bets, pay tables"),
    Floor(5, ("analysis/",), "one shoe or many shoes priced, effect of removal, symbolic pays"),
    Floor(
        6,
        ("simulation/", "advantage/", "games/"),
        "shoes dealt in sequence (a pipeline on two rooms, simulation/risk/ and "
        "simulation/staking/), exact averages over the unknown, two-sided games",
    ),
    Floor(
        7,
        ("studies/",),
        "what combines the floors below into one deliverable, computed, not rendered",
    ),
    Floor(8, ("report/",), "every rendering: table, JSON, CSV, batch lines, par sheets, plots"),
    Floor(
        9,
        ("interface", "specs"),
        "option values to shoe, rules, bets and study specs, shared by the skins",
    ),
    Floor(10, ("cli/", "web/"), "the click commands and the ASGI app: thin skins"),
    Floor(11, ("__main__",), "the public API (__init__.py, the package itself), python -m"),
)


class Room(NamedTuple):
    """A room of a package: its modules import nothing of the package outside the room but
    the modules ``may_import`` lists (dotted under ``exactodds.``, each with what is inside
    it), so the rest of the package stands on the room, never the other way."""

    name: str
    may_import: tuple[str, ...]
    holds: str


ROOMS: tuple[Room, ...] = (
    Room(
        "simulation.risk",
        (),
        "per-shoe sums and estimates, trip tallies with one joiner, bankroll paths, the ruin "
        "programme, the risk questions and the risk figures of a result",
    ),
    Room(
        "simulation.staking",
        (
            "simulation.risk",
            "simulation.dealing",
            "simulation.evaluate",
            "simulation.strategies",
            "simulation.tally",
        ),
        "stakes, the stakes of a block's rounds and the optimal ramp: on the risk room and the "
        "pipeline's lowest words (the dealt block, its values, the plays, the tally); the study "
        "it reads is a protocol of its own (staking.study), so it never imports the study "
        "(study) nor the runners (block, result, run, checkpoint, sweep)",
    ),
)


def room_of(module: str) -> Room | None:
    """The room *module* (a dotted name under ``exactodds``) is in, if any."""
    for room in ROOMS:
        name = f"exactodds.{room.name}"
        if module == name or module.startswith(name + "."):
            return room
    return None


def room_allows(module: str, target: str) -> bool:
    """Whether *module* may import *target* as far as rooms go (floors are checked apart):
    a module outside a room may import anything of its floor; one inside only its room, its
    allowed modules and what lies outside its package."""
    room = room_of(module)
    if room is None:
        return True
    package = "exactodds." + room.name.rpartition(".")[0]
    if not (target == package or target.startswith(package + ".")):
        return True
    allowed = (room.name, *room.may_import)
    return any(
        target == f"exactodds.{name}" or target.startswith(f"exactodds.{name}.") for name in allowed
    )


def floor_of(module: str) -> int:
    """The floor of *module* (a dotted name under ``exactodds``); the package itself is the top."""
    if module == "exactodds":
        return FLOORS[-1].number
    parts = module.split(".")[1:]
    for length in range(len(parts), 0, -1):
        prefix = ".".join(parts[:length])
        for floor in FLOORS:
            if prefix in (name.rstrip("/") for name in floor.modules):
                return floor.number
    raise KeyError(f"Module {module!r} has no floor in exactodds.floors.FLOORS; add it there.")


def floor_map() -> str:
    """The floors as a text map, one line a floor: what the architecture notes show.

    Generated here so that a map in the documentation can be checked against this table.
    """
    rows = []
    for floor in FLOORS:
        names = [name if name.endswith("/") else f"{name}.py" for name in floor.modules]
        top = floor is FLOORS[-1]
        rows.append(("top" if top else f"floor {floor.number}", " ".join(names), floor.holds))
    width = max(len(names) for _, names, _ in rows)
    return "\n".join(f"{label:<8} {names:<{width}}  {holds}" for label, names, holds in rows)
