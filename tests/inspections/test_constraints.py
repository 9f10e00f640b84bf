import pytest
from django.db import IntegrityError, transaction

from tests.records import make_agency, make_device, make_establishment, make_inspection

pytestmark = pytest.mark.django_db


def test_it_refuses_a_negative_measurement():
    fse = make_establishment(make_agency())
    with pytest.raises(IntegrityError), transaction.atomic():
        make_inspection(
            fse, "I-1", "2025-02-03", measurements=[(make_device(fse), {"fog_inches": -1})]
        )
