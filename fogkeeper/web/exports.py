"""Exporting a list page as CSV or an Excel workbook, streamed so that memory does not grow
with the rows, every text cell neutralised against formula injection (OWASP's CSV injection).

A list page builds its rows as an iterator (a queryset's `.iterator()`, mapped to plain values)
and hands them to `export_response` with its column headings. The CSV is written row by row
into the response; the workbook is written by openpyxl's write-only mode into a temporary
file, one row at a time, then streamed from that file. A sheet holds at most Excel's
1,048,576 rows (the heading included); the rows beyond go on to a second sheet, and so on.
"""

from __future__ import annotations

import csv
import re
import tempfile
from collections.abc import Iterable, Sequence
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.http import FileResponse, HttpResponseBadRequest, StreamingHttpResponse

FORMATS = ("csv", "xlsx")
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
SHEET_ROWS = 1_048_576
_LIVE = ("=", "+", "-", "@", "\t", "\r")


def neutralise(value: Any) -> Any:
    """A text cell a spreadsheet will show as text, not run as a formula: one that starts
    with =, +, -, @, a tab or a carriage return gets a leading apostrophe. Numbers and dates
    are left as they are (a negative amount is a number, not a formula)."""
    if isinstance(value, str) and value[:1] in _LIVE:
        return "'" + value
    return value


def _csv_value(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, bool):
        return "yes" if value else "no"
    return neutralise(value)


def _xlsx_value(value: Any) -> Any:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, datetime) and value.tzinfo is not None:
        return value.replace(tzinfo=None)  # Excel has no time zones; shown as stored (UTC)
    if isinstance(value, Decimal | int | float | date | datetime) or value is None:
        return value
    return neutralise(str(value))


class _Echo:
    """A file-like object whose write returns what was written (csv.writer into a stream)."""

    def write(self, value: str) -> str:
        return value


def _csv_lines(columns: Sequence[str], rows: Iterable[Sequence[Any]]):
    writer = csv.writer(_Echo())
    yield "\ufeff" + writer.writerow([neutralise(c) for c in columns])
    for row in rows:
        yield writer.writerow([_csv_value(v) for v in row])


def csv_response(*, filename: str, columns: Sequence[str], rows: Iterable) -> StreamingHttpResponse:
    response = StreamingHttpResponse(
        _csv_lines(columns, rows), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{filename}.csv"'
    return response


def write_workbook(out, *, sheet: str, columns: Sequence[str], rows: Iterable) -> int:
    """Write the rows into an .xlsx at `out` (a path or binary file); the number of rows."""
    from openpyxl import Workbook

    book = Workbook(write_only=True)
    title = sheet[:31] or "Sheet"
    heading = [neutralise(c) for c in columns]
    current, used, count, part = None, SHEET_ROWS, 0, 0
    for row in rows:
        if used >= SHEET_ROWS:
            part += 1
            name = title if part == 1 else f"{title[:27]} ({part})"
            current = book.create_sheet(name)
            current.append(heading)
            used = 1
        current.append([_xlsx_value(v) for v in row])
        used += 1
        count += 1
    if current is None:
        book.create_sheet(title).append(heading)
    book.save(out)
    return count


def xlsx_response(*, filename: str, sheet: str, columns: Sequence[str], rows: Iterable):
    spool = tempfile.TemporaryFile()  # noqa: SIM115 - the response closes (and so removes) it
    write_workbook(spool, sheet=sheet, columns=columns, rows=rows)
    spool.seek(0)
    return FileResponse(spool, as_attachment=True, filename=f"{filename}.xlsx", content_type=XLSX)


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
