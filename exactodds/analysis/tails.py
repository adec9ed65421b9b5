"""The result of N independent rounds: its exact distribution, tails, percentiles and bounds.

A bet's net result per round takes a few values ``x / D`` (``D`` the common
denominator of its pays) with exact probabilities.  After ``N`` independent
rounds of one unit each the player's total is ``S = k / D`` with ``P(S = k/D)``
the ``N``-fold convolution of the one-round distribution; the house's *win as a
share of the handle* is ``W = -S / N``.

:func:`session_distribution` computes it two ways:

* **exact** (small ``N``): the one-round counts as an integer polynomial raised
  to the ``N``-th power by repeated squaring, every probability an integer over
  ``total**N``: the figures are exact fractions.
* **fft** (large ``N``): a float convolution through the characteristic
  function, with a proven bound ``error_bound`` on every probability of a set of
  outcomes it reports (a tail, a CDF value, the chance of being ahead).  The
  bound, for a window of ``L = 2**n`` lattice points and ``u = 2**-53``:

  1. The window holds every ``k`` with ``|k - N mean| <= t``; Hoeffding's
     inequality bounds what lies outside by ``tau = 2 exp(-2 t**2 / (N (b-a)**2))``
     (``a``, ``b`` the smallest and largest one-round results).  When the window
     covers every attainable total, ``tau = 0``.
  2. ``phi(w_j) = sum_i p_i exp(-2 pi i j x_i / L)`` is evaluated directly, each
     phase reduced exactly in integers (``j x_i mod L``, so ``r / L`` is exact).
     The angle ``fl(2 pi) * (r / L)`` is within ``4 pi u`` (two roundings); with
     cos and sin within 8 ulp (numpy's own SIMD versions claim 4, glibc's 1) each
     unit phasor is within ``sqrt(2) (4 pi + 16) u < 41 u``; ``p_i`` is correctly
     rounded (``u``), the product rounds once per component (``u``), and the
     sum of the ``m`` terms adds ``sqrt(2) gamma_(m-1)``: each value is within
     ``delta = (48 + 2m) u`` of the true one.
  3. ``phi**N`` by repeated squaring, each complex product within ``4u``
     relative (Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd
     ed., Lemma 3.5 gives ``sqrt(2) gamma_2``): since ``|phi| <= 1``, induction
     over the addition chain gives ``|computed - phi**N| <= A =
     (1 + delta)**N (1 + 4u)**(N-1) - 1``.
  4. The inverse FFT of the exact ``phi**N`` is the pmf folded modulo ``L``
     (mass outside the window lands inside, at most ``tau`` in all).  The
     inverse DFT divides 2-norms by ``sqrt(L)``, so step 3 moves the output by
     at most ``A`` in 2-norm; the FFT's own rounding adds at most ``F =
     log2(L) eta / (1 - log2(L) eta) (1 + A)``, ``eta = 10u`` (Higham Theorem
     24.2 with twiddles within ``4u``; numpy's pocketfft is taken to meet the
     radix-2 bound).
  5. A sum over any set ``J`` of window points is then within ``sqrt(L) (A + F)``
     of the folded sum (Cauchy-Schwarz), which is within ``tau`` of the true
     sum over ``J``, and the mass outside the window adds at most ``tau``; the
     float summation adds ``gamma_L (1 + sqrt(L) (A + F))``.  So every reported
     probability is within ``error_bound = sqrt(L) (A + F) (1 + gamma_L) +
     gamma_L + 2 tau`` of the exact value.

  The tests check the bound against the exact distribution.

>>> from fractions import Fraction
>>> coin = {Fraction(-1): Fraction(1, 2), Fraction(1): Fraction(1, 2)}
>>> two = session_distribution(coin, 2)
>>> two.method, two.player_ahead().value, two.even().value
('exact', Fraction(1, 4), Fraction(1, 2))
>>> session_distribution(coin, 0)
Traceback (most recent call last):
...
exactodds.errors.ExactOddsError: Number of rounds 0 for `rounds` is not valid; use a whole number of at least 1.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, reduce
from typing import Any

from ..errors import ExactOddsError
from ..inputs import whole_number

__all__ = [
    "EXACT_WORK_LIMIT",
    "MAX_LATTICE",
    "Bounded",
    "HourlyFigures",
    "RootEnd",
    "SessionDistribution",
    "SessionTails",
    "floor_of",
    "one_in",
    "session_distribution",
    "session_tails",
]

#: Exact convolution while (lattice points reached)**2 * N * bits of the total stays below this
#: (about a tenth of a second; Banker: up to 40 rounds, Tie: up to 150).
EXACT_WORK_LIMIT = 4 * 10**9
#: Most lattice points the float convolution uses (a window of 2**22 points).
MAX_LATTICE = 2**22
#: What the float window leaves outside, at most (Hoeffding), before the window covers all.
WINDOW_TAIL = 1e-18
_UNIT = 2.0**-53


@dataclass(frozen=True)
class RootEnd:
    """The real number ``center + sign * sqrt(radicand)`` (an end of a normal band), held exactly.

    >>> RootEnd(Fraction(1), Fraction(2), -1).floor_times(10)  # floor(10 - 10 sqrt 2)
    -5
    """

    center: Fraction
    radicand: Fraction
    sign: int

    def floor_times(self, scale: int) -> int:
        """``floor(scale * self)``, exactly."""
        center = self.center * scale
        radicand = self.radicand * scale * scale
        root = math.isqrt(radicand.numerator // radicand.denominator)  # floor(sqrt(r)) or below
        guess = math.floor(center + self.sign * root)
        # Step to the exact floor: n <= center + sign*sqrt(r)  <=>  sign*(n - center) <= ... .
        while not _at_most(guess, center, radicand, self.sign):
            guess -= 1
        while _at_most(guess + 1, center, radicand, self.sign):
            guess += 1
        return guess


def _at_most(number: int, center: Fraction, radicand: Fraction, sign: int) -> bool:
    """Whether ``number <= center + sign * sqrt(radicand)``, exactly."""
    gap = number - center  # want gap <= sign * sqrt(radicand)
    if sign > 0:
        return gap <= 0 or gap * gap <= radicand
    return gap <= 0 and gap * gap >= radicand


def floor_of(value: Fraction | RootEnd, scale: int) -> int:
    """``floor(scale * value)`` for a fraction or a :class:`RootEnd`.

    >>> floor_of(Fraction(-3, 2), 1), floor_of(RootEnd(Fraction(0), Fraction(4), 1), 3)
    (-2, 6)
    """
    if isinstance(value, RootEnd):
        return value.floor_times(scale)
    return math.floor(value * scale)


@dataclass(frozen=True)
class Bounded:
    """A probability: ``value`` exact when ``error_bound`` is 0, else within ``error_bound``.

    >>> Bounded(Fraction(1, 3), 0.0).exact
    True
    """

    value: Fraction
    error_bound: float

    @property
    def exact(self) -> bool:
        """Whether ``value`` is the exact probability."""
        return self.error_bound == 0


@dataclass(frozen=True)
class SessionDistribution:
    """The player's total after ``rounds`` rounds: ``P(S = k / denominator)`` for ``k`` from ``low``.

    ``weights[i]`` is the probability of ``k = low + i``: an integer over
    ``scale`` (exact method, a tuple) or a float (fft method, a numpy array,
    ``scale`` 1); every probability a method reports is within
    ``error_bound`` (0 when exact).
    """

    rounds: int
    denominator: int
    low: int
    weights: Any
    scale: int
    method: str
    error_bound: float
    smallest: int
    largest: int

    def _mass(self, first: int, last: int) -> Bounded:
        """P(first <= k <= last)."""
        start = max(first - self.low, 0)
        stop = min(last - self.low + 1, len(self.weights))
        if stop <= start:
            return Bounded(Fraction(0), self.error_bound)
        if self.method == "exact":
            return Bounded(Fraction(sum(self.weights[start:stop]), self.scale), 0.0)
        total = float(self.weights[start:stop].sum())  # pairwise: within the gamma_L term
        return Bounded(Fraction(min(max(total, 0.0), 1.0)), self.error_bound)

    @cached_property
    def _upper_tails(self) -> Any:
        """fft: ``P(S >= low + i)`` for every i, summed once from the top."""
        import numpy

        return numpy.cumsum(self.weights[::-1])[::-1]

    def player_ahead(self) -> Bounded:
        """P(the player's total is above 0)."""
        return self._mass(1, self.largest)

    def even(self) -> Bounded:
        """P(the player's total is exactly 0)."""
        return self._mass(0, 0)

    def player_behind(self) -> Bounded:
        """P(the player's total is below 0)."""
        return self._mass(self.smallest, -1)

    def win_within(self, low: Fraction | RootEnd, high: Fraction | RootEnd) -> Bounded:
        """P(low <= W <= high) for the house's win per unit of handle ``W = -S / rounds``."""
        scale = self.rounds * self.denominator
        # low <= -k/scale <= high  <=>  -high*scale <= k <= -low*scale
        first = -floor_of(high, scale)
        last = _ceil_negated(low, scale)
        return self._mass(first, last)

    def win_percentile(self, level: Fraction) -> tuple[Fraction, Fraction]:
        """The *level* quantile of ``W`` (smallest ``w`` with ``P(W <= w) >= level``).

        Exact: both ends equal.  fft: the quantile lies between the two ends
        (the ends differ only where the error bound leaves the step unsure).
        """
        if not 0 < level < 1:
            raise ExactOddsError(f"Percentile level {level} is not valid; use a level in (0, 1).")
        scale = self.rounds * self.denominator
        # P(W <= -k/scale) = P(S >= k): the largest k whose upper tail reaches level.
        if self.method == "exact":
            target = level * self.scale
            running = 0
            for index in range(len(self.weights) - 1, -1, -1):
                running += self.weights[index]
                if running >= target:
                    value = Fraction(-(self.low + index), scale)
                    return value, value
            raise AssertionError("the probabilities add up to less than 1")  # pragma: no cover
        import numpy

        tails = self._upper_tails
        bound = self.error_bound
        surely = numpy.nonzero(tails - bound >= float(level))[0]
        maybe = numpy.nonzero(tails + bound >= float(level))[0]
        top = self.low + int(maybe[-1]) if len(maybe) else self.smallest
        bottom = self.low + int(surely[-1]) if len(surely) else self.smallest
        return Fraction(-top, scale), Fraction(-bottom, scale)


def _ceil_negated(value: Fraction | RootEnd, scale: int) -> int:
    """``floor(-value * scale)``."""
    if isinstance(value, RootEnd):
        return RootEnd(-value.center, value.radicand, -value.sign).floor_times(scale)
    return math.floor(-value * scale)


def _lattice(distribution: Mapping[Fraction, Fraction]) -> tuple[int, list[int], list[int], int]:
    """(denominator D, results * D, integer weights, their total) of a one-round distribution."""
    results = sorted(distribution)
    denominator = reduce(math.lcm, (Fraction(r).denominator for r in results), 1)
    common = reduce(math.lcm, (Fraction(p).denominator for p in distribution.values()), 1)
    weights = [int(distribution[r] * common) for r in results]
    return denominator, [int(r * denominator) for r in results], weights, sum(weights)


def session_distribution(
    distribution: Mapping[Fraction, Fraction], rounds: int, method: str | None = None
) -> SessionDistribution:
    """The distribution of the total of *rounds* independent rounds of *distribution*.

    *method* is ``"exact"``, ``"fft"`` or ``None`` (exact while the work is
    small, see :data:`EXACT_WORK_LIMIT`).  A lattice too fine for the float
    window (more than :data:`MAX_LATTICE` points) is refused.

    >>> die = {Fraction(n): Fraction(1, 6) for n in range(1, 7)}
    >>> exact = session_distribution(die, 2)
    >>> exact.weights[5], exact.scale  # seven, in 6 of 36 ways
    (6, 36)
    >>> approximate = session_distribution(die, 2, "fft")
    >>> bool(abs(approximate.weights[5] - 1 / 6) <= approximate.error_bound)
    True
    """
    whole_number(rounds, "rounds", minimum=1, what="Number of rounds")
    denominator, values, weights, total = _lattice(distribution)
    if total <= 0:
        raise ExactOddsError("The one-round distribution is empty; there is nothing to convolve.")
    smallest, largest = values[0] * rounds, values[-1] * rounds
    reach = min(largest - smallest + 1, math.comb(rounds + len(values) - 1, len(values) - 1))
    if method is None:
        work = reach * reach * rounds * total.bit_length()
        method = "exact" if work <= EXACT_WORK_LIMIT else "fft"
    if method == "exact":
        _check_lattice(largest - smallest + 1, rounds, denominator)
        counts = _power(
            {value: weight for value, weight in zip(values, weights, strict=True)}, rounds
        )
        low = min(counts)
        dense = [counts.get(k, 0) for k in range(low, max(counts) + 1)]
        return SessionDistribution(
            rounds, denominator, low, tuple(dense), total**rounds, "exact", 0.0, smallest, largest
        )
    if method != "fft":
        raise ExactOddsError(f"Method {method!r} is not valid; use exact or fft.")
    return _fft(denominator, values, weights, total, rounds)


def _check_lattice(size: int, rounds: int, denominator: int) -> None:
    """Refuse, before any work, a distribution held on more than :data:`MAX_LATTICE` points."""
    if size > MAX_LATTICE:
        raise ExactOddsError(
            f"The exact tails after {rounds:,} rounds need {size:,} lattice points (the pays' "
            f"common denominator is {denominator:,}); at most {MAX_LATTICE:,} are computed. Use "
            "fewer rounds, or pays with a smaller common denominator."
        )


def _power(polynomial: dict[int, int], exponent: int) -> dict[int, int]:
    """*polynomial* (exponent -> integer weight) to the *exponent*-th power, exactly."""
    result: dict[int, int] = {0: 1}
    square = polynomial
    while True:
        if exponent & 1:
            result = _multiply(result, square)
        exponent >>= 1
        if not exponent:
            return result
        square = _multiply(square, square)


def _multiply(first: dict[int, int], second: dict[int, int]) -> dict[int, int]:
    product: dict[int, int] = {}
    for key, weight in first.items():
        for other, other_weight in second.items():
            at = key + other
            product[at] = product.get(at, 0) + weight * other_weight
    return product


def _fft(
    denominator: int, values: list[int], weights: list[int], total: int, rounds: int
) -> SessionDistribution:
    import numpy

    spread = values[-1] - values[0]
    smallest, largest = values[0] * rounds, values[-1] * rounds
    mean = Fraction(sum(v * w for v, w in zip(values, weights, strict=True)), total) * rounds
    tail = 0.0
    first, last = smallest, largest
    if spread and largest - smallest + 1 > 1024:
        reach = spread * math.sqrt(rounds * math.log(2 / WINDOW_TAIL) / 2) * 1.001 + 1
        first = max(smallest, math.floor(mean - reach))
        last = min(largest, math.ceil(mean + reach))
        if first > smallest or last < largest:
            # Hoeffding with the reach actually used (the window holds every |k - mean| <= reach).
            tail = 2 * math.exp(-2 * reach * reach / (rounds * spread * spread))
    width = last - first + 1
    size = 1 << max(width - 1, 1).bit_length()
    _check_lattice(size, rounds, denominator)
    frequencies = numpy.arange(size, dtype=numpy.int64)
    transform = numpy.zeros(size, dtype=numpy.complex128)
    for value, weight in zip(values, weights, strict=True):
        phase = (frequencies * (value % size)) % size
        angle = (2 * math.pi) * (phase / size)
        transform += (weight / total) * (numpy.cos(angle) - 1j * numpy.sin(angle))
    powered = numpy.ones(size, dtype=numpy.complex128)
    exponent = rounds
    while True:
        if exponent & 1:
            powered = powered * transform
        exponent >>= 1
        if not exponent:
            break
        transform = transform * transform
    folded = numpy.fft.ifft(powered).real
    window = folded[(first + numpy.arange(width)) % size]
    bound = _fft_bound(len(values), rounds, size, tail)
    return SessionDistribution(
        rounds, denominator, first, window, 1, "fft", bound, smallest, largest
    )


def _fft_bound(results: int, rounds: int, size: int, tail: float) -> float:
    """The proven bound of the module docstring, rounded up generously."""
    delta = (48 + 2 * results) * _UNIT
    power = math.expm1(rounds * math.log1p(delta) + (rounds - 1) * math.log1p(4 * _UNIT))
    levels = math.log2(size) * 10 * _UNIT
    rounding = levels / (1 - levels) * (1 + power)
    gamma = size * _UNIT / (1 - size * _UNIT)
    spread = math.sqrt(size) * (power + rounding)
    return (spread * (1 + gamma) + gamma + 2 * tail) * 1.01


@dataclass(frozen=True)
class SessionTails:
    """The figures of one session length: who is ahead, percentiles of ``W``, band coverage.

    ``percentiles`` pairs each level with the (low, high) ends of the quantile
    of the house's win per unit of handle (equal when exact); ``coverage``
    pairs each band (as given to :func:`session_tails`) with the probability
    that ``W`` lands inside it.
    """

    rounds: int
    method: str
    error_bound: float
    player_ahead: Bounded
    even: Bounded
    player_behind: Bounded
    percentiles: tuple[tuple[Fraction, tuple[Fraction, Fraction]], ...]
    coverage: tuple[Bounded, ...]


def session_tails(
    distribution: Mapping[Fraction, Fraction],
    rounds: int,
    levels: Sequence[Fraction],
    bands: Sequence[tuple[Fraction | RootEnd, Fraction | RootEnd]] = (),
) -> SessionTails:
    """:class:`SessionTails` after *rounds* rounds of *distribution*.

    >>> coin = {Fraction(-1): Fraction(1, 2), Fraction(1): Fraction(1, 2)}
    >>> tails = session_tails(coin, 4, [Fraction(1, 2)], [(Fraction(-1, 2), Fraction(1, 2))])
    >>> tails.player_ahead.value, tails.percentiles[0][1], tails.coverage[0].value
    (Fraction(5, 16), (Fraction(0, 1), Fraction(0, 1)), Fraction(7, 8))
    """
    session = session_distribution(distribution, rounds)
    return SessionTails(
        rounds=rounds,
        method=session.method,
        error_bound=session.error_bound,
        player_ahead=session.player_ahead(),
        even=session.even(),
        player_behind=session.player_behind(),
        percentiles=tuple((level, session.win_percentile(level)) for level in levels),
        coverage=tuple(session.win_within(low, high) for low, high in bands),
    )


def one_in(probability: Fraction) -> Fraction | None:
    """The ``X`` of "1 in X": ``1 / probability`` (``None`` for an outcome that never happens).

    >>> one_in(Fraction(2, 21)), one_in(Fraction(0))
    (Fraction(21, 2), None)
    """
    return None if probability == 0 else 1 / probability


@dataclass(frozen=True)
class HourlyFigures:
    """What one player at ``average_bet`` a round, ``rounds_per_hour`` rounds an hour, means.

    ``theoretical_win`` (theo) is the house's expected win an hour, exact;
    ``variance`` the variance of the house's win an hour, so the SD an hour
    is its square root.

    >>> hourly = HourlyFigures(Fraction(80), Fraction(25), Fraction(1, 100), Fraction(1))
    >>> hourly.theoretical_win, hourly.variance
    (Fraction(20, 1), Fraction(50000, 1))
    """

    rounds_per_hour: Fraction
    average_bet: Fraction
    house_edge: Fraction
    round_variance: Fraction

    @property
    def handle(self) -> Fraction:
        """The money staked an hour: rounds per hour * average bet.

        >>> HourlyFigures(Fraction(80), Fraction(25), Fraction(1, 100), Fraction(1)).handle
        Fraction(2000, 1)
        """
        return self.rounds_per_hour * self.average_bet

    @property
    def theoretical_win(self) -> Fraction:
        """Theo an hour: rounds per hour * average bet * house edge."""
        return self.rounds_per_hour * self.average_bet * self.house_edge

    @property
    def variance(self) -> Fraction:
        """Variance of the win an hour: rounds per hour * (average bet)**2 * variance."""
        return self.rounds_per_hour * self.average_bet**2 * self.round_variance
