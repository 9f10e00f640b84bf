"""Each write service of the registry evaluates the establishment it changed again as it
commits (a hauler's change: every customer of the hauler; an operator renamed: every
establishment it operates)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from fogkeeper.permits.operators import operator_change
from fogkeeper.registry.devices import (
    device_add,
    device_frequency_set,
    device_replace,
    device_sizing_set,
    device_take_out,
    device_update,
    food_grinder_install,
    food_grinder_remove,
)
from fogkeeper.registry.haulers import contract_end, contract_start, hauler_update
from fogkeeper.registry.places import lateral_add, lateral_remove, lateral_update
from fogkeeper.registry.retention import record_delete
from fogkeeper.registry.services import (
    device_exception_approve,
    device_install,
    device_interval_approve,
    device_remove,
    establishment_close,
    establishment_register,
    establishment_reopen,
    establishment_update,
    operation_change_record,
    operator_update,
)
from tests.records import make_device, make_hauler, make_service
from tests.reevaluation import check_write, today

pytestmark = pytest.mark.django_db

OLD = date(2020, 1, 1)


def _register(fse):
    return lambda: establishment_register(
        agency=fse.agency,
        code="FSE-2",
        name="Harbor Grill",
        address="5 Pier Way",
        opened_on=OLD,
        operator="Harbor Foods LLC",
    )


def _closed(fse):
    establishment_close(establishment=fse, closed_on=today(fse), today=today(fse))
    return lambda: establishment_reopen(establishment=fse)


def _contract(fse):
    return contract_start(hauler=make_hauler(fse.agency), establishment=fse, since=OLD)


def _hauler_update(fse):
    hauler = _contract(fse).hauler
    return lambda: hauler_update(
        hauler=hauler,
        name="Coast Pumping",
        licence_number="L-1",
        licence_expires_on=None,
        licensed=False,
    )


def _grinder_removed(fse):
    food_grinder_install(establishment=fse, installed_on=OLD)
    return lambda: food_grinder_remove(establishment=fse, removed_on=today(fse))


def _lateral(fse):
    return lateral_add(establishment=fse, segment=None, today=today(fse), description="rear")


def _old_pump_out_deleted(fse):
    service = make_service(make_device(fse), "M-1", "2010-01-06")
    return lambda: record_delete(service, actor=None, on=today(fse), reason="entered twice")


WRITES = {
    establishment_register: _register,
    establishment_update: lambda fse: (
        lambda: establishment_update(establishment=fse, today=today(fse), name="Pier Taqueria Two")
    ),
    establishment_close: lambda fse: (
        lambda: establishment_close(establishment=fse, closed_on=today(fse), today=today(fse))
    ),
    establishment_reopen: _closed,
    operation_change_record: lambda fse: (
        lambda: operation_change_record(
            establishment=fse, kind="remodel", date=OLD, today=today(fse)
        )
    ),
    operator_update: lambda fse: (
        lambda: operator_update(
            operator=fse.current_tenure().operator,
            name="Pier Foods Inc",
            phone="",
            email="",
            mailing_address="",
        )
    ),
    operator_change: lambda fse: (
        lambda: operator_change(establishment=fse, operator="Harbor Foods LLC", on=today(fse))
    ),
    device_install: lambda fse: (
        lambda: device_install(establishment=fse, code="GT-9", kind="trap", installed_on=OLD)
    ),
    device_exception_approve: lambda fse: (
        lambda: device_exception_approve(
            device=make_device(fse, installed_on=date(2024, 3, 1)),
            field="capacity_gallons",
            approved_on=date(2024, 6, 1),
            approved_by="R. Ortiz",
        )
    ),
    device_interval_approve: lambda fse: (
        lambda: device_interval_approve(
            device=make_device(fse),
            days=120,
            approved_on=OLD,
            approved_by="R. Ortiz",
            reference="memo 7",
        )
    ),
    device_remove: lambda fse: (
        lambda: device_remove(device=make_device(fse), removed_on=today(fse))
    ),
    device_add: lambda fse: (
        lambda: device_add(
            establishment=fse, code="GT-9", kind="trap", installed_on=OLD, today=today(fse)
        )
    ),
    device_update: lambda fse: (
        lambda: device_update(
            device=make_device(fse),
            kind="interceptor",
            installed_on=OLD,
            today=today(fse),
            capacity_gallons=Decimal("1500"),
        )
    ),
    device_replace: lambda fse: (
        lambda: device_replace(
            device=make_device(fse),
            on=today(fse),
            code="GI-2",
            kind="interceptor",
            today=today(fse),
            capacity_gallons=Decimal("1000"),
        )
    ),
    device_take_out: lambda fse: (
        lambda: device_take_out(device=make_device(fse), removed_on=today(fse), today=today(fse))
    ),
    device_frequency_set: lambda fse: (
        lambda: device_frequency_set(
            device=make_device(fse), service_frequency_days=90, on=today(fse), reason="memo 7"
        )
    ),
    device_sizing_set: lambda fse: (
        lambda: device_sizing_set(
            device=make_device(fse, installed_on=date(2024, 3, 1)),
            inputs={"seats": 50, "hours_open": 8},
            on=today(fse),
        )
    ),
    food_grinder_install: lambda fse: (
        lambda: food_grinder_install(establishment=fse, installed_on=OLD, today=today(fse))
    ),
    food_grinder_remove: _grinder_removed,
    hauler_update: _hauler_update,
    contract_start: lambda fse: lambda: _contract(fse),
    contract_end: lambda fse: lambda: contract_end(contract=_contract(fse), until=today(fse)),
    lateral_add: lambda fse: lambda: _lateral(fse),
    lateral_update: lambda fse: (
        lambda: lateral_update(lateral=_lateral(fse), today=today(fse), description="front")
    ),
    record_delete: _old_pump_out_deleted,
    lateral_remove: lambda fse: lambda: lateral_remove(lateral=_lateral(fse), on=today(fse)),
}

# the packs of the writes refused by San Clemente's (no exceptions, no sizing formula)
PACKS = {device_exception_approve: "reach-town", device_sizing_set: "reach-town"}


@pytest.mark.parametrize("service", list(WRITES), ids=[f.__name__ for f in WRITES])
def test_the_write_evaluates_its_establishment_again_as_it_commits(service, monkeypatch):
    check_write(WRITES[service], PACKS.get(service, "san-clemente"), monkeypatch)
