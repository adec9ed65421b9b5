"""exactodds: the exact odds of baccarat (Punto Banco), by combinatorial enumeration.

Every figure is an exact rational computed from integer counts of every
round a shoe can deal, for any shoe, drawing rules and pay table.

>>> from exactodds import Rules, Shoe, analyze
>>> result = analyze(Shoe.standard(decks=8), Rules())
>>> result.outcomes["tie"].count, result.total
(475627426473216, 4998398275503360)
>>> result.bets["banker"].expected_value
Fraction(-114753351728, 10847218479825)

Many shoes at once (compiled once, then well under a millisecond a shoe):

>>> from exactodds import analyze_many
>>> [r.outcomes["tie"].count for r in analyze_many([Shoe.standard(decks=1), Shoe.standard(decks=2)])]
[1372227328, 103154274240]
"""

from __future__ import annotations

from importlib import import_module
from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING, Any

from exactodds.analysis.single import Analysis, BetAnalysis, OutcomeCount, analyze, price_bet
from exactodds.bets.bet import Bet, main_bets
from exactodds.cards import Card, Rank, Suit, parse_cards
from exactodds.engine.walk import OutcomeTable, RoundSummary, Winner, enumerate_rounds
from exactodds.errors import CardError, ExactOddsError, PayError, RulesError, ShoeError
from exactodds.rules import Rules, Tableau, Variant
from exactodds.shoe import Shoe

# Imported on first use: they bring numpy (and sympy, inside breakeven).
if TYPE_CHECKING:
    from exactodds.analysis.many import Analyzer, analyze_many
    from exactodds.analysis.removal import effect_of_removal
    from exactodds.analysis.symbolic import breakeven
    from exactodds.bets.catalogue import select_bets
    from exactodds.bets.custom import load_custom_bets
    from exactodds.engine.known import enumerate_known
    from exactodds.rulefiles import load_rules_file

_LAZY = {
    "Analyzer": "analysis.many",
    "analyze_many": "analysis.many",
    "select_bets": "bets.catalogue",
    "load_custom_bets": "bets.custom",
    "enumerate_known": "engine.known",
    "effect_of_removal": "analysis.removal",
    "load_rules_file": "rulefiles",
    "breakeven": "analysis.symbolic",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module 'exactodds' has no attribute {name!r}")


try:
    __version__ = version("exactodds")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0+unknown"

__all__ = [
    "Analysis",
    "Analyzer",
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
    "analyze_many",
    "breakeven",
    "effect_of_removal",
    "enumerate_known",
    "enumerate_rounds",
    "load_custom_bets",
    "load_rules_file",
    "main_bets",
    "parse_cards",
    "price_bet",
    "select_bets",
]
