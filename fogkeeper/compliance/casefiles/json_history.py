"""Case file loaders of what happened: pump-outs, waste cooking oil pickups, employees and
their trainings, inspections, incidents and samples. One query per kind of record for the
whole batch, one more when a record names another establishment's device or employee."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.db.models import Exists, OuterRef, Q

from fogkeeper.incidents.models import Incident
from fogkeeper.inspections.models import ChecklistAnswer, Inspection, Measurement, Sample
from fogkeeper.maintenance.models import Service, ServiceDispute, YellowGreasePickup
from fogkeeper.registry.models import GreaseControlDevice
from fogkeeper.training.models import Attendance, Employee, Training

from .json_batch import _Batch, _codes_of_others, _Float, _iso_or_none, _put, _reading


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
        employee: dict[str, Any] = {"id": code, "name": name, "hired_on": hired_on.isoformat()}
        _put(employee, "left_on", _iso_or_none(left_on))
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
        _put(incident, "written_report_on", _iso_or_none(reported_on))
        _put(incident, "clearance_inspection_on", _iso_or_none(cleared_on))
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
