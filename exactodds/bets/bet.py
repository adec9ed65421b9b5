"""Bets: each a name, a way to settle a round, and a pay table.

A bet does not look at cards.  It reads a finished round's
:class:`~exactodds.engine.walk.RoundSummary`, names the outcome for the bet
(``"win"``, ``"tie"``, ``"lose"``, ``"win_with_six"``, ...), and its pay table
says what each outcome returns per unit staked: a win at 1:1 is ``1``, a loss
``-1``, a push ``0``.  Pricing a bet under another casino's pays is only
another pay table.

>>> banker, player, tie = main_bets(Rules())
>>> banker.pay("win"), tie.pay("win"), player.pay("tie")
(Fraction(19, 20), Fraction(8, 1), Fraction(0, 1))
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from exactodds.engine.cardwalk import CardView
from exactodds.engine.walk import RoundSummary, Winner
from exactodds.errors import BetError, ExactOddsError, PayError, quoted
from exactodds.numbers import parse_number
from exactodds.rules import Rules, Variant

__all__ = ["Bet", "bets_given", "card_level_refusal", "main_bets"]


@dataclass(frozen=True)
class Bet:
    """A bet: how it settles a round, and what each outcome pays.

    ``settle`` maps a round summary to an outcome name; ``pays`` maps every
    outcome name ``settle`` can return to the net result per unit staked.
    ``pays`` may be given as a mapping; it is kept as sorted pairs so that a
    bet is hashable.

    >>> even_total = Bet(
    ...     "even_player_total",
    ...     "Player's final total is even.",
    ...     lambda summary: "win" if summary.player_total % 2 == 0 else "lose",
    ...     {"win": 1, "lose": -1},
    ... )
    >>> even_total.pay("win")
    Fraction(1, 1)
    >>> even_total.pay("push")
    Traceback (most recent call last):
    ...
    exactodds.errors.PayError: Bet 'even_player_total' has no pay for outcome 'push'; its outcomes are lose, win.
    """

    name: str
    description: str
    settle: Callable[[RoundSummary], str]
    pays: tuple[tuple[str, Fraction], ...] | Mapping[str, Fraction | int | str]
    needs_suits: bool = False
    #: For a bet that reads the cards themselves (a bet file's card-level conditions): what
    #: the card walk must tell apart. Its ``settle`` then takes a
    #: :class:`~exactodds.engine.cardwalk.CardRound`, and only the commands that price card
    #: rounds can price it (:func:`~exactodds.analysis.single.analyze`).
    cards: CardView | None = None
    _pays: dict[str, Fraction] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise BetError(f"Bet name {_short(self.name)} is not valid; use a short name in text.")
        if not callable(self.settle):
            raise BetError(
                f"The settle of bet {self.name!r} is {_short(self.settle)}; use a function from a "
                "round summary to an outcome name."
            )
        if isinstance(self.pays, (str, bytes)) or not isinstance(self.pays, (Mapping, Iterable)):
            raise BetError(
                f"The pays of bet {self.name!r} are {_short(self.pays)}; use a mapping such as "
                "{'win': 1, 'lose': -1}."
            )
        items = self.pays.items() if isinstance(self.pays, Mapping) else self.pays
        cleaned = []
        for item in items:
            if not isinstance(item, tuple) or len(item) != 2 or not isinstance(item[0], str):
                raise BetError(
                    f"The pays of bet {self.name!r} hold {_short(item)}; use a mapping such as "
                    "{'win': 1, 'lose': -1}."
                )
            outcome, pay = item
            value = parse_number(pay, f"the {outcome!r} pay of {self.name}")
            if value < -1:  # as bet files say: a bet loses at most its stake
                raise PayError(
                    f"The {outcome!r} pay of bet {self.name!r} is {value}, below -1; a bet loses "
                    "at most its stake, so use a number of at least -1."
                )
            cleaned.append((outcome, value))
        object.__setattr__(self, "pays", tuple(sorted(cleaned)))
        # Looked up for every outcome of every shoe priced, so kept ready (not a field).
        object.__setattr__(self, "_pays", dict(sorted(cleaned)))

    @property
    def pay_table(self) -> dict[str, Fraction]:
        """Outcome name -> net result per unit staked (a fresh copy)."""
        return dict(self._pays)

    def integer_pays(self, power: int = 1) -> tuple[dict[str, int], int]:
        """Each outcome's pay to the *power*, as integers over one common denominator.

        >>> main_bets(Rules())[0].integer_pays()
        ({'lose': -20, 'tie': 0, 'win': 19}, 20)
        """
        cache: dict[int, tuple[dict[str, int], int]] = self.__dict__.setdefault("_integer_pays", {})
        if power not in cache:
            powered = {outcome: pay**power for outcome, pay in self._pays.items()}
            denominator = math.lcm(*(pay.denominator for pay in powered.values()))
            cache[power] = (
                {
                    outcome: pay.numerator * (denominator // pay.denominator)
                    for outcome, pay in powered.items()
                },
                denominator,
            )
        return cache[power]

    def settle_round(self, summary: RoundSummary) -> str:
        """The outcome of a round that happened; a settle function that fails is one sentence.

        Every path that settles real rounds (the walk, a simulation's pays) comes here, so a
        bet that cannot settle a round is refused with the same :class:`BetError` everywhere.

        >>> from exactodds.engine.walk import summary_of
        >>> summary = summary_of((9, 2, 2, 2, True, False, 0, 0), True)
        >>> main_bets(Rules())[1].settle_round(summary)
        'win'
        >>> Bet("odd", "Fails.", lambda round_: str(1 / 0), {"win": 1}).settle_round(summary)
        Traceback (most recent call last):
        ...
        exactodds.errors.BetError: Bet 'odd' cannot settle a round of this shoe: its settle function raised ZeroDivisionError ('division by zero'); give it an outcome for every round.
        """
        try:
            return self.settle(summary)
        except ExactOddsError:
            raise
        except Exception as error:
            raise self.settle_failure(error) from error

    def settle_failure(self, error: Exception) -> BetError:
        """The one sentence for a settle function that raised *error* on a real round.

        For loops that guard many rounds at once (the walk's pricing) rather than each.

        >>> print(main_bets(Rules())[2].settle_failure(ValueError("no outcome")))
        Bet 'tie' cannot settle a round of this shoe: its settle function raised ValueError ('no outcome'); give it an outcome for every round.
        """
        return BetError(
            f"Bet {self.name!r} cannot settle a round of this shoe: its settle function "
            f"raised {type(error).__name__} ({quoted(str(error), 80)}); give it an outcome "
            "for every round."
        )

    def pay(self, outcome: str) -> Fraction:
        """The net result of *outcome* per unit staked."""
        table = self._pays
        if outcome not in table:
            raise PayError(
                f"Bet {self.name!r} has no pay for outcome {outcome!r}; "
                f"its outcomes are {', '.join(table)}."
            )
        return table[outcome]


def card_level_refusal(bet: str, where: str) -> str:
    """The one sentence for a card-level bet on a calculation that sees round summaries only.

    >>> print(card_level_refusal("perfect_9", "`exactodds eor`"))
    Bet 'perfect_9' reads the cards themselves (card-level conditions), which `exactodds eor` cannot price; price it with `exactodds odds` or analyze().
    """
    return (
        f"Bet {bet!r} reads the cards themselves (card-level conditions), which {where} cannot "
        "price; price it with `exactodds odds` or analyze()."
    )


def _settle_player(summary: RoundSummary) -> str:
    winner = summary.winner
    return "win" if winner is Winner.PLAYER else "tie" if winner is Winner.TIE else "lose"


def _settle_banker(summary: RoundSummary) -> str:
    winner = summary.winner
    return "win" if winner is Winner.BANKER else "tie" if winner is Winner.TIE else "lose"


def _settle_banker_ez(summary: RoundSummary) -> str:
    outcome = _settle_banker(summary)
    if outcome == "win" and summary.banker_cards == 3 and summary.banker_total == 7:
        return "win_three_card_seven"
    return outcome


def _settle_banker_super6(summary: RoundSummary) -> str:
    outcome = _settle_banker(summary)
    if outcome == "win" and summary.banker_total == 6:
        return "win_with_six"
    return outcome


def _settle_tie(summary: RoundSummary) -> str:
    return "win" if summary.winner is Winner.TIE else "lose"


def _short(value: object) -> str:
    return quoted(repr(value), 40)[1:-1]


def bets_given(bets: object, rules: Rules) -> tuple[Bet, ...]:
    """*bets* checked as a collection of :class:`Bet`, or the main bets for ``None``.

    >>> [bet.name for bet in bets_given(None, Rules())]
    ['banker', 'player', 'tie']
    >>> bets_given("all", Rules())
    Traceback (most recent call last):
    ...
    exactodds.errors.BetError: bets is the text 'all', not a list of bets; pass select_bets('all') (from exactodds import select_bets).
    """
    if bets is None:
        return main_bets(rules)
    if isinstance(bets, str):
        raise BetError(
            f"bets is the text {quoted(bets, 40)}, not a list of bets; pass "
            f"select_bets({quoted(bets, 40)}) (from exactodds import select_bets)."
        )
    if isinstance(bets, Bet):
        return (bets,)
    if isinstance(bets, Mapping) or not isinstance(bets, Iterable):
        raise BetError(
            f"bets is {quoted(repr(bets), 40)[1:-1]}, not a list of bets; pass a list such as "
            "select_bets('main,dragon7')."
        )
    chosen = tuple(bets)
    for bet in chosen:
        if not isinstance(bet, Bet):
            raise BetError(
                f"{quoted(repr(bet), 40)[1:-1]} in bets is not a Bet; pass bets such as "
                "select_bets('main,dragon7')."
            )
    return chosen


def main_bets(rules: Rules) -> tuple[Bet, Bet, Bet]:
    """The Banker, Player and Tie bets as *rules* settle them.

    >>> banker = main_bets(Rules(variant="ez"))[0]
    >>> banker.pay_table
    {'lose': Fraction(-1, 1), 'tie': Fraction(0, 1), 'win': Fraction(1, 1), 'win_three_card_seven': Fraction(0, 1)}
    """
    if not isinstance(rules, Rules):
        raise BetError(f"rules is {_short(rules)}, not Rules; pass Rules() or Rules(variant=...).")
    on_tie = Fraction(0) if rules.ties_push else Fraction(-1)
    main_pays: dict[str, Fraction] = {"win": Fraction(1), "tie": on_tie, "lose": Fraction(-1)}
    if rules.variant is Variant.EZ:
        banker = Bet(
            "banker",
            "Banker wins; no commission, a win with a three-card 7 pushes.",
            _settle_banker_ez,
            {**main_pays, "win_three_card_seven": Fraction(0)},
        )
    elif rules.variant is Variant.SUPER6:
        banker = Bet(
            "banker",
            "Banker wins; no commission, a winning 6 pays reduced.",
            _settle_banker_super6,
            {**main_pays, "win_with_six": rules.banker_six_pays},
        )
    else:
        banker = Bet(
            "banker",
            "Banker wins; pays 1:1 less commission.",
            _settle_banker,
            {**main_pays, "win": 1 - rules.banker_commission},
        )
    player = Bet("player", "Player wins; pays 1:1.", _settle_player, main_pays)
    tie = Bet(
        "tie",
        "The hands tie.",
        _settle_tie,
        {"win": rules.tie_pays, "lose": Fraction(-1)},
    )
    return banker, player, tie
