from datetime import date

import pytest

from fogkeeper.compliance.sweep import sweep_agency
from tests.records import make_establishment, make_incident, make_inspection
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db

AS_OF = date(2025, 6, 30)
URL = "/inspections/field/?as_of=2025-06-30"


@pytest.fixture
def agencies():
    """Two establishments inspected on the same day a year ago; Harbor Grill caused an
    overflow since, Quiet Cafe did not."""
    sc, town = two_agencies()
    quiet = make_establishment(sc, code="FSE-Q", name="Quiet Cafe", opened_on="2020-01-01")
    harbor = make_establishment(sc, code="FSE-Z", name="Harbor Grill", opened_on="2020-01-01")
    for fse in (quiet, harbor):
        make_inspection(fse, f"I-{fse.code}", "2024-06-28")
    make_incident(harbor, "SSO-1", "2025-03-01", kind="overflow", attributed=True)
    sweep_agency(sc, as_of=AS_OF)
    return sc, town


def test_it_ranks_the_riskier_establishment_first(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    response = client.get(URL)
    today = [s.establishment.code for s in response.context["today"]]
    assert today == ["FSE-Z", "FSE-Q"]
    html = response.content.decode()
    assert html.index("Harbor Grill") < html.index("Quiet Cafe")
    assert "1 overflow in the last year" in html


def test_it_links_each_stop_to_the_inspection_form(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    html = client.get(URL).content.decode()
    assert 'href="/establishments/FSE-Z/record/inspection/"' in html


def test_it_lists_no_other_agencys_establishment(client, agencies):
    client.force_login(make_user("charlie", agencies[1]))
    response = client.get(URL)
    assert response.context["today"] == [] and response.context["week"] == []


def test_it_shows_an_auditor_the_list_without_the_inspection_links(client, agencies):
    client.force_login(make_user("audrey", agencies[0], role="auditor"))
    html = client.get(URL).content.decode()
    assert "Harbor Grill" in html and "/record/inspection/" not in html
