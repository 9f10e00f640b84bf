"""Enrolment pages: the public form where an FSE operator or a hauler asks an agency for an
account (nothing of the agency is shown but its name), the staff's queue of requests and the
manager's decision on each (policy kind "membership"), and the staff's download of a
training's signed log."""

from __future__ import annotations

import hashlib
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.db.models import Q
from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse_lazy

from fogkeeper.portal.enrolment import (
    enrolment_request_approve,
    enrolment_request_reject,
    enrolment_request_submit,
    matching_operator,
    next_establishment_code,
)
from fogkeeper.portal.models import ENROLMENT_STATUSES, EnrolmentRequest
from fogkeeper.registry.models import Agency
from fogkeeper.security.counts import count, uncount
from fogkeeper.training.models import Training

from ..common import policy
from ..common.forms import put_errors
from ..common.pages import PAGE_SIZE, agency_page, reads_only
from .forms import EnrolmentForm, HaulerApprovalForm, OperatorApprovalForm, RejectionForm

KIND = "membership"
HOUR = 60 * 60
PAUSED = (
    "Too many account requests were sent from your address. To keep the queue of requests "
    "clear for the people who review them, sending more from it is paused: try again in an "
    "hour."
)


# -- public ---------------------------------------------------------------------------------


@reads_only
def enrol_agencies(request):
    """The agencies one may ask for an account, by name."""
    agencies = Agency.objects.order_by("name")
    return render(request, "web/enrolment/agencies.html", {"agencies": agencies})


def enrol(request, agency_code: str):
    """The request for an account at one agency, by anyone (no sign-in), at most
    FOGKEEPER_ENROLMENTS_PER_HOUR stored from one address in an hour: past them the form
    comes back with what was typed and a message to try later (429), and nothing is kept."""
    target = get_object_or_404(Agency, code=agency_code)
    form = EnrolmentForm(request.POST or None)
    status = 400 if form.is_bound else 200
    if form.is_valid():
        if _count_enrolment(request) > settings.FOGKEEPER_ENROLMENTS_PER_HOUR:
            _uncount_enrolment(request)
            form.add_error(None, PAUSED)
            status = 429
        elif _submitted(target, form):
            return redirect("web:enrol_sent", agency_code=target.code)
        else:
            _uncount_enrolment(request)
    context = {"target": target, "form": form, "manager": _manager_title(target)}
    return render(request, "web/enrolment/enrol.html", context, status=status)


def _submitted(target: Agency, form: EnrolmentForm) -> bool:
    try:
        enrolment_request_submit(agency=target, **form.request_fields())
    except ValidationError as e:
        put_errors(form, e)
        return False
    return True


def _enrolment_key(request) -> str:
    address = request.META.get("REMOTE_ADDR", "")
    return f"fogkeeper:enrolments:{hashlib.sha256(address.encode()).hexdigest()}"


def _count_enrolment(request) -> int:
    """The address's requests in the hour with this one, counted before it is stored so that
    requests sent at once cannot all pass (fogkeeper.security.counts)."""
    return count(_enrolment_key(request), HOUR)


def _uncount_enrolment(request) -> None:
    uncount(_enrolment_key(request))


@reads_only
def enrol_sent(request, agency_code: str):
    target = get_object_or_404(Agency, code=agency_code)
    context = {"target": target, "manager": _manager_title(target)}
    return render(request, "web/enrolment/sent.html", context)


def _manager_title(agency: Agency) -> str:
    return agency.get_pack().titles.get("manager", "program manager")


# -- staff ----------------------------------------------------------------------------------


@agency_page
@reads_only
def request_list(request):
    """The agency's requests, newest first: those waiting, or those decided (`?show=`),
    searched by business, contact or email (`?q=`)."""
    show = request.GET.get("show", "waiting")
    show = show if show in dict(ENROLMENT_STATUSES) else "waiting"
    q = request.GET.get("q", "").strip()
    found = EnrolmentRequest.objects.filter(agency=request.agency, status=show)
    if q:
        found = found.filter(
            Q(business_name__icontains=q) | Q(contact_name__icontains=q) | Q(email__icontains=q)
        )
    page = Paginator(found, PAGE_SIZE).get_page(request.GET.get("page"))
    query = "&".join(f"{k}={v}" for k, v in (("show", show), ("q", q)) if v)
    context = {
        "page": page,
        "show": show,
        "q": q,
        "query": query,
        "statuses": ENROLMENT_STATUSES,
        "may_decide": policy.may_write(request.user, request.agency, KIND),
    }
    return render(request, "web/enrolment/requests.html", context)


def _request(request, pk: int) -> EnrolmentRequest:
    return get_object_or_404(EnrolmentRequest, agency=request.agency, pk=pk)


def _approval_form(req: EnrolmentRequest, data=None):
    form_class = OperatorApprovalForm if req.kind == "operator" else HaulerApprovalForm
    initial = {"establishments": ", ".join(req.establishment_codes)}
    if req.kind == "operator":
        initial.update(_operator_initial(req))
    return form_class(data, agency=req.agency, business_name=req.business_name, initial=initial)


def _operator_initial(req: EnrolmentRequest) -> dict:
    """The approval as the request suggests it: the operator on record of the same name or
    email (never a duplicate by default) and, for a new business naming no establishment
    number, its establishment registered with the agency's next number, named and placed as
    the request says ("Taco Loco, 12 Main St")."""
    initial: dict[str, Any] = {"operator": matching_operator(req)}
    if req.establishment_codes:
        return initial
    first = next((line.strip() for line in req.establishments.splitlines() if line.strip()), "")
    name, _, address = first.partition(",")
    mailing = next(iter(req.mailing_address.splitlines()), "")
    initial.update(
        {
            "register": True,
            "new_code": next_establishment_code(req.agency),
            "new_name": name.strip() or req.business_name,
            "new_address": address.strip() or mailing.strip(),
            "new_opened_on": req.agency.today(),
        }
    )
    return initial


def _detail(request, req, approval=None, rejection=None, status: int = 200):
    context = {
        "req": req,
        "approval": approval or _approval_form(req),
        "rejection": rejection or RejectionForm(),
        "may_decide": policy.may_write(request.user, request.agency, KIND) and req.waiting,
    }
    return render(request, "web/enrolment/request.html", context, status=status)


@agency_page
@reads_only
def request_detail(request, pk: int):
    return _detail(request, _request(request, pk))


@agency_page
def request_approve(request, pk: int):
    """Approve the request: the membership is created and the sign-in link emailed."""
    req = _request(request, pk)
    policy.require_write(request.user, request.agency, KIND)
    if request.method != "POST":
        return _detail(request, req)
    form = _approval_form(req, request.POST)
    if form.is_valid():
        try:
            enrolment_request_approve(
                request=req,
                actor=request.user,
                site=request.build_absolute_uri("/"),
                **form.cleaned_data,
            )
        except ValidationError as e:
            put_errors(form, e)
        else:
            messages.success(
                request,
                f"{req.business_name} approved: {req.contact_name} was emailed a link to set a "
                f"password and sign in at {req.email}.",
            )
            return redirect("web:enrolment_requests")
    req.refresh_from_db()
    return _detail(request, req, approval=form, status=400)


@agency_page
def request_reject(request, pk: int):
    """Reject the request with a reason, which is emailed."""
    req = _request(request, pk)
    policy.require_write(request.user, request.agency, KIND)
    if request.method != "POST":
        return _detail(request, req)
    form = RejectionForm(request.POST)
    if form.is_valid():
        try:
            enrolment_request_reject(
                request=req, reason=form.cleaned_data["reason"], actor=request.user
            )
        except ValidationError as e:
            put_errors(form, e)
        else:
            messages.success(
                request,
                f"{req.business_name}'s request rejected; {req.email} was emailed the reason.",
            )
            return redirect("web:enrolment_requests")
    req.refresh_from_db()
    return _detail(request, req, rejection=form, status=400)


@agency_page
@reads_only
def training_log(request, code: str, training: int):
    """The signed attendance log of one of the establishment's trainings, as uploaded."""
    fse = policy.reachable(request.user, request.agency, code)
    if not policy.may_read(request.user, request.agency, "trainings"):
        raise Http404("no such log")
    return stream_log(get_object_or_404(Training, establishment=fse, pk=training))


def stream_log(training: Training) -> FileResponse:
    """The training's log file as a download (404 when none was uploaded)."""
    if not training.log:
        raise Http404("no log was uploaded")
    name = (training.log.name or "").rsplit("/", 1)[-1]
    return FileResponse(training.log.open("rb"), as_attachment=True, filename=name)


password_set = auth_views.PasswordResetConfirmView.as_view(
    template_name="web/enrolment/password_set.html",
    success_url=reverse_lazy("web:password_reset_complete"),
)
password_set_done = auth_views.PasswordResetCompleteView.as_view(
    template_name="web/enrolment/password_set_done.html"
)
