"""The migration that names each audit row's establishment fills the rows written before it
from their records, as far as their types allow, and touches nothing else of a row."""

import importlib

import pytest
from django.apps import apps

from fogkeeper.audit.models import AuditEvent
from fogkeeper.incidents.models import Incident
from fogkeeper.registry.models import Operator
from tests.records import (
    make_agency,
    make_device,
    make_establishment,
    make_incident,
    make_permit,
    make_service,
)

pytestmark = pytest.mark.django_db

migration = importlib.import_module("fogkeeper.audit.migrations.0002_establishment")


def unfilled(obj, **kw) -> AuditEvent:
    """A row as written before the field existed: no establishment."""
    return AuditEvent.objects.create(
        action="x.y",
        object_type=obj._meta.label_lower,
        object_id=str(obj.pk),
        before={"a": 1},
        after={"a": 2},
        reason="old",
        **kw,
    )


def filled() -> dict[str, int | None]:
    return dict(AuditEvent.objects.values_list("object_type", "establishment_id"))


def test_it_fills_an_establishments_devices_services_and_permits_rows():
    fse = make_establishment(make_agency())
    device = make_device(fse)
    for obj in (fse, device, make_service(device, "M-1", "2025-01-15"), make_permit(fse)):
        unfilled(obj)
    migration.fill_establishments(apps, None, batch=2)
    assert filled() == {
        "registry.foodserviceestablishment": fse.pk,
        "registry.greasecontroldevice": fse.pk,
        "maintenance.service": fse.pk,
        "permits.permit": fse.pk,
    }


def test_it_fills_an_incident_with_an_establishment_and_leaves_the_others_empty():
    fse = make_establishment(make_agency())
    unfilled(make_incident(fse, "SSO-1", "2025-02-01"))
    spill = Incident.objects.create(agency=fse.agency, code="SSO-2", date=fse.opened_on)
    unfilled(spill)
    unfilled(Operator.objects.create(agency=fse.agency, name="Harbor Group"))
    migration.fill_establishments(apps, None)
    rows = AuditEvent.objects.order_by("id").values_list("establishment_id", flat=True)
    assert list(rows) == [fse.pk, None, None]


def test_it_skips_a_row_of_no_record_or_no_numeric_id():
    fse = make_establishment(make_agency())
    AuditEvent.objects.create(action="x", object_type="auth.token", object_id="abc")
    AuditEvent.objects.create(action="x", object_type="gone.model", object_id="7")
    AuditEvent.objects.create(action="x", object_type="maintenance.service", object_id="999")
    migration.fill_establishments(apps, None)
    assert not AuditEvent.objects.filter(establishment__isnull=False).exists()
    assert fse.pk  # the agency's records exist; none of these rows is about them


def test_it_changes_nothing_else_of_a_row():
    fse = make_establishment(make_agency())
    event = unfilled(fse, agency=fse.agency)
    before = AuditEvent.objects.values().get(pk=event.pk)
    migration.fill_establishments(apps, None)
    after = AuditEvent.objects.values().get(pk=event.pk)
    assert after.pop("establishment_id") == fse.pk
    before.pop("establishment_id")
    assert after == before


def test_it_keeps_what_audit_record_already_filled():
    one, two = make_establishment(make_agency()), None
    two = make_establishment(one.agency, code="FSE-2")
    unfilled(one, establishment=two)  # whatever was written stays
    migration.fill_establishments(apps, None)
    assert AuditEvent.objects.get().establishment == two
