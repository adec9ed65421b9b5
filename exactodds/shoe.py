"""The shoe: an immutable composition of cards by rank, and by suit when known.

A shoe is read once, from whatever the user has (a number of decks, a spec
string, a JSON object, a list of cards already dealt), and kept in one exact
form: thirteen rank counts, plus the fifty-two rank-and-suit counts when the
suits are known.  All parsing and validation of shoes lives here.

>>> shoe = Shoe.standard(decks=8).remove("A K 7 7 T")
>>> shoe.cards, shoe.rank_count("7"), shoe.suits_known
(411, 30, False)
>>> Shoe.parse("A=4,K=4,9=2").cards
10

An infinite shoe (:meth:`Shoe.infinite`) draws every card with replacement from one deck's
make-up: each rank-and-suit card with probability 1/52, whatever came before. It is the limit
of a shoe of ``n`` decks as ``n`` grows, and the published "infinite decks" figures are its.

>>> Shoe.infinite_decks().describe()
'infinite decks (cards drawn with replacement), suits known'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from exactodds.cards import RANKS, SUITS, VALUES, Card, Rank, parse_cards, parse_rank
from exactodds.errors import CardError, ShoeError, quoted
from exactodds.inputs import MOST_DECKS, line_problem, load_json, number_of_decks, shown
from exactodds.numbers import MAX_DIGITS

__all__ = ["Shoe"]

#: The rank symbols A 2 ... 9 T J Q K, in rank order.
RANK_SYMBOLS: tuple[str, ...] = tuple(rank.symbol for rank in RANKS)
_RANK_POSITION = {symbol: position for position, symbol in enumerate(RANK_SYMBOLS)}
_JSON_KINDS = {str: "text", int: "a number", list: "a list", bool: "a boolean"}
_JSON_KINDS[type(None)] = "null"
_SPEC_EXAMPLE = "A=32,2=32,...,K=32 (ranks A 2-9 T J Q K; ranks not named count 0)"
_JSON_EXAMPLE = 'use an object such as {"A": 32, "2": 32, ..., "K": 32}'
#: Counts are below 10^100: far past any shoe, and every exact figure stays printable.
_COUNT_LIMIT = 10**MAX_DIGITS


def _check_count(key: str, count: object) -> int:
    if isinstance(count, bool) or not isinstance(count, int):
        raise ShoeError(
            f"Count {shown(count)} for {quoted(key)} is not valid; use a whole number of at least 0."
        )
    if count < 0:
        raise ShoeError(
            f"Count {shown(count)} for {quoted(key)} is negative; use a whole number of at least 0."
        )
    if count >= _COUNT_LIMIT:
        raise ShoeError(
            f"Count {shown(count)} for {quoted(key)} is too large; use a whole number below "
            f"10^{MAX_DIGITS}."
        )
    return count


def _counts(values: object, what: str) -> tuple[int, ...]:
    if isinstance(values, (str, bytes, Mapping)) or not isinstance(values, Iterable):
        raise ShoeError(
            f"{what} is {shown(values) if isinstance(values, (str, Mapping)) else type(values).__name__}"
            "; use a sequence of whole numbers, one per rank A 2-9 T J Q K."
        )
    return tuple(values)


def _spec_count(key: str, value: str) -> int:
    """A count in a shoe spec: digits only, at most :data:`MAX_DIGITS` of them."""
    cleaned = value.removeprefix("+")
    if cleaned.isdigit() and cleaned.isascii():
        if len(cleaned.lstrip("0")) > MAX_DIGITS:
            raise ShoeError(
                f"Count for {quoted(key)} has {len(cleaned.lstrip('0')):,} digits; use a whole "
                f"number below 10^{MAX_DIGITS}."
            )
        return int(cleaned)
    if cleaned.startswith("-") and cleaned[1:].isdigit() and cleaned[1:].isascii():
        raise ShoeError(
            f"Count {quoted(value, 20)} for {quoted(key)} is negative; use a whole number of at "
            "least 0."
        )
    raise ShoeError(
        f"Count {quoted(value, 20)} for {quoted(key)} is not valid; use a whole number of at "
        "least 0."
    )


@lru_cache(maxsize=1024)
def _cards_of_key(key: str) -> tuple[Card, ...]:
    # Batch input repeats the same few keys on every line.
    return parse_cards(key)


@dataclass(frozen=True)
class Shoe:
    """A shoe: how many cards of each rank (and suit, when known) remain.

    ``rank_counts`` follows :data:`~exactodds.cards.RANKS` (A 2 ... 9 T J Q K).
    ``suit_counts``, when not ``None``, has 52 entries, rank by rank, suits in
    the order S H D C; suited bets need it. With ``infinite`` the counts are weights
    per draw and every card is put back (:meth:`infinite_decks`).

    >>> Shoe.standard(decks=1).rank_counts
    (4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4)
    >>> Shoe((1, 2, 3))
    Traceback (most recent call last):
    ...
    exactodds.errors.ShoeError: A shoe needs 13 rank counts (A 2-9 T J Q K), not 3.
    """

    rank_counts: tuple[int, ...]
    suit_counts: tuple[int, ...] | None = None
    #: Cards drawn with replacement: the counts are each card's weight per draw, never used up.
    infinite: bool = False

    def __post_init__(self) -> None:
        if type(self.rank_counts) is not tuple:
            object.__setattr__(self, "rank_counts", _counts(self.rank_counts, "rank_counts"))
        if self.suit_counts is not None and type(self.suit_counts) is not tuple:
            object.__setattr__(self, "suit_counts", _counts(self.suit_counts, "suit_counts"))
        if type(self.infinite) is not bool:
            raise ShoeError(f"infinite is {self.infinite!r}; use True or False.")
        if len(self.rank_counts) != len(RANKS):
            raise ShoeError(
                f"A shoe needs 13 rank counts (A 2-9 T J Q K), not {len(self.rank_counts)}."
            )
        for rank, count in zip(RANKS, self.rank_counts, strict=True):
            _check_count(rank.symbol, count)
        if self.suit_counts is not None:
            if len(self.suit_counts) != len(RANKS) * len(SUITS):
                raise ShoeError(f"A suited shoe needs 52 card counts, not {len(self.suit_counts)}.")
            for index, count in enumerate(self.suit_counts):
                _check_count(RANKS[index // 4].symbol + SUITS[index % 4].symbol, count)
            for rank, count in zip(RANKS, self.rank_counts, strict=True):
                suited = sum(self.suit_counts[rank.index * 4 : rank.index * 4 + 4])
                if suited != count:
                    raise ShoeError(
                        f"Rank {rank.symbol} counts {count} cards but its suits add up to {suited}."
                    )

    # Constructors -------------------------------------------------------

    @classmethod
    def from_checked_counts(
        cls, rank_counts: tuple[int, ...], suit_counts: tuple[int, ...] | None
    ) -> Shoe:
        """A shoe of counts its maker has already checked, built without checking them again.

        For compositions valid by construction (a simulation's dealt shoes: the checks
        would cost more than evaluating the round); never for input. The counts must be
        tuples of 13 (and 52) whole numbers of at least 0, each rank's suits adding up.

        >>> Shoe.from_checked_counts((4,) * 13, None) == Shoe.standard(1).without_suits()
        True
        """
        shoe = object.__new__(cls)
        object.__setattr__(shoe, "rank_counts", rank_counts)
        object.__setattr__(shoe, "suit_counts", suit_counts)
        object.__setattr__(shoe, "infinite", False)
        return shoe

    @classmethod
    def standard(cls, decks: int = 8) -> Shoe:
        """A full shoe of *decks* 52-card decks, suits known.

        Any whole number of decks whose rank counts stay below 10^100
        (:data:`~exactodds.inputs.MOST_DECKS`); a simulation or a tracked table bounds its own
        shoes further (:data:`~exactodds.inputs.MAX_DECKS`), as its memory grows with them.

        >>> Shoe.standard(decks=8).cards, Shoe.standard(decks=10**6).cards
        (416, 52000000)
        >>> Shoe.standard(decks=-1)
        Traceback (most recent call last):
        ...
        exactodds.errors.ShoeError: Number of decks -1 for `decks` is not valid; use a whole number of at least 1.
        """
        decks = number_of_decks(decks, ShoeError, text=False, most=MOST_DECKS)
        return cls((4 * decks,) * 13, (decks,) * 52)

    @classmethod
    def infinite_decks(cls) -> Shoe:
        """An infinite shoe: every card drawn with replacement, suits known.

        Each draw is any of the 52 rank-and-suit cards with probability 1/52 (a value of
        zero, ten or a face, 16/52; any other value 4/52), whatever was drawn before: the
        limit of :meth:`standard` as the number of decks grows. Its counts are one deck's,
        read as weights per draw; a round's count is then a count of the 52^6 ordered
        sequences of six cards, each drawn from a full deck (:attr:`sequences`).

        >>> shoe = Shoe.infinite_decks()
        >>> shoe.infinite, shoe.decks, shoe.sequences == 52**6
        (True, None, True)
        >>> shoe.remove("K")
        Traceback (most recent call last):
        ...
        exactodds.errors.ShoeError: An infinite shoe draws every card with replacement, so no card can be removed from it; give a number of decks to remove cards from.
        """
        return cls((4,) * 13, (1,) * 52, infinite=True)

    @classmethod
    def from_ranks(cls, counts: Mapping[Any, Any] | Iterable[int]) -> Shoe:
        """A shoe known by rank only, from a mapping rank -> count or 13 counts.

        Ranks not named count 0.

        >>> Shoe.from_ranks({"A": 4, "10": 2}).rank_counts
        (4, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0)
        >>> Shoe.from_ranks({"A": 4, "a": 1})
        Traceback (most recent call last):
        ...
        exactodds.errors.ShoeError: Rank A is given twice ('A' and 'a'); name each rank once.
        """
        if not isinstance(counts, Mapping):
            return cls(_counts(counts, "from_ranks"))
        rank_counts = [0] * 13
        seen: dict[Rank, str] = {}
        for key, count in counts.items():
            if not isinstance(key, (str, Rank)):
                raise ShoeError(f"Shoe key {key!r} is not a rank; use {_SPEC_EXAMPLE}.")
            rank = key if isinstance(key, Rank) else parse_rank(key)
            name = key.symbol if isinstance(key, Rank) else key
            if rank in seen:
                raise ShoeError(
                    f"Rank {rank.symbol} is given twice ({quoted(seen[rank])} and {quoted(name)}); "
                    "name each rank once."
                )
            seen[rank] = name
            rank_counts[rank.index] = _check_count(name, count)
        return cls(tuple(rank_counts))

    @classmethod
    def from_mapping(cls, counts: Mapping[str, Any]) -> Shoe:
        """A shoe from a mapping keyed by rank (``"K"``) or by card (``"KS"``).

        Keys are either all ranks, giving a shoe known by rank, or all cards
        with suits, giving a suited shoe; cards not named count 0.

        >>> Shoe.from_mapping({"KS": 2, "KH": 1}).rank_count("K")
        3
        >>> Shoe.from_mapping({"KS": 2, "Q": 1})
        Traceback (most recent call last):
        ...
        exactodds.errors.ShoeError: Shoe keys mix ranks ('Q') and cards with suits ('KS'); give every key a suit or none.
        """
        if not isinstance(counts, Mapping):
            raise ShoeError(
                f"A shoe mapping is needed, not {type(counts).__name__}; {_JSON_EXAMPLE}."
            )
        positions = [_RANK_POSITION.get(key) for key in counts]
        if None not in positions and all(
            type(count) is int and count >= 0 for count in counts.values()
        ):
            # The common case, every batch line: canonical rank symbols and counts.
            quick = [0] * 13
            for position, count in zip(positions, counts.values(), strict=True):
                assert position is not None
                quick[position] = count
            return cls(tuple(quick))
        suited: dict[str, Any] = {}
        plain: dict[str, Any] = {}
        for key, count in counts.items():
            if not isinstance(key, str):
                raise ShoeError(f"Shoe key {key!r} is not a rank; use {_SPEC_EXAMPLE}.")
            try:
                cards = _cards_of_key(key) if len(key) <= 8 else ()
            except CardError:
                cards = ()
            if not cards:
                raise ShoeError(
                    f"Unknown rank {quoted(key)} in the shoe; use A 2-9 T J Q K (10 for T), "
                    "or a card with a suit such as KS."
                )
            if len(cards) != 1:
                raise ShoeError(
                    f"Shoe key {quoted(key)} names {len(cards)} cards; name one rank or card per "
                    "key."
                )
            (suited if cards[0].suit else plain)[key] = count
        if suited and plain:
            raise ShoeError(
                f"Shoe keys mix ranks ({quoted(next(iter(plain)))}) and cards with suits "
                f"({quoted(next(iter(suited)))}); give every key a suit or none."
            )
        if not suited:
            return cls.from_ranks(plain)
        suit_counts = [0] * 52
        seen: dict[Card, str] = {}
        for key, count in suited.items():
            card = _cards_of_key(key)[0]
            assert card.suit is not None
            if card in seen:
                raise ShoeError(
                    f"Card {card.symbol} is given twice ({quoted(seen[card])} and {quoted(key)}); "
                    "name each card once."
                )
            seen[card] = key
            suit_counts[card.rank.index * 4 + card.suit.index] = _check_count(key, count)
        rank_counts = tuple(sum(suit_counts[index * 4 : index * 4 + 4]) for index in range(13))
        return cls(rank_counts, tuple(suit_counts))

    @classmethod
    def parse(cls, spec: str) -> Shoe:
        """A shoe from a spec ``"A=32,2=32,...,K=32"`` or a JSON object text.

        Entries are separated by commas, semicolons or new lines (a spec file may give one
        rank a line).

        >>> Shoe.parse('{"A": 2, "K": 4}').cards
        6
        >>> Shoe.parse("A=3,K")
        Traceback (most recent call last):
        ...
        exactodds.errors.ShoeError: Shoe spec entry 'K' has no count; use A=32,2=32,...,K=32 (ranks A 2-9 T J Q K; ranks not named count 0).
        """
        if not isinstance(spec, str):
            raise ShoeError(
                f"Shoe spec {spec!r} is not text; use {_SPEC_EXAMPLE}, or a JSON object text."
            )
        text = spec.strip().removeprefix("\ufeff")
        if text.startswith(("{", "[", '"')):
            return cls.from_json(text)  # reports where the JSON breaks, if it does
        if "=" not in text and ":" not in text:
            try:
                data = load_json(text, "shoe JSON", ShoeError)
            except ShoeError:
                pass  # not JSON either: the spec reading below says what is wrong
            else:
                return cls._from_data(data)
        counts: dict[str, Any] = {}
        for entry in text.replace(";", ",").replace("\n", ",").split(","):
            entry = entry.strip()
            if not entry:
                continue
            key, separator, value = entry.partition("=")
            if not separator:
                key, separator, value = entry.partition(":")
            if not separator:
                raise ShoeError(
                    f"Shoe spec entry {quoted(entry)} has no count; use {_SPEC_EXAMPLE}."
                )
            key, value = key.strip(), value.strip()
            if key in counts:
                raise ShoeError(f"Shoe spec names {quoted(key)} twice; name each rank once.")
            counts[key] = _spec_count(key, value)
        if not counts:
            raise ShoeError(f"Shoe spec {quoted(spec)} names no cards; use {_SPEC_EXAMPLE}.")
        return cls.from_mapping(counts)

    @classmethod
    def from_json(cls, text: str) -> Shoe:
        """A shoe from a JSON object such as ``{"A": 32, ..., "K": 32}``.

        The JSON is read within :mod:`exactodds.inputs`' limits: a key named twice, deep
        nesting or a number of more than 100 digits is refused.

        >>> Shoe.from_json('{"A": 6}').cards
        6
        >>> Shoe.from_json('{"A": 6.5}')
        Traceback (most recent call last):
        ...
        exactodds.errors.ShoeError: Count 6.5 for 'A' is not valid; use a whole number of at least 0.
        >>> Shoe.from_json('{"K": 4, "K": 9}')
        Traceback (most recent call last):
        ...
        exactodds.errors.ShoeError: Shoe JSON names "K" twice; name each key once.
        """
        if not isinstance(text, str):
            raise ShoeError(f"Shoe JSON {text!r} is not text; {_JSON_EXAMPLE}.")
        return cls._from_data(
            load_json(text, "shoe JSON", ShoeError, _JSON_EXAMPLE, "is malformed")
        )

    @classmethod
    def from_json_line(cls, line: str) -> Shoe | None:
        """A shoe from one line of batch input (the JSON ``--shoe`` takes); ``None`` if blank.

        A line as :func:`~exactodds.inputs.read_lines` gives it: bytes that were not UTF-8,
        or a line past the length limit, are refused here, in the line's place.

        >>> Shoe.from_json_line('\\ufeff{"A": 6}\\n').cards, Shoe.from_json_line("  \\n")
        (6, None)
        >>> Shoe.from_json_line('{"A": 6}\\udcff')
        Traceback (most recent call last):
        ...
        exactodds.errors.ShoeError: This line is not UTF-8 text (byte 0xff at column 9); save the input as UTF-8.
        """
        if not isinstance(line, str):
            raise ShoeError(f"A batch line must be text, not {type(line).__name__}.")
        problem = line_problem(line)
        if problem is not None:
            fix = "save the input as UTF-8" if "UTF-8" in problem else "put one shoe on each line"
            raise ShoeError(f"This line {problem}; {fix}.")
        text = line.strip().removeprefix("\ufeff").strip()
        return cls.from_json(text) if text else None

    @classmethod
    def _from_data(cls, data: object) -> Shoe:
        if not isinstance(data, dict):
            kind = _JSON_KINDS.get(type(data), "a number")
            raise ShoeError(f"Shoe JSON is {kind}, not an object; {_JSON_EXAMPLE}.")
        return cls.from_mapping(data)

    # Derived views ------------------------------------------------------

    @property
    def cards(self) -> int:
        """How many cards the shoe holds (an infinite shoe: the cards of one draw's deck)."""
        return sum(self.rank_counts)

    @property
    def sequences(self) -> int:
        """How many ordered six-card sequences a round is counted among.

        ``n (n-1) ... (n-5)`` for a shoe of ``n`` cards; ``n^6`` for an infinite shoe, whose
        every draw is any of its ``n`` card types (52 for :meth:`infinite_decks`).

        >>> Shoe.standard(decks=1).sequences, Shoe.infinite_decks().sequences
        (14658134400, 19770609664)
        """
        cards = self.cards
        if self.infinite:
            return cards**6
        return cards * (cards - 1) * (cards - 2) * (cards - 3) * (cards - 4) * (cards - 5)

    @property
    def suits_known(self) -> bool:
        """Whether every card's suit is known (needed by suited bets)."""
        return self.suit_counts is not None

    @property
    def value_counts(self) -> tuple[int, ...]:
        """Cards per baccarat value 0-9 (index 0 holds the tens and faces).

        >>> Shoe.standard(decks=1).value_counts
        (16, 4, 4, 4, 4, 4, 4, 4, 4, 4)
        """
        counts = [0] * 10
        for value, count in zip(VALUES, self.rank_counts, strict=True):
            counts[value] += count
        return tuple(counts)

    @property
    def decks(self) -> int | None:
        """The number of full decks when the shoe is exactly that, else ``None``.

        >>> Shoe.standard(decks=6).decks, Shoe.standard(decks=6).remove("A").decks
        (6, None)
        """
        first = self.rank_counts[0]
        if (
            self.infinite
            or first == 0
            or first % 4
            or any(count != first for count in self.rank_counts)
        ):
            return None
        if self.suit_counts is not None and any(count != first // 4 for count in self.suit_counts):
            return None
        return first // 4

    def rank_count(self, rank: str | Rank) -> int:
        """How many cards of *rank* remain.

        >>> Shoe.standard(decks=2).rank_count("10")
        8
        """
        return self.rank_counts[(rank if isinstance(rank, Rank) else parse_rank(rank)).index]

    def card_count(self, card: str | Card) -> int | None:
        """How many copies of one rank-and-suit card remain, or ``None`` if suits are unknown.

        >>> Shoe.standard(decks=8).card_count("QH")
        8
        """
        if isinstance(card, str):
            cards = parse_cards(card)
            if len(cards) != 1:
                raise CardError(
                    f"card_count needs one card, not {len(cards)} ({quoted(card)}); name one "
                    "such as KS."
                )
            card = cards[0]
        if not isinstance(card, Card):
            raise CardError(f"card_count needs a card such as 'KS', not {card!r}.")
        if card.suit is None:
            raise CardError(f"Card {card.symbol!r} has no suit; name one such as {card.symbol}S.")
        if self.suit_counts is None:
            return None
        return self.suit_counts[card.rank.index * 4 + card.suit.index]

    def to_dict(self) -> dict[str, int]:
        """Rank symbol -> count, in rank order (the JSON form of ``--shoe``).

        >>> Shoe.from_ranks({"K": 7}).to_dict()["K"]
        7
        """
        return dict(zip(RANK_SYMBOLS, self.rank_counts, strict=True))

    def describe(self) -> str:
        """A short human description: ``"416 cards (8 decks), suits known"``.

        >>> Shoe.standard(decks=8).remove("KS").describe()
        '415 cards, suits known'
        """
        suits = ", suits known" if self.suits_known else ", suits not known"
        if self.infinite:
            return "infinite decks (cards drawn with replacement)" + suits
        text = f"{self.cards} cards"
        if self.decks is not None:
            text += f" ({self.decks} deck{'s' if self.decks != 1 else ''})"
        return text + suits

    def __str__(self) -> str:
        return self.describe()

    # Changes ------------------------------------------------------------

    def remove(self, cards: str | Iterable[str | Card]) -> Shoe:
        """The shoe after *cards* have been dealt from it.

        Cards given with a suit keep a suited shoe suited; a card given by rank
        alone makes the suits unknown, since which suit left is unknown.

        >>> Shoe.standard(decks=1).remove("KS KH").card_count("KS")
        0
        >>> Shoe.standard(decks=1).remove("K").suits_known
        False
        >>> Shoe.standard(decks=1).remove("K K K K K")
        Traceback (most recent call last):
        ...
        exactodds.errors.ShoeError: Cannot remove 5 K: the shoe holds only 4.
        """
        parsed = parse_cards(cards)
        if self.infinite and parsed:
            raise ShoeError(
                "An infinite shoe draws every card with replacement, so no card can be removed "
                "from it; give a number of decks to remove cards from."
            )
        rank_counts = list(self.rank_counts)
        suit_counts = list(self.suit_counts) if self.suit_counts is not None else None
        wanted: dict[Rank, int] = {}
        wanted_cards: dict[Card, int] = {}
        for card in parsed:
            wanted[card.rank] = wanted.get(card.rank, 0) + 1
            if card.suit is not None:
                wanted_cards[card] = wanted_cards.get(card, 0) + 1
        for rank, number in wanted.items():
            if number > rank_counts[rank.index]:
                raise ShoeError(
                    f"Cannot remove {number} {rank.symbol}: the shoe holds only "
                    f"{rank_counts[rank.index]}."
                )
            rank_counts[rank.index] -= number
        if suit_counts is not None:
            for card, number in wanted_cards.items():
                assert card.suit is not None
                slot = card.rank.index * 4 + card.suit.index
                if number > suit_counts[slot]:
                    raise ShoeError(
                        f"Cannot remove {number} {card.symbol}: the shoe holds only "
                        f"{suit_counts[slot]}."
                    )
                suit_counts[slot] -= number
            if any(card.suit is None for card in parsed):
                suit_counts = None
        return Shoe(tuple(rank_counts), tuple(suit_counts) if suit_counts is not None else None)

    def without_suits(self) -> Shoe:
        """The same shoe known by rank only.

        >>> Shoe.standard(decks=1).without_suits().suits_known
        False
        >>> Shoe.infinite_decks().without_suits().describe()
        'infinite decks (cards drawn with replacement), suits not known'
        """
        return Shoe(self.rank_counts, infinite=self.infinite)

    def require_finite(self, what: str) -> None:
        """Refuse an infinite shoe where *what* needs real cards, dealt or removed.

        >>> Shoe.standard(decks=8).require_finite("A simulation")
        >>> Shoe.infinite_decks().require_finite("A simulation")
        Traceback (most recent call last):
        ...
        exactodds.errors.ShoeError: A simulation needs a finite shoe, and this shoe is infinite (cards drawn with replacement); use a whole number of decks.
        """
        if self.infinite:
            raise ShoeError(
                f"{what} needs a finite shoe, and this shoe is infinite (cards drawn with "
                "replacement); use a whole number of decks."
            )
