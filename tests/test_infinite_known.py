"""Known cards and edge sorting on an infinite shoe (issue 36, item 6's leftovers).

With replacement a known card fixes its position and leaves the other positions independent
draws from the full shoe; edge sorting's information (the class of the first cards) likewise.
Checked three ways, as ``test_infinite.py`` checks the walk without known cards:

* a brute force over physical cards drawn with replacement (hypothesis, small compositions);
* the limit of the finite shoes: with ``k`` cards known a count of an ``n``-deck shoe is a
  polynomial of degree ``6 - k`` in ``n`` whose leading coefficient is the count with
  replacement (interpolated exactly through ``7 - k`` deck counts); edge sorting's pattern
  numerators are polynomials of degree 6 likewise;
* invariants: averaging the known-card counts over the known card's law gives the counts
  with nothing known, exactly; averaging a pattern's EVs over the patterns gives the bet's EV;
  a one-card sort's patterns are the known-card figures of the values they hold.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from fractions import Fraction

import pytest
from budget import THOROUGH, budgeted, thorough
from cli_runner import run, run_ok
from hypothesis import given
from hypothesis import strategies as st
from test_infinite import leading_coefficient
from test_known import FEW_RANKS, _kinds, _mix, _nonzero, _physical_cards, _play, tableaux

from exactodds import Card, Rules, Shoe, Suit, Tableau, analyze, enumerate_rounds
from exactodds.advantage.edgesort import _evaluate, _high_classes, _tuples
from exactodds.analysis.known import analyze_known
from exactodds.bets.bet import main_bets
from exactodds.engine.known import KnownCardError, enumerate_known

INFINITE = Shoe.infinite_decks()


# --- Brute force with replacement ------------------------------------------------------------


@st.composite
def small_infinite_shoes_with_known_cards(draw: st.DrawFn) -> tuple[Shoe, dict[int, Card]]:
    """1-4 kinds of card (copies weigh more), drawn with replacement; 0-3 positions known."""
    suited = draw(st.booleans())
    kinds = draw(
        st.lists(
            st.tuples(st.sampled_from(FEW_RANKS), st.sampled_from(list(Suit))),
            min_size=1,
            max_size=4,
        )
    )
    finite = Shoe.from_mapping(
        {f"{rank.symbol}{suit.symbol}": n for (rank, suit), n in Counter(kinds).items()}
    )
    shoe = Shoe(finite.rank_counts, finite.suit_counts if suited else None, infinite=True)
    how_many = draw(st.integers(0, 3))
    positions = draw(st.permutations(range(1, 7)))[:how_many]
    keep_suits = suited and draw(st.booleans())
    known = {
        position: Card(rank, suit if keep_suits else None)
        for position, (rank, suit) in zip(
            positions, [draw(st.sampled_from(kinds)) for _ in positions], strict=True
        )
    }
    return shoe, known


def brute_force_known(
    shoe: Shoe, tableau: Tableau, known: dict[int, Card], suits: bool
) -> Counter[object]:
    """Every six draws with replacement, each any physical card, the known ones matching."""
    cards = _physical_cards(Shoe(shoe.rank_counts, shoe.suit_counts))
    counts: Counter[object] = Counter()
    for sequence in itertools.product(cards, repeat=6):
        if all(
            sequence[position - 1].rank == card.rank
            and (card.suit is None or sequence[position - 1].suit == card.suit)
            for position, card in known.items()
        ):
            counts[_play(sequence, tableau, suits)] += 1
    return counts


@budgeted(24, deadline=None)
@given(case=small_infinite_shoes_with_known_cards(), tableau=tableaux())
def test_known_cards_with_replacement_agree_with_brute_force(
    case: tuple[Shoe, dict[int, Card]], tableau: Tableau
) -> None:
    shoe, known = case
    table = enumerate_known(shoe, tableau, known)
    assert table.total == shoe.cards ** (6 - len(known))
    assert table.suits_known == (shoe.suits_known and all(c.suit for c in known.values()))
    reference = brute_force_known(shoe, tableau, known, table.suits_known)
    reference_total = sum(reference.values())
    # The conditional probabilities agree exactly: count / total on both sides.
    assert set(reference) == set(_nonzero(table))
    for summary, count in _nonzero(table).items():
        assert reference[summary] * table.total == count * reference_total


@budgeted(24, deadline=None)
@given(case=small_infinite_shoes_with_known_cards(), position=st.integers(1, 6), tableau=tableaux())
def test_averaging_over_the_known_cards_law_gives_the_unknown_counts(
    case: tuple[Shoe, dict[int, Card]], position: int, tableau: Tableau
) -> None:
    """Sum over kinds c of weight(c) * table(c at position) = table with nothing known."""
    shoe, _ = case
    tables = [(weight, enumerate_known(shoe, tableau, {position: c})) for weight, c in _kinds(shoe)]
    whole = enumerate_rounds(shoe, tableau)
    assert {s: c for s, c in _mix(tables).items() if c} == _nonzero(whole)
    assert sum(weight * table.total for weight, table in tables) == whole.total == shoe.cards**6


@thorough  # 13 known-card walks of the full shoe; small shoes are checked by default
def test_averaging_identity_on_the_infinite_shoe() -> None:
    """The full infinite shoe: each rank one draw in 13, at the Player's first card."""
    plain = INFINITE.without_suits()
    tables = [
        (4, enumerate_known(INFINITE, None, {1: card.rank.symbol})) for _, card in _kinds(plain)
    ]
    assert _mix(tables) == Counter(enumerate_rounds(plain).counts)


# --- The limit of the finite shoes -----------------------------------------------------------


@pytest.mark.parametrize(
    "known",
    [
        {3: "KS", 6: "4"},
        pytest.param({1: "9"}, marks=THOROUGH),
        pytest.param({5: "7"}, marks=THOROUGH),
        pytest.param({1: "2", 2: "K", 3: "K", 4: "5"}, marks=THOROUGH),
    ],
)
def test_known_counts_are_the_leading_coefficients_of_the_finite_ones(
    known: dict[int, str],
) -> None:
    """With k cards known, each count is of degree 6 - k in the decks: 7 - k points fix it."""
    free = 6 - len(known)
    infinite = enumerate_known(INFINITE, None, known)
    assert infinite.total == 52**free
    finite = {d: enumerate_known(Shoe.standard(d), None, known).counts for d in range(1, free + 2)}
    summaries = set(infinite.counts).union(*finite.values())
    assert len(summaries) > 10
    for summary in summaries:
        points = {decks: counts.get(summary, 0) for decks, counts in finite.items()}
        assert leading_coefficient(points) == infinite.counts.get(summary, 0), summary


@thorough  # seven full edge-sorting walks, about 20 s
def test_edge_sorting_numerators_are_the_leading_coefficients() -> None:
    """Each pattern's weight and net pay numerators, over 52^6 (or n(n-1)...(n-5)) sequences."""
    rules, bets = Rules(), tuple(main_bets(Rules()))
    high = _high_classes("6789", "value")

    def patterns(shoe: Shoe) -> list[int]:
        tuples = _tuples(shoe.without_suits(), rules, bets, "value", None)
        weights, numerators = _evaluate(tuples, high, 4)
        follow = tuples.total // int(tuples.weights.sum())
        return [int(w) * follow for w in weights] + [int(n) for n in numerators.flatten()]

    finite = {decks: patterns(Shoe.standard(decks)) for decks in range(1, 8)}
    for index, count in enumerate(patterns(INFINITE)):
        assert leading_coefficient({d: row[index] for d, row in finite.items()}) == count


# --- Edge sorting ----------------------------------------------------------------------------


def test_a_one_card_sort_is_the_known_card_figures_of_its_groups() -> None:
    """Seeing P1's group: each pattern's EV is the average of P1 = v's EVs over its values.

    Through the command line (one walk of the full shoe serves both checks)."""
    data = json.loads(
        run_ok("edgesort", "--decks", "infinite", "--cards", "1", "--format", "json").stdout
    )
    plain = INFINITE.without_suits()
    high = {6, 7, 8, 9}
    weights = {value: Fraction(count, 52) for value, count in enumerate(plain.value_counts)}
    by_value = {
        value: analyze_known(INFINITE, Rules(), {1: "TA23456789"[value]}).expected_values()
        for value in range(10)
    }
    everything = analyze(INFINITE).expected_values()
    patterns = {p["groups"]: p for p in data["patterns"]}
    assert list(patterns) == ["L", "H"]
    assert [p["best_bet"] for p in patterns.values()] == ["banker", "player"]
    for groups, pattern in patterns.items():
        values = high if groups == "H" else set(range(10)) - high
        probability = sum(weights[v] for v in values)
        assert Fraction(pattern["probability"]) == probability
        for name, ev in pattern["evs"].items():
            assert Fraction(ev) == sum(weights[v] * by_value[v][name] for v in values) / probability
    # The patterns' EVs averaged over the patterns' law are each bet's EV with nothing seen.
    for name in ("banker", "player", "tie"):
        mixed = sum(
            Fraction(p["probability"]) * Fraction(p["evs"][name]) for p in patterns.values()
        )
        assert mixed == everything[name]
    assert Fraction(data["advantage"]) == Fraction(6480003, 96536180)  # 6.713%; 8 decks: 6.765%


# --- The command line ------------------------------------------------------------------------


def test_odds_known_on_an_infinite_shoe() -> None:
    data = json.loads(
        run_ok("odds", "--decks", "infinite", "--known", "1=9", "--format", "json").stdout
    )
    assert data["total"] == 52**5 and data["shoe"]["decks"] == "infinite"
    expected = analyze_known(INFINITE, Rules(), {1: "9"}).expected_values()
    assert Fraction(data["bets"]["player"]["ev"]) == expected["player"]


def test_a_known_card_the_infinite_shoe_lacks_is_one_sentence() -> None:
    shoe = Shoe((0,) * 12 + (4,), infinite=True)  # kings only
    with pytest.raises(KnownCardError, match="include 1 A, but the shoe holds only 0"):
        enumerate_known(shoe, None, {1: "A"})
    result = run("odds", "--decks", "infinite", "--known", "1=9", "--known", "2=9S")
    assert result.exit_code == 0, result.stderr  # with replacement the same card may come again
