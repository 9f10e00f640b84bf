"""Writing one agency's demo program (the plain data stories.py builds) with the ORM:
one loader per kind of record, called in the order the rows are written, which their ids
follow."""

from __future__ import annotations

import zlib
from datetime import date, timedelta
from decimal import Decimal
from typing import TYPE_CHECKING, overload

from fogkeeper.audit.services import audit_record
from fogkeeper.incidents.models import Incident
from fogkeeper.inspections.models import ChecklistAnswer, Inspection, Measurement, Sample
from fogkeeper.maintenance.models import Service, YellowGreasePickup
from fogkeeper.permits.models import Permit, PermitApplication
from fogkeeper.registry.models import (
    Agency,
    FoodServiceEstablishment,
    GreaseControlDevice,
    Hauler,
    Lateral,
    OperationChange,
    Operator,
    OperatorTenure,
    Parcel,
    PropertyOwner,
    SewerSegment,
    normalise_address,
)
from fogkeeper.submittals.models import ReportRequirement
from fogkeeper.training.models import Attendance, Employee, Training

from .written import section

if TYPE_CHECKING:
    from .builder import Program

# Each establishment's record in the program with the row written for it.
Pairs = list[tuple[dict, FoodServiceEstablishment]]
Devices = dict[tuple[str, str], GreaseControlDevice]


def load_program(program: Program, staff, seed: int) -> Agency:
    """One agency's program: every record of it, then the audit row; returns the agency."""
    agency = _load_agency(program)
    parcels = _load_parcels(agency, program)
    segments = _load_segments(agency, program)
    haulers = _load_haulers(agency, program)
    operators, fses = _load_establishments(agency, program, parcels)
    pairs = list(zip(program.establishments, fses, strict=True))
    _load_tenures(pairs, operators)
    _load_changes(pairs)
    _load_laterals(pairs, segments)
    _load_permits(agency, program.as_of, pairs)
    devices = _load_devices(pairs)
    services = _load_services(pairs, devices, haulers)
    _load_pickups(pairs, haulers)
    employees = _load_training(pairs)
    inspections = _load_inspections(pairs, devices, staff)
    incidents = _load_incidents(agency, program, pairs)
    samples = _load_samples(pairs, devices)
    _load_reports(pairs)
    counts = {
        "establishments": len(fses),
        "devices": len(devices),
        "services": len(services),
        "employees": len(employees),
        "inspections": len(inspections),
        "incidents": len(incidents),
        "samples": len(samples),
    }
    _audit_load(agency, program.as_of, seed, counts)
    return agency


@overload
def _dec(value: float) -> Decimal: ...
@overload
def _dec(value: None) -> None: ...
@overload
def _dec(value: float | None) -> Decimal | None: ...
def _dec(value: float | None) -> Decimal | None:
    """A program's float as the Decimal it reads as."""
    return None if value is None else Decimal(str(value))


def _load_agency(program: Program) -> Agency:
    """The agency, validated."""
    a = program.agency
    agency = Agency(code=a["code"], name=a["name"], pack=a["pack"], letterhead=a["letterhead"])
    agency.full_clean()
    agency.save()
    return agency


def _load_parcels(agency: Agency, program: Program) -> dict[str, Parcel]:
    """The property owners, then their parcels; returns the parcels by APN."""
    owners = {
        key: PropertyOwner(agency=agency, name=o["name"], mailing_address=o["mailing_address"])
        for key, o in program.owners.items()
    }
    PropertyOwner.objects.bulk_create(owners.values())
    parcels = {
        apn: Parcel(
            agency=agency,
            apn=apn,
            address=p["address"],
            owner=owners[p["owner"]],
            multi_tenant=p["multi_tenant"],
        )
        for apn, p in program.parcels.items()
    }
    Parcel.objects.bulk_create(parcels.values())
    return parcels


def _load_segments(agency: Agency, program: Program) -> dict[str, SewerSegment]:
    """The sewer segments, each a short east-west line on the map; returns them by code."""
    segments = {s["code"]: SewerSegment(agency=agency, **s) for s in program.segments}
    for segment in segments.values():
        lat, lon = _segment_at(program.pack_id, segment.code)
        segment.path = [[float(lat), float(lon - STEP * 15)], [float(lat), float(lon + STEP * 15)]]
    SewerSegment.objects.bulk_create(segments.values())
    return segments


def _load_haulers(agency: Agency, program: Program) -> dict[str, Hauler]:
    """The haulers; returns them by code."""
    haulers = {
        h["id"]: Hauler(
            agency=agency,
            code=h["id"],
            name=h["name"],
            licensed=h["licensed"],
            licence_number=h["licence_number"],
            licence_expires_on=h["licence_expires_on"],
        )
        for h in program.haulers
    }
    Hauler.objects.bulk_create(haulers.values())
    return haulers


def _load_establishments(
    agency: Agency, program: Program, parcels: dict[str, Parcel]
) -> tuple[dict[str, Operator], list[FoodServiceEstablishment]]:
    """The operators (current and previous), then the establishments, in program order."""
    operators: dict[str, Operator] = {}
    for rec in program.establishments:
        current = rec["establishment"]["operator"]["name"]
        for name in [current, *(prev["name"] for prev in rec["_previous_operators"])]:
            if name not in operators:
                operators[name] = Operator(agency=agency, name=name)
    place = section(program.pack_id, "place")
    town = {k: place.get(k, "") for k in ("city", "state", "zip_code")}
    fses = [
        _establishment(agency, program.pack_id, rec, parcels, town)
        for rec in program.establishments
    ]
    Operator.objects.bulk_create(operators.values())
    FoodServiceEstablishment.objects.bulk_create(fses)
    return operators, fses


def _establishment(
    agency: Agency, pack_id: str, rec: dict, parcels: dict[str, Parcel], town: dict[str, str]
) -> FoodServiceEstablishment:
    """One establishment's row, placed beside the segment it drains to, in the program's
    town (`place`: city, state and ZIP code)."""
    e = rec["establishment"]
    return FoodServiceEstablishment(
        agency=agency,
        code=e["id"],
        name=e["name"],
        address=rec["_address"],
        **town,
        normalised_address=normalise_address(rec["_address"]),
        parcel=parcels[rec["_parcel"]] if rec["_parcel"] else None,
        category=e["category"],
        on_public_sewer=e["on_public_sewer"],
        opened_on=e["opened_on"],
        closed_on=e["closed_on"],
        remodeled_on=e["remodeled_on"],
        food_grinder=e["food_grinder"],
        food_grinder_installed_on=e["food_grinder_installed_on"],
        variance_granted=e["variance_granted"],
        interceptor_exception=e["interceptor_exception"] or "",
        interceptor_plans_submitted_on=e["interceptor_plans_submitted_on"],
        **_fse_at(pack_id, rec["_segment"], e["id"]),
    )


def _load_tenures(pairs: Pairs, operators: dict[str, Operator]) -> None:
    """Each establishment's operator tenures: the previous operators', then the current one."""
    tenures = []
    for rec, fse in pairs:
        for prev in rec["_previous_operators"]:
            tenures.append(
                OperatorTenure(
                    establishment=fse,
                    operator=operators[prev["name"]],
                    since=prev["since"],
                    until=prev["until"],
                )
            )
        current = rec["establishment"]["operator"]
        tenures.append(
            OperatorTenure(
                establishment=fse, operator=operators[current["name"]], since=current["since"]
            )
        )
    OperatorTenure.objects.bulk_create(tenures)


def _load_changes(pairs: Pairs) -> None:
    """The establishments' changes of operation."""
    OperationChange.objects.bulk_create(
        [
            OperationChange(establishment=fse, **c)
            for rec, fse in pairs
            for c in rec["establishment"]["changes"]
        ]
    )


def _load_laterals(pairs: Pairs, segments: dict[str, SewerSegment]) -> None:
    """One lateral per establishment, to its segment."""
    Lateral.objects.bulk_create(
        [
            Lateral(
                establishment=fse,
                segment=segments[rec["_segment"]],
                description=f"6-inch lateral from {rec['_address']}",
            )
            for rec, fse in pairs
        ]
    )


def _load_permits(agency: Agency, as_of: date, pairs: Pairs) -> None:
    """The permits with the applications they answered, then the renewal applications not
    yet decided."""
    history = [h for rec, fse in pairs for h in _permit_history(agency, rec, fse, as_of)]
    PermitApplication.objects.bulk_create([application for application, _, _ in history])
    for _, permit, _ in history:
        permit.application_id = permit.application.pk
    Permit.objects.bulk_create([permit for _, permit, _ in history])
    PermitApplication.objects.bulk_create([renewal for _, _, renewal in history if renewal])


def _permit_history(agency: Agency, rec: dict, fse, as_of: date) -> list[tuple]:
    """One establishment's permits, oldest first, as (application, permit, renewal): renewal
    is the current permit's renewal application not yet decided, if any."""
    permits = [(p, "superseded") for p in rec["_old_permits"]]
    if rec["permit"]:
        permits.append((rec["permit"], "active"))
    history = []
    applied_on = None  # the renewal application of the permit before
    for p, status in permits:
        application = PermitApplication(
            establishment=fse,
            submitted_on=applied_on or p["issued_on"] - timedelta(days=30),
            applicant_name=p["holder"],
            applicant_address=rec["_address"],
            employee_count=len(rec["employees"]),
            decided_on=p["issued_on"],
            approved=True,
        )
        applied_on = p.get("renewal_applied_on")
        ended_on = p["expires_on"] if status == "superseded" else None
        if status == "active":
            status, ended_on = _permit_status(p, as_of)
        permit = _permit(agency, fse, p, status, ended_on, application)
        renewal = None
        if status == "active" and applied_on is not None:
            renewal = PermitApplication(
                establishment=fse,
                renewal_of=permit,
                submitted_on=applied_on,
                applicant_name=p["holder"],
                applicant_address=rec["_address"],
            )
        history.append((application, permit, renewal))
    return history


def _permit(agency: Agency, fse, p: dict, status: str, ended_on, application) -> Permit:
    """One permit's row."""
    return Permit(
        agency=agency,
        establishment=fse,
        number=p["number"],
        holder=p["holder"],
        issued_on=p["issued_on"],
        expires_on=p["expires_on"],
        renewal_applied_on=p.get("renewal_applied_on"),
        renewal_denied_on=p.get("renewal_denied_on"),
        suspended_from=p.get("suspended_from"),
        suspended_until=p.get("suspended_until"),
        revoked_on=p.get("revoked_on"),
        service_frequency_days=p.get("service_frequency_days"),
        yellow_grease_frequency_days=p.get("yellow_grease_frequency_days"),
        discharge_limits=p.get("discharge_limits") or {},
        conditions=p.get("_conditions", ""),
        status=status,
        ended_on=ended_on,
        application=application,
    )


def _permit_status(permit: dict, as_of: date) -> tuple[str, date | None]:
    """The current permit's status on `as_of` and the day it ended: revoked, suspended (while
    the suspension runs), else active."""
    revoked_on, start = permit.get("revoked_on"), permit.get("suspended_from")
    if revoked_on is not None and revoked_on <= as_of:
        return "revoked", revoked_on
    until = permit.get("suspended_until")
    if start is not None and start <= as_of and (until is None or until >= as_of):
        return "suspended", None
    return "active", None


def _load_devices(pairs: Pairs) -> Devices:
    """The grease control devices; returns them by (establishment code, device code)."""
    devices: Devices = {}
    for rec, fse in pairs:
        for d in rec["devices"]:
            devices[(rec["establishment"]["id"], d["id"])] = GreaseControlDevice(
                establishment=fse,
                code=d["id"],
                kind=d["kind"],
                installed_on=d["installed_on"],
                location="rear parking lot"
                if d["kind"] == "interceptor"
                else "under the 3-bay sink",
                capacity_gallons=_dec(d["capacity_gallons"]),
                design_depth_inches=_dec(d["design_depth_inches"]),
                compartments=d["compartments"],
                manhole_diameter_inches=_dec(d["manhole_diameter_inches"]),
                service_frequency_days=d["service_frequency_days"],
            )
    GreaseControlDevice.objects.bulk_create(devices.values())
    return devices


def _load_services(pairs: Pairs, devices: Devices, haulers: dict[str, Hauler]) -> list[Service]:
    """The devices' services (pump-outs, with their manifests and measured depths)."""
    services = []
    for rec, _ in pairs:
        code = rec["establishment"]["id"]
        for s in rec["services"]:
            services.append(
                Service(
                    device=devices[(code, s["device"])],
                    hauler=haulers[s["hauler"]] if s.get("hauler") else None,
                    manifest_number=s["id"],
                    date=s["date"],
                    full_pump_out=s.get("full_pump_out", True),
                    gallons_removed=_dec(s.get("gallons_removed")),
                    fog_inches=_dec(s.get("fog_inches")),
                    solids_inches=_dec(s.get("solids_inches")),
                    final_chamber_floating_oil=s.get("final_chamber_floating_oil"),
                    sludge_to_outlet_inches=_dec(s.get("sludge_to_outlet_inches")),
                    notes=s.get("notes", ""),
                )
            )
    Service.objects.bulk_create(services, batch_size=2000)
    return services


def _load_pickups(pairs: Pairs, haulers: dict[str, Hauler]) -> None:
    """The yellow grease (waste cooking oil) pickups."""
    YellowGreasePickup.objects.bulk_create(
        [
            YellowGreasePickup(
                establishment=fse,
                hauler=haulers[p["hauler"]],
                date=p["date"],
                gallons=_dec(p["gallons"]),
                manifest_number=f"YG-{p['date']:%y%m%d}-{fse.pk}",
            )
            for rec, fse in pairs
            for p in rec["yellow_grease_pickups"]
        ]
    )


def _load_training(pairs: Pairs) -> dict[tuple[str, str], Employee]:
    """The employees, the BMP trainings, then who attended each; returns the employees."""
    employees, trainings, attendance = {}, [], []
    for rec, fse in pairs:
        code = rec["establishment"]["id"]
        for emp in rec["employees"]:
            employees[(code, emp["id"])] = Employee(
                establishment=fse,
                code=emp["id"],
                name=emp["name"],
                hired_on=emp["hired_on"],
                left_on=emp["left_on"],
                kitchen_duties=emp["kitchen_duties"],
                contractor=emp["contractor"],
            )
        for t in rec["trainings"]:
            training = Training(
                establishment=fse, code=t["id"], date=t["date"], trainer=t["_trainer"]
            )
            trainings.append(training)
            for att in t["attendees"]:
                attendance.append((training, (code, att["employee"]), att["signed"]))
    Employee.objects.bulk_create(employees.values())
    Training.objects.bulk_create(trainings)
    Attendance.objects.bulk_create(
        [
            Attendance(training=t, employee=employees[key], signed=signed)
            for t, key, signed in attendance
        ],
        batch_size=2000,
    )
    return employees


def _load_inspections(pairs: Pairs, devices: Devices, staff) -> list[Inspection]:
    """The inspections, then the depths measured and the checklist answered at each."""
    inspections, measurements, answers = [], [], []
    for rec, fse in pairs:
        code = rec["establishment"]["id"]
        for i in rec["inspections"]:
            insp = Inspection(establishment=fse, code=i["id"], date=i["date"], inspector=staff)
            inspections.append(insp)
            measurements += [
                _measurement(insp, devices[(code, m["device"])], m) for m in i["measurements"]
            ]
            answers += [_answer(insp, devices, code, ans) for ans in i["answers"]]
    Inspection.objects.bulk_create(inspections)
    for m in measurements:
        m.inspection_id = m.inspection.pk
    Measurement.objects.bulk_create(measurements)
    for ans in answers:
        ans.inspection_id = ans.inspection.pk
    ChecklistAnswer.objects.bulk_create(answers, batch_size=2000)
    return inspections


def _measurement(insp: Inspection, device: GreaseControlDevice, m: dict) -> Measurement:
    """One device's depths measured at an inspection."""
    return Measurement(
        inspection=insp,
        device=device,
        fog_inches=_dec(m.get("fog_inches")),
        solids_inches=_dec(m.get("solids_inches")),
        final_chamber_floating_oil=m.get("final_chamber_floating_oil"),
        sludge_to_outlet_inches=_dec(m.get("sludge_to_outlet_inches")),
    )


def _answer(insp: Inspection, devices: Devices, code: str, ans: dict) -> ChecklistAnswer:
    """One checklist item answered at an inspection (for a device, if it names one)."""
    return ChecklistAnswer(
        inspection=insp,
        item=ans["item"],
        device=devices[(code, ans["device"])] if ans.get("device") else None,
        compliant=ans["compliant"],
        note=ans.get("note") or "",
    )


def _load_incidents(agency: Agency, program: Program, pairs: Pairs) -> list[Incident]:
    """The sewer incidents: the establishments', then those matched to none; each placed."""
    incidents = [
        _incident(agency, fse, inc, rec["_address"])
        for rec, fse in pairs
        for inc in rec["incidents"]
    ]
    incidents += [
        _incident(agency, None, inc, inc["_address"]) for inc in program.unmatched_incidents
    ]
    for incident in incidents:
        _place_incident(program.pack_id, incident)
    Incident.objects.bulk_create(incidents)
    return incidents


def _incident(agency: Agency, fse, inc: dict, address: str) -> Incident:
    """One incident's row (not yet placed on the map)."""
    return Incident(
        agency=agency,
        establishment=fse,
        code=inc["id"],
        date=inc["date"],
        kind=inc["kind"],
        attributed=inc["attributed"],
        fog_caused=inc.get("fog_caused", False),
        gallons=_dec(inc.get("gallons")),
        address=address,
        normalised_address=normalise_address(address),
        cause=inc.get("cause", ""),
        written_report_on=inc.get("written_report_on"),
        clearance_inspection_on=inc.get("clearance_inspection_on"),
    )


def _load_samples(pairs: Pairs, devices: Devices) -> list[Sample]:
    """The samples taken at establishments (at a device's outlet, if it names one)."""
    samples = [
        Sample(
            establishment=fse,
            device=devices[(rec["establishment"]["id"], s["device"])] if s.get("device") else None,
            code=s["id"],
            date=s["date"],
            parameter=s["parameter"],
            value=_dec(s["value"]),
            unit=s["unit"],
            method=s.get("method") or "",
        )
        for rec, fse in pairs
        for s in rec.get("samples", ())
    ]
    Sample.objects.bulk_create(samples)
    return samples


def _load_reports(pairs: Pairs) -> None:
    """The reports the manager required, each due once (none submitted yet)."""
    ReportRequirement.objects.bulk_create(
        ReportRequirement(
            establishment=fse,
            kind=r["kind"],
            required_on=r["_required_on"],
            first_due_on=r["due_on"],
        )
        for rec, fse in pairs
        for r in rec.get("reports", ())
    )


def _audit_load(agency: Agency, as_of: date, seed: int, counts: dict[str, int]) -> None:
    """The audit row saying the demo program was loaded, with what it holds."""
    audit_record(
        action="demo.load",
        obj=agency,
        agency=agency,
        after={"as_of": as_of.isoformat(), "seed": seed, **counts},
        reason="The demo program, loaded for trying fogkeeper out",
    )


# Where the demo puts things on the map: made-up but fixed places near each city's centre
# (its written program's `place`), derived from the codes (not from the random generator, so
# the records stay as they were). A program without a centre is put near this one.
DEFAULT_CENTRE = (Decimal("33.4270"), Decimal("-117.6120"))
STEP = Decimal("0.0001")  # about 11 m


def _centre(pack_id: str) -> tuple[Decimal, Decimal]:
    centre = section(pack_id, "place").get("centre")
    return (Decimal(centre[0]), Decimal(centre[1])) if centre else DEFAULT_CENTRE


def _offsets(key: str, spread: int) -> tuple[int, int]:
    """Two steps north and east, each within +-spread, fixed by the key."""
    h = zlib.crc32(key.encode())
    return (h % (2 * spread + 1)) - spread, ((h >> 16) % (2 * spread + 1)) - spread


def _segment_at(pack_id: str, code: str) -> tuple[Decimal, Decimal]:
    """Where a segment's middle is, near the centre of its city."""
    lat, lon = _centre(pack_id)
    dy, dx = _offsets(f"{pack_id}/{code}", 120)
    return lat + dy * STEP, lon + dx * STEP


def _fse_at(pack_id: str, segment: str, code: str) -> dict:
    """Beside the segment it drains to, off the street."""
    lat, lon = _segment_at(pack_id, segment)
    dy, dx = _offsets(code, 14)
    side = 3 if dy >= 0 else -3
    return {"latitude": lat + (side + dy // 5) * STEP, "longitude": lon + dx * STEP}


def _place_incident(pack_id: str, incident: Incident) -> None:
    """At its establishment when matched, else somewhere near the centre."""
    dy, dx = _offsets(incident.code, 2)
    if incident.establishment is not None:
        lat, lon = incident.establishment.latitude, incident.establishment.longitude
    else:
        lat, lon = _centre(pack_id)
        dy, dx = _offsets(incident.code, 100)
    incident.latitude, incident.longitude = lat + dy * STEP, lon + dx * STEP  # type: ignore[operator]  # placed
