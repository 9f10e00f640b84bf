"""Devices: installed with design data, corrected, replaced, removed, their frequency set
(the Town's allowed set, 10.02.130(B)), and food grinders; every write audited, every
refusal writing nothing."""

from datetime import date
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from fogkeeper.audit.models import AuditEvent
from fogkeeper.registry.devices import (
    device_add,
    device_frequency_set,
    device_replace,
    device_take_out,
    device_update,
    food_grinder_install,
    food_grinder_remove,
)
from fogkeeper.registry.models import GreaseControlDevice
from tests.records import make_agency, make_device, make_establishment, make_service

pytestmark = pytest.mark.django_db

TODAY = date(2026, 12, 1)


def counts():
    return GreaseControlDevice.objects.count(), AuditEvent.objects.count()


@pytest.fixture
def fse():
    return make_establishment(make_agency(), code="FSE-1", opened_on="2010-01-01")


@pytest.fixture
def town_device():
    fse = make_establishment(make_agency("town-10-02"), code="T-1", opened_on="2023-05-01")
    return make_device(fse, "GI-1", installed_on="2023-05-01")


def refused(call) -> dict:
    with pytest.raises(ValidationError) as e:
        call()
    return e.value.message_dict


def test_it_installs_a_device_with_its_design_data_and_audits_it(fse):
    gi = device_add(
        establishment=fse,
        code="GI-2",
        kind="interceptor",
        installed_on=date(2026, 11, 2),
        today=TODAY,
        capacity_gallons=Decimal("1000"),
        compartments=2,
        design_depth_inches=Decimal("48"),
        location="Rear lot",
    )
    assert (gi.capacity_gallons, gi.compartments, gi.location) == (1000, 2, "Rear lot")
    assert AuditEvent.objects.get(action="device.install").after["code"] == "GI-2"


def test_it_refuses_a_future_install_date_and_zero_capacity_together_writing_nothing(fse):
    before = counts()
    errors = refused(
        lambda: device_add(
            establishment=fse,
            code="GI-2",
            kind="interceptor",
            installed_on=date(2026, 12, 2),
            today=TODAY,
            capacity_gallons=Decimal("0"),
            compartments=-1,
        )
    )
    assert "in the future" in errors["installed_on"][0]
    assert set(errors) >= {"capacity_gallons", "compartments"}
    assert counts() == before


def test_it_refuses_a_number_already_used_at_the_establishment_even_by_a_removed_device(fse):
    make_device(fse, "GI-1", removed_on=date(2020, 1, 1))
    before = counts()
    errors = refused(
        lambda: device_add(
            establishment=fse,
            code="GI-1",
            kind="interceptor",
            installed_on=date(2026, 1, 1),
            today=TODAY,
        )
    )
    assert "code" in errors and counts() == before


def test_it_refuses_a_kind_the_pack_does_not_name(fse):
    errors = refused(
        lambda: device_add(
            establishment=fse, code="X-1", kind="bucket", installed_on=date(2026, 1, 1), today=TODAY
        )
    )
    assert "not a device kind" in errors["kind"][0]


def test_it_corrects_the_design_data_keeping_what_it_was_in_the_audit_row(fse):
    gi = make_device(fse, "GI-1", capacity_gallons=Decimal("500"))
    device_update(
        device=gi,
        kind="interceptor",
        installed_on=gi.installed_on,
        today=TODAY,
        capacity_gallons=Decimal("750"),
        compartments=2,
    )
    event = AuditEvent.objects.get(action="device.update")
    was, now = event.before["capacity_gallons"], event.after["capacity_gallons"]
    assert (Decimal(was), Decimal(now)) == (500, 750)


def test_a_refused_correction_leaves_the_device_as_it_was(fse):
    gi = make_device(fse, "GI-1", capacity_gallons=Decimal("500"))
    before = counts()
    errors = refused(
        lambda: device_update(
            device=gi,
            kind="interceptor",
            installed_on=gi.installed_on,
            today=TODAY,
            design_depth_inches=Decimal("-3"),
        )
    )
    gi.refresh_from_db()
    assert "design_depth_inches" in errors and gi.design_depth_inches is None
    assert counts() == before


def test_it_replaces_a_device_in_one_go_keeping_the_old_one_with_its_services(fse):
    old = make_device(fse, "GI-1", service_frequency_days=60)
    make_service(old, "M-1", "2026-06-01")
    new = device_replace(
        device=old,
        on=date(2026, 11, 1),
        code="GI-2",
        kind="interceptor",
        today=TODAY,
        capacity_gallons=Decimal("1000"),
    )
    old.refresh_from_db()
    assert old.removed_on == date(2026, 11, 1) and old.services.count() == 1
    assert (new.installed_on, new.service_frequency_days) == (date(2026, 11, 1), 60)
    actions = set(AuditEvent.objects.values_list("action", flat=True))
    assert {"device.remove", "device.install"} <= actions


def test_a_replacement_refused_for_the_new_device_does_not_remove_the_old_one(fse):
    old = make_device(fse, "GI-1")
    before = counts()
    errors = refused(
        lambda: device_replace(
            device=old, on=date(2026, 11, 1), code="GI-1", kind="interceptor", today=TODAY
        )
    )
    old.refresh_from_db()
    assert "code" in errors and old.removed_on is None and counts() == before


def test_it_refuses_a_removal_in_the_future_or_before_the_installation(fse):
    gi = make_device(fse, "GI-1", installed_on="2020-01-01")
    before = counts()
    future = refused(lambda: device_take_out(device=gi, removed_on=date(2027, 1, 1), today=TODAY))
    early = refused(lambda: device_take_out(device=gi, removed_on=date(2019, 1, 1), today=TODAY))
    assert "in the future" in future["removed_on"][0]
    assert "before its installation" in early["removed_on"][0]
    assert gi.removed_on is None and counts() == before


def test_it_sets_a_town_frequency_the_ordinance_allows(town_device):
    device_frequency_set(device=town_device, service_frequency_days=60, on=TODAY)
    town_device.refresh_from_db()
    assert town_device.service_frequency_days == 60
    assert (
        AuditEvent.objects.get(action="device.frequency_set").after["service_frequency_days"] == 60
    )


def test_it_refuses_a_town_frequency_outside_the_allowed_set_citing_the_section(town_device):
    before = counts()
    errors = refused(
        lambda: device_frequency_set(device=town_device, service_frequency_days=45, on=TODAY)
    )
    assert "30, 60, 90, 120, 180 days (10.02.130(B))" in errors["service_frequency_days"][0]
    town_device.refresh_from_db()
    assert town_device.service_frequency_days is None and counts() == before


def test_san_clemente_sets_any_whole_number_of_days(fse):
    gi = make_device(fse, "GI-1")
    device_frequency_set(device=gi, service_frequency_days=45, on=TODAY)
    assert GreaseControlDevice.objects.get(pk=gi.pk).service_frequency_days == 45


def test_clearing_the_frequency_lets_the_permits_apply_again(town_device):
    town_device.service_frequency_days = 90
    town_device.save()
    device_frequency_set(device=town_device, service_frequency_days=None, on=TODAY)
    assert GreaseControlDevice.objects.get(pk=town_device.pk).service_frequency_days is None


def test_it_records_a_food_grinder_installed_then_removed_with_audit_rows(fse):
    food_grinder_install(establishment=fse, installed_on=date(2026, 3, 1), today=TODAY)
    fse.refresh_from_db()
    assert fse.food_grinder and fse.food_grinder_installed_on == date(2026, 3, 1)
    food_grinder_remove(establishment=fse, removed_on=date(2026, 9, 1), today=TODAY)
    fse.refresh_from_db()
    assert not fse.food_grinder and fse.food_grinder_installed_on is None
    removal = AuditEvent.objects.get(action="food_grinder.remove")
    assert removal.before["food_grinder_installed_on"] == "2026-03-01"
    assert removal.reason == "removed on 2026-09-01"


def test_it_refuses_a_grinder_before_the_opening_or_in_the_future(fse):
    before = AuditEvent.objects.count()
    early = refused(
        lambda: food_grinder_install(establishment=fse, installed_on=date(2009, 1, 1), today=TODAY)
    )
    future = refused(
        lambda: food_grinder_install(establishment=fse, installed_on=date(2027, 1, 1), today=TODAY)
    )
    assert "before the opening" in early["installed_on"][0]
    assert "in the future" in future["installed_on"][0]
    fse.refresh_from_db()
    assert not fse.food_grinder and AuditEvent.objects.count() == before


def test_it_refuses_to_remove_a_grinder_that_is_not_there(fse):
    errors = refused(
        lambda: food_grinder_remove(establishment=fse, removed_on=date(2026, 1, 1), today=TODAY)
    )
    assert "no food grinder" in errors["removed_on"][0]
