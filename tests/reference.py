"""A slow, obviously correct physical-card reference for the enumeration engine.

Nothing here comes from :mod:`exactodds.engine.walk`'s walk or from
:class:`exactodds.rules.Tableau`: the cards of a shoe are laid out as distinct
physical objects, every round is played card by card with a plain chain of
``if`` statements written from the printed rules, and each dealt sequence is
counted one at a time.  Only the input (:class:`~exactodds.shoe.Shoe`, the
rank and suit enums) and the output record
(:class:`~exactodds.engine.walk.RoundSummary`, so that the two sides' counters
compare directly) are shared with the engine.

Two counters, which must agree with each other and with the engine:

* :func:`permutation_counts` runs :func:`itertools.permutations` over the
  physical cards, six at a time, and plays every sequence (shoes of up to
  about 9 cards).
* :func:`dealt_counts` deals only the cards a round needs, one physical card
  at a time, and lets a finished round stand for every way of filling the
  unused positions (shoes of up to about 20 cards).

>>> from exactodds import Shoe
>>> counts = dealt_counts(Shoe.from_ranks({"A": 6}))
>>> [(summary.player_total, summary.banker_total, count) for summary, count in counts.items()]
[(3, 3, 720)]
>>> dealt_counts(Shoe.from_ranks({"A": 5}))
Traceback (most recent call last):
...
ValueError: A round is counted as a sequence of 6 cards, but the shoe holds only 5.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from exactodds.cards import Rank, Suit
from exactodds.engine.walk import RoundSummary
from exactodds.shoe import Shoe

__all__ = [
    "ROUND_LENGTH",
    "PhysicalCard",
    "baccarat_value",
    "dealt_counts",
    "permutation_counts",
    "physical_cards",
    "play_round",
]

#: Every round counts as an ordered sequence of this many cards.
ROUND_LENGTH = 6

# Written out from the rules rather than taken from Rank.value_in_play.
_VALUE_BY_SYMBOL = {
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


def baccarat_value(rank: Rank) -> int:
    """The points of a card of *rank*: ace 1, two to nine their face, ten and court cards 0.

    >>> baccarat_value(Rank.QUEEN), baccarat_value(Rank.ACE), baccarat_value(Rank.NINE)
    (0, 1, 9)
    """
    return _VALUE_BY_SYMBOL[rank.value]


@dataclass(frozen=True)
class PhysicalCard:
    """One card in the shoe; two cards of the same rank and suit still differ by serial.

    ``value`` is the card's points, worked out once because every round reads it.

    >>> PhysicalCard(Rank.KING, Suit.SPADES, 0) == PhysicalCard(Rank.KING, Suit.SPADES, 1)
    False
    >>> PhysicalCard(Rank.SEVEN, None, 0).value
    7
    """

    rank: Rank
    suit: Suit | None
    serial: int
    value: int = field(init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "value", baccarat_value(self.rank))


def _hand_total(hand: Sequence[PhysicalCard]) -> int:
    return sum([card.value for card in hand]) % 10


def physical_cards(shoe: Shoe) -> list[PhysicalCard]:
    """Lay the shoe out as distinct cards: suited when its suits are known, else suit ``None``.

    >>> [(card.rank.value, card.suit, card.serial) for card in physical_cards(Shoe.from_ranks({"A": 2}))]
    [('A', None, 0), ('A', None, 1)]
    >>> [card.suit.value for card in physical_cards(Shoe.from_mapping({"KS": 1, "KH": 1})) if card.suit]
    ['S', 'H']
    >>> physical_cards(Shoe.from_ranks({}))
    []
    """
    cards: list[PhysicalCard] = []
    if shoe.suit_counts is None:
        for rank, count in zip(Rank, shoe.rank_counts, strict=True):
            for _ in range(count):
                cards.append(PhysicalCard(rank, None, len(cards)))
        return cards
    suited_kinds = [(rank, suit) for rank in Rank for suit in Suit]
    for (rank, suit), count in zip(suited_kinds, shoe.suit_counts, strict=True):
        for _ in range(count):
            cards.append(PhysicalCard(rank, suit, len(cards)))
    return cards


def _banker_draws_after_player_third(banker_total: int, player_third: int) -> bool:
    """The Banker's rule once the Player has drawn a third card worth *player_third*."""
    if banker_total <= 2:
        return True
    if banker_total == 3:
        return player_third != 8
    if banker_total == 4:
        return 2 <= player_third <= 7
    if banker_total == 5:
        return 4 <= player_third <= 7
    if banker_total == 6:
        return player_third in (6, 7)
    return False


def play_round(cards: Sequence[PhysicalCard], *, suits_known: bool) -> RoundSummary | None:
    """Play one round from the top of *cards*; ``None`` if they run out before it ends.

    Cards go Player, Banker, Player, Banker, then the Player's third card, then
    the Banker's (the next card in line).  Cards after the round's last are ignored.

    >>> cards = [PhysicalCard(Rank(symbol), None, serial) for serial, symbol in enumerate("2334K8")]
    >>> summary = play_round(cards, suits_known=False)
    >>> summary.player_total, summary.banker_total, summary.player_cards, summary.banker_cards
    (5, 7, 3, 2)
    >>> play_round(cards[:4], suits_known=False) is None  # the Player still has to draw
    True
    """
    fields = _play(cards, suits_known)
    return None if fields is None else RoundSummary(*fields)


_Fields = tuple[int, int, int, int, bool, bool, bool, bool, bool | None, bool | None]


def _play(cards: Sequence[PhysicalCard], suits_known: bool) -> _Fields | None:
    if len(cards) < 4:
        return None
    player = [cards[0], cards[2]]
    banker = [cards[1], cards[3]]
    next_card = 4
    player_two_card_total = _hand_total(player)
    banker_two_card_total = _hand_total(banker)
    player_natural = player_two_card_total in (8, 9)
    banker_natural = banker_two_card_total in (8, 9)
    if player_natural or banker_natural:
        pass  # a natural on either side: both hands stand
    elif player_two_card_total <= 5:
        if next_card >= len(cards):
            return None
        player_third = cards[next_card]
        next_card += 1
        player.append(player_third)
        if _banker_draws_after_player_third(banker_two_card_total, player_third.value):
            if next_card >= len(cards):
                return None
            banker.append(cards[next_card])
            next_card += 1
    elif banker_two_card_total <= 5:
        # The Player stood on 6 or 7; the Banker then draws on 0-5 like the Player.
        if next_card >= len(cards):
            return None
        banker.append(cards[next_card])
        next_card += 1
    player_pair = player[0].rank == player[1].rank
    banker_pair = banker[0].rank == banker[1].rank
    # The fields of RoundSummary, in its order; a plain tuple because it is counted millions of times.
    return (
        _hand_total(player),
        _hand_total(banker),
        len(player),
        len(banker),
        player_natural,
        banker_natural,
        player_pair,
        banker_pair,
        (player_pair and player[0].suit == player[1].suit) if suits_known else None,
        (banker_pair and banker[0].suit == banker[1].suit) if suits_known else None,
    )


def _check_size(cards: Sequence[PhysicalCard]) -> None:
    if len(cards) < ROUND_LENGTH:
        raise ValueError(
            f"A round is counted as a sequence of {ROUND_LENGTH} cards, "
            f"but the shoe holds only {len(cards)}."
        )


def permutation_counts(shoe: Shoe) -> Counter[RoundSummary]:
    """Play every ordered six-card sequence of physical cards and count the summaries.

    Slow on purpose: ``n!/(n-6)!`` rounds played, so keep *shoe* to about 9 cards.

    >>> counts = permutation_counts(Shoe.from_ranks({"K": 6}))
    >>> [(summary.player_total, summary.player_cards, summary.banker_cards) for summary in counts]
    [(0, 3, 3)]
    >>> sum(counts.values())
    720
    """
    cards = physical_cards(shoe)
    _check_size(cards)
    counts: Counter[RoundSummary] = Counter()
    for sequence in itertools.permutations(cards, ROUND_LENGTH):
        summary = play_round(sequence, suits_known=shoe.suits_known)
        assert summary is not None, "six cards always finish a round"
        counts[summary] += 1
    return counts


def dealt_counts(shoe: Shoe) -> Counter[RoundSummary]:
    """Deal physical cards one at a time, only as many as each round needs.

    A round that ends after ``k`` cards stands for every way of filling the
    ``6 - k`` unused positions from the cards left: ``(n-k)!/(n-6)!`` sequences.

    >>> counts = dealt_counts(Shoe.from_mapping({"KS": 2, "QS": 2, "9H": 1, "8D": 1}))
    >>> sum(counts.values()) == 6 * 5 * 4 * 3 * 2 * 1
    True
    """
    cards = physical_cards(shoe)
    _check_size(cards)
    counts: Counter[_Fields] = Counter()

    def deal(dealt: list[PhysicalCard], remaining: list[PhysicalCard]) -> None:
        """Deal each remaining card next; count the round if it ends there, else deal on."""
        for index, card in enumerate(remaining):
            sequence = [*dealt, card]
            fields = _play(sequence, shoe.suits_known)
            if fields is None:
                deal(sequence, remaining[:index] + remaining[index + 1 :])
            else:
                unused_positions = ROUND_LENGTH - len(sequence)
                counts[fields] += math.perm(len(remaining) - 1, unused_positions)

    deal([], cards)
    return Counter({RoundSummary(*fields): count for fields, count in counts.items()})
