"""The pages read as the agency's own: on the main pages of both demo agencies no rule,
obligation or checklist id shows in the visible text, and money reads $1,234.00."""

import re
from datetime import date
from html.parser import HTMLParser
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from fogkeeper.enforcement.models import EnforcementCase
from fogkeeper.registry.models import Agency, FoodServiceEstablishment
from fogkeeper.web.templatetags.words import money, pack_title, status_word

pytestmark = pytest.mark.django_db

AS_OF = date(2026, 11, 30)
IDENTIFIER = re.compile(r"\b[a-z_]+\.[a-z_]+\b")
NOT_WORDS = re.compile(r"\S+@\S+|\S+\.(pdf|csv|xlsx|ics|js|css|png|jpg|svg)\b")
MONEY = re.compile(r"\$[\d,]+(?:\.\d+)?")
PLAIN_MONEY = re.compile(r"^\$\d{1,3}(,\d{3})*\.\d{2}$")


class Text(HTMLParser):
    """The text a person sees: no script, style or attribute."""

    def __init__(self):
        super().__init__()
        self.parts, self.hidden = [], 0

    def handle_starttag(self, tag, attrs):
        self.hidden += tag in ("script", "style")

    def handle_endtag(self, tag):
        self.hidden -= tag in ("script", "style")

    def handle_data(self, data):
        if not self.hidden:
            self.parts.append(data)


def visible(html: str) -> str:
    parser = Text()
    parser.feed(html)
    return NOT_WORDS.sub(" ", " ".join(parser.parts))


def main_pages(agency) -> list[str]:
    fses = FoodServiceEstablishment.objects.filter(agency=agency)
    cases = EnforcementCase.objects.filter(establishment__agency=agency)
    busiest = [c.establishment for c in cases]
    pages = ["/dashboard/", "/establishments/", "/inspections/field/", "/cases/", "/calendar/",
             "/inbox/", "/ordinance/"]  # fmt: skip
    for fse in [*busiest[:3], *fses.order_by("code")[:3]]:
        pages += [f"/establishments/{fse.code}/", f"/establishments/{fse.code}/account/"]
    for case in cases[:3]:
        pages.append(f"/cases/{case.establishment.code}/{case.code}/")
    return [f"{p}?as_of={AS_OF}" for p in pages]


@pytest.fixture
def demo(client):
    call_command("demo", "--as-of", AS_OF.isoformat(), stdout=StringIO())
    client.force_login(User.objects.get(username="manager"))
    return client


@pytest.mark.parametrize("code", ["san-clemente", "town"])
def test_no_identifier_and_no_unformatted_money_shows_on_the_main_pages(demo, code):
    agency = Agency.objects.get(code=code)
    assert demo.post("/agency/switch/", {"agency": code}).status_code == 302
    for url in main_pages(agency):
        response = demo.get(url)
        assert response.status_code == 200, url
        text = visible(response.content.decode())
        assert IDENTIFIER.findall(text) == [], url
        assert [m for m in MONEY.findall(text) if not PLAIN_MONEY.match(m)] == [], url


def test_money_reads_with_cents_and_thousands():
    assert money(428) == "$428.00"
    assert money("428.0") == "$428.00"
    assert money(1234.5) == "$1,234.50"
    assert money(-12) == "-$12.00"
    assert money(None) == ""


def test_a_checklist_item_with_no_finding_is_named_by_a_statement_not_its_question():
    from fogkeeper.rules.packmodel import ChecklistItem

    item = ChecklistItem("bmp.x", "Are drain screens installed?", "", "1.2(a)")
    assert item.statement() == "Not compliant: are drain screens installed"


def test_a_status_reads_in_words():
    assert status_word("non_compliant") == "Not in compliance"
    assert status_word("compliant") == "In compliance"


def test_the_packs_words_name_rules_items_obligations_and_actions():
    pack = Agency(code="x", name="x", pack="san-clemente").get_pack()
    # a checklist item's violation is named by what was found, not by the question asked
    assert pack_title(pack, "bmp.drain_screens") == (
        "Drain screens were not installed on all drainage pipes in food preparation areas"
    )
    assert pack_title(pack, "inspection.annual") == "Annual Restaurant Grease Inspection"
    assert pack_title(pack, "inspection.annual_due") == "Annual Restaurant Grease Inspection due"
    assert pack_title(pack, "notice_of_noncompliance") == "Notice of Non-Compliance"
