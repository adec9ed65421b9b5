"""Studies: what combines the floors below into one deliverable, computed, not rendered.

Each study returns frozen results; :mod:`exactodds.report` lays them out.

- :mod:`exactodds.studies.parsheet`: the par-sheet model, every figure of a bet's par sheet.
"""

__all__ = ["parsheet"]
