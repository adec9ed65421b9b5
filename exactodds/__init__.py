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
#: The public API, written once: each module (under exactodds.) and the names it gives.
_PUBLIC: dict[str, tuple[str, ...]] = {
    "advantage.depth": ("DepthTable", "PartialShoe", "depth_table", "partial_shoe"),
    "advantage.edgesort": ("EdgeSort", "edge_sort", "search_partitions"),
    "analysis.single": ("Analysis", "BetAnalysis", "OutcomeCount", "analyze", "price_bet"),
    "analysis.many": ("Analyzer", "analyze_many"),
    "analysis.removal": ("effect_of_removal",),
    "analysis.symbolic": ("breakeven",),
    "bets.bet": ("Bet", "main_bets"),
    "bets.catalogue": ("select_bets",),
    "bets.custom": ("load_custom_bets",),
    "cards": ("Card", "Rank", "Suit", "parse_cards"),
    "engine.known": ("enumerate_known",),
    "engine.walk": ("OutcomeTable", "RoundSummary", "Winner", "enumerate_rounds"),
    "errors": ("CardError", "ExactOddsError", "PayError", "RulesError", "ShoeError"),
    "rulefiles": ("load_rules_file",),
    "rules": ("Rebate", "Rules", "Tableau", "Variant"),
    "shoe": ("Shoe",),
    "studies.audit": ("Audit", "AuditSpec", "Thresholds", "audit"),
    "studies.design": ("PayDesign", "design_paytables"),
    "studies.protection": ("ProtectionSpec", "ProtectionTable", "SideBetCap", "protection_table"),
}
_LAZY = {name: module for module, names in _PUBLIC.items() for name in names}
__all__ = sorted(_LAZY)

# For type checkers only (mypy --strict re-exports `X as X`); tests/test_layers.py holds
# these imports equal to _PUBLIC, so the two cannot drift.
if TYPE_CHECKING:
    from exactodds.advantage.depth import DepthTable as DepthTable
    from exactodds.advantage.depth import PartialShoe as PartialShoe
    from exactodds.advantage.depth import depth_table as depth_table
    from exactodds.advantage.depth import partial_shoe as partial_shoe
    from exactodds.advantage.edgesort import EdgeSort as EdgeSort
    from exactodds.advantage.edgesort import edge_sort as edge_sort
    from exactodds.advantage.edgesort import search_partitions as search_partitions
    from exactodds.analysis.many import Analyzer as Analyzer
    from exactodds.analysis.many import analyze_many as analyze_many
    from exactodds.analysis.removal import effect_of_removal as effect_of_removal
    from exactodds.analysis.single import Analysis as Analysis
    from exactodds.analysis.single import BetAnalysis as BetAnalysis
    from exactodds.analysis.single import OutcomeCount as OutcomeCount
    from exactodds.analysis.single import analyze as analyze
    from exactodds.analysis.single import price_bet as price_bet
    from exactodds.analysis.symbolic import breakeven as breakeven
    from exactodds.bets.bet import Bet as Bet
    from exactodds.bets.bet import main_bets as main_bets
    from exactodds.bets.catalogue import select_bets as select_bets
    from exactodds.bets.custom import load_custom_bets as load_custom_bets
    from exactodds.cards import Card as Card
    from exactodds.cards import Rank as Rank
    from exactodds.cards import Suit as Suit
    from exactodds.cards import parse_cards as parse_cards
    from exactodds.engine.known import enumerate_known as enumerate_known
    from exactodds.engine.walk import OutcomeTable as OutcomeTable
    from exactodds.engine.walk import RoundSummary as RoundSummary
    from exactodds.engine.walk import Winner as Winner
    from exactodds.engine.walk import enumerate_rounds as enumerate_rounds
    from exactodds.errors import CardError as CardError
    from exactodds.errors import ExactOddsError as ExactOddsError
    from exactodds.errors import PayError as PayError
    from exactodds.errors import RulesError as RulesError
    from exactodds.errors import ShoeError as ShoeError
    from exactodds.rulefiles import load_rules_file as load_rules_file
    from exactodds.rules import Rebate as Rebate
    from exactodds.rules import Rules as Rules
    from exactodds.rules import Tableau as Tableau
    from exactodds.rules import Variant as Variant
    from exactodds.shoe import Shoe as Shoe
    from exactodds.studies.audit import Audit as Audit
    from exactodds.studies.audit import AuditSpec as AuditSpec
    from exactodds.studies.audit import Thresholds as Thresholds
    from exactodds.studies.audit import audit as audit
    from exactodds.studies.design import PayDesign as PayDesign
    from exactodds.studies.design import design_paytables as design_paytables
    from exactodds.studies.protection import ProtectionSpec as ProtectionSpec
    from exactodds.studies.protection import ProtectionTable as ProtectionTable
    from exactodds.studies.protection import SideBetCap as SideBetCap
    from exactodds.studies.protection import protection_table as protection_table

    __version__: str


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
