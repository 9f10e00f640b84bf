from datetime import date
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext, override_settings

from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.registry.models import Lateral, SewerSegment
from tests.compliance.records import AS_OF, make_pier_taqueria
from tests.records import make_establishment, make_incident
from tests.sewers.records import clean
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db


@pytest.fixture
def agencies():
    sc, town = two_agencies()
    fse = make_pier_taqueria(sc)
    fse.latitude, fse.longitude = Decimal("33.421000"), Decimal("-117.612000")
    fse.save()
    segment = SewerSegment.objects.create(
        agency=sc, code="S-12", path=[[33.4205, -117.6125], [33.4215, -117.6110]]
    )
    Lateral.objects.create(establishment=fse, segment=segment)
    SewerSegment.objects.create(agency=sc, code="S-NOPATH")
    make_establishment(sc, "FSE-NOWHERE", name="Unplaced Cafe")
    make_incident(
        fse, "SSO-1", "2025-03-01", latitude=Decimal("33.4210"), longitude=Decimal("-117.6115")
    )
    make_establishment(
        town, "T-1", name="Town Diner", latitude=Decimal("34.11"), longitude=Decimal("-116.43")
    )
    sweep_agency(sc, as_of=AS_OF)
    return sc, town


def _by_kind(data):
    out = {}
    for feature in data["features"]:
        out.setdefault(feature["properties"]["kind"], []).append(feature)
    return out


@pytest.mark.parametrize("url", ["/map/", "/map/data.json"])
def test_it_sends_anonymous_visitors_to_sign_in(client, url):
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next={url}"


def test_it_refuses_a_user_of_no_agency(client):
    client.force_login(make_user("dave"))
    assert client.get("/map/").status_code == 403
    assert client.get("/map/data.json").status_code == 403


def test_the_data_has_placed_establishments_their_segments_and_overflows(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    response = client.get("/map/data.json")
    assert response["Content-Type"] == "application/json"
    data = response.json()
    assert data["type"] == "FeatureCollection"
    kinds = _by_kind(data)
    [fse] = kinds["establishment"]
    assert fse["geometry"] == {"type": "Point", "coordinates": [-117.612, 33.421]}
    assert fse["properties"]["code"] == "FSE-0042"
    assert fse["properties"]["status"] == "non_compliant"
    assert fse["properties"]["segments"] == ["S-12"]
    assert fse["properties"]["url"] == "/establishments/FSE-0042/"
    [segment] = kinds["segment"]
    assert segment["geometry"] == {
        "type": "LineString",
        "coordinates": [[-117.6125, 33.4205], [-117.611, 33.4215]],
    }
    assert segment["properties"]["establishments"] == ["FSE-0042"]
    assert (
        segment["properties"]["url"]
        == f"/registry/segments/{SewerSegment.objects.get(code='S-12').pk}/"
    )
    [overflow] = kinds["overflow"]
    assert overflow["geometry"]["coordinates"] == [-117.6115, 33.421]
    assert overflow["properties"]["date"] == "2025-03-01"
    assert overflow["properties"]["establishment"] == "FSE-0042"


def test_the_data_is_scoped_to_the_current_agency(client, agencies):
    client.force_login(make_user("charlie", agencies[1]))
    kinds = _by_kind(client.get("/map/data.json").json())
    assert [f["properties"]["code"] for f in kinds["establishment"]] == ["T-1"]
    assert kinds["establishment"][0]["properties"]["status"] == "unknown"
    assert "segment" not in kinds and "overflow" not in kinds


def test_the_data_takes_a_fixed_number_of_queries(client, agencies):
    sc = agencies[0]
    client.force_login(make_user("alice", sc))
    with CaptureQueriesContext(connection) as few:
        client.get("/map/data.json")
    segment = SewerSegment.objects.get(code="S-12")
    clean(segment, 10, as_of=date(2026, 12, 1))
    for n in range(10):
        fse = make_establishment(
            sc, f"FSE-X{n}", latitude=Decimal("33.42"), longitude=Decimal("-117.61")
        )
        Lateral.objects.create(establishment=fse, segment=segment)
        make_incident(fse, f"SSO-X{n}", "2025-01-01", latitude=1, longitude=2)
    with CaptureQueriesContext(connection) as many:
        data = client.get("/map/data.json").json()
    assert len(_by_kind(data)["establishment"]) == 11
    assert len(many) == len(few)


def test_each_segment_has_its_cleaning_state(client, agencies):
    sc = agencies[0]
    path = [[33.42, -117.61], [33.43, -117.62]]
    for code, days_ago in (("S-LATE", 100), ("S-SOON", 80), ("S-NOW", 5)):
        segment = SewerSegment.objects.create(
            agency=sc, code=code, prone_to_blockage=True, cleaning_frequency_days=90, path=path
        )
        clean(segment, days_ago, as_of=date(2026, 12, 1))
    SewerSegment.objects.create(
        agency=sc, code="S-NEVER", prone_to_blockage=True, cleaning_frequency_days=90, path=path
    )
    client.force_login(make_user("alice", sc))
    data = client.get("/map/data.json?as_of=2026-12-01").json()
    states = {
        f["properties"]["code"]: (f["properties"]["state"], f["properties"]["state_word"])
        for f in _by_kind(data)["segment"]
    }
    assert states == {
        "S-12": ("unscheduled", "Not on a cleaning schedule"),
        "S-LATE": ("late", "Cleaning overdue"),
        "S-NEVER": ("late", "Never cleaned"),
        "S-SOON": ("due_soon", "Cleaning due soon"),
        "S-NOW": ("current", "Cleaned on schedule"),
    }


def test_the_legend_names_each_segment_state_in_words(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    html = client.get("/map/").content.decode()
    for words in (
        "cleaning overdue or never cleaned",
        "cleaning due soon",
        "cleaned on schedule",
        "not on a cleaning schedule",
    ):
        assert f"Segment: {words}" in html


def test_the_page_loads_leaflet_and_has_no_tiles_by_default(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    html = client.get("/map/").content.decode()
    assert "web/vendor/leaflet/leaflet.js" in html
    assert 'data-url="/map/data.json"' in html
    assert 'data-tiles=""' in html
    assert '<a href="/map/">Map</a>' in html


@override_settings(FOGKEEPER_MAP_TILES="https://tiles.example.org/{z}/{x}/{y}.png")
def test_the_tile_url_is_a_setting(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    html = client.get("/map/").content.decode()
    assert 'data-tiles="https://tiles.example.org/{z}/{x}/{y}.png"' in html
