"""The infinite shoe: cards drawn with replacement, counted exactly.

Three independent ways to the same figures:

* the published infinite-deck probabilities (``published_figures.DECKS_PROBABILITIES``);
* the limit of the finite shoes: every count of an ``n``-deck shoe is a polynomial of degree 6
  in ``n`` (a product of falling factorials ``(c n)(c n - 1)...``), whose leading coefficient is
  the count with replacement, and the totals' is ``52^6``; interpolated exactly through 7 deck
  counts, the leading coefficient must equal the walk's count with replacement, summary by
  summary, and the finite probabilities must close in on it;
* a brute force over physical cards: every ordered sequence of six draws, each any card of a
  small composition, put back, played by the reference's plain rules.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import pytest
from budget import budgeted, thorough
from cli_runner import run, run_ok
from hypothesis import given
from hypothesis import strategies as st
from published_figures import DECKS_PROBABILITIES
from reference import physical_cards, play_round

from exactodds import Rules, Shoe, analyze, enumerate_rounds
from exactodds.analysis.many import Analyzer
from exactodds.bets.catalogue import select_bets
from exactodds.bets.custom import parse_custom_bets
from exactodds.engine.cardwalk import CardView, enumerate_card_rounds
from exactodds.errors import ShoeError
from exactodds.games.dragon_tiger import dragon_tiger_odds
from exactodds.numbers import decimal_string

INFINITE = Shoe.infinite_decks()
SIDES = ("banker", "player", "tie")
#: Seven deck counts: as many points as a polynomial of degree 6 needs.
DECKS = (1, 2, 3, 4, 5, 6, 7)


def leading_coefficient(points: dict[int, int]) -> Fraction:
    """The coefficient of ``x^(k-1)`` of the polynomial through *points* (k of them), exactly.

    Lagrange: the leading coefficient is the sum of ``y_i / prod_{j != i} (x_i - x_j)``.

    >>> leading_coefficient({1: 1, 2: 4, 3: 9})
    Fraction(1, 1)
    """
    return sum(
        (
            Fraction(y, math.prod(x - other for other in points if other != x))
            for x, y in points.items()
        ),
        Fraction(0),
    )


# --- Published figures -------------------------------------------------------------------


@pytest.mark.parametrize("decks", list(DECKS_PROBABILITIES))
def test_published_probabilities_by_decks(decks: str) -> None:
    shoe = INFINITE if decks == "infinite" else Shoe.standard(int(decks))
    outcomes = analyze(shoe).outcomes
    found = tuple(decimal_string(outcomes[side].probability, 6) for side in SIDES)
    assert found == DECKS_PROBABILITIES[decks]


def test_odds_command_prints_the_published_infinite_figures() -> None:
    table = run_ok("odds", "--decks", "infinite", "--digits", "6").stdout
    assert table.splitlines()[0] == (
        "Shoe: infinite decks (cards drawn with replacement), suits known"
    )
    assert "416 cards" not in table and "52 cards" not in table
    banker, player, tie = DECKS_PROBABILITIES["infinite"]
    rows = {
        line.split()[0]: line.split()[-1]
        for line in table.splitlines()
        if line.startswith(("Banker ", "Player ", "Tie "))
    }
    assert rows == {"Banker": banker, "Player": player, "Tie": tie}


# --- The limit of the finite shoes ---------------------------------------------------------


def test_total_is_the_leading_coefficient_of_the_finite_totals() -> None:
    totals = {decks: Shoe.standard(decks).sequences for decks in DECKS}
    assert leading_coefficient(totals) == INFINITE.sequences == 52**6


def test_every_summary_count_is_the_leading_coefficient_of_the_finite_counts() -> None:
    """The walk with replacement against the walk without it, through 7 deck counts."""
    finite = {decks: enumerate_rounds(Shoe.standard(decks)).counts for decks in DECKS}
    infinite = enumerate_rounds(INFINITE).counts
    summaries = set(infinite).union(*finite.values())
    assert len(summaries) > 500  # totals, cards, naturals and suited pair states
    for summary in summaries:
        points = {decks: counts.get(summary, 0) for decks, counts in finite.items()}
        assert leading_coefficient(points) == infinite.get(summary, 0), summary


@thorough  # the card-level walk on 6 shoes; the value-level counts are checked by default
def test_card_level_counts_are_the_leading_coefficients() -> None:
    view = CardView(ranks=True, banker_first=True)  # the Banker read first, by rank
    finite = {decks: enumerate_card_rounds(Shoe.standard(decks), view).counts for decks in DECKS}
    infinite = enumerate_card_rounds(INFINITE, view)
    assert infinite.total == 52**6
    for round_ in set(infinite.counts).union(*finite.values()):
        points = {decks: counts.get(round_, 0) for decks, counts in finite.items()}
        assert leading_coefficient(points) == infinite.counts.get(round_, 0)


def test_dragon_tiger_counts_are_the_leading_coefficients() -> None:
    """Dragon Tiger deals two cards: degree 2, so three deck counts suffice."""
    finite = {decks: dragon_tiger_odds(Shoe.standard(decks)) for decks in (1, 2, 3)}
    infinite = dragon_tiger_odds(INFINITE)
    assert leading_coefficient({d: odds.rounds for d, odds in finite.items()}) == 52**2
    for outcome, count in infinite.outcomes.items():
        points = {decks: odds.outcomes[outcome] or 0 for decks, odds in finite.items()}
        assert leading_coefficient(points) == count, outcome
    assert (infinite.outcomes["tie"] or 0) * 13 == infinite.rounds  # one rank in 13


@pytest.mark.parametrize("side", SIDES)
def test_finite_probabilities_close_in_on_the_infinite_one(side: str) -> None:
    limit = analyze(INFINITE).outcomes[side].probability
    gaps = [
        abs(analyze(Shoe.standard(decks)).outcomes[side].probability - limit)
        for decks in (1, 2, 4, 8, 64, 10**6)
    ]
    assert gaps == sorted(gaps, reverse=True) and len(set(gaps)) == len(gaps)
    assert gaps[-1] < Fraction(1, 10**8)


# --- Brute force with replacement ------------------------------------------------------------

CARD_SYMBOLS = [rank + suit for rank in "A23456789TJQK" for suit in "SHDC"]


@st.composite
def small_infinite_shoes(draw: st.DrawFn) -> Shoe:
    """A composition of 1 to 5 cards (copies allowed), drawn with replacement; suits or not."""
    cards = draw(st.lists(st.sampled_from(CARD_SYMBOLS), min_size=1, max_size=5))
    finite = Shoe.from_mapping(Counter(cards))
    if draw(st.booleans()):
        return Shoe(finite.rank_counts, finite.suit_counts, infinite=True)
    return Shoe(finite.rank_counts, infinite=True)


def brute_force(shoe: Shoe) -> Counter[object]:
    """Every sequence of six draws, each any physical card of the composition, put back."""
    cards = physical_cards(Shoe(shoe.rank_counts, shoe.suit_counts))
    counts: Counter[object] = Counter()
    for sequence in itertools.product(cards, repeat=6):
        counts[play_round(sequence, suits_known=shoe.suits_known)] += 1
    return counts


@budgeted(25, deadline=None)
@given(small_infinite_shoes())
def test_walk_with_replacement_agrees_with_brute_force(shoe: Shoe) -> None:
    table = enumerate_rounds(shoe)
    assert table.total == shoe.cards**6
    assert {summary: count for summary, count in table.counts.items() if count} == brute_force(shoe)


def test_pair_bets_have_their_with_replacement_odds() -> None:
    """A pair is one rank in 13; a perfect (same suit) pair one card in 52."""
    bets = analyze(INFINITE, Rules(), select_bets("player_pair,perfect_pair")).bets
    assert bets["player_pair"].win_probability == Fraction(1, 13)
    assert bets["player_pair"].expected_value == Fraction(11 - 12, 13)
    perfect = bets["perfect_pair"].outcome_counts  # one hand's or both hands' suited pair
    either = Fraction(perfect["one"] + perfect["both"], INFINITE.sequences)
    assert either == Fraction(2, 52) - Fraction(1, 52**2)


def test_card_level_bet_with_replacement() -> None:
    """Two suited first Player cards: the second card matches the first's suit, 1 in 4."""
    (bet,) = parse_custom_bets(
        '[[bet]]\nname = "suited"\n[[bet.outcome]]\n'
        "when = { player_first_two = { suited = true } }\npays = 2\n"
    )
    assert analyze(INFINITE, Rules(), [bet]).bets["suited"].win_probability == Fraction(1, 4)


def test_analyzer_prices_an_infinite_shoe_as_analyze_does() -> None:
    bets = select_bets("main,dragon7,player_pair")
    through_analyzer = Analyzer(Rules(), bets).analyze(INFINITE)
    direct = analyze(INFINITE, Rules(), bets)
    assert through_analyzer.total == direct.total == 52**6
    assert through_analyzer.expected_values() == direct.expected_values()


# --- What refuses an infinite shoe -----------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("simulate", "--shoes", "1"), "this deals a finite shoe, card by card"),
        (("audit", "--bets", "dragon7"), "this deals a finite shoe, card by card"),
        (("depth", "--bets", "dragon7"), "this deals a finite shoe, card by card"),
        (("report",), "this deals a finite shoe, card by card"),
        (("eor",), "the effect of removal of an infinite shoe is zero for every rank"),
        (("eor", "--game", "dragon-tiger"), "the effect of removal of an infinite shoe"),
    ],
)
def test_commands_that_deal_a_finite_shoe_refuse_infinite(
    args: tuple[str, ...], words: str
) -> None:
    result = run(*args, "--decks", "infinite")
    assert result.exit_code == 2 and result.stdout == ""
    message = result.stderr.strip()
    assert message.startswith("Error: Number of decks 'infinite' for --decks is not valid here:")
    assert words in message and "use a whole number" in message
    assert message.count(".") == 1 and "Traceback" not in message


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("odds", "--remove", "K"), "no card can be removed from it"),
        (("solve", "--dealing", "shoe"), "leave out --dealing shoe"),
    ],
)
def test_what_an_infinite_shoe_cannot_do_is_one_sentence(args: tuple[str, ...], words: str) -> None:
    result = run(*args, "--decks", "infinite")
    assert result.exit_code == 2 and result.stdout == ""
    assert words in result.stderr and result.stderr.count("\n") == 1


def test_solve_infinite_is_the_1957_model() -> None:
    """Chemin de fer on an infinite shoe: dealt with replacement, one deck's proportions."""
    infinite = run_ok("solve", "--decks", "infinite", "--banker-sees", "total").stdout
    classic = run_ok(
        "solve", "--decks", "1", "--dealing", "replacement", "--banker-sees", "total"
    ).stdout
    assert infinite.splitlines()[1:] == classic.splitlines()[1:]
    assert "679568/53094899" in infinite  # Kemeny and Snell's value, as docs/solve.md gives it


def test_json_names_the_infinite_shoe() -> None:
    import json

    data = json.loads(run_ok("odds", "--decks", "infinite", "--format", "json").stdout)
    assert data["shoe"]["decks"] == "infinite" and data["shoe"]["cards"] is None
    assert data["total"] == 52**6


def test_library_refusals() -> None:
    with pytest.raises(ShoeError, match="no cards to draw from"):
        enumerate_rounds(Shoe((0,) * 13, infinite=True))
    with pytest.raises(ShoeError, match="infinite is 1; use True or False"):
        Shoe((4,) * 13, infinite=1)  # type: ignore[arg-type]
    with pytest.raises(ShoeError, match="Pricing shoes many at a time needs a finite shoe"):
        list(Analyzer().analyze_many([INFINITE]))


def test_web_odds_takes_infinite_and_eor_refuses_it() -> None:
    from starlette.testclient import TestClient

    from exactodds.web.app import create_app

    client = TestClient(create_app(":memory:"), base_url="http://127.0.0.1")
    answer = client.post("/api/odds", json={"decks": "infinite", "bets": "tie", "digits": 6})
    assert answer.status_code == 200
    data = answer.json()
    assert data["total"] == 52**6 and data["shoe"]["decks"] == "infinite"
    assert data["outcomes"]["tie"]["decimal"] == DECKS_PROBABILITIES["infinite"][2]
    refused = client.post("/api/eor", json={"decks": "infinite"})
    assert refused.status_code == 422
    assert "the effect of removal of an infinite shoe is zero" in refused.json()["error"]
    table = client.post("/api/shoes", json={"name": "T", "settings": {"decks": "infinite"}})
    assert table.status_code == 422 and "finite shoe" in table.json()["error"]


@pytest.mark.parametrize("game", ["chemin-de-fer", "banque"])
def test_solve_infinite_is_dealing_with_replacement_from_one_deck(game: str) -> None:
    infinite = run_ok("solve", "--game", game, "--decks", "infinite", "--banker-sees", "total")
    one_deck = run_ok(
        "solve",
        "--game",
        game,
        "--decks",
        "1",
        "--dealing",
        "replacement",
        "--banker-sees",
        "total",
    )
    assert infinite.stdout.splitlines()[1:] == one_deck.stdout.splitlines()[1:]


def test_breakeven_and_breakdown_take_infinite() -> None:
    """The Tie breaks even at 4366208/460601 to 1: its losing over its winning sequences."""
    tie = analyze(INFINITE).outcomes["tie"]
    breakeven = run_ok("breakeven", "--decks", "infinite", "--bet", "tie").stdout
    assert f"x = {Fraction(tie.total - tie.count, tie.count)} = " in breakeven
    breakdown = run_ok("breakdown", "--decks", "infinite").stdout
    assert breakdown.splitlines()[0].endswith(
        "infinite decks (cards drawn with replacement), suits known"
    )
    assert "Rounds: 19,770,609,664 ordered six-card sequences" in breakdown
