"""Card-level bets priced on many shoes at once: a bet's pays compiled into card terms.

:func:`~exactodds.analysis.single.price_card_bet` prices one shoe by the card walk (every
outcome's count, for the distribution and the variance).  A simulation or an audit needs one
figure per shoe state, the exact EV, on every round of thousands of shoes: the card walk's
half a second to ten seconds a state is days.  :func:`card_expected_values` compiles the bet's
integer pays over the :class:`~exactodds.engine.cardwalk.CardRound`\\ s its view tells apart
into :class:`~exactodds.engine.cardterms.CardTerms` (once per bet and tableau and process,
half a second to a few seconds) and then prices each shoe in well under a millisecond, exactly
the card walk's figure (the tests hold the two equal).

>>> from exactodds.bets.custom import parse_custom_bets
>>> (bet,) = parse_custom_bets(
...     '[[bet]]\\nname = "suited"\\n[[bet.outcome]]\\n'
...     'when = { player_first_two = { suited = true } }\\npays = 2\\n')
>>> shoe = Shoe.standard(decks=1)
>>> numerators, denominator = card_expected_values(
...     bet, Tableau(), [shoe.rank_counts], [shoe.suit_counts])
>>> Fraction(numerators[0], denominator[0]) == price_card_bet(shoe, Rules(), bet).expected_value
True
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any, cast

from exactodds.analysis.single import price_card_bet
from exactodds.bets.bet import Bet
from exactodds.engine.cardterms import CardTerms, compile_card_terms, leaf_count
from exactodds.engine.cardwalk import CardRound
from exactodds.engine.walk import sequences
from exactodds.errors import BetError
from exactodds.rules import Rules, Tableau
from exactodds.shoe import Shoe

__all__ = ["card_bet_terms", "card_expected_values", "compiles"]

# Imported for the doctest above.
_DOCTEST = (Fraction, Rules, Shoe, price_card_bet)


def compiles(bet: Bet, tableau: Tableau | None = None) -> bool:
    """Whether *bet*'s card view is small enough to compile (else the card walk, shoe by shoe).

    >>> from exactodds.bets.custom import parse_custom_bets
    >>> def suits(*names):
    ...     return parse_custom_bets('[[bet]]\\nname = "suits"\\n' + "".join(
    ...         f'[[bet.outcome]]\\nname = "{name.lower()}"\\n'
    ...         f'when = {{ round_has = {{ suit = "{name}", count = "all" }} }}\\npays = 99\\n'
    ...         for name in names))[0]
    >>> compiles(suits("H")), compiles(suits("H", "S", "D"))
    (True, False)
    """
    from exactodds.engine.cardterms import MOST_LEAVES

    if bet.cards is None:
        return False
    return leaf_count(bet.cards, tableau if tableau is not None else Tableau()) <= MOST_LEAVES


@lru_cache(maxsize=32)
def card_bet_terms(bet: Bet, tableau: Tableau) -> CardTerms:
    """*bet*'s integer pays (over :meth:`~exactodds.bets.bet.Bet.integer_pays`' denominator)
    as card terms, compiled once per bet and tableau in a process."""
    if bet.cards is None:
        raise BetError(f"Bet {bet.name!r} has no card-level conditions; price it with analyze().")
    pays, _ = bet.integer_pays()
    settle = cast(Any, bet.settle_round)

    def pay(round_: CardRound) -> int:
        outcome: str = settle(round_)
        bet.pay(outcome)  # an outcome without a pay: the bet's own sentence
        return pays[outcome]

    return compile_card_terms(bet.cards, tableau, pay)


def card_expected_values(
    bet: Bet,
    tableau: Tableau,
    rank_rows: Sequence[Sequence[int]] | Any,
    suit_rows: Sequence[Sequence[int] | None] | Any | None = None,
) -> tuple[list[int], list[int]]:
    """*bet*'s exact EV on each shoe, as numerators and positive denominators.

    Each row of *rank_rows* holds 13 rank counts; *suit_rows* the 52 face counts (needed when
    the bet reads suits or colours).  The denominator is ``ff(N, 6)`` times the pay
    denominator, as the kernel's.
    """
    terms = card_bet_terms(bet, tableau)
    _, denominator = bet.integer_pays()
    numerators = terms.evaluate(rank_rows, suit_rows)
    denominators = [sequences(sum(int(count) for count in row)) * denominator for row in rank_rows]
    return numerators, denominators
