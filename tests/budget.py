"""How many examples the heaviest property tests try: an eighth of their budget by default.

The README's test command answers in minutes; the properties that price a whole shoe per
example (the kernel against the walk, known cards against physical cards, the suited view
against the rank-only one) are what would hold it up. Each is decorated with
:func:`budgeted` instead of Hypothesis' ``settings``: the default run tries an eighth of its
examples (at least two, and every ``@example``), and the full budget runs with the slow
tests, because ``.ci/run`` runs ``EXACTODDS_TEST_BUDGET=full python -m pytest -m "slow or
budgeted"`` (the ``budgeted`` mark is what finds them). Nothing is left untested by default;
the thorough run explores further.

>>> budgeted(20, deadline=None).__name__
'decorate'
>>> examples(20) in (2, 20)
True
>>> [mark.name for mark in THOROUGH]
['budgeted', 'thorough']
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar

import pytest
from hypothesis import settings

__all__ = ["FULL", "THOROUGH", "budgeted", "examples", "thorough"]

Test = TypeVar("Test", bound=Callable[..., Any])

#: True in the thorough run (``EXACTODDS_TEST_BUDGET=full``), which tries every example.
FULL = os.environ.get("EXACTODDS_TEST_BUDGET", "").strip().lower() == "full"


def examples(full: int) -> int:
    """The examples to try of a test whose full budget is *full*: all of them in the thorough
    run, an eighth (at least two) otherwise."""
    return full if FULL else max(2, full // 8)


def budgeted(full: int, **options: Any) -> Callable[[Test], Test]:
    """Hypothesis' ``settings(max_examples=..., **options)`` with the budget of
    :func:`examples`, and the ``budgeted`` mark that the thorough run selects."""

    def decorate(test: Test) -> Test:
        chosen: Test = settings(max_examples=examples(full), **options)(test)
        marked: Test = pytest.mark.budgeted(chosen)
        return marked

    return decorate


#: The marks of a heavier case that only the thorough run tries (for ``pytest.param(marks=)``).
THOROUGH = (pytest.mark.budgeted, pytest.mark.thorough)


def thorough(test: Test) -> Test:
    """Mark *test* as a heavier case that only the thorough run tries (see the module's note)."""
    for mark in THOROUGH:
        test = mark(test)
    return test
