import io
from datetime import date

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command

from fogkeeper.audit.models import AuditEvent
from fogkeeper.permits.models import PermitLetter, PermitModification
from fogkeeper.permits.services import permit_modifications_apply, permit_modify
from tests.records import make_agency, make_establishment, make_inspection, make_permit

pytestmark = pytest.mark.django_db

TODAY = date(2026, 12, 1)


@pytest.fixture
def permit():
    fse = make_establishment(make_agency())
    return make_permit(
        fse, issued_on="2026-01-01", expires_on="2030-12-31", service_frequency_days=90
    )


def modify(permit, effective_on, **kw):
    fields = {
        "permit": permit,
        "noticed_on": TODAY,
        "effective_on": effective_on,
        "changes": {"service_frequency_days": 60},
        "reason": "Grease found",
        "today": TODAY,
    }
    return permit_modify(**{**fields, **kw})


def test_it_refuses_a_san_clemente_change_on_30_days_notice_citing_13_30_050_j(permit):
    with pytest.raises(ValidationError) as e:
        modify(permit, date(2026, 12, 31))
    (message,) = e.value.message_dict["effective_on"]
    assert "45 days" in message and "13.30.050(J)" in message and "2027-01-15" in message
    assert PermitModification.objects.count() == PermitLetter.objects.count() == 0


def test_it_records_a_change_on_45_days_notice_with_its_letter_and_audit_row(permit):
    m = modify(permit, date(2027, 1, 15))
    assert m.letter.pdf[:4] == b"%PDF" and len(m.letter.sha256) == 64
    assert m.applied_on is None
    permit.refresh_from_db()
    assert permit.service_frequency_days == 90
    assert AuditEvent.objects.filter(action="permit.modify").count() == 1


def test_it_allows_14_days_after_an_inspectors_evaluation(permit):
    inspection = make_inspection(permit.establishment, "I-1", "2026-11-20")
    m = modify(permit, date(2026, 12, 15), inspection=inspection)
    assert m.inspection == inspection
    with pytest.raises(ValidationError) as e:
        modify(permit, date(2026, 12, 14), inspection=inspection)
    assert "14 days" in e.value.message_dict["effective_on"][0]


def test_it_applies_the_terms_on_the_effective_date_once(permit):
    modify(permit, date(2027, 1, 15))
    assert permit_modifications_apply(on=date(2027, 1, 14)) == []
    assert len(permit_modifications_apply(on=date(2027, 1, 15))) == 1
    call_command("apply_permit_modifications", on=date(2027, 1, 16))
    permit.refresh_from_db()
    assert permit.service_frequency_days == 60
    assert AuditEvent.objects.filter(action="permit.modification_apply").count() == 1


def test_it_applies_at_once_when_in_effect_today(permit):
    modify(permit, TODAY, noticed_on=date(2026, 10, 1))
    permit.refresh_from_db()
    assert permit.service_frequency_days == 60


def test_it_refuses_a_change_that_changes_nothing(permit):
    with pytest.raises(ValidationError) as e:
        modify(permit, date(2027, 1, 15), changes={"service_frequency_days": 90})
    assert "Nothing would change" in e.value.message_dict["changes"][0]


def test_it_gives_the_town_10_days_and_only_its_allowed_frequencies():
    fse = make_establishment(make_agency("town-10-02"), code="T-1")
    permit = make_permit(fse, issued_on="2026-06-01", expires_on="2027-05-31")
    assert modify(permit, date(2026, 12, 11)).effective_on == date(2026, 12, 11)
    with pytest.raises(ValidationError) as e:
        modify(permit, date(2026, 12, 10), changes={"service_frequency_days": 45})
    errors = e.value.message_dict
    assert "10.02.060(C)" in errors["effective_on"][0]
    assert "10.02.130(B)" in errors["service_frequency_days"][0]


def test_tonights_sweep_applies_the_terms_taking_effect_today_and_a_past_sweep_does_not(permit):
    import time_machine

    modify(permit, date(2027, 1, 15))
    call_command("sweep", as_of="2027-01-20", stdout=io.StringIO())
    permit.refresh_from_db()
    assert permit.service_frequency_days == 90
    out = io.StringIO()
    with time_machine.travel("2027-01-15 23:30 -08:00", tick=False):
        call_command("sweep", stdout=out)
    permit.refresh_from_db()
    assert permit.service_frequency_days == 60
    assert "modified terms of 2027-01-15 applied" in out.getvalue()
