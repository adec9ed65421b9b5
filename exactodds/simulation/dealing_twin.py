"""The pure-Python twin of the compiled dealing (``_dealing.c``): its specification.

The same loops as the C code, in Python integers, one shoe and one round at a time:
numpy's PCG64 stream from a (state, increment) pair (:func:`pcg64_raw`), the shuffle
that sorts a shoe's places by those keys (:func:`shuffled_places`), and the dealing of
shoes to the cut card (:func:`deal_rows`) with the same flat outputs as the C ``deal``.
``tests/test_dealing_reference.py`` holds the compiled dealing, this twin and the numpy
dealing to the former dealing field for field.

>>> import numpy as np
>>> state = np.random.PCG64(5).state["state"]
>>> pcg64_raw(state["state"], state["inc"], 3) == np.random.PCG64(5).random_raw(3).tolist()
True
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["deal_rows", "pcg64_raw", "shuffled_places"]

_MASK64 = (1 << 64) - 1
_MASK128 = (1 << 128) - 1
_PCG64_MULTIPLIER = 0x2360ED051FC65DA44385DF649FCCF645
_ROUND_CARDS = 6
_OUTPUTS = (
    "exposed",
    "rounds_per_shoe",
    "round_shoe",
    "round_number",
    "depth",
    "round_cards",
    "summary",
    "known",
)


def pcg64_raw(state: int, increment: int, count: int) -> list[int]:
    """*count* raw 64-bit words of PCG64 from (*state*, *increment*), as numpy's random_raw.

    Each word: step the 128-bit state, then XSL-RR (the two halves xored, rotated right
    by the state's top 6 bits).
    """
    words = []
    for _ in range(count):
        state = (state * _PCG64_MULTIPLIER + increment) & _MASK128
        word = ((state >> 64) ^ state) & _MASK64
        rotation = state >> 122
        words.append(((word >> rotation) | (word << ((64 - rotation) & 63))) & _MASK64)
    return words


def shuffled_places(state: int, increment: int, size: int) -> list[int] | None:
    """The places 0 .. size - 1 sorted by their PCG64 keys, or None if two keys are equal.

    >>> import numpy as np
    >>> state = np.random.PCG64(5).state["state"]
    >>> order = np.argsort(np.random.PCG64(5).random_raw(52), kind="stable").tolist()
    >>> shuffled_places(state["state"], state["inc"], 52) == order
    True
    """
    keys = pcg64_raw(state, increment, size)
    if len(set(keys)) < size:
        return None
    return sorted(range(size), key=keys.__getitem__)


def _value(card: int) -> int:
    return card // 4 + 1 if card < 36 else 0


def _round(tableau: Sequence[Sequence[int]], cards: Sequence[int]) -> tuple[int, int]:
    """Cards used and summary key of the round dealt from *cards* (six cards, in order)."""
    natural, player_draws, banker_stood, banker_draws = tableau
    v = [_value(card) for card in cards]
    player, banker = (v[0] + v[2]) % 10, (v[1] + v[3]) % 10
    player_natural, banker_natural = int(natural[player] != 0), int(natural[banker] != 0)
    is_natural = player_natural or banker_natural
    player_third = int(not is_natural and player_draws[player] != 0)
    if player_third:
        banker_third = int(not is_natural and banker_draws[banker * 10 + v[4]] != 0)
    else:
        banker_third = int(not is_natural and banker_stood[banker] != 0)
    banker_card = v[5] if player_third else v[4]
    final_player = (player + v[4]) % 10 if player_third else player
    final_banker = (banker + banker_card) % 10 if banker_third else banker
    pairs = [
        2 if first == second else int(first // 4 == second // 4)
        for first, second in ((cards[0], cards[2]), (cards[1], cards[3]))
    ]
    key = final_player
    for digit, radix in (
        (final_banker, 10),
        (player_third, 2),
        (banker_third, 2),
        (player_natural, 2),
        (banker_natural, 2),
    ):
        key = key * radix + digit
    return 4 + player_third + banker_third, key * 9 + pairs[0] * 3 + pairs[1]


def deal_rows(
    cards: Sequence[Sequence[int]],
    parameters: Sequence[int],
    tableau: Sequence[Sequence[int]],
) -> dict[str, list[int]]:
    """Every shoe of *cards* dealt to the cut: the C ``deal``'s outputs, as lists.

    *parameters*: decks, burn (-1 for the standard burn, else cards burned face down),
    cut, rounds after the cut card, rounds when it comes first.  *tableau*: natural
    totals, Player draws, Banker draws when the Player stood (10 flags each) and Banker
    draws by total and Player's third card value (100 flags).  ``known`` is flat, 52 a row.

    >>> from exactodds.simulation.dealing import tableau_flags
    >>> from exactodds.rules import Tableau
    >>> dealt = deal_rows([[32] * 52], [1, 0, 17, 1, 2], tableau_flags(Tableau()))
    >>> dealt["depth"]
    [0, 4, 8, 12, 16, 20, 24, 28, 32, 36]
    """
    decks, burn, cut, after_cut, cut_first_rounds = parameters
    out: dict[str, list[int]] = {name: [] for name in _OUTPUTS}
    for shoe, row in enumerate(cards):
        size = len(row)
        counts = [decks] * 52
        if burn < 0:
            out["exposed"].append(row[0])
            counts[row[0]] -= 1
            position = 1 + (_value(row[0]) or 10)
        else:
            out["exposed"].append(-1)
            position = burn
        number, remaining = 0, -1
        while position <= size - _ROUND_CARDS and remaining != 0:
            used, key = _round(tableau, row[position : position + _ROUND_CARDS])
            for name, value in zip(
                ("round_shoe", "round_number", "depth", "round_cards", "summary"),
                (shoe, number, position, used, key),
                strict=True,
            ):
                out[name].append(value)
            out["known"].extend(counts)
            for card in row[position : position + used]:
                counts[card] -= 1
            if remaining < 0 and position + used > size - cut:
                remaining = (cut_first_rounds if position >= size - cut else 1 + after_cut) - 1
            elif remaining > 0:
                remaining -= 1
            position += used
            number += 1
        out["rounds_per_shoe"].append(number)
    return out
