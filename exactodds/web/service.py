"""What the API answers: the commands' JSON contracts, from the same library calls.

:func:`answer` is the one JSON builder of the stateless routes: ``POST /api/odds`` answers
exactly what ``exactodds odds --format json`` prints for the same options, ``POST /api/eor``
what ``exactodds eor --format json`` prints, and each result of ``POST /api/batch`` is the
line ``exactodds batch`` writes for that shoe.  The tests hold each pair equal.

Shoes are priced through a shared :class:`~exactodds.analysis.many.Analyzer` per rules and
bets (compiled once, then about a millisecond a shoe).  Its results are the values
:func:`~exactodds.analysis.single.analyze` gives, and both list every outcome of a pay table
in the same order (an outcome that cannot happen on the shoe with a count of 0), so the JSON
is the command's key for key with no second walk; the tests compare the two on random shoes.
With known cards (``known``) the request is priced as ``exactodds odds --known`` prices it.  :func:`shoe_view` is what a tracked shoe's routes answer:
its settings, state, events, the exact odds of the next round and the counts.

>>> from exactodds.web.inputs import odds_settings
>>> data = answer(odds_settings({"decks": 8, "bets": "tie", "digits": 6}))
>>> data["bets"]["tie"]["house_edge_percent"]
'14.3596%'
"""

from __future__ import annotations

import threading
import time
from dataclasses import replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from exactodds.analysis.known import analyze_known
from exactodds.analysis.many import analyzer_for
from exactodds.analysis.single import Analysis, analyze
from exactodds.engine.known import parse_known
from exactodds.errors import ExactOddsError
from exactodds.numbers import decimal_string
from exactodds.report.odds import batch_record
from exactodds.report.registry import to_dict
from exactodds.web.fields import field_words
from exactodds.web.inputs import BatchSettings, EorSettings, OddsSettings
from exactodds.web.tracker import TableSettings, TableState, table_state

if TYPE_CHECKING:
    from exactodds.analysis.removal import EffectOfRemoval
    from exactodds.web.store import StoredShoe

__all__ = ["CountTables", "analysis_of", "answer", "shoe_view"]


def analysis_of(settings: OddsSettings) -> Analysis:
    """The exact analysis an ``odds`` request asks for, as ``exactodds odds`` gives it."""
    known = parse_known(settings.known) if settings.known else {}
    if known:
        return analyze_known(settings.shoe, settings.rules, known, settings.bets)
    if any(bet.cards is not None for bet in settings.bets):
        # A bet on the cards themselves: the card walk analyze() prices it by (the batch
        # kernel sees round summaries only), about half a second a shoe for Perfect 9.
        return analyze(settings.shoe, settings.rules, settings.bets)
    return analyzer_for(settings.rules, settings.bets).analyze(settings.shoe)


def answer(settings: OddsSettings | EorSettings | BatchSettings) -> dict[str, Any]:
    """The JSON a stateless route answers for its *settings*: the matching command's.

    >>> from exactodds.web.inputs import batch_settings
    >>> data = answer(batch_settings({"shoes": [{"A": 6}, {"K": 7}], "bets": "tie"}))
    >>> [result["bets"]["tie"]["ev"] for result in data["results"]]
    ['8', '8']
    """
    if isinstance(settings, OddsSettings):
        return _odds(settings)
    if isinstance(settings, EorSettings):
        return _eor(settings)
    return _batch(settings)


def _odds(settings: OddsSettings) -> dict[str, Any]:
    """``exactodds odds --format json``'s object for these settings (``odds --game
    dragon-tiger``'s for a Dragon Tiger table)."""
    if settings.dragon_tiger is not None:
        from exactodds.games.dragon_tiger import dragon_tiger_odds

        table = settings.dragon_tiger
        odds = dragon_tiger_odds(settings.shoe, table.bet_names, table.pays)
        return odds.to_dict(settings.digits)
    return to_dict(analysis_of(settings), digits=settings.digits)


def _eor(settings: EorSettings) -> dict[str, Any]:
    """``exactodds eor --format json``'s object for these settings (``eor --game
    dragon-tiger``'s for Dragon Tiger)."""
    from exactodds.analysis.removal import effect_of_removal

    if settings.dragon_tiger is not None:
        from exactodds.games.dragon_tiger import dragon_tiger_removal

        table = settings.dragon_tiger
        removal = dragon_tiger_removal(
            settings.shoe, table.bet_names, table.pays, settings.cards, settings.max_tag
        )
        return removal.to_dict(settings.digits)

    result = effect_of_removal(
        settings.shoe, settings.rules, settings.bets, settings.cards, settings.max_tag
    )
    return to_dict(result, digits=settings.digits)


def _batch(settings: BatchSettings) -> dict[str, Any]:
    """``{"results": [...]}``: ``exactodds batch``'s output line for each shoe, in order."""
    analyzer = analyzer_for(settings.rules, settings.bets)
    return {
        "results": [
            batch_record(analysis, settings.digits, settings.full)
            for analysis in analyzer.analyze_many(settings.shoes, prefetch=False)
        ]
    }


class CountTables:
    """The effect of removal of each chosen bet on a table's full shoe, computed once a settings.

    A card count for a bet is the sum of its tags (the linear count ``exactodds eor`` derives)
    over the cards dealt; it estimates what the exact EV, shown beside it, gives exactly.  A bet
    on the cards themselves has no count here (its exact EV is shown): its effects of removal
    walk a shoe per rank, seconds to minutes, which a page view should not wait for.
    """

    def __init__(self) -> None:
        self._tables: dict[tuple[Any, ...], EffectOfRemoval] = {}
        self._lock = threading.Lock()

    def of(self, settings: TableSettings) -> EffectOfRemoval:
        """The effects of removal (one card, tags up to 2) for the table's full shoe and bets.

        A Dragon Tiger table's are its game's own (:func:`~exactodds.games.dragon_tiger.
        dragon_tiger_removal`, exact), its counts derived by the same machinery.
        """
        key = tuple(sorted((name, str(value)) for name, value in settings.to_dict().items()))
        with self._lock:
            found = self._tables.get(key)
        if found is None:
            found = _removal(settings)
            with self._lock:
                if len(self._tables) > 64:
                    self._tables.clear()
                self._tables[key] = found
        return found


def _removal(settings: TableSettings) -> EffectOfRemoval:
    """The effects of removal :meth:`CountTables.of` keeps, computed."""
    if settings.dragon_tiger is not None:
        from exactodds.games.dragon_tiger import dragon_tiger_removal

        table = settings.dragon_tiger
        removal = dragon_tiger_removal(settings.fresh_shoe(), table.bet_names, table.pays, 1, 2)
        return removal.as_effect_of_removal()
    from exactodds.analysis.removal import effect_of_removal

    bets = [bet for bet in settings.bets if bet.cards is None]
    if not bets:
        raise ExactOddsError("The table's bets are all on the cards themselves.")
    return effect_of_removal(settings.fresh_shoe(), settings.rules, bets, 1, 2)


def _counts(tables: CountTables, settings: TableSettings, state: TableState) -> dict[str, Any]:
    try:
        removal = tables.of(settings)
    except ExactOddsError:
        return {}
    cards_left = state.shoe.cards
    counts: dict[str, Any] = {}
    for name, effects in removal.effects.items():
        tags = dict(removal.counts[name].tags)
        running = sum(tags[card.rank.value] for card in state.dealt)
        true = Fraction(running * 52, cards_left) if cards_left else Fraction(0)
        counts[name] = {
            "running": running,
            "true_decimal": decimal_string(true, 2),
            "tags": tags,
            "eor_decimal": {
                rank: None if effect is None else decimal_string(effect, 4)
                for rank, effect in effects.items()
            },
        }
    return counts


def _table_odds(settings: TableSettings, state: TableState, digits: int) -> dict[str, Any]:
    """The exact odds of the next round on the cards left, as ``POST /api/odds`` prices them."""
    chosen = OddsSettings(state.shoe, settings.rules, settings.bets, (), digits)
    return _odds(replace(chosen, dragon_tiger=settings.dragon_tiger))


def _tableau(settings: TableSettings) -> dict[str, Any] | None:
    """The drawing tableau the page places third cards by (None at a Dragon Tiger table)."""
    if settings.dragon_tiger is not None:
        return None
    tableau = settings.rules.tableau
    return {
        "name": tableau.name,
        "natural_totals": sorted(tableau.natural_totals),
        "player_draws": list(tableau.player_draws),
        "banker_draws_when_player_stood": list(tableau.banker_draws_when_player_stood),
        "banker_draws": [list(row) for row in tableau.banker_draws],
    }


def shoe_view(stored: StoredShoe, digits: int, tables: CountTables) -> dict[str, Any]:
    """What ``GET /api/shoes/{id}`` answers: the shoe, its state, the odds and the counts."""
    state = table_state(stored.settings, stored.events)
    settings = stored.settings
    odds: dict[str, Any] | None = None
    odds_error: str | None = None
    started = time.perf_counter()
    try:
        odds = _table_odds(settings, state, digits)
    except ExactOddsError as error:
        odds_error = field_words(str(error))
    return {
        "shoe": {**stored.summary(), "settings": settings.to_dict()},
        "tableau": _tableau(settings),
        "state": state.to_dict(),
        "events": [event.to_dict() for event in stored.events],
        "odds": odds,
        "odds_error": odds_error,
        "counts": _counts(tables, settings, state),
        "odds_ms": round((time.perf_counter() - started) * 1000, 2),
    }
