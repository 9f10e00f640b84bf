"""Sewer overflows, spills and blockages (RULES.md section 9)."""

import pytest

from .builders import d, evaluate_case, found, one, sc_case, scheduled, town_case


def incident(id, on, attributed=True, **fields):
    return {"id": id, "date": on, "kind": "overflow", "attributed": attributed, **fields}


def sc_incidents(*incidents, as_of="2025-06-30"):
    return evaluate_case(sc_case(incidents=list(incidents)), as_of=as_of)


def town_incidents(*incidents, as_of="2025-06-30"):
    return evaluate_case(town_case(incidents=list(incidents)), as_of=as_of)


# incident.overflow: San Clemente, a closed finding on the incident date


def test_it_reports_an_attributed_sc_overflow_as_closed_on_its_date():
    f = one(sc_incidents(incident("SSO-1", "2025-04-02")), "incident.overflow", "SSO-1")
    assert not f.open
    assert f.severity == "violation"
    assert f.since == d("2025-04-02")
    assert f.resolved_on == d("2025-04-02")
    assert f.citation == "13.30.080(G)(1)(e)"


def test_it_ignores_an_overflow_not_attributed_to_the_fse():
    report = sc_incidents(incident("SSO-1", "2025-04-02", attributed=False))
    assert found(report, "incident.overflow") == []


def test_it_treats_an_incident_without_attributed_as_not_attributed():
    case = sc_case(incidents=[{"id": "SSO-1", "date": "2025-04-02", "kind": "overflow"}])
    report = evaluate_case(case, as_of="2025-06-30")
    assert found(report, "incident.overflow") == []


def test_it_counts_an_attributed_incident_of_any_kind():
    report = sc_incidents(incident("SSO-1", "2025-04-02", kind="blockage"))
    assert one(report, "incident.overflow", "SSO-1").since == d("2025-04-02")


def test_it_ignores_an_incident_dated_after_as_of():
    report = sc_incidents(incident("SSO-1", "2025-07-01"))
    assert found(report, "incident.overflow") == []


def test_it_keeps_a_closed_sc_overflow_exactly_365_days_back():
    report = sc_incidents(incident("SSO-1", "2024-06-30"))
    assert one(report, "incident.overflow", "SSO-1").resolved_on == d("2024-06-30")


def test_it_drops_a_closed_sc_overflow_366_days_back():
    report = sc_incidents(incident("SSO-1", "2024-06-29"))
    assert found(report, "incident.overflow") == []


def test_it_leaves_an_sc_establishment_compliant_after_a_single_overflow():
    report = sc_incidents(incident("SSO-1", "2025-04-02"))
    assert report.status == "compliant"


# incident.overflow: Town, open until the clearance inspection


def test_it_keeps_a_town_overflow_open_until_the_clearance_inspection():
    f = one(town_incidents(incident("SSO-1", "2025-06-02")), "incident.overflow", "SSO-1")
    assert f.open
    assert f.severity == "violation"
    assert f.since == d("2025-06-02")
    assert f.citation == "10.02.170(A)"


def test_it_closes_a_town_overflow_on_the_clearance_inspection():
    report = town_incidents(incident("SSO-1", "2025-06-02", clearance_inspection_on="2025-06-20"))
    f = one(report, "incident.overflow", "SSO-1")
    assert not f.open
    assert f.resolved_on == d("2025-06-20")


def test_it_closes_a_town_overflow_cleared_the_same_day():
    report = town_incidents(incident("SSO-1", "2025-06-02", clearance_inspection_on="2025-06-02"))
    f = one(report, "incident.overflow", "SSO-1")
    assert (f.open, f.since, f.resolved_on) == (False, d("2025-06-02"), d("2025-06-02"))


def test_it_ignores_a_clearance_inspection_dated_after_as_of():
    report = town_incidents(incident("SSO-1", "2025-06-02", clearance_inspection_on="2025-07-01"))
    assert one(report, "incident.overflow", "SSO-1").open


def test_it_ignores_a_town_incident_not_attributed_to_the_fse():
    report = town_incidents(incident("SSO-1", "2025-06-02", attributed=False))
    assert found(report, "incident.overflow") == []


# incident.repeat_overflow: San Clemente, more than one within 12 months


def test_it_opens_a_repeat_overflow_on_the_second_attributed_incident():
    report = sc_incidents(incident("SSO-1", "2024-09-01"), incident("SSO-2", "2025-03-01"))
    f = one(report, "incident.repeat_overflow", "SSO-2")
    assert f.open
    assert f.severity == "violation"
    assert f.since == d("2025-03-01")
    assert f.citation == "13.30.080(G)(1)(e)"
    assert report.status == "non_compliant"


def test_it_raises_no_repeat_for_a_single_attributed_incident():
    report = sc_incidents(incident("SSO-1", "2025-03-01"))
    assert found(report, "incident.repeat_overflow") == []


def test_it_does_not_count_an_unattributed_incident_towards_a_repeat():
    report = sc_incidents(
        incident("SSO-1", "2024-09-01", attributed=False), incident("SSO-2", "2025-03-01")
    )
    assert found(report, "incident.repeat_overflow") == []


# RULES.md 11.2: the twelve months span the overflows, not the time back from as_of


@pytest.mark.parametrize(
    "second, fires", [("2025-03-09", True), ("2025-03-10", True), ("2025-03-11", False)]
)
def test_it_counts_a_second_overflow_within_12_months_after_the_first(second, fires):
    report = sc_incidents(
        incident("SSO-1", "2024-03-10"), incident("SSO-2", second), as_of="2025-06-30"
    )
    assert bool(found(report, "incident.repeat_overflow", "SSO-2")) is fires


def test_it_keeps_a_repeat_open_long_after_the_overflows_until_their_clearance():
    incidents = (incident("SSO-1", "2024-01-10"), incident("SSO-2", "2024-06-01"))
    f = one(sc_incidents(*incidents, as_of="2025-03-01"), "incident.repeat_overflow", "SSO-2")
    assert (f.open, f.since) == (True, d("2024-06-01"))


@pytest.mark.parametrize("as_of, open_", [("2024-12-19", True), ("2024-12-20", False)])
def test_it_closes_a_repeat_on_its_clearance_inspection(as_of, open_):
    report = sc_incidents(
        incident("SSO-1", "2024-08-31"),
        incident("SSO-2", "2024-11-15", clearance_inspection_on="2024-12-20"),
        as_of=as_of,
    )
    f = one(report, "incident.repeat_overflow", "SSO-2")
    assert (f.open, f.resolved_on) == (open_, None if open_ else d("2024-12-20"))


def test_it_gives_each_later_overflow_within_a_year_its_own_finding():
    report = sc_incidents(
        incident("SSO-1", "2024-05-01"),
        incident("SSO-2", "2024-09-01"),
        incident("SSO-3", "2024-12-01"),
        incident("SSO-4", "2025-03-01"),
    )
    found_ = found(report, "incident.repeat_overflow")
    assert [(f.subject, f.since) for f in found_] == [
        ("SSO-2", d("2024-09-01")),
        ("SSO-3", d("2024-12-01")),
        ("SSO-4", d("2025-03-01")),
    ]


def test_it_counts_two_attributed_incidents_on_the_same_day():
    report = sc_incidents(incident("SSO-1", "2025-03-01"), incident("SSO-2", "2025-03-01"))
    assert one(report, "incident.repeat_overflow").since == d("2025-03-01")


def test_it_has_no_repeat_overflow_rule_in_the_town():
    report = town_incidents(incident("SSO-1", "2025-03-03"), incident("SSO-2", "2025-06-02"))
    assert found(report, "incident.repeat_overflow") == []


# incident.written_report_late: Town, 5 business days


def test_it_opens_written_report_late_five_business_days_after_an_overflow():
    f = one(town_incidents(incident("SSO-1", "2025-06-02")), "incident.written_report_late")
    assert f.subject == "SSO-1"
    assert f.open
    assert f.severity == "violation"
    assert f.due == d("2025-06-09")
    assert f.since == d("2025-06-10")
    assert f.citation == "10.02.180(B)"


def test_it_raises_no_report_finding_on_the_due_day():
    report = town_incidents(incident("SSO-1", "2025-06-02"), as_of="2025-06-09")
    assert found(report, "incident.written_report_late") == []


def test_it_raises_the_report_finding_the_day_after_the_due_day():
    report = town_incidents(incident("SSO-1", "2025-06-02"), as_of="2025-06-10")
    assert one(report, "incident.written_report_late", "SSO-1").since == d("2025-06-10")


def test_it_accepts_a_written_report_filed_on_the_due_day():
    report = town_incidents(incident("SSO-1", "2025-06-02", written_report_on="2025-06-09"))
    assert found(report, "incident.written_report_late") == []


def test_it_closes_the_report_finding_when_filed_the_day_after_the_due_day():
    report = town_incidents(incident("SSO-1", "2025-06-02", written_report_on="2025-06-10"))
    f = one(report, "incident.written_report_late", "SSO-1")
    assert (f.open, f.since, f.resolved_on) == (False, d("2025-06-10"), d("2025-06-10"))


def test_it_ignores_a_written_report_dated_after_as_of():
    report = town_incidents(incident("SSO-1", "2025-06-02", written_report_on="2025-07-01"))
    assert one(report, "incident.written_report_late", "SSO-1").open


def test_it_skips_juneteenth_when_counting_report_days():
    report = town_incidents(incident("SSO-1", "2025-06-16"), as_of="2025-06-25")
    f = one(report, "incident.written_report_late", "SSO-1")
    assert f.due == d("2025-06-24")
    assert f.since == d("2025-06-25")


def test_it_skips_a_weekend_and_independence_day_when_counting_report_days():
    report = town_incidents(incident("SSO-1", "2025-06-27"), as_of="2025-07-08")
    assert one(report, "incident.written_report_late", "SSO-1").due == d("2025-07-07")


def test_it_does_not_count_the_incident_day_when_it_falls_on_a_saturday():
    report = town_incidents(incident("SSO-1", "2025-06-07"), as_of="2025-06-14")
    assert one(report, "incident.written_report_late", "SSO-1").due == d("2025-06-13")


def test_it_requires_no_written_report_of_an_unattributed_incident():
    report = town_incidents(incident("SSO-1", "2025-06-02", attributed=False))
    assert found(report, "incident.written_report_late") == []
    assert scheduled(report, "incident.written_report") == []


def test_it_has_no_written_report_rule_in_san_clemente():
    report = sc_incidents(incident("SSO-1", "2025-06-02"))
    assert found(report, "incident.written_report_late") == []
    assert scheduled(report, "incident.written_report") == []


# Schedule: incident.written_report (Town)


def test_it_schedules_the_written_report_on_its_due_date():
    report = town_incidents(incident("SSO-1", "2025-06-16"), as_of="2025-06-17")
    entries = [s for s in report.schedule if s.obligation == "incident.written_report"]
    assert [(s.subject, s.due, s.citation) for s in entries] == [
        ("SSO-1", d("2025-06-24"), "10.02.180(B)")
    ]


def test_it_keeps_an_overdue_written_report_scheduled_on_its_original_due_date():
    report = town_incidents(incident("SSO-1", "2025-06-02"))
    assert scheduled(report, "incident.written_report", "SSO-1") == [d("2025-06-09")]


def test_it_unschedules_the_written_report_once_filed():
    report = town_incidents(incident("SSO-1", "2025-06-02", written_report_on="2025-06-04"))
    assert scheduled(report, "incident.written_report") == []
