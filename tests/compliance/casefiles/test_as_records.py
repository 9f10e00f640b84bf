"""The sweep's case files, read straight into the engine's records, are the ones parse_case
reads from the dicts of build_case_files: the same records, the same refusals, the same
findings stored."""

from datetime import date
from decimal import Decimal
from unittest.mock import patch

import msgspec
import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from fogkeeper.compliance import sweep
from fogkeeper.compliance.casefiles.as_json import build_case_files
from fogkeeper.compliance.casefiles.as_records import load_case_files
from fogkeeper.compliance.generate import generate_program
from fogkeeper.compliance.models import ComplianceStatus, Finding, ScheduleItem
from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.inspections.models import Measurement, Sample
from fogkeeper.maintenance.models import ServiceDispute
from fogkeeper.registry.models import ApprovedException, GreaseControlDevice, OperatorTenure
from fogkeeper.rules import CaseFile, CaseFileError, evaluate, parse_case
from fogkeeper.training.models import Attendance
from tests.records import (
    make_device,
    make_employee,
    make_establishment,
    make_hauler,
    make_permit,
    make_service,
)

pytestmark = pytest.mark.django_db

AS_OF = date(2026, 11, 30)


def _program(pack: str, code: str, seed: int):
    """A generated program, and a few establishments out of the ordinary in it."""
    generate_program(
        establishments=40, years=4, as_of=AS_OF, agency_code=code, pack=pack, seed=seed
    )
    from fogkeeper.registry.models import Agency

    agency = Agency.objects.get(code=code)
    fses = list(agency.establishments.order_by("pk"))
    _out_of_the_ordinary(agency, fses)
    return agency


def _out_of_the_ordinary(agency, fses) -> None:
    staff = get_user_model().objects.create_user(f"staff-{agency.code}")
    first, second, third, fourth, fifth = fses[:5]
    device = first.devices.first() or make_device(first, "GI-8")
    # a removed device, with its pump-outs, readings and a sample
    removed = make_device(first, "GI-9", installed_on="2020-01-01", removed_on=date(2025, 1, 1))
    make_service(removed, "R-1", "2024-06-01")
    Sample.objects.create(
        establishment=first,
        device=removed,
        code="L-1",
        date=date(2024, 7, 1),
        parameter="oil_and_grease",
        value=Decimal("80"),
        unit="mg/L",
    )
    # a pump-out under an open dispute, one under a withdrawn one
    for manifest, withdrawn in (("D-1", None), ("D-2", date(2026, 3, 1))):
        ServiceDispute.objects.create(
            service=make_service(device, manifest, "2026-02-01"),
            raised_by=staff,
            raised_on=date(2026, 2, 2),
            reason="doubt",
            withdrawn_on=withdrawn,
        )
    # two haulers' manifests of one number
    make_service(device, "M-7", "2025-01-01", hauler=make_hauler(agency, f"{agency.code}-H1"))
    make_service(device, "M-7", "2025-03-01", hauler=make_hauler(agency, f"{agency.code}-H2"))
    # another establishment's employee at a training, its device in an inspection
    training = second.trainings.first()
    if training is not None:
        Attendance.objects.create(training=training, employee=make_employee(third, "E-X"))
    inspection = second.inspections.first()
    if inspection is not None:
        Measurement.objects.create(inspection=inspection, device=make_device(third, "GI-X"))
    # no operator at all
    OperatorTenure.objects.filter(establishment=fourth).delete()
    # a permit with its own limits, a device with an approved exception
    make_permit(
        fifth, f"{agency.code}-P", discharge_limits={"oil_and_grease": {"max": 90, "unit": "mg/L"}}
    )
    excepted = make_device(
        fifth, "GI-E", capacity_gallons=Decimal(300), sizing_inputs={"seats": 40, "hours_open": 7.5}
    )
    ApprovedException.objects.create(
        device=excepted, field="capacity_gallons", approved_on=date(2024, 6, 1)
    )
    make_establishment(agency, "  ")  # a blank code


@pytest.fixture
def agencies():
    return [_program("san-clemente", "gen-sc", 3), _program("town-10-02", "gen-town", 4)]


def _parsed(case):
    """What parse_case makes of a case file: the CaseFile, or the problems it words."""
    try:
        return parse_case(case)
    except CaseFileError as e:
        return [str(p) for p in e.problems]


def _ordered(model):
    """The records with the pump-outs in the order of build_case_files (the sweep reads them
    in no order)."""
    services = sorted(model.services, key=lambda s: (s.date, s.id))
    return msgspec.structs.replace(model, services=services)


def test_every_case_file_is_the_one_parse_case_reads_from_the_dict(agencies):
    for agency in agencies:
        ids = list(agency.establishments.values_list("pk", flat=True))
        with transaction.atomic():
            fast = load_case_files(agency, ids, AS_OF)
        validated = {pk: _parsed(case) for pk, case in build_case_files(agency, ids, AS_OF).items()}

        assert fast.keys() == validated.keys()
        for pk, case in fast.items():
            expected = validated[pk]
            if isinstance(case, CaseFile):
                assert isinstance(expected, CaseFile), pk
                assert (_ordered(case.model), case.actions, case.as_of) == (
                    expected.model,
                    expected.actions,
                    expected.as_of,
                )
                assert case.pack is expected.pack
                assert evaluate(case).to_dict() == evaluate(expected).to_dict()
            else:
                assert _parsed(case) == expected, pk


def test_the_records_out_of_the_ordinary_are_left_to_parse_case(agencies):
    agency = agencies[0]
    ids = list(agency.establishments.order_by("pk").values_list("pk", flat=True))
    with transaction.atomic():
        fast = load_case_files(agency, ids, AS_OF)

    handed_back = {pk for pk in ids if not isinstance(fast[pk], CaseFile)}
    # two haulers' manifests of one number; another's employee and device; no operator; a
    # blank code (the third is the other one, whose own records are in order)
    assert {ids[0], ids[1], ids[3], ids[-1]} <= handed_back
    assert ids[2] not in handed_back
    assert len(handed_back) < len(ids) / 4


def _stored(agency) -> tuple[list, list, list]:
    """The agency's findings, statuses and schedule items, every field the sweep writes."""
    findings = Finding.objects.filter(agency=agency).order_by("pk")
    statuses = ComplianceStatus.objects.filter(establishment__agency=agency)
    schedule = ScheduleItem.objects.filter(agency=agency)
    key = ("establishment", "rule", "subject", "since")
    return (
        sorted(findings.values_list(*key, *sweep.FINDING_FIELDS, *sweep.HISTORY_FIELDS)),
        sorted(statuses.values_list("establishment", *sweep.STATUS_FIELDS), key=str),
        sorted(schedule.values_list("establishment", "obligation", "due")),
    )


def _clear(agency) -> None:
    Finding.objects.filter(agency=agency).delete()
    ScheduleItem.objects.filter(agency=agency).delete()
    ComplianceStatus.objects.filter(establishment__agency=agency).delete()


def test_the_sweep_stores_what_it_stored_from_the_validated_dicts(agencies):
    for agency in agencies:
        with patch.object(sweep, "load_case_files", build_case_files):
            before = sweep_agency(agency, as_of=AS_OF, batch_size=25)
        validated = _stored(agency)
        _clear(agency)

        after = sweep_agency(agency, as_of=AS_OF, batch_size=25)

        assert _stored(agency) == validated
        assert after.run.errors == before.run.errors
        assert len(after.run.errors) >= 3  # another's records, no operator, a blank code


def test_it_reads_a_batch_in_the_same_number_of_queries_whatever_its_size(agencies):
    agency = agencies[1]
    ids = list(agency.establishments.order_by("pk").values_list("pk", flat=True))[5:-1]
    counts = []
    for batch in (ids[:3], ids):
        with transaction.atomic(), CaptureQueriesContext(connection) as queries:
            cases = load_case_files(agency, batch, AS_OF)
        assert all(isinstance(case, CaseFile) for case in cases.values())
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_both_readings_carry_a_devices_sizing_inputs(agencies):
    agency = agencies[0]
    device = GreaseControlDevice.objects.get(code="GI-E", establishment__agency=agency)
    pk = device.establishment_id
    with transaction.atomic():
        fast = load_case_files(agency, [pk], AS_OF)[pk]
    built = build_case_files(agency, [pk], AS_OF)[pk]
    devices = fast.model.devices if isinstance(fast, CaseFile) else fast["devices"]
    [fast_device] = [d for d in devices if msgspec.to_builtins(d)["id"] == "GI-E"]
    [built_device] = [d for d in built["devices"] if d["id"] == "GI-E"]
    assert msgspec.to_builtins(fast_device)["sizing_inputs"] == {"seats": 40.0, "hours_open": 7.5}
    assert built_device["sizing_inputs"] == {"seats": 40.0, "hours_open": 7.5}
