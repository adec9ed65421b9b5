"""Every bet in the catalogue settled independently, straight from physical cards.

The engine prices a bet by settling its :class:`~exactodds.engine.walk.RoundSummary`.
Here nothing of that path is used: neither ``RoundSummary`` nor any settle
function of :mod:`exactodds`, nor ``tests/reference.py``.  The shoe is laid out
as distinct physical cards from the very mapping the :class:`~exactodds.shoe.Shoe`
is built from, rounds are dealt card by card with the drawing rules written out
again, and each bet is settled from the dealt hands by its printed rule.  The
counts (six-card convention: a round of ``k`` cards stands for
``perm(n - k, 6 - k)`` sequences) must equal the engine's
``analyze(shoe, Rules(), select_bets("all")).bets[name].outcome_counts``.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache

import pytest
from budget import budgeted
from hypothesis import given
from hypothesis import strategies as st

from exactodds import Rules, Shoe, analyze
from exactodds.bets.catalogue import select_bets

RANK_SYMBOLS = "A23456789TJQK"
SUIT_SYMBOLS = "SHDC"
CARD_SYMBOLS = [rank + suit for rank in RANK_SYMBOLS for suit in SUIT_SYMBOLS]
ROUND_LENGTH = 6

#: Points of each rank: ace 1, two to nine their face, ten and court cards 0.
POINTS = {
    "A": 1,
    "2": 2,
    "3": 3,
    "4": 4,
    "5": 5,
    "6": 6,
    "7": 7,
    "8": 8,
    "9": 9,
    "T": 0,
    "J": 0,
    "Q": 0,
    "K": 0,
}

#: Banker total (after the Player drew) -> the Player's third-card points on which the Banker draws.
BANKER_DRAWS_ON = {
    0: frozenset(range(10)),
    1: frozenset(range(10)),
    2: frozenset(range(10)),
    3: frozenset(range(10)) - {8},
    4: frozenset(range(2, 8)),
    5: frozenset(range(4, 8)),
    6: frozenset({6, 7}),
    7: frozenset(),
}

#: A card as it reads in play: rank symbol, and suit symbol or ``None`` when suits are unknown.
Face = tuple[str, str | None]


@dataclass(frozen=True)
class Card:
    """One physical card; copies of the same rank and suit differ by serial."""

    rank: str
    suit: str | None
    serial: int

    @property
    def face(self) -> Face:
        return (self.rank, self.suit)


def lay_out(counts: Mapping[str, int]) -> list[Card]:
    """Physical cards from a mapping such as ``{"KS": 2, "7H": 1}`` or ``{"K": 2, "7": 1}``."""
    cards: list[Card] = []
    for key, count in counts.items():
        suit = key[1] if len(key) == 2 else None
        for _ in range(count):
            cards.append(Card(key[0], suit, len(cards)))
    return cards


def _total(points: Sequence[int]) -> int:
    return sum(points) % 10


def deal_hands(points: Sequence[int]) -> tuple[list[int], list[int]] | None:
    """The points of the Player's and the Banker's hands dealt from cards worth *points*.

    ``None`` if the cards run out before the round ends.  Dealing order:
    Player, Banker, Player, Banker, the Player's third card, the Banker's third.
    Drawing reads only the cards' points, so that is all this sees.
    """
    if len(points) < 4:
        return None
    player = [points[0], points[2]]
    banker = [points[1], points[3]]
    position = 4
    player_total, banker_total = _total(player), _total(banker)
    if player_total >= 8 or banker_total >= 8:
        return player, banker
    if player_total <= 5:
        if len(points) <= position:
            return None
        player.append(points[position])
        position += 1
        if player[2] not in BANKER_DRAWS_ON[banker_total]:
            return player, banker
    elif banker_total >= 6:
        return player, banker
    # The Banker draws: on 0-5 after a Player stand, or as the table says after a Player draw.
    if len(points) <= position:
        return None
    banker.append(points[position])
    return player, banker


Settlement = tuple[tuple[str, str], ...]


@cache
def settle_pair_bets(first_four: tuple[Face, ...], suits_known: bool) -> Settlement:
    """The pair bets, which read only the faces of each hand's first two cards.

    *first_four* are the round's first four cards: Player, Banker, Player, Banker.
    """
    player, banker = first_four[0::2], first_four[1::2]
    p_pair = player[0][0] == player[1][0]
    b_pair = banker[0][0] == banker[1][0]
    outcomes = [
        ("player_pair", "win" if p_pair else "lose"),
        ("banker_pair", "win" if b_pair else "lose"),
        ("either_pair", "win" if p_pair or b_pair else "lose"),
    ]
    if suits_known:
        suited = int(player[0] == player[1]) + int(banker[0] == banker[1])
        outcomes.append(("perfect_pair", ("lose", "one", "both")[suited]))
    return tuple(outcomes)


@cache
def settle_play_bets(points: tuple[int, ...]) -> Settlement:
    """Every other bet, which reads only the play: totals, naturals, who wins, cards dealt."""
    hands = deal_hands(points)
    assert hands is not None, "the round must be complete"
    player, banker = hands
    p_total, b_total = _total(player), _total(banker)
    p_natural = _total(player[:2]) in (8, 9)
    b_natural = _total(banker[:2]) in (8, 9)
    player_wins, banker_wins, tie = p_total > b_total, b_total > p_total, p_total == b_total
    dealt = len(player) + len(banker)

    def win(condition: bool) -> str:
        return "win" if condition else "lose"

    def main(wins: bool) -> str:
        return "win" if wins else "tie" if tie else "lose"

    def dragon_bonus(wins: bool, natural: bool) -> str:
        if tie:
            return "natural_tie" if p_natural and b_natural else "lose"
        if not wins:
            return "lose"
        if natural:
            return "natural_win"
        margin = abs(p_total - b_total)
        return f"win_by_{margin}" if margin >= 4 else "lose"

    banker_six = banker_wins and b_total == 6
    outcomes = {
        "banker": main(banker_wins),
        "player": main(player_wins),
        "tie": win(tie),
        "dragon_bonus_player": dragon_bonus(player_wins, p_natural),
        "dragon_bonus_banker": dragon_bonus(banker_wins, b_natural),
        "dragon7": win(banker_wins and len(banker) == 3 and b_total == 7),
        "panda8": win(player_wins and len(player) == 3 and p_total == 8),
        "big": win(dealt in (5, 6)),
        "small": win(dealt == 4),
        "lucky6": (
            "lose" if not banker_six else "two_card_win" if len(banker) == 2 else "three_card_win"
        ),
        "small_tiger": win(banker_six and len(banker) == 2),
        "big_tiger": win(banker_six and len(banker) == 3),
        "super6": win(banker_six),
    }
    for total in range(10):
        outcomes[f"egalite_{total}"] = win(tie and p_total == total)
    return tuple(outcomes.items())


def settle_all(faces: Sequence[Face], suits_known: bool) -> dict[str, str]:
    """Every bet's outcome for the round dealt from cards of *faces*, by the printed rules."""
    points = tuple(POINTS[rank] for rank, _ in faces)
    return dict(settle_pair_bets(tuple(faces[:4]), suits_known) + settle_play_bets(points))


def dealt_rounds(cards: Sequence[Card]) -> Counter[tuple[tuple[Face, ...], tuple[int, ...]]]:
    """Deal physical cards one at a time; count each round, six-card convention.

    Each ordered choice of distinct physical cards is dealt: four, then a fifth
    and a sixth while the round still needs one.  A round over after ``k``
    cards stands for the ``perm(n - k, 6 - k)`` ways to fill the unused
    positions.  Rounds are counted by the faces of their first four cards and
    the points of all their cards: all that any bet reads.
    """
    faces = [card.face for card in cards]
    points = [POINTS[card.rank] for card in cards]
    left = len(cards)
    rounds: Counter[tuple[tuple[Face, ...], tuple[int, ...]]] = Counter()
    for first_four in itertools.permutations(range(len(cards)), 4):
        four_faces = tuple(faces[index] for index in first_four)
        four = tuple(points[index] for index in first_four)
        if deal_hands(four) is not None:
            rounds[four_faces, four] += math.perm(left - 4, 2)
            continue
        for fifth in range(len(cards)):
            if fifth in first_four:
                continue
            five = (*four, points[fifth])
            if deal_hands(five) is not None:
                rounds[four_faces, five] += left - 5
                continue
            for sixth in range(len(cards)):
                if sixth != fifth and sixth not in first_four:
                    rounds[four_faces, (*five, points[sixth])] += 1
    return rounds


def reference_outcome_counts(
    counts: Mapping[str, int], suits_known: bool
) -> dict[str, dict[str, int]]:
    """Bet name -> outcome -> number of six-card sequences, from the physical cards."""
    cards = lay_out(counts)
    # Many rounds settle every bet alike: count the settlements, then split them by bet.
    settlements: Counter[Settlement] = Counter()
    for (first_four, points), weight in dealt_rounds(cards).items():
        settlement = settle_pair_bets(first_four, suits_known) + settle_play_bets(points)
        settlements[settlement] += weight
    by_bet: dict[str, Counter[str]] = {}
    for settlement, weight in settlements.items():
        for name, outcome in settlement:
            by_bet.setdefault(name, Counter())[outcome] += weight
    total = math.perm(len(cards), ROUND_LENGTH)
    for name, outcomes in by_bet.items():
        assert sum(outcomes.values()) == total, name
    return {name: _nonzero(outcomes) for name, outcomes in by_bet.items()}


def _nonzero(counts: Mapping[str, int]) -> dict[str, int]:
    return {outcome: count for outcome, count in counts.items() if count}


def engine_outcome_counts(shoe: Shoe) -> tuple[dict[str, dict[str, int]], dict[str, str]]:
    """Bet name -> nonzero outcome counts from :func:`exactodds.analyze`, and the unavailable bets."""
    bets = select_bets("all")
    analysis = analyze(shoe, Rules(), bets)
    assert set(analysis.bets) | set(analysis.unavailable) == {bet.name for bet in bets}
    priced = {name: _nonzero(result.outcome_counts) for name, result in analysis.bets.items()}
    return priced, dict(analysis.unavailable)


def assert_engine_matches(counts: Mapping[str, int], shoe: Shoe) -> dict[str, dict[str, int]]:
    """Assert the engine's counts of every bet equal the reference's; return the reference's."""
    suits_known = shoe.suits_known
    expected = reference_outcome_counts(counts, suits_known)
    actual, unavailable = engine_outcome_counts(shoe)
    all_names = {bet.name for bet in select_bets("all")}
    if suits_known:
        assert unavailable == {}
        assert set(expected) == all_names
    else:
        assert set(unavailable) == {"perfect_pair"}
        assert set(expected) == all_names - {"perfect_pair"}
    assert set(actual) == set(expected)
    mismatched = {
        name: {"expected": expected[name], "actual": actual[name]}
        for name in expected
        if expected[name] != actual[name]
    }
    assert mismatched == {}, f"shoe {dict(counts)}: {mismatched}"
    return expected


# --- The independent settlement on hand-played rounds ----------------------------------------


def _faces(player: str, banker: str, after: str) -> list[Face]:
    """Cards in dealing order from ``"KS KS"``-style hands and the cards drawn after."""
    (p1, p2), (b1, b2) = player.split(), banker.split()
    faces: list[Face] = []
    for token in [p1, b1, p2, b2, *after.split()]:
        faces.append((token[0], token[1] if len(token) == 2 else None))
    return faces


HAND_SETTLED = [
    pytest.param(
        "KS KS",
        "QH QD",
        "9C 9C",
        {
            "player_pair": "win",
            "banker_pair": "win",
            "either_pair": "win",
            "perfect_pair": "one",
            "tie": "win",
            "banker": "tie",
            "egalite_9": "win",
            "egalite_0": "lose",
            "dragon_bonus_player": "lose",
            "big": "win",
            "small": "lose",
        },
        id="suited pair, plain pair, three-card tie on 9",
    ),
    pytest.param(
        "9S KH",
        "4D 4C",
        "",
        {
            "player": "win",
            "dragon_bonus_player": "natural_win",
            "dragon_bonus_banker": "lose",
            "banker_pair": "win",
            "perfect_pair": "lose",
            "small": "win",
            "big": "lose",
        },
        id="natural 9 beats natural 8",
    ),
    pytest.param(
        "8S KH",
        "4D 4D",
        "",
        {
            "dragon_bonus_player": "natural_tie",
            "dragon_bonus_banker": "natural_tie",
            "egalite_8": "win",
            "perfect_pair": "one",
        },
        id="tie of naturals",
    ),
    pytest.param(
        "AS KS",
        "4S KS",
        "2S 3S",
        {
            "dragon7": "win",
            "dragon_bonus_banker": "win_by_4",
            "perfect_pair": "lose",
            "big": "win",
        },
        id="dragon 7 by 4",
    ),
    pytest.param(
        "5 K",
        "6 K",
        "3",
        {"panda8": "win", "dragon_bonus_player": "lose", "big": "win", "super6": "lose"},
        id="panda 8 by 2",
    ),
    pytest.param(
        "2 3",
        "6 K",
        "K",
        {
            "lucky6": "two_card_win",
            "small_tiger": "win",
            "big_tiger": "lose",
            "super6": "win",
            "dragon_bonus_banker": "lose",
        },
        id="banker wins with a two-card 6",
    ),
    pytest.param(
        "A K",
        "3 K",
        "2 3",
        {"lucky6": "three_card_win", "small_tiger": "lose", "big_tiger": "win", "super6": "win"},
        id="banker wins with a three-card 6",
    ),
    pytest.param(
        "J Q",
        "2 K",
        "K 7",
        {"player_pair": "lose", "dragon_bonus_banker": "win_by_9", "banker": "win"},
        id="J-Q is no pair; banker wins by 9",
    ),
    pytest.param(
        "5H KS",
        "7D QC",
        "5H",
        {"player_pair": "lose", "perfect_pair": "lose", "banker": "win", "big": "win"},
        id="a third card makes no pair",
    ),
]


@pytest.mark.parametrize(("player", "banker", "after", "expected"), HAND_SETTLED)
def test_independent_settlement_of_hand_played_rounds(
    player: str, banker: str, after: str, expected: dict[str, str]
) -> None:
    faces = _faces(player, banker, after)
    assert deal_hands([POINTS[rank] for rank, _ in faces[:-1]]) is None  # every card is needed
    outcomes = settle_all(faces, suits_known=faces[0][1] is not None)
    assert {name: outcomes[name] for name in expected} == expected


# --- The engine against the independent settlement ------------------------------------------


@st.composite
def compositions(draw: st.DrawFn, symbols: Sequence[str]) -> dict[str, int]:
    """Counts 0-2 for some of *symbols*, 6 to 12 cards in all (each size about as likely).

    Drawn from few symbols at a time so that the same rank (and, with suits,
    the same card) often comes twice: pairs and suited pairs occur.
    """
    size = draw(st.integers(6, 12))
    chosen = draw(
        st.lists(st.sampled_from(symbols), min_size=(size + 1) // 2, max_size=size, unique=True)
    )
    counts = draw(st.lists(st.integers(0, 2), min_size=len(chosen), max_size=len(chosen)))
    while sum(counts) < size:  # room for it: two of each chosen symbol make at least size
        counts[counts.index(min(counts))] += 1
    while sum(counts) > size:
        counts[counts.index(max(counts))] -= 1
    return dict(zip(chosen, counts, strict=True))


#: Two 12-card shoes on which, between them, every outcome of every bet occurs.
FIXED_SHOES: list[dict[str, int]] = [
    {"KS": 2, "KH": 1, "QH": 2, "9C": 2, "4D": 2, "8S": 1, "6H": 2},
    {"K": 2, "A": 2, "3": 2, "2": 2, "7": 2, "5": 1, "6": 1},
]


def _shoe(counts: Mapping[str, int]) -> Shoe:
    suited = any(len(key) == 2 for key in counts)
    return Shoe.from_mapping(counts) if suited else Shoe.from_ranks(counts)


def test_engine_matches_independent_settlement_on_fixed_shoes() -> None:
    seen: dict[str, set[str]] = {}
    for counts in FIXED_SHOES:
        for name, outcomes in assert_engine_matches(counts, _shoe(counts)).items():
            seen.setdefault(name, set()).update(outcomes)
    # The comparison above covers every outcome each bet can pay, not only its common ones.
    for bet in select_bets("all"):
        assert seen[bet.name] == set(bet.pay_table), bet.name


@budgeted(25, deadline=None)
@given(compositions(RANK_SYMBOLS))
def test_engine_matches_independent_settlement_rank_only(counts: dict[str, int]) -> None:
    assert_engine_matches(counts, Shoe.from_ranks(counts))


@budgeted(25, deadline=None)
@given(compositions(CARD_SYMBOLS))
def test_engine_matches_independent_settlement_suited(counts: dict[str, int]) -> None:
    assert_engine_matches(counts, Shoe.from_mapping(counts))
