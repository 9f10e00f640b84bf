"""A pack's sizing formula on the device page (issue 38 item 2): the inputs recorded on a
page of their own, the size the formula requires shown beside the device's, and the engine's
finding of an undersized device when the device is smaller."""

from pathlib import Path

import pytest

from fogkeeper.audit.models import AuditEvent
from fogkeeper.compliance.models import Finding
from fogkeeper.registry.models import GreaseControlDevice
from fogkeeper.rules import evaluate, parse_case
from tests.records import make_agency, make_device, make_establishment
from tests.web.people import make_user

pytestmark = pytest.mark.django_db
PACKS = Path(__file__).resolve().parents[2] / "rules" / "format_packs"


@pytest.fixture
def device(client, monkeypatch):
    monkeypatch.setenv("FOGKEEPER_PACKS", str(PACKS))
    agency = make_agency("reach-town")
    fse = make_establishment(agency, code="FSE-7", opened_on="2024-02-01")
    client.force_login(make_user("mia", agency, role="manager"))
    return make_device(fse, installed_on="2024-03-01", capacity_gallons=1000, compartments=2)


def page(client, device) -> str:
    return client.get(f"/establishments/FSE-7/devices/{device.pk}/").content.decode()


def test_the_page_shows_the_size_the_formula_requires_once_its_inputs_are_recorded(client, device):
    assert "not known until every input is recorded" in page(client, device)
    url = f"/establishments/FSE-7/devices/{device.pk}/sizing/"
    response = client.post(url, {"seats": "50", "hours_open": "8"}, follow=True)
    assert response.status_code == 200
    html = page(client, device)
    assert "Capacity gallons 1700.0: <strong>this device is smaller</strong>" in html
    assert "Seats in the dining area: 50.0" in html
    assert GreaseControlDevice.objects.get(pk=device.pk).sizing_inputs == {
        "seats": 50.0,
        "hours_open": 8.0,
    }
    assert AuditEvent.objects.filter(action="device.sizing_set").count() == 1
    finding = Finding.objects.get(rule="gcd.undersized", open=True)
    assert "requires 1,700.0" in finding.message


def test_a_negative_input_is_refused_in_words_and_nothing_changes(client, device):
    url = f"/establishments/FSE-7/devices/{device.pk}/sizing/"
    response = client.post(url, {"seats": "-5", "hours_open": "8"})
    assert response.status_code == 400
    assert "greater than or equal to 0" in response.content.decode()
    assert GreaseControlDevice.objects.get(pk=device.pk).sizing_inputs == {}
    assert not AuditEvent.objects.filter(action="device.sizing_set").exists()


def test_both_case_file_readings_carry_a_haulers_certification(device):
    """The hauler's certification on record reaches the engine by either builder."""
    from datetime import date

    from django.db import transaction

    from fogkeeper.compliance.casefiles.as_json import build_case_files
    from fogkeeper.compliance.casefiles.as_records import load_case_files
    from tests.records import make_hauler, make_service

    fse = device.establishment
    hauler = make_hauler(fse.agency, certification_expires_on=date(2025, 3, 31))
    other = make_hauler(fse.agency, "H-2", certified=False)
    make_service(device, "M-1", "2025-04-01", hauler=hauler)
    make_service(device, "M-2", "2025-04-02", hauler=other)
    on = date(2025, 5, 1)
    built = build_case_files(fse.agency, [fse.pk], on)[fse.pk]
    with transaction.atomic():
        fast = load_case_files(fse.agency, [fse.pk], on)[fse.pk]
    for case in (built, fast):
        report = evaluate(case if not isinstance(case, dict) else parse_case(case), on)
        found = [
            f.evidence["hauler"] for f in report.findings if f.rule == "gcd.uncertified_hauler"
        ]
        assert sorted(found) == ["H-1", "H-2"]
