"""The operator's page of the reports the agency requires of its establishment (issue 42):
what is due and overdue, with the section that asks it, and the form submitting one (the
report's file and the day it is submitted). Under a pack that declares no kinds of report
the page is not there."""

from __future__ import annotations

from datetime import date

from django import forms
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import render
from django.utils import timezone

from fogkeeper.submittals.selectors import DueReport, outstanding_reports
from fogkeeper.submittals.services import report_submit
from fogkeeper.web.common.forms import DateInput, put_errors

from .views import _filed, writes


class SubmitForm(forms.Form):
    report = forms.ChoiceField(label="Which report")
    submitted_on = forms.DateField(label="Date submitted", widget=DateInput)
    file = forms.FileField(label="The report (PDF, or a JPEG or PNG scan, up to 20 MB)")
    note = forms.CharField(
        label="Note to the agency (optional)",
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
    )

    def __init__(self, *args, due: list[DueReport], **kwargs):
        super().__init__(*args, **kwargs)
        self.due = {_key(row): row for row in due}
        field = self.fields["report"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [(key, _label(row)) for key, row in self.due.items()]


def _key(row: DueReport) -> str:
    return f"{row.requirement.pk}:{row.due_on.isoformat()}"


def _label(row: DueReport) -> str:
    late = ", overdue" if row.overdue else ""
    return f"{row.requirement.title}, due {row.due_on:%Y-%m-%d}{late}"


@writes("report")
def reports(request, fse):
    """GET: what the agency requires and when; POST: submit one."""
    if not fse.agency.get_pack().reports:
        raise Http404("the ordinance lets the agency require no reports")
    today = timezone.localdate()
    due = outstanding_reports(fse, today)
    initial = {"submitted_on": today}
    form = SubmitForm(request.POST or None, request.FILES or None, due=due, initial=initial)
    if form.is_valid():
        row = form.due[form.cleaned_data["report"]]
        try:
            _submit(request, row, form.cleaned_data, today)
        except ValidationError as e:
            put_errors(form, e)
        else:
            what = f"{row.requirement.title} due {row.due_on:%Y-%m-%d} submitted."
            return _filed(request, fse, what, page="portal:operator_reports")
    context = {"fse": fse, "form": form, "due": due}
    status = 400 if form.is_bound else 200
    return render(request, "portal/operator/reports.html", context, status=status)


def _submit(request, row: DueReport, data: dict, today: date) -> None:
    report_submit(
        requirement=row.requirement,
        due_on=row.due_on,
        submitted_on=data["submitted_on"],
        file=data["file"],
        note=data["note"],
        today=today,
        actor=request.user,
    )
