"""The document layer: a report as blocks, and one writer per format.

Every report that is more than a table (a par sheet, a countability audit, a pay-table design)
is built once as a list of blocks (:mod:`~exactodds.report.document.blocks`: headings,
paragraphs, tables, figures); the writers only serialise those blocks:

- :mod:`~exactodds.report.document.markdown`: GitHub-flavoured Markdown;
- :mod:`~exactodds.report.document.html`: one self-contained HTML page;
- :mod:`~exactodds.report.document.text`: terminal text within the table width;
- :mod:`~exactodds.report.document.pdf`: A4 landscape pages (fpdf2, the ``report`` extra);
- :mod:`~exactodds.report.document.xlsx`: a workbook (openpyxl, the ``report`` extra), each
  formula written with its result.

No writer computes a figure: a block holds formatted text, a workbook formula the value its
model already holds. fpdf2 and openpyxl are imported only when a PDF or a workbook is written.
"""

from .blocks import Block, Figure, Heading, Paragraph, Table, package_version, section

__all__ = ["Block", "Figure", "Heading", "Paragraph", "Table", "package_version", "section"]
