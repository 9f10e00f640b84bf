from datetime import date

import pytest
from django.core.exceptions import ValidationError

from fogkeeper.permits.models import Permit
from fogkeeper.permits.selectors import establishment_current_permit
from fogkeeper.permits.services import permit_renew
from tests.audit.people import events
from tests.records import make_agency, make_establishment, make_permit

pytestmark = pytest.mark.django_db


def renew(permit, **kw):
    fields = {"number": "SC-2", "issued_on": date(2025, 1, 1), "expires_on": date(2029, 12, 31)}
    return permit_renew(permit=permit, **{**fields, **kw})


def test_it_supersedes_the_old_permit():
    fse = make_establishment(make_agency())
    old = make_permit(fse, number="SC-1", issued_on="2020-01-01", expires_on="2024-12-31")
    new = renew(old)
    old.refresh_from_db()
    assert (old.status, old.ended_on) == ("superseded", date(2025, 1, 1))
    assert establishment_current_permit(establishment=fse) == new


def test_it_carries_the_frequencies_and_conditions_over():
    fse = make_establishment(make_agency())
    old = make_permit(fse, service_frequency_days=90, conditions="Pump quarterly")
    new = renew(old)
    assert (new.service_frequency_days, new.conditions) == (90, "Pump quarterly")


def test_it_writes_both_audit_rows():
    old = make_permit(make_establishment(make_agency()))
    renew(old)
    assert [e.action for e in events()] == ["permit.supersede", "permit.renew"]
    assert events("permit.supersede")[0].before["status"] == "active"


def test_it_refuses_to_renew_an_ended_permit():
    old = make_permit(make_establishment(make_agency()), status="ended", ended_on="2024-06-01")
    with pytest.raises(ValidationError) as e:
        renew(old)
    assert "ended" in e.value.message_dict["permit"][0].lower()
    assert Permit.objects.count() == 1


def test_it_refuses_an_expiry_before_the_issue_and_changes_nothing():
    old = make_permit(make_establishment(make_agency()))
    with pytest.raises(ValidationError) as e:
        renew(old, expires_on=date(2024, 12, 31))
    assert "expires_on" in e.value.message_dict
    old.refresh_from_db()
    assert old.status == "active" and Permit.objects.count() == 1 and events() == []


def test_it_refuses_a_renewal_issued_before_the_old_permit():
    old = make_permit(make_establishment(make_agency()), issued_on="2024-01-01")
    with pytest.raises(ValidationError) as e:
        renew(old, issued_on=date(2023, 12, 31))
    assert "issued_on" in e.value.message_dict
