"""The staff inbox (`/inbox/`): what operators, haulers and the public filed, newest first,
with who filed it, for which establishment, and a link to the record's page."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.shortcuts import render

from ..common.pages import PAGE_SIZE, agency_page, reads_only
from .selectors import SOURCES, inbox, inbox_rows


@agency_page
@reads_only
def inbox_page(request):
    """Every staff role reads the inbox; `?kind=` keeps one kind of record."""
    kind = request.GET.get("kind", "")
    kind = kind if kind in SOURCES else ""
    page = Paginator(inbox(agency=request.agency, kind=kind), PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    context = {
        "page": page,
        "rows": inbox_rows(agency=request.agency, events=page.object_list),
        "kinds": [(s.kind, s.title) for s in SOURCES.values()],
        "kind": kind,
        "query": f"kind={kind}" if kind else "",
    }
    return render(request, "web/inbox/inbox.html", context)
