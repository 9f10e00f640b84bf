"""A hearing on a suspension or revocation notice may be continued: the Town allows 60 days
in total from the first hearing (10.02.260(B), RULES 11.5), San Clemente sets no limit. The
continuance is recorded on the notice as `continued_to`."""

import pytest

from fogkeeper.enforcement.services import action_take, hearing_schedule, hearing_window

from .steps import d, findings, open_case, refusal

pytestmark = pytest.mark.django_db


def noticed_and_heard(pack, mailed_on, first_on):
    fse, case, _ = open_case(pack)
    notice = action_take(
        case=case, type="suspension_notice", code="SN-1", fields={"mailed_on": d(mailed_on)}
    )
    first = hearing_schedule(
        notice=notice, code="H-1", hearing_on=d(first_on), noticed_on=d(mailed_on)
    )
    return fse, notice, first


def continue_to(notice, first, day, code="H-2"):
    return dict(
        notice=notice,
        code=code,
        hearing_on=d(day),
        noticed_on=d(first.fields["hearing_on"]),
        continued_from=first,
    )


def test_the_town_accepts_a_continuance_to_60_days_after_the_first_hearing():
    fse, notice, first = noticed_and_heard("town-10-02", "2025-05-01", "2025-06-10")

    hearing_schedule(**continue_to(notice, first, "2025-08-09"))

    fields = notice.effective_fields()
    assert (fields["hearing_on"], fields["continued_to"]) == ("2025-06-10", "2025-08-09")
    assert findings(fse, "2025-08-09", "enforcement.hearing_date_invalid") == []


def test_the_town_refuses_a_continuance_to_61_days_after_the_first_hearing():
    _, notice, first = noticed_and_heard("town-10-02", "2025-05-01", "2025-06-10")

    error = refusal(hearing_schedule, **continue_to(notice, first, "2025-08-10"))

    assert list(error.message_dict) == ["hearing_on"]
    assert "10.02.260(B)" in error.message_dict["hearing_on"][0]


def test_the_town_accepts_a_continuance_past_45_days_after_the_notice():
    _, notice, first = noticed_and_heard("town-10-02", "2025-05-01", "2025-06-10")

    hearing_schedule(**continue_to(notice, first, "2025-06-16"))

    assert notice.effective_fields()["continued_to"] == "2025-06-16"


def test_the_town_counts_60_days_from_the_first_hearing_across_continuances():
    _, notice, first = noticed_and_heard("town-10-02", "2025-05-01", "2025-06-10")
    second = hearing_schedule(**continue_to(notice, first, "2025-07-10"))

    error = refusal(hearing_schedule, **continue_to(notice, second, "2025-08-10", code="H-3"))

    assert "10.02.260(B)" in error.message_dict["hearing_on"][0]


def test_a_continuance_sets_a_later_date_than_the_hearing_it_continues():
    _, notice, first = noticed_and_heard("town-10-02", "2025-05-01", "2025-06-10")

    error = refusal(hearing_schedule, **continue_to(notice, first, "2025-06-10"))

    assert "10.02.260(B)" in error.message_dict["hearing_on"][0]


def test_sc_sets_no_limit_on_continuances():
    fse, notice, first = noticed_and_heard("san-clemente", "2025-05-01", "2025-05-20")

    hearing_schedule(**continue_to(notice, first, "2025-12-01"))

    assert notice.effective_fields()["continued_to"] == "2025-12-01"
    assert findings(fse, "2025-12-01", "enforcement.hearing_date_invalid") == []


def test_a_continued_notice_keeps_the_window_of_its_first_hearing():
    _, notice, first = noticed_and_heard("town-10-02", "2025-05-01", "2025-06-10")
    window = hearing_window(notice)
    hearing_schedule(**continue_to(notice, first, "2025-07-10"))

    assert hearing_window(notice) == window
    assert [w.kind for w in window] == ["earliest", "deadline"]
