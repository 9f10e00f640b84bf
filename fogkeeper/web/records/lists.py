"""The lists of the agency's inspections, pump-outs and trainings: every staff role reads
them, filtered, newest first, a page at a time, and exports every matching row (`?export=csv`
or `?export=xlsx` on the list's own URL, with the filters it shows)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django import forms
from django.shortcuts import render

from fogkeeper.registry.models import Hauler

from ..common.exports import export_response
from ..common.forms import DateInput, choice_field, model_choice_field
from ..common.pages import PAGE_SIZE, agency_page, reads_only
from ..common.paging import list_page
from . import selectors


class RecordFilterForm(forms.Form):
    """The filters every list has: a date range and a search of the establishment."""

    date_from = forms.DateField(required=False, label="From", widget=DateInput)
    date_to = forms.DateField(required=False, label="To", widget=DateInput)
    q = forms.CharField(required=False, max_length=100, label="Establishment name, code or address")
    establishment = forms.CharField(
        required=False,
        max_length=50,
        label="Establishment code",
        help_text="Exactly this code: the establishment's page links its whole history here.",
    )

    def __init__(self, *args, agency, **kwargs):
        super().__init__(*args, **kwargs)
        self.agency = agency

    def clean(self):
        super().clean()
        data = self.cleaned_data
        start, end = data.get("date_from"), data.get("date_to")
        if start and end and end < start:
            self.add_error("date_to", f"The end ({end}) is before the start ({start}).")
        return data


class InspectionFilterForm(RecordFilterForm):
    inspector: forms.ModelChoiceField[Any] = forms.ModelChoiceField(
        queryset=None,
        required=False,
        empty_label="Any",
        to_field_name="username",
        error_messages={"invalid_choice": "Choose one of the people who inspected."},
    )
    result = forms.ChoiceField(required=False, choices=selectors.RESULTS, label="Result")

    def __init__(self, *args, agency, **kwargs):
        super().__init__(*args, agency=agency, **kwargs)
        model_choice_field(self, "inspector").queryset = selectors.inspectors(agency=agency)
        self.fields["inspector"].label = agency.get_pack().titles.get("inspector", "Inspector")


class ServiceFilterForm(RecordFilterForm):
    hauler: forms.ModelChoiceField[Any] = forms.ModelChoiceField(
        queryset=None,
        required=False,
        empty_label="Any",
        to_field_name="code",
        label="Hauler",
        error_messages={"invalid_choice": "Choose one of the agency's haulers."},
    )
    device_kind = forms.ChoiceField(required=False, label="Device kind")

    def __init__(self, *args, agency, **kwargs):
        super().__init__(*args, agency=agency, **kwargs)
        model_choice_field(self, "hauler").queryset = Hauler.objects.filter(agency=agency).order_by(
            "name"
        )
        kinds = agency.get_pack().device_kinds
        choice_field(self, "device_kind").choices = [("", "Any")] + [
            (key, vocab.title) for key, vocab in kinds.items()
        ]


@dataclass(frozen=True)
class RecordList:
    """What one list is: its form, its rows, its export, its template."""

    name: str  # of its export's file, after the agency's code
    form: type[RecordFilterForm]
    rows: Callable  # (agency=, **the form's filters) -> the queryset, newest first
    columns: Callable  # (pack) -> the export's headings
    export_rows: Callable  # (queryset, pack) -> an iterator of the export's rows
    sheet: str
    template: str
    shown: Callable = lambda row, pack: None  # what a row of a page shows beyond its fields


def _list_page(request, kind: RecordList):
    """The list, filtered by the form; refused filters are a 400 naming the field, with
    no rows; `?export=` gives every matching row instead of a page of them."""
    agency, pack = request.agency, request.agency.get_pack()
    form = kind.form(request.GET or None, agency=agency)
    context = {"form": form, "pack": pack, "page": None, "query": _query(request)}
    if form.is_bound and not form.is_valid():
        return render(request, kind.template, context, status=400)
    filters = form.cleaned_data if form.is_bound else {}
    rows = kind.rows(agency=agency, **filters)
    if "export" in request.GET and request.method in ("GET", "HEAD"):
        return export_response(
            request.GET["export"],
            filename=f"{agency.code}-{kind.name}",
            sheet=kind.sheet,
            columns=kind.columns(pack),
            rows=kind.export_rows(rows, pack),
        )
    page = list_page(rows, PAGE_SIZE, request.GET.get("page"))
    page.object_list = list(page.object_list)
    for row in page.object_list:
        kind.shown(row, pack)
    context["page"] = page
    return render(request, kind.template, context)


def _query(request) -> str:
    """The filters of the page shown, for its pages' and its exports' links."""
    query = request.GET.copy()
    for key in ("page", "export"):
        query.pop(key, None)
    return query.urlencode()


INSPECTIONS = RecordList(
    "inspections",
    InspectionFilterForm,
    selectors.inspections,
    selectors.inspection_columns,
    lambda rows, pack: selectors.inspection_rows(rows),
    "Inspections",
    "web/records/inspections.html",
    lambda row, pack: setattr(row, "result", selectors.result_words(row.items, row.failed)),
)
SERVICES = RecordList(
    "pump-outs",
    ServiceFilterForm,
    selectors.services,
    selectors.service_columns,
    selectors.service_rows,
    "Pump-outs",
    "web/records/services.html",
    lambda row, pack: setattr(row, "kind_title", pack.kind_title(row.device.kind)),
)
TRAININGS = RecordList(
    "trainings",
    RecordFilterForm,
    selectors.trainings,
    selectors.training_columns,
    lambda rows, pack: selectors.training_rows(rows),
    "Trainings",
    "web/records/trainings.html",
)


@agency_page
@reads_only
def inspection_list(request):
    return _list_page(request, INSPECTIONS)


@agency_page
@reads_only
def service_list(request):
    return _list_page(request, SERVICES)


@agency_page
@reads_only
def training_list(request):
    return _list_page(request, TRAININGS)
