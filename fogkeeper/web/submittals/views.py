"""The staff page of the reports the agency requires of an establishment (issue 42): each
requirement's due dates with what was submitted and what is overdue, and the manager's form
requiring one of the kinds the agency's pack declares ("report_requirement"). Under a pack
that declares none the page is not there."""

from __future__ import annotations

from datetime import date

from django.core.exceptions import ValidationError
from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404, render

from fogkeeper.registry.models import FoodServiceEstablishment
from fogkeeper.submittals.models import ReportRequirement, ReportSubmission
from fogkeeper.submittals.selectors import due_reports
from fogkeeper.submittals.services import report_monitoring_bill, report_require

from ..common import policy
from ..common.forms import put_errors
from ..common.pages import agency_page, page_as_of, reads_only
from ..registry.equipment import evaluated
from .forms import MonitoringForm, RequireForm

WRITE = "report_requirement"


@agency_page
def required_reports(request, code: str):
    """GET: the establishment's required reports on the page's day; POST: require one."""
    fse = get_object_or_404(FoodServiceEstablishment, agency=request.agency, code=code)
    pack = request.agency.get_pack()
    if not pack.reports:
        raise Http404("the ordinance lets the agency require no reports")
    may = policy.may_write(request.user, request.agency, WRITE)
    form = RequireForm(request.POST or None, pack=pack)
    if request.method == "POST":
        policy.require_write(request.user, request.agency, WRITE)
        if form.is_valid() and (done := _require(request, fse, form)) is not None:
            return done
    as_of = page_as_of(request)
    context = {
        "fse": fse,
        "on": as_of,
        "rows": due_reports(fse, as_of),
        "kinds": pack.reports.values(),
        "form": form if may else None,
    }
    status = 400 if form.is_bound else 200
    return render(request, "web/submittals/required_reports.html", context, status=status)


def _require(request, fse, form: RequireForm):
    """The requirement made, and the page again saying so; None when it was refused (the
    form then shows why)."""
    try:
        requirement = report_require(establishment=fse, **form.cleaned_data, actor=request.user)
    except ValidationError as e:
        put_errors(form, e)
        return None
    message = f"{requirement.title} required, first due {requirement.first_due_on}."
    return evaluated(request, fse, message=message, to="web:required_reports", code=fse.code)


@agency_page
def report_monitoring(request, code: str, requirement: int, due: str):
    """The manager records that the agency did the monitoring of a due date whose report was
    not done, and bills its cost (where the pack's kind of report lets it)."""
    fse = get_object_or_404(FoodServiceEstablishment, agency=request.agency, code=code)
    found = get_object_or_404(ReportRequirement, establishment=fse, pk=requirement)
    if not found.monitoring_citation:
        raise Http404("the ordinance lets the agency bill no monitoring for this report")
    try:
        due_on = date.fromisoformat(due)
    except ValueError:
        raise Http404("no such due date") from None
    policy.require_write(request.user, request.agency, WRITE)
    form = MonitoringForm(request.POST or None)
    if form.is_valid():
        try:
            done = report_monitoring_bill(
                requirement=found, due_on=due_on, **form.cleaned_data, actor=request.user
            )
        except ValidationError as e:
            put_errors(form, e)
        else:
            message = f"Monitoring of {done.performed_on} billed on invoice {done.invoice.code}."
            return evaluated(request, fse, message=message, to="web:required_reports", code=code)
    context = {"fse": fse, "form": form, "requirement": found, "due_on": due_on}
    status = 400 if form.is_bound else 200
    return render(request, "web/submittals/monitoring.html", context, status=status)


@agency_page
@reads_only
def report_file(request, code: str, submission: int):
    """The file of a report the establishment submitted, as a download (every staff role)."""
    fse = get_object_or_404(FoodServiceEstablishment, agency=request.agency, code=code)
    found = get_object_or_404(ReportSubmission, requirement__establishment=fse, pk=submission)
    name = (found.file.name or "").rsplit("/", 1)[-1]
    return FileResponse(found.file.open("rb"), as_attachment=True, filename=name)
