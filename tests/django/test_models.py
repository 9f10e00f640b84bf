"""Database constraints hold on the real database (PostgreSQL in `make test`)."""

import pytest
from django.db import IntegrityError, transaction

from tests.records import make_agency, make_device, make_establishment, make_hauler, make_service

pytestmark = pytest.mark.django_db


def test_it_refuses_a_negative_depth():
    device = make_device(make_establishment(make_agency()))
    with pytest.raises(IntegrityError), transaction.atomic():
        make_service(device, "M-1", "2025-01-01", fog_inches=-1)


def test_it_refuses_a_manifest_number_twice_for_one_hauler():
    agency = make_agency()
    device = make_device(make_establishment(agency))
    hauler = make_hauler(agency)
    make_service(device, "M-1", "2025-01-01", hauler=hauler)
    with pytest.raises(IntegrityError), transaction.atomic():
        make_service(device, "M-1", "2025-02-01", hauler=hauler)


def test_it_refuses_a_closing_before_the_opening():
    with pytest.raises(IntegrityError), transaction.atomic():
        make_establishment(make_agency(), opened_on="2025-01-01", closed_on="2024-12-31")
