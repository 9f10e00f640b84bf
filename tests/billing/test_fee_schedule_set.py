from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from fogkeeper.audit.models import AuditEvent
from fogkeeper.billing.models import FeeSchedule
from fogkeeper.billing.selectors import fee_in_force
from fogkeeper.billing.services import fee_schedule_set
from tests.records import d, make_agency

pytestmark = pytest.mark.django_db

INSPECTION = {
    "code": "RGI",
    "description": "Restaurant Grease Inspection fee",
    "basis": "annual",
    "citation": "13.30.050(M)",
}


@pytest.fixture
def agency():
    agency = make_agency("san-clemente")
    fee_schedule_set(
        agency=agency,
        effective_on=d("2024-07-01"),
        items=[{**INSPECTION, "amount": Decimal("150.00")}],
    )
    fee_schedule_set(
        agency=agency,
        effective_on=d("2025-07-01"),
        items=[{**INSPECTION, "amount": Decimal("175.00")}],
        resolution="Res. 25-31",
    )
    return agency


def amount_on(agency, day):
    item = fee_in_force(agency=agency, code="RGI", on=d(day))
    return item and item.amount


def test_it_charges_the_old_fee_the_day_before_the_new_schedule(agency):
    assert amount_on(agency, "2025-06-30") == Decimal("150.00")


def test_it_charges_the_new_fee_from_its_effective_date(agency):
    assert amount_on(agency, "2025-07-01") == Decimal("175.00")
    assert amount_on(agency, "2026-03-01") == Decimal("175.00")


def test_it_has_no_fee_before_the_first_schedule(agency):
    assert amount_on(agency, "2024-06-30") is None


def test_it_audits_the_schedule_with_its_items(agency):
    event = AuditEvent.objects.filter(action="fee_schedule.set").order_by("id").last()
    assert event.after["items"][0]["amount"] == "175.00"
    assert event.after["resolution"] == "Res. 25-31"


def test_it_refuses_a_float_amount_and_saves_nothing():
    agency = make_agency("san-clemente")
    with pytest.raises(ValidationError) as e:
        fee_schedule_set(
            agency=agency, effective_on=d("2024-07-01"), items=[{**INSPECTION, "amount": 150.1}]
        )
    assert "items[0]" in e.value.message_dict
    assert not FeeSchedule.objects.exists()


def test_it_refuses_a_second_schedule_on_the_same_date(agency):
    with pytest.raises(ValidationError):
        fee_schedule_set(
            agency=agency,
            effective_on=d("2025-07-01"),
            items=[{**INSPECTION, "amount": Decimal("1.00")}],
        )
    assert FeeSchedule.objects.count() == 2


def test_it_refuses_a_fixed_amount_for_a_charge_at_actual_cost():
    agency = make_agency("san-clemente")
    item = {**INSPECTION, "basis": "actual_cost", "amount": Decimal("10.00")}
    with pytest.raises(ValidationError) as e:
        fee_schedule_set(agency=agency, effective_on=d("2024-07-01"), items=[item])
    assert "actual cost" in e.value.message_dict["items[0]"][0]
