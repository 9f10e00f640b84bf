"""Exporting a list page as CSV or an Excel workbook, streamed so that memory does not grow
with the rows, every text cell neutralised against formula injection (OWASP's CSV injection).

A list page builds its rows as an iterator (a queryset's `.iterator()`, mapped to plain values)
and hands them to `export_response` with its column headings. The CSV is written row by row
into the response; the workbook's SpreadsheetML is written row by row into its zip as the
response is sent (text inline, so nothing grows with the rows; read back with openpyxl in the
tests). A sheet holds at most Excel's 1,048,576 rows (the heading included); the rows beyond
go on to a second sheet, and so on.
"""

from __future__ import annotations

import csv
import re
import zipfile
from collections.abc import Iterable, Sequence
from datetime import date, datetime
from decimal import Decimal
from typing import Any
from xml.sax.saxutils import escape

from django.http import HttpResponseBadRequest, StreamingHttpResponse
from django.utils import timezone

from fogkeeper.formats import neutralise

FORMATS = ("csv", "xlsx")
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
SHEET_ROWS = 1_048_576
CSV_CHUNK = 64 * 1024  # characters of CSV sent at a time (not one write per row)
# A text cell a spreadsheet may run as a formula: one that starts with a tab or a carriage
# return, or whose first character after any spaces is =, +, - or @ (a spreadsheet may trim the
# spaces), or their full-width forms (which some spreadsheets read as the ASCII ones).
# What an .xlsx cannot hold (XML 1.0 forbids these control characters; openpyxl refuses them)
_NOT_XML = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")
_NOT_IN_SHEET_NAME = re.compile(r"[\[\]:*?/\\]")


def _csv_value(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, bool):
        return "yes" if value else "no"
    return neutralise(value)


class _Echo:
    """A file-like object whose write returns what was written (csv.writer into a stream)."""

    def write(self, value: str) -> str:
        return value


def _csv_lines(columns: Sequence[str], rows: Iterable[Sequence[Any]]):
    """The CSV (a byte-order mark first, for Excel to read it as UTF-8), a chunk of about
    CSV_CHUNK characters at a time."""
    writer = csv.writer(_Echo())
    lines = ["\ufeff" + writer.writerow([neutralise(c) for c in columns])]
    size = 0
    for row in rows:
        line = writer.writerow([_csv_value(v) for v in row])
        lines.append(line)
        size += len(line)
        if size >= CSV_CHUNK:
            yield "".join(lines)
            lines, size = [], 0
    if lines:
        yield "".join(lines)


def csv_response(*, filename: str, columns: Sequence[str], rows: Iterable) -> StreamingHttpResponse:
    response = StreamingHttpResponse(
        _csv_lines(columns, rows), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{filename}.csv"'
    return response


def write_workbook(out, *, sheet: str, columns: Sequence[str], rows: Iterable) -> int:
    """Write the rows into an .xlsx at `out` (a path or binary file); the number of rows."""
    book = _Workbook(out, sheet=sheet, columns=columns)
    for _ in book.write(rows):
        pass
    return book.count


def xlsx_response(*, filename: str, sheet: str, columns: Sequence[str], rows: Iterable):
    """The workbook streamed as it is written: the zip's bytes are sent a few rows at a time
    (no temporary file, nothing waiting for the last row before the first byte)."""
    response = StreamingHttpResponse(_xlsx_chunks(sheet, columns, rows), content_type=XLSX)
    response["Content-Disposition"] = f'attachment; filename="{filename}.xlsx"'
    return response


def _xlsx_chunks(sheet: str, columns: Sequence[str], rows: Iterable):
    pipe = _Pipe()
    for _ in _Workbook(pipe, sheet=sheet, columns=columns).write(rows):
        if data := pipe.take():
            yield data
    if data := pipe.take():
        yield data


class _Pipe:
    """A write-only stream whose bytes are taken as they come (a zip written to it cannot
    seek back, so zipfile writes each member's sizes after its data)."""

    def __init__(self) -> None:
        self.chunks: list[bytes] = []

    def write(self, data) -> int:
        self.chunks.append(bytes(data))
        return len(data)

    def flush(self) -> None:
        pass

    def take(self) -> bytes:
        data = b"".join(self.chunks)
        self.chunks.clear()
        return data


# The parts of an .xlsx (ECMA-376, SpreadsheetML) other than its sheets.
_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_PKG = "http://schemas.openxmlformats.org/package/2006"
_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
_STYLES = (
    f'{_HEAD}<styleSheet xmlns="{_MAIN}"><numFmts count="2">'
    '<numFmt numFmtId="164" formatCode="yyyy-mm-dd"/>'
    '<numFmt numFmtId="165" formatCode="yyyy-mm-dd hh:mm:ss"/></numFmts>'
    '<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts>'
    '<fills count="2"><fill><patternFill patternType="none"/></fill>'
    '<fill><patternFill patternType="gray125"/></fill></fills>'
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>'
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>'
    '<cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>'
    '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>'
    '<xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>'
    '</cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/>'
    "</cellStyles></styleSheet>"
)
_EPOCH = date(1899, 12, 30)  # Excel's day 0 (its 1900 date system, past its 1900 leap bug)
SHEET_BYTES = 1_500_000_000  # a sheet's XML kept under zip's 2 GiB without ZIP64
ROWS_AT_ONCE = 500  # rows written to the zip (and so sent) at a time


def _column(n: int) -> str:
    """The letters of the n-th column (0 -> A, 26 -> AA)."""
    letters = ""
    n += 1
    while n:
        n, rest = divmod(n - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def _cell(ref: str, value: Any) -> str:
    """One cell of a row as SpreadsheetML: text inline (no shared-strings table growing with
    the rows), neutralised and without the control characters XML cannot hold; numbers as
    numbers; dates as numbers shown as dates, a time in the site's zone (Excel has none)."""
    if value is None or value == "":
        return ""
    kind = type(value)
    if kind is bool:
        value, kind = ("yes" if value else "no"), str
    if kind is datetime:
        if value.tzinfo is not None:
            value = timezone.localtime(value).replace(tzinfo=None)
        delta = value - datetime(1899, 12, 30)
        return f'<c r="{ref}" s="2"><v>{delta.days + delta.seconds / 86400!r}</v></c>'
    if kind is date:
        return f'<c r="{ref}" s="1"><v>{(value - _EPOCH).days}</v></c>'
    if kind in (int, float, Decimal):
        return f'<c r="{ref}"><v>{value}</v></c>'
    text = escape(neutralise(_NOT_XML.sub("", str(value))))
    return f'<c r="{ref}" t="inlineStr"><is><t xml:space="preserve">{text}</t></is></c>'


class _Workbook:
    """An .xlsx written row by row into a zip at `out`: a sheet holds at most SHEET_ROWS rows
    (its heading included), the rows beyond go on to the next sheet."""

    def __init__(self, out, *, sheet: str, columns: Sequence[str]) -> None:
        self.out = out
        self.title = _NOT_IN_SHEET_NAME.sub("-", sheet)[:31] or "Sheet"
        self.columns = list(columns)
        self.names: list[str] = []
        self.letters: list[str] = []  # the columns' letters, A, B, …
        self.count = 0

    def write(self, rows: Iterable):
        """Write every row, yielding after each batch of ROWS_AT_ONCE rows written (a reader
        stopping early stops the writing: the zip is left unfinished)."""
        book = zipfile.ZipFile(self.out, "w", compression=zipfile.ZIP_DEFLATED)
        current: Any = None
        batch: list[str] = []
        used, size = SHEET_ROWS, 0
        for row in rows:
            if used >= SHEET_ROWS or size >= SHEET_BYTES:
                if current is not None:
                    self._close(current, batch)
                current, used, size, batch = self._open(book), 1, 0, []
            used += 1
            batch.append(self._row(used, row))
            size += len(batch[-1])
            self.count += 1
            if len(batch) >= ROWS_AT_ONCE:
                current.write("".join(batch).encode("utf-8"))
                batch = []
                yield
        self._close(current if current is not None else self._open(book), batch)
        self._parts(book)
        book.close()
        yield

    def _open(self, book):
        part = len(self.names) + 1
        self.names.append(self.title if part == 1 else f"{self.title[:27]} ({part})")
        sheet = book.open(f"xl/worksheets/sheet{part}.xml", "w")
        sheet.write(f'{_HEAD}<worksheet xmlns="{_MAIN}"><sheetData>'.encode())
        sheet.write(self._row(1, [neutralise(c) for c in self.columns]).encode("utf-8"))
        return sheet

    @staticmethod
    def _close(sheet, batch: list[str]) -> None:
        sheet.write(("".join(batch) + "</sheetData></worksheet>").encode("utf-8"))
        sheet.close()

    def _row(self, number: int, values: Sequence[Any]) -> str:
        while len(self.letters) < len(values):
            self.letters.append(_column(len(self.letters)))
        n = str(number)
        cells = "".join([_cell(c + n, v) for c, v in zip(self.letters, values, strict=False)])
        return f'<row r="{n}">{cells}</row>'

    def _parts(self, book) -> None:
        sheets = "".join(
            f'<sheet name="{escape(name, {chr(34): "&quot;"})}" sheetId="{i}" r:id="rId{i}"/>'
            for i, name in enumerate(self.names, 1)
        )
        book.writestr(
            "xl/workbook.xml",
            f'{_HEAD}<workbook xmlns="{_MAIN}" xmlns:r="{_REL}">'
            f"<sheets>{sheets}</sheets></workbook>",
        )
        worksheet, styles = f"{_REL}/worksheet", f"{_REL}/styles"
        rels = "".join(
            f'<Relationship Id="rId{i}" Type="{worksheet}" Target="worksheets/sheet{i}.xml"/>'
            for i in range(1, len(self.names) + 1)
        )
        rels += f'<Relationship Id="rId{len(self.names) + 1}" Type="{styles}" Target="styles.xml"/>'
        book.writestr(
            "xl/_rels/workbook.xml.rels",
            f'{_HEAD}<Relationships xmlns="{_PKG}/relationships">{rels}</Relationships>',
        )
        book.writestr("xl/styles.xml", _STYLES)
        book.writestr(
            "_rels/.rels",
            f'{_HEAD}<Relationships xmlns="{_PKG}/relationships">'
            f'<Relationship Id="rId1" Type="{_REL}/officeDocument" '
            'Target="xl/workbook.xml"/></Relationships>',
        )
        ct = "application/vnd.openxmlformats-officedocument.spreadsheetml"
        overrides = "".join(
            f'<Override PartName="/xl/worksheets/sheet{i}.xml" ContentType="{ct}.worksheet+xml"/>'
            for i in range(1, len(self.names) + 1)
        )
        book.writestr(
            "[Content_Types].xml",
            f'{_HEAD}<Types xmlns="{_PKG}/content-types">'
            '<Default Extension="rels" '
            'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/>'
            f'<Override PartName="/xl/workbook.xml" ContentType="{ct}.sheet.main+xml"/>'
            f'<Override PartName="/xl/styles.xml" ContentType="{ct}.styles+xml"/>'
            f"{overrides}</Types>",
        )


def export_response(fmt: str, *, filename: str, sheet: str, columns: Sequence[str], rows: Iterable):
    """The list as `fmt` ("csv" or "xlsx"); a 400 naming the formats for anything else.
    `filename` without its extension (e.g. "SC-inspections"); other than letters, digits,
    dots and dashes become dashes."""
    filename = re.sub(r"[^A-Za-z0-9._-]+", "-", filename).strip("-") or "export"
    if fmt == "csv":
        return csv_response(filename=filename, columns=columns, rows=rows)
    if fmt == "xlsx":
        return xlsx_response(filename=filename, sheet=sheet, columns=columns, rows=rows)
    return HttpResponseBadRequest(
        f"cannot export as {fmt!r}: ask for export=csv or export=xlsx",
        content_type="text/plain; charset=utf-8",
    )
