"""The portals' one gate: the person signed in acts for an agency in the portal's role."""

from __future__ import annotations

from functools import wraps

from fogkeeper.web.common import policy
from fogkeeper.web.common.pages import acting_page


def portal_page(role: str):
    """Login required, and the request acts for an agency in which the person holds `role`:
    sets request.agency, request.membership and request.establishments (what the role
    reaches, policy.establishments). Anyone else is answered as if the page did not exist."""

    def decorate(view):
        @acting_page(lambda m: m.role == role, f"this page is for {role}s")
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            request.establishments = policy.establishments(request.user, request.agency)
            return view(request, *args, **kwargs)

        return wrapper

    return decorate
