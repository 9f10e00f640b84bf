"""Grease control devices (RULES.md section 5, except the annual inspection)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from .builders import d, evaluate_case, found, one, sc_case, scheduled, town_case

AS_OF = "2025-06-30"

SC_GI = {
    "id": "GI-1",
    "kind": "interceptor",
    "installed_on": "2024-12-01",
    "capacity_gallons": 1000,
    "design_depth_inches": 100,
    "compartments": 2,
}
TOWN_GI = {
    "id": "GI-1",
    "kind": "interceptor",
    "installed_on": "2025-02-15",
    "design_depth_inches": 100,
    "compartments": 2,
    "manhole_diameter_inches": 24,
}
TOWN_TRAP = {"id": "GT-1", "kind": "trap", "installed_on": "2025-05-01", "design_depth_inches": 12}


def svc(date: str, device: str = "GI-1", **fields) -> dict:
    return {"id": f"S-{device}-{date}", "device": device, "date": date, **fields}


def reading(date: str, device: str = "GI-1", **fields) -> dict:
    return {"id": f"I-{date}", "date": date, "measurements": [{"device": device, **fields}]}


def sc_gi(services=(), inspections=None, permit_frequency=90, **device) -> dict:
    """San Clemente, one interceptor on a 90-day permit frequency."""
    case = sc_case(
        permit={"service_frequency_days": permit_frequency},
        devices=[{**SC_GI, **device}],
        services=list(services),
    )
    if inspections is not None:
        case["inspections"] = inspections
    return case


def town_gi(services=None, inspections=None, **device) -> dict:
    """The Town, one interceptor (pack default 90 days), serviced on 2025-05-01 unless told."""
    services = [svc("2025-05-01")] if services is None else list(services)
    case = town_case(devices=[{**TOWN_GI, **device}], services=services)
    if inspections is not None:
        case["inspections"] = inspections
    return case


def town_trap(services=(), **changes) -> dict:
    return town_case(devices=[TOWN_TRAP], services=list(services), **changes)


def plus(date: str, days: int) -> str:
    return (d(date) + timedelta(days=days)).isoformat()


# gcd.missing


def test_it_raises_gcd_missing_for_a_town_fse_without_a_device():
    report = evaluate_case(town_case(devices=[], services=[]), as_of=AS_OF)
    f = one(report, "gcd.missing", "FSE-T")
    assert (f.open, f.since) == (True, d("2024-01-01"))
    assert f.citation == "10.02.030(A)"


@pytest.mark.parametrize(
    "opened_on, since",
    [("2023-03-29", "2023-03-30"), ("2023-03-30", "2023-03-30"), ("2023-03-31", "2023-03-31")],
)
def test_it_starts_town_gcd_missing_no_earlier_than_the_effective_date(opened_on, since):
    case = town_case(devices=[], services=[], establishment={"opened_on": opened_on})
    report = evaluate_case(case, as_of=AS_OF)
    assert one(report, "gcd.missing", "FSE-T").since == d(since)


def test_it_accepts_a_trap_as_the_town_device():
    report = evaluate_case(town_trap([svc("2025-06-15", "GT-1")]), as_of=AS_OF)
    assert found(report, "gcd.missing") == []


@pytest.mark.parametrize("installed_on, missing", [("2025-06-30", False), ("2025-07-01", True)])
def test_it_ignores_a_device_installed_after_as_of(installed_on, missing):
    case = town_case(devices=[{**TOWN_GI, "installed_on": installed_on}], services=[])
    report = evaluate_case(case, as_of=AS_OF)
    assert bool(found(report, "gcd.missing", "FSE-T")) is missing


def test_it_raises_gcd_missing_for_an_sc_fse_opened_after_the_effective_date():
    report = evaluate_case(sc_case(establishment={"opened_on": "2015-03-01"}), as_of=AS_OF)
    f = one(report, "gcd.missing", "FSE-1")
    assert (f.open, f.since) == (True, d("2015-03-01"))
    assert f.citation == "13.30.060(A), (E)"


@pytest.mark.parametrize(
    "opened_on, fires", [("2009-08-19", False), ("2009-08-20", False), ("2009-08-21", True)]
)
def test_it_requires_an_interceptor_only_of_fses_opened_after_the_effective_date(opened_on, fires):
    case = sc_case(establishment={"opened_on": opened_on, "operator": {"since": opened_on}})
    report = evaluate_case(case, as_of=AS_OF)
    assert bool(found(report, "gcd.missing", "FSE-1")) is fires


def test_it_leaves_an_unchanged_sc_fse_from_before_the_effective_date_alone():
    report = evaluate_case(sc_case(), as_of=AS_OF)
    assert found(report, "gcd.missing") == []


def test_it_starts_sc_gcd_missing_on_the_latest_opening_operator_change_or_remodel():
    case = sc_case(
        establishment={
            "opened_on": "2012-01-01",
            "operator": {"name": "Pier Foods LLC", "since": "2018-05-01"},
            "remodeled_on": "2016-07-01",
        }
    )
    report = evaluate_case(case, as_of=AS_OF)
    assert one(report, "gcd.missing", "FSE-1").since == d("2018-05-01")


def test_it_raises_sc_gcd_missing_after_a_remodel():
    case = sc_case(establishment={"remodeled_on": "2022-01-10"})
    report = evaluate_case(case, as_of=AS_OF)
    assert one(report, "gcd.missing", "FSE-1").since == d("2022-01-10")


def test_it_waives_sc_gcd_missing_under_a_variance():
    case = sc_case(establishment={"opened_on": "2015-03-01", "variance_granted": True})
    report = evaluate_case(case, as_of=AS_OF)
    assert found(report, "gcd.missing") == []


def test_it_does_not_accept_a_trap_as_the_sc_interceptor():
    trap = {"id": "GT-1", "kind": "trap", "installed_on": "2015-03-01"}
    case = sc_case(establishment={"opened_on": "2015-03-01"}, devices=[trap])
    report = evaluate_case(case, as_of=AS_OF)
    assert one(report, "gcd.missing", "FSE-1").open


def test_it_accepts_an_sc_interceptor():
    case = sc_gi([svc("2025-05-01")])
    case["establishment"]["opened_on"] = "2015-03-01"
    report = evaluate_case(case, as_of=AS_OF)
    assert found(report, "gcd.missing") == []


# gcd.trap_prohibited (San Clemente)


def sc_trap(opened_on: str, installed_on: str = "2019-01-01", **establishment) -> dict:
    trap = {"id": "GT-1", "kind": "trap", "installed_on": installed_on}
    return sc_case(establishment={"opened_on": opened_on, **establishment}, devices=[trap])


def test_it_prohibits_a_trap_at_an_sc_fse_opened_after_the_effective_date():
    report = evaluate_case(sc_trap("2015-03-01"), as_of=AS_OF)
    f = one(report, "gcd.trap_prohibited", "GT-1")
    assert (f.open, f.since) == (True, d("2019-01-01"))
    assert f.citation == "13.30.060(C)"


def test_it_starts_trap_prohibited_on_the_latest_trigger_when_after_the_install():
    report = evaluate_case(sc_trap("2015-03-01", remodeled_on="2022-01-10"), as_of=AS_OF)
    assert one(report, "gcd.trap_prohibited", "GT-1").since == d("2022-01-10")


@pytest.mark.parametrize(
    "opened_on, fires", [("2009-08-19", False), ("2009-08-20", False), ("2009-08-21", True)]
)
def test_it_brackets_trap_prohibited_at_the_effective_date(opened_on, fires):
    case = sc_trap(opened_on, operator={"name": "Pier Foods LLC", "since": opened_on})
    report = evaluate_case(case, as_of=AS_OF)
    assert bool(found(report, "gcd.trap_prohibited", "GT-1")) is fires


def test_it_ignores_a_trap_installed_after_as_of():
    report = evaluate_case(sc_trap("2015-03-01", installed_on="2025-07-01"), as_of=AS_OF)
    assert found(report, "gcd.trap_prohibited") == []


def test_it_never_prohibits_traps_in_the_town():
    report = evaluate_case(town_trap([svc("2025-06-15", "GT-1")]), as_of=AS_OF)
    assert found(report, "gcd.trap_prohibited") == []


# gcd.design_nonconforming


def test_it_raises_design_nonconforming_for_a_small_sc_interceptor():
    report = evaluate_case(sc_gi([svc("2025-05-01")], capacity_gallons=749), as_of=AS_OF)
    f = one(report, "gcd.design_nonconforming", "GI-1")
    assert (f.open, f.since) == (True, d("2024-12-01"))
    assert f.evidence["failed"] == ["capacity_gallons"]
    assert f.citation == "13.30.030(K)"


def test_it_accepts_an_sc_interceptor_of_exactly_750_gallons():
    report = evaluate_case(sc_gi([svc("2025-05-01")], capacity_gallons=750), as_of=AS_OF)
    assert found(report, "gcd.design_nonconforming") == []


@pytest.mark.parametrize("compartments, fires", [(1, True), (2, False), (3, False), (4, True)])
def test_it_requires_two_or_three_compartments_in_san_clemente(compartments, fires):
    report = evaluate_case(sc_gi([svc("2025-05-01")], compartments=compartments), as_of=AS_OF)
    assert bool(found(report, "gcd.design_nonconforming", "GI-1")) is fires


def test_it_lists_every_failing_design_field():
    case = sc_gi([svc("2025-05-01")], capacity_gallons=500, compartments=4)
    f = one(evaluate_case(case, as_of=AS_OF), "gcd.design_nonconforming", "GI-1")
    assert sorted(f.evidence["failed"]) == ["capacity_gallons", "compartments"]


def test_it_checks_only_the_design_fields_present():
    device = {"id": "GI-1", "kind": "interceptor", "installed_on": "2024-12-01"}
    case = sc_case(permit={"service_frequency_days": 90}, devices=[device])
    report = evaluate_case(case, as_of="2025-01-15")
    assert found(report, "gcd.design_nonconforming") == []


@pytest.mark.parametrize(
    "installed_on, since",
    [("2009-08-19", None), ("2009-08-20", "2009-08-20"), ("2009-08-21", "2009-08-21")],
)
def test_it_checks_sc_design_limits_from_installation_under_the_chapter(installed_on, since):
    # the FSE opened in 2005 and has not changed since (RULES.md 11.10)
    case = sc_gi([svc("2025-05-01")], installed_on=installed_on, capacity_gallons=500)
    report = evaluate_case(case, as_of=AS_OF)
    assert [f.since for f in found(report, "gcd.design_nonconforming")] == (
        [d(since)] if since else []
    )


@pytest.mark.parametrize(
    "changed, since",
    [("2015-04-30", "2015-04-30"), ("2009-08-20", None), ("2009-08-21", "2009-08-21")],
)
def test_it_checks_an_older_sc_interceptor_once_the_fse_changes_operator(changed, since):
    case = sc_gi([svc("2025-05-01")], installed_on="2005-01-01", capacity_gallons=500)
    case["establishment"]["operator"] = {"name": "Pier Foods LLC", "since": changed}
    report = evaluate_case(case, as_of=AS_OF)
    assert [f.since for f in found(report, "gcd.design_nonconforming")] == (
        [d(since)] if since else []
    )


@pytest.mark.parametrize("changed", ["2020-09-15", "2024-12-01", "2025-06-30"])
def test_it_keeps_an_sc_interceptor_installed_under_the_chapter_nonconforming_from_installation(
    changed,
):
    # RULES.md 11.10 (amended 2026-12-02): a later takeover or remodel does not move `since`
    case = sc_gi([svc("2025-05-01")], installed_on="2014-07-01", capacity_gallons=600)
    case["establishment"]["operator"] = {"name": "Harbor Noodle LLC", "since": changed}
    case["establishment"]["remodeled_on"] = changed
    f = one(evaluate_case(case, as_of=AS_OF), "gcd.design_nonconforming", "GI-1")
    assert (f.open, f.since) == (True, d("2014-07-01"))


def test_it_dates_an_older_sc_interceptor_from_the_latest_change_beside_a_newer_one():
    newer = {**SC_GI, "id": "GI-2", "installed_on": "2014-07-01", "capacity_gallons": 600}
    older = {**SC_GI, "installed_on": "1999-01-10", "compartments": 1}
    case = sc_case(permit={"service_frequency_days": 90}, devices=[older, newer], services=[])
    case["establishment"]["operator"] = {"name": "Harbor Noodle LLC", "since": "2020-09-15"}
    report = evaluate_case(case, as_of=AS_OF)
    assert one(report, "gcd.design_nonconforming", "GI-2").since == d("2014-07-01")
    assert one(report, "gcd.design_nonconforming", "GI-1").since == d("2020-09-15")


def test_it_dates_a_town_interceptor_from_installation_or_the_effective_date_despite_a_takeover():
    # the Town applies its limits to every device (scope "all"): the amendment changes nothing
    for installed_on, since in (("2020-01-01", "2023-03-30"), ("2024-01-10", "2024-01-10")):
        case = town_gi(installed_on=installed_on, compartments=1)
        case["establishment"]["operator"] = {"name": "New Owner LLC", "since": "2025-01-05"}
        f = one(evaluate_case(case, as_of=AS_OF), "gcd.design_nonconforming", "GI-1")
        assert f.since == d(since)


def test_it_applies_no_interceptor_design_limit_to_an_sc_trap():
    trap = {"id": "GT-1", "kind": "trap", "installed_on": "2024-12-01", "capacity_gallons": 20}
    case = sc_case(permit={"service_frequency_days": 90}, devices=[trap], inspections=[])
    report = evaluate_case(case, as_of="2025-01-15")
    assert found(report, "gcd.design_nonconforming") == []


def test_it_raises_design_nonconforming_for_a_single_compartment_town_interceptor():
    report = evaluate_case(town_gi(compartments=1), as_of=AS_OF)
    f = one(report, "gcd.design_nonconforming", "GI-1")
    assert (f.open, f.since) == (True, d("2025-02-15"))
    assert f.evidence["failed"] == ["compartments"]
    assert f.citation == "10.02.110(B), (D)"


@pytest.mark.parametrize("diameter, fires", [(19.9, True), (20, False), (20.1, False)])
def test_it_requires_town_manholes_of_at_least_20_inches(diameter, fires):
    report = evaluate_case(town_gi(manhole_diameter_inches=diameter), as_of=AS_OF)
    assert bool(found(report, "gcd.design_nonconforming", "GI-1")) is fires


def test_it_starts_town_design_nonconforming_no_earlier_than_the_effective_date():
    case = town_gi(installed_on="2020-01-01", compartments=1)
    report = evaluate_case(case, as_of=AS_OF)
    assert one(report, "gcd.design_nonconforming", "GI-1").since == d("2023-03-30")


def test_it_sets_no_capacity_limit_in_the_town():
    report = evaluate_case(town_gi(capacity_gallons=100), as_of=AS_OF)
    assert found(report, "gcd.design_nonconforming") == []


# gcd.service_overdue


def test_it_raises_service_overdue_after_the_frequency_runs_out():
    report = evaluate_case(sc_gi([svc("2025-03-01")]), as_of=AS_OF)
    f = one(report, "gcd.service_overdue", "GI-1")
    assert (f.open, f.since, f.due) == (True, d("2025-05-31"), d("2025-05-30"))
    assert f.severity == "violation"
    assert f.citation == "13.30.050(H)(1)(b)"


@pytest.mark.parametrize(
    "as_of, fires", [("2025-05-29", False), ("2025-05-30", False), ("2025-05-31", True)]
)
def test_it_brackets_the_service_due_date(as_of, fires):
    report = evaluate_case(sc_gi([svc("2025-03-01")]), as_of=as_of)
    assert bool(found(report, "gcd.service_overdue", "GI-1")) is fires


@pytest.mark.parametrize(
    "second, late", [("2025-05-29", False), ("2025-05-30", False), ("2025-05-31", True)]
)
def test_it_reports_a_late_service_as_a_closed_gap(second, late):
    report = evaluate_case(sc_gi([svc("2025-03-01"), svc(second)]), as_of=AS_OF)
    closed = [f for f in found(report, "gcd.service_overdue", "GI-1") if not f.open]
    assert bool(closed) is late


def test_it_closes_a_gap_on_the_late_service():
    report = evaluate_case(sc_gi([svc("2025-03-01"), svc("2025-06-10")]), as_of=AS_OF)
    f = one(report, "gcd.service_overdue", "GI-1")
    assert (f.open, f.since, f.due) == (False, d("2025-05-31"), d("2025-05-30"))
    assert f.resolved_on == d("2025-06-10")


@pytest.mark.parametrize(
    "first, late", [("2025-02-28", False), ("2025-03-01", False), ("2025-03-02", True)]
)
def test_it_counts_the_gap_from_installation_to_the_first_service(first, late):
    # installed 2024-12-01 + 90 days = 2025-03-01
    report = evaluate_case(sc_gi([svc(first)]), as_of="2025-04-01")
    assert bool(found(report, "gcd.service_overdue", "GI-1")) is late


@pytest.mark.parametrize(
    "installed_on, due", [("2023-03-29", "2023-06-30"), ("2023-03-30", "2023-06-30")]
)
def test_it_counts_a_pre_effective_install_from_the_effective_date(installed_on, due):
    case = town_gi(services=[], installed_on=installed_on)
    report = evaluate_case(case, as_of="2023-07-01")
    f = one(report, "gcd.service_overdue", "GI-1")
    assert (f.due, f.since) == (d(due), d(due) + timedelta(days=1))


def test_it_counts_an_install_the_day_after_the_effective_date_from_itself():
    case = town_gi(services=[], installed_on="2023-04-01")
    report = evaluate_case(case, as_of="2023-07-02")
    assert one(report, "gcd.service_overdue", "GI-1").due == d("2023-07-01")


def test_it_clamps_a_service_dated_before_the_effective_date():
    case = town_gi([svc("2022-10-01"), svc("2023-07-01")], installed_on="2019-01-01")
    report = evaluate_case(case, as_of="2023-07-02")
    f = one(report, "gcd.service_overdue", "GI-1")
    assert (f.open, f.due, f.resolved_on) == (False, d("2023-06-30"), d("2023-07-01"))


def test_it_cites_the_town_ordinance_for_a_service_overdue():
    report = evaluate_case(town_gi(), as_of="2025-08-02")
    f = one(report, "gcd.service_overdue", "GI-1")
    assert (f.since, f.due) == (d("2025-08-02"), d("2025-08-01"))
    assert f.citation == "10.02.130(A), (B), (F)(1)"


# RULES.md 11.1: the Town's interceptors are cleaned "not less than once every three months"


@pytest.mark.parametrize(
    "served, as_of, fires",
    [
        ("2025-05-31", "2025-08-30", False),
        ("2025-05-31", "2025-08-31", False),
        ("2025-05-31", "2025-09-01", True),
        ("2025-01-31", "2025-04-30", False),
        ("2025-01-31", "2025-05-01", True),
    ],
)
def test_it_gives_a_town_interceptor_three_calendar_months(served, as_of, fires):
    case = town_gi([svc(served)], installed_on="2024-12-15")
    report = evaluate_case(case, as_of=as_of)
    assert bool([f for f in found(report, "gcd.service_overdue", "GI-1") if f.open]) is fires


def test_it_states_the_town_frequency_in_months():
    report = evaluate_case(town_gi([svc("2025-05-10"), svc("2025-05-31")]), as_of="2025-09-01")
    f = one(report, "gcd.service_overdue", "GI-1")
    assert f.evidence["frequency"] == "3 months"
    assert "every 3 months" in f.message


def test_it_keeps_a_permit_frequency_in_days_in_the_town():
    case = town_gi([svc("2025-03-02"), svc("2025-05-31")], installed_on="2024-12-15")
    case["permit"]["service_frequency_days"] = 90
    report = evaluate_case(case, as_of="2025-08-30")
    assert one(report, "gcd.service_overdue", "GI-1").due == d("2025-08-29")


def test_it_does_not_review_a_three_month_frequency_that_compares_as_90_days():
    # 11.1: for gcd.frequency_review a month counts as 30 days
    services = [
        svc(day, fog_inches=5, solids_inches=5)  # 10 in in 90 days: recommended 90
        for day in ("2024-06-01", "2024-08-30", "2024-11-28", "2025-02-26", "2025-05-27")
    ]
    case = town_gi(services, installed_on="2024-05-01", design_depth_inches=48)
    report = evaluate_case(case, as_of="2025-06-01")
    assert found(report, "gcd.frequency_review") == []


def test_it_prefers_the_device_frequency_to_the_permit_frequency():
    report = evaluate_case(sc_gi([svc("2025-03-01")], service_frequency_days=60), as_of=AS_OF)
    assert scheduled(report, "gcd.service", "GI-1") == [d("2025-04-30")]


def test_it_prefers_the_permit_frequency_to_the_pack_default():
    case = town_gi()
    case["permit"]["service_frequency_days"] = 60
    report = evaluate_case(case, as_of=AS_OF)
    assert scheduled(report, "gcd.service", "GI-1") == [d("2025-06-30")]


def test_it_uses_the_town_default_of_30_days_for_a_trap():
    report = evaluate_case(town_trap([svc("2025-05-20", "GT-1")]), as_of=AS_OF)
    assert one(report, "gcd.service_overdue", "GT-1").due == d("2025-06-19")


def test_it_raises_no_service_overdue_without_a_frequency_in_san_clemente():
    case = sc_gi([svc("2024-12-15")], permit_frequency=None)
    report = evaluate_case(case, as_of=AS_OF)
    assert found(report, "gcd.service_overdue") == []
    assert scheduled(report, "gcd.service") == []


def test_it_does_not_count_a_partial_pump_out_as_a_service():
    services = [svc("2025-03-01"), svc("2025-05-15", full_pump_out=False)]
    report = evaluate_case(sc_gi(services), as_of=AS_OF)
    assert one(report, "gcd.service_overdue", "GI-1").due == d("2025-05-30")


def test_it_applies_todays_frequency_to_past_gaps():
    services = [svc("2025-03-01"), svc("2025-05-01")]
    report = evaluate_case(town_gi(services, service_frequency_days=30), as_of="2025-05-10")
    f = one(report, "gcd.service_overdue", "GI-1")
    assert (f.due, f.resolved_on) == (d("2025-03-31"), d("2025-05-01"))


def test_it_ignores_a_service_dated_after_as_of():
    report = evaluate_case(sc_gi([svc("2025-03-01"), svc("2025-07-01")]), as_of=AS_OF)
    assert one(report, "gcd.service_overdue", "GI-1").open


@pytest.mark.parametrize("as_of, reported", [("2025-06-30", True), ("2025-07-01", False)])
def test_it_reports_a_closed_service_gap_within_the_look_back(as_of, reported):
    # installed 2024-01-01: due 2024-03-31, first service 2024-06-30 (as_of - 365 on 2025-06-30)
    dates = ["2024-06-30", "2024-09-27", "2024-12-25", "2025-03-24", "2025-06-20"]
    case = sc_gi([svc(x) for x in dates], installed_on="2024-01-01")
    report = evaluate_case(case, as_of=as_of)
    assert bool(found(report, "gcd.service_overdue", "GI-1")) is reported


def test_it_schedules_the_next_service_per_device():
    report = evaluate_case(sc_gi([svc("2025-05-01")]), as_of=AS_OF)
    assert scheduled(report, "gcd.service", "GI-1") == [d("2025-07-30")]


def test_it_keeps_an_overdue_service_on_the_schedule_with_its_original_date():
    report = evaluate_case(sc_gi([svc("2025-03-01")]), as_of=AS_OF)
    assert scheduled(report, "gcd.service", "GI-1") == [d("2025-05-30")]


# gcd.accumulation_over_limit (the 25% rule)


def test_it_raises_accumulation_over_limit_at_an_inspection_reading():
    inspections = [reading("2025-06-01", fog_inches=10, solids_inches=15.1)]
    report = evaluate_case(sc_gi([svc("2025-04-01")], inspections), as_of=AS_OF)
    f = one(report, "gcd.accumulation_over_limit", "GI-1")
    assert (f.open, f.since) == (True, d("2025-06-01"))
    assert f.citation == "13.30.040(C)(6)"


@pytest.mark.parametrize("solids, fires", [(15.0, False), (15.1, True)])
def test_it_allows_exactly_25_percent_in_san_clemente(solids, fires):
    inspections = [reading("2025-06-01", fog_inches=10, solids_inches=solids)]
    report = evaluate_case(sc_gi([svc("2025-04-01")], inspections), as_of=AS_OF)
    assert bool(found(report, "gcd.accumulation_over_limit", "GI-1")) is fires


@pytest.mark.parametrize("solids, fires", [(15.0, False), (15.1, True)])
def test_it_allows_exactly_25_percent_in_the_town(solids, fires):
    inspections = [reading("2025-06-01", fog_inches=10, solids_inches=solids)]
    report = evaluate_case(town_gi(inspections=inspections), as_of=AS_OF)
    assert bool(found(report, "gcd.accumulation_over_limit", "GI-1")) is fires


def test_it_cites_the_town_ordinance_for_accumulation_over_limit():
    inspections = [reading("2025-06-01", fog_inches=10, solids_inches=16)]
    report = evaluate_case(town_gi(inspections=inspections), as_of=AS_OF)
    assert one(report, "gcd.accumulation_over_limit", "GI-1").citation.startswith("10.02.130(F)(2)")


def test_it_cures_a_pre_pump_reading_with_its_own_full_service():
    services = [svc("2025-04-01"), svc("2025-06-01", fog_inches=10, solids_inches=20)]
    report = evaluate_case(sc_gi(services), as_of=AS_OF)
    f = one(report, "gcd.accumulation_over_limit", "GI-1")
    assert (f.open, f.since, f.resolved_on) == (False, d("2025-06-01"), d("2025-06-01"))


def test_it_cures_an_inspection_reading_with_the_next_full_service():
    inspections = [reading("2025-05-01", fog_inches=10, solids_inches=20)]
    services = [svc("2025-04-01"), svc("2025-05-20", full_pump_out=False), svc("2025-06-01")]
    report = evaluate_case(sc_gi(services, inspections), as_of=AS_OF)
    f = one(report, "gcd.accumulation_over_limit", "GI-1")
    assert (f.open, f.since, f.resolved_on) == (False, d("2025-05-01"), d("2025-06-01"))


def test_it_cures_an_inspection_reading_with_a_full_service_the_same_day():
    inspections = [reading("2025-06-01", fog_inches=10, solids_inches=20)]
    report = evaluate_case(sc_gi([svc("2025-06-01")], inspections), as_of=AS_OF)
    assert one(report, "gcd.accumulation_over_limit", "GI-1").resolved_on == d("2025-06-01")


def test_it_keeps_one_finding_for_repeated_readings_before_the_cure():
    inspections = [
        reading("2025-05-01", fog_inches=10, solids_inches=20),
        reading("2025-05-15", fog_inches=12, solids_inches=20),
    ]
    report = evaluate_case(sc_gi([svc("2025-04-01")], inspections), as_of=AS_OF)
    assert one(report, "gcd.accumulation_over_limit", "GI-1").since == d("2025-05-01")


def test_it_skips_a_reading_missing_a_depth():
    inspections = [reading("2025-06-01", fog_inches=40)]
    report = evaluate_case(sc_gi([svc("2025-04-01")], inspections), as_of=AS_OF)
    assert found(report, "gcd.accumulation_over_limit") == []


def test_it_skips_a_device_without_a_design_depth():
    inspections = [reading("2025-06-01", fog_inches=40, solids_inches=40)]
    report = evaluate_case(
        sc_gi([svc("2025-04-01")], inspections, design_depth_inches=None), as_of=AS_OF
    )
    assert found(report, "gcd.accumulation_over_limit") == []


def test_it_applies_the_25_percent_rule_to_town_traps():
    services = [svc("2025-05-31", "GT-1", fog_inches=2, solids_inches=2)]
    report = evaluate_case(town_trap(services), as_of=AS_OF)
    assert one(report, "gcd.accumulation_over_limit", "GT-1").since == d("2025-05-31")


def test_it_does_not_apply_the_25_percent_rule_to_sc_traps():
    trap = {"id": "GT-1", "kind": "trap", "installed_on": "2025-01-01", "design_depth_inches": 10}
    inspections = [reading("2025-06-01", "GT-1", fog_inches=4, solids_inches=4)]
    case = sc_case(devices=[trap], inspections=inspections)
    assert found(evaluate_case(case, as_of=AS_OF), "gcd.accumulation_over_limit") == []


def test_it_ignores_a_reading_dated_after_as_of():
    inspections = [reading("2025-07-01", fog_inches=10, solids_inches=20)]
    report = evaluate_case(sc_gi([svc("2025-04-01")], inspections), as_of=AS_OF)
    assert found(report, "gcd.accumulation_over_limit") == []


@pytest.mark.parametrize("as_of, reported", [("2025-06-01", True), ("2025-06-02", False)])
def test_it_reports_a_cured_accumulation_within_the_look_back(as_of, reported):
    services = [svc("2024-06-01", fog_inches=10, solids_inches=20)]
    report = evaluate_case(sc_gi(services, installed_on="2024-05-01"), as_of=as_of)
    assert bool(found(report, "gcd.accumulation_over_limit", "GI-1")) is reported


# gcd.outlet_clearance (San Clemente interceptors)


def test_it_raises_outlet_clearance_for_floating_oil_in_the_final_chamber():
    inspections = [reading("2025-06-01", final_chamber_floating_oil=True)]
    report = evaluate_case(sc_gi([svc("2025-04-01")], inspections), as_of=AS_OF)
    f = one(report, "gcd.outlet_clearance", "GI-1")
    assert (f.open, f.since) == (True, d("2025-06-01"))
    assert f.citation == "13.30.040(C)(7)"


@pytest.mark.parametrize("inches, fires", [(1.9, True), (2.0, True), (2.1, False)])
def test_it_raises_outlet_clearance_for_sludge_within_two_inches(inches, fires):
    inspections = [reading("2025-06-01", sludge_to_outlet_inches=inches)]
    report = evaluate_case(sc_gi([svc("2025-04-01")], inspections), as_of=AS_OF)
    assert bool(found(report, "gcd.outlet_clearance", "GI-1")) is fires


def test_it_cures_outlet_clearance_with_the_next_full_service():
    inspections = [reading("2025-05-01", sludge_to_outlet_inches=1)]
    report = evaluate_case(sc_gi([svc("2025-04-01"), svc("2025-05-10")], inspections), as_of=AS_OF)
    f = one(report, "gcd.outlet_clearance", "GI-1")
    assert (f.open, f.resolved_on) == (False, d("2025-05-10"))


@pytest.mark.parametrize("as_of, reported", [("2025-06-30", True), ("2025-07-01", False)])
def test_it_reports_a_cured_outlet_clearance_within_the_look_back(as_of, reported):
    services = [svc("2024-06-30", sludge_to_outlet_inches=1)]
    report = evaluate_case(sc_gi(services, installed_on="2024-05-01"), as_of=as_of)
    assert bool(found(report, "gcd.outlet_clearance", "GI-1")) is reported


def test_it_checks_outlet_clearance_only_for_sc_interceptors():
    trap = {"id": "GT-1", "kind": "trap", "installed_on": "2025-01-01"}
    inspections = [reading("2025-06-01", "GT-1", final_chamber_floating_oil=True)]
    case = sc_case(devices=[trap], inspections=inspections)
    assert found(evaluate_case(case, as_of=AS_OF), "gcd.outlet_clearance") == []


def test_it_never_raises_outlet_clearance_in_the_town():
    inspections = [
        reading("2025-06-01", final_chamber_floating_oil=True, sludge_to_outlet_inches=0)
    ]
    report = evaluate_case(town_gi(inspections=inspections), as_of=AS_OF)
    assert found(report, "gcd.outlet_clearance") == []


# gcd.partial_pump_out


def test_it_raises_partial_pump_out_as_a_closed_finding_on_the_service_date():
    services = [svc("2025-04-01"), svc("2025-06-01", full_pump_out=False)]
    report = evaluate_case(sc_gi(services), as_of=AS_OF)
    f = one(report, "gcd.partial_pump_out", "GI-1")
    assert (f.open, f.since, f.resolved_on) == (False, d("2025-06-01"), d("2025-06-01"))
    assert f.citation == "13.30.040(C)(9)"


def test_it_cites_the_town_ordinance_for_a_partial_pump_out():
    services = [svc("2025-05-01"), svc("2025-06-01", full_pump_out=False)]
    report = evaluate_case(town_gi(services), as_of=AS_OF)
    assert one(report, "gcd.partial_pump_out", "GI-1").citation == "10.02.130(F)(2)"


def test_it_raises_no_partial_pump_out_for_a_trap():
    services = [svc("2025-05-31", "GT-1"), svc("2025-06-15", "GT-1", full_pump_out=False)]
    report = evaluate_case(town_trap(services), as_of=AS_OF)
    assert found(report, "gcd.partial_pump_out") == []


def test_it_ignores_a_partial_pump_out_dated_after_as_of():
    services = [svc("2025-04-01"), svc("2025-07-01", full_pump_out=False)]
    report = evaluate_case(sc_gi(services), as_of=AS_OF)
    assert found(report, "gcd.partial_pump_out") == []


@pytest.mark.parametrize("as_of, reported", [("2025-06-30", True), ("2025-07-01", False)])
def test_it_reports_a_partial_pump_out_within_the_look_back(as_of, reported):
    services = [svc("2024-06-01"), svc("2024-06-30", full_pump_out=False)]
    report = evaluate_case(sc_gi(services, installed_on="2024-05-01"), as_of=as_of)
    assert bool(found(report, "gcd.partial_pump_out", "GI-1")) is reported


# gcd.unlicensed_hauler


def with_haulers(case: dict) -> dict:
    case["haulers"] = [{"id": "H-OK"}, {"id": "H-NO", "licensed": False}]
    return case


def test_it_raises_unlicensed_hauler_as_a_closed_finding_on_the_service_date():
    case = with_haulers(sc_gi([svc("2025-05-01", hauler="H-NO")]))
    f = one(evaluate_case(case, as_of=AS_OF), "gcd.unlicensed_hauler", "GI-1")
    assert (f.open, f.since, f.resolved_on) == (False, d("2025-05-01"), d("2025-05-01"))
    assert f.citation == "13.30.040(C)(5)"


def test_it_treats_a_hauler_as_licensed_unless_it_says_otherwise():
    case = with_haulers(sc_gi([svc("2025-05-01", hauler="H-OK")]))
    assert found(evaluate_case(case, as_of=AS_OF), "gcd.unlicensed_hauler") == []


def test_it_raises_unlicensed_hauler_for_a_town_trap():
    case = with_haulers(town_trap([svc("2025-06-15", "GT-1", hauler="H-NO")]))
    f = one(evaluate_case(case, as_of=AS_OF), "gcd.unlicensed_hauler", "GT-1")
    assert f.since == d("2025-06-15")
    assert f.citation == "10.02.130(F)(5)"


def test_it_ignores_an_unlicensed_service_dated_after_as_of():
    case = with_haulers(sc_gi([svc("2025-05-01"), svc("2025-07-01", hauler="H-NO")]))
    assert found(evaluate_case(case, as_of=AS_OF), "gcd.unlicensed_hauler") == []


@pytest.mark.parametrize("as_of, reported", [("2025-06-30", True), ("2025-07-01", False)])
def test_it_reports_an_unlicensed_hauler_within_the_look_back(as_of, reported):
    case = with_haulers(sc_gi([svc("2024-06-30", hauler="H-NO")], installed_on="2024-05-01"))
    report = evaluate_case(case, as_of=as_of)
    assert bool(found(report, "gcd.unlicensed_hauler", "GI-1")) is reported


@pytest.mark.parametrize("expires, reported", [("2025-04-30", True), ("2025-05-01", False)])
def test_it_raises_unlicensed_hauler_for_a_service_after_the_licence_expired(expires, reported):
    case = sc_gi([svc("2025-05-01", hauler="H-EXP")])
    case["haulers"] = [{"id": "H-EXP", "licensed": True, "licence_expires_on": expires}]
    findings = found(evaluate_case(case, as_of=AS_OF), "gcd.unlicensed_hauler", "GI-1")
    assert bool(findings) is reported
    if reported:
        assert "its licence expired on 2025-04-30" in findings[0].message


# gcd.trap_needs_interceptor (Town)

OVER = {"fog_inches": 2, "solids_inches": 2}  # 4 of 12 inches: 33%


def test_it_requires_interceptor_plans_for_a_monthly_trap_over_the_limit():
    report = evaluate_case(town_trap([svc("2025-05-31", "GT-1", **OVER)]), as_of=AS_OF)
    f = one(report, "gcd.trap_needs_interceptor", "GT-1")
    assert (f.open, f.since) == (True, d("2025-05-31"))
    assert f.citation == "10.02.130(F)(6)"


@pytest.mark.parametrize("frequency, fires", [(29, True), (30, True), (31, False)])
def test_it_requires_plans_only_of_traps_serviced_every_30_days_or_more_often(frequency, fires):
    case = town_trap([svc("2025-05-31", "GT-1", **OVER)])
    case["devices"][0]["service_frequency_days"] = frequency
    report = evaluate_case(case, as_of=AS_OF)
    assert bool(found(report, "gcd.trap_needs_interceptor", "GT-1")) is fires


@pytest.mark.parametrize("exception", ["space", "slope"])
def test_it_waives_interceptor_plans_under_a_recorded_exception(exception):
    case = town_trap(
        [svc("2025-05-31", "GT-1", **OVER)], establishment={"interceptor_exception": exception}
    )
    assert found(evaluate_case(case, as_of=AS_OF), "gcd.trap_needs_interceptor") == []


def test_it_closes_trap_needs_interceptor_when_plans_are_submitted():
    case = town_trap(
        [svc("2025-05-31", "GT-1", **OVER)],
        establishment={"interceptor_plans_submitted_on": "2025-06-10"},
    )
    f = one(evaluate_case(case, as_of=AS_OF), "gcd.trap_needs_interceptor", "GT-1")
    assert (f.open, f.resolved_on) == (False, d("2025-06-10"))


def test_it_ignores_plans_submitted_after_as_of():
    case = town_trap(
        [svc("2025-05-31", "GT-1", **OVER)],
        establishment={"interceptor_plans_submitted_on": "2025-07-10"},
    )
    assert one(evaluate_case(case, as_of=AS_OF), "gcd.trap_needs_interceptor", "GT-1").open


def test_it_dates_trap_needs_interceptor_from_the_earliest_over_limit_finding():
    services = [svc("2025-05-15", "GT-1", **OVER), svc("2025-06-10", "GT-1", **OVER)]
    report = evaluate_case(town_trap(services), as_of=AS_OF)
    assert one(report, "gcd.trap_needs_interceptor", "GT-1").since == d("2025-05-15")


@pytest.mark.parametrize("as_of, fires", [("2025-06-30", True), ("2025-07-01", False)])
def test_it_counts_only_over_limit_findings_within_the_look_back(as_of, fires):
    trap = {**TOWN_TRAP, "installed_on": "2024-06-01"}
    case = town_case(devices=[trap], services=[svc("2024-06-30", "GT-1", **OVER)])
    report = evaluate_case(case, as_of=as_of)
    assert bool(found(report, "gcd.trap_needs_interceptor", "GT-1")) is fires


def test_it_never_requires_interceptor_plans_for_an_interceptor():
    services = [svc("2025-05-01"), svc("2025-06-01", fog_inches=20, solids_inches=20)]
    report = evaluate_case(town_gi(services), as_of=AS_OF)
    assert found(report, "gcd.trap_needs_interceptor") == []


# gcd.frequency_review


def measured(amounts, start="2024-12-02", every=60, device="GI-1") -> list:
    """A full service on `start`, then one every `every` days reading fog + solids = amount."""
    out = [svc(start, device)]
    day = start
    for amount in amounts:
        day = plus(day, every)
        out.append(svc(day, device, fog_inches=amount / 2, solids_inches=amount / 2))
    return out


def review_case(amounts, **device) -> dict:
    # Town interceptor, 48 in deep, default 90 days; 6 in per 60 days -> r = 0.1 in/day,
    # days_to_limit = 0.25 * 48 / 0.1 = 120.
    return town_gi(measured(amounts), installed_on="2024-11-01", design_depth_inches=48, **device)


def test_it_recommends_a_frequency_from_the_accumulation_rate():
    report = evaluate_case(review_case([6, 6, 6]), as_of=AS_OF)
    f = one(report, "gcd.frequency_review", "GI-1")
    assert (f.severity, f.open, f.since) == ("notice", True, d("2025-05-31"))
    assert f.evidence["recommended"] == 120
    assert f.evidence["r"] == pytest.approx(0.1)
    assert f.evidence["days_to_limit"] == pytest.approx(120)
    assert f.citation == "10.02.130(B), (F)(2)(b)"


def test_it_recommends_nothing_when_the_frequency_already_fits():
    report = evaluate_case(review_case([6, 6, 6], service_frequency_days=120), as_of=AS_OF)
    assert found(report, "gcd.frequency_review") == []


def test_it_rounds_the_recommendation_down_to_an_allowed_frequency():
    # 6.05 in per 60 days: days_to_limit just under 120 -> 90, the pack default: no notice
    report = evaluate_case(review_case([6, 6, 6.05]), as_of=AS_OF)
    assert found(report, "gcd.frequency_review") == []


def test_it_needs_three_measured_intervals():
    report = evaluate_case(review_case([6, 6]), as_of=AS_OF)
    assert found(report, "gcd.frequency_review") == []


def test_it_does_not_count_the_install_date_as_a_previous_service():
    # the first full service reads depths but has only the install date before it
    services = measured([6, 6])
    services[0].update(fog_inches=3, solids_inches=3)
    case = town_gi(services, installed_on="2024-11-01", design_depth_inches=48)
    assert found(evaluate_case(case, as_of=AS_OF), "gcd.frequency_review") == []


def test_it_takes_the_largest_rate_of_the_last_four_intervals():
    report = evaluate_case(review_case([30, 6, 6, 6]), as_of=AS_OF)
    assert one(report, "gcd.frequency_review", "GI-1").evidence["recommended"] == 30


def test_it_forgets_intervals_older_than_the_last_four():
    case = town_gi(
        measured([30, 6, 6, 6, 6], start="2024-08-03"),
        installed_on="2024-07-01",
        design_depth_inches=48,
    )
    report = evaluate_case(case, as_of=AS_OF)
    assert one(report, "gcd.frequency_review", "GI-1").evidence["recommended"] == 120


def test_it_recommends_180_days_when_nothing_accumulates():
    report = evaluate_case(review_case([0, 0, 0]), as_of=AS_OF)
    assert one(report, "gcd.frequency_review", "GI-1").evidence["recommended"] == 180


def test_it_recommends_a_frequency_when_none_is_set_in_san_clemente():
    case = sc_gi(
        measured([6, 6, 6]),
        permit_frequency=None,
        installed_on="2024-11-01",
        design_depth_inches=48,
    )
    f = one(evaluate_case(case, as_of=AS_OF), "gcd.frequency_review", "GI-1")
    assert f.evidence["recommended"] == 120
    assert f.citation == "13.30.050(H)(1)(b)"


# gcd.frequency_invalid (Town)


def test_it_raises_frequency_invalid_for_a_device_frequency_the_ordinance_does_not_allow():
    report = evaluate_case(town_gi(service_frequency_days=45), as_of=AS_OF)
    f = one(report, "gcd.frequency_invalid", "GI-1")
    assert (f.severity, f.open, f.since) == ("task", True, d("2025-02-15"))
    assert f.citation == "10.02.130(B)"


@pytest.mark.parametrize("frequency", [30, 60, 90, 120, 180])
def test_it_accepts_the_allowed_frequencies(frequency):
    report = evaluate_case(town_gi(service_frequency_days=frequency), as_of=AS_OF)
    assert found(report, "gcd.frequency_invalid") == []


@pytest.mark.parametrize("frequency", [29, 31, 45, 365])
def test_it_rejects_other_frequencies(frequency):
    report = evaluate_case(town_gi(service_frequency_days=frequency), as_of=AS_OF)
    assert one(report, "gcd.frequency_invalid", "GI-1").open


def test_it_dates_a_permit_frequency_from_the_permit_issue_date():
    case = town_gi()
    case["permit"]["service_frequency_days"] = 45
    report = evaluate_case(case, as_of=AS_OF)
    assert one(report, "gcd.frequency_invalid", "GI-1").since == d("2025-01-01")


def test_it_dates_frequency_invalid_no_earlier_than_the_effective_date():
    case = town_gi(installed_on="2020-01-01", service_frequency_days=45)
    report = evaluate_case(case, as_of=AS_OF)
    assert one(report, "gcd.frequency_invalid", "GI-1").since == d("2023-03-30")


def test_it_never_raises_frequency_invalid_in_san_clemente():
    report = evaluate_case(sc_gi([svc("2025-05-01")], service_frequency_days=45), as_of=AS_OF)
    assert found(report, "gcd.frequency_invalid") == []
