from datetime import date, timedelta

import pytest
from django.core.exceptions import ValidationError

from fogkeeper.compliance.models import ComplianceStatus, Finding
from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.permits.models import Permit
from fogkeeper.permits.operators import operator_change
from fogkeeper.registry.models import Operator, OperatorTenure
from tests.audit.people import alice, events
from tests.records import d, make_agency, make_establishment, make_permit

pytestmark = pytest.mark.django_db


def test_it_closes_the_current_tenure_and_opens_a_new_one():
    fse = make_establishment(make_agency(), operator_since="2019-02-01")
    old = fse.current_tenure()
    new = operator_change(establishment=fse, operator="Harbor Group", on=date(2025, 3, 1))
    old.refresh_from_db()
    assert old.until == date(2025, 3, 1)
    assert fse.current_tenure() == new
    assert (new.operator.name, new.since) == ("Harbor Group", date(2025, 3, 1))


def test_it_ends_the_permit_on_the_day_of_the_change():
    fse = make_establishment(make_agency())
    permit = make_permit(fse, issued_on="2024-01-01", expires_on="2028-12-31")
    operator_change(establishment=fse, operator="Harbor Group", on=date(2025, 3, 1))
    permit.refresh_from_db()
    assert (permit.status, permit.ended_on) == ("ended", date(2025, 3, 1))


def test_it_cites_the_ordinance_in_the_audit_row_of_the_ended_permit():
    fse = make_establishment(make_agency())
    make_permit(fse)
    operator_change(establishment=fse, operator="Harbor Group", on=date(2025, 3, 1), actor=alice())
    (ended,) = events("permit.end")
    assert "13.30.050(A), (E)" in ended.reason
    assert (ended.before["status"], ended.after["status"]) == ("active", "ended")
    assert ended.actor.username == "alice"


def test_it_cites_the_town_ordinance_for_a_town_permit():
    fse = make_establishment(make_agency("town-10-02"), operator_since="2023-05-01")
    make_permit(fse, number="T-1", issued_on="2024-07-01", expires_on="2025-06-30")
    operator_change(establishment=fse, operator="Mesa Foods", on=date(2025, 3, 1))
    assert "10.02.040(B)" in events("permit.end")[0].reason


def test_it_writes_the_tenure_rows():
    fse = make_establishment(make_agency())
    operator_change(establishment=fse, operator="Harbor Group", on=date(2025, 3, 1))
    actions = [e.action for e in events()]
    assert actions == ["tenure.close", "operator.register", "operator.change"]


def test_it_refuses_the_same_operator():
    fse = make_establishment(make_agency())
    current = fse.current_tenure().operator
    with pytest.raises(ValidationError) as e:
        operator_change(establishment=fse, operator=current, on=date(2025, 3, 1))
    assert "already the operator" in e.value.message_dict["operator"][0]


def test_it_refuses_a_change_before_the_current_start_and_changes_nothing():
    fse = make_establishment(make_agency(), operator_since="2019-02-01")
    permit = make_permit(fse)
    with pytest.raises(ValidationError) as e:
        operator_change(establishment=fse, operator="Harbor Group", on=date(2019, 2, 1))
    assert "on" in e.value.message_dict
    assert OperatorTenure.objects.filter(until__isnull=True).count() == 1
    assert Permit.objects.get(pk=permit.pk).status == "active"
    assert not Operator.objects.filter(name="Harbor Group").exists()
    assert events() == []


def test_it_refuses_a_change_before_the_permit_was_issued():
    fse = make_establishment(make_agency())
    make_permit(fse, issued_on="2025-04-01")
    with pytest.raises(ValidationError) as e:
        operator_change(establishment=fse, operator="Harbor Group", on=date(2025, 3, 1))
    assert "issued after the change" in e.value.message_dict["on"][0]


def permit_standing(fse) -> tuple[list, list]:
    """What the sweep on 2025-03-02 stored of the permit: its open findings and what comes
    due of it, as the establishment page and the dashboard read them."""
    sweep_agency(fse.agency, as_of=date(2025, 3, 2))
    findings = Finding.objects.filter(establishment=fse, open=True, rule__startswith="permit.")
    schedule = ComplianceStatus.objects.get(establishment=fse).schedule
    due = [(i["obligation"], i["subject"]) for i in schedule if i["obligation"][:7] == "permit."]
    return sorted(findings.values_list("rule", "subject")), sorted(due)


def test_it_leaves_the_new_operator_an_open_finding_and_no_renewal_of_the_ended_permit():
    fse = make_establishment(make_agency(), operator_since="2019-02-01")
    make_permit(fse, "SC-1", issued_on="2024-01-01", expires_on="2028-12-31")
    operator_change(establishment=fse, operator="Harbor Group", on=date(2025, 3, 1))
    assert permit_standing(fse) == ([("permit.new_operator", "SC-1")], [])


@pytest.mark.parametrize(
    "pack, holder, issued_on, ends",
    [
        ("san-clemente", "Pier Foods LLC", "2024-01-01", True),  # the former operator's
        ("san-clemente", "Harbor Group", "2025-02-15", False),  # the new operator's own
        ("san-clemente", "Pier Foods LLC", "2025-03-01", False),  # issued the day of the change
        ("town-10-02", "Pier Foods LLC", "2024-07-01", True),
        ("town-10-02", "Pier Taqueria", "2024-07-01", False),  # in the business's name
    ],
)
def test_it_ends_the_permit_exactly_when_the_sweep_finds_it_ended(pack, holder, issued_on, ends):
    fse = make_establishment(make_agency(pack), operator_since="2019-02-01")
    expires_on = d(issued_on).replace(year=d(issued_on).year + 1) - timedelta(days=1)
    permit = make_permit(fse, "P-1", holder=holder, issued_on=issued_on, expires_on=expires_on)
    operator_change(establishment=fse, operator="Harbor Group", on=date(2025, 3, 1))
    findings, _ = permit_standing(fse)
    permit.refresh_from_db()
    assert (permit.status == "ended", ("permit.new_operator", "P-1") in findings) == (ends, ends)


def test_it_keeps_the_renewal_of_a_permit_the_change_does_not_end():
    fse = make_establishment(make_agency(), operator_since="2019-02-01")
    make_permit(fse, "SC-2", holder="Harbor Group", issued_on="2025-02-15", expires_on="2026-02-14")
    operator_change(establishment=fse, operator="Harbor Group", on=date(2025, 3, 1))
    assert Permit.objects.get(number="SC-2").status == "active"
    _, due = permit_standing(fse)
    assert due == [("permit.expiry", "SC-2"), ("permit.renewal_application", "SC-2")]


def test_it_refuses_a_change_still_to_come_and_changes_nothing():
    fse = make_establishment(make_agency(), operator_since="2019-02-01")
    permit = make_permit(fse)
    with pytest.raises(ValidationError) as e:
        operator_change(
            establishment=fse,
            operator="Harbor Group",
            on=date(2025, 3, 2),
            today=date(2025, 3, 1),
        )
    assert e.value.message_dict["on"] == ["2025-03-02 is in the future (today is 2025-03-01)."]
    assert Permit.objects.get(pk=permit.pk).status == "active"
    assert events() == []
