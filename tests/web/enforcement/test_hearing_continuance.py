"""The hearing page of the case workbench for a continued Town hearing: the continuance's
own link answers, and a further continuance is taken or refused with its section, the Town
allowing 60 days in total from the first hearing (10.02.260(B), RULES 11.5)."""

from __future__ import annotations

import pytest

from fogkeeper.enforcement.models import EnforcementAction
from fogkeeper.enforcement.services import (
    action_take,
    appeal_file,
    hearing_conclude,
    hearing_schedule,
)
from tests.enforcement.steps import counts, d, open_case
from tests.web.people import make_user

pytestmark = pytest.mark.django_db

CASE = "/cases/FSE-1/EC-1/"
AS_OF = "?as_of=2025-07-01"


@pytest.fixture
def continued(client):
    """Notice SN-1 mailed May 1, its hearing H-1 on June 10, continued (H-2) to July 10."""
    fse, case, _ = open_case("town-10-02")
    notice = action_take(
        case=case, type="suspension_notice", code="SN-1", fields={"mailed_on": d("2025-05-01")}
    )
    first = hearing_schedule(
        notice=notice, code="H-1", hearing_on=d("2025-06-10"), noticed_on=d("2025-05-01")
    )
    hearing_schedule(
        notice=notice,
        code="H-2",
        hearing_on=d("2025-07-10"),
        noticed_on=d("2025-06-10"),
        continued_from=first,
    )
    client.force_login(make_user("maria", fse.agency, role="manager"))
    return notice


def continue_h2(client, day: str):
    return client.post(
        f"{CASE}hearing/{AS_OF}&refers_to=H-2",
        {
            "code": "H-3",
            "hearing_on": day,
            "place": "Town Hall",
            "noticed_on": "2025-07-01",
            "delivery": "personal",
        },
    )


def test_it_links_the_continued_hearing_to_its_own_continuance(client, continued):
    html = client.get(CASE + AS_OF).content.decode()
    assert "Continue the hearing H-2 to a later date" in html
    assert "/cases/FSE-1/EC-1/hearing/?refers_to=H-2" in html


def test_it_answers_the_continued_hearings_page_with_its_limit(client, continued):
    response = client.get(f"{CASE}hearing/{AS_OF}&refers_to=H-2")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Continue the hearing H-2" in html
    assert "first held on 2025-06-10" in html and "60 days" in html and "10.02.260(B)" in html


def test_it_continues_the_continued_hearing_within_60_days_of_the_first(client, continued):
    response = continue_h2(client, "2025-08-09")
    assert response.status_code == 302
    third = EnforcementAction.objects.get(code="H-3")
    assert third.fields["continued_from"] == "H-2"
    assert continued.effective_fields()["continued_to"] == "2025-08-09"


def test_it_refuses_a_continuance_past_60_days_citing_the_section(client, continued):
    before = counts()
    response = continue_h2(client, "2025-08-10")
    assert response.status_code == 400
    html = response.content.decode()
    assert "10.02.260(B)" in html and "beyond the 60 days" in html
    assert counts() == before


def test_it_says_no_hearing_is_held_on_an_appeal(client, continued):
    hearing_conclude(
        hearing=EnforcementAction.objects.get(code="H-2"), concluded_on=d("2025-07-10")
    )
    decision = action_take(
        case=continued.case,
        type="hearing_decision",
        code="HD-1",
        refers_to=continued,
        fields={"noticed_on": d("2025-07-11")},
    )
    appeal_file(appealed=decision, code="AP-1", filed_on=d("2025-07-15"), to="council")
    response = client.get(f"{CASE}hearing/?as_of=2025-07-16&refers_to=AP-1")
    assert response.status_code == 200
    assert "Out of sequence: no hearing is held on AP-1" in response.content.decode()
