"""The results of a workbook's formulas, stored beside them, so a reader that computes nothing sees numbers.

openpyxl writes a formula with an empty result (``<f>D9/$B$6</f><v />``); Excel computes it on
opening, but pandas and ``openpyxl.load_workbook(data_only=True)`` read the stored result only,
and find nothing. :func:`cached_values` evaluates every formula of a workbook (the par sheet's
small grammar: numbers, cell references and ranges, ``+ - * / ^``, ``SUM``, ``SUMIF``,
``SUMPRODUCT``, ``SQRT``, ``MIN``, ``MAX``) in exact fractions, square roots to 40 digits, and
:func:`fill_worksheet` writes each result, rounded once to the nearest double, into the saved
sheet's XML as its ``<v>``. Excel still recomputes on opening (the workbook asks for it).

>>> from openpyxl import Workbook
>>> workbook = Workbook()
>>> sheet = workbook.active
>>> sheet["A1"], sheet["A2"], sheet["A3"] = 3, "=19/20", "=SQRT(A1)*A2"
>>> cached_values(workbook)[sheet.title]
{'A2': '0.95', 'A3': '1.6454482671904334'}
>>> fill_worksheet(b'<c r="A2"><f>19/20</f><v /></c>', {"A2": "0.95"})
b'<c r="A2"><f>19/20</f><v>0.95</v></c>'
>>> sheet["A4"] = "=SUM(A5:A6)/A7"  # an empty cell is 0, a division by 0 has no result
>>> "A4" in cached_values(workbook)[sheet.title]
False
"""

from __future__ import annotations

import decimal
import re
from collections.abc import Callable
from fractions import Fraction
from typing import Any

__all__ = ["cached_values", "fill_worksheet"]

_TOKEN = re.compile(
    r"\s*(?:(?P<range>\$?[A-Z]+\$?\d+:\$?[A-Z]+\$?\d+)|(?P<cell>\$?[A-Z]+\$?\d+)"
    r"|(?P<function>[A-Z]+)\(|(?P<number>\d+(?:\.\d+)?(?:E[+-]?\d+)?)|(?P<text>\"[^\"]*\")"
    r"|(?P<operator>[-+*/^(),]))"
)
Value = Fraction | list[Fraction] | str


class _NoResult(Exception):
    """A formula outside the grammar, or one Excel would answer with an error."""


def _tokens(formula: str) -> list[tuple[str, str]]:
    found, at = [], 0
    while at < len(formula):
        match = _TOKEN.match(formula, at)
        if match is None or match.end() == at:
            raise _NoResult(formula)
        kind = match.lastgroup
        assert kind is not None
        found.append((kind, match.group(kind)))
        at = match.end()
    return found


def _square_root(value: Fraction) -> Fraction:
    if value < 0:
        raise _NoResult("SQRT of a negative number")
    context = decimal.Context(prec=40)
    root = context.sqrt(context.divide(decimal.Decimal(value.numerator), value.denominator))
    return Fraction(root)


def _sum_if(cells: list[Fraction], criterion: Value, values: list[Fraction]) -> Fraction:
    if isinstance(criterion, str):
        text = criterion.strip('"')
        operator, number = text[0], Fraction(text[1:])
        test: Callable[[Fraction], bool] = (
            (lambda value: value > number) if operator == ">" else (lambda value: value < number)
        )
    else:
        target = criterion
        test = lambda value: value == target  # noqa: E731
    return sum((value for cell, value in zip(cells, values, strict=True) if test(cell)), Fraction())


class _Parser:
    """Recursive descent over one formula's tokens; *read* gives a cell's or a range's value."""

    def __init__(self, formula: str, read: Callable[[str], Value]) -> None:
        self.tokens = _tokens(formula)
        self.at = 0
        self.read = read

    def _peek(self) -> str:
        return self.tokens[self.at][1] if self.at < len(self.tokens) else ""

    def _take(self) -> tuple[str, str]:
        if self.at >= len(self.tokens):
            raise _NoResult("unexpected end")
        self.at += 1
        return self.tokens[self.at - 1]

    def whole(self) -> Fraction:
        value = _number(self.sum())
        if self.at != len(self.tokens):
            raise _NoResult("trailing tokens")
        return value

    def sum(self) -> Value:
        value = self.product()
        while self._peek() in ("+", "-"):
            sign = self._take()[1]
            other = _number(self.product())
            value = _number(value) + other if sign == "+" else _number(value) - other
        return value

    def product(self) -> Value:
        value = self.power()
        while self._peek() in ("*", "/"):
            sign = self._take()[1]
            other = _number(self.power())
            if sign == "/" and other == 0:
                raise _NoResult("division by 0")
            value = _number(value) * other if sign == "*" else _number(value) / other
        return value

    def power(self) -> Value:
        value = self.unary()
        if self._peek() == "^":
            self._take()
            exponent = _number(self.unary())
            if exponent.denominator != 1:
                raise _NoResult("a fractional power")
            return _number(value) ** int(exponent)
        return value

    def unary(self) -> Value:
        if self._peek() == "-":
            self._take()
            return -_number(self.unary())
        return self.primary()

    def primary(self) -> Value:
        kind, text = self._take()
        if kind == "number":
            return Fraction(text)
        if kind in ("cell", "range"):
            return self.read(text.replace("$", ""))
        if kind == "text":
            return text
        if kind == "operator" and text == "(":
            value = self.sum()
            self._expect(")")
            return value
        if kind == "function":
            return self._call(text)
        raise _NoResult(text)

    def _expect(self, text: str) -> None:
        if self._take()[1] != text:
            raise _NoResult(f"expected {text}")

    def _call(self, name: str) -> Fraction:
        arguments = [self.sum()]
        while self._peek() == ",":
            self._take()
            arguments.append(self.sum())
        self._expect(")")
        ranges = [argument if isinstance(argument, list) else [argument] for argument in arguments]
        if name in ("SUM", "MIN", "MAX"):
            numbers = [_number(value) for values in ranges for value in values]
            if name == "SUM":
                return sum(numbers, Fraction())
            return min(numbers) if name == "MIN" else max(numbers)
        if name == "SQRT" and len(arguments) == 1:
            return _square_root(_number(arguments[0]))
        if name == "SUMPRODUCT":
            columns = [[_number(value) for value in values] for values in ranges]
            total = Fraction()
            for row in zip(*columns, strict=True):
                product = Fraction(1)
                for value in row:
                    product *= value
                total += product
            return total
        if name == "SUMIF" and len(arguments) == 3:
            return _sum_if(ranges[0], arguments[1], ranges[2])  # type: ignore[arg-type]
        raise _NoResult(name)


def _number(value: Value) -> Fraction:
    if isinstance(value, Fraction):
        return value
    raise _NoResult("not a number")


def _cell_value(raw: Any) -> Fraction | str | None:
    if raw is None:
        return Fraction()
    if isinstance(raw, bool):
        return Fraction(int(raw))
    if isinstance(raw, (int, float)):
        return Fraction(raw)
    return str(raw)


def cached_values(workbook: Any) -> dict[str, dict[str, str]]:
    """Per sheet title, each formula cell's result as the text of its ``<v>`` (a double)."""
    return {worksheet.title: _worksheet_values(worksheet) for worksheet in workbook.worksheets}


def _worksheet_values(worksheet: Any) -> dict[str, str]:
    from openpyxl.utils.cell import range_boundaries

    known: dict[str, Fraction | None] = {}

    def value_of(coordinate: str) -> Fraction:
        if coordinate not in known:
            known[coordinate] = None  # a circle has no result
            raw = _cell_value(worksheet[coordinate].value)
            if isinstance(raw, str) and raw.startswith("="):
                try:
                    raw = _Parser(raw[1:], read).whole()
                except (_NoResult, ValueError, ZeroDivisionError, decimal.DecimalException):
                    raw = None
            known[coordinate] = raw if isinstance(raw, Fraction) else None
        value = known[coordinate]
        if value is None:
            raise _NoResult(coordinate)
        return value

    def read(reference: str) -> Value:
        if ":" not in reference:
            raw = _cell_value(worksheet[reference].value)
            return raw if isinstance(raw, str) and not raw.startswith("=") else value_of(reference)
        bounds = [int(bound or 0) for bound in range_boundaries(reference)]
        low_column, low_row, high_column, high_row = bounds
        return [
            value_of(f"{_letters(column)}{row}")
            for row in range(low_row, high_row + 1)
            for column in range(low_column, high_column + 1)
        ]

    found: dict[str, str] = {}
    for row in worksheet.iter_rows():
        for cell in row:
            if isinstance(cell.value, str) and cell.value.startswith("="):
                try:
                    value = value_of(cell.coordinate)
                    whole = value.denominator == 1 and abs(value) < 2**53
                    found[cell.coordinate] = str(value) if whole else repr(float(value))
                except (_NoResult, OverflowError):
                    continue
    return found


def _letters(column: int) -> str:
    from openpyxl.utils import get_column_letter

    return str(get_column_letter(column))


_FORMULA_CELL = re.compile(rb'(<c r="([A-Z]+\d+)"[^>]*><f>[^<]*</f>)<v ?/>')


def fill_worksheet(xml: bytes, values: dict[str, str]) -> bytes:
    """A saved worksheet's XML with each formula's empty ``<v />`` holding its result."""

    def filled(match: re.Match[bytes]) -> bytes:
        value = values.get(match.group(2).decode("ascii"))
        if value is None:
            return match.group(0)
        return match.group(1) + b"<v>" + value.encode("ascii") + b"</v>"

    return _FORMULA_CELL.sub(filled, xml)
