"""A random-multiplier overlay in a simulation: each round's exact EV and its realized pay.

A bet the overlay multiplies (:data:`~exactodds.bets.multipliers.MULTIPLIED_BETS`) is priced
on every round's known shoe by :func:`~exactodds.analysis.multipliers.analyze_overlay` (the
exact EV per unit staked, fee excluded, as ``odds --multipliers`` prints it), and paid on the
cards the round dealt: its pay (the overlay's base pay for a win) times the multipliers the
round drew (:func:`draw_multipliers`) on the faces of the cards it multiplies, capped where the
overlay says.  The faces and multipliers of shoe ``s`` come from a generator of their own,
``PCG64(SeedSequence(seed, spawn_key=(s, 1)))`` (the shoe's cards use ``spawn_key=(s,)``), so a
run is reproducible by its seed and the same whatever blocks or workers deal it.

>>> from exactodds.bets.multipliers import MultiplierOverlay
>>> overlay = MultiplierOverlay(52, {2: 1})  # every face drawn, each at 2x
>>> drawn = draw_multipliers(overlay, overlay_generator(7, 0))
>>> len(drawn), set(drawn.values())
(52, {Fraction(2, 1)})
>>> from exactodds.rules import Tableau
>>> round_multiple("tie", [0, 5, 28, 9], drawn, Tableau())  # four cards, each 2x
Fraction(16, 1)
"""

from __future__ import annotations

import bisect
import dataclasses
import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from exactodds.analysis.multipliers import analyze_overlay
from exactodds.bets.bet import Bet
from exactodds.bets.multipliers import MULTIPLIED_BETS, MultiplierOverlay
from exactodds.cards import VALUES
from exactodds.engine.walk import summary_of
from exactodds.errors import SimulationError
from exactodds.rules import FirstDraw, Rules, Tableau
from exactodds.shoe import Shoe
from exactodds.simulation.dealing import DealtBlock, summary_fields
from exactodds.simulation.evaluate import ExpectedValues, known_shoe
from exactodds.simulation.staking.stakes import Kelly, Optimal
from exactodds.simulation.study import Simulation

__all__ = [
    "ChargedBet",
    "block_draws",
    "charged_bet",
    "draw_multipliers",
    "fee_charged",
    "fee_charged_simulation",
    "multiplied_bets",
    "overlaid_simulation",
    "overlay_block",
    "overlay_expected_values",
    "overlay_generator",
    "overlay_pays",
    "round_multiple",
]

#: The last word of the spawn key of an overlay's generator (the shoe's cards have none).
OVERLAY_STREAM = 1


@dataclass(frozen=True)
class ChargedBet(Bet):
    """*base* with the overlay's fee charged, per unit paid (the stake plus the fee): each pay
    ``p`` is ``(p - fee) / (1 + fee)``, so its EV is the RTP less 1.  Its integer pays are over
    ``unit`` (a multiple of their own denominator) so that every multiplied win is a whole
    number of units too.

    >>> from exactodds.bets.bet import main_bets
    >>> tie = main_bets(Rules())[2]
    >>> charged = charged_bet(tie, MultiplierOverlay(5, {2: 1}, fee=Fraction(1, 5)))
    >>> charged.pay_table["win"], charged.integer_pays()[1]
    (Fraction(13, 2), 6)
    """

    base: Bet | None = None
    fee: Fraction = Fraction(0)
    unit: int = 1

    def integer_pays(self, power: int = 1) -> tuple[dict[str, int], int]:
        """:meth:`Bet.integer_pays` over a denominator that ``unit ** power`` divides."""
        pays, denominator = super().integer_pays(power)
        common = math.lcm(denominator, self.unit**power)
        return {outcome: pay * (common // denominator) for outcome, pay in pays.items()}, common


def charged_bet(bet: Bet, overlay: MultiplierOverlay, fee: Fraction | None = None) -> ChargedBet:
    """*bet* with *fee* (the overlay's when None) charged on it (:class:`ChargedBet`)."""
    charged = (overlay.fee or Fraction(0)) if fee is None else fee
    settings = overlay.settings(bet.name)
    return fee_charged(bet, charged, () if settings.pay is None else (settings.pay,))


def fee_charged(bet: Bet, charged: Fraction, other_pays: Sequence[Fraction] = ()) -> ChargedBet:
    """*bet* with the fee *charged* on it, per unit paid (:class:`ChargedBet`); its integer
    pays over a unit that *other_pays* (an overlay's base pay) are whole numbers of too.

    >>> from exactodds.bets.bet import main_bets
    >>> fee_charged(main_bets(Rules())[0], Fraction(1, 5)).pay_table["win"]
    Fraction(5, 8)
    """
    own = [pay.denominator for pay in (*bet.pay_table.values(), *other_pays)]
    unit = math.lcm(*own) * (charged.numerator + charged.denominator)
    pays = {outcome: (pay - charged) / (1 + charged) for outcome, pay in bet.pay_table.items()}
    return ChargedBet(
        bet.name,
        bet.description,
        bet.settle,
        pays,
        bet.needs_suits,
        bet.cards,
        base=bet,
        fee=charged,
        unit=unit,
    )


def overlaid_simulation(simulation: Simulation, overlay: MultiplierOverlay) -> Simulation:
    """*simulation* under *overlay*: every bet charged the fee (the rules' when they set one,
    else the overlay's), the multiplied ones priced and paid under the overlay.

    >>> overlaid = overlaid_simulation(Simulation.of(1, 1), MultiplierOverlay(5, {2: 1}))
    >>> [type(bet).__name__ for bet in overlaid.bets]
    ['ChargedBet', 'ChargedBet', 'ChargedBet']
    >>> overlaid_simulation(Simulation.of(1, 1), MultiplierOverlay(5, {"3/2": 1}))
    Traceback (most recent call last):
    ...
    exactodds.errors.SimulationError: The overlay's multiplier 3/2 is not a whole number; a simulation pays whole multiples, so use whole multipliers and caps.
    """
    for value in [value for value, _ in overlay.law_items] + [
        settings.cap for _, settings in overlay.bets_items if settings.cap is not None
    ]:
        if value.denominator != 1:
            raise SimulationError(
                f"The overlay's multiplier {value} is not a whole number; a simulation pays "
                "whole multiples, so use whole multipliers and caps."
            )
    if simulation.exact_moments or isinstance(simulation.stake, (Kelly, Optimal)):
        raise SimulationError(
            "Kelly and optimal stakes and exact moments size bets from each bet's fixed pays, "
            "which an overlay's multiples are not; under --multipliers use flat stakes or a "
            "count's ramp."
        )
    fee = overlay.fee_with(simulation.rules.fee)
    bets = tuple(charged_bet(bet, overlay, fee) for bet in simulation.bets)
    return dataclasses.replace(simulation, bets=bets, overlay=overlay)


def fee_charged_simulation(simulation: Simulation) -> Simulation:
    """*simulation* with the rules' fee charged on every bet, per unit paid (the stake plus
    the fee), as an overlay charges it; *simulation* itself when there is no fee to charge
    (none set, an overlay's study, whose bets carry it already, or bets already charged).

    >>> charged = fee_charged_simulation(Simulation.of(1, 1, rules=Rules(fee="20%")))
    >>> [str(bet.pay_table["lose"]) for bet in charged.bets]
    ['-1', '-1', '-1']
    >>> fee_charged_simulation(Simulation.of(1, 1)).bets == Simulation.of(1, 1).bets
    True
    """
    fee = simulation.rules.fee
    if not fee or simulation.overlay is not None:
        return simulation
    if any(isinstance(bet, ChargedBet) for bet in simulation.bets):
        return simulation
    bets = tuple(fee_charged(bet, fee) for bet in simulation.bets)
    return dataclasses.replace(simulation, bets=bets)


def multiplied_bets(bets: Sequence[Bet], overlay: MultiplierOverlay) -> list[int]:
    """The columns of *bets* the overlay multiplies (a card-level bet never is).

    >>> from exactodds.bets.bet import main_bets
    >>> from exactodds.bets.multipliers import BetMultipliers
    >>> multiplied_bets(main_bets(Rules()), MultiplierOverlay(5, {2: 1}, bets={"tie": BetMultipliers(off=True)}))
    [0, 1]
    """
    return [
        column
        for column, bet in enumerate(bets)
        if overlay.multiplies(bet.name) and bet.cards is None
    ]


def overlay_generator(seed: int, shoe: int) -> np.random.Generator:
    """The generator of shoe *shoe*'s faces and multipliers in a run seeded *seed*."""
    return np.random.Generator(
        np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(shoe, OVERLAY_STREAM)))
    )


def draw_multipliers(
    overlay: MultiplierOverlay, generator: np.random.Generator
) -> dict[int, Fraction]:
    """One round's draw: ``overlay.faces`` distinct faces (``rank * 4 + suit``) of the 52,
    uniformly, each with a multiplier from the law (drawn exactly, on integer weights)."""
    items = overlay.law_items
    unit = math.lcm(*(chance.denominator for _, chance in items))
    bounds = list(itertools.accumulate(int(chance * unit) for _, chance in items))
    faces = generator.choice(overlay.deck, size=overlay.faces, replace=False).tolist()
    picks = generator.integers(0, unit, size=overlay.faces).tolist()
    return {
        face: items[bisect.bisect_right(bounds, pick)][0]
        for face, pick in zip(faces, picks, strict=True)
    }


def _hands(cards: Sequence[int], tableau: Tableau) -> tuple[list[int], list[int]]:
    """The Player's and the Banker's cards of a round dealt in order (P, B, P, B, thirds)."""
    values = [VALUES[card // 4] for card in cards]
    player, banker = [cards[0], cards[2]], [cards[1], cards[3]]
    draw = tableau.first_draw((values[0] + values[2]) % 10, (values[1] + values[3]) % 10)
    if draw is FirstDraw.BANKER:
        banker.append(cards[4])
    elif draw is FirstDraw.PLAYER:
        player.append(cards[4])
        if len(cards) > 5:
            banker.append(cards[5])
    return player, banker


def round_multiple(
    bet: str, cards: Sequence[int], drawn: Mapping[int, Fraction], tableau: Tableau
) -> Fraction:
    """The product of the multipliers *drawn* on the cards bet *bet* multiplies (uncapped):
    the Player's or the Banker's hand, every card for the Tie, a pair's first two cards."""
    player, banker = _hands(cards, tableau)
    held = {
        "player": player,
        "banker": banker,
        "round": player + banker,
        "player_first_two": player[:2],
        "banker_first_two": banker[:2],
    }[MULTIPLIED_BETS[bet]]
    return math.prod((drawn.get(card, Fraction(1)) for card in held), start=Fraction(1))


def overlay_pays(
    bets: Sequence[Bet],
    overlay: MultiplierOverlay,
    tableau: Tableau,
    rounds: Sequence[Sequence[int]],
    draws: Sequence[Mapping[int, Fraction]],
    pays: npt.NDArray[np.int64],
    keys: Sequence[int],
) -> None:
    """Multiply in place each winning pay of the multiplied columns of *pays* (integers over
    each bet's pay denominator), round by round: *rounds* the cards dealt, *draws* the draws,
    *keys* the rounds' summary keys (the overlay's own pay replaces a ``win``'s, as
    ``analyze_overlay`` has it); a :class:`ChargedBet`'s pays are net of its fee, per unit paid."""
    for column in multiplied_bets(bets, overlay):
        bet = bets[column]
        fee = bet.fee if isinstance(bet, ChargedBet) else Fraction(0)
        settings = overlay.settings(bet.name)
        _, denominator = bet.integer_pays()
        for row, charged in enumerate(pays[:, column].tolist()):
            base = Fraction(charged, denominator) * (1 + fee) + fee
            if base <= 0:
                continue
            won = settings.pay is not None and _outcome(bet, keys[row]) == "win"
            pay = settings.pay if won and settings.pay is not None else base
            multiple = round_multiple(bet.name, rounds[row], draws[row], tableau)
            if settings.cap is not None:
                multiple = min(multiple, settings.cap)
            paid = (pay * multiple - fee) / (1 + fee) * denominator
            if paid.denominator != 1:
                raise SimulationError(
                    f"Bet {bet.name!r} would be paid {pay * multiple}, which is not a whole "
                    f"number of its pay unit 1/{denominator}; use whole multipliers and caps."
                )
            pays[row, column] = int(paid)


def overlay_expected_values(
    bets: Sequence[Bet], overlay: MultiplierOverlay, rules: Rules, shoes: Sequence[Shoe]
) -> dict[int, list[Fraction]]:
    """Each multiplied column's exact EV (per unit staked, fee excluded) on each of *shoes*,
    by :func:`~exactodds.analysis.multipliers.analyze_overlay` (a :class:`ChargedBet` priced
    as its base bet)."""
    columns = multiplied_bets(bets, overlay)
    chosen = [_base(bets[column]) for column in columns]
    result: dict[int, list[Fraction]] = {column: [] for column in columns}
    if not columns:
        return result
    for shoe in shoes:
        priced = analyze_overlay(shoe, rules, chosen, overlay=overlay)
        for column in columns:
            result[column].append(priced.bets[bets[column].name].expected_value)
    return result


def block_draws(
    overlay: MultiplierOverlay, seed: int, block: DealtBlock
) -> list[dict[int, Fraction]]:
    """Each round's draw of *block*, shoe by shoe from the shoe's own generator."""
    draws: list[dict[int, Fraction]] = []
    for shoe, rounds in enumerate(block.rounds_per_shoe.tolist()):
        generator = overlay_generator(seed, block.first_shoe + shoe)
        draws.extend(draw_multipliers(overlay, generator) for _ in range(rounds))
    return draws


def overlay_block(
    simulation: Simulation,
    bets: Sequence[Bet],
    block: DealtBlock,
    values: ExpectedValues,
    pays: npt.NDArray[np.int64],
) -> ExpectedValues:
    """*values* with the multiplied bets' exact EVs under ``simulation.overlay``, and *pays*
    (changed in place) with their realized pays on the cards and draws of every round."""
    overlay = simulation.overlay
    assert overlay is not None
    shoes = [known_shoe(row, suited=True) for row in block.known]
    priced = overlay_expected_values(bets, overlay, simulation.rules, shoes)
    rounds = [
        block.cards[shoe, start : start + size].tolist()
        for shoe, start, size in zip(
            block.round_shoe.tolist(), block.depth.tolist(), block.round_cards.tolist(), strict=True
        )
    ]
    overlay_pays(
        bets,
        overlay,
        simulation.rules.tableau,
        rounds,
        block_draws(overlay, simulation.seed, block),
        pays,
        block.summary.tolist(),
    )
    if not priced:
        return values
    numerators = np.array(values.numerators, dtype=object)
    denominators = np.array(values.denominators, dtype=object)
    for column, evs in priced.items():
        bet = bets[column]
        fee = bet.fee if isinstance(bet, ChargedBet) else Fraction(0)
        charged = [(ev - fee) / (1 + fee) for ev in evs]
        numerators[:, column] = [ev.numerator for ev in charged]
        denominators[:, column] = [ev.denominator for ev in charged]
    try:
        return ExpectedValues(numerators.astype(np.int64), denominators.astype(np.int64))
    except OverflowError:
        return ExpectedValues(numerators, denominators)


def _base(bet: Bet) -> Bet:
    return bet.base if isinstance(bet, ChargedBet) and bet.base is not None else bet


@lru_cache(maxsize=4096)
def _outcome(bet: Bet, key: int) -> str:
    """*bet*'s outcome on the round of summary key *key*."""
    return bet.settle_round(summary_of(summary_fields(key), True))
