"""The ordinance page, read by every staff role of the agency."""

from __future__ import annotations

from django.shortcuts import render

from fogkeeper.incidents.reporting_pack import of_agency

from ..common.pages import agency_page, page_as_of, reads_only
from .selectors import ordinance

MAX_QUERY = 100


@agency_page
@reads_only
def ordinance_page(request):
    """The agency's ordinance as fogkeeper enforces it (`?q=` words to look for, `?as_of=`
    the day whose parameter values are marked in force)."""
    query = request.GET.get("q", "")
    if len(query) > MAX_QUERY:
        context = {
            "refused": f"Look for at most {MAX_QUERY} characters.",
            "query": query[:MAX_QUERY],
        }
        return render(request, "web/ordinance/ordinance.html", context, status=400)
    on = page_as_of(request)
    context = {
        "ordinance": ordinance(request.agency, on=on, query=query),
        "on": on,
        "state": of_agency(request.agency),  # the State pack its spills are reported under
    }
    return render(request, "web/ordinance/ordinance.html", context)
