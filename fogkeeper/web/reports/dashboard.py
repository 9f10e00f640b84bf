"""The landing and the dashboard: where one lands after signing in (`/`, the page of one's
work by role), and what needs doing as of a day: overdue pump-outs, violations by rule,
permits to renew, inspections due, the week's legal calendar, recent overflows, spill reports
due, sewer cleanings overdue and the compliance rate, with the sweep they come from. Reads
only (selectors.dashboard, enforcement.selectors.with_cases): the counts over the agency from
the row its sweep stored for the day (compliance/dashboard.py), in a fixed handful of
queries whatever the agency's size."""

from __future__ import annotations

from functools import wraps

from django.shortcuts import redirect, render

from fogkeeper.enforcement.selectors import with_cases

from ..common import policy
from ..common.pages import agency_page, page_as_of, reads_only
from ..enforcement.from_findings import may_send_first_notice
from ..models import STAFF_ROLES
from . import selectors
from .sweep_standing import sweep_standing

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
    as_of = page_as_of(request)
    sweep = sweep_standing(agency=request.agency)
    # the stored figures are of the last complete sweep's day, kept current since; a run
    # under way, or stopped part done, has changed the findings since they were counted
    stored = (
        sweep.complete is not None
        and sweep.complete.as_of == as_of
        and sweep.running is None
        and sweep.stopped is None
    )
    board = selectors.dashboard(agency=request.agency, as_of=as_of, stored=stored)
    board.calendar = with_cases(request.agency, board.calendar)
    may_notice = may_send_first_notice(request)
    context = {"board": board, "may_notice": may_notice, "sweep": sweep}
    return render(request, "web/reports/dashboard.html", context)
