"""Suspension, revocation and the denial of a renewal take effect in the case file and so in
the engine (RULES.md 11.7, 11.8)."""

from datetime import date

import pytest
from django.core.exceptions import ValidationError

from fogkeeper.compliance.casefiles.as_json import build_case_file
from fogkeeper.permits.services import permit_renewal_deny, permit_revoke, permit_suspend
from fogkeeper.rules import evaluate, parse_case
from tests.audit.people import events
from tests.records import make_agency, make_establishment, make_permit

pytestmark = pytest.mark.django_db
AS_OF = date(2025, 6, 30)


def permit(**kw):
    return make_permit(make_establishment(make_agency()), **kw)


def rules(p, as_of=AS_OF) -> set[str]:
    report = evaluate(parse_case(build_case_file(p.establishment, as_of)))
    return {f.rule for f in report.findings if f.open and f.rule.startswith("permit.")}


def test_it_suspends_a_permit_for_a_time_with_an_audit_row():
    p = permit_suspend(
        permit=permit(), suspended_from=date(2025, 6, 1), suspended_until=date(2025, 7, 31)
    )
    assert (p.status, p.suspended_until) == ("suspended", date(2025, 7, 31))
    assert events("permit.suspend")[0].before["suspended_from"] is None
    assert rules(p) == {"permit.suspended"}


def test_it_refuses_a_suspension_ending_before_it_starts():
    with pytest.raises(ValidationError) as e:
        permit_suspend(
            permit=permit(), suspended_from=date(2025, 6, 1), suspended_until=date(2025, 5, 31)
        )
    assert "suspended_until" in e.value.message_dict


def test_it_revokes_a_permit_so_the_establishment_holds_none():
    p = permit_revoke(permit=permit(), revoked_on=date(2025, 6, 1), reason="final decision FD-1")
    assert (p.status, p.ended_on) == ("revoked", date(2025, 6, 1))
    assert events("permit.revoke")[0].reason == "final decision FD-1"
    assert rules(p) == {"permit.revoked"}


def test_it_refuses_to_revoke_a_revoked_permit():
    p = permit_revoke(permit=permit(), revoked_on=date(2025, 6, 1))
    with pytest.raises(ValidationError) as e:
        permit_revoke(permit=p, revoked_on=date(2025, 6, 2))
    assert e.value.message_dict["permit"] == ["SC-1 is revoked."]


def test_it_refuses_a_revocation_before_the_permit_was_issued():
    with pytest.raises(ValidationError) as e:
        permit_revoke(permit=permit(), revoked_on=date(2023, 12, 31))
    assert "revoked_on" in e.value.message_dict


def test_a_denied_renewal_ends_the_permit_it_kept_in_effect():
    p = permit(expires_on="2025-02-28", renewal_applied_on="2024-12-15")
    assert rules(p) == set()
    permit_renewal_deny(permit=p, denied_on=date(2025, 4, 10))
    assert rules(p) == {"permit.expired"}
    assert rules(p, date(2025, 4, 9)) == set()


def test_it_refuses_to_deny_a_renewal_no_one_applied_for():
    with pytest.raises(ValidationError) as e:
        permit_renewal_deny(permit=permit(), denied_on=date(2025, 4, 10))
    assert e.value.message_dict["denied_on"] == ["No renewal of SC-1 was applied for."]
