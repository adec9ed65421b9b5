"""Ctrl-C and SIGTERM in ``simulate --checkpoint``: nothing finished is lost (issue 22, item 3).

A real process gets the signal mid-run; it must print the result of the shoes it finished,
leave them in the checkpoint, exit 130 (SIGINT) or 143 (SIGTERM), and ``--resume`` must
then give exactly the result of a run that was never interrupted.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

#: Far more shoes than the run gets through before the signal: the signal is always mid-run.
LONG_RUN = "100000"
COMMAND = [sys.executable, "-m", "exactodds", "simulate", "--quiet", "--format", "json"]


def deal(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*COMMAND, *arguments], capture_output=True, text=True, timeout=120)


def figures(output: str) -> dict[str, Any]:
    """Everything the run reports but how it ran (time, backend, rounds dealt this time)."""
    result = json.loads(output)
    del result["run"]
    return dict(result)


def checkpoint_shoes(path: Path) -> int:
    return int(json.loads(path.read_text(encoding="utf-8"))["next_shoe"])


def _wait_for_shoes(path: Path, seconds: float = 90.0) -> None:
    """Until the run's checkpoint holds some shoes (a loaded machine starts slowly; a fixed
    sleep signalled some runs before their first block), at most *seconds*."""
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        time.sleep(0.5)
        try:
            if checkpoint_shoes(path) > 0:
                return
        except (OSError, ValueError, KeyError):
            continue  # not written yet


@pytest.mark.slow
@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_keeps_the_finished_shoes_and_resume_completes_them(
    jobs: str, number: signal.Signals, tmp_path: Path
) -> None:
    checkpoint = tmp_path / "run.json"
    process = subprocess.Popen(
        [*COMMAND, "--shoes", LONG_RUN, "--jobs", jobs, "--checkpoint", str(checkpoint)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    _wait_for_shoes(checkpoint)  # start-up, then some blocks of 64 shoes, however loaded
    process.send_signal(number)
    sent = time.perf_counter()
    stdout, stderr = process.communicate(timeout=60)
    assert time.perf_counter() - sent < 10, "the run took too long to stop"
    assert process.returncode == 128 + number, (process.returncode, stderr)
    assert "Traceback" not in stderr and "Error: Internal" not in stderr
    partial = json.loads(stdout)
    finished = partial["shoes"]
    assert 0 < finished < int(LONG_RUN), finished
    assert checkpoint_shoes(checkpoint) == finished
    assert f"first {finished:,} of 100,000 shoes" in stderr and "--resume" in stderr

    # The checkpoint resumes to exactly the uninterrupted result (a few shoes more).
    total = str(finished + 70)
    resumed = deal("--shoes", total, "--jobs", jobs, "--checkpoint", str(checkpoint), "--resume")
    assert resumed.returncode == 0, resumed.stderr
    whole = deal("--shoes", total, "--jobs", "1")
    assert figures(resumed.stdout) == figures(whole.stdout)
    # ... and the partial result printed at the signal was the first shoes' own result.
    assert figures(stdout) == figures(deal("--shoes", str(finished), "--jobs", "1").stdout)


@pytest.mark.slow
@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_to_the_whole_process_group_keeps_the_finished_shoes(
    number: signal.Signals, tmp_path: Path
) -> None:
    """As a terminal's Ctrl-C or a supervisor's kill do: the workers get the signal too."""
    checkpoint = tmp_path / "run.json"
    process = subprocess.Popen(
        [*COMMAND, "--shoes", LONG_RUN, "--jobs", "2", "--checkpoint", str(checkpoint)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    time.sleep(3.0)
    os.killpg(process.pid, number)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 128 + number, stderr
    # On a loaded machine the workers may not have finished a block yet: 0 shoes is a result too.
    assert json.loads(stdout)["shoes"] == checkpoint_shoes(checkpoint)
    assert "Traceback" not in stderr


@pytest.mark.slow
def test_ctrl_c_then_resume_with_two_jobs_many_times_under_load(tmp_path: Path) -> None:
    """Issue 36: this case hung once in three runs under load (a worker blocked on the pool's
    lock, the parent in join). Each stop and each resume must end within its deadline."""
    load = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    try:
        for attempt in range(8):
            checkpoint = tmp_path / f"run{attempt}.json"
            process = subprocess.Popen(
                [*COMMAND, "--shoes", LONG_RUN, "--jobs", "2", "--checkpoint", str(checkpoint)],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            _wait_for_shoes(checkpoint)
            process.send_signal(signal.SIGINT)
            try:
                stdout, stderr = process.communicate(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
                pytest.fail(f"attempt {attempt}: the run did not stop within 60 s of Ctrl-C")
            assert process.returncode == 130, stderr
            finished = json.loads(stdout)["shoes"]
            try:
                resumed = deal(
                    "--shoes", str(finished + 130), "--jobs", "2",
                    "--checkpoint", str(checkpoint), "--resume",
                )  # fmt: skip
            except subprocess.TimeoutExpired:
                pytest.fail(f"attempt {attempt}: the resumed run hung")
            assert resumed.returncode == 0, resumed.stderr
            assert json.loads(resumed.stdout)["shoes"] == finished + 130
    finally:
        for burner in load:
            burner.kill()
            burner.wait()
