"""Reminders to operators, by email, before a pump-out or a BMP training falls due and before
the permit's renewal date, read from each establishment's stored schedule (the last sweep's
ComplianceStatus.schedule). Each reminder is sent once (ReminderSent); an operator without
an email address is counted and reminded on a later run once it has one.

What is already overdue is named too, first, with how many days overdue, the fine accrued on
it to date (the engine's accruals of the last sweep) and its citation: at most once a week
for each item (OverdueReminder), until it is done and leaves the overdue schedule."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, timedelta

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.db.models import F, Q

from fogkeeper.compliance.models import ComplianceStatus
from fogkeeper.registry.models import Agency, OperatorTenure
from fogkeeper.rules.checks import obligations

from .models import OverdueReminder, ReminderSent
from .operator.selectors import (
    item_fines,
    operators_own,
    overdue_rows,
    schedule_rows,
    subject_names,
)

# Where the ordinance sets a renewal application date (San Clemente), that is the renewal
# date; the Town's permit is renewed by its expiry, with the business license.
RENEWAL_APPLICATION_RULE = "permit.renewal_late"
CODES_SHOWN = 10  # establishments named in the summary's lines
WEEK = timedelta(days=7)  # an overdue item is reminded again a week after, at the soonest


def counted(n: int, word: str) -> str:
    """A count with its noun in the right number: 1 email, 2 emails."""
    return f"{n} {word}" + ("" if n == 1 else "s")


@dataclass
class Summary:
    as_of: date
    until: date
    emails: int = 0
    reminders: int = 0
    already_sent: int = 0
    overdue: int = 0
    overdue_this_week: int = 0
    without_email: list[str] = field(default_factory=list)
    without_operator: list[str] = field(default_factory=list)

    @staticmethod
    def _codes(codes: list[str]) -> str:
        shown = ", ".join(codes[:CODES_SHOWN])
        return shown + (f" and {len(codes) - CODES_SHOWN} more" if len(codes) > CODES_SHOWN else "")

    def lines(self) -> list[str]:
        out = [
            f"Reminders as of {self.as_of} of what falls due by {self.until}: "
            f"{counted(self.reminders, 'reminder')} in {counted(self.emails, 'email')}; "
            f"{self.already_sent} sent before.",
            f"Overdue: {counted(self.overdue, 'item')} reminded; "
            f"{self.overdue_this_week} reminded in the last 7 days, not again yet.",
        ]
        if self.without_email:
            codes = self._codes(self.without_email)
            out.append(f"No operator email, not reminded: {len(self.without_email)} ({codes}).")
        if self.without_operator:
            codes = self._codes(self.without_operator)
            out.append(f"No current operator: {len(self.without_operator)} ({codes}).")
        return out


def _reminded(pack, obligation: str) -> bool:
    """Ahead of its day, an operator is reminded of the obligations their check module says
    (Rule.reminded: a pump-out, a training, the permit's renewal; RULES.md 4, 5, 7)."""
    declared = obligations().get(obligation)
    if declared is None or not declared.reminded:
        return False
    return not (obligation == "permit.expiry" and pack.has(RENEWAL_APPLICATION_RULE))


def _overdue_reminded(pack, obligation: str) -> bool:
    """Overdue, every obligation of the operator's own is named (a waste cooking oil pickup,
    an overflow's written report too), the permit's expiry as before."""
    if not operators_own(obligation):
        return False
    return not (obligation == "permit.expiry" and pack.has(RENEWAL_APPLICATION_RULE))


def _operators(establishment_ids, as_of: date) -> dict:
    tenures = OperatorTenure.objects.filter(
        Q(until__isnull=True) | Q(until__gte=as_of),
        establishment_id__in=establishment_ids,
        since__lte=as_of,
    ).select_related("operator")
    return {t.establishment_id: t.operator for t in tenures}


@dataclass
class Due:
    """What one establishment's operator is to be reminded of on a run."""

    status: ComplianceStatus
    upcoming: list[dict] = field(default_factory=list)
    overdue: list[dict] = field(default_factory=list)


def send_reminders(*, as_of: date, days: int, agencies: list[Agency] | None = None) -> Summary:
    """Email each operator what it is reminded of ahead (_reminded) that falls due from
    `as_of` through `as_of + days` and was not reminded of before, and what of its obligations
    is overdue and was not reminded of in the last week."""
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
    due = {s.establishment_id: d for s in statuses if (d := _due(s, as_of, until)) is not None}
    _leave_out_sent(due, summary)
    _leave_out_this_week(due, as_of, summary)
    operators = _operators(due, as_of)
    for est_id, d in due.items():
        if not (d.upcoming or d.overdue):
            continue
        fse = d.status.establishment
        operator = operators.get(est_id)
        if operator is None:
            summary.without_operator.append(fse.code)
            continue
        if not operator.email:
            summary.without_email.append(fse.code)
            continue
        _send(fse, operator, d, as_of)
        summary.emails += 1
        summary.reminders += len(d.upcoming) + len(d.overdue)
        summary.overdue += len(d.overdue)
    return summary


def _due(status: ComplianceStatus, as_of: date, until: date) -> Due | None:
    """What of the establishment's stored schedule falls due by `until`, and what is overdue
    on `as_of` (read with the names and fines only when something is)."""
    pack = status.establishment.agency.get_pack()
    schedule = status.schedule or []
    upcoming = [
        item
        for item in schedule
        if _reminded(pack, item.get("obligation", ""))
        and as_of <= date.fromisoformat(item["due"]) <= until
    ]
    late = [
        item
        for item in schedule
        if _overdue_reminded(pack, item.get("obligation", ""))
        and date.fromisoformat(item["due"]) < as_of
    ]
    if not (upcoming or late):
        return None
    overdue = []
    if late:
        fse = status.establishment
        fines = item_fines(fse, status.accruals or [])
        overdue = overdue_rows(pack, late, subject_names(fse), fines, as_of)
    return Due(status=status, upcoming=upcoming, overdue=overdue)


def _leave_out_sent(due: dict[int, Due], summary: Summary) -> None:
    """What falls due is reminded of once."""
    sent = defaultdict(set)
    for est_id, obligation, subject, day in ReminderSent.objects.filter(
        establishment_id__in=due
    ).values_list("establishment_id", "obligation", "subject", "due"):
        sent[est_id].add((obligation, subject, day))
    for est_id, d in due.items():
        new = [
            i
            for i in d.upcoming
            if (i["obligation"], i.get("subject", ""), date.fromisoformat(i["due"]))
            not in sent[est_id]
        ]
        summary.already_sent += len(d.upcoming) - len(new)
        d.upcoming = new


def _leave_out_this_week(due: dict[int, Due], as_of: date, summary: Summary) -> None:
    """What is overdue is reminded of again a week after the last time, at the soonest."""
    last = {
        (est_id, obligation, subject, day): on
        for est_id, obligation, subject, day, on in OverdueReminder.objects.filter(
            establishment_id__in=[k for k, d in due.items() if d.overdue]
        ).values_list("establishment_id", "obligation", "subject", "due", "last_sent_on")
    }
    for est_id, d in due.items():
        keep = []
        for row in d.overdue:
            on = last.get((est_id, row["obligation"], row["subject"], row["due"]))
            if on is not None and as_of < on + WEEK:
                summary.overdue_this_week += 1
            else:
                keep.append(row)
        d.overdue = keep


def _send(fse, operator, due: Due, as_of: date) -> None:
    """One email to the operator listing what is overdue, then what falls due, logged as
    sent in the same transaction: a reminder whose email fails is not marked sent."""
    pack = fse.agency.get_pack()
    rows = schedule_rows(pack, due.upcoming, subject_names(fse)) if due.upcoming else []
    department = pack.titles.get("department", "")
    sender = f"{fse.agency.name}" + (f", {department}" if department else "")
    section = pack.titles.get("code", "§")
    lines = [f"Dear {operator.name},", ""]
    if due.overdue:
        lines += [f"{sender} reminds you of what is overdue at {_where(fse)}:", ""]
        lines += [line for row in due.overdue for line in _overdue_lines(row, section)]
        lines.append("")
    if rows:
        also = " also" if due.overdue else ""
        lines += [f"{sender}{also} reminds you of what falls due at {_where(fse)}:", ""]
        lines += [line for row in rows for line in _upcoming_lines(row, section)]
        lines.append("")
    lines += [
        "If it is done already, file it in the operator portal (or ask your hauler to) and",
        "this reminder needs no answer.",
        "",
        f"{sender}, FOG program",
    ]
    message = EmailMessage(
        subject=_subject(fse, due.overdue, rows),
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
        for row in due.overdue:
            _log_overdue(fse, row, as_of, operator.email)
        message.send()


def _where(fse) -> str:
    return f"{fse.name} ({fse.code}), {fse.address}"


def _subject(fse, overdue: list[dict], rows: list[dict]) -> str:
    if overdue:
        since = overdue[0]["due"]
        return f"{fse.name}: {counted(len(overdue), 'item')} overdue since {since:%Y-%m-%d}"
    return f"{fse.name}: due by {rows[0]['due']:%Y-%m-%d}"


def _long(day: date) -> str:
    return f"{day:%A}, {day:%B} {day.day}, {day.year}"


def _upcoming_lines(row: dict, section: str) -> list[str]:
    law = f"  {section} {row['citation']}"
    if row["if_missed"]:
        law += f" (if missed: {row['if_missed']})"
    return [f"- By {_long(row['due'])}: {row['text']}.", law]


def _overdue_lines(row: dict, section: str) -> list[str]:
    """An overdue item: what, due when, days overdue; its citation; the fine to date."""
    lines = [
        f"- {row['text']}: due by {_long(row['due'])}, {counted(row['days'], 'day')} overdue.",
        f"  {section} {row['citation']}" + (f" ({row['if_missed']})" if row["if_missed"] else ""),
    ]
    fine = row["fine"]
    if fine:
        lines.append(
            f"  Fine to date: ${fine['amount']:,.2f}, ${fine['rate']:,.2f} a day from "
            f"{fine['start']:%Y-%m-%d} through {fine['through']:%Y-%m-%d} "
            f"({section} {fine['citation']})."
        )
    return lines


def _log_overdue(fse, row: dict, as_of: date, email: str) -> None:
    key = {"establishment": fse, "obligation": row["obligation"], "subject": row["subject"]}
    updated = OverdueReminder.objects.filter(**key, due=row["due"]).update(
        last_sent_on=as_of, times=F("times") + 1, email=email
    )
    if not updated:
        OverdueReminder.objects.create(**key, due=row["due"], last_sent_on=as_of, email=email)
