"""Food grinders and waste cooking oil (RULES.md section 6)."""

from __future__ import annotations

import pytest

from .builders import d, evaluate_case, found, one, sc_case, scheduled, town_case

AS_OF = "2025-06-30"


def sc_grinder(**establishment) -> dict:
    return sc_case(establishment={"food_grinder": True, **establishment})


def town_grinder(**establishment) -> dict:
    return town_case(
        establishment={"food_grinder": True, "opened_on": "2020-01-01", **establishment}
    )


def sc_yellow(*pickups: str, frequency: int | None = 30, **permit) -> dict:
    return sc_case(
        permit={"yellow_grease_frequency_days": frequency, **permit},
        yellow_grease_pickups=[{"date": x} for x in pickups],
    )


# food_grinder.prohibited


def test_it_prohibits_every_food_grinder_in_san_clemente():
    report = evaluate_case(sc_grinder(food_grinder_installed_on="2021-06-01"), as_of=AS_OF)
    f = one(report, "food_grinder.prohibited", "FSE-1")
    assert (f.open, f.since, f.severity) == (True, d("2021-06-01"), "violation")
    assert f.citation == "13.30.040(C)(11), 13.30.060(C)"
    assert report.status == "non_compliant"


def test_it_dates_an_old_sc_grinder_from_the_effective_date():
    report = evaluate_case(sc_grinder(), as_of=AS_OF)
    assert one(report, "food_grinder.prohibited", "FSE-1").since == d("2009-08-20")


@pytest.mark.parametrize(
    "installed_on, since",
    [("2009-08-19", "2009-08-20"), ("2009-08-20", "2009-08-20"), ("2009-08-21", "2009-08-21")],
)
def test_it_dates_an_sc_grinder_no_earlier_than_the_effective_date(installed_on, since):
    report = evaluate_case(sc_grinder(food_grinder_installed_on=installed_on), as_of=AS_OF)
    assert one(report, "food_grinder.prohibited", "FSE-1").since == d(since)


def test_it_dates_an_sc_grinder_from_the_opening_when_installed_before_it():
    case = sc_grinder(opened_on="2012-05-01", food_grinder_installed_on="2008-03-01")
    report = evaluate_case(case, as_of=AS_OF)
    assert one(report, "food_grinder.prohibited", "FSE-1").since == d("2012-05-01")


@pytest.mark.parametrize("installed_on, fires", [("2025-06-30", True), ("2025-07-01", False)])
def test_it_ignores_a_grinder_installed_after_as_of(installed_on, fires):
    report = evaluate_case(sc_grinder(food_grinder_installed_on=installed_on), as_of=AS_OF)
    assert bool(found(report, "food_grinder.prohibited")) is fires


def test_it_raises_nothing_without_a_food_grinder():
    report = evaluate_case(sc_case(establishment={"food_grinder": False}), as_of=AS_OF)
    assert found(report, "food_grinder.prohibited") == []


def test_it_prohibits_a_town_grinder_installed_after_the_effective_date_at_once():
    report = evaluate_case(town_grinder(food_grinder_installed_on="2024-05-01"), as_of=AS_OF)
    f = one(report, "food_grinder.prohibited", "FSE-T")
    assert (f.open, f.since, f.due) == (True, d("2024-05-01"), None)
    assert f.citation == "10.02.190"


def test_it_gives_an_existing_town_grinder_180_days():
    report = evaluate_case(town_grinder(), as_of=AS_OF)
    f = one(report, "food_grinder.prohibited", "FSE-T")
    assert (f.open, f.since, f.due) == (True, d("2023-09-27"), d("2023-09-26"))


@pytest.mark.parametrize(
    "as_of, fires", [("2023-09-25", False), ("2023-09-26", False), ("2023-09-27", True)]
)
def test_it_brackets_the_end_of_the_grace_period(as_of, fires):
    report = evaluate_case(town_grinder(), as_of=as_of)
    assert bool(found(report, "food_grinder.prohibited", "FSE-T")) is fires


@pytest.mark.parametrize(
    "installed_on, since",
    [("2023-03-29", "2023-09-27"), ("2023-03-30", "2023-09-27"), ("2023-03-31", "2023-03-31")],
)
def test_it_treats_a_grinder_installed_by_the_effective_date_as_existing(installed_on, since):
    report = evaluate_case(town_grinder(food_grinder_installed_on=installed_on), as_of=AS_OF)
    assert one(report, "food_grinder.prohibited", "FSE-T").since == d(since)


def test_it_ignores_a_town_grinder_installed_after_as_of():
    report = evaluate_case(town_grinder(food_grinder_installed_on="2025-07-01"), as_of=AS_OF)
    assert found(report, "food_grinder.prohibited") == []


# yellow_grease.collection_overdue (San Clemente)


def test_it_raises_collection_overdue_after_the_permit_frequency():
    report = evaluate_case(sc_yellow("2025-05-15"), as_of=AS_OF)
    f = one(report, "yellow_grease.collection_overdue", "FSE-1")
    assert (f.open, f.since, f.due) == (True, d("2025-06-15"), d("2025-06-14"))
    assert f.citation == "13.30.050(H)(2)(b)"


@pytest.mark.parametrize(
    "as_of, fires", [("2025-06-13", False), ("2025-06-14", False), ("2025-06-15", True)]
)
def test_it_brackets_the_collection_due_date(as_of, fires):
    report = evaluate_case(sc_yellow("2025-05-15"), as_of=as_of)
    assert bool(found(report, "yellow_grease.collection_overdue", "FSE-1")) is fires


def test_it_counts_from_the_permit_issue_date_before_the_first_pickup():
    report = evaluate_case(sc_yellow(), as_of=AS_OF)
    f = one(report, "yellow_grease.collection_overdue", "FSE-1")
    assert (f.due, f.since) == (d("2024-01-31"), d("2024-02-01"))


@pytest.mark.parametrize(
    "issued_on, due",
    [("2009-08-19", "2009-09-19"), ("2009-08-20", "2009-09-19"), ("2009-08-21", "2009-09-20")],
)
def test_it_counts_from_the_effective_date_at_the_earliest(issued_on, due):
    report = evaluate_case(sc_yellow(issued_on=issued_on), as_of="2009-10-01")
    assert one(report, "yellow_grease.collection_overdue", "FSE-1").due == d(due)


def test_it_ignores_a_pickup_dated_after_as_of():
    report = evaluate_case(sc_yellow("2025-05-15", "2025-07-01"), as_of=AS_OF)
    assert one(report, "yellow_grease.collection_overdue", "FSE-1").open


def test_it_reports_only_the_current_collection_gap():
    report = evaluate_case(sc_yellow("2025-01-01", "2025-06-01"), as_of=AS_OF)
    assert found(report, "yellow_grease.collection_overdue") == []


def test_it_requires_no_collection_without_a_permit_frequency():
    report = evaluate_case(sc_yellow(frequency=None), as_of=AS_OF)
    assert found(report, "yellow_grease.collection_overdue") == []
    assert scheduled(report, "yellow_grease.collection") == []


def test_it_schedules_the_next_collection():
    report = evaluate_case(sc_yellow("2025-06-01", frequency=60), as_of=AS_OF)
    assert scheduled(report, "yellow_grease.collection", "FSE-1") == [d("2025-07-31")]


def test_it_keeps_an_overdue_collection_on_the_schedule_with_its_original_date():
    report = evaluate_case(sc_yellow("2025-05-15"), as_of=AS_OF)
    assert scheduled(report, "yellow_grease.collection", "FSE-1") == [d("2025-06-14")]


def test_it_never_raises_collection_overdue_in_the_town():
    case = town_case(permit={"yellow_grease_frequency_days": 30})
    report = evaluate_case(case, as_of=AS_OF)
    assert found(report, "yellow_grease.collection_overdue") == []
    assert scheduled(report, "yellow_grease.collection") == []
