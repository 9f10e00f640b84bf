"""The hauler portal's home: its current customers in the agency it acts for, and only them."""

import pytest

from fogkeeper.registry.models import Hauler, ServiceContract
from tests.records import d, make_device, make_establishment

from . import haulers
from .haulers import HOME, hauler_user, staff_user

pytestmark = pytest.mark.django_db
clock, world = haulers.clock, haulers.world  # the fixtures


def test_it_lists_only_the_haulers_current_customers(client, world):
    client.force_login(world.hank)
    html = client.get(HOME).content.decode()
    assert "Pier Taqueria" in html
    assert "Harbor Grill" not in html  # Rogue Vac's customer
    assert "Desert Taqueria" not in html  # the Town's


def test_it_shows_each_devices_kind_capacity_frequency_and_next_due_pump_out(client, world):
    client.force_login(world.hank)
    html = client.get(HOME).content.decode()
    assert "<strong>GI-1</strong>: Grease interceptor, 1000 gallons;" in html
    assert "<strong>GT-2</strong>: Grease trap;\n    every 30 days;" in html  # the device's own


def test_it_shows_the_next_due_date_from_the_schedule(client, world):
    client.force_login(world.hank)
    item = next(i for i in world.pier.compliance.schedule if i["subject"] == "GT-2")
    html = client.get(HOME).content.decode()
    assert f"next pump-out due {item['due']}" in html


def test_it_shows_the_haulers_own_last_pump_out_not_another_haulers(client, world):
    client.force_login(world.hank)
    html = client.get(HOME).content.decode()
    assert "<td>2025-03-02</td>" in html  # Coastal's manifest M1 on GI-1
    assert "2025-04-01" not in html  # Rogue Vac's later one on GT-2


def test_it_searches_by_name_or_address(client, world):
    other = make_establishment(world.sc, code="FSE-9", name="Sunset Coffee", address="9 Ola Vista")
    make_device(other, "GT-1", kind="trap")
    ServiceContract.objects.create(hauler=world.coastal, establishment=other, since=d("2024-01-01"))
    client.force_login(world.hank)
    html = client.get(HOME, {"q": "ola vista"}).content.decode()
    assert "Sunset Coffee" in html
    assert "Pier Taqueria" not in html
    assert "1 customer matching" in html


def test_it_pages_through_many_customers(client, world):
    for i in range(30):
        fse = make_establishment(world.sc, code=f"C-{i:02}", name=f"Cafe {i:02}")
        ServiceContract.objects.create(
            hauler=world.coastal, establishment=fse, since=d("2024-01-01")
        )
    client.force_login(world.hank)
    first = client.get(HOME).content.decode()
    second = client.get(HOME, {"page": 2}).content.decode()
    assert "31 customers" in first
    assert "Cafe 24" in first and "Cafe 25" not in first
    assert "Cafe 25" in second and "Pier Taqueria" in second


def test_it_leaves_out_a_customer_whose_contract_has_ended(client, world):
    ServiceContract.objects.filter(hauler=world.coastal).update(until=d("2025-06-01"))
    client.force_login(world.hank)
    assert "Pier Taqueria" not in client.get(HOME).content.decode()


def test_it_is_not_a_page_for_staff(client, world):
    client.force_login(staff_user("ines", world.sc))
    assert client.get(HOME).status_code == 404


def test_it_switches_to_another_agency_that_approved_the_hauler(client, world):
    town_coastal = Hauler.objects.create(agency=world.town, code="TC-1", name="Coastal (Town)")
    ServiceContract.objects.create(
        hauler=town_coastal, establishment=world.town_fse, since=d("2024-01-01")
    )
    hank = world.hank
    hank.memberships.create(agency=world.town, role="hauler", hauler=town_coastal)
    client.force_login(hank)
    assert '<label for="agency-select">' in client.get(HOME).content.decode()

    response = client.post("/agency/switch/", {"agency": "town-10-02", "next": HOME})

    assert response["Location"] == "/portal/"
    html = client.get(client.get("/portal/")["Location"]).content.decode()
    assert "Acting for <strong>The Town</strong>" in html
    assert "Desert Taqueria" in html and "Pier Taqueria" not in html


def test_it_lands_a_hauler_on_its_portal_after_signing_in(client, world):
    client.force_login(world.hank)
    assert client.get("/")["Location"] == "/portal/"
    assert client.get("/portal/")["Location"] == HOME


def test_it_refuses_a_hauler_in_an_agency_it_is_not_approved_by(client, world):
    client.force_login(hauler_user("ursula", world.rogue))
    assert client.post("/agency/switch/", {"agency": "town-10-02"}).status_code == 404
    assert "Harbor Grill" in client.get(HOME).content.decode()
