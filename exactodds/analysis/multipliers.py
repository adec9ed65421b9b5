"""Bets priced under a random-multiplier overlay, exactly.

:func:`analyze_overlay` prices a bet list under a
:class:`~exactodds.bets.multipliers.MultiplierOverlay`: for each bet the overlay multiplies,
every winning round is split by the face pattern of the cards that bet multiplies
(:mod:`exactodds.engine.faces`: the winning hand's, both hands' for the Tie, the pair's for a
pair bet), and each pattern pays its base pay times the exact law of the product
(:meth:`~exactodds.bets.multipliers.MultiplierOverlay.multiples`), capped where the overlay
says.  The other bets are priced as :func:`~exactodds.analysis.single.analyze` prices them.
Every figure is per unit staked, fee excluded; the RTP is ``(1 + EV) / (1 + fee)``.

>>> from exactodds import Rules, Shoe
>>> from exactodds.bets.multipliers import MultiplierOverlay
>>> ones = MultiplierOverlay(5, {1: 1})
>>> priced = analyze_overlay(Shoe.standard(decks=8), Rules(), overlay=ones)
>>> plain = analyze(Shoe.standard(decks=8), Rules())
>>> all(priced.bets[name].expected_value == plain.bets[name].expected_value
...     for name in ("banker", "player", "tie"))
True
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cached_property, lru_cache
from typing import Any

from exactodds.analysis.routing import pair_probe_counts, route_bet
from exactodds.analysis.single import analyze, polynomials_for
from exactodds.bets.bet import Bet, bets_given
from exactodds.bets.multipliers import MULTIPLIED_BETS, BetMultipliers, MultiplierOverlay
from exactodds.engine.coefficients import multiset_weights
from exactodds.engine.faces import (
    Head,
    Pattern,
    Signature,
    face_counts,
    face_terms,
    split_by_signature,
)
from exactodds.engine.walk import SUITED_PAIR, RoundSummary, enumerate_rounds, require_countable
from exactodds.errors import BetError
from exactodds.numbers import fraction_string
from exactodds.rules import Rules, Tableau
from exactodds.shoe import Shoe

__all__ = ["MultipliedBet", "OverlayAnalysis", "analyze_overlay", "pattern_counts"]


@dataclass(frozen=True)
class MultipliedBet:
    """One bet under an overlay: its outcomes split by face pattern, and the exact law paid.

    ``pattern_counts`` holds, per outcome, the rounds per face pattern of the multiplied
    cards (one empty pattern ``()`` for an outcome that is not multiplied); ``multiplied``
    tells whether the overlay multiplies this bet at all.
    """

    bet: Bet
    pattern_counts: Mapping[str, Mapping[Pattern, int]]
    total: int
    overlay: MultiplierOverlay
    settings: BetMultipliers
    multiplied: bool

    @property
    def name(self) -> str:
        """The bet's name."""
        return self.bet.name

    def base_pay(self, outcome: str) -> Fraction:
        """The pay of *outcome* before multipliers (the overlay's ``pay`` for a win)."""
        if outcome == "win" and self.settings.pay is not None and self.multiplied:
            return self.settings.pay
        return self.bet.pay(outcome)

    @cached_property
    def joint(self) -> dict[tuple[Fraction, Fraction], Fraction]:
        """(net result, paid multiple) -> probability; the multiple is 1 when none applies."""
        # Integers until the end: per outcome, the paid multiples' weights summed over the
        # face patterns on one denominator of values and one of weights; then a Fraction per
        # (net, multiple).
        result: dict[tuple[Fraction, Fraction], Fraction] = defaultdict(Fraction)
        for outcome, by_pattern in self.pattern_counts.items():
            pay = self.base_pay(outcome)
            if not (self.multiplied and pay > 0):
                count = sum(by_pattern.values())
                if count:
                    result[(pay, Fraction(1))] += Fraction(count, self.total)
                continue
            laws = [
                (count, *self.overlay.multiple_weights(pattern))
                for pattern, count in by_pattern.items()
                if count
            ]
            value_unit = math.lcm(*(law[2] for law in laws))
            chance_unit = math.lcm(*(law[3] for law in laws))
            weights: dict[int, int] = defaultdict(int)
            for count, law, values, chances in laws:
                value_scale, chance_scale = value_unit // values, count * (chance_unit // chances)
                for value, weight in law.items():
                    weights[value * value_scale] += weight * chance_scale
            cap = self.settings.cap
            for value in sorted(weights):
                paid = Fraction(value, value_unit)
                if cap is not None:
                    paid = min(paid, cap)
                result[(pay * paid, paid)] += Fraction(weights[value], self.total * chance_unit)
        return dict(result)

    @cached_property
    def distribution(self) -> dict[Fraction, Fraction]:
        """Net result per unit staked -> exact probability, ascending."""
        by_result: dict[Fraction, Fraction] = defaultdict(Fraction)
        for (net, _), chance in self.joint.items():
            by_result[net] += chance
        return {net: by_result[net] for net in sorted(by_result)}

    @cached_property
    def multiples(self) -> dict[Fraction, Fraction]:
        """Paid multiple -> probability that the bet wins and is paid that multiple."""
        by_multiple: dict[Fraction, Fraction] = defaultdict(Fraction)
        for (net, multiple), chance in self.joint.items():
            if net > 0:
                by_multiple[multiple] += chance
        return {multiple: by_multiple[multiple] for multiple in sorted(by_multiple)}

    @property
    def win_probability(self) -> Fraction:
        """Probability that the bet wins (returns more than the stake)."""
        return sum(self.multiples.values(), Fraction(0))

    @property
    def mean_multiple(self) -> Fraction | None:
        """The expected paid multiple given a win (``None`` if the bet never wins)."""
        win = self.win_probability
        if not win:
            return None
        return sum((m * p for m, p in self.multiples.items()), Fraction(0)) / win

    @cached_property
    def expected_value(self) -> Fraction:
        """Expected net result per unit staked, fee excluded."""
        return sum((net * chance for net, chance in self.distribution.items()), Fraction(0))

    def expected_value_with(self, overlay: MultiplierOverlay) -> Fraction:
        """The EV under another overlay's faces and law, this bet's settings kept.

        The face patterns do not depend on the law, so a design or an inference prices many
        laws from one count; without a cap only the law's moments are needed.
        """
        if self.settings.cap is not None:
            return replace(self, overlay=overlay).expected_value
        constant, weights = self.linear_form
        return constant + sum(
            (weight * overlay.mean_multiple(pattern) for pattern, weight in weights.items()),
            Fraction(0),
        )

    @cached_property
    def linear_form(self) -> tuple[Fraction, dict[Pattern, Fraction]]:
        """The EV as ``constant + sum of weight * mean multiple`` over face patterns (no cap)."""
        constant = Fraction(0)
        weights: dict[Pattern, Fraction] = defaultdict(Fraction)
        for outcome, by_pattern in self.pattern_counts.items():
            pay = self.base_pay(outcome)
            for pattern, count in by_pattern.items():
                if self.multiplied and pay > 0:
                    weights[pattern] += Fraction(pay * count, self.total)
                else:
                    constant += Fraction(pay * count, self.total)
        return constant, dict(weights)

    @property
    def house_edge(self) -> Fraction:
        """``-expected_value``."""
        return -self.expected_value

    @cached_property
    def variance(self) -> Fraction:
        """Variance of the net result per unit staked."""
        square = sum((net * net * chance for net, chance in self.distribution.items()), Fraction(0))
        return square - self.expected_value**2

    def return_to_player(self, fee: Fraction = Fraction(0)) -> Fraction:
        """``(1 + EV) / (1 + fee)``, *fee* charged on every bet."""
        return (1 + self.expected_value) / (1 + fee)


@dataclass(frozen=True)
class OverlayAnalysis:
    """Every bet of a list priced under an overlay, on one shoe under one set of rules.

    ``fee`` is the fee the RTPs use: the rules' ``--fee`` when given, else the overlay's.
    """

    shoe: Shoe
    rules: Rules
    overlay: MultiplierOverlay
    bets: Mapping[str, MultipliedBet]
    unavailable: Mapping[str, str]
    bet_names: tuple[str, ...]

    @property
    def fee(self) -> Fraction:
        """The fee on every bet that the RTPs are figured with."""
        return self.overlay.fee_with(self.rules.fee)

    def return_to_player(self, name: str) -> Fraction:
        """Bet *name*'s exact RTP at :attr:`fee`."""
        return self.bets[name].return_to_player(self.fee)

    def to_dict(self) -> dict[str, Any]:
        """Exact figures as JSON-ready data (fractions as text)."""
        bets: dict[str, Any] = {}
        for name in self.bet_names:
            if name not in self.bets:
                bets[name] = {"unavailable": self.unavailable[name]}
                continue
            bet = self.bets[name]
            mean = bet.mean_multiple
            bets[name] = {
                "multiplied": bet.multiplied,
                "ev": fraction_string(bet.expected_value),
                "house_edge": fraction_string(bet.house_edge),
                "rtp": fraction_string(self.return_to_player(name)),
                "variance": fraction_string(bet.variance),
                "win": fraction_string(bet.win_probability),
                "mean_multiple_on_win": None if mean is None else fraction_string(mean),
                "multiples": {
                    fraction_string(m): fraction_string(p) for m, p in bet.multiples.items()
                },
                "distribution": {
                    fraction_string(net): fraction_string(p) for net, p in bet.distribution.items()
                },
            }
        return {
            "shoe": self.shoe.describe(),
            "rules": self.rules.describe(),
            "fee": fraction_string(self.fee),
            "overlay": self.overlay.to_dict(),
            "bets": bets,
        }


def pattern_counts(
    shoe: Shoe, rules: Rules, bet: Bet, overlay: MultiplierOverlay
) -> dict[str, dict[Pattern, int]]:
    """The rounds of each outcome of *bet*, split by the face pattern of its multiplied cards.

    Outcomes that do not win are kept whole, under the empty pattern.

    >>> from exactodds.bets.bet import main_bets
    >>> from exactodds.bets.multipliers import MultiplierOverlay
    >>> tie = main_bets(Rules())[2]
    >>> counts = pattern_counts(Shoe.standard(decks=1), Rules(), tie, MultiplierOverlay(5, {2: 1}))
    >>> sorted(counts["win"])
    [(1, 1, 1, 1), (1, 1, 1, 1, 1), (1, 1, 1, 1, 1, 1)]
    """
    plain = _plain_counts(shoe, rules, bet)
    if not overlay.multiplies(bet.name):
        return {outcome: {(): count} for outcome, count in plain.items()}
    return _split_counts(shoe, rules, bet, plain, multiset_weights(shoe.value_counts))


def _split_counts(
    shoe: Shoe, rules: Rules, bet: Bet, plain: Mapping[str, int], weights: list[int]
) -> dict[str, dict[Pattern, int]]:
    """*bet*'s winning rounds split by face pattern; *plain* holds its outcome counts."""
    role = MULTIPLIED_BETS[bet.name]
    faces = face_counts(shoe)
    if role in ("player_first_two", "banker_first_two"):
        return _pair_counts(shoe, rules, bet, role)
    require_countable(shoe)
    shoe.require_finite("A multiplier overlay's face walk")
    result: dict[str, dict[Pattern, int]] = defaultdict(lambda: defaultdict(int))
    try:
        winning = _winning_heads(bet, rules.tableau, role)
    except TypeError:  # a bet that cannot be hashed is settled afresh
        winning = _winning_heads.__wrapped__(bet, rules.tableau, role)
    for outcome, count in plain.items():
        if count and outcome not in winning.values():
            result[outcome][()] += count
    # Rounds summed by (outcome, signature) first: a few dozen splits, not a split per round
    # (each sum is still a multiple of its repeated values' ways).
    by_signature: dict[tuple[str, Signature], int] = defaultdict(int)
    terms = face_terms(rules.tableau)[role]
    for (head, key), count in terms.counts(weights, winning.__contains__).items():
        by_signature[(winning[head], key)] += count
    value_counts = shoe.value_counts
    for (outcome, key), count in by_signature.items():
        for pattern, share in split_by_signature(count, faces, value_counts, key).items():
            result[outcome][pattern] += share
    for outcome in set(winning.values()):
        if sum(result[outcome].values()) != plain.get(outcome, 0):  # pragma: no cover
            raise AssertionError("the face terms disagree with the plain count of a win")
    return {outcome: dict(by_pattern) for outcome, by_pattern in result.items() if by_pattern}


@lru_cache(maxsize=64)
def _winning_heads(bet: Bet, tableau: Tableau, role: str) -> dict[Head, str]:
    """The round summaries in which *bet* wins, and its outcome there (no shoe needed)."""
    winning: dict[Head, str] = {}
    for head in face_terms(tableau)[role].terms:
        outcome = bet.settle_round(RoundSummary(*head, False, False, None, None))
        if bet.pay(outcome) > 0:
            winning[head] = outcome
    return winning


def _plain_counts(shoe: Shoe, rules: Rules, bet: Bet) -> Mapping[str, int]:
    return analyze(shoe, rules, [bet]).bets[bet.name].outcome_counts


def _pair_counts(shoe: Shoe, rules: Rules, bet: Bet, role: str) -> dict[str, dict[Pattern, int]]:
    """A pair bet's wins split by whether the pair's two cards are one face (a suited pair).

    The joint pair states have a closed form (:func:`pair_probe_counts`) wherever
    :func:`~exactodds.analysis.single.analyze` would count by polynomials
    (:func:`~exactodds.analysis.single.polynomials_for`); a bet whose outcome also reads the
    round's totals takes the walk.
    """
    result: dict[str, dict[Pattern, int]] = defaultdict(lambda: defaultdict(int))
    player = role == "player_first_two"
    compiled = polynomials_for(shoe, rules.tableau)
    route = None if compiled is None else route_bet(bet, compiled.keys, (True,))
    if route is not None and route.how == "pairs":
        counts = pair_probe_counts(shoe.rank_counts, shoe.suit_counts)
        states = [
            ((player_state if player else banker_state) == SUITED_PAIR, outcome, count)
            for ((_, (player_state, banker_state)), outcome), count in zip(
                route.pair_outcomes, counts, strict=True
            )
        ]
    else:
        states = [
            (
                bool(summary.player_suited_pair if player else summary.banker_suited_pair),
                bet.settle_round(summary),
                count,
            )
            for summary, count in enumerate_rounds(shoe, rules.tableau).counts.items()
        ]
    for suited, outcome, count in states:
        if not count:
            continue
        if bet.pay(outcome) <= 0:
            result[outcome][()] += count
        else:
            result[outcome][(2,) if suited else (1, 1)] += count
    return {outcome: dict(by_pattern) for outcome, by_pattern in result.items() if by_pattern}


def analyze_overlay(
    shoe: Shoe,
    rules: Rules | None = None,
    bets: Iterable[Bet] | None = None,
    *,
    overlay: MultiplierOverlay,
) -> OverlayAnalysis:
    """Price *bets* (the main three by default) on *shoe* under *rules* and *overlay*.

    The overlay multiplies the bets it names (``player``, ``banker``, ``tie``,
    ``player_pair``, ``banker_pair``), needs a shoe that knows its suits (multipliers land
    on faces), and prices every other bet as :func:`~exactodds.analysis.single.analyze` does.

    >>> from exactodds.bets.multipliers import resolve_overlay
    >>> golden = analyze_overlay(Shoe.standard(decks=8), Rules(),
    ...                          overlay=resolve_overlay("golden_wealth"))
    >>> golden.fee
    Fraction(1, 5)
    >>> analyze_overlay(Shoe.standard(decks=8).remove("K"), overlay=golden.overlay)
    Traceback (most recent call last):
    ...
    exactodds.errors.ShoeError: Multipliers are drawn on faces (rank and suit), and the shoe is known by rank only; name every card with its suit, such as KS or 7H.
    """
    if not isinstance(overlay, MultiplierOverlay):
        raise BetError(
            f"overlay is {type(overlay).__name__}, not a MultiplierOverlay; read one with "
            "resolve_overlay(name or path)."
        )
    rules = Rules.given(rules)
    chosen = bets_given(bets, rules)
    face_counts(shoe)
    plain = analyze(shoe, rules, chosen)
    weights = multiset_weights(shoe.value_counts)
    priced: dict[str, MultipliedBet] = {}
    for bet in chosen:
        if bet.name not in plain.bets:
            continue
        multiplied = overlay.multiplies(bet.name) and bet.cards is None
        outcomes = plain.bets[bet.name].outcome_counts
        counts: Mapping[str, Mapping[Pattern, int]] = (
            _split_counts(shoe, rules, bet, outcomes, weights)
            if multiplied
            else {name: {(): count} for name, count in outcomes.items()}
        )
        priced[bet.name] = MultipliedBet(
            bet, counts, plain.total, overlay, overlay.settings(bet.name), multiplied
        )
    return OverlayAnalysis(
        shoe, rules, overlay, priced, dict(plain.unavailable), tuple(bet.name for bet in chosen)
    )
