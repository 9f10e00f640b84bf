"""A pack that names no State pack (`state_reporting: none`) runs the application with no
California word (issue 38, item 1): for every bundled pack naming none, and for a program made
from a pack of `fogkeeper packs new` filled in for a city outside California, its demo, a
generated program and their sweep; every staff page of the access matrix, the incident list's
exports, the annual report as a page, a PDF and a workbook, and every letter the pack sends,
none naming a California body, order, system or court. The CIWQS import pages are not offered
(404, in words), and an overflow keeps its facts.

Each program is built once for all of its tests, in a transaction rolled back after them, as
tests/web/test_every_pack.py builds its own."""

from __future__ import annotations

import io
import re
from datetime import date, datetime, time
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ObjectDoesNotExist
from django.core.management import call_command
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook
from pypdf.errors import PdfReadError

from fogkeeper.cli import main as cli_main
from fogkeeper.enforcement.models import Letter
from fogkeeper.incidents.models import Incident
from fogkeeper.registry.models import Agency
from fogkeeper.rules.packs import default_registry
from tests.access.test_matrix import add_photos, build
from tests.letters.test_letters import text_of
from tests.rules.new_pack import fill
from tests.web.test_every_pack import (
    PERMIT_PAGES,
    Program,
    _a_permit,
    _side,
    body,
    letter_text,
    letter_types,
    page_names,
    today,  # noqa: F401 (autouse: noon of AS_OF where the agency is)
    unsaved,
)

AS_OF = date(2026, 6, 30)  # test_every_pack's, whose `today` this module's pages run on
GENERATED = 60
# Words of California's spill reporting and courts: none may reach an agency outside it.
CALIFORNIA = re.compile(
    r"California|State Water (Resources Control )?Board|SWRCB|Cal ?OES|CIWQS|WQ ?2022-0103|"
    r"Regional (Water|Board)|Superior Court|General Order|Sanitary Sewer Systems|"
    r"Cal\. ?(Gov|Code)|Gov\. Code|Attachment E1"
)
# The pages of the CIWQS import: offered only where the State pack reports in CIWQS.
IMPORTS = {"web:incident_imports", "web:incident_import", "web:incident_import_requeue"}
# Pages of an imported CIWQS spill (the matrix puts one on record): an agency with no State
# pack has none; their pages are read below with a spill of its own not yet matched.
IMPORTED = {"web:incident_match", "web:incident_set_aside"}
NEW_PACK = "example-city"


def none_packs() -> list[str]:
    registry = default_registry()
    return [i for i in registry.ids() if getattr(registry.get(i), "state_reporting", None) is None]


PROGRAMS = [
    *(pytest.param(p, marks=pytest.mark.xdist_group(f"no-state-{p}")) for p in none_packs()),
    pytest.param(NEW_PACK, marks=pytest.mark.xdist_group("no-state-new")),
]


def new_pack(root: Path) -> None:
    """A city of Iowa's pack from `packs new`, its placeholders filled in as an author would,
    with its own time zone, court and no State pack."""
    folder = root / NEW_PACK
    assert cli_main(["packs", "new", str(folder), "--name", "City of Example, Iowa"]) == 0
    fill(folder)
    text = (folder / "pack.yaml").read_text(encoding="utf-8")
    text = text.replace("timezone: America/Los_Angeles", "timezone: America/Chicago")
    (folder / "pack.yaml").write_text(text, encoding="utf-8")


@pytest.fixture(scope="module", params=PROGRAMS)
def program(request, django_db_setup, django_db_blocker, tmp_path_factory):
    """The pack's demo agency and a generated program on it, both swept."""
    with pytest.MonkeyPatch.context() as mp:
        if request.param == NEW_PACK:
            root = tmp_path_factory.mktemp("packs")
            new_pack(root)
            mp.setenv("FOGKEEPER_PACKS", str(root))
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
            _an_overflow(demo)
            side = _side(demo)
            add_photos({"demo": side})
            yield Program(pack, demo, Agency.objects.get(code=code), side)
            transaction.set_rollback(True)


def _an_overflow(agency: Agency) -> None:
    """An overflow with every fact of a spill, and one not yet matched to an establishment."""
    fse = agency.establishments.filter(closed_on=None).order_by("code").first()
    tz = agency.get_pack().calendar.tz
    start = datetime.combine(date(2026, 6, 20), time(7, 15), tzinfo=tz)
    Incident.objects.create(
        agency=agency,
        establishment=fse,
        code="SSO-NS-1",
        date=start.date(),
        kind="spill",
        attributed=True,
        fog_caused=True,
        gallons=1200,
        gallons_recovered=900,
        reached_surface_water=False,
        reached_storm_drain=True,
        storm_drain_fully_captured=True,
        started_at=start,
        ended_at=start.replace(hour=10),
        known_at=start.replace(minute=40),
        cause="Grease blockage in the lateral",
        address=fse.address,
    )
    Incident.objects.create(
        agency=agency,
        code="SSO-NS-2",
        date=date(2026, 6, 21),
        kind="spill",
        gallons=40,
        address="Main St at 3rd Ave",
    )


def signed_in(program: Program) -> Client:
    client = Client()
    client.force_login(program.side.users["manager"])
    return client


def california(where: str, text: str) -> list[str]:
    """Each California word of `text`, with a little of its context."""
    return [
        f"{where}: {text[max(0, m.start() - 60) : m.end() + 40]!r}"
        for m in CALIFORNIA.finditer(text)
    ]


def text(response) -> str:
    data = body(response)
    kind = response.get("Content-Type", "")
    if kind.startswith("application/pdf"):
        try:
            return text_of(data)
        except PdfReadError:  # a stand-in file the access matrix puts on record
            return data.decode("latin-1")
    if "spreadsheet" in kind:
        book = load_workbook(io.BytesIO(data))
        return " ".join(str(c) for sheet in book for row in sheet.values for c in row)
    if kind.startswith(("text/", "application/json")):
        return data.decode()
    return ""  # a photo


def test_the_pack_names_no_state_pack_and_its_own_court(program):
    assert program.pack.state_reporting is None
    assert "Superior" not in program.pack.level_title("court")


def test_every_staff_page_answers_without_a_california_word(program):
    client, wrong, asked = signed_in(program), [], set()
    unmatched = Incident.objects.get(agency=program.demo, code="SSO-NS-2").pk
    urls = [
        (name, url)
        for name in page_names("manager")
        if name not in IMPORTED
        for url in _url(name, program)
    ]
    urls += [(name, reverse(name, kwargs={"pk": unmatched})) for name in sorted(IMPORTED)]
    for name, url in urls:
        response = client.get(url)
        asked.add(name)
        wrong += california(url, text(response))
        unpermitted = name in PERMIT_PAGES and not program.pack.has_permits
        expected = 404 if name in IMPORTS or unpermitted else 200
        if response.status_code != expected and not _a_step_of_a_case(response):
            wrong.append(f"{url}: {response.status_code}, not {expected}")
    assert wrong == [], "\n".join(wrong)
    assert {"web:incidents", "web:incident", "web:dashboard", "web:calendar"} <= asked


def _url(name: str, program: Program) -> list[str]:
    """The page's URL with the demo's records; none where the demo of a new pack has no
    record of its kind and the access matrix cannot make one (an invoice, a bulk notice of
    an action the new pack's procedure does not name), or the pack has no such records (a
    letter of a pack with no action, a permit of a pack with no permit)."""
    try:
        with transaction.atomic():
            return [build(name, program.side, "manager")[0]]
    except (ObjectDoesNotExist, IntegrityError):
        lacks = not (program.pack.has_actions and program.pack.has_permits)  # as Cleburne's
        assert program.pack.id == NEW_PACK or lacks, name
        return []


def _a_step_of_a_case(response) -> bool:
    names = {t.name for t in response.templates}
    return response.status_code == 400 and "web/enforcement/unnamed.html" in names


def test_the_import_pages_say_why_they_are_not_offered(program):
    client = signed_in(program)
    response = client.get(reverse("web:incident_imports"))
    assert response.status_code == 404
    incidents = client.get(reverse("web:incidents")).content.decode()
    assert reverse("web:incident_imports") not in incidents


def test_the_ordinance_calendar_and_dashboard_say_no_state_report_is_owed(program):
    client = signed_in(program)
    ordinance = client.get(reverse("web:ordinance")).content.decode()
    assert "the ordinance pack names no State spill reporting" in ordinance
    calendar = client.get(reverse("web:calendar")).content.decode()
    assert "spill reports due to the State" not in calendar
    dashboard = client.get(reverse("web:dashboard")).content.decode()
    assert "spill-reports-heading" not in dashboard and "spill-reports-late" not in dashboard


def test_an_overflow_keeps_its_facts_and_the_ordinances_findings(program):
    client = signed_in(program)
    incident = Incident.objects.get(agency=program.demo, code="SSO-NS-1")
    html = client.get(reverse("web:incident", kwargs={"pk": incident.pk})).content.decode()
    for fact in (
        "2026-06-20 07:15",
        "2026-06-20 10:15",
        "2026-06-20 07:40",
        "900",
        "Grease blockage in the lateral",
        "Reached a storm drain",
    ):
        assert fact in html, fact  # the times in the agency's own time zone
    assert "names no State spill reporting" in html
    assert 'id="state-heading"' not in html
    form = client.get(reverse("web:incident_edit", kwargs={"pk": incident.pk})).context["form"]
    assert "started_at" in form.fields and "category" not in form.fields
    assert "oes_notified_at" not in form.fields and "draft_report_on" not in form.fields


def test_the_incident_exports_have_no_state_column(program):
    client, wrong = signed_in(program), []
    for fmt in ("csv", "xlsx"):
        response = client.get(reverse("web:incidents"), {"export": fmt})
        found = text(response)
        assert "SSO-NS-1" in found and re.search("2026-06-20[T ]07:15", found), fmt
        assert "State reports" not in found and "Certified report" not in found
        wrong += california(fmt, found)
    assert wrong == [], "\n".join(wrong)


@pytest.mark.parametrize("fmt", ["html", "pdf", "xlsx"])
def test_the_annual_report_says_the_agency_has_no_state_pack(program, fmt):
    client, wrong = Client(), []
    client.force_login(get_user_model().objects.get(username="staff"))
    for agency in (program.demo, program.generated):
        client.post("/agency/switch/", {"agency": agency.code})
        for year in (AS_OF.year - 1, AS_OF.year):
            response = client.get(reverse("web:annual_report"), {"year": year, "format": fmt})
            assert response.status_code == 200, (agency.code, year)
            found = text(response)
            assert agency.name in found.replace("\n", " ")
            if fmt != "xlsx":
                assert "names no State spill reporting" in " ".join(found.split())
            wrong += california(f"{agency.code} {year} {fmt}", found)
    assert wrong == [], "\n".join(wrong)


def test_every_letter_of_the_pack_has_no_california_word(program):
    wrong, types = [], letter_types(program.pack)
    for type_ in types:
        wrong += california(type_, letter_text(unsaved(program, type_)))
    for letter in Letter.objects.filter(action__establishment__agency=program.demo):
        wrong += california(f"letter {letter.pk}", text_of(letter.pdf))
    assert (types or not program.pack.has_actions) and wrong == [], "\n".join(wrong)
