"""What the API answers: the commands' JSON contracts, from the same library calls.

``POST /api/odds`` answers exactly what ``exactodds odds --format json``
prints for the same options, ``POST /api/eor`` what ``exactodds eor --format
json`` prints, and each result of ``POST /api/batch`` is the line ``exactodds
batch`` writes for that shoe.  The tests hold each pair equal.

Shoes are priced through a shared :class:`~exactodds.analysis.many.Analyzer`
per rules and bets (compiled once, then about a millisecond a shoe), whose
results are the values :func:`~exactodds.analysis.single.analyze` gives.  The
walk that ``exactodds odds`` runs lists only the outcomes that can happen,
where the Analyzer also lists an impossible one with a count of 0; on such a
shoe (a nearly empty one) the answer is the walk's, so the JSON is the
command's, key for key.  The tests compare the two on random shoes.

>>> from exactodds.web.inputs import odds_settings
>>> data = odds_data(odds_settings({"decks": 8, "bets": "tie", "digits": 6}))
>>> data["bets"]["tie"]["house_edge_percent"]
'14.3596%'
"""

from __future__ import annotations

from typing import Any

from exactodds.analysis.known import analyze_known
from exactodds.analysis.many import analyzer_for
from exactodds.analysis.single import Analysis, analyze
from exactodds.engine.known import parse_known
from exactodds.report.odds import analysis_data, batch_record
from exactodds.web.inputs import BatchSettings, EorSettings, OddsSettings

__all__ = ["analysis_of", "batch_data", "eor_data", "odds_data"]


def analysis_of(settings: OddsSettings) -> Analysis:
    """The exact analysis an ``odds`` request asks for, as ``exactodds odds`` gives it."""
    known = parse_known(settings.known) if settings.known else {}
    if known:
        return analyze_known(settings.shoe, settings.rules, known, settings.bets)
    fast = analyzer_for(settings.rules, settings.bets).analyze(settings.shoe)
    if any(0 in bet.outcome_counts.values() for bet in fast.bets.values()):
        return analyze(settings.shoe, settings.rules, settings.bets)
    return fast


def odds_data(settings: OddsSettings) -> dict[str, Any]:
    """``exactodds odds --format json``'s object for these settings."""
    data = analysis_data(analysis_of(settings), settings.digits)
    if settings.known:
        known = parse_known(settings.known)
        data["known"] = {str(position): card.symbol for position, card in known.items()}
    return data


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
