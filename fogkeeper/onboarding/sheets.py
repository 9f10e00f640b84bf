"""A spreadsheet an agency brings, read through tablib: CSV (UTF-8) or XLSX, its first row the
column names. What cannot be read as it is refuses the whole file, naming why: text that is
not UTF-8, a formula in a cell, a row longer than the header, more than MAX_ROWS rows."""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass

import tablib
from openpyxl import load_workbook
from openpyxl.utils.exceptions import InvalidFileException

MAX_ROWS = 100_000
FORMULA_START = "="


class SheetError(Exception):
    """The file as a whole cannot be read; nothing of it is used."""


@dataclass(frozen=True)
class Sheet:
    name: str
    columns: list[str]
    rows: list[dict[str, str]]  # rows[0] is the spreadsheet's row 2

    @staticmethod
    def row_number(index: int) -> int:
        return index + 2  # as the spreadsheet numbers it: the header is row 1


def read_sheet(data: bytes, name: str) -> Sheet:
    """The rows of a CSV or XLSX file, each a dict of column -> text (blank cells "")."""
    if not data.strip():
        raise SheetError(f"{name} is empty")
    if name.lower().endswith(".xlsx") or data[:2] == b"PK":
        dataset = _xlsx(data, name)
    else:
        dataset = _csv(data, name)
    columns = [str(h or "").strip().lower() for h in (dataset.headers or [])]
    if not any(columns):
        raise SheetError(f"{name} has no header row naming its columns")
    if len(dataset) > MAX_ROWS:
        raise SheetError(
            f"{name} has {len(dataset):,} rows; at most {MAX_ROWS:,} are read from one file "
            "(split it, for example one file of pump-outs per year)"
        )
    rows = [dict(zip(columns, (_text(v) for v in values), strict=True)) for values in dataset]
    return Sheet(name=name, columns=columns, rows=rows)


def _csv(data: bytes, name: str) -> tablib.Dataset:
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
    for index, values in enumerate(dataset):
        for value in values:
            if isinstance(value, str) and value.strip().startswith(FORMULA_START):
                raise SheetError(
                    f"{name}, row {Sheet.row_number(index)}: a cell holds a formula "
                    f"({value.strip()}); a spreadsheet would run it, so it is not read"
                )
    return dataset


def _xlsx(data: bytes, name: str) -> tablib.Dataset:
    try:
        book = load_workbook(io.BytesIO(data), read_only=True, data_only=False)
    except (InvalidFileException, zipfile.BadZipFile, KeyError, OSError):
        raise SheetError(f"{name} is not an XLSX workbook Excel can open") from None
    sheet = book.active
    for number, row in enumerate(sheet.iter_rows(values_only=True), start=1):
        if number > MAX_ROWS + 1:
            break
        for value in row:
            if isinstance(value, str) and value.startswith(FORMULA_START):
                raise SheetError(
                    f"{name}, row {number}: a cell holds a formula ({value}); "
                    "paste its values instead"
                )
    book.close()
    try:
        return tablib.Dataset().load(io.BytesIO(data), format="xlsx")
    except tablib.InvalidDimensions:
        raise SheetError(f"{name}: a row has more values than the header has columns") from None


def _text(value) -> str:
    if value is None:
        return ""
    if hasattr(value, "date") and callable(value.date):  # a date-time cell: its day
        return value.date().isoformat()
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()
