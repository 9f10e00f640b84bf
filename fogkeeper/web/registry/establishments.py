"""The establishments: the agency's list, filtered and sorted (and exported as CSV or Excel),
and one establishment's page as of a day, with what the person may record for it. Reads only:
the list and the page come from selectors (the stored compliance status, or the engine's word
on another day), the page's sections from establishment_page."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.shortcuts import render
from django.utils.cache import patch_vary_headers

from fogkeeper.submittals.selectors import due_reports

from ..common import policy
from ..common.dates import explicit_as_of
from ..common.exports import export_response
from ..common.pages import PAGE_SIZE, agency_page, page_as_of, reads_only
from ..enforcement.from_findings import may_send_first_notice
from ..templatetags.words import status_word
from . import selectors
from .establishment_page import evaluated_on, page_extras, page_numbers, section_queries

RECORDS = (
    "service",
    "inspection",
    "sample",
    "training",
    "incident",
    "permit",
    "operator_change",
    "plan_review",
    "dispute",
    "notice",
    "yellow_grease",
)  # what the establishment page links to a form for
CSV_COLUMNS = ["Code", "Name", "Address", "City", "Status", "Open violations", "Next due"]


@agency_page
@reads_only
def establishment_list(request):
    params = request.GET.dict()
    rows = selectors.establishment_list(agency=request.agency, params=params)
    if "export" in params:
        return _export(params["export"], request.agency, rows)
    page = Paginator(rows, PAGE_SIZE).get_page(params.get("page"))
    as_of = page_as_of(request)
    if explicit_as_of(request):
        page.object_list = list(page.object_list)
        selectors.shown_on(agency=request.agency, establishments=page.object_list, as_of=as_of)
    query = request.GET.copy()
    query.pop("page", None)
    context = {
        "page": page,
        "as_of": as_of,
        # every filter present: a variable missing from a template is slow to resolve
        "params": {**dict.fromkeys((*selectors.FILTERS, "sort"), ""), **params},
        "query": query.urlencode(),
        "choices": selectors.filter_choices(agency=request.agency),
        "sorts": selectors.SORTS,
        "may_notice": may_send_first_notice(request),
    }
    partial = bool(request.headers.get("HX-Request"))
    template = (
        "web/registry/_establishment_rows.html" if partial else "web/registry/establishments.html"
    )
    response = render(request, template, context)
    patch_vary_headers(response, ["HX-Request"])
    return response


def _export_columns(agency) -> list[str]:
    """The export's column headings, as the list page shows them (the permit in the pack's
    words, and none for a pack without permits)."""
    pack = agency.get_pack()
    if not pack.has_permits:
        return list(CSV_COLUMNS)
    return [*CSV_COLUMNS, f"{pack.titles.get('permit', 'Permit')} number"]


def _export_rows(rows, permits: bool = True):
    """Each establishment as the list page shows it: the status in plain words."""
    for fse in rows:
        status = getattr(fse, "compliance", None)
        yield [
            fse.code,
            fse.name,
            fse.address,
            fse.city,
            status_word(status.status) if status else "",
            status.open_violations if status else "",
            status.next_due if status and status.next_due else "",
            *([fse.permit_number or ""] if permits else []),
        ]


def _export(fmt: str, agency, rows):
    """The establishments listed, as `fmt` (csv or xlsx), streamed (common/exports.py)."""
    return export_response(
        fmt,
        filename=f"{agency.code}-establishments",
        sheet="Establishments",
        columns=_export_columns(agency),
        rows=_export_rows(rows.iterator(chunk_size=2000), agency.get_pack().has_permits),
    )


@agency_page
@reads_only
def establishment_detail(request, code: str):
    """One establishment as of the day asked for (the engine's word on a day other than its
    last evaluation's)."""
    pack, as_of, pages = request.agency.get_pack(), page_as_of(request), page_numbers(request.GET)
    upto = as_of if explicit_as_of(request) else None
    page = selectors.establishment_page(
        agency=request.agency, code=code, as_of=as_of, upto=upto, pages=pages
    )
    if upto is not None:
        page = evaluated_on(page, pack, as_of)
    may_record = [k for k in RECORDS if policy.may_write(request.user, request.agency, k)]
    extras = page_extras(page=page, pack=pack, as_of=as_of, pages=pages)
    queries = section_queries(request.GET)
    context = {
        "establishment_page": page,
        "required_reports": due_reports(page.establishment, as_of) if pack.reports else None,
        "may_record": may_record,
        "as_of": as_of,
        "queries": queries,
        **extras,
    }
    return render(request, "web/registry/establishment.html", context)
