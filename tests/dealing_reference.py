"""The dealing before it was vectorized: the reference it must equal.

:func:`deal_block_reference` and :func:`deal_shoes_reference` are the former
``exactodds.simulation.dealing.deal_block`` and ``deal_shoes``, kept verbatim (renamed):
all shoes stepped one round at a time, and the known compositions read off a running
count at every card position.  ``tests/test_dealing_reference.py`` checks the package's
dealing against them field by field, and ``benchmarks/bench_simulate.py`` times them.
"""

from __future__ import annotations

import numpy as np

from exactodds.errors import SimulationError
from exactodds.rules import Tableau
from exactodds.simulation.dealing import (
    _RADICES,
    BURN_COUNTS,
    CARD_VALUES,
    ROUND_CARDS,
    DealingProcedure,
    DealtBlock,
    IntArray,
    shuffled_shoe,
)

__all__ = ["deal_block_reference", "deal_shoes_reference"]


def deal_block_reference(
    procedure: DealingProcedure, tableau: Tableau, seed: int, first_shoe: int, shoes: int
) -> DealtBlock:
    """Shuffle and deal shoes ``first_shoe .. first_shoe + shoes - 1`` of *seed*, all at once."""
    cards = np.array(
        [shuffled_shoe(procedure.decks, seed, first_shoe + row) for row in range(shoes)],
        dtype=np.int64,
    ).reshape(shoes, procedure.cards)
    return deal_shoes_reference(procedure, tableau, cards, first_shoe)


def deal_shoes_reference(
    procedure: DealingProcedure, tableau: Tableau, shoe_cards: IntArray, first_shoe: int = 0
) -> DealtBlock:
    """Deal shoes given as rows of card types in dealing order (any cards: tests stack them).

    The shoes are dealt side by side, one round of each per step, with numpy: no
    Python work per card.  ``known`` assumes full shoes of ``procedure.decks`` decks.
    """
    shoes, size = shoe_cards.shape
    if size != procedure.cards:
        raise SimulationError(
            f"Shoes of {size} cards do not fit a {procedure.cards}-card procedure."
        )
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
    naturals = np.zeros(10, dtype=bool)
    naturals[sorted(tableau.natural_totals)] = True
    player_draws = np.array(tableau.player_draws, dtype=bool)
    banker_stood = np.array(tableau.banker_draws_when_player_stood, dtype=bool)
    banker_draws = np.array(tableau.banker_draws, dtype=bool)
    cut_at = size - procedure.cut
    position = start.copy()
    remaining = np.full(shoes, -1, dtype=np.int64)  # rounds left once the cut card is out
    active = np.ones(shoes, dtype=bool)
    number = np.zeros(shoes, dtype=np.int64)
    offsets = np.arange(ROUND_CARDS)[None, :]
    records: list[tuple[IntArray, ...]] = []
    while True:
        active &= size - position >= ROUND_CARDS
        out = active & (remaining < 0) & (position >= cut_at)
        remaining[out] = procedure.rounds_when_cut_first  # the cut card is this round's first card
        active &= remaining != 0
        live = np.flatnonzero(active)
        if live.size == 0:
            break
        at = position[live]
        dealt = cards[live[:, None], at[:, None] + offsets]
        values = CARD_VALUES[dealt]
        player = (values[:, 0] + values[:, 2]) % 10
        banker = (values[:, 1] + values[:, 3]) % 10
        player_natural = naturals[player]
        banker_natural = naturals[banker]
        natural = player_natural | banker_natural
        player_third = ~natural & player_draws[player]
        banker_third = ~natural & np.where(
            player_third, banker_draws[banker, values[:, 4]], banker_stood[banker]
        )
        # The Banker's third card is the fifth card when the Player stood, else the sixth.
        banker_card = np.where(player_third, values[:, 5], values[:, 4])
        final_player = np.where(player_third, (player + values[:, 4]) % 10, player)
        final_banker = np.where(banker_third, (banker + banker_card) % 10, banker)
        used = 4 + player_third.astype(np.int64) + banker_third
        ranks = dealt // 4
        player_pair = np.where(dealt[:, 0] == dealt[:, 2], 2, ranks[:, 0] == ranks[:, 2])
        banker_pair = np.where(dealt[:, 1] == dealt[:, 3], 2, ranks[:, 1] == ranks[:, 3])
        key = final_player
        for digit, radix in zip(
            (
                final_banker,
                player_third,
                banker_third,
                player_natural,
                banker_natural,
                player_pair,
                banker_pair,
            ),
            _RADICES[1:],
            strict=True,
        ):
            key = key * radix + digit
        records.append((live, number[live], at, used, key))
        before = remaining[live] < 0
        remaining[live[~before]] -= 1
        # The cut card came out in the middle of this round.
        remaining[live[before & (at + used > cut_at)]] = procedure.after_cut
        position[live] += used
        number[live] += 1
    if records:
        shoe_of, round_of, depth, round_cards, summary = (
            np.concatenate(column) for column in zip(*records, strict=True)
        )
    else:  # pragma: no cover - the procedure always leaves room for one round
        shoe_of = round_of = depth = round_cards = summary = np.zeros(0, dtype=np.int64)
    order = np.lexsort((round_of, shoe_of))
    shoe_of, round_of, depth = shoe_of[order], round_of[order], depth[order]
    # Cards the counter has seen before each position: a running count per card type.
    seen = np.where(hidden, 52, cards[:, :size])
    onehot = seen[:, :, None] == np.arange(52)[None, None, :]
    before_position = np.zeros((shoes, size + 1, 52), dtype=np.int16)
    np.cumsum(onehot, axis=1, out=before_position[:, 1:, :])
    known = procedure.decks - before_position[shoe_of, depth].astype(np.int64)
    return DealtBlock(
        first_shoe=first_shoe,
        shoes=shoes,
        cards=cards[:, :size],
        exposed=exposed,
        rounds_per_shoe=np.bincount(shoe_of, minlength=shoes).astype(np.int64),
        round_shoe=shoe_of,
        round_number=round_of,
        depth=depth,
        round_cards=round_cards[order],
        summary=summary[order],
        known=known,
    )
