"""Writes of required reports: the manager requires one, the operator submits it (see
registry.services for the conventions). Each write re-evaluates its establishment, whose
`report.overdue` opens or closes with it."""

from __future__ import annotations

from datetime import date

from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile

from fogkeeper import uploads
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

from .models import ReportRequirement, ReportSubmission

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
    with uploads.atomic():
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
    with uploads.atomic():
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
