"""What the API answers: the commands' JSON contracts, from the same library calls.

``POST /api/odds`` answers exactly what ``exactodds odds --format json``
prints for the same options, ``POST /api/eor`` what ``exactodds eor --format
json`` prints, and each result of ``POST /api/batch`` is the line ``exactodds
batch`` writes for that shoe.  The tests hold each pair equal.

``/api/odds`` makes the very call ``odds`` makes (:func:`~exactodds.analysis.single.analyze`,
or the known-card walk), so the two cannot drift apart.  The tracker's page,
which prices a shoe after every card, goes through a shared
:class:`~exactodds.analysis.many.Analyzer` per rules and bets instead (compiled
once, then about a millisecond a shoe): the same exact EVs, without waiting on
the walk (:func:`tracker_odds_data`).

>>> from exactodds.web.inputs import odds_settings
>>> data = odds_data(odds_settings({"decks": 8, "bets": "tie", "digits": 6}))
>>> data["bets"]["tie"]["house_edge_percent"]
'14.3596%'
"""

from __future__ import annotations

from typing import Any

from exactodds.analysis.many import analyzer_for
from exactodds.analysis.single import Analysis, analyze
from exactodds.engine.known import analyze_known, parse_known
from exactodds.report.odds import analysis_data, batch_record
from exactodds.web.inputs import BatchSettings, EorSettings, OddsSettings

__all__ = ["analysis_of", "batch_data", "eor_data", "odds_data", "tracker_odds_data"]


def analysis_of(settings: OddsSettings) -> Analysis:
    """The exact analysis an ``odds`` request asks for, as ``exactodds odds`` makes it."""
    known = parse_known(settings.known) if settings.known else {}
    if known:
        return analyze_known(settings.shoe, settings.rules, known, settings.bets)
    return analyze(settings.shoe, settings.rules, settings.bets)


def odds_data(settings: OddsSettings) -> dict[str, Any]:
    """``exactodds odds --format json``'s object for these settings."""
    data = analysis_data(analysis_of(settings), settings.digits)
    if settings.known:
        known = parse_known(settings.known)
        data["known"] = {str(position): card.symbol for position, card in known.items()}
    return data


def tracker_odds_data(settings: OddsSettings) -> dict[str, Any]:
    """:func:`odds_data`'s object for a tracked shoe, priced through the shared Analyzer.

    >>> from exactodds.web.inputs import odds_settings
    >>> settings = odds_settings({"decks": 6, "remove": "A K 7 7 T", "bets": "all", "digits": 8})
    >>> fast, walked = tracker_odds_data(settings)["bets"], odds_data(settings)["bets"]
    >>> all(fast[name].get("ev") == walked[name].get("ev") for name in walked)
    True
    """
    analysis = analyzer_for(settings.rules, settings.bets).analyze(settings.shoe)
    return analysis_data(analysis, settings.digits)


def eor_data(settings: EorSettings) -> dict[str, Any]:
    """``exactodds eor --format json``'s object for these settings."""
    from exactodds.analysis.removal import effect_of_removal
    from exactodds.report.research import removal_data

    result = effect_of_removal(settings.shoe, settings.rules, settings.bets, settings.cards)
    return removal_data(result, settings.digits, settings.max_tag)


def batch_data(settings: BatchSettings) -> dict[str, Any]:
    """``{"results": [...]}``: ``exactodds batch``'s output line for each shoe, in order.

    >>> from exactodds.web.inputs import batch_settings
    >>> data = batch_data(batch_settings({"shoes": [{"A": 6}, {"K": 7}], "bets": "tie"}))
    >>> [result["bets"]["tie"]["ev"] for result in data["results"]]
    ['8', '8']
    """
    analyzer = analyzer_for(settings.rules, settings.bets)
    return {
        "results": [
            batch_record(analysis, settings.digits, settings.full)
            for analysis in analyzer.analyze_many(settings.shoes, prefetch=False)
        ]
    }
