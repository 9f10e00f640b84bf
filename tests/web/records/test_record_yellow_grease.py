import pytest

from fogkeeper.audit.models import AuditEvent
from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.maintenance.models import YellowGreasePickup
from fogkeeper.registry.models import Hauler
from tests.compliance.records import AS_OF, make_pier_taqueria
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db

URL = "/establishments/FSE-0042/record/yellow-grease/?as_of=2025-06-30"


@pytest.fixture
def agencies():
    sc, town = two_agencies()
    make_pier_taqueria(sc)
    sweep_agency(sc, as_of=AS_OF)
    return sc, town


def test_it_records_a_receipt_with_its_audit_row(client, agencies):
    alice = make_user("alice", agencies[0])
    client.force_login(alice)
    coastal = Hauler.objects.get(code="FSE-0042-H1")
    data = {"date": "2025-06-20", "hauler": coastal.pk, "gallons": "40", "manifest_number": "R-9"}
    response = client.post(URL, data, follow=True)
    pickup = YellowGreasePickup.objects.get(manifest_number="R-9")
    assert (pickup.hauler, pickup.gallons) == (coastal, 40)
    assert AuditEvent.objects.filter(action="pickup.record", actor=alice).exists()
    assert "Recorded; the establishment was evaluated again." in response.content.decode()


def test_it_refuses_negative_gallons_and_a_future_date_keeping_what_was_typed(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    before = (YellowGreasePickup.objects.count(), AuditEvent.objects.count())
    data = {"date": "2099-01-01", "gallons": "-5", "manifest_number": "R-10"}
    response = client.post(URL, data)
    html = response.content.decode()
    assert response.status_code == 400
    assert 'id="id_gallons_error"' in html and 'id="id_date_error"' in html
    assert 'value="R-10"' in html
    assert (YellowGreasePickup.objects.count(), AuditEvent.objects.count()) == before


def test_it_refuses_another_agencys_collector_on_its_field(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    theirs = Hauler.objects.create(agency=agencies[1], code="T-H", name="Town Vac")
    data = {"date": "2025-06-20", "hauler": theirs.pk, "gallons": "4", "manifest_number": "R-11"}
    response = client.post(URL, data)
    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()
    assert not YellowGreasePickup.objects.filter(manifest_number="R-11").exists()


@pytest.mark.parametrize("role, status", [("clerk", 403), ("auditor", 403), ("inspector", 200)])
def test_it_is_for_the_roles_that_record_it(client, agencies, role, status):
    client.force_login(make_user("bob", agencies[0], role=role))
    assert client.get(URL).status_code == status
