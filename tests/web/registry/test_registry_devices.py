"""The device pages: install with design data, the device's page, replace, remove, service
frequency (the manager's; the Town's allowed set), design exceptions, the food grinder."""

from datetime import date
from pathlib import Path

import pytest

from fogkeeper.audit.models import AuditEvent
from fogkeeper.compliance.models import Finding
from fogkeeper.registry.models import ApprovedException, GreaseControlDevice
from tests.compliance.records import make_pier_taqueria
from tests.records import make_agency, make_device, make_establishment
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db

BASE = "/establishments/FSE-0042/devices/"
NEW = {
    "code": "GI-3",
    "kind": "interceptor",
    "installed_on": "2026-11-02",
    "capacity_gallons": "1000",
    "design_depth_inches": "48",
    "compartments": "2",
    "manhole_diameter_inches": "24",
    "location": "Rear lot",
}


@pytest.fixture
def agencies():
    sc, town = two_agencies()
    make_pier_taqueria(sc)
    return sc, town


@pytest.fixture
def manager(client, agencies):
    user = make_user("mia", agencies[0], role="manager")
    client.force_login(user)
    return user


def gi1():
    return GreaseControlDevice.objects.get(code="GI-1", establishment__code="FSE-0042")


def rows():
    return GreaseControlDevice.objects.count(), AuditEvent.objects.count()


def test_it_installs_a_device_and_shows_its_page(client, manager):
    response = client.post(f"{BASE}new/", NEW, follow=True)
    device = GreaseControlDevice.objects.get(code="GI-3")
    assert response.redirect_chain[-1][0] == f"{BASE}{device.pk}/"
    html = response.content.decode()
    assert "GI-3: Grease interceptor" in html and "Rear lot" in html
    assert "The establishment was evaluated again." in html
    assert AuditEvent.objects.filter(action="device.install", actor=manager).exists()


def test_it_refuses_negative_and_future_values_keeping_what_was_typed(client, manager):
    before = rows()
    bad = {**NEW, "installed_on": "2099-01-01", "capacity_gallons": "-5"}
    response = client.post(f"{BASE}new/", bad)
    html = response.content.decode()
    assert response.status_code == 400
    assert "2099-01-01 is in the future" in html and "Must be more than 0 (got -5" in html
    assert 'value="Rear lot"' in html and 'value="GI-3"' in html
    assert rows() == before


def test_it_refuses_a_number_the_establishment_already_uses(client, manager):
    before = rows()
    response = client.post(f"{BASE}new/", {**NEW, "code": "GI-0"})
    assert response.status_code == 400 and "already exists" in response.content.decode()
    assert rows() == before


def test_the_device_page_lists_its_pump_outs(client, manager):
    html = client.get(f"{BASE}{gi1().pk}/").content.decode()
    assert "FSE-0042-M1" in html and "Coastal Pumping" in html


def test_another_agencys_device_and_another_establishments_answer_404(client, agencies, manager):
    sc, town = agencies
    town_gi = make_device(make_establishment(town, code="T-1"), "GI-1")
    other = make_device(make_establishment(sc, code="FSE-2"), "GI-9")
    assert client.get(f"/establishments/T-1/devices/{town_gi.pk}/").status_code == 404
    assert client.get(f"{BASE}{other.pk}/").status_code == 404
    assert client.post(f"{BASE}{other.pk}/remove/", {"removed_on": "2026-01-01"}).status_code == 404


def test_it_replaces_a_device_and_the_old_one_is_listed_under_removed_devices(client, manager):
    old = gi1()
    data = {"on": "2026-11-15", "code": "GI-4", "kind": "interceptor", "capacity_gallons": "1200"}
    response = client.post(f"{BASE}{old.pk}/replace/", data, follow=True)
    old.refresh_from_db()
    assert old.removed_on == date(2026, 11, 15)
    page = client.get("/establishments/FSE-0042/").content.decode()
    removed = page.split('id="removed-devices"')[1].split("</ul>")[0]
    assert "GI-1: Grease interceptor" in removed and "removed 2026-11-15" in removed
    assert "GI-4" in response.content.decode()


def test_a_refused_replacement_keeps_the_old_device_in_place(client, manager):
    old = gi1()
    before = rows()
    data = {"on": "2026-11-15", "code": "GT-2", "kind": "interceptor"}
    response = client.post(f"{BASE}{old.pk}/replace/", data)
    assert response.status_code == 400
    old.refresh_from_db()
    assert old.removed_on is None and rows() == before


def test_it_removes_a_device_and_refuses_a_date_before_its_installation(client, manager):
    device = gi1()
    refused = client.post(f"{BASE}{device.pk}/remove/", {"removed_on": "2001-01-01"})
    assert refused.status_code == 400 and "before its installation" in refused.content.decode()
    assert (
        client.post(f"{BASE}{device.pk}/remove/", {"removed_on": "2026-11-01"}).status_code == 302
    )
    assert gi1().removed_on == date(2026, 11, 1)


def test_an_inspector_may_not_set_a_frequency(client, agencies):
    client.force_login(make_user("ines", agencies[0], role="inspector"))
    before = rows()
    response = client.post(f"{BASE}{gi1().pk}/frequency/", {"service_frequency_days": "60"})
    assert response.status_code == 403 and rows() == before


def test_the_town_refuses_a_frequency_outside_its_set_citing_the_section(client, agencies):
    town = agencies[1]
    device = make_device(make_establishment(town, code="T-1", opened_on="2023-05-01"), "GI-1")
    client.force_login(make_user("fran", town, role="manager"))
    url = f"/establishments/T-1/devices/{device.pk}/frequency/"
    assert "allows 30, 60, 90, 120, 180 days (10.02.130(B))" in client.get(url).content.decode()
    response = client.post(url, {"service_frequency_days": "45"})
    assert response.status_code == 400
    assert "45 days is not a frequency" in response.content.decode()
    assert client.post(url, {"service_frequency_days": "60"}).status_code == 302
    device.refresh_from_db()
    assert device.service_frequency_days == 60


def test_the_design_data_are_corrected_and_the_finding_follows(client, manager):
    device = gi1()
    data = {
        "kind": "interceptor",
        "installed_on": "2012-03-20",
        "capacity_gallons": "500",
        "design_depth_inches": "48",
        "compartments": "2",
        "manhole_diameter_inches": "24",
    }
    assert client.post(f"{BASE}{device.pk}/edit/", data).status_code == 302
    assert gi1().capacity_gallons == 500
    assert Finding.objects.filter(rule="gcd.design_nonconforming", open=True).exists()


def test_san_clemente_allows_no_design_exception_and_offers_none(client, manager):
    url = f"{BASE}{gi1().pk}/exception/"
    assert "Approve a design exception" not in client.get(f"{BASE}{gi1().pk}/").content.decode()
    for response in (
        client.get(url),
        client.post(url, {"field": "capacity_gallons", "approved_on": "2026-11-01"}),
    ):
        assert response.status_code == 404
    assert not ApprovedException.objects.exists()


def test_a_pack_that_allows_design_exceptions_offers_and_records_one(client, monkeypatch):
    monkeypatch.setenv("FOGKEEPER_PACKS", str(Path(__file__).parents[2] / "rules" / "packs"))
    agency = make_agency("imaginary-town")
    device = make_device(make_establishment(agency, code="FSE-9"))
    client.force_login(make_user("ida", agency, role="manager"))
    page = f"/establishments/FSE-9/devices/{device.pk}/"
    assert "Approve a design exception" in client.get(page).content.decode()
    data = {"field": "capacity_gallons", "approved_on": "2026-05-01", "reference": "PC-7"}
    assert client.post(f"{page}exception/", data).status_code == 302
    assert ApprovedException.objects.get(device=device).reference == "PC-7"


def test_it_records_a_food_grinder_and_the_establishment_shows_it(client, manager):
    url = "/establishments/FSE-0042/food-grinder/"
    response = client.post(url, {"installed_on": "2026-10-01"}, follow=True)
    assert "A food grinder is on record, installed 2026-10-01." in response.content.decode()
    assert Finding.objects.filter(rule="food_grinder.prohibited", open=True).exists()
    assert "Food grinder removed on" in client.get(url).content.decode()


def test_a_food_grinder_in_the_future_is_refused(client, manager):
    before = AuditEvent.objects.count()
    response = client.post("/establishments/FSE-0042/food-grinder/", {"installed_on": "2099-01-01"})
    assert response.status_code == 400 and "in the future" in response.content.decode()
    assert AuditEvent.objects.count() == before
