"""Pages of no area: choosing which of one's agencies one acts for."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from . import policy


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
