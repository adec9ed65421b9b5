"""Random-multiplier overlays: the law, the faces drawn, the multiple paid.

Golden Wealth, Prosperity Tree and Lightning Baccarat draw, before each round, a few card
*faces* (rank and suit) from the 52, uniformly without replacement and independently of the
shoe, and give each drawn face a multiplier drawn independently from a *law*.  A winning
Player or Banker bet is paid its base pay times the product of the multipliers of the drawn
faces among the winning hand's cards (a face held twice multiplies twice); the Tie over both
hands' cards; a pair bet over the pair's two cards.  An overlay file says so in TOML:

.. code-block:: toml

    faces = 5            # distinct faces drawn from the 52 before each round
    fee = "20%"          # optional: the table's fee on every bet
    [law]                # multiplier = probability (they sum to 1)
    2 = "1/4"
    3 = "1/4"
    5 = "1/4"
    8 = "1/4"
    [bets.tie]           # optional, per bet: off = true, pay = 5 (its base pay), cap = 512
    pay = 5

``name``, ``description``, ``source`` and ``assumed`` (``true`` when no one publishes the
law, so that every output can say the law is assumed) may stand beside them.  Shipped
overlays (``exactodds/data/multipliers/``): ``golden_wealth`` and ``prosperity_tree``
(:func:`shipped_overlays`, :func:`resolve_overlay`).

What a bet's cards are worth depends only on their face pattern
(:mod:`exactodds.engine.faces`): :meth:`MultiplierOverlay.multiples` gives the exact law of
the product for a pattern.

>>> overlay = parse_overlay('faces = 1\\n[law]\\n2 = "1/2"\\n1 = "1/2"\\n')
>>> overlay.multiples((1,))
{Fraction(1, 1): Fraction(103, 104), Fraction(2, 1): Fraction(1, 104)}
>>> parse_overlay('faces = 1\\n[law]\\n2 = "1/2"\\n', "my.toml")
Traceback (most recent call last):
...
exactodds.bets.multipliers.OverlayError: The law in my.toml sums to 1/2, not 1; give each multiplier its probability so that they sum to 1.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from exactodds.errors import BetError, ExactOddsError, quoted
from exactodds.inputs import load_toml, read_file, resolve_document, shown
from exactodds.numbers import fraction_string, parse_fee, parse_number

__all__ = [
    "MULTIPLIED_BETS",
    "BetMultipliers",
    "MultiplierOverlay",
    "OverlayError",
    "parse_overlay",
    "read_overlay",
    "resolve_overlay",
    "shipped_overlays",
]

#: The bets an overlay multiplies, and whose cards: the winning hand's, both hands', a pair's.
MULTIPLIED_BETS: dict[str, str] = {
    "player": "player",
    "banker": "banker",
    "tie": "round",
    "player_pair": "player_first_two",
    "banker_pair": "banker_first_two",
}
_KEYS = ("name", "description", "source", "assumed", "faces", "fee", "law", "bets")
_BET_KEYS = ("off", "pay", "cap")
#: The most values a law may name (a design grid is bounded apart).
MOST_LAW_VALUES = 64
_FACES = 52


class OverlayError(BetError):
    """A multiplier overlay is malformed (exit 2 in the CLI)."""


@dataclass(frozen=True)
class BetMultipliers:
    """One bet's settings under an overlay: off, its own base pay, a cap on the multiple.

    >>> BetMultipliers(pay=Fraction(5)).describe()
    'pays 5 times the multiple'
    """

    off: bool = False
    pay: Fraction | None = None
    cap: Fraction | None = None

    def describe(self) -> str:
        """A short description for tables."""
        if self.off:
            return "no multipliers"
        words = [f"pays {fraction_string(self.pay)} times the multiple"] if self.pay else []
        if self.cap is not None:
            words.append(f"multiple capped at {fraction_string(self.cap)}")
        return ", ".join(words) or "its pay times the multiple"


@dataclass(frozen=True)
class MultiplierOverlay:
    """A random-multiplier overlay: faces drawn, the law of each face's multiplier, settings.

    ``law`` maps each multiplier to its probability (given as a mapping, kept as sorted
    pairs); ``deck`` is how many faces the draw is made from (52; smaller only to check the
    pricing against an enumeration of the drawn faces on a tiny deck).

    >>> MultiplierOverlay(3, {2: Fraction(1, 2), 3: Fraction(1, 2)}).mean
    Fraction(5, 2)
    >>> MultiplierOverlay(53, {2: 1})
    Traceback (most recent call last):
    ...
    exactodds.bets.multipliers.OverlayError: faces is 53, more than the 52 faces of a deck; use a whole number from 1 to 52.
    """

    faces: int
    law: tuple[tuple[Fraction, Fraction], ...] | Mapping[Any, Any]
    fee: Fraction | None = None
    bets: tuple[tuple[str, BetMultipliers], ...] | Mapping[str, BetMultipliers] = ()
    name: str = ""
    description: str = ""
    source: str = ""
    assumed: bool = False
    deck: int = _FACES
    _cache: dict[tuple[int, ...], dict[Fraction, Fraction]] = field(
        init=False, repr=False, compare=False, hash=False, default_factory=dict
    )
    _integers: dict[tuple[int, ...], tuple[dict[int, int], int, int]] = field(
        init=False, repr=False, compare=False, hash=False, default_factory=dict
    )
    _laws: dict[tuple[int, ...], dict[int, int]] = field(
        init=False, repr=False, compare=False, hash=False, default_factory=dict
    )

    def __post_init__(self) -> None:
        where = f"the overlay {self.name!r}" if self.name else "the overlay"
        deck = self.deck
        if type(deck) is not int or not 1 <= deck <= _FACES:
            raise OverlayError(f"deck is {shown(deck)}; use a whole number from 1 to 52.")
        faces = self.faces
        if type(faces) is not int or faces < 1:
            raise OverlayError(f"faces is {shown(faces)}; use a whole number from 1 to {deck}.")
        if faces > deck:
            raise OverlayError(
                f"faces is {faces}, more than the {deck} faces of a deck; use a whole number "
                f"from 1 to {deck}."
            )
        items = self.law.items() if isinstance(self.law, Mapping) else self.law
        law = _law(list(items), where)
        object.__setattr__(self, "law", law)
        bets = self.bets.items() if isinstance(self.bets, Mapping) else self.bets
        object.__setattr__(self, "bets", tuple(sorted(bets)))
        for bet, _ in self.bets_items:
            if bet not in MULTIPLIED_BETS:
                raise OverlayError(_unknown_bet(bet, where))

    def fee_with(self, rules_fee: Fraction | None) -> Fraction:
        """The fee a table under this overlay charges on every bet: the rules' (*rules_fee*)
        when they set one, else the overlay's, else none.

        >>> overlay = MultiplierOverlay(5, {2: 1}, fee=Fraction(1, 5))
        >>> overlay.fee_with(None), overlay.fee_with(Fraction(1, 10))
        (Fraction(1, 5), Fraction(1, 10))
        """
        return rules_fee or self.fee or Fraction(0)

    @property
    def mean(self) -> Fraction:
        """The law's mean multiplier."""
        return sum((value * chance for value, chance in self.law_items), Fraction(0))

    @property
    def law_items(self) -> tuple[tuple[Fraction, Fraction], ...]:
        """The law as (multiplier, probability) pairs, multipliers ascending."""
        law = self.law
        assert isinstance(law, tuple)
        return law

    def settings(self, bet: str) -> BetMultipliers:
        """The settings of *bet* (the defaults when the file names none)."""
        return dict(self.bets_items).get(bet, BetMultipliers())

    @property
    def bets_items(self) -> tuple[tuple[str, BetMultipliers], ...]:
        """The per-bet settings as (bet, settings) pairs."""
        bets = self.bets
        assert isinstance(bets, tuple)
        return bets

    def multiplies(self, bet: str) -> bool:
        """Whether the overlay multiplies *bet*'s wins."""
        return bet in MULTIPLIED_BETS and not self.settings(bet).off

    def drawn_probability(self, distinct: int, drawn: int) -> Fraction:
        """The chance that exactly a given *drawn* of *distinct* given faces are drawn.

        >>> MultiplierOverlay(5, {2: 1}).drawn_probability(1, 1)
        Fraction(5, 52)
        """
        others = self.faces - drawn
        if others < 0 or distinct > self.deck:
            return Fraction(0)
        return Fraction(math.comb(self.deck - distinct, others), math.comb(self.deck, self.faces))

    def multiples(self, pattern: tuple[int, ...]) -> dict[Fraction, Fraction]:
        """The law of the product of multipliers over cards of face *pattern*, ascending.

        *pattern* holds how often each distinct face is held (a face held twice counts its
        multiplier twice); a face not drawn multiplies by 1.

        >>> overlay = MultiplierOverlay(2, {2: 1}, deck=2)
        >>> overlay.multiples((2, 1))
        {Fraction(8, 1): Fraction(1, 1)}
        """
        key = tuple(pattern)
        cached = self._cache.get(key)
        if cached is None:
            weights, value_unit, chance_unit = self.multiple_weights(key)
            cached = self._cache[key] = {
                Fraction(value, value_unit): Fraction(weight, chance_unit)
                for value, weight in weights.items()
            }
        return cached

    def multiple_weights(self, pattern: tuple[int, ...]) -> tuple[dict[int, int], int, int]:
        """:meth:`multiples` in integers: value numerator -> weight, ascending, and the two
        denominators (of the values, of the weights); what pricing sums.

        >>> half = MultiplierOverlay(1, {"3/2": Fraction(1, 2), 1: Fraction(1, 2)}, deck=2)
        >>> half.multiple_weights((1,))
        ({2: 3, 3: 1}, 2, 4)
        """
        key = tuple(pattern)
        found = self._integers.get(key)
        if found is not None:
            return found
        values, chances, value_unit, chance_unit = self._integer_law
        distinct, cards = len(key), sum(key)
        totals: dict[int, int] = defaultdict(int)
        # The faces drawn among the pattern's, grouped by how often each is held: subsets
        # that draw as many faces of each multiplicity pay alike.  Every term is put over
        # value_unit**cards (values) and comb(deck, faces) * chance_unit**distinct (weights).
        classes = sorted(Counter(key).items())
        for taken in itertools.product(*(range(size + 1) for _, size in classes)):
            drawn = sum(taken)
            if self.faces < drawn or distinct > self.deck:
                continue
            ways = math.prod(
                math.comb(size, k) for (_, size), k in zip(classes, taken, strict=True)
            )
            chance = ways * math.comb(self.deck - distinct, self.faces - drawn)
            if not chance:
                continue
            powers = tuple(
                times for (times, _), k in zip(classes, taken, strict=True) for _ in range(k)
            )
            value_scale = value_unit ** (cards - sum(powers))
            chance_scale = chance * chance_unit ** (distinct - drawn)
            for value, weight in self._product_law(powers, values, chances).items():
                totals[value * value_scale] += weight * chance_scale
        found = (
            {value: totals[value] for value in sorted(totals) if totals[value]},
            value_unit**cards,
            math.comb(self.deck, self.faces) * chance_unit**distinct,
        )
        self._integers[key] = found
        return found

    def mean_multiple(self, pattern: tuple[int, ...]) -> Fraction:
        """E[product of multipliers] over cards of face *pattern*, from the law's moments.

        Without a cap the mean needs no law of the product: each drawn face held ``c``
        times contributes ``E[m**c]``, independently.

        >>> overlay = MultiplierOverlay(2, {2: Fraction(1, 2), 3: Fraction(1, 2)}, deck=4)
        >>> overlay.mean_multiple((2, 1)) == sum(m * p for m, p in overlay.multiples((2, 1)).items())
        True
        """
        classes = sorted(Counter(pattern).items())
        total = Fraction(0)
        for taken in itertools.product(*(range(size + 1) for _, size in classes)):
            ways = math.prod(
                math.comb(size, k) for (_, size), k in zip(classes, taken, strict=True)
            )
            chance = ways * self.drawn_probability(len(pattern), sum(taken))
            if chance:
                total += chance * math.prod(
                    (self.moment(times) ** k for (times, _), k in zip(classes, taken, strict=True)),
                    start=Fraction(1),
                )
        return total

    def moment(self, power: int) -> Fraction:
        """E[m**power] for one face's multiplier *m*.

        >>> MultiplierOverlay(1, {2: Fraction(1, 2), 4: Fraction(1, 2)}).moment(2)
        Fraction(10, 1)
        """
        return sum((value**power * chance for value, chance in self.law_items), Fraction(0))

    @property
    def _integer_law(self) -> tuple[tuple[int, ...], tuple[int, ...], int, int]:
        """The law over common denominators: value numerators, chance numerators, the units."""
        value_unit = math.lcm(*(value.denominator for value, _ in self.law_items))
        chance_unit = math.lcm(*(chance.denominator for _, chance in self.law_items))
        return (
            tuple(int(value * value_unit) for value, _ in self.law_items),
            tuple(int(chance * chance_unit) for _, chance in self.law_items),
            value_unit,
            chance_unit,
        )

    def _product_law(
        self, powers: tuple[int, ...], values: tuple[int, ...], chances: tuple[int, ...]
    ) -> dict[int, int]:
        """The law of the product of independent multipliers raised to *powers*, in integers.

        Values over ``value_unit ** sum(powers)``, weights over ``chance_unit ** len(powers)``.
        """
        found = self._laws.get(powers)
        if found is not None:
            return found
        if not powers:
            law = {1: 1}
        else:
            grown: dict[int, int] = defaultdict(int)
            last = powers[-1]
            raised = [(value**last, chance) for value, chance in zip(values, chances, strict=True)]
            for value, weight in self._product_law(powers[:-1], values, chances).items():
                for multiplier, chance in raised:
                    grown[value * multiplier] += weight * chance
            law = dict(grown)
        self._laws[powers] = law
        return law

    def to_dict(self) -> dict[str, Any]:
        """The overlay as JSON-ready data (exact fractions as text)."""
        data: dict[str, Any] = {"name": self.name} if self.name else {}
        data |= {
            "faces": self.faces,
            "law": {fraction_string(value): fraction_string(p) for value, p in self.law_items},
            "law_assumed": self.assumed,
        }
        if self.fee is not None:
            data["fee"] = fraction_string(self.fee)
        if self.source:
            data["source"] = self.source
        data["bets"] = {
            bet: {
                key: (value if isinstance(value, bool) else fraction_string(value))
                for key, value in (("off", s.off), ("pay", s.pay), ("cap", s.cap))
                if value
            }
            for bet, s in self.bets_items
        }
        return data


def _unknown_bet(bet: str, where: str) -> str:
    return (
        f"Bet {quoted(bet)} in {where} takes no multipliers; use "
        f"{', '.join(list(MULTIPLIED_BETS)[:-1])} or {list(MULTIPLIED_BETS)[-1]}."
    )


def _law(items: list[Any], where: str) -> tuple[tuple[Fraction, Fraction], ...]:
    """The law as sorted (multiplier, probability) pairs, checked: positive, summing to 1."""
    if not items:
        raise OverlayError(f"The law in {where} is empty; give each multiplier its probability.")
    if len(items) > MOST_LAW_VALUES:
        raise OverlayError(
            f"The law in {where} names {len(items)} multipliers; use at most {MOST_LAW_VALUES}."
        )
    law: dict[Fraction, Fraction] = {}
    for raw_value, raw_chance in items:
        value = _number(raw_value, f"the multiplier {shown(raw_value)} in {where}")
        if value <= 0:
            raise OverlayError(
                f"The multiplier {fraction_string(value)} in {where} is not positive; use "
                "multipliers above 0, such as 2 or 1.5."
            )
        chance = _number(raw_chance, f"the probability of {fraction_string(value)}x in {where}")
        if not 0 <= chance <= 1:
            raise OverlayError(
                f"The probability {fraction_string(chance)} of {fraction_string(value)}x in "
                f"{where} is not from 0 to 1; use a probability such as 1/4 or 0.25."
            )
        if value in law:
            raise OverlayError(
                f"The law in {where} names {fraction_string(value)}x twice; name it once."
            )
        law[value] = chance
    total = sum(law.values(), Fraction(0))
    if total != 1:
        raise OverlayError(
            f"The law in {where} sums to {fraction_string(total)}, not 1; give each multiplier "
            "its probability so that they sum to 1."
        )
    return tuple(sorted(law.items()))


def _number(raw: object, what: str) -> Fraction:
    try:
        return parse_number(raw, what)  # type: ignore[arg-type]
    except ExactOddsError as error:
        raise OverlayError(str(error)) from None


def _bet_settings(bet: str, raw: object, source: str) -> BetMultipliers:
    if not isinstance(raw, dict):
        raise OverlayError(
            f"bets.{bet} in {source} is {shown(raw)}; use a table such as [bets.{bet}] pay = 5."
        )
    for key in raw:
        if key not in _BET_KEYS:
            raise OverlayError(
                f"Unknown key {quoted(key)} for bet {bet} in {source}; use off, pay or cap."
            )
    off = raw.get("off", False)
    if not isinstance(off, bool):
        raise OverlayError(f"off for bet {bet} in {source} is {shown(off)}; use true or false.")
    values: dict[str, Fraction | None] = {}
    for key in ("pay", "cap"):
        value = None if key not in raw else _number(raw[key], f"{key} of bet {bet} in {source}")
        if value is not None and value <= 0:
            raise OverlayError(
                f"{key} of bet {bet} in {source} is {fraction_string(value)}; use a number above 0."
            )
        values[key] = value
    return BetMultipliers(off, values["pay"], values["cap"])


def parse_overlay(text: str, source: str = "the overlay") -> MultiplierOverlay:
    """Read and check an overlay's TOML *text*; *source* names it in errors.

    >>> parse_overlay('faces = 60\\n[law]\\n2 = 1\\n', "my.toml")
    Traceback (most recent call last):
    ...
    exactodds.bets.multipliers.OverlayError: faces is 60, more than the 52 faces of a deck; use a whole number from 1 to 52.
    >>> parse_overlay('faces = 2\\n[law]\\n0 = 1\\n', "my.toml")
    Traceback (most recent call last):
    ...
    exactodds.bets.multipliers.OverlayError: The multiplier 0 in my.toml is not positive; use multipliers above 0, such as 2 or 1.5.
    >>> parse_overlay('faces = 2\\n[law]\\n2 = 1\\n[bets.tie]\\nboost = 2\\n', "my.toml")
    Traceback (most recent call last):
    ...
    exactodds.bets.multipliers.OverlayError: Unknown key 'boost' for bet tie in my.toml; use off, pay or cap.
    """
    data = load_toml(text, source, OverlayError, 'use lines such as faces = 5 and [law] 2 = "1/4"')
    for key in data:
        if key not in _KEYS:
            raise OverlayError(
                f"Unknown key {quoted(key)} in {source}; use {', '.join(_KEYS[:-1])} or bets."
            )
    for key, hint in (("faces", "faces = 5"), ("law", '[law] with lines such as 2 = "1/4"')):
        if key not in data:
            raise OverlayError(f"{source} has no {key}; add {hint}.")
    texts = {}
    for key in ("name", "description", "source"):
        value = data.get(key, "")
        if not isinstance(value, str) or len(value) > 2000:
            raise OverlayError(f"{key} in {source} is {shown(value)}; use text in quotes.")
        texts[key] = value
    assumed = data.get("assumed", False)
    if not isinstance(assumed, bool):
        raise OverlayError(f"assumed in {source} is {shown(assumed)}; use true or false.")
    law = data["law"]
    if not isinstance(law, dict):
        raise OverlayError(f"law in {source} is {shown(law)}; use a [law] table.")
    fee = data.get("fee")
    if fee is not None:
        try:
            fee = parse_fee(fee if not isinstance(fee, bool) else str(fee), f"fee in {source}")
        except ExactOddsError as error:
            raise OverlayError(str(error)) from None
    bets = data.get("bets", {})
    if not isinstance(bets, dict):
        raise OverlayError(f"bets in {source} is {shown(bets)}; use tables such as [bets.tie].")
    for bet in bets:
        if bet not in MULTIPLIED_BETS:
            raise OverlayError(_unknown_bet(bet, source))
    return MultiplierOverlay(
        data["faces"],
        _law(list(law.items()), source),
        fee,
        {bet: _bet_settings(bet, raw, source) for bet, raw in bets.items()},
        texts["name"] or Path(source).stem,
        texts["description"],
        texts["source"],
        assumed,
    )


def read_overlay(path: str | Path) -> MultiplierOverlay:
    """Read an overlay file from *path*.

    >>> read_overlay("no/such/overlay.toml")
    Traceback (most recent call last):
    ...
    exactodds.bets.multipliers.OverlayError: Cannot read overlay file 'no/such/overlay.toml': it does not exist.
    """
    document = read_file(str(path), "overlay file", OverlayError)
    return parse_overlay(document.text, document.source)


def shipped_overlays() -> dict[str, Path]:
    """The overlays shipped with exactodds, by name.

    >>> sorted(shipped_overlays())
    ['golden_wealth', 'prosperity_tree']
    """
    folder = Path(__file__).parent.parent / "data" / "multipliers"
    return {
        Path(entry.name).stem: Path(str(entry))
        for entry in sorted(folder.iterdir(), key=lambda entry: entry.name)
        if entry.name.endswith(".toml")
    }


def resolve_overlay(spec: str | Path) -> MultiplierOverlay:
    """An overlay by path, or by the name of a shipped one; a file that exists wins.

    >>> resolve_overlay("prosperity_tree").faces
    8
    >>> resolve_overlay("no_such_overlay")
    Traceback (most recent call last):
    ...
    exactodds.bets.multipliers.OverlayError: Multipliers 'no_such_overlay' is neither a file that exists nor a shipped overlay; use a TOML file or one of golden_wealth, prosperity_tree.
    """
    if not isinstance(spec, (str, Path)):
        raise OverlayError(f"Multipliers {shown(spec)} is not a file name or a shipped overlay.")
    return resolve_document(
        spec,
        "overlay file",
        OverlayError,
        parse_overlay,
        shipped_overlays(),
        read_overlay,
        ("Multipliers", "shipped overlay"),
    )
