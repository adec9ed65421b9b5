"""Ranks, suits, card values and the reading of card lists.

Baccarat values a card by its rank alone: an ace counts 1, two to nine count
their face, and ten, jack, queen and king count 0.  Ranks still matter for
pair bets (a jack and a queen are both worth 0 but are no pair), and suits
only for suited bets such as Perfect Pair.

>>> [card.symbol for card in parse_cards("A K 7 7 10")]
['A', 'K', '7', '7', 'T']
>>> Rank.JACK.value_in_play
0
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

from exactodds.errors import CardError, quoted

__all__ = ["RANKS", "SUITS", "VALUES", "Card", "Rank", "Suit", "parse_cards", "parse_rank"]


class Rank(enum.Enum):
    """The thirteen ranks, in the order A 2 3 4 5 6 7 8 9 T J Q K.

    >>> Rank.TEN.symbol, Rank.TEN.value_in_play, Rank.TEN.index
    ('T', 0, 9)
    >>> Rank("X")
    Traceback (most recent call last):
    ...
    ValueError: 'X' is not a valid Rank
    """

    ACE = "A"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "T"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"

    @property
    def symbol(self) -> str:
        """The one-letter symbol, as used in shoe specs and JSON keys."""
        return str(self.value)

    @property
    def index(self) -> int:
        """Position 0-12 in :data:`RANKS`."""
        return _RANK_INDEX[self]

    @property
    def value_in_play(self) -> int:
        """The baccarat value 0-9 of a card of this rank."""
        return (self.index + 1) % 10 if self.index < 9 else 0


class Suit(enum.Enum):
    """The four suits; they matter only to suited bets.

    >>> Suit("H").name
    'HEARTS'
    """

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def symbol(self) -> str:
        """The one-letter symbol S, H, D or C."""
        return str(self.value)

    @property
    def index(self) -> int:
        """Position 0-3 in :data:`SUITS`."""
        return _SUIT_INDEX[self]


RANKS: tuple[Rank, ...] = tuple(Rank)
SUITS: tuple[Suit, ...] = tuple(Suit)
#: The baccarat value of each rank, indexed like :data:`RANKS`.
VALUES: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0)
_RANK_INDEX = {rank: index for index, rank in enumerate(RANKS)}
_SUIT_INDEX = {suit: index for index, suit in enumerate(SUITS)}
_SUIT_SYMBOLS = {"S": "S", "H": "H", "D": "D", "C": "C", "♠": "S", "♥": "H", "♦": "D", "♣": "C"}
_VALID = "use ranks A 2-9 T J Q K (10 for T), optionally followed by a suit S H D C"


@dataclass(frozen=True, order=True)
class Card:
    """A card: a rank and, when known, a suit.

    >>> Card(Rank.KING, Suit.SPADES).symbol, Card(Rank.KING).symbol, Card("k", "s").symbol
    ('KS', 'K', 'KS')
    >>> Card("Z")
    Traceback (most recent call last):
    ...
    exactodds.errors.CardError: Unknown rank 'Z'; use A 2-9 T J Q K (10 for T).
    """

    rank: Rank
    suit: Suit | None = None

    def __post_init__(self) -> None:
        # Card("K") or Card("K", "S"): read the symbols once; anything else is refused.
        if type(self.rank) is not Rank:
            if not isinstance(self.rank, str):
                raise CardError(f"Rank {self.rank!r} is not a Rank; {_VALID}.")
            object.__setattr__(self, "rank", parse_rank(self.rank))
        if self.suit is not None and type(self.suit) is not Suit:
            symbol = (
                _SUIT_SYMBOLS.get(self.suit.strip().upper()) if isinstance(self.suit, str) else None
            )
            if symbol is None:
                raise CardError(f"Suit {self.suit!r} is not a suit; use S H D C (or None).")
            object.__setattr__(self, "suit", Suit(symbol))

    @property
    def symbol(self) -> str:
        """Rank symbol followed by the suit symbol when the suit is known."""
        return self.rank.symbol + (self.suit.symbol if self.suit else "")


def parse_rank(text: str) -> Rank:
    """Read one rank: ``A``, ``2``-``9``, ``T`` or ``10``, ``J``, ``Q``, ``K``.

    >>> parse_rank("10"), parse_rank("q")
    (<Rank.TEN: 'T'>, <Rank.QUEEN: 'Q'>)
    >>> parse_rank("1")
    Traceback (most recent call last):
    ...
    exactodds.errors.CardError: Unknown rank '1'; use A 2-9 T J Q K (10 for T).
    """
    if not isinstance(text, str):
        raise CardError(f"Rank {text!r} is not text; use A 2-9 T J Q K (10 for T).")
    return _parse_rank(text)


@lru_cache(maxsize=256)
def _parse_rank(text: str) -> Rank:
    cleaned = text.strip().translate(_UPPER)
    if cleaned == "10":
        cleaned = "T"
    try:
        return Rank(cleaned)
    except ValueError:
        raise CardError(f"Unknown rank {quoted(text)}; use A 2-9 T J Q K (10 for T).") from None


_UPPER = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_TOKEN = re.compile(r"(10|[A2-9TJQK])([SHDC♠♥♦♣])?")


def parse_cards(text: str | Iterable[str | Card], source: str | None = None) -> tuple[Card, ...]:
    """Read a list of cards, loosely written, into :class:`Card` objects.

    Accepts ``"AK77T"``, ``"A K 7 7 10"``, ``"KS,7H"``, lower case, or an
    iterable of such strings or cards.  *source* (such as ``"`remove`"``)
    names where the text came from in error messages.

    >>> [card.symbol for card in parse_cards("ks,7h 10d q")]
    ['KS', '7H', 'TD', 'Q']
    >>> parse_cards(["A", "K"]) == parse_cards("AK")
    True
    >>> parse_cards("A1")
    Traceback (most recent call last):
    ...
    exactodds.errors.CardError: Unknown card '1' in 'A1'; use ranks A 2-9 T J Q K (10 for T), optionally followed by a suit S H D C.
    """
    if not isinstance(text, str):
        if not isinstance(text, Iterable) or isinstance(text, (bytes, Mapping)):
            raise CardError(f"Cards {text!r} are not text or a list of cards; {_VALID}.")
        cards: list[Card] = []
        for item in text:
            if not isinstance(item, (str, Card)):
                raise CardError(f"Card {item!r} is not text or a Card; {_VALID}.")
            cards.extend([item] if isinstance(item, Card) else parse_cards(item, source))
        return tuple(cards)
    # Only ASCII letters change case: str.upper() can lengthen a string ("ǰ" is two letters
    # in upper case), and the positions below index both texts alike.
    cleaned = text.translate(_UPPER)
    cards = []
    position = 0
    while position < len(cleaned):
        character = cleaned[position]
        if character.isspace() or character in ",;":
            position += 1
            continue
        match = _TOKEN.match(cleaned, position)
        if match is None:
            bad = re.match(r"[^\s,;]+", text[position:])
            token = bad.group(0)[:1] if bad else text[position]
            where = f"{source} {quoted(text)}" if source else quoted(text)
            raise CardError(f"Unknown card {token!r} in {where}; {_VALID}.")
        rank = Rank("T" if match.group(1) == "10" else match.group(1))
        suit = Suit(_SUIT_SYMBOLS[match.group(2)]) if match.group(2) else None
        cards.append(Card(rank, suit))
        position = match.end()
    return tuple(cards)
