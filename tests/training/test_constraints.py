import pytest
from django.db import IntegrityError, transaction

from fogkeeper.training.models import Attendance
from tests.records import make_agency, make_employee, make_establishment, make_training

pytestmark = pytest.mark.django_db


def test_it_refuses_the_same_attendee_twice():
    fse = make_establishment(make_agency())
    ana = make_employee(fse)
    training = make_training(fse, "T-1", "2025-02-03", [ana])
    with pytest.raises(IntegrityError), transaction.atomic():
        Attendance.objects.create(training=training, employee=ana)


def test_it_refuses_a_leaving_before_the_hiring():
    fse = make_establishment(make_agency())
    with pytest.raises(IntegrityError), transaction.atomic():
        make_employee(fse, hired_on="2025-01-01", left_on="2024-12-31")
