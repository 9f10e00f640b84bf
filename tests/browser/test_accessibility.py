"""Accessibility of the staff pages: axe-core (vendored from npm, tests only) finds no serious
or critical violation on the key pages, and the sign-in form works with the keyboard alone."""

from decimal import Decimal
from pathlib import Path

import pytest
from playwright.sync_api import expect

from fogkeeper.compliance.sweep import sweep_agency
from fogkeeper.registry.models import Lateral, SewerSegment
from tests.compliance.records import AS_OF, make_pier_taqueria
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
    sweep_agency(sc, as_of=AS_OF)
    make_user("ines", sc)
    return sc


def serious_violations(page) -> list[str]:
    """Runs axe-core on the loaded page; one line per serious or critical violation."""
    # Evaluated, not added as a <script>: the page's Content-Security-Policy refuses inline ones.
    page.evaluate(AXE.read_text())
    result = page.evaluate("() => axe.run()")
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
        "/establishments/",
        "/establishments/FSE-0042/",
        "/establishments/FSE-0042/record/inspection/",
        "/inspections/field/",
        "/map/",
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
    page.wait_for_url(f"{live_server.url}/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("What needs doing")
