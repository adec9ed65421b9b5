"""Exact advantage without simulation: averages over what the player does not see.

* :func:`~exactodds.advantage.depth.depth_table`: perfect play by depth, every composition of
  the cards left weighted by its hypergeometric probability.
* :func:`~exactodds.advantage.depth.partial_shoe` and
  :func:`~exactodds.advantage.depth.partial_odds`: the same average when some counts are known.
* :func:`~exactodds.advantage.edgesort.edge_sort`: the best bet for every pattern of card
  groups the player sees (edge sorting), and the search for the best grouping.

Modules: :mod:`exactodds.advantage.depth` (depth tables, partial shoes),
:mod:`exactodds.advantage.compositions` (exact sums over every composition of the cards left),
:mod:`exactodds.advantage.pairs` (the exact law of the pair sums over those compositions),
:mod:`exactodds.advantage.parallel` (where the pieces run: this process, a pool or Dask) and
:mod:`exactodds.advantage.edgesort` (edge sorting).
"""
