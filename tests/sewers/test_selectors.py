"""Where a segment's cleaning stands (fogkeeper.sewers.selectors): due on the day its
frequency ends, overdue the day after; never cleaned is late at once; two heavy cleanings in a
row list it for a frequency review."""

from datetime import timedelta

import pytest

from fogkeeper.registry.models import Agency
from fogkeeper.sewers import selectors
from tests.sewers.records import AS_OF, clean, make_segment
from tests.web.people import two_agencies

pytestmark = pytest.mark.django_db


@pytest.fixture
def sc():
    return two_agencies()[0]


def state_of(segment, as_of=AS_OF):
    [state] = selectors.cleaning_states(agency=segment.agency, as_of=as_of, segments=[segment])
    return state


def test_cleaned_90_days_ago_at_90_days_it_is_due_today_not_overdue(sc):
    segment = make_segment(sc, days=90)
    clean(segment, 90)
    state = state_of(segment)
    assert (state.state, state.due_on, state.late) == ("due_soon", AS_OF, False)


def test_cleaned_91_days_ago_at_90_days_it_is_overdue(sc):
    segment = make_segment(sc, days=90)
    clean(segment, 91)
    state = state_of(segment)
    assert (state.state, state.due_on) == ("overdue", AS_OF - timedelta(days=1))
    assert state.late
    assert [s.segment for s in selectors.cleanings_overdue(agency=sc, as_of=AS_OF)] == [segment]


def test_the_due_date_comes_from_the_last_cleaning(sc):
    segment = make_segment(sc, days=90)
    clean(segment, 200)
    clean(segment, 10)
    state = state_of(segment)
    assert (state.state, state.due_on) == ("current", AS_OF + timedelta(days=80))


def test_a_cleaning_after_the_day_asked_does_not_count(sc):
    segment = make_segment(sc, days=90)
    clean(segment, 92)
    clean(segment, 0)
    assert state_of(segment, AS_OF - timedelta(days=1)).state == "overdue"
    assert state_of(segment).state == "current"


def test_a_scheduled_segment_never_cleaned_is_late_and_listed_first(sc):
    overdue = make_segment(sc, "S-1")
    clean(overdue, 120)
    never = make_segment(sc, "S-2")
    make_segment(sc, "S-3", days=None)  # not on a schedule
    state = state_of(never)
    assert (state.state, state.due_on, state.late, state.last) == ("never", None, True, None)
    late = selectors.cleanings_overdue(agency=sc, as_of=AS_OF)
    assert [s.segment.code for s in late] == ["S-2", "S-1"]


def test_a_segment_without_a_frequency_is_not_scheduled(sc):
    assert state_of(make_segment(sc, "S-1", days=None)).state == "unscheduled"
    prone = make_segment(sc, "S-2", days=None)
    prone.prone_to_blockage = True
    assert state_of(prone).state == "no_frequency"


def test_two_heavy_cleanings_in_a_row_list_it_for_review(sc):
    segment = make_segment(sc)
    clean(segment, 60, "heavy")
    clean(segment, 5, "heavy")
    assert state_of(segment).frequency_review
    reviews = selectors.frequency_reviews(agency=sc, as_of=AS_OF)
    assert [s.segment for s in reviews] == [segment]


def test_heavy_then_light_is_not_listed_for_review(sc):
    segment = make_segment(sc)
    clean(segment, 60, "heavy")
    clean(segment, 5, "light")
    assert not state_of(segment).frequency_review
    assert selectors.frequency_reviews(agency=sc, as_of=AS_OF) == []


def test_one_heavy_cleaning_is_not_enough_for_a_review(sc):
    segment = make_segment(sc)
    clean(segment, 5, "heavy")
    assert not state_of(segment).frequency_review


def test_keeping_the_last_two_cleanings_gives_the_same_state(sc):
    segment = make_segment(sc)
    for days_ago, fog in ((300, "light"), (200, "heavy"), (100, "heavy"), (20, "heavy")):
        clean(segment, days_ago, fog)
    [kept] = selectors.cleaning_states(agency=sc, as_of=AS_OF, keep=2)
    assert [c.cleaned_on for c in kept.cleanings] == [
        AS_OF - timedelta(days=20),
        AS_OF - timedelta(days=100),
    ]
    full = state_of(segment)
    assert len(full.cleanings) == 4
    assert (kept.state, kept.due_on, kept.frequency_review) == (
        full.state,
        full.due_on,
        full.frequency_review,
    )


def test_states_are_only_the_agencys(sc):
    mine = make_segment(sc, "S-1")
    other = make_segment(Agency.objects.exclude(pk=sc.pk).get(), "T-1")
    states = selectors.cleaning_states(agency=sc, as_of=AS_OF, segments=[mine, other])
    assert [s.segment for s in states] == [mine]
