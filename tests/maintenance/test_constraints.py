import pytest
from django.db import IntegrityError, transaction

from tests.records import make_agency, make_establishment, make_pickup

pytestmark = pytest.mark.django_db


def test_it_refuses_negative_gallons_of_yellow_grease():
    fse = make_establishment(make_agency())
    with pytest.raises(IntegrityError), transaction.atomic():
        make_pickup(fse, "2025-01-01", gallons=-1)
