"""What the database itself refuses, whatever writes to it."""

from datetime import date

import pytest
from django.db import IntegrityError, transaction

from fogkeeper.registry.models import Operator, OperatorTenure
from tests.records import make_agency, make_device, make_establishment

pytestmark = pytest.mark.django_db


def test_it_refuses_two_current_operators():
    fse = make_establishment(make_agency())
    other = Operator.objects.create(agency=fse.agency, name="Harbor Group")
    with pytest.raises(IntegrityError), transaction.atomic():
        OperatorTenure.objects.create(establishment=fse, operator=other, since=date(2025, 1, 1))


def test_it_refuses_a_tenure_ending_before_it_starts():
    fse = make_establishment(make_agency())
    other = Operator.objects.create(agency=fse.agency, name="Harbor Group")
    with pytest.raises(IntegrityError), transaction.atomic():
        OperatorTenure.objects.create(
            establishment=fse, operator=other, since=date(2025, 1, 1), until=date(2024, 1, 1)
        )


def test_it_refuses_a_device_code_twice_in_one_establishment():
    fse = make_establishment(make_agency())
    make_device(fse, code="GI-1")
    with pytest.raises(IntegrityError), transaction.atomic():
        make_device(fse, code="GI-1")
