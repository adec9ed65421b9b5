"""Checkpoints: the tally of the first shoes of a run, written so that nothing is ever half-written.

A checkpoint holds the simulation's fingerprint, the number of shoes finished (always
a prefix: shoes ``0 .. n-1``), the byte length of the trace written so far, and the
exact tally.  Resuming refuses a checkpoint of another simulation, or a file that is
not a checkpoint (the file is read as hostile input: its size is capped).
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path

from exactodds.simulation.dealing import SimulationError
from exactodds.simulation.study import Simulation
from exactodds.simulation.tally import Tally

__all__ = ["CHECKPOINT_LIMIT", "load_checkpoint", "save_checkpoint"]

_CHECKPOINT_VERSION = 1
#: A checkpoint holds sums and histograms: far below this many bytes.
CHECKPOINT_LIMIT = 64 * 2**20


def _write_atomically(path: Path, text: str) -> None:
    """Write *text* to *path* so that a reader sees the old file or the new one, never half."""
    directory = path.parent if str(path.parent) else Path(".")
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=directory)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def save_checkpoint(
    path: Path, simulation: Simulation, tally: Tally, trace_bytes: int | None
) -> None:
    """Write the tally of the first ``tally.shoes`` shoes of *simulation* to *path*."""
    data = {
        "exactodds_checkpoint": _CHECKPOINT_VERSION,
        "simulation": simulation.fingerprint(),
        "next_shoe": tally.shoes,
        "trace_bytes": trace_bytes,
        "tally": tally.as_dict(),
    }
    try:
        _write_atomically(path, json.dumps(data))
    except OSError as error:
        raise SimulationError(
            f"Cannot write checkpoint {str(path)!r} ({error.strerror or error}); give a file "
            "in a directory that exists and can be written."
        ) from None


def load_checkpoint(path: Path, simulation: Simulation) -> tuple[Tally, int | None]:
    """The tally in checkpoint *path*, refused if it belongs to another simulation."""
    try:
        if path.stat().st_size > CHECKPOINT_LIMIT:
            raise SimulationError(
                f"Checkpoint {str(path)!r} is larger than {CHECKPOINT_LIMIT:,} bytes; it is not "
                "an exactodds simulate checkpoint."
            )
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SimulationError(
            f"Checkpoint {str(path)!r} does not exist; run without --resume to start one."
        ) from None
    except (OSError, UnicodeDecodeError) as error:
        raise SimulationError(f"Cannot read checkpoint {str(path)!r}: {error}.") from None
    try:
        data = json.loads(text)
        if data.get("exactodds_checkpoint") != _CHECKPOINT_VERSION:
            raise ValueError("not a checkpoint")
        tally = Tally.from_dict(data["tally"])
        trace_bytes = data.get("trace_bytes")
        if trace_bytes is not None and (not isinstance(trace_bytes, int) or trace_bytes < 0):
            raise ValueError("bad trace offset")
        if len(tally.bets) != len(simulation.bets) or data["next_shoe"] != tally.shoes:
            raise ValueError("inconsistent")
        recorded = data["simulation"]
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
        raise SimulationError(
            f"Checkpoint {str(path)!r} is not an exactodds simulate checkpoint."
        ) from None
    if recorded != json.loads(json.dumps(simulation.fingerprint())):
        raise SimulationError(
            f"Checkpoint {str(path)!r} belongs to another simulation (seed, dealing, rules, "
            "bets or strategies differ); resume with the same options, or start a new one."
        )
    if tally.shoes > simulation.shoes:
        raise SimulationError(
            f"Checkpoint {str(path)!r} already holds {tally.shoes} shoes, more than the "
            f"{simulation.shoes} asked for; ask for at least {tally.shoes}."
        )
    return tally, trace_bytes
