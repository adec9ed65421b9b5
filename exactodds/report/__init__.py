"""Rendering: the same exact results as a table, JSON or CSV.

- :mod:`exactodds.report.odds`: an analysis of one shoe, and the batch records.
- :mod:`exactodds.report.research`: effect of removal and break-even pays.
"""
