"""Reminders to operators, by email, before a pump-out or a BMP training falls due and before
the permit's renewal date, read from each establishment's stored schedule (the last sweep's
ComplianceStatus.schedule). Each reminder is sent once (ReminderSent); an operator without
an email address is counted and reminded on a later run once it has one."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, timedelta

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.db.models import Q

from fogkeeper.compliance.models import ComplianceStatus
from fogkeeper.registry.models import Agency, OperatorTenure

from .models import ReminderSent
from .operator.selectors import schedule_rows, subject_names

# The obligations of the engine's schedule an operator is reminded of (RULES.md 4, 5, 7).
REMINDED = (
    "gcd.service",
    "training.new_hire",
    "training.refresher",
    "permit.renewal_application",
    "permit.expiry",
)
# Where the ordinance sets a renewal application date (San Clemente), that is the renewal
# date; the Town's permit is renewed by its expiry, with the business license.
RENEWAL_APPLICATION_RULE = "permit.renewal_late"
CODES_SHOWN = 10  # establishments named in the summary's lines


@dataclass
class Summary:
    as_of: date
    until: date
    emails: int = 0
    reminders: int = 0
    already_sent: int = 0
    without_email: list[str] = field(default_factory=list)
    without_operator: list[str] = field(default_factory=list)

    @staticmethod
    def _codes(codes: list[str]) -> str:
        shown = ", ".join(codes[:CODES_SHOWN])
        return shown + (f" and {len(codes) - CODES_SHOWN} more" if len(codes) > CODES_SHOWN else "")

    def lines(self) -> list[str]:
        out = [
            f"Reminders as of {self.as_of} of what falls due by {self.until}: "
            f"{self.reminders} in {self.emails} email(s); {self.already_sent} sent before."
        ]
        if self.without_email:
            codes = self._codes(self.without_email)
            out.append(f"No operator email, not reminded: {len(self.without_email)} ({codes}).")
        if self.without_operator:
            codes = self._codes(self.without_operator)
            out.append(f"No current operator: {len(self.without_operator)} ({codes}).")
        return out


def _reminded(pack, obligation: str) -> bool:
    if obligation not in REMINDED:
        return False
    return not (obligation == "permit.expiry" and pack.has(RENEWAL_APPLICATION_RULE))


def _operators(establishment_ids, as_of: date) -> dict:
    tenures = OperatorTenure.objects.filter(
        Q(until__isnull=True) | Q(until__gte=as_of),
        establishment_id__in=establishment_ids,
        since__lte=as_of,
    ).select_related("operator")
    return {t.establishment_id: t.operator for t in tenures}


def send_reminders(*, as_of: date, days: int, agencies: list[Agency] | None = None) -> Summary:
    """Email each operator what of REMINDED falls due from `as_of` through `as_of + days`
    and was not reminded of before."""
    until = as_of + timedelta(days=days)
    summary = Summary(as_of=as_of, until=until)
    statuses = (
        ComplianceStatus.objects.filter(
            Q(establishment__closed_on__isnull=True) | Q(establishment__closed_on__gt=as_of)
        )
        .select_related("establishment__agency")
        .order_by("establishment__agency__code", "establishment__code")
    )
    if agencies is not None:
        statuses = statuses.filter(establishment__agency__in=agencies)
    due: dict[int, list[dict]] = {}
    fses = {}
    for status in statuses:
        pack = status.establishment.agency.get_pack()
        items = [
            item
            for item in status.schedule or []
            if _reminded(pack, item.get("obligation", ""))
            and as_of <= date.fromisoformat(item["due"]) <= until
        ]
        if items:
            due[status.establishment_id] = items
            fses[status.establishment_id] = status.establishment
    sent = defaultdict(set)
    for est_id, obligation, subject, day in ReminderSent.objects.filter(
        establishment_id__in=due
    ).values_list("establishment_id", "obligation", "subject", "due"):
        sent[est_id].add((obligation, subject, day))
    operators = _operators(due, as_of)
    for est_id, items in due.items():
        fse = fses[est_id]
        new = [
            i
            for i in items
            if (i["obligation"], i.get("subject", ""), date.fromisoformat(i["due"]))
            not in sent[est_id]
        ]
        summary.already_sent += len(items) - len(new)
        if not new:
            continue
        operator = operators.get(est_id)
        if operator is None:
            summary.without_operator.append(fse.code)
            continue
        if not operator.email:
            summary.without_email.append(fse.code)
            continue
        _send(fse, operator, new, as_of)
        summary.emails += 1
        summary.reminders += len(new)
    return summary


def _send(fse, operator, items: list[dict], as_of: date) -> None:
    """One email to the operator listing `items`, logged as sent in the same transaction: a
    reminder whose email fails is not marked sent."""
    pack = fse.agency.get_pack()
    rows = schedule_rows(pack, items, subject_names(fse))
    first = rows[0]["due"]
    department = pack.titles.get("department", "")
    sender = f"{fse.agency.name}" + (f", {department}" if department else "")
    lines = [
        f"Dear {operator.name},",
        "",
        f"{sender} reminds you of what falls due at {fse.name} ({fse.code}), {fse.address}:",
        "",
    ]
    section = pack.titles.get("code", "§")
    for row in rows:
        day = row["due"]
        lines.append(f"- By {day:%A}, {day:%B} {day.day}, {day.year}: {row['text']}.")
        law = f"  {section} {row['citation']}"
        if row["if_missed"]:
            law += f" (if missed: {row['if_missed']})"
        lines.append(law)
    lines += [
        "",
        "If it is done already, file it in the operator portal (or ask your hauler to) and",
        "this reminder needs no answer.",
        "",
        f"{sender}, FOG program",
    ]
    message = EmailMessage(
        subject=f"{fse.name}: due by {first:%Y-%m-%d}",
        body="\n".join(lines),
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[operator.email],
    )
    with transaction.atomic():
        ReminderSent.objects.bulk_create(
            ReminderSent(
                establishment=fse,
                obligation=row["obligation"],
                subject=row["subject"],
                due=row["due"],
                sent_on=as_of,
                email=operator.email,
            )
            for row in rows
        )
        message.send()
