"""A longer pump-out interval approved by a named official (issue 38 item 2): recorded on a
form of the device page with who, when, the reference and an end, shown on the device, audited,
refused in words when it is not whole, and carried by both case file builders to the engine,
whose overdue finding names it."""

from datetime import date
from pathlib import Path

import pytest
from django.db import transaction

from fogkeeper.audit.models import AuditEvent
from fogkeeper.compliance.casefiles.as_json import build_case_files
from fogkeeper.compliance.casefiles.as_records import load_case_files
from fogkeeper.registry.models import IntervalApproval
from fogkeeper.rules import evaluate, parse_case
from tests.records import make_agency, make_device, make_establishment, make_service
from tests.web.people import make_user

pytestmark = pytest.mark.django_db
PACKS = Path(__file__).resolve().parents[2] / "rules" / "format_packs"
APPROVAL = {
    "days": "120",
    "approved_by": "Dana Ruiz, Public Works Director",
    "approved_on": "2025-03-02",
    "reference": "Letter PW-2025-08",
    "ends_on": "2025-08-31",
}


@pytest.fixture
def device(client, monkeypatch):
    monkeypatch.setenv("FOGKEEPER_PACKS", str(PACKS))
    agency = make_agency("reach-town")
    fse = make_establishment(agency, code="FSE-7", opened_on="2024-02-01")
    client.force_login(make_user("mia", agency, role="manager"))
    return make_device(fse, installed_on="2024-12-01", capacity_gallons=1000, compartments=2)


def url(device) -> str:
    return f"/establishments/FSE-7/devices/{device.pk}/interval-approval/"


def test_an_approval_is_recorded_shown_on_the_device_and_audited(client, device):
    response = client.post(url(device), APPROVAL, follow=True)
    assert response.status_code == 200
    html = client.get(f"/establishments/FSE-7/devices/{device.pk}/").content.decode()
    assert (
        "Every 120 days, approved by Dana Ruiz, Public Works Director on 2025-03-02 "
        "(Letter PW-2025-08), until 2025-08-31." in html
    )
    assert AuditEvent.objects.filter(action="device.interval_approve").count() == 1


@pytest.mark.parametrize(
    "change, words",
    [
        ({"ends_on": "2025-03-01"}, "cannot end on 2025-03-01, before it was given on 2025-03-02"),
        ({"approved_by": "  "}, "This field is required."),
        ({"days": "0"}, "greater than or equal to 1"),
    ],
)
def test_an_approval_that_is_not_whole_is_refused_in_words_and_nothing_is_kept(
    client, device, change, words
):
    response = client.post(url(device), {**APPROVAL, **change})
    assert response.status_code == 400
    assert words in response.content.decode()
    assert not IntervalApproval.objects.exists()
    assert not AuditEvent.objects.filter(action="device.interval_approve").exists()


def test_both_case_file_builders_carry_the_approval_to_the_engine(client, device):
    client.post(url(device), APPROVAL)
    make_service(device, "M-1", "2025-01-01")
    make_service(device, "M-2", "2025-04-15")
    fse, on = device.establishment, date(2025, 9, 20)
    built = build_case_files(fse.agency, [fse.pk], on)[fse.pk]
    with transaction.atomic():
        fast = load_case_files(fse.agency, [fse.pk], on)[fse.pk]
    for case in (built, fast):
        report = evaluate(case if not isinstance(case, dict) else parse_case(case), on)
        overdue = [f for f in report.findings if f.rule == "gcd.service_overdue"]
        assert [(f.open, f.since, f.evidence.get("approval_reference")) for f in overdue] == [
            (True, date(2025, 8, 14), "Letter PW-2025-08")
        ]
