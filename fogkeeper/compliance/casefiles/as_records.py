"""The sweep's case files, read from PostgreSQL straight into the engine's records.

`load_case_files` gives, for a batch of establishments, what `as_json.build_case_files`
gives once `parse_case` has read it, without the detour through JSON-ready dicts and their
validation: a fixed number of queries (one per kind of record, streamed for a large batch,
the batch's ids passed as one array), rows made into the records of
`fogkeeper.rules.records` as they arrive, and `rules.trusted.case_file` to check what the
columns' types and constraints cannot (references, blank ids, the pack's vocabulary).

The small records (establishment, permit, devices, haulers) go through `msgspec.convert`,
which checks what their columns do not (choices, codes, the permit's limits); the many
(pump-outs, pickups, employees, trainings, inspections, incidents, samples) are built as
they are, their constraints being the database's own.

An establishment whose records are out of the ordinary (no operator, a record naming
another establishment's device or employee, anything `trusted.case_file` does not take)
is handed back as the dict of `build_case_files`, for `parse_case` to read or refuse in
its own words. The records are read as of the sweep's date by the same rules as there.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import date
from functools import partial
from itertools import chain
from typing import Any

import msgspec
import psycopg
from django.db import connection

from fogkeeper.registry.models import Agency
from fogkeeper.rules import CaseFile, records, trusted
from fogkeeper.rules.packs import default_registry
from fogkeeper.submittals.selectors import report_entries

from .as_json import build_case_files, enforcement_actions

FETCH = 5000  # rows a chunk of a streamed query
SMALL = 20  # establishments a batch may have to be read as one result, not streamed
_small_batch: ContextVar[bool] = ContextVar("small_batch", default=False)


def load_case_files(agency: Agency, ids: list[int], as_of: date) -> dict[int, CaseFile | dict]:
    """The case files on `as_of` of the agency's establishments among `ids`, keyed by pk: a
    CaseFile ready for `evaluate`, or, for the few out of the ordinary, the case file as a
    dict for `parse_case`. On a database other than PostgreSQL, dicts only."""
    if connection.vendor != "postgresql":
        return dict(build_case_files(agency, ids, as_of))
    batch = _Batch(sorted(set(ids)), as_of)
    small = _small_batch.set(len(batch.ids) <= SMALL)
    try:
        return _load(agency, batch)
    finally:
        _small_batch.reset(small)


def _load(agency: Agency, batch: _Batch) -> dict[int, CaseFile | dict]:
    as_of = batch.as_of
    with connection.cursor() as cursor:
        # Plans for a cursor's whole result. No query here declares a cursor any more (they
        # are streamed), but the write pages' query budgets count this statement: kept until
        # those budgets are revised with it.
        cursor.execute("SET LOCAL cursor_tuple_fraction = 1")
    establishments = _establishments(agency, batch)
    batch.ids = list(establishments)
    if not batch.ids:
        return {}
    lists = _lists(agency, batch)
    registry = default_registry()
    history = None
    if agency.history_starts is not None:
        history = records.History(
            starts=agency.history_starts, grace_days=agency.history_grace_days
        )
    cases: dict[int, Any] = {}  # None for the odd ones until they are built below
    for est_id, est in establishments.items():
        case = None
        if est_id not in batch.odd:
            model = records.CaseFileModel(
                jurisdiction=agency.pack,
                as_of=as_of,
                establishment=est,
                permit=lists["permit"].get(est_id),
                history=history,
                **{name: lists[name].get(est_id, []) for name in _LISTS},
            )
            case = trusted.case_file(model, packs=registry)
        if case is None:
            batch.odd.add(est_id)
        cases[est_id] = case
    if batch.odd:
        cases.update(build_case_files(agency, batch.odd, as_of))
    return cases


_LISTS = (
    "devices",
    "haulers",
    "services",
    "yellow_grease_pickups",
    "employees",
    "trainings",
    "inspections",
    "incidents",
    "samples",
    "enforcement",
    "reports",
)


@dataclass
class _Batch:
    ids: list[int]
    as_of: date
    odd: set[int] = field(default_factory=set)  # establishments for build_case_files
    devices: dict[int, tuple] = field(default_factory=dict)  # pk: (establishment, code, removed)
    employees: dict[int, tuple] = field(default_factory=dict)  # pk: (establishment, code)


def _lists(agency: Agency, batch: _Batch) -> dict[str, dict[int, Any]]:
    """Every kind of record, keyed by establishment pk."""
    lists: dict[str, Any] = {"permit": _permits(batch), "devices": _devices(batch)}
    lists["services"], haulers = _services(batch)
    lists["yellow_grease_pickups"] = _pickups(batch, haulers)
    lists["haulers"] = _haulers(batch, haulers)
    lists["employees"] = _employees(batch)
    lists["trainings"] = _trainings(batch)
    lists["inspections"] = _inspections(batch)
    lists["incidents"] = _incidents(batch)
    lists["samples"] = _samples(batch)
    lists["enforcement"] = enforcement_actions(agency, batch.ids, batch.as_of)
    lists["reports"] = {
        est_id: msgspec.convert(entries, list[records.Report])
        for est_id, entries in report_entries(agency, batch.ids, batch.as_of).items()
    }
    return lists


def _rows(sql: str, params: list | dict) -> Iterator[tuple]:
    """The rows of a query in PostgreSQL's binary format (no dates or numbers written out as
    text and parsed back, which Django's cursors, binding parameters on the client, cannot
    do). A large batch's are streamed, FETCH rows a chunk, in one round trip: the server
    goes on sending while the rows before are made into records, where a server-side
    cursor's FETCH would wait for each chunk in turn. A small one's (a write's
    re-evaluation) come as one result. The query goes through Django's execute wrappers, so
    that it is counted as any other."""
    connection.ensure_connection()
    cursor = psycopg.Cursor(connection.connection)
    with cursor:
        rows: Iterator[tuple] = iter(())
        small = _small_batch.get()

        def execute(sql, params, many, context):
            nonlocal rows
            if small:
                cursor.execute(sql, params, binary=True)
                rows = iter(cursor.fetchall())
            else:
                stream = cursor.stream(sql, params, binary=True, size=FETCH)
                first = next(stream, None)  # the query is sent here, inside the wrappers
                rows = stream if first is None else chain((first,), stream)

        for wrapper in reversed(connection.execute_wrappers):
            execute = partial(wrapper, execute)
        with connection.wrap_database_errors:
            execute(sql, params, False, {"connection": connection, "cursor": cursor})
            yield from rows


def _array(ids) -> str:
    """Ids as one array literal for `= ANY(%s::bigint[])`: PostgreSQL parses thousands of
    them faster than psycopg dumps a list."""
    return "{" + ",".join(map(str, ids)) + "}"


def _convert(batch: _Batch, est_id: int, data: dict, type_: type) -> Any:
    """A small record checked by msgspec; None, and the establishment left to
    build_case_files, when it is not of its type."""
    try:
        return msgspec.convert(data, type_)
    except msgspec.ValidationError:
        batch.odd.add(est_id)
        return None


def _establishments(agency: Agency, batch: _Batch) -> dict[int, records.Establishment]:
    default_category = agency.get_pack().default_category
    operators = _operators(batch)
    changes = _changes(batch)
    establishments: dict[int, Any] = {}
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
    ) in _rows(
        "SELECT id, code, name, category, on_public_sewer, opened_on, closed_on, remodeled_on,"
        " food_grinder, food_grinder_installed_on, variance_granted, interceptor_exception,"
        " interceptor_plans_submitted_on FROM registry_foodserviceestablishment"
        " WHERE agency_id = %s AND id = ANY(%s::bigint[]) ORDER BY id",
        [agency.pk, _array(batch.ids)],
    ):
        if pk not in operators:
            batch.odd.add(pk)  # the operator is required: build_case_files says so
            establishments[pk] = None
            continue
        data = {
            "id": code,
            "name": name,
            "category": category or default_category,
            "on_public_sewer": on_public_sewer,
            "opened_on": opened_on,
            "closed_on": closed_on,
            "operator": operators[pk],
            "remodeled_on": remodeled_on,
            "food_grinder": food_grinder,
            "food_grinder_installed_on": food_grinder_installed_on,
            "variance_granted": variance_granted,
            "interceptor_exception": interceptor_exception or None,
            "interceptor_plans_submitted_on": interceptor_plans_submitted_on,
            "changes": changes.get(pk, []),
        }
        establishments[pk] = _convert(batch, pk, data, records.Establishment)
    return establishments


def _operators(batch: _Batch) -> dict[int, dict]:
    """The operator on as_of: the tenure begun last by then (the first one if none had)."""
    operators: dict[int, dict] = {}
    for est_id, name, since in _rows(
        "SELECT t.establishment_id, o.name, t.since FROM registry_operatortenure t"
        " JOIN registry_operator o ON o.id = t.operator_id"
        " WHERE t.establishment_id = ANY(%s::bigint[]) ORDER BY t.establishment_id, t.since, t.id",
        [_array(batch.ids)],
    ):
        if est_id not in operators or since <= batch.as_of:
            operators[est_id] = {"name": name, "since": since}
    return operators


def _changes(batch: _Batch) -> dict[int, list]:
    changes: dict[int, list] = defaultdict(list)
    for est_id, day, kind, notified_on in _rows(
        "SELECT establishment_id, date, kind, notified_on FROM registry_operationchange"
        " WHERE establishment_id = ANY(%s::bigint[]) ORDER BY date, kind, id",
        [_array(batch.ids)],
    ):
        changes[est_id].append({"date": day, "kind": kind, "notified_on": notified_on})
    return changes


def _permits(batch: _Batch) -> dict[int, records.Permit]:
    """The permit issued last on or before as_of, whatever its status."""
    permits = {}
    for (
        est_id,
        number,
        holder,
        issued_on,
        expires_on,
        renewal_applied_on,
        renewal_denied_on,
        suspended_from,
        suspended_until,
        revoked_on,
        service,
        oil,
        limits,
    ) in _rows(
        "SELECT DISTINCT ON (establishment_id) establishment_id, number, holder, issued_on,"
        " expires_on, renewal_applied_on, renewal_denied_on, suspended_from, suspended_until,"
        " revoked_on, service_frequency_days, yellow_grease_frequency_days, discharge_limits"
        " FROM permits_permit WHERE establishment_id = ANY(%s::bigint[]) AND issued_on <= %s"
        " ORDER BY establishment_id, issued_on DESC, id DESC",
        [_array(batch.ids), batch.as_of],
    ):
        if isinstance(limits, str):
            limits = json.loads(limits)
        data = {
            "number": number,
            "holder": holder,
            "issued_on": issued_on,
            "expires_on": expires_on,
            "renewal_applied_on": renewal_applied_on,
            "renewal_denied_on": renewal_denied_on,
            "suspended_from": suspended_from,
            "suspended_until": suspended_until,
            "revoked_on": revoked_on,
            "service_frequency_days": service,
            "yellow_grease_frequency_days": oil,
            "discharge_limits": limits or {},
        }
        permits[est_id] = _convert(batch, est_id, data, records.Permit)
    return permits


def _devices(batch: _Batch) -> dict[int, list]:
    """The devices not removed by as_of, with their approved exceptions; every device of
    the batch is remembered, for the records that name one."""
    exceptions = _approved_exceptions(batch)
    approvals = _interval_approvals(batch)
    devices: dict[int, list] = defaultdict(list)
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
        sizing,
    ) in _rows(
        "SELECT id, establishment_id, code, kind, installed_on, removed_on,"
        " capacity_gallons::float8, design_depth_inches::float8, compartments,"
        " manhole_diameter_inches::float8, service_frequency_days, sizing_inputs"
        " FROM registry_greasecontroldevice WHERE establishment_id = ANY(%s::bigint[])"
        " ORDER BY code, id",
        [_array(batch.ids)],
    ):
        removed = removed_on is not None and removed_on <= batch.as_of
        batch.devices[pk] = (est_id, code, removed)
        if removed:
            continue
        data = {
            "id": code,
            "kind": kind,
            "installed_on": installed_on,
            "capacity_gallons": capacity,
            "design_depth_inches": depth,
            "compartments": compartments,
            "manhole_diameter_inches": manhole,
            "service_frequency_days": frequency,
            "approved_exceptions": exceptions.get(pk, []),
            "sizing_inputs": _sizing(sizing),
            "approvals": approvals.get(pk, []),
        }
        devices[est_id].append(_convert(batch, est_id, data, records.Device))
    return devices


def _sizing(value) -> dict:
    """A device's sizing inputs as the case file holds them (jsonb, or its text)."""
    if isinstance(value, str):
        value = json.loads(value)
    return {k: float(v) for k, v in (value or {}).items()}


def _approved_exceptions(batch: _Batch) -> dict[int, list]:
    exceptions: dict[int, list] = defaultdict(list)
    for device_id, name, approved_on, by, reference in _rows(
        "SELECT e.device_id, e.field, e.approved_on, e.approved_by, e.reference"
        " FROM registry_approvedexception e"
        " JOIN registry_greasecontroldevice d ON d.id = e.device_id"
        " WHERE d.establishment_id = ANY(%s::bigint[]) ORDER BY e.device_id, e.field, e.id",
        [_array(batch.ids)],
    ):
        exceptions[device_id].append(
            {
                "field": name,
                "approved_on": approved_on,
                "by": by or None,
                "reference": reference or None,
            }
        )
    return exceptions


def _interval_approvals(batch: _Batch) -> dict[int, list]:
    """The longer pump-out intervals approved for the batch's devices, as the case file
    holds them (`devices[].approvals`)."""
    approvals: dict[int, list] = defaultdict(list)
    for device_id, days, approved_on, by, reference, ends_on in _rows(
        "SELECT a.device_id, a.days, a.approved_on, a.approved_by, a.reference, a.ends_on"
        " FROM registry_intervalapproval a"
        " JOIN registry_greasecontroldevice d ON d.id = a.device_id"
        " WHERE d.establishment_id = ANY(%s::bigint[])"
        " ORDER BY a.device_id, a.approved_on, a.id",
        [_array(batch.ids)],
    ):
        approvals[device_id].append(
            {
                "field": "service_frequency_days",
                "value": days,
                "approved_on": approved_on,
                "approved_by": by,
                "reference": reference,
                "ends_on": ends_on,
            }
        )
    return approvals


def _device_code(batch: _Batch, est_id: int, device_id: int | None) -> str | None:
    """The code of the establishment's device `device_id`, None for none or a removed one;
    a device of another establishment leaves the establishment to build_case_files."""
    if device_id is None:
        return None
    owner, code, removed = batch.devices.get(device_id, (None, None, False))
    if owner != est_id:
        batch.odd.add(est_id)
        return None
    return None if removed else code


_DISPUTED = (
    "EXISTS (SELECT FROM maintenance_servicedispute x WHERE x.service_id = s.id"
    " AND x.raised_on <= %(as_of)s AND (x.withdrawn_on IS NULL OR x.withdrawn_on > %(as_of)s))"
)


def _services(batch: _Batch) -> tuple[dict[int, list], dict[int, set]]:
    """Pump-outs of the devices not removed, less those under a dispute open on as_of; and
    the haulers they name, by establishment. In no order: the engine orders them by date and
    id, and there are many."""
    services: dict[int, list] = defaultdict(list)
    haulers: dict[int, set] = defaultdict(set)
    Service = records.Service
    for (
        est_id,
        manifest,
        code,
        day,
        hauler_id,
        hauler,
        full,
        gallons,
        fog,
        solids,
        oil,
        sludge,
    ) in _rows(
        "SELECT d.establishment_id, s.manifest_number, d.code, s.date, s.hauler_id, h.code,"
        " s.full_pump_out, s.gallons_removed::float8, s.fog_inches::float8,"
        " s.solids_inches::float8, s.final_chamber_floating_oil,"
        " s.sludge_to_outlet_inches::float8"
        " FROM maintenance_service s JOIN registry_greasecontroldevice d ON d.id = s.device_id"
        " LEFT JOIN registry_hauler h ON h.id = s.hauler_id"
        " WHERE d.establishment_id = ANY(%(ids)s::bigint[])"
        " AND (d.removed_on IS NULL OR d.removed_on > %(as_of)s) AND NOT " + _DISPUTED,
        {"ids": _array(batch.ids), "as_of": batch.as_of},
    ):
        if hauler_id is not None:
            haulers[est_id].add(hauler_id)
        services[est_id].append(
            Service(
                id=manifest,
                device=code,
                date=day,
                hauler=hauler,
                full_pump_out=full,
                gallons_removed=gallons,
                fog_inches=fog,
                solids_inches=solids,
                final_chamber_floating_oil=oil,
                sludge_to_outlet_inches=sludge,
            )
        )
    return services, haulers


def _pickups(batch: _Batch, haulers: dict[int, set]) -> dict[int, list]:
    pickups: dict[int, list] = defaultdict(list)
    Pickup = records.Pickup
    for est_id, day, hauler_id, hauler, gallons in _rows(
        "SELECT p.establishment_id, p.date, p.hauler_id, h.code, p.gallons::float8"
        " FROM maintenance_yellowgreasepickup p LEFT JOIN registry_hauler h ON h.id = p.hauler_id"
        " WHERE p.establishment_id = ANY(%s::bigint[]) ORDER BY p.date, p.id",
        [_array(batch.ids)],
    ):
        if hauler_id is not None:
            haulers[est_id].add(hauler_id)
        pickups[est_id].append(Pickup(date=day, hauler=hauler, gallons=gallons))
    return pickups


def _haulers(batch: _Batch, named: dict[int, set]) -> dict[int, list]:
    """The haulers each establishment's pump-outs and pickups name, by code."""
    every = sorted(set().union(*named.values()))
    known: dict[int, dict] = {}
    for pk, code, name, licensed, expires, certified, cert_expires in _rows(
        "SELECT id, code, name, licensed, licence_expires_on, certified,"
        " certification_expires_on FROM registry_hauler WHERE id = ANY(%s::bigint[])",
        [_array(every)],
    ):
        known[pk] = {
            "id": code,
            "name": name,
            "licensed": licensed,
            "licence_expires_on": expires,
            "certified": certified,
            "certification_expires_on": cert_expires,
        }
    haulers: dict[int, list] = {}
    for est_id, pks in named.items():
        items = sorted((known[pk] for pk in pks), key=lambda h: h["id"])
        haulers[est_id] = [_convert(batch, est_id, h, records.Hauler) for h in items]
    return haulers


def _employees(batch: _Batch) -> dict[int, list]:
    employees: dict[int, list] = defaultdict(list)
    Employee = records.Employee
    for pk, est_id, code, name, hired_on, left_on, kitchen_duties, contractor in _rows(
        "SELECT id, establishment_id, code, name, hired_on, left_on, kitchen_duties, contractor"
        " FROM training_employee WHERE establishment_id = ANY(%s::bigint[]) ORDER BY code, id",
        [_array(batch.ids)],
    ):
        batch.employees[pk] = (est_id, code)
        employees[est_id].append(
            Employee(
                id=code,
                name=name,
                hired_on=hired_on,
                left_on=left_on,
                kitchen_duties=kitchen_duties,
                contractor=contractor,
            )
        )
    return employees


def _dated(batch: _Batch, table: str) -> tuple[list[tuple], dict[int, int]]:
    """The (id, establishment id, code, date) rows of `table` of the batch, in the order of
    date then code, and the establishment of each row's id."""
    rows = list(
        _rows(
            f"SELECT id, establishment_id, code, date FROM {table}"
            " WHERE establishment_id = ANY(%s::bigint[]) ORDER BY date, code",
            [_array(batch.ids)],
        )
    )
    return rows, {pk: est_id for pk, est_id, _, _ in rows}


def _trainings(batch: _Batch) -> dict[int, list]:
    rows, owners = _dated(batch, "training_training")
    attendees: dict[int, list] = defaultdict(list)
    Attendee = records.Attendee
    # by the trainings' own ids: a join on the establishments scans every attendance row
    for training_id, employee_id, signed in _rows(
        "SELECT training_id, employee_id, signed FROM training_attendance"
        " WHERE training_id = ANY(%s::bigint[]) ORDER BY training_id, id",
        [_array(owners)],
    ):
        est_id, code = batch.employees.get(employee_id, (None, None))
        if est_id != owners[training_id]:
            batch.odd.add(owners[training_id])  # another establishment's employee
        attendees[training_id].append(Attendee(employee=code or "", signed=signed))
    trainings: dict[int, list] = defaultdict(list)
    Training = records.Training
    for pk, est_id, code, day in rows:
        trainings[est_id].append(Training(id=code, date=day, attendees=attendees.get(pk, [])))
    return trainings


def _inspections(batch: _Batch) -> dict[int, list]:
    rows, owners = _dated(batch, "inspections_inspection")
    measurements = _measurements(batch, owners)
    answers = _answers(batch, owners)
    inspections: dict[int, list] = defaultdict(list)
    Inspection = records.Inspection
    for pk, est_id, code, day in rows:
        inspections[est_id].append(
            Inspection(
                id=code,
                date=day,
                measurements=measurements.get(pk, []),
                answers=answers.get(pk, []),
            )
        )
    return inspections


def _measurements(batch: _Batch, owners: dict[int, int]) -> dict[int, list]:
    measurements: dict[int, list] = defaultdict(list)
    Measurement = records.Measurement
    for inspection_id, device_id, fog, solids, oil, sludge in _rows(
        "SELECT inspection_id, device_id, fog_inches::float8, solids_inches::float8,"
        " final_chamber_floating_oil, sludge_to_outlet_inches::float8"
        " FROM inspections_measurement WHERE inspection_id = ANY(%s::bigint[])"
        " ORDER BY inspection_id, id",
        [_array(owners)],
    ):
        device = _device_code(batch, owners[inspection_id], device_id)
        if device is not None:
            measurements[inspection_id].append(
                Measurement(
                    device=device,
                    fog_inches=fog,
                    solids_inches=solids,
                    final_chamber_floating_oil=oil,
                    sludge_to_outlet_inches=sludge,
                )
            )
    return measurements


def _answers(batch: _Batch, owners: dict[int, int]) -> dict[int, list]:
    answers: dict[int, list] = defaultdict(list)
    Answer = records.Answer
    for inspection_id, item, device_id, compliant, note in _rows(
        "SELECT inspection_id, item, device_id, compliant, note FROM inspections_checklistanswer"
        " WHERE inspection_id = ANY(%s::bigint[]) ORDER BY inspection_id, item, id",
        [_array(owners)],
    ):
        device = _device_code(batch, owners[inspection_id], device_id)
        if device is None and device_id is not None:
            continue  # a removed device's
        answers[inspection_id].append(
            Answer(item=item, compliant=compliant, device=device, note=note or None)
        )
    return answers


def _incidents(batch: _Batch) -> dict[int, list]:
    incidents: dict[int, list] = defaultdict(list)
    Incident = records.Incident
    for est_id, code, day, kind, attributed, gallons, reported_on, cleared_on in _rows(
        "SELECT establishment_id, code, date, kind, attributed, gallons::float8,"
        " written_report_on, clearance_inspection_on FROM incidents_incident"
        " WHERE establishment_id = ANY(%s::bigint[]) ORDER BY date, code",
        [_array(batch.ids)],
    ):
        incidents[est_id].append(
            Incident(
                id=code,
                date=day,
                kind=kind,
                attributed=attributed,
                gallons=gallons,
                written_report_on=reported_on,
                clearance_inspection_on=cleared_on,
            )
        )
    return incidents


def _samples(batch: _Batch) -> dict[int, list]:
    """Samples of the discharge; one of a removed device is left out with the device."""
    samples: dict[int, list] = defaultdict(list)
    Sample = records.Sample
    for est_id, code, day, device_id, parameter, value, unit, method in _rows(
        "SELECT establishment_id, code, date, device_id, parameter, value::float8, unit, method"
        " FROM inspections_sample WHERE establishment_id = ANY(%s::bigint[]) ORDER BY date, code",
        [_array(batch.ids)],
    ):
        device = _device_code(batch, est_id, device_id)
        if device is None and device_id is not None:
            continue
        samples[est_id].append(
            Sample(
                id=code,
                date=day,
                device=device,
                parameter=parameter,
                value=value,
                unit=unit,
                method=method or None,
            )
        )
    return samples
