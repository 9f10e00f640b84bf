import pytest
from django.db import IntegrityError, transaction

from tests.records import make_agency, make_establishment, make_incident

pytestmark = pytest.mark.django_db


def test_it_refuses_a_clearance_inspection_before_the_incident():
    fse = make_establishment(make_agency())
    with pytest.raises(IntegrityError), transaction.atomic():
        make_incident(fse, "SSO-1", "2025-02-03", clearance_inspection_on="2025-02-02")
