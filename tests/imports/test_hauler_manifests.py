"""A hauler's own manifest file: manifests_import(hauler=...) takes only its own manifests of
its current customers' devices, and marks them as the hauler's."""

from datetime import date

import pytest
from django.contrib.auth.models import User

from fogkeeper.audit.models import AuditEvent
from fogkeeper.maintenance.manifests import ManifestImportError, manifests_import
from fogkeeper.maintenance.models import Service
from fogkeeper.registry.models import ServiceContract
from tests.records import d, make_agency, make_device, make_establishment, make_hauler

pytestmark = pytest.mark.django_db

TODAY = date(2025, 6, 30)
HEADER = "hauler_code,manifest_number,establishment_code,device_code,service_date,fog_inches\n"


@pytest.fixture
def world():
    agency = make_agency()
    customer = make_establishment(agency, code="FSE-1")
    make_device(customer, code="GI-1")
    make_device(make_establishment(agency, code="FSE-2", name="Stranger Cafe"), code="GI-1")
    hauler = make_hauler(agency, code="H-1")
    make_hauler(agency, code="H-2")
    ServiceContract.objects.create(hauler=hauler, establishment=customer, since=d("2025-01-01"))
    return agency, hauler, User.objects.create_user("hank")


def upload(world, rows: str):
    agency, hauler, user = world
    data = (HEADER + rows).encode()
    return manifests_import(
        agency=agency, data=data, name="mine.csv", hauler=hauler, actor=user, today=TODAY
    )


def problems(world, rows: str) -> list[str]:
    with pytest.raises(ManifestImportError) as caught:
        upload(world, rows)
    assert not Service.objects.exists()
    return caught.value.problems


def test_it_marks_the_services_as_the_haulers_upload(world):
    result = upload(world, "H-1,M-1,FSE-1,GI-1,2025-06-01,3\n")
    service = Service.objects.get()
    assert (service.source, service.submitted_by.username) == ("hauler_csv", "hank")
    assert result.establishments == {service.device.establishment_id}


def test_it_writes_an_audit_row_naming_the_hauler_and_its_manifests(world):
    upload(world, "H-1,M-1,FSE-1,GI-1,2025-06-01,3\n")
    event = AuditEvent.objects.get(action="manifests.import")
    assert (event.object_type, event.actor.username) == ("registry.hauler", "hank")
    assert event.after["manifests"] == ["M-1"]


def test_it_refuses_another_haulers_manifest(world):
    assert problems(world, "H-2,M-1,FSE-1,GI-1,2025-06-01,3\n") == [
        "row 2, column hauler_code: 'H-2' is not your hauler code ('H-1'): "
        "upload only your own manifests"
    ]


def test_it_answers_the_same_for_a_non_customer_and_an_establishment_that_does_not_exist(world):
    rows = "H-1,M-1,FSE-2,GI-1,2025-06-01,3\nH-1,M-2,FSE-9,GI-1,2025-06-01,3\n"
    assert problems(world, rows) == [
        "row 2, column establishment_code: 'FSE-2' is not one of your customers",
        "row 3, column establishment_code: 'FSE-9' is not one of your customers",
    ]


def test_it_refuses_a_date_before_the_contract(world):
    assert problems(world, "H-1,M-1,FSE-1,GI-1,2024-12-31,3\n") == [
        "row 2, column service_date: 'FSE-1' was not your customer on 2024-12-31"
    ]


def test_it_refuses_a_customer_whose_contract_has_ended(world):
    ServiceContract.objects.update(until=d("2025-06-15"))
    assert problems(world, "H-1,M-1,FSE-1,GI-1,2025-06-01,3\n") == [
        "row 2, column establishment_code: 'FSE-1' is not one of your customers"
    ]
