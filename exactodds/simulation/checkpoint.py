"""Checkpoints: the tally of the shoes a run finished, written so that nothing is ever half-written.

A checkpoint holds the simulation's fingerprint, the number of shoes finished in a row
from the first (shoes ``0 .. n-1``), the byte length of the trace written so far, the
exact tally of those shoes, the blocks finished after a gap (a worker that died left
one behind it: each block's own tally, its shoes named by its range), and a SHA-256
checksum over all of it.  A resumed run deals only the shoes no block holds, and adds
the kept blocks in their place, in shoe order: the same tally, bit for bit, as a run in
one go.  Checkpoints of version 2 (before blocks were kept) are read as holding none.
Resuming reads the file as hostile input: through the bounded reader (a regular file of
at most :data:`CHECKPOINT_LIMIT` bytes, never a device or a FIFO), numbers of at most
:data:`CHECKPOINT_DIGITS` digits, the checksum, and the tally's own consistency (shoes,
rounds and every histogram agree; counts are not negative; sums are within what the
shoes can reach; the blocks, at most :data:`CHECKPOINT_BLOCKS`, each one range of shoes
after the first ones, ascending and apart).  The checksum catches an edited or damaged
file, not a forger: anyone can recompute it.

>>> from exactodds.bets.catalogue import select_bets
>>> study = Simulation.of(1, 1, bets=select_bets("tie"))
>>> check_tally(Tally.empty([1]).merged(Tally(1, 5, 25, ((4, 1),), (BetTally(1),))), study)
Traceback (most recent call last):
...
ValueError: the rounds histogram sums to 4 rounds, not 5
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import stat
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from exactodds.errors import SimulationError
from exactodds.inputs import whole_number
from exactodds.simulation.risk.sums import EV_SCALE, Sums
from exactodds.simulation.risk.tally import RiskTally
from exactodds.simulation.staking.stakes import Kelly
from exactodds.simulation.study import Simulation
from exactodds.simulation.tally import HISTOGRAM_BINS_PER_UNIT, BetTally, Tally

if TYPE_CHECKING:
    from exactodds.simulation.result import SimulationResult

__all__ = [
    "CHECKPOINT_BLOCKS",
    "CHECKPOINT_DIGITS",
    "CHECKPOINT_LIMIT",
    "Checkpoint",
    "CheckpointError",
    "check_tally",
    "load_checkpoint",
    "read_checkpoint",
    "save_checkpoint",
]

_CHECKPOINT_VERSION = 3
#: Versions read: 2 wrote no blocks finished after a gap.
_READ_VERSIONS = (2, 3)
#: Most blocks finished after a gap a checkpoint may keep (a worker's death leaves at most
#: twice the jobs behind it; a hostile file is bounded before its blocks are checked).
CHECKPOINT_BLOCKS = 10_000
#: A checkpoint holds sums and histograms: far below this many bytes.
CHECKPOINT_LIMIT = 64 * 2**20
#: Most digits a number in a checkpoint may have (a sum of squares of 10**15 shoes with
#: 100-digit pays stays below it).
CHECKPOINT_DIGITS = 1000


class CheckpointError(SimulationError):
    """A checkpoint (or the trace) could not be written during a run; *result* covers the
    shoes finished.

    >>> str(CheckpointError("Cannot write checkpoint 'x'."))
    "Cannot write checkpoint 'x'."
    """

    def __init__(self, message: str, result: SimulationResult | None = None) -> None:
        super().__init__(message)
        self.result = result


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


def _checksum(data: dict[str, Any]) -> str:
    """SHA-256 of the canonical JSON of everything but the checksum itself."""
    body = {key: value for key, value in data.items() if key != "checksum"}
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(canonical.encode("ascii")).hexdigest()


@dataclass(frozen=True)
class Checkpoint:
    """What a checkpoint holds: the tally of the first shoes, the trace bytes they wrote,
    and the *blocks* finished after a gap (each a tally of one range of shoes, ascending).

    >>> Checkpoint(Tally.empty([1]), None).blocks
    ()
    """

    tally: Tally
    trace_bytes: int | None
    blocks: tuple[Tally, ...] = ()


def save_checkpoint(
    path: Path,
    simulation: Simulation,
    tally: Tally,
    trace_bytes: int | None,
    blocks: Sequence[Tally] = (),
) -> None:
    """Write the tally of the first ``tally.shoes`` shoes of *simulation* to *path*, and
    the tallies of *blocks* finished after them (each one range of shoes, ascending)."""
    data: dict[str, Any] = {
        "exactodds_checkpoint": _CHECKPOINT_VERSION,
        "simulation": simulation.fingerprint(),
        "next_shoe": tally.shoes,
        "trace_bytes": trace_bytes,
        "tally": tally.to_dict(),
        "blocks": [block.to_dict() for block in blocks],
    }
    data["checksum"] = _checksum(data)
    try:
        _write_atomically(path, json.dumps(data))
    except OSError as error:
        raise CheckpointError(
            f"Cannot write checkpoint {str(path)!r} ({error.strerror or error}); give a file "
            "in a directory that exists and can be written."
        ) from None


def _read_bounded(path: Path) -> str:
    """The checkpoint's text: a regular file, at most CHECKPOINT_LIMIT bytes, UTF-8."""
    shown = repr(str(path))
    try:
        status = os.stat(path)
    except FileNotFoundError:
        raise SimulationError(
            f"Checkpoint {shown} does not exist; run without `resume` to start one."
        ) from None
    except (OSError, ValueError) as error:
        raise SimulationError(f"Cannot read checkpoint {shown}: {error}.") from None
    if not stat.S_ISREG(status.st_mode):
        raise SimulationError(
            f"Checkpoint {shown} is not a regular file (a device, a FIFO or a directory); "
            "give the file an earlier run wrote."
        )
    try:
        # Opened without blocking (a file swapped for a FIFO after the check), read bounded.
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(handle, "rb") as stream:
            data = stream.read(CHECKPOINT_LIMIT + 1)
    except OSError as error:
        raise SimulationError(f"Cannot read checkpoint {shown}: {error.strerror}.") from None
    if len(data) > CHECKPOINT_LIMIT:
        raise SimulationError(
            f"Checkpoint {shown} is larger than {CHECKPOINT_LIMIT:,} bytes; it is not an "
            "exactodds simulate checkpoint."
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise SimulationError(
            f"Checkpoint {shown} is not UTF-8 text; it is not an exactodds simulate checkpoint."
        ) from None


def _bounded_int(token: str) -> int:
    if sum(character.isdigit() for character in token) > CHECKPOINT_DIGITS:
        raise ValueError("a number too long")
    return int(token)


def _refuse_float(token: str) -> Any:
    raise ValueError(f"{token} is not a whole number")


def _parse(text: str) -> dict[str, Any]:
    # Deep nesting ends in RecursionError inside the parser, which load_checkpoint refuses.
    data: dict[str, Any] | Any = json.loads(
        text, parse_int=_bounded_int, parse_float=_refuse_float, parse_constant=_refuse_float
    )
    if not isinstance(data, dict):
        raise ValueError("not a checkpoint")
    version = data.get("exactodds_checkpoint")
    if type(version) is not int or version not in _READ_VERSIONS:
        raise ValueError("not a checkpoint")
    if version == 2 and "blocks" in data:
        raise ValueError("blocks in a checkpoint written before blocks were kept")
    return data


def load_checkpoint(path: Path, simulation: Simulation) -> tuple[Tally, int | None]:
    """The tally of the first shoes in checkpoint *path* and the trace bytes they wrote
    (:func:`read_checkpoint` gives the blocks finished after them too)."""
    checkpoint = read_checkpoint(path, simulation)
    return checkpoint.tally, checkpoint.trace_bytes


def _blocks_of(data: dict[str, Any]) -> tuple[Tally, ...]:
    """The blocks' tallies, bounded in number before any is read."""
    blocks = data.get("blocks", [])
    if not isinstance(blocks, list) or len(blocks) > CHECKPOINT_BLOCKS:
        raise ValueError("too many blocks")
    return tuple(Tally.from_dict(block) for block in blocks)


def read_checkpoint(path: Path, simulation: Simulation) -> Checkpoint:
    """What checkpoint *path* holds, refused (one sentence) if it belongs to another
    simulation, is damaged, or is not consistent with the shoes it says it holds.

    >>> from exactodds.bets.catalogue import select_bets
    >>> read_checkpoint(Path("none.json"), Simulation.of(1, 1, bets=select_bets("tie")))
    Traceback (most recent call last):
    ...
    exactodds.errors.SimulationError: Checkpoint 'none.json' does not exist; run without `resume` to start one.
    """
    text = _read_bounded(path)
    shown = repr(str(path))
    try:
        data = _parse(text)
        recorded_sum = data["checksum"]
        tally = Tally.from_dict(data["tally"])
        blocks = _blocks_of(data)
        trace_bytes = data.get("trace_bytes")
        if trace_bytes is not None:
            whole_number(trace_bytes, "trace_bytes")
        if data["next_shoe"] != tally.shoes:
            raise ValueError("inconsistent")
        recorded = data["simulation"]
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
        raise SimulationError(
            f"Checkpoint {shown} is not an exactodds simulate checkpoint."
        ) from None
    if recorded_sum != _checksum(data):
        raise SimulationError(
            f"Checkpoint {shown} does not match its checksum: it was edited or damaged after "
            "it was written; start a new run."
        )
    if recorded != json.loads(json.dumps(simulation.fingerprint())):
        raise SimulationError(
            f"Checkpoint {shown} belongs to another simulation (seed, dealing, rules, "
            "bets or strategies differ); resume with the same options, or start a new one."
        )
    try:
        check_tally(tally, simulation)
        _check_blocks(blocks, tally.shoes, simulation)
    except ValueError as problem:
        raise SimulationError(
            f"Checkpoint {shown} is not consistent ({problem}); start a new run."
        ) from None
    if tally.shoes > simulation.shoes:
        raise SimulationError(
            f"Checkpoint {shown} already holds {tally.shoes} shoes, more than the "
            f"{simulation.shoes} asked for; ask for at least {tally.shoes}."
        )
    # A block past the shoes asked for is not needed (a run stopped, resumed for fewer):
    # left out here, and dealt again should a later run ask for its shoes.
    within = tuple(block for block in blocks if block.ranges[0][1] <= simulation.shoes)
    return Checkpoint(tally, trace_bytes, within)


def _check_blocks(blocks: tuple[Tally, ...], first_shoes: int, simulation: Simulation) -> None:
    """Each block one range of shoes after the first *first_shoes*, ascending and apart,
    and a tally those shoes can give."""
    after = first_shoes
    for block in blocks:
        _require(len(block.ranges) == 1 and block.shoes >= 1, "a block is not one range of shoes")
        start, stop = block.ranges[0]
        _require(
            start >= after,
            f"a block of shoes {start} to {stop - 1} overlaps shoes held before it, or comes "
            "out of order",
        )
        check_tally(block, simulation, first=start)
        after = stop


def _require(condition: bool, problem: str) -> None:
    if not condition:
        raise ValueError(problem)


def _check_counts(pairs: tuple[tuple[int, int], ...], what: str) -> None:
    keys = [key for key, _ in pairs]
    _require(keys == sorted(set(keys)), f"the {what} repeats or misorders a key")
    _require(all(count > 0 for _, count in pairs), f"the {what} holds a count below 1")


def _check_sums(sums: Sums, tally: Tally, largest: int, what: str) -> None:
    """Per-shoe sums of values of at most *largest* per round, over the tally's shoes."""
    total, squares = sums.total, sums.squares
    _require(squares >= 0, f"{what}: a sum of squares below 0")
    _require(abs(total) <= largest * tally.rounds, f"{what}: a total past what the rounds reach")
    # Per shoe |x| <= largest * rounds of the shoe, so squares <= largest**2 * sum rounds**2;
    # Cauchy-Schwarz bounds the total and the cross sum by the squares.
    _require(squares <= largest**2 * tally.rounds_squares, f"{what}: squares past the rounds")
    _require(total * total <= tally.shoes * squares, f"{what}: a total past its squares")
    _require(
        sums.cross**2 <= squares * tally.rounds_squares, f"{what}: a cross sum past its squares"
    )


def check_tally(tally: Tally, simulation: Simulation, first: int = 0) -> None:
    """Raise ValueError naming the first way *tally* cannot come from shoes of *simulation*
    numbered ``first .. first + tally.shoes - 1``."""
    _require(tally.shoes >= 0 and tally.rounds >= 0, "negative shoes or rounds")
    histogram = tally.rounds_histogram
    _check_counts(histogram, "rounds histogram")
    _require(all(rounds >= 1 for rounds, _ in histogram), "a shoe of no round")
    _require(sum(count for _, count in histogram) == tally.shoes, "the rounds histogram's shoes")
    rounds = sum(key * count for key, count in histogram)
    _require(
        rounds == tally.rounds, f"the rounds histogram sums to {rounds} rounds, not {tally.rounds}"
    )
    squares = sum(key * key * count for key, count in histogram)
    _require(squares == tally.rounds_squares, "the rounds histogram's squares")
    _require(len(tally.bets) == len(simulation.bets), "another number of bets")
    decks = simulation.procedure.decks
    # Stakes other than one unit scale the staked sums (realized, exact EV): bound them by
    # the largest stake; a Kelly bankroll grows within a trip, so its stakes have no bound
    # here (the checksum still guards them).
    stake = None if isinstance(simulation.stake, Kelly) else math.ceil(simulation.largest_stake())
    for bet, mine in zip(simulation.bets, tally.bets, strict=True):
        _check_bet(mine, bet.integer_pays(), tally, decks, bet.name, stake)
    _require(
        tally.ranges == (((first, first + tally.shoes),) if tally.shoes else ()),
        "the shoes held are not the first ones" if first == 0 else "a block's shoes and range",
    )
    if tally.risk is not None:
        denominators = tuple(bet.integer_pays()[1] for bet in simulation.bets)
        _check_risk_shape(tally.risk, denominators, simulation.trip_shoes)
        _check_grid_trips(tally.risk, simulation.grid_trip_shoes, tally.shoes)
    if tally.paths is not None:
        width = math.lcm(*(bet.integer_pays()[1] for bet in simulation.bets))
        tally.paths.check(
            tally.shoes, simulation.trip_shoes, width * simulation.limits.minimum, first
        )


def _check_grid_trips(risk: RiskTally, lengths: tuple[int, ...], shoes: int) -> None:
    """The trips of a risk grid's other lengths: those lengths, and no more shoes than dealt."""
    _require(
        tuple(trips.shoes for trips in risk.grid_trips) == lengths,
        "the risk sums' trip lengths of the grid",
    )
    _require(risk.flat is None or not risk.flat.grid_trips, "a grid in the flat risk sums")
    for trips in risk.grid_trips:
        _require(all(count >= 0 for _, count in trips.minimums), "a negative count of trips")
        finished = sum(count for _, count in trips.minimums) * trips.shoes
        held = sum(segment.shoes for segment in trips.open_segments)
        _require(
            all(0 < segment.shoes < trips.shoes for segment in trips.open_segments)
            and finished + held <= shoes,
            "the grid's trips hold more shoes than were dealt",
        )


def _check_risk_shape(risk: RiskTally, denominators: tuple[int, ...], trip_shoes: int) -> None:
    """The risk sums are laid out for these bets and trips (their values are checksummed)."""
    size = len(denominators)
    _require(risk.denominators == denominators, "the risk sums' pay denominators")
    _require(risk.trip_shoes == trip_shoes, "the risk sums' shoes per trip")
    _require(len(risk.bets) == size, "the risk sums' number of bets")
    _require(len(risk.products) == size * (size + 1) // 2, "the risk sums' products")
    _require(len(risk.wagered) == size, "the risk sums' stakes")
    _require(all(units >= 0 for units in risk.wagered), "negative stakes")
    _require(len(risk.exact_squares) in (0, size), "the risk sums' exact moments")
    _require(all(trips >= 0 for _, trips in risk.trip_minimums), "a negative count of trips")
    if risk.flat is not None:
        _check_risk_shape(risk.flat, denominators, trip_shoes)


def _with_float_margin(bound: int) -> int:
    """*bound* plus the rounding of a float64 value near it (relative 2**-52, and one unit)."""
    return bound + (bound >> 40) + 2


def _check_bet(
    bet: BetTally,
    integer_pays: tuple[dict[str, int], int],
    tally: Tally,
    decks: int,
    name: str,
    stake: int | None = 1,
) -> None:
    """*stake*: the largest stake of the study (None: no bound known)."""
    pays, denominator = integer_pays
    _require(bet.pay_denominator == denominator, f"{name}: another pay denominator")
    _require(0 <= bet.bets_made <= tally.rounds, f"{name}: bets made past the rounds")
    _require(0 <= bet.positive <= tally.rounds, f"{name}: positive rounds past the rounds")
    if stake == 1:  # one-unit stakes: the staked EV sum is the EV made
        _require(bet.ev_made == bet.expected.total, f"{name}: the EV made and its sums differ")
    largest_pay = max(abs(pay) for pay in pays.values())
    # An EV is within the pays: in units of 2**-40, rounded from a float, at most this.
    largest_ev = _with_float_margin(largest_pay * EV_SCALE // denominator)
    if stake is not None:
        _check_sums(bet.realized, tally, largest_pay * stake, f"{name} realized")
        _check_sums(bet.expected, tally, largest_ev * stake, f"{name} exact EV")
    _check_counts(bet.histogram, f"{name} EV histogram")
    _require(sum(count for _, count in bet.histogram) == tally.rounds, f"{name}: EV histogram")
    edge = _with_float_margin(largest_pay * HISTOGRAM_BINS_PER_UNIT // denominator)
    _require(all(abs(key) <= edge for key, _ in bet.histogram), f"{name}: an EV past the pays")
    depths = len(bet.depth_rounds)
    _require(depths <= decks and len(bet.depth_ev) == depths, f"{name}: decks")
    _require(all(count >= 0 for count in bet.depth_rounds), f"{name}: negative rounds by deck")
    _require(sum(bet.depth_rounds) == tally.rounds, f"{name}: rounds by deck")
    _require(
        sum(band[1] for band in bet.bands) == tally.rounds
        and all(0 <= band[2] <= band[1] for band in bet.bands)
        and sum(band[2] for band in bet.bands) == bet.bets_made,
        f"{name}: rounds or bets by count",
    )
    _require(
        all(
            abs(ev) <= largest_ev * rounds
            for ev, rounds in zip(bet.depth_ev, bet.depth_rounds, strict=True)
        ),
        f"{name}: an EV by deck past the pays",
    )
