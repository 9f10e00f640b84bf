import pytest

from fogkeeper.audit.models import AuditEvent
from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.incidents.models import Incident
from tests.compliance.records import AS_OF, make_pier_taqueria
from tests.records import make_establishment
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db

URL = "/establishments/FSE-0042/record/incident/?as_of=2025-06-30"


@pytest.fixture
def agencies():
    sc, town = two_agencies()
    make_pier_taqueria(sc)
    sweep_agency(sc, as_of=AS_OF)
    return sc, town


def test_it_renders_the_form_with_labels(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    html = client.get(URL).content.decode()
    for label in ("Incident number", "Date of the incident", "Kind", "Gallons spilled"):
        assert f">{label}:</label>" in html


def test_it_records_an_attributed_overflow_and_the_page_shows_its_finding(client, agencies):
    alice = make_user("alice", agencies[0])
    client.force_login(alice)
    data = {
        "code": "SSO-9",
        "date": "2025-06-20",
        "kind": "overflow",
        "attributed": "on",
        "fog_caused": "on",
        "gallons": "30",
    }
    response = client.post(URL, data, follow=True)
    assert Incident.objects.get(code="SSO-9").establishment.code == "FSE-0042"
    assert AuditEvent.objects.filter(action__startswith="incident.", actor=alice).exists()
    findings = response.content.decode().split('id="findings"', 1)[1].split("</table>", 1)[0]
    assert "<td>SSO-9</td>" in findings


def test_it_shows_a_message_for_a_negative_volume_and_records_nothing(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    data = {"code": "SSO-9", "date": "2025-06-20", "kind": "overflow", "gallons": "-3"}
    response = client.post(URL, data)
    assert response.status_code == 400
    assert "greater than or equal to 0" in response.content.decode()
    assert not Incident.objects.filter(code="SSO-9").exists()


def test_it_answers_404_for_another_agencys_establishment(client, agencies):
    sc, town = agencies
    make_establishment(town, code="T-1", name="Town Diner")
    client.force_login(make_user("alice", sc))
    assert client.get("/establishments/T-1/record/incident/").status_code == 404


def test_it_forbids_an_auditor(client, agencies):
    client.force_login(make_user("audrey", agencies[0], role="auditor"))
    assert client.get(URL).status_code == 403


def test_it_refuses_an_incident_dated_in_the_future_and_keeps_what_was_typed(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    before = (Incident.objects.count(), AuditEvent.objects.count())
    data = {"code": "SSO-9", "date": "2099-06-20", "kind": "overflow", "gallons": "30"}
    response = client.post(URL, data)
    assert response.status_code == 400
    assert response.context["form"].errors["date"] == ["2099-06-20 is in the future."]
    assert 'value="SSO-9"' in response.content.decode()
    assert (Incident.objects.count(), AuditEvent.objects.count()) == before


def test_it_records_a_spills_times_and_derives_its_category(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    data = {
        "code": "SSO-10",
        "date": "2025-06-20",
        "kind": "spill",
        "gallons": "40",
        "reached_surface_water": "false",
        "started_at": "2025-06-20T23:30",
        "known_at": "2025-06-20T23:40",
    }
    client.post(URL, data)
    spill = Incident.objects.get(code="SSO-10")
    assert (spill.category, spill.category_source) == (4, "derived")
    assert spill.started_at.isoformat() == "2025-06-21T06:30:00+00:00"  # 23:30 in Los Angeles


def test_it_refuses_a_staff_category_contradicting_surface_water_and_records_nothing(
    client, agencies
):
    client.force_login(make_user("alice", agencies[0]))
    before = (Incident.objects.count(), AuditEvent.objects.count())
    data = {
        "code": "SSO-11",
        "date": "2025-06-20",
        "kind": "spill",
        "gallons": "10",
        "reached_surface_water": "true",
        "category": "4",
    }
    response = client.post(URL, data)
    assert response.status_code == 400
    assert "It reached surface water" in response.context["form"].errors["category"][0]
    assert 'value="SSO-11"' in response.content.decode()
    assert (Incident.objects.count(), AuditEvent.objects.count()) == before
