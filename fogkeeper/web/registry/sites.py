"""Staff pages keeping the establishments current: register, edit, close and reopen one, and
record a remodel or change of operation (with the notice the ordinance wants ahead of it).
Every write goes through `fogkeeper.registry.services` and is followed by a new evaluation of
the establishment, as the record forms of `web/records/views.py` do."""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render

from fogkeeper.registry import selectors as registry
from fogkeeper.registry.models import FoodServiceEstablishment
from fogkeeper.registry.services import (
    ESTABLISHMENT_FIELDS,
    establishment_close,
    establishment_register,
    establishment_reopen,
    establishment_update,
    operation_change_record,
)
from fogkeeper.web.common import policy
from fogkeeper.web.common.forms import put_errors
from fogkeeper.web.common.pages import agency_page, page_as_of, reads_only

from .site_forms import (
    CloseForm,
    EstablishmentForm,
    EstablishmentRegisterForm,
    OperationChangeForm,
    ReopenForm,
)

KIND = "establishment"  # the policy's kind of write for the registry around an establishment


def registry_write(view):
    """An agency page writing the registry: 403 for a staff role that may not (policy)."""

    @agency_page
    @wraps(view)
    def wrapper(request, *args, **kwargs):
        policy.require_write(request.user, request.agency, KIND)
        return view(request, *args, **kwargs)

    return wrapper


def establishment_write(view):
    """A registry page about one of the agency's establishments: 404 for another agency's
    (found first, whatever the role), then 403 for a role that may not write the registry."""

    @agency_page
    @wraps(view)
    def wrapper(request, code: str, **kwargs):
        fse = get_object_or_404(FoodServiceEstablishment, agency=request.agency, code=code)
        fse.agency = request.agency
        policy.require_write(request.user, request.agency, KIND)
        return view(request, fse, **kwargs)

    return wrapper


def form_page(request, form, *, title: str, fse=None, intro: str = "", **extra):
    """The page of a registry form; 400 when a posted form is shown again (refused)."""
    context = {"form": form, "title": title, "fse": fse, "intro": intro, **extra}
    status = 400 if form.is_bound else 200
    return render(request, "web/registry/site_form.html", context, status=status)


def evaluated(request, fse, message: str):
    """Say what happened (the write evaluated the establishment again), and show its page."""
    messages.success(request, f"{message} The establishment was evaluated again.")
    return redirect("web:establishment", code=fse.code)


@agency_page
@reads_only
def registry_index(request):
    may_write = policy.may_write(request.user, request.agency, KIND)
    return render(request, "web/registry/index.html", {"may_write": may_write})


@registry_write
def establishment_new(request):
    form = EstablishmentRegisterForm(request.POST or None, agency=request.agency)
    if form.is_valid():
        data = {k: form.cleaned_data[k] for k in ("code", *ESTABLISHMENT_FIELDS)}
        try:
            fse = establishment_register(
                agency=request.agency,
                operator=form.first_operator(),
                today=page_as_of(request),
                actor=request.user,
                **data,
            )
        except ValidationError as e:
            put_errors(form, e, {"operator_since": "opened_on"})
        else:
            return evaluated(request, fse, f"{fse.name} ({fse.code}) is registered.")
    intro = "The establishment's code is the agency's id for it and cannot change later."
    return form_page(request, form, title="Register an establishment", intro=intro)


@establishment_write
def establishment_edit(request, fse):
    initial = {k: getattr(fse, k) for k in ESTABLISHMENT_FIELDS}
    form = EstablishmentForm(request.POST or None, agency=request.agency, initial=initial)
    if form.is_valid():
        try:
            changed = establishment_update(
                establishment=fse,
                today=page_as_of(request),
                actor=request.user,
                **form.cleaned_data,
            )
        except ValidationError as e:
            put_errors(form, e)
        else:
            said = "The changes are saved." if changed else "Nothing had changed."
            return evaluated(request, fse, said)
    return form_page(request, form, title="Edit the establishment", fse=fse)


@establishment_write
def establishment_close_page(request, fse):
    form = CloseForm(request.POST or None)
    if form.is_valid():
        try:
            establishment_close(
                establishment=fse,
                today=page_as_of(request),
                actor=request.user,
                **form.cleaned_data,
            )
        except ValidationError as e:
            put_errors(form, e)
        else:
            said = f"{fse.name} is closed from {fse.closed_on:%Y-%m-%d}; nothing more falls due."
            return evaluated(request, fse, said)
    intro = (
        f"Opened {fse.opened_on:%Y-%m-%d}. A closed establishment keeps its records; it can "
        "be reopened later."
    )
    if fse.closed_on:
        intro = f"{fse.name} closed on {fse.closed_on:%Y-%m-%d}: reopen it first."
    return form_page(request, form, title="Close the establishment", fse=fse, intro=intro)


@establishment_write
def establishment_reopen_page(request, fse):
    form = ReopenForm(request.POST if request.method == "POST" else None)
    closed_on = fse.closed_on
    if request.method == "POST" and form.is_valid():
        try:
            establishment_reopen(establishment=fse, actor=request.user, **form.cleaned_data)
        except ValidationError as e:
            put_errors(form, e)
        else:
            said = f"{fse.name} is open again (it had closed on {closed_on:%Y-%m-%d})."
            return evaluated(request, fse, said)
    if closed_on:
        intro = f"{fse.name} closed on {closed_on:%Y-%m-%d}. Reopening clears that date."
    else:
        intro = f"{fse.name} is open: there is nothing to reopen."
    return form_page(request, form, title="Reopen the establishment", fse=fse, intro=intro)


@establishment_write
def operation_change_new(request, fse):
    form = OperationChangeForm(request.POST or None)
    if form.is_valid():
        data = form.cleaned_data
        try:
            change = operation_change_record(
                establishment=fse, today=page_as_of(request), actor=request.user, **data
            )
        except ValidationError as e:
            put_errors(form, e)
        else:
            return evaluated(request, fse, _change_said(fse, change))
    return _change_page(request, fse, form)


def _change_page(request, fse, form):
    """The change form, with the notice the ordinance requires and how the earlier changes
    (and a refused one's dates) stand against it."""
    agency = request.agency
    data = getattr(form, "cleaned_data", {})
    notice = None
    if data.get("date"):
        notice = registry.change_notice(
            agency=agency, on=data["date"], notified_on=data.get("notified_on")
        )
    changes = [
        (c, registry.change_notice(agency=agency, on=c.date, notified_on=c.notified_on))
        for c in fse.changes.order_by("-date", "-pk")
    ]
    context = {
        "form": form,
        "fse": fse,
        "title": "Record a remodel or change of operation",
        "lead": registry.change_notice_lead(agency=agency, on=page_as_of(request)),
        "notice": notice,
        "changes": changes,
    }
    status = 400 if form.is_bound else 200
    return render(request, "web/registry/site_change.html", context, status=status)


def _change_said(fse, change) -> str:
    """What was recorded, and whether the notice given meets the ordinance's lead time."""
    said = f"The {change.get_kind_display().lower()} on {change.date:%Y-%m-%d} is recorded."
    notice = registry.change_notice(
        agency=fse.agency, on=change.date, notified_on=change.notified_on
    )
    if notice is None:
        return said
    if notice.meets:
        return (
            f"{said} Notice came {notice.days_given} days ahead, meeting the {notice.lead} "
            f"the ordinance requires ({notice.citation})."
        )
    given = (
        "No notice was given"
        if notice.notified_on is None
        else (f"Notice came {notice.days_given} days ahead")
    )
    return (
        f"{said} {given}: short of the {notice.lead} the ordinance requires, due by "
        f"{notice.due:%Y-%m-%d} ({notice.citation})."
    )
