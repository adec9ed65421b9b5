"""The winning-player review: a player's logged bets against the exact EV of every moment.

:func:`review` replays a log (:mod:`exactodds.studies.review_log`) card by card on the shoe
it was dealt from and prices every bet of the log, placed or not, on the composition the
player had seen (the full shoe less the cards dealt in that shoe so far and the burned cards
shown): the exact EV of a composition is :func:`~exactodds.analysis.single.analyze`'s, the
same as ``exactodds odds --shoe`` gives, cached by composition. For each bet and in total:

* **wagered**, **actual** (the net result of the rounds as dealt) and **theoretical**
  (the sum of stake x exact EV at the moment each bet was placed), all exact;
* **luck**: the probability of a result at least as good as the actual one when each round's
  net result is drawn from its exact distribution at its moment (several bets on one round
  jointly, from the round's exact counts), the rounds taken as independent. Exact, by
  convolution over integer weights, while the work is bounded (:data:`EXACT_WORK_LIMIT`),
  else a normal approximation, labelled so. **Luck without information** is the same
  probability when each stake meets the bet's distribution off the top of a full shoe: the
  chance of doing as well with the same stakes and no knowledge of the cards;
* **correlation** (Pearson, over every round of the log, stake 0 where the bet was not
  placed) of the stakes with the exact EV and with a count's true count (the count's tags
  per rank, running count of every card seen in the shoe, divided by the unseen decks);
* **positive-EV opportunities**: rounds whose exact EV was above 0, and the share bet on;
* **likelihood ratios** of two models of whether the bet was placed each round, each
  against the model "bets independently of the cards" (placed with a fixed probability,
  the observed share): "follows the exact EV" (placed when the exact EV is above 0, skipped
  otherwise, with a fixed chance of error, at most 1/2) and "follows the count" (the same,
  with the signal "true count at least T", T the trigger that fits best). Each model's
  one parameter is at its maximum-likelihood value; the count model fits T as well.

>>> from exactodds import Rules, Shoe
>>> from exactodds.bets.catalogue import select_bets
>>> from exactodds.studies.review_log import read_log
>>> shoe = Shoe.parse("A=4,2=4,3=4,4=4,5=4,6=4,7=4,8=4,9=4,T=16")
>>> log = read_log('{"cards": "8 T 3 9", "bets": {"banker": 1}}\\n{"cards": "2 3 4 5"}\\n')
>>> result = review(log, ReviewSpec(shoe, Rules(), tuple(select_bets("all"))))
>>> total = result.total
>>> total.wagered, total.actual, total.luck.method
(Fraction(1, 1), Fraction(19, 20), 'exact convolution')
>>> review(read_log('{"cards": "8 T 3", "bets": {"banker": 1}}'), ReviewSpec(shoe, Rules(), tuple(select_bets("all"))))
Traceback (most recent call last):
...
exactodds.studies.review_log.ReviewError: Line 1 of the log: the round's cards 8 T 3 stop before the Banker's second card; give every card of the round in dealing order.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, reduce
from typing import Any

from exactodds.analysis.routing import BetRoute, route_bet
from exactodds.analysis.single import Analysis
from exactodds.bets.bet import Bet
from exactodds.cards import RANKS, Card, parse_cards
from exactodds.engine.coefficients import polynomials
from exactodds.engine.walk import RoundSummary, enumerate_rounds, sequences
from exactodds.errors import ExactOddsError
from exactodds.numbers import decimal_string, fraction_string, square_root_decimal_string
from exactodds.rules import Rules, next_draw
from exactodds.shoe import Shoe
from exactodds.studies.review_log import BetLog, LogHeader, ReviewError

__all__ = [
    "EXACT_WORK_LIMIT",
    "BetReview",
    "Correlation",
    "Likelihood",
    "Luck",
    "Review",
    "ReviewSpec",
    "RoundRecord",
    "StakeChart",
    "luck_probability",
    "review",
]

#: Exact convolution while (lattice points reached) x (results of the next round) x (bits of
#: the weights), summed over the rounds, stays below this (about a second or two; 160 rounds of
#: Banker at one unit come to about 7 * 10**9, so they take the normal approximation).
EXACT_WORK_LIMIT = 2 * 10**9
Distribution = Mapping[Fraction, Fraction]


@dataclass(frozen=True)
class ReviewSpec:
    """What a review needs besides the log: the full shoe each shoe of the log starts from,
    the rules, the bets the log's names are looked up in (their pays), each bet's count
    tags (13, A to K; a bet not named gets the linear count its effects of removal give),
    each count's trigger (fitted when not given) and the bound of the exact convolution."""

    shoe: Shoe
    rules: Rules
    bets: tuple[Bet, ...]
    counts: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    triggers: Mapping[str, Fraction] = field(default_factory=dict)
    exact_work_limit: int = EXACT_WORK_LIMIT


@dataclass(frozen=True)
class RoundRecord:
    """One round replayed: where it is, the cards seen before it, each bet's exact EV (placed
    or not), stake (0 if not placed), net result, and each bet's true count before it."""

    line: int
    shoe: str
    round: int
    cards: tuple[str, ...]
    cards_seen: int
    expected_values: Mapping[str, Fraction]
    stakes: Mapping[str, Fraction]
    results: Mapping[str, Fraction]
    true_counts: Mapping[str, Fraction]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data, exact fractions as text."""
        return {
            "line": self.line,
            "shoe": self.shoe,
            "round": self.round,
            "cards": " ".join(self.cards),
            "cards_seen": self.cards_seen,
            "bets": {
                name: {
                    "stake": fraction_string(self.stakes[name]),
                    "expected_value": fraction_string(self.expected_values[name]),
                    "result": fraction_string(self.results[name]),
                    "true_count": fraction_string(self.true_counts[name]),
                }
                for name in self.expected_values
            },
        }


@dataclass(frozen=True)
class Luck:
    """The probability of a result at least as good as the actual one, and how it was had.

    ``probability`` is exact (a Fraction) with ``method`` "exact convolution", or a float
    with "normal approximation"; ``z_score`` is (actual - mean) / standard deviation.
    """

    probability: Fraction | float
    method: str
    mean: Fraction
    variance: Fraction
    z_score: float | None

    def decimal(self, digits: int) -> str:
        """The probability, correctly rounded when exact; ``~`` marks an approximation.

        >>> Luck(Fraction(1, 3), "exact convolution", Fraction(0), Fraction(1), 0.0).decimal(3)
        '0.333'
        >>> Luck(0.25, "normal approximation", Fraction(0), Fraction(1), 0.67).decimal(2)
        '~0.25'
        """
        if isinstance(self.probability, Fraction):
            return decimal_string(self.probability, digits)
        return "~" + decimal_string(Fraction(self.probability), digits)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        exact = isinstance(self.probability, Fraction)
        return {
            "probability": fraction_string(self.probability)
            if isinstance(self.probability, Fraction)
            else None,
            "approximate": None if exact else self.probability,
            "decimal": self.decimal(10),
            "method": self.method,
            "mean": fraction_string(self.mean),
            "variance": fraction_string(self.variance),
            "z_score": self.z_score,
        }


@dataclass(frozen=True)
class Correlation:
    """A Pearson correlation held exactly: its sign and its square (``None`` if undefined)."""

    sign: int
    squared: Fraction | None
    pairs: int

    def decimal(self, digits: int) -> str:
        """The correlation, correctly rounded (``n/a`` when one side never varies).

        >>> Correlation(-1, Fraction(1, 4), 10).decimal(2), Correlation(0, None, 10).decimal(2)
        ('-0.50', 'n/a')
        """
        if self.squared is None:
            return "n/a"
        root = square_root_decimal_string(self.squared, digits)
        return ("-" if self.sign < 0 and self.squared else "") + root

    def to_dict(self, digits: int = 6) -> dict[str, Any]:
        """JSON-ready data: the exact square, its sign, and the decimal."""
        return {
            "squared": None if self.squared is None else fraction_string(self.squared),
            "sign": self.sign,
            "decimal": None if self.squared is None else self.decimal(digits),
        }


@dataclass(frozen=True)
class Likelihood:
    """A model's log10 likelihood ratio against betting independently of the cards.

    ``parameter`` is the fitted error rate; ``trigger`` the count's trigger (count model).
    """

    model: str
    log10_ratio: float
    error_rate: Fraction
    trigger: Fraction | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "model": self.model,
            "log10_ratio": self.log10_ratio,
            "error_rate": fraction_string(self.error_rate),
            "trigger": None if self.trigger is None else fraction_string(self.trigger),
        }


@dataclass(frozen=True)
class BetReview:
    """The figures of one bet (or of every bet, ``name`` "total")."""

    name: str
    rounds: int
    bets_placed: int
    wagered: Fraction
    actual: Fraction
    theoretical: Fraction
    luck: Luck
    luck_without_information: Luck
    stake_and_ev: Correlation | None = None
    stake_and_count: Correlation | None = None
    count_tags: tuple[int, ...] = ()
    positive_opportunities: int = 0
    positive_taken: int = 0
    follows_ev: Likelihood | None = None
    follows_count: Likelihood | None = None

    @property
    def positive_share(self) -> Fraction | None:
        """The share of the positive-EV rounds the bet was placed on (None when none).

        >>> luck = Luck(Fraction(1), "exact convolution", Fraction(0), Fraction(0), None)
        >>> zero = Fraction(0)
        >>> BetReview("tie", 9, 1, zero, zero, zero, luck, luck, positive_opportunities=4,
        ...           positive_taken=1).positive_share
        Fraction(1, 4)
        """
        if not self.positive_opportunities:
            return None
        return Fraction(self.positive_taken, self.positive_opportunities)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data, exact fractions as text."""
        data: dict[str, Any] = {
            "rounds": self.rounds,
            "bets_placed": self.bets_placed,
            "wagered": fraction_string(self.wagered),
            "actual": fraction_string(self.actual),
            "theoretical": fraction_string(self.theoretical),
            "luck": self.luck.to_dict(),
            "luck_without_information": self.luck_without_information.to_dict(),
        }
        if self.name == "total":
            return data
        share = self.positive_share
        assert self.stake_and_ev is not None and self.stake_and_count is not None
        assert self.follows_ev is not None and self.follows_count is not None
        return data | {
            "correlation_with_ev": self.stake_and_ev.to_dict(),
            "correlation_with_count": self.stake_and_count.to_dict(),
            "count_tags": list(self.count_tags),
            "positive_ev_rounds": self.positive_opportunities,
            "positive_ev_rounds_bet": self.positive_taken,
            "positive_ev_share_taken": None if share is None else fraction_string(share),
            "likelihood": [self.follows_ev.to_dict(), self.follows_count.to_dict()],
        }


@dataclass(frozen=True)
class StakeChart:
    """The data of one bet's chart, round by round over the log: the stake (0 where not
    placed) and the exact EV per unit staked, each exact, as the JSON's rounds hold them.

    >>> chart = StakeChart("tie", (Fraction(0), Fraction(5)), (Fraction(-1, 7), Fraction(1, 9)))
    >>> chart.rounds
    (1, 2)
    """

    bet: str
    stakes: tuple[Fraction, ...]
    expected_values: tuple[Fraction, ...]

    @property
    def rounds(self) -> tuple[int, ...]:
        """The rounds' numbers in the log, from 1."""
        return tuple(range(1, len(self.stakes) + 1))


#: What each figure is and assumes, in the order the report lists them.
METHODS: tuple[tuple[str, str], ...] = (
    (
        "theoretical",
        "the sum over the bets placed of stake x the bet's exact EV on the cards not yet seen "
        "(the full shoe less the cards dealt in that shoe before the round and the burned "
        "cards shown), as exactodds odds --shoe prices a composition",
    ),
    (
        "luck",
        "P(a result at least the actual one), each round's net result drawn from its exact "
        "distribution on the cards not yet seen (bets on one round jointly), the rounds taken "
        "as independent; exact convolution while the work is bounded, else a normal "
        "approximation (labelled ~)",
    ),
    (
        "luck without information",
        "the same with each stake meeting its bet's distribution off the top of a full shoe: "
        "how likely the result is for a player who does not see the cards",
    ),
    (
        "correlation",
        "Pearson over every round of the log, stake 0 where the bet was not placed, with the "
        "exact EV and with the true count (running count of the cards seen / unseen decks)",
    ),
    (
        "likelihood ratio",
        "log10 of max L(model) / max L(independent): independent = placed each round with a "
        "fixed probability; follows EV = placed when the exact EV > 0, skipped otherwise, "
        "wrong with a fixed probability at most 1/2; follows count = the same with the signal "
        "true count >= T, T fitted (one more parameter); whether a bet was placed only, not "
        "its size",
    ),
)


@dataclass(frozen=True)
class Review:
    """A log reviewed: each bet's figures, the total's, every round, the spec's shoe and rules."""

    spec: ReviewSpec
    source: str
    suits_known: bool
    shoes: int
    rounds: tuple[RoundRecord, ...]
    bets: tuple[BetReview, ...]
    total: BetReview
    #: The log's header, if it has one (the settings it gives, as written).
    header: LogHeader | None = None

    @cached_property
    def charts(self) -> tuple[StakeChart, ...]:
        """Each bet's stake against its exact EV, round by round (what the chart draws)."""
        return tuple(
            StakeChart(
                figure.name,
                tuple(record.stakes[figure.name] for record in self.rounds),
                tuple(record.expected_values[figure.name] for record in self.rounds),
            )
            for figure in self.bets
        )

    def chart(self, bet: str) -> StakeChart:
        """The chart of *bet*, one of the bets of the log."""
        for chart in self.charts:
            if chart.bet == bet:
                return chart
        raise ReviewError(
            f"The log names no bet {bet!r}; its bets are {', '.join(b.name for b in self.bets)}."
        )

    def to_dict(self) -> dict[str, Any]:
        """The review as its JSON contract: exact fractions as text, floats where estimated."""
        header = self.header
        return {
            "log": self.source,
            "shoe": self.spec.shoe.to_dict(),
            "suits_known": self.suits_known,
            "shoes": self.shoes,
            "rounds": len(self.rounds),
            "bets": {bet.name: bet.to_dict() for bet in self.bets},
            "total": self.total.to_dict(),
            "header": None
            if header is None
            else {"line": header.line, "settings": dict(header.settings)},
            "methods": dict(METHODS),
            "round_by_round": [record.to_dict() for record in self.rounds],
        }


# Replaying the log ---------------------------------------------------------------------------


def _line_error(line: int, source: str, text: str) -> ReviewError:
    return ReviewError(f"Line {line:,} of {source}: {text}.")


def _cards(text: str, what: str, line: int, source: str, suits: bool) -> tuple[Card, ...]:
    try:
        cards = parse_cards(text)
    except ExactOddsError as error:
        message = str(error)
        raise _line_error(
            line, source, f"the {what}: {message[:1].lower()}{message[1:-1]}"
        ) from None
    return cards if suits else tuple(Card(card.rank) for card in cards)


def _take(shoe: Shoe, cards: Sequence[Card], line: int, source: str) -> Shoe:
    """*shoe* less *cards*, or one sentence: the card the shoe cannot hold."""
    try:
        return shoe.remove(cards)
    except ExactOddsError:
        pass
    for index in range(len(cards)):
        try:
            shoe.remove(cards[: index + 1])
        except ExactOddsError:
            card = cards[index].symbol
            raise _line_error(
                line,
                source,
                f"the shoe holds no more {card} (every {card} of the shoe was dealt before); "
                "the cards cannot come from this shoe",
            ) from None
    raise AssertionError("unreachable")  # pragma: no cover


_PLACES = ("first", "second", "third")


def _dealt_round(cards: Sequence[Card], rules: Rules, line: int, source: str) -> RoundSummary:
    """The round the *cards* deal, in dealing order; one sentence if they break the tableau."""
    hands: dict[str, list[Card]] = {"player": [], "banker": []}
    shown = " ".join(card.symbol for card in cards)
    for used, card in enumerate(cards):
        side = next_draw(rules.tableau, *(_values(hands[name]) for name in ("player", "banker")))
        if side is None:
            raise _line_error(
                line,
                source,
                f"the round's cards {shown} go on after the round ends (the tableau deals "
                f"{used} cards); give each round on its own line",
            )
        hands[side].append(card)
    side = next_draw(rules.tableau, *(_values(hands[name]) for name in ("player", "banker")))
    if side is not None:
        place = _PLACES[len(hands[side])]
        raise _line_error(
            line,
            source,
            f"the round's cards {shown} stop before the {side.capitalize()}'s {place} card; "
            "give every card of the round in dealing order",
        )
    return _summary(hands["player"], hands["banker"], rules)


def _values(cards: Sequence[Card]) -> list[int]:
    return [card.rank.value_in_play for card in cards]


def _summary(player: Sequence[Card], banker: Sequence[Card], rules: Rules) -> RoundSummary:
    def total(cards: Sequence[Card]) -> int:
        return sum(_values(cards)) % 10

    def suited(cards: Sequence[Card]) -> bool | None:
        if cards[0].suit is None:
            return None
        return cards[0] == cards[1]

    naturals = rules.tableau.natural_totals
    return RoundSummary(
        total(player),
        total(banker),
        len(player),
        len(banker),
        total(player[:2]) in naturals,
        total(banker[:2]) in naturals,
        player[0].rank is player[1].rank,
        banker[0].rank is banker[1].rank,
        suited(player),
        suited(banker),
    )


class _Pricer:
    """Every bet of the log priced on a composition, once per composition, by the Analyzer
    (the compiled kernel where it is built; the same exact values as ``analyze``), and the
    counts the joint distributions of a round read, once per composition."""

    def __init__(self, rules: Rules, bets: tuple[Bet, ...]) -> None:
        from exactodds.analysis.many import Analyzer

        self.rules = rules
        self.bets = bets
        self.analyzer = Analyzer(rules, bets)
        self.analyses: dict[Shoe, Analysis] = {}
        self.compiled = polynomials(rules.tableau)
        self.routes: dict[tuple[Bet, bool], BetRoute] = {}
        self.key_counts: dict[Shoe, list[int]] = {}

    def analysis(self, shoe: Shoe) -> Analysis:
        found = self.analyses.get(shoe)
        if found is None:
            found = self.analyses[shoe] = self.analyzer.analyze(shoe)
        return found

    def route(self, bet: Bet, suits: bool) -> BetRoute:
        found = self.routes.get((bet, suits))
        if found is None:
            found = self.routes[bet, suits] = route_bet(bet, self.compiled.keys, (suits,))
        return found

    def counts(self, shoe: Shoe) -> list[int]:
        found = self.key_counts.get(shoe)
        if found is None:
            found = self.key_counts[shoe] = self.compiled.key_counts(shoe.value_counts)
        return found


def _log_bets(log: BetLog, spec: ReviewSpec, suits: bool) -> tuple[Bet, ...]:
    """The spec's bets the log names, in the log's order; an unknown one is refused."""
    catalogue = {bet.name: bet for bet in spec.bets}
    for name in log.bet_names:
        if name not in catalogue:
            line = log.named_at.get(name, log.rounds[0].line)
            import difflib

            close = difflib.get_close_matches(name, list(catalogue), n=1)
            hint = f"did you mean {close[0]}?" if close else "exactodds bets lists them"
            raise _line_error(line, log.source, f"unknown bet {name!r} ({hint})")
        bet = catalogue[name]
        if bet.cards is not None:
            raise ReviewError(
                f"Bet {name!r} has card-level conditions; the review prices bets on rounds."
            )
        if bet.needs_suits and not suits:
            raise ReviewError(
                f"Bet {name!r} needs suits; give every card of the log with its suit (such as "
                "KS) and a shoe that knows its suits."
            )
    return tuple(catalogue[name] for name in log.bet_names)


def _replay(
    log: BetLog,
    spec: ReviewSpec,
    pricer: _Pricer,
    suits: bool,
    tags: Mapping[str, tuple[int, ...]],
) -> tuple[list[RoundRecord], list[Shoe], int]:
    """Every round's record, the composition it was priced on, and the number of shoes."""
    full = spec.shoe if suits else spec.shoe.without_suits()
    bets = pricer.bets
    records: list[RoundRecord] = []
    states: list[Shoe] = []
    shoe_name, state, number, shoes = None, full, 0, 0
    for logged in log.rounds:
        if logged.shoe != shoe_name:
            shoe_name, state, number, shoes = logged.shoe, full, 0, shoes + 1
        number += 1
        burn = _cards(logged.burn, "burned cards", logged.line, log.source, suits)
        state = _take(state, burn, logged.line, log.source)
        cards = _cards(logged.cards, "cards", logged.line, log.source, suits)
        after = _take(state, cards, logged.line, log.source)
        summary = _dealt_round(cards, spec.rules, logged.line, log.source)
        analysis = _analysis(pricer, state, logged.line, log.source)
        seen = full.cards - state.cards
        records.append(
            RoundRecord(
                logged.line,
                logged.shoe,
                number,
                tuple(card.symbol for card in cards),
                seen,
                {bet.name: analysis.bets[bet.name].expected_value for bet in bets},
                {bet.name: logged.bets.get(bet.name, Fraction(0)) for bet in bets},
                {
                    bet.name: logged.bets.get(bet.name, Fraction(0)) * bet.pay(bet.settle(summary))
                    for bet in bets
                },
                {bet.name: _true_count(tags[bet.name], full, state) for bet in bets},
            )
        )
        states.append(state)
        state = after
    return records, states, shoes


def _analysis(pricer: _Pricer, state: Shoe, line: int, source: str) -> Analysis:
    if state.cards < 6:
        raise _line_error(
            line,
            source,
            f"the shoe holds {state.cards} cards before this round, too few to price a round; "
            "mark a new shoe where one began",
        )
    return pricer.analysis(state)


def _true_count(tags: tuple[int, ...], full: Shoe, state: Shoe) -> Fraction:
    """The running count of the cards seen (tags by rank, A to K) per unseen deck, exactly."""
    running = sum(
        tag * (before - left)
        for tag, before, left in zip(tags, full.rank_counts, state.rank_counts, strict=True)
    )
    return Fraction(running * 52, state.cards)


def _tags(spec: ReviewSpec, bets: tuple[Bet, ...], suits: bool) -> dict[str, tuple[int, ...]]:
    """Each bet's count tags: the spec's, or the linear count of its effects of removal."""
    missing = [bet for bet in bets if bet.name not in spec.counts]
    tags = {bet.name: tuple(spec.counts[bet.name]) for bet in bets if bet.name in spec.counts}
    if missing:
        from exactodds.analysis.removal import effect_of_removal

        full = spec.shoe if suits else spec.shoe.without_suits()
        removal = effect_of_removal(full, spec.rules, missing)
        for bet in missing:
            count = removal.linear_count(bet.name)
            tags[bet.name] = tuple(count.tags.get(rank.symbol, 0) for rank in RANKS)
    return tags


# The distributions of the rounds --------------------------------------------------------------


def _joint(pricer: _Pricer, shoe: Shoe, stakes: Mapping[Bet, Fraction]) -> dict[Fraction, Fraction]:
    """The exact distribution of a round's net result for several *stakes* on one *shoe*:
    from the tableau's key counts when every bet reads only the values, else the walk."""
    routes = [pricer.route(bet, shoe.suits_known) for bet in stakes]
    counts: dict[Fraction, int] = defaultdict(int)
    if all(route.how == "polynomial" for route in routes):
        pays = [
            [stake * bet.pay(outcome) for outcome in route.key_outcomes]
            for (bet, stake), route in zip(stakes.items(), routes, strict=True)
        ]
        for index, count in enumerate(pricer.counts(shoe)):
            if count:
                counts[sum((pay[index] for pay in pays), Fraction(0))] += count
    else:
        for summary, count in enumerate_rounds(shoe, pricer.rules.tableau).counts.items():
            net = sum(
                (stake * bet.pay(bet.settle(summary)) for bet, stake in stakes.items()), Fraction(0)
            )
            counts[net] += count
    total = sequences(shoe.cards)
    return {value: Fraction(count, total) for value, count in sorted(counts.items()) if count}


def _distribution(
    pricer: _Pricer, shoe: Shoe, stakes: Mapping[Bet, Fraction]
) -> dict[Fraction, Fraction]:
    analysis = pricer.analysis(shoe)
    placed = {bet: stake for bet, stake in stakes.items() if stake}
    if len(placed) == 1:
        ((bet, stake),) = placed.items()
        return {
            stake * value: probability
            for value, probability in analysis.bets[bet.name].distribution.items()
        }
    return _joint(pricer, shoe, placed)


def _moments(distribution: Distribution) -> tuple[Fraction, Fraction]:
    mean = sum((value * p for value, p in distribution.items()), Fraction(0))
    square = sum((value * value * p for value, p in distribution.items()), Fraction(0))
    return mean, square - mean * mean


def luck_probability(
    distributions: Sequence[Distribution], actual: Fraction, limit: int = EXACT_WORK_LIMIT
) -> Luck:
    """P(the sum of independent draws from *distributions* >= *actual*), exact when the work
    of the convolution stays within *limit*, else by the normal approximation.

    >>> coin = {Fraction(-1): Fraction(1, 2), Fraction(1): Fraction(1, 2)}
    >>> luck_probability([coin, coin, coin], Fraction(1)).probability
    Fraction(1, 2)
    >>> luck_probability([coin] * 3, Fraction(1), limit=1).method
    'normal approximation'
    """
    mean = sum((_moments(d)[0] for d in distributions), Fraction(0))
    variance = sum((_moments(d)[1] for d in distributions), Fraction(0))
    z_score = float((actual - mean) / Fraction(math.sqrt(variance))) if variance else None
    denominator = reduce(math.lcm, (value.denominator for d in distributions for value in d), 1)
    lattices = [_lattice(d, denominator) for d in distributions]
    if _work(lattices) <= limit:
        probability = _exact_tail(lattices, math.ceil(actual * denominator))
        return Luck(probability, "exact convolution", mean, variance, z_score)
    if z_score is None:
        approximate = 1.0 if actual <= mean else 0.0
    else:
        approximate = 0.5 * math.erfc(z_score / math.sqrt(2))
    return Luck(approximate, "normal approximation", mean, variance, z_score)


def _lattice(distribution: Distribution, denominator: int) -> tuple[dict[int, int], int]:
    """(lattice point -> integer weight, the weights' total) of one distribution."""
    scale = reduce(math.lcm, (p.denominator for p in distribution.values()), 1)
    weights = {int(value * denominator): int(p * scale) for value, p in distribution.items() if p}
    return weights, scale


def _work(lattices: Sequence[tuple[dict[int, int], int]]) -> int:
    """A bound on the convolution's work, before any is done: points x results x bits."""
    work, points, low, high, bits = 0, 1, 0, 0, 0
    for weights, scale in lattices:
        bits += scale.bit_length()
        work += points * len(weights) * max(bits, 64)
        low, high = low + min(weights), high + max(weights)
        points = min(points * len(weights), high - low + 1)
    return work


def _exact_tail(lattices: Sequence[tuple[dict[int, int], int]], threshold: int) -> Fraction:
    """The exact P(sum >= threshold / denominator) by convolution over integer weights (a
    dense array of Python integers, so each step is a few whole-array products)."""
    import numpy

    low, current, total = 0, numpy.array([1], dtype=object), 1
    for weights, scale in lattices:
        first, last = min(weights), max(weights)
        following = numpy.zeros(len(current) + last - first, dtype=object)
        for step, weight in weights.items():
            start = step - first
            following[start : start + len(current)] += current * weight
        low, current, total = low + first, following, total * scale
    start = max(threshold - low, 0)
    return Fraction(int(current[start:].sum()) if start < len(current) else 0, total)


# The figures -----------------------------------------------------------------------------------


def _correlation(pairs: Iterable[tuple[Fraction, Fraction]]) -> Correlation:
    points = list(pairs)
    count = len(points)
    mean_x = sum((x for x, _ in points), Fraction(0)) / count
    mean_y = sum((y for _, y in points), Fraction(0)) / count
    covariance = sum(((x - mean_x) * (y - mean_y) for x, y in points), Fraction(0))
    spread_x = sum(((x - mean_x) ** 2 for x, _ in points), Fraction(0))
    spread_y = sum(((y - mean_y) ** 2 for _, y in points), Fraction(0))
    if not spread_x or not spread_y:
        return Correlation(0, None, count)
    sign = (covariance > 0) - (covariance < 0)
    return Correlation(sign, covariance * covariance / (spread_x * spread_y), count)


def _log_likelihood(agree: int, disagree: int) -> tuple[float, Fraction]:
    """The binomial log10 likelihood at the fitted rate (at most 1/2), and the rate."""
    total = agree + disagree
    rate = min(Fraction(disagree, total), Fraction(1, 2))
    value = 0.0
    if disagree:
        value += disagree * math.log10(rate)
    if agree:
        value += agree * math.log10(1 - rate)
    return value, rate


def _independent(placed: Sequence[bool]) -> float:
    taken = sum(placed)
    rest = len(placed) - taken
    share = Fraction(taken, len(placed))
    return (taken * math.log10(share) if taken else 0.0) + (
        rest * math.log10(1 - share) if rest else 0.0
    )


def _follows(placed: Sequence[bool], signal: Sequence[bool]) -> tuple[float, Fraction]:
    agree = sum(p == s for p, s in zip(placed, signal, strict=True))
    return _log_likelihood(agree, len(placed) - agree)


def _count_model(
    placed: Sequence[bool], counts: Sequence[Fraction], trigger: Fraction | None
) -> tuple[float, Fraction, Fraction]:
    """The count model's (log10 likelihood, error rate, trigger), the trigger fitted if None."""
    # Every distinct count, and one above them all (never bet): the independent model's
    # likelihood is then within reach, so a fitted count never scores below it.
    candidates = [trigger] if trigger is not None else [*sorted(set(counts)), max(counts) + 1]
    best: tuple[float, Fraction, Fraction] | None = None
    for candidate in candidates:
        value, rate = _follows(placed, [count >= candidate for count in counts])
        if best is None or value > best[0]:
            best = (value, rate, candidate)
    assert best is not None
    return best


def _bet_review(
    bet: Bet,
    records: Sequence[RoundRecord],
    luck: tuple[Luck, Luck],
    tags: tuple[int, ...],
    trigger: Fraction | None,
) -> BetReview:
    name = bet.name
    stakes = [record.stakes[name] for record in records]
    values = [record.expected_values[name] for record in records]
    counts = [record.true_counts[name] for record in records]
    placed = [stake > 0 for stake in stakes]
    independent = _independent(placed)
    ev_value, ev_rate = _follows(placed, [value > 0 for value in values])
    count_value, count_rate, fitted = _count_model(placed, counts, trigger)
    positive = [value > 0 for value in values]
    return BetReview(
        name=name,
        rounds=len(records),
        bets_placed=sum(placed),
        wagered=sum(stakes, Fraction(0)),
        actual=sum((record.results[name] for record in records), Fraction(0)),
        theoretical=sum((s * v for s, v in zip(stakes, values, strict=True)), Fraction(0)),
        luck=luck[0],
        luck_without_information=luck[1],
        stake_and_ev=_correlation(zip(stakes, values, strict=True)),
        stake_and_count=_correlation(zip(stakes, counts, strict=True)),
        count_tags=tags,
        positive_opportunities=sum(positive),
        positive_taken=sum(p and s for p, s in zip(positive, placed, strict=True)),
        follows_ev=Likelihood("follows the exact EV", ev_value - independent, ev_rate),
        follows_count=Likelihood(
            "follows the count", count_value - independent, count_rate, fitted
        ),
    )


def _lucks(
    chosen: Sequence[Bet],
    records: Sequence[RoundRecord],
    states: Sequence[Shoe],
    full: Shoe,
    spec: ReviewSpec,
    pricer: _Pricer,
) -> tuple[Luck, Luck]:
    """The luck of *chosen* bets together: given the cards seen, and off the top of the shoe."""
    seen: list[Distribution] = []
    blind: list[Distribution] = []
    actual = Fraction(0)
    for record, state in zip(records, states, strict=True):
        stakes = {bet: record.stakes[bet.name] for bet in chosen if record.stakes[bet.name]}
        if not stakes:
            continue
        actual += sum((record.results[bet.name] for bet in stakes), Fraction(0))
        seen.append(_distribution(pricer, state, stakes))
        blind.append(_distribution(pricer, full, stakes))
    limit = spec.exact_work_limit
    return luck_probability(seen, actual, limit), luck_probability(blind, actual, limit)


def review(log: BetLog, spec: ReviewSpec) -> Review:
    """The winning-player review of *log* under *spec* (see the module's guide).

    Every problem of the log (a card the shoe cannot hold, a round that breaks the tableau,
    an unknown bet) is one :class:`~exactodds.studies.review_log.ReviewError` naming its line.
    """
    suits = spec.shoe.suits_known and all(
        card.suit is not None
        for logged in log.rounds
        for text in (logged.cards, logged.burn)
        for card in _cards(text, "cards", logged.line, log.source, True)
    )
    bets = _log_bets(log, spec, suits)
    if not bets:
        raise ReviewError(f"{log.source[:1].upper()}{log.source[1:]} names no bet.")
    full_shoe = spec.shoe if suits else spec.shoe.without_suits()
    tags = _tags(spec, bets, suits)
    pricer = _Pricer(spec.rules, bets)
    records, states, shoes = _replay(log, spec, pricer, suits, tags)
    figures = tuple(
        _bet_review(
            bet,
            records,
            _lucks((bet,), records, states, full_shoe, spec, pricer),
            tags[bet.name],
            spec.triggers.get(bet.name),
        )
        for bet in bets
    )
    luck = _lucks(bets, records, states, full_shoe, spec, pricer)
    total = BetReview(
        "total",
        len(records),
        sum(figure.bets_placed for figure in figures),
        sum((figure.wagered for figure in figures), Fraction(0)),
        sum((figure.actual for figure in figures), Fraction(0)),
        sum((figure.theoretical for figure in figures), Fraction(0)),
        *luck,
    )
    return Review(spec, log.source, suits, shoes, tuple(records), figures, total, log.header)
