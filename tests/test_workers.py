"""No hang on resume (issue 36, item 4): the run's worker processes, each on its own pipe.

A resumed run with two jobs hung once in three under load (a worker blocked on the pool's
shared lock, the parent in ``join``). Here: many stop-and-resume cycles with two jobs, under
load, in a child process with a deadline (a hang fails the test instead of blocking it); a
worker that dies or stalls stops the run with one sentence, keeps the shoes finished before
it (in the result and the checkpoint), and the resumed run equals a run in one go.
"""

from __future__ import annotations

import itertools
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from budget import thorough
from click.testing import CliRunner

from exactodds.bets.catalogue import select_bets
from exactodds.errors import SimulationError
from exactodds.simulation import run as run_module
from exactodds.simulation import workers
from exactodds.simulation.dealing import DealingProcedure
from exactodds.simulation.run import Simulation, simulate
from exactodds.simulation.workers import WorkerError, forked_workers

ROOT = Path(__file__).resolve().parent.parent
ONE_DECK = Simulation.of(160, 7, bets=select_bets("tie"), procedure=DealingProcedure(decks=1))
#: Blocks of 16 shoes: ten blocks, so two workers always hold several.
BLOCK = 16


def _failing_block(kind: str, at: int) -> Any:
    """run_block, but the worker dealing shoe *at* first is killed (``die``, or ``die-late``
    after the other worker has finished the blocks after it) or sleeps."""
    real = run_module.run_block

    def block(simulation: Simulation, first: int, shoes: int, trace: bool = False) -> Any:
        if first == at and os.getpid() != PARENT:
            if kind == "die-late":
                time.sleep(0.5)
            if kind.startswith("die"):
                os.kill(os.getpid(), signal.SIGKILL)
            time.sleep(120)
        return real(simulation, first, shoes, trace)

    return block


PARENT = os.getpid()


@pytest.mark.parametrize("kind", ["die", "stall"])
def test_a_worker_that_dies_or_stalls_is_one_sentence_and_keeps_the_shoes_finished(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    checkpoint = tmp_path / "run.json"
    monkeypatch.setattr(run_module, "run_block", _failing_block(kind, 4 * BLOCK))
    if kind == "stall":  # (a worker about to die must not look stalled on a loaded machine)
        monkeypatch.setattr(workers, "STALL_SECONDS", 1.0)
        monkeypatch.setattr(workers, "STALL_FACTOR", 2)
    started = time.perf_counter()
    with pytest.raises(WorkerError) as caught:
        simulate(ONE_DECK, jobs=2, block_shoes=BLOCK, checkpoint=checkpoint)
    assert time.perf_counter() - started < 60
    message = str(caught.value)
    assert message.count(". ") == 0 and message.endswith(".") and "\n" not in message
    assert "shoes 64 to 79" in message
    assert ("killed by SIGKILL" if kind == "die" else "has held shoes 64 to 79 for") in message
    kept = caught.value.result
    assert kept is not None and kept.tally.shoes == 4 * BLOCK and not kept.complete
    assert json.loads(checkpoint.read_text(encoding="utf-8"))["next_shoe"] == 4 * BLOCK
    monkeypatch.undo()
    resumed = simulate(ONE_DECK, jobs=2, block_shoes=BLOCK, checkpoint=checkpoint, resume=True)
    assert resumed.complete and resumed.tally == simulate(ONE_DECK).tally


def _dealt_blocks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The first shoes of the blocks dealt in this process from now on."""
    dealt: list[int] = []
    real = run_module.run_block

    def block(simulation: Simulation, first: int, shoes: int, trace: bool = False) -> Any:
        dealt.append(first)
        return real(simulation, first, shoes, trace)

    monkeypatch.setattr(run_module, "run_block", block)
    return dealt


def test_the_blocks_finished_after_a_dead_worker_are_kept_and_not_dealt_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The worker of shoes 64-79 dies late: the other has finished blocks after the gap by
    then. The checkpoint keeps them; the resume deals only the others, and equals one go."""
    checkpoint = tmp_path / "run.json"
    monkeypatch.setattr(run_module, "run_block", _failing_block("die-late", 4 * BLOCK))
    monkeypatch.setattr(workers, "LEAVE_SECONDS", 0.3)  # no signal to wait for here
    with pytest.raises(WorkerError, match="shoes 64 to 79"):
        simulate(ONE_DECK, jobs=2, block_shoes=BLOCK, checkpoint=checkpoint)
    data = json.loads(checkpoint.read_text(encoding="utf-8"))
    assert data["exactodds_checkpoint"] == 3 and data["next_shoe"] == 4 * BLOCK
    kept = [tuple(block["ranges"][0]) for block in data["blocks"]]
    assert kept and kept[0][0] == 5 * BLOCK  # the gap is the dead worker's block alone
    assert all(stop - start == BLOCK for start, stop in kept)
    assert all(later[0] == earlier[1] for earlier, later in itertools.pairwise(kept))
    monkeypatch.undo()
    dealt = _dealt_blocks(monkeypatch)
    resumed = simulate(ONE_DECK, block_shoes=BLOCK, checkpoint=checkpoint, resume=True)
    held = {start for start, _ in kept}
    assert dealt == [s for s in range(4 * BLOCK, ONE_DECK.shoes, BLOCK) if s not in held]
    assert resumed.complete and resumed.tally == simulate(ONE_DECK).tally
    assert resumed.rounds_run < resumed.tally.rounds - data["tally"]["rounds"]


def _gapped_checkpoint(directory: Path) -> tuple[Path, dict[str, Any]]:
    """A checkpoint of shoes 0-15 with the blocks of shoes 32-47 and 48-63 kept."""
    from exactodds.simulation.checkpoint import save_checkpoint
    from exactodds.simulation.run import run_block

    path = directory / "gapped.json"
    first, *blocks = (run_block(ONE_DECK, start, BLOCK).tally for start in (0, 32, 48))
    save_checkpoint(path, ONE_DECK, first, None, blocks)
    return path, json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (lambda blocks: blocks.append(blocks[0]), "overlaps shoes held before it"),
        (lambda blocks: blocks.reverse(), "comes out of order"),
        (lambda blocks: blocks[0].update(ranges=[[8, 24]]), "overlaps shoes held before it"),
        (lambda blocks: blocks[0].update(ranges=[[32, 40]]), "a block's shoes and range"),
        (lambda blocks: blocks[0].update(ranges=[[32, 40], [40, 48]]), "not one range"),
        (lambda blocks: blocks[1].update(ranges=[[-16, 0]]), "comes out of order"),
        (lambda blocks: blocks.extend([{}] * 10_000), "not an exactodds simulate"),
    ],
)
def test_a_hostile_checkpoint_of_blocks_is_refused_in_one_sentence(
    tmp_path: Path, edit: Any, words: str
) -> None:
    from exactodds.simulation.checkpoint import _checksum

    path, data = _gapped_checkpoint(tmp_path)
    edit(data["blocks"])
    data["checksum"] = _checksum(data)  # a forger: the consistency checks still hold
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SimulationError) as caught:
        simulate(ONE_DECK, checkpoint=path, resume=True)
    message = str(caught.value)
    assert words in message and message.count(". ") == 0 and message.endswith(".")


def test_kept_blocks_resume_to_one_go_and_a_checkpoint_of_version_2_still_resumes(
    tmp_path: Path,
) -> None:
    from exactodds.simulation.checkpoint import _checksum

    path, data = _gapped_checkpoint(tmp_path)
    one_go = simulate(ONE_DECK).tally
    assert simulate(ONE_DECK, block_shoes=BLOCK, checkpoint=path, resume=True).tally == one_go
    path, data = _gapped_checkpoint(tmp_path)
    data["exactodds_checkpoint"] = 2
    del data["blocks"]
    data["checksum"] = _checksum(data)
    path.write_text(json.dumps(data), encoding="utf-8")
    resumed = simulate(ONE_DECK, block_shoes=BLOCK, checkpoint=path, resume=True)
    assert resumed.tally == one_go
    # A run asked for fewer shoes than a kept block reaches leaves the block out.
    path, _ = _gapped_checkpoint(tmp_path)
    fewer = Simulation.of(40, 7, bets=select_bets("tie"), procedure=DealingProcedure(decks=1))
    assert simulate(fewer, checkpoint=path, resume=True).tally == simulate(fewer).tally
    path, data = _gapped_checkpoint(tmp_path)
    data["exactodds_checkpoint"] = 2
    del data["blocks"]
    data["blocks"] = []  # version 2 had none: a file that says otherwise is not one of ours
    data["checksum"] = _checksum(data)
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SimulationError, match="is not an exactodds simulate checkpoint"):
        simulate(ONE_DECK, checkpoint=path, resume=True)


def test_the_command_says_it_in_one_line_and_how_to_continue(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from exactodds.cli import cli

    checkpoint = tmp_path / "run.json"
    monkeypatch.setattr(run_module, "run_block", _failing_block("die", 0))
    arguments = ["simulate", "--shoes", "3000", "--decks", "1", "--bets", "tie", "--quiet"]
    result = CliRunner().invoke(cli, [*arguments, "--jobs", "2", "--checkpoint", str(checkpoint)])
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("Error: A worker process (pid ")
    assert line.endswith(f"; continue with --resume --checkpoint {checkpoint}.")


def test_an_error_in_a_worker_is_raised_as_it_was() -> None:
    def work(job: int) -> int:
        if job == 3:
            raise SimulationError("three is refused.")
        return job

    with (
        pytest.raises(SimulationError, match="three is refused"),
        forked_workers(work, iter(range(6)), 2, lambda: False) as answers,
    ):
        list(answers)


def test_a_stop_ends_the_answers_and_every_worker() -> None:
    def work(job: int) -> int:
        time.sleep(0.05)
        return job

    seen: list[int] = []
    with forked_workers(work, iter(range(1000)), 2, lambda: len(seen) >= 5) as answers:
        for answer in answers:
            seen.append(answer)
    assert seen == list(range(len(seen))) and 5 <= len(seen) < 1000
    assert not [child for child in _children() if child]


def _children() -> Iterator[int]:
    import multiprocessing

    for child in multiprocessing.active_children():
        yield child.pid or 0


#: Many stop-and-resume cycles with two jobs, then the tally against one run in one go.
CYCLES_SCRIPT = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from exactodds.bets.catalogue import select_bets
    from exactodds.simulation.dealing import DealingProcedure
    from exactodds.simulation.run import Simulation, simulate

    cycles, shoes, path = int(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3])
    study = Simulation.of(shoes, 3, bets=select_bets("tie"), procedure=DealingProcedure(decks=1))
    for cycle in range(cycles):
        blocks = []
        result = simulate(
            study, jobs=2, block_shoes=4, checkpoint=path, resume=cycle > 0,
            progress=lambda shoes, rounds: blocks.append(shoes),
            stop=lambda: len(blocks) >= 1 + cycle % 3,
        )
        print(cycle, result.tally.shoes, flush=True)
    final = simulate(study, jobs=2, block_shoes=4, checkpoint=path, resume=True)
    assert final.complete and final.tally == simulate(study).tally, "resumed != one go"
    print("same", flush=True)
    """
)


def _burn(seconds: float) -> subprocess.Popen[bytes]:
    """A process that keeps one core busy (the load the hang was seen under)."""
    return subprocess.Popen(
        [
            sys.executable,
            "-c",
            f"import time\nend = time.time() + {seconds}\nwhile time.time() < end: pass",
        ]
    )


def _resume_cycles(cycles: int, tmp_path: Path, deadline: float) -> None:
    load = [_burn(deadline) for _ in range(2)]
    try:
        # Never finished before the last resume: a cycle stops after 1 to 3 blocks of 4 shoes,
        # and the blocks in flight then, and those kept after a gap, add up to a few more.
        shoes = str(4 * 8 * cycles + 40)
        done = subprocess.run(
            [sys.executable, "-c", CYCLES_SCRIPT, str(cycles), shoes, str(tmp_path / "c.json")],
            capture_output=True,
            text=True,
            timeout=deadline,
            cwd=ROOT,
        )
    except subprocess.TimeoutExpired as error:
        pytest.fail(f"the stop-and-resume cycles hung: {error.stdout!r}")
    finally:
        for process in load:
            process.kill()
            process.wait()
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == cycles + 1 and lines[-1] == "same"
    finished = [int(line.split()[1]) for line in lines[:-1]]
    assert finished == sorted(finished) and finished[-1] < int(shoes)


@thorough  # two processes burn both cores for its length; the slow run does 100 cycles
def test_two_jobs_resume_many_times_under_load_without_a_hang(tmp_path: Path) -> None:
    _resume_cycles(12, tmp_path, deadline=120)


@pytest.mark.slow
def test_two_jobs_resume_a_hundred_times_under_load_without_a_hang(tmp_path: Path) -> None:
    _resume_cycles(100, tmp_path, deadline=900)


def test_a_depth_pool_that_lost_a_worker_is_one_sentence() -> None:
    from concurrent.futures.process import BrokenProcessPool

    from exactodds.advantage import parallel

    def pieces() -> Iterator[Any]:
        yield ([[1]], [1], 1)
        raise BrokenProcessPool("A process in the process pool was terminated abruptly")

    with pytest.raises(parallel.WorkerLostError) as caught:
        list(parallel._reporting(pieces(), 4, None))
    assert str(caught.value).startswith(
        "A worker process ended abruptly after 1 of 4 pieces of the depth table"
    )
