"""How a casino deals a baccarat shoe: shuffle, burn, cut card, rounds.

The dealing order of a shoe is fixed by its seed before anyone decides
anything: the cards come out in the shuffled order whatever is bet.  So a
whole block of shoes is dealt here first, as flat integer arrays (for every
round: its shoe, its number, where it starts, its cards, its summary, and the
composition a counter knows before it), and the exact evaluation of all those
compositions is one batch call afterwards (:mod:`exactodds.simulation.evaluate`).

The procedure (:class:`DealingProcedure`), as casinos deal Punto Banco:

* a shoe of ``decks`` 52-card decks, shuffled from a seeded random source
  (:func:`shuffled_shoe`): shoe ``i`` of seed ``s`` is the same on every machine,
  whatever the number of workers or the block it is dealt in;
* the burn: ``standard`` exposes the first card, then burns face down as many
  cards as its value (10 for T, J, Q, K; 1 for an ace); ``none`` burns nothing;
  a number ``K`` burns ``K`` cards face down.  A counter sees the exposed card,
  never the face-down burns;
* the cut card sits ``cut`` cards from the back.  When it comes out in the
  middle of a round, that round is finished and ``after_cut`` more rounds are
  dealt (default 1).  When it comes out as the first card of a round, that round
  counts as the one it interrupted, so ``after_cut + 1`` rounds follow (two by
  default), unless ``cut_first_rounds`` says otherwise (Wizard of Odds' rules of
  play, and Jacobson's studies, deal that round only: ``cut_first_rounds=1``).  Dealing also stops when fewer than six cards are left, as a round
  may need six.

Cards are card types 0-51: rank by rank (A 2 ... 9 T J Q K), suits S H D C,
the order of :attr:`exactodds.shoe.Shoe.suit_counts`.

>>> procedure = DealingProcedure(decks=1, cut=14)
>>> block = deal_block(procedure, Tableau(), seed=7, first_shoe=0, shoes=2)
>>> int(block.rounds_per_shoe.sum()) == len(block.round_shoe)
True
>>> DealingProcedure(decks=1, cut=60)
Traceback (most recent call last):
...
exactodds.errors.SimulationError: Cut card 60 cards from the back is deeper than a 52-card shoe allows; use a cut of at most 35 (the burn takes up to 11 cards and a round up to 6).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from exactodds.engine.kernel.program import native_module
from exactodds.errors import SimulationError
from exactodds.inputs import MAX_DECKS, number_of_decks, whole_number
from exactodds.rules import Tableau
from exactodds.simulation.dealing_twin import deal_rows, shuffled_places

__all__ = [
    "CARD_SYMBOLS",
    "DEALING_METHODS",
    "DealingProcedure",
    "DealtBlock",
    "deal_block",
    "deal_shoes",
    "dealing_module",
    "procedure_parameters",
    "shuffled_shoe",
    "shuffled_shoes",
    "summary_fields",
    "tableau_flags",
]

IntArray = npt.NDArray[np.int64]

#: The most cards a round uses.
ROUND_CARDS = 6
_RANK_SYMBOLS = "A23456789TJQK"
#: The symbol of each of the 52 card types: AS AH AD AC 2S ... KC.
CARD_SYMBOLS: tuple[str, ...] = tuple(rank + suit for rank in _RANK_SYMBOLS for suit in "SHDC")
#: Baccarat value of each card type.
CARD_VALUES: IntArray = np.repeat(np.array([1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0]), 4)
#: Cards burned face down after an exposed card of each type (10 for T J Q K).
BURN_COUNTS: IntArray = np.repeat(np.array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]), 4)
#: Summary keys: (player total, banker total, player third, banker third, player natural,
#: banker natural, player pair state, banker pair state), mixed radix, pair states 0-2.
_RADICES = (10, 10, 2, 2, 2, 2, 3, 3)
SUMMARY_KEYS = int(np.prod(_RADICES))


@dataclass(frozen=True)
class DealingProcedure:
    """How each shoe is dealt: decks, burn rule, cut card, rounds after the cut card.

    ``burn`` is ``"standard"``, ``"none"`` or a number of cards burned face down.

    >>> DealingProcedure().describe()
    '8 decks; standard burn (first card exposed, its value in cards burned face down); cut card 14 cards from the back; 1 more round after the one the cut card interrupts, 2 rounds when it comes first'
    >>> DealingProcedure(burn="some")
    Traceback (most recent call last):
    ...
    exactodds.errors.SimulationError: Burn rule 'some' is not valid; use standard, none or a number of cards such as 3.
    """

    decks: int = 8
    cut: int = 14
    burn: str | int = "standard"
    after_cut: int = 1
    #: Rounds dealt when the cut card is the first card of a round, that round included
    #: (None: ``after_cut + 1``, as for a cut card that interrupts a round). Wizard of Odds'
    #: rules of play deal that round only: 1.
    cut_first_rounds: int | None = None

    def __post_init__(self) -> None:
        number_of_decks(self.decks, SimulationError, text=False)
        whole_number(self.cut, "cut", SimulationError, what="Cut card depth")
        whole_number(self.after_cut, "after_cut", SimulationError, what="Rounds after the cut card")
        if self.cut_first_rounds is None:
            object.__setattr__(self, "cut_first_rounds", self.after_cut + 1)
        whole_number(
            self.cut_first_rounds,
            "cut_first_rounds",
            SimulationError,
            minimum=1,
            what="Rounds dealt when the cut card comes first",
        )
        burn = self.burn
        if isinstance(burn, str) and burn.strip().isascii() and burn.strip().isdigit():
            burn = int(burn.strip())
        if isinstance(burn, str):
            if burn.strip().lower() not in ("standard", "none"):
                raise SimulationError(
                    f"Burn rule {self.burn!r} is not valid; use standard, none or a number of "
                    "cards such as 3."
                )
            burn = burn.strip().lower()
        else:
            whole_number(burn, "burn", SimulationError, what="Burn count")
        object.__setattr__(self, "burn", burn)
        deepest = self.cards - self.most_burned - ROUND_CARDS
        if deepest < 0:
            raise SimulationError(
                f"A {self.cards}-card shoe cannot deal a round after burning "
                f"{self.most_burned} cards; use more decks or a smaller burn."
            )
        if self.cut > deepest:
            raise SimulationError(
                f"Cut card {self.cut} cards from the back is deeper than a {self.cards}-card "
                f"shoe allows; use a cut of at most {deepest} (the burn takes up to "
                f"{self.most_burned} cards and a round up to {ROUND_CARDS})."
            )

    @property
    def rounds_when_cut_first(self) -> int:
        """Rounds dealt when the cut card is the first card of a round, that round included."""
        return self.after_cut + 1 if self.cut_first_rounds is None else self.cut_first_rounds

    @property
    def cards(self) -> int:
        """Cards in a full shoe."""
        return 52 * self.decks

    @property
    def most_burned(self) -> int:
        """The most cards the burn can take, the exposed card included."""
        if self.burn == "standard":
            return 11
        if self.burn == "none":
            return 0
        return int(self.burn)

    def describe(self) -> str:
        """One line for report headers."""
        if self.burn == "standard":
            burn = "standard burn (first card exposed, its value in cards burned face down)"
        elif self.burn == "none":
            burn = "no burn"
        else:
            burn = f"{self.burn} cards burned face down"
        rounds = "round" if self.after_cut == 1 else "rounds"
        first = self.rounds_when_cut_first
        first_rounds = "round" if first == 1 else "rounds"
        return (
            f"{self.decks} deck{'s' if self.decks != 1 else ''}; {burn}; cut card {self.cut} "
            f"cards from the back; {self.after_cut} more {rounds} after the one the cut card "
            f"interrupts, {first} {first_rounds} when it comes first"
        )

    def to_dict(self) -> dict[str, int | str]:
        """The procedure as JSON-ready data."""
        return {
            "decks": self.decks,
            "cut": self.cut,
            "burn": self.burn,
            "after_cut": self.after_cut,
            "cut_first_rounds": self.rounds_when_cut_first,
        }


def shuffled_shoe(decks: int, seed: int, shoe: int) -> IntArray:
    """Shoe number *shoe* of *seed*: its card types in dealing order.

    The random source is numpy's PCG64 seeded with child *shoe* of
    ``SeedSequence(seed)`` (``SeedSequence(seed).spawn(n)[shoe]``); both have
    streams numpy keeps stable across versions and machines.  The shuffle sorts
    the cards by 64-bit random keys (drawn again in the rare case of two equal
    keys), so every order is exactly equally likely.

    >>> first = shuffled_shoe(1, seed=2024, shoe=3)
    >>> sorted(first.tolist()) == list(range(52)), (first == shuffled_shoe(1, 2024, 3)).all()
    (True, np.True_)
    >>> (first == shuffled_shoe(1, 2024, 4)).all()
    np.False_
    """
    generator = np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(shoe,)))
    size = 52 * decks
    while True:
        keys = generator.random_raw(size)
        order = np.argsort(keys, kind="stable")
        ordered = keys[order]
        if not np.any(ordered[1:] == ordered[:-1]):
            return (order % 52).astype(np.int64)


@dataclass(frozen=True)
class DealtBlock:
    """A block of shoes dealt, every round as a row of flat arrays (rounds ordered by shoe).

    ``known[r]`` holds the 52 card counts the counter knows before round ``r``:
    the full shoe less the exposed burn card and every card dealt before it (the
    face-down burns are unknown, so they stay in).  ``depth[r]`` is how many
    cards left the shoe before round ``r``, burns included.
    """

    first_shoe: int
    shoes: int
    cards: IntArray  # (shoes, cards in a shoe): the shuffled shoes
    exposed: IntArray  # (shoes,): the exposed burn card, or -1
    rounds_per_shoe: IntArray  # (shoes,)
    round_shoe: IntArray  # (rounds,): shoe index within the block
    round_number: IntArray  # (rounds,): 0, 1, ... within the shoe
    depth: IntArray  # (rounds,)
    round_cards: IntArray  # (rounds,): 4, 5 or 6
    summary: IntArray  # (rounds,): summary key, see summary_fields
    known: IntArray  # (rounds, 52)
    #: (rounds, 13): ``known`` by rank, when the dealing gave it (the compiled one does).
    ranks: IntArray | None = field(default=None, compare=False, repr=False)

    def rank_counts(self) -> IntArray:
        """``known`` by rank (13 counts a round), from the dealing or summed here."""
        if self.ranks is not None:
            return self.ranks
        suits = self.known.reshape(-1, 13, 4)
        # Four strided adds: ~10x faster than numpy's sum over a short last axis.
        ranks: IntArray = suits[:, :, 0] + suits[:, :, 1] + suits[:, :, 2] + suits[:, :, 3]
        return ranks

    @property
    def rounds(self) -> int:
        """How many rounds the block dealt."""
        return len(self.round_shoe)

    def dealt(self, row: int) -> list[str]:
        """The cards of round *row*, in dealing order (P1 B1 P2 B2, then third cards)."""
        shoe = int(self.round_shoe[row])
        start = int(self.depth[row])
        return [
            CARD_SYMBOLS[card] for card in self.cards[shoe, start : start + self.round_cards[row]]
        ]


def summary_fields(key: int) -> tuple[int, int, int, int, bool, bool, int, int]:
    """A summary key as the walk's key: totals, cards per hand, naturals, pair states.

    >>> summary_fields(_summary_key(6, 7, 1, 0, 0, 0, 2, 0))
    (6, 7, 3, 2, False, False, 2, 0)
    """
    fields = []
    for radix in reversed(_RADICES):
        key, digit = divmod(key, radix)
        fields.append(digit)
    p_total, b_total, p_third, b_third, p_nat, b_nat, p_pair, b_pair = reversed(fields)
    return (
        p_total,
        b_total,
        2 + p_third,
        2 + b_third,
        bool(p_nat),
        bool(b_nat),
        p_pair,
        b_pair,
    )


def _summary_key(*digits: int) -> int:
    key = 0
    for digit, radix in zip(digits, _RADICES, strict=True):
        key = key * radix + digit
    return key


def deal_block(
    procedure: DealingProcedure,
    tableau: Tableau,
    seed: int,
    first_shoe: int,
    shoes: int,
    method: str | None = None,
) -> DealtBlock:
    """Shuffle and deal shoes ``first_shoe .. first_shoe + shoes - 1`` of *seed*, all at once.

    *method* is one of :data:`DEALING_METHODS` (default: compiled when the kernel is
    built, else numpy); every method deals the same block, field for field.

    >>> block = deal_block(DealingProcedure(decks=1, cut=14), Tableau(), 1, 0, 3)
    >>> block.known[0].sum() == 52 - (block.exposed[0] >= 0)
    np.True_
    >>> deal_block(DealingProcedure(decks=1), Tableau(), 1, 0, 3, method="fast")
    Traceback (most recent call last):
    ...
    exactodds.errors.SimulationError: Dealing method 'fast' is not valid; use compiled, numpy or python.
    """
    method = _chosen_method(method)
    if method == "python":
        cards = _twin_shuffled_shoes(procedure.decks, seed, first_shoe, shoes)
    else:
        cards = shuffled_shoes(
            procedure.decks, seed, first_shoe, shoes, compiled=method == "compiled"
        )
    return deal_shoes(procedure, tableau, cards, first_shoe, method)


#: How shoes are dealt: "compiled" (the kernel's C loop, ``_dealing.c``), "numpy"
#: (whole-block array steps, for machines without a compiler) or "python" (the C loop's
#: pure-Python twin, :mod:`exactodds.simulation.dealing_twin`: the specification).
DEALING_METHODS = ("compiled", "numpy", "python")


def dealing_module() -> Any:
    """The compiled kernel if it was built with the dealing (``_dealing.c``), else None.

    >>> dealing_module() is None or hasattr(dealing_module(), "deal")
    True
    """
    module = native_module()
    return module if module is not None and hasattr(module, "deal") else None


def _chosen_method(method: str | None) -> str:
    if method is None:
        return "compiled" if dealing_module() is not None else "numpy"
    if method not in DEALING_METHODS:
        raise SimulationError(
            f"Dealing method {method!r} is not valid; use {', '.join(DEALING_METHODS[:-1])} "
            f"or {DEALING_METHODS[-1]}."
        )
    if method == "compiled" and dealing_module() is None:
        raise SimulationError(
            "Dealing method 'compiled' needs the compiled kernel; build it, or use numpy."
        )
    return method


@lru_cache(maxsize=8)
def tableau_flags(tableau: Tableau) -> tuple[tuple[int, ...], ...]:
    """*tableau* as the dealing loops read it: four flat tuples of 0/1 flags.

    Natural totals, Player draws, Banker draws when the Player stood (10 each), and
    Banker draws by total and the Player's third card value (``total * 10 + value``).

    >>> [sum(flags) for flags in tableau_flags(Tableau())]
    [2, 6, 6, 51]
    """
    natural = tuple(int(total in tableau.natural_totals) for total in range(10))
    return (
        natural,
        tuple(int(flag) for flag in tableau.player_draws),
        tuple(int(flag) for flag in tableau.banker_draws_when_player_stood),
        tuple(int(flag) for row in tableau.banker_draws for flag in row),
    )


def procedure_parameters(procedure: DealingProcedure) -> list[int]:
    """The procedure as the dealing loops read it (see dealing_twin.deal_rows).

    Decks, burn (-1: the standard rule), cut, rounds after the cut, rounds when the cut comes
    first:

    >>> procedure_parameters(DealingProcedure(decks=1))
    [1, -1, 14, 1, 2]
    """
    burn = -1 if procedure.burn == "standard" else procedure.most_burned
    return [
        procedure.decks,
        burn,
        procedure.cut,
        procedure.after_cut,
        procedure.rounds_when_cut_first,
    ]


_MASK32 = 0xFFFFFFFF
_MASK64 = (1 << 64) - 1
_MASK128 = (1 << 128) - 1
#: numpy's SeedSequence hash constants (O'Neill's seed_seq alternative) and PCG64's multiplier.
_HASH_INIT_A, _HASH_MULT_A = 0x43B0D7E5, 0x931E8875
_HASH_INIT_B, _HASH_MULT_B = 0x8B51F9DD, 0x58F38DED
_MIX_LEFT, _MIX_RIGHT = 0xCA01F9DD, 0x4973F715
_PCG64_MULTIPLIER = 0x2360ED051FC65DA44385DF649FCCF645


def _stream_states(seed: int, first_shoe: int, shoes: int) -> list[tuple[int, int]] | None:
    """The PCG64 (state, increment) of shoes ``first_shoe ..`` of *seed*, or None.

    ``PCG64(SeedSequence(seed, spawn_key=(shoe,)))`` worked out for all the shoes at
    once: the SeedSequence pool hashing in uint32 arrays (one entry per shoe), then
    PCG64's seeding in Python integers.  None (build each generator instead) on a
    big-endian machine or past 2**64 shoes.  ``tests/test_dealing_reference.py`` checks
    it against numpy's own generators.

    >>> state = np.random.PCG64(np.random.SeedSequence(7, spawn_key=(9,))).state["state"]
    >>> _stream_states(7, 9, 1) == [(state["state"], state["inc"])]
    True
    """
    if sys.byteorder != "little" or first_shoe + shoes > 2**64:
        return None  # pragma: no cover - x86 and ARM machines are little-endian
    numbers = np.arange(first_shoe, first_shoe + shoes, dtype=np.uint64)
    run = _run_words(seed)
    words = np.empty((shoes, 8), dtype=np.uint32)
    wide = numbers > _MASK32
    low = (numbers & np.uint64(_MASK32)).astype(np.uint32)
    high = (numbers >> np.uint64(32)).astype(np.uint32)
    for rows, spawn in ((~wide, [low]), (wide, [low, high])):
        if rows.any():
            entropy = [np.full(int(rows.sum()), word, dtype=np.uint32) for word in run]
            words[rows] = _pool_words(entropy + [column[rows] for column in spawn])
    states = []
    for first, second, third, fourth in words.view(np.uint64).tolist():
        increment = ((((third << 64) | fourth) << 1) | 1) & _MASK128
        state = (increment + ((first << 64) | second)) & _MASK128  # 0 x multiplier + inc
        states.append(((state * _PCG64_MULTIPLIER + increment) & _MASK128, increment))
    return states


def _run_words(seed: int) -> list[int]:
    """The seed's 32-bit words, least first, at least 4 (SeedSequence's run entropy).

    >>> _run_words(2**32 + 5)
    [5, 1, 0, 0]
    """
    run = [(seed >> shift) & _MASK32 for shift in range(0, max(seed.bit_length(), 1), 32)]
    return run + [0] * (4 - len(run))  # a spawn key is given: the run entropy fills the pool


def _stream_words(seed: int, first_shoe: int, shoes: int) -> npt.NDArray[np.uint64] | None:
    """:func:`_stream_states` as the rows the compiled shuffle reads: (state high, state low,
    increment high, increment low); by the kernel's ``stream_states`` when it has it."""
    module = dealing_module()
    if module is not None and hasattr(module, "stream_states"):
        if sys.byteorder != "little" or first_shoe + shoes > 2**64:
            return None  # pragma: no cover - x86 and ARM machines are little-endian
        words = np.empty((shoes, 4), dtype=np.uint64)
        module.stream_states(np.array(_run_words(seed), dtype=np.uint32), first_shoe, shoes, words)
        return words
    states = _stream_states(seed, first_shoe, shoes)
    if states is None:
        return None  # pragma: no cover - x86 and ARM machines are little-endian
    return np.array(
        [
            (state >> 64, state & _MASK64, increment >> 64, increment & _MASK64)
            for state, increment in states
        ],
        dtype=np.uint64,
    ).reshape(shoes, 4)


def _pool_words(entropy: list[npt.NDArray[np.uint32]]) -> npt.NDArray[np.uint32]:
    """SeedSequence's mixing of *entropy* (word columns) into its 8-word state, per row."""
    constant = _HASH_INIT_A

    def hashed(value: npt.NDArray[np.uint32]) -> npt.NDArray[np.uint32]:
        nonlocal constant
        value = value ^ np.uint32(constant)
        constant = (constant * _HASH_MULT_A) & _MASK32
        value = value * np.uint32(constant)
        return value ^ (value >> np.uint32(16))

    def mixed(
        left: npt.NDArray[np.uint32], right: npt.NDArray[np.uint32]
    ) -> npt.NDArray[np.uint32]:
        result: npt.NDArray[np.uint32] = np.uint32(_MIX_LEFT) * left - np.uint32(_MIX_RIGHT) * right
        return result ^ (result >> np.uint32(16))

    pool = [hashed(entropy[index]) for index in range(4)]
    for source in range(4):
        for target in range(4):
            if source != target:
                pool[target] = mixed(pool[target], hashed(pool[source]))
    for extra in entropy[4:]:
        for target in range(4):
            pool[target] = mixed(pool[target], hashed(extra))
    words = np.empty((len(pool[0]), 8), dtype=np.uint32)
    constant = _HASH_INIT_B
    for index in range(8):
        value = pool[index % 4] ^ np.uint32(constant)
        constant = (constant * _HASH_MULT_B) & _MASK32
        value = value * np.uint32(constant)
        words[:, index] = value ^ (value >> np.uint32(16))
    return words


#: The card type of each place in a full shoe of the most decks: place % 52.
_CARD_AT: IntArray = np.arange(52 * MAX_DECKS, dtype=np.int64) % 52


def shuffled_shoes(
    decks: int, seed: int, first_shoe: int, shoes: int, compiled: bool = False
) -> IntArray:
    """Shoes ``first_shoe ..`` of *seed* as rows: :func:`shuffled_shoe` of each, sorted at once.

    Each shoe's keys come from its own generator, as in :func:`shuffled_shoe`; the rows
    are sorted in one call (or, *compiled*, drawn and sorted by the kernel's C loop).
    Distinct keys have one sorted order whatever the sort, so only a row with two equal
    keys (which :func:`shuffled_shoe` draws again) is redone.

    >>> rows = shuffled_shoes(1, 2024, 3, 2)
    >>> bool((rows[1] == shuffled_shoe(1, 2024, 4)).all())
    True
    """
    size = 52 * decks
    words = _stream_words(seed, first_shoe, shoes) if compiled else None
    if words is not None:
        cards = np.empty((shoes, size), dtype=np.int64)
        repeated = np.zeros(shoes, dtype=np.int8)
        dealing_module().shuffle(words, size, cards, repeated)
        for row in np.flatnonzero(repeated).tolist():  # pragma: no cover - ~1e-14 a shoe
            cards[row] = shuffled_shoe(decks, seed, first_shoe + row)
        return cards
    states = _stream_states(seed, first_shoe, shoes)
    keys = np.empty((shoes, size), dtype=np.uint64)
    if states is None:
        for row in range(shoes):
            spawned = np.random.SeedSequence(seed, spawn_key=(first_shoe + row,))
            keys[row] = np.random.PCG64(spawned).random_raw(size)
    else:
        generator = np.random.PCG64(0)
        for row, (state, increment) in enumerate(states):
            generator.state = {
                "bit_generator": "PCG64",
                "state": {"state": state, "inc": increment},
                "has_uint32": 0,
                "uinteger": 0,
            }
            keys[row] = generator.random_raw(size)
    order = np.argsort(keys, axis=1)
    ordered = np.take_along_axis(keys, order, axis=1)
    cards = _CARD_AT[order]  # a gather: ~5x faster than order % 52
    for row in np.flatnonzero((ordered[:, 1:] == ordered[:, :-1]).any(axis=1)).tolist():
        cards[row] = shuffled_shoe(decks, seed, first_shoe + row)  # pragma: no cover - ~1e-14
    return cards


def deal_shoes(
    procedure: DealingProcedure,
    tableau: Tableau,
    shoe_cards: IntArray,
    first_shoe: int = 0,
    method: str | None = None,
) -> DealtBlock:
    """Deal shoes given as rows of card types in dealing order (any cards: tests stack them).

    Compiled, each shoe is dealt round by round in C; with numpy (*method* "numpy") the
    shoes are dealt side by side, one round of each per step: no Python work per card.
    ``known`` assumes full shoes of ``procedure.decks`` decks.

    >>> nines = np.full((1, 52), 32)  # 52 nines of spades: every round a 4-card natural
    >>> block = deal_shoes(DealingProcedure(decks=1, cut=17, burn="none"), Tableau(), nines)
    >>> block.depth.tolist()
    [0, 4, 8, 12, 16, 20, 24, 28, 32, 36]
    >>> deal_shoes(DealingProcedure(decks=1, burn="none"), Tableau(), nines + 20)
    Traceback (most recent call last):
    ...
    exactodds.errors.SimulationError: Card types 52..52 are not valid; use card types 0-51 (rank by rank, suits S H D C).
    """
    shoes, size = shoe_cards.shape
    if size != procedure.cards:
        raise SimulationError(
            f"Shoes of {size} cards do not fit a {procedure.cards}-card procedure."
        )
    if shoes and size and (int(shoe_cards.min()) < 0 or int(shoe_cards.max()) > 51):
        raise SimulationError(
            f"Card types {int(shoe_cards.min())}..{int(shoe_cards.max())} are not valid; "
            "use card types 0-51 (rank by rank, suits S H D C)."
        )
    method = _chosen_method(method)
    if method != "numpy":
        return _deal_by_loop(procedure, tableau, shoe_cards, first_shoe, method == "compiled")
    cards = np.zeros((shoes, size + ROUND_CARDS), dtype=np.int64)
    cards[:, :size] = shoe_cards  # the padding is read only by shoes that have stopped
    positions = np.arange(size)[None, :]
    if procedure.burn == "standard":
        exposed = cards[:, 0].copy()
        burned = BURN_COUNTS[exposed]
        start = 1 + burned
        hidden = (positions >= 1) & (positions <= burned[:, None])
    else:
        exposed = np.full(shoes, -1, dtype=np.int64)
        start = np.full(shoes, procedure.most_burned, dtype=np.int64)
        hidden = positions < start[:, None]
    used, index = _rounds_everywhere(tableau, cards, size)
    chain = _round_starts(start, used, size)
    dealt = _rounds_dealt(procedure, chain, used, size)
    taken = np.arange(chain.shape[1])[None, :] < dealt[:, None]
    shoe_of, round_of = (axis.astype(np.int64) for axis in np.nonzero(taken))
    depth = chain[taken]
    round_cards = used[shoe_of, depth]
    summary = _summaries(tableau, cards, index, shoe_of, depth)
    rounds_per_shoe = np.bincount(shoe_of, minlength=shoes).astype(np.int64)
    # The counter sees every card but the face-down burns (52: seen by no one).
    seen = np.where(hidden, 52, cards[:, :size])
    known = _known_before(procedure.decks, seen, shoe_of, depth, rounds_per_shoe)
    return DealtBlock(
        first_shoe=first_shoe,
        shoes=shoes,
        cards=cards[:, :size],
        exposed=exposed,
        rounds_per_shoe=rounds_per_shoe,
        round_shoe=shoe_of,
        round_number=round_of,
        depth=depth,
        round_cards=round_cards,
        summary=summary,
        known=known,
    )


def _deal_by_loop(
    procedure: DealingProcedure,
    tableau: Tableau,
    shoe_cards: IntArray,
    first_shoe: int,
    compiled: bool,
) -> DealtBlock:
    """Deal with the kernel's C loop (*compiled*) or its Python twin: the same flat rows."""
    shoes, size = shoe_cards.shape
    flags = tableau_flags(tableau)
    ranks: IntArray | None = None
    if compiled:
        capacity = shoes * (size // 4 + 1)  # a round takes at least 4 cards
        columns = {name: np.empty(shoes, dtype=np.int64) for name in _PER_SHOE}
        columns |= {name: np.empty(capacity, dtype=np.int64) for name in _PER_ROUND}
        known = np.empty((capacity, 52), dtype=np.int64)
        ranks = np.empty((capacity, 13), dtype=np.int64)
        rounds = dealing_module().deal(
            shoes,
            np.ascontiguousarray(shoe_cards, dtype=np.int64),
            np.array(procedure_parameters(procedure), dtype=np.int64),
            *(np.array(flag, dtype=np.int8) for flag in flags),
            *(columns[name] for name in _PER_SHOE + _PER_ROUND),
            known,
            ranks,
        )
        if rounds < 0:  # pragma: no cover - the capacity is the most rounds that fit
            raise SimulationError("The compiled dealing ran out of room for rounds.")
    else:
        lists = deal_rows(shoe_cards.tolist(), procedure_parameters(procedure), flags)
        columns = {name: np.array(lists[name], dtype=np.int64) for name in _PER_SHOE + _PER_ROUND}
        rounds = len(columns["depth"])
        known = np.array(lists["known"], dtype=np.int64).reshape(rounds, 52)
    return DealtBlock(
        first_shoe=first_shoe,
        shoes=shoes,
        cards=shoe_cards,
        exposed=columns["exposed"],
        rounds_per_shoe=columns["rounds_per_shoe"],
        round_shoe=columns["round_shoe"][:rounds],
        round_number=columns["round_number"][:rounds],
        depth=columns["depth"][:rounds],
        round_cards=columns["round_cards"][:rounds],
        summary=columns["summary"][:rounds],
        known=known[:rounds],
        ranks=None if ranks is None else ranks[:rounds],
    )


_PER_SHOE = ("exposed", "rounds_per_shoe")
_PER_ROUND = ("round_shoe", "round_number", "depth", "round_cards", "summary")


def _twin_shuffled_shoes(decks: int, seed: int, first_shoe: int, shoes: int) -> IntArray:
    """:func:`shuffled_shoes` by the C loop's Python twin (the specification; slow)."""
    size = 52 * decks
    states = _stream_states(seed, first_shoe, shoes)
    cards = np.empty((shoes, size), dtype=np.int64)
    for row in range(shoes):
        places = None if states is None else shuffled_places(*states[row], size)
        if places is None:  # pragma: no cover - a big-endian machine, or ~1e-14 a shoe
            cards[row] = shuffled_shoe(decks, seed, first_shoe + row)
        else:
            cards[row] = [place % 52 for place in places]
    return cards


def _known_before(
    decks: int, seen: IntArray, shoe_of: IntArray, depth: IntArray, rounds_per_shoe: IntArray
) -> IntArray:
    """Per round, the card counts of *decks* full decks less the cards seen before it.

    *seen* holds each shoe's cards in dealing order, 52 for a card no one sees.  Each seen
    card is counted once, in the first round of its shoe that starts after it; a running
    sum over each shoe's rounds then gives every round its count (5x fewer rows than a
    running count at every position of the shoe).

    >>> seen = np.array([[0, 52, 1, 0, 2, 3]])
    >>> _known_before(1, seen, np.array([0, 0]), np.array([2, 4]), np.array([2]))[:, :4].tolist()
    [[0, 1, 1, 1], [-1, 0, 1, 1]]
    """
    shoes, size = seen.shape
    rounds = len(shoe_of)
    if rounds == 0:  # pragma: no cover - the procedure always leaves room for one round
        return np.zeros((0, 52), dtype=np.int64)
    # Rounds are ordered by shoe, then depth: the rounds starting at or before each
    # position of the flattened shoes, counted by a running sum, index its round.
    starts_here = np.zeros(shoes * size, dtype=np.int64)
    starts_here[shoe_of * size + depth] = 1
    row = np.cumsum(starts_here, out=starts_here)
    shoe_of_position = np.repeat(np.arange(shoes), size)
    flat = seen.ravel()
    keep = (row < rounds) & (flat < 52)
    keep[keep] = shoe_of[row[keep]] == shoe_of_position[keep]
    # Card type by round, so that the running sums below run along contiguous rows.
    counts = np.bincount(flat[keep] * rounds + row[keep], minlength=52 * rounds).reshape(52, rounds)
    # One running sum of the negated counts over all rounds, restarted at each shoe's
    # first round from the full shoe (every shoe deals at least one round).
    starts = np.cumsum(rounds_per_shoe) - rounds_per_shoe
    totals = np.add.reduceat(counts, starts, axis=1)
    np.negative(counts, out=counts)
    counts[:, starts[1:]] += totals[:, :-1]
    counts[:, 0] += decks
    np.cumsum(counts, axis=1, out=counts)
    return np.ascontiguousarray(counts.T)


def _rounds_everywhere(
    tableau: Tableau, cards: IntArray, size: int
) -> tuple[IntArray, npt.NDArray[np.int32]]:
    """For a round starting at every position of every shoe: its cards used and table row.

    The dealing order is fixed, so each position's round is known before the walk from
    round to round (:func:`_round_starts`) picks the positions actually dealt.  *cards*
    has ``ROUND_CARDS`` cards of padding after *size*, read only past the last round.
    The six cards' values, as a 6-digit number, are the round's row in :func:`_round_table`.
    """
    values = _CARD_VALUES_32[cards]
    index = values[:, :size].copy()
    for offset in range(1, ROUND_CARDS):
        index *= 10
        index += values[:, offset : offset + size]
    return _round_table(tableau)[0][index].astype(np.int64), index


def _summaries(
    tableau: Tableau,
    cards: IntArray,
    index: npt.NDArray[np.int32],
    shoe_of: IntArray,
    depth: IntArray,
) -> IntArray:
    """The summary key of each round dealt: its table row's, with the two pair states."""
    card = [cards[shoe_of, depth + offset] for offset in range(4)]
    player_pair = np.where(card[0] == card[2], 2, card[0] // 4 == card[2] // 4)
    banker_pair = np.where(card[1] == card[3], 2, card[1] // 4 == card[3] // 4)
    key: IntArray = _round_table(tableau)[1][index[shoe_of, depth]].astype(np.int64) * 9
    key += player_pair * 3 + banker_pair
    return key


_CARD_VALUES_32 = CARD_VALUES.astype(np.int32)


@lru_cache(maxsize=8)
def _round_table(tableau: Tableau) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int32]]:
    """Cards used and summary key less the pair digits, of every six card values in order.

    Row ``v1 v2 v3 v4 v5 v6`` (one decimal digit each, in dealing order P1 B1 P2 B2 ...)
    is the round those values play; the pair states depend on suits and ranks, not values.

    >>> used, key = _round_table(Tableau())
    >>> [(int(used[row]), summary_fields(int(key[row]) * 9)[:4]) for row in (0, 900000)]
    [(6, (0, 0, 3, 3)), (4, (9, 0, 2, 2))]
    """
    naturals = np.zeros(10, dtype=bool)
    naturals[sorted(tableau.natural_totals)] = True
    player_draws = np.array(tableau.player_draws, dtype=bool)
    banker_stood = np.array(tableau.banker_draws_when_player_stood, dtype=bool)
    banker_draws = np.array(tableau.banker_draws, dtype=bool)
    value = [
        (np.arange(10**ROUND_CARDS) // 10 ** (ROUND_CARDS - 1 - offset)) % 10
        for offset in range(ROUND_CARDS)
    ]
    player = (value[0] + value[2]) % 10
    banker = (value[1] + value[3]) % 10
    player_natural = naturals[player]
    banker_natural = naturals[banker]
    natural = player_natural | banker_natural
    player_third = ~natural & player_draws[player]
    banker_third = ~natural & np.where(
        player_third, banker_draws[banker, value[4]], banker_stood[banker]
    )
    # The Banker's third card is the fifth card when the Player stood, else the sixth.
    banker_card = np.where(player_third, value[5], value[4])
    final_player = np.where(player_third, (player + value[4]) % 10, player)
    final_banker = np.where(banker_third, (banker + banker_card) % 10, banker)
    used = 4 + player_third.astype(np.int64) + banker_third
    key = final_player
    for digit, radix in zip(
        (final_banker, player_third, banker_third, player_natural, banker_natural),
        _RADICES[1:6],
        strict=True,
    ):
        key = key * radix + digit
    return used.astype(np.int8), key.astype(np.int32)


def _round_starts(start: IntArray, used: IntArray, size: int) -> IntArray:
    """Each shoe's round starting positions, from its first round while a round fits.

    Row ``s`` walks ``start[s]``, then each round's start plus its cards used; past the
    last round that fits (fewer than ``ROUND_CARDS`` cards left) it holds ``size``.
    """
    shoes = len(start)
    # A flat successor per position; a position where no round fits leads to the sentinel.
    stride = size + 1
    successor = np.full((shoes, stride), size, dtype=np.int64)
    fits = size - ROUND_CARDS + 1
    successor[:, :fits] = np.minimum(np.arange(fits) + used[:, :fits], size)
    flat = (successor + (np.arange(shoes) * stride)[:, None]).ravel()
    position = start + np.arange(shoes) * stride
    position = np.where(start < fits, position, np.arange(shoes) * stride + size)
    steps = [position]
    end = np.arange(shoes) * stride + size
    while not (position == end).all():
        for _ in range(8):  # a round takes at least 4 cards: look at the end now and then
            position = flat[position]
            steps.append(position)
    return np.column_stack(steps) - (np.arange(shoes) * stride)[:, None]


def _rounds_dealt(
    procedure: DealingProcedure, chain: IntArray, used: IntArray, size: int
) -> IntArray:
    """How many of each shoe's round starts (:func:`_round_starts`) are dealt: the cut card rule.

    The first round that the cut card ends in (it is one of its cards, or it came out just
    before) is round ``k``: when the cut card is its first card ``k + cut_first_rounds``
    rounds are dealt, else ``k + 1 + after_cut``; never more than fit in the shoe.
    """
    shoes, steps = chain.shape
    cut_at = size - procedure.cut
    fit = chain <= size - ROUND_CARDS
    fitting = fit.sum(axis=1)
    padded = np.concatenate((used, np.zeros((shoes, 1), dtype=np.int64)), axis=1)
    ends = chain + np.take_along_axis(padded, chain, axis=1)
    reached = fit & (ends > cut_at)
    first = np.where(reached.any(axis=1), reached.argmax(axis=1), steps)
    at = chain[np.arange(shoes), np.minimum(first, steps - 1)]
    more = np.where(at >= cut_at, procedure.rounds_when_cut_first, 1 + procedure.after_cut)
    dealt: IntArray = np.minimum(np.where(first < steps, first + more, fitting), fitting)
    return dealt
