"""Known cards: the walk against physical cards, identities, a published edge, errors.

The reference below is deliberately naive and independent of exactodds' walks:
it lays physical cards (each with a serial number, so two kings of spades are
different cards) into the six positions in every possible way, keeps the ways
whose known positions hold a matching card, and plays each round by the rules.

Published check: Eliot Jacobson, "Edge Sorting in Baccarat, Update #1" (888casino
blog), http://blogadmin-www.888casino.com/blog/edge-sorting/edge-sorting-in-baccarat-update-1:
"the sorting groups that are used when the AP has top-card (first-card) information
are High = {6, 7, 8, 9} and Low = {0, 1, 2, 3, 4, 5}. In this case, the AP wagers on
Banker if the top card belongs to the Low group and Player if the top card belongs
to the High group. This results in an edge over the house of 6.765%."
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import pytest
from budget import THOROUGH, budgeted
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds import Card, Rank, Rules, Shoe, Suit, Tableau, analyze, enumerate_rounds
from exactodds.analysis.known import KNOWN_SUITS_MISSING, KnownAnalysis, analyze_known
from exactodds.analysis.single import price_bet
from exactodds.bets.bet import main_bets
from exactodds.engine.known import (
    KnownCardError,
    describe_known,
    enumerate_known,
    parse_known,
)
from exactodds.engine.walk import OutcomeTable, RoundSummary, falling_factorial
from exactodds.errors import CardError, ExactOddsError, ShoeError
from exactodds.numbers import percent_string

RANK_VALUES = {rank: (rank.index + 1) % 10 if rank.index < 9 else 0 for rank in Rank}


# --- An independent reference: physical cards, every arrangement -----------------------------


@dataclass(frozen=True)
class Physical:
    """One physical card: a rank, a suit when the shoe knows suits, and a serial number."""

    rank: Rank
    suit: Suit | None
    serial: int


def _physical_cards(shoe: Shoe) -> list[Physical]:
    cards: list[Physical] = []
    for rank in Rank:
        if shoe.suit_counts is None:
            cards += [Physical(rank, None, len(cards) + i) for i in range(shoe.rank_count(rank))]
        else:
            for suit in Suit:
                copies = shoe.suit_counts[rank.index * 4 + suit.index]
                cards += [Physical(rank, suit, len(cards) + i) for i in range(copies)]
    return cards


def _matches(card: Physical, known: Card) -> bool:
    return card.rank == known.rank and (known.suit is None or card.suit == known.suit)


def _play(cards: Sequence[Physical], tableau: Tableau, suits: bool) -> RoundSummary:
    """Deal P B P B, then third cards from positions 5 and 6, as the rules say."""
    value = [RANK_VALUES[card.rank] for card in cards]
    player = (value[0] + value[2]) % 10
    banker = (value[1] + value[3]) % 10
    player_cards = banker_cards = 2
    player_natural = player in tableau.natural_totals
    banker_natural = banker in tableau.natural_totals
    if not (player_natural or banker_natural):
        next_card = 4
        if tableau.player_draws[player]:
            third = value[next_card]
            next_card += 1
            player, player_cards = (player + third) % 10, 3
            banker_draws = tableau.banker_draws[banker][third]
        else:
            banker_draws = tableau.banker_draws_when_player_stood[banker]
        if banker_draws:
            banker, banker_cards = (banker + value[next_card]) % 10, 3

    def pair(first: Physical, second: Physical) -> tuple[bool, bool | None]:
        same_rank = first.rank == second.rank
        return same_rank, (same_rank and first.suit == second.suit) if suits else None

    player_pair, player_suited = pair(cards[0], cards[2])
    banker_pair, banker_suited = pair(cards[1], cards[3])
    return RoundSummary(
        player,
        banker,
        player_cards,
        banker_cards,
        player_natural,
        banker_natural,
        player_pair,
        banker_pair,
        player_suited,
        banker_suited,
    )


def reference_counts(
    shoe: Shoe, tableau: Tableau, known: Mapping[int, Card], suits: bool
) -> Counter[RoundSummary]:
    """Every arrangement of physical cards in six positions with the known cards in place."""
    cards = _physical_cards(shoe)
    counts: Counter[RoundSummary] = Counter()
    known_positions = sorted(known)
    free_positions = [position for position in range(1, 7) if position not in known]
    candidates = [[c for c in cards if _matches(c, known[p])] for p in known_positions]
    for chosen in itertools.product(*candidates):
        if len(set(chosen)) < len(chosen):
            continue
        rest = [card for card in cards if card not in chosen]
        for filling in itertools.permutations(rest, len(free_positions)):
            sequence: dict[int, Physical] = dict(zip(known_positions, chosen, strict=True))
            sequence |= dict(zip(free_positions, filling, strict=True))
            counts[_play([sequence[p] for p in range(1, 7)], tableau, suits)] += 1
    return counts


def _nonzero(table: OutcomeTable) -> dict[RoundSummary, int]:
    return {summary: count for summary, count in table.counts.items() if count}


# --- Hypothesis strategies -------------------------------------------------------------------

FEW_RANKS = [Rank.ACE, Rank.TWO, Rank.FIVE, Rank.SEVEN, Rank.NINE, Rank.TEN, Rank.KING]


@st.composite
def small_shoes(draw: st.DrawFn, suited: bool) -> Shoe:
    """6-9 cards from a few ranks (so pairs, naturals and every draw happen)."""
    if suited:
        cards = draw(
            st.lists(
                st.tuples(st.sampled_from(FEW_RANKS), st.sampled_from(list(Suit))),
                min_size=6,
                max_size=9,
            )
        )
        return Shoe.from_mapping(
            {f"{rank.symbol}{suit.symbol}": n for (rank, suit), n in Counter(cards).items()}
        )
    ranks = draw(st.lists(st.sampled_from(FEW_RANKS), min_size=6, max_size=9))
    return Shoe.from_ranks(dict(Counter(rank.symbol for rank in ranks)))


@st.composite
def tableaux(draw: st.DrawFn) -> Tableau:
    if draw(st.booleans()):
        return Tableau.standard()
    flags = st.lists(st.booleans(), min_size=10, max_size=10).map(tuple)
    return Tableau(
        frozenset(draw(st.sets(st.integers(0, 9), max_size=3))),
        draw(flags),
        draw(flags),
        tuple(draw(flags) for _ in range(10)),
        "random",
    )


@st.composite
def shoes_with_known_cards(
    draw: st.DrawFn, suited: bool, max_known: int = 3
) -> tuple[Shoe, dict[int, Card]]:
    shoe = draw(small_shoes(suited))
    cards = _physical_cards(shoe)
    how_many = draw(st.integers(0, max_known))
    positions = draw(st.permutations(range(1, 7)))[:how_many]
    chosen = draw(st.permutations(cards))[:how_many]
    keep_suits = draw(st.booleans()) if suited else False
    known = {
        position: Card(card.rank, card.suit if keep_suits else None)
        for position, card in zip(positions, chosen, strict=True)
    }
    return shoe, known


# --- The walk against the reference ----------------------------------------------------------


def _agrees_with_reference(shoe: Shoe, tableau: Tableau, known: dict[int, Card]) -> None:
    table = enumerate_known(shoe, tableau, known)
    assert table.total == falling_factorial(shoe.cards - len(known), 6 - len(known))
    assert sum(table.counts.values()) == table.total
    reference = reference_counts(shoe, tableau, known, table.suits_known)
    reference_total = sum(reference.values())
    # Conditional probabilities agree exactly: count / total on both sides.
    assert set(reference) == set(_nonzero(table))
    for summary, count in _nonzero(table).items():
        assert reference[summary] * table.total == count * reference_total


@budgeted(40, deadline=None)
@given(case=shoes_with_known_cards(suited=False), tableau=tableaux())
def test_agrees_with_physical_cards_by_rank(
    case: tuple[Shoe, dict[int, Card]], tableau: Tableau
) -> None:
    shoe, known = case
    _agrees_with_reference(shoe, tableau, known)


@budgeted(40, deadline=None)
@given(case=shoes_with_known_cards(suited=True), tableau=tableaux())
def test_agrees_with_physical_cards_with_suits(
    case: tuple[Shoe, dict[int, Card]], tableau: Tableau
) -> None:
    shoe, known = case
    table = enumerate_known(shoe, tableau, known)
    assert table.suits_known == all(card.suit is not None for card in known.values())
    _agrees_with_reference(shoe, tableau, known)


def test_reference_total_is_the_number_of_ways_to_place_the_known_cards() -> None:
    # Two kings known out of three: 3 * 2 ways to place them, times ff(n - 2, 4) fillings.
    shoe = Shoe.from_ranks({"K": 3, "5": 2, "9": 2})
    known = {2: Card(Rank.KING), 6: Card(Rank.KING)}
    reference = reference_counts(shoe, Tableau.standard(), known, False)
    assert sum(reference.values()) == 3 * 2 * falling_factorial(5, 4)
    assert enumerate_known(shoe, None, known).total == falling_factorial(5, 4)


# --- Identities ------------------------------------------------------------------------------


def _mix(tables: Sequence[tuple[int, OutcomeTable]]) -> Counter[RoundSummary]:
    mixed: Counter[RoundSummary] = Counter()
    for weight, table in tables:
        for summary, count in table.counts.items():
            mixed[summary] += weight * count
    return mixed


def _kinds(shoe: Shoe) -> list[tuple[int, Card]]:
    """Every kind of card the shoe holds, with how many it holds."""
    if shoe.suit_counts is None:
        return [(shoe.rank_count(r), Card(r)) for r in Rank if shoe.rank_count(r)]
    return [
        (count, Card(Rank.__members__[rank.name], suit))
        for rank in Rank
        for suit in Suit
        if (count := shoe.suit_counts[rank.index * 4 + suit.index])
    ]


@settings(max_examples=20, deadline=None)
@given(
    shoe=st.one_of(small_shoes(suited=False), small_shoes(suited=True)),
    position=st.integers(1, 6),
    tableau=tableaux(),
)
def test_averaging_over_the_card_at_a_position_gives_back_the_whole_table(
    shoe: Shoe, position: int, tableau: Tableau
) -> None:
    # Sum over kinds c of count(c) * table(c at position) = table: every physical card
    # at the position is one of count(c) copies of its kind, each with the same counts.
    tables = [
        (count, enumerate_known(shoe, tableau, {position: card})) for count, card in _kinds(shoe)
    ]
    whole = enumerate_rounds(shoe, tableau)
    assert {s: c for s, c in _mix(tables).items() if c} == _nonzero(whole)
    assert sum(count * table.total for count, table in tables) == whole.total


@pytest.mark.parametrize("position", [1, pytest.param(6, marks=pytest.mark.slow)])
def test_averaging_identity_on_eight_decks(position: int) -> None:
    shoe = Shoe.standard(decks=8).without_suits()
    tables = [
        (count, enumerate_known(shoe, None, {position: card})) for count, card in _kinds(shoe)
    ]
    assert _mix(tables) == Counter(enumerate_rounds(shoe).counts)


@pytest.mark.parametrize(
    "shoe",
    [
        pytest.param(Shoe.standard(decks=8), marks=pytest.mark.slow, id="8 decks"),
        pytest.param(Shoe.standard(decks=1), id="1 deck"),
        pytest.param(Shoe.standard(2).remove("KS"), id="2 decks less a king", marks=THOROUGH),
    ],
)
def test_nothing_known_is_the_main_engine_including_suited_pairs(shoe: Shoe) -> None:
    assert dict(enumerate_known(shoe, None, {}).counts) == dict(enumerate_rounds(shoe).counts)


@settings(max_examples=20, deadline=None)
@given(shoe=st.one_of(small_shoes(suited=False), small_shoes(suited=True)), tableau=tableaux())
def test_nothing_known_is_the_main_engine_on_small_shoes(shoe: Shoe, tableau: Tableau) -> None:
    assert _nonzero(enumerate_known(shoe, tableau, {})) == _nonzero(enumerate_rounds(shoe, tableau))


def test_the_first_cards_of_a_hand_are_exchangeable() -> None:
    shoe = Shoe.standard(decks=8)
    assert dict(enumerate_known(shoe, None, {1: "7H"}).counts) == dict(
        enumerate_known(shoe, None, {3: "7H"}).counts
    )


def test_an_undealt_known_card_still_counts_by_its_removal() -> None:
    # With the only 5 known to sit at position 6, the first four cards are all 4s: two natural
    # 8s, a tie, and position 6 never dealt.  Unknown, the 5 could have been among them.
    shoe = Shoe.from_ranks({"4": 5, "5": 1})
    table = enumerate_known(shoe, None, {6: "5"})
    assert table.total == falling_factorial(5, 5)
    assert set(_nonzero(table)) == {RoundSummary(8, 8, 2, 2, True, True, True, True, None, None)}
    assert any(summary.winner.value != "tie" for summary in _nonzero(enumerate_rounds(shoe)))


# --- A published figure ----------------------------------------------------------------------


def test_seeing_the_first_card_is_worth_jacobsons_edge_sorting_edge() -> None:
    shoe = Shoe.standard(decks=8).without_suits()
    banker_bet, player_bet, _ = main_bets(Rules())
    edge = Fraction(0)
    player_when = []
    for value, rank in enumerate("TA23456789"):
        table = enumerate_known(shoe, None, {1: rank})
        banker = price_bet(table, banker_bet).expected_value
        player = price_bet(table, player_bet).expected_value
        edge += Fraction(shoe.value_counts[value], shoe.cards) * max(banker, player)
        if player > banker:
            player_when.append(value)
    assert player_when == [6, 7, 8, 9]  # Jacobson's High group
    assert percent_string(edge, 3) == "6.765%"
    assert edge == Fraction(6604082064256, 97624966318425)


# --- Analyses given known cards -------------------------------------------------------------


def test_analyze_known_prices_every_bet_on_the_conditional_table() -> None:
    from exactodds.bets.side import side_bets

    shoe = Shoe.standard(decks=8)
    bets = [*main_bets(Rules()), side_bets()["perfect_pair"]]
    result = analyze_known(shoe, Rules(), ["P1=9H", "P2=KH"], bets)
    assert isinstance(result, KnownAnalysis)
    assert result.total == result.table.total == falling_factorial(414, 4)
    assert result.shoe == shoe and result.known == parse_known(["1=9H", "3=KH"])
    table = enumerate_known(shoe, None, {1: "9H", 3: "KH"})
    for bet in bets:
        assert result.bets[bet.name] == price_bet(table, bet)
    assert sum(outcome.count for outcome in result.outcomes.values()) == result.total
    # A Player natural 9 loses only to a Banker natural 9 and ties only with one.
    assert result.outcomes["banker"].count == 0
    rank_only = analyze_known(shoe, Rules(), {1: "9"}, bets)
    assert rank_only.unavailable == {"perfect_pair": KNOWN_SUITS_MISSING}


def test_analyze_known_with_nothing_known_is_analyze() -> None:
    shoe = Shoe.standard(decks=6).remove("A K 7 7 T")
    known, plain = analyze_known(shoe, Rules(tie_pays=9), {}), analyze(shoe, Rules(tie_pays=9))
    assert known.total == plain.total
    assert known.outcomes == plain.outcomes
    assert known.bets == plain.bets


def test_report_renders_a_known_analysis() -> None:
    from exactodds.report.odds import render_table

    text = render_table(analyze_known(Shoe.standard(decks=8), Rules(), {6: "9"}), 4)
    assert "Rounds: 12,015,380,469,960 ordered six-card sequences" in text


# --- Input and errors ------------------------------------------------------------------------


def test_known_cards_read_loosely() -> None:
    assert parse_known(["p1=ks", " B2 = 10 ", "5=7"]) == {
        1: Card(Rank.KING, Suit.SPADES),
        4: Card(Rank.TEN),
        5: Card(Rank.SEVEN),
    }
    mixed: dict[int | str, Card | str] = {"6": "9", 2: Card(Rank.ACE)}
    assert parse_known(mixed) == {2: Card(Rank.ACE), 6: Card(Rank.NINE)}
    assert describe_known(parse_known(["2=A"])) == "A at position 2 (Banker's first card)"


def test_suits_count_only_when_the_shoe_and_every_known_card_have_them() -> None:
    suited, plain = Shoe.standard(decks=1), Shoe.standard(decks=1).without_suits()
    assert enumerate_known(suited, None, {1: "KS", 3: "KH"}).suits_known
    assert not enumerate_known(suited, None, {1: "KS", 3: "K"}).suits_known
    assert not enumerate_known(plain, None, {1: "KS"}).suits_known


ERRORS = [
    pytest.param({0: "K"}, "Position 0 is not a dealing position; use 1-6", id="position 0"),
    pytest.param({7: "K"}, "Position 7 is not a dealing position", id="position 7"),
    pytest.param({"X1": "K"}, "Position X1 is not a dealing position", id="not a position"),
    pytest.param({True: "K"}, "Position True is not a dealing position", id="boolean"),
    pytest.param({1: "Z"}, "Known card 'Z' at position 1 is not one card; use one card", id="Z"),
    pytest.param({1: "AK"}, "Known card 'AK' at position 1 is not one card", id="two cards"),
    pytest.param(
        {1: "K", 2: "K", 3: "K", 4: "K", 5: "K"},
        "include 5 K, but the shoe holds only 4",
        id="too many",
    ),
    pytest.param(
        {1: "KS", 2: "KS"}, "include 2 KS, but the shoe holds only 1", id="same card twice"
    ),
]


@pytest.mark.parametrize(("known", "message"), ERRORS)
def test_mistakes_are_one_sentence(known: dict[object, str], message: str) -> None:
    with pytest.raises(KnownCardError, match=message) as caught:
        enumerate_known(Shoe.standard(decks=1), None, known)  # type: ignore[arg-type]
    assert isinstance(caught.value, CardError) and isinstance(caught.value, ExactOddsError)
    assert str(caught.value).endswith(".")


def test_other_mistakes() -> None:
    with pytest.raises(KnownCardError, match="has no position; use POSITION=CARD"):
        parse_known(["=K"])
    with pytest.raises(KnownCardError, match=r"Position 1 is given twice \('KS' and '7'\)"):
        parse_known(["1=KS", "P1=7"])
    with pytest.raises(ShoeError, match="holds 5 cards; a round is counted as a sequence of 6"):
        enumerate_known(Shoe.from_ranks({"K": 5}), None, {1: "K"})
