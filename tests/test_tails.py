"""The distribution of N rounds (analysis/tails.py) against brute force over exact rationals.

- Exact method: every probability equals the sum over all ``outcomes**N`` sequences of rounds
  (itertools.product, Fractions), for real bets on a full shoe and for random small
  distributions (hypothesis); percentiles and band probabilities are read off that brute force.
- fft method: every probability it reports (each point, each tail, ahead/even/behind) is within
  its stated error bound of the exact value, at N where both methods run.
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds import Rules, Shoe
from exactodds.analysis.single import analyze
from exactodds.analysis.tails import RootEnd, floor_of, session_distribution
from exactodds.bets.catalogue import select_bets
from exactodds.errors import ExactOddsError


@pytest.fixture(scope="module")
def distributions() -> dict[str, dict[Fraction, Fraction]]:
    analysis = analyze(Shoe.standard(decks=8), Rules(), select_bets("banker,tie,dragon7,lucky6"))
    return {name: bet.distribution for name, bet in analysis.bets.items()}


def brute_force(distribution: dict[Fraction, Fraction], rounds: int) -> dict[Fraction, Fraction]:
    """P(total = s) by listing every sequence of *rounds* results."""
    totals: dict[Fraction, Fraction] = defaultdict(Fraction)
    for sequence in itertools.product(distribution.items(), repeat=rounds):
        totals[sum((result for result, _ in sequence), Fraction(0))] += math.prod(
            (probability for _, probability in sequence), start=Fraction(1)
        )
    return dict(totals)


def exact_points(session: object) -> dict[Fraction, Fraction]:
    from exactodds.analysis.tails import SessionDistribution

    assert isinstance(session, SessionDistribution)
    return {
        Fraction(session.low + index, session.denominator): Fraction(weight, session.scale)
        for index, weight in enumerate(session.weights)
        if weight
    }


@pytest.mark.parametrize("rounds", [1, 2, 3, 4])
@pytest.mark.parametrize("name", ["banker", "tie", "dragon7", "lucky6"])
def test_exact_convolution_is_the_brute_force_sum(
    distributions: dict[str, dict[Fraction, Fraction]], name: str, rounds: int
) -> None:
    distribution = distributions[name]
    expected = brute_force(distribution, rounds)
    session = session_distribution(distribution, rounds, "exact")
    assert exact_points(session) == {total: p for total, p in expected.items() if p}
    assert session.player_ahead().value == sum(p for s, p in expected.items() if s > 0)
    assert session.even().value == expected.get(Fraction(0), Fraction(0))
    assert session.player_behind().value == sum(p for s, p in expected.items() if s < 0)
    # The house's win per unit of handle, W = -S/N: its percentiles by brute force.
    wins = sorted((-total / rounds, p) for total, p in expected.items())
    for level in (Fraction(1, 100), Fraction(1, 4), Fraction(1, 2), Fraction(99, 100)):
        running, quantile = Fraction(0), None
        for win, probability in wins:
            running += probability
            if running >= level:
                quantile = win
                break
        assert session.win_percentile(level) == (quantile, quantile)


@settings(max_examples=40, deadline=None)
@given(
    st.dictionaries(
        st.fractions(min_value=-5, max_value=30, max_denominator=20),
        st.integers(min_value=1, max_value=50),
        min_size=1,
        max_size=4,
    ),
    st.integers(min_value=1, max_value=4),
)
def test_any_small_distribution_by_brute_force(weights: dict[Fraction, int], rounds: int) -> None:
    total = sum(weights.values())
    distribution = {result: Fraction(weight, total) for result, weight in weights.items()}
    expected = brute_force(distribution, rounds)
    session = session_distribution(distribution, rounds)
    assert session.method == "exact"
    assert exact_points(session) == {s: p for s, p in expected.items() if p}
    fft = session_distribution(distribution, rounds, "fft")
    for total_value, probability in expected.items():
        index = int(total_value * fft.denominator) - fft.low
        assert abs(fft.weights[index] - probability) <= fft.error_bound


@pytest.mark.parametrize(("name", "rounds"), [("banker", 30), ("tie", 120), ("dragon7", 60)])
def test_fft_probabilities_are_within_the_stated_bound(
    distributions: dict[str, dict[Fraction, Fraction]], name: str, rounds: int
) -> None:
    distribution = distributions[name]
    exact = session_distribution(distribution, rounds, "exact")
    fft = session_distribution(distribution, rounds, "fft")
    assert fft.method == "fft" and 0 < fft.error_bound < 1e-9
    assert exact.denominator == fft.denominator
    worst = 0.0
    for index, weight in enumerate(exact.weights):
        at = exact.low + index - fft.low  # points outside the float window count as 0
        estimate = fft.weights[at] if 0 <= at < len(fft.weights) else 0.0
        worst = max(worst, abs(float(Fraction(weight, exact.scale) - Fraction(estimate))))
    assert worst <= fft.error_bound
    for tail in ("player_ahead", "even", "player_behind"):
        exact_value = getattr(exact, tail)().value
        estimate = getattr(fft, tail)()
        assert abs(float(estimate.value - exact_value)) <= estimate.error_bound
    for level in (Fraction(1, 20), Fraction(1, 2), Fraction(19, 20)):
        low, high = fft.win_percentile(level)
        assert low <= exact.win_percentile(level)[0] <= high


def test_band_probability_with_irrational_ends_by_brute_force(
    distributions: dict[str, dict[Fraction, Fraction]],
) -> None:
    distribution = distributions["banker"]
    rounds = 3
    expected = brute_force(distribution, rounds)
    session = session_distribution(distribution, rounds)
    low = RootEnd(Fraction(1, 100), Fraction(1, 3), -1)  # 0.01 - sqrt(1/3)
    high = RootEnd(Fraction(1, 100), Fraction(1, 3), 1)
    inside = sum(
        (p for s, p in expected.items() if (-s / rounds - Fraction(1, 100)) ** 2 <= Fraction(1, 3)),
        Fraction(0),
    )
    assert session.win_within(low, high).value == inside
    assert session.win_within(Fraction(-1), Fraction(1)).value == 1


@settings(max_examples=80, deadline=None)
@given(
    st.fractions(min_value=-20, max_value=20, max_denominator=50),
    st.fractions(min_value=0, max_value=50, max_denominator=50),
    st.sampled_from([-1, 1]),
    st.integers(min_value=1, max_value=10_000),
)
def test_floor_of_a_root_end_is_exact(
    center: Fraction, radicand: Fraction, sign: int, scale: int
) -> None:
    value = floor_of(RootEnd(center, radicand, sign), scale)

    # value <= scale * (center + sign sqrt r) < value + 1, checked by squaring.
    def at_most(number: Fraction) -> bool:
        gap = number / scale - center
        return (
            (gap <= 0 or gap * gap <= radicand)
            if sign > 0
            else (gap <= 0 and gap * gap >= radicand)
        )

    assert at_most(Fraction(value)) and not at_most(Fraction(value + 1))


def test_large_n_runs_in_float_and_says_so(
    distributions: dict[str, dict[Fraction, Fraction]],
) -> None:
    session = session_distribution(distributions["banker"], 1_000_000)
    assert session.method == "fft" and session.error_bound < 1e-5
    total = session.player_ahead().value + session.even().value + session.player_behind().value
    assert abs(float(total) - 1) <= 3 * session.error_bound


@pytest.mark.parametrize("method", [None, "exact", "fft"])
def test_a_lattice_too_fine_is_refused_before_the_work(method: str | None) -> None:
    # Dragon 7 paying 1/10^12 over 10 rounds: a lattice of 10^13 points, refused at once (the
    # exact path used to fill memory laying its sparse result out densely).
    tiny = Fraction(1, 10**12)
    distribution = {
        Fraction(-1): Fraction(1, 40),
        tiny: Fraction(38, 40),
        Fraction(0): Fraction(1, 40),
    }
    with pytest.raises(ExactOddsError, match=r"need 1.* lattice points .* at most 4,194,304"):
        session_distribution(distribution, 10, method)
