"""Studies: what combines the floors below into one deliverable, computed, not rendered.

Each study returns frozen results; :mod:`exactodds.report` lays them out.

- :mod:`exactodds.studies.parsheet`: the par-sheet model, every figure of a bet's par sheet.
- :mod:`exactodds.studies.audit`: the countability audit of a bet (house edge, effects of
  removal, the best count found by search, the perfect-play bound, win by cut card, a verdict).
- :mod:`exactodds.studies.design`: pay tables designed against the audit (every table in
  ranges of pays whose exact house edge falls in a window, ranked by the best count's win).
- :mod:`exactodds.studies.protection`: the countermeasure table (an advantage player's win
  per shoe and per hour by cut card, side-bet cap, required main bet, team size, known card).
- :mod:`exactodds.studies.multipliers`: multiplier laws designed for target RTPs on a grid,
  and inferred from published RTPs (exact polynomials, with a consistency check).
"""

__all__ = ["audit", "design", "multipliers", "parsheet", "protection"]
