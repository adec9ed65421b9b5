"""Par sheets rendered: the model (:mod:`exactodds.studies.parsheet`) laid out in four formats.

- :mod:`exactodds.report.parsheet.render`: the document blocks, as HTML and Markdown.
- :mod:`exactodds.report.parsheet.xlsx`: a workbook, one sheet per bet, every formula with the
  result the model holds.
- :mod:`exactodds.report.parsheet.pdf`: a PDF, with the figures as images.
- :mod:`exactodds.report.parsheet.figures`: the figures (matplotlib), one function per figure.

Each format is written by the document layer (:mod:`exactodds.report.document`).
"""

__all__ = ["figures", "pdf", "render", "xlsx"]
