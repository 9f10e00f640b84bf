"""The error pages as a person meets them: each says what happened and what to do next, shows
the reference (the request id) to quote when asking for help, and passes axe-core."""

import pytest

from tests.browser.test_accessibility import serious_violations
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def failing(settings):
    settings.ROOT_URLCONF = "tests.security.urls"  # the project's URLs and /fail/<status>/


@pytest.fixture
def inspector(sign_in, page):
    sc, _ = two_agencies()
    make_user("ines", sc)
    sign_in(page, "ines")


@pytest.mark.parametrize(
    ("path", "status", "heading", "name"),
    [
        ("/fail/404/", 404, "not found", "error-404"),
        ("/fail/500/", 500, "Something went wrong on our side", "error-500"),
        ("/fail/503/", 503, "The service is briefly unavailable", "error-503"),
        ("/fail/409/", 409, "Not saved: someone else recorded the same thing", "error-409"),
        ("/establishments/?q=%00", 400, "This request could not be read", "error-malformed"),
    ],
)
def test_it_says_what_happened_and_gives_the_reference(
    page, live_server, failing, inspector, screenshot, path, status, heading, name
):
    response = page.goto(f"{live_server.url}{path}")
    assert response.status == status
    assert heading.lower() in page.locator("h1").inner_text().lower()
    reference = response.headers["x-request-id"]
    assert reference in page.get_by_text("quote this reference").inner_text()
    assert serious_violations(page) == []
    screenshot(page, name)
