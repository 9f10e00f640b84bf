"""Staff pages: short views, reads in selectors, access decided in policy."""

from __future__ import annotations

import csv
from datetime import date
from functools import wraps

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from . import policy, selectors

PAGE_SIZE = 25
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
CSV_COLUMNS = [
    "code",
    "name",
    "address",
    "city",
    "status",
    "open_violations",
    "next_due",
    "permit_number",
]


def agency_page(view):
    """Login required, and the request acts for one readable agency (request.agency)."""

    @login_required
    @wraps(view)
    def wrapper(request, *args, **kwargs):
        request.agencies = list(policy.readable_agencies(request.user))
        request.agency = policy.current_agency(request)
        if request.agency is None:
            return render(request, "web/no_agency.html", status=403)
        return view(request, *args, **kwargs)

    return wrapper


def _as_of(request) -> date:
    try:
        return date.fromisoformat(request.GET.get("as_of", ""))
    except ValueError:
        return timezone.localdate()


@agency_page
def dashboard(request):
    board = selectors.dashboard(agency=request.agency, as_of=_as_of(request))
    return render(request, "web/dashboard.html", {"board": board})


@require_POST
@agency_page
def agency_switch(request):
    policy.choose_agency(request, request.POST.get("agency", ""))
    next_url = request.POST.get("next", "/")
    if not url_has_allowed_host_and_scheme(next_url, allowed_hosts={request.get_host()}):
        next_url = "/"
    return redirect(next_url)


@agency_page
def establishment_list(request):
    params = request.GET.dict()
    rows = selectors.establishment_list(agency=request.agency, params=params)
    if params.get("export") == "csv":
        return _csv(request.agency, rows)
    if params.get("export") == "xlsx":
        return _xlsx(request.agency, rows)
    page = Paginator(rows, PAGE_SIZE).get_page(params.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    context = {
        "page": page,
        "params": params,
        "query": query.urlencode(),
        "choices": selectors.filter_choices(agency=request.agency),
        "sorts": selectors.SORTS,
    }
    partial = bool(request.headers.get("HX-Request"))
    template = "web/_establishment_rows.html" if partial else "web/establishments.html"
    response = render(request, template, context)
    patch_vary_headers(response, ["HX-Request"])
    return response


def _export_rows(rows):
    for fse in rows:
        status = getattr(fse, "compliance", None)
        yield [
            fse.code,
            fse.name,
            fse.address,
            fse.city,
            status.status if status else "",
            status.open_violations if status else "",
            status.next_due if status and status.next_due else "",
            fse.permit_number or "",
        ]


def _csv(agency, rows) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{agency.code}-establishments.csv"'
    writer = csv.writer(response)
    writer.writerow(CSV_COLUMNS)
    for row in _export_rows(rows):
        writer.writerow([v.isoformat() if isinstance(v, date) else v for v in row])
    return response


def _xlsx(agency, rows) -> HttpResponse:
    from openpyxl import Workbook

    book = Workbook(write_only=True)
    sheet = book.create_sheet("Establishments")
    sheet.append(CSV_COLUMNS)
    for row in _export_rows(rows):
        sheet.append(row)
    response = HttpResponse(content_type=XLSX)
    response["Content-Disposition"] = f'attachment; filename="{agency.code}-establishments.xlsx"'
    book.save(response)
    return response


@agency_page
def establishment_detail(request, code: str):
    page = selectors.establishment_page(agency=request.agency, code=code)
    return render(request, "web/establishment.html", {"p": page})
