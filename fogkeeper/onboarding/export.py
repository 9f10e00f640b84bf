"""An agency's program as the onboarding files that bring it back: one file per kind of
record, in the importer's own columns, named in the order they are imported
(`01-establishments.xlsx`, `02-haulers.xlsx`, ...); a kind of more than MAX_ROWS records is
split into numbered files (`07-pumpouts-01.xlsx`, `07-pumpouts-02.xlsx`, ...).

The staff page downloads the same files, in CSV, as one ZIP (`zip_chunks`). A text that
starts like a formula is written neutralised, as the staff exports write it
(formats.neutralise: "'+Plus Grill"), and the importer reads it back without the apostrophe
(kinds.Column.cell); numbers, dates and yes/no are written as they are, by their type.
`manage.py onboard --agency CODE DIR/*` imports them into another agency, in that order:
the export of a program imported into an empty agency of the same pack gives the same sweep
findings (tests/onboarding/test_round_trip.py)."""

from __future__ import annotations

import csv
import io
import re
import zipfile
from collections.abc import Callable, Iterator
from datetime import date
from decimal import Decimal
from pathlib import Path

import xlsxwriter
from django.db.models import OuterRef, Subquery

from fogkeeper.formats import neutralise

from .catalog import KINDS
from .kinds import Kind
from .sheets import MAX_ROWS

FORMATS = ("csv", "xlsx")
FETCHED = 5_000  # rows read from the database at a time
_NAME = re.compile(r"^(?:\d+-)?(?P<kind>[a-z_]+?)(?:-\d+)?$")


def kind_of(path: str | Path) -> str | None:
    """The kind a file holds, as its name says: `07-pumpouts-02.xlsx` holds pump-outs."""
    found = _NAME.match(Path(path).stem.lower())
    return found["kind"] if found and found["kind"] in KINDS else None


def export_program(
    agency, out: Path, *, file_format: str = "xlsx", progress: Callable[[str], None] | None = None
) -> list[Path]:
    """Write every kind of the agency's records into `out`; returns the files written."""
    if file_format not in FORMATS:
        raise ValueError(f"unknown format {file_format!r} (known: {', '.join(FORMATS)})")
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, kind, rows in program_files(agency, file_format, progress):
        path = out / name
        path.write_bytes(write_rows(kind, rows, file_format))
        written.append(path)
    return written


def program_files(agency, file_format: str, progress=None) -> Iterator[tuple[str, Kind, Iterator]]:
    """(file name, kind, its rows) of each file of the export, the rows read as written."""
    for number, kind in enumerate(KINDS.values(), start=1):
        query = records(kind, agency)
        total = query.count()
        parts = max(1, -(-total // MAX_ROWS))
        rows = query.iterator(chunk_size=FETCHED)
        for part in range(1, parts + 1):
            suffix = f"-{part:02d}" if parts > 1 else ""
            yield f"{number:02d}-{kind.name}{suffix}.{file_format}", kind, _take(rows, MAX_ROWS)
        if progress is not None:
            progress(f"{kind.name}: {total:,} rows in {parts} file{'s' * (parts > 1)}")


def zip_chunks(agency) -> Iterator[bytes]:
    """The export as one ZIP of CSV files, made as it is sent: a chunk every few thousand
    rows, so that a download starts at once and holds little in memory."""
    pipe = _Pipe()
    with zipfile.ZipFile(pipe, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, kind, rows in program_files(agency, "csv"):
            with archive.open(name, "w", force_zip64=True) as entry:
                entry.write(_csv_lines(kind, [[c.name for c in kind.columns]]))
                block = []
                for row in rows:
                    block.append(row)
                    if len(block) == FETCHED:
                        entry.write(_csv_lines(kind, block))
                        block.clear()
                        yield pipe.take()
                entry.write(_csv_lines(kind, block))
            yield pipe.take()
    yield pipe.take()


class _Pipe(io.RawIOBase):
    """Where the ZIP is written: what it holds is taken away as it comes."""

    def __init__(self):
        self.chunks: list[bytes] = []

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        self.chunks.append(bytes(data))
        return len(data)

    def take(self) -> bytes:
        data = b"".join(self.chunks)
        self.chunks.clear()
        return data


def _csv_lines(kind: Kind, rows) -> bytes:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(
        [_text(neutralise(v)) for v in row] for row in rows
    )
    return out.getvalue().encode("utf-8")


def records(kind: Kind, agency):
    """The agency's records of `kind`, as rows of the kind's columns, in the order of its key."""
    query = kind.get_model().objects.filter(**{kind.agency: agency})
    if kind.name == "establishments":
        query = _with_operator(query)
    return query.order_by(*kind.stored_key, "pk").values_list(*(c.source for c in kind.columns))


def _with_operator(query):
    """The operator on record: the tenure begun last (as the case files read it)."""
    from fogkeeper.registry.models import OperatorTenure

    latest = OperatorTenure.objects.filter(establishment=OuterRef("pk")).order_by("-since", "-pk")
    return query.annotate(
        operator_name=Subquery(latest.values("operator__name")[:1]),
        operator_since=Subquery(latest.values("since")[:1]),
    )


def _take(rows: Iterator, count: int) -> Iterator:
    for _, row in zip(range(count), rows, strict=False):
        yield row


def write_rows(kind: Kind, rows, file_format: str) -> bytes:
    header = [c.name for c in kind.columns]
    if file_format == "csv":
        return _csv_lines(kind, [header]) + _csv_lines(kind, rows)
    buffer = io.BytesIO()
    book = xlsxwriter.Workbook(
        buffer,
        {
            "constant_memory": True,
            "strings_to_numbers": False,
            "strings_to_formulas": False,
            "strings_to_urls": False,
        },
    )
    sheet = book.add_worksheet(kind.name[:31])
    day = book.add_format({"num_format": "yyyy-mm-dd"})
    sheet.write_row(0, 0, header)
    for number, row in enumerate(rows, start=1):
        for column, value in enumerate(row):
            if value is None or value == "":
                continue
            if isinstance(value, date):
                sheet.write_datetime(number, column, value, day)
            elif isinstance(value, bool | dict):
                sheet.write_string(number, column, _text(value))
            elif isinstance(value, int | float | Decimal):
                sheet.write_number(number, column, value)
            else:
                sheet.write_string(number, column, neutralise(value))
    book.close()
    return buffer.getvalue()


def _text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, dict):  # a permit's discharge limits
        return "; ".join(f"{name}: {limit['max']} {limit['unit']}" for name, limit in value.items())
    return str(value)
