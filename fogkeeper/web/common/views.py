"""Pages of no area: choosing which of one's agencies one acts for."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.urls import Resolver404, resolve, reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from . import policy


@require_POST
@login_required
def agency_switch(request):
    """Act for another of one's agencies; back to the area of the page one was on when one is
    staff there (its list, not a record of the agency one left), otherwise to one's portal."""
    agency = policy.choose_agency(request, request.POST.get("agency", ""))
    next_url = request.POST.get("next", "/")
    if not url_has_allowed_host_and_scheme(next_url, allowed_hosts={request.get_host()}):
        next_url = "/"
    if not policy.is_staff(request.user, agency):
        return redirect("portal:home")
    return redirect(area_page(next_url))


def area_page(url: str) -> str:
    """`url` where it names no record, else the nearest page above it that names none (from
    /establishments/SC-0012/record/inspection/, /establishments/): a record's code or number
    is of the agency one left, and would answer 404 in the other. The dashboard when none."""
    path = url.partition("?")[0]
    if _names_no_record(path):
        return url
    parts = [p for p in path.split("/") if p]
    for end in range(len(parts) - 1, 0, -1):
        above = "/" + "/".join(parts[:end]) + "/"
        if _names_no_record(above):
            return above
    return reverse("web:dashboard")


def _names_no_record(path: str) -> bool:
    try:
        match = resolve(path)
    except Resolver404:
        return False
    return not match.args and not match.kwargs
