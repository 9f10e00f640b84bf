"""The pages work under their Content-Security-Policy: the browser refuses nothing on the
staff pages, the map or the API's documentation (Swagger UI from vendored files)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from fogkeeper.compliance.runs import sweep_agency
from tests.compliance.records import AS_OF, make_pier_taqueria
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def refused(page):
    """What the browser refused because of the policy (it says so on the console)."""
    seen = []
    page.on(
        "console",
        lambda message: (
            seen.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    return seen


def test_the_staff_pages_load_nothing_the_policy_refuses(page, refused, live_server, sign_in):
    sc, _ = two_agencies()
    make_pier_taqueria(sc)
    sweep_agency(sc, as_of=AS_OF)
    make_user("ines", sc)
    sign_in(page, "ines")
    for path in ("/", "/establishments/", "/establishments/FSE-0042/", "/map/"):
        page.goto(f"{live_server.url}{path}")
        page.wait_for_load_state("networkidle")
    assert refused == []


def test_the_api_docs_render_under_the_policy(page, refused, live_server):
    page.goto(f"{live_server.url}/api/v1/docs/")
    expect(page.get_by_text("fogkeeper API").first).to_be_visible()
    expect(page.locator("#operations-findings-findings_list")).to_be_visible()
    assert refused == []
