"""Dragon Tiger dealt shoe after shoe, each bet priced exactly before every round.

:func:`deal_dragon_tiger` shuffles each shoe as ``simulate`` does
(:func:`~exactodds.simulation.dealing.shuffled_shoe`: child *shoe* of ``SeedSequence(seed)``,
so a shoe never depends on how many were dealt with it) and deals it two cards a round, the
Dragon's then the Tiger's, while more cards than the cut card's *cut* remain (no burn). Before
each round, every chosen bet is priced on the cards not yet seen, exactly: one card each side
makes that cheap, the rank and suit counts giving the EV in integers (:func:`round_value`, the
same figure :func:`~exactodds.games.dragon_tiger.dragon_tiger_odds` gives for that shoe). The
ranks seen before each round are kept, so any count's decision is one product away, compared
exactly in integers (:meth:`DealtShoes.at_least`), and so is each bet's actual result.

:func:`play` turns the dealt shoes and a way to play (perfect play: bet when the exact EV is
above 0; a count: bet when its true count reaches a trigger) into the win per 100 rounds dealt,
by the exact-EV estimator (the mean of the exact EVs of the rounds bet, which has far less
noise than the results) and by the results themselves, each with its standard error over
shoes.

>>> shoes = deal_dragon_tiger(("big", "tie"), {"big": 1, "tie": 8}, decks=1, cut=10, shoes=3, seed=7)
>>> shoes.rounds, shoes.shoes
(63, 3)
>>> Fraction(*round_value("big", Fraction(1), (4,) * 13, None, 52))
Fraction(-1, 13)
>>> figures = play(shoes, "big", Perfect())
>>> figures.rounds, figures.bets == int(shoes.positive["big"].sum())
(63, True)
>>> deal_dragon_tiger(("big",), {"big": 1}, decks=1, cut=51, shoes=1, seed=1)
Traceback (most recent call last):
...
exactodds.errors.SimulationError: Cut card 51 cards from the back leaves no round of a 52-card shoe; use a cut of at most 50.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from exactodds.errors import SimulationError, quoted
from exactodds.inputs import number_of_decks, whole_number
from exactodds.simulation.dealing import shuffled_shoe
from exactodds.simulation.risk.sums import nan_to_none

__all__ = [
    "Always",
    "Count",
    "DealtShoes",
    "DragonTigerSimulation",
    "Perfect",
    "PlayFigures",
    "best_trigger",
    "deal_dragon_tiger",
    "parse_play",
    "per_100_rounds",
    "play",
    "round_value",
    "simulate_dragon_tiger",
    "taken",
    "trigger_text",
]

#: Rank indexes (A = 0 ... K = 12) of the Big and Small bets' winning cards, as in the game.
_BIG = range(7, 13)
_SMALL = range(0, 6)


def round_value(
    name: str,
    pay: Fraction,
    rank_counts: Sequence[int],
    suit_counts: Sequence[int] | None,
    cards: int,
) -> tuple[int, int]:
    """Bet *name*'s exact EV on the cards left, as an unreduced ``(numerator, denominator)``.

    The same counts as :func:`~exactodds.games.dragon_tiger.dragon_tiger_odds` (ordered
    two-card rounds, the Dragon's card first), in integers; *suit_counts* is needed by the
    suited tie only.

    >>> Fraction(*round_value("tie", Fraction(8), (4,) * 13, None, 52))
    Fraction(-8, 17)
    >>> Fraction(*round_value("dragon", Fraction(1), (32,) * 13, None, 416))
    Fraction(-31, 830)
    """
    rounds = cards * (cards - 1)
    scale = 2 * pay.denominator  # every result times this is an integer
    win_value = pay.numerator * 2
    if name in ("dragon", "tiger"):
        below = wins = 0
        for count in rank_counts:
            wins += count * below
            below += count
        tie = sum(count * (count - 1) for count in rank_counts)
        losses = rounds - wins - tie
        return win_value * wins - pay.denominator * tie - scale * losses, scale * rounds
    if name == "tie":
        wins = sum(count * (count - 1) for count in rank_counts)
    elif name == "suited_tie":
        if suit_counts is None:
            raise SimulationError("The suited tie needs the shoe's suits.")
        wins = sum(count * (count - 1) for count in suit_counts)
    else:
        chosen = _BIG if name == "big" else _SMALL
        wins = sum(rank_counts[index] for index in chosen) * (cards - 1)
    return win_value * wins - scale * (rounds - wins), scale * rounds


def _result(name: str, pay: Fraction, dragon: int, tiger: int) -> Fraction:
    """What bet *name* nets on the round of card types *dragon* and *tiger* (0-51)."""
    dragon_rank, tiger_rank = dragon // 4, tiger // 4
    if name in ("dragon", "tiger"):
        if dragon_rank == tiger_rank:
            return Fraction(-1, 2)
        won = dragon_rank > tiger_rank if name == "dragon" else tiger_rank > dragon_rank
    elif name == "tie":
        won = dragon_rank == tiger_rank
    elif name == "suited_tie":
        won = dragon == tiger
    else:
        won = dragon_rank in (_BIG if name == "big" else _SMALL)
    return pay if won else Fraction(-1)


@dataclass(frozen=True)
class DealtShoes:
    """Shoes dealt and priced: one entry a round, in dealing order, shoe after shoe.

    ``shoe`` is each round's shoe number; ``seen`` the cards of each rank seen before it;
    ``left`` the cards left before it; ``value`` each bet's exact EV then (a float of the
    exact fraction), ``positive`` whether that exact EV is above 0, ``result`` what the bet
    netted on the round.
    """

    decks: int
    cut: int
    seed: int
    shoes: int
    bet_names: tuple[str, ...]
    shoe: npt.NDArray[np.int64]
    seen: npt.NDArray[np.int64]
    left: npt.NDArray[np.int64]
    value: Mapping[str, npt.NDArray[np.float64]]
    positive: Mapping[str, npt.NDArray[np.bool_]]
    result: Mapping[str, npt.NDArray[np.float64]]

    @property
    def rounds(self) -> int:
        """Rounds dealt, over every shoe."""
        return int(self.shoe.size)

    def at_least(self, tags: Sequence[int], trigger: Fraction) -> npt.NDArray[np.bool_]:
        """Before each round, whether the true count of *tags* (13, A ... K), the running count
        of the cards seen per deck left (``running * 52 / cards left``), is at least *trigger*:
        compared exactly, ``running * 52 * q >= p * cards left`` for a trigger ``p/q``."""
        running = self.seen @ np.asarray(tags, dtype=np.int64)
        return np.asarray(
            running * (52 * trigger.denominator) >= trigger.numerator * self.left, dtype=np.bool_
        )

    def half_steps(self, tags: Sequence[int]) -> npt.NDArray[np.int64]:
        """Before each round, twice the true count of *tags* rounded down, exactly: a round
        is bet at a trigger of ``h / 2`` exactly when its half step is ``h`` or more."""
        running = self.seen @ np.asarray(tags, dtype=np.int64)
        return np.asarray((running * 104) // self.left, dtype=np.int64)


def deal_dragon_tiger(
    bet_names: Sequence[str],
    pays: Mapping[str, Fraction | int],
    *,
    decks: int = 8,
    cut: int = 14,
    shoes: int = 100,
    seed: int = 1,
    first_shoe: int = 0,
) -> DealtShoes:
    """Deal *shoes* shoes of *decks* decks (shoes *first_shoe* on of *seed*) to the cut card.

    A round is dealt while more than *cut* cards are left; each bet of *bet_names* is priced
    on the cards left before it, at *pays* (name -> pay to 1).
    """
    number_of_decks(decks, SimulationError, text=False)
    whole_number(shoes, "shoes", SimulationError, minimum=1, what="Number of shoes")
    whole_number(cut, "cut", SimulationError, what="Cut card depth")
    size = 52 * decks
    if cut > size - 2:
        raise SimulationError(
            f"Cut card {cut} cards from the back leaves no round of a {size}-card shoe; use a "
            f"cut of at most {size - 2}."
        )
    chosen = {name: Fraction(pays[name]) for name in bet_names}
    numbers: list[int] = []
    seen_rows: list[list[int]] = []
    lefts: list[int] = []
    values: dict[str, list[float]] = {name: [] for name in chosen}
    positive: dict[str, list[bool]] = {name: [] for name in chosen}
    results: dict[str, list[float]] = {name: [] for name in chosen}
    for number in range(first_shoe, first_shoe + shoes):
        order = shuffled_shoe(decks, seed, number).tolist()
        ranks, suits, seen = [4 * decks] * 13, [decks] * 52, [0] * 13
        for start in range(0, size - cut - 1, 2):
            left = size - start
            numbers.append(number)
            seen_rows.append(list(seen))
            lefts.append(left)
            dragon, tiger = order[start], order[start + 1]
            for name, pay in chosen.items():
                numerator, denominator = round_value(name, pay, ranks, suits, left)
                values[name].append(numerator / denominator)
                positive[name].append(numerator > 0)
                results[name].append(float(_result(name, pay, dragon, tiger)))
            for card in (dragon, tiger):
                ranks[card // 4] -= 1
                suits[card] -= 1
                seen[card // 4] += 1
    return DealtShoes(
        decks,
        cut,
        seed,
        shoes,
        tuple(chosen),
        np.asarray(numbers, dtype=np.int64),
        np.asarray(seen_rows, dtype=np.int64).reshape(-1, 13),
        np.asarray(lefts, dtype=np.int64),
        {name: np.asarray(found, dtype=np.float64) for name, found in values.items()},
        {name: np.asarray(found, dtype=np.bool_) for name, found in positive.items()},
        {name: np.asarray(found, dtype=np.float64) for name, found in results.items()},
    )


@dataclass(frozen=True)
class Perfect:
    """Perfect play: bet exactly when the bet's exact EV on the cards left is above 0.

    >>> Perfect().describe()
    'perfect play (bet when the exact EV is above 0)'
    """

    def describe(self) -> str:
        """The play in words."""
        return "perfect play (bet when the exact EV is above 0)"


@dataclass(frozen=True)
class Count:
    """Bet when the true count of *tags* (13, A ... K) is at least *trigger*.

    >>> Count((1,) * 13, Fraction(5, 2)).describe()
    'the count A..K +1 +1 +1 +1 +1 +1 +1 +1 +1 +1 +1 +1 +1 at a true count of 2.5 or more'
    """

    tags: tuple[int, ...]
    trigger: Fraction

    def describe(self) -> str:
        """The play in words: the tags and the trigger."""
        tags = " ".join(f"{tag:+d}" for tag in self.tags)
        return f"the count A..K {tags} at a true count of {trigger_text(self.trigger)} or more"


def trigger_text(trigger: Fraction) -> str:
    """A trigger as the play writes it: ``2.5``, ``-1``, or ``1/3`` when no decimal ends.

    >>> trigger_text(Fraction(5, 2)), trigger_text(Fraction(-1)), trigger_text(Fraction(1, 3))
    ('2.5', '-1', '1/3')
    """
    denominator = trigger.denominator
    while denominator % 2 == 0:
        denominator //= 2
    while denominator % 5 == 0:
        denominator //= 5
    if denominator != 1:
        return f"{trigger.numerator}/{trigger.denominator}"
    return format(Decimal(trigger.numerator) / Decimal(trigger.denominator), "f")


@dataclass(frozen=True)
class Always:
    """Bet every round (the bet's plain house edge, dealt)."""

    def describe(self) -> str:
        """The play in words."""
        return "every round"


#: A way to play a bet.
Strategy = Perfect | Count | Always


#: A tag and a trigger as a play writes them: a tag of at most three digits, a trigger a decimal
#: or a fraction of at most six digits a part, so that the exact comparisons of
#: :meth:`DealtShoes.at_least` stay within 64-bit integers.
_TAG = re.compile(r"[-+]?\d{1,3}")  # a tag of at most three digits
_TRIGGER = re.compile(r"-?\d{1,6}(\.\d{0,6})?|-?\d{1,6}/[1-9]\d{0,5}")


def parse_play(text: str) -> tuple[str | None, Strategy]:
    """``[BET=]perfect``, ``[BET=]always`` or ``[BET=]count:T1,...,T13:TRIGGER`` (13 tags, A
    ... K; bet at a true count, the running count per deck left, of TRIGGER or more).

    >>> parse_play("big=count:1,1,1,1,1,1,1,-1,-1,-1,-1,-1,-1:2.5")[1].trigger
    Fraction(5, 2)
    >>> parse_play("perfect")
    (None, Perfect())
    >>> parse_play("tie=count:1,2:3")
    Traceback (most recent call last):
    ...
    exactodds.errors.SimulationError: Play 'tie=count:1,2:3' is not valid for Dragon Tiger; use perfect, always or count:TAGS:TRIGGER with 13 whole-number tags of up to 3 digits for A 2 ... 10 J Q K and a trigger such as 2.5 or 5/2: count:1,1,1,1,1,1,1,-1,-1,-1,-1,-1,-1:3.
    """
    bet, equals, strategy = text.partition("=")
    name = bet.strip().lower() if equals else None
    words = (strategy if equals else text).strip().lower()
    if words == "perfect":
        return name, Perfect()
    if words == "always":
        return name, Always()
    parts = words.split(":")
    try:
        if len(parts) != 3 or parts[0] != "count":
            raise ValueError
        tags = tuple(int(tag) for tag in parts[1].split(",") if _TAG.fullmatch(tag.strip()))
        if len(tags) != 13 or not _TRIGGER.fullmatch(parts[2].strip()):
            raise ValueError
        trigger = Fraction(parts[2].strip())  # exact, and bounded by the pattern
    except ValueError:
        raise SimulationError(
            f"Play {quoted(text.strip()[:80])} is not valid for Dragon Tiger; use perfect, always "
            "or count:TAGS:TRIGGER with 13 whole-number tags of up to 3 digits for A 2 ... 10 J "
            "Q K and a trigger such as 2.5 or 5/2: count:1,1,1,1,1,1,1,-1,-1,-1,-1,-1,-1:3."
        ) from None
    return name, Count(tags, trigger)


def taken(shoes: DealtShoes, name: str, strategy: Strategy) -> npt.NDArray[np.bool_]:
    """Which rounds *strategy* bets *name* on."""
    if isinstance(strategy, Perfect):
        return shoes.positive[name]
    if isinstance(strategy, Always):
        return np.ones(shoes.rounds, dtype=np.bool_)
    return shoes.at_least(strategy.tags, strategy.trigger)


@dataclass(frozen=True)
class PlayFigures:
    """One way of playing one bet over dealt shoes: how often it bet and what it won.

    ``exact_ev`` and ``results`` are (mean, standard error) of the win per 100 rounds dealt,
    by the exact-EV estimator and by the results; the errors are over shoes (the ratio
    estimator's delta method), NaN with one shoe.

    >>> figures = PlayFigures("big", "every round", 1, 40, 10, (1.0, math.nan), (2.5, math.nan))
    >>> figures.frequency, figures.to_dict()["units_per_100_rounds"]["exact_ev"]
    (0.25, {'mean': 1.0, 'stderr': None})
    """

    bet: str
    play: str
    shoes: int
    rounds: int
    bets: int
    exact_ev: tuple[float, float]
    results: tuple[float, float]

    @property
    def frequency(self) -> float:
        """The share of rounds bet."""
        return self.bets / self.rounds

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready figures (NaN as None)."""

        def pair(values: tuple[float, float]) -> dict[str, float | None]:
            return {"mean": nan_to_none(values[0]), "stderr": nan_to_none(values[1])}

        return {
            "bet": self.bet,
            "play": self.play,
            "shoes": self.shoes,
            "rounds": self.rounds,
            "bets": self.bets,
            "frequency": self.frequency,
            "units_per_100_rounds": {
                "exact_ev": pair(self.exact_ev),
                "results": pair(self.results),
            },
        }


def per_100_rounds(
    totals: npt.NDArray[np.float64], rounds: npt.NDArray[np.float64]
) -> tuple[float, float]:
    """Sum of *totals* per 100 of *rounds* (one entry a shoe), with its delta-method error.

    >>> per_100_rounds(np.array([1.0, 3.0]), np.array([50.0, 50.0]))
    (4.0, 2.0)
    """
    ratio = float(totals.sum() / rounds.sum())
    if totals.size < 2:
        return 100 * ratio, math.nan
    residuals = totals - ratio * rounds
    spread = float((residuals**2).sum()) / (totals.size - 1)
    return 100 * ratio, 100 * math.sqrt(spread / totals.size) / float(rounds.mean())


def play(shoes: DealtShoes, name: str, strategy: Strategy) -> PlayFigures:
    """*strategy*'s figures betting one unit on *name* at each round it chooses."""
    chosen = taken(shoes, name, strategy)
    rounds = np.bincount(shoes.shoe - shoes.shoe.min(), minlength=1).astype(np.float64)
    weights = shoes.shoe - shoes.shoe.min()

    def sums(values: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        found = np.bincount(weights, np.where(chosen, values, 0.0), minlength=rounds.size)
        return np.asarray(found, dtype=np.float64)

    return PlayFigures(
        name,
        strategy.describe(),
        shoes.shoes,
        shoes.rounds,
        int(chosen.sum()),
        per_100_rounds(sums(shoes.value[name]), rounds),
        per_100_rounds(sums(shoes.result[name]), rounds),
    )


def best_trigger(
    shoes: DealtShoes, name: str, tags: Sequence[int], least: Fraction = Fraction(1, 1000)
) -> Fraction:
    """The trigger (a true count, to a half) that wins most by the exact EV on *shoes*,
    among those that bet at least a share *least* of the rounds.  Each round's half step is
    exact (:meth:`DealtShoes.half_steps`), so a trigger's rounds are those :func:`play` bets.

    >>> shoes = deal_dragon_tiger(("big",), {"big": 1}, decks=1, cut=10, shoes=20, seed=3)
    >>> best_trigger(shoes, "big", (1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1)) > 0
    True
    """
    steps = shoes.half_steps(tags)
    order = np.argsort(-steps, kind="stable")
    ordered, gains = steps[order], np.cumsum(shoes.value[name][order])
    best, trigger = -math.inf, int(ordered[-1])
    for index in range(ordered.size):
        last = index == ordered.size - 1
        if (not last and ordered[index + 1] == ordered[index]) or (
            index + 1
        ) < least * ordered.size:
            continue
        if gains[index] > best:  # the gains are floats of exact EVs: an estimate's choice
            best, trigger = float(gains[index]), int(ordered[index])
    return Fraction(trigger, 2)


@dataclass(frozen=True)
class DragonTigerSimulation:
    """Dragon Tiger's bets played over dealt shoes: one :class:`PlayFigures` a bet.

    >>> found = simulate_dragon_tiger({"tie": Fraction(8)}, {"tie": Perfect()}, decks=1, shoes=1)
    >>> found.to_dict()["procedure"], found.figures["tie"].bets <= found.rounds
    ({'decks': 1, 'cut': 14, 'burn': 'none'}, True)
    """

    decks: int
    cut: int
    shoes: int
    seed: int
    rounds: int
    pays: Mapping[str, Fraction]
    figures: Mapping[str, PlayFigures]

    def to_dict(self) -> dict[str, Any]:
        """The JSON contract of ``exactodds simulate --game dragon-tiger --format json``."""
        return {
            "game": "dragon-tiger",
            "procedure": {"decks": self.decks, "cut": self.cut, "burn": "none"},
            "shoes": self.shoes,
            "seed": self.seed,
            "rounds": self.rounds,
            "pays": {name: str(pay) for name, pay in self.pays.items()},
            "bets": {name: figures.to_dict() for name, figures in self.figures.items()},
        }


def simulate_dragon_tiger(
    pays: Mapping[str, Fraction],
    plays: Mapping[str, Strategy],
    *,
    decks: int = 8,
    cut: int = 14,
    shoes: int = 1000,
    seed: int = 0,
) -> DragonTigerSimulation:
    """Deal *shoes* shoes and play each bet of *plays* (name -> strategy) at *pays*.

    >>> found = simulate_dragon_tiger({"big": Fraction(1)}, {"big": Always()}, decks=1, shoes=2)
    >>> found.figures["big"].bets == found.rounds
    True
    """
    names = tuple(plays)
    dealt = deal_dragon_tiger(names, pays, decks=decks, cut=cut, shoes=shoes, seed=seed)
    figures = {name: play(dealt, name, strategy) for name, strategy in plays.items()}
    chosen = {name: Fraction(pays[name]) for name in names}
    return DragonTigerSimulation(decks, cut, shoes, seed, dealt.rounds, chosen, figures)
