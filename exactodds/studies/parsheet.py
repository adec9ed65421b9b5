"""Par sheets: the probability and accounting report filed for a bet, every figure exact.

:func:`par_sheet` gathers, for each chosen bet on one shoe under one set of
rules, what a casino game mathematician files with a regulator or test lab:
the outcome table (combinations, probability, pay, contribution to the
return), the house edge, the edge per resolved bet, the hit frequency, the
variance and standard deviation, the volatility index, the hold to expect
over many rounds with its confidence band, the effect of removal by rank
with a derived count, and the break-even pays.  The renderers
(:mod:`exactodds.report.parsheet.render` for HTML and Markdown,
:mod:`exactodds.report.parsheet.xlsx` for a workbook) only lay it out.

The textbook definitions used (Kilby, Fox and Lucas, *Casino Operations
Management*; Hannum and Cabot, *Practical Casino Math*; the volatility index
printed on slot par sheets):

* volatility index ``VI = z * sd``, where ``sd`` is the standard deviation of
  one round's net result per unit staked and ``z`` the two-sided standard
  normal quantile of the confidence level, to three decimals as par sheets
  print it (1.645 at 90%, 1.960 at 95%, 2.576 at 99%);
* after ``N`` rounds of one unit each, the hold (the house's win as a share
  of the money staked) has mean ``house edge`` and standard deviation
  ``sd / sqrt(N)``, so by the central limit theorem it lies within
  ``house edge +- VI / sqrt(N)`` with the stated confidence.

Everything but the square roots is an exact :class:`~fractions.Fraction`;
each square root is correctly rounded to the digits shown.

>>> from exactodds import Rules, Shoe
>>> from exactodds.bets.catalogue import select_bets
>>> sheet = par_sheet(Shoe.standard(decks=8), Rules(), select_bets("tie"))
>>> tie = sheet.bets["tie"]
>>> tie.rows[0].outcome, tie.rows[0].count, tie.rows[0].pay
('win', 475627426473216, Fraction(8, 1))
>>> tie.volatility[0].confidence, tie.volatility[0].z, tie.volatility[0].decimal(4)
(90, Fraction(329, 200), '4.3442')
>>> band = tie.holds[0]
>>> band.rounds, band.low_percent(2), band.high_percent(2)
(1000, '0.62%', '28.10%')
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from statistics import NormalDist

from ..analysis.multipliers import OverlayAnalysis, analyze_overlay
from ..analysis.rebates import RebateFigures, rebate_figures
from ..analysis.removal import DEFAULT_MAX_TAG, EffectOfRemoval, LinearCount, effect_of_removal
from ..analysis.single import Analysis, BetAnalysis, analyze
from ..analysis.tails import HourlyFigures, RootEnd, SessionTails, one_in, session_tails
from ..bets.bet import Bet
from ..bets.multipliers import MultiplierOverlay
from ..errors import ExactOddsError, MissingExtraError, import_extra, quoted
from ..inputs import whole_number
from ..numbers import NumberLike, decimal_string, square_root_decimal_string
from ..rules import Rules
from ..shoe import Shoe

__all__ = [
    "DEFAULT_CONFIDENCES",
    "DEFAULT_ROUNDS",
    "BetSheet",
    "BreakevenPay",
    "ComparisonRow",
    "HoldBand",
    "MissingExtraError",
    "NothingPricedError",
    "OutcomeRow",
    "ParSheet",
    "SheetGame",
    "SheetIdentity",
    "VolatilityIndex",
    "compare_alternatives",
    "dragon_tiger_par_sheet",
    "offset_root_decimal",
    "par_sheet",
    "z_score",
]

#: Numbers of rounds the hold's confidence band is given for.
DEFAULT_ROUNDS: tuple[int, ...] = (1_000, 10_000, 100_000, 1_000_000)
#: Confidence levels, in percent, of the volatility index and the hold's band.
DEFAULT_CONFIDENCES: tuple[int, ...] = (90, 95, 99)


class NothingPricedError(ExactOddsError):
    """No chosen bet can be priced on the shoe, so there is no par sheet to write.

    >>> raise NothingPricedError("No bet can be priced.")
    Traceback (most recent call last):
    ...
    exactodds.studies.parsheet.NothingPricedError: No bet can be priced.
    """


@dataclass(frozen=True)
class SheetIdentity:
    """What identifies a filed par sheet: its title, pay table, version, command line and date.

    The title is the user's: one line of at most 200 characters.

    >>> SheetIdentity("Dragon 7", "standard pays", "1.0", "exactodds report", "2026-01-01").title
    'Dragon 7'
    >>> SheetIdentity("x" * 201, "standard pays", "1.0", "exactodds report", "2026-01-01")
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: Title 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...' (201 characters) is not valid; use one line of at most 200 characters.
    """

    title: str
    paytable: str
    version: str
    command: str
    date: str
    #: The game's name, the game's or pay table's version, and the sheet's author, as a
    #: regulator's sheet carries them (empty: not shown).
    game_name: str = ""
    game_version: str = ""
    author: str = ""

    def __post_init__(self) -> None:
        for field, what, required in (
            (self.title, "Title", True),
            (self.game_name, "Game name", False),
            (self.game_version, "Game version", False),
            (self.author, "Author", False),
        ):
            if (
                not isinstance(field, str)
                or (required and not field.strip())
                or len(field) > 200
                or any(ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 for c in field)
            ):
                shown = quoted(field) if isinstance(field, str) else repr(field)
                raise ExactOddsError(
                    f"{what} {shown} is not valid; use one line of at most 200 characters."
                )

    def rows(self) -> tuple[tuple[str, str], ...]:
        """The header's items, in order: the game, its version and the author only when given."""
        given = (
            ("Game version", self.game_version),
            ("Author", self.author),
        )
        return (
            ("Game", self.game_name or self.title),
            *((label, value) for label, value in given if value),
            ("Pay table", self.paytable),
            ("Date", self.date),
            ("exactodds version", self.version),
            ("Command", self.command),
        )


def z_score(confidence: int) -> Fraction:
    """The two-sided standard normal quantile for *confidence* percent, to three decimals.

    Par sheets print the volatility index with these rounded values, and so
    does this report: the rounding is part of the definition, stated in the
    report, and it makes every figure built from ``z`` exact up to one square
    root.

    >>> z_score(90), z_score(95), z_score(99)
    (Fraction(329, 200), Fraction(49, 25), Fraction(322, 125))
    >>> z_score(100)
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: Confidence level 100 for `confidence` is not valid; use a whole number from 1 to 99.
    """
    whole_number(confidence, "confidence", minimum=1, maximum=99, what="Confidence level")
    quantile = NormalDist().inv_cdf(0.5 + confidence / 200)
    return Fraction(round(quantile * 1000), 1000)


def _exact_root(value: Fraction) -> Fraction | None:
    """The square root of *value* when it is rational, else ``None``."""
    numerator, denominator = math.isqrt(value.numerator), math.isqrt(value.denominator)
    if numerator * numerator == value.numerator and denominator * denominator == value.denominator:
        return Fraction(numerator, denominator)
    return None


def offset_root_decimal(center: Fraction, radicand: Fraction, sign: int, digits: int) -> str:
    """``center + sign * sqrt(radicand)``, correctly rounded (half to even) to *digits* places.

    The square root is bracketed between two integers at ever more guard
    digits until both ends of the bracket round the same way: an irrational
    value is never a rounding tie, so this ends; a rational root is exact.

    >>> offset_root_decimal(Fraction(1), Fraction(2), -1, 6)  # 1 - sqrt(2)
    '-0.414214'
    >>> offset_root_decimal(Fraction(1, 2), Fraction(1, 4), 1, 0)  # exactly 1
    '1'
    >>> offset_root_decimal(Fraction(1), Fraction(-1), 1, 2)
    Traceback (most recent call last):
    ...
    ValueError: cannot take the square root of the negative value -1.
    """
    if radicand < 0:
        raise ValueError(f"cannot take the square root of the negative value {radicand}.")
    root = _exact_root(radicand)
    if root is not None:
        return decimal_string(center + sign * root, digits)
    guard = 8
    while True:
        scale = 10 ** (digits + guard)
        scaled = radicand * scale * scale
        floor_root = math.isqrt(scaled.numerator // scaled.denominator)
        low = center + sign * Fraction(floor_root, scale)
        high = center + sign * Fraction(floor_root + 1, scale)
        first, second = decimal_string(low, digits), decimal_string(high, digits)
        if first == second:
            return first
        guard *= 2


@dataclass(frozen=True)
class OutcomeRow:
    """One outcome of a bet: what it pays, how many rounds end so, and its share of the return.

    >>> row = OutcomeRow("win", Fraction(8), 1, Fraction(1, 10))
    >>> row.contribution
    Fraction(4, 5)
    """

    outcome: str
    pay: Fraction
    count: int
    probability: Fraction

    @property
    def contribution(self) -> Fraction:
        """The outcome's contribution to the expected net result: ``probability * pay``."""
        return self.probability * self.pay

    @property
    def one_in(self) -> Fraction | None:
        """The ``X`` of "1 in X": ``1 / probability`` (``None`` for an outcome that never
        happens).

        >>> OutcomeRow("win", Fraction(8), 2, Fraction(2, 21)).one_in
        Fraction(21, 2)
        """
        return one_in(self.probability)

    @property
    def odds_against(self) -> Fraction | None:
        """The true odds against, "X to 1": ``(1 - probability) / probability``, the "1 in X"
        less one (``None`` for an outcome that never happens).

        >>> OutcomeRow("win", Fraction(8), 2, Fraction(2, 21)).odds_against
        Fraction(19, 2)
        """
        value = self.one_in
        return None if value is None else value - 1


@dataclass(frozen=True)
class VolatilityIndex:
    """``VI = z * sd`` at one confidence level; ``squared`` is ``z**2 * variance``, exact.

    >>> VolatilityIndex(95, Fraction(49, 25), Fraction(1)).decimal(3)
    '1.960'
    """

    confidence: int
    z: Fraction
    variance: Fraction

    @property
    def squared(self) -> Fraction:
        """The volatility index squared, exactly."""
        return self.z * self.z * self.variance

    def decimal(self, digits: int) -> str:
        """The volatility index, correctly rounded to *digits* places."""
        return square_root_decimal_string(self.squared, digits)


@dataclass(frozen=True)
class HoldBand:
    """The normal band of the win as a share of the handle after ``rounds`` rounds.

    ``house_edge +- z * sd / sqrt(rounds)`` at ``confidence``: the house's
    win divided by the money staked, one unit a round, by the central limit
    theorem.  ``half_width_squared`` is ``z**2 * variance / rounds``, exact.
    The printed ends are clipped to ``[floor, ceiling]`` (what the win can
    reach, never past -100% or +100%).

    >>> band = HoldBand(100, 95, Fraction(49, 25), Fraction(1, 50), Fraction(1))
    >>> band.low_percent(3), band.high_percent(3), band.half_width_percent(3)
    ('-17.600%', '21.600%', '19.600%')
    >>> wide = HoldBand(10, 99, Fraction(161, 62), Fraction(1, 10), Fraction(4))
    >>> wide.high_percent(1), wide.clipped_high
    ('100.0%', True)
    """

    rounds: int
    confidence: int
    z: Fraction
    house_edge: Fraction
    variance: Fraction
    floor: Fraction = Fraction(-1)
    ceiling: Fraction = Fraction(1)

    @property
    def half_width_squared(self) -> Fraction:
        """The band's half-width squared, exactly."""
        return self.z * self.z * self.variance / self.rounds

    def half_width_percent(self, digits: int) -> str:
        """The half-width in percent of the money staked, correctly rounded."""
        return square_root_decimal_string(self.half_width_squared * 10_000, digits) + "%"

    def low_percent(self, digits: int) -> str:
        """The band's lower end in percent, correctly rounded (clipped at ``floor``)."""
        return self._end(-1, digits) + "%"

    def high_percent(self, digits: int) -> str:
        """The band's upper end in percent, correctly rounded (clipped at ``ceiling``)."""
        return self._end(1, digits) + "%"

    def _unclipped(self, sign: int) -> RootEnd:
        return RootEnd(self.house_edge, self.half_width_squared, sign)

    @property
    def clipped_low(self) -> bool:
        """Whether the normal band reaches below ``floor`` (and is printed clipped)."""
        return _below(self._unclipped(-1), self.floor)

    @property
    def clipped_high(self) -> bool:
        """Whether the normal band reaches above ``ceiling`` (and is printed clipped)."""
        return not _below(self._unclipped(1), self.ceiling) and not _equal(
            self._unclipped(1), self.ceiling
        )

    def low_end(self) -> Fraction | RootEnd:
        """The printed lower end, exactly: ``floor`` when clipped."""
        return self.floor if self.clipped_low else self._unclipped(-1)

    def high_end(self) -> Fraction | RootEnd:
        """The printed upper end, exactly: ``ceiling`` when clipped."""
        return self.ceiling if self.clipped_high else self._unclipped(1)

    def _end(self, sign: int, digits: int) -> str:
        if sign < 0 and self.clipped_low:
            return decimal_string(self.floor * 100, digits)
        if sign > 0 and self.clipped_high:
            return decimal_string(self.ceiling * 100, digits)
        return offset_root_decimal(
            self.house_edge * 100, self.half_width_squared * 10_000, sign, digits
        )

    def bounds(self) -> tuple[float, float]:
        """The band's printed ends as floats (for plots only)."""
        low = float(self._end(-1, 17))
        high = float(self._end(1, 17))
        return low / 100, high / 100


def _below(end: RootEnd, value: Fraction) -> bool:
    """Whether ``center + sign * sqrt(radicand) < value``, exactly."""
    gap = value - end.center  # is sign * sqrt(r) < gap ?
    if end.sign > 0:
        return gap > 0 and gap * gap > end.radicand
    return gap > 0 or gap * gap < end.radicand


def _equal(end: RootEnd, value: Fraction) -> bool:
    gap = value - end.center
    return gap * end.sign >= 0 and gap * gap == end.radicand


@dataclass(frozen=True)
class BreakevenPay:
    """The value of one pay that makes a bet's EV exactly zero, all other pays as set.

    ``value`` is ``None`` when no value does (``reason`` says why); ``note``
    says when the value is out of what a casino could set.

    >>> BreakevenPay("tie", Fraction(8), Fraction(19, 2), None, None).value
    Fraction(19, 2)
    """

    name: str
    current: Fraction
    value: Fraction | None
    note: str | None
    reason: str | None


@dataclass(frozen=True)
class BetSheet:
    """Every figure of one bet's par sheet.

    ``result`` is the bet's :class:`~exactodds.analysis.single.BetAnalysis`;
    ``rows`` the outcome table, best pay first; ``effects`` and ``count`` the
    effect of removal by rank and the derived linear count (``None`` when
    the shoe had no rank that could be removed), ``expected_values_after``
    the bet's EV once one card of each rank is gone (EV + effect); ``tails``
    the exact distribution's figures for each number of rounds
    (``tails_reason`` says why there are none); ``hourly`` theo and SD an
    hour when asked for; ``expected_hold`` hold as win / drop (house edge *
    drop ratio) when a drop ratio was given; ``fee`` the table's fee on every bet, which
    :attr:`return_to_player` divides by; ``rebate`` the bet's figures under the rules'
    rebate (:func:`~exactodds.analysis.rebates.rebate_figures`), ``None`` without one.
    """

    result: BetAnalysis
    rows: tuple[OutcomeRow, ...]
    volatility: tuple[VolatilityIndex, ...]
    holds: tuple[HoldBand, ...]
    effects: Mapping[str, Fraction | None] | None
    count: LinearCount | None
    weighted_sum: Fraction | None
    breakevens: tuple[BreakevenPay, ...]
    tails: tuple[SessionTails, ...] = ()
    tails_reason: str | None = None
    hourly: HourlyFigures | None = None
    expected_values_after: Mapping[str, Fraction | None] | None = None
    expected_hold: Fraction | None = None
    fee: Fraction = Fraction(0)
    rebate: RebateFigures | None = None

    @property
    def name(self) -> str:
        """The bet's name."""
        return self.result.name

    @property
    def return_to_player(self) -> Fraction:
        """The RTP regulators file: ``(1 + EV) / (1 + fee)``, exact (1 - house edge with no fee)."""
        return self.result.return_to_player(self.fee)

    @property
    def expected_value(self) -> Fraction:
        """The exact EV per unit staked: the sum of the rows' contributions."""
        return sum((row.contribution for row in self.rows), Fraction(0))

    @property
    def combinations(self) -> int:
        """The rounds counted over every outcome row: the total of the outcome table."""
        return sum(row.count for row in self.rows)

    @property
    def total_probability(self) -> Fraction:
        """The probabilities of the outcome rows added up (exactly 1 when they cover every
        round)."""
        return sum((row.probability for row in self.rows), Fraction(0))

    def holds_at(self, rounds: int) -> tuple[HoldBand, ...]:
        """The bands after *rounds* rounds, one per confidence level."""
        return tuple(band for band in self.holds if band.rounds == rounds)

    @property
    def band_curves(self) -> dict[int, tuple[HoldBand, ...]]:
        """Per confidence level, the band on 1-2-5 steps of rounds from the sheet's fewest
        to its most rounds (1,000 to 1,000,000 when it has none): what the hold figure draws.
        """
        numbers = [band.rounds for band in self.holds] or [1_000, 1_000_000]
        grid = _rounds_grid(min(numbers), max(numbers))
        curves: dict[int, tuple[HoldBand, ...]] = {}
        for band in self.holds:
            if band.confidence not in curves:
                curves[band.confidence] = tuple(
                    HoldBand(
                        rounds,
                        band.confidence,
                        band.z,
                        band.house_edge,
                        band.variance,
                        band.floor,
                        band.ceiling,
                    )
                    for rounds in grid
                )
        return curves


def _rounds_grid(smallest: int, largest: int) -> list[int]:
    """1-2-5 steps from *smallest* to *largest* rounds (both included), for the band figure.

    >>> _rounds_grid(10, 1_000)
    [10, 20, 50, 100, 200, 500, 1000]
    >>> _rounds_grid(300, 300)
    [300]
    """
    grid = {smallest, largest}
    number = 1
    while number <= largest:
        grid |= {step for step in (number, number * 2, number * 5) if smallest <= step <= largest}
        number *= 10
    return sorted(grid)


@dataclass(frozen=True)
class SheetGame:
    """The game a par sheet prices, as its sheet states it: what every renderer reads of it.

    ``key`` chooses the game's own paragraphs (``baccarat`` or ``dragon-tiger``), ``name``
    is what the sheet calls it, ``settlement`` its rules in one line, ``rounds`` the rounds
    counted (every outcome table's total) and ``round_words`` what a round is.

    >>> SheetGame("dragon-tiger", "Dragon Tiger", "one card each", 12, "ordered two-card sequences").rounds
    12
    """

    key: str
    name: str
    settlement: str
    rounds: int
    round_words: str


@dataclass(frozen=True)
class ParSheet:
    """A par sheet for several bets on one shoe under one set of rules.

    ``bets`` maps each priced bet to its :class:`BetSheet`; ``unavailable``
    each bet that could not be priced to the reason; ``removal`` holds the
    effects of removal of every priced bet (``None`` with ``removal_reason``
    when no rank could be removed); ``identity`` the header block;
    ``comparisons`` the alternatives (other shoes, other pay tables) side by
    side; ``drop_ratio`` the handle / drop ratio hold is figured with; ``overlay`` every bet
    priced under a random-multiplier overlay (each bet's exact EV and RTP, the law of the paid
    multiple and the variance), ``None`` without one: the other sections price the base game;
    ``game`` the game priced (baccarat's, from the analysis, when not given).
    """

    analysis: Analysis
    bets: Mapping[str, BetSheet]
    unavailable: Mapping[str, str]
    removal: EffectOfRemoval | None
    removal_reason: str | None
    rounds: tuple[int, ...]
    confidences: tuple[int, ...]
    max_tag: int
    identity: SheetIdentity | None = None
    comparisons: tuple[ComparisonRow, ...] = ()
    drop_ratio: Fraction | None = None
    overlay: OverlayAnalysis | None = None
    game: SheetGame | None = None

    def __post_init__(self) -> None:
        if self.game is None:
            baccarat = SheetGame(
                "baccarat",
                "Baccarat",
                self.analysis.rules.describe(),
                self.analysis.total,
                "ordered six-card sequences",
            )
            object.__setattr__(self, "game", baccarat)

    @property
    def played(self) -> SheetGame:
        """The game priced (``game``, always set once the sheet is made)."""
        assert self.game is not None  # set by __post_init__
        return self.game

    @property
    def levels(self) -> tuple[Fraction, ...]:
        """The percentile levels of the exact tails: each band's two ends and the median."""
        return _levels(self.confidences)

    @property
    def shoe(self) -> Shoe:
        """The shoe the bets were priced on."""
        return self.analysis.shoe

    @property
    def rules(self) -> Rules:
        """The rules the rounds were dealt and settled under."""
        return self.analysis.rules

    @property
    def checks(self) -> tuple[tuple[str, bool], ...]:
        """Exact identities checked on this report's own numbers: (statement, holds).

        Every probability table adds up to exactly 1; each bet's EV, summed
        from the outcome rows, equals the EV the analysis computed from its
        moments; and, for one card removed, the effects of removal weighted by
        the cards of each rank add up to exactly 0.
        """
        total = self.played.rounds
        checks = [
            (
                "The outcome counts of every bet add up to the shoe's "
                f"{total:,} {self.played.round_words.removeprefix('ordered ')}.",
                all(
                    sum(sheet.result.outcome_counts.values()) == total
                    for sheet in self.bets.values()
                ),
            ),
            (
                "Each bet's EV, summed over its outcome rows, equals the EV computed from its "
                "moments.",
                all(
                    sheet.expected_value == sheet.result.expected_value
                    for sheet in self.bets.values()
                ),
            ),
        ]
        if self.removal is not None and self.removal.cards == 1 and not self.removal.skipped:
            checks.append(
                (
                    "The effects of removal weighted by the cards of each rank add up to exactly 0.",
                    all(sheet.weighted_sum == 0 for sheet in self.bets.values()),
                )
            )
        return tuple(checks)


@dataclass(frozen=True)
class ComparisonRow:
    """One bet under one alternative (another shoe, another pay table) of a comparison.

    >>> from exactodds.bets.catalogue import select_bets
    >>> (row,) = compare_alternatives([("decks=1", Shoe.standard(1), Rules(), select_bets("tie"))])
    >>> row.alternative, row.bet, row.result.house_edge_percent(2)
    ('decks=1', 'tie', '15.75%')
    """

    alternative: str
    bet: str
    result: BetAnalysis
    volatility: tuple[VolatilityIndex, ...]
    fee: Fraction = Fraction(0)

    @property
    def return_to_player(self) -> Fraction:
        """The bet's RTP under the alternative: ``(1 + EV) / (1 + fee)``."""
        return self.result.return_to_player(self.fee)


def compare_alternatives(
    alternatives: Sequence[tuple[str, Shoe, Rules, Sequence[Bet]]],
    confidences: Sequence[int] = DEFAULT_CONFIDENCES,
) -> tuple[ComparisonRow, ...]:
    """Each bet of each alternative ``(label, shoe, rules, bets)``, priced as its own sheet is."""
    rows = []
    for label, shoe, rules, bets in alternatives:
        analysis = analyze(shoe, rules, tuple(bets))
        for name, result in analysis.bets.items():
            volatility = tuple(
                VolatilityIndex(level, z_score(level), result.variance) for level in confidences
            )
            rows.append(ComparisonRow(label, name, result, volatility, rules.fee))
    return tuple(rows)


def _clip_range(result: BetAnalysis) -> tuple[Fraction, Fraction]:
    """What the house's win per unit of handle can reach, within -100% and +100%."""
    results = result.distribution
    return max(-max(results), Fraction(-1)), min(-min(results), Fraction(1))


def _tails(
    result: BetAnalysis,
    holds: Sequence[HoldBand],
    rounds: Sequence[int],
    levels: Sequence[Fraction],
) -> tuple[tuple[SessionTails, ...], str | None]:
    found = []
    for number in rounds:
        bands = [(band.low_end(), band.high_end()) for band in holds if band.rounds == number]
        try:
            found.append(session_tails(result.distribution, number, levels, bands))
        except ExactOddsError as error:
            return tuple(found), str(error)
    return tuple(found), None


def _rows(result: BetAnalysis) -> tuple[OutcomeRow, ...]:
    pays = result.bet.pay_table
    rows = [
        OutcomeRow(
            outcome,
            pay,
            result.outcome_counts.get(outcome, 0),
            Fraction(result.outcome_counts.get(outcome, 0), result.total),
        )
        for outcome, pay in pays.items()
    ]
    return tuple(sorted(rows, key=lambda row: (-row.pay, row.outcome)))


def _breakevens(result: BetAnalysis, analysis: Analysis) -> tuple[BreakevenPay, ...]:
    """The break-even value of the commission (standard Banker) or of each winning pay."""
    from ..analysis.symbolic import COMMISSION, find_breakeven, pay_names

    import_extra(
        "sympy",
        "Solving break-even pays",
        "report",
        ", or leave them out (`breakeven` off)",
    )
    bet = result.bet
    winning = sorted(outcome for outcome, pay in bet.pay_table.items() if pay > 0)
    targets: list[tuple[str, Fraction]]
    if COMMISSION in pay_names(bet):
        targets = [(COMMISSION, 1 - bet.pay("win"))]
    elif len(winning) == 1:
        targets = [(bet.name, bet.pay(winning[0]))]
    else:
        targets = [(f"{bet.name}.{outcome}", bet.pay(outcome)) for outcome in winning]
    found = []
    for name, current in targets:
        try:
            solved = find_breakeven(bet, name, analysis)
        except ExactOddsError as error:
            found.append(BreakevenPay(name, current, None, None, str(error)))
        else:
            found.append(BreakevenPay(name, solved.current, solved.value, solved.note, None))
    return tuple(found)


def par_sheet(
    shoe: Shoe,
    rules: Rules | None = None,
    bets: Iterable[Bet] | None = None,
    *,
    rounds: Sequence[int] = DEFAULT_ROUNDS,
    confidences: Sequence[int] = DEFAULT_CONFIDENCES,
    max_tag: int = DEFAULT_MAX_TAG,
    breakeven: bool = True,
    tails: bool = True,
    rounds_per_hour: Fraction | None = None,
    average_bet: Fraction | None = None,
    drop_ratio: Fraction | None = None,
    identity: SheetIdentity | None = None,
    comparisons: Sequence[ComparisonRow] = (),
    progress: Callable[[int, int, str], None] | None = None,
    overlay: MultiplierOverlay | None = None,
) -> ParSheet:
    """The par sheet of *bets* (default: Banker, Player, Tie) on *shoe* under *rules*.

    *rounds* are the session lengths the hold's band is given for, and
    *confidences* the confidence levels (whole percentages) of the
    volatility index and the bands.  Break-even pays need sympy (the
    ``symbolic`` or ``report`` extra); pass ``breakeven=False`` to leave them
    out.  A bet that cannot be priced on this shoe (a suited bet on a shoe
    known by rank only) is listed in ``unavailable`` with the reason; when
    no bet can be priced, :class:`NothingPricedError` says why.  With
    *tails*, each number of rounds gets the exact distribution's figures;
    *rounds_per_hour* and *average_bet* give theo and SD an hour;
    *drop_ratio* (handle / drop) gives hold as win / drop.  *progress*, if given, is called
    before each step with the steps done, their number and what comes next.  With *overlay*
    (a :class:`~exactodds.bets.multipliers.MultiplierOverlay`), the sheet also prices every
    bet under it (:func:`~exactodds.analysis.multipliers.analyze_overlay`); the shoe must
    know its suits.

    >>> from exactodds.bets.catalogue import select_bets
    >>> sheet = par_sheet(Shoe.standard(decks=8), Rules(), select_bets("banker"), breakeven=False)
    >>> banker = sheet.bets["banker"]
    >>> [(row.outcome, row.pay) for row in banker.rows]
    [('win', Fraction(19, 20)), ('tie', Fraction(0, 1)), ('lose', Fraction(-1, 1))]
    >>> banker.count.tags["6"], banker.count.correlation_decimal(2)
    (-2, '0.97')
    >>> par_sheet(Shoe.standard(decks=8), rounds=[0])
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: Number of rounds 0 for `rounds` is not valid; use a whole number of at least 1.
    """
    _check_inputs(rounds, rounds_per_hour, average_bet, drop_ratio)
    # Checked here, not left to the removal (whose refusals become a note on the sheet).
    whole_number(max_tag, "max_tag", ExactOddsError, minimum=1, what="Largest tag")
    levels = tuple(confidences)
    scores = {level: z_score(level) for level in levels}
    rules = rules if rules is not None else Rules()
    chosen = tuple(bets) if bets is not None else None

    def step(done: int, what: str) -> None:
        if progress is not None:
            progress(done, 2 + len(analysis.bets) if done else 2, what)

    step(0, "odds")
    priced = None if overlay is None else analyze_overlay(shoe, rules, chosen, overlay=overlay)
    analysis = analyze(shoe, rules, chosen)
    if not analysis.bets:
        reasons = "; ".join(f"{name}: {reason}" for name, reason in analysis.unavailable.items())
        raise NothingPricedError(
            "No chosen bet can be priced on this shoe, so there is no par sheet to write"
            + (f" ({reasons.rstrip('.')})." if reasons else ".")
        )
    removal: EffectOfRemoval | None = None
    removal_reason: str | None = None
    step(1, "effect of removal")
    try:
        removal = effect_of_removal(shoe, rules, chosen, cards=1, max_tag=max_tag)
    except ExactOddsError as error:
        removal_reason = str(error)
    hourly = (
        (rounds_per_hour, average_bet)
        if rounds_per_hour is not None and average_bet is not None
        else None
    )
    sheets = {}
    for done, (name, result) in enumerate(analysis.bets.items(), 2):
        step(done, name)
        breakevens = _breakevens(result, analysis) if breakeven else ()
        sheets[name] = _bet_sheet(
            result, analysis, removal, scores, tuple(rounds), breakevens, tails, hourly, drop_ratio
        )
    step(2 + len(analysis.bets), "done")
    return ParSheet(
        analysis=analysis,
        bets=sheets,
        unavailable=dict(analysis.unavailable),
        removal=removal,
        removal_reason=removal_reason,
        rounds=tuple(rounds),
        confidences=levels,
        max_tag=max_tag,
        identity=identity,
        comparisons=tuple(comparisons),
        drop_ratio=drop_ratio,
        overlay=priced,
    )


def dragon_tiger_par_sheet(
    shoe: Shoe,
    bets: Iterable[str] | str | None = None,
    pays: Mapping[str, NumberLike] | None = None,
    *,
    rounds: Sequence[int] = DEFAULT_ROUNDS,
    confidences: Sequence[int] = DEFAULT_CONFIDENCES,
    max_tag: int = DEFAULT_MAX_TAG,
    breakeven: bool = True,
    tails: bool = True,
    rounds_per_hour: Fraction | None = None,
    average_bet: Fraction | None = None,
    drop_ratio: Fraction | None = None,
    identity: SheetIdentity | None = None,
) -> ParSheet:
    """The par sheet of Dragon Tiger's *bets* (default: all six) on *shoe* under *pays*.

    Every figure comes from the game's exact analysis
    (:func:`~exactodds.games.dragon_tiger.dragon_tiger_odds`, each bet seen as a
    :class:`~exactodds.analysis.single.BetAnalysis` over the shoe's ordered two-card rounds)
    and its effects of removal with their derived count
    (:func:`~exactodds.games.dragon_tiger.dragon_tiger_removal`); the rest is built as for
    baccarat's bets. A bet's break-even pay is exact and needs no sympy: its EV is linear
    in the pay, ``(pay * wins - rest) / rounds``, so it is zero at ``rest / wins``.

    >>> sheet = dragon_tiger_par_sheet(Shoe.standard(decks=8), "dragon,tie", {"tie": 11})
    >>> sheet.played.rounds, sheet.bets["tie"].return_to_player
    (172640, Fraction(372, 415))
    >>> [(pay.name, pay.value) for pay in sheet.bets["tie"].breakevens]
    [('tie', Fraction(384, 31))]
    >>> [row.outcome for row in sheet.bets["dragon"].rows]
    ['win', 'tie', 'lose']
    >>> dragon_tiger_par_sheet(Shoe.parse("A=2,K=2"), "suited_tie")
    Traceback (most recent call last):
    ...
    exactodds.studies.parsheet.NothingPricedError: No chosen bet can be priced on this shoe, so there is no par sheet to write (suited_tie: The suited tie needs suits, and the shoe is known by rank only (its cards were given without suits); name every card of the shoe and every card removed with its suit, such as KS or 7H).
    """
    from ..games.dragon_tiger import SETTLEMENT, dragon_tiger_odds, dragon_tiger_removal

    _check_inputs(rounds, rounds_per_hour, average_bet, drop_ratio)
    whole_number(max_tag, "max_tag", ExactOddsError, minimum=1, what="Largest tag")
    scores = {level: z_score(level) for level in confidences}
    odds = dragon_tiger_odds(shoe, bets, pays)
    analyses = {name: bet.as_bet_analysis() for name, bet in odds.bets.items()}
    analysis = Analysis(shoe, Rules(), {}, analyses, dict(odds.unavailable), odds.bet_names)
    if not analyses:
        reasons = "; ".join(f"{name}: {reason}" for name, reason in odds.unavailable.items())
        raise NothingPricedError(
            "No chosen bet can be priced on this shoe, so there is no par sheet to write "
            f"({reasons.rstrip('.')})."
        )
    removal: EffectOfRemoval | None = None
    removal_reason: str | None = None
    try:
        found = dragon_tiger_removal(shoe, tuple(analyses), odds.pays, 1, max_tag)
        removal = found.as_effect_of_removal()
    except ExactOddsError as error:
        removal_reason = str(error)
    hourly = (
        None if rounds_per_hour is None or average_bet is None else (rounds_per_hour, average_bet)
    )
    sheets = {
        name: _bet_sheet(
            result,
            analysis,
            removal,
            scores,
            tuple(rounds),
            _linear_breakeven(result) if breakeven else (),
            tails,
            hourly,
            drop_ratio,
        )
        for name, result in analyses.items()
    }
    game = SheetGame(
        "dragon-tiger", "Dragon Tiger", SETTLEMENT, odds.rounds, "ordered two-card sequences"
    )
    return ParSheet(
        analysis=analysis,
        bets=sheets,
        unavailable=dict(odds.unavailable),
        removal=removal,
        removal_reason=removal_reason,
        rounds=tuple(rounds),
        confidences=tuple(confidences),
        max_tag=max_tag,
        identity=identity,
        drop_ratio=drop_ratio,
        game=game,
    )


def _linear_breakeven(result: BetAnalysis) -> tuple[BreakevenPay, ...]:
    """The win's pay at which an EV linear in it is zero: what the other outcomes lose / wins."""
    wins = result.outcome_counts.get("win", 0)
    current = result.bet.pay("win")
    if wins == 0:
        reason = "The bet never wins on this shoe, so no pay makes its EV zero."
        return (BreakevenPay(result.name, current, None, None, reason),)
    rest = sum(
        result.bet.pay(outcome) * count
        for outcome, count in result.outcome_counts.items()
        if outcome != "win"
    )
    return (BreakevenPay(result.name, current, -Fraction(rest) / wins, None, None),)


def _check_inputs(
    rounds: Sequence[int],
    rounds_per_hour: Fraction | None,
    average_bet: Fraction | None,
    drop_ratio: Fraction | None,
) -> None:
    for number in rounds:
        whole_number(number, "rounds", minimum=1, what="Number of rounds")
    for value, what in (
        (rounds_per_hour, "rounds per hour"),
        (average_bet, "average bet"),
        (drop_ratio, "drop ratio"),
    ):
        if value is not None and value <= 0:
            raise ExactOddsError(f"The {what} {value} is not valid; use a number above 0.")


def _bet_sheet(
    result: BetAnalysis,
    analysis: Analysis,
    removal: EffectOfRemoval | None,
    scores: Mapping[int, Fraction],
    rounds: tuple[int, ...],
    breakevens: tuple[BreakevenPay, ...],
    tails: bool,
    hourly: tuple[Fraction, Fraction] | None,
    drop_ratio: Fraction | None = None,
) -> BetSheet:
    """One bet's sheet: every figure of :class:`BetSheet` from its analysis."""
    name, variance = result.name, result.variance
    floor, ceiling = _clip_range(result)
    holds = tuple(
        HoldBand(number, level, z, result.house_edge, variance, floor, ceiling)
        for number in rounds
        for level, z in scores.items()
    )
    found, reason = (
        _tails(result, holds, rounds, _levels(tuple(scores))) if tails else ((), "not asked for")
    )
    return BetSheet(
        result=result,
        rows=_rows(result),
        volatility=tuple(VolatilityIndex(level, z, variance) for level, z in scores.items()),
        holds=holds,
        tails=found,
        tails_reason=reason,
        hourly=(
            None
            if hourly is None
            else HourlyFigures(hourly[0], hourly[1], result.house_edge, variance)
        ),
        effects=removal.effects.get(name) if removal is not None else None,
        expected_values_after=_expected_values_after(removal, name),
        expected_hold=None if drop_ratio is None else result.house_edge * drop_ratio,
        count=removal.counts[name] if removal is not None else None,
        weighted_sum=removal.weighted_sum(name) if removal is not None else None,
        breakevens=breakevens,
        fee=analysis.rules.fee,
        rebate=rebate_figures(result, analysis.rules.rebate) if analysis.rules.rebate else None,
    )


def _expected_values_after(
    removal: EffectOfRemoval | None, name: str
) -> dict[str, Fraction | None] | None:
    """The EV of bet *name* once one card of each rank is gone: its EV plus the effect."""
    if removal is None or removal.effects.get(name) is None:
        return None
    before = removal.expected_values[name]
    return {
        rank: None if effect is None else before + effect
        for rank, effect in removal.effects[name].items()
    }


def _levels(confidences: Sequence[int]) -> tuple[Fraction, ...]:
    ends = {Fraction(1, 2)}
    for level in confidences:
        ends |= {Fraction(100 - level, 200), Fraction(100 + level, 200)}
    return tuple(sorted(ends))
