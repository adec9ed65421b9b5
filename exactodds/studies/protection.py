"""The countermeasure table: an advantage player's win as the casino's levers move.

A casino deciding how to deal a side bet asks what each lever it holds is worth against the
player who beats the bet. :func:`protection_table` answers for one bet, one play (perfect play
on the exact EV, or a count) and one flat stake, the :class:`~exactodds.simulation.study.Simulation`
in a :class:`ProtectionSpec`: the player's win per shoe and per hour, each with its standard
error, with the exact-EV estimator (each bet placed counts its exact EV at the moment it was
placed), on the same shoes (the study's seed) for every lever:

* **cut**: the cut card's position, cards behind it: the study with its dealing procedure
  ``dataclasses.replace``\\ d, run by :func:`~exactodds.simulation.run.simulate` itself, so
  that a ``simulate`` run of the same settings prints the same figures;
* **cap**: from a depth on (cards dealt before the round), the side bet may be at most a
  share of the main bet: the player who bets the side bet puts ``stake / share`` on the
  main bet with it, and that main bet's exact EV is counted;
* **main bet**: every side bet must come with a main bet of so many units, its exact EV
  counted;
* **team**: *n* players at the table, each placing the bet whenever the signal is on (one
  shared signal: with perfect play every member sees it, with a count any member may call
  it), so the win and its standard error are *n* times one player's, on the same shoes;
* **known card**: the card at a stated position of the shuffled shoe (0 is the first card,
  the burn card included) is known to the player from the start: a flashed burn card, a
  key card, the bottom card.

The main bet a cap or a required main bet calls for is the better of Banker and Player at
that moment (exact EVs of the known composition); the main stake is exactly ``stake /
share`` or the units given, not rounded to chips. A player on ``perfect`` play bets the side
bet only when the side bet and its main bet together are worth more than ``min_edge`` a unit
of side stake (the best response to the lever); a counter keeps his count's signal and pays
for the main bet whenever he bets. A known card changes the player's exact EV (and with it
the decisions of ``perfect`` play, never a count's) in every round that cannot reach the
card's position (it lies at least six cards ahead, behind the cut card, or among the cards
burned face down); in the round that may deal it, the player prices as if he did not know
it, so that row is a lower bound on what the card is worth.

Cap, main-bet and known-card rows are computed by one pass over the same shoes that prices
Banker, Player and the bet on every known composition (:func:`exact_expected_values`, the
batch call of every simulation), the EVs summed exactly and rounded per round to units of
2^-40 as simulate's are. The work is bounded before it starts: shoes times the passes the
levers need (:meth:`ProtectionSpec.work`) at most :data:`MOST_WORK`.

>>> from exactodds.bets.catalogue import select_bets
>>> from exactodds.simulation.dealing import DealingProcedure
>>> from exactodds.simulation.study import Simulation
>>> study = Simulation.of(3, 1, bets=select_bets("dragon7"), procedure=DealingProcedure(decks=1, cut=10))
>>> table = protection_table(ProtectionSpec(study, teams=(2,)))
>>> [row.lever for row in table.rows]
['baseline', 'team']
>>> table.rows[1].per_shoe.mean == 2 * table.rows[0].per_shoe.mean
True
>>> ProtectionSpec(study, caps=(SideBetCap(Fraction(0), 10),))
Traceback (most recent call last):
...
exactodds.studies.audit.AuditError: Cap share 0 for `caps` is not valid; use a positive share of the main bet, such as 1/2 or 50%.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from exactodds.bets.bet import main_bets
from exactodds.errors import ExactOddsError, parameter
from exactodds.inputs import whole_number
from exactodds.numbers import fraction_string, parse_number
from exactodds.simulation.dealing import DealtBlock, deal_block
from exactodds.simulation.risk.sums import EV_SCALE, Estimate, Sums
from exactodds.simulation.staking.stakes import Flat
from exactodds.simulation.strategies import Perfect
from exactodds.simulation.study import Simulation
from exactodds.studies.audit import AuditError, mean_and_error

__all__ = [
    "DEFAULT_SHOES",
    "MOST_SETTINGS",
    "MOST_WORK",
    "LeverRow",
    "ProtectionSpec",
    "ProtectionTable",
    "SideBetCap",
    "parse_caps",
    "parse_values",
    "protection_table",
]

#: Shoes of a table by default: each figure's standard error about 1/15 of one shoe's SD.
DEFAULT_SHOES = 200
#: Most lever settings in one table (each is one more row).
MOST_SETTINGS = 32
#: Most shoe-passes (shoes x passes over them) one table may deal and price.
MOST_WORK = 2_000_000
#: Shoes dealt and priced at once by the pass of cap, main-bet and known-card rows.
_BLOCK_SHOES = 50
#: Most cards one round takes from the shoe.
_ROUND_CARDS = 6


@dataclass(frozen=True)
class SideBetCap:
    """From *from_depth* cards dealt on, the side bet at most *share* of the main bet.

    >>> SideBetCap(Fraction(1, 2), 300).describe()
    'side <= 1/2 of main from 300 dealt'
    """

    share: Fraction
    from_depth: int

    def describe(self) -> str:
        """One line for reports."""
        return f"side <= {fraction_string(self.share)} of main from {self.from_depth} dealt"


@dataclass(frozen=True)
class ProtectionSpec:
    """The study (one bet, flat stake: the baseline) and the lever settings to price.

    *cuts* are cards behind the cut card, *caps* :class:`SideBetCap` s, *main_bets* main-bet units
    required with each side bet, *teams* numbers of players, *known_cards* shoe positions
    (0-based, burn cards included); *rounds_per_hour* turns a win per round into an hour's.
    """

    simulation: Simulation
    cuts: tuple[int, ...] = ()
    caps: tuple[SideBetCap, ...] = ()
    main_bets: tuple[Fraction, ...] = ()
    teams: tuple[int, ...] = ()
    known_cards: tuple[int, ...] = ()
    rounds_per_hour: int = 70

    def __post_init__(self) -> None:
        study = self.simulation
        if len(study.bets) != 1:
            raise AuditError(
                f"The countermeasure table prices one bet, not {len(study.bets)}; name one "
                "with `bets`."
            )
        if not isinstance(study.stake, Flat) or study.bankroll is not None:
            raise AuditError(
                "The countermeasure table bets a flat stake; give `stake` flat or UNITS and "
                "no `bankroll`."
            )
        whole_number(self.rounds_per_hour, "rounds_per_hour", AuditError, minimum=1)
        settings = sum(
            map(len, (self.cuts, self.caps, self.main_bets, self.teams, self.known_cards))
        )
        if settings > MOST_SETTINGS:
            raise AuditError(
                f"{settings} lever settings are more than {MOST_SETTINGS}; price fewer at once."
            )
        self._check_levers()
        if self.work() > MOST_WORK:
            raise AuditError(
                f"{study.shoes:,} shoes x {self.work() // study.shoes} passes is "
                f"{self.work():,} shoe-passes, more than {MOST_WORK:,}; give fewer `shoes` "
                "or fewer cuts and known cards."
            )

    def _check_levers(self) -> None:
        procedure = self.simulation.procedure
        for cut in self.cuts:
            dataclasses.replace(procedure, cut=cut)  # a cut the shoe cannot take: refused
        for cap in self.caps:
            if cap.share <= 0:
                raise AuditError(
                    f"Cap share {fraction_string(cap.share)} for `caps` is not valid; use a "
                    "positive share of the main bet, such as 1/2 or 50%."
                )
            whole_number(cap.from_depth, "caps", AuditError, what="Cap depth")
        for units in self.main_bets:
            if units <= 0:
                raise AuditError(
                    f"Main bet {fraction_string(units)} for `main_bets` is not valid; use a "
                    "positive number of units, such as 1."
                )
        for players in self.teams:
            whole_number(players, "teams", AuditError, minimum=1, what="Team size")
        cards = 52 * procedure.decks
        for position in self.known_cards:
            whole_number(position, "known_cards", AuditError, what="Known card position")
            if position >= cards:
                raise AuditError(
                    f"Known card position {position} for `known_cards` is past the shoe; use a "
                    f"position from 0 to {cards - 1} (0 is the first card)."
                )

    def work(self) -> int:
        """Shoe-passes the table deals and prices: the baseline, each cut, the pass of caps and
        main bets, and one per known card.

        >>> from exactodds.bets.catalogue import select_bets
        >>> study = Simulation.of(100, 1, bets=select_bets("dragon7"))
        >>> ProtectionSpec(study, cuts=(26, 52), main_bets=(Fraction(1),)).work()
        400
        """
        passes = 1 + len(self.cuts) + bool(self.caps or self.main_bets) + len(self.known_cards)
        return self.simulation.shoes * passes


@dataclass(frozen=True)
class LeverRow:
    """One lever setting's figures: the player's win per shoe and per hour (units, exact-EV
    estimator, each a mean with its standard error) and the bets placed."""

    lever: str
    setting: str
    per_shoe: Estimate
    per_hour: Estimate
    bets_made: int
    #: ``simulate`` (a simulate run of these settings gives these figures) or ``pass``.
    source: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "lever": self.lever,
            "setting": self.setting,
            "units_per_shoe": mean_and_error(self.per_shoe),
            "units_per_hour": mean_and_error(self.per_hour),
            "bets_made": self.bets_made,
            "source": self.source,
        }


@dataclass(frozen=True)
class ProtectionTable:
    """The countermeasure table: the baseline row first, then each lever's rows in order."""

    spec: ProtectionSpec
    rounds: int
    rows: tuple[LeverRow, ...]

    @property
    def baseline(self) -> LeverRow:
        """The study as given, no lever moved."""
        return self.rows[0]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data: the study, its assumptions' settings and every row."""
        study = self.spec.simulation
        return {
            "bet": study.bets[0].name,
            "strategy": study.strategies[0].describe(),
            "stake": study.stake.describe(),
            "shoes": study.shoes,
            "seed": study.seed,
            "rounds": self.rounds,
            "rounds_per_hour": self.spec.rounds_per_hour,
            "procedure": study.procedure.to_dict(),
            "rules": study.rules.to_dict(),
            "rows": [row.to_dict() for row in self.rows],
        }


# Reading lever settings ------------------------------------------------------------------


def parse_values(text: str, name: str, read: Callable[[str], Any]) -> tuple[Any, ...]:
    """Comma-separated *text* read by *read*, one sentence naming *name* when one is empty.

    >>> parse_values("1, 2", "teams", int)
    (1, 2)
    >>> parse_values("1,,2", "teams", int)
    Traceback (most recent call last):
    ...
    exactodds.studies.audit.AuditError: `teams` '1,,2' has an empty value; give values separated by commas, such as 1,2.
    """
    values = [value.strip() for value in text.split(",")]
    if not all(values):
        raise AuditError(
            f"{parameter(name)} {text!r} has an empty value; give values separated by commas, "
            "such as 1,2."
        )
    return tuple(read(value) for value in values)


def parse_caps(texts: Sequence[str]) -> tuple[SideBetCap, ...]:
    """Caps from ``SHARE@DEPTH`` texts: the side bet at most SHARE of the main bet from DEPTH
    cards dealt on (``@DEPTH`` left out: from the first round).

    >>> parse_caps(["1/2@300", "25%"])
    (SideBetCap(share=Fraction(1, 2), from_depth=300), SideBetCap(share=Fraction(1, 4), from_depth=0))
    >>> parse_caps(["half@300"])
    Traceback (most recent call last):
    ...
    exactodds.studies.audit.AuditError: Cap 'half@300' for `caps` is not SHARE@DEPTH; give a share of the main bet and the cards dealt from which it applies, such as 1/2@300.
    """
    caps = []
    for text in texts:
        share_text, _, depth_text = text.partition("@")
        try:
            share = parse_number(share_text.strip(), "`caps`")
        except ExactOddsError:
            raise AuditError(
                f"Cap {text!r} for `caps` is not SHARE@DEPTH; give a share of the main bet and "
                "the cards dealt from which it applies, such as 1/2@300."
            ) from None
        depth = whole_number(
            depth_text.strip() or "0", "caps", AuditError, what="Cap depth", text=True
        )
        caps.append(SideBetCap(share, depth))
    return tuple(caps)


# Computing -------------------------------------------------------------------------------


def protection_table(spec: ProtectionSpec, **run: Any) -> ProtectionTable:
    """Every row of the countermeasure table of *spec*; *run* goes to each ``simulate`` run
    (``jobs``, ``dask``)."""
    from exactodds.simulation.run import simulate

    study = spec.simulation
    base = simulate(study, **run)
    rows = [_simulated_row("baseline", "as dealt", base, spec.rounds_per_hour)]
    for cut in spec.cuts:
        variant = dataclasses.replace(
            study, procedure=dataclasses.replace(study.procedure, cut=cut)
        )
        rows.append(
            _simulated_row("cut", f"{cut} cards", simulate(variant, **run), spec.rounds_per_hour)
        )
    passed = _passed_rows(spec)
    rows.extend(row for row in passed if row.lever != "known card")
    for players in spec.teams:
        rows.append(_team_row(rows[0], base, players, spec.rounds_per_hour))
    rows.extend(row for row in passed if row.lever == "known card")
    return ProtectionTable(spec, base.tally.rounds, tuple(rows))


def _simulated_row(lever: str, setting: str, result: Any, rounds_per_hour: int) -> LeverRow:
    """A row from a simulate run: its figures, read from its tally as simulate reads them."""
    tally = result.tally
    sums = tally.bets[0]
    unit = Fraction(1, EV_SCALE)
    return LeverRow(
        lever,
        setting,
        Estimate.of_shoes(sums.expected, tally.shoes, unit),
        Estimate.per_rounds(sums.expected, tally, unit, per=rounds_per_hour),
        sums.bets_made,
        "simulate",
    )


def _team_row(baseline: LeverRow, result: Any, players: int, rounds_per_hour: int) -> LeverRow:
    """*players* seats each placing every bet of the baseline: its per-shoe sums times n."""
    tally = result.tally
    sums = tally.bets[0].expected
    scaled = Sums(sums.total * players, sums.squares * players * players, sums.cross * players)
    unit = Fraction(1, EV_SCALE)
    return LeverRow(
        "team",
        f"{players} player{'s' * (players != 1)}",
        Estimate.of_shoes(scaled, tally.shoes, unit),
        Estimate.per_rounds(scaled, tally, unit, per=rounds_per_hour),
        baseline.bets_made * players,
        "simulate",
    )


@dataclass(frozen=True)
class _Lever:
    """One pass setting: a cap, a required main bet or a known card's position."""

    lever: str
    setting: str
    cap: SideBetCap | None = None
    main_units: Fraction = Fraction(0)
    known_card: int | None = None

    def main_stake(self, depth: int, stake: Fraction) -> Fraction:
        """The main bet a side bet of *stake* units calls for in a round at *depth*."""
        if self.cap is not None and depth >= self.cap.from_depth:
            return stake / self.cap.share
        return self.main_units


def _levers(spec: ProtectionSpec) -> list[_Lever]:
    levers = [_Lever("cap", cap.describe(), cap=cap) for cap in spec.caps]
    levers += [
        _Lever(
            "main bet",
            f"{fraction_string(units)} unit{'s' * (units != 1)} with each",
            main_units=units,
        )
        for units in spec.main_bets
    ]
    levers += [
        _Lever("known card", f"position {position}", known_card=position)
        for position in spec.known_cards
    ]
    return levers


def _stake(study: Simulation) -> int:
    stake = study.stake
    assert isinstance(stake, Flat)
    return max(stake.units, study.limits.minimum)


def _passed_rows(spec: ProtectionSpec) -> list[LeverRow]:
    """The cap, main-bet and known-card rows, from one pass over the study's shoes."""
    levers = _levers(spec)
    if not levers:
        return []
    study = spec.simulation
    per_shoe: list[list[int]] = [[] for _ in levers]
    placed = [0] * len(levers)
    rounds_per_shoe: list[int] = []
    for block, values in _priced_blocks(study, [lever.known_card for lever in levers]):
        rounds_per_shoe += block.rounds_per_shoe.tolist()
        for index, lever in enumerate(levers):
            totals, count = _lever_block(study, block, values[lever.known_card], lever)
            per_shoe[index] += totals
            placed[index] += count
    counts = _RoundCounts(
        len(rounds_per_shoe), sum(rounds_per_shoe), sum(count * count for count in rounds_per_shoe)
    )
    unit = Fraction(1, EV_SCALE)
    rows = []
    for index, lever in enumerate(levers):
        sums = Sums.of(per_shoe[index], rounds_per_shoe)
        rows.append(
            LeverRow(
                lever.lever,
                lever.setting,
                Estimate.of_shoes(sums, counts.shoes, unit),
                Estimate.per_rounds(sums, counts, unit, per=spec.rounds_per_hour),
                placed[index],
                "pass",
            )
        )
    return rows


@dataclass(frozen=True)
class _RoundCounts:
    shoes: int
    rounds: int
    rounds_squares: int


#: A round's exact EVs: the side bet's, Banker's and Player's, numerators over denominators.
_Values = tuple[npt.NDArray[Any], npt.NDArray[Any]]


def _priced_blocks(
    study: Simulation, known_cards: Sequence[int | None]
) -> Iterator[tuple[DealtBlock, dict[int | None, _Values]]]:
    """Each block of the study's shoes with the exact EVs of (bet, Banker, Player) on every
    round's known composition, and on it less each known card where the round cannot deal it."""
    from exactodds.simulation.block import prepare
    from exactodds.simulation.evaluate import exact_expected_values

    banker, player = main_bets(study.rules)[:2]
    analyzer = prepare(study.rules, (study.bets[0], banker, player)).analyzer
    for first in range(0, study.shoes, _BLOCK_SHOES):
        shoes = min(_BLOCK_SHOES, study.shoes - first)
        block = deal_block(study.procedure, study.rules.tableau, study.seed, first, shoes)
        values: dict[int | None, _Values] = {}
        for position in dict.fromkeys(known_cards):
            known = block.known if position is None else _less_known_card(block, position)
            priced = exact_expected_values(analyzer, known, study.suited)
            values[position] = (priced.numerators, priced.denominators)
        yield block, values


def _less_known_card(block: DealtBlock, position: int) -> npt.NDArray[np.int64]:
    """Each round's known composition less the card at *position* where the round cannot deal
    it: at least six cards ahead (behind the cut card included) or burned face down.

    >>> from exactodds.rules import Rules
    >>> from exactodds.simulation.dealing import DealingProcedure
    >>> block = deal_block(DealingProcedure(decks=1, cut=20), Rules().tableau, 1, 0, 1)
    >>> (block.known - _less_known_card(block, 51)).sum(axis=1).tolist() == [1] * block.rounds
    True
    """
    known = block.known.copy()
    shoes = block.round_shoe
    first_depth = np.zeros(block.shoes, dtype=np.int64)
    first_depth[shoes[block.round_number == 0]] = block.depth[block.round_number == 0]
    face_down_from = (block.exposed >= 0).astype(np.int64)
    burned = (position >= face_down_from[shoes]) & (position < first_depth[shoes])
    ahead = position >= block.depth + _ROUND_CARDS
    rows = np.flatnonzero(burned | ahead)
    cards = block.cards[shoes[rows], position]
    known[rows, cards] -= 1
    return known


def _lever_block(
    study: Simulation, block: DealtBlock, values: _Values, lever: _Lever
) -> tuple[list[int], int]:
    """Each shoe's exact-EV win under *lever* (units of 2^-40) and the side bets placed."""
    numerators, denominators = values
    strategy = study.strategies[0]
    decided = strategy.decide(
        numerators[:, 0], denominators[:, 0], block.known, study.procedure.decks
    )
    stake = Fraction(_stake(study))
    totals = [0] * block.shoes
    placed = 0
    for row in np.flatnonzero(decided).tolist():
        side = Fraction(int(numerators[row, 0]), int(denominators[row, 0]))
        main = max(
            Fraction(int(numerators[row, column]), int(denominators[row, column]))
            for column in (1, 2)
        )
        main_stake = lever.main_stake(int(block.depth[row]), stake)
        worth = stake * side + main_stake * main
        if isinstance(strategy, Perfect) and worth <= strategy.min_edge * stake:
            continue  # the side bet and its main bet together are not worth placing
        placed += 1
        fixed = (2 * worth.numerator * EV_SCALE + worth.denominator) // (2 * worth.denominator)
        totals[int(block.round_shoe[row])] += fixed
    return totals, placed
