"""Exact advantage without simulation: averages over what the player does not see.

* :func:`~exactodds.advantage.depth.depth_table`: perfect play by depth, every composition of
  the cards left weighted by its hypergeometric probability.
* :func:`~exactodds.advantage.depth.partial_shoe` and
  :func:`~exactodds.advantage.depth.partial_odds`: the same average when some counts are known.
* :func:`~exactodds.advantage.edgesort.edge_sort`: the best bet for every pattern of card
  groups the player sees (edge sorting), and the search for the best grouping.
"""
