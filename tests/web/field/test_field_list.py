from datetime import date

import pytest
from django.db.models import F

from fogkeeper.compliance.models import ComplianceStatus
from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.registry.models import FoodServiceEstablishment
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


def due_places(agency, count: int, inspected: str, prefix: str = "P") -> None:
    for i in range(count):
        fse = make_establishment(agency, code=f"{prefix}-{i:02}", name=f"Place {prefix}{i:02}")
        make_inspection(fse, f"I-{prefix}-{i}", inspected)


def test_it_pages_each_section_by_25_riskiest_first(client):
    sc, _ = two_agencies()
    due_places(sc, 30, "2024-06-01", "T")  # due 2025-06-01: overdue
    due_places(sc, 3, "2024-07-03", "W")  # due 2025-07-03: this week
    sweep_agency(sc, as_of=AS_OF)
    client.force_login(make_user("alice", sc))

    first = client.get(URL)
    assert len(first.context["today"]) == 25 and len(first.context["week"]) == 3
    html = first.content.decode()
    assert '<span id="field-today-count">30 establishments</span>, page 1 of 2' in html
    assert 'href="?as_of=2025-06-30&amp;page=2"' in html
    second = client.get(f"{URL}&page=2")
    assert len(second.context["today"]) == 5 and len(second.context["week"]) == 3
    codes = [s.establishment.code for s in first.context["today"] + second.context["today"]]
    assert codes == sorted(codes)  # equal risks: earliest due, then by code


def test_it_ranks_by_the_weights_of_overflows_violations_pump_outs_and_months(client):
    sc, _ = two_agencies()
    due_places(sc, 4, "2024-06-01")
    never = make_establishment(sc, code="P-NEVER", name="Never Inspected", opened_on="2024-01-01")
    sweep_agency(sc, as_of=AS_OF)
    fses = {f.code: f for f in FoodServiceEstablishment.objects.filter(agency=sc)}
    make_incident(fses["P-01"], "SSO-1", "2025-01-01", kind="overflow", attributed=True)
    make_incident(fses["P-01"], "SSO-2", "2024-06-01", kind="overflow", attributed=True)  # old
    make_incident(fses["P-02"], "SSO-3", "2025-05-01", kind="overflow", attributed=False)
    more = F("open_violations") + 3
    ComplianceStatus.objects.filter(establishment=fses["P-03"]).update(open_violations=more)
    client.force_login(make_user("alice", sc))

    stops = client.get(URL).context["today"]

    by_code = {s.establishment.code: s for s in stops}
    ranked = sorted(stops, key=lambda s: (-s.risk, s.due, s.establishment.code))
    assert [s.establishment.code for s in stops] == [s.establishment.code for s in ranked]
    assert [c for c in by_code if c != "P-NEVER"] == ["P-03", "P-01", "P-00", "P-02"]
    assert by_code["P-03"].risk - by_code["P-00"].risk == 3 * 10  # three more violations
    assert by_code["P-01"].risk - by_code["P-00"].risk == 20  # one overflow in the last year
    assert by_code["P-02"].overflows == 0  # not attributed to it
    assert by_code["P-00"].days_since == 394 and by_code["P-NEVER"].days_since is None
    assert by_code["P-NEVER"].risk == 10 * by_code["P-NEVER"].violations + 3 * 365 / 30
    assert by_code["P-00"].obligation == "inspection.annual" and by_code[never.code].citation


def test_it_leaves_out_closed_establishments(client):
    sc, _ = two_agencies()
    due_places(sc, 2, "2024-06-01")
    sweep_agency(sc, as_of=AS_OF)
    FoodServiceEstablishment.objects.filter(code="P-01").update(closed_on=date(2025, 6, 15))
    client.force_login(make_user("alice", sc))
    assert [s.establishment.code for s in client.get(URL).context["today"]] == ["P-00"]


@pytest.mark.parametrize("code", ["san-clemente", "town"])
def test_the_dashboard_counts_the_inspections_due_as_the_field_list_on_the_demo(client, code):
    from io import StringIO

    from django.core.management import call_command

    from fogkeeper.registry.models import Agency

    call_command("demo", "--as-of", "2026-11-30", stdout=StringIO())
    client.force_login(make_user("alice", Agency.objects.get(code=code)))
    for day in ("2026-11-30", "2027-01-15"):
        board = client.get(f"/dashboard/?as_of={day}").context["board"]
        pages = client.get(f"/inspections/field/?as_of={day}").context["pages"]
        assert board.inspections_due == pages["today"].paginator.count
        assert board.inspections_this_week == pages["week"].paginator.count
        assert board.inspections_due + board.inspections_this_week > 0


def test_it_keeps_the_day_asked_in_the_links_to_the_establishments(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    html = client.get(URL).content.decode()
    assert 'href="/establishments/FSE-Z/?as_of=2025-06-30"' in html
    assert (
        '<input class="usa-input" type="date" id="as-of" name="as_of" value="2025-06-30">' in html
    )
