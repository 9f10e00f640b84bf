"""An operator's contact details edited from many pages at once: every edit is kept in the
audit trail, each row's "before" the previous row's "after" (issue 15, item 5)."""

import pytest

from fogkeeper.audit.models import AuditEvent
from fogkeeper.registry.models import Operator
from fogkeeper.registry.services import operator_contact_update, operator_update
from tests.races import race
from tests.records import make_agency, make_establishment

pytestmark = pytest.mark.django_db(transaction=True)
N = 10
CONTACT = ("phone", "email", "mailing_address")


@pytest.fixture
def operator() -> Operator:
    return make_establishment(make_agency()).current_tenure().operator


def chain(operator) -> list[tuple[dict, dict]]:
    events = AuditEvent.objects.filter(object_id=str(operator.pk), action="operator.contact")
    return [
        ({k: e.before[k] for k in CONTACT}, {k: e.after[k] for k in CONTACT})
        for e in events.order_by("pk")
    ]


def assert_chained(operator, first: dict) -> None:
    rows = chain(operator)
    assert len(rows) == N
    assert rows[0][0] == first
    assert all(before == rows[i][1] for i, (before, _) in enumerate(rows[1:]))
    operator.refresh_from_db()
    assert rows[-1][1] == {k: getattr(operator, k) for k in CONTACT}


def edit(operator, i: int) -> dict:
    return {
        "phone": f"949-555-01{i:02}",
        "email": f"desk{i}@example.org",
        "mailing_address": f"PO Box {i}",
    }


def test_concurrent_contact_edits_leave_a_chain_of_audit_rows(operator):
    first = {k: getattr(operator, k) for k in CONTACT}
    copies = [Operator.objects.get(pk=operator.pk) for _ in range(N)]  # each page's own read
    done = race(N, lambda i: operator_contact_update(operator=copies[i], **edit(operator, i)))
    assert done == [True] * N
    assert_chained(operator, first)


def test_concurrent_staff_edits_leave_a_chain_of_audit_rows(operator):
    first = {k: getattr(operator, k) for k in CONTACT}
    copies = [Operator.objects.get(pk=operator.pk) for _ in range(N)]
    done = race(
        N, lambda i: operator_update(operator=copies[i], name="Pier Foods", **edit(operator, i))
    )
    assert done == [True] * N
    assert_chained(operator, first)
    assert AuditEvent.objects.filter(action="operator.rename").count() == 1
