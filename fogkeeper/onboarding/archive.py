"""What an uploaded XLSX (a ZIP of XML files) unpacks to, measured before anything parses it.

A workbook of a megabyte can unpack to gigabytes (a decompression bomb), and a workbook of a
few kilobytes can name a cell at XFD1048576, which calamine answers by allocating every cell
of the rectangle up to it. So each member of the ZIP is inflated here, a megabyte at a time
and nothing kept, before the workbook is handed to calamine, and the file is refused as soon
as one of these limits is passed:

- the sizes the ZIP declares: MAX_UNPACKED bytes in all, no member packed more than
  MAX_RATIO-fold (a sheet of data packs 10- to 20-fold; a bomb packs a thousandfold);
- the bytes actually inflated, which may not pass a member's declared size (a ZIP can lie
  about its sizes, the stream cannot);
- in each worksheet, at most MAX_CELLS cells holding a value, none past column MAX_COLUMNS
  nor past row max_rows + 1 (calamine's rectangle from A1 is then at most 64 by 100,001);
- the text the cells read from the shared strings, at most MAX_TEXT bytes (one long string
  repeated in every cell would be copied into each).

A real city's largest file, 100,000 rows of establishments in 20 columns, unpacks to about
80 MB, 2 million cells and 60 MB of text (written by the program export)."""

from __future__ import annotations

import io
import re
import struct
import zipfile
import zlib
from array import array
from collections.abc import Iterator
from dataclasses import dataclass

MIB = 1024 * 1024
MAX_MEMBERS = 1_000
MAX_UNPACKED = 300 * MIB
MAX_RATIO = 100
RATIO_FROM = MIB  # smaller members may pack as they please: they cannot hurt
MAX_COLUMNS = 64
MAX_CELLS = 4_000_000
MAX_TEXT = 400 * MIB
CHUNK = MIB
LONGEST_TAG = 64 * 1024  # past this, a chunk is cut anywhere (see _tags)

_PREFIXED = re.compile(rb"<(/?)[A-Za-z_][\w.-]{0,15}:")  # <x:c>, read by calamine as <c>
FORMULA = re.compile(rb"<f[\s>/]")
_REF = rb'\sr="([A-Z]{1,3})([0-9]{1,7})"'
FAR = re.compile(
    rb"<c[^>]*?" + _REF + rb"[^>]*(?<!/)>"
)  # a cell and its reference, looked for past the limits
ROW_OR_CELL = re.compile(rb"<(row|c)(?=[\s>/])([^>]*)>")
_CELL_REFERENCE = re.compile(rb'\sr="([A-Z]{0,3})([0-9]{1,7})"')
SHARED = re.compile(rb'<c\s[^>]*\bt="s"[^>]*>\s*<v>\s*([0-9]{1,10})')
SHARED_ITEM = re.compile(rb"<si[\s>]")
_UNNUMBERED = re.compile(rb'<c(?:[\t\n\r>/]| (?!r="))')  # a cell not starting with r=""


class Refused(Exception):
    """Said in words: what the workbook would unpack to, and the limit it passes."""


@dataclass
class _Sheet:
    """Where a worksheet's cells lie, found as it is inflated: in a sheet whose rows and cells
    each give their reference (as Excel writes them) by counting bytes, and only a reference
    long enough to be past a limit is read; elsewhere by placing each row and cell as
    calamine does, after the one before."""

    cells: int = 0  # cells holding a value: <c ...>...</c>
    row: int = 0  # the row and column of the last cell or row placed
    column: int = 0
    last_row: int = 0  # the furthest found
    last_column: int = 0
    shared: int = 0  # cells reading a shared string
    text: int = 0  # the shared strings' text they read, once counted
    formula: bool = False


def check(data: bytes, name: str, max_rows: int) -> bool:
    """Refuse (Refused) an XLSX past the limits; whether a worksheet holds a formula."""
    if data.count(b"PK\x01\x02") > MAX_MEMBERS:
        raise Refused(
            f"{name} holds more than {MAX_MEMBERS:,} files inside; a workbook holds a "
            "few dozen, so it is not read"
        )
    try:
        members = zipfile.ZipFile(io.BytesIO(data)).infolist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        raise Refused(f"{name} is not an XLSX workbook Excel can open") from None
    _declared(members, name)
    lengths = array("Q")
    for member in members:
        if member.filename == "xl/sharedStrings.xml":
            lengths = _shared_lengths(data, member, name)
    formula = False
    for member in members:  # any part may be a sheet: the workbook's relations name them
        if member.filename != "xl/sharedStrings.xml":
            sheet = _sheet(data, member, name, lengths, max_rows)
            worksheet = member.filename.startswith("xl/worksheets/")
            formula = formula or (worksheet and sheet.formula)
    return formula


def _declared(members: list[zipfile.ZipInfo], name: str) -> None:
    total = sum(m.file_size for m in members)
    if total > MAX_UNPACKED:
        raise Refused(
            f"{name} would unpack to {total / MIB:,.0f} MB; at most {MAX_UNPACKED // MIB} MB are "
            "read from one workbook (split it, for example one file of pump-outs per year)"
        )
    for m in members:
        if m.file_size > RATIO_FROM and m.file_size > MAX_RATIO * max(m.compress_size, 1):
            ratio = m.file_size // max(m.compress_size, 1)
            raise Refused(
                f"{name} is packed {ratio:,}-fold (its part {m.filename} unpacks to "
                f"{m.file_size / MIB:,.0f} MB); a workbook of data packs at most about "
                f"20-fold, and one packed more than {MAX_RATIO}-fold is not read"
            )


def _inflate(data: bytes, member: zipfile.ZipInfo, name: str) -> Iterator[bytes]:
    """The member's bytes, a chunk at a time, inflated from the ZIP's own bytes; refused past
    the size the ZIP declares for it."""
    broken = Refused(f"{name} is not an XLSX workbook Excel can open")
    offset = member.header_offset
    header = data[offset : offset + 30]
    if len(header) < 30 or header[:4] != b"PK\x03\x04" or member.flag_bits & 1:
        raise broken
    start = offset + 30 + sum(struct.unpack("<HH", header[26:30]))
    raw = memoryview(data)[start : start + member.compress_size]
    if member.compress_type == zipfile.ZIP_STORED:
        chunks: Iterator[bytes] = (bytes(raw[i : i + CHUNK]) for i in range(0, len(raw), CHUNK))
    elif member.compress_type == zipfile.ZIP_DEFLATED:
        chunks = _deflated(raw, broken)
    else:
        raise broken
    done = 0
    for chunk in chunks:
        done += len(chunk)
        if done > member.file_size:
            raise Refused(
                f"{name}: its part {member.filename} unpacks to more than the "
                f"{member.file_size:,} bytes its ZIP declares; it is not read"
            )
        yield chunk


def _deflated(raw: memoryview, broken: Refused) -> Iterator[bytes]:
    inflater = zlib.decompressobj(-zlib.MAX_WBITS)
    position = 0
    try:
        while not inflater.eof:
            if inflater.unconsumed_tail:
                given: bytes | memoryview = inflater.unconsumed_tail
            elif position < len(raw):
                given, position = raw[position : position + CHUNK], position + CHUNK
            else:
                break
            out = inflater.decompress(given, CHUNK)  # never more than a chunk at once
            if out:
                yield out
    except zlib.error:
        raise broken from None


def _tags(chunks: Iterator[bytes]) -> Iterator[bytes]:
    """The chunks re-cut before a `<`, so that no tag is split between two of them."""
    tail = b""
    for chunk in chunks:
        text = tail + chunk
        cut = text.rfind(b"<")
        if cut <= 0 or len(text) - cut > LONGEST_TAG:
            cut = len(text)
        tail = text[cut:]
        yield text[:cut]
    yield tail


def _shared_lengths(data: bytes, member: zipfile.ZipInfo, name: str) -> array:
    """The length in bytes of each shared string, its markup counted (an upper bound)."""
    lengths, current = array("Q"), None
    for text in _tags(_inflate(data, member, name)):
        parts = SHARED_ITEM.split(text)
        if current is not None:
            current += len(parts[0])
        for part in parts[1:]:
            if current is not None:
                lengths.append(current)
            current = len(part)
    if current is not None:
        lengths.append(current)
    return lengths


def _sheet(data, member, name: str, lengths: array, max_rows: int) -> _Sheet:
    sheet = _Sheet()
    longest = max(lengths, default=0)
    digits = len(str(max_rows + 1))
    far = re.compile(rb'\sr="(?:[A-Z]{2,3}|[A-Z][0-9]{%d})' % digits)
    for text in _tags(_inflate(data, member, name)):
        if b":" in text and _PREFIXED.search(text):
            text = _PREFIXED.sub(rb"<\1", text)
        sheet.formula = sheet.formula or (b"<f" in text and FORMULA.search(text) is not None)
        sheet.cells += text.count(b"</c>")
        sheet.shared += text.count(b't="s"')
        if _all_numbered(text):
            _last_placed(sheet, text)
            if far.search(text):
                for column, row in FAR.findall(text):
                    _reach(sheet, int(row), _column_number(column))
        else:
            _place(sheet, text)
        _within(sheet, name, max_rows)
        if sheet.shared * longest > MAX_TEXT:  # past the quick bound: the text read, exactly
            found = (int(i) for i in SHARED.findall(text))
            sheet.text += sum(lengths[i] for i in found if i < len(lengths))
            _text_within(sheet, name)
    return sheet


def _all_numbered(text: bytes) -> bool:
    """Whether each row and cell starts with its reference: <row r="3" ...>, <c r="B3" ...>."""
    return _UNNUMBERED.search(text) is None and text.count(b"<row") == text.count(b'<row r="')


def _last_placed(sheet: _Sheet, text: bytes) -> None:
    """Where the next unnumbered row or cell would go: after the last ones here."""
    at = text.rfind(b'<row r="')
    if at >= 0:
        sheet.row, sheet.column = int(text[at + 8 : text.index(b'"', at + 8)] or 0), 0
    at = text.rfind(b'<c r="')
    if at >= 0:
        found = _CELL_REFERENCE.match(text, at + 2)
        if found:
            sheet.row, sheet.column = int(found[2]), _column_number(found[1])


def _place(sheet: _Sheet, text: bytes) -> None:
    for element, attributes in ROW_OR_CELL.findall(text):
        found = _CELL_REFERENCE.search(attributes)
        if element == b"row":
            sheet.row, sheet.column = (int(found[2]) if found else sheet.row + 1), 0
            continue
        if found and found[1]:
            sheet.row, sheet.column = int(found[2]), _column_number(found[1])
        else:
            sheet.column += 1
        if not attributes.endswith(b"/"):  # an empty cell (<c/>) is not read
            _reach(sheet, sheet.row, sheet.column)


def _reach(sheet: _Sheet, row: int, column: int) -> None:
    sheet.last_row, sheet.last_column = max(sheet.last_row, row), max(sheet.last_column, column)


def _within(sheet: _Sheet, name: str, max_rows: int) -> None:
    if sheet.last_row > max_rows + 1:
        raise Refused(
            f"{name} has a cell in row {sheet.last_row:,}; at most {max_rows:,} rows are read "
            "from one file (split it, for example one file of pump-outs per year)"
        )
    if sheet.last_column > MAX_COLUMNS:
        raise Refused(
            f"{name} has a cell in column {sheet.last_column:,}; at most {MAX_COLUMNS} columns "
            "are read (a kind of record has at most 20: clear the cells right of its columns)"
        )
    if sheet.cells > MAX_CELLS:
        raise Refused(
            f"{name} has more than {MAX_CELLS:,} cells holding a value; at most that many are "
            "read from one sheet (split it)"
        )


def _text_within(sheet: _Sheet, name: str) -> None:
    if sheet.text > MAX_TEXT:
        raise Refused(
            f"{name}: its cells repeat {sheet.text / MIB:,.0f} MB of text; at most "
            f"{MAX_TEXT // MIB} MB are read from one sheet"
        )


def _column_number(letters: bytes) -> int:
    number = 0
    for letter in letters:
        number = number * 26 + letter - 64
    return number
