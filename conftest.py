"""Test-run settings shared by the doctests and the tests."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest


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
