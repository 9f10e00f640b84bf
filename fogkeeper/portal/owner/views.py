"""The property owner's portal: the establishments on its parcels, read only (ACCESS.md:
status, findings, schedule, permits). Every page answers GET alone (405 to the owner's
POST); another parcel's establishment answers 404, and so does every page to anyone else."""

from __future__ import annotations

from functools import wraps

from django.http import Http404
from django.shortcuts import render
from django.utils import timezone

from fogkeeper.web.common.pages import reads_only

from ..access import portal_page
from ..operator import selectors
from ..selectors import establishment_rows

ROLE = "owner"


@portal_page(ROLE)
@reads_only
def home(request):
    rows = establishment_rows(
        request.establishments.select_related("parcel").order_by("parcel__apn", "name", "code")
    )
    return render(request, "portal/owner/home.html", {"rows": rows})


def establishment_page(view):
    """An owner page about an establishment on its parcels (`code`): 404 for any other."""

    @portal_page(ROLE)
    @wraps(view)
    def wrapper(request, code: str):
        fse = request.establishments.filter(code=code).select_related("agency", "parcel").first()
        if fse is None:
            raise Http404("no such establishment")
        return view(request, fse)

    return wrapper


@establishment_page
@reads_only
def establishment(request, fse):
    sections = selectors.readable_sections(request.user, request.agency)
    page = selectors.overview(establishment=fse, sections=sections, as_of=timezone.localdate())
    return render(request, "portal/owner/establishment.html", {"overview": page})
