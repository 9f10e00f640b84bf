from datetime import date
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from fogkeeper.maintenance.models import YellowGreasePickup
from fogkeeper.maintenance.services import pickup_record
from tests.audit.people import events
from tests.records import make_agency, make_establishment, make_hauler

pytestmark = pytest.mark.django_db


def test_it_records_a_pickup_with_an_audit_row():
    fse = make_establishment(make_agency())
    pickup = pickup_record(establishment=fse, date=date(2025, 2, 3), gallons=Decimal("55"))
    (event,) = events("pickup.record")
    assert (event.object_id, event.agency) == (str(pickup.pk), fse.agency)


def test_it_refuses_negative_gallons():
    fse = make_establishment(make_agency())
    with pytest.raises(ValidationError) as e:
        pickup_record(establishment=fse, date=date(2025, 2, 3), gallons=Decimal("-5"))
    assert list(e.value.message_dict) == ["gallons"]
    assert not YellowGreasePickup.objects.exists()


def test_it_refuses_a_hauler_of_another_agency():
    fse = make_establishment(make_agency())
    stranger = make_hauler(make_agency("town-10-02"))
    with pytest.raises(ValidationError) as e:
        pickup_record(establishment=fse, date=date(2025, 2, 3), hauler=stranger)
    assert "hauler" in e.value.message_dict


def test_it_refuses_a_receipt_the_hauler_already_turned_in():
    fse = make_establishment(make_agency())
    hauler = make_hauler(fse.agency)
    pickup_record(establishment=fse, date=date(2025, 1, 6), hauler=hauler, manifest_number="R-1")
    with pytest.raises(ValidationError) as e:
        pickup_record(
            establishment=fse, date=date(2025, 2, 3), hauler=hauler, manifest_number="R-1"
        )
    assert "already recorded" in e.value.message_dict["manifest_number"][0]
    assert YellowGreasePickup.objects.count() == 1
