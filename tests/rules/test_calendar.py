"""The legal calendar of RULES.md section 1: calendar days, clamped months, business days,
the packs' holidays, roll-forward and elapsed hours."""

from datetime import date, datetime

import pytest

from fogkeeper.rules.calendar import Duration, add_months
from fogkeeper.rules.packs import default_registry

PACKS = ["san-clemente", "town-10-02"]

HOLIDAYS = {
    2024: [
        "2024-01-01",  # New Year's Day
        "2024-01-15",  # Martin Luther King Jr. Day
        "2024-02-19",  # Presidents' Day
        "2024-04-01",  # Cesar Chavez Day, Sunday Mar 31 observed Monday
        "2024-05-27",  # Memorial Day
        "2024-06-19",  # Juneteenth
        "2024-07-04",  # Independence Day
        "2024-09-02",  # Labor Day
        "2024-11-11",  # Veterans Day
        "2024-11-28",  # Thanksgiving
        "2024-11-29",  # the day after
        "2024-12-25",  # Christmas Day
    ],
    2025: [
        "2025-01-01",
        "2025-01-20",
        "2025-02-17",
        "2025-03-31",
        "2025-05-26",
        "2025-06-19",
        "2025-07-04",
        "2025-09-01",
        "2025-11-11",
        "2025-11-27",
        "2025-11-28",
        "2025-12-25",
    ],
    2027: [
        "2027-01-01",
        "2027-01-18",
        "2027-02-15",
        "2027-03-31",
        "2027-05-31",
        "2027-06-18",  # Juneteenth, Saturday observed Friday
        "2027-07-05",  # Independence Day, Sunday observed Monday
        "2027-09-06",
        "2027-11-11",
        "2027-11-25",
        "2027-11-26",
        "2027-12-24",  # Christmas Day, Saturday observed Friday
        "2027-12-31",  # New Year's Day 2028, Saturday observed Friday
    ],
    2028: [
        "2028-01-17",
        "2028-02-21",
        "2028-03-31",
        "2028-05-29",
        "2028-06-19",
        "2028-07-04",
        "2028-09-04",
        "2028-11-10",  # Veterans Day, Saturday observed Friday
        "2028-11-23",
        "2028-11-24",
        "2028-12-25",
    ],
}


def d(text: str) -> date:
    return date.fromisoformat(text)


@pytest.fixture(params=PACKS)
def cal(request):
    return default_registry().get(request.param).calendar


@pytest.fixture
def sc_cal():
    return default_registry().get("san-clemente").calendar


# Months and years


def test_it_clamps_a_month_to_the_last_day_of_a_short_month():
    assert add_months(d("2025-01-31"), 1) == d("2025-02-28")


def test_it_clamps_to_the_29th_of_february_in_a_leap_year():
    assert add_months(d("2024-01-31"), 1) == d("2024-02-29")


def test_it_clamps_a_year_from_the_29th_of_february(sc_cal):
    assert sc_cal.add(d("2024-02-29"), Duration(1, "years")) == d("2025-02-28")


def test_it_adds_months_across_a_year_end(sc_cal):
    assert sc_cal.add(d("2025-11-30"), Duration(3, "months")) == d("2026-02-28")


def test_it_counts_calendar_days_through_weekends_and_holidays(sc_cal):
    assert sc_cal.add(d("2025-06-28"), Duration(10, "days")) == d("2025-07-08")


def test_it_remembers_each_sum_by_period_and_keeps_periods_and_rolling_apart(sc_cal):
    start = d("2025-06-28")  # a Saturday
    first = sc_cal.add(start, Duration(10, "days"))
    assert sc_cal._added[(Duration(10, "days"), False)][start] == first == d("2025-07-08")
    assert sc_cal.add(start, Duration(10, "days")) is first
    assert sc_cal.add(start, Duration(1, "months")) == d("2025-07-28")
    assert sc_cal.add(start, Duration(1, "days"), roll=True) == d("2025-06-30")
    assert sc_cal.add(start, Duration(1, "days")) == d("2025-06-29")


def test_it_counts_days_from_the_day_of_a_date_time(sc_cal):
    assert sc_cal.add(datetime(2025, 6, 28, 15, 30), Duration(10, "days")) == d("2025-07-08")


# Business days


def test_it_never_counts_the_start_day_as_a_business_day(sc_cal):
    assert sc_cal.add_business_days(d("2025-06-02"), 1) == d("2025-06-03")


def test_it_counts_the_first_business_day_after_a_friday_as_monday(sc_cal):
    assert sc_cal.add_business_days(d("2025-06-06"), 1) == d("2025-06-09")


def test_it_counts_business_days_from_a_saturday_starting_monday(sc_cal):
    assert sc_cal.add_business_days(d("2025-06-07"), 2) == d("2025-06-10")


def test_it_skips_thanksgiving_and_the_day_after_when_counting_business_days(sc_cal):
    assert sc_cal.add_business_days(d("2025-11-26"), 1) == d("2025-12-01")


def test_it_counts_five_working_days_over_independence_day(cal):
    assert cal.add(d("2025-07-01"), Duration(5, "business_days")) == d("2025-07-09")


# Holidays


@pytest.mark.parametrize("year", sorted(HOLIDAYS))
def test_it_observes_exactly_the_packs_holidays_in_a_year(cal, year):
    assert [h.isoformat() for h in cal.holidays(year)] == HOLIDAYS[year]


def test_it_observes_new_years_day_2028_on_friday_2027_12_31(cal):
    assert cal.is_holiday(d("2027-12-31"))
    assert not cal.is_holiday(d("2028-01-01"))


def test_it_observes_a_saturday_juneteenth_on_the_friday_before(cal):
    assert cal.is_holiday(d("2027-06-18"))
    assert not cal.is_business_day(d("2027-06-18"))


def test_it_observes_a_sunday_cesar_chavez_day_on_the_monday_after(cal):
    assert cal.is_holiday(d("2024-04-01"))
    assert not cal.is_business_day(d("2024-04-01"))


def test_it_observes_a_saturday_cesar_chavez_day_on_the_friday_before(cal):
    assert cal.is_holiday(d("2029-03-30"))


@pytest.mark.parametrize(
    "day",
    [
        "2024-02-15",  # Susan B. Anthony Day
        "2024-11-01",  # Diwali
        "2025-10-20",  # Diwali
        "2024-02-12",  # Lincoln's Birthday
        "2024-10-14",  # Columbus Day / Indigenous Peoples' Day
        "2024-12-24",  # Christmas Eve
    ],
)
def test_it_keeps_offices_open_on_days_the_pack_does_not_list(cal, day):
    assert not cal.is_holiday(d(day))
    assert cal.is_business_day(d(day))


# Roll-forward


def test_it_rolls_a_saturday_forward_to_monday(sc_cal):
    assert sc_cal.roll_forward(d("2025-06-28")) == d("2025-06-30")


def test_it_rolls_a_sunday_forward_to_monday(sc_cal):
    assert sc_cal.roll_forward(d("2025-06-29")) == d("2025-06-30")


def test_it_rolls_a_holiday_forward_over_the_weekend_after_it(sc_cal):
    assert sc_cal.roll_forward(d("2025-07-04")) == d("2025-07-07")


def test_it_rolls_thanksgiving_past_the_day_after_and_the_weekend(sc_cal):
    assert sc_cal.roll_forward(d("2025-11-27")) == d("2025-12-01")


def test_it_leaves_a_business_day_where_it_is(sc_cal):
    assert sc_cal.roll_forward(d("2025-07-03")) == d("2025-07-03")


def test_it_rolls_a_deadline_that_lands_on_a_weekend(sc_cal):
    # 2025-06-18 + 10 days = Saturday 2025-06-28
    assert sc_cal.add(d("2025-06-18"), Duration(10, "days"), roll=True) == d("2025-06-30")


def test_it_rolls_a_deadline_that_lands_on_cesar_chavez_day(cal):
    # 2025-03-21 + 10 days = Monday 2025-03-31, a California holiday
    assert cal.add(d("2025-03-21"), Duration(10, "days"), roll=True) == d("2025-04-01")


def test_it_does_not_roll_a_deadline_unless_asked(sc_cal):
    assert sc_cal.add(d("2025-06-18"), Duration(10, "days")) == d("2025-06-28")


# Hours


def test_it_counts_48_elapsed_hours_across_the_spring_dst_change(sc_cal):
    start = datetime(2025, 3, 8, 10, 0)
    assert sc_cal.add_hours(start, 48) == datetime(2025, 3, 10, 11, 0)


def test_it_counts_48_elapsed_hours_across_the_fall_dst_change(sc_cal):
    start = datetime(2025, 11, 1, 10, 0)
    assert sc_cal.add_hours(start, 48) == datetime(2025, 11, 3, 9, 0)


def test_it_keeps_hour_deadlines_without_an_offset_like_the_input(sc_cal):
    end = sc_cal.add(datetime(2025, 7, 1, 10, 0), Duration(48, "hours"))
    assert end == datetime(2025, 7, 3, 10, 0)
    assert end.tzinfo is None


def test_it_never_rolls_an_hour_deadline(sc_cal):
    # 2025-07-03 10:00 + 24 hours lands on Independence Day
    end = sc_cal.add(datetime(2025, 7, 3, 10, 0), Duration(24, "hours"), roll=True)
    assert end == datetime(2025, 7, 4, 10, 0)


# Durations


@pytest.mark.parametrize(
    "text, n, unit",
    [
        ("10 days", 10, "days"),
        ("1 day", 1, "days"),
        ("2 business_days", 2, "business_days"),
        ("1 week", 1, "weeks"),
        ("10 weeks", 10, "weeks"),
        ("1 month", 1, "months"),
        ("12 months", 12, "months"),
        ("5 years", 5, "years"),
        ("48 hours", 48, "hours"),
        ("0 days", 0, "days"),
    ],
)
def test_it_parses_a_duration(text, n, unit):
    assert Duration.parse(text) == Duration(n, unit)


@pytest.mark.parametrize(
    "text, words",
    [
        ("1 day", "1 day"),
        ("10 days", "10 days"),
        ("1 business_day", "1 business day"),
        ("2 business_days", "2 business days"),
        ("1 week", "1 week"),
        ("1 month", "1 month"),
        ("1 year", "1 year"),
        ("1 hour", "1 hour"),
        ("0 days", "0 days"),
    ],
)
def test_a_duration_reads_in_words_with_its_unit_agreeing(text, words):
    assert str(Duration.parse(text)) == words


@pytest.mark.parametrize(
    "text",
    [
        "",
        "10",
        "days",
        "ten days",
        "10 fortnights",
        "-3 days",
        "1.5 days",
        "10 days later",
        "10days",
    ],
)
def test_it_rejects_a_string_that_is_not_a_duration(text):
    with pytest.raises(ValueError):
        Duration.parse(text)


# Subtract


def test_it_subtracts_calendar_days_without_rolling(sc_cal):
    # the renewal application of a permit expiring 2026-01-14 is due Saturday 2025-11-15
    assert sc_cal.subtract(d("2026-01-14"), Duration(60, "days")) == d("2025-11-15")


def test_it_subtracts_months_clamped_to_the_month_end(sc_cal):
    assert sc_cal.subtract(d("2025-03-31"), Duration(1, "months")) == d("2025-02-28")


def test_it_subtracts_a_year_from_the_29th_of_february(sc_cal):
    assert sc_cal.subtract(d("2024-02-29"), Duration(1, "years")) == d("2023-02-28")


def test_it_refuses_to_count_business_days_backwards(sc_cal):
    with pytest.raises(ValueError):
        sc_cal.subtract(d("2025-06-30"), Duration(2, "business_days"))
