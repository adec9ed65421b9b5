"""From exact counts to exact probabilities, expected values, variances and edges.

- :mod:`exactodds.analysis.single`: one shoe: :func:`~exactodds.analysis.single.analyze`.
- :mod:`exactodds.analysis.many`: many shoes at once: ``Analyzer`` and ``analyze_many``.
- :mod:`exactodds.analysis.removal`: effect of removal and linear counts.
- :mod:`exactodds.analysis.symbolic`: pays as symbols, break-even pays (sympy, imported lazily).
- :mod:`exactodds.analysis.breakdown`: frequencies of totals, cards and naturals.
"""
