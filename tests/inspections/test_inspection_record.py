from datetime import date
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from fogkeeper.inspections.models import ChecklistAnswer, Inspection, Measurement
from fogkeeper.inspections.services import Answer, Reading, inspection_record
from tests.audit.people import alice, events
from tests.records import make_agency, make_device, make_establishment

pytestmark = pytest.mark.django_db


@pytest.fixture
def fse():
    return make_establishment(make_agency())


def record(fse, **kw):
    return inspection_record(establishment=fse, code="I-1", date=date(2025, 2, 3), **kw)


def test_it_records_answers_and_measurements(fse):
    gi = make_device(fse)
    inspection = record(
        fse,
        answers=[Answer("bmp.drain_screens", False, note="missing at prep sink")],
        measurements=[Reading(gi, fog_inches=Decimal("3"), solids_inches=Decimal("5"))],
    )
    assert inspection.answers.get().compliant is False
    assert inspection.measurements.get().solids_inches == Decimal("5")


def test_it_writes_answers_and_measurements_into_the_audit_row(fse):
    gi = make_device(fse)
    record(fse, answers=[Answer("bmp.dry_wipe", True)], measurements=[Reading(gi)], actor=alice())
    (event,) = events("inspection.record")
    assert [a["item"] for a in event.after["answers"]] == ["bmp.dry_wipe"]
    assert event.after["measurements"][0]["device_id"] == gi.pk


def test_it_refuses_an_item_that_is_not_on_the_packs_checklist(fse):
    with pytest.raises(ValidationError) as e:
        record(fse, answers=[Answer("bmp.dry_wipe", True), Answer("bmp.juggling", True)])
    assert list(e.value.message_dict) == ["answers[1]"]
    assert "'bmp.juggling' is not on the checklist" in e.value.messages[0]
    assert not Inspection.objects.exists() and not ChecklistAnswer.objects.exists()


def test_it_takes_the_checklist_of_the_town_for_a_town_establishment():
    fse = make_establishment(make_agency("town-10-02"))
    with pytest.raises(ValidationError) as e:
        record(fse, answers=[Answer("bmp.spill_kit", True)])
    assert "answers[0]" in e.value.message_dict


def test_it_refuses_a_device_of_another_establishment(fse):
    other = make_device(make_establishment(fse.agency, code="FSE-2"))
    with pytest.raises(ValidationError) as e:
        record(fse, measurements=[Reading(other, fog_inches=Decimal("1"))])
    assert "is not a device of" in e.value.message_dict["measurements[0]"][0]
    assert not Measurement.objects.exists()


def test_it_refuses_a_negative_depth(fse):
    with pytest.raises(ValidationError) as e:
        reading = Reading(make_device(fse), fog_inches=Decimal("-1"), solids_inches=Decimal("1"))
        record(fse, measurements=[reading])
    assert e.value.message_dict == {
        "measurements[0]": ["FOG depth in GI-1: Cannot be negative (got -1)."]
    }


def test_it_refuses_a_device_measured_twice(fse):
    gi = make_device(fse)
    with pytest.raises(ValidationError) as e:
        record(fse, measurements=[Reading(gi), Reading(gi)])
    assert "measured twice" in e.value.message_dict["measurements[1]"][0]


def test_it_refuses_a_code_the_establishment_already_uses(fse):
    record(fse, answers=[Answer("bmp.spill_kit", True)])
    with pytest.raises(ValidationError) as e:
        record(fse, answers=[Answer("bmp.dry_wipe", True)])
    assert list(e.value.message_dict) == ["code"]
    assert ChecklistAnswer.objects.count() == 1


def test_it_refuses_a_blank_inspection_and_writes_nothing(fse):
    with pytest.raises(ValidationError) as e:
        record(fse)
    assert e.value.message_dict == {
        "__all__": ["An inspection records at least one checklist answer or measurement."]
    }
    assert not Inspection.objects.exists() and events() == []


def test_it_refuses_a_number_used_at_another_establishment_of_the_agency(fse):
    neighbour = make_establishment(fse.agency, code="FSE-2", name="Harbor Grill")
    record(neighbour, answers=[Answer("bmp.spill_kit", True)])
    with pytest.raises(ValidationError) as e:
        record(fse, answers=[Answer("bmp.spill_kit", True)])
    assert list(e.value.message_dict) == ["code"]
    assert Inspection.objects.count() == 1


def test_it_lets_another_agency_use_the_same_number(fse):
    town = make_establishment(make_agency("town-10-02"), code="T-1")
    record(fse, answers=[Answer("bmp.spill_kit", True)])
    record(town, measurements=[Reading(make_device(town), Decimal("1"), Decimal("1"))])
    assert Inspection.objects.count() == 2


def test_it_refuses_solids_without_fog_on_that_measurement(fse):
    with pytest.raises(ValidationError) as e:
        record(fse, measurements=[Reading(make_device(fse), solids_inches=Decimal("2"))])
    (message,) = e.value.message_dict["measurements[0]"]
    assert "the FOG depth is missing" in message
    assert not Inspection.objects.exists() and events() == []


def test_it_takes_a_reading_of_the_final_chamber_without_depths(fse):
    reading = Reading(make_device(fse), final_chamber_floating_oil=False)
    assert record(fse, measurements=[reading]).measurements.count() == 1


def test_it_refuses_a_date_after_today(fse):
    with pytest.raises(ValidationError) as e:
        record(fse, answers=[Answer("bmp.spill_kit", True)], today=date(2025, 2, 2))
    assert e.value.message_dict == {"date": ["2025-02-03 is in the future."]}
    assert events() == []


def test_it_refuses_fog_and_solids_deeper_than_the_device(fse):
    """Issue 39: 60 in of solids in a 48-in interceptor opened a violation at 129%."""
    gi = make_device(fse, design_depth_inches=Decimal("48"))
    with pytest.raises(ValidationError) as e:
        record(
            fse, measurements=[Reading(gi, fog_inches=Decimal("2"), solids_inches=Decimal("60"))]
        )
    assert e.value.message_dict == {
        "measurements[0]": [
            "GI-1: FOG (2 in) and solids (60 in) come to 62 in, more than its design depth of "
            "48 in; check the readings."
        ]
    }
    assert not Inspection.objects.exists() and not Measurement.objects.exists()
    record(fse, measurements=[Reading(gi, fog_inches=Decimal("8"), solids_inches=Decimal("40"))])
    assert Measurement.objects.get().solids_inches == 40  # exactly full is a reading
