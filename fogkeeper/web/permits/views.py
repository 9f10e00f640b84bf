"""Permit pages: the application queue and its review, the permit list and page, issue,
renew, deny a renewal, modify with notice, suspend and revoke from the enforcement decision,
the permit document, and plan review. Writes go through fogkeeper.permits.services; who may
write is policy's ("permit": the manager; "plan_review": manager and inspector)."""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import content_disposition_header, urlencode
from django.utils.text import get_valid_filename

from fogkeeper.permits import selectors as permit_selectors
from fogkeeper.permits import services
from fogkeeper.permits.documents import permit_pdf
from fogkeeper.permits.models import (
    PERMIT_STATUSES,
    Permit,
    PermitApplication,
    PermitLetter,
    PlanReview,
)
from fogkeeper.permits.requirements import application_spec, missing_items
from fogkeeper.rules.errors import ParameterNotInForce
from fogkeeper.uploads import CONTENT_TYPES

from ..common import policy
from ..common.forms import put_errors
from ..common.pages import PAGE_SIZE, agency_page, page_as_of, reads_only, record_page
from .forms import (
    ApplicationApproveForm,
    ApplicationDenyForm,
    ModificationForm,
    PaperApplicationForm,
    PermitForm,
    PlanDecideForm,
    PlanSubmitForm,
    RenewalDenyForm,
    RevokeForm,
    SuspendForm,
)

FORM = "web/permits/form.html"


def _title(request) -> str:
    return request.agency.get_pack().titles.get("permit", "permit")


def _frequencies(agency, on) -> list[int] | None:
    """The frequencies the manager may assign, where the ordinance limits them."""
    pack = agency.get_pack()
    if not pack.has(services.FREQUENCY_RULE):
        return None
    try:
        return list(pack.param(services.ALLOWED_FREQUENCIES, on))
    except ParameterNotInForce:
        return None


def _done(request, fse, text: str, to=None):
    """Say what happened (the write evaluated the establishment again), and go on."""
    messages.success(request, f"{text} The establishment was evaluated again.")
    return to or redirect("web:establishment", code=fse.code)


def _form(
    request, form, title: str, *, fse, back=None, intro: str = "", button: str = "", review=None
):
    context = {
        "review": review,
        "form": form,
        "title": title,
        "fse": fse,
        "back": back,
        "intro": intro,
        "button": button or title,
    }
    return render(request, FORM, context, status=400 if form.is_bound else 200)


def permit_page(kind: str | None = None):
    """A page of one of the agency's permits (404 for another agency's); with `kind`, one
    that writes it (403 for a role that may not)."""

    def decorate(view):
        @agency_page
        @wraps(view)
        def wrapper(request, pk: int):
            permit = get_object_or_404(
                Permit.objects.select_related("establishment"), pk=pk, agency=request.agency
            )
            if kind is not None:
                policy.require_write(request.user, request.agency, kind)
            return view(request, permit)

        return wrapper

    return decorate


def _application(request, pk: int) -> PermitApplication:
    return get_object_or_404(
        PermitApplication.objects.select_related("establishment", "renewal_of"),
        pk=pk,
        establishment__agency=request.agency,
    )


# -- applications ----------------------------------------------------------------------------


@agency_page
@reads_only
def application_queue(request):
    """Applications filed in the portal or recorded, waiting first, each with what the
    ordinance requires it to contain and what is missing."""
    pack = request.agency.get_pack()
    pages = Paginator(permit_selectors.application_queue(agency=request.agency), PAGE_SIZE)
    page = pages.get_page(request.GET.get("page"))
    rows = [
        {"application": a, "contents": permit_selectors.application_contents(a, pack)}
        for a in page.object_list
    ]
    for row in rows:
        row["missing"] = [c for c in row["contents"] if c["missing"]]
    spec = services.application_spec(pack)
    context = {"page": page, "rows": rows, "reference": spec.reference}
    return render(request, "web/permits/applications.html", context)


@agency_page
def application_review(request, pk: int):
    """One application: its contents against the ordinance, and approve (which issues the
    permit with its conditions) or deny with reasons."""
    application = _application(request, pk)
    fse = application.establishment
    may = policy.may_write(request.user, request.agency, "permit")
    if request.method == "POST" and not may:
        policy.require_write(request.user, request.agency, "permit")
    today = page_as_of(request)
    approve, deny = _review_forms(request, application, today)
    if request.method == "POST":
        done = _decide(request, application, approve, deny)
        if done is not None:
            return done
    context = {
        "application": application,
        "fse": fse,
        "may": may,
        "approve": approve,
        "deny": deny,
        "contents": permit_selectors.application_contents(application, fse.agency.get_pack()),
    }
    status = 400 if request.method == "POST" else 200
    return render(request, "web/permits/application.html", context, status=status)


def _review_forms(request, application, today):
    decision = request.POST.get("decision") if request.method == "POST" else None
    frequencies = _frequencies(request.agency, today)
    initial = {"issued_on": today, "holder": application.business_name or ""}
    approve = ApplicationApproveForm(
        request.POST if decision == "approve" else None,
        initial=initial,
        frequencies=frequencies,
        missing=missing_items(application),
        prefix="approve",
    )
    deny = ApplicationDenyForm(
        request.POST if decision == "deny" else None,
        initial={"decided_on": today},
        prefix="deny",
    )
    return approve, deny


def _decide(request, application, approve, deny):
    fse = application.establishment
    if approve.is_bound and approve.is_valid():
        try:
            permit = _issue_for(application, approve.permit_terms(), request.user)
        except ValidationError as e:
            put_errors(approve, e)
        else:
            to = redirect("web:permit", pk=permit.pk)
            return _done(request, fse, f"{_title(request)} {permit.number} issued.", to)
    if deny.is_bound and deny.is_valid():
        try:
            services.permit_application_deny(
                application=application, **deny.cleaned_data, actor=request.user
            )
        except ValidationError as e:
            put_errors(deny, e)
        else:
            to = redirect("web:permit_applications")
            return _done(request, fse, "The application was denied.", to)
    return None


def _issue_for(application, terms: dict, actor):
    """Approving an application issues the permit, or renews the one it applies to renew."""
    if application.renewal_of is not None:
        return services.permit_renew(
            permit=application.renewal_of, application=application, **terms, actor=actor
        )
    return services.permit_issue(
        establishment=application.establishment, application=application, **terms, actor=actor
    )


# -- permits ---------------------------------------------------------------------------------


@agency_page
@reads_only
def permit_list(request):
    q = request.GET.get("q", "").strip()
    status = request.GET.get("status", "")
    status = status if status in dict(PERMIT_STATUSES) else ""
    rows = permit_selectors.permit_list(agency=request.agency, q=q, status=status)
    page = Paginator(rows, PAGE_SIZE).get_page(request.GET.get("page"))
    query = urlencode({k: v for k, v in {"q": q, "status": status}.items() if v})
    context = {"page": page, "q": q, "status": status, "statuses": PERMIT_STATUSES, "query": query}
    return render(request, "web/permits/list.html", context)


@permit_page()
@reads_only
def permit_detail(request, permit):
    may = policy.may_write(request.user, request.agency, "permit")
    context = {
        "permit": permit,
        "fse": permit.establishment,
        "may": may,
        "open": permit.status not in ("ended", "revoked", "superseded"),
        "modifications": permit.modifications.select_related("inspection", "letter"),
        "overridden": _overridden(permit.application),
        "suspending": services.decisions_ordering(permit, "suspend"),
        "revoking": services.decisions_ordering(permit, "revoke"),
    }
    return render(request, "web/permits/permit.html", context)


def _overridden(application) -> list[str]:
    """The required items the permit's application was approved without, by override."""
    if application is None or not application.missing_override:
        return []
    return missing_items(application)


@permit_page()
@reads_only
def permit_document(request, permit):
    """The permit as a PDF from the pack's template."""
    name = get_valid_filename(f"{permit.establishment.code}-{permit.number}.pdf")
    response = HttpResponse(permit_pdf(permit, request.user), content_type="application/pdf")
    response["Content-Disposition"] = content_disposition_header(True, name)
    return response


@agency_page
@reads_only
def permit_letter(request, pk: int):
    """A letter about a permit exactly as it was sent (the stored bytes)."""
    letter = get_object_or_404(
        PermitLetter.objects.select_related("permit__establishment"),
        pk=pk,
        permit__agency=request.agency,
    )
    permit = letter.permit
    name = get_valid_filename(
        f"{permit.establishment.code}-{permit.number}-{letter.kind.replace('_', '-')}.pdf"
    )
    response = HttpResponse(bytes(letter.pdf), content_type="application/pdf")
    response["Content-Disposition"] = content_disposition_header(True, name)
    response["ETag"] = f'"{letter.sha256}"'
    return response


@record_page("permit")
def application_record(request, fse):
    """A paper application the agency received, recorded as it reads; what the ordinance
    requires and it lacks is listed on its review page."""
    pack = request.agency.get_pack()
    form = PaperApplicationForm(
        request.POST or None,
        initial={"submitted_on": page_as_of(request)},
        spec=application_spec(pack),
        permit_title=pack.titles.get("permit", "permit"),
        current=permit_selectors.establishment_current_permit(establishment=fse),
    )
    if form.is_valid():
        data = form.cleaned_data
        try:
            application = services.permit_application_submit(
                establishment=fse,
                submitted_on=data["submitted_on"],
                renewal_of=form.renewal_of(),
                **form.details(),
                actor=request.user,
            )
        except ValidationError as e:
            put_errors(form, e)
        else:
            messages.success(
                request,
                f"The application received on {data['submitted_on']} "
                "was recorded; review it below.",
            )
            return redirect("web:permit_application", pk=application.pk)
    intro = "Enter the application as the paper reads; leave blank what it does not give."
    return _form(
        request,
        form,
        "Record a paper application",
        fse=fse,
        intro=intro,
        button="Record the application",
    )


@record_page("permit")
def record_permit(request, fse):
    """Issue a permit to the establishment directly (no application on file)."""
    frequencies = _frequencies(request.agency, page_as_of(request))
    form = PermitForm(request.POST or None, frequencies=frequencies)
    if form.is_valid():
        try:
            services.permit_issue(establishment=fse, **form.cleaned_data, actor=request.user)
        except ValidationError as e:
            put_errors(form, e)
        else:
            return _done(request, fse, "Recorded;")
    return _form(request, form, f"Issue a {_title(request)}", fse=fse, button="Issue")


@permit_page("permit")
def permit_renew(request, permit):
    """A new permit replacing this one (kept as superseded, its history intact)."""
    fse = permit.establishment
    initial = {
        "holder": permit.holder,
        "service_frequency_days": permit.service_frequency_days,
        "yellow_grease_frequency_days": permit.yellow_grease_frequency_days,
        "conditions": permit.conditions,
        "issued_on": page_as_of(request),
    }
    frequencies = _frequencies(request.agency, page_as_of(request))
    form = PermitForm(request.POST or None, initial=initial, frequencies=frequencies)
    if form.is_valid():
        try:
            new = services.permit_renew(permit=permit, **form.cleaned_data, actor=request.user)
        except ValidationError as e:
            put_errors(form, e)
        else:
            to = redirect("web:permit", pk=new.pk)
            return _done(request, fse, f"{permit.number} renewed as {new.number}.", to)
    title = f"Renew {_title(request)} {permit.number}"
    return _form(request, form, title, fse=fse, back=permit, button="Renew")


@permit_page("permit")
def permit_renewal_deny(request, permit):
    form = RenewalDenyForm(request.POST or None, initial={"denied_on": page_as_of(request)})
    if form.is_valid():
        try:
            services.permit_renewal_deny(permit=permit, **form.cleaned_data, actor=request.user)
        except ValidationError as e:
            put_errors(form, e)
        else:
            to = redirect("web:permit", pk=permit.pk)
            return _done(request, permit.establishment, "The renewal was denied.", to)
    title = f"Deny the renewal of {permit.number}"
    intro = (
        "A permit kept in effect by a timely renewal application lapses on the day the "
        "renewal is denied."
    )
    return _form(
        request,
        form,
        title,
        fse=permit.establishment,
        back=permit,
        intro=intro,
        button="Deny the renewal",
    )


@permit_page("permit")
def permit_modify(request, permit):
    """Change the permit's terms, with the prior written notice the ordinance requires."""
    today = page_as_of(request)
    form = ModificationForm(request.POST or None, permit=permit, initial={"noticed_on": today})
    if form.is_valid():
        data = form.cleaned_data
        try:
            services.permit_modify(
                permit=permit,
                noticed_on=data["noticed_on"],
                effective_on=data["effective_on"],
                changes=form.changes(),
                reason=data["reason"],
                inspection=data["inspection"],
                today=today,
                actor=request.user,
            )
        except ValidationError as e:
            put_errors(form, e, {"changes": "service_frequency_days"})
        else:
            to = redirect("web:permit", pk=permit.pk)
            text = "The modification was recorded and its notice letter is stored."
            return _done(request, permit.establishment, text, to)
    notice = services.modification_notice(permit, today, False)
    intro = (
        (f"The holder must receive at least {notice[0]} of prior written notice ({notice[1]}).")
        if notice
        else ""
    )
    return _form(
        request,
        form,
        f"Modify {_title(request)} {permit.number}",
        fse=permit.establishment,
        back=permit,
        intro=intro,
        button="Send the notice",
    )


def _decision_page(request, permit, what: str, form_class, service, title: str):
    """Suspend or revoke as a decision orders; with no such decision, the service's refusal
    (citing the section) is shown and nothing changes."""
    decisions = services.decisions_ordering(permit, what)
    posted = request.POST if request.method == "POST" else None
    form = form_class(posted, decisions=decisions)
    if request.method == "POST" and (form.is_valid() or not decisions):
        data = {k: v for k, v in getattr(form, "cleaned_data", {}).items() if k != "decision"}
        if not decisions:
            data = dict.fromkeys(k for k in form.fields if k != "decision")
            form.errors.clear()
            form.cleaned_data = {}
        try:
            service(permit=permit, decision=form.chosen(), **data, actor=request.user)
        except ValidationError as e:
            put_errors(form, e)
        else:
            to = redirect("web:permit", pk=permit.pk)
            done = f"{permit.number} {'suspended' if what == 'suspend' else 'revoked'}."
            return _done(request, permit.establishment, done, to)
    intro = (
        ""
        if decisions
        else (
            "No enforcement decision of this establishment's cases orders it: a permit is "
            "suspended or revoked from the decision that concludes a suspension or "
            "revocation notice."
        )
    )
    return _form(
        request,
        form,
        f"{title} {permit.number} from the decision",
        fse=permit.establishment,
        back=permit,
        intro=intro,
        button=title,
    )


@permit_page("permit")
def permit_suspend(request, permit):
    return _decision_page(
        request, permit, "suspend", SuspendForm, services.permit_suspend_from_decision, "Suspend"
    )


@permit_page("permit")
def permit_revoke(request, permit):
    return _decision_page(
        request, permit, "revoke", RevokeForm, services.permit_revoke_from_decision, "Revoke"
    )


# -- plan review -----------------------------------------------------------------------------


@record_page("plan_review")
def plan_review_new(request, fse):
    """Record plans of a grease control device received for review before installation."""
    form = PlanSubmitForm(
        request.POST or None, request.FILES or None, initial={"submitted_on": page_as_of(request)}
    )
    if form.is_valid():
        try:
            services.plan_review_submit(
                establishment=fse,
                **form.cleaned_data,
                today=page_as_of(request),
                actor=request.user,
            )
        except ValidationError as e:
            put_errors(form, e)
        else:
            return _done(request, fse, "The plans were recorded as submitted.")
    return _form(
        request,
        form,
        "Record plans submitted for review",
        fse=fse,
        button="Record",
        intro="Plans are submitted and approved or returned before installation.",
    )


def _plan_review(request, code: str, pk: int) -> PlanReview:
    """One of the establishment's plan reviews, of the agency acted for (404 otherwise)."""
    return get_object_or_404(
        PlanReview.objects.select_related("establishment"),
        pk=pk,
        establishment__code=code,
        establishment__agency=request.agency,
    )


@agency_page
def plan_review_decide(request, code: str, pk: int):
    review = _plan_review(request, code, pk)
    policy.require_write(request.user, request.agency, "plan_review")
    fse = review.establishment
    form = PlanDecideForm(request.POST or None, initial={"decided_on": page_as_of(request)})
    if form.is_valid():
        try:
            services.plan_review_decide(
                review=review, **form.cleaned_data, today=page_as_of(request), actor=request.user
            )
        except ValidationError as e:
            put_errors(form, e)
        else:
            return _done(request, fse, f"The plans were {review.get_outcome_display().lower()}.")
    title = f"Decide the plans submitted on {review.submitted_on}"
    return _form(
        request, form, title, fse=fse, intro=review.description, button="Record", review=review
    )


@agency_page
@reads_only
def plan_review_document(request, code: str, pk: int):
    """The plans submitted for review, as uploaded (a PDF, or a JPEG or PNG scan)."""
    review = _plan_review(request, code, pk)
    if not review.document:
        raise Http404("no plans were uploaded with this submission")
    name = (review.document.name or "").rsplit("/", 1)[-1]
    kind = name.rsplit(".", 1)[-1]
    return FileResponse(
        review.document.open("rb"),
        as_attachment=True,
        filename=name,
        content_type=CONTENT_TYPES.get(kind, "application/octet-stream"),
    )
