"""Importing hauler pump-out manifests from a CSV file: every row is checked before anything
is written, and a file with any bad row writes nothing.

The columns (header names; order free):

    hauler_code, manifest_number, establishment_code, device_code, service_date   required
    full_pump_out, gallons_removed, fog_inches, solids_inches,
    final_chamber_floating_oil, sludge_to_outlet_inches, notes                    optional

A manifest already in the database with the same content is skipped, so importing a file
twice adds nothing; one with different content is an error.

A hauler's own upload (the hauler portal) is the same file checked for one more thing: every
row names that hauler's code and a device of one of its current customers, on a date its
contract covered; anything else reads as unknown, so a file reveals nothing of another hauler
or a non-customer. An upload is also capped (`max_rows`, counted as the file is read).

No row is lost or folded into another: each row is one line of the file (a value holding a
line break, as a quote left open makes, refuses the file naming the row), a file the CSV
reader cannot read names the row where it stopped, numbers are plain ASCII decimals (not
`1e3`, not fullwidth digits), and a service date after the agency's today is refused.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

from django.db import IntegrityError, transaction

from fogkeeper.audit.services import audit_record
from fogkeeper.reevaluation import reevaluate_ids_on_commit
from fogkeeper.registry.cells import read_date as _date
from fogkeeper.registry.cells import read_decimal as _decimal
from fogkeeper.registry.cells import read_yes_no as _yes_no
from fogkeeper.registry.models import Agency, GreaseControlDevice, Hauler, ServiceContract
from fogkeeper.registry.services import check_within_depth

from .models import MANIFEST_CONTENT, Service
from .services import lock_manifests

REQUIRED = ("hauler_code", "manifest_number", "establishment_code", "device_code", "service_date")
OPTIONAL = (
    "full_pump_out",
    "gallons_removed",
    "fog_inches",
    "solids_inches",
    "final_chamber_floating_oil",
    "sludge_to_outlet_inches",
    "notes",
)
COLUMNS = REQUIRED + OPTIONAL

# (column, decimal places, largest value): the Service fields' precision.
_DECIMALS = {
    "gallons_removed": (1, Decimal("99999999.9")),
    "fog_inches": (2, Decimal("9999.99")),
    "solids_inches": (2, Decimal("9999.99")),
    "sludge_to_outlet_inches": (2, Decimal("9999.99")),
}
# ASCII digits only: \d would take fullwidth and other scripts' digits, which int() and
# Decimal() read as numbers.
_COMPARED = (*MANIFEST_CONTENT, "notes")
_LOOKUP_CHUNK = 1000
_WRITE_BATCH = 1000

Progress = Callable[[str], None]


@dataclass(frozen=True)
class RowError:
    row: int
    column: str
    reason: str

    def __str__(self) -> str:
        if not self.column:  # about the row as a whole
            return f"row {self.row}: {self.reason}"
        return f"row {self.row}, column {self.column}: {self.reason}"


class ManifestImportError(Exception):
    """The file was refused; nothing was written. `problems` holds one line per problem."""

    def __init__(self, problems: list[str], rows: list[RowError] | None = None):
        self.problems = problems
        self.rows = rows or []
        super().__init__("\n".join(problems))


@dataclass
class ManifestImport:
    file: str
    rows: int = 0
    created: int = 0
    already_imported: int = 0
    establishments: set[int] = field(default_factory=set)  # those with a service created

    def counts(self) -> dict:
        return {
            "file": self.file,
            "rows": self.rows,
            "created": self.created,
            "already_imported": self.already_imported,
        }


@dataclass
class _Row:
    number: int
    values: dict[str, str]
    fields: dict = field(default_factory=dict)
    hauler: Hauler | None = None


def manifests_import(
    *,
    agency: Agency,
    path: str | Path | None = None,
    data: bytes | None = None,
    name: str = "",
    actor=None,
    today: date | None = None,
    progress: Progress | None = None,
    hauler: Hauler | None = None,
    max_rows: int | None = None,
) -> ManifestImport:
    """Check every row of the manifest file (at `path`, or its bytes `data` named `name`) and,
    when all are good, add the new services in one transaction with one audit row. Raises
    ManifestImportError otherwise.

    With `hauler`, the file is that hauler's own submission: each row must be its manifest of
    a device of one of its customers on `today` (required then), and the services are marked
    source "hauler_csv", submitted by `actor`. `today` is otherwise the agency's today: a
    service date after it is refused. A file of more than `max_rows` rows is refused as soon
    as its row `max_rows + 1` is read."""
    if data is None:
        if path is None:
            raise ValueError("give the file's path or its data")
        path = Path(path)
        name, data = path.name, _load(path)
    if hauler is not None and (today is None or hauler.agency_id != agency.pk):
        raise ValueError("a hauler's upload is checked against its agency's customers today")
    today = today or agency.today()
    name = name or "the file"
    rows = _read(data, name, max_rows)
    errors: list[RowError] = []
    report = _Reporter(progress, len(rows), "checked")
    lookups = _Lookups(agency, rows, hauler=hauler, today=today)
    seen: dict[tuple[int, str], int] = {}
    for i, row in enumerate(rows, 1):
        errors.extend(_check(row, lookups, seen, today))
        report(i)
    new: list[Service] = []
    already = 0
    marks: dict[str, Any] = {"source": "import"}
    if hauler is not None:
        submitter = actor if getattr(actor, "is_authenticated", False) else None
        marks = {"source": "hauler_csv", "submitted_by": submitter}
    for row in rows:
        if row.hauler is None or "date" not in row.fields:
            continue
        existing = lookups.existing.get((row.hauler.pk, row.fields["manifest_number"]))
        if existing is None:
            new.append(Service(hauler=row.hauler, **marks, **row.fields))
            continue
        differences = _differences(existing, row.fields)
        if differences:
            errors.append(
                RowError(
                    row.number,
                    "manifest_number",
                    f"manifest {row.fields['manifest_number']!r} of hauler "
                    f"{row.hauler.code!r} was already imported with different content "
                    f"({'; '.join(differences)})",
                )
            )
        else:
            already += 1
    if errors:
        errors.sort(key=lambda e: (e.row, COLUMNS.index(e.column)))
        raise ManifestImportError([str(e) for e in errors], errors)
    result = ManifestImport(file=name, rows=len(rows), already_imported=already)
    write = _Reporter(progress, len(new), "written")
    try:
        with transaction.atomic():
            new, already = _locked(new, already)  # issue 15 item 5: the hauler's lock
            result.already_imported = already
            for start in range(0, len(new), _WRITE_BATCH):
                Service.objects.bulk_create(new[start : start + _WRITE_BATCH])
                write(min(start + _WRITE_BATCH, len(new)))
            result.created = len(new)
            result.establishments = {s.device.establishment_id for s in new}
            # each establishment once, on the workers, once the file's services commit
            reevaluate_ids_on_commit(agency.pk, result.establishments, as_of=today, queued=True)
            if new:
                after = result.counts()
                if hauler is not None:
                    after |= {"hauler": hauler.code, "manifests": [s.manifest_number for s in new]}
                audit_record(
                    action="manifests.import",
                    obj=hauler or agency,
                    actor=actor,
                    agency=agency,
                    after=after,
                    reason=f"import of {name}",
                )
    except IntegrityError as exc:
        raise ManifestImportError(
            [f"the database refused the import, nothing was written: {exc}"]
        ) from exc
    return result


def _locked(new: list[Service], already: int) -> tuple[list[Service], int]:
    """Take the manifest lock of each hauler of `new` (as a single submission does), then
    leave out the manifests stored meanwhile as already imported; one stored meanwhile with
    other content refuses the file. Returns the services still to add and the count already
    imported."""
    for hauler_id in sorted({s.hauler_id for s in new if s.hauler_id is not None}):
        lock_manifests(Hauler(pk=hauler_id))
    stored = {
        (s.hauler_id, s.manifest_number): s
        for s in Service.objects.filter(
            hauler_id__in={s.hauler_id for s in new},
            manifest_number__in={s.manifest_number for s in new},
        ).select_related("device")
    }
    left, problems = [], []
    for s in new:
        existing = stored.get((s.hauler_id, s.manifest_number))
        if existing is None:
            left.append(s)
        elif differences := _differences(existing, {"device": s.device, **_content(s)}):
            hauler_code = s.hauler.code if s.hauler else ""  # a manifest's service has one
            problems.append(
                f"manifest {s.manifest_number!r} of hauler {hauler_code!r} was "
                f"stored meanwhile with other content ({'; '.join(differences)}); "
                "nothing was written"
            )
        else:
            already += 1
    if problems:
        raise ManifestImportError(problems)
    return left, already


def _content(service: Service) -> dict:
    return {name: getattr(service, name) for name in _COMPARED if name != "device_id"}


def _load(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise ManifestImportError([f"cannot read {path}: {exc.strerror}"]) from exc


def _read(data: bytes, name: str, max_rows: int | None = None) -> list[_Row]:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ManifestImportError(
            [f"{name} is not UTF-8 text (byte {exc.start}); save it as UTF-8 CSV"]
        ) from exc
    if "\x00" in text:
        raise ManifestImportError([f"{name} is not a CSV text file (it holds NUL bytes)"])
    # strict: a quote closed and followed by more text is an error, not glued to the value
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        header = next(reader, None)
    except csv.Error as exc:
        raise ManifestImportError([f"{name}: the header row {_csv_problem(exc)}"]) from exc
    if header is None:
        raise ManifestImportError([f"{name} is empty: expected a header row"])
    if reader.line_num > 1:
        raise ManifestImportError([f"{name}: the header row holds a line break"])
    columns = [c.strip().lower() for c in header]
    _check_header(columns)
    rows: list[_Row] = []
    errors: list[RowError] = []
    read = 0  # rows read, good or bad
    while True:
        number = reader.line_num + 1  # the row's first line in the file
        try:
            values = next(reader, None)
        except csv.Error as exc:
            errors.append(RowError(number, "", f"{_csv_problem(exc)}; nothing after it was read"))
            break
        if values is None:
            break
        if not any(v.strip() for v in values):
            continue
        read += 1
        if max_rows is not None and read > max_rows:
            raise ManifestImportError(
                [
                    f"{name} has more than {max_rows:,} rows: a file may hold at most "
                    f"{max_rows:,} pump-outs. Split it into files of {max_rows:,} rows or fewer "
                    "and upload each; nothing was added."
                ]
            )
        if reader.line_num > number:  # a value ran on over a line break
            broken = [c for c, v in zip(columns, values, strict=False) if "\n" in v or "\r" in v]
            errors.append(
                RowError(
                    number,
                    broken[0] if broken else "",
                    f"holds a line break: the row runs from line {number} to line "
                    f"{reader.line_num} of the file (a quote left open?); each row must be on "
                    "one line",
                )
            )
            continue
        if len(values) != len(columns):
            errors.append(
                RowError(
                    number, "", f"has {len(values)} values, the header has {len(columns)} columns"
                )
            )
            continue
        rows.append(_Row(number, {c: v.strip() for c, v in zip(columns, values, strict=True)}))
    if errors:
        raise ManifestImportError([str(e) for e in errors], errors)
    return rows


def _csv_problem(exc: csv.Error) -> str:
    """What the CSV reader's error means, in words."""
    message = str(exc)
    if "field larger than field limit" in message:
        limit = csv.field_size_limit()
        return f"holds a value longer than {limit:,} characters ({limit // 1024} KiB)"
    if "unexpected end of data" in message:
        return "opens a quote that is never closed (a quote left open?)"
    if "expected after" in message:
        return (
            "has text after a closing quote (a quote left open, or a quote inside a value "
            'not written as "")'
        )
    return f"cannot be read as CSV ({message})"


def _check_header(columns: list[str]) -> None:
    problems = []
    unknown = [c for c in columns if c not in COLUMNS]
    if unknown:
        problems.append(
            f"unknown column{'s' if len(unknown) > 1 else ''} {_names(unknown)} "
            f"(the columns are: {', '.join(COLUMNS)})"
        )
    missing = [c for c in REQUIRED if c not in columns]
    if missing:
        problems.append(f"missing column{'s' if len(missing) > 1 else ''} {_names(missing)}")
    repeated = sorted({c for c in columns if columns.count(c) > 1})
    if repeated:
        problems.append(f"repeated column{'s' if len(repeated) > 1 else ''} {_names(repeated)}")
    if problems:
        raise ManifestImportError(problems)


def _names(columns: Iterable[str]) -> str:
    return ", ".join(repr(c) for c in columns)


class _Lookups:
    """The agency's haulers, devices and the manifests already imported, read in bulk. For a
    hauler's own upload: that hauler only, and only its current customers' devices."""

    def __init__(self, agency: Agency, rows: list[_Row], *, hauler: Hauler | None, today: date):
        self.hauler = hauler
        establishments = agency.establishments.all()
        # For a hauler's upload: each customer's contract periods with it.
        self.contracts: dict[int, list[tuple[date, date | None]]] = {}
        if hauler is None:
            self.haulers = {h.code: h for h in Hauler.objects.filter(agency=agency)}
        else:
            self.haulers = {hauler.code: hauler}
            for fse_id, since, until in ServiceContract.objects.filter(hauler=hauler).values_list(
                "establishment_id", "since", "until"
            ):
                self.contracts.setdefault(fse_id, []).append((since, until))
            current = [
                fse_id
                for fse_id, periods in self.contracts.items()
                if any(_covers(period, today) for period in periods)
            ]
            establishments = establishments.filter(pk__in=current)
        self.devices: dict[tuple[str, str], GreaseControlDevice] = {}
        codes = {r.values["establishment_code"] for r in rows}
        for device in GreaseControlDevice.objects.filter(
            establishment__in=establishments, establishment__code__in=codes
        ).select_related("establishment"):
            self.devices[(device.establishment.code, device.code)] = device
        self.establishments: set[str] = set(
            establishments.filter(code__in=codes).values_list("code", flat=True)
        )
        self.existing: dict[tuple[int | None, str], Service] = {}
        wanted = sorted(
            {
                (self.haulers[r.values["hauler_code"]].pk, r.values["manifest_number"])
                for r in rows
                if r.values["hauler_code"] in self.haulers
            }
        )
        for start in range(0, len(wanted), _LOOKUP_CHUNK):
            chunk = wanted[start : start + _LOOKUP_CHUNK]
            for service in Service.objects.filter(
                hauler_id__in={h for h, _ in chunk}, manifest_number__in={m for _, m in chunk}
            ):
                self.existing[(service.hauler_id, service.manifest_number)] = service


def _check(
    row: _Row, lookups: _Lookups, seen: dict[tuple[int, str], int], today: date | None
) -> list[RowError]:
    errors: list[RowError] = []
    v = row.values

    def bad(column: str, reason: str) -> None:
        errors.append(RowError(row.number, column, reason))

    for column in REQUIRED:
        if not v[column]:
            bad(column, "missing")

    hauler = lookups.haulers.get(v["hauler_code"])
    if v["hauler_code"] and hauler is None and lookups.hauler is not None:
        bad(
            "hauler_code",
            f"{v['hauler_code']!r} is not your hauler code ({lookups.hauler.code!r}): "
            "upload only your own manifests",
        )
    elif v["hauler_code"] and hauler is None:
        bad("hauler_code", f"no hauler {v['hauler_code']!r} in this agency")

    manifest = v["manifest_number"]
    if len(manifest) > 60:
        bad("manifest_number", "longer than 60 characters")
    elif hauler is not None and manifest:
        first = seen.setdefault((hauler.pk, manifest), row.number)
        if first != row.number:
            bad(
                "manifest_number",
                f"manifest {manifest!r} of hauler {hauler.code!r} is already in row {first}",
            )

    device = None
    fse = v["establishment_code"]
    if fse and fse not in lookups.establishments and lookups.hauler is not None:
        bad("establishment_code", f"{fse!r} is not one of your customers")
    elif fse and fse not in lookups.establishments:
        bad("establishment_code", f"no establishment {fse!r} in this agency")
    elif fse and v["device_code"]:
        device = lookups.devices.get((fse, v["device_code"]))
        if device is None:
            bad("device_code", f"no device {v['device_code']!r} at establishment {fse!r}")

    served = None
    if v["service_date"]:
        served = _date(v["service_date"])
        if served is None:
            bad(
                "service_date",
                f"not a date: {v['service_date']!r} (use YYYY-MM-DD or MM/DD/YYYY)",
            )
        elif today is not None and served > today:
            bad("service_date", f"{served} is in the future")
        elif device is not None and served < device.installed_on:
            bad(
                "service_date",
                f"{served} is before the device was installed ({device.installed_on})",
            )
        elif device is not None and device.removed_on and served > device.removed_on:
            bad("service_date", f"{served} is after the device was removed ({device.removed_on})")
        elif device is not None and lookups.hauler is not None:
            periods = lookups.contracts.get(device.establishment_id, [])
            if not any(_covers(period, served) for period in periods):
                bad("service_date", f"{fse!r} was not your customer on {served}")

    fields: dict = {}
    full = _yes_no(v.get("full_pump_out", ""), default=True)
    if full is None:
        bad("full_pump_out", f"not yes or no: {v['full_pump_out']!r}")
    fields["full_pump_out"] = full
    oil = _yes_no(v.get("final_chamber_floating_oil", ""), default=None)
    if oil is None and v.get("final_chamber_floating_oil"):
        bad("final_chamber_floating_oil", f"not yes or no: {v['final_chamber_floating_oil']!r}")
    fields["final_chamber_floating_oil"] = oil
    for column, (places, largest) in _DECIMALS.items():
        value, reason = _decimal(v.get(column, ""), places, largest)
        if reason:
            bad(column, reason)
        fields[column] = value
    fields["notes"] = v.get("notes", "")
    if device is not None:
        deeper: dict = {}
        check_within_depth(
            deeper, "solids_inches", device, fields.get("fog_inches"), fields.get("solids_inches")
        )
        for reason in deeper.get("solids_inches", []):
            bad("solids_inches", reason)

    if not errors:
        row.hauler = hauler
        row.fields = {"device": device, "manifest_number": manifest, "date": served, **fields}
    return errors


def _covers(period: tuple[date, date | None], day: date) -> bool:
    since, until = period
    return since <= day and (until is None or day <= until)


def _differences(existing: Service, fields: dict) -> list[str]:
    wanted = {**fields, "device_id": fields["device"].pk}
    out = []
    for name in _COMPARED:
        old, new = getattr(existing, name), wanted[name]
        if old != new:
            if name == "device_id":
                name, old, new = "device", existing.device.code, fields["device"].code
            out.append(f"{name}: {_show(old)} in the database, {_show(new)} in the file")
    return out


def _show(value) -> str:
    if value is None or value == "":
        return "blank"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


class _Reporter:
    """Calls `progress` with a line at every tenth of `total` (and at the end)."""

    def __init__(self, progress: Progress | None, total: int, verb: str):
        self.progress, self.total, self.verb = progress, total, verb
        self.step = max(1, -(-total // 10))
        self.next = self.step

    def __call__(self, done: int) -> None:
        if not self.progress or not self.total or done < min(self.next, self.total):
            return
        self.next = (done // self.step + 1) * self.step
        self.progress(f"{self.verb} {done}/{self.total} rows ({done * 100 // self.total}%)")
