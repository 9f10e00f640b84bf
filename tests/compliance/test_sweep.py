"""The sweep stores what the engine reports, writes only what changed, and keeps history."""

import json
import subprocess
import sys
from datetime import date

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from fogkeeper.compliance.casefiles.as_json import build_case_file
from fogkeeper.compliance.models import ComplianceStatus, Finding, SweepRun
from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.inspections.models import ChecklistAnswer
from fogkeeper.maintenance.models import Service
from fogkeeper.registry.models import FoodServiceEstablishment, OperatorTenure
from fogkeeper.rules import evaluate, parse_case
from tests.compliance.records import AS_OF, make_pier_taqueria
from tests.records import make_agency, make_establishment

pytestmark = pytest.mark.django_db


def stored(fse) -> list[dict]:
    """The establishment's stored findings in the form of the engine's report."""
    out = []
    for f in Finding.objects.filter(establishment=fse):
        item = {"rule": f.rule, "subject": f.subject, "severity": f.severity, "open": f.open}
        item["since"] = f.since.isoformat()
        if f.due is not None:
            item["due"] = f.due.isoformat()
        if f.resolved_on is not None:
            item["resolved_on"] = f.resolved_on.isoformat()
        item.update(citation=f.citation, message=f.message, evidence=f.evidence)
        out.append(item)
    return sorted(out, key=lambda f: (f["rule"], f["subject"], f["since"]))


def reported(fse, as_of: date) -> list[dict]:
    report = evaluate(parse_case(build_case_file(fse, as_of)))
    return sorted(
        (f.to_dict() for f in report.findings), key=lambda f: (f["rule"], f["subject"], f["since"])
    )


def finding(fse, rule: str, subject: str) -> Finding:
    return Finding.objects.get(establishment=fse, rule=rule, subject=subject)


def writes(queries) -> list[str]:
    tables = ("compliance_finding", "compliance_compliancestatus")
    return [
        q["sql"]
        for q in queries
        if q["sql"].split()[0] in ("INSERT", "UPDATE", "DELETE")
        and any(t in q["sql"] for t in tables)
    ]


@pytest.fixture
def agency():
    return make_agency()


@pytest.fixture
def pier(agency):
    return make_pier_taqueria(agency)


def test_its_findings_are_those_of_fogkeeper_evaluate(agency, pier, tmp_path):
    path = tmp_path / "pier.json"
    path.write_text(json.dumps(build_case_file(pier, AS_OF)))
    cli = [sys.executable, "-m", "fogkeeper.cli", "evaluate", str(path)]
    report = json.loads(subprocess.run(cli, capture_output=True, check=True, text=True).stdout)

    sweep_agency(agency, as_of=AS_OF)

    assert stored(pier) == sorted(
        report["findings"], key=lambda f: (f["rule"], f["subject"], f["since"])
    )
    status = ComplianceStatus.objects.get(establishment=pier)
    assert (status.status, status.as_of) == (report["status"], AS_OF)
    assert status.schedule == report["schedule"]
    assert status.open_violations == sum(
        f["open"] and f["severity"] == "violation" for f in report["findings"]
    )
    assert status.next_due == min(date.fromisoformat(s["due"]) for s in report["schedule"])


def test_new_findings_are_first_and_last_seen_on_the_date(agency, pier):
    result = sweep_agency(agency, as_of=AS_OF)

    rows = Finding.objects.filter(establishment=pier)
    assert result.opened == rows.filter(open=True).count() > 0
    assert result.closed == rows.filter(open=False).count() > 0
    assert {(f.first_seen_on, f.last_seen_on) for f in rows} == {(AS_OF, AS_OF)}
    assert finding(pier, "gcd.unlicensed_hauler", "GT-2").closed_on == date(2025, 4, 1)


def test_it_runs_as_many_queries_for_50_establishments_as_for_5():
    few, many = make_agency(code="few"), make_agency(code="many")
    for i in range(5):
        make_pier_taqueria(few, f"A-{i}")
    for i in range(50):
        make_pier_taqueria(many, f"B-{i}")

    with CaptureQueriesContext(connection) as for_few:
        few_queries = sweep_agency(few, as_of=AS_OF, batch_size=100).queries
    with CaptureQueriesContext(connection) as for_many:
        many_queries = sweep_agency(many, as_of=AS_OF, batch_size=100).queries

    assert len(for_few) == len(for_many)
    assert few_queries == many_queries
    # eleven findings each, Luis Soto's unsigned attendance among them (RULES.md 12.9)
    assert Finding.objects.filter(establishment__agency=many).count() == 50 * 11


def test_it_runs_a_fixed_number_of_queries_per_batch():
    whole, halves = make_agency(code="whole"), make_agency(code="halves")
    for i in range(4):
        make_pier_taqueria(whole, f"A-{i}")
        make_pier_taqueria(halves, f"B-{i}")

    one_batch = sweep_agency(whole, as_of=AS_OF, batch_size=4).queries
    two_batches = sweep_agency(halves, as_of=AS_OF, batch_size=2).queries

    # the run's own, once a sweep: its INSERT and UPDATE, the establishments' ids, the rates
    # (counted in one statement, stored), the dashboard's figures (counted, stored)
    run = 13
    assert two_batches - run == 2 * (one_batch - run)
    # with the schedule items' DELETE and COPY, samples, exceptions, and the batch's own
    # bookkeeping (runs.py: read, begun, locked, stored, counted on its run: 7 queries)
    assert one_batch - run <= 36


def test_sweeping_again_writes_nothing(agency, pier):
    sweep_agency(agency, as_of=AS_OF)
    before = list(Finding.objects.values())

    with CaptureQueriesContext(connection) as queries:
        result = sweep_agency(agency, as_of=AS_OF)

    assert writes(queries) == []
    assert (result.opened, result.closed, result.changed) == (0, 0, 0)
    assert list(Finding.objects.values()) == before


def test_sweeping_the_next_day_only_moves_the_date_of_the_status(agency, pier):
    sweep_agency(agency, as_of=AS_OF)

    with CaptureQueriesContext(connection) as queries:
        sweep_agency(agency, as_of=date(2025, 7, 1))

    assert len(writes(queries)) == 1
    assert ComplianceStatus.objects.get(establishment=pier).as_of == date(2025, 7, 1)
    assert not Finding.objects.exclude(last_seen_on=AS_OF).exists()


def test_a_late_pump_out_closes_the_finding_on_the_day_of_the_pump_out(agency, pier):
    sweep_agency(agency, as_of=AS_OF)
    gi = pier.devices.get(code="GI-1")
    Service.objects.create(device=gi, manifest_number="M-LATE", date=date(2025, 7, 5))

    result = sweep_agency(agency, as_of=date(2025, 7, 10))

    overdue = Finding.objects.get(establishment=pier, subject="GI-1", since=date(2025, 6, 1))
    assert (overdue.open, overdue.resolved_on, overdue.closed_on) == (
        False,
        date(2025, 7, 5),
        date(2025, 7, 5),
    )
    assert overdue.last_seen_on == date(2025, 7, 10)
    assert result.closed == 1


def test_a_corrected_record_closes_the_finding_on_the_date_of_the_sweep(agency, pier):
    sweep_agency(agency, as_of=AS_OF)
    sweep_agency(agency, as_of=date(2025, 7, 1))
    ChecklistAnswer.objects.filter(item="bmp.drain_screens").update(compliant=True)

    result = sweep_agency(agency, as_of=date(2025, 7, 2))

    screens = finding(pier, "bmp.drain_screens", "FSE-0042")
    assert (screens.open, screens.resolved_on, screens.closed_on) == (False, None, date(2025, 7, 2))
    assert (screens.first_seen_on, screens.last_seen_on) == (AS_OF, date(2025, 7, 1))
    assert (result.opened, result.closed, result.changed) == (0, 1, 0)


def test_a_closed_finding_found_again_is_reopened(agency, pier):
    answer = ChecklistAnswer.objects.get(item="bmp.drain_screens")
    sweep_agency(agency, as_of=AS_OF)
    answer.compliant = True
    answer.save()
    sweep_agency(agency, as_of=AS_OF)
    answer.compliant = False
    answer.save()

    result = sweep_agency(agency, as_of=AS_OF)

    screens = finding(pier, "bmp.drain_screens", "FSE-0042")
    assert (screens.open, screens.closed_on, result.opened) == (True, None, 1)


def test_sweeping_a_past_date_gives_the_findings_of_that_date(agency, pier):
    past = date(2025, 3, 1)
    sweep_agency(agency, as_of=AS_OF)

    sweep_agency(agency, as_of=past)

    assert stored(pier) == reported(pier, past)
    assert not Finding.objects.exclude(first_seen_on=past).exists()
    assert ComplianceStatus.objects.get(establishment=pier).as_of == past


def test_sweeping_forward_again_after_a_past_date_gives_the_findings_of_today(agency, pier):
    past = date(2025, 3, 1)
    sweep_agency(agency, as_of=AS_OF)
    sweep_agency(agency, as_of=past)

    sweep_agency(agency, as_of=AS_OF)

    assert stored(pier) == reported(pier, AS_OF)
    screens = finding(pier, "bmp.drain_screens", "FSE-0042")
    assert (screens.first_seen_on, screens.last_seen_on) == (past, past)
    prohibited = finding(pier, "gcd.trap_prohibited", "GT-2")
    assert (prohibited.first_seen_on, prohibited.last_seen_on) == (past, past)
    new_operator = finding(pier, "permit.new_operator", "FSE-0042-P2")
    assert new_operator.first_seen_on == new_operator.last_seen_on == past
    overflow = finding(pier, "incident.overflow", "FSE-0042-SSO-3")
    assert overflow.first_seen_on == AS_OF


def test_a_bad_case_file_is_listed_and_the_others_are_swept(agency, pier):
    bad = make_pier_taqueria(agency, "FSE-BAD")
    sweep_agency(agency, as_of=AS_OF)
    bad_findings = list(Finding.objects.filter(establishment=bad).values())
    OperatorTenure.objects.filter(establishment=bad).delete()
    ChecklistAnswer.objects.filter(item="bmp.drain_screens").update(compliant=True)

    result = sweep_agency(agency, as_of=date(2025, 7, 1))

    assert result.errors == [
        {"establishment": "FSE-BAD", "problems": ["establishment.operator: required"]}
    ]
    assert SweepRun.objects.get(pk=result.run.pk).errors == result.errors
    assert result.establishments == 2
    assert list(Finding.objects.filter(establishment=bad).values()) == bad_findings
    assert ComplianceStatus.objects.get(establishment=bad).as_of == AS_OF
    assert ComplianceStatus.objects.get(establishment=pier).as_of == date(2025, 7, 1)
    assert not finding(pier, "bmp.drain_screens", "FSE-0042").open


def test_an_establishment_closed_before_the_date_is_inactive(agency, pier):
    sweep_agency(agency, as_of=AS_OF)
    FoodServiceEstablishment.objects.filter(pk=pier.pk).update(closed_on=date(2025, 7, 1))

    sweep_agency(agency, as_of=date(2025, 7, 15))

    status = ComplianceStatus.objects.get(establishment=pier)
    assert (status.status, status.open_violations, status.schedule) == ("inactive", 0, [])
    assert not Finding.objects.filter(open=True).exists()
    assert set(Finding.objects.filter(resolved_on=None).values_list("closed_on", flat=True)) == {
        date(2025, 7, 15)
    }


def test_an_establishment_never_swept_before_gets_a_status(agency):
    quiet = make_establishment(agency, "FSE-Q", opened_on="2025-06-01", closed_on="2025-06-20")

    sweep_agency(agency, as_of=AS_OF)

    assert ComplianceStatus.objects.get(establishment=quiet).status == "inactive"


def test_the_run_records_counts_timings_and_queries(agency, pier):
    calls = []

    result = sweep_agency(agency, as_of=AS_OF, progress=lambda done, total: calls.append(done))

    run = SweepRun.objects.get()
    assert (run.as_of, run.establishments, run.opened, run.closed, run.changed) == (
        AS_OF,
        1,
        result.opened,
        result.closed,
        0,
    )
    assert set(run.timings) == {"load", "evaluate", "store"}
    assert run.queries == result.queries > 0
    assert run.finished_at is not None
    assert calls == [1]


def test_it_finds_a_pump_out_done_after_the_haulers_licence_expired(agency, pier):
    from fogkeeper.registry.models import Hauler

    Hauler.objects.filter(code="FSE-0042-H1").update(licence_expires_on=date(2025, 3, 1))

    sweep_agency(agency, as_of=AS_OF)

    found = finding(pier, "gcd.unlicensed_hauler", "GI-1")
    assert (found.since, found.closed_on) == (date(2025, 3, 2), date(2025, 3, 2))
    assert "its licence expired on 2025-03-01" in found.message
