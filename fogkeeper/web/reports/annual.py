"""The reports pages: the annual report of the FOG program (`/reports/annual/?year=2026`), read
by every staff role, as a page with charts, a PDF (`&format=pdf`) and a workbook
(`&format=xlsx`)."""

from __future__ import annotations

import tempfile
from typing import Any

from django import forms
from django.http import FileResponse, HttpResponse, HttpResponseBadRequest
from django.shortcuts import render
from django.utils import timezone

from fogkeeper.reporting.annual import YearRefused, annual_report, check_year, first_year
from fogkeeper.reporting.annual_documents import annual_pdf, annual_workbook, filename, with_charts

from ..common.exports import XLSX
from ..common.pages import agency_page, reads_only

FORMATS = ("html", "pdf", "xlsx")


class YearForm(forms.Form):
    year = forms.CharField(
        label="Year",
        max_length=8,
        widget=forms.TextInput(
            attrs={"inputmode": "numeric", "class": "usa-input usa-input--small"}
        ),
    )

    def __init__(self, *args, agency, today, **kwargs):
        super().__init__(*args, **kwargs)
        self.agency, self.today = agency, today
        self.fields[
            "year"
        ].help_text = f"A calendar year from {first_year(agency)} to {today.year}."

    def clean_year(self) -> int:
        try:
            return check_year(self.agency, self.cleaned_data["year"], self.today)
        except YearRefused as e:
            raise forms.ValidationError(str(e)) from None


@agency_page
@reads_only
def annual(request):
    today = timezone.localdate()
    data = {"year": request.GET.get("year", "").strip() or str(today.year)}
    form = YearForm(data, agency=request.agency, today=today)
    fmt = request.GET.get("format", "html").strip() or "html"
    if fmt not in FORMATS:
        return HttpResponseBadRequest(
            f"no annual report as {fmt!r}: ask for format=pdf or format=xlsx",
            content_type="text/plain; charset=utf-8",
        )
    if not form.is_valid():
        context: dict[str, Any] = {"form": form, "report": None}
        return render(request, "web/reports/annual.html", context, status=400)
    report = annual_report(agency=request.agency, year=form.cleaned_data["year"], today=today)
    if fmt == "pdf":
        return _pdf(report)
    if fmt == "xlsx":
        return _xlsx(report)
    context = {"form": form, "report": report, "figures": with_charts(report)}
    return render(request, "web/reports/annual.html", context)


def _pdf(report) -> HttpResponse:
    response = HttpResponse(annual_pdf(report), content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{filename(report, "pdf")}"'
    return response


def _xlsx(report) -> FileResponse:
    spool = tempfile.TemporaryFile()  # noqa: SIM115 - the response closes (and so removes) it
    annual_workbook(report, spool)
    spool.seek(0)
    return FileResponse(
        spool, as_attachment=True, filename=filename(report, "xlsx"), content_type=XLSX
    )
