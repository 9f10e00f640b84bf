"""A new agency's path with no code: a pack made by `fogkeeper packs new`, its placeholders
filled in as its author would, runs as an agency (its demo swept, its pages in its own words)
and its demo is on its own streets and map. Each test loads its own demo, in a database with
no other (the imaginary town's tests, which share one: tests/web/test_any_pack.py)."""

from datetime import date
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from fogkeeper.cli import main as cli_main
from fogkeeper.compliance.models import ComplianceStatus
from fogkeeper.registry.models import Agency
from tests.rules.new_pack import fill

pytestmark = pytest.mark.django_db

AS_OF = date(2026, 6, 30)
Q = f"?as_of={AS_OF}"


def test_a_pack_made_by_packs_new_and_filled_in_runs_as_an_agency(client, monkeypatch, tmp_path):
    """A new agency's path with no code: `packs new`, its placeholders filled in, loaded by
    FOGKEEPER_PACKS, a demo of it swept, and its pages read in its own words."""
    folder = tmp_path / "packs" / "example-city"
    assert cli_main(["packs", "new", str(folder), "--name", "City of Example"]) == 0
    fill(folder)
    monkeypatch.setenv("FOGKEEPER_PACKS", str(folder.parent))
    call_command("demo", "--pack", "example-city", "--as-of", AS_OF.isoformat(), stdout=StringIO())
    agency = Agency.objects.get(pack="example-city")
    assert agency.establishments.count() >= 30
    swept = ComplianceStatus.objects.filter(establishment__agency=agency).count()
    assert swept == agency.establishments.count()
    client.force_login(get_user_model().objects.get(username="manager"))
    urls = ["/dashboard/", "/establishments/", "/cases/", "/calendar/", "/ordinance/"]
    assert {u: client.get(u + Q).status_code for u in urls} == dict.fromkeys(urls, 200)
    ordinance = client.get("/ordinance/" + Q).content.decode()
    assert "City of Example" in ordinance and "7.40.050(B)" in ordinance


def test_a_new_packs_demo_is_on_its_own_streets_and_map(client, monkeypatch, tmp_path):
    """The demo of a pack made by `packs new` puts its establishments inside the pack's area,
    on the streets it names, and its map shows them (issue 38 item 4)."""
    folder = tmp_path / "packs" / "example-city"
    cli_main(["packs", "new", str(folder), "--name", "City of Example"])
    fill(folder)  # the area's example: centre [41.5868, -93.6250], 5 km, three streets
    monkeypatch.setenv("FOGKEEPER_PACKS", str(folder.parent))
    call_command("demo", "--pack", "example-city", "--as-of", AS_OF.isoformat(), stdout=StringIO())
    agency = Agency.objects.get(pack="example-city")
    streets = ("Main Street", "Grand Avenue", "Lincoln Way")
    for fse in agency.establishments.all():
        assert any(s in fse.address for s in streets), fse.address
        assert fse.latitude is not None, fse.code
        north_km = (float(fse.latitude) - 41.5868) * 111.32
        east_km = (float(fse.longitude) + 93.6250) * 111.32 * 0.7476  # cos(41.59 degrees)
        assert north_km**2 + east_km**2 <= 5.01**2, (fse.code, fse.latitude, fse.longitude)
    assert all(s.path for s in agency.sewer_segments.all())
    client.force_login(get_user_model().objects.get(username="manager"))
    shown = client.get("/map/data.json" + Q).json()["features"]
    points = [f for f in shown if f["properties"]["kind"] == "establishment"]
    assert len(points) == agency.establishments.count()
