import pytest

from fogkeeper.audit.models import AuditEvent
from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.registry.models import FoodServiceEstablishment
from tests.compliance.records import AS_OF, make_pier_taqueria
from tests.records import make_establishment
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db

URL = "/establishments/FSE-0042/record/operator-change/?as_of=2025-06-30"


@pytest.fixture
def agencies():
    sc, town = two_agencies()
    make_pier_taqueria(sc)
    sweep_agency(sc, as_of=AS_OF)
    return sc, town


def current_operator() -> str:
    return FoodServiceEstablishment.objects.get(code="FSE-0042").current_tenure().operator.name


def test_it_renders_the_form_with_labels(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    html = client.get(URL).content.decode()
    for label in ("New operator", "Takes over on", "Reason or source"):
        assert f">{label}:</label>" in html


def test_it_records_the_new_operator_through_the_service(client, agencies):
    alice = make_user("alice", agencies[0])
    client.force_login(alice)
    response = client.post(URL, {"operator": "Bay Grill LLC", "on": "2025-06-01"})
    assert response.status_code == 302
    assert current_operator() == "Bay Grill LLC"
    assert AuditEvent.objects.filter(action="operator.change", actor=alice).exists()


def test_it_shows_the_services_message_for_a_date_before_the_current_operator(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    response = client.post(URL, {"operator": "Bay Grill LLC", "on": "2025-01-01"})
    assert response.status_code == 400
    assert "must come after the current operator" in response.content.decode()
    assert current_operator() == "Harbor Eats Inc"


def test_it_answers_404_for_another_agencys_establishment(client, agencies):
    sc, town = agencies
    make_establishment(town, code="T-1", name="Town Diner")
    client.force_login(make_user("alice", sc))
    assert client.get("/establishments/T-1/record/operator-change/").status_code == 404


def test_it_forbids_an_auditor(client, agencies):
    client.force_login(make_user("audrey", agencies[0], role="auditor"))
    assert client.post(URL, {"operator": "Bay Grill LLC", "on": "2025-06-01"}).status_code == 403
