"""Records inside the pack's retention period are not deleted: 3 years in San Clemente
(13.30.050(H)), 2 years in the Town (10.02.140). The last day of the period is inside it."""

from datetime import date

import pytest
from django.core.exceptions import ValidationError

from fogkeeper.audit.models import AuditEvent
from fogkeeper.maintenance.models import Service
from fogkeeper.registry.retention import record_delete
from fogkeeper.training.models import Attendance
from tests.audit.people import alice, events
from tests.records import (
    make_agency,
    make_device,
    make_employee,
    make_establishment,
    make_hauler,
    make_service,
    make_training,
)

pytestmark = pytest.mark.django_db


def service_of(pack: str, on: str) -> Service:
    return make_service(make_device(make_establishment(make_agency(pack))), "M-1", on)


def test_it_refuses_a_san_clemente_record_on_the_last_day_of_three_years():
    service = service_of("san-clemente", "2022-03-01")
    with pytest.raises(ValidationError) as e:
        record_delete(service, actor=alice(), on=date(2025, 3, 1))
    (message,) = e.value.message_dict["date"]
    assert "3 years" in message and "13.30.050(H)(1)(c)" in message
    assert "may be deleted from 2025-03-02" in message
    assert Service.objects.filter(pk=service.pk).exists()
    assert events() == []


def test_it_deletes_a_san_clemente_record_the_day_after():
    service = service_of("san-clemente", "2022-03-01")
    record_delete(service, actor=alice(), on=date(2025, 3, 2))
    assert not Service.objects.exists()


def test_it_refuses_a_town_record_on_the_last_day_of_two_years():
    service = service_of("town-10-02", "2023-06-01")
    with pytest.raises(ValidationError) as e:
        record_delete(service, actor=alice(), on=date(2025, 6, 1))
    assert "2 years" in e.value.messages[0] and "10.02.140" in e.value.messages[0]
    assert Service.objects.exists()


def test_it_deletes_a_town_record_the_day_after():
    service = service_of("town-10-02", "2023-06-01")
    record_delete(service, actor=alice(), on=date(2025, 6, 2))
    assert not Service.objects.exists()


def test_it_writes_an_audit_row_with_the_deleted_record():
    service = service_of("san-clemente", "2020-01-15")
    pk = service.pk
    record_delete(service, actor=alice(), on=date(2025, 3, 2), reason="entered twice")
    (event,) = events("service.delete")
    assert (event.object_id, event.reason) == (str(pk), "entered twice")
    assert event.before["manifest_number"] == "M-1"
    assert event.after is None and event.actor.username == "alice"


def test_it_keeps_the_attendance_of_a_deleted_training_in_the_audit_row():
    fse = make_establishment(make_agency())
    training = make_training(fse, "T-1", "2020-01-15", [make_employee(fse, hired_on="2020-01-01")])
    record_delete(training, actor=None, on=date(2025, 3, 2))
    (event,) = events("training.delete")
    assert [a["signed"] for a in event.before["attendance"]] == [True]
    assert not Attendance.objects.exists()


def test_it_refuses_a_current_record():
    fse = make_establishment(make_agency())
    with pytest.raises(ValidationError) as e:
        record_delete(fse, actor=None, on=date(2040, 1, 1))
    assert "is current" in e.value.message_dict["closed_on"][0]


def test_it_deletes_a_closed_establishment_after_the_period():
    fse = make_establishment(make_agency(), closed_on="2020-06-30")
    fse.tenures.all().delete()
    record_delete(fse, actor=None, on=date(2023, 7, 1))
    assert events("foodserviceestablishment.delete")


def test_it_refuses_a_record_still_referred_to_and_changes_nothing():
    agency = make_agency()
    hauler = make_hauler(agency)
    make_service(make_device(make_establishment(agency)), "M-1", "2015-01-01", hauler=hauler)
    with pytest.raises(ValidationError) as e:
        record_delete(hauler, actor=None, on=date(2025, 1, 1))
    assert "services" in e.value.messages[0]
    assert events() == []


def test_it_never_deletes_an_audit_row():
    service = service_of("san-clemente", "2020-01-15")
    record_delete(service, actor=None, on=date(2025, 3, 2))
    with pytest.raises(ValidationError):
        record_delete(AuditEvent.objects.get(), actor=None, on=date(2040, 1, 1))
    assert AuditEvent.objects.count() == 1


def test_a_segment_cleaning_is_kept_for_the_period_like_the_other_records():
    from fogkeeper.sewers.models import SegmentCleaning
    from tests.sewers.records import clean, make_segment

    cleaning = clean(make_segment(make_agency("san-clemente")), 0, as_of=date(2022, 3, 1))
    with pytest.raises(ValidationError) as e:
        record_delete(cleaning, actor=alice(), on=date(2025, 3, 1))
    assert "may be deleted from 2025-03-02" in e.value.message_dict["cleaned_on"][0]
    assert SegmentCleaning.objects.filter(pk=cleaning.pk).exists()
    record_delete(cleaning, actor=alice(), on=date(2025, 3, 2))
    assert not SegmentCleaning.objects.exists()
