"""The portals' one gate: the person signed in acts for an agency in the portal's role."""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render

from fogkeeper.web import policy


def portal_page(role: str):
    """Login required, and the request acts for an agency in which the person holds `role`:
    sets request.agency, request.membership and request.establishments (what the role
    reaches, policy.establishments). Anyone else is answered as if the page did not exist."""

    def decorate(view):
        @login_required
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            request.agencies = list(policy.readable_agencies(request.user))
            request.agency = policy.current_agency(request)
            if request.agency is None:
                return render(request, "web/no_agency.html", status=403)
            request.membership = policy.membership(request.user, request.agency)
            if request.membership is None or request.membership.role != role:
                raise Http404(f"this page is for {role}s")
            request.establishments = policy.establishments(request.user, request.agency)
            return view(request, *args, **kwargs)

        return wrapper

    return decorate
