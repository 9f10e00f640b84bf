from datetime import date

import pytest
from django.core.exceptions import ValidationError

from fogkeeper.compliance.models import Finding
from fogkeeper.incidents.models import Incident
from fogkeeper.incidents.services import incident_match, incident_set_aside
from tests.audit.people import alice, events
from tests.records import make_agency, make_establishment

pytestmark = pytest.mark.django_db

TODAY = date(2025, 3, 31)


@pytest.fixture
def spill():
    agency = make_agency()
    return Incident.objects.create(
        agency=agency,
        code="712345",
        date=date(2025, 3, 3),
        kind="spill",
        fog_caused=True,
        address="101 Avenida Del Mar",
        source="ciwqs",
        source_record={"SPILL_ID": "712345"},
    )


def test_it_matches_a_spill_attributing_it_when_fog_caused(spill):
    fse = make_establishment(spill.agency, opened_on="2020-01-01")
    incident_match(incident=spill, establishment=fse, today=TODAY, as_of=TODAY, actor=alice())
    spill.refresh_from_db()
    assert (spill.establishment, spill.attributed, spill.reviewed_on) == (fse, True, TODAY)
    (event,) = events("incident.match")
    assert event.before["establishment_id"] is None
    assert event.after["establishment_id"] == fse.pk
    assert Finding.objects.filter(establishment=fse, rule="incident.overflow").exists()


def test_it_refuses_an_establishment_of_another_agency(spill):
    stranger = make_establishment(make_agency("town-10-02"), code="T-1")
    with pytest.raises(ValidationError) as e:
        incident_match(incident=spill, establishment=stranger, today=TODAY)
    assert list(e.value.message_dict) == ["establishment"]
    spill.refresh_from_db()
    assert spill.establishment is None and events() == []


def test_it_sets_a_spill_aside_with_the_reason(spill):
    incident_set_aside(incident=spill, note="a home's lateral", today=TODAY, actor=alice())
    spill.refresh_from_db()
    assert (spill.reviewed_on, spill.review_note, spill.to_review) == (
        TODAY,
        "a home's lateral",
        False,
    )
    assert events("incident.set_aside")


def test_it_refuses_to_set_aside_without_a_reason(spill):
    with pytest.raises(ValidationError) as e:
        incident_set_aside(incident=spill, note="  ", today=TODAY)
    assert list(e.value.message_dict) == ["review_note"]
    assert Incident.objects.get().reviewed_on is None and events() == []
