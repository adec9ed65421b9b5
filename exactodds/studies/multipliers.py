"""Multiplier laws designed for target RTPs, and inferred from published ones.

A bet's face patterns do not depend on the law (:mod:`exactodds.analysis.multipliers`), so
one count prices every law exactly: the EV is ``constant + sum of weight * E[multiple of the
pattern]``, and the mean multiple of a pattern is a polynomial in the law's probabilities of
degree at most the number of faces the pattern holds (six for the Tie).

* :func:`design_laws`: every law on a stated grid (faces drawn, multiplier values,
  probabilities in steps of ``1/steps``) whose RTP per bet falls in a target window, ranked
  by how far the worst bet sits from its window's centre (in half-widths).  The grid's size
  is checked before any work.
* :func:`infer_law`: the law's free parameter (the probability of one multiplier, the other
  multipliers keeping their proportions) implied by published RTPs.  Each bet's RTP is an
  exact polynomial in it (interpolated at ``degree + 1`` rational points); a published figure
  stands for the window of values that round to it, so each bet gives the parameters whose
  RTP rounds to its figure, and more RTPs than parameters give a consistency check: the
  parameters every bet allows.

>>> from exactodds import Shoe
>>> from exactodds.bets.multipliers import MultiplierOverlay
>>> template = MultiplierOverlay(1, {2: Fraction(1, 2), 3: Fraction(1, 2)})
>>> found = infer_law(Shoe.standard(decks=1), Rules(), template, Fraction(2),
...                   [published_rtp("player", "110%")])
>>> found.implied[0].degree
1
>>> design_laws(Shoe.standard(decks=8), Rules(), template,
...             LawGrid((5,), (Fraction(2), Fraction(3)), 100000), {})
Traceback (most recent call last):
...
exactodds.studies.multipliers.DesignError: The law grid holds 100,001 laws, more than 20,000; use fewer faces, values or steps.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from exactodds.analysis.multipliers import MultipliedBet, analyze_overlay
from exactodds.bets.catalogue import select_bets
from exactodds.bets.multipliers import MULTIPLIED_BETS, MultiplierOverlay, OverlayError
from exactodds.errors import quoted
from exactodds.numbers import decimal_string, fraction_string, parse_number
from exactodds.rules import Rules
from exactodds.shoe import Shoe

__all__ = [
    "MOST_LAWS",
    "DesignError",
    "DesignedLaw",
    "ImpliedParameter",
    "LawDesign",
    "LawGrid",
    "LawInference",
    "PublishedRTP",
    "design_laws",
    "infer_law",
    "published_rtp",
]

#: The most laws a design examines (checked before any work).
MOST_LAWS = 20_000
#: Bisection stops when a bracket is narrower than this.
_PRECISION = Fraction(1, 1 << 60)


class DesignError(OverlayError):
    """A design or inference asked for something it cannot do (exit 2 in the CLI)."""


@dataclass(frozen=True)
class PublishedRTP:
    """A bet's RTP as published, and the window of exact RTPs that round to it.

    >>> found = published_rtp("player", "98.9%")
    >>> found.low, found.high
    (Fraction(1977, 2000), Fraction(1979, 2000))
    """

    bet: str
    text: str
    value: Fraction
    low: Fraction
    high: Fraction

    def holds(self, rtp: Fraction) -> bool:
        """Whether an exact RTP rounds to the published figure (the window, ends included)."""
        return self.low <= rtp <= self.high


def published_rtp(bet: str, text: str) -> PublishedRTP:
    """*bet*'s RTP as printed (``"98.9%"``), or a window ``"98.8%:99%"``.

    A single figure stands for every RTP within half a unit of its last printed digit.

    >>> published_rtp("tie", "92.8%:93%").high
    Fraction(93, 100)
    >>> published_rtp("tie", "lots")
    Traceback (most recent call last):
    ...
    exactodds.studies.multipliers.DesignError: RTP 'lots' for tie is not a percentage; use a figure as printed, such as 98.9%, or a window such as 98.8%:99%.
    """
    if bet not in MULTIPLIED_BETS:
        raise DesignError(
            f"Bet {quoted(bet)} takes no multipliers; use {', '.join(MULTIPLIED_BETS)}."
        )
    parts = text.replace(" ", "").split(":")
    if len(parts) > 2 or not all(re.fullmatch(r"\d+(\.\d+)?%", part) for part in parts):
        raise DesignError(
            f"RTP {quoted(text)} for {bet} is not a percentage; use a figure as printed, such "
            "as 98.9%, or a window such as 98.8%:99%."
        )
    values = [parse_number(part, f"the RTP of {bet}") for part in parts]
    if len(parts) == 2:
        low, high = sorted(values)
        return PublishedRTP(bet, text, (low + high) / 2, low, high)
    decimals = len(parts[0].rstrip("%").partition(".")[2])
    half = Fraction(1, 2 * 10**decimals * 100)
    return PublishedRTP(bet, text, values[0], values[0] - half, values[0] + half)


@dataclass(frozen=True)
class LawGrid:
    """Laws to try: faces drawn, multiplier values, probabilities in steps of ``1/steps``.

    >>> LawGrid((5,), (Fraction(2), Fraction(3), Fraction(5), Fraction(8)), 10).size
    286
    """

    faces: tuple[int, ...]
    values: tuple[Fraction, ...]
    steps: int

    @property
    def size(self) -> int:
        """How many laws the grid holds."""
        parts = len(self.values)
        return len(self.faces) * math.comb(self.steps + parts - 1, parts - 1)

    def laws(self) -> list[tuple[int, dict[Fraction, Fraction]]]:
        """Every (faces, law) of the grid; a value with probability 0 is left out."""
        found = []
        for faces in self.faces:
            for split in _compositions(self.steps, len(self.values)):
                law = {
                    value: Fraction(share, self.steps)
                    for value, share in zip(self.values, split, strict=True)
                    if share
                }
                found.append((faces, law))
        return found


def _compositions(total: int, parts: int) -> list[tuple[int, ...]]:
    """Every way to write *total* as *parts* whole numbers >= 0, in order."""
    return [
        tuple(b - a - 1 for a, b in itertools.pairwise((-1, *cuts, total + parts - 1)))
        for cuts in itertools.combinations(range(total + parts - 1), parts - 1)
    ]


@dataclass(frozen=True)
class DesignedLaw:
    """One law of the grid inside every window, with its exact RTPs and its rank score."""

    faces: int
    law: tuple[tuple[Fraction, Fraction], ...]
    rtps: Mapping[str, Fraction]
    score: Fraction

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data (fractions as text)."""
        return {
            "faces": self.faces,
            "law": {fraction_string(value): fraction_string(p) for value, p in self.law},
            "rtp": {bet: fraction_string(rtp) for bet, rtp in self.rtps.items()},
            "rtp_decimal": {bet: decimal_string(rtp, 6) for bet, rtp in self.rtps.items()},
            "score": fraction_string(self.score),
        }


@dataclass(frozen=True)
class LawDesign:
    """The laws of a grid whose RTPs fall in every target window, best first."""

    grid: LawGrid
    targets: tuple[PublishedRTP, ...]
    fee: Fraction
    examined: int
    laws: tuple[DesignedLaw, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data (fractions as text)."""
        return {
            "grid": {
                "faces": list(self.grid.faces),
                "values": [fraction_string(value) for value in self.grid.values],
                "steps": self.grid.steps,
                "size": self.grid.size,
            },
            "targets": {
                target.bet: [fraction_string(target.low), fraction_string(target.high)]
                for target in self.targets
            },
            "fee": fraction_string(self.fee),
            "examined": self.examined,
            "laws": [law.to_dict() for law in self.laws],
        }


def _priced(
    shoe: Shoe, rules: Rules, template: MultiplierOverlay, bets: Sequence[str]
) -> dict[str, MultipliedBet]:
    """Each bet's face patterns, counted once (the law does not change them)."""
    chosen = select_bets(",".join(bets), rules) if bets else []
    return dict(analyze_overlay(shoe, rules, chosen, overlay=template).bets)


def _with_law(
    template: MultiplierOverlay, faces: int, law: Mapping[Fraction, Fraction]
) -> MultiplierOverlay:
    return MultiplierOverlay(faces, dict(law), template.fee, template.bets_items, template.name)


def design_laws(
    shoe: Shoe,
    rules: Rules,
    template: MultiplierOverlay,
    grid: LawGrid,
    targets: Mapping[str, PublishedRTP],
    *,
    top: int = 10,
) -> LawDesign:
    """The laws of *grid* whose RTP of every targeted bet is inside its window, best first.

    *template* gives the fee and each bet's settings (base pay, cap, off); the RTP uses the
    rules' fee if given, else the template's.  Laws are ranked by the largest distance of a
    bet's RTP from its window's centre, in half-widths (0 is every centre hit); at most *top*
    are kept.
    """
    if grid.size > MOST_LAWS:
        raise DesignError(
            f"The law grid holds {grid.size:,} laws, more than {MOST_LAWS:,}; use fewer "
            "faces, values or steps."
        )
    if any(not 1 <= faces <= template.deck for faces in grid.faces) or not grid.values:
        raise DesignError("The law grid needs faces from 1 to 52 and at least one value.")
    if any(value <= 0 for value in grid.values):
        raise DesignError("The law grid's multipliers must be above 0, such as 2 or 3.")
    priced = _priced(shoe, rules, template, list(targets))
    fee = template.fee_with(rules.fee)
    kept: list[DesignedLaw] = []
    laws = grid.laws()
    for faces, law in laws:
        overlay = _with_law(template, faces, law)
        rtps: dict[str, Fraction] = {}
        score = Fraction(0)
        for bet, target in targets.items():
            rtp = (1 + priced[bet].expected_value_with(overlay)) / (1 + fee)
            if not target.holds(rtp):
                break
            rtps[bet] = rtp
            half = (target.high - target.low) / 2
            distance = abs(rtp - (target.low + target.high) / 2)
            score = max(score, distance / half if half else Fraction(0))
        else:
            kept.append(DesignedLaw(faces, overlay.law_items, rtps, score))
    kept.sort(key=lambda found: (found.score, found.faces, found.law))
    return LawDesign(grid, tuple(targets.values()), fee, len(laws), tuple(kept[:top]))


@dataclass(frozen=True)
class ImpliedParameter:
    """What one published RTP says of the free probability ``p``.

    ``polynomial`` holds the RTP's exact coefficients in ``p`` (ascending); ``solution`` is
    the ``p`` in [0, 1] whose RTP is the published figure itself (to 2**-60), if any;
    ``intervals`` the ``p`` whose RTP rounds to the figure.
    """

    published: PublishedRTP
    polynomial: tuple[Fraction, ...]
    solution: Fraction | None
    intervals: tuple[tuple[Fraction, Fraction], ...]

    @property
    def degree(self) -> int:
        """The polynomial's degree."""
        nonzero = [index for index, value in enumerate(self.polynomial) if value]
        return nonzero[-1] if nonzero else 0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data: the exact polynomial, decimals of the solution and the intervals."""
        return {
            "bet": self.published.bet,
            "published": self.published.text,
            "polynomial": [fraction_string(value) for value in self.polynomial],
            "solution": None if self.solution is None else decimal_string(self.solution, 6),
            "intervals": [[decimal_string(a, 6), decimal_string(b, 6)] for a, b in self.intervals],
        }


@dataclass(frozen=True)
class LawInference:
    """The free probability implied by each published RTP, and the values all of them allow."""

    template: MultiplierOverlay
    free: Fraction
    fee: Fraction
    implied: tuple[ImpliedParameter, ...]
    consistent: tuple[tuple[Fraction, Fraction], ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "overlay": self.template.name,
            "faces": self.template.faces,
            "free": f"P({fraction_string(self.free)}x)",
            "fee": fraction_string(self.fee),
            "bets": [implied.to_dict() for implied in self.implied],
            "consistent": [
                [decimal_string(a, 6), decimal_string(b, 6)] for a, b in self.consistent
            ],
        }


def _family(
    template: MultiplierOverlay, free: Fraction
) -> tuple[dict[Fraction, Fraction], Fraction]:
    """The rest of the law, in the template's proportions, and its weight (1 - P(free))."""
    rest = {value: chance for value, chance in template.law_items if value != free}
    weight = sum(rest.values(), Fraction(0))
    if free <= 0:
        raise DesignError(f"The free multiplier {fraction_string(free)} is not above 0.")
    if not weight:
        raise DesignError(
            f"The law of {template.name or 'the overlay'} gives all its weight to "
            f"{fraction_string(free)}x; give the other multipliers a share, which they keep "
            "in proportion."
        )
    return {value: chance / weight for value, chance in rest.items()}, weight


def infer_law(
    shoe: Shoe,
    rules: Rules,
    template: MultiplierOverlay,
    free: Fraction,
    published: Sequence[PublishedRTP],
) -> LawInference:
    """The probability ``p`` of multiplier *free* implied by each *published* RTP.

    The other multipliers share ``1 - p`` in the template's proportions.  Each RTP is an
    exact polynomial in ``p`` (degree at most six), interpolated at rational points.
    """
    rest, _ = _family(template, free)
    priced = _priced(shoe, rules, template, [rtp.bet for rtp in published])
    fee = template.fee_with(rules.fee)
    degree = max(
        (
            max((len(pattern) for pattern in bet.linear_form[1]), default=0)
            for bet in priced.values()
        ),
        default=0,
    )
    points = [Fraction(step, max(degree, 1)) for step in range(degree + 1)]
    laws = [_law_at(free, rest, p) for p in points]
    overlays = [_with_law(template, template.faces, law) for law in laws]
    implied = []
    for target in published:
        values = [(1 + priced[target.bet].expected_value_with(o)) / (1 + fee) for o in overlays]
        polynomial = _interpolate(points, values)
        solution = _roots(polynomial, target.value)
        implied.append(
            ImpliedParameter(
                target,
                polynomial,
                solution[0] if solution else None,
                _window(polynomial, target.low, target.high),
            )
        )
    consistent: tuple[tuple[Fraction, Fraction], ...] = ((Fraction(0), Fraction(1)),)
    for found in implied:
        consistent = _intersect(consistent, found.intervals)
    return LawInference(template, free, fee, tuple(implied), consistent)


def _law_at(
    free: Fraction, rest: Mapping[Fraction, Fraction], p: Fraction
) -> dict[Fraction, Fraction]:
    law = {value: share * (1 - p) for value, share in rest.items()}
    law[free] = p
    return {value: chance for value, chance in law.items() if chance}


def _interpolate(points: Sequence[Fraction], values: Sequence[Fraction]) -> tuple[Fraction, ...]:
    """The polynomial through (points, values), coefficients ascending (Newton's form)."""
    coefficients = list(values)
    count = len(points)
    for level in range(1, count):
        for index in range(count - 1, level - 1, -1):
            coefficients[index] = (coefficients[index] - coefficients[index - 1]) / (
                points[index] - points[index - level]
            )
    result = [Fraction(0)] * count
    for index in range(count - 1, -1, -1):  # Horner on the Newton basis
        shifted = [Fraction(0), *result[:-1]]
        result = [s - points[index] * r for s, r in zip(shifted, result, strict=True)]
        result[0] += coefficients[index]
    return tuple(result)


def _value(polynomial: Sequence[Fraction], p: Fraction) -> Fraction:
    total = Fraction(0)
    for coefficient in reversed(polynomial):
        total = total * p + coefficient
    return total


def _roots(polynomial: Sequence[Fraction], level: Fraction) -> list[Fraction]:
    """The p in [0, 1] where the polynomial crosses *level* (sign changes on a fine grid)."""
    grid = [Fraction(step, 512) for step in range(513)]
    signs = [_value(polynomial, p) - level for p in grid]
    roots = []
    for index, (a, b) in enumerate(itertools.pairwise(signs)):
        if a == 0:
            roots.append(grid[index])
        elif a * b < 0:
            low, high = grid[index], grid[index + 1]
            while high - low > _PRECISION:
                middle = (low + high) / 2
                if (_value(polynomial, middle) - level) * a > 0:
                    low = middle
                else:
                    high = middle
            roots.append((low + high) / 2)
    if signs[-1] == 0:
        roots.append(grid[-1])
    return roots


def _window(
    polynomial: Sequence[Fraction], low: Fraction, high: Fraction
) -> tuple[tuple[Fraction, Fraction], ...]:
    """The intervals of p in [0, 1] whose value lies in [low, high]."""
    cuts = sorted({Fraction(0), Fraction(1), *_roots(polynomial, low), *_roots(polynomial, high)})
    intervals: list[tuple[Fraction, Fraction]] = []
    for a, b in itertools.pairwise(cuts):
        if low <= _value(polynomial, (a + b) / 2) <= high:
            if intervals and intervals[-1][1] == a:
                intervals[-1] = (intervals[-1][0], b)
            else:
                intervals.append((a, b))
    return tuple(intervals)


def _intersect(
    first: Sequence[tuple[Fraction, Fraction]], second: Sequence[tuple[Fraction, Fraction]]
) -> tuple[tuple[Fraction, Fraction], ...]:
    found = []
    for a, b in first:
        for c, d in second:
            low, high = max(a, c), min(b, d)
            if low < high:
                found.append((low, high))
    return tuple(found)
