"""Every bundled pack runs the whole application by data alone (issue 26). For each pack of the
registry: `manage.py demo --pack`, `manage.py generate --establishments 5000` and the sweep of
that agency; every staff page and every portal page of the access matrix (tests/access: a new
page has its rows there) on the pack's demo agency answering 200 in the agency's own name, and
every step of the pack's procedure the case page offers, with the pack's citation; every
letter the pack sends as a PDF citing the pack's section for it; the calendar, its exports
and the annual report, of the demo and of the 5,000 establishments.

Each pack's program is built once, for all of its tests, in a transaction rolled back after
them (the module fixture; its tests are kept on one xdist worker, their group). The tests run
in that transaction, with no savepoint of their own: they read, but for the records the access
matrix's URLs put on record where the demo has none, which go with the rest; a savepoint
rolled back would have PostgreSQL check the foreign keys of every row generated again, 2.5 s a
test."""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

import icalendar
import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.test import Client
from django.urls import resolve, reverse
from django.utils.html import escape
from openpyxl import load_workbook

from fogkeeper.billing.models import Invoice
from fogkeeper.compliance.models import ComplianceStatus
from fogkeeper.compliance.resweep import sweep_establishment
from fogkeeper.demo.enforcement import _filled
from fogkeeper.demo.written import section
from fogkeeper.enforcement.letters import render_action_letter
from fogkeeper.enforcement.models import HEARING, EnforcementAction, EnforcementCase, Letter
from fogkeeper.enforcement.services import HEARD, action_deadlines, action_take, sends_letter
from fogkeeper.filings.kinds import request_kinds
from fogkeeper.permits.documents import modification_notice_pdf, permit_pdf
from fogkeeper.permits.models import Permit, PermitModification
from fogkeeper.permits.services import permit_issue
from fogkeeper.registry.models import Agency
from fogkeeper.rules.packs import Pack, default_registry
from fogkeeper.web.common import policy
from fogkeeper.web.permits import urls as permit_urls
from tests.access.areas.requests import NoRequests
from tests.access.test_matrix import add_photos, build, rows
from tests.access.world import ROLES, Side
from tests.letters.test_letters import text_of

AS_OF = date(2026, 6, 30)
GENERATED = 5000
OUTSIDE = ("operator", "hauler", "owner")
PACKS = [
    pytest.param(pack_id, marks=pytest.mark.xdist_group(f"every-pack-{pack_id}"))
    for pack_id in default_registry().ids()
]


@dataclass
class Program:
    pack: Pack
    demo: Agency
    generated: Agency
    side: Side  # the demo agency and its logins, from which the access matrix builds URLs


class DemoSide(Side):
    """The demo agency as a side of the access matrix's world, an outside role's own
    establishment the one with the demo's enforcement case where the role reaches it (the
    portal's letters and notices are of that case)."""

    def _serviced(self):
        cased = EnforcementCase.objects.filter(establishment=OuterRef("pk"))
        return super()._serviced().order_by(~Exists(cased), "code")


def _side(agency: Agency) -> Side:
    side = DemoSide(agency)
    for role in ROLES:
        user = get_user_model().objects.get(username=role)
        side.users[role] = user
        reached = policy.establishments(user, agency, on=AS_OF)
        side.reach[role] = set(reached.values_list("code", flat=True))
    return side


def _a_permit(agency: Agency) -> None:
    """A permit, through the service its staff record one with, where the demo issued none
    (a pack whose ordinance puts a permit on an establishment only as needed; none for a pack
    with no permit)."""
    if agency.get_pack().has_permits and not Permit.objects.filter(agency=agency).exists():
        fse = agency.establishments.filter(closed_on=None).order_by("code").first()
        permit_issue(
            establishment=fse,
            number="P-1",
            issued_on=date(AS_OF.year, 1, 2),
            expires_on=date(AS_OF.year + 1, 1, 1),
        )


@pytest.fixture(scope="module", params=PACKS)
def program(request, django_db_setup, django_db_blocker):
    """The pack's demo agency and 5,000 generated establishments on it, both swept."""
    pack = default_registry().get(request.param)
    day, code, out = AS_OF.isoformat(), f"gen-{pack.id}"[:40], io.StringIO()
    with django_db_blocker.unblock(), transaction.atomic():
        call_command("demo", "--pack", pack.id, "--as-of", day, stdout=out)
        demo = Agency.objects.get(pack=pack.id)
        call_command(
            "generate",
            "--pack",
            pack.id,
            "--establishments",
            str(GENERATED),
            "--years",
            "1",
            "--agency-code",
            code,
            "--as-of",
            day,
            stdout=out,
        )
        call_command("sweep", "--agency", code, "--as-of", day, stdout=out)
        _a_permit(demo)
        side = _side(demo)
        add_photos({"demo": side})
        yield Program(pack, demo, Agency.objects.get(code=code), side)
        transaction.set_rollback(True)


@pytest.fixture(autouse=True)
def today(program):
    """Noon of AS_OF where the agency is: the pages' today."""
    noon = datetime.combine(AS_OF, time(12), tzinfo=program.pack.calendar.tz)
    with time_machine.travel(noon, tick=False):
        yield


def citation_prefix(pack: Pack) -> str:
    """The chapter's numbering as its rules cite it: "13.30.", "10.02.", "922."."""
    citation = next(iter(pack.rules.values())).citation
    found = re.match(r"[\d.]+\.", citation)
    assert found, citation
    return found.group(0)


def page_names(role: str) -> list[str]:
    """The URL names `role` reads (GET) by the access matrix: for the manager, the pages
    behind the sign-in no outside role reaches; for an outside role, its portal's."""
    out = []
    for row in rows():
        if row["method"] != "GET" or row[role] != "ok" or row["anonymous"] != "login":
            continue
        if role in OUTSIDE:
            wanted = row["name"].startswith("portal:")
        else:
            wanted = row["name"].startswith("web:") and all(row[r] != "ok" for r in OUTSIDE)
        if wanted:
            out.append(row["name"])
    return out


def agency_pages(program: Program) -> list[str]:
    """The manager's pages of the whole agency that only read (no record in their URL, no
    form: POST is not offered), the ones whose work grows with the program; no permit page
    where the ordinance has no permit (they answer 404, as the staff page test reads)."""
    read_only = {r["name"] for r in rows() if r["method"] == "POST" and r["manager"] == "405"}
    absent: dict[str, list[str]] = {}
    names = [n for n in page_names("manager") if program.pack.has_permits or n not in PERMIT_PAGES]
    urls = [url_of(program, name, "manager", absent) for name in names]
    assert_absent_only_as_the_pack_says(program.pack, absent)
    urls = [url for url in urls if url is not None]
    return [url for url in urls if resolve(url).view_name in read_only and not resolve(url).kwargs]


def url_of(program: Program, name: str, role: str, absent: dict[str, list[str]]) -> str | None:
    """The URL of `name` on the demo for `role`, or None where it names a record of what the
    pack does not have (a letter or an action of a pack with no enforcement action, a permit
    of a pack with no permit): the name goes into `absent` under what it lacks."""
    try:
        return build(name, program.side, role)[0]
    except (Letter.DoesNotExist, EnforcementAction.DoesNotExist):
        absent.setdefault("actions", []).append(name)
    except Permit.DoesNotExist:
        absent.setdefault("permits", []).append(name)
    except Invoice.DoesNotExist:
        absent.setdefault("invoices", []).append(name)
    except NoRequests:
        absent.setdefault("requests", []).append(name)
    return None


def assert_absent_only_as_the_pack_says(pack: Pack, absent: dict[str, list[str]]) -> None:
    """A page goes without its record only for what the pack does not define."""
    if pack.has_actions:
        assert "actions" not in absent, absent
    if pack.has_permits:
        assert "permits" not in absent, absent
    if section(pack.id, "enforcement").get("fees"):  # the demo invoices the fees it lists
        assert "invoices" not in absent, absent
    if request_kinds(pack):
        assert "requests" not in absent, absent


NO_ACTIONS = "defines no enforcement actions"
PERMIT_PAGES = {f"web:{p.name}" for p in permit_urls.urlpatterns} - {
    "web:plan_review_new",
    "web:plan_review_decide",
    "web:plan_review_document",
}


def body(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


def html_of(response) -> str | None:
    """The page's HTML (None for a file: a PDF, a photo, a CSV)."""
    if not response["Content-Type"].startswith("text/html"):
        return None
    return body(response).decode()


def signed_in(program: Program, role: str) -> Client:
    client = Client()
    client.force_login(program.side.users[role])
    return client


def unnamed(response) -> bool:
    """A step of a case asked for without the action it is on (a link not from the case
    page): the page says so (400); the case page's own links name the action."""
    names = {t.name for t in response.templates}
    return response.status_code == 400 and "web/enforcement/unnamed.html" in names


def not_in_words(response, url: str, agency: Agency) -> list[str]:
    """What is wrong with the answer to `url`: not 200, or a page without the agency's name."""
    html = html_of(response)
    if response.status_code != 200:
        return [f"{url}: {response.status_code}"]
    if html is not None and escape(agency.name) not in html:
        return [f"{url}: no {agency.name!r}"]
    return []


def demo_case(program: Program) -> EnforcementCase:
    return EnforcementCase.objects.filter(establishment__agency=program.demo).earliest("pk")


def case_page(case: EnforcementCase) -> str:
    return reverse("web:case", kwargs={"code": case.establishment.code, "case": case.code})


def case_links(client: Client, case: EnforcementCase) -> list[str]:
    """The steps the case page offers (each a form's URL with its query)."""
    page = case_page(case)
    links = re.findall(rf'href="({re.escape(page)}[^"#]+)"', client.get(page).content.decode())
    return sorted({link.replace("&amp;", "&") for link in links})


def test_it_generates_5000_establishments_on_the_pack_and_sweeps_each(program):
    assert program.demo.pack == program.generated.pack == program.pack.id
    assert program.generated.establishments.count() == GENERATED
    for agency in (program.demo, program.generated):
        statuses = ComplianceStatus.objects.filter(establishment__agency=agency)
        assert statuses.count() == agency.establishments.count() > 0


def offered(name: str, pack: Pack) -> bool:
    """The CIWQS import pages are offered only where the pack's State pack reports in CIWQS
    (tests/web/test_no_state_pack.py reads them answering 404 elsewhere)."""
    return pack.state_reporting is not None or not name.startswith("web:incident_import")


def test_every_staff_page_answers_200_with_the_agencys_name(program):
    client, wrong, asked, absent = signed_in(program, "manager"), [], set(), {}
    for name in page_names("manager"):
        if not offered(name, program.pack):
            continue
        url = url_of(program, name, "manager", absent)
        if url is None:
            continue  # no such record: what the pack lacks, asserted below
        response = client.get(url)
        if name in PERMIT_PAGES and not program.pack.has_permits:
            wrong += [f"{url}: {response.status_code}"] * (response.status_code != 404)
            continue  # the ordinance puts no permit on establishments
        if unnamed(response):
            continue  # a step of the case: as the case page links it, the next test
        asked.add(name)
        wrong += not_in_words(response, url, program.demo)
    assert wrong == [], "\n".join(wrong)
    assert_absent_only_as_the_pack_says(program.pack, absent)
    assert {"web:establishment", "web:case"} <= asked
    assert ("web:permit" in asked) == program.pack.has_permits
    assert ("web:letter" in asked) == program.pack.has_actions


def test_every_step_the_case_page_offers_answers_200_citing_the_pack(program):
    client, wrong = signed_in(program, "manager"), []
    case = demo_case(program)
    links = case_links(client, case)
    for url in links:
        response = client.get(url)
        wrong += not_in_words(response, url, program.demo)
        spec = program.pack.actions.get(resolve(url.split("?")[0]).kwargs.get("type", ""))
        if spec is not None and escape(spec.citation) not in (html_of(response) or ""):
            wrong.append(f"{url}: no {spec.citation!r}")
    assert wrong == [], "\n".join(wrong)
    if not program.pack.has_actions:  # the page says so in words, and offers no step
        assert NO_ACTIONS in client.get(case_page(case)).content.decode()
        assert not any("/act/" in url for url in links), links
        return
    assert any("/act/" in url for url in links), "the case page offers the pack's actions"


def test_the_pages_about_the_law_cite_the_packs_sections(program):
    client, prefix = signed_in(program, "manager"), citation_prefix(program.pack)
    case = demo_case(program)
    for url in (
        reverse("web:ordinance"),
        reverse("web:findings"),
        reverse("web:establishment", kwargs={"code": case.establishment.code}),
        case_page(case),
    ):
        assert prefix in client.get(url).content.decode(), url
    ordinance = client.get(reverse("web:ordinance")).content.decode()
    assert escape(program.pack.ordinance.split(" (")[0]) in ordinance


@pytest.mark.parametrize("role", OUTSIDE)
def test_every_portal_page_answers_200_with_the_agencys_name(program, role):
    client, wrong, absent = signed_in(program, role), [], {}
    for name in page_names(role):
        url = url_of(program, name, role, absent)
        if url is not None:
            wrong += not_in_words(client.get(url), url, program.demo)
    assert wrong == [], "\n".join(wrong)
    assert_absent_only_as_the_pack_says(program.pack, absent)


def test_the_operator_reads_the_notice_sent_with_the_packs_citation(program):
    client, case = signed_in(program, "operator"), demo_case(program)
    code = case.establishment.code
    if not program.pack.has_actions:  # no notice was sent: the page says it plainly
        assert not case.actions.exists()
        url = reverse("portal:operator_enforcement", kwargs={"code": code})
        assert NO_ACTIONS in client.get(url).content.decode()
        return
    action = case.actions.earliest("pk")
    for url in (
        reverse("portal:operator_enforcement", kwargs={"code": code}),
        reverse("portal:operator_notice_answer", kwargs={"code": code, "action": action.code}),
    ):
        html = client.get(url).content.decode()
        assert escape(program.pack.actions[action.type].citation) in html, url


def generated_staff(program: Program) -> Client:
    """The demo's superuser, at the generated agency."""
    client = Client()
    client.force_login(get_user_model().objects.get(username="staff"))
    switched = client.post("/agency/switch/", {"agency": program.generated.code})
    assert switched.status_code == 302
    return client


def test_the_agency_wide_pages_of_5000_establishments_answer_200(program):
    client, wrong = generated_staff(program), []
    urls = agency_pages(program)
    for url in urls:
        wrong += not_in_words(client.get(url), url, program.generated)
    assert wrong == [], "\n".join(wrong)
    assert {"/dashboard/", "/establishments/", "/calendar/", "/ordinance/"} <= set(urls)


def letter_types(pack: Pack) -> list[str]:
    """The pack's actions that send a letter (`letter: true`)."""
    return [t for t in pack.actions if t != HEARING and sends_letter(pack, t)]


def unsaved(program: Program, type_: str, **kw) -> EnforcementAction:
    """An action of `type_` taken today on the demo's case, its fields filled from their
    kinds as the demo fills them (not stored)."""
    case, spec = demo_case(program), program.pack.actions.get(type_)
    fields = _filled(program.pack, spec, AS_OF) if spec is not None else {}
    return EnforcementAction(
        case=case,
        establishment=case.establishment,
        code=f"L-{type_}"[:20],
        type=type_,
        taken_on=AS_OF,
        cites=spec.citation if spec is not None else "",
        fields=fields,
        **kw,
    )


def letter_text(action: EnforcementAction) -> str:
    """The letter of `action` with the deadlines the engine gives it, as text."""
    fse, fields = action.establishment, action.fields
    deadlines = action_deadlines(fse, action.code, action.type, fields, AS_OF)
    return text_of(render_action_letter(action, [d.to_dict() for d in deadlines]))


def test_every_letter_of_the_pack_is_a_pdf_citing_its_section(program):
    wrong = []
    for type_ in letter_types(program.pack):
        action = unsaved(program, type_)
        text = letter_text(action)
        if action.cites not in text or action.establishment.name not in text:
            wrong.append(f"{type_}: no {action.cites!r} or establishment in {text[:300]!r}")
    assert wrong == [], "\n".join(wrong)
    assert bool(letter_types(program.pack)) == program.pack.has_actions


def test_the_notice_of_a_hearing_cites_the_notice_heard(program):
    """For each notice the pack has that is heard (a suspension, a revocation, a complaint)."""
    for type_ in (t for t in HEARD if t in program.pack.actions):
        notice = unsaved(program, type_)
        place = {"hearing_on": (AS_OF + timedelta(days=20)).isoformat(), "place": "City Hall"}
        hearing = unsaved(program, HEARING, refers_to=notice)
        hearing.cites, hearing.fields = notice.cites, place
        text = text_of(render_action_letter(hearing, []))
        assert notice.cites in text and "City Hall" in text, type_


def test_the_permit_and_the_notice_of_its_change_are_pdfs_in_the_packs_words(program):
    if not program.pack.has_permits:  # neither the demo nor the generator issues one
        agencies = (program.demo, program.generated)
        assert not Permit.objects.filter(agency__in=agencies).exists()
        return
    permit = Permit.objects.filter(agency=program.demo).earliest("pk")
    change = PermitModification(
        permit=permit,
        noticed_on=AS_OF,
        effective_on=AS_OF + timedelta(days=30),
        changes={"service_frequency_days": 30},
        reason="Grease found at the outlet",
    )
    pack, title = program.pack, program.pack.titles.get("permit", "Permit")
    for pdf, term in (
        (permit_pdf(permit), "permit.max_term"),
        (modification_notice_pdf(change), "permit.modification_notice_period"),
    ):
        text = text_of(pdf)
        assert title in text and program.demo.name in text and permit.number in text
        if term in pack.parameters:  # the section the document cites, where the pack has it
            assert pack.parameters[term].value_on(AS_OF).reference in text


def test_the_letter_the_demo_sent_is_stored_and_served_as_sent(program):
    client = signed_in(program, "manager")
    letters = Letter.objects.filter(action__establishment__agency=program.demo)
    if not program.pack.has_actions:
        assert not letters.exists()
        return
    letter = letters.earliest("pk")
    response = client.get(f"/letters/{letter.pk}.pdf")
    text = text_of(body(response))
    assert program.pack.actions[letter.action.type].citation in text
    assert program.demo.name in text


def first_notice(program: Program) -> EnforcementAction:
    """The pack's first notice (else its first letter) taken today on the demo's case, its
    establishment evaluated again, as the case page's form does."""
    pack = program.pack
    type_ = pack.procedure.get("first_notice") or letter_types(pack)[0]
    case = demo_case(program)
    action = action_take(
        case=case,
        type=type_,
        code="CAL-1",
        fields=_filled(pack, pack.actions[type_], AS_OF),
        delivery="personal",
    )
    sweep_establishment(case.establishment, as_of=AS_OF)
    return action


def calendar_files(client: Client, agency: Agency, query: dict) -> tuple[list[dict], list[str]]:
    """The calendar's CSV rows and the descriptions of its iCalendar file's events."""
    table = csv.DictReader(io.StringIO(client.get("/calendar/calendar.csv", query).text))
    ics = icalendar.Calendar.from_ical(client.get("/calendar/calendar.ics", query).content)
    assert ics["X-WR-CALNAME"] == f"{agency.name}: legal calendar"
    return list(table), [str(event["DESCRIPTION"]) for event in ics.walk("VEVENT")]


def test_the_calendar_and_its_files_give_the_deadlines_the_pack_sets(program):
    query = {"weeks": 26}
    if not program.pack.has_actions:  # no action, no deadline of one: the page says why
        client = signed_in(program, "manager")
        html = client.get("/calendar/", query).content.decode()
        table, events = calendar_files(client, program.demo, query)
        assert NO_ACTIONS in html and not [row for row in table if row["action"]]
        assert len(events) == len(table)
        return
    with transaction.atomic():  # the notice taken here goes when the test ends
        action = first_notice(program)
        client = signed_in(program, "manager")
        html = client.get("/calendar/", query).content.decode()
        table, events = calendar_files(client, program.demo, query)
        transaction.set_rollback(True)
    cited = {d.citation for d in program.pack.actions[action.type].deadlines}
    ours = [row for row in table if row["action"] == action.code]
    assert ours and {row["citation"] for row in ours} <= cited
    assert all(escape(row["citation"]) in html for row in ours)
    assert len(events) == len(table)
    for row in ours:
        assert any(f"Citation: {row['citation']}" in event for event in events)


def test_the_calendar_and_its_files_run_on_5000_establishments(program):
    client = generated_staff(program)
    page = client.get("/calendar/")
    assert page.status_code == 200
    assert escape(program.generated.name) in page.content.decode()
    table, events = calendar_files(client, program.generated, {})
    assert len(events) == len(table)


def test_the_annual_report_of_5000_establishments_is_a_page_a_pdf_and_a_workbook(program):
    client, query = generated_staff(program), {"year": AS_OF.year - 1}
    page = client.get("/reports/annual/", query)
    assert page.status_code == 200
    assert escape(program.generated.name) in page.content.decode()
    pdf = text_of(client.get("/reports/annual/", {**query, "format": "pdf"}).content)
    ordinance = program.pack.ordinance.split(" (")[0]
    assert program.generated.name in pdf and f"under {ordinance}" in pdf
    xlsx = body(client.get("/reports/annual/", {**query, "format": "xlsx"}))
    cells = [str(c) for row in load_workbook(io.BytesIO(xlsx)).active.values for c in row]
    assert cells[0].startswith(program.generated.name)
    if program.pack.has_permits:
        assert any(program.pack.titles.get("permit", "permit") in c for c in cells)
    else:  # no permit line, and no permit word in the page, the PDF or the workbook
        for text in (page.content.decode(), pdf, " ".join(cells)):
            assert "permit" not in text.lower()


def test_a_pack_without_permits_shows_no_permit_menu_column_or_word(program):
    """Issue 38: "permit words appear although the Iowa chapter has no permit". The pages an
    agency works from every day, and the establishments' export, speak of a permit only where
    the pack has one."""
    client, fse = signed_in(program, "manager"), demo_case(program).establishment
    pages = ["/dashboard/", "/establishments/", reverse("web:establishment", args=[fse.code])]
    texts = [client.get(url).content.decode() for url in pages]
    texts.append(body(client.get("/establishments/", {"export": "csv"})).decode())
    operator = signed_in(program, "operator")
    mine = program.side.mine("operator").code
    portal = [reverse("portal:operator"), reverse("portal:operator_establishment", args=[mine])]
    texts += [operator.get(url).content.decode() for url in portal]
    for url, text in zip([*pages, "export", *portal], texts, strict=True):
        assert ("permit" in text.lower()) == program.pack.has_permits, url
    listed = client.get("/permits/")
    assert listed.status_code == (200 if program.pack.has_permits else 404)
