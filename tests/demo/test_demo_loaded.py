"""`manage.py demo --no-sweep`: each program loaded with its history, the staff login, the
letters; a second load refused or, with --if-empty, skipped.

The demo is loaded once for the module (a module-scoped transaction, rolled back when the
module ends); each test reads it in a savepoint of its own. The tests share one pytest-xdist
worker, so that loading it once is once in the whole run."""

import io
from collections.abc import Iterator

import pytest
from django.contrib.auth import authenticate
from django.core.management import CommandError
from pypdf import PdfReader

from fogkeeper.audit.models import AuditEvent
from fogkeeper.demo import build_programs
from fogkeeper.enforcement.letter_filters import longdate
from fogkeeper.enforcement.models import Letter
from fogkeeper.maintenance.models import Service
from fogkeeper.registry.models import Agency, FoodServiceEstablishment, Hauler, Parcel
from tests import databases

from .loading import AS_OF, load

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.usefixtures("loaded"),
    pytest.mark.xdist_group("demo-loaded"),
]


@pytest.fixture(scope="module")
def loaded(django_db_setup, django_db_blocker) -> Iterator[str]:
    """What `manage.py demo --no-sweep` printed; what it wrote stays for the module."""
    with databases.rolled_back(django_db_blocker, as_committed=True):
        out = load("--no-sweep")
        databases.check_constraints()
        yield out


def sizes() -> dict[str, int]:
    return {
        a.code: FoodServiceEstablishment.objects.filter(agency=a).count()
        for a in Agency.objects.all()
    }


def test_it_loads_each_written_program_with_about_forty_establishments():
    agencies = {a.code: a for a in Agency.objects.all()}
    assert {code: a.pack for code, a in agencies.items()} == {
        "san-clemente": "san-clemente",
        "town": "town-10-02",
        "aurora": "us-oh-aurora",
        "us-tx-cleburne": "us-tx-cleburne",  # no written program: a generated one
    }
    assert agencies["san-clemente"].name == "City of San Clemente"
    assert all(35 <= n <= 45 for n in sizes().values())


def test_it_places_everything_on_the_map_near_each_city():
    from fogkeeper.incidents.models import Incident
    from fogkeeper.registry.models import SewerSegment

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


def test_it_creates_the_staff_login_and_prints_it(loaded):
    user = authenticate(username="staff", password="fogkeeper-demo")
    assert user is not None and user.is_staff and user.is_superuser
    assert "'staff'" in loaded and "'fogkeeper-demo'" in loaded


def test_it_gives_the_program_years_of_history():
    first = Service.objects.order_by("date").values_list("date", flat=True).first()
    assert (AS_OF - first).days > 3 * 365
    assert not Service.objects.filter(date__gt=AS_OF).exists()
    assert Parcel.objects.filter(multi_tenant=True, establishments__isnull=False).exists()
    assert Hauler.objects.filter(licensed=False).exists()


def test_it_writes_one_audit_row_per_agency():
    events = AuditEvent.objects.filter(action="demo.load")
    assert sorted(e.agency.code for e in events) == ["aurora", "san-clemente", "town"]


def test_it_does_nothing_the_second_time_with_if_empty():
    before = sizes()
    out = load("--if-empty")
    assert "not loaded" in out
    assert sizes() == before
    assert AuditEvent.objects.filter(action="demo.load").count() == 3


def test_it_refuses_to_load_the_demo_twice():
    with pytest.raises(CommandError, match="already exists"):
        load("--no-sweep")


def test_it_stores_the_permits_suspensions_revocations_limits_and_samples():
    from fogkeeper.compliance.casefiles.as_json import build_case_file
    from fogkeeper.inspections.models import Sample
    from fogkeeper.permits.models import Permit

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


def first_page(letter: Letter) -> str:
    return " ".join(PdfReader(io.BytesIO(bytes(letter.pdf))).pages[0].extract_text().split())


def test_each_demo_letter_prints_the_letterhead_once():
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


def test_each_demo_letter_is_addressed_in_its_own_city_state_and_zip():
    towns = {"san-clemente": "San Clemente, CA 92672", "aurora": "Aurora, OH 44202"}
    for letter in Letter.objects.filter(action__establishment__agency__code__in=towns):
        fse = letter.action.establishment
        text = first_page(letter)
        assert f"{fse.address} {towns[fse.agency.code]}" in text
    aurora = first_page(Letter.objects.get(action__establishment__agency__code="aurora"))
    assert "Wastewater Treatment Plant 130 South Chillicothe Road Aurora, OH 44202" in aurora
    assert "CA" not in aurora.split() and "9267" not in aurora  # nothing Californian
