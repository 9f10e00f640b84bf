"""The kinds of record that say what happened at an establishment, each read by the rules:
approved exceptions to the design limits, changes of operation, permits, pump-outs (the
manifests), waste cooking oil pickups, employees, trainings and who attended them,
inspections with their measurements and checklist answers, samples, incidents.

Each is found again by the agency's own identifiers (its key): a record's code at its
establishment where it has one; a pump-out by its establishment, device, hauler and
manifest number (a manifest is the hauler's, one per device pumped out: the database's own
uniqueness); a pickup by its establishment, day, hauler and receipt; an attendance by its
training and employee."""

from __future__ import annotations

from decimal import Decimal
from types import SimpleNamespace
from typing import Any

from fogkeeper.permits.models import PERMIT_STATUSES, discharge_limit_problems
from fogkeeper.registry.models import CHANGE_KINDS, DESIGN_FIELDS, normalise_address
from fogkeeper.registry.services import check_within_depth
from fogkeeper.rules.errors import ParameterNotInForce

from .kinds import (
    Column,
    Kind,
    any_day,
    day,
    days,
    device_column,
    establishment_column,
    number,
    one_of,
    text,
    yes_no,
)
from .rows import Row

INCHES = "9999.99"


def _fields(row: Row, names: tuple[str, ...], **more) -> dict:
    return {k: row.values[k] for k in names if k in row.values} | more


def _code(meaning: str, example: str) -> Column:
    return Column("code", True, meaning, text(40), example)


def _exception(row: Row) -> dict | None:
    device = row.device()
    v = row.values
    pack, approved = row.context.pack, v.get("approved_on")
    if approved is not None and not _exceptions_allowed(pack, approved):
        row.problem("field", f"{pack.name} allows no exceptions to its design limits")
    if device is None or row.problems:
        return None
    return _fields(row, ("field", "approved_on", "approved_by", "reference"), device_id=device.pk)


def _exceptions_allowed(pack, on) -> bool:
    try:
        return bool(pack.params_on(max(on, pack.effective)).get("gcd.exceptions_allowed", False))
    except ParameterNotInForce:
        return False


APPROVED_EXCEPTIONS = Kind(
    "approved_exceptions",
    "Approved exceptions to the design limits",
    ("establishment_code", "device_code", "field"),
    (
        establishment_column("device__establishment__code"),
        device_column(True, path="device__code"),
        Column(
            "field",
            True,
            "the design field approved below the limit: " + ", ".join(n for n, _ in DESIGN_FIELDS),
            one_of(DESIGN_FIELDS, "a design field"),
        ),
        Column("approved_on", True, "the day the agency approved it", day),
        Column("approved_by", False, "who approved it", text(200)),
        Column("reference", False, "the approval's number", text(80)),
    ),
    model="registry.ApprovedException",
    agency="device__establishment__agency",
    build=_exception,
)


def _change(row: Row) -> dict | None:
    fse = row.establishment()
    if fse is None:
        return None
    row.not_before("date", fse.opened_on, "the opening")
    if row.problems:
        return None
    return _fields(row, ("date", "kind", "notified_on", "description"), establishment_id=fse.pk)


OPERATION_CHANGES = Kind(
    "operation_changes",
    "Changes of operation (remodels, expansions)",
    ("establishment_code", "date", "kind"),
    (
        establishment_column(),
        Column("date", True, "the day of the change, done or planned", any_day, "2026-09-01"),
        Column("kind", True, "remodel, expansion or process", one_of(CHANGE_KINDS, "a change")),
        Column("notified_on", False, "the day the agency was told of it", day),
        Column("description", False, "what changes", text(2000)),
    ),
    model="registry.OperationChange",
    agency="establishment__agency",
    build=_change,
)


def _limits(value: str, context) -> tuple:
    """Discharge limits as `parameter: max unit; ...` (oil_and_grease: 100 mg/L)."""
    limits = {}
    for part in filter(None, (p.strip() for p in value.split(";"))):
        name, _, rest = part.partition(":")
        figure, _, unit = rest.strip().partition(" ")
        try:
            top = Decimal(figure)
        except ArithmeticError:
            return None, f"not a limit: {part!r} (write parameter: max unit; ...)"
        limits[name.strip()] = {
            "max": int(top) if top == top.to_integral() else float(top),
            "unit": unit.strip(),
        }
    problems = discharge_limit_problems(limits)
    return (None, " ".join(problems)) if problems else (limits, "")


_PERMIT_FIELDS = (
    "holder",
    "issued_on",
    "expires_on",
    "renewal_applied_on",
    "renewal_denied_on",
    "suspended_from",
    "suspended_until",
    "revoked_on",
    "service_frequency_days",
    "yellow_grease_frequency_days",
    "discharge_limits",
    "conditions",
    "status",
    "ended_on",
)


def _permit(row: Row) -> dict | None:
    fse, v = row.establishment(), row.values
    row.not_before("expires_on", v.get("issued_on"), "the issue")
    row.not_before("suspended_until", v.get("suspended_from"), "the suspension")
    if "suspended_until" in v and "suspended_from" not in v:
        row.problem("suspended_from", "a suspension until a day starts on a day")
    if fse is None or row.problems:
        return None
    return _fields(row, _PERMIT_FIELDS, establishment_id=fse.pk)


PERMITS = Kind(
    "permits",
    "Permits",
    ("number",),
    (
        establishment_column(),
        Column("number", True, "the permit's number, unique in the agency", text(40), "P-1"),
        Column("holder", True, "the operator it was issued to", text(200), "Harbor Foods LLC"),
        Column("issued_on", True, "the day it was issued", day, "2024-07-01"),
        Column("expires_on", True, "the day it expires", any_day, "2026-06-30"),
        Column("renewal_applied_on", False, "when its renewal was applied for", day),
        Column("renewal_denied_on", False, "when a timely renewal was denied", day),
        Column("suspended_from", False, "first day of a suspension", day),
        Column(
            "suspended_until",
            False,
            "last day of the suspension; blank: until further order",
            any_day,
        ),
        Column("revoked_on", False, "the day it was revoked", day),
        Column("service_frequency_days", False, "days between pump-outs it sets", days),
        Column(
            "yellow_grease_frequency_days", False, "days between waste oil pickups it sets", days
        ),
        Column(
            "discharge_limits",
            False,
            "limits over the ordinance's, as parameter: max unit; ... (oil_and_grease: 100 mg/L)",
            _limits,
        ),
        Column("conditions", False, "its conditions", text(5000)),
        Column(
            "status",
            False,
            "active, ended, suspended, revoked or superseded; blank: active",
            one_of(PERMIT_STATUSES, "a permit status"),
        ),
        Column("ended_on", False, "the day it ended (a new operator, a renewal)", day),
    ),
    model="permits.Permit",
    agency="agency",
    build=_permit,
)


def _pumpout(row: Row) -> dict | None:
    """A pump-out, checked as the manifest import checks one (maintenance/manifests.py)."""
    hauler, device = row.hauler(), row.device()
    row.establishment()
    v = row.values
    served = v.get("service_date")
    if device is not None and served is not None:
        row.not_before("service_date", device.installed_on, "the device was installed")
        if device.removed_on is not None and served > device.removed_on:
            row.problem(
                "service_date", f"{served} is after the device was removed ({device.removed_on})"
            )
    check_readings_fit(row, device)
    if hauler is None or device is None or row.problems:
        return None
    _one_visit(row, hauler, device, served)
    if row.problems:
        return None
    return _fields(row, _SERVICE_FIELDS, device_id=device.pk, hauler_id=hauler, date=served)


def _one_visit(row: Row, hauler: int, device, served) -> None:
    """A hauler's manifest is used once, except that one manifest may cover several devices
    of an establishment pumped out on one day (maintenance.services.service_record)."""
    manifest = row.values["manifest_number"]
    visit = (device.establishment, served)
    first = row.lookups.visits.setdefault((hauler, manifest), (row.number, visit))
    if first[1] != visit:
        row.problem(
            "manifest_number",
            f"manifest {manifest!r} of hauler "
            f"{row.values['hauler_code']!r} is also in row {first[0]}, of another "
            "visit: one manifest covers one visit",
        )
        return
    for other_device, other_visit in row.lookups.stored_manifests.get((hauler, manifest), ()):
        if other_visit != visit and other_device != device.pk:
            row.problem(
                "manifest_number",
                f"manifest {manifest!r} of hauler "
                f"{row.values['hauler_code']!r} is already recorded for another "
                f"visit ({other_visit[1]})",
            )
            return


_SERVICE_FIELDS = (
    "manifest_number",
    "full_pump_out",
    "gallons_removed",
    "fog_inches",
    "solids_inches",
    "final_chamber_floating_oil",
    "sludge_to_outlet_inches",
    "notes",
)


def check_readings_fit(row: Row, device) -> None:
    """FOG and solids together fill at most the device's design depth, as the services refuse
    it (registry.services.check_within_depth), named on the solids' column."""
    if device is None or device.depth is None:
        return
    named = SimpleNamespace(code=row.values.get("device_code"), design_depth_inches=device.depth)
    errors: dict[str, list[str]] = {}
    v = row.values
    check_within_depth(errors, "solids_inches", named, v.get("fog_inches"), v.get("solids_inches"))
    for message in errors.get("solids_inches", []):
        row.problem("solids_inches", message)


def readings() -> tuple[Column, ...]:
    return (
        Column("fog_inches", False, "inches of FOG measured", number(2, INCHES)),
        Column("solids_inches", False, "inches of solids measured", number(2, INCHES)),
        Column(
            "final_chamber_floating_oil",
            False,
            "yes or no: oil floating in the last chamber",
            yes_no(None),
        ),
        Column(
            "sludge_to_outlet_inches",
            False,
            "inches from the sludge to the outlet",
            number(2, INCHES),
        ),
    )


PUMPOUTS = Kind(
    "pumpouts",
    "Pump-outs (the haulers' manifests)",
    ("establishment_code", "device_code", "hauler_code", "manifest_number"),
    (
        establishment_column("device__establishment__code"),
        device_column(True, path="device__code"),
        Column(
            "hauler_code", True, "the hauler's id (its code)", text(40), "H-1", path="hauler__code"
        ),
        Column(
            "manifest_number",
            True,
            "the hauler's manifest number; with the establishment, "
            "device and hauler it identifies the pump-out",
            text(60),
            "M-1001",
        ),
        Column("service_date", True, "the day of the pump-out", day, "2025-05-01", path="date"),
        Column("full_pump_out", False, "yes or no; blank: yes", yes_no(True)),
        Column("gallons_removed", False, "gallons", number(1, "99999999.9")),
        *readings(),
        Column("notes", False, "notes", text(5000)),
    ),
    model="maintenance.Service",
    agency="device__establishment__agency",
    build=_pumpout,
    fixed={"source": "import"},
)


def _pickup(row: Row) -> dict | None:
    fse = row.establishment()
    hauler = row.hauler()
    if fse is None or row.problems:
        return None
    return _fields(
        row, ("date", "gallons", "manifest_number"), establishment_id=fse.pk, hauler_id=hauler
    )


PICKUPS = Kind(
    "pickups",
    "Waste cooking oil (yellow grease) pickups",
    ("establishment_code", "date", "hauler_code", "manifest_number"),
    (
        establishment_column(),
        Column("date", True, "the day of the pickup", day, "2025-05-01"),
        Column(
            "hauler_code",
            False,
            "the hauler's or renderer's id (its code)",
            text(40),
            path="hauler__code",
        ),
        Column("gallons", False, "gallons collected", number(1, "99999999.9")),
        Column("manifest_number", False, "its receipt or manifest number", text(60)),
    ),
    model="maintenance.YellowGreasePickup",
    agency="establishment__agency",
    build=_pickup,
)


def _incident(row: Row) -> dict | None:
    fse = row.establishment()
    v = row.values
    for column in ("written_report_on", "clearance_inspection_on"):
        row.not_before(column, v.get("date"), "the incident")
    if row.problems:
        return None
    more: dict[str, Any] = {"establishment_id": fse.pk if fse else None}
    if "address" in v:
        more["normalised_address"] = normalise_address(v["address"])
    return _fields(row, _INCIDENT_FIELDS, **more)


_INCIDENT_FIELDS = (
    "date",
    "kind",
    "attributed",
    "fog_caused",
    "gallons",
    "address",
    "written_report_on",
    "clearance_inspection_on",
)

INCIDENTS = Kind(
    "incidents",
    "Sewer overflows, spills and blockages",
    ("code",),
    (
        Column(
            "code",
            True,
            "the agency's id of the incident, unique in the agency",
            text(60),
            "SSO-2025-001",
        ),
        establishment_column(required=False),
        Column("date", True, "the day it happened", day, "2025-05-01"),
        Column("kind", False, "overflow, spill, blockage...; blank: overflow", text(40)),
        Column(
            "attributed", False, "yes or no: the establishment caused or contributed", yes_no(False)
        ),
        Column("fog_caused", False, "yes or no: caused by FOG", yes_no(False)),
        Column("gallons", False, "gallons spilled", number(1, "99999999999.9")),
        Column("address", False, "where", text(200)),
        Column("written_report_on", False, "when the establishment's written report came", day),
        Column("clearance_inspection_on", False, "the day of the clearance inspection", day),
    ),
    model="incidents.Incident",
    agency="agency",
    build=_incident,
)
