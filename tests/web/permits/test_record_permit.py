import pytest

from fogkeeper.audit.models import AuditEvent
from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.permits.models import Permit
from tests.compliance.records import AS_OF, make_pier_taqueria
from tests.records import make_establishment
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db

URL = "/establishments/FSE-0042/record/permit/?as_of=2025-06-30"
P3 = {
    "number": "FSE-0042-P3",
    "issued_on": "2025-06-15",
    "expires_on": "2030-06-14",
    "service_frequency_days": "90",
}


@pytest.fixture
def agencies():
    sc, town = two_agencies()
    make_pier_taqueria(sc)
    sweep_agency(sc, as_of=AS_OF)
    return sc, town


def test_it_renders_the_form_with_labels(client, agencies):
    client.force_login(make_user("mia", agencies[0], role="manager"))
    html = client.get(URL).content.decode()
    for label in ("Permit number", "Issued on", "Expires on", "Pump-out frequency (days)"):
        assert f">{label}:</label>" in html


def test_it_issues_the_permit_to_the_current_operator_and_the_page_shows_it(client, agencies):
    mia = make_user("mia", agencies[0], role="manager")
    client.force_login(mia)
    response = client.post(URL, P3, follow=True)
    assert Permit.objects.get(number="FSE-0042-P3").holder == "Harbor Eats Inc"
    assert AuditEvent.objects.filter(action="permit.issue", actor=mia).exists()
    html = response.content.decode()
    assert "FSE-0042-P3</a>, issued" in html and "to Harbor Eats Inc" in html


def test_it_shows_a_message_for_a_missing_expiry_and_issues_nothing(client, agencies):
    client.force_login(make_user("mia", agencies[0], role="manager"))
    response = client.post(URL, {**P3, "expires_on": ""})
    assert response.status_code == 400
    assert "This field is required." in response.content.decode()
    assert not Permit.objects.filter(number="FSE-0042-P3").exists()


def test_it_answers_404_for_another_agencys_establishment(client, agencies):
    sc, town = agencies
    make_establishment(town, code="T-1", name="Town Diner")
    client.force_login(make_user("mia", sc, role="manager"))
    assert client.get("/establishments/T-1/record/permit/").status_code == 404


def test_it_forbids_an_inspector_since_permits_are_the_managers(client, agencies):
    client.force_login(make_user("alice", agencies[0], role="inspector"))
    assert client.post(URL, P3).status_code == 403
    assert not Permit.objects.filter(number="FSE-0042-P3").exists()


def test_it_forbids_an_auditor(client, agencies):
    client.force_login(make_user("audrey", agencies[0], role="auditor"))
    assert client.get(URL).status_code == 403


def test_it_lets_a_superuser_issue(client, agencies):
    root = make_user("root")
    root.is_superuser = True
    root.save()
    client.force_login(root)
    assert client.post(URL, P3).status_code == 302
