from datetime import date
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from fogkeeper.compliance.models import Finding
from fogkeeper.incidents.models import Incident
from fogkeeper.incidents.services import incident_report, incident_update
from tests.audit.people import alice, events
from tests.records import make_agency, make_establishment, make_incident

pytestmark = pytest.mark.django_db

TODAY = date(2025, 3, 31)


@pytest.fixture
def town_overflow():
    fse = make_establishment(make_agency("town-10-02"), code="T-1", opened_on="2020-01-01")
    return make_incident(fse, "SSO-1", "2025-03-03", attributed=True, fog_caused=True)


def update(incident, **kw):
    values = {"attributed": True, "fog_caused": True, "today": TODAY, "as_of": TODAY}
    return incident_update(incident=incident, **{**values, **kw})


def open_rules(fse):
    return set(Finding.objects.filter(establishment=fse, open=True).values_list("rule", flat=True))


def test_it_records_the_report_and_clearance_with_before_and_after(town_overflow):
    update(
        town_overflow,
        written_report_on=date(2025, 3, 6),
        clearance_inspection_on=date(2025, 3, 20),
        cause="grease in the lateral",
        gallons=Decimal("40"),
        actor=alice(),
    )
    (event,) = events("incident.update")
    assert event.before["clearance_inspection_on"] is None
    assert event.after["clearance_inspection_on"] == "2025-03-20"
    assert (event.after["cause"], event.actor.username) == ("grease in the lateral", "alice")


def test_it_evaluates_the_establishment_again_at_once(town_overflow):
    fse = town_overflow.establishment
    update(town_overflow)
    assert {"incident.overflow", "incident.written_report_late"} <= open_rules(fse)
    update(town_overflow, written_report_on=date(2025, 3, 6), clearance_inspection_on=TODAY)
    assert not {r for r in open_rules(fse) if r.startswith("incident.")}


def test_it_refuses_a_clearance_before_the_incident_and_changes_nothing(town_overflow):
    with pytest.raises(ValidationError) as e:
        update(town_overflow, clearance_inspection_on=date(2025, 3, 1), cause="changed")
    assert e.value.message_dict == {
        "clearance_inspection_on": ["2025-03-01 is before the incident (2025-03-03)."]
    }
    town_overflow.refresh_from_db()
    assert town_overflow.cause == "" and events() == []


def test_it_refuses_a_report_in_the_future(town_overflow):
    with pytest.raises(ValidationError) as e:
        update(town_overflow, written_report_on=date(2025, 4, 1))
    assert e.value.message_dict == {"written_report_on": ["2025-04-01 is in the future."]}
    assert Incident.objects.get().written_report_on is None


def test_it_refuses_a_negative_volume(town_overflow):
    with pytest.raises(ValidationError) as e:
        update(town_overflow, gallons=Decimal("-1"))
    assert list(e.value.message_dict) == ["gallons"]
    assert events() == []


def test_it_refuses_to_attribute_an_incident_without_establishment():
    spill = incident_report(agency=make_agency(), code="S-1", date=date(2025, 2, 3))
    with pytest.raises(ValidationError) as e:
        update(spill)
    assert list(e.value.message_dict) == ["attributed"]
    assert not Incident.objects.get().attributed


def test_it_refuses_a_new_incident_dated_in_the_future():
    with pytest.raises(ValidationError) as e:
        incident_report(agency=make_agency(), code="S-1", date=date(2025, 4, 1), today=TODAY)
    assert e.value.message_dict == {"date": ["2025-04-01 is in the future."]}
    assert not Incident.objects.exists()
