"""What the checks read from the Context: the values it works out once."""

from datetime import date

from fogkeeper.rules import parse_case
from fogkeeper.rules.calendar import Duration
from fogkeeper.rules.context import Context, _days
from tests.rules.builders import sc_case


def context(as_of: str, **changes) -> Context:
    return Context(parse_case(sc_case(**changes)), date.fromisoformat(as_of))


def test_the_latest_pickup_is_the_last_one_by_as_of_whatever_the_order_of_the_list():
    pickups = [{"date": d} for d in ("2025-05-01", "2025-07-01", "2025-03-01", "2025-06-15")]
    ctx = context("2025-06-30", yellow_grease_pickups=pickups)
    assert ctx.last_pickup() == date(2025, 6, 15)


def test_there_is_no_latest_pickup_before_the_first_one():
    ctx = context("2025-06-30", yellow_grease_pickups=[{"date": "2025-07-01"}])
    assert ctx.last_pickup() is None


def test_a_frequency_of_whole_days_is_made_once_for_each_number():
    assert _days(30) == Duration(30, "days")
    assert _days(30) is _days(30)
    assert _days(60) == Duration(60, "days")
