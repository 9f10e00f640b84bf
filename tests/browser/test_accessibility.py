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
from fogkeeper.registry.models import (
    Lateral,
    SewerSegment,
)
from tests.compliance.records import AS_OF, make_pier_taqueria, make_vista_hermosa_ramen
from tests.web.enforcement import san_clemente_case
from tests.web.people import PASSWORD, make_user, two_agencies

pytestmark = pytest.mark.django_db(transaction=True)

AXE = Path(__file__).resolve().parent / "vendor" / "axe" / "axe.min.js"
SERIOUS = {"serious", "critical"}
RUN = """reported => {
  const rules = {};
  for (const rule of axe._audit.rules) {
    if (rule.impact && !reported.includes(rule.impact)) rules[rule.id] = {enabled: false};
  }
  return axe.run(document, {resultTypes: ['violations'], rules});
}"""


@pytest.fixture
def san_clemente():
    return build_san_clemente()


def build_san_clemente():
    """Pier Taqueria with a lateral, a case and its pump-outs, Vista Hermosa Ramen with a
    sample over the limit, swept; ines is an inspector."""
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
    # Nor the rules whose impact is fixed below serious (axe-core gives a rule's impact to its
    # violations): what they would find is not reported.
    result = page.evaluate(RUN, sorted(SERIOUS))
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


def test_it_finds_a_serious_violation_and_runs_no_rule_that_reports_below_serious(page):
    """serious_violations leaves out only the rules axe-core rates below serious: an image
    with no text and a button with no name are still found."""
    page.set_content('<html lang="en"><body><main><img src="x.png"><button></button></main>')
    found = serious_violations(page)
    assert any(line.startswith("image-alt (critical)") for line in found), found
    assert any(line.startswith("button-name (critical)") for line in found), found
    left_out = page.evaluate(
        "reported => axe._audit.rules.filter(r => r.impact && !reported.includes(r.impact))"
        ".map(r => r.id)",
        sorted(SERIOUS),
    )
    assert "region" in left_out and "color-contrast" not in left_out
