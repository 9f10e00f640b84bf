import pytest

from fogkeeper.audit.models import AuditEvent
from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.maintenance.models import Service
from fogkeeper.registry.models import GreaseControlDevice, Hauler
from tests.compliance.records import AS_OF, make_pier_taqueria
from tests.records import make_establishment
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db

URL = "/establishments/FSE-0042/record/service/?as_of=2025-06-30"


@pytest.fixture
def agencies():
    sc, town = two_agencies()
    make_pier_taqueria(sc)
    sweep_agency(sc, as_of=AS_OF)
    return sc, town


def pump_out(**kw):
    trap = GreaseControlDevice.objects.get(code="GT-2")
    hauler = Hauler.objects.get(code="FSE-0042-H1")
    data = {
        "device": trap.pk,
        "hauler": hauler.pk,
        "manifest_number": "M-900",
        "date": "2025-06-20",
        "full_pump_out": "on",
        "gallons_removed": "40",
    }
    return {**data, **kw}


def overdue_trap_row(html: str) -> bool:
    return '<th scope="row">Pump-out overdue</th><td>GT-2</td>' in html


def test_it_renders_the_form_with_labels(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    html = client.get(URL).content.decode()
    for label in ("Device", "Hauler", "Manifest number", "Date of the pump-out", "Gallons removed"):
        assert f">{label}:</label>" in html


def test_it_links_the_form_from_the_establishment_page(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    html = client.get("/establishments/FSE-0042/").content.decode()
    assert 'href="/establishments/FSE-0042/record/service/"' in html


def test_it_records_the_pump_out_through_the_service_and_closes_the_overdue_finding(
    client, agencies
):
    alice = make_user("alice", agencies[0])
    client.force_login(alice)
    assert overdue_trap_row(client.get("/establishments/FSE-0042/").content.decode())
    response = client.post(URL, pump_out(), follow=True)
    assert Service.objects.filter(manifest_number="M-900", device__code="GT-2").exists()
    assert AuditEvent.objects.filter(action="service.record", actor=alice).count() == 1
    assert not overdue_trap_row(response.content.decode())


def test_it_shows_the_services_message_and_records_nothing_for_a_date_before_installation(
    client, agencies
):
    client.force_login(make_user("alice", agencies[0]))
    response = client.post(URL, pump_out(date="2019-01-01"))
    assert response.status_code == 400
    assert "installation" in response.content.decode()
    assert not Service.objects.filter(manifest_number="M-900").exists()


def test_it_shows_a_required_fields_message(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    response = client.post(URL, pump_out(manifest_number=""))
    assert "This field is required." in response.content.decode()
    assert not AuditEvent.objects.filter(action="service.record").exists()


def test_it_answers_404_for_another_agencys_establishment(client, agencies):
    sc, town = agencies
    make_establishment(town, code="T-1", name="Town Diner")
    client.force_login(make_user("alice", sc))
    assert client.get("/establishments/T-1/record/service/").status_code == 404


def test_it_forbids_an_auditor(client, agencies):
    client.force_login(make_user("audrey", agencies[0], role="auditor"))
    assert client.get(URL).status_code == 403
    assert client.post(URL, pump_out()).status_code == 403
    assert not Service.objects.filter(manifest_number="M-900").exists()


def test_it_forbids_a_clerk(client, agencies):
    client.force_login(make_user("carol", agencies[0], role="clerk"))
    assert client.post(URL, pump_out()).status_code == 403


def counts():
    return Service.objects.count(), AuditEvent.objects.count()


def test_it_refuses_a_pump_out_without_its_hauler_on_the_hauler_field(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    before = counts()
    response = client.post(URL, pump_out(hauler=""))
    assert response.status_code == 400
    assert response.context["form"].errors["hauler"] == ["This field is required."]
    assert 'value="M-900"' in response.content.decode()
    assert counts() == before


def test_it_refuses_a_manifest_number_the_hauler_used_for_another_pump_out(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    before = counts()
    response = client.post(URL, pump_out(manifest_number="FSE-0042-M1"))
    assert response.status_code == 400
    (message,) = response.context["form"].errors["manifest_number"]
    assert message.startswith("Manifest FSE-0042-M1 of Coastal Pumping is already recorded")
    assert counts() == before


def test_it_takes_one_manifest_for_two_devices_pumped_out_the_same_day(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    gi = GreaseControlDevice.objects.get(code="GI-1")
    client.post(URL, pump_out())
    response = client.post(URL, pump_out(device=gi.pk))
    assert response.status_code == 302
    assert Service.objects.filter(manifest_number="M-900").count() == 2


def test_it_refuses_a_pump_out_dated_in_the_future_on_the_date_field(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    before = counts()
    response = client.post(URL, pump_out(date="2099-01-01"))
    assert response.status_code == 400
    assert response.context["form"].errors["date"] == ["2099-01-01 is in the future."]
    assert 'value="2099-01-01"' in response.content.decode()
    assert counts() == before


def test_it_refuses_a_negative_depth_in_words_and_records_nothing(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    response = client.post(URL, pump_out(solids_inches="-3"))
    assert response.status_code == 400
    assert "Solids depth before cannot be negative: give 0 or more." in response.content.decode()
    assert not Service.objects.filter(manifest_number="M-900").exists()
