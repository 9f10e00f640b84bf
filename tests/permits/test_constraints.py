import pytest
from django.db import IntegrityError, transaction

from tests.records import make_agency, make_establishment, make_permit

pytestmark = pytest.mark.django_db


def test_it_refuses_an_expiry_before_the_issue():
    fse = make_establishment(make_agency())
    with pytest.raises(IntegrityError), transaction.atomic():
        make_permit(fse, issued_on="2025-01-01", expires_on="2024-12-31")


def test_it_refuses_a_permit_number_twice_in_one_agency():
    fse = make_establishment(make_agency())
    make_permit(fse, number="SC-1")
    with pytest.raises(IntegrityError), transaction.atomic():
        make_permit(fse, number="SC-1")
