"""`manage.py demo`: a believable program for each jurisdiction, and a staff login."""

import io
import re
from datetime import UTC, date, datetime
from io import StringIO

import pytest
import time_machine
from django.contrib.auth import authenticate
from django.core.management import CommandError, call_command
from pypdf import PdfReader

from fogkeeper.audit.models import AuditEvent
from fogkeeper.compliance.models import ComplianceStatus, Finding, SweepRun
from fogkeeper.demo import build_programs
from fogkeeper.enforcement.letter_filters import longdate
from fogkeeper.enforcement.models import Letter
from fogkeeper.maintenance.models import Service
from fogkeeper.registry.models import Agency, FoodServiceEstablishment, Hauler, Parcel
from fogkeeper.rules import evaluate
from fogkeeper.rules.packs import default_registry

AS_OF = date(2026, 11, 30)


def load(*args: str) -> str:
    out = StringIO()
    call_command("demo", "--as-of", AS_OF.isoformat(), *args, stdout=out)
    return out.getvalue()


def rules_of_sections_3_to_9(pack) -> set[str]:
    """Every rule id of the pack and every checklist item, less enforcement and fees."""
    rules = {r for r in pack.rules if not r.startswith(("enforcement.", "fees."))}
    return rules | set(pack.checklist)


def sizes() -> dict[str, int]:
    return {
        a.code: FoodServiceEstablishment.objects.filter(agency=a).count()
        for a in Agency.objects.all()
    }


@pytest.mark.django_db
def test_it_loads_each_written_program_with_about_forty_establishments():
    load("--no-sweep")
    agencies = {a.code: a for a in Agency.objects.all()}
    assert {code: a.pack for code, a in agencies.items()} == {
        "san-clemente": "san-clemente",
        "town": "town-10-02",
        "aurora": "us-oh-aurora",
        "us-tx-cleburne": "us-tx-cleburne",  # no written program: a generated one
    }
    assert agencies["san-clemente"].name == "City of San Clemente"
    assert all(35 <= n <= 45 for n in sizes().values())


@pytest.mark.django_db
def test_it_places_everything_on_the_map_near_each_city():
    from fogkeeper.incidents.models import Incident
    from fogkeeper.registry.models import SewerSegment

    load("--no-sweep")
    near = {"san-clemente": (33.42, -117.61), "town": (34.11, -116.43)}
    for code, (lat, lon) in near.items():
        fses = FoodServiceEstablishment.objects.filter(agency__code=code)
        assert all(abs(float(f.latitude) - lat) < 0.03 for f in fses)
        assert all(abs(float(f.longitude) - lon) < 0.03 for f in fses)
        assert len({(f.latitude, f.longitude) for f in fses}) > len(fses) * 0.9
        segments = SewerSegment.objects.filter(agency__code=code)
        assert segments and all(len(s.path) == 2 for s in segments)
        incidents = Incident.objects.filter(agency__code=code)
        assert not incidents.filter(latitude__isnull=True).exists()


@pytest.mark.django_db
def test_it_creates_the_staff_login_and_prints_it():
    out = load("--no-sweep")
    user = authenticate(username="staff", password="fogkeeper-demo")
    assert user is not None and user.is_staff and user.is_superuser
    assert "'staff'" in out and "'fogkeeper-demo'" in out


@pytest.mark.django_db
def test_it_gives_the_program_years_of_history():
    load("--no-sweep")
    first = Service.objects.order_by("date").values_list("date", flat=True).first()
    assert (AS_OF - first).days > 3 * 365
    assert not Service.objects.filter(date__gt=AS_OF).exists()
    assert Parcel.objects.filter(multi_tenant=True, establishments__isnull=False).exists()
    assert Hauler.objects.filter(licensed=False).exists()


@pytest.mark.django_db
def test_it_writes_one_audit_row_per_agency():
    load("--no-sweep")
    events = AuditEvent.objects.filter(action="demo.load")
    assert sorted(e.agency.code for e in events) == ["aurora", "san-clemente", "town"]


@pytest.mark.django_db
def test_it_does_nothing_the_second_time_with_if_empty():
    load("--no-sweep")
    before = sizes()
    out = load("--if-empty")
    assert "not loaded" in out
    assert sizes() == before
    assert AuditEvent.objects.filter(action="demo.load").count() == 3


@pytest.mark.django_db
def test_it_refuses_to_load_the_demo_twice():
    load("--no-sweep")
    with pytest.raises(CommandError, match="already exists"):
        load("--no-sweep")


@pytest.mark.django_db
def test_it_refuses_a_date_too_early_for_the_towns_history():
    out = StringIO()
    with pytest.raises(CommandError, match="on or after 2025-01-01"):
        call_command("demo", "--as-of", "2024-06-01", stdout=out)


@pytest.mark.django_db
def test_it_loads_each_program_up_to_today_where_its_agency_is():
    out = StringIO()
    # 22:00 on June 30 in San Clemente is 01:00 on July 1 in Aurora, Ohio
    with time_machine.travel(datetime(2026, 7, 1, 5, 0, tzinfo=UTC), tick=False):
        call_command("demo", "--pack", "us-oh-aurora", "--pack", "san-clemente", stdout=out)

    text = out.getvalue()
    assert re.search(r"\(aurora, pack us-oh-aurora\): .*, histories up to 2026-07-01\n", text)
    assert re.search(r"\(san-clemente, pack san-clemente\): .*, histories up to 2026-06-30\n", text)
    runs = SweepRun.objects.order_by("agency__code").values_list("agency__code", "as_of")
    assert list(runs) == [("aurora", date(2026, 7, 1)), ("san-clemente", date(2026, 6, 30))]


def test_it_is_the_same_program_every_time_for_one_date():
    first = [p.case_files() for p in build_programs(AS_OF)]
    assert first == [p.case_files() for p in build_programs(AS_OF)]


@pytest.mark.parametrize("as_of", [AS_OF, date(2025, 1, 1), date(2028, 2, 29)])
def test_every_rule_fires_in_the_engine_on_the_demo_case_files(as_of):
    for program in build_programs(as_of):
        fired = set()
        for case in program.case_files():
            fired |= {f.rule for f in evaluate(case).findings}
        assert fired == rules_of_sections_3_to_9(default_registry().get(program.pack_id))


@pytest.mark.django_db
def test_the_sweep_stores_a_finding_of_every_rule_for_each_agency():
    """Of each written program, whose establishments tell each rule's story; a generated one
    (a pack with no written program) finds what its chance gives, of its own rules only."""
    from fogkeeper.demo.written import written

    load()
    for agency in Agency.objects.all():
        stored = set(
            Finding.objects.filter(establishment__agency=agency).values_list("rule", flat=True)
        )
        pack = agency.get_pack()
        if pack.id in written():
            assert rules_of_sections_3_to_9(pack) <= stored, agency.code
        assert stored and stored <= set(pack.rules) | set(pack.checklist), agency.code


@pytest.mark.django_db
def test_it_stores_the_permits_suspensions_revocations_limits_and_samples():
    from fogkeeper.compliance.casefiles.as_json import build_case_file
    from fogkeeper.inspections.models import Sample
    from fogkeeper.permits.models import Permit

    load("--no-sweep")
    revoked = Permit.objects.exclude(revoked_on=None)
    assert sorted(p.agency.code for p in revoked) == ["san-clemente", "town"]
    assert all(p.status == "revoked" and p.ended_on == p.revoked_on for p in revoked)
    suspended = Permit.objects.exclude(suspended_from=None).filter(revoked_on=None)
    assert {p.status for p in suspended} == {"active", "suspended"}  # reinstated, still out
    limited = Permit.objects.exclude(discharge_limits={})
    assert all("100 mg/L" in p.conditions for p in limited) and limited.count() == 2
    plain = {
        rec["establishment"]["id"]: rec
        for program in build_programs(AS_OF)
        for rec in program.establishments
        if rec.get("samples")
    }
    fses = FoodServiceEstablishment.objects.filter(samples__isnull=False).distinct()
    assert sorted(f.code for f in fses) == sorted(plain)
    assert Sample.objects.count() == sum(len(r["samples"]) for r in plain.values())
    for fse in fses:
        case = build_case_file(fse, AS_OF)
        expected = [dict(s, date=s["date"].isoformat()) for s in plain[fse.code]["samples"]]
        assert case["samples"] == expected
        assert case["permit"]["discharge_limits"] == plain[fse.code]["permit"]["discharge_limits"]


@pytest.mark.django_db
def test_the_demo_has_an_enforcement_case_with_its_letter_and_money_owed():
    load()
    sc, town = Agency.objects.get(code="san-clemente"), Agency.objects.get(code="town")
    assert Letter.objects.filter(action__case__establishment__agency=sc).exists()
    accruing = ComplianceStatus.objects.filter(establishment__agency=sc).exclude(accruals=[])
    assert [a["rule"] for s in accruing for a in s.accruals] == ["enforcement.daily_fine"]
    assert Finding.objects.filter(
        establishment__agency=town, rule="fees.delinquent", open=True
    ).exists()


def first_page(letter: Letter) -> str:
    return " ".join(PdfReader(io.BytesIO(bytes(letter.pdf))).pages[0].extract_text().split())


@pytest.mark.django_db
def test_each_demo_letter_prints_the_letterhead_once():
    load("--no-sweep")
    letters = Letter.objects.select_related("action__establishment__agency")
    assert {letter.action.establishment.agency.code for letter in letters} == {
        "san-clemente",
        "town",
        "aurora",
    }
    for letter in letters:
        agency = letter.action.establishment.agency
        head = first_page(letter).split(longdate(letter.action.taken_on))[0]
        assert head.count(agency.name) == 1, head
        assert head.count(agency.get_pack().titles["department"]) == 1, head


@pytest.mark.django_db
def test_each_demo_letter_is_addressed_in_its_own_city_state_and_zip():
    load("--no-sweep")
    towns = {"san-clemente": "San Clemente, CA 92672", "aurora": "Aurora, OH 44202"}
    for letter in Letter.objects.filter(action__establishment__agency__code__in=towns):
        fse = letter.action.establishment
        text = first_page(letter)
        assert f"{fse.address} {towns[fse.agency.code]}" in text
    aurora = first_page(Letter.objects.get(action__establishment__agency__code="aurora"))
    assert "Wastewater Treatment Plant 130 South Chillicothe Road Aurora, OH 44202" in aurora
    assert "CA" not in aurora.split() and "9267" not in aurora  # nothing Californian


@pytest.mark.django_db
def test_the_sweep_reads_every_demo_case_file_and_prints_the_statuses():
    out = load()
    assert (
        [run.errors for run in SweepRun.objects.all()] == [[]] * Agency.objects.count() == [[]] * 4
    )
    assert "Swept san-clemente as of 2026-11-30: " in out
    assert " compliant, " in out and " non_compliant;" in out


@pytest.mark.django_db
def test_the_demo_segments_tell_each_cleaning_story():
    """A prone segment overdue, one listed for a frequency review, one due soon, one never
    cleaned (fogkeeper/demo/sewer-cleanings.yaml), read back through the segment states."""
    from fogkeeper.sewers.selectors import cleaning_states

    load()
    states = {}
    for agency in Agency.objects.all():
        for s in cleaning_states(agency=agency, as_of=AS_OF):
            states[s.segment.code] = s
    assert states["S-0522"].state == "overdue"
    assert states["S-0410"].frequency_review and states["S-0410"].state == "current"
    assert states["S-0412"].state == "current"
    assert states["TC-01"].state == "due_soon"
    assert states["OT-04"].state == "never"


@pytest.mark.django_db
def test_the_demo_spills_have_their_categories_and_state_reports():
    """fogkeeper/demo/spills.yaml: a category 2 spill with its reports due, a category 1 whose
    certified report is late, a category 4 reported on time; none an establishment's."""
    from fogkeeper.incidents.models import Incident
    from fogkeeper.incidents.spills import deadlines

    load()
    sc = Agency.objects.get(pack="san-clemente")
    spills = {i.code: i for i in Incident.objects.filter(agency=sc, code__startswith="SSO-PUB")}
    assert {c: i.category for c, i in spills.items()} == {
        "SSO-PUB-01": 2,
        "SSO-PUB-02": 1,
        "SSO-PUB-03": 4,
    }
    assert all(i.establishment_id is None and i.segment_id for i in spills.values())
    states = {d.key: d.state for d in deadlines(spills["SSO-PUB-02"], AS_OF)}
    assert "late" in states.values()
    assert {d.state for d in deadlines(spills["SSO-PUB-03"], AS_OF)} <= {"done", "open", "closed"}
