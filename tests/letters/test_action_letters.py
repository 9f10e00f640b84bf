"""Letters of actions taken through the services: each states what its ordinance section
requires (violations with citations, dates and evidence; corrective action, correct-by date
and fine; hearing date, place and rights; decision and findings; appeal body and deadline;
finality and judicial review; lien warning), signed by the person who took the action as the
officer at the level the pack gives it, whose title the text names as acting (RULES.md 12.6;
13.30.080(D)-(I), 13.30.090; 10.02.260, 10.02.270, 10.02.330)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from fogkeeper.enforcement.letters import PREVIEW_MARK, preview_letter, render_action_letter
from fogkeeper.enforcement.models import EnforcementAction, Letter
from fogkeeper.enforcement.services import (
    action_deadlines,
    action_take,
    appeal_file,
    case_open,
    hearing_conclude,
    hearing_schedule,
    violation_add,
)
from tests.enforcement.steps import emergency_heard, heard_complaint
from tests.records import d, make_agency, make_device, make_establishment, make_inspection
from tests.web.people import make_user

from .test_letters import text_of

pytestmark = pytest.mark.django_db

ROOM = "City Hall, Council Chambers, 100 Avenida Presidio"


def person(username, agency, role, first, last):
    user = make_user(username, agency, role=role)
    user.first_name, user.last_name = first, last
    user.save()
    return user


def opened(pack="san-clemente"):
    """A case about trap GT-2, due for a pump-out every 30 days since it was installed on
    2025-01-01 and never pumped out: overdue since 2025-02-01."""
    agency = make_agency(pack)
    fse = make_establishment(agency, code="FSE-1")
    make_device(fse, "GT-2", "trap", installed_on="2025-01-01", service_frequency_days=30)
    case = case_open(establishment=fse, code="EC-1", opened_on=d("2025-02-20"))
    violation = violation_add(
        case=case, code="V-1", rule="gcd.service_overdue", subject="GT-2", since=d("2025-02-01")
    )
    return agency, case, violation


def inspected(pack, item):
    """A case about checklist item `item`, answered not compliant at inspection I-1 of
    2025-02-20 (RULES.md 8)."""
    agency = make_agency(pack)
    fse = make_establishment(agency, code="FSE-1")
    make_inspection(fse, "I-1", "2025-02-20", answers=[(item, False)])
    case = case_open(establishment=fse, code="EC-1", opened_on=d("2025-02-25"))
    violation = violation_add(
        case=case, code="V-1", rule=item, subject="FSE-1", since=d("2025-02-20")
    )
    return agency, case, violation


def letter_of(action) -> str:
    return text_of(bytes(Letter.objects.get(action=action).pdf))


def notice(case, violation, actor, **fields):
    return action_take(
        case=case,
        type="notice_of_noncompliance",
        code="NNC-1",
        violation=violation,
        fields={"delivered_on": d("2025-03-03"), "correct_by": d("2025-03-31"), **fields},
        delivery="personal",
        actor=actor,
    )


def suspension(case, actor, type="suspension_notice", **fields):
    return action_take(
        case=case,
        type=type,
        code="SN-1",
        actor=actor,
        fields={"mailed_on": d("2025-04-01"), **fields},
        delivery="mail",
        certified_mail_number="7019-1",
    )


def heard(notice_, actor, on="2025-04-21"):
    hearing = hearing_schedule(
        notice=notice_,
        code="H-1",
        hearing_on=d(on),
        noticed_on=notice_.taken_on,
        place=ROOM,
        delivery="mail",
        certified_mail_number="7019-2",
        actor=actor,
    )
    hearing_conclude(hearing=hearing, concluded_on=d(on))
    return hearing


# San Clemente


def test_the_notice_of_noncompliance_names_each_violation_with_its_evidence():
    agency, case, violation = opened()
    inspector = person("ines", agency, "inspector", "Ines", "Ortega")

    text = letter_of(notice(case, violation, inspector))

    assert "Conditions of noncompliance" in text
    assert "Pump-out overdue (V-1) GT-2 February 1, 2025" in text
    assert "13.30.050(H)(1)(b)" in text  # the rule's citation
    assert "Found: GT-2 was due for a full pump-out on 2025-01-31 (every 30 days)." in text
    assert "Last full pump-out January 1, 2025" in text


def test_the_notice_names_a_checklist_violation_by_what_was_found_not_by_the_question():
    agency, case, violation = inspected("san-clemente", "records.service_log")
    inspector = person("ines", agency, "inspector", "Ines", "Ortega")

    text = letter_of(notice(case, violation, inspector))

    assert (
        "No 12-month pump-out log was kept on site, or its manifests and invoices were not "
        "kept for three years (V-1) FSE-1 February 20, 2025 13.30.050(H)(1)(c)"
    ) in text
    assert "Evidence: Inspection I-1" in text
    assert "Is a 12-month log" not in text and "Found:" not in text


def test_the_notice_states_the_corrective_action_correct_by_date_and_fine():
    agency, case, violation = opened()
    inspector = person("ines", agency, "inspector", "Ines", "Ortega")

    text = letter_of(
        notice(case, violation, inspector, corrective_action="Pump out GT-2 and keep the manifest.")
    )

    assert "Corrective action required: Pump out GT-2 and keep the manifest." in text
    assert "no later than March 31, 2025" in text
    assert "$600 per day" in text
    assert "accrues from April 1, 2025, the day after March 31, 2025" in text
    assert "13.30.080(E)(3)" in text


def test_the_notice_names_the_appeal_to_the_manager_and_its_deadline():
    agency, case, violation = opened()

    text = letter_of(notice(case, violation, person("ines", agency, "inspector", "I", "O")))

    assert "appealed to the Utilities Manager" in text
    assert "no later than March 13, 2025" in text
    assert "13.30.080(D)(1)" in text


def test_the_notice_is_signed_by_the_inspector_who_sent_it():
    agency, case, violation = opened()
    inspector = person("ines", agency, "inspector", "Ines", "Ortega")

    text = letter_of(notice(case, violation, inspector))

    assert "Ines Ortega Authorized Inspector Utilities Department City of San Clemente" in text


def test_a_signer_without_a_name_signs_with_the_username():
    agency, case, violation = opened()

    text = letter_of(notice(case, violation, make_user("ines", agency, role="inspector")))

    assert "ines Authorized Inspector" in text


def test_a_notice_sent_by_certified_mail_states_its_number():
    agency, case, violation = opened()
    notice_ = action_take(
        case=case,
        type="notice_of_noncompliance",
        code="NNC-1",
        violation=violation,
        fields={"delivered_on": d("2025-03-03"), "correct_by": d("2025-03-31")},
        delivery="mail",
        certified_mail_number="7019 0700 0000 4412 0044",
    )

    assert "By certified mail, No. 7019 0700 0000 4412 0044" in letter_of(notice_)


def test_a_notice_delivered_in_person_names_no_certified_mail():
    agency, case, violation = opened()

    text = letter_of(notice(case, violation, person("ines", agency, "inspector", "I", "O")))

    assert "By personal delivery" in text
    assert "certified mail" not in text


def test_the_notice_of_hearing_states_the_certified_mail_number():
    agency, case, _ = opened()
    notice_ = suspension(case, person("mara", agency, "manager", "M", "L"))

    hearing = hearing_schedule(
        notice=notice_,
        code="H-1",
        hearing_on=d("2025-04-21"),
        noticed_on=d("2025-04-01"),
        place=ROOM,
        delivery="mail",
        certified_mail_number="7019-2",
    )

    assert "By certified mail, No. 7019-2" in letter_of(hearing)


def test_the_suspension_notice_states_its_reasons_and_the_hearing_rights():
    agency, case, _ = opened()
    manager = person("mara", agency, "manager", "Mara", "Lind")

    text = letter_of(suspension(case, manager, reasons="GT-2 not pumped out since January."))

    assert "Reasons for the proposed suspension GT-2 not pumped out since January." in text
    assert "Pump-out overdue (V-1)" in text
    assert "to be heard, to present written or oral evidence, and to be represented" in text
    assert "not be held before April 11, 2025" in text
    assert "Mara Lind Utilities Manager" in text


def test_the_notice_of_hearing_gives_its_date_place_and_rights():
    agency, case, _ = opened()
    clerk = person("cleo", agency, "clerk", "Cleo", "Park")
    notice_ = suspension(case, person("mara", agency, "manager", "M", "L"))

    text = letter_of(
        hearing_schedule(
            notice=notice_,
            code="H-1",
            hearing_on=d("2025-04-21"),
            noticed_on=d("2025-04-01"),
            place=ROOM,
            actor=clerk,
        )
    )

    assert "Notice of hearing" in text
    assert "Notice of suspension of the Discharge Permit (SN-1)" in text
    assert "Date April 21, 2025" in text
    assert f"Place {ROOM}" in text
    assert "entitled to be heard, to present written or oral evidence, and to be" in text
    assert "The Utilities Manager gives notice of the time and place of the hearing" in text
    assert "Cleo Park Utilities Manager" in text  # the hearing is before the Manager


def test_the_managers_decision_carries_the_decision_findings_and_review():
    agency, case, _ = opened()
    manager = person("mara", agency, "manager", "Mara", "Lind")
    hearing = heard(suspension(case, manager), manager)

    decision = action_take(
        case=case,
        type="manager_decision",
        code="MD-1",
        refers_to=hearing,
        actor=manager,
        fields={
            "delivered_on": d("2025-04-25"),
            "decision": "The permit is suspended for 30 days.",
            "findings": "GT-2 was not pumped out for 83 days.",
        },
    )
    text = letter_of(decision)

    assert f"It follows the hearing held on April 21, 2025 at {ROOM}." in text
    assert "Findings GT-2 was not pumped out for 83 days." in text
    assert "Decision and action to be taken The permit is suspended for 30 days." in text
    assert "review by the City Council" in text
    assert "no later than May 5, 2025" in text
    assert "Code of Civil Procedure Section 1094.6 governs the time" in text
    assert "Mara Lind Utilities Manager" in text


def test_the_final_decision_gives_the_1094_6_notice_and_the_90_day_deadline():
    agency, case, _ = opened()
    manager = person("mara", agency, "manager", "Mara", "Lind")
    clerk = person("cleo", agency, "clerk", "Cleo", "Park")
    decided = action_take(
        case=case,
        type="manager_decision",
        code="MD-1",
        actor=manager,
        refers_to=heard(suspension(case, manager), manager),
        fields={"delivered_on": d("2025-04-25")},
    )
    appeal = appeal_file(appealed=decided, code="AP-1", filed_on=d("2025-04-28"), to="council")

    final = action_take(
        case=case,
        type="final_decision",
        code="FD-1",
        refers_to=appeal,
        actor=clerk,
        fields={"final_on": d("2025-05-20"), "decision": "The Council upholds the suspension."},
    )
    text = letter_of(final)

    assert "Decision The Council upholds the suspension." in text
    assert "Code of Civil Procedure Section 1094.6 governs the time" in text
    assert "(90th) day following the date on which the decision is final" in text
    assert "no later than August 18, 2025" in text
    assert "the City's final decision concerning Pier Taqueria, made by the City Council" in text
    assert "Cleo Park City Clerk For the City Council City of San Clemente" in text


def test_the_penalty_order_states_findings_appeal_and_the_lien_warning():
    agency, case, violation = opened()
    manager = person("mara", agency, "manager", "Mara", "Lind")

    order = action_take(
        case=case,
        type="penalty_order",
        code="PO-1",
        violation=violation,
        actor=manager,
        refers_to=heard_complaint(case, served_on="2025-03-02"),
        fields={
            "issued_by": "manager",
            "issued_on": d("2025-04-01"),
            "served_on": d("2025-04-01"),
            "amount": "1500",
            "class": "records",
            "days": 1,
            "findings": "No pump-out records were furnished for GT-2.",
        },
    )
    text = letter_of(order)

    assert "Findings No pump-out records were furnished for GT-2." in text
    assert "$1,500" in text
    assert "An appeal of this order to the City Council must be filed with the City Clerk" in text
    assert "no later than April 11, 2025" in text
    assert "Lien" in text and "constitutes a lien against the real property" in text
    assert "on or after June 11, 2025" in text
    assert "13.30.080(I)(9)" in text


def test_the_administrative_complaint_states_the_charges_and_the_hearing():
    agency, case, _ = opened()
    manager = person("mara", agency, "manager", "Mara", "Lind")

    complaint = action_take(
        case=case,
        type="administrative_complaint",
        code="AC-1",
        actor=manager,
        fields={"served_on": d("2025-05-01"), "charges": "Failed to pump out GT-2."},
    )
    text = letter_of(complaint)

    assert "Alleged act or failure to act Failed to pump out GT-2." in text
    assert "no later than June 2, 2025" in text  # 30 days, rolled past the weekend
    assert "entitled to be heard" in text and "may be represented" in text


def test_the_emergency_decision_routes_the_appeal_to_the_city_manager():
    agency, case, _ = opened()
    manager = person("mara", agency, "manager", "Mara", "Lind")

    decision = action_take(
        case=case,
        type="emergency_decision",
        code="ED-1",
        actor=manager,
        refers_to=emergency_heard(case, ordered_at="2025-03-04T08:00:00"),
        fields={
            "delivered_on": d("2025-03-06"),
            "decision": "Water service stays off.",
            "findings": "The lateral still overflows.",
        },
    )
    text = letter_of(decision)

    assert "Decision Water service stays off." in text
    assert "Findings The lateral still overflows." in text
    assert "appealed to the City Manager" in text
    assert "no later than March 10, 2025" in text


def schedule(case, actor, code="CS-1"):
    return action_take(
        case=case,
        type="compliance_schedule",
        code=code,
        actor=actor,
        fields={
            "entered_on": d("2025-05-01"),
            "milestones": [
                {"id": "M-2", "due": d("2025-07-01"), "what": "Install a sample box on GT-2."},
                {"id": "M-1", "due": d("2025-06-01"), "what": "Pump out GT-2; send its manifest."},
            ],
        },
        delivery="mail",
        certified_mail_number="7019-5",
    )


def test_the_compliance_schedule_order_says_what_must_be_done_by_when():
    agency, case, _ = opened()
    manager = person("mara", agency, "manager", "Mara", "Lind")

    text = letter_of(schedule(case, manager))

    assert "Compliance schedule order or agreement" in text
    assert "the Utilities Manager requires the Operator to enter into this Compliance" in text
    assert "Pump-out overdue (V-1)" in text
    assert (
        "M-1 Pump out GT-2; send its manifest. June 1, 2025 "
        "M-2 Install a sample box on GT-2. July 1, 2025" in text
    )
    assert "not to exceed $3,000 may be assessed for each day" in text
    assert "13.30.080(I)(4)(c)(2)" in text and "13.30.080(G)(1)(a)" in text
    assert "Every amount due and owing to the City was paid" in text
    assert "13.30.080(F)(3)" in text and "no later than May 12, 2025" in text  # 10 days, rolled
    assert "Mara Lind Utilities Manager" in text


# The Town


def test_the_town_hearing_decision_carries_decision_findings_and_the_council_appeal():
    agency, case, violation = opened("town-10-02")
    officer = person("hugo", agency, "clerk", "Hugo", "Reyes")

    decision = action_take(
        case=case,
        type="hearing_decision",
        code="HD-1",
        violation=violation,
        actor=officer,
        refers_to=heard_complaint(case, served_on="2025-03-02"),
        fields={
            "noticed_on": d("2025-04-01"),
            "decision": "The FOG Permit is suspended.",
            "findings": "GT-2 was never cleaned.",
        },
    )
    text = letter_of(decision)

    assert "Cleaning overdue (V-1)" in text
    assert "Findings GT-2 was never cleaned." in text
    assert "Decision and order The FOG Permit is suspended." in text
    assert "appeal it to the Town Council" in text
    assert "no later than April 16, 2025" in text
    assert "Hugo Reyes Hearing Officer Public Works" in text


def test_the_town_notice_of_hearing_states_the_right_to_counsel():
    agency, case, _ = opened("town-10-02")
    officer = person("hugo", agency, "clerk", "Hugo", "Reyes")
    notice_ = suspension(case, person("fay", agency, "manager", "Fay", "Moss"))

    hearing = hearing_schedule(
        notice=notice_,
        code="H-1",
        hearing_on=d("2025-04-21"),
        noticed_on=d("2025-04-01"),
        place=ROOM,
        actor=officer,
    )
    text = letter_of(hearing)

    assert f"Date April 21, 2025 Place {ROOM}" in text
    assert "entitled to be heard and may be represented by counsel" in text
    assert "no more than a total of 60 days" in text
    assert "Hugo Reyes Hearing Officer" in text


def test_the_town_revocation_notice_states_facts_and_grounds():
    agency, case, _ = opened("town-10-02")
    manager = person("fay", agency, "manager", "Fay", "Moss")

    text = letter_of(
        suspension(case, manager, type="revocation_notice", reasons="Three overflows in a year.")
    )

    assert "Facts and grounds in support of the proposed revocation Three overflows" in text
    assert "not before April 16, 2025 and not after May 16, 2025" in text
    assert "The Building Official gives notice of the proposed revocation" in text
    assert "Fay Moss Building Official" in text  # 10.02.260(B): not the hearing officer


def test_the_town_notice_names_its_waste_oil_violation_in_the_towns_words():
    agency, case, _ = inspected("town-10-02", "bmp.waste_oil_storage")
    manager = person("fay", agency, "manager", "Fay", "Moss")

    text = letter_of(suspension(case, manager, reasons="Waste oil drums leaking."))

    assert "Waste cooking oil was not kept in recycling receptacles maintained so that" in text
    assert "10.02.070(B)" in text
    assert "110%" not in text and "containment" not in text
    assert "Is all waste cooking oil" not in text


def test_the_town_penalty_order_states_payment_and_lien_dates():
    agency, case, violation = opened("town-10-02")
    officer = person("hugo", agency, "clerk", "Hugo", "Reyes")

    order = action_take(
        case=case,
        type="penalty_order",
        code="PO-1",
        violation=violation,
        actor=officer,
        refers_to=heard_complaint(case, served_on="2025-03-02"),
        fields={
            "issued_by": "hearing_officer",
            "issued_on": d("2025-04-01"),
            "served_on": d("2025-04-02"),
            "amount": "2000",
            "class": "records",
            "days": 1,
            "findings": "No cleaning reports for GT-2.",
        },
    )
    text = letter_of(order)

    assert "Findings No cleaning reports for GT-2." in text
    assert "no later than May 1, 2025" in text  # payment within 30 days
    assert "on or after June 30, 2025" in text  # lien: 60 days after payment was due
    assert "10.02.330(I)" in text


def test_the_town_compliance_schedule_agreement_is_the_fog_managers():
    agency, case, _ = opened("town-10-02")
    clerk = person("hugo", agency, "clerk", "Hugo", "Reyes")

    text = letter_of(schedule(case, clerk))

    assert "the FOG Manager requires the permittee to enter into this Compliance" in text
    assert "M-1 Pump out GT-2; send its manifest. June 1, 2025" in text
    assert "10.02.160(D)" in text and "10.02.160(C)" in text
    assert "Hugo Reyes FOG Manager Public Works" in text  # 10.02.160(A), not the hearing officer
    assert "City" not in text and "Hearing Officer" not in text


def test_the_town_complaint_states_the_charges():
    agency, case, _ = opened("town-10-02")
    manager = person("fay", agency, "manager", "Fay", "Moss")

    complaint = action_take(
        case=case,
        type="administrative_complaint",
        code="AC-1",
        actor=manager,
        fields={"served_on": d("2025-05-01"), "charges": "Failed to clean GT-2."},
    )

    assert "Alleged act or failure to act Failed to clean GT-2." in letter_of(complaint)


# Aurora


def test_the_aurora_notice_states_one_correction_date_the_ordinances():
    agency, case, violation = opened("us-oh-aurora")

    notice_ = action_take(
        case=case,
        type="notice_of_violation",
        code="NOV-1",
        violation=violation,
        fields={"delivered_on": d("2026-12-04")},
        delivery="mail",
        certified_mail_number="7019 0700 0000 4412 0044",
    )
    text = letter_of(notice_)

    # 15 days from delivery is Saturday, December 19: the deadline rolls to Monday (922.22(b))
    assert notice_.fields["correct_by"] == "2026-12-21"
    assert "Correct by December 21, 2026" in text
    assert "Corrective action December 21, 2026 922.22(b)" in text
    assert "December 19" not in text


def test_the_aurora_notice_refuses_a_correction_date_other_than_the_ordinances():
    agency, case, violation = opened("us-oh-aurora")

    with pytest.raises(ValidationError) as e:
        action_take(
            case=case,
            type="notice_of_violation",
            code="NOV-1",
            violation=violation,
            fields={"delivered_on": d("2026-12-04"), "correct_by": d("2026-12-19")},
        )

    assert e.value.message_dict["correct_by"] == [
        "922.22(b): correct by is 2026-12-21, the date the ordinance gives from delivered on "
        "(asked 2026-12-19)."
    ]


def test_the_aurora_notice_is_the_city_representatives():
    agency, case, violation = opened("us-oh-aurora")
    manager = person("wes", agency, "manager", "Wes", "Hale")

    notice_ = action_take(
        case=case,
        type="notice_of_violation",
        code="NOV-1",
        violation=violation,
        fields={"delivered_on": d("2026-12-04")},
        actor=manager,
    )
    text = letter_of(notice_)

    assert "The City representative issues this Notice of Violation to Pier Taqueria" in text
    assert "Wes Hale City representative Department of Public Services" in text
    assert "WWTP official" not in text


# Previews


def unsaved_notice(case, violation):
    return EnforcementAction(
        case=case,
        establishment=case.establishment,
        code="NNC-9",
        type="notice_of_noncompliance",
        level="inspector",
        taken_on=d("2025-03-03"),
        cites="13.30.080(D)(1), (E)",
        violation=violation,
        fields={
            "delivered_on": "2025-03-03",
            "correct_by": "2025-03-31",
            "corrective_action": "Pump out GT-2.",
        },
    )


def test_a_preview_is_marked_and_stores_nothing():
    agency, case, violation = opened()
    inspector = person("ines", agency, "inspector", "Ines", "Ortega")
    action = unsaved_notice(case, violation)
    deadlines = action_deadlines(
        case.establishment, action.code, action.type, action.fields, d("2025-03-03")
    )
    before = (Letter.objects.count(), EnforcementAction.objects.count())

    text = text_of(preview_letter(action, deadlines, inspector))

    assert PREVIEW_MARK in text
    assert "Corrective action required: Pump out GT-2." in text
    assert "no later than March 13, 2025" in text
    assert "Ines Ortega Authorized Inspector" in text
    assert (Letter.objects.count(), EnforcementAction.objects.count()) == before


def test_the_issued_letter_is_not_marked_as_a_preview():
    agency, case, violation = opened()

    text = letter_of(notice(case, violation, person("ines", agency, "inspector", "I", "O")))

    assert "PREVIEW" not in text


def test_a_preview_of_a_hearing_gives_its_place():
    agency, case, _ = opened()
    notice_ = suspension(case, person("mara", agency, "manager", "M", "L"))
    hearing = EnforcementAction(
        case=case,
        establishment=case.establishment,
        code="H-9",
        type="hearing",
        level=notice_.level,
        taken_on=d("2025-04-01"),
        cites=notice_.cites,
        refers_to=notice_,
        fields={"hearing_on": "2025-04-22", "place": "Room 2"},
    )

    text = text_of(preview_letter(hearing, [], None))

    assert "Date April 22, 2025 Place Room 2" in text
    assert PREVIEW_MARK in text


def test_an_action_without_a_template_gets_the_generic_letter_with_its_fields():
    agency, case, _ = opened()
    invoice = EnforcementAction(
        case=case,
        establishment=case.establishment,
        code="INV-1",
        type="invoice",
        level="",
        taken_on=d("2025-04-01"),
        cites="13.30.050(M)",
        fields={"noticed_on": "2025-04-01", "amount": "428", "description": "Follow-up visit"},
    )

    text = text_of(render_action_letter(invoice, []))

    assert "Invoice" in text and "13.30.050(M)" in text
    assert "Amount $428" in text
    assert "Description Follow-up visit" in text
    assert "Pump-out overdue (V-1)" in text


def test_a_superuser_signs_a_notice_as_the_authorized_inspector(django_user_model):
    agency, case, violation = opened()
    root = django_user_model.objects.create_superuser("root", first_name="Ruth", last_name="Ng")

    text = text_of(render_action_letter(unsaved_notice(case, violation), [], root))

    assert "Ruth Ng Authorized Inspector" in text
    assert "Utilities Manager Utilities Department" not in text


# Who signs (RULES.md 12.6): the officer at the action's level, whatever the account's role


def test_a_notice_sent_by_the_manager_is_signed_as_the_authorized_inspector():
    agency, case, violation = opened()
    manager = person("mara", agency, "manager", "Mara", "Lind")

    text = letter_of(notice(case, violation, manager))

    assert "The Authorized Inspector has determined that Pier Taqueria" in text
    assert "Mara Lind Authorized Inspector Utilities Department City of San Clemente" in text
    assert "Mara Lind Utilities Manager" not in text


def council_order(agency, case, violation, clerk, type="penalty_order", by="manager"):
    """A penalty order of the first level appealed to the Council, and the Council's order."""
    manager = person("mara", agency, "manager", "Mara", "Lind")
    first = action_take(
        case=case,
        type=type,
        code="PO-1",
        violation=violation,
        actor=manager,
        refers_to=heard_complaint(case, served_on="2025-03-02"),
        fields={
            "issued_by": by,
            "issued_on": d("2025-04-01"),
            "served_on": d("2025-04-01"),
            "amount": "1500",
            "class": "records",
            "days": 1,
        },
    )
    appeal = appeal_file(appealed=first, code="AP-1", filed_on=d("2025-04-08"), to="council")
    return action_take(
        case=case,
        type=type,
        code="PO-2",
        violation=violation,
        actor=clerk,
        refers_to=appeal,
        fields={
            "issued_by": "council",
            "issued_on": d("2025-05-06"),
            "served_on": d("2025-05-06"),
            "amount": "1000",
            "class": "records",
            "days": 1,
        },
    )


def test_the_councils_order_is_signed_by_the_city_clerk_for_the_council():
    agency, case, violation = opened()
    clerk = person("cleo", agency, "clerk", "Cleo", "Park")

    text = letter_of(council_order(agency, case, violation, clerk))

    assert "the City Council finds that the charged party" in text
    assert "Cleo Park City Clerk For the City Council City of San Clemente" in text
    assert "Utilities Department City of San Clemente Issued" not in text


def test_the_town_councils_order_is_signed_by_the_town_clerk_for_the_council():
    agency, case, violation = opened("town-10-02")
    clerk = person("hugo", agency, "clerk", "Hugo", "Reyes")

    text = letter_of(council_order(agency, case, violation, clerk, by="hearing_officer"))

    assert "the Town Council finds that the person served" in text
    assert "Hugo Reyes Town Clerk For the Town Council Agency town-10-02" in text
    assert "City Clerk" not in text and "City Council" not in text


def test_the_town_hearing_officers_decision_is_signed_as_the_hearing_officer():
    agency, case, violation = opened("town-10-02")
    manager = person("fay", agency, "manager", "Fay", "Moss")

    decision = action_take(
        case=case,
        type="hearing_decision",
        code="HD-1",
        violation=violation,
        actor=manager,
        refers_to=heard_complaint(case, served_on="2025-03-02"),
        fields={"noticed_on": d("2025-04-01"), "decision": "The FOG Permit is suspended."},
    )
    text = letter_of(decision)

    assert "This is the written decision and order of the Hearing Officer" in text
    assert "Fay Moss Hearing Officer Public Works" in text
    assert "FOG Manager" not in text
