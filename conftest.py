"""Test-run settings shared by the doctests and the tests.

Hypothesis profiles, registered here so that every test module's ``@settings`` builds on
them: ``ci`` (chosen when the environment says ``CI=true``, as CI services do, or with
``HYPOTHESIS_PROFILE=ci``) is derandomized, so a run is the same run on every machine, and
prints what reproduces a failure; ``dev`` (the default) explores fresh examples every run.
The header of every run names the profile and the seed.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("dev", print_blob=True)


def _profile() -> str:
    chosen = os.environ.get("HYPOTHESIS_PROFILE")
    if chosen:
        return chosen
    return "ci" if os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"} else "dev"


settings.load_profile(_profile())

# A run started in the background by a shell without job control (`python -m pytest &` in a
# script) ignores SIGINT, and so would every command the tests start and then interrupt: they
# would never stop. Ctrl-C's usual handler is put back (a command started after this gets the
# default action, which Python turns into its own handler).
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# A machine without the compiled kernel runs the same tests on the pure-Python twin; the note
# the heavy commands print there would add a line to every stderr the tests compare
# (tests/test_front_door.py unsets this to test the note itself).
os.environ.setdefault("EXACTODDS_QUIET_KERNEL", "1")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Leave out the heavier cases marked ``thorough`` (tests/budget.py) but in the thorough run
    (``EXACTODDS_TEST_BUDGET=full``)."""
    if os.environ.get("EXACTODDS_TEST_BUDGET", "").strip().lower() == "full":
        return
    left = [item for item in items if item.get_closest_marker("thorough") is not None]
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = [item for item in items if item.get_closest_marker("thorough") is None]


def pytest_report_header(config: pytest.Config) -> str:
    seed = config.getoption("hypothesis_seed", None)
    current = settings.get_profile(_profile())
    how = "derandomized" if current.derandomize else f"seed {seed or 'random'}"
    return f"hypothesis profile: {_profile()} ({how}; rerun one with --hypothesis-seed=N)"


@pytest.fixture(autouse=True, scope="session")
def private_polynomial_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Keep the test run's compiled-polynomial cache out of the user's own cache folder."""
    saved = os.environ.get("EXACTODDS_CACHE_DIR")
    os.environ["EXACTODDS_CACHE_DIR"] = str(tmp_path_factory.mktemp("exactodds-cache"))
    yield
    if saved is None:
        del os.environ["EXACTODDS_CACHE_DIR"]
    else:
        os.environ["EXACTODDS_CACHE_DIR"] = saved
