"""Incident pages: enter an overflow, find the agency's incidents, keep one current after the
investigation (written report, clearance inspection), and match the spills the import of the
State's export could not place, by hand. What the State asks of a spill is shown only where
the agency's pack names a State pack (`state`: reporting_pack.of_agency)."""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils import timezone

from fogkeeper.compliance import selectors as stored
from fogkeeper.incidents import selectors
from fogkeeper.incidents.reporting_pack import of_agency
from fogkeeper.incidents.services import (
    SPILL_FIELDS,
    incident_match,
    incident_report,
    incident_set_aside,
    incident_update,
)
from fogkeeper.incidents.spills import deadlines, derive_category, summary

from ..common import policy
from ..common.exports import export_response
from ..common.forms import put_errors
from ..common.pages import (
    PAGE_SIZE,
    agency_page,
    page_as_of,
    reads_only,
    record_form_page,
    record_page,
    recorded,
)
from ..templatetags.words import pack_title
from .forms import IncidentFilterForm, IncidentForm, IncidentUpdateForm, MatchForm, SetAsideForm

UPDATED = (
    "attributed",
    "fog_caused",
    "gallons",
    "cause",
    "written_report_on",
    "clearance_inspection_on",
    *SPILL_FIELDS,
)
EXPORT_COLUMNS = [
    "Incident",
    "Date",
    "Kind",
    "Establishment code",
    "Establishment",
    "Address",
    "Source",
    "Gallons spilled",
    "Gallons recovered",
    "Gallons reaching surface water",
    "Category",
    "Category set",
    "State reports",
    "Spill started",
    "Spill ended",
    "Agency learned of it",
    "Draft report",
    "Certified report",
    "Amended report",
    "Written report",
    "Clearance inspection",
    "Cause",
]
# The columns of the State's reporting, left out where the agency's pack names no State pack.
STATE_COLUMNS = (
    "Category",
    "Category set",
    "State reports",
    "Draft report",
    "Certified report",
    "Amended report",
)


@record_page("incident")
def record_incident(request, fse):
    form = IncidentForm(request.POST or None, state=of_agency(request.agency))
    if form.is_valid():
        try:
            incident_report(
                agency=request.agency,
                establishment=fse,
                **form.cleaned_data,
                today=timezone.localdate(),
                now=timezone.now(),
                actor=request.user,
            )
        except ValidationError as e:
            put_errors(form, e)
        else:
            return recorded(request, fse)
    return record_form_page(request, fse, form, "Record an incident")


def incident_page(*, write: bool = False):
    """A page about one incident of the agency acted for (404 for any other agency's); one
    that writes answers 403 to a role that may not record incidents."""

    def decorate(view):
        @agency_page
        @wraps(view)
        def wrapper(request, pk: int):
            found = selectors.incident(agency=request.agency, pk=pk)
            if found is None:
                raise Http404("no such incident")
            if write:
                policy.require_write(request.user, request.agency, "incident")
            return view(request, found)

        return wrapper

    return decorate


def _paged(request, rows):
    query = request.GET.copy()
    query.pop("page", None)
    return Paginator(rows, PAGE_SIZE).get_page(request.GET.get("page")), query.urlencode()


@agency_page
@reads_only
def incident_list(request):
    """The agency's incidents, filtered and searched, newest first."""
    state = of_agency(request.agency)
    form = IncidentFilterForm(request.GET, state=state)
    filters = form.cleaned_data if form.is_valid() else {}
    as_of = page_as_of(request)
    rows = selectors.incidents(agency=request.agency, **filters, as_of=as_of)
    if "export" in request.GET:
        return _export(request.GET["export"], request.agency, rows, as_of, state)
    page, query = _paged(request, rows)
    page.object_list = [_row(i, as_of, state) for i in page.object_list]
    context = {
        "form": form,
        "page": page,
        "query": query,
        "state": state,
        "to_review": selectors.to_review(agency=request.agency).count(),
    }
    return render(request, "web/incidents/list.html", context)


def _row(incident, as_of, state) -> dict:
    found = deadlines(incident, as_of, state) if state is not None else []
    return {"incident": incident, "reports": summary(found), "late": any(d.late for d in found)}


def _export_rows(rows, as_of, state, tz):
    """Each incident as the list shows it, with its volumes, and its category and State
    reports where the agency has a State pack."""
    for i in rows:
        row = _export_row(i, as_of, state, tz)
        yield (
            row
            if state is not None
            else [v for c, v in zip(EXPORT_COLUMNS, row, strict=True) if c not in STATE_COLUMNS]
        )


def _export_row(i, as_of, state, tz) -> list:
    fse = i.establishment
    found = deadlines(i, as_of, state) if state is not None else []
    return [
        i.code,
        i.date,
        i.kind,
        fse.code if fse else "",
        fse.name if fse else "",
        i.address,
        i.get_source_display(),
        i.gallons,
        i.gallons_recovered,
        i.gallons_to_surface_water,
        i.category,
        i.get_category_source_display() if i.category_source else "",
        summary(found),
        _local(i.started_at, tz),
        _local(i.ended_at, tz),
        _local(i.known_at, tz),
        i.draft_report_on,
        i.certified_report_on,
        i.amended_report_on,
        i.written_report_on,
        i.clearance_inspection_on,
        i.cause,
    ]


def _local(moment, tz):
    """A stored (UTC) time as the agency's local wall-clock time, for a spreadsheet (the rows
    are streamed after the page's time zone is let go: `tz` is the agency's)."""
    return timezone.localtime(moment, tz).replace(tzinfo=None) if moment else None


def _export(fmt: str, agency, rows, as_of, state):
    """The incidents listed, as `fmt` (csv or xlsx), streamed (common/exports.py)."""
    columns = (
        EXPORT_COLUMNS
        if state is not None
        else [c for c in EXPORT_COLUMNS if c not in STATE_COLUMNS]
    )
    return export_response(
        fmt,
        filename=f"{agency.code}-incidents-{as_of.isoformat()}",
        sheet="Incidents",
        columns=columns,
        rows=_export_rows(
            rows.iterator(chunk_size=2000), as_of, state, agency.get_pack().calendar.tz
        ),
    )


@agency_page
@reads_only
def incident_review(request):
    """Imported spills no establishment was matched to, for staff to match or set aside."""
    page, query = _paged(request, selectors.to_review(agency=request.agency))
    rows = [{"incident": i, "columns": selectors.source_columns(i)} for i in page]
    context = {
        "page": page,
        "rows": rows,
        "query": query,
        "may_write": policy.may_write(request.user, request.agency, "incident"),
    }
    return render(request, "web/incidents/review.html", context)


@incident_page()
@reads_only
def incident_detail(request, incident):
    pack = request.agency.get_pack()
    found = [
        {"finding": f, "title": pack_title(pack, f.rule)}
        for f in stored.incident_findings(incident)
    ]
    context = {
        "incident": incident,
        "findings": found,
        "schedule": stored.incident_schedule(incident),
        "columns": selectors.source_columns(incident),
        "may_write": policy.may_write(request.user, request.agency, "incident"),
        **_state_reporting(incident, page_as_of(request)),
    }
    return render(request, "web/incidents/detail.html", context)


def _state_reporting(incident, as_of) -> dict:
    """The category with how it was decided, and the deadlines of the agency's State pack
    with their citations and states; nothing (`pack` None) where its pack names none."""
    pack = of_agency(incident.agency)
    if pack is None:
        return {"pack": None, "as_of": as_of}
    _, reason = derive_category(incident, pack)
    category = pack.categories.get(incident.category) if incident.category else None
    return {
        "pack": pack,
        "category": category,
        "category_reason": reason,
        "deadlines": deadlines(incident, as_of, pack),
        "unconfirmed": pack.unconfirmed_for(incident.category) if incident.category else [],
        "as_of": as_of,
    }


@incident_page(write=True)
def incident_edit(request, incident):
    """What the investigation found, and the written report and clearance inspection."""
    initial = {name: getattr(incident, name) for name in UPDATED}
    if incident.category_source == "staff":
        initial["category"] = incident.category
    form = IncidentUpdateForm(
        request.POST or None, initial=initial, state=of_agency(request.agency)
    )
    if form.is_valid():
        try:
            incident_update(
                incident=incident,
                **form.cleaned_data,
                today=timezone.localdate(),
                now=timezone.now(),
                as_of=page_as_of(request),
                actor=request.user,
            )
        except ValidationError as e:
            put_errors(form, e)
        else:
            return _updated(request, incident)
    context = {"incident": incident, "form": form}
    status = 400 if form.is_bound else 200
    return render(request, "web/incidents/edit.html", context, status=status)


def _updated(request, incident):
    fse = incident.establishment
    again = f" {fse.name} was evaluated again." if fse is not None else ""
    messages.success(request, f"Incident {incident.code} recorded.{again}")
    return redirect("web:incident", pk=incident.pk)


@incident_page(write=True)
def incident_match_page(request, incident):
    """Match an incident no establishment was matched to (an imported spill) to one of the
    agency's establishments."""
    if incident.establishment_id is not None:
        return redirect("web:incident", pk=incident.pk)
    form = MatchForm(request.POST or None, agency=request.agency)
    if form.is_valid():
        try:
            incident_match(
                incident=incident,
                establishment=form.cleaned_data["establishment"],
                today=timezone.localdate(),
                as_of=page_as_of(request),
                actor=request.user,
            )
        except ValidationError as e:
            put_errors(form, e)
        else:
            return _updated(request, incident)
    return _match_page(request, incident, form, SetAsideForm())


@incident_page(write=True)
def incident_set_aside_page(request, incident):
    """Set an imported spill aside: reviewed, not from a food service establishment."""
    if incident.establishment_id is not None:
        return redirect("web:incident", pk=incident.pk)
    form = SetAsideForm(request.POST or None)
    if form.is_valid():
        try:
            incident_set_aside(
                incident=incident,
                note=form.cleaned_data["review_note"],
                today=timezone.localdate(),
                actor=request.user,
            )
        except ValidationError as e:
            put_errors(form, e)
        else:
            messages.success(request, f"Spill {incident.code} set aside as not from an FSE.")
            return redirect("web:incident_review")
    return _match_page(request, incident, MatchForm(agency=request.agency), form)


def _match_page(request, incident, match, aside):
    q = request.GET.get("q", "")
    context = {
        "incident": incident,
        "columns": selectors.source_columns(incident),
        "candidates": selectors.candidates(incident=incident, q=q),
        "q": q,
        "match": match,
        "aside": aside,
    }
    status = 400 if match.is_bound or aside.is_bound else 200
    return render(request, "web/incidents/match.html", context, status=status)
