"""The sewer segment pages: the list with each segment's cleaning state (filtered, exported),
the page of one segment (the establishments feeding it, the spills on it, its cleanings), and
the form recording a cleaning."""

import csv
import io
from datetime import timedelta

import pytest
from openpyxl import load_workbook

from fogkeeper.audit.models import AuditEvent
from fogkeeper.compliance.models import ComplianceStatus
from fogkeeper.incidents.models import Incident
from fogkeeper.registry.models import Lateral
from fogkeeper.sewers.models import SegmentCleaning
from tests.records import make_establishment, make_incident
from tests.sewers.records import AS_OF, clean, make_segment
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db

ON = f"?as_of={AS_OF}"


@pytest.fixture
def world():
    sc, town = two_agencies()
    overdue = make_segment(sc, "S-10", description="Avenida Del Mar main")
    clean(overdue, 120, "moderate")
    review = make_segment(sc, "S-20")
    clean(review, 80, "heavy")
    clean(review, 10, "heavy")
    make_segment(sc, "S-30")  # never cleaned
    make_segment(sc, "S-40", days=None)
    make_segment(town, "T-10")
    return sc, town, overdue, review


@pytest.fixture
def ines(client, world):
    client.force_login(make_user("ines", world[0]))
    return client


def counts():
    return SegmentCleaning.objects.count(), AuditEvent.objects.count()


def test_the_list_shows_each_segments_state_and_next_due(ines):
    html = ines.get("/registry/segments/" + ON).content.decode()
    html = html[html.index('id="segments"') :]  # the table, not the filter's choices
    assert "Cleaning overdue" in html
    assert (AS_OF - timedelta(days=30)).isoformat() in html  # S-10 due 90 days after cleaning
    assert "Never cleaned" in html
    assert "Listed for a frequency review" in html
    assert "Not on a cleaning schedule" in html
    assert "T-10" not in html


@pytest.mark.parametrize(
    "show, codes",
    [
        ("overdue", ["S-10"]),
        ("never", ["S-30"]),
        ("review", ["S-20"]),
        ("prone", ["S-10", "S-20", "S-30"]),
        ("due_soon", []),
    ],
)
def test_the_list_filters_by_state(ines, show, codes):
    response = ines.get(f"/registry/segments/?show={show}&as_of={AS_OF}")
    rows = [s.segment.code for s in response.context["page"].object_list]
    assert rows == codes
    if not codes:
        assert "No sewer segment matches these filters." in response.content.decode()


def test_the_list_searches_by_code(ines):
    response = ines.get("/registry/segments/?q=s-2")
    assert [s.segment.code for s in response.context["page"]] == ["S-20"]


def test_an_unknown_filter_is_a_400_naming_it(ines):
    response = ines.get("/registry/segments/?show=everything")
    assert response.status_code == 400
    assert 'id="id_show_error"' in response.content.decode()


def test_the_list_exports_what_it_shows_as_csv(ines):
    response = ines.get(f"/registry/segments/?show=overdue&export=csv&as_of={AS_OF}")
    assert response["Content-Disposition"] == 'attachment; filename="san-clemente-segments.csv"'
    text = b"".join(response.streaming_content).decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][:3] == ["Segment", "Description", "Prone to blockage"]
    assert rows[1:] == [
        [
            "S-10",
            "Avenida Del Mar main",
            "yes",
            "90",
            "0",
            "Cleaning overdue",
            str(AS_OF - timedelta(days=120)),
            "Moderate",
            str(AS_OF - timedelta(days=30)),
            "no",
        ]
    ]


def test_the_list_exports_as_excel(ines):
    response = ines.get(f"/registry/segments/?show=review&export=xlsx&as_of={AS_OF}")
    book = load_workbook(io.BytesIO(b"".join(response.streaming_content)))
    rows = list(book["Sewer segments"].values)
    assert rows[0][0] == "Segment"
    assert [(r[0], r[5], r[7], r[9]) for r in rows[1:]] == [
        ("S-20", "Cleaned on schedule", "Heavy", "yes")
    ]


def test_the_segment_page_shows_its_state_and_cleanings(ines, world):
    html = ines.get(f"/registry/segments/{world[2].pk}/" + ON).content.decode()
    assert "Cleaning overdue" in html
    assert f"due {AS_OF - timedelta(days=30)}" in html
    assert "every 90 days" in html
    assert "Attachment D, section 7" in html
    assert "Moderate" in html and "Crew 2" in html and "Hydro-jetting" in html
    assert "Record a cleaning" in html


def test_the_segment_page_lists_it_for_review_after_two_heavy_cleanings(ines, world):
    html = ines.get(f"/registry/segments/{world[3].pk}/" + ON).content.decode()
    assert "Listed for a frequency review" in html
    assert html.count("<strong>Heavy</strong>") == 2


def test_the_segment_page_shows_the_establishments_feeding_it_and_their_spills(ines, world):
    sc, _, segment, _ = world
    fse = make_establishment(sc, "FSE-7", name="Harbor Grill")
    Lateral.objects.create(establishment=fse, segment=segment)
    ComplianceStatus.objects.create(establishment=fse, as_of=AS_OF, status="non_compliant")
    make_establishment(sc, "FSE-8", name="Far Away Cafe")
    make_incident(fse, "SSO-1", "2026-06-01", gallons=40, fog_caused=True, category=4)
    Incident.objects.create(agency=sc, segment=segment, code="CIWQS-9", date=AS_OF, gallons=1200)
    html = ines.get(f"/registry/segments/{segment.pk}/" + ON).content.decode()
    assert 'href="/establishments/FSE-7/">Harbor Grill</a>' in html
    assert "Not in compliance" in html
    assert "Far Away Cafe" not in html
    assert "SSO-1" in html and "Category 4" in html and "40.0" in html
    assert "CIWQS-9" in html and "1200.0" in html


def test_another_agencys_segment_is_404(ines, world):
    other = world[1].sewer_segments.get()
    assert ines.get(f"/registry/segments/{other.pk}/").status_code == 404
    assert ines.get(f"/registry/segments/{other.pk}/cleanings/new/").status_code == 404


def test_an_inspector_records_a_cleaning(ines, world):
    segment = world[2]
    data = {
        "cleaned_on": "2026-11-30",
        "crew": "Crew 4",
        "method": "vacuum",
        "fog_found": "heavy",
        "notes": "roots too",
    }
    response = ines.post(f"/registry/segments/{segment.pk}/cleanings/new/", data)
    assert response.status_code == 302
    assert response["Location"] == f"/registry/segments/{segment.pk}/"
    cleaning = segment.cleanings.get(crew="Crew 4")
    assert (cleaning.method, cleaning.fog_found) == ("vacuum", "heavy")
    assert AuditEvent.objects.filter(action="segment.clean", object_id=cleaning.pk).exists()


def test_a_refused_cleaning_names_the_field_keeps_the_values_and_changes_nothing(ines, world):
    before = counts()
    data = {"cleaned_on": "2999-01-01", "crew": "Crew 4", "method": "vacuum", "fog_found": "x"}
    response = ines.post(f"/registry/segments/{world[2].pk}/cleanings/new/", data)
    assert response.status_code == 400
    html = response.content.decode()
    assert 'id="id_fog_found_error"' in html
    assert 'value="Crew 4"' in html
    data["fog_found"] = "none"
    response = ines.post(f"/registry/segments/{world[2].pk}/cleanings/new/", data)
    assert response.status_code == 400
    assert 'id="id_cleaned_on_error"' in response.content.decode()
    assert "in the future" in response.content.decode()
    assert counts() == before


@pytest.mark.parametrize("role", ["clerk", "auditor"])
def test_a_role_that_may_not_clean_reads_the_page_but_may_not_record(client, world, role):
    client.force_login(make_user("pat", world[0], role=role))
    url = f"/registry/segments/{world[2].pk}/"
    assert "Record a cleaning" not in client.get(url).content.decode()
    before = counts()
    assert client.get(url + "cleanings/new/").status_code == 403
    data = {"cleaned_on": "2026-11-30", "crew": "C", "method": "vacuum", "fog_found": "none"}
    assert client.post(url + "cleanings/new/", data).status_code == 403
    assert counts() == before


def test_an_unknown_export_format_is_a_400(ines):
    response = ines.get("/registry/segments/?export=pdf")
    assert response.status_code == 400
    assert b"export=csv or export=xlsx" in response.content
