"""An XLSX decompression bomb like the one the probe of issue 37 uploaded (about a megabyte
that unpacks to gigabytes), and what its refusal costs: the peak memory (ru_maxrss of a
fresh process) and the time of read_sheet refusing it.

    .venv/bin/python -m bench.xlsx_bomb [--gib 2] [--lie]

--lie makes the ZIP declare each part a few kilobytes (a ZIP's sizes can lie; the stream
is then measured as it is inflated). Nothing is asserted: the figures are printed."""

from __future__ import annotations

import argparse
import io
import json
import resource
import subprocess
import sys
import time
import zipfile
import zlib

SHEET_HEAD = (
    b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
    b'<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>code</t></is></c></row>'
)
SHEET_TAIL = b"</sheetData></worksheet>"
PARTS = {
    "[Content_Types].xml": b'<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.'
    b'openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="'
    b'application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" '
    b'ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="'
    b'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override '
    b'PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-'
    b'officedocument.spreadsheetml.worksheet+xml"/></Types>',
    "_rels/.rels": b'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.'
    b'openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://'
    b'schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target='
    b'"xl/workbook.xml"/></Relationships>',
    "xl/workbook.xml": b'<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.'
    b'openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/'
    b'officeDocument/2006/relationships"><sheets><sheet name="s" sheetId="1" r:id="rId1"/>'
    b"</sheets></workbook>",
    "xl/_rels/workbook.xml.rels": b'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns='
    b'"http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" '
    b'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" '
    b'Target="worksheets/sheet1.xml"/></Relationships>',
}


def bomb(unpacked: int, *, lie: bool = False) -> bytes:
    """A workbook whose sheet unpacks to `unpacked` bytes (blanks between its cells), its
    sheet deflated a megabyte at a time; with `lie`, its ZIP declares the sheet 4 KB."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    blank = b" " * (1024 * 1024)
    packed = [packer.compress(SHEET_HEAD)]
    crc, left = zlib.crc32(SHEET_HEAD), unpacked - len(SHEET_HEAD) - len(SHEET_TAIL)
    while left > 0:
        piece = blank[: min(left, len(blank))]
        packed.append(packer.compress(piece))
        crc, left = zlib.crc32(piece, crc), left - len(piece)
    packed += [packer.compress(SHEET_TAIL), packer.flush()]
    crc = zlib.crc32(SHEET_TAIL, crc)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as book:
        for name, text in PARTS.items():
            book.writestr(name, text)
    return _with_sheet(out.getvalue(), b"".join(packed), 4096 if lie else unpacked, crc)


def _with_sheet(archive: bytes, packed: bytes, declared: int, crc: int) -> bytes:
    """The workbook with its sheet, `packed` (raw deflate), declaring `declared` bytes."""
    source = zipfile.ZipFile(io.BytesIO(archive))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as book:
        for info in source.infolist():
            book.writestr(info, source.read(info))
        info = zipfile.ZipInfo("xl/worksheets/sheet1.xml", (2026, 1, 1, 0, 0, 0))
        info.compress_type, info.CRC, info.header_offset = zipfile.ZIP_DEFLATED, crc, out.tell()
        info.compress_size, info.file_size = len(packed), declared
        out.write(info.FileHeader())
        out.write(packed)
        book.filelist.append(info)
        book.NameToInfo[info.filename] = info
        book.start_dir = out.tell()
    return out.getvalue()


def _refuse(path: str) -> dict:
    """In this (fresh) process: read_sheet on the file; its time and peak memory."""
    import os

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fogkeeper.config.settings")
    from fogkeeper.onboarding.sheets import SheetError, read_sheet

    with open(path, "rb") as f:
        data = f.read()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter()
    try:
        read_sheet(data, "bomb.xlsx")
        said = "read (not refused)"
    except SheetError as e:
        said = str(e)
    return {
        "seconds": round(time.perf_counter() - started, 3),
        "peak_mib_before": before // 1024,
        "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
        "said": said,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--gib", type=float, default=2.0)
    parser.add_argument("--lie", action="store_true")
    parser.add_argument("--refuse", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.refuse:
        print(json.dumps(_refuse(args.refuse)))
        return
    data = bomb(int(args.gib * 1024**3), lie=args.lie)
    path = "/tmp/fogkeeper-xlsx-bomb.xlsx"
    with open(path, "wb") as f:
        f.write(data)
    print(f"bomb: {len(data) / 1024**2:.2f} MiB unpacking to {args.gib} GiB (lying: {args.lie})")
    found = subprocess.run(
        [sys.executable, "-m", "bench.xlsx_bomb", "--refuse", path],
        capture_output=True,
        text=True,
        check=True,
    )
    print(found.stdout.strip())


if __name__ == "__main__":
    main()
