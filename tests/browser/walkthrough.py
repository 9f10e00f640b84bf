"""Steps of the enforcement walkthroughs, as the people do them in the pages: signing in as
another person, following a next step of the case page, filling its form, reading a letter."""

from __future__ import annotations

import io
import re
from pathlib import Path

from playwright.sync_api import expect
from pypdf import PdfReader

from tests.browser.test_accessibility import serious_violations


class Walk:
    def __init__(self, page, live_server, sign_in, screenshot, prefix: str):
        self.page, self.url, self._sign_in, self._shot = page, live_server.url, sign_in, screenshot
        self.prefix, self.n = prefix, 0

    def as_(self, username: str) -> None:
        self.page.context.clear_cookies()
        self._sign_in(self.page, username)

    def go(self, path: str) -> None:
        self.page.goto(f"{self.url}{path}")

    def shot(self, name: str) -> None:
        self.n += 1
        self._shot(self.page, f"{self.prefix}-{self.n:02d}-{name}")
        assert serious_violations(self.page) == [], name

    def step(self, label: str) -> None:
        """Follow the case page's next step whose link starts with `label`."""
        steps = self.page.locator("#next-steps")
        steps.get_by_role("link", name=re.compile("^" + re.escape(label))).first.click()

    def fill(self, values: dict[str, str]) -> None:
        form = self.page.locator("main form.record")
        for name, value in values.items():
            field = form.get_by_label(re.compile(f"^{re.escape(name)}:?$"))
            if field.evaluate("e => e.tagName") == "SELECT":
                field.select_option(value)  # a value or an option's label
            else:
                field.fill(value)

    def submit(self, button: str = "Record") -> None:
        self.page.locator("main form.record").get_by_role("button", name=button, exact=True).click()

    def done(self, text: str) -> None:
        """The step was recorded, as the page says; a screenshot of each step's outcome."""
        expect(self.page.locator(".usa-alert--success, .messages").first).to_contain_text(text)
        self.n += 1
        slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40]
        self._shot(self.page, f"{self.prefix}-{self.n:02d}-{slug}")

    def refused(self, text: str) -> None:
        expect(self.page.locator("#refusal")).to_contain_text(text)

    def letter(self, code: str) -> str:
        """The text of the letter of action `code`, downloaded from the case page."""
        with self.page.expect_download() as info:
            self.page.get_by_role("link", name=f"Letter for {code} (PDF)").click()
        reader = PdfReader(io.BytesIO(Path(info.value.path()).read_bytes()))
        return " ".join(" ".join((p.extract_text() or "").split()) for p in reader.pages)
