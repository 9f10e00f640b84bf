"""Reports the agency requires (issue 42): `report.overdue` opens the day after the due date
with no submission, closes on the day the report is submitted, cites the section of the
pack's kind of report, and never opens under a pack that declares no kinds."""

from __future__ import annotations

import pytest

from fogkeeper.rules import CaseFileError, parse_case

from .builders import d, evaluate_case, found, one, scheduled, town_case

RULE = "report.overdue"


def town_report(submitted_on: str | None = None, kind: str = "bmp_status") -> dict:
    report = {"id": "RPT-1", "kind": kind, "due_on": "2025-06-30"}
    if submitted_on is not None:
        report["submitted_on"] = submitted_on
    return town_case(reports=[report])


def test_it_is_not_overdue_on_its_due_date():
    report = evaluate_case(town_report(), as_of="2025-06-30")
    assert not found(report, RULE)
    assert scheduled(report, "report.due", "RPT-1") == [d("2025-06-30")]


def test_it_opens_the_day_after_the_due_date_citing_its_kind():
    report = evaluate_case(town_report(), as_of="2025-07-01")
    f = one(report, RULE, "RPT-1")
    assert (f.open, f.since, f.due) == (True, d("2025-07-01"), d("2025-06-30"))
    assert f.citation == "10.02.070(D)"
    assert "Periodic report on the implementation of BMPs" in f.message
    assert f.evidence == {"kind": "bmp_status"}


def test_a_self_monitoring_report_cites_its_own_section():
    report = evaluate_case(town_report(kind="self_monitoring"), as_of="2025-07-01")
    assert one(report, RULE, "RPT-1").citation == "10.02.140(C)"


def test_it_closes_on_the_day_the_report_is_submitted():
    report = evaluate_case(town_report("2025-07-10"), as_of="2025-07-20")
    f = one(report, RULE, "RPT-1")
    assert (f.open, f.since, f.resolved_on) == (False, d("2025-07-01"), d("2025-07-10"))
    assert f.message.endswith("was due on 2025-06-30; it was submitted on 2025-07-10.")
    assert not scheduled(report, "report.due")


def test_a_submission_after_as_of_is_not_yet_seen():
    report = evaluate_case(town_report("2025-07-10"), as_of="2025-07-05")
    assert one(report, RULE, "RPT-1").open


@pytest.mark.parametrize("submitted_on", ["2025-06-01", "2025-06-30"])
def test_a_report_submitted_by_its_due_date_is_never_overdue(submitted_on):
    report = evaluate_case(town_report(submitted_on), as_of="2025-09-01")
    assert not found(report, RULE)


def test_a_pack_that_declares_no_kinds_refuses_a_report_and_never_opens_it():
    case = town_case(jurisdiction="us-oh-aurora")
    case.pop("permit", None)
    case["reports"] = [{"id": "RPT-1", "kind": "bmp_status", "due_on": "2025-06-30"}]
    with pytest.raises(CaseFileError, match=r"reports\[0\]\.kind"):
        parse_case(case, as_of=d("2025-07-01"))


def test_a_pack_that_declares_no_kinds_never_raises_the_rule():
    from fogkeeper.rules.packs import default_registry

    for pack_id in ("us-oh-aurora", "us-tx-cleburne", "san-clemente"):
        pack = default_registry().get(pack_id)
        assert not pack.reports and not pack.has(RULE)


def test_an_unknown_kind_is_refused_naming_the_known_ones():
    with pytest.raises(CaseFileError, match="bmp_status, self_monitoring"):
        parse_case(town_report(kind="weekly_poem"), as_of=d("2025-07-01"))
