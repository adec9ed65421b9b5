"""The rules of the game, as data.

:class:`Tableau` holds the drawing rules: which two-card totals are naturals,
when the Player draws, and the Banker's tableau indexed by the Banker's total
and the Player's third card (or the row used when the Player stood).  It is a
table, not a chain of ifs, so a variant tableau is only other data.

:class:`Rules` adds the settlement of the main bets: commission, the Tie pay,
whether Player and Banker bets push or lose on a tie, and the no-commission
variants (EZ Baccarat, Super 6).

>>> Rules().describe()
'standard tableau; Banker pays 1:1 less 5% commission; Tie pays 8:1; Player and Banker push on a tie'
>>> Tableau.standard().banker_draws[3][8], Tableau.standard().banker_draws[3][7]
(False, True)
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from exactodds.errors import RulesError, quoted
from exactodds.inputs import boolean, whole_number
from exactodds.numbers import (
    exact_percent_string,
    fraction_string,
    parse_commission,
    parse_fee,
    parse_pay,
    parse_rebate_share,
    percent_string,
)

__all__ = ["FirstDraw", "Rebate", "Rules", "Tableau", "Variant", "next_draw", "round_problem"]


def _sequence(values: object, what: str) -> tuple[Any, ...]:
    if isinstance(values, (str, bytes, Mapping)) or not isinstance(values, Iterable):
        raise RulesError(f"{what} is {_short(values)}; use a sequence of true or false values.")
    return tuple(values)


def _short(value: object) -> str:
    return quoted(repr(value), 40)[1:-1]


def _bools(values: Iterable[Any], what: str, length: int = 10) -> tuple[bool, ...]:
    result = _sequence(values, what)
    if len(result) != length:
        raise RulesError(f"{what} needs {length} entries (totals 0-9), not {len(result)}.")
    for index, value in enumerate(result):
        if not isinstance(value, bool):
            raise RulesError(f"{what}[{index}] is {_short(value)}; use true or false.")
    return result


@dataclass(frozen=True)
class Tableau:
    """When each hand draws a third card.

    * ``natural_totals``: two-card totals that end the round at once.
    * ``player_draws[t]``: the Player draws on a two-card total ``t``.
    * ``banker_draws_when_player_stood[t]``: the Banker draws on ``t`` when
      the Player stood.
    * ``banker_draws[t][x]``: the Banker draws on ``t`` when the Player's
      third card has value ``x``.

    >>> table = Tableau.standard()
    >>> [total for total in range(10) if table.player_draws[total]]
    [0, 1, 2, 3, 4, 5]
    >>> [x for x in range(10) if table.banker_draws[4][x]]
    [2, 3, 4, 5, 6, 7]
    >>> Tableau.standard().__class__(natural_totals=frozenset({10}))
    Traceback (most recent call last):
    ...
    exactodds.errors.RulesError: Natural total 10 for `natural_totals` is not valid; use a whole number from 0 to 9.
    """

    natural_totals: frozenset[int] = frozenset({8, 9})
    player_draws: tuple[bool, ...] = (True,) * 6 + (False,) * 4
    banker_draws_when_player_stood: tuple[bool, ...] = (True,) * 6 + (False,) * 4
    banker_draws: tuple[tuple[bool, ...], ...] = field(
        default_factory=lambda: _standard_banker_draws()
    )
    name: str = "standard"

    def __post_init__(self) -> None:
        if isinstance(self.natural_totals, (str, bytes, Mapping)) or not isinstance(
            self.natural_totals, Iterable
        ):
            raise RulesError(
                f"natural_totals is {_short(self.natural_totals)}; use a set of totals 0-9 "
                "such as {8, 9}."
            )
        for total in self.natural_totals:
            whole_number(total, "natural_totals", RulesError, maximum=9, what="Natural total")
        object.__setattr__(self, "natural_totals", frozenset(self.natural_totals))
        object.__setattr__(self, "player_draws", _bools(self.player_draws, "player_draws"))
        object.__setattr__(
            self,
            "banker_draws_when_player_stood",
            _bools(self.banker_draws_when_player_stood, "banker_draws_when_player_stood"),
        )
        rows = _sequence(self.banker_draws, "banker_draws")
        if len(rows) != 10:
            raise RulesError(f"banker_draws needs 10 rows (Banker totals 0-9), not {len(rows)}.")
        object.__setattr__(
            self,
            "banker_draws",
            tuple(_bools(row, f"banker_draws[{total}]") for total, row in enumerate(rows)),
        )
        name = self.name
        if (
            not isinstance(name, str)
            or not name.strip()
            or len(name) > 100
            or any(ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 for c in name)
        ):
            raise RulesError(
                f"Tableau name {_short(name)} is not valid; use a short non-empty name on one "
                "line, without control characters."
            )

    @classmethod
    def standard(cls) -> Tableau:
        """The Punto Banco tableau used in every casino that deals the game.

        >>> Tableau.standard() == Tableau()
        True
        """
        return cls()

    def first_draw(self, player_total: int, banker_total: int) -> FirstDraw:
        """What happens after the first four cards, on these two-card totals.

        The one reading of the tableau's drawing decision: the walk, the count polynomials
        and the known-card walk all ask here (dealing's vectorised copy reads the same rows).

        >>> tableau = Tableau.standard()
        >>> [tableau.first_draw(*totals).value for totals in ((8, 0), (6, 7), (7, 3), (2, 6))]
        ['natural', 'none', 'banker', 'player']
        """
        if player_total in self.natural_totals or banker_total in self.natural_totals:
            return FirstDraw.NATURAL
        if self.player_draws[player_total]:
            return FirstDraw.PLAYER
        if self.banker_draws_when_player_stood[banker_total]:
            return FirstDraw.BANKER
        return FirstDraw.NONE

    def banker_draws_on(self, banker_total: int, player_third: int | None) -> bool:
        """Whether the Banker draws on *banker_total*, given the Player's third card's value.

        *player_third* is ``None`` when the Player stood.

        >>> Tableau.standard().banker_draws_on(3, 8), Tableau.standard().banker_draws_on(5, None)
        (False, True)
        """
        if player_third is None:
            return self.banker_draws_when_player_stood[banker_total]
        return self.banker_draws[banker_total][player_third]


class FirstDraw(enum.Enum):
    """Who draws first after the first four cards (:meth:`Tableau.first_draw`).

    ``PLAYER``: the Player draws, and the Banker then draws by ``banker_draws[total][third]``.
    """

    NATURAL = "natural"
    NONE = "none"
    BANKER = "banker"
    PLAYER = "player"


def _standard_banker_draws() -> tuple[tuple[bool, ...], ...]:
    # Player's third card values for which the Banker draws, by Banker total.
    draws_on: Sequence[Iterable[int]] = (
        range(10),
        range(10),
        range(10),
        (0, 1, 2, 3, 4, 5, 6, 7, 9),
        range(2, 8),
        range(4, 8),
        range(6, 8),
        (),
        (),
        (),
    )
    return tuple(tuple(x in set(values) for x in range(10)) for values in draws_on)


class Variant(enum.Enum):
    """How the Banker bet is settled.

    * ``STANDARD``: pays 1:1 less the commission.
    * ``EZ``: no commission; a Banker win with a three-card 7 pushes (EZ Baccarat).
    * ``SUPER6``: no commission; a winning Banker 6 pays 1:2 (Super 6, Punto 2000, Nepal).

    >>> Variant("ez").label
    'EZ Baccarat'
    """

    STANDARD = "standard"
    EZ = "ez"
    SUPER6 = "super6"

    @property
    def label(self) -> str:
        """The name players know the variant by."""
        return {"standard": "Punto Banco", "ez": "EZ Baccarat", "super6": "Super 6"}[self.value]


#: The kinds of rebate, as ``--rebate KIND=SHARE`` names them.
REBATE_KINDS = ("rolling", "rolling-with-pushes", "loss")


@dataclass(frozen=True, init=False)
class Rebate:
    """What a rebate programme pays the player back, as shares (0 up to but not including 1).

    ``rolling`` is a rolling-chip rebate, a share of the turnover paid on every round.  By
    the casinos' dead-chip convention a push is not turnover (the chips come back as they
    went), so only stakes that win or lose count; ``rolling_counts_pushes`` counts every
    stake, pushes too, for a programme that says so.  ``loss`` is a loss rebate, a share of
    the player's net loss on the bets at the end of a trip (nothing when the trip wins),
    fee and rolling rebate left out.  Both may be given; each is worked out on its own.
    ``trip_rounds`` is the loss rebate's trip, in independent rounds of a bet (default 1,
    the most the rebate can be worth per unit staked); it needs a ``loss`` share.

    >>> Rebate.parse(["rolling=1.2%"]).rolling
    Fraction(3, 250)
    >>> Rebate.parse(["loss=10%", "rolling-with-pushes=0.5%"]).describe()
    'a rolling rebate of 0.5% of every stake, pushes too; a loss rebate of 10% of the net loss'
    >>> bool(Rebate()), Rebate() == Rebate.parse(["rolling=0%"])
    (False, True)
    >>> Rebate.parse(["cashback=5%"])
    Traceback (most recent call last):
    ...
    exactodds.errors.RulesError: Unknown rebate 'cashback=5%' in `rebate`; use rolling=SHARE, rolling-with-pushes=SHARE or loss=SHARE, such as rolling=1.2% or loss=10%.
    >>> Rebate.parse(["loss=-5%"])
    Traceback (most recent call last):
    ...
    exactodds.errors.RulesError: Rebate '-5%' for `rebate` is not valid; use a value from 0 up to but not including 1 (100%), such as 10%, 0.1 or 1/10.
    """

    rolling: Fraction
    loss: Fraction
    rolling_counts_pushes: bool
    trip_rounds: int

    def __init__(
        self,
        rolling: Fraction | int | str = 0,
        loss: Fraction | int | str = 0,
        rolling_counts_pushes: bool = False,
        trip_rounds: int = 1,
    ) -> None:
        boolean(rolling_counts_pushes, "rolling_counts_pushes", RulesError)
        whole_number(trip_rounds, "trip_rounds", RulesError, minimum=1)
        exact_rolling = parse_rebate_share(rolling, "`rebate`")
        object.__setattr__(self, "rolling", exact_rolling)
        object.__setattr__(self, "loss", parse_rebate_share(loss, "`rebate`"))
        # With no rolling rebate the convention means nothing: one zero rebate, not two.
        object.__setattr__(
            self, "rolling_counts_pushes", rolling_counts_pushes and bool(exact_rolling)
        )
        if trip_rounds != 1 and not self.loss:
            raise RulesError(
                f"`trip_rounds` {trip_rounds:,} prices a loss rebate over a trip, and there is "
                "none; give a loss rebate too, such as loss=10%."
            )
        object.__setattr__(self, "trip_rounds", trip_rounds)

    @classmethod
    def parse(cls, texts: Iterable[str], what: str = "`rebate`") -> Rebate:
        """The rebate ``KIND=SHARE`` texts describe (``rolling=1.2%``, ``loss=10%``), each kind once."""
        shares: dict[str, str] = {}
        for text in texts:
            kind, separator, share = str(text).partition("=")
            kind = kind.strip().lower()
            if not separator or kind not in REBATE_KINDS or not share.strip():
                raise RulesError(
                    f"Unknown rebate {quoted(str(text))} in {what}; use rolling=SHARE, "
                    "rolling-with-pushes=SHARE or loss=SHARE, such as rolling=1.2% or loss=10%."
                )
            family = "loss" if kind == "loss" else "rolling"
            if family in shares:
                raise RulesError(
                    f"The {family} rebate is given twice in {what}; give each kind once."
                )
            shares[family] = share.strip()
            if kind == "rolling-with-pushes":
                shares["pushes"] = "yes"
        return cls(
            parse_rebate_share(shares.get("rolling", "0"), what),
            parse_rebate_share(shares.get("loss", "0"), what),
            "pushes" in shares,
        )

    def __bool__(self) -> bool:
        return bool(self.rolling or self.loss)

    def describe(self) -> str:
        """One phrase for report headers (empty for no rebate)."""
        parts = []
        if self.rolling:
            counted = (
                "every stake, pushes too"
                if self.rolling_counts_pushes
                else ("each stake that wins or loses (pushes not counted)")
            )
            parts.append(f"a rolling rebate of {exact_percent_string(self.rolling)} of {counted}")
        if self.loss:
            parts.append(f"a loss rebate of {exact_percent_string(self.loss)} of the net loss")
            if self.trip_rounds != 1:
                parts[-1] += f" over a trip of {self.trip_rounds:,} rounds"
        return "; ".join(parts)

    def texts(self) -> tuple[str, ...]:
        """The ``KIND=SHARE`` texts that give this rebate back (exact fractions).

        >>> Rebate.parse(Rebate("3/250", "1/10").texts()) == Rebate("3/250", "1/10")
        True
        """
        kind = "rolling-with-pushes" if self.rolling_counts_pushes else "rolling"
        return tuple(
            f"{name}={fraction_string(share)}"
            for name, share in ((kind, self.rolling), ("loss", self.loss))
            if share
        )

    def to_dict(self) -> dict[str, Any]:
        """The rebate as JSON-ready data, exact shares as ``"n/d"`` strings.

        >>> Rebate("1/100").to_dict()
        {'rolling': '1/100', 'rolling_counts_pushes': False, 'loss': '0'}
        """
        return {
            "rolling": fraction_string(self.rolling),
            "rolling_counts_pushes": self.rolling_counts_pushes,
            "loss": fraction_string(self.loss),
        } | ({"trip_rounds": self.trip_rounds} if self.trip_rounds != 1 else {})


@dataclass(frozen=True, init=False)
class Rules:
    """The drawing tableau plus the settlement of the Banker, Player and Tie bets.

    ``commission`` defaults to 5% in the standard game and to 0 in the
    no-commission variants; numbers may be given loosely (``"5%"``, ``0.05``
    as text, ``Fraction(1, 20)``) and are kept as exact fractions.

    ``fee`` is a table's fee on every bet, win or lose, as a share of the stake (0 up to
    but not including 1; default 0): it changes no count and no EV (each stays per unit
    staked, fee excluded), only the return to player, ``(1 + EV) / (1 + fee)``.

    ``rebate`` is what a rebate programme pays back (a :class:`Rebate`; default none): it
    changes no count and no EV either, only the effective edge the rebate's figures give.

    >>> Rules(rebate=Rebate(loss="10%")).describe().endswith("a loss rebate of 10% of the net loss")
    True
    >>> Rules(commission="4%").commission
    Fraction(1, 25)
    >>> Rules(fee="20%").describe().endswith("a fee of 20% on every bet")
    True
    >>> Rules(variant="super6").describe()
    'standard tableau; Super 6: no commission, a winning Banker 6 pays 1:2; Tie pays 8:1; Player and Banker push on a tie'
    >>> Rules(variant="ez", commission="5%")
    Traceback (most recent call last):
    ...
    exactodds.errors.RulesError: EZ Baccarat takes no commission, so commission 5% cannot apply; leave the commission out or use `variant` standard.
    """

    tableau: Tableau
    commission: Fraction
    tie_pays: Fraction
    ties_push: bool
    variant: Variant
    banker_six_pays: Fraction
    fee: Fraction
    rebate: Rebate

    def __init__(
        self,
        tableau: Tableau | None = None,
        commission: Fraction | int | str | None = None,
        tie_pays: Fraction | int | str = 8,
        ties_push: bool = True,
        variant: Variant | str = Variant.STANDARD,
        banker_six_pays: Fraction | int | str = Fraction(1, 2),
        fee: Fraction | int | str = 0,
        rebate: Rebate | None = None,
    ) -> None:
        try:
            chosen = Variant(variant)
        except ValueError:
            valid = ", ".join(variant.value for variant in Variant)
            raise RulesError(f"Unknown variant {_short(variant)}; use one of {valid}.") from None
        if commission is None:
            exact_commission = Fraction(1, 20) if chosen is Variant.STANDARD else Fraction(0)
        else:
            exact_commission = parse_commission(commission)
            if chosen is not Variant.STANDARD and exact_commission != 0:
                raise RulesError(
                    f"{chosen.label} takes no commission, so commission "
                    f"{percent_string(exact_commission, 2).replace('.00%', '%')} cannot apply; "
                    "leave the commission out or use `variant` standard."
                )
        boolean(ties_push, "ties_push", RulesError)
        if tableau is not None and not isinstance(tableau, Tableau):
            raise RulesError(
                f"tableau is {_short(tableau)}; use a Tableau, such as Tableau.standard() or "
                "load_rules_file(path)."
            )
        object.__setattr__(self, "tableau", tableau if tableau is not None else Tableau())
        object.__setattr__(self, "commission", exact_commission)
        object.__setattr__(self, "tie_pays", parse_pay(tie_pays, "tie_pays"))
        object.__setattr__(self, "ties_push", ties_push)
        object.__setattr__(self, "variant", chosen)
        object.__setattr__(self, "banker_six_pays", parse_pay(banker_six_pays, "banker_six_pays"))
        object.__setattr__(self, "fee", parse_fee(fee, "`fee`"))
        if rebate is not None and not isinstance(rebate, Rebate):
            raise RulesError(
                f"rebate is {_short(rebate)}; use a Rebate, such as Rebate(rolling='1.2%')."
            )
        object.__setattr__(self, "rebate", rebate if rebate is not None else Rebate())

    @classmethod
    def given(cls, rules: object) -> Rules:
        """*rules* checked, or the standard rules for ``None`` (for functions that take rules).

        >>> Rules.given(None) == Rules()
        True
        >>> Rules.given("ez")
        Traceback (most recent call last):
        ...
        exactodds.errors.RulesError: rules is 'ez', not a Rules; use Rules() or, say, Rules(variant='ez', tie_pays=9).
        """
        if rules is None:
            return cls()
        if not isinstance(rules, Rules):
            raise RulesError(
                f"rules is {_short(rules)}, not a Rules; use Rules() or, say, "
                "Rules(variant='ez', tie_pays=9)."
            )
        return rules

    @property
    def banker_commission(self) -> Fraction:
        """The commission as an exact fraction (kept for readability at call sites)."""
        return self.commission

    def describe(self) -> str:
        """One line for report headers."""
        if self.variant is Variant.STANDARD:
            banker = (
                f"Banker pays 1:1 less {percent_string(self.banker_commission, 2).replace('.00%', '%')}"
                " commission"
            )
        elif self.variant is Variant.EZ:
            banker = "EZ Baccarat: no commission, a Banker win with a three-card 7 pushes"
        else:
            six = fraction_string(self.banker_six_pays).replace("/", ":")
            six = six if ":" in six else f"{six}:1"
            banker = f"Super 6: no commission, a winning Banker 6 pays {six}"
        tie = fraction_string(self.tie_pays).replace("/", ":")
        tie = tie if ":" in tie else f"{tie}:1"
        ties = "push" if self.ties_push else "lose"
        fee = (
            f"; a fee of {percent_string(self.fee, 2).replace('.00%', '%')} on every bet"
            if self.fee
            else ""
        )
        rebate = f"; {self.rebate.describe()}" if self.rebate else ""
        return (
            f"{self.tableau.name} tableau; {banker}; Tie pays {tie}; "
            f"Player and Banker {ties} on a tie{fee}{rebate}"
        )

    def to_dict(self) -> dict[str, Any]:
        """The rules as JSON-ready data, exact numbers as ``"n/d"`` strings.

        ``fee`` is written only when the table charges one, and ``rebate`` only when a
        rebate is given, so that a table without either reads as it always has.

        >>> Rules(fee="1/5").to_dict()["fee"], "fee" in Rules().to_dict()
        ('1/5', False)
        """
        data: dict[str, Any] = {
            "tableau": self.tableau.name,
            "variant": self.variant.value,
            "commission": fraction_string(self.banker_commission),
            "tie_pays": fraction_string(self.tie_pays),
            "ties": "push" if self.ties_push else "lose",
            "banker_six_pays": (
                fraction_string(self.banker_six_pays) if self.variant is Variant.SUPER6 else None
            ),
        }
        if self.fee:
            data["fee"] = fraction_string(self.fee)
        if self.rebate:
            data["rebate"] = self.rebate.to_dict()
        return data


# Checking a dealt round against a tableau -------------------------------------------------

_SIDES = ("Player", "Banker")


def _total(values: Sequence[int]) -> int:
    return sum(values) % 10


def _third_card_due(
    tableau: Tableau, player: Sequence[int], banker: Sequence[int]
) -> tuple[bool, bool]:
    """Whether the Player and the Banker draw, from the first two cards of each (and the Player's third)."""
    player_total, banker_total = _total(player[:2]), _total(banker[:2])
    if player_total in tableau.natural_totals or banker_total in tableau.natural_totals:
        return False, False
    player_draws = tableau.player_draws[player_total]
    if not player_draws:
        return False, tableau.banker_draws_when_player_stood[banker_total]
    if len(player) < 3:  # the Banker's decision waits for the Player's third card
        return True, False
    return True, tableau.banker_draws[banker_total][player[2] % 10]


def next_draw(tableau: Tableau, player: Sequence[int], banker: Sequence[int]) -> str | None:
    """Which hand the next card of a round goes to (``"player"``/``"banker"``), or ``None`` when done.

    *player* and *banker* are the point values (0-9) of the cards dealt so far, in order. The
    first four cards go Player, Banker, Player, Banker; the tableau decides the rest.

    >>> next_draw(Tableau(), [], []), next_draw(Tableau(), [2, 3], [7, 7])
    ('player', 'player')
    >>> next_draw(Tableau(), [2, 3, 5], [7, 7]), next_draw(Tableau(), [8, 0], [1, 0])
    ('banker', None)
    """
    if len(player) < 2 or len(banker) < 2:
        return "player" if len(player) <= len(banker) else "banker"
    player_draws, banker_draws = _third_card_due(tableau, player, banker)
    if player_draws and len(player) < 3:
        return "player"
    if banker_draws and len(banker) < 3:
        return "banker"
    return None


def round_problem(tableau: Tableau, player: Sequence[int], banker: Sequence[int]) -> str | None:
    """Why a round dealt as *player* and *banker* breaks the *tableau*, or ``None`` if it follows it.

    The values are the cards' points (0-9) in the order dealt. The sentence names the card that
    is missing or extra, so a forgotten third card is caught before it corrupts a count.

    >>> round_problem(Tableau(), [8, 7], [0, 0])
    "The Player's first two cards total 5, so the Player draws a third card; the Player's third card is missing. Enter it, or mark the round as a misdeal."
    >>> round_problem(Tableau(), [4, 4, 5], [0, 0, 2])
    "The Player's first two cards total 8, a natural, so neither hand draws; the Player's third card is extra. Remove it, or mark the round as a misdeal."
    >>> round_problem(Tableau(), [2, 3, 5], [7, 7, 0]) is None
    True
    """
    counts = (len(player), len(banker))
    if not all(2 <= count <= 3 for count in counts):
        return (
            "A round needs 2 or 3 Player cards and 2 or 3 Banker cards; this one has "
            f"{_card_count(counts[0], 'Player')} and {_card_count(counts[1], 'Banker')}."
        )
    due = _third_card_due(tableau, player, banker)
    player_total, banker_total = _total(player[:2]), _total(banker[:2])
    natural = next(
        (
            (side, total)
            for side, total in zip(_SIDES, (player_total, banker_total), strict=True)
            if total in tableau.natural_totals
        ),
        None,
    )
    for index, side in enumerate(_SIDES):
        has_third = counts[index] == 3
        if due[index] == has_third:
            continue
        total = (player_total, banker_total)[index]
        if natural is not None:
            reason = f"The {natural[0]}'s first two cards total {natural[1]}, a natural, so neither hand draws"
        elif side == "Player":
            verb = "draws a third card" if due[0] else "stands"
            reason = f"The Player's first two cards total {total}, so the Player {verb}"
        elif counts[0] == 3:
            verb = "draws" if due[1] else "stands"
            reason = (
                f"The Banker's first two cards total {total} and the Player's third card is worth "
                f"{player[2] % 10}, so the Banker {verb}"
            )
        else:
            verb = "draws" if due[1] else "stands"
            reason = f"The Player stood and the Banker's first two cards total {total}, so the Banker {verb}"
        if has_third:
            return f"{reason}; the {side}'s third card is extra. Remove it, or mark the round as a misdeal."
        return f"{reason}; the {side}'s third card is missing. Enter it, or mark the round as a misdeal."
    return None


def _card_count(count: int, side: str) -> str:
    return f"{count} {side} card{'s' if count != 1 else ''}"
