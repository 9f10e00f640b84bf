"""Accessibility of the staff pages: axe-core (vendored from npm, tests only) finds no serious
or critical violation on the key pages, and the sign-in form works with the keyboard alone."""

import functools
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from playwright.sync_api import expect

from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.inspections.models import Sample
from fogkeeper.maintenance.models import Service
from fogkeeper.registry.models import (
    FoodServiceEstablishment,
    Hauler,
    Lateral,
    Operator,
    Parcel,
    PropertyOwner,
    ServiceContract,
    SewerSegment,
)
from fogkeeper.web.models import Membership
from tests.compliance.records import AS_OF, make_pier_taqueria, make_vista_hermosa_ramen
from tests.portal.conftest import member
from tests.web.enforcement import san_clemente_case
from tests.web.people import PASSWORD, make_user, two_agencies

pytestmark = pytest.mark.django_db(transaction=True)

AXE = Path(__file__).resolve().parent / "vendor" / "axe" / "axe.min.js"
SERIOUS = {"serious", "critical"}


@pytest.fixture
def san_clemente():
    sc, _ = two_agencies()
    fse = make_pier_taqueria(sc)
    fse.latitude, fse.longitude = Decimal("33.4210"), Decimal("-117.6120")
    fse.save()
    segment = SewerSegment.objects.create(
        agency=sc, code="S-12", path=[[33.4205, -117.6125], [33.4215, -117.6110]]
    )
    Lateral.objects.create(establishment=fse, segment=segment)
    san_clemente_case(fse)
    ramen = make_vista_hermosa_ramen(sc)
    Sample.objects.create(
        establishment=ramen,
        code="S-1",
        date=date(2025, 6, 2),
        parameter="oil_and_grease",
        value=Decimal("185"),
        unit="mg/L",
        method="EPA 1664",
    )
    sweep_agency(sc, as_of=AS_OF)
    make_user("ines", sc)
    return sc


@functools.cache
def axe_source() -> str:
    """axe-core's script, read once per process (half a megabyte)."""
    return AXE.read_text()


def serious_violations(page) -> list[str]:
    """Runs axe-core on the loaded page; one line per serious or critical violation."""
    # Evaluated, not added as a <script>: the page's Content-Security-Policy refuses inline ones;
    # not again where the context put it on every page already (axe_source as an init script).
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.evaluate(axe_source())
    # Only the violations: collecting every passing node too takes most of a long page's run.
    result = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['id']} ({v['impact']}): {[node['target'] for node in v['nodes']]}"
        for v in result["violations"]
        if v["impact"] in SERIOUS
    ]


def test_the_sign_in_page_has_no_serious_violations(page, live_server):
    page.goto(f"{live_server.url}/accounts/login/")
    expect(page.get_by_role("heading", name="Sign in")).to_be_visible()
    found = serious_violations(page)
    assert found == [], "\n".join(found)


@pytest.mark.parametrize(
    "path",
    [
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
    ],
)
def test_a_signed_in_page_has_no_serious_violations(page, live_server, san_clemente, sign_in, path):
    sign_in(page, "ines")
    page.goto(f"{live_server.url}{path}")
    page.wait_for_load_state("networkidle")
    if path == "/map/":
        expect(page.locator("#map")).to_have_attribute("data-loaded", "true")
    found = serious_violations(page)
    assert found == [], f"{path}:\n" + "\n".join(found)


def test_the_sign_in_form_works_with_the_keyboard(page, live_server, san_clemente):
    page.goto(f"{live_server.url}/accounts/login/")
    # The username field may hold the focus already (autofocus): it counts as reached.
    focused = []
    for step in range(20):
        if step:
            page.keyboard.press("Tab")
        name = page.evaluate(
            "() => { const e = document.activeElement;"
            " return e.name || e.type || e.tagName.toLowerCase(); }"
        )
        if name in ("username", "password", "submit") and name not in focused:
            focused.append(name)
        if name == "submit":
            break
    assert focused == ["username", "password", "submit"]

    page.get_by_label("Username").focus()
    page.keyboard.type("ines")
    page.keyboard.press("Tab")
    page.keyboard.type(PASSWORD)
    page.keyboard.press("Enter")
    page.wait_for_url(f"{live_server.url}/inspections/field/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Inspections in the field")


HAULER_PAGES = [
    "/portal/hauler/",
    "/portal/hauler/customers/FSE-0042/",
    "/portal/hauler/customers/FSE-0042/pump-out/",
    "/portal/hauler/upload/",
    "/portal/hauler/submissions/",
]


@pytest.mark.parametrize("path", HAULER_PAGES)
def test_a_hauler_portal_page_has_no_serious_violations(page, live_server, san_clemente, path):
    coastal = Hauler.objects.get(code="FSE-0042-H1")
    pier = san_clemente.establishments.get(code="FSE-0042")
    ServiceContract.objects.create(hauler=coastal, establishment=pier, since=date(2011, 1, 1))
    hank = make_user("hank")
    Membership.objects.create(user=hank, agency=san_clemente, role="hauler", hauler=coastal)
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill("hank")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{live_server.url}/portal/hauler/")
    page.goto(f"{live_server.url}{path}")
    found = serious_violations(page)
    assert found == [], f"{path}:\n" + "\n".join(found)


def test_the_dispute_page_has_no_serious_violations(page, live_server, san_clemente, sign_in):
    service = Service.objects.get(manifest_number="FSE-0042-M1")
    sign_in(page, "ines")
    page.goto(f"{live_server.url}/establishments/FSE-0042/services/{service.pk}/dispute/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Dispute a pump-out")
    found = serious_violations(page)
    assert found == [], "\n".join(found)


@pytest.fixture
def portal_people(san_clemente):
    """olive runs Pier Taqueria (FSE-0042); dora owns its parcel."""
    operator = Operator.objects.get(agency=san_clemente, name="Harbor Eats Inc")
    member("olive", san_clemente, "operator", operator=operator)
    owner = PropertyOwner.objects.create(agency=san_clemente, name="Del Mar Holdings")
    parcel = Parcel.objects.create(
        agency=san_clemente, apn="692-01", address="101 Avenida Del Mar", owner=owner
    )
    FoodServiceEstablishment.objects.filter(code="FSE-0042").update(parcel=parcel)
    member("dora", san_clemente, "owner", owner=owner)


@pytest.mark.parametrize(
    ("username", "path"),
    [
        ("olive", "/portal/operator/"),
        ("olive", "/portal/operator/FSE-0042/"),
        ("olive", "/portal/operator/FSE-0042/training/"),
        ("olive", "/portal/operator/FSE-0042/yellow-grease/"),
        ("olive", "/portal/operator/FSE-0042/permit-application/"),
        ("olive", "/portal/operator/contact/"),
        ("dora", "/portal/owner/"),
        ("dora", "/portal/owner/FSE-0042/"),
    ],
)
def test_a_portal_page_has_no_serious_violations(page, live_server, portal_people, username, path):
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{live_server.url}/portal/*/")
    page.goto(f"{live_server.url}{path}")
    page.wait_for_load_state("networkidle")
    found = serious_violations(page)
    assert found == [], f"{path}:\n" + "\n".join(found)
