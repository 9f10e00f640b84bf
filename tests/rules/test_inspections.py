"""The agency's annual inspection (RULES.md section 5, `inspection.annual_due`)."""

from __future__ import annotations

import pytest

from .builders import d, evaluate_case, found, one, sc_case, scheduled, town_case

AS_OF = "2025-06-30"
TRAP = {"id": "GT-1", "kind": "trap", "installed_on": "2025-02-15"}
REFUSED = {"item": "inspection.access_refused", "compliant": False}


def inspected(*dates: str) -> list:
    return [{"id": f"I-{x}", "date": x} for x in dates]


def sc_inspected(*dates: str, **changes) -> dict:
    return sc_case(inspections=inspected(*dates), **changes)


def town_inspected(*dates: str, **changes) -> dict:
    return town_case(inspections=inspected(*dates), **changes)


def test_it_raises_annual_due_a_year_after_the_last_sc_inspection():
    report = evaluate_case(sc_inspected("2024-06-30"), as_of="2025-07-01")
    f = one(report, "inspection.annual_due", "FSE-1")
    assert (f.severity, f.open) == ("task", True)
    assert (f.since, f.due) == (d("2025-07-01"), d("2025-06-30"))
    assert f.citation == "13.30.050(M)"


@pytest.mark.parametrize(
    "as_of, fires", [("2025-06-29", False), ("2025-06-30", False), ("2025-07-01", True)]
)
def test_it_brackets_the_sc_annual_inspection_due_date(as_of, fires):
    report = evaluate_case(sc_inspected("2024-06-30"), as_of=as_of)
    assert bool(found(report, "inspection.annual_due", "FSE-1")) is fires


def test_it_does_not_make_an_establishment_non_compliant_for_an_agency_task():
    report = evaluate_case(sc_inspected("2024-06-01"), as_of=AS_OF)
    assert one(report, "inspection.annual_due", "FSE-1").open
    assert report.status == "compliant"


@pytest.mark.parametrize(
    "as_of, fires", [("2025-02-27", False), ("2025-02-28", False), ("2025-03-01", True)]
)
def test_it_clamps_a_leap_day_inspection_to_february_28_a_year_later(as_of, fires):
    report = evaluate_case(sc_inspected("2024-02-29"), as_of=as_of)
    assert bool(found(report, "inspection.annual_due", "FSE-1")) is fires


def test_it_dates_a_leap_day_inspection_due_on_february_28():
    report = evaluate_case(sc_inspected("2024-02-29"), as_of="2025-03-01")
    assert one(report, "inspection.annual_due", "FSE-1").due == d("2025-02-28")


def test_it_falls_back_to_the_permit_issue_date_without_inspections():
    report = evaluate_case(sc_inspected(), as_of=AS_OF)
    f = one(report, "inspection.annual_due", "FSE-1")
    assert (f.due, f.since) == (d("2025-01-01"), d("2025-01-02"))


def test_it_falls_back_to_the_opening_date_without_inspections_or_permit():
    case = sc_inspected(permit=None, establishment={"opened_on": "2015-03-01"})
    report = evaluate_case(case, as_of=AS_OF)
    assert one(report, "inspection.annual_due", "FSE-1").due == d("2016-03-01")


@pytest.mark.parametrize(
    "opened_on, due",
    [("2009-08-19", "2010-08-20"), ("2009-08-20", "2010-08-20"), ("2009-08-21", "2010-08-21")],
)
def test_it_counts_the_year_from_the_effective_date_at_the_earliest(opened_on, due):
    case = sc_inspected(permit=None, establishment={"opened_on": opened_on})
    report = evaluate_case(case, as_of=AS_OF)
    assert one(report, "inspection.annual_due", "FSE-1").due == d(due)


def test_it_clamps_a_permit_issued_before_the_effective_date():
    case = sc_inspected(permit={"issued_on": "2008-01-01"})
    report = evaluate_case(case, as_of=AS_OF)
    assert one(report, "inspection.annual_due", "FSE-1").due == d("2010-08-20")


def test_it_does_not_count_an_inspection_where_access_was_refused():
    inspections = inspected("2024-06-30") + [
        {"id": "I-R", "date": "2025-03-01", "answers": [REFUSED]}
    ]
    report = evaluate_case(sc_case(inspections=inspections), as_of="2025-07-01")
    assert one(report, "inspection.annual_due", "FSE-1").due == d("2025-06-30")


def test_it_counts_an_inspection_where_access_was_given():
    granted = {"item": "inspection.access_refused", "compliant": True}
    inspections = inspected("2024-06-30") + [
        {"id": "I-G", "date": "2025-03-01", "answers": [granted]}
    ]
    report = evaluate_case(sc_case(inspections=inspections), as_of="2025-07-01")
    assert found(report, "inspection.annual_due") == []


def test_it_ignores_an_inspection_dated_after_as_of():
    report = evaluate_case(sc_inspected("2024-06-30", "2025-07-02"), as_of="2025-07-01")
    assert one(report, "inspection.annual_due", "FSE-1").open


def test_it_reports_only_the_current_gap():
    report = evaluate_case(sc_inspected("2021-01-01", "2024-06-30"), as_of=AS_OF)
    assert found(report, "inspection.annual_due") == []


def test_it_schedules_the_sc_annual_inspection_per_establishment():
    report = evaluate_case(sc_inspected("2024-08-15"), as_of=AS_OF)
    assert scheduled(report, "inspection.annual") == [d("2025-08-15")]
    assert scheduled(report, "inspection.annual", "FSE-1") == [d("2025-08-15")]


def test_it_keeps_an_overdue_inspection_on_the_schedule_with_its_original_date():
    report = evaluate_case(sc_inspected("2023-05-01"), as_of=AS_OF)
    assert scheduled(report, "inspection.annual", "FSE-1") == [d("2024-05-01")]


# The Town: per device


def test_it_raises_annual_due_per_device_in_the_town():
    case = town_inspected("2024-06-30", devices=[town_case()["devices"][0], TRAP])
    report = evaluate_case(case, as_of="2025-07-01")
    subjects = sorted(f.subject for f in found(report, "inspection.annual_due"))
    assert subjects == ["GI-1", "GT-1"]
    assert one(report, "inspection.annual_due", "GT-1").citation == "10.02.110(F), 10.02.120(C)"


@pytest.mark.parametrize(
    "as_of, fires", [("2026-01-14", False), ("2026-01-15", False), ("2026-01-16", True)]
)
def test_it_brackets_the_town_annual_inspection_due_date(as_of, fires):
    report = evaluate_case(town_case(permit={"expires_on": "2026-12-31"}), as_of=as_of)
    assert bool(found(report, "inspection.annual_due", "GI-1")) is fires


@pytest.mark.parametrize(
    "as_of, fires", [("2025-02-27", False), ("2025-02-28", False), ("2025-03-01", True)]
)
def test_it_clamps_a_leap_day_town_inspection_to_february_28(as_of, fires):
    case = town_inspected("2024-02-29")
    case["devices"][0]["installed_on"] = "2024-01-01"
    report = evaluate_case(case, as_of=as_of)
    assert bool(found(report, "inspection.annual_due", "GI-1")) is fires


def test_it_counts_any_inspection_of_the_establishment_for_each_device():
    case = town_inspected("2025-03-01", devices=[town_case()["devices"][0], TRAP])
    report = evaluate_case(case, as_of=AS_OF)
    assert scheduled(report, "inspection.annual", "GI-1") == [d("2026-03-01")]
    assert scheduled(report, "inspection.annual", "GT-1") == [d("2026-03-01")]


def test_it_falls_back_to_the_permit_issue_date_for_a_town_device():
    report = evaluate_case(town_inspected(), as_of="2026-01-02")
    f = one(report, "inspection.annual_due", "GI-1")
    assert (f.due, f.since) == (d("2026-01-01"), d("2026-01-02"))


def test_it_falls_back_to_the_install_date_when_the_device_came_after_the_opening():
    report = evaluate_case(town_inspected(permit=None), as_of="2026-02-16")
    f = one(report, "inspection.annual_due", "GI-1")
    assert (f.due, f.since) == (d("2026-02-15"), d("2026-02-16"))


def test_it_falls_back_to_the_opening_date_when_the_device_came_before_it():
    case = town_inspected(permit=None)
    case["devices"][0]["installed_on"] = "2023-06-01"
    report = evaluate_case(case, as_of=AS_OF)
    assert one(report, "inspection.annual_due", "GI-1").due == d("2025-01-01")


@pytest.mark.parametrize(
    "opened_on, due",
    [("2023-03-29", "2024-03-30"), ("2023-03-30", "2024-03-30"), ("2023-03-31", "2024-03-31")],
)
def test_it_counts_the_town_year_from_the_effective_date_at_the_earliest(opened_on, due):
    case = town_inspected(permit=None, establishment={"opened_on": opened_on})
    case["devices"][0]["installed_on"] = "2020-01-01"
    report = evaluate_case(case, as_of=AS_OF)
    assert one(report, "inspection.annual_due", "GI-1").due == d(due)


def test_it_does_not_count_a_refused_inspection_for_town_devices():
    inspections = inspected("2025-01-05") + [
        {"id": "I-R", "date": "2025-04-01", "answers": [REFUSED]}
    ]
    report = evaluate_case(town_case(inspections=inspections), as_of=AS_OF)
    assert scheduled(report, "inspection.annual", "GI-1") == [d("2026-01-05")]


def test_it_owes_no_inspection_of_a_device_installed_after_as_of():
    trap = {**TRAP, "installed_on": "2025-07-01"}
    case = town_case(devices=[town_case()["devices"][0], trap])
    report = evaluate_case(case, as_of=AS_OF)
    assert scheduled(report, "inspection.annual", "GT-1") == []
