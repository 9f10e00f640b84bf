"""The agency-wide lists for staff: the compliance findings the sweep stored, the invoices and
the enforcement actions. Each is filtered by a form read from the query (a bad filter is the
form's error and a 400), paginated, and exported as shown with `?export=csv|xlsx`."""

from __future__ import annotations

from django import forms
from django.shortcuts import render

from fogkeeper.rules.packs import SEVERITIES

from ..common.exports import export_response
from ..common.forms import DateInput, choice_field
from ..common.pages import PAGE_SIZE, agency_page, reads_only
from ..common.paging import list_page
from ..templatetags.words import identifier_words, pack_title
from ..vocabulary import name_subjects
from . import selectors

SEARCH = "Search establishment name, code or address"


def _any(choices) -> list[tuple[str, str]]:
    return [("", "Any"), *choices]


class _Dated(forms.Form):
    """A filter with a date range (`start`, `end`): the end may not be before the start."""

    start = end = ""

    def clean(self):
        super().clean()
        data = self.cleaned_data
        start, end = data.get(self.start), data.get(self.end)
        if start and end and end < start:
            self.add_error(self.end, "The end of the range is before its start.")
        return data


class FindingFilters(forms.Form):
    state = forms.ChoiceField(
        required=False, label="Open or closed", choices=list(selectors.FINDING_STATES.items())
    )
    rule = forms.ChoiceField(required=False, label="Finding")
    severity = forms.ChoiceField(
        required=False, label="Severity", choices=_any((s, identifier_words(s)) for s in SEVERITIES)
    )
    q = forms.CharField(required=False, max_length=100, label=SEARCH)

    def __init__(self, data, *, pack):
        super().__init__(data)
        rules = sorted(
            ((r, pack_title(pack, r)) for r in [*pack.rules, *pack.checklist]),
            key=lambda pair: pair[1],
        )
        choice_field(self, "rule").choices = _any(rules)


class InvoiceFilters(_Dated):
    start, end = "issued_from", "issued_to"
    state = forms.ChoiceField(
        required=False, label="State", choices=_any(selectors.INVOICE_STATES.items())
    )
    issued_from = forms.DateField(required=False, label="Issued from", widget=DateInput)
    issued_to = forms.DateField(required=False, label="Issued to", widget=DateInput)
    q = forms.CharField(required=False, max_length=100, label=f"{SEARCH}, or invoice number")


class ActionFilters(_Dated):
    start, end = "taken_from", "taken_to"
    type = forms.ChoiceField(required=False, label="Type")
    taken_from = forms.DateField(required=False, label="Taken from", widget=DateInput)
    taken_to = forms.DateField(required=False, label="Taken to", widget=DateInput)
    q = forms.CharField(required=False, max_length=100, label=f"{SEARCH}, or case number")

    def __init__(self, data, *, types):
        super().__init__(data)
        choice_field(self, "type").choices = _any(types)


def _list_page(request, *, form, rows, template: str, export: dict, extra=None):
    """The list `rows` filtered by `form`: its export when `?export=` asks for one, else a
    page of it; the page with the form's errors and no rows (400) when a filter is bad."""
    if not form.is_valid():
        context = {"form": form, "page": list_page([], PAGE_SIZE, 1), "query": ""}
        return render(request, template, context, status=400)
    if "export" in request.GET:
        agency = request.agency
        name = export["sheet"].lower().replace(" ", "-")
        return export_response(
            request.GET["export"],
            filename=f"{agency.code}-{name}",
            sheet=export["sheet"],
            columns=export["columns"],
            rows=export["rows"](rows),
        )
    page = list_page(rows, PAGE_SIZE, request.GET.get("page"))
    if extra is not None:
        page.object_list = extra(page.object_list)
    query = request.GET.copy()
    query.pop("page", None)
    context = {"form": form, "page": page, "query": query.urlencode()}
    return render(request, template, context)


def _filters(request, form_class, **kwargs):
    """The form bound to the query; the findings' state is "open" unless asked otherwise."""
    data = request.GET.copy()
    if form_class is FindingFilters:
        data.setdefault("state", "open")
    return form_class(data, **kwargs)


def _cleaned(form) -> dict:
    return form.cleaned_data if form.is_valid() else {}


@agency_page
@reads_only
def finding_list(request):
    """The compliance findings the sweep stored, open ones first asked for."""
    pack = request.agency.get_pack()
    form = _filters(request, FindingFilters, pack=pack)
    rows = selectors.findings(agency=request.agency, **_cleaned(form))
    export = {
        "sheet": "Findings",
        "columns": selectors.FINDING_COLUMNS,
        "rows": lambda qs: selectors.finding_rows(qs, pack),
    }
    return _list_page(
        request,
        form=form,
        rows=rows,
        template="web/lists/findings.html",
        export=export,
        extra=name_subjects,
    )


@agency_page
@reads_only
def invoice_list(request):
    """The agency's invoices with what is owed on each and its state."""
    form = _filters(request, InvoiceFilters)
    rows = selectors.invoices(agency=request.agency, **_cleaned(form))
    export = {
        "sheet": "Invoices",
        "columns": selectors.INVOICE_COLUMNS,
        "rows": selectors.invoice_rows,
    }
    return _list_page(
        request,
        form=form,
        rows=rows,
        template="web/lists/invoices.html",
        export=export,
        extra=selectors.with_due,
    )


@agency_page
@reads_only
def action_list(request):
    """The enforcement actions taken, of every case of the agency."""
    pack = request.agency.get_pack()
    form = _filters(request, ActionFilters, types=selectors.action_types(agency=request.agency))
    rows = selectors.actions(agency=request.agency, **_cleaned(form))
    export = {
        "sheet": "Enforcement actions",
        "columns": selectors.ACTION_COLUMNS,
        "rows": lambda qs: selectors.action_rows(qs, pack),
    }
    return _list_page(
        request,
        form=form,
        rows=rows,
        template="web/lists/actions.html",
        export=export,
        extra=lambda actions: _titled(actions, pack),
    )


def _titled(actions, pack) -> list:
    out = list(actions)
    for action in out:
        action.title = selectors.action_title(pack, action.type)
    return out
