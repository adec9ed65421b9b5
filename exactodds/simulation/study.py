"""What a simulation is: shoes, seed, rules, bets with their strategies, the dealing procedure.

A :class:`Simulation` is a frozen value: two runs of equal simulations deal the same
shoes and give the same tallies, and its :meth:`~Simulation.fingerprint` is what a
checkpoint records to refuse resuming another study.

>>> Simulation.of(shoes=10, seed=1).fingerprint()["procedure"]
{'decks': 8, 'cut': 14, 'burn': 'standard', 'after_cut': 1, 'cut_first_rounds': 2}
>>> Simulation.of(shoes=0, seed=1)
Traceback (most recent call last):
...
exactodds.simulation.dealing.SimulationError: Number of shoes 0 is not valid; use a whole number of at least 1.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from exactodds.bets.bet import Bet, main_bets
from exactodds.numbers import fraction_string
from exactodds.rules import Rules
from exactodds.simulation.dealing import DealingProcedure, SimulationError, require_whole
from exactodds.simulation.strategies import Perfect, Strategy

__all__ = ["MOST_SHOES", "Simulation"]

#: Most shoes one run deals: a checkpoint keeps each exact sum of a run in at most 1,000
#: digits, which this many shoes cannot pass (and no machine deals them in a lifetime).
MOST_SHOES = 10**15


def _shown(value: int) -> str:
    if value.bit_length() > 4000:
        return "a number of more than 1,000 digits of"
    digits = len(str(value))
    return f"{value:,}" if digits <= 30 else f"a {digits}-digit number of"


@dataclass(frozen=True)
class Simulation:
    """What to simulate: how many shoes, the seed, rules, bets with strategies, dealing.

    Build one with :meth:`of`; ``strategies[i]`` plays ``bets[i]``.
    """

    shoes: int
    seed: int
    rules: Rules
    bets: tuple[Bet, ...]
    strategies: tuple[Strategy, ...]
    procedure: DealingProcedure

    def __post_init__(self) -> None:
        require_whole(self.shoes, "Number of shoes", 1)
        if self.shoes > MOST_SHOES:
            raise SimulationError(
                f"A run of {_shown(self.shoes)} shoes is more than one run can hold; use at "
                f"most {MOST_SHOES:,} (10^15), the most a checkpoint and its exact sums keep."
            )
        require_whole(self.seed, "Seed", 0)
        if not self.bets:
            raise SimulationError("A simulation needs at least one bet; name some with --bets.")
        if len(self.strategies) != len(self.bets):
            raise SimulationError(
                f"{len(self.bets)} bets need {len(self.bets)} strategies, "
                f"not {len(self.strategies)}."
            )

    @classmethod
    def of(
        cls,
        shoes: int,
        seed: int,
        rules: Rules | None = None,
        bets: Sequence[Bet] | None = None,
        strategies: Mapping[str, Strategy] | None = None,
        procedure: DealingProcedure | None = None,
    ) -> Simulation:
        """A simulation with defaults: standard rules, main bets, perfect play, 8 decks, cut 14."""
        rules = rules if rules is not None else Rules()
        chosen = tuple(bets) if bets is not None else main_bets(rules)
        plays = strategies or {}
        return cls(
            shoes,
            seed,
            rules,
            chosen,
            tuple(plays.get(bet.name, Perfect()) for bet in chosen),
            procedure if procedure is not None else DealingProcedure(),
        )

    @property
    def suited(self) -> bool:
        """Whether any bet needs the suits of the known composition."""
        return any(bet.needs_suits for bet in self.bets)

    def fingerprint(self) -> dict[str, Any]:
        """What makes two runs the same run (all but the number of shoes): checkpoints hold it."""
        return {
            "seed": self.seed,
            "procedure": self.procedure.as_dict(),
            "rules": self.rules.as_dict(),
            "bets": {
                bet.name: {
                    "pays": {
                        outcome: fraction_string(pay) for outcome, pay in bet.pay_table.items()
                    },
                    "strategy": strategy.describe(),
                }
                for bet, strategy in zip(self.bets, self.strategies, strict=True)
            },
        }
