"""Requests filed and answered: the pack's kinds, each about the establishment's own record,
a grant written onto what the engine reads, a refusal that changes nothing."""

from datetime import date
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from fogkeeper.audit.models import AuditEvent
from fogkeeper.filings.kinds import request_kinds
from fogkeeper.filings.models import Filing
from fogkeeper.filings.services import filing_decide, filing_deliver, filing_submit
from fogkeeper.permits.models import PermitModification
from fogkeeper.rules.packs import default_registry
from tests.filings import make_hearing
from tests.records import make_agency, make_device, make_establishment, make_permit

pytestmark = pytest.mark.django_db

TODAY = date(2026, 12, 1)


@pytest.fixture
def fse():
    return make_establishment(make_agency())


def _schedule(fse, **kw):
    fields = {
        "establishment": fse,
        "kind": "revised_schedule",
        "filed_on": TODAY,
        "device": make_device(fse),
        "frequency_days": 120,
        "grounds": "Six months of measurements under 10%.",
        "today": TODAY,
    }
    return filing_submit(**{**fields, **kw})


def test_it_files_a_revised_schedule_request_about_the_establishments_device(fse):
    filing = _schedule(fse)
    assert (filing.kind, filing.frequency_days, filing.outcome) == ("revised_schedule", 120, "")
    assert AuditEvent.objects.filter(action="filing.submit", object_id=str(filing.pk)).exists()


def test_it_refuses_a_device_of_another_establishment(fse):
    other = make_establishment(fse.agency, code="FSE-2")
    with pytest.raises(ValidationError) as e:
        _schedule(fse, device=make_device(other, code="GI-9"))
    assert "device" in e.value.message_dict
    assert not Filing.objects.exists()


def test_it_refuses_a_request_the_pack_does_not_declare(fse):
    with pytest.raises(ValidationError) as e:
        _schedule(fse, kind="frequency_change")
    assert "declares no request" in e.value.message_dict["kind"][0]


def test_it_names_the_section_of_a_field_left_empty(fse):
    with pytest.raises(ValidationError) as e:
        _schedule(fse, grounds="  ")
    assert "13.30.050(H)(1)(b)" in e.value.message_dict["grounds"][0]


def test_a_granted_schedule_sets_the_devices_frequency_from_the_day_decided(fse):
    filing = _schedule(fse)
    filing_decide(filing=filing, outcome="granted", decided_on=TODAY, today=TODAY)
    filing.device.refresh_from_db()
    assert filing.device.service_frequency_days == 120
    assert filing.granted_frequency_days == 120
    assert AuditEvent.objects.filter(action="device.frequency_set").exists()


def test_a_denial_keeps_the_frequency_and_needs_its_reasons(fse):
    filing = _schedule(fse)
    with pytest.raises(ValidationError) as e:
        filing_decide(filing=filing, outcome="denied", decided_on=TODAY, today=TODAY)
    assert "reasons" in e.value.message_dict
    filing_decide(
        filing=filing, outcome="denied", decided_on=TODAY, reasons="Grease over 25%.", today=TODAY
    )
    filing.device.refresh_from_db()
    assert filing.device.service_frequency_days is None
    assert Filing.objects.get().reasons == "Grease over 25%."


def test_a_request_is_answered_once(fse):
    filing = _schedule(fse)
    filing_decide(filing=filing, outcome="denied", decided_on=TODAY, reasons="No.", today=TODAY)
    with pytest.raises(ValidationError) as e:
        filing_decide(filing=filing, outcome="granted", decided_on=TODAY, today=TODAY)
    assert "answered on 2026-12-01" in e.value.message_dict["outcome"][0]


def test_a_town_request_granted_revises_the_permit_after_its_notice():
    fse = make_establishment(make_agency("town-10-02", name="The Town"))
    permit = make_permit(fse, number="T-1", service_frequency_days=90)
    filing = filing_submit(
        establishment=fse,
        kind="frequency_change",
        filed_on=TODAY,
        frequency_days=120,
        grounds="Average accumulation 12%.",
        accumulation="Jan 10%, Apr 12%, Jul 13%",
        today=TODAY,
    )
    assert filing.permit == permit
    filing_decide(filing=filing, outcome="granted", decided_on=TODAY, today=TODAY)
    modification = PermitModification.objects.get(permit=permit)
    assert modification.changes == {"service_frequency_days": 120}
    assert modification.effective_on == date(2026, 12, 11)  # 10 days' notice, 10.02.060(C)
    assert modification.letter is not None
    assert filing.permit_modification == modification


def test_a_town_frequency_outside_130b_is_refused_naming_the_section():
    fse = make_establishment(make_agency("town-10-02", name="The Town"))
    make_permit(fse, number="T-1", service_frequency_days=90)
    with pytest.raises(ValidationError) as e:
        filing_submit(
            establishment=fse,
            kind="frequency_change",
            filed_on=TODAY,
            frequency_days=100,
            grounds="g",
            accumulation="a",
            today=TODAY,
        )
    assert "10.02.130(B)" in e.value.message_dict["frequency_days"][0]


def test_the_record_of_a_proceeding_is_due_90_days_after_the_request(fse):
    filing = filing_submit(
        establishment=fse,
        kind="record_of_proceedings",
        filed_on=date(2026, 9, 1),
        hearing=make_hearing(fse),
        grounds="For a petition for writ of mandate.",
        today=TODAY,
    )
    assert filing.due_on == date(2026, 11, 30)
    filing_deliver(filing=filing, delivered_on=TODAY, cost=Decimal("84.50"), today=TODAY)
    filing.refresh_from_db()
    assert (filing.outcome, filing.cost) == ("delivered", Decimal("84.50"))


def test_a_record_cannot_be_granted_only_delivered(fse):
    filing = filing_submit(
        establishment=fse,
        kind="record_of_proceedings",
        filed_on=TODAY,
        hearing=make_hearing(fse),
        grounds="g",
        today=TODAY,
    )
    with pytest.raises(ValidationError):
        filing_decide(filing=filing, outcome="granted", decided_on=TODAY, today=TODAY)


def test_a_pack_without_requests_yaml_declares_none():
    assert request_kinds(default_registry().get("us-oh-aurora")) == {}


def test_a_granted_yellow_grease_schedule_modifies_the_permit_after_13_30_050_js_notice(fse):
    permit = make_permit(fse, yellow_grease_frequency_days=30)
    filing = filing_submit(
        establishment=fse,
        kind="revised_collection_schedule",
        filed_on=TODAY,
        frequency_days=60,
        grounds="Two drums a month.",
        today=TODAY,
    )
    filing_decide(filing=filing, outcome="granted", decided_on=TODAY, today=TODAY)
    modification = PermitModification.objects.get(permit=permit)
    assert modification.changes == {"yellow_grease_frequency_days": 60}
    assert modification.effective_on == date(2027, 1, 15)  # 45 days' notice, 13.30.050(J)
