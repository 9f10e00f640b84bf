import pytest

from fogkeeper.compliance.sweep import sweep_agency
from fogkeeper.enforcement.models import Letter
from fogkeeper.registry.models import FoodServiceEstablishment
from tests.compliance.records import AS_OF, make_pier_taqueria
from tests.records import make_establishment
from tests.web.enforcement import san_clemente_case
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db


@pytest.fixture
def agencies():
    sc, town = two_agencies()
    make_pier_taqueria(sc)
    sweep_agency(sc, as_of=AS_OF)
    return sc, town


def test_it_shows_open_findings_with_citation_and_since_date(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    html = client.get("/establishments/FSE-0042/").content.decode()
    row = html.split('<th scope="row">Pump-out overdue</th>', 1)[1].split("</tr>", 1)[0]
    assert "<td>GT-2</td>" in row
    assert "<td>2020-06-01</td>" in row
    assert "<td>13.30.050(H)(1)(b)</td>" in row


def test_it_shows_status_schedule_devices_and_timeline(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    response = client.get("/establishments/FSE-0042/")
    html = response.content.decode()
    assert "non compliant as of 2025-06-30" in html
    assert '<th scope="row">Inspection annual</th>' in html
    assert "<caption>Accumulation readings of GI-1</caption>" in html
    assert response.context["p"].timeline[0]["date"] >= response.context["p"].timeline[-1]["date"]
    assert "No enforcement case." in html


def test_it_answers_404_for_another_agencys_establishment(client, agencies):
    sc, town = agencies
    make_establishment(town, code="T-1", name="Town Diner")
    client.force_login(make_user("alice", sc))
    assert client.get("/establishments/T-1/").status_code == 404


def test_it_answers_404_for_an_unknown_code(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    assert client.get("/establishments/NOPE/").status_code == 404


def test_it_links_the_cases_and_their_letters(client, agencies):
    san_clemente_case(FoodServiceEstablishment.objects.get(code="FSE-0042"))
    client.force_login(make_user("alice", agencies[0]))
    html = client.get("/establishments/FSE-0042/").content.decode()
    assert '<li><a href="/cases/FSE-0042/EC-7/">Case EC-7</a>, opened 2025-03-01.</li>' in html
    letter = Letter.objects.get(action__code="NNC-1")
    assert (
        f'<a href="/letters/{letter.pk}.pdf" download>Notice of noncompliance (NNC-1), PDF' in html
    )
