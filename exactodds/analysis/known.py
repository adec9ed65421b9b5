"""Exact odds when some of the next cards are known: every bet priced on the conditional counts.

:func:`~exactodds.engine.known.enumerate_known` counts the rounds that hold the known cards in
place; this module prices bets on those counts as :func:`~exactodds.analysis.single.analyze`
prices them on a whole shoe's.

>>> from exactodds import Rules, Shoe
>>> analyze_known(Shoe.standard(decks=8), Rules(), {1: "9"}).total == 415 * 414 * 413 * 412 * 411
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from exactodds.analysis.single import SUITS_UNKNOWN, Analysis, price_table
from exactodds.bets.bet import Bet
from exactodds.cards import Card
from exactodds.engine.known import KnownLike, enumerate_known, parse_known
from exactodds.engine.walk import OutcomeTable
from exactodds.rules import Rules
from exactodds.shoe import Shoe

__all__ = ["KNOWN_SUITS_MISSING", "KnownAnalysis", "analyze_known"]


#: Why a suited bet cannot be priced when a known card was given without its suit.
KNOWN_SUITS_MISSING = (
    "This bet needs suits, and a known card was given without its suit; give every known "
    "card with its suit, such as KS."
)


@dataclass(frozen=True, kw_only=True)
class KnownAnalysis(Analysis):
    """An :class:`~exactodds.analysis.single.Analysis` given known cards.

    ``shoe`` is the shoe before the known cards come out of it; ``table`` is
    :func:`enumerate_known`'s, so ``total`` is ``(n - k)...(n - 5)`` and every
    figure is conditional on the ``known`` cards.  The report renderers take
    it as they take any analysis.

    >>> from exactodds import Rules, Shoe
    >>> result = analyze_known(Shoe.standard(decks=1), Rules(), {6: "9"})
    >>> result.total, result.known[6].symbol
    (281887200, '9')
    >>> KnownAnalysis(shoe=Shoe.standard(decks=1), rules=Rules(), outcomes={}, bets={})
    Traceback (most recent call last):
    ...
    TypeError: KnownAnalysis.__init__() missing 2 required keyword-only arguments: 'known' and 'known_table'
    """

    known: Mapping[int, Card]
    known_table: OutcomeTable

    @property
    def table(self) -> OutcomeTable:
        """The counts given the known cards (from :func:`enumerate_known`)."""
        return self.known_table

    @property
    def total(self) -> int:
        """How many six-card sequences hold the known cards in place: (n-k)...(n-5)."""
        return self.known_table.total


def analyze_known(
    shoe: Shoe,
    rules: Rules | None,
    known: KnownLike,
    bets: Iterable[Bet] | None = None,
) -> KnownAnalysis:
    """Like :func:`~exactodds.analysis.single.analyze`, given the *known* cards.

    The analysis's ``table`` is :func:`enumerate_known`'s, so its ``total``
    is ``(n - k)...(n - 5)`` and every probability is conditional on the
    known cards; ``shoe`` is the shoe before the known cards are taken out.

    >>> from exactodds import Rules, Shoe
    >>> result = analyze_known(Shoe.standard(decks=8), Rules(), {1: "9", 3: "K"})
    >>> result.bets["player"].house_edge_percent(2)
    '-90.60%'
    >>> analyze_known(Shoe.standard(decks=8), Rules(), ["1=9", "P1=K"])
    Traceback (most recent call last):
    ...
    exactodds.engine.known.KnownCardError: Position 1 is given twice ('9' and 'K'); name each position once.
    """
    rules = rules if rules is not None else Rules()
    cards = parse_known(known)
    table = enumerate_known(shoe, rules.tableau, cards)
    reason = SUITS_UNKNOWN if not shoe.suits_known else KNOWN_SUITS_MISSING
    outcomes, priced, unavailable, names = price_table(table, rules, bets, reason)
    return KnownAnalysis(
        shoe=shoe,
        rules=rules,
        outcomes=outcomes,
        bets=priced,
        unavailable=unavailable,
        bet_names=names,
        known=cards,
        known_table=table,
    )
