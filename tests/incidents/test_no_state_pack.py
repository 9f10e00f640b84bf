"""An agency whose pack names no State pack (Aurora, Ohio: `state_reporting: none`) keeps a
spill's facts and owes the State nothing fogkeeper computes: no category, no deadline, no
report due; a State category or report given is refused in words and nothing is stored. The
seed packs keep California's General Order."""

from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from fogkeeper.incidents.models import Incident
from fogkeeper.incidents.reporting_pack import of_agency
from fogkeeper.incidents.services import incident_report
from fogkeeper.incidents.spills import deadlines, derive_category, reports_due
from tests.records import make_agency

pytestmark = pytest.mark.django_db

START = datetime(2025, 2, 3, 13, 0, tzinfo=UTC)
FACTS = {
    "gallons": Decimal("1500"),
    "gallons_recovered": Decimal("900"),
    "reached_surface_water": False,
    "reached_storm_drain": False,
    "started_at": START,
    "ended_at": START + timedelta(hours=2),
    "known_at": START + timedelta(minutes=20),
    "cause": "Grease in the lateral",
}


def report(agency, **kw):
    return incident_report(agency=agency, code="SSO-1", date=date(2025, 2, 3), kind="spill", **kw)


def test_the_seed_packs_report_under_californias_order_and_aurora_under_none():
    assert of_agency(make_agency()).order == "General Order WQ 2022-0103-DWQ"
    assert of_agency(make_agency("town-10-02")).system == "CIWQS"
    assert of_agency(make_agency("us-oh-aurora")) is None


def test_a_spill_keeps_its_facts_and_owes_the_state_nothing():
    incident = report(make_agency("us-oh-aurora"), **FACTS)
    incident.refresh_from_db()
    assert (incident.gallons, incident.gallons_recovered) == (Decimal("1500"), Decimal("900"))
    assert incident.ended_at == START + timedelta(hours=2)
    assert incident.cause == "Grease in the lateral"
    assert (incident.category, incident.category_source) == (None, "")
    assert derive_category(incident) == (None, "")
    assert deadlines(incident, date(2025, 3, 1)) == []
    assert reports_due(as_of=date(2025, 3, 1), start=date(2025, 1, 1), end=date(2026, 1, 1)) == []


def test_the_same_spill_in_california_is_category_2_with_its_reports():
    incident = report(make_agency(), **FACTS)
    assert (incident.category, incident.category_source) == (2, "derived")
    assert {d.key for d in deadlines(incident, date(2025, 3, 1))} >= {"certified_report"}


def test_a_state_category_or_report_is_refused_in_words_and_nothing_is_kept():
    agency = make_agency("us-oh-aurora", name="City of Aurora")
    with pytest.raises(ValidationError) as e:
        report(agency, category=2, draft_report_on=date(2025, 2, 5), **FACTS)
    why = "City of Aurora's ordinance pack names no State spill reporting."
    assert e.value.message_dict == {
        "category": [f"A spill has no State category here: {why}"],
        "draft_report_on": [f"The draft spill report is a State record, not kept here: {why}"],
    }
    assert not Incident.objects.exists()
