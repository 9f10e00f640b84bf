"""`manage.py send_reminders`: operators are emailed, once, what falls due soon."""

from datetime import date
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.enforcement.services import action_take, case_open, violation_add
from fogkeeper.portal.models import OverdueReminder, ReminderSent
from fogkeeper.registry.models import Operator
from tests.records import (
    make_agency,
    make_device,
    make_employee,
    make_establishment,
    make_permit,
    make_service,
)

pytestmark = pytest.mark.django_db

AS_OF = date(2025, 6, 30)


def canyon_deli(agency, email="deli@example.org", code="FSE-9"):
    """GI-1 pumped out on 2025-04-10 every 90 days (due 2025-07-09); the permit expires on
    2025-09-15 (San Clemente's renewal application due 60 days before, 2025-07-17); Rosa
    hired on 2025-06-20 (trained within a month in San Clemente, by 2025-07-20)."""
    fse = make_establishment(agency, code=code, name="Canyon Deli", operator="Canyon Foods")
    Operator.objects.filter(pk=fse.current_tenure().operator_id).update(email=email)
    number = f"{code}-P1"
    make_permit(
        fse, number, issued_on="2020-09-16", expires_on="2025-09-15", service_frequency_days=90
    )
    make_service(make_device(fse, "GI-1"), "M-1", "2025-04-10")
    make_employee(fse, "E-1", "2025-06-20", name="Rosa Diaz")
    sweep_agency(agency, as_of=AS_OF)
    return fse


def remind(*args, as_of: str = "2025-06-30") -> str:
    out = StringIO()
    call_command("send_reminders", "--as-of", as_of, *args, stdout=out)
    return out.getvalue()


def late_pump_out(agency):
    """Harbor Cafe's GI-1, pumped out every 30 days, last on 2025-04-11: due 2025-05-11, 50
    days overdue on 2025-06-30. A notice of non-compliance for it, delivered 2025-06-02, asked
    for it by 2025-06-16: San Clemente's $600 a day accrues from 2025-06-17."""
    fse = make_establishment(agency, code="FSE-7", name="Harbor Cafe", operator="Cafe Co")
    Operator.objects.filter(pk=fse.current_tenure().operator_id).update(email="cafe@example.org")
    make_permit(fse, "FSE-7-P1", issued_on="2024-09-16", expires_on="2029-09-15")
    gi = make_device(fse, "GI-1", service_frequency_days=30)
    make_service(gi, "M-1", "2025-04-11")
    case = case_open(establishment=fse, code="EC-1", opened_on=date(2025, 6, 1))
    violation_add(
        case=case, code="V-1", rule="gcd.service_overdue", subject="GI-1", since=date(2025, 5, 12)
    )
    action_take(
        case=case,
        type="notice_of_noncompliance",
        code="NNC-1",
        fields={"delivered_on": date(2025, 6, 2), "correct_by": date(2025, 6, 16)},
    )
    return fse


def remind_on(fse, day: str) -> str:
    """The nightly sweep of `day`, then its reminders."""
    sweep_agency(fse.agency, as_of=date.fromisoformat(day))
    return remind("--days", "14", as_of=day)


def test_it_emails_the_operator_the_pump_out_due_with_its_citation(mailoutbox):
    canyon_deli(make_agency("san-clemente"))
    remind("--days", "14")
    (mail,) = mailoutbox
    assert mail.to == ["deli@example.org"] and mail.subject == "Canyon Deli: due by 2025-07-09"
    assert "By Wednesday, July 9, 2025: Pump-out of GI-1." in mail.body
    assert "§ 13.30.050(H)(1)(b) (if missed: Pump-out overdue)" in mail.body


def test_it_reminds_of_the_renewal_application_and_the_new_hire_training(mailoutbox):
    canyon_deli(make_agency("san-clemente"))
    remind("--days", "30")
    body = mailoutbox[0].body
    assert "By Thursday, July 17, 2025: Renewal application for Discharge Permit FSE-9-P1." in body
    assert "New-hire BMP training of Rosa Diaz." in body and "13.30.050(H)(3)(a)" in body
    assert "expires" not in body  # San Clemente's renewal date is the application's


def test_it_reminds_the_town_of_the_permits_expiry(mailoutbox):
    fse = canyon_deli(make_agency("town-10-02"))
    fse.permits.update(expires_on=date(2025, 7, 10))
    sweep_agency(fse.agency, as_of=AS_OF)
    remind("--days", "14")
    assert "FOG Permit FSE-9-P1 expires." in mailoutbox[0].body
    assert "10.02.060(A)" in mailoutbox[0].body


def test_it_sends_each_reminder_once(mailoutbox):
    canyon_deli(make_agency("san-clemente"))
    remind("--days", "14")
    output = remind("--days", "14")
    assert len(mailoutbox) == 1
    assert "0 reminders in 0 emails; 1 sent before." in output
    assert ReminderSent.objects.get().due == date(2025, 7, 9)


def test_it_sends_later_only_what_was_not_sent_before(mailoutbox):
    canyon_deli(make_agency("san-clemente"))
    remind("--days", "14")
    remind("--days", "30")
    assert len(mailoutbox) == 2
    assert "Pump-out" not in mailoutbox[1].body and "Rosa Diaz" in mailoutbox[1].body


def test_what_falls_due_is_reminded_of_once_and_what_is_overdue_apart(mailoutbox):
    fse = canyon_deli(make_agency("san-clemente"))
    fse.devices.update(service_frequency_days=30)  # due 2025-05-10: overdue, a finding
    sweep_agency(fse.agency, as_of=AS_OF)
    remind("--days", "30")
    body = mailoutbox[0].body
    assert body.index("what is overdue") < body.index("also reminds you of what falls due")
    assert not ReminderSent.objects.filter(obligation="gcd.service").exists()


def test_it_names_the_establishments_whose_operator_has_no_email(mailoutbox):
    canyon_deli(make_agency("san-clemente"), email="")
    output = remind("--days", "14")
    assert mailoutbox == [] and not ReminderSent.objects.exists()
    assert "No operator email, not reminded: 1 (FSE-9)." in output


def test_it_prints_a_summary(mailoutbox):
    canyon_deli(make_agency("san-clemente"))
    output = remind("--days", "30")
    assert output.startswith(
        "Reminders as of 2025-06-30 of what falls due by 2025-07-30: 3 reminders in 1 email; "
        "0 sent before.\nOverdue: 0 items reminded; 0 reminded in the last 7 days, not again yet."
    )


def test_it_reminds_only_the_agency_asked_for(mailoutbox):
    canyon_deli(make_agency("san-clemente"))
    canyon_deli(make_agency("town-10-02"), email="town@example.org")
    remind("--days", "14", "--agency", "town-10-02")
    assert [m.to for m in mailoutbox] == [["town@example.org"]]


def test_it_refuses_a_negative_number_of_days():
    with pytest.raises(CommandError, match="--days"):
        remind("--days", "-1")


def test_it_names_a_pump_out_overdue_with_its_fine_to_date_and_citation(mailoutbox, letters):
    fse = late_pump_out(make_agency("san-clemente"))
    output = remind_on(fse, "2025-06-30")
    (mail,) = mailoutbox
    assert mail.to == ["cafe@example.org"]
    assert mail.subject == "Harbor Cafe: 1 item overdue since 2025-05-11"
    assert "reminds you of what is overdue at Harbor Cafe (FSE-7)" in mail.body
    assert "- Pump-out of GI-1: due by Sunday, May 11, 2025, 50 days overdue." in mail.body
    assert "§ 13.30.050(H)(1)(b) (Pump-out overdue)" in mail.body
    assert (
        "Fine to date: $8,400.00, $600.00 a day from 2025-06-17 through 2025-06-30 "
        "(§ 13.30.080(E)(3))." in mail.body
    )
    assert "gcd." not in mail.body and "_" not in mail.body
    assert "Overdue: 1 item reminded;" in output


def test_it_reminds_of_what_is_overdue_at_most_once_a_week(mailoutbox, letters):
    fse = late_pump_out(make_agency("san-clemente"))
    remind_on(fse, "2025-06-30")
    output = remind_on(fse, "2025-07-03")
    assert len(mailoutbox) == 1
    assert "Overdue: 0 items reminded; 1 reminded in the last 7 days" in output
    remind_on(fse, "2025-07-07")
    assert len(mailoutbox) == 2
    body = mailoutbox[1].body
    assert "- Pump-out of GI-1: due by Sunday, May 11, 2025, 57 days overdue." in body
    assert "Fine to date: $12,600.00, $600.00 a day from 2025-06-17 through 2025-07-07" in body
    reminded = OverdueReminder.objects.get()
    assert (reminded.due, reminded.last_sent_on, reminded.times) == (
        date(2025, 5, 11),
        date(2025, 7, 7),
        2,
    )


def test_it_stops_reminding_once_the_pump_out_is_recorded(mailoutbox, letters):
    fse = late_pump_out(make_agency("san-clemente"))
    remind_on(fse, "2025-06-30")
    make_service(fse.devices.get(), "M-2", "2025-07-08")
    remind_on(fse, "2025-07-14")
    assert len(mailoutbox) == 1


def test_it_names_an_overdue_item_without_a_fine_where_none_accrues(mailoutbox):
    fse = canyon_deli(make_agency("town-10-02"))
    fse.devices.update(service_frequency_days=30)  # due 2025-05-10: 51 days overdue
    sweep_agency(fse.agency, as_of=AS_OF)
    remind("--days", "14")
    body = mailoutbox[0].body
    assert "- Pump-out of GI-1: due by Saturday, May 10, 2025, 51 days overdue." in body
    assert "Fine to date" not in body
