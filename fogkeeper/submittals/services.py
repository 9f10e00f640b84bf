"""Writes of required reports: the manager requires one, the operator submits it (see
registry.services for the conventions). Each write re-evaluates its establishment, whose
`report.overdue` opens or closes with it."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.db import transaction

from fogkeeper import uploads
from fogkeeper.billing.services import invoice_issue
from fogkeeper.reevaluation import reevaluate_on_commit
from fogkeeper.registry.models import FoodServiceEstablishment
from fogkeeper.registry.services import (
    Actor,
    Errors,
    add_error,
    audit,
    check_model,
    check_not_future,
    check_order,
    refuse,
)
from fogkeeper.uploads import Kept, document_kind

from .models import AgencyMonitoring, ReportRequirement, ReportSubmission

REPORT_FILE = Kept(field="file", name="The report", verb="is", whose="The report's", max_mb=20)
MAX_MONTHS = 120


def report_require(
    *,
    establishment: FoodServiceEstablishment,
    kind: str,
    first_due_on: date,
    every_months: int | None = None,
    required_on: date | None = None,
    note: str = "",
    actor: Actor = None,
) -> ReportRequirement:
    """Require of the establishment a report of one of its pack's kinds, due on
    `first_due_on` and every `every_months` months after it (once when None). Refused when
    the pack declares no such kind: the ordinance lets the agency require only those."""
    pack = establishment.agency.get_pack()
    required_on = required_on or establishment.agency.today()
    requirement = ReportRequirement(
        establishment=establishment,
        kind=kind,
        required_on=required_on,
        first_due_on=first_due_on,
        every_months=every_months,
        note=note.strip(),
    )
    errors: Errors = {}
    if kind not in pack.reports:
        known = ", ".join(k.title for k in pack.reports.values()) or "none"
        add_error(errors, "kind", f"{pack.name} lets the agency require no such report ({known}).")
    if establishment.closed_on is not None:
        add_error(errors, "kind", f"{establishment} is closed.")
    check_order(errors, "first_due_on", first_due_on, required_on, "the day it is required")
    if every_months is not None and not 0 < every_months <= MAX_MONTHS:
        add_error(
            errors, "every_months", f"Between 1 and {MAX_MONTHS} months (got {every_months})."
        )
    check_model(requirement, errors)
    refuse(errors)
    with transaction.atomic():
        requirement.save()
        audit("report.require", requirement, actor)
    reevaluate_on_commit(establishment)
    return requirement


def report_end(
    *, requirement: ReportRequirement, ended_on: date, actor: Actor = None
) -> ReportRequirement:
    """No report of the requirement falls due on or after `ended_on`."""
    errors: Errors = {}
    check_order(errors, "ended_on", ended_on, requirement.required_on, "the day it was required")
    refuse(errors)
    requirement.ended_on = ended_on
    with transaction.atomic():
        requirement.save(update_fields=["ended_on"])
        audit("report.end", requirement, actor)
    reevaluate_on_commit(requirement.establishment)
    return requirement


def report_submit(
    *,
    requirement: ReportRequirement,
    due_on: date,
    submitted_on: date,
    file: UploadedFile,
    note: str = "",
    today: date | None = None,
    actor: Actor = None,
) -> ReportSubmission:
    """The report for one due date of the requirement, with its file (a PDF, or a JPEG or
    PNG scan, up to 20 MB), submitted on `submitted_on`: not after today, not before it was
    required, once for each due date."""
    establishment = requirement.establishment
    today = today or establishment.agency.today()
    errors: Errors = {}
    if due_on not in requirement.due_dates(max(today, due_on)):
        add_error(errors, "due_on", f"{requirement.title} is not due on {due_on}.")
    elif requirement.submissions.filter(due_on=due_on).exists():
        add_error(errors, "due_on", f"The report due on {due_on} was submitted already.")
    check_not_future(errors, today, submitted_on=submitted_on)
    check_order(errors, "submitted_on", submitted_on, requirement.required_on, "it was required")
    try:
        kind = document_kind(file, REPORT_FILE)
    except ValidationError as e:
        for message in e.message_dict.get("file", []):
            add_error(errors, "file", message)
        kind = ""
    refuse(errors)
    submission = ReportSubmission(
        requirement=requirement, due_on=due_on, submitted_on=submitted_on, note=note.strip()
    )
    name = f"{establishment.code}-{requirement.kind}-{due_on.isoformat()}.{kind}"
    with uploads.atomic():
        submission.file.save(name, file, save=False)
        check_model(submission, errors)
        refuse(errors)
        submission.save()
        audit("report.submit", submission, actor)
    reevaluate_on_commit(establishment)
    return submission


def report_monitoring_bill(
    *,
    requirement: ReportRequirement,
    due_on: date,
    performed_on: date,
    cost: Decimal,
    note: str = "",
    today: date | None = None,
    actor: Actor = None,
) -> AgencyMonitoring:
    """The agency did the monitoring itself for a due date whose report was not done, and
    bills its cost to the permittee (an invoice of noncompliance charges, noticed today,
    citing the pack's `monitoring_citation`): only where the pack's kind of report lets it,
    after the due date passed with no report, once for each due date."""
    establishment = requirement.establishment
    today = today or establishment.agency.today()
    citation = _monitoring_problems(requirement, due_on, performed_on, cost, today)
    agency_title = establishment.agency.get_pack().titles.get("agency") or "the agency"
    line = {
        "description": f"Monitoring by the {agency_title} on {performed_on}: "
        f"{requirement.title} due {due_on} not submitted",
        "amount": cost,
        "citation": citation,
    }
    with transaction.atomic():
        invoice = invoice_issue(
            establishment=establishment,
            code="",
            kind="noncompliance",
            noticed_on=today,
            lines=[line],
            actor=actor,
        )
        monitoring = AgencyMonitoring(
            requirement=requirement,
            due_on=due_on,
            performed_on=performed_on,
            cost=cost,
            invoice=invoice,
            note=note.strip(),
        )
        monitoring.full_clean()
        monitoring.save()
        audit("report.monitoring_bill", monitoring, actor)
    reevaluate_on_commit(establishment)
    return monitoring


def _monitoring_problems(
    requirement: ReportRequirement, due_on: date, performed_on: date, cost: Decimal, today: date
) -> str:
    """The section letting the agency bill the monitoring of this due date; refused, each
    problem under its field, when it may not."""
    kind = requirement.establishment.agency.get_pack().reports.get(requirement.kind)
    errors: Errors = {}
    if kind is None or not kind.monitoring_citation:
        message = f"The ordinance lets the agency bill no monitoring for {requirement.title}."
        add_error(errors, "due_on", message)
    elif due_on not in requirement.due_dates(max(today, due_on)):
        add_error(errors, "due_on", f"{requirement.title} is not due on {due_on}.")
    elif requirement.submissions.filter(due_on=due_on).exists():
        add_error(errors, "due_on", f"The report due on {due_on} was submitted.")
    elif requirement.monitorings.filter(due_on=due_on).exists():
        add_error(errors, "due_on", f"The monitoring for {due_on} was billed already.")
    after_due = due_on + timedelta(days=1)
    check_order(errors, "performed_on", performed_on, after_due, "the day after it was due")
    check_not_future(errors, today, performed_on=performed_on)
    if cost is None or cost <= 0:
        add_error(errors, "cost", f"Must be more than $0 (got {cost}).")
    refuse(errors)
    assert kind is not None  # else refused
    return kind.monitoring_citation
