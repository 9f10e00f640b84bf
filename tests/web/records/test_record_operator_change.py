import pytest

from fogkeeper.audit.models import AuditEvent
from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.registry.models import FoodServiceEstablishment
from tests.compliance.records import AS_OF, make_pier_taqueria
from tests.records import make_establishment, make_permit
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


def renewing_grill(agency, holder: str, issued_on: str, expires_on: str):
    """Renewing Grill, its permit DP-R to renew this summer, swept on AS_OF."""
    fse = make_establishment(
        agency, code="FSE-R", name="Renewing Grill", operator_since="2019-02-01"
    )
    make_permit(fse, "DP-R", holder=holder, issued_on=issued_on, expires_on=expires_on)
    sweep_agency(agency, as_of=AS_OF)


def change_renewing_grill(client):
    url = "/establishments/FSE-R/record/operator-change/?as_of=2025-06-30"
    return client.post(url, {"operator": "Bay Grill LLC", "on": "2025-06-01"}, follow=True)


def permits_to_renew(client) -> int:
    return client.get("/dashboard/?as_of=2025-06-30").context["board"].permits_to_renew


def test_it_shows_the_ended_permit_as_a_finding_and_its_renewal_no_longer_due(client, agencies):
    renewing_grill(agencies[0], "Pier Foods LLC", "2021-08-01", "2025-08-31")
    client.force_login(make_user("alice", agencies[0], role="manager"))
    assert permits_to_renew(client) == 1
    html = change_renewing_grill(client).content.decode()
    assert "none in force" in html and "Permit ended by a new Operator" in html
    assert "DP-R was issued to Pier Foods LLC; it ended when Bay Grill LLC took over" in html
    assert "Discharge Permit renewal application" not in html
    assert permits_to_renew(client) == 0


def test_it_keeps_the_new_operators_own_permit_in_force_and_due_for_renewal(client, agencies):
    renewing_grill(agencies[0], "Bay Grill LLC", "2025-05-15", "2025-08-31")
    client.force_login(make_user("alice", agencies[0], role="manager"))
    html = change_renewing_grill(client).content.decode()
    assert "DP-R, issued to Bay Grill LLC on 2025-05-15, stays in force" in html
    assert "none in force" not in html and "Permit ended by a new Operator" not in html
    assert "Discharge Permit renewal application" in html
    assert permits_to_renew(client) == 1


def test_it_refuses_a_change_still_to_come(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    response = client.post(URL, {"operator": "Bay Grill LLC", "on": "2099-01-01"})
    assert response.status_code == 400
    assert "2099-01-01 is in the future" in response.content.decode()
    assert current_operator() == "Harbor Eats Inc"
