"""The case workbench: staff start a case from findings and take each next step from the
case page, by role, each through the services; a refused step shows its cited refusal and
changes nothing."""

from __future__ import annotations

import pytest

from fogkeeper.audit.models import AuditEvent
from fogkeeper.compliance.models import Finding
from fogkeeper.compliance.sweep import sweep_agency
from fogkeeper.enforcement.models import EnforcementAction, EnforcementCase, Letter
from fogkeeper.web import policy
from tests.compliance.records import make_pier_taqueria
from tests.records import d
from tests.web.enforcement import san_clemente_case, town_case
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db

AS_OF = "2025-06-06"


@pytest.fixture
def world():
    sc, town = two_agencies()
    pier = make_pier_taqueria(sc)
    case = san_clemente_case(pier)
    town_case(make_pier_taqueria(town, code="T-0042"))
    sweep_agency(sc, as_of=d(AS_OF))
    sweep_agency(town, as_of=d(AS_OF))
    return {"sc": sc, "town": town, "pier": pier, "case": case}


def signed_in(client, agency, role):
    client.force_login(make_user(f"{role}-{agency.code}", agency, role=role))
    return client


def counts():
    return (EnforcementAction.objects.count(), Letter.objects.count(), AuditEvent.objects.count())


def test_the_case_page_offers_the_next_steps_of_the_sequence_for_the_role(client, world):
    signed_in(client, world["sc"], "manager")
    html = client.get(f"/cases/FSE-0042/EC-7/?as_of={AS_OF}").content.decode()
    assert "Next steps" in html
    # the manager's decision MD-1 may be taken to the City Council by its deadline
    assert "Appeal MD-1 to the City Council" in html
    assert "/cases/FSE-0042/EC-7/act/notice_of_noncompliance/" in html
    client.logout()
    signed_in(client, world["sc"], "auditor")
    html = client.get(f"/cases/FSE-0042/EC-7/?as_of={AS_OF}").content.decode()
    assert "No step is yours to take on this case today." in html


def test_an_inspector_issues_a_notice_with_its_letter_and_the_page_shows_the_new_deadline(
    client, world
):
    signed_in(client, world["sc"], "inspector")
    url = f"/cases/FSE-0042/EC-7/act/notice_of_noncompliance/?as_of={AS_OF}"
    form = client.get(url)
    assert form.status_code == 200
    assert form.context["form"].initial.get("code") or form.context["form"]["code"].initial
    # the correct-by date defaults to the pack's correction period (30 days)
    assert str(form.context["form"]["correct_by"].initial) == "2025-07-06"
    before = counts()
    response = client.post(url, {
        "code": "NNC-9", "delivered_on": "2025-06-06", "correct_by": "2025-07-06",
        "corrective_action": "Pump out the trap GT-2 and keep its manifest.",
        "violation": "V-1", "delivery": "mail", "certified_mail_number": "7019 1",
    }, follow=True)  # fmt: skip
    assert response.status_code == 200
    notice = EnforcementAction.objects.get(code="NNC-9")
    assert notice.fields["corrective_action"].startswith("Pump out")
    assert notice.taken_by.username == "inspector-san-clemente"
    after = counts()
    assert after[0] == before[0] + 1 and after[1] == before[1] + 1 and after[2] > before[2]
    html = response.content.decode()
    assert "Notice of Non-Compliance NNC-9 taken" in html
    assert "appeal by 2025-06-16" in html  # 10 days, 13.30.080(D)(1)


def test_a_refused_step_shows_its_cited_refusal_and_changes_nothing(client, world):
    signed_in(client, world["sc"], "manager")
    before = counts()
    response = client.post(f"/cases/FSE-0042/EC-7/act/penalty_order/?as_of={AS_OF}", {
        "code": "PO-1", "issued_by": "manager", "issued_on": "2025-06-06",
        "served_on": "2025-06-06", "amount": "999999", "class": "records", "days": "2",
        "delivery": "personal",
    })  # fmt: skip
    assert response.status_code == 400
    html = response.content.decode()
    assert "13.30.080(I)(4)(c)" in html and "may not exceed" in html
    assert "Nothing was recorded." in html
    assert counts() == before


def test_a_hearing_outside_its_window_is_refused_with_the_window_shown(client, world):
    signed_in(client, world["sc"], "manager")
    client.post(f"/cases/FSE-0042/EC-7/act/revocation_notice/?as_of={AS_OF}", {
        "code": "RN-1", "mailed_on": "2025-06-06", "delivery": "personal",
    })  # fmt: skip
    url = "/cases/FSE-0042/EC-7/hearing/?refers_to=RN-1"
    page = client.get(url).content.decode()
    assert "not before 2025-06-16" in page  # ten days' notice, 13.30.080(G)(2)
    before = counts()
    response = client.post(url, {
        "code": "H-2", "hearing_on": "2025-06-10", "place": "City Hall", "noticed_on": "2025-06-06",
        "delivery": "personal",
    })  # fmt: skip
    assert response.status_code == 400
    assert "the hearing may not be held before 2025-06-16" in response.content.decode()
    assert counts() == before


@pytest.mark.parametrize("agency", ["sc", "town"])
def test_every_action_of_the_pack_is_offered_as_a_form_to_the_roles_that_take_it(
    client, world, agency
):
    fse, case = ("FSE-0042", "EC-7") if agency == "sc" else ("T-0042", "EC-1")
    pack = world[agency].get_pack()
    for role in ("manager", "inspector", "clerk", "auditor"):
        client.force_login(make_user(f"{role}-{agency}", world[agency], role=role))
        for type in pack.actions:
            if type == "invoice":
                continue
            response = client.get(f"/cases/{fse}/{case}/act/{type}/")
            may = policy.WRITES[role] >= {policy.action_kind(type)}
            assert response.status_code == (200 if may else 403), (role, type)
        client.logout()


def test_another_agencys_case_answers_404_for_every_step(client, world):
    signed_in(client, world["town"], "manager")
    for url in ("act/notice_of_noncompliance/", "hearing/?refers_to=SN-1", "appeal/?refers_to=MD-1",
                "fact/?refers_to=NNC-1&field=corrected_on", "judgment/"):  # fmt: skip
        assert client.get(f"/cases/FSE-0042/EC-7/{url}").status_code == 404
        assert client.post(f"/cases/FSE-0042/EC-7/{url}", {}).status_code == 404


def test_an_appeal_after_its_deadline_is_refused_citing_it(client, world):
    signed_in(client, world["sc"], "clerk")
    before = counts()
    response = client.post("/cases/FSE-0042/EC-7/appeal/?refers_to=MD-1&to=council", {
        "code": "AP-1", "filed_on": "2025-07-30",
    })  # fmt: skip
    assert response.status_code == 400
    assert "13.30.080(D)(2)" in response.content.decode()
    assert counts() == before


def test_staff_open_a_case_from_open_findings_and_add_findings_to_it(client, world):
    signed_in(client, world["sc"], "inspector")
    findings = list(Finding.objects.filter(establishment=world["pier"], open=True)[:2])
    assert findings
    response = client.post(
        f"/establishments/FSE-0042/cases/new/?as_of={AS_OF}",
        {"findings": [str(findings[0].pk)], "case": "", "opened_on": AS_OF},
    )
    case = EnforcementCase.objects.exclude(code="EC-7").get(establishment=world["pier"])
    assert response.status_code == 302 and response.headers["Location"].endswith(f"/{case.code}/")
    assert list(case.violations.values_list("rule", flat=True)) == [findings[0].rule]
    again = client.post(
        "/establishments/FSE-0042/cases/new/",
        {"findings": [str(findings[0].pk)], "case": case.code, "opened_on": AS_OF},
    )
    assert again.status_code == 400
    assert f"is already in {case.code}" in again.content.decode()
    assert case.violations.count() == 1


def test_a_clerk_may_not_open_a_case(client, world):
    signed_in(client, world["sc"], "clerk")
    assert client.get("/establishments/FSE-0042/cases/new/").status_code == 403
