"""The annual fee invoices (San Clemente 13.30.050(M)): the manager or the clerk invoices the
year's annual inspection fee to every active establishment at once, as of a notice date; a
worker does it (billing/annual_runs.py; here and now when no broker is set) and the run's
page follows it to the end: how many were issued, already invoiced that year, or refused
and why. An agency whose fee schedule has no such fee is told so before anything is done."""

from __future__ import annotations

from datetime import date

from django import forms
from django.contrib import messages
from django.http import HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect, render

from fogkeeper.audit.services import audit_record
from fogkeeper.billing.annual import NoAnnualFee, active_establishments, fee_for_year
from fogkeeper.billing.annual_runs import (
    AnnualFeesUnderway,
    queue,
    start_annual_fees,
    underway,
)
from fogkeeper.billing.models import AnnualFeeRun, Invoice

from ..common import jobs, policy
from ..common.dates import agency_today
from ..common.forms import DateInput
from ..common.pages import agency_page, reads_only

KIND = "invoice"  # the kind of write invoicing is (policy.WRITES: the manager's, the clerk's)
REFUSALS_SHOWN = 200


class AnnualFeesForm(forms.Form):
    year = forms.IntegerField(
        label="Fee year",
        min_value=2000,
        max_value=2100,
        error_messages={
            "required": "Enter the year whose annual fee is invoiced.",
            "invalid": "Enter the fee year as a number, such as 2026.",
            "min_value": "Enter a fee year from 2000 on.",
            "max_value": "Enter a fee year before 2100.",
        },
    )
    noticed_on = forms.DateField(
        label="Notice date",
        widget=DateInput,
        help_text="The date the invoices are noticed on; payment is due from it. In the fee year.",
        error_messages={
            "required": "Enter the notice date of the invoices.",
            "invalid": "Enter the notice date as a date (YYYY-MM-DD).",
        },
    )

    def __init__(self, *args, agency, **kwargs):
        super().__init__(*args, **kwargs)
        self.agency, self.today = agency, agency_today(agency)
        self.fields["year"].initial = self.today.year
        self.fields["noticed_on"].initial = self.today

    def clean_noticed_on(self) -> date:
        day = self.cleaned_data["noticed_on"]
        if day > self.today:
            raise forms.ValidationError(
                f"The notice date {day} is after today ({self.today}): an invoice is noticed "
                "on the day it is sent or before."
            )
        return day

    def clean(self):
        super().clean()
        data = self.cleaned_data
        year, day = data.get("year"), data.get("noticed_on")
        if year is not None and day is not None:
            try:
                data["fee"] = fee_for_year(self.agency, year, day)
            except NoAnnualFee as e:
                raise forms.ValidationError(str(e)) from e
        return data


def preview(agency, year: int, on: date) -> dict:
    """What a run for `year` noticed on `on` would do: the fee, or why there is none; how many
    establishments are active, and how many of them were invoiced the fee that year."""
    try:
        fee = fee_for_year(agency, year, on)
    except NoAnnualFee as e:
        return {"year": year, "fee": None, "reason": str(e)}
    active = active_establishments(agency, on)
    invoiced = (
        Invoice.objects.filter(
            establishment__in=active,
            kind="fee",
            noticed_on__year=year,
            lines__fee_item__code=fee.code,
        )
        .values("establishment")
        .distinct()
        .count()
    )
    count = active.count()
    return {
        "year": year,
        "fee": fee,
        "active": count,
        "invoiced": invoiced,
        "to_do": count - invoiced,
    }


def run_words(run: AnnualFeeRun) -> str:
    if run.underway:
        return f"{run.status_words().lower()} — {run.done} of {run.total} establishments"
    return run.get_status_display()


def _form(request, data=None) -> AnnualFeesForm | None:
    if not policy.may_write(request.user, request.agency, KIND):
        return None
    return AnnualFeesForm(data, agency=request.agency)


def _list(request, form, refused_by=None, status=200):
    runs = AnnualFeeRun.objects.filter(agency=request.agency).select_related("requested_by")
    page = jobs.runs_page(request, runs, run_words)
    today = agency_today(request.agency)
    context = {
        "page": page,
        "form": form,
        "underway": refused_by or underway(request.agency),
        "refused": refused_by is not None,
        "preview": preview(request.agency, today.year, today),
    }
    return render(request, "web/billing/annual_fees.html", context, status=status)


@agency_page
@reads_only
def annual_fee_list(request):
    """The agency's annual fee runs, newest first; what this year's would do; the form."""
    return _list(request, _form(request))


@agency_page
def annual_fee_start(request):
    """Invoice the annual fee of the year asked for, then show its run."""
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    policy.require_write(request.user, request.agency, KIND)
    form = _form(request, request.POST)
    assert form is not None  # the person may write (required above)
    if not form.is_valid():
        return _list(request, form, status=400)
    data = form.cleaned_data
    try:
        run = start_annual_fees(
            agency=request.agency, year=data["year"], on=data["noticed_on"], user=request.user
        )
    except AnnualFeesUnderway as e:
        return _list(request, form, refused_by=e.run, status=409)
    except NoAnnualFee as e:  # the fee schedule changed since the form was checked
        form.add_error(None, str(e))
        return _list(request, form, status=400)
    audit_record(action="annual_fees.start", obj=run, actor=request.user, agency=request.agency)
    messages.success(request, f"The annual fee invoices of {run.year} were started.")
    return redirect("web:annual_fee_run", pk=run.pk)


@agency_page
@reads_only
def annual_fee_run(request, pk: int):
    """One run: its progress while it runs (htmx polls the fragment), then what it did."""
    run = get_object_or_404(
        AnnualFeeRun.objects.select_related("requested_by"), pk=pk, agency=request.agency
    )
    return jobs.run_page(
        request,
        run,
        kind=KIND,
        page="web/billing/annual_fee_run.html",
        fragment="web/billing/_annual_fee_progress.html",
        status=run_words(run),
        refused=run.refused[:REFUSALS_SHOWN],
        refused_more=max(len(run.refused) - REFUSALS_SHOWN, 0),
    )


@agency_page
def annual_fee_requeue(request, pk: int):
    """Queue a stalled run again: it carries on, and what it invoiced stays invoiced once."""
    run = get_object_or_404(AnnualFeeRun, pk=pk, agency=request.agency)
    return jobs.requeue(
        request,
        run,
        kind=KIND,
        queue=queue,
        action="annual_fees.requeue",
        what="run",
        page="web:annual_fee_run",
    )
