"""The shared export (fogkeeper/web/common/exports.py): formula injection neutralised, the CSV
streamed a chunk at a time, the workbook read back, rows beyond a sheet's capacity on the
next sheet, and a format it does not offer refused."""

from __future__ import annotations

import csv
import io
from datetime import UTC, date, datetime
from decimal import Decimal

import pytest
from django.http import StreamingHttpResponse
from openpyxl import load_workbook

from fogkeeper.web.common import exports
from fogkeeper.web.common.exports import export_response, neutralise, write_workbook

COLUMNS = ["Date", "Name", "Amount"]


def _csv(response) -> list[list[str]]:
    text = b"".join(response.streaming_content).decode("utf-8")
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text[1:])))


def _book(rows, columns=COLUMNS, sheet="Rows"):
    out = io.BytesIO()
    count = write_workbook(out, sheet=sheet, columns=columns, rows=rows)
    out.seek(0)
    return count, load_workbook(out, read_only=True)


@pytest.mark.parametrize("text", ["=1+2", "+1", "-1", "@SUM(A1)", "\tx", "\rx"])
def test_it_neutralises_a_text_cell_starting_like_a_formula(text):
    assert neutralise(text) == "'" + text


@pytest.mark.parametrize("value", ["Pier Taqueria", "", "a=b", 12, Decimal("-12.50"), -3])
def test_it_leaves_other_values_as_they_are(value):
    assert neutralise(value) == value


def test_it_streams_the_csv_a_chunk_at_a_time():
    pulled = []

    def rows():
        for i in range(5000):
            pulled.append(i)
            yield [date(2026, 1, i % 28 + 1), f"Row {i}", Decimal(i)]

    response = export_response(
        "csv", filename="SC-rows", sheet="Rows", columns=COLUMNS, rows=rows()
    )

    assert isinstance(response, StreamingHttpResponse)
    content = response.streaming_content
    assert iter(content) is content  # an iterator, not the rows gathered in a list
    assert pulled == []  # nothing read before the response is sent
    first = next(content)
    assert 0 < len(pulled) < 5000
    chunks = [first, *content]
    assert 1 < len(chunks) < 5000
    assert response["Content-Disposition"] == 'attachment; filename="SC-rows.csv"'


def test_it_writes_the_csv_rows_neutralised_with_numbers_left_numbers():
    rows = iter(
        [[date(2026, 3, 2), '=HYPERLINK("http://x")', Decimal("-12.50")], [None, "@me", True]]
    )
    response = export_response("csv", filename="x", sheet="x", columns=COLUMNS, rows=rows)

    assert _csv(response) == [
        COLUMNS,
        ["2026-03-02", '\'=HYPERLINK("http://x")', "-12.50"],
        ["", "'@me", "yes"],
    ]


def test_it_reads_the_workbook_back_with_dates_and_numbers_as_such():
    count, book = _book(iter([[date(2026, 3, 2), "-cash", Decimal("-12.5")], [None, "ok", 3]]))

    rows = list(book["Rows"].values)
    assert count == 2
    assert rows[0] == tuple(COLUMNS)
    assert rows[1] == (datetime(2026, 3, 2), "'-cash", -12.5)
    assert rows[2] == (None, "ok", 3)


def test_it_writes_a_time_as_the_sites_local_time_and_drops_what_xml_cannot_hold():
    at = datetime(2026, 7, 1, 19, 30, tzinfo=UTC)  # 12:30 in Los Angeles (PDT)
    _, book = _book([[at, "bell\x07 =1", 1]])

    assert list(book["Rows"].values)[1] == (datetime(2026, 7, 1, 12, 30), "bell =1", 1)


def test_it_writes_only_the_headings_when_there_are_no_rows():
    count, book = _book(iter([]), sheet="Pump-outs: [all]")

    assert count == 0
    assert book.sheetnames == ["Pump-outs- -all-"]
    assert list(book.active.values) == [tuple(COLUMNS)]


def test_it_puts_the_rows_beyond_a_sheet_on_the_next(monkeypatch):
    monkeypatch.setattr(exports, "SHEET_ROWS", 3)  # the heading and two rows a sheet
    count, book = _book(iter([[None, f"row {i}", i] for i in range(5)]))

    assert count == 5
    assert book.sheetnames == ["Rows", "Rows (2)", "Rows (3)"]
    assert [[r[2] for r in book[name].values] for name in book.sheetnames] == [
        ["Amount", 0, 1],
        ["Amount", 2, 3],
        ["Amount", 4],
    ]


def test_it_streams_the_workbook_as_it_writes_it(monkeypatch):
    monkeypatch.setattr(exports, "ROWS_AT_ONCE", 10)
    pulled = []

    def rows():
        for i in range(100):
            pulled.append(i)
            yield [date(2026, 1, 2), f"row {i}", i]

    response = export_response(
        "xlsx", filename="SC pump outs!", sheet="Pump-outs", columns=COLUMNS, rows=rows()
    )

    assert isinstance(response, StreamingHttpResponse)
    assert response["Content-Disposition"] == 'attachment; filename="SC-pump-outs.xlsx"'
    assert response["Content-Type"] == exports.XLSX
    content = iter(response.streaming_content)
    first = next(content)
    assert pulled == list(range(10)) and first.startswith(b"PK")
    book = load_workbook(io.BytesIO(first + b"".join(content)))  # not read-only: every part
    assert book.sheetnames == ["Pump-outs"]
    assert book.active.max_row == 101
    assert book.active["A2"].is_date and book.active["A2"].number_format == "yyyy-mm-dd"


def test_it_refuses_a_format_it_does_not_offer_naming_those_it_does():
    response = export_response("pdf", filename="x", sheet="x", columns=COLUMNS, rows=iter([]))

    assert response.status_code == 400
    assert "csv" in response.content.decode() and "xlsx" in response.content.decode()
