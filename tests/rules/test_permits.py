"""Applicability (RULES.md section 3) and permits (RULES.md section 4)."""

from __future__ import annotations

import pytest

from .builders import d, evaluate_case, found, one, sc_case, scheduled, town_case

AS_OF = "2025-06-30"


def sc_expiring(expires_on: str, **permit) -> dict:
    return sc_case(permit={"expires_on": expires_on, **permit})


def town_change(date: str, kind: str = "remodel", notified_on: str | None = None) -> dict:
    change = {"date": date, "kind": kind}
    if notified_on is not None:
        change["notified_on"] = notified_on
    return town_case(establishment={"changes": [change]})


# Section 3: applicability


def test_it_exempts_an_sc_establishment_off_the_public_sewer():
    report = evaluate_case(sc_case(establishment={"on_public_sewer": False}), as_of=AS_OF)
    assert report.status == "exempt"
    assert report.status_citation == "13.30.020(A)"


def test_it_exempts_a_town_establishment_off_the_public_sewer():
    report = evaluate_case(town_case(establishment={"on_public_sewer": False}), as_of=AS_OF)
    assert report.status == "exempt"
    assert report.status_citation == "10.02.010"


def test_it_exempts_sc_limited_food_preparation():
    case = sc_case(establishment={"category": "limited_food_preparation"})
    report = evaluate_case(case, as_of=AS_OF)
    assert report.status == "exempt"
    assert report.status_citation == "13.30.020(B), 13.30.030(M)"


def test_it_does_not_exempt_town_limited_food_preparation():
    case = town_case(establishment={"category": "limited_food_preparation"}, permit=None)
    report = evaluate_case(case, as_of=AS_OF)
    assert report.status == "non_compliant"
    assert one(report, "permit.missing", "FSE-T").citation == "10.02.040(A)"


def test_it_reports_no_findings_and_no_schedule_for_an_exempt_establishment():
    case = sc_case(establishment={"on_public_sewer": False}, permit=None, inspections=[])
    report = evaluate_case(case, as_of=AS_OF)
    assert report.status == "exempt"
    assert report.findings == []
    assert report.schedule == []


@pytest.mark.parametrize("closed_on", ["2025-06-29", "2025-06-30"])
def test_it_marks_an_establishment_closed_on_or_before_as_of_inactive(closed_on):
    report = evaluate_case(sc_case(establishment={"closed_on": closed_on}), as_of=AS_OF)
    assert report.status == "inactive"


def test_it_ignores_a_closing_dated_after_as_of():
    report = evaluate_case(town_case(establishment={"closed_on": "2025-07-01"}), as_of=AS_OF)
    assert report.status == "compliant"


def test_it_checks_the_closing_before_the_exemption():
    case = sc_case(establishment={"closed_on": "2025-06-01", "on_public_sewer": False})
    report = evaluate_case(case, as_of=AS_OF)
    assert report.status == "inactive"


def test_it_reports_no_findings_and_no_schedule_for_an_inactive_establishment():
    case = town_case(establishment={"closed_on": "2025-06-01"}, permit={"expires_on": "2025-03-01"})
    report = evaluate_case(case, as_of=AS_OF)
    assert report.status == "inactive"
    assert report.findings == []
    assert report.schedule == []


# permit.missing


def test_it_raises_permit_missing_for_an_sc_establishment_without_a_permit():
    report = evaluate_case(sc_case(permit=None), as_of=AS_OF)
    f = one(report, "permit.missing", "FSE-1")
    assert (f.severity, f.open) == ("violation", True)
    assert f.citation == "13.30.050(A)"
    assert report.status == "non_compliant"


def test_it_raises_permit_missing_for_a_town_establishment_without_a_permit():
    report = evaluate_case(town_case(permit=None), as_of=AS_OF)
    f = one(report, "permit.missing", "FSE-T")
    assert f.since == d("2024-01-01")
    assert f.citation == "10.02.040(A)"


@pytest.mark.parametrize(
    "opened_on, since",
    [
        ("2009-08-19", "2009-08-20"),
        ("2009-08-20", "2009-08-20"),
        ("2009-08-21", "2009-08-21"),
    ],
)
def test_it_starts_sc_permit_missing_no_earlier_than_the_effective_date(opened_on, since):
    case = sc_case(permit=None, establishment={"opened_on": opened_on})
    report = evaluate_case(case, as_of=AS_OF)
    assert one(report, "permit.missing", "FSE-1").since == d(since)


@pytest.mark.parametrize(
    "opened_on, since",
    [
        ("2023-03-29", "2023-03-30"),
        ("2023-03-30", "2023-03-30"),
        ("2023-03-31", "2023-03-31"),
    ],
)
def test_it_starts_town_permit_missing_no_earlier_than_the_effective_date(opened_on, since):
    case = town_case(permit=None, establishment={"opened_on": opened_on})
    report = evaluate_case(case, as_of=AS_OF)
    assert one(report, "permit.missing", "FSE-T").since == d(since)


@pytest.mark.parametrize("opened_on, fires", [("2025-06-30", True), ("2025-07-01", False)])
def test_it_raises_permit_missing_only_once_the_establishment_has_opened(opened_on, fires):
    case = sc_case(permit=None, establishment={"opened_on": opened_on})
    report = evaluate_case(case, as_of=AS_OF)
    assert bool(found(report, "permit.missing")) is fires


@pytest.mark.parametrize("issued_on, missing", [("2025-06-30", False), ("2025-07-01", True)])
def test_it_treats_a_permit_issued_after_as_of_as_no_permit(issued_on, missing):
    report = evaluate_case(sc_case(permit={"issued_on": issued_on}), as_of=AS_OF)
    assert bool(found(report, "permit.missing", "FSE-1")) is missing


# permit.new_operator


def test_it_raises_new_operator_when_the_holder_differs_from_the_operator():
    case = sc_case(establishment={"operator": {"name": "Harbor Eats Inc", "since": "2025-03-01"}})
    report = evaluate_case(case, as_of=AS_OF)
    f = one(report, "permit.new_operator", "SC-1")
    assert (f.open, f.since) == (True, d("2025-03-01"))
    assert f.citation == "13.30.050(A), (E)"


def test_it_cites_the_town_ordinance_for_a_new_operator():
    case = town_case(establishment={"operator": {"name": "Other LLC", "since": "2025-04-01"}})
    report = evaluate_case(case, as_of=AS_OF)
    f = one(report, "permit.new_operator", "TW-1")
    assert f.since == d("2025-04-01")
    assert f.citation == "10.02.040(B)"


def test_it_compares_the_holder_ignoring_case_and_runs_of_spaces():
    report = evaluate_case(sc_case(permit={"holder": "PIER   foods  llc"}), as_of=AS_OF)
    assert found(report, "permit.new_operator") == []
    assert report.status == "compliant"


def test_it_replaces_permit_missing_with_new_operator():
    case = sc_case(establishment={"operator": {"name": "Harbor Eats Inc", "since": "2025-03-01"}})
    report = evaluate_case(case, as_of=AS_OF)
    assert found(report, "permit.missing") == []


def test_it_raises_neither_expired_nor_renewal_late_when_a_new_operator_ended_the_permit():
    case = sc_case(
        establishment={"operator": {"name": "Harbor Eats Inc", "since": "2025-03-01"}},
        permit={"expires_on": "2025-06-01"},
    )
    report = evaluate_case(case, as_of=AS_OF)
    assert found(report, "permit.expired") == []
    assert found(report, "permit.renewal_late") == []


@pytest.mark.parametrize(
    "since, fires", [("2025-06-29", True), ("2025-06-30", True), ("2025-07-01", False)]
)
def test_it_does_not_report_a_new_operator_who_takes_over_after_as_of(since, fires):
    case = town_case(establishment={"operator": {"name": "Other LLC", "since": since}})
    report = evaluate_case(case, as_of=AS_OF)
    assert bool(found(report, "permit.new_operator", "TW-1")) is fires


# permit.expired


def test_it_raises_expired_from_the_day_after_expiry():
    report = evaluate_case(sc_expiring("2025-06-15"), as_of=AS_OF)
    f = one(report, "permit.expired", "SC-1")
    assert (f.open, f.since, f.due) == (True, d("2025-06-16"), d("2025-06-15"))
    assert f.citation == "13.30.050(E)"


@pytest.mark.parametrize(
    "as_of, fires", [("2025-06-14", False), ("2025-06-15", False), ("2025-06-16", True)]
)
def test_it_brackets_expiry_in_san_clemente(as_of, fires):
    report = evaluate_case(sc_expiring("2025-06-15"), as_of=as_of)
    assert bool(found(report, "permit.expired", "SC-1")) is fires


@pytest.mark.parametrize(
    "as_of, fires", [("2025-12-30", False), ("2025-12-31", False), ("2026-01-01", True)]
)
def test_it_brackets_expiry_in_the_town(as_of, fires):
    report = evaluate_case(town_case(), as_of=as_of)
    assert bool(found(report, "permit.expired", "TW-1")) is fires


def test_it_cites_the_town_ordinance_for_an_expired_permit():
    report = evaluate_case(town_case(), as_of="2026-01-01")
    f = one(report, "permit.expired", "TW-1")
    assert (f.since, f.due) == (d("2026-01-01"), d("2025-12-31"))
    assert f.citation == "10.02.060(A)"


@pytest.mark.parametrize(
    "applied_on, expired",
    [("2025-06-14", False), ("2025-06-15", False), ("2025-06-16", True)],
)
def test_it_keeps_an_sc_permit_alive_when_renewal_was_applied_for_by_expiry(applied_on, expired):
    report = evaluate_case(sc_expiring("2025-06-15", renewal_applied_on=applied_on), as_of=AS_OF)
    assert bool(found(report, "permit.expired", "SC-1")) is expired


def test_it_does_not_let_a_pending_renewal_keep_a_town_permit_alive():
    case = town_case(permit={"renewal_applied_on": "2025-12-01"})
    report = evaluate_case(case, as_of="2026-01-10")
    assert one(report, "permit.expired", "TW-1").open


# permit.renewal_late (San Clemente)


def test_it_raises_renewal_late_sixty_days_before_expiry():
    report = evaluate_case(sc_expiring("2025-08-31"), as_of="2025-07-20")
    f = one(report, "permit.renewal_late", "SC-1")
    assert (f.open, f.since, f.due) == (True, d("2025-07-03"), d("2025-07-02"))
    assert f.citation == "13.30.050(E)"


@pytest.mark.parametrize(
    "as_of, fires", [("2025-07-01", False), ("2025-07-02", False), ("2025-07-03", True)]
)
def test_it_brackets_the_renewal_application_due_date(as_of, fires):
    report = evaluate_case(sc_expiring("2025-08-31"), as_of=as_of)
    assert bool(found(report, "permit.renewal_late", "SC-1")) is fires


@pytest.mark.parametrize("applied_on", ["2025-07-01", "2025-07-02"])
def test_it_accepts_a_renewal_application_filed_by_the_due_date(applied_on):
    report = evaluate_case(sc_expiring("2025-08-31", renewal_applied_on=applied_on), as_of=AS_OF)
    assert found(report, "permit.renewal_late") == []


def test_it_closes_renewal_late_on_the_filing_date_when_filed_late():
    case = sc_expiring("2025-08-31", renewal_applied_on="2025-07-03")
    report = evaluate_case(case, as_of="2025-07-20")
    f = one(report, "permit.renewal_late", "SC-1")
    assert (f.open, f.since, f.resolved_on) == (False, d("2025-07-03"), d("2025-07-03"))


@pytest.mark.parametrize("as_of, fires", [("2025-08-31", True), ("2025-09-01", False)])
def test_it_stops_renewal_late_once_the_permit_has_expired(as_of, fires):
    report = evaluate_case(sc_expiring("2025-08-31"), as_of=as_of)
    assert bool(found(report, "permit.renewal_late", "SC-1")) is fires


def test_it_ignores_a_renewal_application_dated_after_as_of_for_renewal_late():
    case = sc_expiring("2025-08-31", renewal_applied_on="2025-07-10")
    report = evaluate_case(case, as_of="2025-07-05")
    f = one(report, "permit.renewal_late", "SC-1")
    assert (f.open, f.resolved_on) == (True, None)


@pytest.mark.parametrize("as_of, reported", [("2025-07-05", True), ("2025-07-06", False)])
def test_it_reports_a_closed_renewal_late_within_the_look_back(as_of, reported):
    # due 2024-07-02, filed late on 2024-07-05; as_of - 365 days = 2024-07-05 or 2024-07-06
    case = sc_expiring("2024-08-31", renewal_applied_on="2024-07-05")
    report = evaluate_case(case, as_of=as_of)
    assert bool(found(report, "permit.renewal_late", "SC-1")) is reported


def test_it_counts_the_renewal_lead_in_calendar_days_across_a_leap_day():
    report = evaluate_case(sc_expiring("2024-03-01"), as_of="2024-01-02")
    assert one(report, "permit.renewal_late", "SC-1").due == d("2024-01-01")


def test_it_never_raises_renewal_late_in_the_town():
    report = evaluate_case(town_case(), as_of="2025-12-15")
    assert found(report, "permit.renewal_late") == []


# permit.change_not_notified (Town)


def test_it_raises_change_not_notified_for_a_change_without_notice():
    report = evaluate_case(town_change("2025-08-15"), as_of=AS_OF)
    f = one(report, "permit.change_not_notified", "TW-1")
    assert (f.open, f.since, f.due) == (True, d("2025-06-17"), d("2025-06-16"))
    assert f.citation == "10.02.150(A)"


@pytest.mark.parametrize(
    "as_of, fires", [("2025-06-15", False), ("2025-06-16", False), ("2025-06-17", True)]
)
def test_it_brackets_the_change_notice_due_date(as_of, fires):
    report = evaluate_case(town_change("2025-08-15"), as_of=as_of)
    assert bool(found(report, "permit.change_not_notified", "TW-1")) is fires


@pytest.mark.parametrize("notified_on", ["2025-06-15", "2025-06-16"])
def test_it_accepts_a_change_notice_given_sixty_days_ahead(notified_on):
    report = evaluate_case(town_change("2025-08-15", notified_on=notified_on), as_of=AS_OF)
    assert found(report, "permit.change_not_notified") == []


def test_it_closes_change_not_notified_on_a_late_notice():
    report = evaluate_case(town_change("2025-08-15", notified_on="2025-06-17"), as_of=AS_OF)
    f = one(report, "permit.change_not_notified", "TW-1")
    assert (f.open, f.since, f.resolved_on) == (False, d("2025-06-17"), d("2025-06-17"))


@pytest.mark.parametrize("kind", ["remodel", "expansion", "process"])
def test_it_requires_notice_of_every_kind_of_change(kind):
    report = evaluate_case(town_change("2025-08-15", kind=kind), as_of=AS_OF)
    assert one(report, "permit.change_not_notified", "TW-1").open


def test_it_ignores_a_change_notice_dated_after_as_of():
    case = town_change("2025-08-15", notified_on="2025-07-10")
    assert one(evaluate_case(case, as_of=AS_OF), "permit.change_not_notified").open
    later = one(evaluate_case(case, as_of="2025-07-31"), "permit.change_not_notified")
    assert (later.open, later.resolved_on) == (False, d("2025-07-10"))


def test_it_uses_the_establishment_as_subject_of_a_change_without_a_permit():
    case = town_change("2025-08-15")
    case["permit"] = None
    report = evaluate_case(case, as_of=AS_OF)
    assert one(report, "permit.change_not_notified", "FSE-T").open


@pytest.mark.parametrize("as_of, reported", [("2026-06-17", True), ("2026-06-18", False)])
def test_it_reports_a_closed_change_not_notified_within_the_look_back(as_of, reported):
    case = town_change("2025-08-15", notified_on="2025-06-17")
    case["permit"]["expires_on"] = "2027-12-31"
    report = evaluate_case(case, as_of=as_of)
    assert bool(found(report, "permit.change_not_notified")) is reported


def test_it_never_raises_change_not_notified_in_san_clemente():
    case = sc_case(establishment={"changes": [{"date": "2025-08-15", "kind": "remodel"}]})
    report = evaluate_case(case, as_of=AS_OF)
    assert found(report, "permit.change_not_notified") == []


# Schedule


def test_it_schedules_the_sc_renewal_application_sixty_days_before_expiry():
    report = evaluate_case(sc_expiring("2025-08-31"), as_of=AS_OF)
    assert scheduled(report, "permit.renewal_application", "SC-1") == [d("2025-07-02")]


def test_it_schedules_the_permit_expiry_in_both_packs():
    sc_report = evaluate_case(sc_case(), as_of=AS_OF)
    town_report = evaluate_case(town_case(), as_of=AS_OF)
    assert scheduled(sc_report, "permit.expiry", "SC-1") == [d("2028-12-31")]
    assert scheduled(town_report, "permit.expiry", "TW-1") == [d("2025-12-31")]


def test_it_keeps_an_overdue_expiry_on_the_schedule_with_its_original_date():
    report = evaluate_case(town_case(), as_of="2026-02-01")
    assert scheduled(report, "permit.expiry", "TW-1") == [d("2025-12-31")]


def test_it_schedules_no_renewal_application_in_the_town():
    report = evaluate_case(town_case(), as_of=AS_OF)
    assert scheduled(report, "permit.renewal_application") == []


# RULES.md 11.6: the permit term


@pytest.mark.parametrize(
    "expires_on, fires", [("2025-12-31", False), ("2026-01-01", False), ("2026-01-02", True)]
)
def test_it_allows_a_town_permit_one_year_at_most(expires_on, fires):
    case = town_case(permit={"issued_on": "2025-01-01", "expires_on": expires_on})
    report = evaluate_case(case, as_of=AS_OF)
    findings = found(report, "permit.term_invalid", "TW-1")
    assert bool(findings) is fires
    if fires:
        assert (findings[0].severity, findings[0].since) == ("task", d("2025-01-01"))


@pytest.mark.parametrize("expires_on, fires", [("2029-01-01", False), ("2029-01-02", True)])
def test_it_allows_an_sc_permit_five_years_at_most(expires_on, fires):
    report = evaluate_case(sc_expiring(expires_on), as_of=AS_OF)
    assert bool(found(report, "permit.term_invalid", "SC-1")) is fires


# RULES.md 11.7: a pending renewal ends when denied


@pytest.mark.parametrize("as_of, fires", [("2025-04-09", False), ("2025-04-10", True)])
def test_it_expires_a_pending_renewal_on_the_day_of_its_denial(as_of, fires):
    case = sc_expiring(
        "2025-02-28", renewal_applied_on="2024-12-15", renewal_denied_on="2025-04-10"
    )
    report = evaluate_case(case, as_of=as_of)
    findings = found(report, "permit.expired", "SC-1")
    assert bool(findings) is fires
    if fires:
        assert (findings[0].since, findings[0].due) == (d("2025-04-10"), d("2025-02-28"))


def test_it_expires_a_permit_denied_before_it_ran_out_the_day_after_expiry():
    case = sc_expiring(
        "2025-02-28", renewal_applied_on="2024-12-15", renewal_denied_on="2025-01-20"
    )
    report = evaluate_case(case, as_of=AS_OF)
    assert one(report, "permit.expired", "SC-1").since == d("2025-03-01")


def test_it_ignores_a_denial_without_a_timely_application():
    case = sc_expiring(
        "2025-02-28", renewal_applied_on="2025-03-05", renewal_denied_on="2025-04-10"
    )
    report = evaluate_case(case, as_of=AS_OF)
    assert one(report, "permit.expired", "SC-1").since == d("2025-03-01")


# RULES.md 11.8: suspension and revocation take effect


@pytest.mark.parametrize(
    "as_of, open_", [("2025-02-27", True), ("2025-02-28", True), ("2025-03-01", False)]
)
def test_it_holds_a_suspension_through_its_last_day(as_of, open_):
    case = town_case(permit={"suspended_from": "2025-02-01", "suspended_until": "2025-02-28"})
    f = one(evaluate_case(case, as_of=as_of), "permit.suspended", "TW-1")
    assert (f.open, f.since, f.severity) == (open_, d("2025-02-01"), "violation")
    assert f.resolved_on == (None if open_ else d("2025-03-01"))


def test_it_holds_a_suspension_without_an_end_until_further_order():
    case = town_case(permit={"suspended_from": "2025-02-01"})
    assert one(evaluate_case(case, as_of=AS_OF), "permit.suspended", "TW-1").open


def test_it_ends_a_running_suspension_on_the_revocation():
    case = town_case(permit={"suspended_from": "2025-02-01", "revoked_on": "2025-04-01"})
    report = evaluate_case(case, as_of=AS_OF)
    assert one(report, "permit.suspended", "TW-1").resolved_on == d("2025-04-01")
    assert one(report, "permit.revoked", "TW-1").open


@pytest.mark.parametrize("as_of, revoked", [("2025-05-31", False), ("2025-06-01", True)])
def test_it_treats_a_revoked_permit_as_no_permit_from_the_revocation(as_of, revoked):
    case = town_case(permit={"expires_on": "2025-05-31", "revoked_on": "2025-06-01"})
    report = evaluate_case(case, as_of=as_of)
    assert bool(found(report, "permit.revoked", "TW-1")) is revoked
    assert found(report, "permit.missing") == []
    assert bool(scheduled(report, "permit.expiry")) is not revoked


def test_it_replaces_the_expiry_and_new_operator_findings_with_the_revocation():
    case = sc_case(
        establishment={"operator": {"name": "New Owner LLC", "since": "2025-02-01"}},
        permit={"expires_on": "2025-03-31", "revoked_on": "2025-04-15"},
    )
    report = evaluate_case(case, as_of=AS_OF)
    rules = {f.rule for f in report.findings if f.rule.startswith("permit.")}
    assert rules == {"permit.revoked"}


def test_it_keeps_the_revoked_permits_frequency_for_its_devices():
    device = {"id": "GI-1", "kind": "interceptor", "installed_on": "2024-12-01"}
    case = sc_case(
        permit={"service_frequency_days": 90, "revoked_on": "2025-01-10"}, devices=[device]
    )
    report = evaluate_case(case, as_of=AS_OF)
    assert one(report, "gcd.service_overdue", "GI-1").due == d("2025-03-01")


# RULES.md 11.9: when a permit changes hands


@pytest.mark.parametrize("since, ended", [("2024-01-01", False), ("2024-01-02", True)])
def test_it_ends_a_permit_only_for_an_operator_who_took_over_after_its_issue(since, ended):
    case = sc_case(establishment={"operator": {"name": "Harbor Foods LLC", "since": since}})
    report = evaluate_case(case, as_of=AS_OF)
    assert bool(found(report, "permit.new_operator")) is ended


def test_it_keeps_a_town_permit_in_the_business_name_across_operators():
    case = town_case(
        establishment={"operator": {"name": "TT Foods LLC", "since": "2025-03-01"}},
        permit={"holder": "MESA   wings"},
    )
    assert found(evaluate_case(case, as_of=AS_OF), "permit.new_operator") == []


def test_it_ends_an_sc_permit_in_the_business_name_on_a_new_operator():
    case = sc_case(
        establishment={"operator": {"name": "TT Foods LLC", "since": "2025-03-01"}},
        permit={"holder": "Pier Taqueria"},
    )
    assert found(evaluate_case(case, as_of=AS_OF), "permit.new_operator")
