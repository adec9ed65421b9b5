"""exactodds: the exact odds of baccarat (Punto Banco), by combinatorial enumeration.

Every figure is an exact rational computed from integer counts of every
round a shoe can deal, for any shoe, drawing rules and pay table.

>>> from exactodds import Rules, Shoe, analyze
>>> result = analyze(Shoe.standard(decks=8), Rules())
>>> result.outcomes["tie"].count, result.total
(475627426473216, 4998398275503360)
>>> result.bets["banker"].expected_value
Fraction(-114753351728, 10847218479825)
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from .analysis import Analysis, BetAnalysis, OutcomeCount, analyze, price_bet
from .bets import Bet, main_bets
from .cards import Card, Rank, Suit, parse_cards
from .enumeration import OutcomeTable, RoundSummary, Winner, enumerate_rounds
from .errors import CardError, ExactOddsError, PayError, RulesError, ShoeError
from .rules import Rules, Tableau, Variant
from .shoe import Shoe

try:
    __version__ = version("exactodds")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0+unknown"

__all__ = [
    "Analysis",
    "Bet",
    "BetAnalysis",
    "Card",
    "CardError",
    "ExactOddsError",
    "OutcomeCount",
    "OutcomeTable",
    "PayError",
    "Rank",
    "RoundSummary",
    "Rules",
    "RulesError",
    "Shoe",
    "ShoeError",
    "Suit",
    "Tableau",
    "Variant",
    "Winner",
    "analyze",
    "enumerate_rounds",
    "main_bets",
    "parse_cards",
    "price_bet",
]
