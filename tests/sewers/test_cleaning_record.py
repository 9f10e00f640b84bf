"""Recording a cleaning of a sewer segment (fogkeeper.sewers.services.cleaning_record): every
refusal changes nothing, not a cleaning nor an audit row."""

from datetime import date

import pytest
from django.core.exceptions import ValidationError

from fogkeeper.audit.models import AuditEvent
from fogkeeper.sewers.models import SegmentCleaning
from fogkeeper.sewers.services import cleaning_record
from tests.sewers.records import AS_OF, make_segment
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    sc, town = two_agencies()
    return sc, town, make_segment(sc, "S-1"), make_user("ines", sc)


def record(world, **kw):
    sc, _, segment, ines = world
    values = {
        "agency": sc,
        "segment": segment,
        "cleaned_on": date(2026, 11, 30),
        "crew": "Crew 2",
        "method": "rodding",
        "fog_found": "heavy",
        "actor": ines,
        "today": AS_OF,
        **kw,
    }
    return cleaning_record(**values)


def counts():
    return SegmentCleaning.objects.count(), AuditEvent.objects.count()


def refused(world, field: str, **kw) -> list[str]:
    before = counts()
    with pytest.raises(ValidationError) as e:
        record(world, **kw)
    assert counts() == before
    return e.value.message_dict[field]


def test_it_records_the_cleaning_with_its_audit_row(world):
    cleaning = record(world, crew="  Crew 2 ", notes=" grease at MH-4 ")
    assert (cleaning.crew, cleaning.notes, cleaning.recorded_by) == (
        "Crew 2",
        "grease at MH-4",
        world[3],
    )
    event = AuditEvent.objects.get(action="segment.clean")
    assert event.object_id == str(cleaning.pk)
    assert event.agency == world[0]
    assert event.after["fog_found"] == "heavy"


def test_it_refuses_another_agencys_segment(world):
    other = make_segment(world[1], "T-1")
    assert "another agency" in refused(world, "segment", segment=other)[0]


def test_it_refuses_a_day_after_today_and_takes_today(world):
    assert "in the future" in refused(world, "cleaned_on", cleaned_on=date(2026, 12, 2))[0]
    assert record(world, cleaned_on=AS_OF).cleaned_on == AS_OF


def test_it_refuses_a_blank_crew(world):
    assert refused(world, "crew", crew="   ") == ["Name the crew that cleaned the segment."]


def test_it_refuses_a_method_or_fog_level_not_among_the_choices(world):
    assert refused(world, "method", method="dynamite")
    assert refused(world, "fog_found", fog_found="some")
