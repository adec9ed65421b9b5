"""When to bet: ``perfect`` play, a linear ``count``, or ``always``.

Each strategy decides, for every round of a block at once, whether to put one
flat unit on its bet, from what a counter at the table knows before the deal:
the exact EV of the known composition (``perfect``) or a running count of the
cards seen (``count``).

* ``perfect``: bet when the exact EV of the known composition is above
  ``min_edge`` (default 0: any positive edge).  Compared exactly, as integers.
* ``count:TAGS:TRIGGER``: TAGS are 10 integers (A, 2, ..., 9 and the
  ten-values) or 13 (A .. K).  The running count starts at 0 (``start=N``
  changes it) and adds the tag of every card the counter sees: the exposed burn
  card and every dealt card.  The true count is the running count divided by
  the decks the counter has not seen (unseen cards / 52, face-down burns and
  the cards behind the cut card included), exactly; the strategy bets when the
  true count is at least TRIGGER, or, with ``running``, when the running count
  is (for unbalanced counts).
* ``always``: bet every round.

>>> strategies = parse_plays(("perfect", "dragon7=count:0,0,0,-1,-1,-1,-1,2,2,0:4"), ("dragon7", "panda8"))
>>> [strategy.describe() for strategy in strategies.values()]
['count 0,0,0,-1,-1,-1,-1,2,2,0, bet at true count >= 4', 'perfect (bet when the exact EV > 0)']
>>> parse_plays(("lucky7=always",), ("dragon7",))
Traceback (most recent call last):
...
exactodds.errors.SimulationError: Unknown bet 'lucky7' in `play` 'lucky7=always'; the bets simulated are dragon7.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from exactodds.errors import ExactOddsError, SimulationError, quoted
from exactodds.inputs import whole_number
from exactodds.numbers import fraction_string, parse_number

__all__ = ["Always", "Count", "Perfect", "Strategy", "counted_by", "parse_plays", "parse_strategy"]

BoolArray = npt.NDArray[np.bool_]
#: Products below this fit int64 with room for one addition; past it, counts are Python ints.
_INT64_SAFE = 2**62
_PLAY_HELP = (
    "use perfect, always, or count:TAGS:TRIGGER (10 tags for A 2-9 and the ten-values, or 13 "
    "for A-K), optionally after BET="
)


@dataclass(frozen=True)
class Always:
    """Bet every round.

    >>> Always().describe()
    'always'
    """

    def decide(
        self,
        numerators: npt.NDArray[Any],
        denominators: npt.NDArray[Any],
        known: npt.NDArray[np.int64],
        decks: int,
    ) -> BoolArray:
        """Whether to bet each round (all true)."""
        return np.ones(len(known), dtype=bool)

    def describe(self) -> str:
        """One line for reports."""
        return "always"


@dataclass(frozen=True)
class Perfect:
    """Bet when the exact EV of the known composition is above *min_edge*.

    >>> strategy = Perfect(Fraction(1, 100))
    >>> strategy.decide(np.array([1, 2, -5]), np.array([100, 100, 7]), np.zeros((3, 52), dtype=np.int64), 8).tolist()
    [False, True, False]
    """

    min_edge: Fraction = Fraction(0)

    def decide(
        self,
        numerators: npt.NDArray[Any],
        denominators: npt.NDArray[Any],
        known: npt.NDArray[np.int64],
        decks: int,
    ) -> BoolArray:
        """Whether each round's exact EV ``numerator / denominator`` is above the threshold."""
        if self.min_edge == 0:
            return np.asarray(numerators > 0, dtype=bool)
        threshold = float(self.min_edge)
        gap = (
            np.asarray(numerators, dtype=np.float64) / np.asarray(denominators, dtype=np.float64)
            - threshold
        )
        decision = gap > 0
        # Float division is within 1e-15 of the truth; decide close calls exactly.
        for row in np.flatnonzero(np.abs(gap) <= 1e-9 * max(1.0, abs(threshold))):
            decision[row] = Fraction(int(numerators[row]), int(denominators[row])) > self.min_edge
        return decision

    def describe(self) -> str:
        """One line for reports."""
        return f"perfect (bet when the exact EV > {fraction_string(self.min_edge)})"


@dataclass(frozen=True)
class Count:
    """A linear count: 13 tags (A .. K), a trigger, true or running count, a starting count.

    >>> count = Count((1,) * 13, Fraction(2))
    >>> known = np.full((2, 52), 1)
    >>> known[1, :4] = 0  # four aces seen: running count 4, 48 cards unseen
    >>> count.running_counts(known, decks=1).tolist(), count.decide(None, None, known, 1).tolist()
    ([0, 4], [False, True])
    """

    tags: tuple[int, ...]
    trigger: Fraction
    running: bool = False
    start: int = 0

    def running_counts(self, known: npt.NDArray[np.int64], decks: int) -> npt.NDArray[Any]:
        """The running count before each round: start + the tags of every card seen.

        An int64 array while :meth:`count_bound` proves it fits, else Python integers
        (an object array): exact whatever the tags and the start.
        """
        seen = decks - known
        if self.count_bound(decks) <= _INT64_SAFE:
            card_tags = np.repeat(np.array(self.tags, dtype=np.int64), 4)
            return np.asarray(self.start + seen @ card_tags, dtype=np.int64)
        card_tags = np.repeat(np.array(self.tags, dtype=object), 4)
        return np.asarray(seen.astype(object) @ card_tags + self.start, dtype=object)

    def count_bound(self, decks: int) -> int:
        """A bound on the running count's size: ``|start| + 4 decks sum |tags|`` (Python int).

        Each of the 52 cards is seen at most *decks* times, four cards to a rank.

        >>> Count((1,) * 13, Fraction(0), start=-5).count_bound(8)
        421
        """
        return abs(self.start) + 4 * decks * sum(abs(tag) for tag in self.tags)

    def decide(
        self,
        numerators: npt.NDArray[Any] | None,
        denominators: npt.NDArray[Any] | None,
        known: npt.NDArray[np.int64],
        decks: int,
    ) -> BoolArray:
        """Whether the true (or running) count reaches the trigger, compared exactly.

        In int64 while the bound on every product is below 2**62, else in Python integers.
        """
        counts = self.running_counts(known, decks)
        p, q = self.trigger.numerator, self.trigger.denominator
        bound = self.count_bound(decks)
        if self.running:
            if bound * q > _INT64_SAFE or abs(p) > _INT64_SAFE:
                counts = counts.astype(object)
            return np.asarray(counts * q >= p, dtype=bool)
        unseen = known.sum(axis=1)
        # running / (unseen / 52) >= p / q  <=>  52 q running >= p unseen (unseen > 0)
        if 52 * q * bound > _INT64_SAFE or abs(p) * 52 * decks > _INT64_SAFE:
            counts, unseen = counts.astype(object), unseen.astype(object)
        return np.asarray(52 * q * counts >= p * unseen, dtype=bool)

    def describe(self) -> str:
        """One line for reports."""
        tags = ",".join(str(tag) for tag in self._short_tags())
        which = "running count" if self.running else "true count"
        start = f", starting at {self.start}" if self.start else ""
        return f"count {tags}, bet at {which} >= {fraction_string(self.trigger)}{start}"

    def _short_tags(self) -> tuple[int, ...]:
        if len(set(self.tags[9:])) == 1:
            return self.tags[:10]
        return self.tags


Strategy = Always | Perfect | Count


def parse_strategy(text: str, min_edge: Fraction = Fraction(0), where: str = "") -> Strategy:
    """A strategy from ``perfect``, ``always`` or ``count:TAGS:TRIGGER[:running][:start=N]``.

    >>> parse_strategy("count:1,1,1,1,1,1,1,1,1,1,1,1,-12:0:running:start=-4").describe()
    'count 1,1,1,1,1,1,1,1,1,1,1,1,-12, bet at running count >= 0, starting at -4'
    >>> parse_strategy("count:1,2,3:1")
    Traceback (most recent call last):
    ...
    exactodds.errors.SimulationError: Count tags '1,2,3' have 3 entries; give 10 (A 2-9 and the ten-values) or 13 (A-K) whole numbers.
    """
    where = where or f"`play` {text!r}"
    cleaned = text.strip().lower()
    if cleaned == "perfect":
        return Perfect(min_edge)
    if cleaned == "always":
        return Always()
    if not cleaned.startswith("count:"):
        raise SimulationError(f"Unknown strategy {text.strip()!r} in {where}; {_PLAY_HELP}.")
    parts = cleaned.split(":")
    if len(parts) < 3:
        raise SimulationError(
            f"Count strategy {text.strip()!r} needs tags and a trigger, as in "
            "count:0,0,0,-1,-1,-1,-1,2,2,0:4."
        )
    tags = _tags(parts[1], where)
    trigger = _trigger(parts[2], where)
    running = False
    start = 0
    for option in parts[3:]:
        if option == "running":
            running = True
        elif option.startswith("start="):
            start = whole_number(
                option.removeprefix("start="),
                "play",
                SimulationError,
                minimum=None,
                what="Starting count",
                text=True,
            )
        else:
            raise SimulationError(
                f"Unknown count option {option!r} in {where}; use running or start=N."
            )
    return Count(tags, trigger, running, start)


def _trigger(text: str, where: str) -> Fraction:
    try:
        return parse_number(text, f"the count trigger in {where}")
    except ExactOddsError as error:
        raise SimulationError(str(error)) from None


def _tags(text: str, where: str = "`play`") -> tuple[int, ...]:
    entries = [entry.strip() for entry in text.split(",")]
    if len(entries) not in (10, 13):
        raise SimulationError(
            f"Count tags {text!r} have {len(entries)} entries; give 10 (A 2-9 and the "
            "ten-values) or 13 (A-K) whole numbers."
        )
    if not all(entry.removeprefix("-").removeprefix("+").isdigit() for entry in entries):
        raise SimulationError(
            f"Count tags {quoted(text)} are not all whole numbers; use e.g. "
            "0,0,0,-1,-1,-1,-1,2,2,0."
        )
    tags = [
        whole_number(entry, "play", SimulationError, minimum=None, what="Count tag", text=True)
        for entry in entries
    ]
    return tuple(tags + [tags[9]] * 3 if len(tags) == 10 else tags)


def parse_plays(
    plays: Iterable[str], bet_names: Sequence[str], min_edge: Fraction = Fraction(0)
) -> dict[str, Strategy]:
    """Each bet's strategy from ``--play`` values: ``STRATEGY`` for every bet, ``BET=STRATEGY``.

    A bet given no strategy plays ``perfect``; a ``BET=`` entry wins over a bare one.  A bet
    given two strategies (or two bare ones) is refused: which one would it play?

    >>> parse_plays(["tie=always", "tie=perfect"], ["tie"])
    Traceback (most recent call last):
    ...
    exactodds.errors.SimulationError: `play` 'tie=perfect' gives tie a second strategy after `play` 'tie=always'; give each bet one strategy.
    """
    everyone: Strategy = Perfect(min_edge)
    chosen: dict[str, Strategy] = {}
    given: dict[str, str] = {}
    for text in plays:
        name, separator, strategy = text.partition("=")
        if separator and not name.strip().lower().startswith("count"):
            bet = name.strip().lower()
            if bet not in bet_names:
                raise SimulationError(
                    f"Unknown bet {name.strip()!r} in `play` {text!r}; the bets simulated are "
                    f"{', '.join(bet_names)}."
                )
            chosen[bet] = parse_strategy(strategy, min_edge, f"`play` {text!r}")
        else:
            bet = ""
            everyone = parse_strategy(text, min_edge)
        if bet in given:
            whom = bet or "every bet"
            raise SimulationError(
                f"`play` {text!r} gives {whom} a second strategy after `play` {given[bet]!r}; "
                "give each bet one strategy."
            )
        given[bet] = text
    return {name: chosen.get(name, everyone) for name in bet_names}


def counted_by(strategy: Any) -> str | None:
    """What a strategy's bands count: ``true_count``, ``running_count``, or None (the EV).

    >>> counted_by(Perfect()), counted_by(Count((0,) * 13, Fraction(0), running=True))
    (None, 'running_count')
    """
    if not isinstance(strategy, Count):
        return None
    return "running_count" if strategy.running else "true_count"
