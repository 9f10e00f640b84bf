"""BMP training of kitchen employees (RULES.md section 7)."""

from .builders import d, evaluate_case, found, one, sc_case, scheduled, town_case


def employee(**fields):
    return {"id": "E-1", "name": "Ana Ruiz", "hired_on": "2025-03-10", **fields}


def training(on, *attendees, id="T-1"):
    return {"id": id, "date": on, "attendees": [{"employee": "E-1", **a} for a in attendees]}


def sc_staff(*trainings, as_of="2025-06-30", **fields):
    case = sc_case(employees=[employee(**fields)], trainings=list(trainings))
    return evaluate_case(case, as_of=as_of)


def town_staff(*trainings, as_of="2025-06-30", **fields):
    case = town_case(employees=[employee(**fields)], trainings=list(trainings))
    return evaluate_case(case, as_of=as_of)


# training.new_hire_overdue: San Clemente, 1 month


def test_it_opens_new_hire_overdue_for_an_sc_employee_untrained_a_month_after_hire():
    f = one(sc_staff(), "training.new_hire_overdue", "E-1")
    assert f.open
    assert f.severity == "violation"
    assert f.due == d("2025-04-10")
    assert f.since == d("2025-04-11")
    assert f.citation == "13.30.050(H)(3)(a)"


def test_it_raises_no_sc_new_hire_finding_on_the_due_day():
    report = sc_staff(as_of="2025-04-10")
    assert found(report, "training.new_hire_overdue") == []


def test_it_raises_the_sc_new_hire_finding_the_day_after_the_due_day():
    f = one(sc_staff(as_of="2025-04-11"), "training.new_hire_overdue", "E-1")
    assert f.open
    assert f.since == d("2025-04-11")


def test_it_accepts_sc_new_hire_training_on_the_due_day():
    report = sc_staff(training("2025-04-10", {}))
    assert found(report, "training.new_hire_overdue") == []


def test_it_closes_sc_new_hire_overdue_when_trained_the_day_after_the_due_day():
    f = one(sc_staff(training("2025-04-11", {})), "training.new_hire_overdue", "E-1")
    assert not f.open
    assert f.since == d("2025-04-11")
    assert f.resolved_on == d("2025-04-11")


def test_it_clamps_the_sc_new_hire_window_to_the_end_of_a_shorter_month():
    report = sc_staff(hired_on="2025-01-31", as_of="2025-02-28")
    assert found(report, "training.new_hire_overdue") == []
    assert scheduled(report, "training.new_hire", "E-1") == [d("2025-02-28")]


def test_it_opens_the_clamped_sc_new_hire_finding_on_the_first_of_the_next_month():
    report = sc_staff(hired_on="2025-01-31", as_of="2025-03-01")
    f = one(report, "training.new_hire_overdue", "E-1")
    assert f.due == d("2025-02-28")
    assert f.since == d("2025-03-01")


def test_it_clamps_the_sc_new_hire_window_to_a_leap_day():
    report = sc_staff(hired_on="2024-01-31", as_of="2024-03-01")
    assert one(report, "training.new_hire_overdue", "E-1").due == d("2024-02-29")


# training.new_hire_overdue: Town, 0 days ("at the time of hiring")


def test_it_requires_town_training_on_the_day_of_hire():
    f = one(town_staff(hired_on="2025-06-02"), "training.new_hire_overdue", "E-1")
    assert f.open
    assert f.due == d("2025-06-02")
    assert f.since == d("2025-06-03")
    assert f.citation == "10.02.070(C)"


def test_it_raises_no_town_new_hire_finding_on_the_day_of_hire():
    report = town_staff(hired_on="2025-06-02", as_of="2025-06-02")
    assert found(report, "training.new_hire_overdue") == []
    assert scheduled(report, "training.new_hire", "E-1") == [d("2025-06-02")]


def test_it_raises_the_town_new_hire_finding_the_day_after_hire():
    report = town_staff(hired_on="2025-06-02", as_of="2025-06-03")
    assert one(report, "training.new_hire_overdue", "E-1").since == d("2025-06-03")


def test_it_accepts_town_training_on_the_day_of_hire():
    report = town_staff(training("2025-06-02", {}), hired_on="2025-06-02")
    assert found(report, "training.new_hire_overdue") == []


def test_it_closes_town_new_hire_overdue_when_trained_the_day_after_hire():
    report = town_staff(training("2025-06-03", {}), hired_on="2025-06-02")
    f = one(report, "training.new_hire_overdue", "E-1")
    assert not f.open
    assert f.since == d("2025-06-03")
    assert f.resolved_on == d("2025-06-03")


def test_it_starts_the_town_new_hire_window_at_the_effective_date_for_earlier_hires():
    report = town_staff(hired_on="2022-06-01", as_of="2023-04-03")
    f = one(report, "training.new_hire_overdue", "E-1")
    assert f.due == d("2023-03-30")
    assert f.since == d("2023-03-31")


# Who is covered, and which trainings count


def test_it_does_not_count_a_training_dated_before_the_hire_date():
    report = sc_staff(training("2025-03-09", {}))
    f = one(report, "training.new_hire_overdue", "E-1")
    assert f.open
    assert f.since == d("2025-04-11")


def test_it_counts_a_training_on_the_hire_date():
    report = sc_staff(training("2025-03-10", {}))
    assert found(report, "training.new_hire_overdue") == []


def test_it_ignores_employees_without_kitchen_duties():
    report = sc_staff(kitchen_duties=False)
    assert found(report, "training.new_hire_overdue") == []
    assert scheduled(report, "training.new_hire") == []


def test_it_covers_contractors_with_kitchen_duties_in_san_clemente():
    f = one(sc_staff(contractor=True), "training.new_hire_overdue", "E-1")
    assert f.open
    assert f.citation == "13.30.050(H)(3)(a)"


def test_it_covers_contractors_with_kitchen_duties_in_the_town():
    report = town_staff(contractor=True, hired_on="2025-06-01")
    assert one(report, "training.new_hire_overdue", "E-1").open


def test_it_ignores_an_employee_hired_after_as_of():
    report = sc_staff(hired_on="2025-07-01")
    assert found(report, "training.new_hire_overdue") == []
    assert scheduled(report, "training.new_hire") == []


def test_it_ignores_a_training_dated_after_as_of():
    report = sc_staff(training("2025-07-01", {}))
    assert one(report, "training.new_hire_overdue", "E-1").open


def test_it_counts_an_attendee_who_did_not_sign():
    report = sc_staff(training("2025-04-01", {"signed": False}))
    assert found(report, "training.new_hire_overdue") == []


def test_it_does_not_count_a_training_the_employee_did_not_attend():
    case = sc_case(
        employees=[employee(), employee(id="E-2")],
        trainings=[{"id": "T-1", "date": "2025-03-20", "attendees": [{"employee": "E-2"}]}],
    )
    report = evaluate_case(case, as_of="2025-06-30")
    assert one(report, "training.new_hire_overdue", "E-1").open
    assert found(report, "training.new_hire_overdue", "E-2") == []


# left_on


def test_it_raises_nothing_when_the_employee_leaves_on_the_day_the_finding_would_start():
    report = sc_staff(left_on="2025-04-11")
    assert found(report, "training.new_hire_overdue") == []


def test_it_raises_nothing_when_the_employee_leaves_before_the_due_date():
    report = sc_staff(left_on="2025-04-01")
    assert found(report, "training.new_hire_overdue") == []
    assert scheduled(report, "training.new_hire") == []


def test_it_closes_an_open_new_hire_finding_on_the_day_the_employee_leaves():
    f = one(sc_staff(left_on="2025-04-12"), "training.new_hire_overdue", "E-1")
    assert not f.open
    assert f.since == d("2025-04-11")
    assert f.resolved_on == d("2025-04-12")


def test_it_ignores_a_leaving_date_after_as_of():
    report = sc_staff(left_on="2025-07-15")
    assert one(report, "training.new_hire_overdue", "E-1").open
    assert scheduled(report, "training.new_hire", "E-1") == [d("2025-04-10")]


def test_it_closes_an_open_refresher_finding_on_the_day_the_employee_leaves():
    report = sc_staff(training("2024-10-15", {}), hired_on="2024-10-01", left_on="2025-05-01")
    f = one(report, "training.refresher_overdue", "E-1")
    assert not f.open
    assert f.since == d("2025-04-16")
    assert f.resolved_on == d("2025-05-01")
    assert scheduled(report, "training.refresher") == []


# training.refresher_overdue


def test_it_opens_refresher_overdue_six_months_after_the_last_sc_training():
    report = sc_staff(training("2024-10-15", {}), hired_on="2024-10-01")
    f = one(report, "training.refresher_overdue", "E-1")
    assert f.open
    assert f.severity == "violation"
    assert f.due == d("2025-04-15")
    assert f.since == d("2025-04-16")
    assert f.citation == "13.30.050(H)(3)(a)"


def test_it_raises_no_sc_refresher_finding_on_the_due_day():
    report = sc_staff(training("2024-10-15", {}), hired_on="2024-10-01", as_of="2025-04-15")
    assert found(report, "training.refresher_overdue") == []


def test_it_raises_the_sc_refresher_finding_the_day_after_the_due_day():
    report = sc_staff(training("2024-10-15", {}), hired_on="2024-10-01", as_of="2025-04-16")
    assert one(report, "training.refresher_overdue", "E-1").since == d("2025-04-16")


def test_it_accepts_an_sc_refresher_on_the_due_day():
    first, again = training("2024-10-15", {}), training("2025-04-15", {}, id="T-2")
    report = sc_staff(first, again, hired_on="2024-10-01")
    assert found(report, "training.refresher_overdue") == []
    assert scheduled(report, "training.refresher", "E-1") == [d("2025-10-15")]


def test_it_closes_an_sc_refresher_gap_when_trained_the_day_after_the_due_day():
    first, again = training("2024-10-15", {}), training("2025-04-16", {}, id="T-2")
    f = one(sc_staff(first, again, hired_on="2024-10-01"), "training.refresher_overdue", "E-1")
    assert not f.open
    assert f.since == d("2025-04-16")
    assert f.resolved_on == d("2025-04-16")


def test_it_clamps_the_sc_refresher_interval_to_the_end_of_a_shorter_month():
    report = sc_staff(training("2024-08-31", {}), hired_on="2024-08-01", as_of="2025-03-01")
    f = one(report, "training.refresher_overdue", "E-1")
    assert f.due == d("2025-02-28")
    assert f.since == d("2025-03-01")


def test_it_reports_every_past_refresher_gap_as_a_closed_finding():
    sessions = [
        training("2024-01-05", {}, id="T-1"),
        training("2024-08-01", {}, id="T-2"),
        training("2025-03-01", {}, id="T-3"),
    ]
    report = sc_staff(*sessions, hired_on="2024-01-02")
    gaps = found(report, "training.refresher_overdue", "E-1")
    assert [(f.open, f.since, f.resolved_on) for f in gaps] == [
        (False, d("2024-07-06"), d("2024-08-01")),
        (False, d("2025-02-02"), d("2025-03-01")),
    ]


def test_it_raises_no_refresher_finding_for_an_employee_never_trained():
    report = sc_staff(hired_on="2024-01-02")
    assert found(report, "training.refresher_overdue") == []
    assert scheduled(report, "training.refresher") == []


def test_it_opens_refresher_overdue_twelve_months_after_the_last_town_training():
    report = town_staff(training("2024-06-01", {}), hired_on="2024-06-01", as_of="2025-06-02")
    f = one(report, "training.refresher_overdue", "E-1")
    assert f.open
    assert f.due == d("2025-06-01")
    assert f.since == d("2025-06-02")
    assert f.citation == "10.02.070(C)"


def test_it_raises_no_town_refresher_finding_on_the_due_day():
    report = town_staff(training("2024-06-01", {}), hired_on="2024-06-01", as_of="2025-06-01")
    assert found(report, "training.refresher_overdue") == []
    assert scheduled(report, "training.refresher", "E-1") == [d("2025-06-01")]


def test_it_does_not_apply_the_sc_six_month_interval_in_the_town():
    report = town_staff(training("2024-10-15", {}), hired_on="2024-10-15")
    assert found(report, "training.refresher_overdue") == []
    assert scheduled(report, "training.refresher", "E-1") == [d("2025-10-15")]


def test_it_clamps_a_town_refresher_from_a_leap_day():
    report = town_staff(training("2024-02-29", {}), hired_on="2024-02-01", as_of="2025-03-01")
    f = one(report, "training.refresher_overdue", "E-1")
    assert f.due == d("2025-02-28")
    assert f.since == d("2025-03-01")


# training.unsigned


def test_it_reports_an_unsigned_sc_attendance_as_closed_on_the_training_date():
    f = one(sc_staff(training("2025-04-01", {"signed": False})), "training.unsigned", "E-1")
    assert not f.open
    assert f.severity == "violation"
    assert f.since == d("2025-04-01")
    assert f.resolved_on == d("2025-04-01")
    assert f.citation == "13.30.050(H)(3)(b)"


def test_it_reports_an_unsigned_town_attendance_with_the_town_citation():
    report = town_staff(training("2025-06-02", {"signed": False}), hired_on="2025-06-02")
    f = one(report, "training.unsigned", "E-1")
    assert (f.open, f.since, f.resolved_on) == (False, d("2025-06-02"), d("2025-06-02"))
    assert f.citation == "10.02.070(C)"


def test_it_treats_an_attendance_without_a_signed_field_as_signed():
    report = sc_staff(training("2025-04-01", {}))
    assert found(report, "training.unsigned") == []


def test_it_treats_a_signed_attendance_as_signed():
    report = sc_staff(training("2025-04-01", {"signed": True}))
    assert found(report, "training.unsigned") == []


def test_it_leaves_an_unsigned_attendance_out_of_the_status():
    report = sc_staff(training("2025-04-01", {"signed": False}))
    assert report.status == "compliant"


# Schedule


def test_it_keeps_an_overdue_new_hire_training_scheduled_on_its_original_due_date():
    report = sc_staff()
    assert scheduled(report, "training.new_hire", "E-1") == [d("2025-04-10")]
    assert scheduled(report, "training.refresher", "E-1") == []


def test_it_schedules_the_sc_refresher_six_months_after_the_last_training():
    report = sc_staff(training("2025-04-01", {}))
    assert scheduled(report, "training.new_hire", "E-1") == []
    assert scheduled(report, "training.refresher", "E-1") == [d("2025-10-01")]


def test_it_keeps_an_overdue_refresher_scheduled_on_its_original_due_date():
    report = sc_staff(training("2024-10-15", {}), hired_on="2024-10-01")
    assert scheduled(report, "training.refresher", "E-1") == [d("2025-04-15")]


def test_it_cites_the_pack_on_training_schedule_entries():
    report = town_staff(training("2025-06-02", {}), hired_on="2025-06-02")
    entries = [s for s in report.schedule if s.obligation == "training.refresher"]
    assert [(s.subject, s.due, s.citation) for s in entries] == [
        ("E-1", d("2026-06-02"), "10.02.070(C)")
    ]


# RULES.md 11.15: an attendance before the hire date counts for nothing but its signature


def test_it_still_reports_an_unsigned_attendance_dated_before_the_hire():
    report = sc_staff(training("2025-03-01", {"signed": False}))
    f = one(report, "training.unsigned", "E-1")
    assert (f.open, f.since, f.resolved_on) == (False, d("2025-03-01"), d("2025-03-01"))
    assert one(report, "training.new_hire_overdue", "E-1").open


def test_it_does_not_count_an_attendance_before_the_hire_towards_the_refresher():
    report = town_staff(training("2024-03-01", {}), training("2025-03-10", {}, id="T-2"))
    assert scheduled(report, "training.refresher", "E-1") == [d("2026-03-10")]


# RULES.md 12.9: every entry of the log carries a signature, whoever attended


def test_it_reports_an_unsigned_attendance_of_an_employee_without_kitchen_duties():
    report = sc_staff(training("2025-04-01", {"signed": False}), kitchen_duties=False)
    f = one(report, "training.unsigned", "E-1")
    assert (f.open, f.since) == (False, d("2025-04-01"))


def test_it_reports_an_unsigned_attendance_after_the_employee_left():
    report = town_staff(
        training("2025-06-20", {"signed": False}), hired_on="2025-06-02", left_on="2025-06-10"
    )
    assert one(report, "training.unsigned", "E-1").since == d("2025-06-20")


def test_it_reports_no_unsigned_attendance_of_a_training_after_as_of():
    report = sc_staff(training("2025-07-01", {"signed": False}), as_of="2025-06-30")
    assert found(report, "training.unsigned") == []
