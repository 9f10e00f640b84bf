from datetime import date
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from fogkeeper.incidents.models import Incident
from fogkeeper.incidents.services import incident_report
from tests.audit.people import alice, events
from tests.records import make_agency, make_establishment, make_incident

pytestmark = pytest.mark.django_db


def report(agency, **kw):
    return incident_report(agency=agency, code="SSO-1", date=date(2025, 2, 3), **kw)


def test_it_reports_an_overflow_with_an_audit_row():
    fse = make_establishment(make_agency())
    incident = report(fse.agency, establishment=fse, attributed=True, actor=alice())
    (event,) = events("incident.report")
    assert (event.object_id, event.agency) == (str(incident.pk), fse.agency)
    assert event.after["attributed"] is True


def test_it_normalises_the_address():
    incident = report(make_agency(), address="101 Avenida Del Mar, Suite 4")
    assert incident.normalised_address == "101 avenida del mar"


def test_it_refuses_an_establishment_of_another_agency():
    fse = make_establishment(make_agency("town-10-02"))
    with pytest.raises(ValidationError) as e:
        report(make_agency(), establishment=fse)
    assert "establishment" in e.value.message_dict
    assert not Incident.objects.exists()


def test_it_refuses_a_written_report_before_the_incident():
    with pytest.raises(ValidationError) as e:
        report(make_agency(), written_report_on=date(2025, 2, 2))
    assert e.value.message_dict == {
        "written_report_on": ["2025-02-02 is before the incident (2025-02-03)."]
    }


def test_it_refuses_negative_gallons_and_changes_nothing():
    with pytest.raises(ValidationError) as e:
        report(make_agency(), gallons=Decimal("-10"))
    assert list(e.value.message_dict) == ["gallons"]
    assert events() == []


def test_it_refuses_an_attribution_without_an_establishment():
    with pytest.raises(ValidationError) as e:
        report(make_agency(), attributed=True)
    assert "attributed" in e.value.message_dict


def test_it_refuses_a_code_the_agency_already_uses():
    fse = make_establishment(make_agency())
    make_incident(fse, "SSO-1", "2025-01-01")
    with pytest.raises(ValidationError) as e:
        report(fse.agency)
    assert list(e.value.message_dict) == ["code"]


def test_it_derives_the_category_from_the_spills_data():
    incident = report(make_agency(), gallons=Decimal("999"), reached_surface_water=False)
    assert (incident.category, incident.category_source) == (3, "derived")


def test_it_keeps_a_staff_category_where_the_volume_is_unknown():
    incident = report(make_agency(), reached_surface_water=False, category=2)
    assert (incident.category, incident.category_source) == (2, "staff")


def test_it_refuses_a_staff_category_contradicting_the_volume_and_writes_nothing():
    with pytest.raises(ValidationError) as e:
        report(make_agency(), gallons=Decimal("2000"), reached_surface_water=False, category=4)
    assert "1,000 gallons or more is category 2" in e.value.message_dict["category"][0]
    assert not Incident.objects.exists() and events() == []


def test_it_refuses_more_recovered_than_spilled():
    with pytest.raises(ValidationError) as e:
        report(make_agency(), gallons=Decimal("10"), gallons_recovered=Decimal("11"))
    assert e.value.message_dict == {
        "gallons_recovered": ["11 gallons is more than the 10 spilled."]
    }


def test_it_refuses_a_field_it_does_not_know():
    with pytest.raises(TypeError, match="not a spill field: colour"):
        report(make_agency(), colour="brown")
