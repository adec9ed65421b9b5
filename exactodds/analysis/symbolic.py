"""Symbolic payouts: a bet's EV as an exact sympy expression in its pays, and break-even pays.

A bet's EV is ``sum(count * pay) / total`` over its outcomes, so it is
linear in each pay.  :func:`expected_value_expression` keeps the chosen pays
(and, for the Banker bet, the commission ``c``: a Banker win pays ``1 - c``)
as sympy symbols with exact :class:`sympy.Rational` coefficients;
:func:`breakeven` solves ``EV = 0`` for one of them, exactly.

Pays are named as in ``--pay`` (:mod:`exactodds.bets.paytables`): ``BET`` for a
bet with one winning outcome (``tie``, ``dragon7``), ``BET.OUTCOME``
otherwise (``lucky6.three_card_win``), and ``commission`` for the Banker
commission.  sympy is imported inside these functions only, never when
the module is imported, so commands that do not need it do not pay for it.

>>> from exactodds import Rules, Shoe, analyze
>>> result = analyze(Shoe.standard(decks=8), Rules())
>>> expected_value_expression(result, "tie", {"tie": "x"})
619306544887*x/6508331087895 - 5889024543008/6508331087895
>>> breakeven("tie", "tie", result)  # a Tie bet is fair at 9.5091...:1 on 8 decks
Fraction(5889024543008, 619306544887)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from exactodds.analysis.single import (
    SUITS_UNKNOWN,
    Analysis,
    BetAnalysis,
    price_bet,
    price_card_bet,
)
from exactodds.bets.bet import Bet
from exactodds.bets.catalogue import available_bets
from exactodds.engine.walk import OutcomeTable, enumerate_rounds
from exactodds.errors import BetError, BreakevenError, PayError, import_extra
from exactodds.numbers import fraction_string
from exactodds.rules import Rules
from exactodds.shoe import Shoe

__all__ = [
    "COMMISSION",
    "Breakeven",
    "Pay",
    "breakeven",
    "default_pay",
    "expected_value_expression",
    "expression_latex",
    "find_breakeven",
    "pay_names",
    "price",
    "resolve_pay",
]

#: The pay name of the Banker commission.
COMMISSION = "commission"

#: What a bet can be priced from: an analysis, its outcome table, a shoe (default 8 decks).
Source = Analysis | OutcomeTable | BetAnalysis | Shoe | None


def _sympy() -> Any:
    """sympy, imported on first use (about 0.2 s, paid only by the symbolic commands)."""
    return import_extra("sympy", "Solving pays symbolically", "symbolic")


@dataclass(frozen=True)
class Pay:
    """One pay of one bet, resolved: which outcome it sets, and whether it is the commission.

    >>> from exactodds.bets.bet import main_bets
    >>> resolve_pay(main_bets(Rules())[0], "commission")
    Pay(name='commission', bet='banker', outcome='win', commission=True)
    """

    name: str
    bet: str
    outcome: str
    commission: bool = False

    @property
    def default_symbol(self) -> str:
        """``c`` for the commission, else the name with ``.`` as ``_`` (``lucky6_two_card_win``)."""
        return "c" if self.commission else self.name.replace(".", "_")


def _is_commission_banker(bet: Bet) -> bool:
    # The standard Banker bet: win (1 - commission), push on a tie or lose, and lose.
    return bet.name == "banker" and set(bet.pay_table) == {"win", "tie", "lose"}


def _winning_outcomes(bet: Bet) -> list[str]:
    return sorted(outcome for outcome, pay in bet.pay_table.items() if pay > 0)


def pay_names(bet: Bet) -> list[str]:
    """Every name that sets a pay of *bet*, shortest form first.

    >>> from exactodds.bets.side import side_bets
    >>> pay_names(side_bets()["lucky6"])
    ['lucky6.three_card_win', 'lucky6.two_card_win']
    >>> from exactodds.bets.bet import main_bets
    >>> pay_names(main_bets(Rules())[0])
    ['commission', 'banker', 'banker.tie', 'banker.win']
    """
    names = [COMMISSION] if _is_commission_banker(bet) else []
    if len(_winning_outcomes(bet)) == 1:
        names.append(bet.name)
    names += [f"{bet.name}.{outcome}" for outcome in sorted(bet.pay_table) if outcome != "lose"]
    return names


def default_pay(bet: Bet) -> str:
    """The pay a break-even question about *bet* means when none is named.

    The commission for the standard Banker bet, else the bet's one winning pay.

    >>> from exactodds.bets.side import side_bets
    >>> default_pay(side_bets()["dragon7"])
    'dragon7'
    >>> default_pay(side_bets()["lucky6"])
    Traceback (most recent call last):
    ...
    exactodds.errors.PayError: Bet 'lucky6' has several pays; name one: lucky6.three_card_win, lucky6.two_card_win.
    """
    if _is_commission_banker(bet):
        return COMMISSION
    if len(_winning_outcomes(bet)) == 1:
        return bet.name
    raise PayError(f"Bet {bet.name!r} has several pays; name one: {', '.join(pay_names(bet))}.")


def resolve_pay(bet: Bet, name: str) -> Pay:
    """Which outcome of *bet* the pay *name* sets (``--pay`` names, or ``commission``).

    >>> from exactodds.bets.side import side_bets
    >>> resolve_pay(side_bets()["lucky6"], "lucky6.three_card_win").outcome
    'three_card_win'
    >>> resolve_pay(side_bets()["lucky6"], "dragon7")
    Traceback (most recent call last):
    ...
    exactodds.errors.PayError: Pay 'dragon7' is not a pay of lucky6; use one of lucky6.three_card_win, lucky6.two_card_win.
    """
    cleaned = name.strip()
    valid = ", ".join(pay_names(bet))
    if cleaned == COMMISSION:
        if bet.name != "banker":
            raise PayError(
                f"The commission is taken on the banker bet only, not on {bet.name}; "
                f"use one of {valid}."
            )
        if not _is_commission_banker(bet):
            raise PayError(
                "This banker bet takes no commission (EZ Baccarat or Super 6 rules); "
                f"use one of {valid}."
            )
        return Pay(COMMISSION, bet.name, "win", commission=True)
    bet_name, _, outcome = cleaned.partition(".")
    if bet_name != bet.name:
        raise PayError(f"Pay {name!r} is not a pay of {bet.name}; use one of {valid}.")
    if not outcome:
        winning = _winning_outcomes(bet)
        if len(winning) != 1:
            raise PayError(f"Bet {bet.name!r} has several pays; name one: {valid}.")
        return Pay(cleaned, bet.name, winning[0])
    if outcome == "lose":
        raise PayError(
            f"The 'lose' outcome of {bet.name} always costs the stake; it has no pay to set. "
            f"Use one of {valid}."
        )
    if outcome not in bet.pay_table:
        raise PayError(f"Bet {bet.name!r} has no outcome {outcome!r}; use one of {valid}.")
    return Pay(cleaned, bet.name, outcome)


def _resolve_bet(name: str, rules: Rules) -> Bet:
    bets = available_bets(rules)
    if name not in bets:
        raise BetError(
            f"Unknown bet {name!r}; use a bet name such as banker, tie, dragon7 or lucky6 "
            "(exactodds bets lists them)."
        )
    return bets[name]


def price(source: Source, bet: Bet | str, rules: Rules | None = None) -> BetAnalysis:
    """*bet* priced on *source*: an analysis, an outcome table, a shoe, or 8 decks by default.

    A bet given by name is looked up in the analysis, else in the catalogue
    under *rules* (the analysis's rules when *source* is an analysis).

    >>> price(Shoe.standard(decks=8), "tie").outcome_counts["win"]
    475627426473216
    >>> price(Shoe.standard(decks=8).remove("K"), "perfect_pair")
    Traceback (most recent call last):
    ...
    exactodds.errors.BetError: Bet 'perfect_pair' cannot be priced on this shoe: This bet needs suits, and the shoe is known by rank only (its cards were given without suits); name every card of the shoe and every card removed with its suit, such as KS or 7H.
    """
    if isinstance(source, BetAnalysis):
        if isinstance(bet, str) and bet != source.name:
            raise BetError(f"Bet {bet!r} is not the bet analysed here ({source.name}).")
        return source
    if isinstance(source, Analysis):
        rules = source.rules
        if isinstance(bet, str) and bet in source.bets:
            return source.bets[bet]
        if isinstance(bet, str) and bet in source.unavailable:
            raise BetError(f"Bet {bet!r} cannot be priced on this shoe: {source.unavailable[bet]}")
        if isinstance(bet, Bet) and bet.cards is not None:
            return price_card_bet(source.shoe, rules, bet)
        table = source.table
    else:
        rules = rules if rules is not None else Rules()
        if isinstance(source, OutcomeTable):
            table = source
        else:
            shoe = source if source is not None else Shoe.standard(decks=8)
            if isinstance(bet, Bet) and bet.cards is not None:
                # A bet on the cards themselves: the card walk that analyze() prices it by.
                return price_card_bet(shoe, rules, bet)
            table = enumerate_rounds(shoe, rules.tableau)
    chosen = _resolve_bet(bet, rules) if isinstance(bet, str) else bet
    if chosen.needs_suits and not table.suits_known:
        raise BetError(f"Bet {chosen.name!r} cannot be priced on this shoe: {SUITS_UNKNOWN}")
    return price_bet(table, chosen)


def _symbol_map(
    bet: Bet, symbols_for: str | Iterable[str] | Mapping[str, Any] | None
) -> dict[Pay, Any]:
    sympy = _sympy()
    requested: Mapping[str, Any]
    if symbols_for is None:
        winning = _winning_outcomes(bet)
        if _is_commission_banker(bet) or len(winning) == 1:
            requested = {default_pay(bet): None}
        else:
            requested = {f"{bet.name}.{outcome}": None for outcome in winning}
    elif isinstance(symbols_for, str):
        requested = {symbols_for: None}
    elif isinstance(symbols_for, Mapping):
        requested = symbols_for
    else:
        requested = dict.fromkeys(symbols_for)
    chosen: dict[Pay, Any] = {}
    for name, symbol in requested.items():
        pay = resolve_pay(bet, name)
        for other in chosen:
            if other.outcome == pay.outcome:
                raise PayError(
                    f"Pays {other.name!r} and {pay.name!r} both set the {pay.outcome!r} pay of "
                    f"{bet.name}; name it once."
                )
        if symbol is None:
            symbol = pay.default_symbol
        chosen[pay] = sympy.Symbol(symbol) if isinstance(symbol, str) else symbol
    return chosen


def expected_value_expression(
    analysis_or_table: Source,
    bet: Bet | str,
    symbols_for: str | Iterable[str] | Mapping[str, Any] | None = None,
    rules: Rules | None = None,
) -> Any:
    """The exact EV of *bet* as a sympy expression in the pays named by *symbols_for*.

    *symbols_for* names pays as ``--pay`` does (``"tie"``,
    ``"lucky6.three_card_win"``, ``"commission"``), as one name, several,
    or a mapping name -> symbol (a name such as ``"x"`` or a
    :class:`sympy.Symbol`).  By default: the commission ``c`` for the
    standard Banker bet, else every winning pay, each a symbol named after
    it.  Every other pay keeps its value; coefficients are exact
    rationals.  *analysis_or_table* is an :class:`~exactodds.analysis.single.Analysis`,
    an :class:`~exactodds.engine.walk.OutcomeTable`, a
    :class:`~exactodds.analysis.single.BetAnalysis`, a shoe, or ``None`` for 8 decks.

    >>> expected_value_expression(None, "banker")
    241149546272/19524993263685 - 8954111587648*c/19524993263685
    >>> expected_value_expression(None, "lucky6", {"lucky6.three_card_win": "y"})
    46349535464*y/2789284751955 - 9746401282021/19524993263685
    >>> expected_value_expression(None, "tie", "tie.lose")
    Traceback (most recent call last):
    ...
    exactodds.errors.PayError: The 'lose' outcome of tie always costs the stake; it has no pay to set. Use one of tie, tie.win.
    """
    sympy = _sympy()
    analysed = price(analysis_or_table, bet, rules)
    symbols = {
        pay.outcome: (pay, symbol) for pay, symbol in _symbol_map(analysed.bet, symbols_for).items()
    }
    terms = []
    for outcome, count in analysed.outcome_counts.items():
        if outcome in symbols:
            pay, symbol = symbols[outcome]
            value = 1 - symbol if pay.commission else symbol
        else:
            fixed = analysed.bet.pay(outcome)
            value = sympy.Rational(fixed.numerator, fixed.denominator)
        terms.append(sympy.Rational(count, analysed.total) * value)
    return sympy.expand(sympy.Add(*terms))


def expression_latex(expression: Any) -> str:
    """The expression in LaTeX (sympy's ``latex``).

    >>> expression_latex(expected_value_expression(None, "tie", {"tie": "x"}))
    '\\\\frac{619306544887 x}{6508331087895} - \\\\frac{5889024543008}{6508331087895}'
    """
    return str(_sympy().latex(expression))


@dataclass(frozen=True)
class Breakeven:
    """A solved break-even question: the pay, its exact break-even value, and the EV expression.

    ``current`` is the pay's value now (the commission for ``commission``)
    and ``expected_value`` the bet's EV at it; ``expression`` and ``latex``
    give the EV as a function of ``symbol``.

    >>> solved = find_breakeven("tie", "tie")
    >>> solved.symbol, solved.current, solved.in_range
    ('x', Fraction(8, 1), True)
    >>> find_breakeven("tie", "commission")
    Traceback (most recent call last):
    ...
    exactodds.errors.PayError: The commission is taken on the banker bet only, not on tie; use one of tie, tie.win.
    """

    bet: str
    pay: Pay
    symbol: str
    value: Fraction
    expression: str
    latex: str
    current: Fraction
    expected_value: Fraction

    @property
    def positive_only(self) -> bool:
        """Whether the rules take only a positive value for this pay (the Tie pay, a Banker 6).

        A side bet's pay may be 0 (a push); the Tie pay and the Super 6 Banker pay may not, as
        ``--tie-pays 0`` and ``Rules(tie_pays=0)`` are refused.
        """
        return (self.pay.bet, self.pay.outcome) in (("tie", "win"), ("banker", "win_with_six"))

    @property
    def in_range(self) -> bool:
        """Whether a casino could set this value: a pay the rules accept, a commission below 1.

        >>> from exactodds import Shoe
        >>> find_breakeven("tie", "tie", Shoe.from_ranks({"K": 6})).in_range  # fair at 0 only
        False
        """
        if self.pay.commission:
            return 0 <= self.value < 1
        return self.value > 0 if self.positive_only else self.value >= 0

    @property
    def note(self) -> str | None:
        """What a value out of range means, in one sentence (``None`` when in range)."""
        if self.in_range:
            return None
        if self.pay.commission and self.value < 0:
            return f"Even with no commission the {self.bet} bet loses: no commission makes it fair."
        if self.pay.commission:
            return f"The {self.bet} bet wins at every commission below 100%: none makes it fair."
        if self.value == 0:
            return (
                f"The {self.bet} bet is fair only at a pay of 0, which the rules refuse (the pay "
                "must be positive): every pay they accept makes the bet win."
            )
        return f"The {self.bet} bet wins even at a pay of 0 (a push): no pay makes it fair."


def find_breakeven(
    bet: Bet | str,
    pay: str | None = None,
    source: Source = None,
    rules: Rules | None = None,
) -> Breakeven:
    """Solve EV = 0 for one pay of *bet* (see :func:`breakeven`), with the EV expression.

    >>> find_breakeven("banker").expression
    '241149546272/19524993263685 - 8954111587648*c/19524993263685'
    >>> find_breakeven("banker", "banker.lose")
    Traceback (most recent call last):
    ...
    exactodds.errors.PayError: The 'lose' outcome of banker always costs the stake; it has no pay to set. Use one of commission, banker, banker.tie, banker.win.
    """
    if not isinstance(bet, (Bet, str)):
        raise BetError(
            f"bet is {type(bet).__name__}; pass a bet name such as 'tie' or a Bet object."
        )
    if pay is not None and not isinstance(pay, str):
        raise PayError(f"pay is {type(pay).__name__}; pass a pay name such as 'commission'.")
    sympy = _sympy()
    analysed = price(source, bet, rules)
    resolved = resolve_pay(analysed.bet, pay if pay is not None else default_pay(analysed.bet))
    symbol = sympy.Symbol("c" if resolved.commission else "x")
    expression = expected_value_expression(analysed, analysed.name, {resolved.name: symbol})
    polynomial = sympy.Poly(expression, symbol)
    if polynomial.degree() < 1:
        raise BreakevenError(
            f"Pay {resolved.name!r} does not move the EV of {analysed.name} on this shoe: its "
            f"outcome {resolved.outcome!r} never happens, so the EV is "
            f"{fraction_string(_constant(expression))} whatever it pays and no pay makes the "
            "bet fair."
        )
    if polynomial.degree() > 1:  # pragma: no cover - pay tables make the EV linear in each pay
        raise BreakevenError(
            f"The EV of {analysed.name} is not linear in {resolved.name!r} ({expression}), so it "
            "has no single break-even value."
        )
    slope, intercept = polynomial.all_coeffs()
    value = _constant(-intercept / slope)
    current = analysed.bet.pay(resolved.outcome)
    return Breakeven(
        bet=analysed.name,
        pay=resolved,
        symbol=str(symbol),
        value=value,
        expression=str(expression),
        latex=expression_latex(expression),
        current=1 - current if resolved.commission else current,
        expected_value=analysed.expected_value,
    )


def breakeven(
    bet: Bet | str,
    pay: str | None = None,
    source: Source = None,
    rules: Rules | None = None,
) -> Fraction:
    """The exact value of one pay (or the commission) at which *bet*'s EV is zero.

    *pay* is a ``--pay`` name or ``"commission"``; by default the commission
    for the standard Banker bet, else the bet's one winning pay.  *source*
    is what the bet is priced on (see :func:`expected_value_expression`),
    8 decks under *rules* by default.  The EV is linear in each pay, so the
    value is unique unless the pay does not move the EV at all (its outcome
    never happens on the shoe): then :class:`~exactodds.errors.BreakevenError`.
    The value may fall outside what a casino could set (a negative pay, a
    commission of 100% or more): the bet is then favourable, or
    unfavourable, at every valid value; it is still returned, and
    :attr:`Breakeven.in_range` tells.

    >>> float(breakeven("tie"))  # doctest: +ELLIPSIS
    9.509062340173...
    >>> breakeven("banker", "commission")  # the Banker bet is fair at a 2.6932% commission
    Fraction(7535923321, 279815987114)
    >>> breakeven("lucky6", "lucky6.two_card_win", Shoe.from_ranks({"K": 6}))
    Traceback (most recent call last):
    ...
    exactodds.errors.BreakevenError: Pay 'lucky6.two_card_win' does not move the EV of lucky6 on this shoe: its outcome 'two_card_win' never happens, so the EV is -1 whatever it pays and no pay makes the bet fair.
    """
    return find_breakeven(bet, pay, source, rules).value


def _constant(expression: Any) -> Fraction:
    rational = _sympy().Rational(expression)
    return Fraction(int(rational.p), int(rational.q))
