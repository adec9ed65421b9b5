"""The countability audit: can a bet be beaten, by how much, and what cut card makes it safe?

:func:`audit` assembles, for each bet, what a consultant's report on a side bet holds
(Jacobson's baccarat side-bet catalogue is the model):

* off the top: the exact house edge, standard deviation and hit frequency
  (:func:`~exactodds.analysis.single.analyze`);
* the exact effect of removal of each rank
  (:func:`~exactodds.analysis.removal.effect_of_removal`);
* **the best count, found rather than typed**: balanced integer tags of level 1 to 5, started
  from the scaled effects of removal (:meth:`~exactodds.analysis.removal.EffectOfRemoval.linear_count`,
  and :func:`rounded_start`) and improved by local search (moves that keep the count balanced), each candidate scored by
  its win per 100 rounds at its best trigger, with the exact-EV estimator, on the same
  ``budget`` shoes (seed ``seed``) so that candidates are told apart by their real difference;
* the found count's figures simulated on *fresh* shoes (seed ``seed + 1``, so the search's
  choice does not flatter them) by :func:`~exactodds.simulation.run.simulate` itself: a
  ``simulate`` run with the same tags, trigger and seed gives the same figures;
* the perfect-play bound: the exact depth-table value at feasible depths
  (:func:`~exactodds.advantage.depth.depth_table`, value bets) and simulated perfect play;
* the countermeasure: the count's win per 100 rounds by cut-card position, and the deepest
  cut (fewest cards behind the cut card) from which on it stays below the threshold;
* a verdict, one sentence, on the thresholds stated in :class:`Thresholds`.

The simulated figures are estimates (floats, each with its standard error); the house edge,
effects of removal and depth values are exact fractions.

>>> from exactodds.bets.catalogue import select_bets
>>> from exactodds.simulation.dealing import DealingProcedure
>>> spec = AuditSpec(select_bets("dragon7"), procedure=DealingProcedure(decks=1, cut=10),
...                  budget=20, depths=(), cuts=(10,))
>>> found = audit(spec)
>>> found.bets["dragon7"].house_edge
Fraction(3857697, 50896300)
>>> found.bets["dragon7"].count.level in LEVELS
True
>>> AuditSpec(select_bets("dragon7"), budget=0)
Traceback (most recent call last):
...
exactodds.studies.audit.AuditError: Number of shoes 0 for `budget` is not valid; use a whole number of at least 1.
"""

from __future__ import annotations

import itertools
import math
import statistics
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from exactodds.analysis.removal import EffectOfRemoval, effect_of_removal
from exactodds.analysis.single import analyze
from exactodds.bets.bet import Bet, bets_given
from exactodds.bets.multipliers import MultiplierOverlay
from exactodds.errors import ExactOddsError, parameter, quoted
from exactodds.inputs import whole_number
from exactodds.numbers import decimal_string, fraction_string, square_root_decimal_string
from exactodds.rules import Rules
from exactodds.shoe import Shoe
from exactodds.simulation.dealing import DealingProcedure
from exactodds.simulation.result import BetResult
from exactodds.simulation.risk.figures import RiskFigures
from exactodds.simulation.risk.sums import Estimate, nan_to_none

__all__ = [
    "DEFAULT_BUDGET",
    "LEVELS",
    "Audit",
    "AuditError",
    "AuditSpec",
    "BetAudit",
    "CutRow",
    "DepthValue",
    "ExactFigures",
    "FoundCount",
    "Progress",
    "SearchShoes",
    "Thresholds",
    "Verdict",
    "audit",
    "audit_bet",
    "audit_seconds",
    "count_search",
    "counted_progress",
    "default_cuts",
    "depth_rows",
    "exact_figures",
    "found_count",
    "fraction_words",
    "jacobson_di",
    "mean_and_error",
    "percent_words",
    "require_budget",
    "require_jobs",
    "require_seed",
    "rounded_start",
    "safe_cut",
    "score",
    "search_shoes",
    "trackable",
    "walked_seconds",
]

#: Shoes per candidate by default: one bet's audit in at most 5 minutes on two cores
#: (benchmarks/bench_audit.py measures it).
DEFAULT_BUDGET = 500
#: Levels of the counts searched: the largest tag, in absolute value. Up to 5, the level of
#: Jacobson's strongest published counts (level 3 left the search short of them).
LEVELS = (1, 2, 3, 4, 5)
#: Most rounds of local search per level (each tries every balanced one-step move).
_SEARCH_STEPS = 12
#: Trigger grid: true counts in steps of 1/2 (Jacobson's triggers are whole or half counts).
_TRIGGER_STEPS = 2
#: The ten count groups: A 2 ... 9 and the four ten-valued ranks together.
_GROUP_WEIGHTS = (1, 1, 1, 1, 1, 1, 1, 1, 1, 4)
#: Progress callback: (step done, steps in all, what is running).
Progress = Callable[[int, int, str], None]


class AuditError(ExactOddsError):
    """An audit that cannot be made: bad settings, or a bet no count can track."""


@dataclass(frozen=True)
class Thresholds:
    """What counts as safe, and how sure the audit must be before it says so.

    A bet is safe when the upper bound of its win per 100 rounds, at the one-sided
    *confidence* (95% by default: the estimate plus 1.645 standard errors), is below the
    threshold; else it can be beaten. The threshold is ``units_per_100_rounds``, or, when
    ``money_per_hour`` is given, whichever of the two is stricter (money per hour turned into
    units per 100 rounds at ``max_bet`` and ``rounds_per_hour``). No money threshold by
    default: at the table's 100 and 70 rounds an hour, the old default of 25 an hour was 0.357
    units per 100 rounds and could never decide beside 0.1.

    >>> Thresholds().hourly(1.0)  # 1 unit per 100 rounds: 0.7 max bets an hour
    70.0
    >>> Thresholds().deciding()
    (Fraction(1, 10), '0.1 units per 100 rounds')
    >>> Thresholds(money_per_hour=Fraction(5)).deciding()[1]
    '5 an hour betting 100 at 70 rounds an hour (0.0714 units per 100 rounds)'
    >>> round(Thresholds().upper(Estimate(0.093, 0.017)), 4)  # Dragon 7 at cut 156
    0.121
    >>> Thresholds(max_bet=Fraction(0))
    Traceback (most recent call last):
    ...
    exactodds.studies.audit.AuditError: `thresholds.max_bet` 0 is not valid; use a positive amount of money.
    """

    units_per_100_rounds: Fraction = Fraction(1, 10)
    money_per_hour: Fraction | None = None
    max_bet: Fraction = Fraction(100)
    rounds_per_hour: int = 70
    confidence: Fraction = Fraction(95, 100)

    def __post_init__(self) -> None:
        for name in ("units_per_100_rounds", "money_per_hour", "max_bet"):
            value = getattr(self, name)
            if value is not None and value <= 0:
                raise AuditError(
                    f"{parameter('thresholds.' + name)} {fraction_string(value)} is not valid; "
                    "use a positive "
                    + ("amount of money." if name != "units_per_100_rounds" else "number of units.")
                )
        whole_number(self.rounds_per_hour, "thresholds.rounds_per_hour", AuditError, minimum=1)
        if not isinstance(self.confidence, (int, Fraction)) or isinstance(self.confidence, bool):
            raise AuditError(
                f"{parameter('thresholds.confidence')} {self.confidence!r} is not exact; pass "
                "Fraction(95, 100) for 95%."
            )
        if not Fraction(1, 2) <= self.confidence < 1:
            raise AuditError(
                f"{parameter('thresholds.confidence')} {percent_words(self.confidence)} is not "
                "valid; use a confidence from 50% to below 100%, such as 95%."
            )

    def hourly(self, units_per_100_rounds: float) -> float:
        """Money won per hour betting ``max_bet`` at each trigger (a float: an estimate)."""
        return units_per_100_rounds / 100 * self.rounds_per_hour * float(self.max_bet)

    def deciding(self) -> tuple[Fraction, str]:
        """The threshold that decides, in units per 100 rounds (the stricter one), in words."""
        units = self.units_per_100_rounds
        if self.money_per_hour is not None:
            money = self.money_per_hour * 100 / (self.rounds_per_hour * self.max_bet)
            if money < units:
                return money, (
                    f"{fraction_words(self.money_per_hour)} an hour betting "
                    f"{fraction_words(self.max_bet)} at {self.rounds_per_hour} rounds an hour "
                    f"({fraction_words(money)} units per 100 rounds)"
                )
        return units, f"{fraction_words(units)} units per 100 rounds"

    @property
    def sigmas(self) -> float:
        """Standard errors from the estimate to its one-sided bound at ``confidence``."""
        return statistics.NormalDist().inv_cdf(float(self.confidence))

    def upper(self, estimate: Estimate) -> float:
        """The upper bound of *estimate* at ``confidence``: infinite when it has no error."""
        if math.isnan(estimate.mean) or math.isnan(estimate.stderr):
            return math.inf
        return estimate.mean + self.sigmas * estimate.stderr

    def to_dict(self) -> dict[str, Any]:
        """The thresholds as the JSON contract prints them."""
        threshold, words = self.deciding()
        return {
            "units_per_100_rounds": fraction_string(self.units_per_100_rounds),
            "money_per_hour": None
            if self.money_per_hour is None
            else fraction_string(self.money_per_hour),
            "max_bet": fraction_string(self.max_bet),
            "rounds_per_hour": self.rounds_per_hour,
            "confidence": fraction_string(self.confidence),
            "deciding": {"units_per_100_rounds": fraction_string(threshold), "words": words},
        }


def fraction_words(value: Fraction) -> str:
    """*value* as a short decimal for a sentence: exact when it has at most 4 decimals.

    >>> fraction_words(Fraction(1, 10)), fraction_words(Fraction(11, 2)), fraction_words(Fraction(1, 14))
    ('0.1', '5.5', '0.0714')
    """
    for digits in range(5):
        if (value * 10**digits).denominator == 1:
            return decimal_string(value, digits)
    return decimal_string(value, 4)


def percent_words(value: Fraction) -> str:
    """*value* as a percentage for a sentence (``95%``, ``97.5%``)."""
    return fraction_words(value * 100) + "%"


@dataclass(frozen=True)
class Verdict:
    """A yes/no decided on a confidence bound, with what decided it.

    *played* is what wins (``"the best count"`` or ``"perfect play"``), *estimate* its win per
    100 rounds, *upper* and *lower* the bounds at *thresholds*' confidence; the bet is safe
    when *upper* is below the deciding threshold.
    """

    played: str
    estimate: Estimate
    thresholds: Thresholds

    @property
    def threshold(self) -> Fraction:
        """The deciding threshold, units per 100 rounds."""
        return self.thresholds.deciding()[0]

    @property
    def upper(self) -> float:
        """The estimate's upper bound at the stated confidence."""
        return self.thresholds.upper(self.estimate)

    @property
    def safe(self) -> bool:
        """Safe: the upper bound is below the threshold."""
        return self.upper < self.threshold

    def sentence(self, name: str) -> str:
        """The verdict, one sentence: estimate +- SE, the bound, the threshold, the word."""
        thresholds = self.thresholds
        mean, stderr = self.estimate.mean, self.estimate.stderr
        shown = "-" if math.isnan(mean) else f"{mean:.3f}"
        error = "no error (one shoe)" if math.isnan(stderr) else f"± {stderr:.3f}"
        bound = f"{percent_words(thresholds.confidence)} upper bound {self.upper:.3f}"
        pace = (
            f"{thresholds.hourly(0.0 if math.isnan(mean) else mean):,.2f} an hour betting "
            f"{fraction_words(thresholds.max_bet)} at {thresholds.rounds_per_hour} rounds an hour"
        )
        words = thresholds.deciding()[1]
        if self.safe:
            return (
                f"{name} is safe: {self.played} wins {shown} {error} units per 100 rounds "
                f"({pace}); its {bound} is below the threshold {words}."
            )
        doubt = (
            "; the estimate alone is below the threshold, but not by enough to call it safe "
            "(more shoes may)"
            if mean < self.threshold
            else ""
        )
        return (
            f"{name} can be beaten: {self.played} wins {shown} {error} units per 100 rounds "
            f"({pace}); its {bound} is at or above the threshold {words}{doubt}."
        )

    def to_dict(self) -> dict[str, Any]:
        """The ``decision`` object of the JSON contract."""
        return {
            "played": self.played,
            "units_per_100_rounds": mean_and_error(self.estimate),
            "confidence": fraction_string(self.thresholds.confidence),
            "upper_bound": None if math.isinf(self.upper) else self.upper,
            "threshold": fraction_string(self.threshold),
            "safe": self.safe,
        }


def mean_and_error(estimate: Estimate) -> dict[str, float | None]:
    """A simulated figure as the audit's JSON contract gives it: ``{"mean", "stderr"}``, each
    None where there is no estimate.

    >>> mean_and_error(Estimate(0.25, math.nan))
    {'mean': 0.25, 'stderr': None}
    """
    return {"mean": nan_to_none(estimate.mean), "stderr": nan_to_none(estimate.stderr)}


@dataclass(frozen=True)
class FoundCount:
    """The best count the search found, and its figures simulated on fresh shoes.

    ``tags`` are ten integers (A 2 ... 9 T); ``trigger`` is the true count at which to bet;
    ``search_units_per_100_rounds`` is its score on the search's shoes (seed ``seed - 1``).
    DI comes in two conventions: ``di`` is this tool's, 1000 EV / SD with SD the standard
    deviation of the realized results per round (rounds not bet count 0); ``di_jacobson`` is
    Jacobson's catalogue's, 1000 EV / sqrt(frequency of bets x the bet's variance off the top).
    """

    tags: tuple[int, ...]
    trigger: Fraction
    betting_correlation: str | None
    frequency: float
    average_edge: float | None
    units_per_100_rounds: Estimate
    units_per_shoe: Estimate
    di: Estimate
    di_jacobson: Estimate
    n0_rounds: float | None
    seed: int
    shoes: int
    search_units_per_100_rounds: float
    candidates: int

    @property
    def level(self) -> int:
        """The largest tag in absolute value."""
        return max(abs(tag) for tag in self.tags)

    @property
    def strategy(self) -> str:
        """The ``simulate --play`` spelling of this count."""
        tags = ",".join(str(tag) for tag in self.tags)
        return f"count:{tags}:{fraction_words(self.trigger)}"

    def to_dict(self) -> dict[str, Any]:
        """The ``count`` object of the JSON contract."""
        return {
            "tags": list(self.tags),
            "trigger": fraction_string(self.trigger),
            "betting_correlation": self.betting_correlation,
            "frequency": self.frequency,
            "average_edge": self.average_edge,
            "units_per_100_rounds": mean_and_error(self.units_per_100_rounds),
            "units_per_shoe": mean_and_error(self.units_per_shoe),
            "di": mean_and_error(self.di),
            "di_jacobson": mean_and_error(self.di_jacobson),
            "n0_rounds": self.n0_rounds,
            "level": self.level,
            "play": self.strategy,
            "seed": self.seed,
            "shoes": self.shoes,
            "search": {
                "candidates": self.candidates,
                "units_per_100_rounds": self.search_units_per_100_rounds,
            },
        }


@dataclass(frozen=True)
class CutRow:
    """The found count's win per 100 rounds with the cut card *cut* cards from the back."""

    cut: int
    units_per_100_rounds: Estimate

    def to_dict(self, thresholds: Thresholds | None = None) -> dict[str, Any]:
        """``{"cut": ..., "units_per_100_rounds": {...}}``, and the upper bound at
        *thresholds*' confidence when given."""
        data: dict[str, Any] = {
            "cut": self.cut,
            "units_per_100_rounds": mean_and_error(self.units_per_100_rounds),
        }
        if thresholds is not None:
            upper = thresholds.upper(self.units_per_100_rounds)
            data["upper_bound"] = None if math.isinf(upper) else upper
        return data


@dataclass(frozen=True)
class DepthValue:
    """The exact depth-table figures of one bet at *cards* cards left."""

    cards: int
    positive_probability: Fraction
    value: Fraction

    def to_dict(self) -> dict[str, Any]:
        """``{"cards", "positive_probability", "value"}``, the figures as "n/d"."""
        return {
            "cards": self.cards,
            "positive_probability": fraction_string(self.positive_probability),
            "value": fraction_string(self.value),
        }


@dataclass(frozen=True)
class BetAudit:
    """One bet's audit (see the module docstring for what each part is).

    *count* is None for a bet no count can track (every effect of removal is 0: the pair
    bets); its verdict and cut table are then perfect play's (*decision* says which).
    """

    name: str
    pays: Mapping[str, Fraction]
    house_edge: Fraction
    variance: Fraction
    hit_frequency: Fraction
    eor: Mapping[str, Fraction | None]
    count: FoundCount | None
    depth: tuple[DepthValue, ...]
    depth_note: str | None
    perfect_play: Estimate
    by_cut: tuple[CutRow, ...]
    safe_cut: int | None
    decision: Verdict

    @property
    def vulnerable(self) -> bool:
        """Can be beaten: the win's upper bound is at or above the threshold."""
        return not self.decision.safe

    @property
    def verdict(self) -> str:
        """The verdict, one sentence."""
        return self.decision.sentence(self.name)

    def standard_deviation(self, digits: int = 4) -> str:
        """The standard deviation off the top, correctly rounded."""
        return square_root_decimal_string(self.variance, digits)

    def to_dict(self) -> dict[str, Any]:
        """One ``bets.NAME`` entry of the JSON contract."""
        thresholds = self.decision.thresholds
        return {
            "pays": {outcome: fraction_string(pay) for outcome, pay in self.pays.items()},
            "house_edge": fraction_string(self.house_edge),
            "standard_deviation": self.standard_deviation(6),
            "hit_frequency": fraction_string(self.hit_frequency),
            "eor": {
                rank: None if effect is None else fraction_string(effect)
                for rank, effect in self.eor.items()
            },
            "count": None if self.count is None else self.count.to_dict(),
            "depth": [row.to_dict() for row in self.depth],
            "depth_note": self.depth_note,
            "perfect_play": {"units_per_100_rounds": mean_and_error(self.perfect_play)},
            "by_cut": [row.to_dict(thresholds) for row in self.by_cut],
            "safe_cut": self.safe_cut,
            "decision": self.decision.to_dict(),
            "vulnerable": self.vulnerable,
            "verdict": self.verdict,
        }


@dataclass(frozen=True)
class Audit:
    """Every bet's audit, and what it was made at."""

    rules: Rules
    procedure: DealingProcedure
    budget: int
    seed: int
    thresholds: Thresholds
    bets: Mapping[str, BetAudit]
    #: The rules and bet options (``--bet-file``, ``--pay``, ``--variant`` ...) as a command
    #: line gives them, for the reproduction line: the command line fills them in.
    command_options: tuple[str, ...] = ()
    #: The random-multiplier overlay every bet was audited under (figures per unit paid).
    overlay: MultiplierOverlay | None = None

    @property
    def fee(self) -> Fraction:
        """The fee charged on every bet: the rules', else the overlay's, else none."""
        if self.overlay is None:
            return self.rules.fee or Fraction(0)
        return self.overlay.fee_with(self.rules.fee)

    def to_dict(self) -> dict[str, Any]:
        """The JSON contract of ``exactodds audit --format json``."""
        overlay = {} if self.overlay is None else {"overlay": self.overlay.to_dict()}
        return {
            "rules": self.rules.describe(),
            "procedure": self.procedure.to_dict(),
            "budget": self.budget,
            "seed": self.seed,
            "thresholds": self.thresholds.to_dict(),
            "estimates": "simulated figures are floats with standard errors; the house edge, "
            "eor and depth values are exact",
            "bets": {name: result.to_dict() for name, result in self.bets.items()},
        } | overlay


# The search's shoes ----------------------------------------------------------------------


@dataclass(frozen=True)
class SearchShoes:
    """What a counter needs of every round of the search's shoes, as flat arrays.

    ``seen`` is rounds x 10 (cards of each count group seen before the round), ``unseen`` the
    cards not seen, ``ev`` the round's exact EV as a float (the search only ranks candidates;
    every reported figure is re-simulated).
    """

    seen: npt.NDArray[np.int64]
    unseen: npt.NDArray[np.int64]
    ev: npt.NDArray[np.float64]
    shoes: int

    @property
    def rounds(self) -> int:
        """Rounds dealt."""
        return len(self.unseen)


def search_shoes(
    bet: Bet,
    rules: Rules,
    procedure: DealingProcedure,
    shoes: int,
    seed: int,
    overlay: MultiplierOverlay | None = None,
) -> SearchShoes:
    """Deal *shoes* shoes as :func:`~exactodds.simulation.run.simulate` would (seed, shoe
    numbers), keeping every round's seen cards and exact EV for *bet* (under *overlay*, per
    unit paid, as a simulation under it prices the round)."""
    from exactodds.simulation.block import prepare
    from exactodds.simulation.dealing import deal_block
    from exactodds.simulation.evaluate import exact_expected_values
    from exactodds.simulation.pairs import pair_expected_values

    prepared = prepare(rules, (bet,))
    seen, unseen, ev = [], [], []
    for first in range(0, shoes, 64):
        block = deal_block(procedure, rules.tableau, seed, first, min(64, shoes - first))
        if overlay is not None:
            ev.append(_overlay_floats(bet, rules, overlay, block.known))
        else:
            values = pair_expected_values(
                prepared.analyzer.bets, block.known, prepared.analyzer.routes()
            ) or exact_expected_values(prepared.analyzer, block.known, bet.needs_suits)
            ev.append(values.floats()[:, 0])
        ranks = (procedure.decks - block.known).reshape(-1, 13, 4).sum(axis=2)
        seen.append(np.column_stack([ranks[:, :9], ranks[:, 9:].sum(axis=1)]))
        unseen.append(block.known.sum(axis=1))
    return SearchShoes(
        np.concatenate(seen).astype(np.int64),
        np.concatenate(unseen).astype(np.int64),
        np.concatenate(ev),
        shoes,
    )


def _overlay_floats(
    bet: Bet, rules: Rules, overlay: MultiplierOverlay, known: npt.NDArray[np.int64]
) -> npt.NDArray[np.float64]:
    """*bet*'s exact EV under *overlay* per unit paid on each known composition, as floats
    (the search ranks candidates only)."""
    from exactodds.analysis.multipliers import analyze_overlay
    from exactodds.simulation.evaluate import known_shoe

    values = []
    for row in known:
        priced = analyze_overlay(known_shoe(row, suited=True), rules, [bet], overlay=overlay)
        values.append(float(priced.return_to_player(bet.name) - 1))
    return np.asarray(values, dtype=np.float64)


def score(tags: Sequence[int], dealt: SearchShoes) -> tuple[float, Fraction]:
    """The best win per 100 rounds of *tags* over the trigger grid, and that trigger.

    The true count's half-steps ``floor(2 * 52 * running / unseen)`` are exact integers, so
    "true count >= k/2" is decided exactly; the EVs summed are floats (a ranking only).
    """
    running = dealt.seen @ np.asarray(tags, dtype=np.int64)
    steps = (_TRIGGER_STEPS * 52 * running) // dealt.unseen
    low = int(steps.min())
    totals = np.bincount(steps - low, weights=dealt.ev)
    from_top = np.cumsum(totals[::-1])[::-1]  # EV summed over rounds at or above each step
    best = int(np.argmax(from_top))
    if from_top[best] <= 0:
        return 0.0, Fraction(low + len(totals), _TRIGGER_STEPS)  # never worth betting
    return 100 * float(from_top[best]) / dealt.rounds, Fraction(low + best, _TRIGGER_STEPS)


def _balanced_moves(level: int) -> list[tuple[int, ...]]:
    """One-step changes of the ten tags that keep the count balanced (weights 1 ... 1, 4)."""
    moves = []
    for up, down in itertools.permutations(range(9), 2):
        move = [0] * 10
        move[up], move[down] = 1, -1
        moves.append(tuple(move))
    for sign in (1, -1):
        for pair in itertools.combinations(range(9), 2):
            move = [0] * 10
            move[9] = sign
            for index in pair:
                move[index] = -2 * sign
            moves.append(tuple(move))
        for index in range(9):
            move = [0] * 10
            move[9], move[index] = sign, -4 * sign
            moves.append(tuple(move))
    return moves


def _local_search(
    start: tuple[int, ...], level: int, dealt: SearchShoes
) -> tuple[tuple[int, ...], float, Fraction, int]:
    """Hill-climb from *start* over balanced moves within +-*level*: (tags, score, trigger, tried)."""
    best = start
    best_score, best_trigger = score(start, dealt)
    tried = 1
    moves = _balanced_moves(level)
    for _ in range(_SEARCH_STEPS):
        improved = False
        for move in moves:
            candidate = tuple(tag + step for tag, step in zip(best, move, strict=True))
            if max(abs(tag) for tag in candidate) > level or not any(candidate):
                continue
            tried += 1
            value, trigger = score(candidate, dealt)
            if value > best_score + 1e-12:
                best, best_score, best_trigger, improved = candidate, value, trigger, True
        if not improved:
            break
    return best, best_score, best_trigger, tried


def _ten_tags(tags: Mapping[str, int]) -> tuple[int, ...]:
    symbols = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")
    return tuple(tags.get(symbol, 0) for symbol in symbols)


def rounded_start(effects: Mapping[str, Fraction | None], level: int) -> tuple[int, ...] | None:
    """A second starting count: the ten groups' effects of removal (A ... 9, and T J Q K
    averaged) scaled so the largest is +-*level*, each rounded, then balanced one step at a
    time by moving the tag whose move costs least (squared distance from its scaled effect,
    the ten-values weighing 4). None when no effect is known or the tags cannot balance.

    The effects' own balanced count keeps ranks with equal effects together, which can leave
    it far from the best count (9 over 7's level-5 start was 0,3,0,0,0,0,-3,3,-3,0); rounding
    the groups one by one starts where Jacobson's counts are (0,1,1,1,1,1,-5,1,-5,1).

    >>> effects = {"A": Fraction(1), "7": Fraction(-5), "T": Fraction(1)}
    >>> rounded_start(effects, 5)  # rounding gives 1 + 4 - 5 = 0: balanced already
    (1, 0, 0, 0, 0, 0, -5, 0, 0, 1)
    >>> rounded_start({"A": Fraction(3, 4), "2": Fraction(-1)}, 1)  # 1 - 1 + 0: balanced
    (1, -1, 0, 0, 0, 0, 0, 0, 0, 0)
    >>> rounded_start({"A": Fraction(2, 3), "2": Fraction(2, 3), "9": Fraction(-1)}, 3)  # 2+2-3
    (1, 2, 0, 0, 0, 0, 0, 0, -3, 0)
    """
    groups = [[effects.get(symbol)] for symbol in "A23456789"]
    groups.append([effects.get(symbol) for symbol in "TJQK"])
    means = [
        sum(known, Fraction(0)) / len(known) if known else Fraction(0)
        for known in ([value for value in group if value is not None] for group in groups)
    ]
    largest = max(abs(mean) for mean in means)
    if largest == 0:
        return None
    scaled = [mean * level / largest for mean in means]
    tags = [round(value) for value in scaled]
    for _ in range(4 * 10 * level):
        imbalance = sum(tag * weight for tag, weight in zip(tags, _GROUP_WEIGHTS, strict=True))
        if imbalance == 0:
            return tuple(tags)
        step = -1 if imbalance > 0 else 1
        moves = [
            (weight * ((tag + step - value) ** 2 - (tag - value) ** 2), index)
            for index, (tag, value, weight) in enumerate(
                zip(tags, scaled, _GROUP_WEIGHTS, strict=True)
            )
            if weight <= abs(imbalance) and abs(tag + step) <= level
        ]
        if not moves:
            return None
        tags[min(moves)[1]] += step
    return None


def count_search(
    name: str,
    removal: EffectOfRemoval,
    dealt: SearchShoes,
    levels: Iterable[int] = LEVELS,
) -> tuple[tuple[int, ...], Fraction, float, int]:
    """The best balanced count of the *levels* for bet *name*: (tags, trigger, score, tried).

    Each level starts from the effects of removal scaled to that level and balanced
    (:meth:`~exactodds.analysis.removal.EffectOfRemoval.linear_count`), and from the same
    effects rounded group by group (:func:`rounded_start`), and climbs from each; a later
    start or level wins only if it scores strictly more.
    """
    best: tuple[tuple[int, ...], Fraction, float] | None = None
    tried = 0
    levels = tuple(levels)
    for level in levels:
        count = removal.linear_count(name, level)
        if count.correlation is None:
            raise AuditError(
                f"Bet {quoted(name)} has no effect of removal on this shoe (every rank's is 0), "
                "so no count can track it."
            )
        starts = [_ten_tags(count.tags)] if count.balanced else []
        rounded = rounded_start(removal.effects[name], level)
        if rounded is not None and rounded not in starts:
            starts.append(rounded)
        for start in starts:
            if not any(start):
                continue
            tags, value, trigger, steps = _local_search(start, level, dealt)
            tried += steps
            if best is None or value > best[2] + 1e-12:
                best = (tags, trigger, value)
    if best is None:
        raise AuditError(
            f"Bet {quoted(name)} has no balanced count on this shoe; its effects of removal "
            f"cannot be balanced with tags of level {min(levels)} to {max(levels)}."
        )
    return best[0], best[1], best[2], tried


# Simulated figures ---------------------------------------------------------------------


def _simulated(
    bet: Bet,
    rules: Rules,
    procedure: DealingProcedure,
    strategy: Any,
    shoes: int,
    seed: int,
    run: Mapping[str, Any],
    overlay: MultiplierOverlay | None = None,
) -> tuple[BetResult, RiskFigures]:
    """A ``simulate`` run of *bet* with *strategy* (under *overlay*, its fee charged): its
    figures and its risk figures."""
    from exactodds.simulation.overlaypays import overlaid_simulation
    from exactodds.simulation.run import simulate
    from exactodds.simulation.study import Simulation

    study = Simulation.of(shoes, seed, rules, [bet], {bet.name: strategy}, procedure)
    if overlay is not None:
        study = overlaid_simulation(study, overlay)
    result = simulate(study, **run)
    (figures,) = result.bets()
    return figures, result.risk_figures


def _tags13(tags: Sequence[int]) -> tuple[int, ...]:
    return (*tags, tags[9], tags[9], tags[9])


def depth_rows(
    bet: Bet, shoe: Shoe, rules: Rules, depths: Sequence[int], run: Mapping[str, Any]
) -> tuple[tuple[DepthValue, ...], str | None]:
    """The exact depth-table value of *bet* at *depths*, or none and a note why not.

    Every bet is asked of :func:`~exactodds.advantage.depth.depth_table`: value-level bets
    and bets decided by the pairs alone get rows (a suited pair bet on the shoe's suits); a
    bet the depth tables cannot average gets their refusal as the note.
    """
    from exactodds.advantage.depth import DepthError, depth_table

    if not depths:
        return (), "No depths were asked for."
    jobs, dask = run.get("jobs", 1), run.get("dask")
    try:
        table = depth_table(shoe.without_suits(), rules, [bet], depths, 0, jobs, dask)
    except DepthError as error:
        if not shoe.suits_known:
            return (), str(error)
        try:  # a suited pair bet: its law runs over the 52 cards
            table = depth_table(shoe, rules, [bet], depths, 0, jobs, dask)
        except DepthError:
            return (), str(error)
    return (
        tuple(
            DepthValue(row.cards, row.bets[bet.name].positive_probability, row.bets[bet.name].value)
            for row in table.rows
        ),
        None,
    )


def safe_cut(rows: Sequence[CutRow], thresholds: Thresholds) -> int | None:
    """The fewest cards behind the cut card from which on (that cut and every deeper one
    listed) the win's upper bound at the stated confidence is below the deciding threshold.

    >>> rows = [CutRow(14, Estimate(0.3, 0.02)), CutRow(156, Estimate(0.093, 0.017)),
    ...         CutRow(208, Estimate(0.05, 0.01))]
    >>> safe_cut(rows, Thresholds())  # 0.093 + 1.645 x 0.017 = 0.121 is not below 0.1
    208
    """
    threshold = thresholds.deciding()[0]
    safe = None
    for row in sorted(rows, key=lambda row: -row.cut):
        if not thresholds.upper(row.units_per_100_rounds) < threshold:
            break
        safe = row.cut
    return safe


# The audit -----------------------------------------------------------------------------


def require_budget(budget: int) -> int:
    return whole_number(budget, "budget", AuditError, minimum=1, what="Number of shoes")


def default_cuts(procedure: DealingProcedure) -> tuple[int, ...]:
    """The dealing's own cut, and cuts an eighth, a quarter, three eighths and half the shoe
    from the back, where the shoe allows them.

    >>> default_cuts(DealingProcedure())
    (14, 52, 104, 156, 208)
    """
    deepest = procedure.cards - procedure.most_burned - 6
    cuts = {procedure.cut} | {procedure.cards * share // 8 for share in (1, 2, 3, 4)}
    return tuple(sorted(cut for cut in cuts if 0 <= cut <= deepest))


@dataclass(frozen=True)
class ExactFigures:
    """A bet's exact figures off the top: house edge, variance and hit frequency (under an
    overlay, per unit paid: the house edge is 1 less the RTP)."""

    house_edge: Fraction
    variance: Fraction
    hit_frequency: Fraction


def exact_figures(
    bet: Bet, rules: Rules, shoe: Shoe, overlay: MultiplierOverlay | None = None
) -> ExactFigures:
    """*bet*'s :class:`ExactFigures` on *shoe*, under *overlay* when one is given.

    >>> from exactodds.bets.catalogue import select_bets
    >>> from exactodds.bets.multipliers import MultiplierOverlay
    >>> (tie,) = select_bets("tie")
    >>> shoe = Shoe.standard(decks=1)
    >>> exact_figures(tie, Rules(), shoe) == exact_figures(
    ...     tie, Rules(), shoe, MultiplierOverlay(5, {1: 1}))
    True
    """
    if overlay is None:
        priced = analyze(shoe, rules, [bet]).bets[bet.name]
        return ExactFigures(priced.house_edge, priced.variance, priced.win_probability)
    from exactodds.analysis.multipliers import analyze_overlay

    analysis = analyze_overlay(shoe, rules, [bet], overlay=overlay)
    multiplied = analysis.bets[bet.name]
    return ExactFigures(
        1 - analysis.return_to_player(bet.name),
        multiplied.variance / (1 + analysis.fee) ** 2,
        multiplied.win_probability,
    )


def jacobson_di(units: Estimate, frequency: float, variance: Fraction) -> Estimate:
    """DI in Jacobson's convention: 1000 x EV per round / sqrt(frequency x the bet's
    variance off the top), from the win per 100 rounds *units* (its error carried over).

    >>> jacobson_di(Estimate(1.0, 0.1), 0.25, Fraction(4))  # 1000 x 0.01 / sqrt(0.25 x 4)
    Estimate(mean=10.0, stderr=1.0)
    """
    if frequency <= 0 or variance <= 0:
        return Estimate(math.nan, math.nan)
    scale = 1000 / 100 / math.sqrt(frequency * float(variance))
    return Estimate(units.mean * scale, units.stderr * scale)


def found_count(
    bet: Bet,
    rules: Rules,
    procedure: DealingProcedure,
    removal: EffectOfRemoval,
    budget: int,
    seed: int,
    run: Mapping[str, Any],
    variance: Fraction | None = None,
    overlay: MultiplierOverlay | None = None,
) -> FoundCount:
    """Search on seed *seed*'s shoes, then simulate the winner on seed ``seed + 1``'s (under
    *overlay* when one is given; *variance* is the bet's off the top, for Jacobson's DI,
    computed when not given)."""
    from exactodds.simulation.strategies import Count

    if variance is None:
        variance = exact_figures(bet, rules, Shoe.standard(procedure.decks), overlay).variance

    dealt = search_shoes(bet, rules, procedure, budget, seed, overlay)
    tags, trigger, searched, tried = count_search(bet.name, removal, dealt)
    strategy = Count(_tags13(tags), trigger)
    figures, risk = _simulated(bet, rules, procedure, strategy, budget, seed + 1, run, overlay)
    correlation = removal.betting_correlation(bet.name, dict(zip("A23456789T", tags, strict=True)))
    units = figures.units_per_100_rounds["exact_ev"]
    return FoundCount(
        tags,
        trigger,
        correlation.decimal(3) if correlation.defined else None,
        figures.frequency,
        nan_to_none(figures.average_edge),
        units,
        figures.units_per_shoe["exact_ev"],
        risk.estimate(bet.name, "di"),
        jacobson_di(units, figures.frequency, variance),
        nan_to_none(risk.estimate(bet.name, "n0").mean),
        seed + 1,
        budget,
        searched,
        tried,
    )


def trackable(removal: EffectOfRemoval, name: str) -> bool:
    """Whether some count can track bet *name*: some rank's effect of removal is not 0.

    The pair bets' are all 0 (removing a card of any rank changes the chance of a pair
    alike), so they are audited by their exact perfect play instead.

    >>> from exactodds.bets.catalogue import select_bets
    >>> shoe = Shoe.standard(1)
    >>> bets = select_bets("dragon7,player_pair")
    >>> removal = effect_of_removal(shoe, Rules(), bets)
    >>> trackable(removal, "dragon7"), trackable(removal, "player_pair")
    (True, False)
    """
    return removal.linear_count(name, 1).correlation is not None


def audit_bet(
    bet: Bet,
    spec: AuditSpec,
    run: Mapping[str, Any],
    progress: Callable[[str], None],
) -> BetAudit:
    """One bet's audit at *spec*'s rules, dealing, budget, seed, depths, cuts and thresholds.

    A bet no count can track (:func:`trackable`) is decided on perfect play: its win by cut
    card and safe cut are perfect play's.
    """
    from exactodds.simulation.strategies import Count, Perfect

    rules, procedure, overlay = spec.rules, spec.procedure, spec.overlay
    shoe = Shoe.standard(procedure.decks)
    budget, seed = spec.budget, spec.seed
    progress(f"{bet.name}: exact figures")
    priced = exact_figures(bet, rules, shoe, overlay)
    removal = effect_of_removal(shoe, rules, [bet], overlay=overlay)
    count = None
    if trackable(removal, bet.name):
        progress(f"{bet.name}: count search")
        count = found_count(
            bet, rules, procedure, removal, budget, seed, run, priced.variance, overlay
        )
    else:
        progress(f"{bet.name}: no count tracks it (every effect of removal is 0)")
    progress(f"{bet.name}: perfect play")
    perfect, _ = _simulated(bet, rules, procedure, Perfect(), budget, seed + 1, run, overlay)
    perfect_units = perfect.units_per_100_rounds["exact_ev"]
    progress(f"{bet.name}: depth tables")
    depth: tuple[DepthValue, ...]
    note: str | None
    if overlay is not None and spec.depths:
        depth, note = (), _OVERLAY_DEPTHS
    else:
        depth, note = depth_rows(bet, shoe, rules, spec.depths, run)
    strategy = Perfect() if count is None else Count(_tags13(count.tags), count.trigger)
    played = perfect_units if count is None else count.units_per_100_rounds
    rows = []
    for cut in spec.cuts or default_cuts(procedure):
        if cut == procedure.cut:  # the found count's (or perfect play's) own run
            rows.append(CutRow(cut, played))
            continue
        progress(f"{bet.name}: cut {cut}")
        figures, _ = _simulated(
            bet, rules, replace(procedure, cut=cut), strategy, budget, seed + 1, run, overlay
        )
        rows.append(CutRow(cut, figures.units_per_100_rounds["exact_ev"]))
    decision = Verdict(
        "perfect play" if count is None else "the best count", played, spec.thresholds
    )
    return BetAudit(
        bet.name,
        dict(bet.pay_table),
        priced.house_edge,
        priced.variance,
        priced.hit_frequency,
        removal.effects[bet.name],
        count,
        depth,
        note,
        perfect_units,
        tuple(rows),
        safe_cut(rows, spec.thresholds),
        decision,
    )


#: Why an audit under an overlay has no depth tables.
_OVERLAY_DEPTHS = (
    "No depth tables under an overlay: they average over every composition of the cards left "
    "by value, and an overlay's EV depends on the faces (rank and suit) left."
)


def _steps(procedure: DealingProcedure, cuts: Sequence[int]) -> int:
    """Steps of one bet's audit: exact figures, search, perfect play, depth, each other cut."""
    return 4 + sum(cut != procedure.cut for cut in (cuts or default_cuts(procedure)))


def counted_progress(progress: Progress | None, total: int) -> Callable[[str], None]:
    """A step callback that tells *progress* how many of *total* steps are done."""
    done = itertools.count()

    def tell(step: str) -> None:
        if progress is not None:
            progress(min(next(done), total), total, step)

    return tell


@dataclass(frozen=True)
class AuditSpec:
    """What an audit is made of: the bets, rules, dealing, shoes per figure, seed, depths,
    cut-card positions and thresholds; checked when built.

    *budget* is the shoes per candidate count (and per simulated figure); *seed* the search's
    shoes (the figures are simulated on ``seed + 1``'s); *depths* the cards left of the exact
    depth tables; *cuts* the cut-card positions of the countermeasure table (none:
    :func:`default_cuts`). Built from option values by :func:`exactodds.specs.audit_spec`;
    a variant is a :func:`dataclasses.replace`.

    >>> from exactodds.bets.catalogue import select_bets
    >>> AuditSpec(select_bets("dragon7"), cuts=[40]).cuts
    (40,)
    >>> AuditSpec([])
    Traceback (most recent call last):
    ...
    exactodds.studies.audit.AuditError: No bets were chosen in `bets`; an audit needs at least one bet.
    """

    bets: Sequence[Bet]
    rules: Rules = field(default_factory=Rules)
    procedure: DealingProcedure = field(default_factory=DealingProcedure)
    budget: int = DEFAULT_BUDGET
    seed: int = 1
    depths: Sequence[int] = (18, 26)
    cuts: Sequence[int] = ()
    thresholds: Thresholds = field(default_factory=Thresholds)
    overlay: MultiplierOverlay | None = None

    def __post_init__(self) -> None:
        rules = Rules.given(self.rules)
        chosen = bets_given(self.bets, rules)
        if not chosen:
            raise AuditError("No bets were chosen in `bets`; an audit needs at least one bet.")
        if self.overlay is not None:
            _check_overlay(chosen, rules, self.overlay)
        # A cut the dealing cannot take is refused as the dealing refuses it.
        cuts = tuple(replace(self.procedure, cut=cut).cut for cut in self.cuts)
        require_budget(self.budget)
        require_seed(self.seed)
        depths = _checked_depths(self.depths, self.procedure)
        normal = {"rules": rules, "bets": chosen, "depths": depths, "cuts": cuts}
        for name, value in normal.items():
            object.__setattr__(self, name, value)


def _check_overlay(bets: Sequence[Bet], rules: Rules, overlay: MultiplierOverlay) -> None:
    """Refuse, before any work, a bet *overlay* does not multiply and what a simulation under
    it cannot pay (multipliers or caps that are not whole numbers)."""
    from exactodds.simulation.overlaypays import multiplied_bets, overlaid_simulation
    from exactodds.simulation.study import Simulation

    multiplied = set(multiplied_bets(bets, overlay))
    for column, bet in enumerate(bets):
        if column not in multiplied:
            raise AuditError(
                f"Bet {quoted(bet.name)} is not multiplied by the overlay; audit it without "
                "`overlay`, or choose among the bets the overlay multiplies (player, banker, "
                "tie, player_pair, banker_pair)."
            )
    overlaid_simulation(Simulation.of(1, 1, rules, bets), overlay)


def require_seed(seed: object) -> int:
    """*seed* if the search (on it) and the figures (on ``seed + 1``) can both take it.

    >>> require_seed(2**128 - 1)
    Traceback (most recent call last):
    ...
    exactodds.studies.audit.AuditError: Seed 340282366920938463463374607431768211455 for `seed` is above 2^128 - 2; use a whole number from 0 to 2^128 - 2 (the figures are simulated on seed + 1, at most 2^128 - 1).
    """
    from exactodds.simulation.study import MOST_SEED, seed_words

    whole_number(seed, "seed", AuditError, what="Seed")
    assert isinstance(seed, int)
    if seed > MOST_SEED - 1:
        raise AuditError(
            f"{seed_words(seed)} for `seed` is above 2^128 - 2; use a whole number from 0 to "
            "2^128 - 2 (the figures are simulated on seed + 1, at most 2^128 - 1)."
        )
    return seed


def _checked_depths(depths: object, procedure: DealingProcedure) -> tuple[int, ...]:
    """*depths* as cards left the depth tables take on *procedure*'s shoe, each once."""
    from exactodds.advantage.depth import MAX_DEPTH_CARDS

    if isinstance(depths, (str, bytes, Mapping)) or not isinstance(depths, Iterable):
        raise AuditError(
            f"`depths` is {quoted(repr(depths), 40)[1:-1]}, not a sequence of cards left; use e.g. "
            "depths=(18, 26), or () for none."
        )
    most = min(procedure.cards, MAX_DEPTH_CARDS)
    checked: list[int] = []
    for depth in depths:
        checked.append(
            whole_number(depth, "depths", AuditError, minimum=6, maximum=most, what="Depth")
        )
        if checked.count(depth) > 1:
            raise AuditError(f"`depths` names {depth} cards left twice; give each depth once.")
    return tuple(checked)


def require_jobs(jobs: object) -> int:
    """*jobs* if it is a number of processes (at least 1).

    >>> require_jobs(0)
    Traceback (most recent call last):
    ...
    exactodds.studies.audit.AuditError: Number of processes 0 for `jobs` is not valid; use a whole number of at least 1.
    """
    return whole_number(jobs, "jobs", AuditError, minimum=1, what="Number of processes")


def walked_seconds(bet: Bet, rules: Rules, procedure: DealingProcedure, shoes: int) -> float | None:
    """About how many seconds the exact EVs of *shoes* dealt shoes take for *bet*, when only
    the exact walk can price it (a pair condition with other conditions: some tenths of a
    second a round, where the kernel takes microseconds); None when the kernel prices it.

    Measured here, on one shoe less a few cards (so on this machine, at its load now), and
    multiplied by the rounds dealt: an estimate to say before the work, not a promise.

    >>> from exactodds.bets.catalogue import select_bets
    >>> walked_seconds(select_bets("dragon7")[0], Rules(), DealingProcedure(), 500) is None
    True
    """
    import time

    from exactodds.analysis.many import Analyzer

    analyzer = Analyzer(rules, [bet])
    if analyzer.routes()[bet.name] != "walk":
        return None
    if bet.cards is not None:  # a card-level bet: its compiled card terms, a millisecond a state
        from exactodds.analysis.cardprice import compiles

        if compiles(bet, rules.tableau):
            return None
    started = time.perf_counter()
    analyzer.analyze(Shoe.standard(procedure.decks).remove("A 7 K 3 9 2")).bets[bet.name]
    rounds_per_shoe = (procedure.cards - procedure.cut) // 5 + procedure.after_cut
    return (time.perf_counter() - started) * rounds_per_shoe * shoes


def audit_seconds(spec: AuditSpec) -> dict[str, float]:
    """The bets of *spec* whose exact EVs only the walk gives, with about how many seconds
    their audit takes (:func:`walked_seconds` over every shoe the audit deals for them: the
    search, the found count, perfect play and each other cut, ``budget`` shoes each).

    >>> from exactodds.bets.catalogue import select_bets
    >>> audit_seconds(AuditSpec(select_bets("dragon7")))
    {}
    """
    shoes = spec.budget * (_steps(spec.procedure, spec.cuts) - 1)
    found = {}
    for bet in spec.bets:
        seconds = walked_seconds(bet, spec.rules, spec.procedure, shoes)
        if seconds is not None:
            found[bet.name] = seconds
    return found


def audit(
    spec: AuditSpec,
    *,
    jobs: int = 1,
    dask: Any = None,
    progress: Progress | None = None,
) -> Audit:
    """The countability audit of each of *spec*'s bets (see :class:`AuditSpec`).

    *jobs* and *dask* say where the simulations run; *progress* is told what runs:
    ``progress(steps done, steps in all, what runs now)``.
    """
    require_jobs(jobs)
    run = {"jobs": jobs, "dask": dask}
    tell = counted_progress(progress, len(spec.bets) * _steps(spec.procedure, spec.cuts))
    results = {bet.name: audit_bet(bet, spec, run, tell) for bet in spec.bets}
    tell("done")
    return Audit(
        spec.rules,
        spec.procedure,
        spec.budget,
        spec.seed,
        spec.thresholds,
        results,
        overlay=spec.overlay,
    )
