"""Approved exceptions to the design limits, where the pack allows them (RULES.md 11.11)."""

from datetime import date

import pytest
from django.core.exceptions import ValidationError

from fogkeeper.registry.models import ApprovedException
from fogkeeper.registry.services import device_exception_approve
from tests.records import make_agency, make_device, make_establishment

pytestmark = pytest.mark.django_db


def test_it_refuses_an_exception_where_the_pack_allows_none():
    device = make_device(make_establishment(make_agency()))
    with pytest.raises(ValidationError) as e:
        device_exception_approve(
            device=device, field="capacity_gallons", approved_on=date(2024, 6, 1)
        )
    (message,) = e.value.message_dict["field"]
    assert "allows no exceptions to its design limits" in message
    assert not ApprovedException.objects.exists()


def test_it_refuses_a_field_that_is_not_a_design_field():
    device = make_device(make_establishment(make_agency()))
    with pytest.raises(ValidationError) as e:
        device_exception_approve(device=device, field="colour", approved_on=date(2024, 6, 1))
    assert "field" in e.value.message_dict
