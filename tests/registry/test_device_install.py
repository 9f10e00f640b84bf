from datetime import date
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from fogkeeper.registry.models import GreaseControlDevice
from fogkeeper.registry.services import device_install, device_remove
from tests.audit.people import events
from tests.records import make_agency, make_device, make_establishment

pytestmark = pytest.mark.django_db


def install(fse, **kw):
    fields = {"establishment": fse, "code": "GI-1", "kind": "interceptor"}
    return device_install(installed_on=date(2020, 5, 1), **{**fields, **kw})


def test_it_installs_a_device_with_an_audit_row():
    device = install(make_establishment(make_agency()), capacity_gallons=Decimal("750"))
    (event,) = events("device.install")
    assert event.object_id == str(device.pk)
    assert event.after["capacity_gallons"] == "750"


def test_it_refuses_a_code_the_establishment_already_uses():
    fse = make_establishment(make_agency())
    install(fse)
    with pytest.raises(ValidationError) as e:
        install(fse, kind="trap")
    assert "code" in e.value.message_dict
    assert GreaseControlDevice.objects.count() == 1


def test_it_refuses_a_negative_capacity_and_a_zero_depth():
    with pytest.raises(ValidationError) as e:
        install(
            make_establishment(make_agency()),
            capacity_gallons=Decimal("-1"),
            design_depth_inches=Decimal("0"),
        )
    assert set(e.value.message_dict) == {"capacity_gallons", "design_depth_inches"}
    assert not GreaseControlDevice.objects.exists()


def test_it_refuses_an_unknown_kind():
    with pytest.raises(ValidationError) as e:
        install(make_establishment(make_agency()), kind="bucket")
    assert "kind" in e.value.message_dict


def test_it_removes_a_device_with_before_and_after():
    device = make_device(make_establishment(make_agency()), installed_on="2010-01-01")
    device_remove(device=device, removed_on=date(2025, 3, 1))
    (event,) = events("device.remove")
    assert (event.before["removed_on"], event.after["removed_on"]) == (None, "2025-03-01")


def test_it_refuses_a_removal_before_the_installation():
    device = make_device(make_establishment(make_agency()), installed_on="2010-01-01")
    with pytest.raises(ValidationError) as e:
        device_remove(device=device, removed_on=date(2009, 12, 31))
    assert "removed_on" in e.value.message_dict
    device.refresh_from_db()
    assert device.removed_on is None
