"""No identifier reaches a person: as each role of each demo agency, every staff and portal
page the role can reach from its landing page (a bounded breadth-first walk of the site's
own links) shows no rule id, snake_case value, spec file name, internal record id or
"None"/"[]"/"{}" where a value belongs, and money reads $1,234.00."""

from __future__ import annotations

import re
from collections import deque
from datetime import date, datetime
from html.parser import HTMLParser
from io import StringIO
from urllib.parse import urljoin, urlsplit

import pytest
import time_machine
from django.contrib.auth.models import User
from django.core.management import call_command
from django.urls import Resolver404, resolve

from fogkeeper.maintenance.manifests import COLUMNS as MANIFEST_COLUMNS
from tests import databases

AS_OF = date(2026, 11, 30)
ROLES = ["manager", "inspector", "clerk", "auditor", "operator", "hauler", "owner"]
AGENCIES = ["san-clemente", "town"]

# What a person must never read, each with what it is.
FORBIDDEN = {
    "rule id": re.compile(r"\b[a-z_]+\.[a-z_]+\b"),
    "snake_case value": re.compile(r"\b[a-z]+_[a-z_]+\b"),
    "spec file": re.compile(r"\b(?:RULES|CASEFILE|ACCESS|PRODUCT)\.md\b"),
    "internal id": re.compile(
        r"\b[ET]-\d+\b|\b(?:Employee|Training) [A-Z]+-\d+\b"
        r"|\b(?:Establishment|Operator|Device|Hauler|Parcel|Owner|Case|Inspection): \d+\b"
    ),
}
MONEY = re.compile(r"\$[\d,]+(?:\.\d+)?")
PLAIN_MONEY = re.compile(r"^\$\d{1,3}(,\d{3})*\.\d{2}$")
# A value shown as Python or JSON shows nothing: the whole text of an element.
EMPTY = {"None", "[]", "{}", "null"}
# Genuine words that look like identifiers, each with why it may show.
ALLOWED = [
    re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"),  # an email address
    re.compile(r"\b[\w-]+\.(?:pdf|csv|xlsx|ics|json|zip|png|jpe?g)\b"),  # a download's name
    re.compile(r"https?://\S+"),  # an address written out for a person to visit
    re.compile(r"\be\.g\.|\bi\.e\."),  # Latin abbreviations
    # the merge fields a person writes in braces in a letter to many (communications/merge.py)
    re.compile(r"\{[a-z_]+\}"),
    # the column headers a hauler's CSV file of manifests must carry, as the file spells them
    re.compile(r"\b(?:" + "|".join(map(re.escape, MANIFEST_COLUMNS)) + r")\b"),
]

# Each URL name is walked at most this often (an establishment's page is one page however
# many establishments there are), and a walk visits at most MAX_PAGES pages.
PER_NAME = 2
MAX_PAGES = 250
SKIP = ("/static/", "/media/", "/admin/", "/api/", "/logout/")


class Page(HTMLParser):
    """A page's visible text and the links a person can follow."""

    def __init__(self):
        super().__init__()
        self.parts: list[str] = []
        self.values: list[str] = []  # the texts of elements other than a choice's or a label
        self.links: list[str] = []
        self.hidden = self.option = 0
        self.details: list[bool] = []  # each open <details>: whether it is technical

    def handle_starttag(self, tag, attrs):
        self.hidden += tag in ("script", "style", "template")
        if tag == "details":  # technical details, folded away, may name the internals
            self.details.append("technical" in (dict(attrs).get("class") or "").split())
            self.hidden += self.details[-1]
        self.option += tag in ("option", "label")
        href = dict(attrs).get("href")
        if tag == "a" and href:
            self.links.append(href)

    def handle_endtag(self, tag):
        self.hidden -= tag in ("script", "style", "template")
        if tag == "details" and self.details:
            self.hidden -= self.details.pop()
        self.option -= tag in ("option", "label")

    def handle_data(self, data):
        if not self.hidden:
            self.parts.append(data)
            if not self.option:  # "None" is a genuine choice, of the FOG found in a sewer
                self.values.append(data)


def identifiers(parts: list[str], values: list[str] | None = None) -> list[tuple[str, str]]:
    """(what, the words around it) of each identifier in a page's visible text (`parts`, the
    text of each element; `values`, those that show a value, default all)."""
    values = parts if values is None else values
    empty = [("empty value", p.strip()) for p in values if p.strip() in EMPTY]
    text = " ".join(" ".join(parts).split())
    for allowed in ALLOWED:
        text = allowed.sub(" ", text)
    money = [("unformatted money", m) for m in MONEY.findall(text) if not PLAIN_MONEY.match(m)]
    return (
        empty
        + money
        + [
            (what, text[max(0, m.start() - 40) : m.end() + 20])
            for what, pattern in FORBIDDEN.items()
            for m in pattern.finditer(text)
        ]
    )


def same_site(base: str, href: str) -> str | None:
    """The path of a link to a page of the site, without its query; None for one elsewhere."""
    parts = urlsplit(urljoin(base, href))
    if parts.scheme not in ("http", "") or parts.netloc not in ("", "testserver"):
        return None
    if parts.path.startswith(SKIP):
        return None
    return parts.path


def url_name(path: str) -> str | None:
    try:
        match = resolve(path)
    except Resolver404:
        return None
    return match.view_name


def crawl(client, start: str) -> tuple[list[str], list[str]]:
    """Walk the site from `start` as `client`; returns (pages seen, what was wrong)."""
    seen, wrong, queue = set(), [], deque([start])
    per_name: dict[str, int] = {}
    visited = []
    while queue and len(visited) < MAX_PAGES:
        path = queue.popleft()
        name = url_name(path)
        if path in seen or name is None or per_name.get(name, 0) >= PER_NAME:
            continue
        seen.add(path)
        per_name[name] = per_name.get(name, 0) + 1
        response = client.get(path, {"as_of": AS_OF.isoformat()}, follow=True)
        if response.status_code != 200:  # a form that wants a choice first, or a dead end
            continue
        if not response.get("Content-Type", "").startswith("text/html"):
            continue
        visited.append(path)
        page = Page()
        page.feed(response.content.decode())
        wrong += [f"{path}: {what} {m!r}" for what, m in identifiers(page.parts, page.values)]
        for href in page.links:
            if (link := same_site(path, href)) and link not in seen:
                queue.append(link)
    return visited, wrong


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    """The demo, built once per worker for the module's tests (each runs in a savepoint of it,
    and writes nothing it keeps), at noon of AS_OF; rolled back after the last. Its foreign
    keys are checked once here, not again at the end of every test."""
    noon = time_machine.travel(datetime(2026, 11, 30, 12), tick=False)
    with databases.rolled_back(django_db_blocker), noon:
        call_command("demo", "--as-of", AS_OF.isoformat(), stdout=StringIO())
        databases.check_constraints()
        yield


@pytest.mark.django_db
@pytest.mark.parametrize("agency", AGENCIES)
@pytest.mark.parametrize("role", ROLES)
def test_no_page_a_role_reaches_shows_an_identifier(demo, client, role, agency):
    client.force_login(User.objects.get(username=role))
    client.post("/agency/switch/", {"agency": agency})
    visited, wrong = crawl(client, "/")
    assert len(visited) > 3, visited
    assert wrong == []


def test_the_check_finds_each_kind_of_identifier():
    text = "V-1: training.refresher_overdue (E-2) per RULES.md 11.11; Establishment: 128; $428"
    found = {what for what, _ in identifiers([text, " None "])}
    assert found == {*FORBIDDEN, "empty value", "unformatted money"}
    assert identifiers(["Write to manager@fogkeeper.invalid for report-2026.pdf"]) == []
    assert identifiers(["None yet.", "Order WQ 2022-0103-DWQ Att. E1 §3.1.2"]) == []
