"""Errors raised by exactodds.

Every error a user can cause derives from :class:`ExactOddsError`, and every
subclass is also a :class:`ValueError`, so ``except ValueError`` keeps working
in scripts that do not know about exactodds.  Messages are one full sentence
that quotes the bad value and says what would be valid, and that names the
library's own parameters in backquotes (`` `commission` ``, `` `bets` ``):
the command line and the web API each put their own word for a parameter in
its place, once (:func:`in_words`), so a Python caller never reads about a
flag it did not type.

>>> from exactodds import Shoe
>>> try:
...     Shoe.standard(decks=0)
... except ExactOddsError as error:
...     print(error)
Number of decks 0 for `decks` is not valid; use a whole number of at least 1.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

__all__ = [
    "BetError",
    "BreakevenError",
    "CardError",
    "ExactOddsError",
    "MissingExtraError",
    "PayError",
    "RemovalError",
    "RulesError",
    "ShoeError",
    "SimulationError",
    "import_extra",
    "in_words",
    "parameter",
    "quoted",
]

_PARAMETER = re.compile(r"`([A-Za-z_][A-Za-z0-9_.]*)`")


def parameter(name: str) -> str:
    """How a message names the library parameter (or field) *name*: in backquotes.

    >>> parameter("commission")
    '`commission`'
    """
    return f"`{name}`"


def in_words(message: str, word: Callable[[str], str]) -> str:
    """*message* with each parameter it names (:func:`parameter`) put in *word*'s words.

    The command line maps ``commission`` to ``--commission``, the web API to its JSON field.

    >>> in_words("Commission '5' for `commission` is not valid.", lambda name: "--" + name)
    "Commission '5' for --commission is not valid."
    >>> in_words("No parameter here.", str.upper)
    'No parameter here.'
    """
    return _PARAMETER.sub(lambda match: word(match.group(1)), message)


def quoted(text: str, limit: int = 60) -> str:
    """*text* quoted for a message, cut short past *limit* characters.

    A message names the bad value, but never pastes a whole file or a 5,000-digit number.

    >>> quoted("A=4")
    "'A=4'"
    >>> quoted("x" * 100, 10)
    "'xxxxxxxxxx...' (100 characters)"
    """
    if len(text) <= limit:
        return repr(text)
    return repr(text[:limit])[:-1] + f"...{repr(text)[-1]} ({len(text):,} characters)"


class ExactOddsError(ValueError):
    """Base class of every error that bad input can cause.

    >>> issubclass(ShoeError, ExactOddsError) and issubclass(ShoeError, ValueError)
    True
    """


class MissingExtraError(ExactOddsError):
    """A feature needs an optional dependency (an *extra*) that is not installed.

    Every such message has one form, from :func:`import_extra`, and the command line ends
    with exit 2 on it, as on any other error the user can put right.

    >>> raise MissingExtraError("Workbooks need openpyxl.")
    Traceback (most recent call last):
    ...
    exactodds.errors.MissingExtraError: Workbooks need openpyxl.
    """


def import_extra(modules: str, feature: str, extra: str, otherwise: str = "") -> Any:
    """Import the comma-separated *modules* and return the first; else one sentence, one form.

    *feature* says what needs them, *extra* is the ``exactodds[...]`` extra that brings them,
    and *otherwise* (optional) says how to do without.

    >>> import_extra("fractions", "Exact numbers", "core").__name__
    'fractions'
    >>> import_extra("no_such_module_here", "The xlsx par sheet", "report")
    Traceback (most recent call last):
    ...
    exactodds.errors.MissingExtraError: The xlsx par sheet needs no_such_module_here, which is not installed; install it with: pip install "exactodds[report]".
    """
    import importlib

    names = [name.strip() for name in modules.split(",")]
    try:
        loaded = [importlib.import_module(name) for name in names]
    except ImportError:
        listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        verb, pronoun = ("is", "it") if len(names) == 1 else ("are", "them")
        raise MissingExtraError(
            f"{feature} needs {listed}, which {verb} not installed; install {pronoun} with: "
            f'pip install "exactodds[{extra}]"{otherwise}.'
        ) from None
    return loaded[0]


class CardError(ExactOddsError):
    """A card or rank could not be read.

    >>> from exactodds.cards import parse_cards
    >>> parse_cards("AZ")
    Traceback (most recent call last):
    ...
    exactodds.errors.CardError: Unknown card 'Z' in 'AZ'; use ranks A 2-9 T J Q K (10 for T), optionally followed by a suit S H D C.
    """


class ShoeError(ExactOddsError):
    """A shoe composition is malformed, negative, too small or inconsistent.

    >>> from exactodds import Shoe
    >>> Shoe.from_ranks({"A": -1})
    Traceback (most recent call last):
    ...
    exactodds.errors.ShoeError: Count -1 for 'A' is negative; use a whole number of at least 0.
    """


class RulesError(ExactOddsError):
    """A rule or drawing tableau is not valid.

    >>> from exactodds import Rules
    >>> Rules(commission=2)
    Traceback (most recent call last):
    ...
    exactodds.errors.RulesError: Commission 2 is not valid; use a value from 0 up to but not including 1 (100%), such as 5%, 0.05 or 1/20.
    """


class PayError(ExactOddsError):
    """A payout could not be read or is out of range.

    >>> from exactodds.numbers import parse_pay
    >>> parse_pay("-3", "`tie_pays`")
    Traceback (most recent call last):
    ...
    exactodds.errors.PayError: Pay '-3' for `tie_pays` is not valid; use a positive number such as 8, 8:1, 17/2 or 8.5.
    """


class BetError(ExactOddsError):
    """A bet name, selection or bet description is not valid.

    >>> from exactodds.bets.catalogue import select_bets
    >>> select_bets("main,dragon8")
    Traceback (most recent call last):
    ...
    exactodds.errors.BetError: Unknown bet 'dragon8' in the bet selection; use main, side, all, or bet names such as banker, dragon7, lucky6 (exactodds bets lists them).
    """


class RemovalError(ExactOddsError):
    """An effect-of-removal request cannot be met (no rank has the cards to remove).

    >>> from exactodds import Shoe
    >>> from exactodds.analysis.removal import effect_of_removal
    >>> effect_of_removal(Shoe.from_ranks({"A": 3, "K": 3}), cards=1)
    Traceback (most recent call last):
    ...
    exactodds.errors.RemovalError: Removing 1 card from this 6-card shoe would leave 5 cards; a round is counted as a sequence of 6 cards, so at least 6 must remain.
    """


class SimulationError(ExactOddsError):
    """A simulation setting that cannot work: a cut card deeper than the shoe, a bad seed, ...

    >>> issubclass(SimulationError, ValueError)
    True
    """


class BreakevenError(ExactOddsError):
    """A pay has no break-even value: the bet's EV does not depend on it (or not linearly).

    >>> from exactodds import Shoe
    >>> from exactodds.analysis.symbolic import breakeven
    >>> breakeven("dragon7", "dragon7", Shoe.from_ranks({"K": 6}))
    Traceback (most recent call last):
    ...
    exactodds.errors.BreakevenError: Pay 'dragon7' does not move the EV of dragon7 on this shoe: its outcome 'win' never happens, so the EV is -1 whatever it pays and no pay makes the bet fair.
    """
