"""A small program to write to: four open establishments of San Clemente (three of their
operators with an email address, one without; two with a permit in force), one closed, and
one of the Town, swept on AS_OF; and what a test asks of a communication."""

from __future__ import annotations

from datetime import date

from django.core.mail.backends.locmem import EmailBackend

from fogkeeper.communications.services import communication_draft, communication_send
from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.web.communications.forms import chosen
from tests.records import make_establishment, make_permit
from tests.web.people import two_agencies

AS_OF = date(2026, 6, 1)
SITE = "https://fog.example.org/"
PEOPLE = [
    ("FSE-1", "Anchor Diner", "anchor@example.org"),
    ("FSE-2", "Bay Bistro", "bay@example.org"),
    ("FSE-3", "Cove Cafe", ""),
    ("FSE-4", "Dune Deli", "dune@example.org"),
]


def program():
    """San Clemente with its establishments (FSE-1 and FSE-2 have a permit in force), and the
    Town with one of its own."""
    sc, town = two_agencies()
    for code, name, email in PEOPLE:
        fse = make_establishment(
            sc,
            code=code,
            name=name,
            address=f"{code[-1]}0 Ocean Way",
            city="San Clemente",
            zip_code="92672",
            operator=f"{name} LLC",
            opened_on="2020-01-01",
        )
        operator = fse.current_tenure().operator
        operator.email = email
        operator.save()
        if code in ("FSE-1", "FSE-2"):
            make_permit(fse, f"P-{code}", issued_on="2025-01-01", expires_on="2027-12-31")
    make_establishment(
        sc, code="FSE-9", name="Closed Grill", opened_on="2010-01-01", closed_on="2024-01-01"
    )
    make_establishment(town, code="T-1", name="Town Diner", opened_on="2020-01-01")
    sweep_agency(sc, as_of=AS_OF)
    return sc


def draft(
    agency,
    *,
    filters=None,
    subject="Grease season: {establishment_name}",
    body="Dear {operator_name},\nYour next date is {next_due_date}.",
    kind="legal_notice",
    channel="email",
    attachment=None,
    actor=None,
):
    filters = filters or {}
    return communication_draft(
        agency=agency,
        kind=kind,
        channel=channel,
        subject=subject,
        body=body,
        filters=filters,
        chosen=chosen(agency, filters),
        site=SITE,
        as_of=AS_OF,
        attachment=attachment,
        actor=actor,
    )


def send(comm, capture, actor=None):
    """Confirm `comm` and run it here (FOGKEEPER_RUN_INLINE) as its commit does."""
    with capture(execute=True):
        comm = communication_send(
            communication=comm, chosen=chosen(comm.agency, comm.filters), on=AS_OF, actor=actor
        )
    comm.refresh_from_db()
    return comm


class Killed(BaseException):
    """The worker killed (not an error the run could record)."""


class DiesAfter(EmailBackend):
    """The test mail box, whose process is killed (or which fails with `error`) as it hands
    over message number `after`+1."""

    after: int | None = None
    handed = 0
    error: type[BaseException] = Killed

    def send_messages(self, messages):
        if DiesAfter.after is not None and DiesAfter.handed >= DiesAfter.after:
            raise DiesAfter.error("the mail spool is full")
        DiesAfter.handed += len(messages)
        return super().send_messages(messages)
