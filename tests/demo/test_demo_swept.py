"""`manage.py demo` with its sweep: a finding of every rule the stories tell, the enforcement
case with its letter and money owed, the sewer cleanings and spills.

The demo is loaded and swept once for the module (a module-scoped transaction, rolled back
when the module ends); each test reads it in a savepoint of its own. The tests share one
pytest-xdist worker, so that loading it once is once in the whole run."""

from collections.abc import Iterator

import pytest

from fogkeeper.compliance.models import ComplianceStatus, Finding, SweepRun
from fogkeeper.enforcement.models import Letter
from fogkeeper.registry.models import Agency
from tests import databases

from .loading import AS_OF, load, rules_of_sections_3_to_9

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.usefixtures("swept"),
    pytest.mark.xdist_group("demo-swept"),
]


@pytest.fixture(scope="module")
def swept(django_db_setup, django_db_blocker) -> Iterator[str]:
    """What `manage.py demo` printed; what it wrote and swept stays for the module."""
    with databases.rolled_back(django_db_blocker, as_committed=True):
        out = load()
        databases.check_constraints()
        yield out


def test_the_sweep_stores_a_finding_of_every_rule_for_each_agency():
    """Of each written program, whose establishments tell each rule's story; a generated one
    (a pack with no written program) finds what its chance gives, of its own rules only."""
    from fogkeeper.demo.written import written

    for agency in Agency.objects.all():
        stored = set(
            Finding.objects.filter(establishment__agency=agency).values_list("rule", flat=True)
        )
        pack = agency.get_pack()
        if pack.id in written():
            assert rules_of_sections_3_to_9(pack) <= stored, agency.code
        assert stored and stored <= set(pack.rules) | set(pack.checklist), agency.code


def test_the_demo_has_an_enforcement_case_with_its_letter_and_money_owed():
    sc, town = Agency.objects.get(code="san-clemente"), Agency.objects.get(code="town")
    assert Letter.objects.filter(action__case__establishment__agency=sc).exists()
    accruing = ComplianceStatus.objects.filter(establishment__agency=sc).exclude(accruals=[])
    assert [a["rule"] for s in accruing for a in s.accruals] == ["enforcement.daily_fine"]
    assert Finding.objects.filter(
        establishment__agency=town, rule="fees.delinquent", open=True
    ).exists()


def test_the_sweep_reads_every_demo_case_file_and_prints_the_statuses(swept):
    assert (
        [run.errors for run in SweepRun.objects.all()] == [[]] * Agency.objects.count() == [[]] * 4
    )
    assert "Swept san-clemente as of 2026-11-30: " in swept
    assert " compliant, " in swept and " non_compliant;" in swept


def test_the_demo_segments_tell_each_cleaning_story():
    """A prone segment overdue, one listed for a frequency review, one due soon, one never
    cleaned (fogkeeper/demo/sewer-cleanings.yaml), read back through the segment states."""
    from fogkeeper.sewers.selectors import cleaning_states

    states = {}
    for agency in Agency.objects.all():
        for s in cleaning_states(agency=agency, as_of=AS_OF):
            states[s.segment.code] = s
    assert states["S-0522"].state == "overdue"
    assert states["S-0410"].frequency_review and states["S-0410"].state == "current"
    assert states["S-0412"].state == "current"
    assert states["TC-01"].state == "due_soon"
    assert states["OT-04"].state == "never"


def test_the_demo_spills_have_their_categories_and_state_reports():
    """fogkeeper/demo/spills.yaml: a category 2 spill with its reports due, a category 1 whose
    certified report is late, a category 4 reported on time; none an establishment's."""
    from fogkeeper.incidents.models import Incident
    from fogkeeper.incidents.spills import deadlines

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
