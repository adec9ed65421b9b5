"""Studies: what combines the floors below into one deliverable, computed, not rendered.

Each study returns frozen results; :mod:`exactodds.report` lays them out.

- :mod:`exactodds.studies.parsheet`: the par-sheet model, every figure of a bet's par sheet.
- :mod:`exactodds.studies.audit`: the countability audit of a bet (house edge, effects of
  removal, the best count found by search, the perfect-play bound, win by cut card, a verdict).
- :mod:`exactodds.studies.dragon_tiger_audit`: the countability audit of Dragon Tiger's bets
  (the count derived from the exact effects of removal, its trigger, perfect play, a verdict).
- :mod:`exactodds.studies.design`: pay tables designed against the audit (every table in
  ranges of pays whose exact house edge falls in a window, ranked by the best count's win).
- :mod:`exactodds.studies.review`: the winning-player review (a player's logged bets against
  the exact EV of every moment: theoretical result, luck, correlations, likelihood ratios),
  its log read strictly by :mod:`exactodds.studies.review_log`.
- :mod:`exactodds.studies.protection`: the countermeasure table (an advantage player's win
  per shoe and per hour by cut card, side-bet cap, required main bet, team size, known card).
- :mod:`exactodds.studies.multipliers`: multiplier laws designed for target RTPs on a grid,
  and inferred from published RTPs (exact polynomials, with a consistency check).
"""

__all__ = [
    "audit",
    "design",
    "dragon_tiger_audit",
    "multipliers",
    "parsheet",
    "protection",
    "review",
    "review_log",
]
