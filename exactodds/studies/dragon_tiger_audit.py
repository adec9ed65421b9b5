"""The countability audit of Dragon Tiger's bets: can a count, or perfect play, beat them?

For each bet, :func:`dragon_tiger_audit` gathers:

* off the top, the exact house edge (:func:`~exactodds.games.dragon_tiger.dragon_tiger_odds`);
* the exact effects of removal and **the count derived from them** the way baccarat's count
  is derived (:func:`~exactodds.games.dragon_tiger.dragon_tiger_removal`, through
  :meth:`~exactodds.analysis.removal.EffectOfRemoval.linear_count`), its trigger chosen as the
  true count that wins most, by the exact EV, on ``budget`` search shoes (seed ``seed``);
* the count's figures and perfect play's (bet exactly when the exact EV on the cards left is
  above 0) on ``budget`` *fresh* shoes (seed ``seed + 1``, so the trigger's choice does not
  flatter them), every round priced exactly (:mod:`exactodds.games.dragon_tiger_shoes`);
* a verdict by the same machinery as baccarat's audit
  (:class:`~exactodds.studies.audit.Verdict`: the one-sided upper bound of the win per 100
  rounds against :class:`~exactodds.studies.audit.Thresholds`), on the count, or on perfect
  play when no rank moves the bet (every tag 0: the Dragon, Tiger and Tie bets on an even
  shoe, whose EVs depend on the spread of the ranks only).

>>> found = dragon_tiger_audit(["big"], budget=20, decks=1, cut=10)
>>> found.bets["big"].house_edge, found.bets["big"].tags[:3]
(Fraction(1, 13), (1, 1, 1))
>>> found.bets["big"].verdict.played
'the derived count'
>>> dragon_tiger_audit(["big"], budget=0)
Traceback (most recent call last):
...
exactodds.studies.audit.AuditError: Number of shoes 0 for `budget` is not valid; use a whole number of at least 1.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from exactodds.analysis.removal import DEFAULT_MAX_TAG
from exactodds.cards import RANKS
from exactodds.games.dragon_tiger import dragon_tiger_odds, dragon_tiger_removal
from exactodds.games.dragon_tiger_shoes import (
    Count,
    Perfect,
    PlayFigures,
    best_trigger,
    deal_dragon_tiger,
    play,
)
from exactodds.inputs import whole_number
from exactodds.numbers import NumberLike, fraction_string
from exactodds.shoe import Shoe
from exactodds.simulation.risk.sums import Estimate
from exactodds.studies.audit import DEFAULT_BUDGET, AuditError, Thresholds, Verdict

__all__ = ["DragonTigerAudit", "DragonTigerBetAudit", "dragon_tiger_audit"]


@dataclass(frozen=True)
class DragonTigerBetAudit:
    """One bet's audit: exact edge and effects, the derived count, both plays, the verdict.

    ``tags`` are 13 (A ... K); ``trigger`` and ``count`` are None when every tag is 0 (no
    rank moves the bet, so the count never tells one round from another).
    """

    name: str
    pay: Fraction
    house_edge: Fraction
    effects: Mapping[str, Fraction | None]
    tags: tuple[int, ...]
    trigger: Fraction | None
    count: PlayFigures | None
    perfect: PlayFigures
    verdict: Verdict

    def to_dict(self) -> dict[str, Any]:
        """One ``bets.NAME`` entry of the JSON contract."""
        return {
            "pay": fraction_string(self.pay),
            "house_edge": fraction_string(self.house_edge),
            "eor": {
                rank: None if effect is None else fraction_string(effect)
                for rank, effect in self.effects.items()
            },
            "count": {
                "tags": dict(zip((rank.symbol for rank in RANKS), self.tags, strict=True)),
                "trigger": None if self.trigger is None else float(self.trigger),  # a half
                "figures": None if self.count is None else self.count.to_dict(),
            },
            "perfect_play": self.perfect.to_dict(),
            "decision": self.verdict.to_dict(),
            "verdict": self.verdict.sentence(self.name),
        }


@dataclass(frozen=True)
class DragonTigerAudit:
    """The audit of the chosen bets on one dealing procedure (decks, cut card, no burn).

    >>> data = dragon_tiger_audit("tiger", decks=1, cut=40, budget=2).to_dict()
    >>> data["fresh_seed"], data["bets"]["tiger"]["decision"]["played"]
    (2, 'perfect play')
    """

    decks: int
    cut: int
    budget: int
    seed: int
    max_tag: int
    thresholds: Thresholds
    bets: Mapping[str, DragonTigerBetAudit]
    pays: Mapping[str, Fraction]
    unavailable: Mapping[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The JSON contract of ``exactodds audit --game dragon-tiger --format json``."""
        return {
            "game": "dragon-tiger",
            "procedure": {"decks": self.decks, "cut": self.cut, "burn": "none"},
            "budget": self.budget,
            "seed": self.seed,
            "fresh_seed": self.seed + 1,
            "max_tag": self.max_tag,
            "pays": {name: fraction_string(pay) for name, pay in self.pays.items()},
            "thresholds": self.thresholds.to_dict(),
            "bets": {name: bet.to_dict() for name, bet in self.bets.items()},
            "unavailable": dict(self.unavailable),
        }


def dragon_tiger_audit(
    bets: Iterable[str] | str | None = None,
    pays: Mapping[str, NumberLike] | None = None,
    *,
    decks: int = 8,
    cut: int = 14,
    budget: int = DEFAULT_BUDGET,
    seed: int = 1,
    max_tag: int = DEFAULT_MAX_TAG,
    thresholds: Thresholds | None = None,
) -> DragonTigerAudit:
    """Audit Dragon Tiger's *bets* (default: all six) at *pays* on *decks*-deck shoes cut
    *cut* cards from the back, with *budget* search shoes and *budget* fresh ones."""
    whole_number(budget, "budget", AuditError, minimum=1, what="Number of shoes")
    whole_number(seed, "seed", AuditError, what="Seed")
    chosen = thresholds if thresholds is not None else Thresholds()
    shoe = Shoe.standard(decks=decks)
    odds = dragon_tiger_odds(shoe, bets, pays)
    names = tuple(odds.bets)
    removal = dragon_tiger_removal(shoe, names, odds.pays, 1, max_tag)
    settings = {"decks": decks, "cut": cut, "shoes": budget}
    search = deal_dragon_tiger(names, odds.pays, seed=seed, **settings)
    fresh = deal_dragon_tiger(names, odds.pays, seed=seed + 1, **settings)
    audited = {}
    for name in names:
        count = removal.counts[name]
        tags = tuple(count.tags[rank.symbol] for rank in RANKS)
        perfect = play(fresh, name, Perfect())
        if any(tags):
            trigger: Fraction | None = best_trigger(search, name, tags)
            assert trigger is not None
            counted: PlayFigures | None = play(fresh, name, Count(tags, trigger))
            decided, played = counted, "the derived count"
        else:
            trigger, counted, decided, played = None, None, perfect, "perfect play"
        assert decided is not None
        verdict = Verdict(played, Estimate(*decided.exact_ev), chosen)
        audited[name] = DragonTigerBetAudit(
            name,
            odds.pays[name],
            odds.bets[name].house_edge,
            removal.effects[name],
            tags,
            trigger,
            counted,
            perfect,
            verdict,
        )
    return DragonTigerAudit(
        decks, cut, budget, seed, max_tag, chosen, audited, odds.pays, dict(odds.unavailable)
    )
