"""Case files (CASEFILE.md) built from the database, a batch of establishments at a time.

`build_case_files` runs the same queries whatever the size of the batch (seventeen for the
records, two for the enforcement actions and their facts, and the billing app's for invoices;
one or two more when a record refers by mistake to another establishment's device or
employee): one loader per kind of record reads plain rows (`values_list`, no model instances)
for every establishment of the batch at once, and deals them out to the establishments in
Python. The result is JSON-ready: dates
are `YYYY-MM-DD` strings, decimals are floats (cast in SQL), and optional fields that are
null are left out, so `json.dumps(case)` is a file `fogkeeper evaluate` reads.

What the database keeps over time is read as of the sweep's date:

- the operator is the one whose tenure began last on or before `as_of`;
- the permit is the one issued last on or before `as_of`, whatever its status (a permit
  that ended with its holder is how the engine learns of a new operator);
- a device removed on or before `as_of` is left out, with its pump-outs, its readings and
  the checklist answers about it;
- a pump-out under a dispute open on `as_of` is left out: staff doubt it happened as told.

Everything else is listed whatever its date: the engine ignores what has not happened yet
on `as_of`, and a planned change of operation must be seen before its date.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.db.models import Exists, FloatField, OuterRef, Q
from django.db.models.expressions import BaseExpression
from django.db.models.functions import Cast

from fogkeeper.enforcement.selectors import enforcement_entries
from fogkeeper.incidents.models import Incident
from fogkeeper.inspections.models import ChecklistAnswer, Inspection, Measurement, Sample
from fogkeeper.maintenance.models import Service, ServiceDispute, YellowGreasePickup
from fogkeeper.permits.models import Permit
from fogkeeper.registry.models import (
    Agency,
    ApprovedException,
    FoodServiceEstablishment,
    GreaseControlDevice,
    Hauler,
    OperationChange,
    OperatorTenure,
)
from fogkeeper.training.models import Attendance, Employee, Training


class _Float(Cast):
    """A decimal column read as a float by the database itself: PostgreSQL and SQLite both
    hand back Python floats, so Django's per-value converter is not needed."""

    def __init__(self, column: str):
        super().__init__(column, FloatField())

    @property
    def convert_value(self):
        return BaseExpression._convert_value_noop


def _day(value: date | None) -> str | None:
    return None if value is None else value.isoformat()


def _put(item: dict, key: str, value: Any) -> None:
    if value is not None:
        item[key] = value


def _reading(item: dict, fog, solids, oil, sludge) -> dict:
    if fog is not None:
        item["fog_inches"] = fog
    if solids is not None:
        item["solids_inches"] = solids
    if oil is not None:
        item["final_chamber_floating_oil"] = oil
    if sludge is not None:
        item["sludge_to_outlet_inches"] = sludge
    return item


def _codes_of_others(model, codes: dict[int, str], pks: set[int]) -> None:
    """Adds to `codes` those of `pks` that are not there: records of another establishment,
    referred to by mistake. A query only when there are any; the case file will then name
    them as unknown."""
    missing = [pk for pk in pks if pk not in codes]
    if missing:
        codes.update(model.objects.filter(pk__in=missing).values_list("pk", "code"))


def build_case_file(establishment: FoodServiceEstablishment, as_of: date) -> dict:
    """The case file of one establishment on `as_of`."""
    return build_case_files(establishment.agency, [establishment.pk], as_of)[establishment.pk]


@dataclass
class _Batch:
    """The establishments of one batch, and the codes the loaders share."""

    agency: Agency
    ids: list[int]
    as_of: date
    device_codes: dict[int, str] = field(default_factory=dict)
    removed: set[int] = field(default_factory=set)  # devices removed on or before as_of
    employee_codes: dict[int, str] = field(default_factory=dict)
    hauler_ids: dict[int, set] = field(default_factory=lambda: defaultdict(set))

    @property
    def of_batch(self) -> dict:
        return {"establishment_id__in": self.ids}


def build_case_files(
    agency: Agency, establishment_ids: Iterable[int], as_of: date
) -> dict[int, dict]:
    """The case files on `as_of` of the agency's establishments among `establishment_ids`,
    keyed by establishment pk, in a fixed number of queries however many there are."""
    establishments = _establishments(agency, sorted(set(establishment_ids)))
    if not establishments:
        return {}
    batch = _Batch(agency, list(establishments), as_of)
    _operators(batch, establishments)
    _changes(batch, establishments)
    records = {
        "permit": _permits(batch),
        "devices": _devices(batch),
        "services": _services(batch),
        "yellow_grease_pickups": _pickups(batch),
    }
    haulers = _haulers(batch, records["services"], records["yellow_grease_pickups"])
    records |= {
        "employees": _employees(batch),
        "trainings": _trainings(batch),
        "inspections": _inspections(batch),
        "incidents": _incidents(batch),
        "samples": _samples(batch),
        "enforcement": enforcement_actions(agency, batch.ids, as_of),
    }
    cases: dict[int, dict] = {}
    for est_id, est in establishments.items():
        case = {"jurisdiction": agency.pack, "as_of": as_of.isoformat(), "establishment": est}
        _put(case, "permit", records["permit"].get(est_id))
        case["devices"] = records["devices"].get(est_id, [])
        case["haulers"] = sorted(
            (haulers[pk] for pk in batch.hauler_ids.get(est_id, ())), key=lambda h: h["id"]
        )
        for name in _LISTS:
            case[name] = records[name].get(est_id, [])
        if est_id in records["samples"]:
            case["samples"] = records["samples"][est_id]
        case["enforcement"] = records["enforcement"].get(est_id, [])
        cases[est_id] = case
    return cases


_LISTS = ("services", "yellow_grease_pickups", "employees", "trainings", "inspections", "incidents")


def _establishments(agency: Agency, ids: list[int]) -> dict[int, dict]:
    default_category = agency.get_pack().default_category
    establishments: dict[int, dict] = {}
    for (
        pk,
        code,
        name,
        category,
        on_public_sewer,
        opened_on,
        closed_on,
        remodeled_on,
        food_grinder,
        food_grinder_installed_on,
        variance_granted,
        interceptor_exception,
        interceptor_plans_submitted_on,
    ) in (
        FoodServiceEstablishment.objects.filter(agency=agency, pk__in=ids)
        .order_by("pk")
        .values_list(
            "pk",
            "code",
            "name",
            "category",
            "on_public_sewer",
            "opened_on",
            "closed_on",
            "remodeled_on",
            "food_grinder",
            "food_grinder_installed_on",
            "variance_granted",
            "interceptor_exception",
            "interceptor_plans_submitted_on",
        )
    ):
        est = {
            "id": code,
            "name": name,
            "category": category or default_category,
            "on_public_sewer": on_public_sewer,
            "opened_on": opened_on.isoformat(),
        }
        _put(est, "closed_on", _day(closed_on))
        est["operator"] = None  # keeps the field order of CASEFILE.md; filled below
        _put(est, "remodeled_on", _day(remodeled_on))
        est["food_grinder"] = food_grinder
        _put(est, "food_grinder_installed_on", _day(food_grinder_installed_on))
        est["variance_granted"] = variance_granted
        if interceptor_exception:
            est["interceptor_exception"] = interceptor_exception
        _put(est, "interceptor_plans_submitted_on", _day(interceptor_plans_submitted_on))
        est["changes"] = []
        establishments[pk] = est
    return establishments


def _operators(batch: _Batch, establishments: dict[int, dict]) -> None:
    """The operator on as_of: the tenure begun last by then (the first one if none had)."""
    operators: dict[int, dict] = {}
    for est_id, name, since in (
        OperatorTenure.objects.filter(**batch.of_batch)
        .order_by("establishment_id", "since", "pk")
        .values_list("establishment_id", "operator__name", "since")
    ):
        if est_id not in operators or since <= batch.as_of:
            operators[est_id] = {"name": name, "since": since.isoformat()}
    for est_id, est in establishments.items():
        operator = operators.get(est_id)
        if operator is None:
            del est["operator"]  # a required field: the case file will say so
        else:
            est["operator"] = operator


def _changes(batch: _Batch, establishments: dict[int, dict]) -> None:
    for est_id, day, kind, notified_on in (
        OperationChange.objects.filter(**batch.of_batch)
        .order_by("date", "kind", "pk")
        .values_list("establishment_id", "date", "kind", "notified_on")
    ):
        change = {"date": day.isoformat(), "kind": kind}
        _put(change, "notified_on", _day(notified_on))
        establishments[est_id]["changes"].append(change)


_PERMIT_DATES = ("renewal_applied_on", "renewal_denied_on", "suspended_from", "suspended_until",
                 "revoked_on")  # fmt: skip


def _permits(batch: _Batch) -> dict[int, dict]:
    permits: dict[int, dict] = {}
    for est_id, number, holder, issued_on, expires_on, *dates, service, oil, limits in (
        Permit.objects.filter(issued_on__lte=batch.as_of, **batch.of_batch)
        .order_by("establishment_id", "issued_on", "pk")
        .values_list(
            "establishment_id",
            "number",
            "holder",
            "issued_on",
            "expires_on",
            *_PERMIT_DATES,
            "service_frequency_days",
            "yellow_grease_frequency_days",
            "discharge_limits",
        )
    ):
        permit = {
            "number": number,
            "holder": holder,
            "issued_on": issued_on.isoformat(),
            "expires_on": expires_on.isoformat(),
        }
        for name, value in zip(_PERMIT_DATES, dates, strict=True):
            _put(permit, name, _day(value))
        _put(permit, "service_frequency_days", service)
        _put(permit, "yellow_grease_frequency_days", oil)
        if limits:
            permit["discharge_limits"] = limits
        permits[est_id] = permit  # the last issued wins
    return permits


def _devices(batch: _Batch) -> dict[int, list]:
    devices: dict[int, list] = defaultdict(list)
    by_pk: dict[int, dict] = {}
    for (
        pk,
        est_id,
        code,
        kind,
        installed_on,
        removed_on,
        capacity,
        depth,
        compartments,
        manhole,
        frequency,
    ) in (
        GreaseControlDevice.objects.filter(**batch.of_batch)
        .order_by("code", "pk")
        .values_list(
            "pk",
            "establishment_id",
            "code",
            "kind",
            "installed_on",
            "removed_on",
            _Float("capacity_gallons"),
            _Float("design_depth_inches"),
            "compartments",
            _Float("manhole_diameter_inches"),
            "service_frequency_days",
        )
    ):
        if removed_on is not None and removed_on <= batch.as_of:
            batch.removed.add(pk)
            continue
        batch.device_codes[pk] = code
        device = {"id": code, "kind": kind, "installed_on": installed_on.isoformat()}
        _put(device, "capacity_gallons", capacity)
        _put(device, "design_depth_inches", depth)
        _put(device, "compartments", compartments)
        _put(device, "manhole_diameter_inches", manhole)
        _put(device, "service_frequency_days", frequency)
        devices[est_id].append(device)
        by_pk[pk] = device
    for device_id, name, approved_on, by, reference in (
        ApprovedException.objects.filter(device__establishment_id__in=batch.ids)
        .order_by("device_id", "field", "pk")
        .values_list("device_id", "field", "approved_on", "approved_by", "reference")
    ):
        if device_id in by_pk:
            exception = {"field": name, "approved_on": approved_on.isoformat()}
            _put(exception, "by", by or None)
            _put(exception, "reference", reference or None)
            by_pk[device_id].setdefault("approved_exceptions", []).append(exception)
    return devices


def _services(batch: _Batch) -> dict[int, list]:
    """Pump-outs, less those under a dispute open on as_of."""
    services: dict[int, list] = defaultdict(list)
    as_of = batch.as_of
    disputed = ServiceDispute.objects.filter(service=OuterRef("pk"), raised_on__lte=as_of).filter(
        Q(withdrawn_on__isnull=True) | Q(withdrawn_on__gt=as_of)
    )
    # The biggest table by far: sorted here, which is cheaper than a sort spilling to disk.
    rows = list(
        Service.objects.filter(device__establishment_id__in=batch.ids)
        .exclude(Exists(disputed))
        .order_by()
        .values_list(
            "date",
            "manifest_number",
            "pk",
            "device__establishment_id",
            "device_id",
            "hauler_id",
            "full_pump_out",
            _Float("gallons_removed"),
            _Float("fog_inches"),
            _Float("solids_inches"),
            "final_chamber_floating_oil",
            _Float("sludge_to_outlet_inches"),
        )
    )
    rows.sort()
    manifests: dict[int, set] = defaultdict(set)
    for (
        day,
        manifest,
        pk,
        est_id,
        device_id,
        hauler_id,
        full_pump_out,
        gallons,
        fog,
        solids,
        oil,
        sludge,
    ) in rows:
        if device_id in batch.removed:
            continue
        if manifest in manifests[est_id]:
            manifest = f"{manifest}#{pk}"  # two haulers' manifests may share a number
        manifests[est_id].add(manifest)
        code = batch.device_codes[device_id]
        service = {"id": manifest, "device": code, "date": day.isoformat()}
        if hauler_id is not None:
            service["hauler"] = hauler_id  # the hauler's pk until the haulers are read
            batch.hauler_ids[est_id].add(hauler_id)
        service["full_pump_out"] = full_pump_out
        _put(service, "gallons_removed", gallons)
        services[est_id].append(_reading(service, fog, solids, oil, sludge))
    return services


def _pickups(batch: _Batch) -> dict[int, list]:
    pickups: dict[int, list] = defaultdict(list)
    for est_id, day, hauler_id, gallons in (
        YellowGreasePickup.objects.filter(**batch.of_batch)
        .order_by("date", "pk")
        .values_list("establishment_id", "date", "hauler_id", _Float("gallons"))
    ):
        pickup = {"date": day.isoformat()}
        if hauler_id is not None:
            pickup["hauler"] = hauler_id
            batch.hauler_ids[est_id].add(hauler_id)
        _put(pickup, "gallons", gallons)
        pickups[est_id].append(pickup)
    return pickups


def _haulers(batch: _Batch, *records: dict[int, list]) -> dict[int, dict]:
    """The haulers the batch's pump-outs and pickups name; their pks become codes."""
    haulers: dict[int, dict] = {}
    every_hauler = set().union(*batch.hauler_ids.values())
    if every_hauler:
        rows = Hauler.objects.filter(pk__in=every_hauler).values_list(
            "pk", "code", "name", "licensed", "licence_expires_on"
        )
        for pk, code, name, licensed, expires in rows:
            haulers[pk] = {"id": code, "name": name, "licensed": licensed}
            if expires is not None:
                haulers[pk]["licence_expires_on"] = expires
    for record in records:
        for items in record.values():
            for item in items:
                if "hauler" in item:
                    item["hauler"] = haulers[item["hauler"]]["id"]
    return haulers


def _employees(batch: _Batch) -> dict[int, list]:
    employees: dict[int, list] = defaultdict(list)
    for pk, est_id, code, name, hired_on, left_on, kitchen_duties, contractor in (
        Employee.objects.filter(**batch.of_batch)
        .order_by("code", "pk")
        .values_list(
            "pk",
            "establishment_id",
            "code",
            "name",
            "hired_on",
            "left_on",
            "kitchen_duties",
            "contractor",
        )
    ):
        batch.employee_codes[pk] = code
        employee = {"id": code, "name": name, "hired_on": hired_on.isoformat()}
        _put(employee, "left_on", _day(left_on))
        employee["kitchen_duties"] = kitchen_duties
        employee["contractor"] = contractor
        employees[est_id].append(employee)
    return employees


def _trainings(batch: _Batch) -> dict[int, list]:
    trainings: dict[int, list] = defaultdict(list)
    attendees: dict[int, list] = {}
    for pk, est_id, code, day in (
        Training.objects.filter(**batch.of_batch)
        .order_by("date", "code")
        .values_list("pk", "establishment_id", "code", "date")
    ):
        attendees[pk] = []
        trainings[est_id].append({"id": code, "date": day.isoformat(), "attendees": attendees[pk]})
    rows = list(
        Attendance.objects.filter(training__establishment_id__in=batch.ids)
        .order_by("training_id", "pk")
        .values_list("training_id", "employee_id", "signed")
    )
    codes = batch.employee_codes
    _codes_of_others(Employee, codes, {row[1] for row in rows})
    for training_id, employee_id, signed in rows:
        attendees[training_id].append({"employee": codes[employee_id], "signed": signed})
    return trainings


def _inspections(batch: _Batch) -> dict[int, list]:
    inspections: dict[int, list] = defaultdict(list)
    measurements: dict[int, list] = {}
    answers: dict[int, list] = {}
    for pk, est_id, code, day in (
        Inspection.objects.filter(**batch.of_batch)
        .order_by("date", "code")
        .values_list("pk", "establishment_id", "code", "date")
    ):
        measurements[pk] = []
        answers[pk] = []
        inspections[est_id].append(
            {
                "id": code,
                "date": day.isoformat(),
                "measurements": measurements[pk],
                "answers": answers[pk],
            }
        )
    readings = list(
        Measurement.objects.filter(inspection__establishment_id__in=batch.ids)
        .order_by("inspection_id", "pk")
        .values_list(
            "inspection_id",
            "device_id",
            _Float("fog_inches"),
            _Float("solids_inches"),
            "final_chamber_floating_oil",
            _Float("sludge_to_outlet_inches"),
        )
    )
    rows = list(
        ChecklistAnswer.objects.filter(inspection__establishment_id__in=batch.ids)
        .order_by("inspection_id", "item", "pk")
        .values_list("inspection_id", "item", "device_id", "compliant", "note")
    )
    codes, removed = batch.device_codes, batch.removed
    others = {row[1] for row in readings} | {row[2] for row in rows if row[2] is not None}
    _codes_of_others(GreaseControlDevice, codes, others - removed)
    for inspection_id, device_id, fog, solids, oil, sludge in readings:
        if device_id not in removed:
            reading = {"device": codes[device_id]}
            measurements[inspection_id].append(_reading(reading, fog, solids, oil, sludge))
    for inspection_id, item, device_id, compliant, note in rows:
        if device_id in removed:
            continue
        answer = {"item": item, "compliant": compliant}
        if device_id is not None:
            answer["device"] = codes[device_id]
        if note:
            answer["note"] = note
        answers[inspection_id].append(answer)
    return inspections


def _incidents(batch: _Batch) -> dict[int, list]:
    incidents: dict[int, list] = defaultdict(list)
    for est_id, code, day, kind, attributed, gallons, reported_on, cleared_on in (
        Incident.objects.filter(**batch.of_batch)
        .order_by("date", "code")
        .values_list(
            "establishment_id",
            "code",
            "date",
            "kind",
            "attributed",
            _Float("gallons"),
            "written_report_on",
            "clearance_inspection_on",
        )
    ):
        incident = {"id": code, "date": day.isoformat(), "kind": kind, "attributed": attributed}
        _put(incident, "gallons", gallons)
        _put(incident, "written_report_on", _day(reported_on))
        _put(incident, "clearance_inspection_on", _day(cleared_on))
        incidents[est_id].append(incident)
    return incidents


def _samples(batch: _Batch) -> dict[int, list]:
    """Samples of the discharge; one of a removed device is left out with the device."""
    samples: dict[int, list] = defaultdict(list)
    rows = list(
        Sample.objects.filter(**batch.of_batch)
        .order_by("date", "code")
        .values_list(
            "establishment_id",
            "code",
            "date",
            "device_id",
            "parameter",
            _Float("value"),
            "unit",
            "method",
        )
    )
    codes = batch.device_codes
    _codes_of_others(GreaseControlDevice, codes, {r[3] for r in rows if r[3]} - batch.removed)
    for est_id, code, day, device_id, parameter, value, unit, method in rows:
        if device_id in batch.removed:
            continue
        sample = {"id": code, "date": day.isoformat()}
        if device_id is not None:
            sample["device"] = codes[device_id]
        sample |= {"parameter": parameter, "value": value, "unit": unit}
        _put(sample, "method", method or None)
        samples[est_id].append(sample)
    return samples


def enforcement_actions(agency: Agency, ids: list[int], as_of: date) -> dict[int, list]:
    """The actions taken with their later facts (two queries); then, when the billing app is
    installed, its invoices and the penalties paid through it."""
    enforcement = enforcement_entries(agency, ids)
    try:
        from fogkeeper.billing import casefiles as billing
    except ModuleNotFoundError as e:
        if e.name not in ("fogkeeper.billing", "fogkeeper.billing.casefiles"):
            raise
        return enforcement
    invoices, penalties_paid = billing.money_actions(ids, as_of)
    wanted = set(ids)
    for est_id, items in invoices.items():
        if est_id in wanted:
            enforcement[est_id].extend(items)
    for est_id, paid in penalties_paid.items():
        for action in enforcement.get(est_id, ()) if paid else ():
            if action["type"] == "penalty_order" and action["id"] in paid:
                action.setdefault("paid_on", paid[action["id"]])
    return enforcement
