from datetime import date

import pytest
from django.core.exceptions import ValidationError

from fogkeeper.training.models import Attendance, Training
from fogkeeper.training.services import training_record
from tests.audit.people import alice, events
from tests.records import make_agency, make_employee, make_establishment

pytestmark = pytest.mark.django_db


@pytest.fixture
def fse():
    return make_establishment(make_agency())


def record(fse, attendees, **kw):
    return training_record(
        establishment=fse, code="T-1", date=date(2025, 2, 3), attendees=attendees, **kw
    )


def test_it_records_attendees_and_their_signatures(fse):
    ana, ben = make_employee(fse, code="E-1"), make_employee(fse, code="E-2")
    training = record(fse, [ana, ben], unsigned=[ben])
    signed = {a.employee: a.signed for a in training.attendance.all()}
    assert signed == {ana: True, ben: False}
    assert training.topic == "Kitchen BMPs and FOG control"


def test_it_writes_the_attendance_into_the_audit_row(fse):
    ana = make_employee(fse, code="E-1")
    record(fse, [ana], actor=alice())
    (event,) = events("training.record")
    assert event.after["attendance"] == [{"employee_id": ana.pk, "signed": True}]


def test_it_refuses_an_employee_of_another_establishment(fse):
    other = make_establishment(fse.agency, code="FSE-2", name="Harbor Grill")
    stranger = make_employee(other, code="E-9")
    with pytest.raises(ValidationError) as e:
        record(fse, [make_employee(fse), stranger])
    assert "not an employee of" in e.value.message_dict["attendees"][0]
    assert not Training.objects.exists() and not Attendance.objects.exists()


def test_it_refuses_an_employee_not_employed_on_the_day(fse):
    gone = make_employee(fse, hired_on="2024-01-01", left_on="2025-02-03")
    with pytest.raises(ValidationError) as e:
        record(fse, [gone])
    assert e.value.message_dict["attendees"] == [f"{gone} was not employed on 2025-02-03."]


def test_it_refuses_a_training_without_attendees(fse):
    with pytest.raises(ValidationError) as e:
        record(fse, [])
    assert "attendees" in e.value.message_dict


def test_it_refuses_an_unsigned_employee_who_did_not_attend(fse):
    ana, ben = make_employee(fse, code="E-1"), make_employee(fse, code="E-2")
    with pytest.raises(ValidationError) as e:
        record(fse, [ana], unsigned=[ben])
    assert "unsigned" in e.value.message_dict


def test_it_refuses_a_code_the_establishment_already_uses(fse):
    ana = make_employee(fse)
    record(fse, [ana])
    with pytest.raises(ValidationError) as e:
        record(fse, [ana])
    assert list(e.value.message_dict) == ["code"]
    assert Attendance.objects.count() == 1
