"""axe-core finds no serious or critical violation on the key pages of each person: the staff
pages of an inspector, the hauler's portal, and the operator's and the owner's. Their world
(test_accessibility.build_san_clemente, a hauler, an operator and an owner) is built once for
the module and read by each test through a signed-in browser context of the person's own."""

from __future__ import annotations

from datetime import date

import pytest
from playwright.sync_api import expect

from fogkeeper.maintenance.models import Service
from fogkeeper.registry.models import (
    FoodServiceEstablishment,
    Hauler,
    Operator,
    Parcel,
    PropertyOwner,
    ServiceContract,
)
from fogkeeper.web.models import Membership
from tests.portal.conftest import member
from tests.web.people import make_user

from .served import served, session_cookie, signed_in_pages
from .test_accessibility import axe_source, build_san_clemente, serious_violations

STAFF_PAGES = [
    "/",
    "/dashboard/",
    "/inbox/",
    "/establishments/",
    "/establishments/FSE-0042/",
    "/establishments/FSE-0042/record/inspection/",
    "/establishments/FSE-0077/",
    "/establishments/FSE-0077/record/sample/",
    "/inspections/field/",
    "/map/",
    "/cases/",
    "/cases/FSE-0042/EC-7/",
]
HAULER_PAGES = [
    "/portal/hauler/",
    "/portal/hauler/customers/FSE-0042/",
    "/portal/hauler/customers/FSE-0042/pump-out/",
    "/portal/hauler/upload/",
    "/portal/hauler/submissions/",
]
PORTAL_PAGES = [
    ("olive", "/portal/operator/"),
    ("olive", "/portal/operator/FSE-0042/"),
    ("olive", "/portal/operator/FSE-0042/training/"),
    ("olive", "/portal/operator/FSE-0042/yellow-grease/"),
    ("olive", "/portal/operator/FSE-0042/permit-application/"),
    ("olive", "/portal/operator/contact/"),
    ("dora", "/portal/owner/"),
    ("dora", "/portal/owner/FSE-0042/"),
]


def _people(san_clemente) -> dict:
    """ines inspects; hank hauls for Pier Taqueria (FSE-0042) under contract; olive runs it
    and dora owns its parcel."""
    coastal = Hauler.objects.get(code="FSE-0042-H1")
    pier = san_clemente.establishments.get(code="FSE-0042")
    ServiceContract.objects.create(hauler=coastal, establishment=pier, since=date(2011, 1, 1))
    hank = make_user("hank")
    Membership.objects.create(user=hank, agency=san_clemente, role="hauler", hauler=coastal)
    operator = Operator.objects.get(agency=san_clemente, name="Harbor Eats Inc")
    olive = member("olive", san_clemente, "operator", operator=operator)
    owner = PropertyOwner.objects.create(agency=san_clemente, name="Del Mar Holdings")
    parcel = Parcel.objects.create(
        agency=san_clemente, apn="692-01", address="101 Avenida Del Mar", owner=owner
    )
    FoodServiceEstablishment.objects.filter(code="FSE-0042").update(parcel=parcel)
    dora = member("dora", san_clemente, "owner", owner=owner)
    ines = san_clemente.memberships.get(user__username="ines").user
    return {"ines": ines, "hank": hank, "olive": olive, "dora": dora}


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """The server's address, each person's session cookie and the page to dispute a pump-out."""
    with served(django_db_blocker) as server:
        people = _people(build_san_clemente())
        service = Service.objects.get(manifest_number="FSE-0042-M1")
        dispute = f"/establishments/FSE-0042/services/{service.pk}/dispute/"
        yield server.url, {name: session_cookie(user) for name, user in people.items()}, dispute


@pytest.fixture(scope="module")
def page_of(browser, world):
    """One signed-in page per person, with axe-core put on each page it opens."""
    url, cookies, _ = world
    with signed_in_pages(browser, url, cookies, script=axe_source()) as page_of:
        yield page_of


def _violations(page, path: str) -> list[str]:
    page.goto(path)
    if path == "/map/":  # its markers come after the page, from map_data
        expect(page.locator("#map")).to_have_attribute("data-loaded", "true")
    return serious_violations(page)


@pytest.mark.parametrize("path", STAFF_PAGES)
def test_a_signed_in_page_has_no_serious_violations(page_of, path):
    found = _violations(page_of("ines"), path)
    assert found == [], f"{path}:\n" + "\n".join(found)


def test_the_dispute_page_has_no_serious_violations(world, page_of):
    page = page_of("ines")
    found = _violations(page, world[2])
    expect(page.get_by_role("heading", level=1)).to_have_text("Dispute a pump-out")
    assert found == [], "\n".join(found)


@pytest.mark.parametrize("path", HAULER_PAGES)
def test_a_hauler_portal_page_has_no_serious_violations(page_of, path):
    found = _violations(page_of("hank"), path)
    assert found == [], f"{path}:\n" + "\n".join(found)


@pytest.mark.parametrize(("username", "path"), PORTAL_PAGES)
def test_a_portal_page_has_no_serious_violations(page_of, username, path):
    found = _violations(page_of(username), path)
    assert found == [], f"{path}:\n" + "\n".join(found)
