"""An XLSX that would unpack to far more than it weighs is refused in words before it is
parsed, and without being inflated whole (issue 37, item 2): a decompression bomb declaring
its size, one lying about it, and a few kilobytes naming a cell at XFD1048576 (which
calamine would answer by allocating the whole rectangle up to it). A real workbook of the
same columns is still read."""

from __future__ import annotations

import io
import time
import tracemalloc

import pytest
import xlsxwriter

from bench.xlsx_bomb import bomb
from fogkeeper.onboarding.sheets import SheetError, read_sheet

MIB = 1024 * 1024


def _refused(data: bytes) -> tuple[str, int, float]:
    """The words of the refusal, the peak of memory (bytes) and the seconds it took."""
    tracemalloc.start()
    started = time.perf_counter()
    try:
        with pytest.raises(SheetError) as refused:
            read_sheet(data, "bomb.xlsx")
        return (
            str(refused.value),
            tracemalloc.get_traced_memory()[1],
            (time.perf_counter() - started),
        )
    finally:
        tracemalloc.stop()


def test_a_bomb_declaring_its_size_is_refused_before_anything_is_inflated():
    data = bomb(400 * MIB)
    assert len(data) < MIB
    said, peak, seconds = _refused(data)
    assert said.startswith("bomb.xlsx would unpack to 400 MB; at most 300 MB are read")
    assert peak < 4 * MIB and seconds < 1


def test_a_bomb_packed_a_thousandfold_is_refused_by_its_ratio():
    said, peak, _ = _refused(bomb(64 * MIB))
    assert "is packed 1,0" in said and "is not read" in said
    assert peak < 4 * MIB


def test_a_bomb_lying_about_its_size_is_refused_once_it_unpacks_past_it():
    """Declared 4 KB, it inflates to 64 MB: refused after a megabyte or two inflated."""
    said, peak, _ = _refused(bomb(64 * MIB, lie=True))
    assert "unpacks to more than the 4,096 bytes its ZIP declares" in said
    assert peak < 6 * MIB


@pytest.mark.parametrize(
    ("row", "column", "words"),
    [
        (1_048_575, 16_383, "has a cell in row 1,048,576; at most 100,000 rows are read"),
        (50, 3_000, "has a cell in column 3,001; at most 64 columns are read"),
    ],
)
def test_a_few_kilobytes_naming_a_far_cell_are_refused(row, column, words):
    buffer = io.BytesIO()
    book = xlsxwriter.Workbook(buffer)
    sheet = book.add_worksheet()
    sheet.write_row(0, 0, ["code", "name"])
    sheet.write(row, column, "x")
    book.close()
    said, peak, seconds = _refused(buffer.getvalue())
    assert words in said
    assert peak < 4 * MIB and seconds < 1


def test_a_workbook_of_data_is_still_read():
    buffer = io.BytesIO()
    book = xlsxwriter.Workbook(buffer, {"constant_memory": True})
    sheet = book.add_worksheet()
    sheet.write_row(0, 0, ["code", "name"])
    for number in range(1, 5_001):
        sheet.write_row(number, 0, [f"FSE-{number}", "Harbor Grill"])
    book.close()
    read = read_sheet(buffer.getvalue(), "fse.xlsx")
    assert len(read.rows) == 5_000 and read.rows[-1] == ["FSE-5000", "Harbor Grill"]
