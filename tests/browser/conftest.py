"""Browser tests: Playwright drives Debian's chromium (`playwright install` cannot download a
browser here) against pytest-django's live server. `make test` installs chromium and its
headless shell first when it runs as root; without them these tests fail, they do not skip.

The headless shell is the same Chromium (Debian builds both from one source) without the
desktop browser's window and compositor: the browser tests take about a fifth less time on
it. FOGKEEPER_CHROMIUM names another binary, /usr/bin/chromium for one."""

from __future__ import annotations

import os
import re
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
import time_machine
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.registry.models import Operator
from tests.compliance.records import AS_OF, make_pier_taqueria
from tests.portal.conftest import member
from tests.records import make_employee
from tests.web.people import PASSWORD, two_agencies

# Playwright's sync API runs an event loop in the test's thread; the ORM calls of the tests
# (making users and records) are ordinary blocking calls, not async ones.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

HEADLESS_SHELL = Path("/usr/bin/chromium-headless-shell")
CHROMIUM = Path(
    os.environ.get("FOGKEEPER_CHROMIUM")
    or (HEADLESS_SHELL if HEADLESS_SHELL.is_file() else "/usr/bin/chromium")
)
SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"
PHONE = {"width": 390, "height": 844}
NOON = datetime(2025, 6, 30, 12, tzinfo=ZoneInfo("America/Los_Angeles"))  # of AS_OF
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if not CHROMIUM.is_file():
        pytest.fail(
            f"the browser tests need Debian's chromium at {CHROMIUM}: run `make browser` as "
            "root, or `apt-get install chromium chromium-headless-shell`",
            pytrace=False,
        )
    return {
        **browser_type_launch_args,
        "executable_path": str(CHROMIUM),
        "args": CHROMIUM_ARGS,
        "headless": True,
    }


@pytest.fixture
def screenshot():
    """Saves a full-page screenshot of a key page to var/screenshots/NAME.png."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(page, name: str) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take


@pytest.fixture
def sign_in(live_server):
    """Signs `username` in through the login form, as a new inspector would, and waits for
    the page the person's role lands on (web.views.home)."""

    def go(page, username: str) -> None:
        page.goto(f"{live_server.url}/accounts/login/")
        page.get_by_label("Username").fill(username)
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Sign in").click()
        try:
            page.wait_for_url(
                lambda url: url.startswith(live_server.url) and "/accounts/" not in url
            )
        except PlaywrightTimeout:  # say where the sign-in stopped, and what the page said
            main = page.locator("main")
            said = main.inner_text(timeout=1000)[:300] if main.count() else ""
            pytest.fail(f"{username} was not signed in: still at {page.url}, saying {said!r}")

    return go


# Whether the pad holds a stroke: an opaque dark pixel.
INKED = """(pad) => {
  const data = pad.getContext("2d").getImageData(0, 0, pad.width, pad.height).data;
  for (let i = 0; i < data.length; i += 4) if (data[i + 3] > 128 && data[i] < 128) return true;
  return false;
}"""


def draw_signature(page, selector: str) -> None:
    """Signs on the pad `selector` with the mouse, each stroke placed on the pad where it is at
    that moment (hover waits for it to stand still), and signs again if no stroke reached it:
    a photo's preview loading above the pad can move it down the page between two steps of a
    stroke, which then misses it (as a person would see, and sign again)."""
    pad = page.locator(selector)
    for _ in range(3):
        pad.scroll_into_view_if_needed()
        height = pad.bounding_box()["height"]
        pad.hover(position={"x": 20, "y": height * 0.7})
        page.mouse.down()
        for i in range(1, 9):
            pad.hover(position={"x": 20 + i * 25, "y": height * (0.3 + 0.05 * (i % 3))})
        page.mouse.up()
        if pad.evaluate(INKED):
            return
    pytest.fail(f"no stroke reached the signature pad {selector} in three tries", pytrace=False)


def sign_out(page) -> None:
    """Signs the person out from the bar of any page and waits for the sign-in page: the
    sign-out clears the field app's store first (web/field/signout.js), so a page opened
    before it lands would abort it."""
    page.get_by_role("button", name=re.compile("^Sign out")).click()
    page.wait_for_url("**/accounts/login/")


@pytest.fixture
def olive():
    """Harbor Eats runs Pier Taqueria; Rosa, hired on 2025-05-01, is a month late for her
    BMP training (San Clemente 13.30.050(H)(3)(a))."""
    with time_machine.travel(NOON):
        sc, _ = two_agencies()
        fse = make_pier_taqueria(sc)
        make_employee(fse, "E-3", "2025-05-01", name="Rosa Diaz")
        sweep_agency(sc, as_of=AS_OF)
        operator = Operator.objects.get(agency=sc, name="Harbor Eats Inc")
        member("olive", sc, "operator", operator=operator)
        yield
