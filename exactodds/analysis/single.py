"""Exact analysis of bets: probabilities, expected values, variances, edges.

:func:`analyze` is the library's front door.  It enumerates the shoe once,
then prices every bet from the same exact counts.  Counting stays in integers
until the last step; each figure is one :class:`~fractions.Fraction`.

>>> from exactodds import Rules, Shoe
>>> result = analyze(Shoe.standard(decks=8), Rules())
>>> result.outcomes["banker"].count
2292252566437888
>>> result.bets["banker"].house_edge_percent(4)
'1.0579%'
>>> sum(outcome.probability for outcome in result.outcomes.values())
Fraction(1, 1)
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Protocol, cast

from exactodds.analysis.routing import key_winners, pair_probe_counts, route_bet
from exactodds.bets.bet import Bet, bets_given
from exactodds.engine.cardwalk import CardRound, enumerate_card_rounds
from exactodds.engine.coefficients import Polynomials, cached_polynomials, polynomials
from exactodds.engine.walk import (
    OutcomeTable,
    Winner,
    enumerate_rounds,
    require_countable,
)
from exactodds.errors import BetError, ExactOddsError, ShoeError
from exactodds.numbers import (
    decimal_string,
    percent_string,
    ratio_fraction,
    return_to_player_ratio,
    square_root_decimal_string,
)
from exactodds.rules import Rules, Tableau
from exactodds.shoe import Shoe

if TYPE_CHECKING:
    from exactodds.engine.cardterms import CardTerms

__all__ = [
    "Analysis",
    "BetAnalysis",
    "OutcomeCount",
    "analyze",
    "polynomials_for",
    "price_bet",
    "price_card_bet",
    "price_table",
]

_NEW = object.__new__


@dataclass(frozen=True)
class OutcomeCount:
    """How often one side wins (or the hands tie).

    >>> OutcomeCount("tie", 1, 10).probability
    Fraction(1, 10)
    """

    name: str
    count: int
    total: int

    def __post_init__(self) -> None:
        if (
            type(self.count) is not int
            or type(self.total) is not int
            or not 0 <= self.count <= self.total
            or self.total < 1
        ):
            raise ShoeError(
                f"OutcomeCount {self.name!r} counts {self.count!r} of {self.total!r} rounds; use "
                "whole numbers with 0 <= count <= total and total >= 1."
            )

    @property
    def probability(self) -> Fraction:
        """Exact probability of this outcome."""
        return Fraction(self.count, self.total)


class _BetSource(Protocol):
    """Where :meth:`BetAnalysis.from_source` reads a bet's counts and EV, by the bet's name."""

    def outcome_counts(self, name: str) -> Mapping[str, int]:
        """The bet's outcome counts, as :attr:`BetAnalysis.outcome_counts` holds them."""

    def expected_value_ratio(self, name: str) -> tuple[int, int]:
        """The bet's EV as an unreduced (numerator, positive denominator)."""


@dataclass(frozen=True)
class BetAnalysis:
    """Exact figures of one bet on one shoe.

    ``outcome_counts`` holds, per outcome name of the bet (every outcome of
    its pay table, in name order, those no round reaches with 0), the number
    of six-card sequences that settle the bet that way: the same form
    whichever path priced it.

    >>> from exactodds import Rules, Shoe
    >>> tie = analyze(Shoe.standard(decks=8), Rules()).bets["tie"]
    >>> tie.house_edge_percent(4), tie.push_probability
    ('14.3596%', Fraction(0, 1))
    """

    bet: Bet
    outcome_counts: Mapping[str, int]
    total: int

    @classmethod
    def with_expected_value(
        cls, bet: Bet, outcome_counts: Mapping[str, int], total: int, expected_value: Fraction
    ) -> BetAnalysis:
        """The analysis, its exact EV already known (the kernel's numerator): no second pass.

        >>> from exactodds.bets.bet import main_bets
        >>> tie = main_bets(Rules())[2]
        >>> counts = {"lose": 8, "win": 1}
        >>> BetAnalysis.with_expected_value(tie, counts, 9, Fraction(0)).expected_value
        Fraction(0, 1)
        >>> BetAnalysis(tie, counts, 9).expected_value == BetAnalysis.with_expected_value(
        ...     tie, counts, 9, Fraction(0)).expected_value
        True
        """
        result = cls(bet, outcome_counts, total)
        result.__dict__["expected_value"] = expected_value  # what the cached property keeps
        return result

    @classmethod
    def with_expected_value_ratio(
        cls,
        bet: Bet,
        outcome_counts: Mapping[str, int],
        total: int,
        numerator: int,
        denominator: int,
    ) -> BetAnalysis:
        """The analysis, its EV known as ``numerator / denominator`` (the kernel's integers).

        The same object as ``cls(bet, outcome_counts, total)``; no ``Fraction`` is built
        until :attr:`expected_value` is read, and :meth:`moment_ratio` gives the integers
        back without a pass over the outcomes.  Unchecked: the caller (the kernel's
        analyzer) guarantees the ratio is the EV of these counts.

        >>> from exactodds.bets.bet import main_bets
        >>> tie = main_bets(Rules())[2]
        >>> counts = {"lose": 8, "win": 1}
        >>> lazy = BetAnalysis.with_expected_value_ratio(tie, counts, 9, 0, 9)
        >>> lazy == BetAnalysis(tie, counts, 9), lazy.expected_value, lazy.moment_ratio()
        (True, Fraction(0, 1), (0, 9))
        """
        result: BetAnalysis = object.__new__(cls)
        # The three fields the frozen dataclass's __init__ sets (it checks nothing).
        fields = result.__dict__
        fields["bet"] = bet
        fields["outcome_counts"] = outcome_counts
        fields["total"] = total
        fields["_expected_value_ratio"] = (numerator, denominator)
        return result

    @classmethod
    def from_source(cls, bet: Bet, total: int, source: _BetSource) -> BetAnalysis:
        """The analysis of *bet*, its figures read from *source* when first asked for.

        ``outcome_counts`` is ``source.outcome_counts(bet.name)`` and the EV's unreduced
        ratio ``source.expected_value_ratio(bet.name)``, each fetched the first time it
        is read (by the attribute, equality, repr or a figure), then kept: the kernel's
        analyzer hands out one source per shoe for all its bets, so a bet whose EV alone
        is read costs no dict of counts.  The same object as ``cls(bet,
        source.outcome_counts(bet.name), total)`` otherwise; unchecked, as
        :meth:`with_expected_value_ratio`.

        >>> from exactodds.bets.bet import main_bets
        >>> class Counted:
        ...     def outcome_counts(self, name): return {"lose": 8, "win": 1}
        ...     def expected_value_ratio(self, name): return 0, 9
        >>> tie = main_bets(Rules())[2]
        >>> lazy = BetAnalysis.from_source(tie, 9, Counted())
        >>> lazy.expected_value, lazy == BetAnalysis(tie, {"lose": 8, "win": 1}, 9)
        (Fraction(0, 1), True)
        >>> lazy.counted_later
        Traceback (most recent call last):
        ...
        AttributeError: 'BetAnalysis' object has no attribute 'counted_later'
        """
        result: BetAnalysis = _NEW(cls)
        fields = result.__dict__
        fields["bet"] = bet
        fields["total"] = total
        fields["_source"] = source
        return result

    if not TYPE_CHECKING:  # only for from_source's lazy counts; typed code sees the fields

        def __getattr__(self, name: str) -> object:
            source = self.__dict__.get("_source") if name == "outcome_counts" else None
            if source is None:
                raise AttributeError(
                    f"{type(self).__name__!r} object has no attribute {name!r}", name=name, obj=self
                )
            self.__dict__["outcome_counts"] = found = source.outcome_counts(self.bet.name)
            return found

    @property
    def name(self) -> str:
        """The bet's name."""
        return self.bet.name

    @property
    def distribution(self) -> dict[Fraction, Fraction]:
        """Net result per unit staked -> exact probability, results ascending."""
        by_result: dict[Fraction, int] = defaultdict(int)
        for outcome, count in self.outcome_counts.items():
            by_result[self.bet.pay(outcome)] += count
        return {
            result: Fraction(count, self.total)
            for result, count in sorted(by_result.items())
            if count
        }

    def _moment(self, power: int) -> Fraction:
        return Fraction(*self.moment_ratio(power))

    def moment_ratio(self, power: int = 1) -> tuple[int, int]:
        """E[result**power] as an unreduced (numerator, positive denominator) of integers.

        Integers over one common denominator, so no Fraction is built;
        ``Fraction(*ratio)`` gives the exact value.

        >>> from exactodds import Rules, Shoe
        >>> tie = analyze(Shoe.standard(decks=1), Rules()).bets["tie"]
        >>> Fraction(*tie.moment_ratio()) == tie.expected_value
        True
        """
        if power == 1:
            fields = self.__dict__
            known: tuple[int, int] | None = fields.get("_expected_value_ratio")
            if known is None and "_source" in fields:
                known = fields["_expected_value_ratio"] = fields["_source"].expected_value_ratio(
                    self.bet.name
                )
            if known is not None:
                return known
        pays, denominator = self.bet.integer_pays(power)
        numerator = sum(count * pays[outcome] for outcome, count in self.outcome_counts.items())
        return numerator, self.total * denominator

    @cached_property
    def expected_value(self) -> Fraction:
        """Expected net result per unit staked (negative: the house wins); built once."""
        # Kept in the instance's __dict__, where later reads find it without a call (and
        # where the kernel's analyzer may have put it already).
        return ratio_fraction(*self.moment_ratio())

    @property
    def house_edge(self) -> Fraction:
        """The player's expected loss per unit staked: ``-expected_value``."""
        return -self.expected_value

    @property
    def variance(self) -> Fraction:
        """Variance of the net result per unit staked."""
        return Fraction(*self.variance_ratio())

    def variance_ratio(self) -> tuple[int, int]:
        """The variance as an unreduced (numerator, positive denominator) of integers.

        E[X^2] - E[X]^2 over one denominator: ``n2 / d2 - (n1 / d1)**2`` is
        ``(n2 d1^2 - n1^2 d2) / (d2 d1^2)``.

        >>> from exactodds import Rules, Shoe
        >>> tie = analyze(Shoe.standard(decks=1), Rules()).bets["tie"]
        >>> Fraction(*tie.variance_ratio()) == tie.variance
        True
        """
        numerator, denominator = self.moment_ratio()
        square_numerator, square_denominator = self.moment_ratio(2)
        scale = denominator * denominator
        return (
            square_numerator * scale - numerator * numerator * square_denominator,
            square_denominator * scale,
        )

    def standard_deviation(self, digits: int) -> str:
        """The standard deviation, correctly rounded to *digits* places."""
        return square_root_decimal_string(self.variance, digits)

    @cached_property
    def _counts_by_sign(self) -> tuple[int, int, int]:
        """Rounds that lose, push and win money (each outcome's pay sign, read once)."""
        by_sign = [0, 0, 0]
        pays, _ = self.bet.integer_pays()  # the signs of the pays, in integers
        for outcome, count in self.outcome_counts.items():
            pay = pays[outcome] if outcome in pays else self.bet.pay(outcome)  # (unknown: raises)
            by_sign[(pay > 0) - (pay < 0) + 1] += count
        return by_sign[0], by_sign[1], by_sign[2]

    @property
    def sign_counts(self) -> tuple[int, int, int]:
        """How many rounds lose, push and win money: the counts behind the three probabilities.

        >>> from exactodds import Rules, Shoe
        >>> analyze(Shoe.standard(decks=1), Rules()).bets["tie"].sign_counts
        (13285907072, 0, 1372227328)
        """
        return self._counts_by_sign

    def _probability(self, sign: int) -> Fraction:
        return Fraction(self._counts_by_sign[sign + 1], self.total)

    @property
    def win_probability(self) -> Fraction:
        """Probability that the bet returns more than the stake."""
        return self._probability(1)

    @property
    def push_probability(self) -> Fraction:
        """Probability that the stake comes back with nothing more (a net result of 0)."""
        return self._probability(0)

    @property
    def loss_probability(self) -> Fraction:
        """Probability that the bet loses money."""
        return self._probability(-1)

    @property
    def house_edge_per_resolved_bet(self) -> Fraction | None:
        """House edge counting only the rounds that do not push (``None`` if all push)."""
        ratio = self.house_edge_per_resolved_ratio()
        return None if ratio is None else Fraction(*ratio)

    def house_edge_per_resolved_ratio(self) -> tuple[int, int] | None:
        """:attr:`house_edge_per_resolved_bet` as unreduced integers (``None`` if all push).

        >>> from exactodds import Rules, Shoe
        >>> banker = analyze(Shoe.standard(decks=1), Rules()).bets["banker"]
        >>> Fraction(*banker.house_edge_per_resolved_ratio()) == banker.house_edge_per_resolved_bet
        True
        """
        resolved = self.total - self._counts_by_sign[1]
        if resolved == 0:
            return None
        numerator, denominator = self.moment_ratio()
        # house_edge / (resolved / total) = -numerator / (denominator * resolved / total)
        return -numerator * self.total, denominator * resolved

    def return_to_player(self, fee: Fraction = Fraction(0)) -> Fraction:
        """The return to player: ``(1 + EV) / (1 + fee)``, *fee* charged on every bet.

        The EV stays per unit staked, fee excluded; with no fee the RTP is one minus the
        house edge.

        >>> from exactodds import Rules, Shoe
        >>> banker = analyze(Shoe.standard(decks=8), Rules()).bets["banker"]
        >>> banker.return_to_player() == 1 - banker.house_edge
        True
        >>> banker.return_to_player(Fraction(1, 5)) == (1 + banker.expected_value) / Fraction(6, 5)
        True
        """
        return Fraction(*return_to_player_ratio(*self.moment_ratio(), fee))

    def house_edge_percent(self, digits: int) -> str:
        """The house edge as a percentage, correctly rounded."""
        return percent_string(self.house_edge, digits)

    def expected_value_decimal(self, digits: int) -> str:
        """The expected value as a correctly rounded decimal."""
        return decimal_string(self.expected_value, digits)


@dataclass(frozen=True)
class Analysis:
    """Everything :func:`analyze` found for one shoe under one set of rules.

    >>> from exactodds import Rules, Shoe
    >>> result = analyze(Shoe.standard(decks=1), Rules())
    >>> list(result.outcomes), list(result.bets)
    (['banker', 'player', 'tie'], ['banker', 'player', 'tie'])
    """

    shoe: Shoe
    rules: Rules
    outcomes: Mapping[str, OutcomeCount]
    bets: Mapping[str, BetAnalysis]
    #: Bets that cannot be priced on this shoe, with the reason (suited bets on a shoe
    #: known by rank only).
    unavailable: Mapping[str, str] = field(default_factory=dict)
    #: Every requested bet's name, priced or not, in the order requested.
    bet_names: tuple[str, ...] = ()

    @property
    def total(self) -> int:
        """How many six-card sequences the shoe holds: n(n-1)...(n-5) (infinite: 52^6)."""
        return self.shoe.sequences

    def expected_values(self) -> dict[str, Fraction]:
        """Every priced bet's exact EV, by name.

        The batch path's bets can give an EV straight from their counts
        (``expected_value_ratio``) without building each bet's analysis.

        >>> from exactodds import Shoe
        >>> analyze(Shoe.standard(decks=8)).expected_values()["tie"]
        Fraction(-103841353768, 723147898655)
        """
        ratio = getattr(self.bets, "expected_value_ratio", None)
        if ratio is None:
            return {name: result.expected_value for name, result in self.bets.items()}
        return {name: Fraction(*ratio(name)) for name in self.bets}

    @property
    def table(self) -> OutcomeTable:
        """The exact counts per round summary that the bets were priced from (cached)."""
        return enumerate_rounds(self.shoe, self.rules.tableau)


def price_bet(table: OutcomeTable, bet: Bet) -> BetAnalysis:
    """Settle *bet* on every round of *table* and count each outcome.

    >>> from exactodds import Rules, Shoe
    >>> from exactodds.engine.walk import enumerate_rounds
    >>> from exactodds.bets.bet import main_bets
    >>> player = main_bets(Rules())[1]
    >>> price_bet(enumerate_rounds(Shoe.standard(decks=8)), player).outcome_counts["win"]
    2230518282592256
    """
    if not isinstance(table, OutcomeTable) or not isinstance(bet, Bet):
        wrong, kind = (
            (table, "OutcomeTable") if not isinstance(table, OutcomeTable) else (bet, "Bet")
        )
        raise BetError(
            f"price_bet takes an OutcomeTable and a Bet, not {type(wrong).__name__} for the "
            f"{kind}; build the table with enumerate_rounds(shoe)."
        )
    counts: dict[str, int] = defaultdict(int)
    settle = bet.settle
    try:  # one guard for the whole table: the same sentence as Bet.settle_round's
        for summary, count in table.counts.items():
            counts[settle(summary)] += count
    except ExactOddsError:
        raise
    except Exception as error:
        raise bet.settle_failure(error) from error
    return _bet_analysis(bet, counts, table.total)


def analyze(shoe: Shoe, rules: Rules | None = None, bets: Iterable[Bet] | None = None) -> Analysis:
    """Exact odds of *shoe* under *rules*: the outcomes, and every bet priced.

    *bets* defaults to the Banker, Player and Tie bets as *rules* settle them.
    A bet that needs suits is not priced on a shoe known by rank only; it is
    listed in ``unavailable`` with the reason instead of being guessed at.

    >>> from exactodds import Rules, Shoe
    >>> analyze(Shoe.standard(decks=8), Rules(tie_pays=9)).bets["tie"].house_edge_percent(4)
    '4.8440%'
    >>> from exactodds.bets.side import side_bets
    >>> shoe = Shoe.standard(decks=8).remove("K")
    >>> list(analyze(shoe, Rules(), [side_bets()["perfect_pair"]]).unavailable)
    ['perfect_pair']
    >>> analyze(Shoe.from_ranks({"K": 3}), Rules())
    Traceback (most recent call last):
    ...
    exactodds.errors.ShoeError: The shoe holds 3 cards; a round is counted as a sequence of 6 cards, so a shoe needs at least 6.
    """
    rules = Rules.given(rules)
    chosen = bets_given(bets, rules)
    require_countable(shoe)
    card_bets = [bet for bet in chosen if bet.cards is not None]
    summary_bets = tuple(bet for bet in chosen if bet.cards is None)
    parts = _price_by_value(shoe, rules, summary_bets)
    if parts is None:
        parts = price_table(enumerate_rounds(shoe, rules.tableau), rules, summary_bets)
    if not card_bets:
        return Analysis(shoe, rules, *parts)
    outcomes, priced, unavailable, _ = parts
    priced = dict(priced) | {bet.name: price_card_bet(shoe, rules, bet) for bet in card_bets}
    in_order = {bet.name: priced[bet.name] for bet in chosen if bet.name in priced}
    return Analysis(shoe, rules, outcomes, in_order, unavailable, tuple(bet.name for bet in chosen))


def price_card_bet(shoe: Shoe, rules: Rules, bet: Bet) -> BetAnalysis:
    """Price a bet with card-level conditions by the card walk, at the detail it asks for, or,
    for a bet on every card of the round on a shoe of 52 cards or more, by its compiled card
    terms (the same counts; a compile of about 2 seconds an outcome, once per process, then a
    millisecond a shoe where the walk takes 7 to 10 seconds an 8-deck shoe).

    >>> from exactodds.bets.custom import parse_custom_bets
    >>> (bet,) = parse_custom_bets(
    ...     '[[bet]]\\nname = "red"\\n[[bet.outcome]]\\n'
    ...     'when = { player_first_two = { suited = true } }\\npays = 2\\n')
    >>> price_card_bet(Shoe.standard(decks=1), Rules(), bet).win_probability
    Fraction(4, 17)
    >>> price_card_bet(Shoe.standard(decks=1).remove("K"), Rules(), bet)
    Traceback (most recent call last):
    ...
    exactodds.errors.BetError: Bet 'red' reads suits or colours, and the shoe is known by rank only; name every card of the shoe and every card removed with its suit, such as KS or 7H.
    """
    view = bet.cards
    if view is None:
        raise BetError(f"Bet {bet.name!r} has no card-level conditions; price it with analyze().")
    if view.needs_suits and not shoe.suits_known:
        raise BetError(
            f"Bet {bet.name!r} reads suits or colours, and the shoe is known by rank only; name "
            "every card of the shoe and every card removed with its suit, such as KS or 7H."
        )
    compiled = _counts_by_terms(shoe, rules.tableau, bet)
    if compiled is not None:
        return _bet_analysis(bet, compiled, shoe.sequences)
    table = enumerate_card_rounds(shoe, view, rules.tableau)
    counts: dict[str, int] = defaultdict(int)
    settle = cast(Callable[[CardRound], str], bet.settle)
    try:
        for round_, count in table.counts.items():
            counts[settle(round_)] += count
    except ExactOddsError:
        raise
    except Exception as error:  # pragma: no cover - bet files' settles do not raise
        raise bet.settle_failure(error) from error
    return _bet_analysis(bet, counts, table.total)


#: From this many cards on, a card-level bet on every card of the round whose card terms
#: compile is priced by them; below it the card walk, which skips the classes a small shoe
#: lacks, is the quicker road.
_TERMS_FROM = 52


def _counts_by_terms(shoe: Shoe, tableau: Tableau, bet: Bet) -> dict[str, int] | None:
    """Each outcome's count of *bet* on *shoe* from its card terms, or ``None`` where the card
    walk is the road.

    A bet on every card of the round (All Red) is walked in 7 to 10 seconds an 8-deck shoe, and
    its terms compile in about 2 seconds an outcome, once per process, then price a shoe in a
    millisecond; a bet on a hand's first two cards (Perfect 9) is walked in half a second, less
    than its compile.  So the terms price a bet that reads every card, on a finite shoe of 52
    cards or more, within the compile bound.  The counts are the walk's, integer for integer; the
    outcome left out of the compile is the shoe's sequences less the others.
    """
    from exactodds.engine.cardterms import MOST_LEAVES, leaf_count

    view = bet.cards
    if view is None or not view.whole_round or shoe.infinite or shoe.cards < _TERMS_FROM:
        return None
    if leaf_count(view, tableau) > MOST_LEAVES:
        return None
    outcomes = sorted(bet.pay_table)
    rest = "lose" if "lose" in outcomes else outcomes[0]
    counts = {
        outcome: _outcome_terms(bet, tableau, outcome).evaluate(
            [shoe.rank_counts], [shoe.suit_counts] if view.needs_suits else None
        )[0]
        for outcome in outcomes
        if outcome != rest
    }
    counts[rest] = shoe.sequences - sum(counts.values())
    return counts


@lru_cache(maxsize=64)
def _outcome_terms(bet: Bet, tableau: Tableau, outcome: str) -> CardTerms:
    """The card terms of *bet*'s rounds settled as *outcome* (1 each), compiled once."""
    from exactodds.engine.cardterms import compile_card_terms

    assert bet.cards is not None
    settle = cast(Callable[[CardRound], str], bet.settle_round)
    return compile_card_terms(bet.cards, tableau, lambda round_: int(settle(round_) == outcome))


#: Below this many cards the walk is quicker than compiling a tableau's polynomials.
_WALK_BELOW = 52


def polynomials_for(shoe: Shoe, tableau: Tableau) -> Polynomials | None:
    """*tableau*'s count polynomials if they are the quicker road for *shoe*, else ``None``.

    ``None`` for an infinite shoe (the polynomials count without replacement; the walk counts
    with it) and for a shoe under a deck whose tableau no cache holds yet (the walk is quicker
    than compiling).

    >>> polynomials_for(Shoe.standard(decks=1), Tableau()) is not None
    True
    >>> polynomials_for(Shoe.infinite_decks(), Tableau()) is None
    True
    """
    if shoe.infinite:
        return None
    return polynomials(tableau) if shoe.cards >= _WALK_BELOW else cached_polynomials(tableau)


_Parts = tuple[dict[str, OutcomeCount], dict[str, BetAnalysis], dict[str, str], tuple[str, ...]]


def _price_by_value(shoe: Shoe, rules: Rules, bets: tuple[Bet, ...]) -> _Parts | None:
    """The parts of an :class:`Analysis` from the tableau's count polynomials, if they can be.

    They can when every bet reads either the value-level key alone (every main
    bet, most side bets: each key's count is a polynomial in the shoe's value
    counts, a few milliseconds to evaluate once the tableau's polynomials are
    compiled; they are cached on disk, :mod:`exactodds.engine.coefficients`) or
    the pair states of the first two cards alone (the pair bets: their joint
    counts have a closed form in the rank and card counts,
    :func:`~exactodds.analysis.routing.pair_probe_counts`).  ``None`` when a bet
    reads both, or when the shoe is so small that the walk is quicker than
    compiling polynomials that no cache holds yet; the walk then prices
    everything, with the same exact counts.

    >>> from exactodds.bets.side import side_bets
    >>> shoe = Shoe.standard(decks=8).remove("K")
    >>> chosen = tuple(side_bets()[name] for name in ("dragon7", "player_pair"))
    >>> by_form = _price_by_value(shoe, Rules(), chosen)[1]
    >>> walked = enumerate_rounds(shoe)
    >>> all(by_form[bet.name].outcome_counts == price_bet(walked, bet).outcome_counts
    ...     for bet in chosen)
    True
    >>> _price_by_value(Shoe.infinite_decks(), Rules(), chosen) is None  # the walk: with replacement
    True
    """
    compiled = polynomials_for(shoe, rules.tableau)
    if compiled is None:
        return None
    priced_bets = [bet for bet in bets if not (bet.needs_suits and not shoe.suits_known)]
    routes = [route_bet(bet, compiled.keys, (shoe.suits_known,)) for bet in priced_bets]
    if any(route.how == "walk" for route in routes):
        return None
    counts = compiled.key_counts(shoe.value_counts)
    pair_counts = (
        pair_probe_counts(shoe.rank_counts, shoe.suit_counts if shoe.suits_known else None)
        if any(route.how == "pairs" for route in routes)
        else []
    )
    total = shoe.sequences
    by_winner: dict[Winner, int] = dict.fromkeys(Winner, 0)
    for winner, count in zip(key_winners(compiled.keys), counts, strict=True):
        by_winner[winner] += count
    outcomes = {
        winner.value: OutcomeCount(winner.value, by_winner[winner], total)
        for winner in (Winner.BANKER, Winner.PLAYER, Winner.TIE)
    }
    priced: dict[str, BetAnalysis] = {}
    unavailable: dict[str, str] = {}
    for bet in bets:
        if bet.needs_suits and not shoe.suits_known:
            unavailable[bet.name] = SUITS_UNKNOWN
    for bet, route in zip(priced_bets, routes, strict=True):
        outcome_counts: dict[str, int] = defaultdict(int)
        by_state = (
            zip(route.key_outcomes, counts, strict=True)
            if route.how == "polynomial"
            else zip((outcome for _, outcome in route.pair_outcomes), pair_counts, strict=True)
        )
        for outcome, count in by_state:
            if count:
                outcome_counts[outcome] += count
        priced[bet.name] = _bet_analysis(bet, outcome_counts, total)
    return outcomes, priced, unavailable, tuple(bet.name for bet in bets)


def _bet_analysis(bet: Bet, counts: Mapping[str, int], total: int) -> BetAnalysis:
    """A bet's analysis from its outcome counts: every outcome of its pay table, in name order
    (as the pays are), 0 where no round settles it so."""
    for outcome in counts:
        bet.pay(outcome)  # every outcome the bet can produce must have a pay
    outcomes = sorted({*bet.pay_table, *counts})
    return BetAnalysis(bet, {outcome: counts.get(outcome, 0) for outcome in outcomes}, total)


def price_table(
    table: OutcomeTable,
    rules: Rules,
    bets: Iterable[Bet] | None = None,
    suits_unknown: str | None = None,
) -> tuple[dict[str, OutcomeCount], dict[str, BetAnalysis], dict[str, str], tuple[str, ...]]:
    """Outcomes, priced bets, unavailable bets (with reasons) and bet names of one table.

    The parts of an :class:`Analysis` after the shoe and rules; *suits_unknown*
    overrides the reason given for suited bets when the table has no suits.

    >>> from exactodds import Shoe
    >>> outcomes, priced, unavailable, names = price_table(
    ...     enumerate_rounds(Shoe.standard(decks=1)), Rules())
    >>> outcomes["tie"].count, names
    (1372227328, ('banker', 'player', 'tie'))
    """
    by_winner: dict[Winner, int] = defaultdict(int)
    for summary, count in table.counts.items():
        by_winner[summary.winner] += count
    outcomes = {
        winner.value: OutcomeCount(winner.value, by_winner[winner], table.total)
        for winner in (Winner.BANKER, Winner.PLAYER, Winner.TIE)
    }
    chosen = bets_given(bets, rules)
    priced: dict[str, BetAnalysis] = {}
    unavailable: dict[str, str] = {}
    for bet in chosen:
        if bet.needs_suits and not table.suits_known:
            unavailable[bet.name] = suits_unknown or SUITS_UNKNOWN
        else:
            priced[bet.name] = price_bet(table, bet)
    return outcomes, priced, unavailable, tuple(bet.name for bet in chosen)


#: Why a suited bet cannot be priced on a shoe known by rank only.
SUITS_UNKNOWN = (
    "This bet needs suits, and the shoe is known by rank only (its cards were given without "
    "suits); name every card of the shoe and every card removed with its suit, such as KS or "
    "7H."
)
