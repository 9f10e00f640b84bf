"""Importing the State Water Board's CIWQS private lateral sewage discharge (PLSD) export.

The file is taken as the Board publishes it: Latin-1 text, its own column names, Oracle
timestamps (`15-SEP-07 05.00.00.000000 PM`) beside US ones (`09/15/2007 18:00`), blank and
odd volumes, thirty spellings of the cause. Each spill becomes an Incident (code = SPILL_ID,
kind "spill", source "ciwqs", the row kept in `source_record`); one that mentions grease or
FOG is `fog_caused`; one whose address matches an establishment of the agency is linked to
it, and `attributed` when it is also FOG-caused. Rows without a spill id or a readable date
are skipped and counted, never fatal. A spill already imported is left as it is.

What the State's General Order asks of a spill comes from the export's own columns: the
volumes (SPILL_VOL, SPILL_VOL_RECOVER, SPILL_VOL_REACH_SURF), whether it reached surface
water or a storm drain and whether what reached the drain was returned (REACH_SURFACE,
REACH_STORM_DRAINPIPE, RETURN_TO_SSS, Yes/No or a "Not Applicable - ..." text), and the times
(START_DT, EST_END_DT, AGENCY_NOTIFY_DT: when the agency learned of it), read as local time in
the reporting pack's time zone. The category is derived where those decide it, and left for
staff otherwise; the summary counts both.
"""

from __future__ import annotations

import csv
import io
from collections import Counter, defaultdict
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from django.db import IntegrityError, transaction

from fogkeeper.audit.services import audit_record
from fogkeeper.locks import hold_row
from fogkeeper.reevaluation import reevaluate_ids_on_commit
from fogkeeper.registry.models import Agency, FoodServiceEstablishment, normalise_address

from . import ciwqs_cells as cells
from .models import Incident
from .spills import derive_category

REQUIRED = ("SPILL_ID", "START_DT", "SPILL_VOL", "ADDRESS", "CITY", "SPILL_CAUSE")
DATE_COLUMNS = ("START_DT", "AGENCY_NOTIFY_DT", "OPRTOR_ARRVL_DT")
KIND = "spill"


Progress = Callable[[str], None]


class CiwqsFileError(Exception):
    """The file is not a CIWQS PLSD export that can be read; nothing was written."""


class CiwqsClash(Exception):
    """Some of the spills were stored by another writer while the import read the file;
    nothing of the import was stored."""


CLASHED = (
    "some of the same spills were stored for the agency while this import was reading the "
    "file; nothing of it was imported. Run it again: the spills now present are left as they "
    "are and the rest are imported"
)


@dataclass
class CiwqsImport:
    file: str
    rows: int = 0
    other_systems: int = 0
    created: int = 0
    already_present: int = 0
    fog_caused: int = 0
    attributed: int = 0
    matched: Counter = field(default_factory=Counter)
    unmatched: Counter = field(default_factory=Counter)
    skipped: Counter = field(default_factory=Counter)
    skipped_rows: list[str] = field(default_factory=list)
    notes: Counter = field(default_factory=Counter)
    categories: Counter = field(default_factory=Counter)
    left_for_staff: Counter = field(default_factory=Counter)
    establishments: set[int] = field(default_factory=set)  # matched by an incident created
    today: date | None = None  # the import's day: a later date is refused (the agency's today)

    def counts(self) -> dict:
        return {
            "file": self.file,
            "rows": self.rows,
            "other_systems": self.other_systems,
            "created": self.created,
            "already_present": self.already_present,
            "fog_caused": self.fog_caused,
            "attributed": self.attributed,
            "matched": sum(self.matched.values()),
            "unmatched": sum(self.unmatched.values()),
            "skipped": sum(self.skipped.values()),
            "matched_by": dict(self.matched),
            "unmatched_because": dict(self.unmatched),
            "skipped_because": dict(self.skipped),
            "categories": {str(n): self.categories[n] for n in sorted(self.categories)},
            "category_left_for_staff": sum(self.left_for_staff.values()),
            "category_left_because": dict(self.left_for_staff),
        }

    def summary(self) -> list[str]:
        lines = [
            f"{self.file}: {self.rows} rows read",
            *(
                [f"  of other sewer systems (WDID), left out: {self.other_systems}"]
                if self.other_systems
                else []
            ),
            f"  incidents created: {self.created}",
            f"  already present: {self.already_present}",
            f"  FOG-caused: {self.fog_caused}",
            f"  matched to an establishment: {sum(self.matched.values())}{_why(self.matched)}",
            f"  unmatched: {sum(self.unmatched.values())}{_why(self.unmatched)}",
            f"  attributed (matched and FOG-caused): {self.attributed}",
            f"  skipped: {sum(self.skipped.values())}{_why(self.skipped)}",
            "  categories derived: "
            + (", ".join(f"{n}: {self.categories[n]}" for n in sorted(self.categories)) or "none"),
            f"  category left for staff: {sum(self.left_for_staff.values())}"
            f"{_why(self.left_for_staff)}",
        ]
        lines += [f"    {line}" for line in self.skipped_rows]
        if self.notes:
            lines.append(f"  notes:{_why(self.notes)}")
        return lines


def _why(counter: Counter) -> str:
    if not counter:
        return ""
    return " (" + ", ".join(f"{reason}: {n}" for reason, n in counter.most_common()) + ")"


def ciwqs_import(
    *,
    agency: Agency,
    path: str | Path,
    actor=None,
    progress: Progress | None = None,
    wdids: Collection[str] = (),
    rows_read: Callable[[int, int], None] | None = None,
) -> CiwqsImport:
    """Turn every readable spill of the export at `path` into an incident of `agency`, in one
    transaction with one audit row. Counts of what was matched, created and skipped come
    back; FOG-caused, matched and unmatched count the incidents created by this import.
    With `wdids`, only the spills of those sewer systems (the export's WDID) are taken.
    `progress` is told in words every tenth of the rows, `rows_read(done, total)` in numbers.

    Imports of one agency store one at a time (the agency's row is locked while one stores):
    a second import of the same spills waits, then finds them present and leaves them. When
    another writer stored one of its spills meanwhile without that lock, CiwqsClash is raised
    and nothing of this import is stored."""
    path = Path(path)
    header, records = read_export(path)
    other_systems = 0
    if wdids:
        column = header.index("WDID") if "WDID" in header else None
        if column is None:
            raise CiwqsFileError(f"{path.name} has no WDID column to filter on")
        wanted = {w.strip() for w in wdids}
        kept = [r for r in records if len(r) > column and r[column].strip() in wanted]
        other_systems = len(records) - len(kept)
        records = kept
    establishments = _Establishments(agency)
    codes_in_file = {cells.spill_id(dict(zip(header, r, strict=False))) for r in records} - {""}

    def present() -> set[str]:
        found = Incident.objects.filter(agency=agency, code__in=codes_in_file)
        return set(found.values_list("code", flat=True))

    def read(already: set[str], told: bool) -> tuple[CiwqsImport, list[Incident]]:
        result = CiwqsImport(file=path.name, rows=len(records) + other_systems)
        result.other_systems = other_systems
        seen: dict[str, int] = {}
        new: list[Incident] = []
        step = max(1, -(-len(records) // 10))
        for index, values in enumerate(records, 1):
            incident = _incident(agency, header, values, index + 1, seen, already, result)
            if incident is not None:
                _match(incident, establishments, result)
                new.append(incident)
            if told and (index % step == 0 or index == len(records)):
                if progress:
                    progress(f"read {index}/{len(records)} rows ({index * 100 // len(records)}%)")
                if rows_read:
                    rows_read(index, len(records))
        return result, new

    already = present()
    result, new = read(already, told=True)
    try:
        with transaction.atomic():
            hold_row(agency)
            stored_meanwhile = present() - already
            if stored_meanwhile & {i.code for i in new}:
                result, new = read(already | stored_meanwhile, told=False)
            Incident.objects.bulk_create(new, batch_size=500)
            result.created = len(new)
            result.establishments = {i.establishment_id for i in new if i.establishment_id}
            # each matched establishment once, on the workers, once the import commits
            reevaluate_ids_on_commit(agency.pk, result.establishments, queued=True)
            if new:
                audit_record(
                    action="ciwqs.import",
                    obj=agency,
                    actor=actor,
                    agency=agency,
                    after=result.counts(),
                    reason=f"import of {path.name}",
                )
    except IntegrityError as exc:
        raise CiwqsClash(CLASHED) from exc
    return result


def read_export(path: Path) -> tuple[list[str], list[list[str]]]:
    """The export's header and its non-blank rows; CiwqsFileError naming what is wrong with a
    file that is not a CIWQS private lateral spill export."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise CiwqsFileError(f"cannot read {path}: {exc.strerror}") from exc
    if b"\x00" in data:
        raise CiwqsFileError(
            f"{path.name} is not a text CSV file: it holds NUL bytes (UTF-16 or binary?); "
            "expected the CIWQS export as Latin-1 text"
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    reader = csv.reader(io.StringIO(text, newline=""))
    records = []
    try:
        header = next(reader, None)
        for record in reader:
            if any(v.strip() for v in record):
                records.append(record)
    except csv.Error as exc:
        raise CiwqsFileError(
            f"{path.name} cannot be read as CSV at row {len(records) + 2} (line "
            f"{reader.line_num} of the file): {_csv_problem(exc)}"
        ) from exc
    if header is None:
        raise CiwqsFileError(f"{path.name} is empty: expected the CIWQS header row")
    header = [h.strip() for h in header]
    missing = [c for c in REQUIRED if c not in header]
    if missing:
        raise CiwqsFileError(
            f"{path.name} is not a CIWQS private lateral spill export: missing column"
            f"{'s' if len(missing) > 1 else ''} {', '.join(missing)} "
            f"(the first row reads {', '.join(header[:6])!r}...)"
        )
    return header, records


def _csv_problem(exc: csv.Error) -> str:
    """What the CSV reader's error means, in words."""
    if "field larger than field limit" in str(exc):
        limit = csv.field_size_limit()
        return f"a value is longer than {limit:,} characters ({limit // 1024} KiB)"
    return str(exc)


def _incident(
    agency: Agency,
    header: list[str],
    values: list[str],
    number: int,
    seen: dict[str, int],
    present: set[str],
    result: CiwqsImport,
) -> Incident | None:
    def skip(reason: str, detail: str) -> None:
        result.skipped[reason] += 1
        result.skipped_rows.append(f"row {number}: {reason}{detail}")

    if len(values) != len(header):
        skip("wrong number of values", f" ({len(values)}, the header has {len(header)})")
        return None
    row = dict(zip(header, values, strict=True))
    code = cells.spill_id(row)
    if not code:
        skip("no spill id", f" (SPILL_ID {row['SPILL_ID']!r})")
        return None
    if code in seen:
        skip("spill id repeated in the file", f" (spill {code}, first in row {seen[code]})")
        return None
    seen[code] = number
    if result.today is None:
        result.today = agency.today()
    when = None
    for column in DATE_COLUMNS:
        when = cells.day_or_impossible(row.get(column, ""))
        problem = cells.date_problem(column, row.get(column, ""), when, result.today)
        if problem:  # the spill's own date cannot be: the row is refused
            skip(problem[0], f" (spill {code}: {problem[1]})")
            return None
        if when is not None:
            if column != "START_DT":
                result.notes[f"date taken from {column}"] += 1
            break
    if when is None:
        shown = ", ".join(f"{c} {row.get(c, '')!r}" for c in DATE_COLUMNS if c in row)
        skip("no usable date", f" (spill {code}: {shown})")
        return None
    if code in present:
        result.already_present += 1
        return None
    gallons = cells.gallons(row["SPILL_VOL"])
    if gallons is None:
        result.notes["volume blank" if not row["SPILL_VOL"].strip() else "volume unreadable"] += 1
    address = cells.address(row)
    fog = cells.fog_caused(row)
    result.fog_caused += fog
    incident = Incident(
        agency=agency,
        code=code,
        date=when,
        kind=KIND,
        fog_caused=fog,
        gallons=gallons,
        address=address[:200],
        normalised_address=normalise_address(address)[:200],
        latitude=cells.degrees(row.get("LATTITUDE_DECIMAL_DEGREES", ""), 90),
        longitude=cells.degrees(row.get("LONGITUDE_DECIMAL_DEGREES", ""), 180),
        cause=cells.cause(row),
        source="ciwqs",
        source_record=row,
        **_spill(row, result),
    )
    _categorise(incident, result)
    return incident


def _spill(row: dict[str, str], result: CiwqsImport) -> dict:
    """What the General Order asks of the spill, from the export's own columns."""
    out: dict[str, Any] = {
        "gallons_recovered": cells.gallons(row.get("SPILL_VOL_RECOVER", "")),
        "gallons_to_surface_water": cells.gallons(row.get("SPILL_VOL_REACH_SURF", "")),
        "reached_surface_water": cells.yes_no(row.get("REACH_SURFACE", "")),
        "reached_storm_drain": cells.yes_no(row.get("REACH_STORM_DRAINPIPE", "")),
        "storm_drain_fully_captured": cells.yes_no(row.get("RETURN_TO_SSS", "")),
        "started_at": cells.moment(row.get("START_DT", "")),
        "ended_at": cells.moment(row.get("EST_END_DT", "")),
        "known_at": cells.moment(row.get("AGENCY_NOTIFY_DT", "")),
    }
    for name, column in (
        ("started_at", "START_DT"),
        ("ended_at", "EST_END_DT"),
        ("known_at", "AGENCY_NOTIFY_DT"),
    ):
        if out[name] and result.today and out[name].date() > result.today:  # typo: 07/28/2808
            out[name] = None
            result.notes[f"{column} after today, left out"] += 1
    if out["started_at"] and out["ended_at"] and out["ended_at"] < out["started_at"]:
        out["ended_at"] = None
        result.notes["end before start, end left out"] += 1
    return out


def _categorise(incident: Incident, result: CiwqsImport) -> None:
    category, reason = derive_category(incident)
    if category is None:
        result.left_for_staff[_left_because(reason)] += 1
        return
    incident.category, incident.category_source = category, "derived"
    result.categories[category] += 1


def _left_because(reason: str) -> str:
    if "yet with" in reason:
        return "REACH_SURFACE No but SPILL_VOL_REACH_SURF above 0"
    if "storm drain" in reason:
        return "storm drain reached, return to the sewer not stated"
    if "volume spilled is unknown" in reason:
        return "volume unknown"
    return "surface water not stated"


class _Establishments:
    """The agency's establishments by normalised address and by house number + street name."""

    def __init__(self, agency: Agency):
        self.exact: dict[str, list[FoodServiceEstablishment]] = defaultdict(list)
        self.street: dict[tuple[str, str], list[FoodServiceEstablishment]] = defaultdict(list)
        for fse in FoodServiceEstablishment.objects.filter(agency=agency).only(
            "id", "normalised_address", "city", "opened_on", "closed_on"
        ):
            if fse.normalised_address:
                self.exact[fse.normalised_address].append(fse)
                key = cells.street_key(fse.normalised_address)
                if key:
                    self.street[key].append(fse)


def _match(incident: Incident, establishments: _Establishments, result: CiwqsImport) -> None:
    if not incident.normalised_address:
        result.unmatched["no address"] += 1
        return
    city = cells.city((incident.source_record or {}).get("CITY", ""))
    found = establishments.exact.get(incident.normalised_address)
    how = "exact address"
    if not found:
        key = cells.street_key(incident.normalised_address)
        found = establishments.street.get(key) if key else None
        how = "street number and name"
    if not found:
        result.unmatched["no establishment at the address"] += 1
        return
    found = [f for f in found if not (city and f.city and cells.city(f.city) != city)]
    if not found:
        result.unmatched["establishment at that address in another city"] += 1
        return
    open_then = [
        f
        for f in found
        if f.opened_on <= incident.date and (f.closed_on is None or f.closed_on >= incident.date)
    ]
    if not open_then:
        result.unmatched["no establishment open there on the date"] += 1
        return
    if len(open_then) > 1:
        result.unmatched["several establishments at the address"] += 1
        return
    incident.establishment = open_then[0]
    incident.attributed = incident.fog_caused
    result.attributed += incident.attributed
    result.matched[how] += 1
