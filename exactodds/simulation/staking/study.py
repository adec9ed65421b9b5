"""What the staking room reads of a study: the typed shape of a simulation's spec.

The room sits below the pipeline, so it never imports the pipeline's
:class:`~exactodds.simulation.study.Simulation`; it states, as a protocol, the fields it reads
(and, for :func:`dataclasses.replace`, that the study is a dataclass). ``Simulation`` has
them all, so every study handed down is one.

>>> from exactodds.simulation.study import Simulation
>>> study: StakedStudy = Simulation.of(1, 1)
>>> study.trip_shoes, study.suited
(1, False)
"""

from __future__ import annotations

from dataclasses import Field
from fractions import Fraction
from typing import Any, ClassVar, Protocol

from exactodds.bets.bet import Bet
from exactodds.rules import Rules
from exactodds.simulation.dealing import DealingProcedure
from exactodds.simulation.risk.questions import RiskQuestions
from exactodds.simulation.staking.stakes import Stake, TableLimits
from exactodds.simulation.strategies import Strategy

__all__ = ["StakedStudy"]


class StakedStudy(Protocol):
    """The fields of a study that stakes, sizing and the optimal ramp read (a frozen dataclass)."""

    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    @property
    def seed(self) -> int: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def bets(self) -> tuple[Bet, ...]: ...
    @property
    def strategies(self) -> tuple[Strategy, ...]: ...
    @property
    def procedure(self) -> DealingProcedure: ...
    @property
    def stake(self) -> Stake: ...
    @property
    def limits(self) -> TableLimits: ...
    @property
    def bankroll(self) -> Fraction | None: ...
    @property
    def trip_shoes(self) -> int: ...
    @property
    def exact_moments(self) -> bool: ...
    @property
    def questions(self) -> RiskQuestions: ...
    @property
    def suited(self) -> bool: ...
