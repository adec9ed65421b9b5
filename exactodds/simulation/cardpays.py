"""What a card-level bet pays on the rounds a simulation deals: its settle on the cards dealt.

A bet on round summaries is paid from the summary key of each round
(:mod:`exactodds.simulation.block`'s pay table); a bet with card-level conditions reads the
cards themselves, so each round is turned into the
:class:`~exactodds.engine.cardwalk.CardRound` the bet's view sees
(:func:`~exactodds.engine.cardterms.dealt_card_round`) and settled, once per distinct round.

>>> from exactodds.bets.custom import parse_custom_bets
>>> from exactodds.rules import Tableau
>>> from exactodds.simulation.dealing import DealingProcedure, deal_block
>>> (bet,) = parse_custom_bets(
...     '[[bet]]\\nname = "red"\\n[[bet.outcome]]\\n'
...     'when = { round_has = { colour = "red", count = "all" } }\\npays = 22\\n')
>>> block = deal_block(DealingProcedure(decks=1), Tableau(), seed=3, first_shoe=0, shoes=1)
>>> paid = card_pays(bet, Tableau(), block)
>>> sorted(set(paid.tolist())) in ([-1], [-1, 22])
True
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from exactodds.bets.bet import Bet
from exactodds.engine.cardterms import dealt_card_round
from exactodds.rules import Tableau
from exactodds.simulation.dealing import DealtBlock

__all__ = ["card_outcome", "card_pays"]


def card_pays(bet: Bet, tableau: Tableau, block: DealtBlock) -> npt.NDArray[np.int64]:
    """*bet*'s integer pay (over its pay denominator) on every round of *block*."""
    view = bet.cards
    if view is None:
        raise ValueError(f"Bet {bet.name!r} has no card-level conditions.")
    pays, _ = bet.integer_pays()
    settled: dict[tuple[int, ...], int] = {}
    result = np.empty(block.rounds, dtype=np.int64)
    shoes = block.round_shoe.tolist()
    starts = block.depth.tolist()
    sizes = block.round_cards.tolist()
    for row, (shoe, start, size) in enumerate(zip(shoes, starts, sizes, strict=True)):
        cards = tuple(block.cards[shoe, start : start + size].tolist())
        pay = settled.get(cards)
        if pay is None:
            outcome = bet.settle_round(dealt_card_round(view, tableau, cards))  # type: ignore[arg-type]
            bet.pay(outcome)  # an outcome without a pay: the bet's own sentence
            pay = settled[cards] = pays[outcome]
        result[row] = pay
    return result


def card_outcome(bet: Bet, tableau: Tableau, block: DealtBlock, row: int) -> str:
    """*bet*'s outcome on round *row* of *block*, settled on the cards it dealt (for traces).

    >>> from exactodds.bets.custom import parse_custom_bets
    >>> from exactodds.simulation.dealing import DealingProcedure, deal_block
    >>> (bet,) = parse_custom_bets(
    ...     '[[bet]]\\nname = "red"\\n[[bet.outcome]]\\n'
    ...     'when = { round_has = { colour = "red", count = "all" } }\\npays = 22\\n')
    >>> block = deal_block(DealingProcedure(decks=1), Tableau(), seed=3, first_shoe=0, shoes=1)
    >>> card_outcome(bet, Tableau(), block, 0) in ("outcome_1", "lose")  # the pays' names
    True
    """
    view = bet.cards
    if view is None:
        raise ValueError(f"Bet {bet.name!r} has no card-level conditions.")
    shoe, start = int(block.round_shoe[row]), int(block.depth[row])
    cards = block.cards[shoe, start : start + int(block.round_cards[row])].tolist()
    return bet.settle_round(dealt_card_round(view, tableau, cards))  # type: ignore[arg-type]
