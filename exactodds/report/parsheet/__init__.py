"""Par sheets rendered: the model (:mod:`exactodds.studies.parsheet`) laid out in four formats.

- :mod:`exactodds.report.parsheet.render`: the document blocks, as HTML and Markdown.
- :mod:`exactodds.report.parsheet.xlsx`: a workbook, one sheet per bet, every formula with its
  result stored (:mod:`exactodds.report.parsheet.workbook_values` evaluates them exactly).
- :mod:`exactodds.report.parsheet.pdf`: a PDF, with the figures as images.
- :mod:`exactodds.report.parsheet.figures`: the figures (matplotlib), one function per figure.
"""

__all__ = ["figures", "pdf", "render", "workbook_values", "xlsx"]
