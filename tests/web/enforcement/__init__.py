"""An enforcement case for the staff pages' tests, taken through the services staff use: San
Clemente's Pier Taqueria noticed for its overdue trap, fined until corrected, suspended after
a hearing, and the Utilities Manager's decision; the Town's with an administrative complaint,
its hearing and the hearing officer's decision."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from fogkeeper.enforcement.services import (
    action_fact_record,
    action_take,
    case_open,
    hearing_conclude,
    hearing_schedule,
    violation_add,
)
from fogkeeper.registry.models import Agency
from tests import databases
from tests.compliance.records import make_pier_taqueria
from tests.records import d
from tests.web.people import two_agencies


def san_clemente_case(fse):
    """Case EC-7 of `fse` (a make_pier_taqueria): its actions NNC-1, SN-1, H-1 and MD-1."""
    case = case_open(establishment=fse, code="EC-7", opened_on=d("2025-03-01"))
    violation = violation_add(
        case=case,
        code="V-1",
        rule="gcd.service_overdue",
        subject="GT-2",
        since=d("2020-06-01"),
    )
    notice = action_take(
        case=case,
        type="notice_of_noncompliance",
        code="NNC-1",
        violation=violation,
        fields={"delivered_on": d("2025-03-03"), "correct_by": d("2025-03-31")},
        delivery="mail",
        certified_mail_number="7019 0700 0000 1111 2222",
    )
    action_fact_record(action=notice, field="corrected_on", value=d("2025-04-15"))
    suspension = action_take(
        case=case,
        type="suspension_notice",
        code="SN-1",
        fields={"mailed_on": d("2025-05-20")},
        delivery="mail",
        certified_mail_number="7019 0700 0000 1111 3333",
    )
    hearing = hearing_schedule(
        notice=suspension, code="H-1", hearing_on=d("2025-06-02"), noticed_on=d("2025-05-20")
    )
    hearing_conclude(hearing=hearing, concluded_on=d("2025-06-02"))
    action_take(
        case=case,
        type="manager_decision",
        code="MD-1",
        refers_to=hearing,
        fields={"delivered_on": d("2025-06-05"), "orders": "suspension"},
        delivery="personal",
    )
    return case


def town_case(fse):
    """Case EC-1 of a Town establishment: the administrative complaint AC-1, its hearing H-1
    and the hearing officer's decision HD-1 on it."""
    case = case_open(establishment=fse, code="EC-1", opened_on=d("2025-01-20"))
    violation = violation_add(
        case=case, code="V-1", rule="gcd.service_overdue", subject="GT-2", since=d("2025-01-01")
    )
    complaint = action_take(
        case=case,
        type="administrative_complaint",
        code="AC-1",
        violation=violation,
        fields={"served_on": d("2025-02-03")},
        delivery="personal",
    )
    hearing = hearing_schedule(
        notice=complaint, code="H-1", hearing_on=d("2025-02-24"), noticed_on=d("2025-02-03")
    )
    hearing_conclude(hearing=hearing, concluded_on=d("2025-02-24"))
    action_take(
        case=case,
        type="hearing_decision",
        code="HD-1",
        violation=violation,
        refers_to=hearing,
        fields={"noticed_on": d("2025-03-03")},
        delivery="mail",
        certified_mail_number="7019-1",
    )
    return case


def closed_case(fse):
    """Case EC-2 of `fse`: a notice about a device the engine finds nothing wrong with,
    corrected in time; its appeal deadline (January 13) long passed by June."""
    case = case_open(establishment=fse, code="EC-2", opened_on=d("2025-01-02"))
    violation = violation_add(
        case=case, code="V-1", rule="gcd.service_overdue", subject="GI-9", since=d("2024-12-01")
    )
    notice = action_take(
        case=case,
        type="notice_of_noncompliance",
        code="NNC-2",
        violation=violation,
        fields={"delivered_on": d("2025-01-03"), "correct_by": d("2025-01-31")},
        delivery="mail",
        certified_mail_number="7019 0700 0000 1111 9999",
    )
    action_fact_record(action=notice, field="corrected_on", value=d("2025-01-20"))
    return case


@contextmanager
def two_cases_once(django_db_blocker) -> Iterator[tuple[int, int]]:
    """For a module-scoped fixture: San Clemente's case EC-7 of Pier Taqueria and the Town's
    EC-1 of T-0042, built once for the module (tests/databases.rolled_back); gives the ids of
    the two agencies, which `read_again` makes into records for each test."""
    with databases.rolled_back(django_db_blocker, as_committed=True):
        sc, town = two_agencies()
        san_clemente_case(make_pier_taqueria(sc))
        town_case(make_pier_taqueria(town, code="T-0042"))
        databases.check_constraints()
        yield sc.pk, town.pk


def read_again(pks: tuple[int, ...]) -> tuple[Agency, ...]:
    """The agencies of these ids, read again for a test of its own."""
    return tuple(Agency.objects.get(pk=pk) for pk in pks)
