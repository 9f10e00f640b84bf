"""The sweep's records can be read in the admin, and not changed there."""

import pytest

from fogkeeper.compliance.models import Finding
from fogkeeper.compliance.runs import sweep_agency
from tests.compliance.records import AS_OF, make_pier_taqueria
from tests.records import make_agency

pytestmark = pytest.mark.django_db


@pytest.fixture
def swept():
    agency = make_agency()
    make_pier_taqueria(agency)
    return sweep_agency(agency, as_of=AS_OF)


@pytest.mark.parametrize(
    "url, shown",
    [
        ("/admin/compliance/sweeprun/", "City of San Clemente"),
        ("/admin/compliance/compliancestatus/?status__exact=non_compliant", "FSE-0042"),
        ("/admin/compliance/finding/?open__exact=1&rule__exact=bmp.drain_screens", "FSE-0042"),
        ("/admin/compliance/finding/?establishment__compliance__status=non_compliant", "GT-2"),
    ],
)
def test_it_lists_what_the_sweep_stored(admin_client, swept, url, shown):
    response = admin_client.get(url)

    assert response.status_code == 200
    assert shown in response.content.decode()


def test_a_finding_is_shown_read_only(admin_client, swept):
    finding = Finding.objects.get(rule="bmp.drain_screens")

    response = admin_client.get(f"/admin/compliance/finding/{finding.pk}/change/")

    assert response.status_code == 200
    assert b"Save" not in response.content


def test_nothing_can_be_added(admin_client):
    assert admin_client.get("/admin/compliance/finding/add/").status_code == 403
