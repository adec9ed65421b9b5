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
from typing import TYPE_CHECKING, Any

# Every public name is imported on first use (PEP 562), so that `import exactodds`, which any
# `exactodds.*` import runs first, costs next to nothing: `exactodds odds` must start fast,
# and numpy (batch), sympy (breakeven) and the rest load only where they are used.
if TYPE_CHECKING:
    from exactodds.analysis.many import Analyzer, analyze_many
    from exactodds.analysis.removal import effect_of_removal
    from exactodds.analysis.single import Analysis, BetAnalysis, OutcomeCount, analyze, price_bet
    from exactodds.analysis.symbolic import breakeven
    from exactodds.bets.bet import Bet, main_bets
    from exactodds.bets.catalogue import select_bets
    from exactodds.bets.custom import load_custom_bets
    from exactodds.cards import Card, Rank, Suit, parse_cards
    from exactodds.engine.known import enumerate_known
    from exactodds.engine.walk import OutcomeTable, RoundSummary, Winner, enumerate_rounds
    from exactodds.errors import CardError, ExactOddsError, PayError, RulesError, ShoeError
    from exactodds.rulefiles import load_rules_file
    from exactodds.rules import Rules, Tableau, Variant
    from exactodds.shoe import Shoe

    __version__: str

_LAZY = {
    "Analysis": "analysis.single",
    "BetAnalysis": "analysis.single",
    "OutcomeCount": "analysis.single",
    "analyze": "analysis.single",
    "price_bet": "analysis.single",
    "Bet": "bets.bet",
    "main_bets": "bets.bet",
    "Card": "cards",
    "Rank": "cards",
    "Suit": "cards",
    "parse_cards": "cards",
    "OutcomeTable": "engine.walk",
    "RoundSummary": "engine.walk",
    "Winner": "engine.walk",
    "enumerate_rounds": "engine.walk",
    "CardError": "errors",
    "ExactOddsError": "errors",
    "PayError": "errors",
    "RulesError": "errors",
    "ShoeError": "errors",
    "Rules": "rules",
    "Tableau": "rules",
    "Variant": "rules",
    "Shoe": "shoe",
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
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            value: Any = version("exactodds")
        except PackageNotFoundError:  # pragma: no cover - running from a source tree
            value = "0+unknown"
    elif name in _LAZY:
        value = getattr(import_module(f".{_LAZY[name]}", __name__), name)
    else:
        raise AttributeError(f"module 'exactodds' has no attribute {name!r}")
    globals()[name] = value  # the next look-up is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__, "__version__"})


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
