"""Dragon Tiger from a baccarat shoe, exactly: one card to the Dragon, one to the Tiger.

The game as live tables and studios deal it (8 decks, the baccarat shoe): the Dragon's card
is dealt first, then the Tiger's, and the higher rank wins, aces low and kings high
(A < 2 < ... < 9 < 10 < J < Q < K); suits never rank. The bets:

=============  ====================================================  =======
bet            wins when                                             pays
=============  ====================================================  =======
``dragon``     the Dragon's card ranks higher (loses half on a tie)  1:1
``tiger``      the Tiger's card ranks higher (loses half on a tie)   1:1
``tie``        both cards have the same rank                         8:1
``suited_tie`` both cards have the same rank and suit (suits known)  50:1
``big``        the Dragon's card is 8, 9, 10, J, Q or K (a 7 loses)  1:1
``small``      the Dragon's card is A to 6 (a 7 loses)               1:1
=============  ====================================================  =======

Every figure is counted over the shoe's ordered two-card sequences, ``n (n - 1)`` rounds for
``n`` cards, the same ordered-sequence convention as baccarat's six-card count; integer
counts throughout and one :class:`~fractions.Fraction` per figure at the end. Any shoe will
do (full, depleted, ``--remove``, ``--shoe``), and the cost does not grow with it.

>>> from exactodds.shoe import Shoe
>>> odds = dragon_tiger_odds(Shoe.standard(decks=8))
>>> odds.rounds, odds.outcomes["tie"]
(172640, 12896)
>>> odds.bets["dragon"].expected_value
Fraction(-31, 830)
>>> dragon_tiger_odds(Shoe.standard(decks=8), ["banker"])
Traceback (most recent call last):
...
exactodds.errors.BetError: Bet 'banker' in `bets` is a baccarat bet; Dragon Tiger's bets are dragon, tiger, tie, suited_tie, big and small.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from exactodds.analysis.removal import (
    DEFAULT_MAX_TAG,
    EffectOfRemoval,
    LinearCount,
    refuse_infinite,
)
from exactodds.analysis.single import BetAnalysis
from exactodds.bets.bet import Bet
from exactodds.bets.catalogue import available_bets
from exactodds.cards import RANKS
from exactodds.errors import BetError, PayError, RemovalError, ShoeError, parameter, quoted
from exactodds.inputs import whole_number
from exactodds.numbers import NumberLike, decimal_string, fraction_string, parse_pay
from exactodds.rules import Rules
from exactodds.shoe import Shoe

__all__ = [
    "BET_NAMES",
    "DEFAULT_PAYS",
    "DESCRIPTIONS",
    "SETTLEMENT",
    "DragonTigerBet",
    "DragonTigerOdds",
    "DragonTigerRemoval",
    "DragonTigerTable",
    "dragon_tiger_odds",
    "dragon_tiger_pays",
    "dragon_tiger_removal",
    "select_dragon_tiger_bets",
]

#: The bets, in the order every result lists them.
BET_NAMES: tuple[str, ...] = ("dragon", "tiger", "tie", "suited_tie", "big", "small")

#: What each bet pays to 1 on a win, as most tables deal it (a studio's Tie pays 11:1).
DEFAULT_PAYS: Mapping[str, Fraction] = {
    "dragon": Fraction(1),
    "tiger": Fraction(1),
    "tie": Fraction(8),
    "suited_tie": Fraction(50),
    "big": Fraction(1),
    "small": Fraction(1),
}

#: The game's settlement in one line, as a par sheet states its rules.
SETTLEMENT = (
    "one card to the Dragon, then one to the Tiger; the higher rank wins, aces low and kings "
    "high, suits never rank; the dragon and tiger bets lose half the stake on a tie in rank"
)

#: What each bet is, in the words a par sheet prints beside its pays.
DESCRIPTIONS: Mapping[str, str] = {
    "dragon": "The Dragon's card ranks higher (A low, K high); a tie in rank loses half the stake.",
    "tiger": "The Tiger's card ranks higher (A low, K high); a tie in rank loses half the stake.",
    "tie": "The Dragon's and the Tiger's cards have the same rank.",
    "suited_tie": "The Dragon's and the Tiger's cards have the same rank and the same suit.",
    "big": "The Dragon's card is 8, 9, 10, J, Q or K (a 7 loses).",
    "small": "The Dragon's card is A, 2, 3, 4, 5 or 6 (a 7 loses).",
}

#: The outcome names of a bet seen as a baccarat-style pay table (:meth:`DragonTigerBet.as_bet_analysis`).
WIN, TIE_OUTCOME, LOSE = "win", "tie", "lose"

#: What a Dragon or Tiger bet loses on a tie: half the stake.
TIE_LOSS = Fraction(-1, 2)

#: A round is two cards, the Dragon's then the Tiger's.
ROUND_CARDS = 2

#: Rank indexes (A = 0 ... K = 12) of the Big and Small bets' winning cards; the 7 loses both.
BIG_RANKS = range(7, 13)
SMALL_RANKS = range(0, 6)

SUITS_UNKNOWN = (
    "The suited tie needs suits, and the shoe is known by rank only (its cards were given "
    "without suits); name every card of the shoe and every card removed with its suit, such "
    "as KS or 7H."
)


def select_dragon_tiger_bets(bets: Iterable[str] | str | None) -> tuple[str, ...]:
    """The bets named in *bets* (names, or a comma-separated text; ``all`` or None: every bet).

    A baccarat bet gets its own sentence, since it is the likely slip.

    >>> select_dragon_tiger_bets("tie, dragon")
    ('dragon', 'tie')
    >>> select_dragon_tiger_bets(["dragons"])
    Traceback (most recent call last):
    ...
    exactodds.errors.BetError: Unknown Dragon Tiger bet 'dragons' in `bets`; use dragon, tiger, tie, suited_tie, big, small or all.
    """
    if bets is None:
        return BET_NAMES
    names = bets.split(",") if isinstance(bets, str) else list(bets)
    chosen: set[str] = set()
    for raw in names:
        name = str(raw).strip().lower()
        if name == "all":
            chosen.update(BET_NAMES)
        elif name in BET_NAMES:
            chosen.add(name)
        else:
            raise BetError(_not_a_bet(str(raw).strip()))
    if not chosen:
        raise BetError(f"No bet named in {parameter('bets')}; use {_choices()} or all.")
    return tuple(name for name in BET_NAMES if name in chosen)


def dragon_tiger_pays(pays: Mapping[str, NumberLike] | None = None) -> dict[str, Fraction]:
    """Every bet's pay to 1: :data:`DEFAULT_PAYS` with *pays* (name -> pay) over them.

    >>> dragon_tiger_pays({"tie": "11:1"})["tie"]
    Fraction(11, 1)
    >>> dragon_tiger_pays({"tie": "0"})
    Traceback (most recent call last):
    ...
    exactodds.errors.PayError: Pay '0' for tie in `pays` is not valid; use a positive number such as 8, 8:1, 17/2 or 8.5.
    """
    chosen = dict(DEFAULT_PAYS)
    for name, pay in (pays or {}).items():
        key = str(name).strip().lower()
        if key not in BET_NAMES:
            raise PayError(_not_a_bet(str(name), "pays"))
        chosen[key] = parse_pay(pay, f"{key} in {parameter('pays')}")
    return chosen


@dataclass(frozen=True)
class DragonTigerTable:
    """A Dragon Tiger table as a command is asked for it: the bets chosen and every pay.

    >>> table = DragonTigerTable(("tie",), dragon_tiger_pays({"tie": 11}))
    >>> table.pays["tie"], table.bet_names
    (Fraction(11, 1), ('tie',))
    >>> DragonTigerTable(("banker",), dragon_tiger_pays())
    Traceback (most recent call last):
    ...
    exactodds.errors.BetError: Bet 'banker' in `bets` is a baccarat bet; Dragon Tiger's bets are dragon, tiger, tie, suited_tie, big and small.
    """

    bet_names: tuple[str, ...] = BET_NAMES
    pays: Mapping[str, Fraction] = field(default_factory=lambda: dict(DEFAULT_PAYS))

    def __post_init__(self) -> None:
        select_dragon_tiger_bets(self.bet_names)


@dataclass(frozen=True)
class DragonTigerBet:
    """One bet's exact figures: its net results per unit staked and the rounds giving each.

    ``results`` maps each net result (``pay`` for a win, ``-1/2`` for a Dragon or Tiger bet's
    tie, ``-1`` for a loss) to its number of ordered rounds out of ``rounds``.

    >>> bet = DragonTigerBet("tie", Fraction(8), {Fraction(8): 1, Fraction(-1): 9}, 10)
    >>> bet.expected_value, bet.house_edge, bet.return_to_player
    (Fraction(-1, 10), Fraction(1, 10), Fraction(9, 10))
    >>> DragonTigerBet("tie", Fraction(8), {Fraction(8): 1}, 10)
    Traceback (most recent call last):
    ...
    exactodds.errors.BetError: The results of tie count 1 rounds, not the 10 of the shoe.
    """

    name: str
    pay: Fraction
    results: Mapping[Fraction, int]
    rounds: int

    def __post_init__(self) -> None:
        if sum(self.results.values()) != self.rounds:
            raise BetError(
                f"The results of {self.name} count {sum(self.results.values())} rounds, not "
                f"the {self.rounds} of the shoe."
            )

    def probability(self, result: Fraction | int) -> Fraction:
        """The exact probability of the net result *result* (0 when it cannot happen)."""
        return Fraction(self.results.get(Fraction(result), 0), self.rounds)

    @property
    def expected_value(self) -> Fraction:
        """The exact expected net result per unit staked."""
        total = sum(result * count for result, count in self.results.items())
        return Fraction(total) / self.rounds

    @property
    def variance(self) -> Fraction:
        """The exact variance of the net result per unit staked."""
        second = sum(result * result * count for result, count in self.results.items())
        return Fraction(second) / self.rounds - self.expected_value**2

    @property
    def house_edge(self) -> Fraction:
        """Minus the EV: the casino's expected win per unit staked."""
        return -self.expected_value

    @property
    def return_to_player(self) -> Fraction:
        """The RTP a studio publishes: 1 + EV (what a unit staked returns, on average)."""
        return 1 + self.expected_value

    def as_bet_analysis(self) -> BetAnalysis:
        """The same counts as a :class:`~exactodds.analysis.single.BetAnalysis`, for the par sheet.

        The outcomes are ``win`` (the pay), ``lose`` (-1) and, for the Dragon and Tiger bets,
        ``tie`` (-1/2); the total is the shoe's ordered two-card rounds. Every figure the
        analysis derives (EV, variance, hit frequency, the distribution) is these counts'.
        Its bet prices nothing itself: settling a baccarat round with it is refused.

        >>> tie = dragon_tiger_odds(Shoe.standard(decks=8), "tie").bets["tie"]
        >>> analysis = tie.as_bet_analysis()
        >>> analysis.outcome_counts, analysis.expected_value == tie.expected_value
        ({'lose': 159744, 'win': 12896}, True)
        >>> analysis.bet.settle(None)
        Traceback (most recent call last):
        ...
        exactodds.errors.BetError: Dragon Tiger's bet 'tie' is priced by exactodds.games.dragon_tiger from the shoe's two-card rounds; it settles no baccarat round.
        """
        names = {self.pay: WIN, TIE_LOSS: TIE_OUTCOME, Fraction(-1): LOSE}
        pays = {WIN: self.pay, LOSE: Fraction(-1)}
        if self.name in ("dragon", "tiger"):
            pays[TIE_OUTCOME] = TIE_LOSS
        counts = dict.fromkeys(sorted(pays), 0)
        for result, count in self.results.items():
            counts[names[result]] += count
        bet = Bet(self.name, DESCRIPTIONS[self.name], _settles_no_baccarat_round(self.name), pays)
        return BetAnalysis(bet, counts, self.rounds)

    def to_dict(self, digits: int = 10) -> dict[str, Any]:
        """JSON-ready figures: exact ``"n/d"`` strings with ``*_decimal`` companions.

        >>> DragonTigerBet("tie", Fraction(8), {Fraction(8): 1, Fraction(-1): 9}, 10).to_dict(4)[
        ...     "house_edge_percent"]
        '10.00%'
        """
        figures = {
            "ev": self.expected_value,
            "house_edge": self.house_edge,
            "rtp": self.return_to_player,
            "variance": self.variance,
        }
        data: dict[str, Any] = {"pay": fraction_string(self.pay)}
        for key, value in figures.items():
            data[key] = fraction_string(value)
            data[f"{key}_decimal"] = decimal_string(value, digits)
        # As baccarat's bets give it (``odds --format json``), for a page to show as is.
        data["house_edge_percent"] = decimal_string(self.house_edge * 100, max(digits - 2, 0)) + "%"
        data["results"] = [
            {
                "result": fraction_string(result),
                "rounds": count,
                "probability": fraction_string(Fraction(count, self.rounds)),
            }
            for result, count in sorted(self.results.items(), reverse=True)
        ]
        return data


@dataclass(frozen=True)
class DragonTigerOdds:
    """Dragon Tiger's exact odds on one shoe: the outcomes and each chosen bet.

    * ``rounds``: ordered two-card sequences, ``n (n - 1)``.
    * ``outcomes``: rounds in which the ``dragon`` wins, the ``tiger`` wins, the cards ``tie``
      in rank, ``suited_tie`` (None when the shoe does not know its suits), the Dragon's
      card is ``big`` (8-K), ``seven`` or ``small`` (A-6).
    * ``bets``: bet name -> :class:`DragonTigerBet`; ``unavailable``: bet -> why not priced.

    >>> odds = dragon_tiger_odds(Shoe.parse("AS=1,AH=1,KS=2"), ["suited_tie"])
    >>> odds.outcomes["suited_tie"], odds.rounds
    (2, 12)
    >>> odds.to_dict()["bets"]["suited_tie"]["ev"]
    '15/2'
    """

    shoe: Shoe
    pays: Mapping[str, Fraction]
    rounds: int
    outcomes: Mapping[str, int | None]
    bets: Mapping[str, DragonTigerBet]
    unavailable: Mapping[str, str]
    bet_names: tuple[str, ...]

    def probability(self, outcome: str) -> Fraction | None:
        """The exact probability of *outcome* (a key of ``outcomes``), None when not known."""
        count = self.outcomes[outcome]
        return None if count is None else Fraction(count, self.rounds)

    def to_dict(self, digits: int = 10) -> dict[str, Any]:
        """The JSON contract of ``exactodds odds --game dragon-tiger --format json``."""
        outcomes: dict[str, Any] = {}
        for name, count in self.outcomes.items():
            probability = self.probability(name)
            outcomes[name] = {
                "rounds": count,
                "probability": None if probability is None else fraction_string(probability),
                "probability_decimal": (
                    None if probability is None else decimal_string(probability, digits)
                ),
            }
        return {
            "game": "dragon-tiger",
            "shoe": _shoe_data(self.shoe),
            "pays": {name: fraction_string(self.pays[name]) for name in self.bet_names},
            "rounds": self.rounds,
            "outcomes": outcomes,
            "bets": {name: bet.to_dict(digits) for name, bet in self.bets.items()},
            "unavailable": dict(self.unavailable),
        }


def dragon_tiger_odds(
    shoe: Shoe,
    bets: Iterable[str] | str | None = None,
    pays: Mapping[str, NumberLike] | None = None,
) -> DragonTigerOdds:
    """Dragon Tiger's exact odds on *shoe* for *bets* (default every bet) under *pays*.

    The suited tie needs a shoe that knows its suits; on one known by rank only it is listed
    in ``unavailable`` with the reason, as baccarat's suited bets are.

    >>> odds = dragon_tiger_odds(Shoe.standard(decks=8), "tie", {"tie": 11})
    >>> odds.bets["tie"].return_to_player
    Fraction(372, 415)
    >>> dragon_tiger_odds(Shoe.parse("A=1"))
    Traceback (most recent call last):
    ...
    exactodds.errors.ShoeError: The shoe holds 1 card; a Dragon Tiger round is counted as a sequence of 2 cards, so a shoe needs at least 2.
    """
    names = select_dragon_tiger_bets(bets)
    chosen_pays = dragon_tiger_pays(pays)
    _require_round(shoe)
    taken = 0 if shoe.infinite else 1  # an infinite shoe puts every card back
    outcomes = _outcomes(shoe.rank_counts, shoe.suit_counts, taken)
    rounds = shoe.cards * (shoe.cards - taken)
    priced: dict[str, DragonTigerBet] = {}
    unavailable: dict[str, str] = {}
    for name in names:
        results = _results(name, chosen_pays[name], outcomes)
        if results is None:
            unavailable[name] = SUITS_UNKNOWN
        else:
            priced[name] = DragonTigerBet(name, chosen_pays[name], results, rounds)
    return DragonTigerOdds(shoe, chosen_pays, rounds, outcomes, priced, unavailable, names)


@dataclass(frozen=True)
class DragonTigerRemoval:
    """Exact effects of removal of Dragon Tiger's bets, rank by rank, and a count for each.

    The same fields as :class:`~exactodds.analysis.removal.EffectOfRemoval` (less its
    baccarat ``rules``, plus ``pays``); the linear counts and betting correlations are made
    by that class's own methods (see :func:`dragon_tiger_removal`).

    >>> removal = dragon_tiger_removal(Shoe.standard(decks=1), ["big"])
    >>> removal.effects["big"]["7"], removal.counts["big"].tags["7"]
    (Fraction(4, 221), 1)
    >>> removal.weighted_sum("big")
    Fraction(0, 1)
    """

    shoe: Shoe
    pays: Mapping[str, Fraction]
    cards: int
    expected_values: Mapping[str, Fraction]
    effects: Mapping[str, Mapping[str, Fraction | None]]
    skipped: Mapping[str, str]
    unavailable: Mapping[str, str]
    bet_names: tuple[str, ...]
    max_tag: int = DEFAULT_MAX_TAG
    counts: Mapping[str, LinearCount] = field(default_factory=dict)

    def as_effect_of_removal(self) -> EffectOfRemoval:
        """The same effects as an :class:`EffectOfRemoval`, to use its count machinery.

        Its ``rules`` field is baccarat's default and means nothing here; nothing of this
        game reads it (the counts and correlations read the shoe and the effects only).
        """
        return EffectOfRemoval(
            self.shoe,
            Rules(),
            self.cards,
            self.expected_values,
            self.effects,
            self.skipped,
            self.unavailable,
            self.bet_names,
            self.max_tag,
            self.counts,
        )

    def weighted_sum(self, bet: str) -> Fraction:
        """``sum over ranks of (cards of the rank) * effect``: 0 for one card (the bottom-card
        argument of :mod:`exactodds.analysis.removal` holds for a two-card round too)."""
        return self.as_effect_of_removal().weighted_sum(bet)

    def linear_count(self, bet: str, max_tag: int = DEFAULT_MAX_TAG) -> LinearCount:
        """A balanced linear count for *bet* (:meth:`EffectOfRemoval.linear_count`)."""
        return self.as_effect_of_removal().linear_count(bet, max_tag)

    def to_dict(self, digits: int = 10) -> dict[str, Any]:
        """The JSON contract of ``exactodds eor --game dragon-tiger --format json``."""
        bets: dict[str, Any] = {}
        for name, effects in self.effects.items():
            before = self.expected_values[name]
            count = self.counts[name]
            correlation = count.correlation
            defined = correlation is not None and correlation.defined
            bets[name] = {
                "ev": fraction_string(before),
                "ev_decimal": decimal_string(before, digits),
                "eor": {rank: _maybe(effect) for rank, effect in effects.items()},
                "eor_decimal": {
                    rank: None if effect is None else decimal_string(effect, digits)
                    for rank, effect in effects.items()
                },
                "weighted_sum": fraction_string(self.weighted_sum(name)),
                "count": {
                    "max_tag": count.max_tag,
                    "tags": dict(count.tags),
                    "balanced": count.balanced,
                    "imbalance": count.imbalance,
                    "betting_correlation_decimal": (
                        count.correlation_decimal(digits) if defined else None
                    ),
                },
            }
        return {
            "game": "dragon-tiger",
            "shoe": _shoe_data(self.shoe),
            "pays": {name: fraction_string(self.pays[name]) for name in self.bet_names},
            "cards_removed": self.cards,
            "bets": bets,
            "skipped": dict(self.skipped),
            "unavailable": dict(self.unavailable),
        }


def dragon_tiger_removal(
    shoe: Shoe,
    bets: Iterable[str] | str | None = None,
    pays: Mapping[str, NumberLike] | None = None,
    cards: int = 1,
    max_tag: int = DEFAULT_MAX_TAG,
) -> DragonTigerRemoval:
    """The exact effect on each bet's EV of removing *cards* cards of each rank from *shoe*.

    The effects are this game's own (a two-card count, so a rank is skipped only when fewer
    than *cards* are left or fewer than two cards would remain); the linear count and its
    betting correlation are :class:`~exactodds.analysis.removal.EffectOfRemoval`'s, reached
    through its public methods, so both games derive counts the same way. On a shoe that
    knows its suits, the removed cards' suits are averaged over, weighted by the suit counts.

    >>> removal = dragon_tiger_removal(Shoe.standard(decks=8), ["big", "tie"])
    >>> removal.effects["big"]["7"], removal.effects["big"]["8"]
    (Fraction(12, 5395), Fraction(-14, 5395))
    >>> removal.effects["tie"]["7"]  # on an even shoe every rank weighs alike: no effect
    Fraction(0, 1)
    >>> dragon_tiger_removal(Shoe.standard(decks=8), cards=0)
    Traceback (most recent call last):
    ...
    exactodds.errors.RemovalError: Number of cards to remove 0 for `cards` is not valid; use a whole number of at least 1.
    """
    whole_number(cards, "cards", RemovalError, minimum=1, what="Number of cards to remove")
    whole_number(max_tag, "max_tag", RemovalError, minimum=1, what="Largest tag")
    refuse_infinite(shoe)
    odds = dragon_tiger_odds(shoe, bets, pays)
    skipped = _skipped_ranks(shoe, cards)
    if len(skipped) == len(RANKS):
        raise RemovalError(_nothing_removable(shoe, cards))
    priced = tuple(odds.bets)
    effects: dict[str, dict[str, Fraction | None]] = {name: {} for name in priced}
    for rank in RANKS:
        after = None if rank.symbol in skipped else _expected_values_after(odds, rank.index, cards)
        for name in priced:
            before = odds.bets[name].expected_value
            effects[name][rank.symbol] = None if after is None else after[name] - before
    removal = DragonTigerRemoval(
        shoe,
        odds.pays,
        cards,
        {name: bet.expected_value for name, bet in odds.bets.items()},
        effects,
        skipped,
        dict(odds.unavailable),
        odds.bet_names,
        max_tag,
    )
    counts = {name: removal.linear_count(name, max_tag) for name in priced}
    return replace(removal, counts=counts)


# Helpers ---------------------------------------------------------------------


def _settles_no_baccarat_round(name: str) -> Callable[[object], str]:
    def settle(summary: object) -> str:
        raise BetError(
            f"Dragon Tiger's bet {quoted(name)} is priced by exactodds.games.dragon_tiger from "
            "the shoe's two-card rounds; it settles no baccarat round."
        )

    return settle


def _choices() -> str:
    return ", ".join(BET_NAMES)


def _not_a_bet(name: str, where: str = "bets") -> str:
    if name.lower() in available_bets() or name.lower() in ("main", "side", "custom"):
        return (
            f"Bet {quoted(name)} in {parameter(where)} is a baccarat bet; Dragon Tiger's bets "
            f"are {', '.join(BET_NAMES[:-1])} and {BET_NAMES[-1]}."
        )
    return (
        f"Unknown Dragon Tiger bet {quoted(name)} in {parameter(where)}; use {_choices()} or all."
    )


def _require_round(shoe: Shoe) -> None:
    if shoe.cards < ROUND_CARDS:
        cards = f"{shoe.cards} card" + ("" if shoe.cards == 1 else "s")
        raise ShoeError(
            f"The shoe holds {cards}; a Dragon Tiger round is counted as a sequence of 2 "
            "cards, so a shoe needs at least 2."
        )


def _outcomes(
    rank_counts: tuple[int, ...], suit_counts: tuple[int, ...] | None, taken: int = 1
) -> dict[str, int | None]:
    """Ordered rounds of each outcome: the Dragon's card first, then the Tiger's.

    *taken* is what the Dragon's card takes from its class: 1, or 0 with replacement.
    """
    total = sum(rank_counts)
    dragon = tiger = 0
    below = 0
    for count in rank_counts:  # ranks from A up: cards below this rank are dealt the loser
        dragon += count * below
        tiger += count * (total - below - count)
        below += count
    suited = None if suit_counts is None else sum(count * (count - taken) for count in suit_counts)
    others = total - taken
    return {
        "dragon": dragon,
        "tiger": tiger,
        "tie": sum(count * (count - taken) for count in rank_counts),
        "suited_tie": suited,
        "big": sum(rank_counts[index] for index in BIG_RANKS) * others,
        "seven": rank_counts[6] * others,
        "small": sum(rank_counts[index] for index in SMALL_RANKS) * others,
    }


def _results(
    name: str, pay: Fraction, outcomes: Mapping[str, int | None]
) -> dict[Fraction, int] | None:
    """A bet's net results and their rounds; None for the suited tie with suits unknown."""
    rounds = sum(outcomes[key] or 0 for key in ("big", "seven", "small"))
    tie = outcomes["tie"] or 0
    if name in ("dragon", "tiger"):
        wins = outcomes[name] or 0
        split = {pay: wins, TIE_LOSS: tie, Fraction(-1): rounds - wins - tie}
    else:
        wins_or_none = outcomes[name]
        if wins_or_none is None:
            return None
        split = {pay: wins_or_none, Fraction(-1): rounds - wins_or_none}
    return {result: count for result, count in split.items() if count}


def _skipped_ranks(shoe: Shoe, cards: int) -> dict[str, str]:
    skipped: dict[str, str] = {}
    for rank in RANKS:
        have = shoe.rank_counts[rank.index]
        if have < cards:
            holds = "none" if have == 0 else f"only {have}"
            skipped[rank.symbol] = f"Cannot remove {cards} {rank.symbol}: the shoe holds {holds}."
        elif shoe.cards - cards < ROUND_CARDS:
            skipped[rank.symbol] = (
                f"Removing {cards} card{'' if cards == 1 else 's'} from this {shoe.cards}-card shoe would leave "
                f"{shoe.cards - cards}; a Dragon Tiger round needs 2."
            )
    return skipped


def _nothing_removable(shoe: Shoe, cards: int) -> str:
    if shoe.cards - cards < ROUND_CARDS:
        return (
            f"Cannot remove {cards} card{'' if cards == 1 else 's'} from this {shoe.cards}-card "
            "shoe: a Dragon Tiger round needs 2 left."
        )
    most = max(shoe.rank_counts)
    return (
        f"Cannot remove {cards} cards of any one rank: the shoe holds at most {most} of a rank; "
        f"use a number of cards from 1 to {most}."
    )


def _expected_values_after(odds: DragonTigerOdds, index: int, cards: int) -> dict[str, Fraction]:
    """Every priced bet's EV once *cards* cards of rank *index* leave unseen.

    With suits known, which suits leave follows the multivariate hypergeometric law: each
    way weighs ``prod comb(n_suit, taken)``; the EV after is the weighted average (exact).
    """
    shoe = odds.shoe
    ranks = list(shoe.rank_counts)
    ranks[index] -= cards
    members: list[tuple[int, tuple[int, ...] | None]] = [(1, None)]
    if shoe.suit_counts is not None:
        suits = shoe.suit_counts[index * 4 : index * 4 + 4]
        members = []
        for taken in itertools.product(*(range(min(count, cards) + 1) for count in suits)):
            if sum(taken) == cards:
                left = list(shoe.suit_counts)
                for suit, number in enumerate(taken):
                    left[index * 4 + suit] -= number
                members.append((math.prod(map(math.comb, suits, taken)), tuple(left)))
    ways = sum(weight for weight, _ in members)
    rounds = (shoe.cards - cards) * (shoe.cards - cards - 1)
    totals: dict[str, Fraction] = dict.fromkeys(odds.bets, Fraction(0))
    for weight, suit_counts in members:
        outcomes = _outcomes(tuple(ranks), suit_counts)
        for name, bet in odds.bets.items():
            results = _results(name, bet.pay, outcomes)
            assert results is not None  # a priced bet has what it needs on every member
            totals[name] += weight * sum(result * count for result, count in results.items())
    return {name: total / (ways * rounds) for name, total in totals.items()}


def _maybe(value: Fraction | None) -> str | None:
    return None if value is None else fraction_string(value)


def _shoe_data(shoe: Shoe) -> dict[str, Any]:
    return {
        "cards": None if shoe.infinite else shoe.cards,
        "decks": "infinite" if shoe.infinite else shoe.decks,
        "suits_known": shoe.suits_known,
        "ranks": shoe.to_dict(),
    }
