"""A hauler's own pump-outs (idempotent on the manifest) and staff's disputes of them."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError

from fogkeeper.audit.models import AuditEvent
from fogkeeper.compliance.casefiles.as_json import build_case_file
from fogkeeper.maintenance.models import Service, ServiceDispute
from fogkeeper.maintenance.services import (
    service_dispute,
    service_dispute_withdraw,
    service_submit,
)
from fogkeeper.registry.models import ServiceContract
from tests.records import d, make_agency, make_device, make_establishment, make_hauler

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    agency = make_agency("san-clemente")
    fse = make_establishment(agency)
    device = make_device(fse, installed_on=d("2010-01-01"))
    hauler = make_hauler(agency)
    ServiceContract.objects.create(hauler=hauler, establishment=fse, since=d("2020-01-01"))
    user = User.objects.create_user("hank")
    return agency, fse, device, hauler, user


def _submit(world, **kw):
    _, _, device, hauler, user = world
    fields = {
        "hauler": hauler,
        "device": device,
        "manifest_number": "M-100",
        "date": d("2026-11-02"),
        "source": "hauler_api",
        "today": d("2026-11-30"),
        "actor": user,
        "fog_inches": Decimal("3.50"),
    }
    return service_submit(**{**fields, **kw})


def test_it_stores_a_submission_marked_as_the_haulers(world):
    service, created = _submit(world)
    assert created
    assert service.source == "hauler_api"
    assert service.submitted_by.username == "hank"
    assert AuditEvent.objects.filter(action="service.record", actor__username="hank").count() == 1


def test_it_adds_nothing_when_the_same_manifest_comes_twice(world):
    first, _ = _submit(world)
    again, created = _submit(world)
    assert not created
    assert again.pk == first.pk
    assert Service.objects.count() == 1


def test_it_refuses_the_same_manifest_with_other_content(world):
    _submit(world)
    with pytest.raises(ValidationError, match="already sent with a different FOG depth;"):
        _submit(world, fog_inches=Decimal("4.00"))
    assert Service.objects.count() == 1


def test_the_refusal_names_in_words_each_thing_that_differs(world):
    """Issue 39: "already submitted with other date, fog_inches, solids_inches"."""
    _submit(world)
    with pytest.raises(ValidationError) as refused:
        _submit(world, fog_inches=Decimal("4.00"), solids_inches=Decimal("5.00"))
    (text,) = refused.value.message_dict["manifest_number"]
    assert "with a different FOG depth and solids depth;" in text
    assert "_inches" not in text and "ask the agency to correct it" in text


def test_it_refuses_a_device_of_a_non_customer(world):
    agency, *_ = world
    stranger = make_device(make_establishment(agency, code="FSE-2"), installed_on=d("2010-01-01"))
    with pytest.raises(ValidationError, match="was not a customer"):
        _submit(world, device=stranger)
    assert Service.objects.count() == 0


def test_it_refuses_a_date_in_the_future(world):
    with pytest.raises(ValidationError, match="in the future"):
        _submit(world, date=d("2026-12-01"))


def test_it_leaves_a_disputed_pump_out_out_of_the_case_file_and_keeps_it(world):
    _, fse, _, _, user = world
    service, _ = _submit(world)
    service_dispute(service=service, reason="No truck seen", raised_on=d("2026-11-10"), actor=user)
    assert build_case_file(fse, d("2026-11-09"))["services"]
    assert build_case_file(fse, d("2026-11-12"))["services"] == []
    service_dispute_withdraw(
        service=service, reason="Video found", withdrawn_on=d("2026-11-20"), actor=user
    )
    assert build_case_file(fse, d("2026-11-21"))["services"]
    assert Service.objects.filter(pk=service.pk).exists()
    assert AuditEvent.objects.filter(action__startswith="service.dispute").count() == 2


def test_it_keeps_the_open_dispute_when_the_service_is_disputed_again(world):
    _, _, _, _, user = world
    service, _ = _submit(world)
    first, _ = service_dispute(
        service=service, reason="Doubt", raised_on=d("2026-11-10"), actor=user
    )
    again = service_dispute(service=service, reason="Again", raised_on=d("2026-11-11"), actor=user)
    assert again == (first, False)
    assert ServiceDispute.objects.get().reason == "Doubt"
    assert AuditEvent.objects.filter(action="service.dispute").count() == 1


def test_it_withdraws_nothing_when_no_dispute_is_open(world):
    _, _, _, _, user = world
    service, _ = _submit(world)
    done = service_dispute_withdraw(
        service=service, reason="Seen", withdrawn_on=d("2026-11-11"), actor=user
    )
    assert done == (None, False)
    assert not AuditEvent.objects.filter(action="service.dispute_withdraw").exists()
