from datetime import date

import pytest

from fogkeeper.audit.models import AuditEvent
from fogkeeper.compliance.models import Finding
from fogkeeper.compliance.resweep import sweep_establishment
from fogkeeper.incidents.models import Incident
from tests.records import make_establishment, make_incident
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db

AS_OF = "?as_of=2025-03-31"


@pytest.fixture
def town():
    sc, town = two_agencies()
    fse = make_establishment(
        town, code="T-1", name="Town Diner", address="12 Main St", opened_on="2020-01-01"
    )
    overflow = make_incident(fse, "SSO-1", "2025-03-03", attributed=True, fog_caused=True)
    sweep_establishment(fse, as_of=date(2025, 3, 31))
    Incident.objects.create(
        agency=town,
        code="712345",
        date=date(2025, 3, 10),
        kind="spill",
        fog_caused=True,
        address="12 Main",
        normalised_address="12 main",
        source="ciwqs",
        source_record={
            "SPILL_ID": "712345",
            "ADDRESS": "12 Main",
            "CITY": "Town",
            "SPILL_CAUSE": "Grease deposition",
        },
    )
    make_establishment(sc, code="FSE-9", name="Pier Taqueria")
    return {"sc": sc, "town": town, "fse": fse, "overflow": overflow}


def spill():
    return Incident.objects.get(code="712345")


def counts():
    return (
        Incident.objects.filter(establishment__isnull=False).count(),
        Incident.objects.filter(reviewed_on__isnull=False).count(),
        AuditEvent.objects.count(),
    )


def signed_in(client, town, role="inspector"):
    client.force_login(make_user("charlie", town["town"], role=role))


def test_it_lists_the_agencys_incidents_with_filters(client, town):
    signed_in(client, town)
    html = client.get("/incidents/").content.decode()
    assert "SSO-1" in html and "712345" in html and "1 imported spill to review" in html
    assert "712345" not in client.get("/incidents/?source=staff").content.decode()
    assert "SSO-1" not in client.get("/incidents/?unmatched=on").content.decode()
    assert "712345" not in client.get("/incidents/?open=on").content.decode()
    assert "SSO-1" not in client.get("/incidents/?date_from=2025-03-05").content.decode()
    assert "712345" not in client.get("/incidents/?q=town+diner").content.decode()


def test_it_shows_the_incident_with_its_open_findings(client, town):
    signed_in(client, town)
    html = client.get(f"/incidents/{town['overflow'].pk}/").content.decode()
    findings = html.split('id="incident-findings"', 1)[1].split("</table>", 1)[0]
    assert "10.02.170(A)" in findings and "Open" in findings
    assert "Town Diner" in html


def test_it_records_the_report_and_clearance_and_the_findings_close(client, town):
    signed_in(client, town)
    url = f"/incidents/{town['overflow'].pk}/edit/{AS_OF}"
    data = {
        "attributed": "on",
        "fog_caused": "on",
        "written_report_on": "2025-03-07",
        "clearance_inspection_on": "2025-03-25",
        "cause": "grease",
    }
    response = client.post(url, data, follow=True)
    assert "Incident SSO-1 recorded. Town Diner was evaluated again." in response.content.decode()
    still = Finding.objects.filter(
        establishment=town["fse"], open=True, rule__startswith="incident."
    )
    assert not still.exists()
    assert AuditEvent.objects.filter(action="incident.update").count() == 1


def test_it_refuses_a_clearance_before_the_incident_on_its_field(client, town):
    signed_in(client, town)
    before = counts()
    url = f"/incidents/{town['overflow'].pk}/edit/"
    response = client.post(url, {"attributed": "on", "clearance_inspection_on": "2025-03-01"})
    assert response.status_code == 400
    assert response.context["form"].errors["clearance_inspection_on"] == [
        "2025-03-01 is before the incident (2025-03-03)."
    ]
    assert 'value="2025-03-01"' in response.content.decode()
    assert counts() == before
    assert Incident.objects.get(code="SSO-1").clearance_inspection_on is None


def test_it_refuses_a_report_date_in_the_future(client, town):
    signed_in(client, town)
    before = counts()
    url = f"/incidents/{town['overflow'].pk}/edit/"
    response = client.post(url, {"attributed": "on", "written_report_on": "2099-01-01"})
    assert response.context["form"].errors["written_report_on"] == ["2099-01-01 is in the future."]
    assert counts() == before


def test_it_lists_the_spills_to_review_with_the_imported_columns(client, town):
    signed_in(client, town)
    html = client.get("/incidents/review/").content.decode()
    assert "712345" in html and "Grease deposition" in html and "SSO-1" not in html


def test_it_offers_the_establishment_at_the_spills_street_and_matches_it(client, town):
    signed_in(client, town, role="manager")
    url = f"/incidents/{spill().pk}/match/{AS_OF}"
    assert "Town Diner (T-1)" in client.get(url).content.decode()
    response = client.post(url, {"establishment": town["fse"].pk}, follow=True)
    assert response.redirect_chain[-1][0] == f"/incidents/{spill().pk}/"
    assert (spill().establishment, spill().attributed) == (town["fse"], True)
    assert AuditEvent.objects.filter(action="incident.match").count() == 1


def test_it_searches_establishments_to_match_by_name(client, town):
    signed_in(client, town)
    html = client.get(f"/incidents/{spill().pk}/match/?q=diner").content.decode()
    assert f'value="{town["fse"].pk}"' in html


def test_it_refuses_another_agencys_establishment_on_the_field(client, town):
    signed_in(client, town)
    before = counts()
    stranger = town["sc"].establishments.get(code="FSE-9")
    response = client.post(f"/incidents/{spill().pk}/match/", {"establishment": stranger.pk})
    assert response.status_code == 400
    assert response.context["match"].errors["establishment"] == [
        "Choose one of the agency's establishments."
    ]
    assert "Pier Taqueria" not in response.content.decode()
    assert counts() == before


def test_it_sets_a_spill_aside_with_its_reason(client, town):
    signed_in(client, town)
    response = client.post(f"/incidents/{spill().pk}/set-aside/", {"review_note": "home lateral"})
    assert response.status_code == 302
    assert spill().review_note == "home lateral" and not spill().to_review


def test_it_refuses_to_set_aside_without_a_reason(client, town):
    signed_in(client, town)
    before = counts()
    response = client.post(f"/incidents/{spill().pk}/set-aside/", {"review_note": ""})
    assert response.status_code == 400
    assert response.context["aside"].errors["review_note"] == ["This field is required."]
    assert counts() == before


def test_it_answers_404_for_another_agencys_incident(client, town):
    client.force_login(make_user("alice", town["sc"]))
    assert client.get(f"/incidents/{town['overflow'].pk}/").status_code == 404
    assert client.post(f"/incidents/{town['overflow'].pk}/edit/").status_code == 404


def test_it_lets_an_auditor_read_but_not_edit(client, town):
    signed_in(client, town, role="auditor")
    assert client.get(f"/incidents/{town['overflow'].pk}/").status_code == 200
    assert client.get(f"/incidents/{town['overflow'].pk}/edit/").status_code == 403
    assert client.post(f"/incidents/{spill().pk}/match/", {"establishment": 1}).status_code == 403


def test_the_establishment_page_links_its_incidents(client, town):
    signed_in(client, town)
    html = client.get("/establishments/T-1/").content.decode()
    assert f'href="/incidents/{town["overflow"].pk}/"' in html
    assert "written report not received" in html


# -- the spill as the State counts it ---------------------------------------------------------

SPILL = {
    "attributed": "on",
    "fog_caused": "on",
    "gallons": "1500",
    "cause": "grease",
    "reached_surface_water": "false",
    "reached_storm_drain": "false",
    "started_at": "2025-03-03T21:00",
    "ended_at": "2025-03-03T23:30",
    "known_at": "2025-03-03T21:15",
    "gallons_recovered": "200",
}


def edit(client, town, **changes):
    url = f"/incidents/{town['overflow'].pk}/edit/{AS_OF}"
    return client.post(url, {**SPILL, **changes})


def test_it_derives_category_2_and_shows_its_deadlines_with_their_citations(client, town):
    signed_in(client, town)
    assert edit(client, town).status_code == 302
    overflow = Incident.objects.get(code="SSO-1")
    assert (overflow.category, overflow.category_source) == (2, "derived")
    html = client.get(f"/incidents/{overflow.pk}/?as_of=2025-03-19").content.decode()
    assert "1,000 gallons or more is category 2" in html
    table = html.split('id="spill-deadlines"', 1)[1].split("</table>", 1)[0]
    assert "Draft Spill Report" in table and "2025-03-06" in table and "Att. E1 §3.2.1" in table
    assert "2025-03-18" in table and "the spill end date (2025-03-03)" in table
    assert table.count('<span class="usa-tag">Late</span>') == 2


def test_it_refuses_a_staff_category_the_volume_contradicts_and_changes_nothing(client, town):
    signed_in(client, town)
    before = counts()
    response = edit(client, town, gallons="2000", category="4")
    assert response.status_code == 400
    (message,) = response.context["form"].errors["category"]
    assert message.startswith("Category 4 contradicts the spill:")
    assert "§5.13.1" in message
    assert counts() == before
    assert Incident.objects.get(code="SSO-1").category is None


def test_it_takes_a_staff_category_where_the_data_does_not_decide(client, town):
    signed_in(client, town)
    assert edit(client, town, gallons="", category="3").status_code == 302
    overflow = Incident.objects.get(code="SSO-1")
    assert (overflow.category, overflow.category_source) == (3, "staff")


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"gallons_recovered": "-1"}, "gallons_recovered", "Ensure this value is greater"),
        ({"gallons_recovered": "1600"}, "gallons_recovered", "1600 gallons is more than"),
        (
            {"gallons_to_surface_water": "2000", "reached_surface_water": "true"},
            "gallons_to_surface_water",
            "2000 gallons is more than",
        ),
        ({"ended_at": "2025-03-03T20:00"}, "ended_at", "The spill cannot end"),
        ({"known_at": "2099-03-03T20:00"}, "known_at", "is in the future"),
        ({"draft_report_on": "2025-03-02"}, "draft_report_on", "is before the incident"),
        ({"certified_report_on": "2099-01-01"}, "certified_report_on", "is in the future"),
    ],
)
def test_it_refuses_impossible_spill_facts_on_their_field(client, town, changes, field, message):
    signed_in(client, town)
    before = counts()
    response = edit(client, town, **changes)
    assert response.status_code == 400
    assert message in " ".join(response.context["form"].errors[field])
    assert f'id="id_{field}_error"' in response.content.decode()
    assert counts() == before


def test_it_filters_by_category_and_by_reports_late(client, town):
    signed_in(client, town)
    edit(client, town)
    assert "SSO-1" in client.get("/incidents/?category=2").content.decode()
    assert "SSO-1" not in client.get("/incidents/?category=3").content.decode()
    assert "712345" in client.get("/incidents/?category=0").content.decode()
    late = client.get("/incidents/?reports_late=on&as_of=2025-03-19").content.decode()
    assert "SSO-1" in late and "712345" not in late
    assert (
        "SSO-1" not in client.get("/incidents/?reports_late=on&as_of=2025-03-05").content.decode()
    )


def test_it_exports_what_it_lists_as_csv_with_formulas_neutralised(client, town):
    signed_in(client, town)
    edit(client, town, cause="=HYPERLINK(1)")
    response = client.get("/incidents/?category=2&export=csv&as_of=2025-03-19")
    assert response["Content-Disposition"].endswith('-incidents-2025-03-19.csv"')
    text = b"".join(response.streaming_content).decode("utf-8-sig")
    header, *rows = text.splitlines()
    assert header.startswith("Incident,Date,Kind")
    assert len(rows) == 1 and rows[0].startswith("SSO-1,2025-03-03,overflow")
    assert "Late: Draft Spill Report by 2025-03-06 (+1 more)" in rows[0]
    assert "2025-03-03T23:30:00" in rows[0]
    assert rows[0].endswith(",'=HYPERLINK(1)")


def test_it_exports_what_it_lists_as_a_workbook(client, town):
    import io

    from openpyxl import load_workbook

    signed_in(client, town)
    edit(client, town, cause="@SUM(A1)")
    response = client.get("/incidents/?export=xlsx&as_of=2025-03-19")
    data = b"".join(response.streaming_content)
    sheet = load_workbook(io.BytesIO(data)).active
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0][:3] == ("Incident", "Date", "Kind")
    assert sorted(r[0] for r in rows[1:]) == ["712345", "SSO-1"]
    sso = next(r for r in rows if r[0] == "SSO-1")
    assert sso[10] == 2 and sso[-1] == "'@SUM(A1)"


def test_it_refuses_an_export_format_it_does_not_know(client, town):
    signed_in(client, town)
    assert client.get("/incidents/?export=pdf").status_code == 400
