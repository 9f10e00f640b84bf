"""A spreadsheet an agency brings: CSV (UTF-8, read through tablib) or XLSX (read through
python-calamine), its first row the column names. What cannot be read as it is refuses the
whole file, naming why: text that is not UTF-8, a formula in an XLSX cell, a row longer
than the header, more than MAX_ROWS rows. (A text that starts like a formula is a problem of
its row and column: kinds.Column.cell.)

XLSX is read by calamine (Rust) rather than openpyxl: openpyxl, even in read-only mode, reads
about 8,000 rows of a dozen cells a second, so the pump-out history of a city (1.4 million
rows) would take three minutes to read before a row is checked; calamine reads the same in
a tenth of the time. Calamine gives a formula's cached value, not the formula, so a workbook
is first searched for formula elements (`<f>`) in its worksheets' XML, as archive.py
inflates it to measure it (a decompression bomb is refused before calamine reads it); only
one that has some is opened with openpyxl, to name the row of the formula in the sheet that
is read (the first)."""

from __future__ import annotations

import csv
import io
import re
import zipfile
from dataclasses import dataclass
from datetime import date, datetime, time

import python_calamine
import tablib
from openpyxl import load_workbook
from openpyxl.utils.exceptions import InvalidFileException

from . import archive

MAX_ROWS = 100_000
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
FORMULA_START = "="


class SheetError(Exception):
    """The file as a whole cannot be read; nothing of it is used."""


@dataclass(frozen=True)
class Sheet:
    name: str
    columns: list[str]
    rows: list[list[str]]  # each row's cells in the order of `columns`; rows[0] is row 2

    def column(self, name: str) -> list[str]:
        """The cells of one column, row after row."""
        index = self.columns.index(name)
        return [row[index] for row in self.rows]

    @staticmethod
    def row_number(index: int) -> int:
        return index + 2  # as the spreadsheet numbers it: the header is row 1


def read_sheet(data: bytes, name: str) -> Sheet:
    """The rows of a CSV or XLSX file, each a list of texts (blank cells "")."""
    if not data.strip():
        raise SheetError(f"{name} is empty")
    if name.lower().endswith(".xlsx") or data[:2] == b"PK":
        header, values = _xlsx(data, name)
    else:
        header, values = _csv(data, name)
    columns = [str(h or "").strip().lower() for h in header]
    if not any(columns):
        raise SheetError(f"{name} has no header row naming its columns")
    for number, column in enumerate(columns, start=1):
        if _CONTROL.search(column):
            raise SheetError(
                f"{name}: the name of column {number} in the header row holds a control "
                "character, which is not text"
            )
    if len(values) > MAX_ROWS:
        raise SheetError(
            f"{name} has {len(values):,} rows; at most {MAX_ROWS:,} are read from one file "
            "(split it, for example one file of pump-outs per year)"
        )
    width = len(columns)
    rows = []
    for row in values:
        if len(row) != width:
            if any(_text(v) for v in row[width:]):
                raise SheetError(f"{name}: a row has more values than the header has columns")
            row = list(row[:width]) + [""] * (width - len(row))
        rows.append([v.strip() if type(v) is str else _text(v) for v in row])
    return Sheet(name=name, columns=columns, rows=rows)


def _csv(data: bytes, name: str) -> tuple[list, list]:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise SheetError(
            f"{name} is not UTF-8 text (byte {e.start + 1} cannot be read): "
            "save it as “CSV UTF-8” and upload it again"
        ) from None
    try:
        dataset = tablib.Dataset().load(text, format="csv")
    except tablib.InvalidDimensions:
        raise SheetError(f"{name}: a row has more values than the header has columns") from None
    except csv.Error:  # a cell past the csv module's field limit, above all
        raise SheetError(
            f"{name} has a cell of more than {csv.field_size_limit():,} characters, or is not "
            "a CSV file a spreadsheet saves; it is not read"
        ) from None
    return list(dataset.headers or []), [list(r) for r in dataset]


def _xlsx(data: bytes, name: str) -> tuple[list, list]:
    try:
        has_formula = archive.check(data, name, MAX_ROWS)
    except archive.Refused as e:
        raise SheetError(str(e)) from None
    if has_formula:
        _refuse_formula(data, name)
    try:
        book = python_calamine.CalamineWorkbook.from_filelike(io.BytesIO(data))
        sheet = book.get_sheet_by_index(0)
        if sheet.total_height > MAX_ROWS + 1:  # the rows as the sheet declares them
            raise SheetError(
                f"{name} has {sheet.total_height - 1:,} rows; at most {MAX_ROWS:,} are read "
                "from one file (split it, for example one file of pump-outs per year)"
            )
        rows = sheet.to_python(skip_empty_area=False)
    except python_calamine.CalamineError:
        raise SheetError(f"{name} is not an XLSX workbook Excel can open") from None
    while rows and not any(_text(v) for v in rows[-1]):
        rows.pop()  # blank rows at the end, formatted but empty
    if not rows:
        raise SheetError(f"{name} has no header row naming its columns")
    return rows[0], rows[1:]


def _refuse_formula(data: bytes, name: str) -> None:
    """Name the first formula of the sheet read, the first (a formula on another sheet, such
    as a blank file's sheet of column meanings, is no reason to refuse it)."""
    try:
        book = load_workbook(io.BytesIO(data), read_only=True, data_only=False)
    except (InvalidFileException, zipfile.BadZipFile, KeyError, OSError):
        raise SheetError(f"{name} is not an XLSX workbook Excel can open") from None
    try:
        for number, row in enumerate(book.worksheets[0].iter_rows(values_only=True), start=1):
            for value in row:
                if isinstance(value, str) and value.startswith(FORMULA_START):
                    raise SheetError(
                        f"{name}, row {number}: a cell holds a formula ({value}); "
                        "paste its values instead"
                    )
    finally:
        book.close()


def _text(value) -> str:
    kind = type(value)
    if kind is str:
        return value.strip()
    if kind is float:
        return str(int(value)) if value.is_integer() else repr(value)
    if kind is date:
        return value.isoformat()
    if value is None:
        return ""
    if kind is bool:
        return "yes" if value else "no"
    if isinstance(value, datetime):  # a date-time cell: its day
        return value.date().isoformat()
    if isinstance(value, date | time):
        return value.isoformat()
    return str(value).strip()
