"""Exact odds when some of the next cards are known (a dealer flash, a marked card).

Dealing positions
-----------------
A round is counted, as everywhere in exactodds, as the ordered sequence of the
next six cards ``c1 ... c6`` in the shoe.  Positions 1-4 are the first four
cards as dealt: **1** the Player's first card (P1), **2** the Banker's first
card (B1), **3** the Player's second card (P2), **4** the Banker's second card
(B2).  Positions 5 and 6 are the third cards *in the order they would be dealt*:

* **5** is the first third card: the Player's third card if the Player draws;
  otherwise the Banker's third card if the Banker draws (the Player stood);
  otherwise it is not dealt.
* **6** is the Banker's third card after a Player third card; it is dealt only
  when both hands draw.

A known card at a position the round never deals still counts: every round is
a six-card sequence, so "the card at position 6 is a 9" means the sixth card
of the sequence is that 9, dealt or not.  Conditioning on the sequence keeps
every probability well defined, and an undealt known card still moves the odds,
by its removal from the cards that are dealt.

What is counted
---------------
With ``k`` known cards, the known cards are taken out of the shoe and put at
their positions, and the other ``6 - k`` positions are filled, in order and
without replacement, from the ``n - k`` cards left.  So the counts add up to
``(n - k)(n - k - 1)...(n - 5)``: each ordered choice of ``6 - k`` distinct
cards from ``n - k`` fills the free positions in exactly one way and gives
exactly one round, and every sequence with the known cards in place arises
this way once.  Divided by that total they are the exact probabilities *given*
the known cards.  A known card named by rank alone (``K``) stands for any one
king: by symmetry every king gives the same counts.

Pairs are decided by rank; suited pairs only when the shoe knows its suits
*and* every known card has a suit (otherwise the suited fields are ``None``,
as on any shoe known by rank only).

An infinite shoe (:meth:`~exactodds.shoe.Shoe.infinite_decks`) is walked as
:func:`~exactodds.engine.walk.enumerate_rounds` walks it, with every card put
back (a draw takes ``taken = 0`` cards from its class): a known card fixes its
position and leaves the shoe as it was, so the other ``6 - k`` positions are
independent draws from the full shoe and the counts add up to ``n^(6 - k)``
(``52^(6 - k)``), the leading coefficients of the finite counts in the number
of decks.

>>> from fractions import Fraction
>>> from exactodds import Shoe
>>> from exactodds.engine.walk import Winner, falling_factorial
>>> table = enumerate_known(Shoe.standard(decks=8), None, {1: "9", 3: "K"})
>>> table.total == falling_factorial(414, 4)
True
>>> table.probability(lambda s: s.winner is Winner.PLAYER) > Fraction(1, 2)
True
>>> enumerate_known(Shoe.standard(decks=8), None, {7: "K"})
Traceback (most recent call last):
...
exactodds.engine.known.KnownCardError: Position 7 is not a dealing position; use 1-6 (P1 B1 P2 B2, then the third cards in the order dealt).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from typing import TypeAlias

from exactodds.cards import VALUES, Card, parse_cards
from exactodds.engine.walk import (
    NO_PAIR,
    PAIR,
    SUITED_PAIR,
    OutcomeTable,
    RoundSummary,
    drawn,
    require_countable,
    summary_of,
)
from exactodds.errors import CardError, quoted
from exactodds.rules import FirstDraw, Tableau
from exactodds.shoe import Shoe

__all__ = [
    "POSITION_LABELS",
    "KnownCardError",
    "KnownLike",
    "describe_known",
    "enumerate_known",
    "parse_known",
]

#: What each dealing position holds.
POSITION_LABELS: dict[int, str] = {
    1: "Player's first card",
    2: "Banker's first card",
    3: "Player's second card",
    4: "Banker's second card",
    5: "first third card",
    6: "second third card",
}
_ALIASES = {"P1": 1, "B1": 2, "P2": 3, "B2": 4}
_POSITIONS_HINT = "use 1-6 (P1 B1 P2 B2, then the third cards in the order dealt)"

#: Known cards as accepted by :func:`parse_known` and :func:`enumerate_known`.
KnownLike: TypeAlias = (
    Mapping[int, Card | str]
    | Mapping[str, Card | str]
    | Mapping[int | str, Card | str]
    | Iterable[str]
)


class KnownCardError(CardError):
    """A known card, or its position, is not valid for the shoe.

    >>> parse_known(["1=KS", "1=7"])
    Traceback (most recent call last):
    ...
    exactodds.engine.known.KnownCardError: Position 1 is given twice ('KS' and '7'); name each position once.
    """


def _position(key: object) -> int:
    if isinstance(key, str):
        cleaned = key.strip().upper()
        if cleaned in _ALIASES:
            return _ALIASES[cleaned]
        if cleaned.isdigit() and cleaned.isascii() and len(cleaned) <= 3:
            key = int(cleaned)
    if isinstance(key, bool) or not isinstance(key, int) or not 1 <= key <= 6:
        if isinstance(key, str):
            shown = key if len(key) <= 20 and key.isprintable() else quoted(key, 20)
        else:
            shown = quoted(repr(key), 40)[1:-1]
        raise KnownCardError(f"Position {shown} is not a dealing position; {_POSITIONS_HINT}.")
    return key


def _card(value: Card | str, position: int) -> Card:
    if isinstance(value, Card):
        return value
    try:
        cards = parse_cards(value)
    except CardError:
        cards = ()
    if len(cards) != 1:
        raise KnownCardError(
            f"Known card {quoted(repr(value), 40)[1:-1]} at position {position} is not one card; "
            "use one card such "
            "as K, 7 or KS (ranks A 2-9 T J Q K, suits S H D C)."
        )
    return cards[0]


def parse_known(items: KnownLike) -> dict[int, Card]:
    """Read known cards: ``"1=KS"``, ``"P2=7"`` or a mapping position -> card.

    Positions are 1-6, or P1 B1 P2 B2 for 1-4; cards may have a suit.

    >>> parse_known(["P1=KS", "5=7"])
    {1: Card(rank=<Rank.KING: 'K'>, suit=<Suit.SPADES: 'S'>), 5: Card(rank=<Rank.SEVEN: '7'>, suit=None)}
    >>> parse_known(["KS"])
    Traceback (most recent call last):
    ...
    exactodds.engine.known.KnownCardError: Known card 'KS' has no position; use POSITION=CARD such as 1=KS or P2=7, positions 1-6 (P1 B1 P2 B2, then the third cards in the order dealt).
    """
    pairs: list[tuple[object, Card | str]] = []
    if isinstance(items, Mapping):
        pairs = list(items.items())
    elif isinstance(items, str) or not isinstance(items, Iterable):
        raise KnownCardError(
            f"Known cards {quoted(repr(items), 40)[1:-1]} are not a list or mapping; use "
            "['1=KS', 'P2=7'] or {1: 'KS', 3: '7'}."
        )
    else:
        for text in items:
            if not isinstance(text, str):
                raise KnownCardError(
                    f"Known card {quoted(repr(text), 40)[1:-1]} is not text; use POSITION=CARD "
                    "such as 1=KS."
                )
            where, separator, card = text.partition("=")
            if separator and where.strip() and not card.strip():
                raise KnownCardError(
                    f"Known card {quoted(text)} has no card after the '='; use POSITION=CARD "
                    "such as 1=KS or P2=7."
                )
            if not separator or not where.strip():
                raise KnownCardError(
                    f"Known card {quoted(text)} has no position; use POSITION=CARD such as 1=KS "
                    f"or P2=7, positions 1-6 (P1 B1 P2 B2, then the third cards in the order "
                    "dealt)."
                )
            pairs.append((where, card.strip()))
    known: dict[int, Card] = {}
    given: dict[int, str] = {}
    for key, value in pairs:
        position = _position(key)
        shown = value.symbol if isinstance(value, Card) else str(value)
        if position in known:
            raise KnownCardError(
                f"Position {position} is given twice ({given[position]!r} and {shown!r}); "
                "name each position once."
            )
        known[position] = _card(value, position)
        given[position] = shown
    return dict(sorted(known.items()))


def describe_known(known: Mapping[int, Card]) -> str:
    """One line for report headers.

    >>> describe_known(parse_known(["1=KS", "6=9"]))
    "KS at position 1 (Player's first card), 9 at position 6 (second third card)"
    >>> describe_known({})
    'none'
    """
    if not known:
        return "none"
    return ", ".join(
        f"{card.symbol} at position {position} ({POSITION_LABELS[position]})"
        for position, card in sorted(known.items())
    )


def _pool(shoe: Shoe, known: Mapping[int, Card]) -> Shoe:
    """The shoe without the known cards, after checking that it holds them.

    An infinite shoe keeps every card (each draw puts its card back): it need only hold the
    known cards' kinds, and a known card given by rank alone makes its suits unknown, as
    removing it from a finite shoe does.
    """
    cards = list(known.values())
    for card in cards:
        # With replacement any number of draws may show the same card: one is enough.
        wanted = 1 if shoe.infinite else sum(other.rank == card.rank for other in cards)
        held = shoe.rank_counts[card.rank.index]
        if wanted > held:
            raise KnownCardError(
                f"The known cards include {wanted} {card.rank.symbol}, but the shoe holds "
                f"only {held}."
            )
        if card.suit is not None and shoe.suit_counts is not None:
            wanted = 1 if shoe.infinite else sum(other == card for other in cards)
            held = shoe.suit_counts[card.rank.index * 4 + card.suit.index]
            if wanted > held:
                raise KnownCardError(
                    f"The known cards include {wanted} {card.symbol}, but the shoe holds "
                    f"only {held}."
                )
    if shoe.infinite:
        return shoe if all(card.suit is not None for card in cards) else shoe.without_suits()
    return shoe.remove(cards)


def _first_four(
    pool: list[int], fixed: Mapping[int, int], position: int = 1, taken: int = 1
) -> Iterator[tuple[tuple[int, ...], int]]:
    """Every rank sequence of positions *position*..4 with its number of card choices.

    Known positions hold their rank (weight 1: the card is already out of
    *pool*); a free position takes any rank left in *pool*, weighted by how
    many cards of that rank are left (*taken*: the cards a draw takes, 0 with
    replacement).
    """
    if position > 4:
        yield (), 1
        return
    if position in fixed:
        for rest, weight in _first_four(pool, fixed, position + 1, taken):
            yield (fixed[position], *rest), weight
        return
    for rank, available in enumerate(pool):
        if available > 0:
            pool[rank] -= taken
            for rest, weight in _first_four(pool, fixed, position + 1, taken):
                yield (rank, *rest), available * weight
            pool[rank] += taken


def _suited_split(
    ranks: tuple[int, ...],
    fixed_suits: Mapping[int, int],
    suit_pool: tuple[int, ...],
    rank_pool: tuple[int, ...],
    taken: int = 1,
) -> dict[tuple[bool, bool], int]:
    """Split the weight of four first ranks by whether each hand is a suited pair.

    Counting card choices does not depend on the order positions are filled,
    so the positions of paired hands are filled first, suit by suit, and the
    others after them by rank alone.  Hands are (positions 1, 3) and (2, 4).
    *taken* is the cards a draw takes from its kind (0 with replacement).
    """
    player_pair = ranks[0] == ranks[2]
    banker_pair = ranks[1] == ranks[3]
    by_suit = [index for index in range(4) if (player_pair, banker_pair)[index % 2]]
    by_rank = [index for index in range(4) if index not in by_suit]
    result: dict[tuple[bool, bool], int] = defaultdict(int)
    suits_left = list(suit_pool)
    ranks_left = list(rank_pool)

    def fill(step: int, suits: dict[int, int], weight: int) -> None:
        if step < len(by_suit):
            index = by_suit[step]
            rank = ranks[index]
            if index + 1 in fixed_suits:
                fill(step + 1, suits | {index: fixed_suits[index + 1]}, weight)
                return
            for suit in range(4):
                slot = rank * 4 + suit
                if suits_left[slot] > 0:
                    available = suits_left[slot]
                    suits_left[slot] -= taken
                    ranks_left[rank] -= taken
                    fill(step + 1, suits | {index: suit}, weight * available)
                    suits_left[slot] += taken
                    ranks_left[rank] += taken
            return
        rest = 1
        drawn_before: dict[int, int] = defaultdict(int)
        for index in by_rank:
            if index + 1 in fixed_suits:
                continue
            rank = ranks[index]
            rest *= max(ranks_left[rank] - taken * drawn_before[rank], 0)
            drawn_before[rank] += 1
        player_suited = player_pair and suits[0] == suits[2]
        banker_suited = banker_pair and suits[1] == suits[3]
        if weight * rest:
            result[player_suited, banker_suited] += weight * rest

    fill(0, {}, 1)
    return dict(result)


def enumerate_known(shoe: Shoe, tableau: Tableau | None, known: KnownLike) -> OutcomeTable:
    """Count the rounds *shoe* can deal with the *known* cards at their positions.

    *known* maps dealing positions 1-6 (see the module's guide) to cards
    (``Card`` objects or text such as ``"KS"`` or ``"7"``); *tableau*
    defaults to the standard one.  The counts add up to
    ``(n - k)(n - k - 1)...(n - 5)`` for ``k`` known cards; with none known
    they are those of :func:`~exactodds.engine.walk.enumerate_rounds`.

    >>> from exactodds import Shoe
    >>> from exactodds.engine.walk import Winner
    >>> table = enumerate_known(Shoe.standard(decks=8), None, {5: "9"})
    >>> table.total, table.suits_known
    (12015380469960, False)
    >>> enumerate_known(Shoe.standard(decks=8), None, {2: "QH"}).suits_known
    True
    >>> enumerate_known(Shoe.standard(decks=1), None, {1: "KS", 2: "KS"})
    Traceback (most recent call last):
    ...
    exactodds.engine.known.KnownCardError: The known cards include 2 KS, but the shoe holds only 1.


    On an infinite shoe a known card leaves the others independent draws from the full
    shoe: the counts add up to ``n^(6 - k)``.

    >>> enumerate_known(Shoe.infinite_decks(), None, {1: "K", 3: "K"}).total == 52**4
    True
    >>> enumerate_known(Shoe((0,) * 12 + (4,), infinite=True), None, {1: "A"})
    Traceback (most recent call last):
    ...
    exactodds.engine.known.KnownCardError: The known cards include 1 A, but the shoe holds only 0.
    """
    tableau = tableau if tableau is not None else Tableau()
    cards = parse_known(known)
    require_countable(shoe)
    pool = _pool(shoe, cards)
    taken = 0 if shoe.infinite else 1  # cards a draw takes from its class, as in the walk
    suits_known = pool.suits_known
    fixed_ranks = {position: card.rank.index for position, card in cards.items() if position <= 4}
    fixed_suits = {
        position: card.suit.index
        for position, card in cards.items()
        if position <= 4 and card.suit is not None
    }

    # The first four cards: by rank (pairs need ranks), with suits only when they decide a
    # suited pair; grouped by what the rest of the round depends on.
    first: dict[tuple[int, int, tuple[int, ...], int, int], int] = defaultdict(int)
    for ranks, weight in _first_four(list(pool.rank_counts), fixed_ranks, taken=taken):
        player_pair = ranks[0] == ranks[2]
        banker_pair = ranks[1] == ranks[3]
        if suits_known and (player_pair or banker_pair):
            assert pool.suit_counts is not None
            splits = _suited_split(ranks, fixed_suits, pool.suit_counts, pool.rank_counts, taken)
            if sum(splits.values()) != weight:  # pragma: no cover - a broken split
                raise AssertionError("the suited split does not add up to the rank weight")
        else:
            splits = {(False, False): weight}
        values = [VALUES[rank] for rank in ranks]
        player_total = (values[0] + values[2]) % 10
        banker_total = (values[1] + values[3]) % 10
        dealt = tuple(sorted(values[index] for index in range(4) if index + 1 not in cards))
        for (player_suited, banker_suited), split_weight in splits.items():
            player_state = _state(player_pair, player_suited)
            banker_state = _state(banker_pair, banker_suited)
            first[player_total, banker_total, dealt, player_state, banker_state] += split_weight

    fifth = VALUES[cards[5].rank.index] if 5 in cards else None
    sixth = VALUES[cards[6].rank.index] if 6 in cards else None
    pool_values = pool.value_counts
    endings_cache: dict[tuple[int, int, tuple[int, ...]], dict[tuple[int, int, int, int], int]] = {}
    counts: dict[tuple[int, int, int, int, bool, bool, int, int], int] = defaultdict(int)
    naturals = tableau.natural_totals
    for (player_total, banker_total, dealt, player_state, banker_state), weight in first.items():
        cache_key = (player_total, banker_total, dealt)
        if cache_key not in endings_cache:
            left = list(pool_values)
            for value in dealt:
                left[value] -= taken
            endings_cache[cache_key] = _endings(
                tableau, player_total, banker_total, left, fifth, sixth, taken
            )
        player_natural = player_total in naturals
        banker_natural = banker_total in naturals
        for ending, ending_weight in endings_cache[cache_key].items():
            counts[(*ending, player_natural, banker_natural, player_state, banker_state)] += (
                weight * ending_weight
            )

    table: dict[RoundSummary, int] = {}
    for key, count in counts.items():
        summary = summary_of(key, suits_known)
        table[summary] = table.get(summary, 0) + count
    total = drawn(pool.cards, 6 - len(cards), taken)
    if sum(table.values()) != total:  # pragma: no cover - a broken walk, never user input
        raise AssertionError("the known-card walk does not add up to (n-k)...(n-5) (n^(6-k))")
    return OutcomeTable(table, total, suits_known)


def _state(pair: bool, suited: bool) -> int:
    if suited:
        return SUITED_PAIR
    return PAIR if pair else NO_PAIR


def _endings(
    tableau: Tableau,
    player_total: int,
    banker_total: int,
    left: list[int],
    fifth: int | None,
    sixth: int | None,
    taken: int = 1,
) -> dict[tuple[int, int, int, int], int]:
    """Final (Player total, Banker total, Player cards, Banker cards) -> ways to fill 5 and 6.

    Positions 5 and 6 are always filled (the six-card convention), by the
    known card or by any value left, in order and without replacement (with
    it: *taken* 0).
    """
    endings: dict[tuple[int, int, int, int], int] = defaultdict(int)
    for card5, weight5 in _options(fifth, left):
        if fifth is None:
            left[card5] -= taken
        for card6, weight6 in _options(sixth, left):
            ending = _play(tableau, player_total, banker_total, card5, card6)
            endings[ending] += weight5 * weight6
        if fifth is None:
            left[card5] += taken
    return dict(endings)


def _options(known_value: int | None, left: list[int]) -> list[tuple[int, int]]:
    if known_value is not None:
        return [(known_value, 1)]
    return [(value, count) for value, count in enumerate(left) if count > 0]


def _play(
    tableau: Tableau, player_total: int, banker_total: int, card5: int, card6: int
) -> tuple[int, int, int, int]:
    """Finish a round from the two-card totals and the values at positions 5 and 6."""
    draw = tableau.first_draw(player_total, banker_total)
    if draw is FirstDraw.PLAYER:
        player_final = (player_total + card5) % 10
        if tableau.banker_draws_on(banker_total, card5):
            return player_final, (banker_total + card6) % 10, 3, 3
        return player_final, banker_total, 3, 2
    if draw is FirstDraw.BANKER:
        return player_total, (banker_total + card5) % 10, 2, 3
    return player_total, banker_total, 2, 2
