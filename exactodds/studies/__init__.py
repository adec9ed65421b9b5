"""Studies: what combines the floors below into one deliverable, computed, not rendered.

- :mod:`exactodds.studies.audit`: the countability audit of a bet (house edge, effects of
  removal, the best count found by search, the perfect-play bound, win by cut card, a verdict).
- :mod:`exactodds.studies.design`: pay tables designed against the audit (every table in
  ranges of pays whose exact house edge falls in a window, ranked by the best count's win).
"""

from __future__ import annotations

__all__: list[str] = []
