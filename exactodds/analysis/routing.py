"""How a bet is priced: one decision, shared by :func:`~exactodds.analysis.single.analyze` and the Analyzer.

A bet settles a round summary; what it reads decides how its counts can be had:

* ``"polynomial"``: its outcome is a function of the value-level key alone (totals, card
  counts, naturals), whatever the pair states: its counts are sums of the tableau's count
  polynomials;
* ``"pairs"``: its outcome is a function of the pair states of the first two cards alone:
  their joint counts have a closed form (the kernel's pair inputs);
* ``"walk"``: anything else, priced by the exact walk, shoe by shoe.

:func:`route_bet` settles the bet on a *probe* for every key and every pair state a shoe
may deal. The probes include states a given shoe never deals (a suited pair on a shoe known
by rank only, a pair with an odd two-card total); a bet whose settle function fails on a
probe goes to the walk, which shows it only the rounds that happen, and a failure there is
one sentence (:meth:`~exactodds.bets.bet.Bet.settle_round`), the same from every entry
point.

>>> from exactodds.bets.catalogue import select_bets
>>> from exactodds.engine.coefficients import polynomials
>>> from exactodds.rules import Tableau
>>> keys = polynomials(Tableau()).keys
>>> [route_bet(bet, keys).how for bet in select_bets("banker,player_pair")]
['polynomial', 'pairs']
>>> route_bet(select_bets("banker")[0], keys, suits=()).how
Traceback (most recent call last):
...
ValueError: route_bet needs at least one kind of shoe in suits, (True,), (False,) or both.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from exactodds.bets.bet import Bet
from exactodds.engine.coefficients import ValueKey
from exactodds.engine.kernel.twin import pair_states
from exactodds.engine.walk import (
    NO_PAIR,
    RANK_PAIR_STATES,
    SUITED_PAIR_STATES,
    RoundSummary,
    Winner,
    summary_of,
)

__all__ = [
    "BetRoute",
    "PairProbe",
    "key_winners",
    "pair_probe_counts",
    "reads_suits",
    "route_bet",
]

#: A pair-state probe: whether the shoe knows its suits, and the (Player, Banker) states.
PairProbe = tuple[bool, tuple[int, int]]


@dataclass(frozen=True)
class BetRoute:
    """How one bet is priced, and its outcome per key or per pair state on that route.

    ``key_outcomes`` (route ``"polynomial"``) holds the outcome of each key, in the keys'
    order; ``pair_outcomes`` (route ``"pairs"``) the outcome of each probed pair state;
    ``produced`` every outcome the probes gave (empty when a probe failed), each of which
    needs a pay.
    """

    how: str
    key_outcomes: tuple[str, ...] = ()
    pair_outcomes: tuple[tuple[PairProbe, str], ...] = ()
    produced: frozenset[str] = frozenset()


@lru_cache(maxsize=16)
def _pair_probes(suits: tuple[bool, ...]) -> tuple[PairProbe, ...]:
    return tuple(
        (known, states)
        for known in suits
        for states in (SUITED_PAIR_STATES if known else RANK_PAIR_STATES)
    )


@lru_cache(maxsize=16)
def _probes(keys: tuple[ValueKey, ...], suits: tuple[bool, ...]) -> tuple[RoundSummary, ...]:
    """Every probe summary, key by key, pair probe by pair probe (built once per tableau)."""
    return tuple(
        summary_of((*key, *states), known) for key in keys for known, states in _pair_probes(suits)
    )


def pair_probe_counts(rank_counts: Sequence[int], suit_counts: Sequence[int] | None) -> list[int]:
    """The rounds of a finite shoe per joint pair state, in the order of a route's probes.

    The shoe's 13 rank counts and, when it knows its suits, its 52 card counts (rank by rank)
    give the 9 suited states (with suits) or the 4 rank-only states (without) of
    :func:`route_bet`'s ``pair_outcomes``, each counted as six-card sequences by the kernel's
    closed form (:func:`~exactodds.engine.kernel.twin.pair_states`): the first four cards
    settle both pairs, whatever the tableau.

    >>> one_deck = pair_probe_counts((4,) * 13, None)
    >>> one_deck, sum(one_deck) == 52 * 51 * 50 * 49 * 48 * 47
    ([12985030656, 810860544, 810860544, 51382656], True)
    >>> len(pair_probe_counts((4,) * 13, (1,) * 52))
    9
    """
    states = pair_states(rank_counts, suit_counts)
    return states[:9] if suit_counts is not None else states[9:]


@lru_cache(maxsize=16)
def key_winners(keys: tuple[ValueKey, ...]) -> tuple[Winner, ...]:
    """Who wins the rounds of each value-level key (the pair states never change it).

    >>> from exactodds.engine.coefficients import polynomials
    >>> from exactodds.rules import Tableau
    >>> key_winners(polynomials(Tableau()).keys)[:2]
    (<Winner.TIE: 'tie'>, <Winner.BANKER: 'banker'>)
    """
    return tuple(summary_of((*key, NO_PAIR, NO_PAIR), False).winner for key in keys)


def route_bet(
    bet: Bet, keys: Sequence[ValueKey], suits: tuple[bool, ...] = (True, False)
) -> BetRoute:
    """How *bet* is priced on shoes of the *suits* kinds (True: suits known) for these *keys*.

    :func:`~exactodds.analysis.single.analyze` asks for the one kind of shoe it counts; the
    Analyzer, which counts both kinds with one program, asks for both.
    """
    if not suits:
        raise ValueError(
            "route_bet needs at least one kind of shoe in suits, (True,), (False,) or both."
        )
    try:  # settling every probe costs more than pricing a shoe: a bet is routed once
        return _cached_route(bet, tuple(keys), tuple(suits))
    except TypeError:  # a bet that cannot be hashed is routed afresh
        return _route(bet, tuple(keys), tuple(suits))


@lru_cache(maxsize=256)
def _cached_route(bet: Bet, keys: tuple[ValueKey, ...], suits: tuple[bool, ...]) -> BetRoute:
    return _route(bet, keys, suits)


def _route(bet: Bet, keys: tuple[ValueKey, ...], suits: tuple[bool, ...]) -> BetRoute:
    pair_probes = _pair_probes(suits)
    try:
        settled = list(map(bet.settle, _probes(keys, suits)))
    except Exception:  # a round the shoe may never deal: the walk shows only those that happen
        return BetRoute("walk")
    produced = frozenset(settled)
    width = len(pair_probes)
    rows = [settled[start : start + width] for start in range(0, len(settled), width)]
    if all(row.count(row[0]) == width for row in rows):
        return BetRoute("polynomial", tuple(row[0] for row in rows), produced=produced)
    columns = [{row[column] for row in rows} for column in range(width)]
    if all(len(seen) == 1 for seen in columns):
        pairs = tuple((probe, seen.pop()) for probe, seen in zip(pair_probes, columns, strict=True))
        return BetRoute("pairs", pair_outcomes=pairs, produced=produced)
    return BetRoute("walk", produced=produced)


def reads_suits(bet: Bet, keys: Sequence[ValueKey]) -> bool:
    """Whether *bet*'s outcome on some round changes, or its settle fails, once suits are known.

    A bet that needs suits says so (``needs_suits``); one that does not is priced by rank
    alone where that is quicker (the effect of removal), which is only right if the suits
    never change its outcome.

    >>> from exactodds.bets.catalogue import select_bets
    >>> from exactodds.engine.coefficients import polynomials
    >>> from exactodds.rules import Tableau
    >>> keys = polynomials(Tableau()).keys
    >>> [reads_suits(bet, keys) for bet in select_bets("banker,player_pair,perfect_pair")]
    [False, False, True]
    """
    try:
        return any(
            bet.settle(summary_of((*key, player, banker), True))
            != bet.settle(summary_of((*key, min(player, 1), min(banker, 1)), False))
            for key in keys
            for player, banker in SUITED_PAIR_STATES
        )
    except Exception:  # fails on some round: let the suited road show which, in one sentence
        return True
