"""Rendering: the exact results the library hands over, as a table, JSON or CSV; it computes nothing.

- :mod:`exactodds.report.registry`: which function writes which result in which format; every
  command renders through it, and a result's JSON-ready data comes from its ``to_dict``.
- :mod:`exactodds.report.table`: the one way a terminal table is laid out.
- :mod:`exactodds.report.writer`: the one JSON writer, for every command and the web API, and
  the blocks several results' JSON share (the shoe, the known cards).
- :mod:`exactodds.report.odds`: an analysis of one shoe, and the batch records.
- :mod:`exactodds.report.research`: effect of removal and break-even pays.
- :mod:`exactodds.report.breakdown`: frequencies of totals, cards and naturals.
- :mod:`exactodds.report.advantage`: depth tables and edge sorting.
- :mod:`exactodds.report.game`: a two-sided game's solution (chemin de fer).
- :mod:`exactodds.report.peek`: Peek Baccarat's raise, pattern by pattern.
- :mod:`exactodds.report.choice`: a tableau's choices solved, and baccara banque.
- :mod:`exactodds.report.dragon_tiger`: Dragon Tiger's odds and effects of removal.
- :mod:`exactodds.report.multipliers`: bets under a multiplier overlay, a law's design and
  inference.
- :mod:`exactodds.report.simulation`: a simulation's result.
- :mod:`exactodds.report.sweep`: a simulation sweep's rows.
- :mod:`exactodds.report.plots`: figures shared by every command that draws (matplotlib).
- :mod:`exactodds.report.document`: a report as blocks, and the Markdown, HTML, text, PDF and
  xlsx writers the par sheet and the audit share.
- :mod:`exactodds.report.parsheet`: a par sheet as HTML, Markdown, a workbook or a PDF.
- :mod:`exactodds.report.audit`: a countability audit and a pay-table design, in every format.
- :mod:`exactodds.report.protection`: the countermeasure table, as a table or JSON.
"""
