"""audit_record names the establishment a record is about, for the establishment's own trail."""

from datetime import date

import pytest

from fogkeeper.audit.models import AuditEvent
from fogkeeper.audit.services import audit_record
from fogkeeper.enforcement.models import CaseViolation, EnforcementCase
from fogkeeper.maintenance.services import service_record
from fogkeeper.registry.models import Operator
from fogkeeper.registry.retention import record_delete
from tests.records import (
    make_agency,
    make_device,
    make_establishment,
    make_hauler,
    make_permit,
    make_service,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def fse():
    return make_establishment(make_agency())


def test_it_names_the_establishment_itself(fse):
    event = audit_record(action="establishment.register", obj=fse)
    assert event.establishment == fse


def test_it_names_a_devices_establishment_without_a_query_beyond_the_insert(
    fse, django_assert_num_queries
):
    device = make_device(fse)
    with django_assert_num_queries(1):
        event = audit_record(action="device.install", obj=device, agency=fse.agency)
    assert event.establishment_id == fse.pk


def test_it_names_a_pump_outs_establishment_through_its_device(fse):
    service = make_service(make_device(fse), "M-1", "2025-01-15")
    fresh = type(service).objects.get(pk=service.pk)  # its device not loaded
    assert audit_record(action="service.record", obj=fresh).establishment == fse


def test_a_pump_out_recorded_by_its_service_is_on_its_establishments_trail(fse):
    service_record(
        device=make_device(fse),
        manifest_number="M-2",
        date=date(2025, 1, 15),
        hauler=make_hauler(fse.agency),
        today=date(2025, 1, 16),
    )
    (event,) = AuditEvent.objects.filter(action="service.record")
    assert event.establishment == fse


def test_it_names_a_permits_establishment(fse):
    event = audit_record(action="permit.issue", obj=make_permit(fse))
    assert event.establishment == fse


def test_it_names_the_establishment_of_a_record_two_steps_away(fse):
    case = EnforcementCase.objects.create(establishment=fse, code="C-1", opened_on=date(2025, 1, 1))
    violation = CaseViolation.objects.create(
        case=case, code="V-1", rule="r", subject="s", since=date(2025, 1, 1), citation="c"
    )
    fresh = CaseViolation.objects.get(pk=violation.pk)
    assert audit_record(action="enforcement.violation_add", obj=fresh).establishment == fse


def test_it_names_none_for_a_record_of_no_establishment(fse):
    operator = Operator.objects.create(agency=fse.agency, name="Harbor Group")
    assert audit_record(action="operator.register", obj=operator).establishment is None


def test_an_establishment_deleted_after_its_period_keeps_its_rows_naming_it():
    fse = make_establishment(make_agency(), closed_on="2020-06-30")
    fse.tenures.all().delete()
    pk = fse.pk
    audit_record(action="establishment.close", obj=fse)
    record_delete(fse, actor=None, on=date(2023, 7, 1))
    assert list(AuditEvent.objects.values_list("establishment_id", flat=True)) == [pk, pk]
