"""Records for database tests: one function per model, with sensible defaults.

agency = make_agency("san-clemente")
fse = make_establishment(agency, code="FSE-1")
gi = make_device(fse, code="GI-1")
"""

from __future__ import annotations

from datetime import date
from typing import Any

from fogkeeper.incidents.models import Incident
from fogkeeper.inspections.models import ChecklistAnswer, Inspection, Measurement
from fogkeeper.maintenance.models import Service, YellowGreasePickup
from fogkeeper.permits.models import Permit
from fogkeeper.registry.models import (
    Agency,
    FoodServiceEstablishment,
    GreaseControlDevice,
    Hauler,
    Operator,
    OperatorTenure,
)
from fogkeeper.training.models import Attendance, Employee, Training


def d(text: str | date) -> date:
    return text if isinstance(text, date) else date.fromisoformat(text)


def make_agency(pack: str = "san-clemente", code: str | None = None, **kw: Any) -> Agency:
    code = code or pack
    defaults = {"name": {"san-clemente": "City of San Clemente"}.get(pack, f"Agency {code}")}
    return Agency.objects.create(code=code, pack=pack, **{**defaults, **kw})


def make_establishment(
    agency: Agency,
    code: str = "FSE-1",
    operator: str = "Pier Foods LLC",
    operator_since: str = "2005-01-01",
    **kw: Any,
) -> FoodServiceEstablishment:
    fields = {
        "name": "Pier Taqueria",
        "address": "101 Avenida Del Mar",
        "opened_on": d("2005-01-01"),
    }
    fields.update(
        {k: d(v) if k.endswith("_on") and isinstance(v, str) else v for k, v in kw.items()}
    )
    fse = FoodServiceEstablishment.objects.create(agency=agency, code=code, **fields)
    op = Operator.objects.create(agency=agency, name=operator)
    OperatorTenure.objects.create(establishment=fse, operator=op, since=d(operator_since))
    return fse


def make_permit(fse: FoodServiceEstablishment, number: str = "SC-1", **kw: Any) -> Permit:
    holder = fse.current_tenure().operator.name
    fields = {"holder": holder, "issued_on": "2024-01-01", "expires_on": "2028-12-31"}
    fields.update(kw)
    fields = {k: d(v) if k.endswith("_on") and isinstance(v, str) else v for k, v in fields.items()}
    return Permit.objects.create(agency=fse.agency, establishment=fse, number=number, **fields)


def make_device(fse, code: str = "GI-1", kind: str = "interceptor", **kw: Any):
    fields = {"installed_on": d(kw.pop("installed_on", "2005-01-01"))}
    fields.update(kw)
    return GreaseControlDevice.objects.create(establishment=fse, code=code, kind=kind, **fields)


def make_hauler(agency, code: str = "H-1", **kw: Any) -> Hauler:
    return Hauler.objects.create(
        agency=agency, code=code, name=kw.pop("name", f"Hauler {code}"), **kw
    )


def make_service(device, manifest: str, date_: str, hauler=None, **kw: Any) -> Service:
    return Service.objects.create(
        device=device, hauler=hauler, manifest_number=manifest, date=d(date_), **kw
    )


def make_pickup(fse, date_: str, **kw: Any) -> YellowGreasePickup:
    return YellowGreasePickup.objects.create(establishment=fse, date=d(date_), **kw)


def make_employee(fse, code: str = "E-1", hired_on: str = "2024-01-01", **kw: Any) -> Employee:
    if isinstance(kw.get("left_on"), str):
        kw["left_on"] = d(kw["left_on"])
    return Employee.objects.create(
        establishment=fse,
        code=code,
        name=kw.pop("name", f"Employee {code}"),
        hired_on=d(hired_on),
        **kw,
    )


def make_training(fse, code: str, date_: str, attendees: list, signed: bool = True) -> Training:
    t = Training.objects.create(establishment=fse, code=code, date=d(date_))
    for e in attendees:
        Attendance.objects.create(training=t, employee=e, signed=signed)
    return t


def make_inspection(fse, code: str, date_: str, answers=(), measurements=()) -> Inspection:
    """answers: (item, compliant[, device]); measurements: (device, {field: value})."""
    insp = Inspection.objects.create(establishment=fse, code=code, date=d(date_))
    for item, compliant, *device in answers:
        ChecklistAnswer.objects.create(
            inspection=insp, item=item, compliant=compliant, device=device[0] if device else None
        )
    for device, values in measurements:
        Measurement.objects.create(inspection=insp, device=device, **values)
    return insp


def make_incident(fse, code: str, date_: str, **kw: Any) -> Incident:
    for k in ("written_report_on", "clearance_inspection_on"):
        if isinstance(kw.get(k), str):
            kw[k] = d(kw[k])
    return Incident.objects.create(
        agency=fse.agency, establishment=fse, code=code, date=d(date_), **kw
    )
