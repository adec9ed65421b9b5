"""User-defined bets, described in TOML and priced exactly.

A game designer describes a new side bet as a list of outcomes, each a set of
conditions on the finished round and what it pays "to 1".  The first outcome
whose conditions all hold settles the bet; a round no outcome matches loses
the stake (or pays ``otherwise``).  See ``examples/bets/`` for worked examples.

.. code-block:: toml

    [[bet]]
    name = "six_bonus"
    description = "Banker wins with 6; a three-card 6 pays more."

    [[bet.outcome]]
    name = "three_card_six"
    when = { winner = "banker", banker_total = 6, banker_cards = 3 }
    pays = 20

    [[bet.outcome]]
    name = "two_card_six"
    when = { winner = "banker", banker_total = 6 }
    pays = 12

Conditions (all must hold):

=====================================================  ==========================================
``winner``                                             ``"player"``, ``"banker"``, ``"tie"`` or a list
``player_total``, ``banker_total``                     0-9: a number, a list, or ``{min = , max = }``
``winning_total``, ``losing_total``, ``margin``        0-9 likewise (a tie has no winning total)
``player_cards``, ``banker_cards``, ``cards_dealt``    2-3, 2-3 and 4-6 likewise
``player_natural``, ``banker_natural``, ``natural``    true or false (``natural``: either hand)
``player_pair``, ``banker_pair``, ``either_pair``      true or false: first two cards of a rank
``player_suited_pair``, ``banker_suited_pair``,        true or false: same rank and suit (needs a
``either_suited_pair``                                 shoe whose suits are known)
=====================================================  ==========================================

An outcome no round can reach, a pay that is not a number, or an unknown
condition is refused with a one-sentence reason.

>>> bets = parse_custom_bets('''
... [[bet]]
... name = "my_dragon"
... description = "Dragon 7 rebuilt by hand: Banker wins with a three-card 7."
... [[bet.outcome]]
... when = { winner = "banker", banker_total = 7, banker_cards = 3 }
... pays = 40
... ''')
>>> from exactodds import Shoe
>>> from exactodds.analysis.single import price_bet
>>> from exactodds.engine.walk import enumerate_rounds
>>> price_bet(enumerate_rounds(Shoe.standard(decks=8)), bets[0]).house_edge_percent(4)
'7.6113%'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

from exactodds.bets.bet import Bet, card_level_refusal
from exactodds.bets.cardconditions import (
    CARD_CONDITIONS,
    CardCondition,
    CardConditionError,
    card_condition,
    merge_views,
)
from exactodds.engine.cardwalk import CardRound, CardView
from exactodds.engine.walk import RoundSummary, Winner, enumerate_rounds
from exactodds.errors import BetError, PayError, quoted
from exactodds.inputs import load_toml, read_file, sentence, shown, whole_number
from exactodds.numbers import fraction_string, parse_number
from exactodds.rules import Tableau
from exactodds.shoe import Shoe

__all__ = ["CustomBetError", "custom_conditions", "load_custom_bets", "parse_custom_bets"]


class CustomBetError(BetError):
    """A custom bet file is malformed or describes a bet that cannot work.

    >>> parse_custom_bets('[[bet]]\\nname = "x"\\n')
    Traceback (most recent call last):
    ...
    exactodds.bets.custom.CustomBetError: Bet 'x' in the bet file has no [[bet.outcome]]; give at least one outcome with 'when' and 'pays'.
    """


_NUMERIC_RANGES: dict[str, tuple[int, int]] = {
    "player_total": (0, 9),
    "banker_total": (0, 9),
    "winning_total": (0, 9),
    "losing_total": (0, 9),
    "margin": (0, 9),
    "player_cards": (2, 3),
    "banker_cards": (2, 3),
    "cards_dealt": (4, 6),
}
_BOOLEANS = (
    "player_natural",
    "banker_natural",
    "natural",
    "player_pair",
    "banker_pair",
    "either_pair",
    "player_suited_pair",
    "banker_suited_pair",
    "either_suited_pair",
)
_SUITED = {"player_suited_pair", "banker_suited_pair", "either_suited_pair"}
_CONDITIONS = ("winner", *_NUMERIC_RANGES, *_BOOLEANS, *CARD_CONDITIONS)
_NAME = re.compile(r"[a-z][a-z0-9_]*")
_GROUP_NAMES = frozenset({"main", "side", "custom", "all"})


def _losing_total(summary: RoundSummary) -> int | None:
    if summary.winner is Winner.TIE:
        return None
    return min(summary.player_total, summary.banker_total)


_FIELDS: dict[str, Callable[[RoundSummary], object]] = {
    "winner": lambda s: s.winner.value,
    "player_total": lambda s: s.player_total,
    "banker_total": lambda s: s.banker_total,
    "winning_total": lambda s: s.winning_total,
    "losing_total": _losing_total,
    "margin": lambda s: s.margin,
    "player_cards": lambda s: s.player_cards,
    "banker_cards": lambda s: s.banker_cards,
    "cards_dealt": lambda s: s.cards_dealt,
    "player_natural": lambda s: s.player_natural,
    "banker_natural": lambda s: s.banker_natural,
    "natural": lambda s: s.natural,
    "player_pair": lambda s: s.player_pair,
    "banker_pair": lambda s: s.banker_pair,
    "either_pair": lambda s: s.player_pair or s.banker_pair,
    "player_suited_pair": lambda s: s.player_suited_pair,
    "banker_suited_pair": lambda s: s.banker_suited_pair,
    "either_suited_pair": lambda s: (
        None
        if s.player_suited_pair is None or s.banker_suited_pair is None
        else s.player_suited_pair or s.banker_suited_pair
    ),
}


#: Most bets one bet file describes, and most outcomes one bet has (each outcome is tried on
#: every round summary of every shoe priced).
MAX_CUSTOM_BETS = 64
MAX_OUTCOMES = 64


@dataclass(frozen=True)
class _Outcome:
    name: str
    conditions: tuple[tuple[str, frozenset[object]], ...]
    pay: Fraction
    cards: tuple[CardCondition, ...] = ()

    def matches(self, summary: RoundSummary) -> bool:
        return all(_FIELDS[key](summary) in allowed for key, allowed in self.conditions)

    def matches_cards(self, round_: CardRound) -> bool:
        return self.matches(round_.summary) and all(card.test(round_) for card in self.cards)

    def describe(self) -> str:
        parts = [card.text for card in self.cards]
        for key, allowed in self.conditions:
            values = [shown(value) for value in sorted(allowed, key=str)]
            parts.append(
                f"{key} = {values[0]}" if len(values) == 1 else f"{key} in [{', '.join(values)}]"
            )
        return " and ".join(parts) if parts else "always"


@dataclass(frozen=True)
class _CustomSettle:
    """The settle function of a custom bet: first matching outcome, else 'lose'."""

    outcomes: tuple[_Outcome, ...]
    otherwise: str

    def __call__(self, summary: RoundSummary) -> str:
        for outcome in self.outcomes:
            if outcome.matches(summary):
                return outcome.name
        return self.otherwise


@dataclass(frozen=True)
class _CardSettle:
    """The settle function of a bet with card-level conditions: it reads a card round."""

    name: str
    outcomes: tuple[_Outcome, ...]
    otherwise: str

    def __call__(self, round_: RoundSummary | CardRound) -> str:
        if not isinstance(round_, CardRound):
            raise BetError(card_level_refusal(self.name, "this calculation"))
        for outcome in self.outcomes:
            if outcome.matches_cards(round_):
                return outcome.name
        return self.otherwise


def _allowed(bet: str, outcome: str, key: str, value: Any) -> frozenset[object]:
    where = f"condition {key} of outcome {outcome!r} in bet {bet!r}"
    if key == "winner":
        values = value if isinstance(value, list) else [value]
        valid = {winner.value for winner in Winner}
        for item in values:
            if not isinstance(item, str) or item not in valid:
                raise CustomBetError(
                    f"Value {_shown(item)} for {where} is not valid; use player, banker or tie, "
                    "or a list of them."
                )
        return frozenset(values)
    if key in _BOOLEANS:
        if not isinstance(value, bool):
            raise CustomBetError(
                f"Value {_shown(value)} for {where} is not valid; use true or false."
            )
        return frozenset({value})
    low, high = _NUMERIC_RANGES[key]
    if isinstance(value, dict):
        unknown = set(value) - {"min", "max"}
        if unknown:
            raise CustomBetError(
                f"Range {_shown(value)} for {where} is not valid; use {{ min = {low}, max = {high} }}."
            )
        start, stop = value.get("min", low), value.get("max", high)
        for bound in (start, stop):
            whole_number(
                bound,
                key,
                CustomBetError,
                minimum=low,
                maximum=high,
                what="Bound",
                within=f"the range of {where}",
            )
        if start > stop:
            raise CustomBetError(
                f"Range {{ min = {start}, max = {stop} }} for {where} is empty; min must not "
                "exceed max."
            )
        values = list(range(start, stop + 1))
    else:
        values = value if isinstance(value, list) else [value]
    for item in values:
        whole_number(item, key, CustomBetError, minimum=low, maximum=high, within=where)
    return frozenset(values)


@cache
def _possible_summaries(tableau: Tableau) -> tuple[RoundSummary, ...]:
    """Every round summary a full suited shoe can produce under *tableau*."""
    return tuple(enumerate_rounds(Shoe.standard(decks=8), tableau).counts)


def _bet_name(data: Any, taken: set[str]) -> str:
    """The [[bet]] table's name, checked: valid, not reserved, not taken."""
    if not isinstance(data, dict):
        raise CustomBetError(
            f"Bet entry {_shown(data)} in the bet file is not a table; start each bet with [[bet]]."
        )
    name = data.get("name")
    if name is None:
        raise CustomBetError(
            'A [[bet]] in the bet file has no name; add one such as name = "my_bet".'
        )
    if not isinstance(name, str) or len(name) > 64 or not _NAME.fullmatch(name):
        raise CustomBetError(
            f"Bet name {_shown(name)} in the bet file is not valid; use up to 64 lower-case "
            "letters, digits "
            "and underscores, starting with a letter."
        )
    if name in _GROUP_NAMES:
        raise CustomBetError(
            f"Bet name {name!r} is reserved for the bet selection (main, side, custom, all); "
            "choose another name."
        )
    if name in taken:
        raise CustomBetError(
            f"Bet name {name!r} in the bet file is already taken; choose another name."
        )
    return name


def _build_outcome(raw: Any, index: int, name: str, outcomes: list[_Outcome]) -> _Outcome:
    """Outcome *index* of bet *name*, checked against the outcomes before it."""
    if not isinstance(raw, dict):
        raise CustomBetError(f"Outcome {index} of bet {name!r} is not a table.")
    outcome_name = raw.get("name", f"outcome_{index}")
    if (
        not isinstance(outcome_name, str)
        or len(outcome_name) > 64
        or not _NAME.fullmatch(outcome_name)
    ):
        raise CustomBetError(
            f"Outcome name {_shown(outcome_name)} of bet {name!r} is not valid; use up to 64 "
            "lower-case "
            "letters, digits and underscores."
        )
    if outcome_name == "lose" or outcome_name in {outcome.name for outcome in outcomes}:
        raise CustomBetError(
            f"Outcome name {outcome_name!r} of bet {name!r} is used twice or reserved; "
            "choose another."
        )
    unknown = set(raw) - {"name", "when", "pays"}
    if unknown:
        raise CustomBetError(
            f"Outcome {outcome_name!r} of bet {name!r} has unknown key "
            f"{quoted(sorted(unknown)[0])}; use name, when and pays."
        )
    if "pays" not in raw:
        raise CustomBetError(f"Outcome {outcome_name!r} of bet {name!r} has no 'pays'.")
    pay = _pay(raw["pays"], f"outcome {outcome_name!r} of bet {name!r}")
    when = raw.get("when", {})
    if not isinstance(when, dict):
        raise CustomBetError(
            f"'when' of outcome {outcome_name!r} in bet {name!r} is not a table; use "
            'when = { winner = "banker", banker_total = 6 }.'
        )
    conditions = []
    cards = []
    for key, value in when.items():
        if key in CARD_CONDITIONS:
            where = f"outcome {outcome_name!r} of bet {name!r}"
            try:
                cards.append(card_condition(key, value, where))
            except CardConditionError as error:  # one error class for every bet-file mistake
                raise CustomBetError(str(error)) from None
            continue
        if key not in _FIELDS:
            raise CustomBetError(
                f"Unknown condition {quoted(key)} in outcome {outcome_name!r} of bet {name!r}; "
                f"use {', '.join(_CONDITIONS)}."
            )
        conditions.append((key, _allowed(name, outcome_name, key, value)))
    return _Outcome(outcome_name, tuple(conditions), pay, tuple(cards))


#: What a card round must tell apart for each pair condition of a card-level bet.
_PAIR_VIEWS = {
    "player_pair": CardView(ranks=True, values=False, player_first=True),
    "banker_pair": CardView(ranks=True, values=False, banker_first=True),
    "either_pair": CardView(ranks=True, values=False, player_first=True, banker_first=True),
    "player_suited_pair": CardView(ranks=True, suited=True, values=False, player_first=True),
    "banker_suited_pair": CardView(ranks=True, suited=True, values=False, banker_first=True),
    "either_suited_pair": CardView(
        ranks=True, suited=True, values=False, player_first=True, banker_first=True
    ),
}


def _card_view(outcomes: Sequence[_Outcome]) -> CardView | None:
    """What the card walk must tell apart for these outcomes; None for a round-summary bet."""
    if not any(outcome.cards for outcome in outcomes):
        return None
    views = [card.view() for outcome in outcomes for card in outcome.cards]
    views += [
        _PAIR_VIEWS[key]
        for outcome in outcomes
        for key, _ in outcome.conditions
        if key in _PAIR_VIEWS
    ]
    return merge_views(views)


def _build_bet(data: Any, taken: set[str], tableau: Tableau) -> Bet:
    name = _bet_name(data, taken)
    unknown = set(data) - {"name", "description", "outcome", "otherwise"}
    if unknown:
        raise CustomBetError(
            f"Bet {name!r} has unknown key {quoted(sorted(unknown)[0])}; use name, description, "
            "outcome and otherwise."
        )
    raw_outcomes = data.get("outcome")
    if not isinstance(raw_outcomes, list) or not raw_outcomes:
        raise CustomBetError(
            f"Bet {name!r} in the bet file has no [[bet.outcome]]; give at least one outcome "
            "with 'when' and 'pays'."
        )
    if len(raw_outcomes) > MAX_OUTCOMES:
        raise CustomBetError(
            f"Bet {name!r} in the bet file has {len(raw_outcomes):,} outcomes; use at most "
            f"{MAX_OUTCOMES}."
        )
    outcomes: list[_Outcome] = []
    for index, raw in enumerate(raw_outcomes, start=1):
        outcomes.append(_build_outcome(raw, index, name, outcomes))
    otherwise = _pay(data.get("otherwise", -1), f"'otherwise' of bet {name!r}")
    view = _card_view(outcomes)
    needs_suits = any(key in _SUITED for outcome in outcomes for key, _ in outcome.conditions) or (
        view is not None and view.needs_suits
    )
    _check_reachable(name, outcomes, tableau)
    pays = {outcome.name: outcome.pay for outcome in outcomes} | {"lose": otherwise}
    description = data.get("description", f"User-defined bet {name}.")
    if not isinstance(description, str):
        raise CustomBetError(f"Description of bet {name!r} is not text.")
    if view is not None:
        card_settle = _CardSettle(name, tuple(outcomes), "lose")
        return Bet(name, description, card_settle, pays, needs_suits=needs_suits, cards=view)
    settle = _CustomSettle(tuple(outcomes), "lose")
    return Bet(name, description, settle, pays, needs_suits=needs_suits)


def _pay(value: Any, where: str) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, (int, str, Fraction, Decimal)):
        raise CustomBetError(
            f"Pay {_shown(value)} for {where} is not a number; use a number such as 12, 0.54 "
            'or "27/50".'
        )
    try:
        pay = parse_number(value, where)
    except PayError as error:
        if "digits" in str(error) or "exponent" in str(error):
            raise CustomBetError(str(error)) from None
        raise CustomBetError(
            f"Pay {_shown(value)} for {where} is not a number; use a number such as 12, 0.54 "
            'or "27/50".'
        ) from None
    if pay < -1:
        raise CustomBetError(
            f"Pay {fraction_string(pay)} for {where} is not valid; a bet cannot lose more than "
            "its stake, so use a number of at least -1."
        )
    return pay


def _check_reachable(name: str, outcomes: Sequence[_Outcome], tableau: Tableau) -> None:
    summaries = _possible_summaries(tableau)
    for index, outcome in enumerate(outcomes):
        matching = [summary for summary in summaries if outcome.matches(summary)]
        if not matching:
            raise CustomBetError(
                f"Outcome {outcome.name!r} of bet {name!r} can never happen: no round has "
                f"{outcome.describe()}."
            )
        if outcome.cards:  # which cards it sees is told by the walk only: no shadow check
            continue
        earlier = [other for other in outcomes[:index] if not other.cards]
        if all(any(other.matches(summary) for other in earlier) for summary in matching):
            raise CustomBetError(
                f"Outcome {outcome.name!r} of bet {name!r} is never reached: every round with "
                f"{outcome.describe()} is settled by an earlier outcome."
            )


def _shown(value: object) -> str:
    """A value as the user wrote it in TOML (text quoted as Python does, decimals exact)."""
    if isinstance(value, str):
        return quoted(value, 40)
    return shown(value)


def parse_custom_bets(
    text: str,
    source: str = "the bet file",
    taken: Sequence[str] = (),
    tableau: Tableau | None = None,
) -> list[Bet]:
    """Read the bets a TOML text describes; *taken* names may not be reused.

    Every outcome must be reachable under *tableau* (the drawing rules the bets will be
    priced with; the standard tableau by default): a Player who stands on 5 makes a two-card
    Player 5 win possible.
    """
    if tableau is None:
        tableau = Tableau()
    if not isinstance(tableau, Tableau):
        raise BetError(
            f"tableau is {quoted(repr(tableau), 40)[1:-1]}, not a Tableau; pass rules.tableau "
            "or None for the standard tableau."
        )
    names_in_use = (
        tuple(taken) if isinstance(taken, Iterable) and not isinstance(taken, str) else None
    )
    if names_in_use is None or not all(isinstance(name, str) for name in names_in_use):
        raise BetError(
            f"taken is {type(taken).__name__}; pass the bet names already in use as a list of "
            "text, such as ['banker', 'tie']."
        )
    taken = names_in_use
    if not isinstance(text, str):
        raise CustomBetError(f"Bet file {text!r} is not text; use TOML text with [[bet]] tables.")
    data = load_toml(text, source, CustomBetError)
    raw_bets = data.get("bet")
    unknown = set(data) - {"bet"}
    if unknown:
        raise CustomBetError(
            f"{sentence(source)} has unknown key {quoted(sorted(unknown)[0])}; describe bets as "
            "[[bet]] tables."
        )
    if not isinstance(raw_bets, list) or not raw_bets:
        raise CustomBetError(f"{sentence(source)} describes no bet; start each bet with [[bet]].")
    if len(raw_bets) > MAX_CUSTOM_BETS:
        raise CustomBetError(
            f"{sentence(source)} describes {len(raw_bets):,} bets; use at most {MAX_CUSTOM_BETS} "
            "in one file."
        )
    names = set(taken)
    bets = []
    for raw in raw_bets:
        bet = _build_bet(raw, names, tableau)
        names.add(bet.name)
        bets.append(bet)
    return bets


def load_custom_bets(
    path: str | Path, taken: Sequence[str] = (), tableau: Tableau | None = None
) -> list[Bet]:
    """Read the bets a TOML file describes, each outcome reachable under *tableau*."""
    document = read_file(str(path), "bet file", CustomBetError)
    return parse_custom_bets(document.text, document.source, taken, tableau)


def custom_conditions(
    bet: Bet,
) -> tuple[tuple[str, tuple[tuple[str, frozenset[object]], ...], Fraction], ...] | None:
    """Each outcome of a custom bet as ``(name, conditions, pay)``, in the order they are tried.

    ``conditions`` pairs each condition key with the values it allows; a bet
    that was not read from a bet file gives ``None``.

    >>> (bet,) = parse_custom_bets('[[bet]]\\nname = "x"\\n[[bet.outcome]]\\nwhen = { banker_total = 6 }\\npays = 2\\n')
    >>> custom_conditions(bet)
    (('outcome_1', (('banker_total', frozenset({6})),), Fraction(2, 1)),)
    >>> from exactodds.bets.catalogue import select_bets
    >>> custom_conditions(select_bets("tie")[0]) is None
    True
    """
    settle = bet.settle
    if not isinstance(settle, _CustomSettle):
        return None
    return tuple((outcome.name, outcome.conditions, outcome.pay) for outcome in settle.outcomes)
