"""Effect of removal: how each bet's exact EV moves when cards of one rank leave the shoe.

:func:`effect_of_removal` prices the bets on the shoe, then on the shoe less
``cards`` cards of each rank in turn (A 2 ... 9 T J Q K), and reports each
change ``EV(after) - EV(before)`` as an exact :class:`~fractions.Fraction`:
the *effect of removal* (EoR) of the card-counting literature.  A rank that
has fewer than ``cards`` cards left, or whose removal would leave fewer than
six cards, gets ``None`` and the reason in ``skipped``.

From the effects, :meth:`EffectOfRemoval.linear_count` derives a linear
count (small integer tags per rank, balanced over the shoe) and its betting
correlation; :meth:`EffectOfRemoval.betting_correlation` scores any tags.

>>> from exactodds import Rules, Shoe
>>> from exactodds.bets.catalogue import select_bets
>>> shoe = Shoe.parse("A=2,2=2,3=2,4=2,5=2,6=2,7=2,8=2,9=2,T=8")
>>> result = effect_of_removal(shoe, Rules(), select_bets("tie"))
>>> result.effects["tie"]["7"]
Fraction(-501169, 23023000)
>>> result.weighted_sum("tie")  # sum over ranks of (cards of the rank) * (its effect)
Fraction(0, 1)

Why the weighted sum is exactly zero for one card (``cards=1``): shuffle the
shoe's N >= 7 cards uniformly and deal the round from the top six.  The
bottom card is of rank r with probability n_r / N, and given its rank the
other N - 1 cards lie in uniformly random order, so the round is dealt as if
from the shoe less one r.  By the law of total expectation,
``EV(S) = sum_r (n_r / N) * EV(S - r)``, that is
``sum_r n_r * (EV(S - r) - EV(S)) = 0``, exactly, for every bet, rule set
and shoe.  In this package's counts the same fact reads: a six-card sequence
of S avoids exactly N - 6 of its N cards, so ``sum_r n_r * C(S - r) =
(N - 6) * C(S)`` for the count C of any outcome; divide by N(N-1)...(N-6).
For a shoe that knows its suits, removing "a card of rank r" is the
average over which of its suits left, weighted by the suit counts, and the
bottom-card argument goes through unchanged.  No such identity holds for
``cards >= 2``: a uniformly random set of k cards mixes ranks, while the
effect of removal takes k cards of a single rank.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

from exactodds.analysis.routing import reads_suits
from exactodds.analysis.single import SUITS_UNKNOWN
from exactodds.bets.bet import Bet, bets_given
from exactodds.bets.multipliers import MultiplierOverlay
from exactodds.cards import RANKS, parse_rank
from exactodds.engine.coefficients import polynomials
from exactodds.engine.walk import require_countable
from exactodds.errors import RemovalError
from exactodds.inputs import whole_number
from exactodds.numbers import square_root_decimal_string
from exactodds.rules import Rules
from exactodds.shoe import Shoe

__all__ = [
    "DEFAULT_MAX_TAG",
    "INFINITE_REMOVAL",
    "RANK_SYMBOLS",
    "BettingCorrelation",
    "EffectOfRemoval",
    "LinearCount",
    "effect_of_removal",
    "expected_values",
    "refuse_infinite",
]

#: The rank symbols in the order every result uses: A 2 3 4 5 6 7 8 9 T J Q K.
RANK_SYMBOLS: tuple[str, ...] = tuple(rank.symbol for rank in RANKS)

#: The largest tag, in absolute value, of a derived linear count: a level-2 count, as most
#: published side-bet counts are (it gives the known Dragon 7 count: 4-7 -1, 8 9 +2).
DEFAULT_MAX_TAG = 2

#: Why an infinite shoe has no effect of removal to show (the words of every refusal of it).
INFINITE_REMOVAL = (
    "the effect of removal of an infinite shoe is zero for every rank (removing a card leaves "
    "it unchanged), so there is no count to derive from it"
)


def refuse_infinite(shoe: Shoe) -> None:
    """Refuse an infinite shoe, whose effects of removal are all exactly zero.

    Printing thirteen zeros per bet and a count with every tag 0 (its betting correlation
    0/0) would look like a finding; the sentence says the fact instead.

    >>> refuse_infinite(Shoe.standard(decks=8))
    >>> refuse_infinite(Shoe.infinite_decks())
    Traceback (most recent call last):
    ...
    exactodds.errors.RemovalError: The shoe is infinite: the effect of removal of an infinite shoe is zero for every rank (removing a card leaves it unchanged), so there is no count to derive from it; use a whole number of decks.
    """
    if shoe.infinite:
        raise RemovalError(
            f"The shoe is infinite: {INFINITE_REMOVAL}; use a whole number of decks."
        )


#: A shoe needs six cards for one round (the counting convention of the package).
_ROUND_CARDS = 6


def expected_values(
    shoes: Sequence[Shoe], rules: Rules, bets: Sequence[Bet]
) -> list[dict[str, Fraction]]:
    """Every bet's exact EV on each shoe: bet name -> EV, one mapping per shoe.

    The one place this module runs the engine: the batch path
    (:class:`~exactodds.analysis.many.Analyzer`, compiled once per rules and bets),
    which gives the same exact values as :func:`~exactodds.analysis.single.analyze`.

    >>> from exactodds.bets.bet import main_bets
    >>> tie = main_bets(Rules())[2]
    >>> expected_values([Shoe.standard(decks=8)], Rules(), [tie])
    [{'tie': Fraction(-103841353768, 723147898655)}]
    >>> expected_values([Shoe.from_ranks({"A": 5})], Rules(), [tie])
    Traceback (most recent call last):
    ...
    exactodds.errors.ShoeError: The shoe holds 5 cards; a round is counted as a sequence of 6 cards, so a shoe needs at least 6.
    """
    from exactodds.analysis.many import (
        analyzer_for,
    )  # numpy is loaded only when effects are computed

    analyzer = analyzer_for(rules, tuple(bets))
    return [
        {name: result.expected_value for name, result in analysis.bets.items()}
        for analysis in analyzer.analyze_many(shoes)
    ]


@dataclass(frozen=True)
class BettingCorrelation:
    """The count-weighted Pearson correlation between a count's tags and the effects.

    Weights are the cards of each rank in the shoe, as in the card-counting
    literature (a rank weighs as many times as it has cards).  The parts are
    exact; the correlation itself has a square root, so it is given as
    ``covariance / sqrt(tag_variance * effect_variance)`` in decimals, each
    correctly rounded.  Variances and the covariance are sums over the ranks
    (not divided by the number of cards; the ratio does not care).

    >>> correlation = BettingCorrelation(Fraction(3), Fraction(4), Fraction(4))
    >>> correlation.squared, correlation.decimal(4)
    (Fraction(9, 16), '0.7500')
    >>> BettingCorrelation(Fraction(0), Fraction(0), Fraction(1)).decimal(4)
    Traceback (most recent call last):
    ...
    exactodds.errors.RemovalError: The betting correlation is not defined: every tag, or every effect, is the same.
    """

    covariance: Fraction
    tag_variance: Fraction
    effect_variance: Fraction

    @property
    def defined(self) -> bool:
        """Whether both the tags and the effects vary (else the correlation is 0/0)."""
        return self.tag_variance > 0 and self.effect_variance > 0

    @property
    def squared(self) -> Fraction:
        """The squared correlation, exactly."""
        self._check()
        return self.covariance**2 / (self.tag_variance * self.effect_variance)

    def decimal(self, digits: int) -> str:
        """The correlation, correctly rounded to *digits* places."""
        root = square_root_decimal_string(self.squared, digits)
        return "-" + root if self.covariance < 0 and root.strip("0.") else root

    def __float__(self) -> float:
        return float(self.decimal(17))

    def _check(self) -> None:
        if not self.defined:
            raise RemovalError(
                "The betting correlation is not defined: every tag, or every effect, is the same."
            )


@dataclass(frozen=True)
class LinearCount:
    """A linear count derived from the effects of removal of one bet.

    ``tags`` maps each rank that has an effect to its integer tag: positive
    when removing a card of that rank raises the bet's EV (so a count that
    goes up as such cards are dealt means the bet got better).  ``scale`` is
    the factor the effects were multiplied by before rounding; ``imbalance``
    is ``sum(cards of rank * tag)`` over the shoe (0 when balanced).

    >>> count = LinearCount("tie", {"A": 1, "K": -1}, 1, Fraction(100), 0, None)
    >>> count.tags["K"], count.balanced
    (-1, True)
    >>> count.correlation_decimal(4)
    Traceback (most recent call last):
    ...
    exactodds.errors.RemovalError: The betting correlation of tie is not defined: its effects of removal are all zero.
    """

    bet: str
    tags: Mapping[str, int]
    max_tag: int
    scale: Fraction | None
    imbalance: int
    correlation: BettingCorrelation | None

    @property
    def balanced(self) -> bool:
        """Whether the tags of the shoe's cards add up to zero."""
        return self.imbalance == 0

    def correlation_decimal(self, digits: int) -> str:
        """The betting correlation, correctly rounded (an error when it is not defined)."""
        if self.correlation is None:
            raise RemovalError(
                f"The betting correlation of {self.bet} is not defined: its effects of removal "
                "are all zero."
            )
        return self.correlation.decimal(digits)


@dataclass(frozen=True)
class EffectOfRemoval:
    """Exact effects of removal of every bet, rank by rank, on one shoe.

    * ``expected_values``: bet -> exact EV on the shoe, before any removal.
    * ``effects``: bet -> rank symbol -> ``EV(after) - EV(before)``, or
      ``None`` for a rank in ``skipped``; ranks in the order A 2 ... T J Q K.
    * ``skipped``: rank symbol -> why it could not be removed.
    * ``unavailable``: bet -> why it could not be priced (a suited bet on a
      shoe known by rank only).
    * ``max_tag`` and ``counts``: bet -> the linear count derived from its
      effects (:meth:`linear_count` with tags up to ``max_tag``), computed
      once here so that what renders the result only reads it.

    >>> from exactodds.bets.catalogue import select_bets
    >>> shoe = Shoe.parse("A=1,5=3,9=2,T=4")
    >>> result = effect_of_removal(shoe, Rules(), select_bets("player"))
    >>> result.effects["player"]["5"], result.skipped["2"]
    (Fraction(13, 945), 'Cannot remove 1 2: the shoe holds none.')
    >>> result.expected_value_after("player", "2")
    Traceback (most recent call last):
    ...
    exactodds.errors.RemovalError: Rank 2 has no effect of removal here: Cannot remove 1 2: the shoe holds none.
    """

    shoe: Shoe
    rules: Rules
    cards: int
    expected_values: Mapping[str, Fraction]
    effects: Mapping[str, Mapping[str, Fraction | None]]
    skipped: Mapping[str, str]
    unavailable: Mapping[str, str]
    bet_names: tuple[str, ...]
    max_tag: int = DEFAULT_MAX_TAG
    counts: Mapping[str, LinearCount] = field(default_factory=dict)
    #: The random-multiplier overlay the EVs are under: then each is per unit paid, the fee in.
    overlay: MultiplierOverlay | None = None

    def effect(self, bet: str, rank: str) -> Fraction:
        """The effect of removing ``cards`` cards of *rank* on *bet* (an error if skipped)."""
        symbol = _rank_symbol(rank)
        value = self._effects_of(bet)[symbol]
        if value is None:
            raise RemovalError(
                f"Rank {symbol} has no effect of removal here: {self.skipped[symbol]}"
            )
        return value

    def _effects_of(self, bet: str) -> Mapping[str, Fraction | None]:
        if bet not in self.effects:
            if bet in self.unavailable:
                raise RemovalError(
                    f"Bet {bet!r} has no effects of removal: {self.unavailable[bet]}"
                )
            known = ", ".join(self.effects) or "none"
            raise RemovalError(f"Bet {bet!r} was not analysed; the bets analysed are {known}.")
        return self.effects[bet]

    def return_to_player(self, bet: str) -> Fraction:
        """*bet*'s return to player on the shoe, before any removal: ``(1 + EV) / (1 + fee)``,
        or ``1 + EV`` under an overlay (its EVs are per unit paid, the fee in them).

        >>> from exactodds.bets.catalogue import select_bets
        >>> shoe = Shoe.parse("A=2,2=2,3=2,4=2,5=2,6=2,7=2,8=2,9=2,T=8")
        >>> result = effect_of_removal(shoe, Rules(fee="1/5"), select_bets("tie"))
        >>> result.return_to_player("tie") == (1 + result.expected_values["tie"]) / Fraction(6, 5)
        True
        """
        self._effects_of(bet)  # a bet not analysed is refused in one sentence
        if self.overlay is not None:
            return 1 + self.expected_values[bet]
        return (1 + self.expected_values[bet]) / (1 + self.rules.fee)

    def expected_value_after(self, bet: str, rank: str) -> Fraction:
        """The exact EV of *bet* once ``cards`` cards of *rank* are removed."""
        return self.expected_values[bet] + self.effect(bet, rank)

    def weighted_sum(self, bet: str) -> Fraction:
        """``sum over ranks of (cards of the rank in the shoe) * effect``.

        Exactly zero when ``cards`` is 1 and no rank was skipped for lack of
        room (see the module docstring for the proof); in general not for
        ``cards >= 2``.
        """
        counts = self.shoe.rank_counts
        return sum(
            (
                counts[index] * effect
                for index, effect in enumerate(self._effects_of(bet).values())
                if effect is not None
            ),
            Fraction(0),
        )

    def betting_correlation(self, bet: str, tags: Mapping[str, int]) -> BettingCorrelation:
        """How well *tags* (rank -> point value) track *bet*'s effects of removal.

        The count-weighted Pearson correlation over the ranks that have both
        an effect and cards in the shoe; a rank missing from *tags* counts 0.
        Ten-valued ranks may be given one by one or, as ``"0"``, together.

        >>> from exactodds.bets.catalogue import select_bets
        >>> shoe = Shoe.parse("A=2,2=2,3=2,4=2,5=2,6=2,7=2,8=2,9=2,T=8")
        >>> result = effect_of_removal(shoe, Rules(), select_bets("player"))
        >>> result.betting_correlation("player", {"0": -1, "8": 2, "9": 2}).decimal(3)
        '0.239'
        """
        effects = self._effects_of(bet)
        cleaned = _clean_tags(tags)
        points = [
            (self.shoe.rank_count(symbol), Fraction(cleaned.get(symbol, 0)), effect)
            for symbol, effect in effects.items()
            if effect is not None and self.shoe.rank_count(symbol) > 0
        ]
        return _weighted_correlation(points)

    def linear_count(self, bet: str, max_tag: int = DEFAULT_MAX_TAG) -> LinearCount:
        """A balanced linear count for *bet*, with tags from ``-max_tag`` to ``max_tag``.

        The scaling rule: multiply every effect by ``scale = max_tag /
        (largest |effect|)``, so the rank that matters most gets
        ``+-max_tag``, and round to integers.  Then *balance*: among integer
        tags that give ``sum(cards of rank * tag) = 0`` over the shoe
        analysed (for a full shoe, the full shoe: the running count starts
        at 0 and a full pass of the shoe brings it back to 0), take those
        nearest the scaled effects by the count-weighted sum of squared
        differences.  Every tag keeps its effect's sign (or is 0) and stays
        within ``+-max_tag``; ranks with equal effects (T J Q K for most
        bets) share a tag; a tag moves at most one from its scaled effect
        unless that cannot balance; and the tags are never all 0.  When
        plain rounding already balances, the tags are the rounded scaled
        effects.  If nothing balances (possible only for shoes with uneven
        rank counts) the least imbalance is kept and reported in
        ``imbalance``.

        >>> from exactodds.bets.catalogue import select_bets
        >>> shoe = Shoe.parse("A=2,2=2,3=2,4=2,5=2,6=2,7=2,8=2,9=2,T=8")
        >>> count = effect_of_removal(shoe, Rules(), select_bets("tie")).linear_count("tie", 2)
        >>> count.tags["7"], count.balanced, count.correlation_decimal(3)
        (-2, True, '0.976')
        >>> effect_of_removal(shoe, Rules(), select_bets("tie")).linear_count("tie", 0)
        Traceback (most recent call last):
        ...
        exactodds.errors.RemovalError: Largest tag 0 for `max_tag` is not valid; use a whole number of at least 1.
        """
        _check_max_tag(max_tag)
        effects = {
            symbol: effect
            for symbol, effect in self._effects_of(bet).items()
            if effect is not None and self.shoe.rank_count(symbol) > 0
        }
        largest = max((abs(effect) for effect in effects.values()), default=Fraction(0))
        if largest == 0:
            zero = dict.fromkeys(effects, 0)
            return LinearCount(bet, zero, max_tag, None, 0, None)
        scale = max_tag / largest
        weights = {symbol: self.shoe.rank_count(symbol) for symbol in effects}
        tags, imbalance = _balanced_tags(
            {symbol: effect * scale for symbol, effect in effects.items()}, weights, max_tag
        )
        correlation = self.betting_correlation(bet, tags)
        return LinearCount(bet, tags, max_tag, scale, imbalance, correlation)


def effect_of_removal(
    shoe: Shoe,
    rules: Rules | None = None,
    bets: Iterable[Bet] | None = None,
    cards: int = 1,
    max_tag: int = DEFAULT_MAX_TAG,
    *,
    overlay: MultiplierOverlay | None = None,
) -> EffectOfRemoval:
    """The exact effect on each bet's EV of removing *cards* cards of each rank from *shoe*.

    *rules* defaults to the standard rules and *bets* to the Banker, Player
    and Tie bets under them.  Any shoe will do, full or partial.  A rank
    with fewer than *cards* cards, or whose removal would leave fewer than
    six cards, is skipped with the reason; an error is raised only when no
    rank at all can be removed.  On a shoe that knows its suits, a bet that
    needs suits sees the average over which suits the removed cards had,
    weighted by how many of each suit the shoe holds (exact: it is the
    expected EV when the removed cards' suits are not seen).  Each priced
    bet's linear count, with tags up to *max_tag*, is derived once and kept
    in ``counts``.  Under a random-multiplier *overlay* (a shoe that knows its
    suits), every EV is :func:`~exactodds.analysis.multipliers.analyze_overlay`'s
    per unit paid, the stake plus the table's fee (the rules', else the
    overlay's): the RTP less 1, as a simulation under the overlay counts it.

    >>> from exactodds.bets.catalogue import select_bets
    >>> shoe = Shoe.parse("A=2,2=2,3=2,4=2,5=2,6=2,7=2,8=2,9=2,T=8")
    >>> effect_of_removal(shoe, Rules(), select_bets("banker"), cards=2).effects["banker"]["9"]
    Fraction(-536461, 715806000)
    >>> effect_of_removal(shoe, Rules(), select_bets("banker"), cards=0)
    Traceback (most recent call last):
    ...
    exactodds.errors.RemovalError: Number of cards to remove 0 for `cards` is not valid; use a whole number of at least 1.
    """
    whole_number(cards, "cards", RemovalError, minimum=1, what="Number of cards to remove")
    _check_max_tag(max_tag)
    require_countable(shoe)
    refuse_infinite(shoe)
    rules = Rules.given(rules)
    chosen = bets_given(bets, rules)
    skipped = _skipped_ranks(shoe, cards)
    removable = [rank.index for rank in RANKS if rank.symbol not in skipped]
    if not removable:
        raise RemovalError(_nothing_removable(shoe, cards))

    if overlay is not None:
        ratios = _overlay_ratios(shoe, rules, chosen, removable, cards, overlay)
        result = _assembled(shoe, rules, cards, chosen, ratios, skipped, {}, max_tag)
        return replace(result, overlay=overlay)
    # A bet that reads suits without saying so is counted with them, where the shoe has them.
    # A bet on the cards themselves is priced by the card walk (below), not by the kernel.
    summary_bets = [bet for bet in chosen if bet.cards is None]
    keys = polynomials(rules.tableau).keys if shoe.suits_known and summary_bets else ()
    suited_bets = [
        bet
        for bet in summary_bets
        if shoe.suits_known and (bet.needs_suits or reads_suits(bet, keys))
    ]
    rank_bets = [bet for bet in summary_bets if not bet.needs_suits and bet not in suited_bets]
    unavailable = {
        bet.name: SUITS_UNKNOWN for bet in chosen if bet.needs_suits and not shoe.suits_known
    }
    # Every EV as an unreduced integer ratio (numerator, denominator): one Fraction per
    # effect at the end, rather than Fraction arithmetic per shoe and bet.
    before: dict[str, tuple[int, int]] = {}
    after: dict[int, dict[str, tuple[int, int]]] = {index: {} for index in removable}

    if rank_bets:
        # Suits cannot matter to these bets, and the engine is faster by rank alone.
        rows: list[tuple[tuple[int, ...], tuple[int, ...] | None]] = [(shoe.rank_counts, None)]
        for index in removable:
            counts = list(shoe.rank_counts)
            counts[index] -= cards
            rows.append((tuple(counts), None))
        first, *rest = _expected_value_ratios(rows, rules, rank_bets)
        before |= first
        for index, values in zip(removable, rest, strict=True):
            after[index] |= values

    if suited_bets:
        mixtures = {index: _suit_mixture(shoe, index, cards) for index in removable}
        distinct = sorted({member for mixture in mixtures.values() for _, member in mixture})
        assert shoe.suit_counts is not None
        first, *rest = _expected_value_ratios(
            [(shoe.rank_counts, shoe.suit_counts), *distinct], rules, suited_bets
        )
        before |= first
        by_member = dict(zip(distinct, rest, strict=True))
        for index, mixture in mixtures.items():
            ways = sum(weight for weight, _ in mixture)
            for bet in suited_bets:
                # Members share their card count, so their EVs share a denominator.
                denominator = by_member[mixture[0][1]][bet.name][1]
                numerator = sum(
                    weight * by_member[member][bet.name][0] for weight, member in mixture
                )
                after[index][bet.name] = numerator, denominator * ways

    card_before, card_after = _card_ratios(shoe, rules, chosen, removable, cards)
    before |= card_before
    for index, values in card_after.items():
        after[index] |= values

    return _assembled(shoe, rules, cards, chosen, (before, after), skipped, unavailable, max_tag)


_Ratio = tuple[int, int]


def _assembled(
    shoe: Shoe,
    rules: Rules,
    cards: int,
    chosen: Sequence[Bet],
    ratios: tuple[dict[str, _Ratio], dict[int, dict[str, _Ratio]]],
    skipped: dict[str, str],
    unavailable: dict[str, str],
    max_tag: int,
) -> EffectOfRemoval:
    """The effects of removal from every bet's EV before and after each rank's removal, with
    each priced bet's linear count derived once."""
    before, after = ratios
    priced = [bet.name for bet in chosen if bet.name not in unavailable]
    effects: dict[str, dict[str, Fraction | None]] = {}
    for name in priced:
        effects[name] = {
            rank.symbol: (
                None
                if rank.symbol in skipped
                else _difference(after[rank.index][name], before[name])
            )
            for rank in RANKS
        }
    result = EffectOfRemoval(
        shoe,
        rules,
        cards,
        {name: Fraction(*before[name]) for name in priced},
        effects,
        skipped,
        unavailable,
        tuple(bet.name for bet in chosen),
        max_tag,
    )
    return replace(result, counts={name: result.linear_count(name, max_tag) for name in priced})


def _overlay_ratios(
    shoe: Shoe,
    rules: Rules,
    bets: Sequence[Bet],
    removable: Sequence[int],
    cards: int,
    overlay: MultiplierOverlay,
) -> tuple[dict[str, _Ratio], dict[int, dict[str, _Ratio]]]:
    """Every bet's EV under *overlay*, per unit paid, on *shoe* and after *cards* cards of each
    removable rank leave, their suits unseen (the mixture over which suits left).

    The overlay draws its faces uniformly, so a shoe whose suits are permuted has the same EVs
    when no bet reads the cards themselves: such shoes are priced once.
    """
    from exactodds.analysis.multipliers import analyze_overlay

    symmetric = all(bet.cards is None for bet in bets)
    priced: dict[tuple[tuple[int, ...], ...], dict[str, Fraction]] = {}

    def values(counts: _Counts) -> dict[str, Fraction]:
        ranks, suits = counts
        assert suits is not None
        key = _suit_key(suits) if symmetric else (suits,)
        if key not in priced:
            found = analyze_overlay(Shoe(ranks, suits), rules, bets, overlay=overlay)
            priced[key] = {bet.name: found.return_to_player(bet.name) - 1 for bet in bets}
        return priced[key]

    if shoe.suit_counts is None:  # the overlay's own sentence: multipliers land on faces
        analyze_overlay(shoe, rules, bets, overlay=overlay)
    start = values((shoe.rank_counts, shoe.suit_counts))
    before = {name: (value.numerator, value.denominator) for name, value in start.items()}
    after: dict[int, dict[str, _Ratio]] = {}
    for index in removable:
        mixture = _suit_mixture(shoe, index, cards)
        ways = sum(weight for weight, _ in mixture)
        members = [(weight, values(member)) for weight, member in mixture]
        after[index] = {}
        for bet in bets:
            mean = sum((weight * found[bet.name] for weight, found in members), Fraction(0)) / ways
            after[index][bet.name] = (mean.numerator, mean.denominator)
    return before, after


def _suit_key(suit_counts: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """The least of a shoe's face counts over the 24 permutations of its suits."""
    return min(
        tuple(
            tuple(suit_counts[rank * 4 + permutation[suit]] for suit in range(4))
            for rank in range(13)
        )
        for permutation in itertools.permutations(range(4))
    )


def _check_max_tag(max_tag: int) -> None:
    whole_number(max_tag, "max_tag", RemovalError, minimum=1, what="Largest tag")


# Helpers ---------------------------------------------------------------------


def _rank_symbol(rank: str) -> str:
    return parse_rank(rank).symbol


def _clean_tags(tags: Mapping[str, int]) -> dict[str, int]:
    """Tags by rank symbol; ``"0"`` stands for all four ten-valued ranks."""
    cleaned: dict[str, int] = {}
    for key, tag in tags.items():
        whole_number(
            tag, "tags", RemovalError, minimum=None, what="Tag", within=f"rank {key!r} in `tags`"
        )
        symbols = ("T", "J", "Q", "K") if str(key).strip() == "0" else (_rank_symbol(str(key)),)
        for symbol in symbols:
            cleaned[symbol] = tag
    return cleaned


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _skipped_ranks(shoe: Shoe, cards: int) -> dict[str, str]:
    left = shoe.cards - cards
    skipped: dict[str, str] = {}
    for rank in RANKS:
        have = shoe.rank_counts[rank.index]
        if have < cards:
            holds = "none" if have == 0 else f"only {have}"
            skipped[rank.symbol] = f"Cannot remove {cards} {rank.symbol}: the shoe holds {holds}."
        elif left < _ROUND_CARDS:
            skipped[rank.symbol] = _too_few_left(shoe, cards)
    return skipped


def _too_few_left(shoe: Shoe, cards: int) -> str:
    if cards >= shoe.cards:
        return (
            f"Cannot remove {_plural(cards, 'card')} from this {shoe.cards}-card shoe: it holds "
            f"only {shoe.cards}, and a round needs 6 left; remove at most "
            f"{_plural(max(shoe.cards - 6, 0), 'card')}."
        )
    return (
        f"Removing {_plural(cards, 'card')} from this {shoe.cards}-card shoe would leave "
        f"{shoe.cards - cards} cards; a round is counted as a sequence of 6 cards, so at least "
        "6 must remain."
    )


def _nothing_removable(shoe: Shoe, cards: int) -> str:
    if shoe.cards - cards < _ROUND_CARDS:
        return _too_few_left(shoe, cards)
    most = max(shoe.rank_counts)
    return (
        f"Cannot remove {cards} cards of any one rank: the shoe holds at most {most} of a rank; "
        f"use a number of cards from 1 to {most}."
    )


_Counts = tuple[tuple[int, ...], tuple[int, ...] | None]


def _suit_mixture(shoe: Shoe, index: int, cards: int) -> list[tuple[int, _Counts]]:
    """The shoes left after *cards* cards of one rank leave unseen, with integer weights.

    Which suits leave follows the multivariate hypergeometric law: each way
    weighs ``prod comb(n_suit, taken)`` out of ``comb(n_rank, cards)`` (the sum
    of the weights).  Shoes are given as (rank counts, suit counts).
    """
    assert shoe.suit_counts is not None
    suits = shoe.suit_counts[index * 4 : index * 4 + 4]
    rank_counts = list(shoe.rank_counts)
    rank_counts[index] -= cards
    ranks = tuple(rank_counts)
    mixture: list[tuple[int, _Counts]] = []
    for taken in itertools.product(*(range(min(count, cards) + 1) for count in suits)):
        if sum(taken) != cards:
            continue
        suit_counts = list(shoe.suit_counts)
        for suit, number in enumerate(taken):
            suit_counts[index * 4 + suit] -= number
        mixture.append((math.prod(map(math.comb, suits, taken)), (ranks, tuple(suit_counts))))
    return mixture


def _expected_value_ratios(
    rows: Sequence[_Counts], rules: Rules, bets: Sequence[Bet]
) -> list[dict[str, tuple[int, int]]]:
    """Every bet's EV on each shoe (rank counts, suit counts) as an unreduced integer ratio.

    Straight from the compiled kernel's integer outputs, with no Shoe or
    Analysis object per shoe; a bet the kernel does not price (a custom bet
    mixing pairs and totals) goes through :func:`expected_values`.
    """
    from exactodds.analysis.many import analyzer_for

    analyzer = analyzer_for(rules, tuple(bets))
    routes = analyzer.routes()
    kernel_bets = [bet.name for bet in bets if routes[bet.name] != "walk"]
    table = analyzer.expected_value_table(
        [row[0] for row in rows], [row[1] for row in rows], outcomes=False
    )
    result = [{name: table.ratio(shoe, name) for name in kernel_bets} for shoe in range(len(rows))]
    walk_bets = [bet for bet in bets if routes[bet.name] == "walk"]
    if walk_bets:
        shoes = [Shoe(ranks, suits) for ranks, suits in rows]
        for values, analysis in zip(
            result, analyzer_for(rules, tuple(walk_bets)).analyze_many(shoes), strict=True
        ):
            for bet in walk_bets:
                values[bet.name] = analysis.bets[bet.name].moment_ratio()
    return result


def _card_ratios(
    shoe: Shoe, rules: Rules, bets: Sequence[Bet], removable: Sequence[int], cards: int
) -> tuple[dict[str, tuple[int, int]], dict[int, dict[str, tuple[int, int]]]]:
    """The EVs of the card-level bets among *bets* before and after each rank's removal
    (bet name -> ratio, and rank index -> bet name -> ratio); suited ones on a shoe known by
    rank only are left out (the caller lists them as unavailable)."""
    before: dict[str, tuple[int, int]] = {}
    after: dict[int, dict[str, tuple[int, int]]] = {index: {} for index in removable}
    for bet in bets:
        if bet.cards is None or (bet.needs_suits and not shoe.suits_known):
            continue
        found = _card_expected_value_ratios(shoe, rules, bet, removable, cards)
        before[bet.name] = found[0]
        for index, ratio in zip(removable, found[1:], strict=True):
            after[index][bet.name] = ratio
    return before, after


def _card_expected_value_ratios(
    shoe: Shoe, rules: Rules, bet: Bet, removable: Sequence[int], cards: int
) -> list[tuple[int, int]]:
    """A card-level bet's EV on *shoe*, then after *cards* cards of each removable rank leave.

    Each shoe left is priced by the card walk (:func:`~exactodds.analysis.single.price_card_bet`),
    the one :func:`~exactodds.analysis.single.analyze` uses; on a shoe that knows its suits the
    removed cards' suits are unseen, so each rank's EV is the mixture over which suits left, as
    for suited bets.  Shoes the walk cannot tell apart (the same class counts up to the suit
    permutations the bet cannot see: :func:`~exactodds.engine.cardwalk.class_key`) are walked
    once, so a bet that reads values and whether two cards are suited walks ten shoes, not 52.
    """
    from exactodds.analysis.cardprice import card_expected_values, compiles
    from exactodds.analysis.single import price_card_bet
    from exactodds.engine.cardwalk import class_key

    view = bet.cards
    assert view is not None
    walked: dict[object, tuple[int, int]] = {}
    # A finite shoe of a bet whose card terms compile is priced by them: the same exact EV
    # in a millisecond, where the walk takes a second or more a shoe.
    compiled = not shoe.infinite and compiles(bet, rules.tableau)

    def ratio(counts: _Counts) -> tuple[int, int]:
        left = Shoe.from_checked_counts(*counts)
        key = class_key(left, view)
        if key not in walked and compiled:
            numerators, denominators = card_expected_values(
                bet, rules.tableau, [left.rank_counts], [left.suit_counts]
            )
            walked[key] = (numerators[0], denominators[0])
        elif key not in walked:
            walked[key] = price_card_bet(left, rules, bet).moment_ratio()
        return walked[key]

    found = [ratio((shoe.rank_counts, shoe.suit_counts))]
    for index in removable:
        if shoe.suit_counts is None:
            counts = list(shoe.rank_counts)
            counts[index] -= cards
            found.append(ratio((tuple(counts), None)))
            continue
        mixture = _suit_mixture(shoe, index, cards)
        ways = sum(weight for weight, _ in mixture)
        # Members share their card count, so their EVs share a denominator.
        members = [(weight, ratio(member)) for weight, member in mixture]
        numerator = sum(weight * value[0] for weight, value in members)
        found.append((numerator, members[0][1][1] * ways))
    return found


def _difference(after: tuple[int, int], before: tuple[int, int]) -> Fraction:
    """``after - before`` of two unreduced ratios, as one Fraction."""
    return Fraction(after[0] * before[1] - before[0] * after[1], after[1] * before[1])


def _weighted_correlation(points: Sequence[tuple[int, Fraction, Fraction]]) -> BettingCorrelation:
    """Exact parts of the Pearson correlation of (weight, x, y) points."""
    total = sum(weight for weight, _, _ in points)
    if total == 0:
        return BettingCorrelation(Fraction(0), Fraction(0), Fraction(0))
    mean_x = sum((weight * x for weight, x, _ in points), Fraction(0)) / total
    mean_y = sum((weight * y for weight, _, y in points), Fraction(0)) / total
    covariance = sum((weight * (x - mean_x) * (y - mean_y) for weight, x, y in points), Fraction(0))
    variance_x = sum((weight * (x - mean_x) ** 2 for weight, x, _ in points), Fraction(0))
    variance_y = sum((weight * (y - mean_y) ** 2 for weight, _, y in points), Fraction(0))
    return BettingCorrelation(covariance, variance_x, variance_y)


def _balanced_tags(
    targets: Mapping[str, Fraction], weights: Mapping[str, int], max_tag: int
) -> tuple[dict[str, int], int]:
    """Integer tags near *targets* whose weighted sum is zero (or least in size).

    Ranks with the same target (T J Q K for most bets) form one group and
    share one tag.  Every tag keeps the sign of its target (or is 0) and
    stays within ``+-max_tag``; the search first allows each tag within one
    of its target, and only if that cannot balance, anywhere in that range.
    """
    groups: dict[Fraction, list[str]] = {}
    for symbol, target in targets.items():
        groups.setdefault(target, []).append(symbol)
    group_weights = [sum(weights[symbol] for symbol in members) for members in groups.values()]
    best: tuple[int, int, tuple[int, ...]] | None = None
    for near in (True, False):
        options = [_tag_options(target, max_tag, near) for target in groups]
        found = _nearest_balanced(list(groups), group_weights, options)
        if best is None or (abs(found[0]), found[1]) < (abs(best[0]), best[1]):
            best = found
        if best[0] == 0:
            break
    assert best is not None
    by_group = dict(zip(groups, best[2], strict=True))
    return {symbol: by_group[target] for symbol, target in targets.items()}, best[0]


def _tag_options(target: Fraction, max_tag: int, near: bool) -> list[int]:
    """Tags allowed for *target*: its sign (or 0), at most *max_tag*, and within one if *near*."""
    low, high = (0, max_tag) if target > 0 else (-max_tag, 0) if target < 0 else (0, 0)
    if near:
        low = max(low, math.floor(target) - 1)
        high = min(high, math.ceil(target) + 1)
    return list(range(low, high + 1))


def _nearest_balanced(
    targets: Sequence[Fraction], weights: Sequence[int], options: Sequence[Sequence[int]]
) -> tuple[int, int, tuple[int, ...]]:
    """(weighted sum, cost, tags) with the least |sum|, then the least cost.

    A dynamic programme over the groups, keyed by the weighted sum so far
    (and whether any tag is non-zero yet), keeps for each key the choice
    nearest the targets: the least ``sum(weight * (tag - target)**2)``.
    Tags that are all 0 are refused when some target is not, since such a
    count counts nothing.  Costs are exact integers, every target being put
    over one common denominator; ties go to the lexicographically least
    tags, so the answer is deterministic.
    """
    denominator = math.lcm(*(target.denominator for target in targets))
    states: dict[tuple[int, bool], tuple[int, tuple[int, ...]]] = {(0, False): (0, ())}
    for target, weight, candidates in zip(targets, weights, options, strict=True):
        scaled = target.numerator * (denominator // target.denominator)
        following: dict[tuple[int, bool], tuple[int, tuple[int, ...]]] = {}
        for (total, counts_something), (cost, chosen) in states.items():
            for tag in candidates:
                distance = tag * denominator - scaled
                entry = (cost + weight * distance * distance, (*chosen, tag))
                key = (total + weight * tag, counts_something or tag != 0)
                if key not in following or entry < following[key]:
                    following[key] = entry
        states = following
    wanted = any(targets)
    finals = {total: entry for (total, nonzero), entry in states.items() if nonzero == wanted}
    if not finals:  # every option of every group is 0
        finals = {total: entry for (total, _), entry in states.items()}
    best_sum = min(finals, key=lambda total: (abs(total), finals[total][0], total))
    return best_sum, finals[best_sum][0], finals[best_sum][1]
