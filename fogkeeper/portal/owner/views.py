"""The property owner's portal: the establishments on its parcels, read only (ACCESS.md:
status, findings, schedule, permits). Every page answers GET alone (405 to the owner's
POST); another parcel's establishment answers 404, and so does every page to anyone else."""

from __future__ import annotations

from functools import wraps

from django.http import Http404
from django.shortcuts import render
from django.utils import timezone

from fogkeeper.compliance.models import ComplianceStatus, Finding
from fogkeeper.permits.selectors import establishment_current_permit
from fogkeeper.web.views import reads_only

from ..access import portal_page
from ..operator import selectors

ROLE = "owner"


@portal_page(ROLE)
@reads_only
def home(request):
    establishments = list(
        request.establishments.select_related("parcel").order_by("parcel__apn", "name", "code")
    )
    statuses = {
        s.establishment_id: s
        for s in ComplianceStatus.objects.filter(establishment__in=establishments)
    }
    violations = {}
    for est_id in Finding.objects.filter(
        establishment__in=establishments, open=True, severity="violation"
    ).values_list("establishment_id", flat=True):
        violations[est_id] = violations.get(est_id, 0) + 1
    rows = [
        {
            "fse": fse,
            "compliance": statuses.get(fse.pk),
            "violations": violations.get(fse.pk, 0),
            "permit": establishment_current_permit(establishment=fse),
        }
        for fse in establishments
    ]
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
    return render(request, "portal/owner/establishment.html", {"p": page})
