"""From exact counts to exact probabilities, expected values, variances and edges.

- :mod:`exactodds.analysis.single`: one shoe: :func:`~exactodds.analysis.single.analyze`.
- :mod:`exactodds.analysis.many`: many shoes at once: ``Analyzer`` and ``analyze_many``.
- :mod:`exactodds.analysis.removal`: effect of removal and linear counts.
- :mod:`exactodds.analysis.symbolic`: pays as symbols, break-even pays (sympy, imported lazily).
- :mod:`exactodds.analysis.breakdown`: frequencies of totals, cards and naturals.
- :mod:`exactodds.analysis.routing`: how a bet is priced, one decision for both paths.
- :mod:`exactodds.analysis.known`: exact odds when some of the next cards are known.
- :mod:`exactodds.analysis.tails`: N independent rounds: exact distribution, tails, percentiles.
- :mod:`exactodds.analysis.risk`: DI, SCORE, N0, risk of ruin and Kelly stakes.
- :mod:`exactodds.analysis.rebates`: a rolling or loss rebate's worth and the effective edge.
- :mod:`exactodds.analysis.multipliers`: bets priced under a random-multiplier overlay.
- :mod:`exactodds.analysis.cardprice`: card-level bets' exact EVs on many shoes (card terms).
"""
