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
        record(fse, measurements=[Reading(make_device(fse), fog_inches=Decimal("-1"))])
    assert e.value.message_dict == {"measurements[0]": ["fog_inches: Cannot be negative (got -1)."]}


def test_it_refuses_a_device_measured_twice(fse):
    gi = make_device(fse)
    with pytest.raises(ValidationError) as e:
        record(fse, measurements=[Reading(gi), Reading(gi)])
    assert "measured twice" in e.value.message_dict["measurements[1]"][0]


def test_it_refuses_a_code_the_establishment_already_uses(fse):
    record(fse)
    with pytest.raises(ValidationError) as e:
        record(fse, answers=[Answer("bmp.dry_wipe", True)])
    assert list(e.value.message_dict) == ["code"]
    assert not ChecklistAnswer.objects.exists()
