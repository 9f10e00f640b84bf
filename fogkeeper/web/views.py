"""Staff pages: short views, reads in selectors, access decided in policy."""

from __future__ import annotations

from datetime import date
from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.db import transaction
from django.http import Http404, HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from fogkeeper.compliance.resweep import sweep_establishment
from fogkeeper.enforcement.selectors import with_cases
from fogkeeper.inspections.services import (
    Answer,
    Reading,
    inspection_photo_add,
    inspection_record,
)
from fogkeeper.maintenance.services import service_record
from fogkeeper.registry import selectors as registry_selectors
from fogkeeper.registry.models import FoodServiceEstablishment, Operator
from fogkeeper.registry.services import operator_change
from fogkeeper.training.services import training_record

from . import policy, selectors
from .dates import as_of_choice, explicit_as_of
from .establishment import (
    accumulation_limit,
    evaluated_on,
    page_extras,
    page_numbers,
    section_queries,
)
from .exports import export_response
from .forms import (
    InspectionForm,
    OperatorChangeForm,
    ServiceForm,
    TrainingForm,
    put_errors,
)
from .models import STAFF_ROLES
from .templatetags.words import status_word

PAGE_SIZE = 25
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


def reads_only(view):
    """A page that only reads: any method but GET and HEAD is refused with 405, but only after
    the view has looked up what the URL names, so that a record one may not reach answers 404
    whatever the method (ACCESS.md). Running a read-only view for nothing is harmless."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        if request.method not in ("GET", "HEAD"):
            return HttpResponseNotAllowed(["GET", "HEAD"])
        return response

    return wrapper


def acting_page(admits, refusal: str):
    """A page for signed-in people acting for one of their agencies: sets request.agencies,
    request.agency (the one chosen, policy.current_agency) and request.membership, then lets
    the view run only when `admits(membership)`; anyone else is answered as if the page did
    not exist (404, with `refusal` as the reason)."""

    def decorate(view):
        @login_required
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            request.agencies = policy.request_agencies(request)
            request.agency = policy.current_agency(request)
            if request.agency is None:
                return render(request, "web/no_agency.html", status=403)
            request.membership = policy.request_membership(request, request.agency)
            if request.membership is None or not admits(request.membership):
                raise Http404(refusal)
            return view(request, *args, **kwargs)

        return wrapper

    return decorate


# The staff pages: a staff role at the agency acted for.
agency_page = acting_page(lambda m: m.is_staff_role, "the staff pages are for the agency's staff")


def _as_of(request) -> date:
    """The day the page shows (`?as_of=`, default today; an impossible date is today, and
    the page's as-of control says so), never before the agency's ordinance took effect: the
    engine has nothing to say of earlier days."""
    day, _ = as_of_choice(request)
    agency = getattr(request, "agency", None)
    return max(day, agency.get_pack().effective) if agency is not None else day


# Where each role's work is (issue 12): the inspector's field list, the clerk's calendar;
# the manager and the auditor land on the dashboard, outside roles in their portal.
LANDINGS = {"inspector": "web:field", "clerk": "web:calendar"}


def _outsiders_to_their_portal(view):
    """The staff pages' landing is no place for an operator, hauler or owner: send them on to
    their portal instead."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        agency = policy.current_agency(request)
        found = policy.request_membership(request, agency)
        if agency is not None and getattr(found, "role", None) not in STAFF_ROLES:
            return redirect("portal:home")
        return view(request, *args, **kwargs)

    return wrapper


@_outsiders_to_their_portal
@agency_page
@reads_only
def home(request):
    """Where one lands after signing in (`/`): the page of one's work by role (LANDINGS), the
    dashboard for the others; the dashboard keeps its own address for every staff role."""
    landing = LANDINGS.get(request.membership.role)
    if landing is not None:
        return redirect(landing)
    return _dashboard(request)


@_outsiders_to_their_portal
@agency_page
@reads_only
def dashboard(request):
    return _dashboard(request)


def _dashboard(request):
    """What needs doing, as of the day asked for."""
    from .sweep_standing import sweep_standing

    board = selectors.dashboard(agency=request.agency, as_of=_as_of(request))
    board.calendar = with_cases(request.agency, board.calendar)
    may_notice = _may_send_first_notice(request)
    sweep = sweep_standing(agency=request.agency)
    context = {"board": board, "may_notice": may_notice, "sweep": sweep}
    return render(request, "web/dashboard.html", context)


def _may_send_first_notice(request) -> bool:
    """Whether the person may send the pack's first notice in bulk (its kind of write)."""
    first = request.agency.get_pack().procedure.get("first_notice")
    return bool(first) and policy.may_write(request.user, request.agency, policy.action_kind(first))


@require_POST
@login_required
def agency_switch(request):
    """Act for another of one's agencies; back to the page one was on when one is staff
    there, otherwise to one's portal."""
    agency = policy.choose_agency(request, request.POST.get("agency", ""))
    next_url = request.POST.get("next", "/")
    if not url_has_allowed_host_and_scheme(next_url, allowed_hosts={request.get_host()}):
        next_url = "/"
    if not policy.is_staff(request.user, agency):
        return redirect("portal:home")
    return redirect(next_url)


@agency_page
@reads_only
def establishment_list(request):
    params = request.GET.dict()
    rows = selectors.establishment_list(agency=request.agency, params=params)
    if "export" in params:
        return _export(params["export"], request.agency, rows)
    page = Paginator(rows, PAGE_SIZE).get_page(params.get("page"))
    as_of = _as_of(request)
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
        "may_notice": _may_send_first_notice(request),
    }
    partial = bool(request.headers.get("HX-Request"))
    template = "web/_establishment_rows.html" if partial else "web/establishments.html"
    response = render(request, template, context)
    patch_vary_headers(response, ["HX-Request"])
    return response


def _export_columns(agency) -> list[str]:
    """The export's column headings, as the list page shows them (the permit in the pack's
    words)."""
    permit = agency.get_pack().titles.get("permit", "Permit")
    return [*CSV_COLUMNS, f"{permit} number"]


def _export_rows(rows):
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
            fse.permit_number or "",
        ]


def _export(fmt: str, agency, rows):
    """The establishments listed, as `fmt` (csv or xlsx), streamed (web.exports)."""
    return export_response(
        fmt,
        filename=f"{agency.code}-establishments",
        sheet="Establishments",
        columns=_export_columns(agency),
        rows=_export_rows(rows.iterator(chunk_size=2000)),
    )


@agency_page
@reads_only
def establishment_detail(request, code: str):
    """One establishment as of the day asked for (the engine's word on a day other than its
    last evaluation's)."""
    pack, as_of, pages = request.agency.get_pack(), _as_of(request), page_numbers(request.GET)
    upto = as_of if explicit_as_of(request) else None
    page = selectors.establishment_page(agency=request.agency, code=code, upto=upto, pages=pages)
    if upto is not None:
        page = evaluated_on(page, pack, as_of)
    may_record = [k for k in RECORDS if policy.may_write(request.user, request.agency, k)]
    extras = page_extras(page=page, pack=pack, as_of=as_of, pages=pages)
    queries = section_queries(request.GET)
    context = {"p": page, "may_record": may_record, "as_of": as_of, "queries": queries, **extras}
    return render(request, "web/establishment.html", context)


# -- recording work -------------------------------------------------------------------------


def record_page(kind: str):
    """An agency page that records a `kind` for one of the agency's establishments: 404 for
    another agency's, 403 when the person's role may not record it (policy.may_write)."""

    def decorate(view):
        @agency_page
        @wraps(view)
        def wrapper(request, code: str):
            fse = get_object_or_404(FoodServiceEstablishment, agency=request.agency, code=code)
            policy.require_write(request.user, request.agency, kind)
            return view(request, fse)

        return wrapper

    return decorate


def _recorded(request, fse):
    """Evaluate the establishment again at once and show its page."""
    sweep_establishment(fse, as_of=_as_of(request))
    messages.success(request, "Recorded; the establishment was evaluated again.")
    return redirect("web:establishment", code=fse.code)


def _form_page(request, fse, form, title: str, warning: str = ""):
    context = {"fse": fse, "form": form, "title": title, "warning": warning}
    return render(request, "web/record_form.html", context, status=400 if form.is_bound else 200)


@record_page("service")
def record_service(request, fse):
    form = ServiceForm(request.POST or None, establishment=fse)
    if form.is_valid():
        try:
            service_record(
                **form.cleaned_data,
                agency=request.agency,
                today=timezone.localdate(),
                actor=request.user,
            )
        except ValidationError as e:
            put_errors(form, e)
        else:
            return _recorded(request, fse)
    return _form_page(request, fse, form, "Record a pump-out")


@record_page("inspection")
def record_inspection(request, fse):
    pack = request.agency.get_pack()
    form = InspectionForm(
        request.POST or None, request.FILES or None, establishment=fse, checklist=pack.checklist
    )
    if form.is_valid():
        try:
            _inspection_save(request, fse, form)
        except ValidationError as e:
            put_errors(form, e, _inspection_error_fields(form))
        else:
            return _recorded(request, fse)
    for row in form.devices:
        limit = accumulation_limit(pack, row["device"].kind, _as_of(request))
        row["limit"] = limit.value if limit is not None else None
    context = {"fse": fse, "form": form, "title": "Record an inspection"}
    status = 400 if form.is_bound else 200
    return render(request, "web/record_inspection.html", context, status=status)


def _inspection_save(request, fse, form) -> None:
    data = form.cleaned_data
    answers = [Answer(item=item, compliant=ok, note=note) for item, ok, note in form.answers()]
    readings = [Reading(device=d, fog_inches=f, solids_inches=s) for d, f, s in form.readings()]
    with transaction.atomic():
        inspection = inspection_record(
            establishment=fse,
            code=data["code"],
            date=data["date"],
            answers=answers,
            measurements=readings,
            inspector=request.user,
            notes=data["notes"],
            today=timezone.localdate(),
            actor=request.user,
        )
        for photo in data["photos"]:
            inspection_photo_add(inspection=inspection, image=photo, actor=request.user)


def _inspection_error_fields(form) -> dict[str, str]:
    """The service's keys (answers[i], measurements[i]) -> the form's fields they are about."""
    names = {row["item"].item: row["field"].name for row in form.items}
    fields = {f"answers[{i}]": names[item] for i, (item, _, _) in enumerate(form.answers())}
    for i, (device, _, _) in enumerate(form.readings()):
        fields[f"measurements[{i}]"] = f"fog_{device.pk}"
    fields["image"] = "photos"  # inspection_photo_add's
    return fields


@record_page("training")
def record_training(request, fse):
    form = TrainingForm(request.POST or None, establishment=fse)
    if form.is_valid():
        data = form.cleaned_data
        try:
            training_record(
                establishment=fse,
                code=data["code"],
                date=data["date"],
                attendees=list(data["attendees"]),
                unsigned=form.unsigned(),
                topic=data["topic"],
                trainer=data["trainer"],
                actor=request.user,
            )
        except ValidationError as e:
            put_errors(form, e)
        else:
            return _recorded(request, fse)
    return _form_page(request, fse, form, "Record a training")


@record_page("operator_change")
def record_operator_change(request, fse):
    form = OperatorChangeForm(request.POST or None)
    if form.is_valid():
        data = form.cleaned_data
        known = Operator.objects.filter(agency=request.agency, name=data["operator"]).first()
        permits = registry_selectors.active_permits(establishment=fse)
        try:
            operator_change(
                establishment=fse,
                operator=known or data["operator"],
                on=data["on"],
                reason=data["reason"],
                actor=request.user,
            )
        except ValidationError as e:
            put_errors(form, e)
        else:
            ended = registry_selectors.operator_change_ended(
                permits=permits, on=data["on"], agency=request.agency
            )
            messages.warning(request, ended)
            return _recorded(request, fse)
    warning = registry_selectors.operator_change_warning(establishment=fse)
    return _form_page(request, fse, form, "Record a change of operator", warning)
