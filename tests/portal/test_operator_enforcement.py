"""The operator's enforcement page (/portal/operator/<code>/enforcement/): what was sent to its
establishment, the correct-by date and the fine accruing, hearings, decisions and appeal
deadlines, its invoices and balance, what to do next; and its answers, which staff read next
to the action answered (enforcement.selectors.answers_by_action, web/_answers.html)."""

import re
from datetime import timedelta
from decimal import Decimal

import pytest
from django.template.loader import render_to_string

from fogkeeper.audit.models import AuditEvent
from fogkeeper.billing.services import invoice_issue, payment_record
from fogkeeper.compliance.models import ComplianceStatus
from fogkeeper.enforcement.models import EnforcementCase, NoticeAnswer
from fogkeeper.enforcement.selectors import answers_by_action
from fogkeeper.enforcement.services import action_take, case_open, notice_answer, violation_add
from fogkeeper.inspections.models import Inspection
from fogkeeper.registry.models import Operator
from tests.compliance.records import AS_OF
from tests.pages import queries
from tests.records import d
from tests.web.enforcement import san_clemente_case

from .conftest import PIER, member, notice

pytestmark = pytest.mark.django_db

URL = f"{PIER}enforcement/"


def late_notice(fse, code: str = "NNC-1"):
    """A notice delivered 2025-06-02 to correct by 2025-06-16, not corrected by 2025-06-30."""
    case = case_open(establishment=fse, code=f"EC-{code}", opened_on=d("2025-06-01"))
    return action_take(
        case=case,
        type="notice_of_noncompliance",
        code=code,
        fields={
            "delivered_on": d("2025-06-02"),
            "correct_by": d("2025-06-16"),
            "corrective_action": "Pump out GI-1.\nKeep the manifest.",
        },
    )


def html_of(client, url: str = URL) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_it_shows_the_notice_with_its_correct_by_date_and_letter(as_olive, world, letters):
    late_notice(world.pier)
    html = html_of(as_olive)
    assert "Notice of Non-Compliance NNC-1" in html
    assert "Sent 2025-06-02 under 13.30.080(D)(1), (E)." in html
    assert "Correct by 2025-06-16" in html and "Not corrected: past due" in html
    assert "Pump out GI-1.<br>Keep the manifest." in html
    assert "Letter NNC-1 (PDF)" in html


def test_it_shows_the_fine_accruing_from_the_day_after_the_correct_by_date(
    as_olive, world, letters
):
    late_notice(world.pier)
    html = html_of(as_olive)
    assert "$600.00 a day accrues from 2025-06-17 until the violation is corrected" in html
    assert "14 days through 2025-06-30, $8,400.00 to date." in html
    assert "13.30.080(E)(3)" in html


def test_it_says_the_fine_ran_until_the_correction(as_olive, world, letters):
    from fogkeeper.enforcement.services import action_fact_record

    nnc = late_notice(world.pier)
    action_fact_record(action=nnc, field="corrected_on", value=d("2025-06-20"))
    html = html_of(as_olive)
    assert "Corrected on 2025-06-20" in html
    assert "ran from 2025-06-17 through 2025-06-19: 3 days, $1,800.00." in html
    assert "Correct the violation" not in html


def test_it_tells_what_to_do_next_soonest_first(as_olive, world, letters):
    notice(world.pier)  # delivered 2025-06-02, to correct by 2025-07-02
    html = html_of(as_olive)
    steps = html[html.index('id="next"') : html.index('id="actions"')]
    assert "Correct the violation of Notice of Non-Compliance NNC-1 by 2025-07-02." in steps


def test_it_shows_the_hearing_the_decision_and_the_appeal_deadline(as_olive, world, letters):
    san_clemente_case(world.pier)
    html = html_of(as_olive)
    assert "Notice of hearing H-1" in html
    assert "on the Notice of suspension of the Discharge Permit SN-1." in html
    assert "Hearing 2025-06-02</strong>, before the Utilities Manager." in html
    assert "The hearing concluded on 2025-06-02." in html
    assert "Decision of the Utilities Manager MD-1" in html
    assert "You may appeal to the City Council by" in html
    assert "You may appeal to the Utilities Manager by" in html  # the notice's, passed
    assert "Corrected on 2025-04-15" in html


def test_it_lists_the_invoices_with_lines_payments_and_the_balance(as_olive, world):
    invoice = invoice_issue(
        establishment=world.pier,
        code="INV-7",
        kind="fee",
        noticed_on=d("2025-05-01"),
        description="Annual permit fee",
        lines=[
            {"description": "Discharge Permit fee", "amount": Decimal("250.00")},
            {"description": "Reinspection", "amount": Decimal("100.00")},
        ],
    )
    payment_record(
        invoice=invoice,
        paid_on=d("2025-05-20"),
        amount=Decimal("200.00"),
        method="check",
        reference="1042",
    )
    html = html_of(as_olive)
    assert "Invoice INV-7: Annual permit fee" in html
    assert "Discharge Permit fee" in html and "$250.00" in html and "$100.00" in html
    assert "Payment (Check 1042)" in html and "$200.00" in html
    assert "Balance due: <strong>$150.00</strong>" in html
    assert "Pay $150.00 still owed on invoice INV-7 (past due)." in html  # due 2025-06-02


def test_it_warns_of_the_towns_delinquency_and_the_business_license(client, world):
    operator = Operator.objects.get(agency=world.town, name="Mesa Foods")
    client.force_login(member("tom", world.town, "operator", operator=operator))
    invoice_issue(
        establishment=world.town_fse,
        code="T-INV-1",
        kind="fee",
        noticed_on=d("2025-03-03"),
        lines=[{"description": "FOG Permit fee", "amount": Decimal("300.00")}],
    )
    html = html_of(client, "/portal/operator/T-1/enforcement/")
    assert 'id="delinquent"' in html and "T-INV-1" in html
    assert "business license is not issued or renewed" in html
    assert "(past due)" in html


def test_it_shows_the_operators_answers_under_the_action_escaped(as_olive, olive, world, letters):
    nnc = notice(world.pier)
    notice_answer(
        action=nnc,
        text="<b>Pumped</b> on 2025-06-28.\nManifest attached.",
        answered_on=d("2025-06-29"),
        actor=olive,
    )
    html = html_of(as_olive)
    answers = html[html.index('id="answers-NNC-1"') :]
    assert "2025-06-29: &lt;b&gt;Pumped&lt;/b&gt; on 2025-06-28.<br>Manifest attached." in answers
    assert "Answer NNC-1" in answers


def test_it_comes_back_to_the_action_after_an_answer(as_olive, world, letters):
    notice(world.pier)
    response = as_olive.post(f"{PIER}notices/NNC-1/answer/", {"text": "Booked a pump-out."})
    assert response.url == f"{URL}#action-NNC-1"
    assert "2025-06-30: Booked a pump-out." in html_of(as_olive)


def test_it_hides_other_establishments_and_staff_records(as_olive, world, letters):
    late_notice(world.pier)
    notice(world.grill, code="NNC-9")
    Inspection.objects.filter(establishment=world.pier).update(notes="Manager evasive")
    html = html_of(as_olive)
    assert "NNC-9" not in html and "Harbor Grill" not in html
    assert "Manager evasive" not in html and "audit" not in html.lower()


def test_it_answers_404_for_another_establishment_or_agency(as_olive, world, letters):
    notice(world.grill, code="NNC-9")
    assert as_olive.get("/portal/operator/FSE-2/enforcement/").status_code == 404
    assert as_olive.get("/portal/operator/T-1/enforcement/").status_code == 404


def test_it_refuses_a_post_and_changes_nothing(as_olive, world, letters):
    notice(world.pier)
    answers, events = NoticeAnswer.objects.count(), AuditEvent.objects.count()
    assert as_olive.post(URL, {"text": "x"}).status_code == 405
    assert (NoticeAnswer.objects.count(), AuditEvent.objects.count()) == (answers, events)


def test_it_links_the_page_from_the_establishment_page(as_olive, world, letters):
    notice(world.pier)
    html = html_of(as_olive, PIER)
    assert 'href="/portal/operator/FSE-0042/enforcement/"' in html
    assert "1 letter sent to you." in html


# -- what staff read of the answers ---------------------------------------------------------


def test_answers_by_action_groups_a_cases_answers_by_action_in_filing_order(world, letters):
    nnc = notice(world.pier)
    other = notice(world.pier, code="NNC-2")
    first = notice_answer(action=nnc, text="First.", answered_on=d("2025-06-10"))
    second = notice_answer(action=nnc, text="Second.", answered_on=d("2025-06-12"))
    notice_answer(action=other, text="Elsewhere.", answered_on=d("2025-06-12"))
    assert answers_by_action(EnforcementCase.objects.get(code="EC-NNC-1")) == {
        nnc.pk: [first, second]
    }


def test_the_staff_partial_says_who_answered_when_with_line_breaks_escaped(world, olive, letters):
    olive.first_name, olive.last_name = "Olive", "Ng"
    olive.save()
    nnc = notice(world.pier)
    notice_answer(
        action=nnc, text="Done <now>.\nSee manifest.", answered_on=d("2025-06-20"), actor=olive
    )
    html = render_to_string("web/_answers.html", {"answers": answers_by_action(nnc.case)[nnc.pk]})
    assert "<strong>2025-06-20</strong>, by Olive Ng:" in html
    assert "Done &lt;now&gt;.<br>See manifest." in html


def test_the_staff_partial_renders_nothing_without_answers():
    assert render_to_string("web/_answers.html", {"answers": []}).strip() == ""


def test_it_asks_to_attend_a_hearing_ahead_at_its_place(as_olive, world, letters):
    case = case_open(establishment=world.pier, code="EC-9", opened_on=d("2025-06-20"))
    action_take(
        case=case,
        type="suspension_notice",
        code="SN-2",
        fields={
            "mailed_on": d("2025-06-20"),
            "hearing_on": d("2025-07-10"),
            "hearing_place": "City Hall, 910 Calle Negocio",
        },
        delivery="mail",
        certified_mail_number="7019 1",
    )
    html = html_of(as_olive)
    assert "Hearing 2025-07-10</strong>, City Hall, 910 Calle Negocio, before the" in html
    steps = html[html.index('id="next"') : html.index('id="actions"')]
    assert "Attend the hearing on 2025-07-10, City Hall, 910 Calle Negocio." in steps


def test_it_offers_the_appeal_while_open_and_shows_the_appeal_once_filed(as_olive, world, letters):
    from fogkeeper.enforcement.services import appeal_file

    case = case_open(establishment=world.pier, code="EC-3", opened_on=d("2025-06-20"))
    nnc = action_take(
        case=case,
        type="notice_of_noncompliance",
        code="NNC-3",
        fields={"delivered_on": d("2025-06-25"), "correct_by": d("2025-07-25")},
    )
    offer = "You may appeal to the Utilities Manager by 2025-07-07 if you disagree with"
    assert offer in html_of(as_olive)
    appeal_file(appealed=nnc, code="AP-1", filed_on=d("2025-06-28"), to="manager")
    html = html_of(as_olive)
    assert offer not in html
    assert "You appealed to the Utilities Manager on 2025-06-28." in html


def late_pump_out_notice(fse):
    """GT-2, to be pumped out every 30 days from its installation on 2020-05-01, has had no
    full pump-out by a licensed hauler since (make_pier_taqueria): due 2020-05-31. A notice for
    it asked for it by 2025-06-16, and $600 a day accrues from 2025-06-17."""
    case = case_open(establishment=fse, code="EC-GT", opened_on=d("2025-06-01"))
    violation_add(
        case=case, code="V-1", rule="gcd.service_overdue", subject="GT-2", since=d("2025-05-02")
    )
    return action_take(
        case=case,
        type="notice_of_noncompliance",
        code="NNC-GT",
        fields={"delivered_on": d("2025-06-02"), "correct_by": d("2025-06-16")},
    )


def test_what_to_do_next_lists_what_is_overdue_first_with_its_fine_and_citation(
    as_olive, world, letters
):
    late_pump_out_notice(world.pier)
    html = html_of(as_olive)
    steps = html[html.index('id="next"') : html.index('id="actions"')]
    first = steps[steps.index("<li") : steps.index("</li>")]
    assert "Overdue" in first
    assert "Pump-out of GT-2: due by 2020-05-31, 1856 days overdue." in first
    assert "A fine of $8,400.00 has accrued on it to date ($600.00 a day from 2025-06-17 " in first
    assert "through 2025-06-30, 13.30.080(E)(3))." in first
    assert "(§ 13.30.050(H)(1)(b))" in first
    assert steps.index("Pump-out of GT-2") < steps.index("Correct the violation of")
    assert "gcd." not in steps


def test_each_invoice_is_due_has_its_pdf_and_says_how_to_pay(as_olive, world):
    invoice_issue(
        establishment=world.pier,
        code="INV-8",
        kind="fee",
        noticed_on=d("2025-05-01"),
        lines=[{"description": "Reinspection", "amount": Decimal("100.00")}],
    )
    html = html_of(as_olive)
    assert "due by 2025-06-02" in html  # 30 days, the 31st a Saturday
    assert "Download invoice INV-8 (PDF)" in html
    assert "How to pay" in html and "Make checks payable to <strong>City of San Clemente" in html
    response = as_olive.get(f"{PIER}invoices/INV-8.pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert b"".join([response.content]).startswith(b"%PDF")


def test_another_establishments_invoice_pdf_is_not_there(as_olive, world):
    invoice_issue(
        establishment=world.grill,
        code="INV-9",
        kind="fee",
        noticed_on=d("2025-05-01"),
        lines=[{"description": "Reinspection", "amount": Decimal("100.00")}],
    )
    assert as_olive.get(f"{PIER}invoices/INV-9.pdf").status_code == 404
    assert as_olive.get("/portal/operator/FSE-2/invoices/INV-9.pdf").status_code == 404


def test_the_page_of_the_day_of_the_last_evaluation_reads_it_and_says_the_same(
    as_olive, world, letters
):
    """On the day of the establishment's stored evaluation (the sweep's of today, kept current
    by each write), the page reads the deadlines, fines and schedule it stored rather than
    building the case file again: the same page, in fewer queries."""
    late_pump_out_notice(world.pier)
    status = ComplianceStatus.objects.get(establishment=world.pier)
    assert status.as_of == AS_OF  # the notice's re-evaluation stored it, of today
    stored, stored_queries = _tokenless(html_of(as_olive)), queries(as_olive, URL)
    ComplianceStatus.objects.filter(pk=status.pk).update(as_of=AS_OF - timedelta(days=1))
    afresh, afresh_queries = _tokenless(html_of(as_olive)), queries(as_olive, URL)
    assert stored == afresh and "A fine of $8,400.00 has accrued" in stored
    assert stored_queries <= afresh_queries - 15


def _tokenless(html: str) -> str:
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)
