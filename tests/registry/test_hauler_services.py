"""Haulers kept current and their service contracts started and ended: audited, refusals
named by field, nothing written when refused."""

from datetime import date

import pytest
from django.core.exceptions import ValidationError

from fogkeeper.audit.models import AuditEvent
from fogkeeper.registry.haulers import contract_end, contract_start, hauler_add, hauler_update
from fogkeeper.registry.models import Hauler, ServiceContract
from tests.records import make_agency, make_establishment, make_hauler

pytestmark = pytest.mark.django_db

TODAY = date(2026, 12, 1)


@pytest.fixture
def sc():
    return make_agency()


def refused(call) -> dict:
    with pytest.raises(ValidationError) as e:
        call()
    return e.value.message_dict


def counts():
    return Hauler.objects.count(), ServiceContract.objects.count(), AuditEvent.objects.count()


def test_it_registers_a_hauler_with_its_licence_expiry(sc):
    hauler = hauler_add(
        agency=sc,
        code="H-9",
        name="Orange Pumping",
        licence_number="L-77",
        licence_expires_on=date(2027, 6, 30),
    )
    assert hauler.licence_expires_on == date(2027, 6, 30)
    assert AuditEvent.objects.filter(action="hauler.register").exists()


def test_it_refuses_a_licensed_hauler_without_licence_number_and_a_duplicate_code(sc):
    make_hauler(sc, "H-9")
    before = counts()
    errors = refused(lambda: hauler_add(agency=sc, code="H-9", name="Other"))
    assert set(errors) == {"licence_number", "code"} and counts() == before


def test_it_updates_the_licence_keeping_what_it_was(sc):
    hauler = make_hauler(sc, "H-9", licence_number="L-1")
    hauler_update(
        hauler=hauler,
        name="Orange Pumping",
        licence_number="L-2",
        licence_expires_on=date(2027, 1, 31),
        licensed=True,
    )
    event = AuditEvent.objects.get(action="hauler.update")
    assert (event.before["licence_number"], event.after["licence_number"]) == ("L-1", "L-2")
    assert event.after["licence_expires_on"] == "2027-01-31"


def test_a_refused_update_changes_nothing(sc):
    hauler = make_hauler(sc, "H-9", name="Orange Pumping", licence_number="L-1")
    before = counts()
    errors = refused(
        lambda: hauler_update(
            hauler=hauler, name="", licence_number="", licence_expires_on=None, licensed=True
        )
    )
    assert {"name", "licence_number"} <= set(errors)
    hauler.refresh_from_db()
    assert (hauler.name, hauler.licence_number) == ("Orange Pumping", "L-1")
    assert counts() == before


def test_it_starts_and_ends_a_contract(sc):
    hauler, fse = make_hauler(sc, "H-9"), make_establishment(sc)
    contract = contract_start(hauler=hauler, establishment=fse, since=date(2026, 1, 1), today=TODAY)
    contract_end(contract=contract, until=date(2026, 11, 30), today=TODAY)
    assert ServiceContract.objects.get().until == date(2026, 11, 30)
    actions = list(AuditEvent.objects.order_by("id").values_list("action", flat=True))
    assert actions == ["contract.start", "contract.end"]


def test_it_refuses_a_contract_with_another_agencys_establishment(sc):
    town = make_agency("town-10-02")
    hauler, fse = make_hauler(sc, "H-9"), make_establishment(town, code="T-1")
    before = counts()
    errors = refused(
        lambda: contract_start(
            hauler=hauler, establishment=fse, since=date(2026, 1, 1), today=TODAY
        )
    )
    assert "another agency" in errors["establishment"][0] and counts() == before


def test_it_refuses_a_second_open_contract_and_a_future_start(sc):
    hauler, fse = make_hauler(sc, "H-9"), make_establishment(sc)
    contract_start(hauler=hauler, establishment=fse, since=date(2026, 1, 1), today=TODAY)
    before = counts()
    errors = refused(
        lambda: contract_start(
            hauler=hauler, establishment=fse, since=date(2027, 1, 1), today=TODAY
        )
    )
    assert "already serves" in errors["establishment"][0]
    assert "in the future" in errors["since"][0]
    assert counts() == before


def test_it_refuses_to_end_a_contract_before_it_started_or_in_the_future(sc):
    contract = contract_start(
        hauler=make_hauler(sc, "H-9"),
        establishment=make_establishment(sc),
        since=date(2026, 1, 1),
        today=TODAY,
    )
    before = counts()
    early = refused(lambda: contract_end(contract=contract, until=date(2025, 1, 1), today=TODAY))
    late = refused(lambda: contract_end(contract=contract, until=date(2027, 1, 1), today=TODAY))
    assert "before its start" in early["until"][0] and "in the future" in late["until"][0]
    assert ServiceContract.objects.get().until is None and counts() == before
