"""What every staff page is made of: who may open it (agency_page, acting_page, record_page,
each asking policy), the refusal of writes to a page that only reads (reads_only), the day
it is shown as of (page_as_of, also the day the page's writes are evaluated again on), the
rows a list shows at a time (PAGE_SIZE), and the form page of a record."""

from __future__ import annotations

from datetime import date
from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone

from fogkeeper.reevaluation import evaluating_on
from fogkeeper.registry.models import FoodServiceEstablishment

from . import policy
from .dates import as_of_choice

PAGE_SIZE = 25


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


def acting_page(admits, refusal: str, dated: bool = False):
    """A page for signed-in people acting for one of their agencies: sets request.agencies,
    request.agency (the one chosen, policy.current_agency) and request.membership, then lets
    the view run only when `admits(membership)`, in the agency's time zone (its pack's: an
    Ohio city's times are Eastern, not the server's Pacific default); anyone else is answered
    as if the page did not exist (404, with `refusal` as the reason). A `dated` page's writes
    are evaluated again on the day it shows (page_as_of), not the agency's today."""

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
            tz = request.agency.get_pack().calendar.tz
            # the day is read in the agency's time zone, once it is in force
            with timezone.override(tz), evaluating_on(page_as_of(request) if dated else None):
                return view(request, *args, **kwargs)

        return wrapper

    return decorate


# The staff pages: a staff role at the agency acted for.
agency_page = acting_page(
    lambda m: m.is_staff_role, "the staff pages are for the agency's staff", dated=True
)


def page_as_of(request) -> date:
    """The day the page shows (`?as_of=`, default today; an impossible date is today, and
    the page's as-of control says so), never before the agency's ordinance took effect: the
    engine has nothing to say of earlier days."""
    day, _ = as_of_choice(request)
    agency = getattr(request, "agency", None)
    return max(day, agency.get_pack().effective) if agency is not None else day


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


def recorded(request, fse):
    """Show the establishment's page, evaluated again by the write (on its commit)."""
    messages.success(request, "Recorded; the establishment was evaluated again.")
    return redirect("web:establishment", code=fse.code)


def record_form_page(request, fse, form, title: str, warning: str = ""):
    """The page of a record's form (web/record_form.html): 400 when it was sent with errors."""
    context = {"fse": fse, "form": form, "title": title, "warning": warning}
    return render(request, "web/record_form.html", context, status=400 if form.is_bound else 200)
