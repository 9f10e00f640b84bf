"""The case file the database builds is the one a person would write of the same records."""

from datetime import date
from decimal import Decimal

import pytest

from fogkeeper.compliance.casefiles.as_json import build_case_file, build_case_files
from fogkeeper.inspections.models import Measurement, Sample
from fogkeeper.registry.models import ApprovedException
from fogkeeper.rules import CaseFileError, evaluate, parse_case
from fogkeeper.training.models import Attendance
from tests.compliance.records import AS_OF, make_pier_taqueria, pier_taqueria_case
from tests.records import (
    make_agency,
    make_device,
    make_employee,
    make_establishment,
    make_hauler,
    make_permit,
    make_service,
)

pytestmark = pytest.mark.django_db


def d(text: str) -> date:
    return date.fromisoformat(text)


def test_it_builds_the_case_file_a_person_would_write():
    fse = make_pier_taqueria(make_agency())

    assert build_case_file(fse, AS_OF) == pier_taqueria_case()


def test_the_case_file_is_valid():
    fse = make_pier_taqueria(make_agency())

    assert parse_case(build_case_file(fse, AS_OF)).model.establishment.id == "FSE-0042"


def test_it_builds_many_at_once_as_it_builds_one():
    agency = make_agency()
    first = make_pier_taqueria(agency, "FSE-1")
    second = make_pier_taqueria(agency, "FSE-2")

    cases = build_case_files(agency, [first.pk, second.pk], AS_OF)

    assert cases == {
        first.pk: pier_taqueria_case(code="FSE-1"),
        second.pk: pier_taqueria_case(code="FSE-2"),
    }


def test_it_leaves_out_establishments_of_another_agency():
    fse = make_pier_taqueria(make_agency())

    assert build_case_files(make_agency(code="other"), [fse.pk], AS_OF) == {}


def test_an_establishment_without_records_has_empty_lists_and_no_permit():
    fse = make_establishment(make_agency(), "FSE-9", opened_on="2020-01-01")

    case = build_case_file(fse, AS_OF)

    assert "permit" not in case
    assert case["establishment"]["operator"] == {"name": "Pier Foods LLC", "since": "2005-01-01"}
    assert case["devices"] == case["services"] == case["inspections"] == []


def test_it_takes_the_operator_in_place_on_the_date():
    fse = make_pier_taqueria(make_agency())

    case = build_case_file(fse, date(2025, 1, 31))

    assert case["establishment"]["operator"] == {"name": "Pier Foods LLC", "since": "2012-04-01"}


def test_it_takes_the_permit_issued_last_by_the_date():
    fse = make_pier_taqueria(make_agency())

    assert build_case_file(fse, date(2021, 1, 14))["permit"]["number"] == "FSE-0042-P1"
    assert build_case_file(fse, date(2021, 1, 15))["permit"]["number"] == "FSE-0042-P2"


def test_a_removed_device_is_there_until_the_day_of_its_removal():
    fse = make_pier_taqueria(make_agency())

    before = build_case_file(fse, date(2012, 3, 19))
    on_the_day = build_case_file(fse, date(2012, 3, 20))

    assert [dev["id"] for dev in before["devices"]] == ["GI-0", "GI-1", "GT-2"]
    assert [s["device"] for s in before["services"]] == ["GI-0", "GI-1", "GT-2"]
    assert {"device": "GI-0", "fog_inches": 1} in before["inspections"][0]["measurements"]
    assert [dev["id"] for dev in on_the_day["devices"]] == ["GI-1", "GT-2"]
    assert "GI-0" not in str(on_the_day)


def test_records_of_another_establishment_are_named_and_refused():
    agency = make_agency()
    pier = make_pier_taqueria(agency)
    other = make_establishment(agency, "FSE-2")
    training, inspection = pier.trainings.get(), pier.inspections.get()
    Attendance.objects.create(training=training, employee=make_employee(other, "E-9"))
    Measurement.objects.create(inspection=inspection, device=make_device(other, "GI-9"))

    case = build_case_file(pier, AS_OF)

    assert case["trainings"][0]["attendees"][-1] == {"employee": "E-9", "signed": True}
    assert case["inspections"][0]["measurements"][-1] == {"device": "GI-9"}
    with pytest.raises(CaseFileError) as refused:
        parse_case(case)
    assert [str(p) for p in refused.value.problems] == [
        "trainings[0].attendees[2].employee: unknown employee 'E-9'",
        "inspections[0].measurements[1].device: unknown device 'GI-9'",
    ]


def test_it_keeps_two_haulers_manifests_of_one_number_apart():
    agency = make_agency()
    device = make_device(make_establishment(agency))
    make_service(device, "M-7", "2025-01-01", hauler=make_hauler(agency, "H-1"))
    make_service(device, "M-7", "2025-03-01", hauler=make_hauler(agency, "H-2"))

    case = build_case_file(device.establishment, AS_OF)

    assert len({s["id"] for s in case["services"]}) == 2
    assert parse_case(case).model.services[0].id == "M-7"


# Revision 2 records (RULES.md 11.7, 11.8, 11.11, 11.12)


def test_it_reads_the_permits_suspension_revocation_denial_and_limits():
    fse = make_establishment(make_agency(), "FSE-9")
    limits = {"oil_and_grease": {"max": 100, "unit": "mg/L"}}
    make_permit(
        fse,
        renewal_applied_on="2028-10-01",
        renewal_denied_on="2029-01-10",
        suspended_from="2025-02-01",
        suspended_until="2025-02-28",
        revoked_on="2025-06-01",
        discharge_limits=limits,
    )

    permit = build_case_file(fse, AS_OF)["permit"]

    assert {k: permit[k] for k in permit if k not in ("number", "holder", "issued_on")} == {
        "expires_on": "2028-12-31",
        "renewal_applied_on": "2028-10-01",
        "renewal_denied_on": "2029-01-10",
        "suspended_from": "2025-02-01",
        "suspended_until": "2025-02-28",
        "revoked_on": "2025-06-01",
        "discharge_limits": limits,
    }


def test_it_reads_samples_with_their_device_and_leaves_out_a_removed_devices():
    fse = make_establishment(make_agency(), "FSE-9")
    kept, removed = make_device(fse, "GI-1"), make_device(fse, "GI-2", removed_on=d("2025-01-01"))
    for code, device in (("L-1", kept), ("L-2", None), ("L-3", removed)):
        Sample.objects.create(
            establishment=fse,
            device=device,
            code=code,
            date=d("2025-03-03"),
            parameter="oil_and_grease",
            value=Decimal("120.5"),
            unit="mg/L",
            method="EPA 1664",
        )

    samples = build_case_file(fse, AS_OF)["samples"]

    assert samples == [
        {
            "id": "L-1",
            "date": "2025-03-03",
            "device": "GI-1",
            "parameter": "oil_and_grease",
            "value": 120.5,
            "unit": "mg/L",
            "method": "EPA 1664",
        },
        {
            "id": "L-2",
            "date": "2025-03-03",
            "parameter": "oil_and_grease",
            "value": 120.5,
            "unit": "mg/L",
            "method": "EPA 1664",
        },
    ]


def test_it_lists_no_samples_where_none_were_taken():
    fse = make_establishment(make_agency(), "FSE-9")

    assert "samples" not in build_case_file(fse, AS_OF)


def test_it_reads_a_devices_approved_exceptions():
    fse = make_establishment(make_agency(), "FSE-9")
    device = make_device(fse, "GI-1", capacity_gallons=Decimal(400))
    ApprovedException.objects.create(
        device=device,
        field="capacity_gallons",
        approved_on=d("2024-06-01"),
        approved_by="Pretreatment Coordinator",
        reference="PC-2024-3",
    )

    (built,) = build_case_file(fse, AS_OF)["devices"]

    assert built["approved_exceptions"] == [
        {
            "field": "capacity_gallons",
            "approved_on": "2024-06-01",
            "by": "Pretreatment Coordinator",
            "reference": "PC-2024-3",
        }
    ]


def test_a_revoked_permit_from_the_database_is_no_permit_to_the_engine():
    fse = make_establishment(make_agency(), "FSE-9")
    make_permit(fse, revoked_on="2025-06-01")

    report = evaluate(parse_case(build_case_file(fse, AS_OF)))

    assert [f.rule for f in report.findings if f.rule.startswith("permit.")] == ["permit.revoked"]
