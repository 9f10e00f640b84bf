"""Reads of incidents for the staff pages: the agency's list with its filters, the imported
spills still to review, what the engine found of one incident, and the establishments an
imported spill may have come from."""

from __future__ import annotations

from datetime import date

from django.db.models import Q, QuerySet
from django.utils import timezone

from fogkeeper.registry.models import Agency, FoodServiceEstablishment, normalise_address

from .ciwqs_cells import street_key
from .models import Incident
from .spills import late_incident_ids

# The columns of an imported CIWQS row shown to whoever matches it by hand.
SOURCE_COLUMNS = (
    "SPILL_ID",
    "START_DT",
    "ADDRESS",
    "CITY",
    "SPILL_LOC_NAME",
    "SPILL_VOL",
    "SPILL_CAUSE",
    "SPILL_CAUSE_EXPLAIN",
)
CANDIDATES = 20


def incidents(
    *,
    agency: Agency,
    q: str = "",
    source: str = "",
    unmatched: bool = False,
    open: bool = False,
    date_from: date | None = None,
    date_to: date | None = None,
    category: int | None = None,
    reports_late: bool = False,
    as_of: date | None = None,
) -> QuerySet[Incident]:
    """The agency's incidents, newest first, narrowed by each filter given: `category` 1 to 4
    (0: none yet), `reports_late` those with a State report late on `as_of`."""
    qs = Incident.objects.filter(agency=agency).select_related("establishment")
    if q.strip():
        text = q.strip()
        qs = qs.filter(
            Q(code__icontains=text)
            | Q(address__icontains=text)
            | Q(cause__icontains=text)
            | Q(establishment__name__icontains=text)
            | Q(establishment__code__iexact=text)
        )
    if source:
        qs = qs.filter(source=source)
    if unmatched:
        qs = qs.filter(establishment__isnull=True)
    if open:
        qs = qs.filter(attributed=True).filter(
            Q(written_report_on__isnull=True) | Q(clearance_inspection_on__isnull=True)
        )
    if date_from:
        qs = qs.filter(date__gte=date_from)
    if date_to:
        qs = qs.filter(date__lte=date_to)
    if category == 0:
        qs = qs.filter(category__isnull=True)
    elif category:
        qs = qs.filter(category=category)
    if reports_late:
        qs = qs.filter(pk__in=late_incident_ids(agency=agency, as_of=as_of or timezone.localdate()))
    return qs.order_by("-date", "code")


def to_review(*, agency: Agency) -> QuerySet[Incident]:
    """Imported spills no establishment was matched to and that staff have not set aside."""
    return Incident.objects.filter(
        agency=agency, source="ciwqs", establishment__isnull=True, reviewed_on__isnull=True
    ).order_by("-date", "code")


def incident(*, agency: Agency, pk: int) -> Incident | None:
    return (
        Incident.objects.filter(agency=agency, pk=pk)
        .select_related("establishment", "reviewed_by")
        .first()
    )


def source_columns(incident: Incident) -> list[tuple[str, str]]:
    row = incident.source_record or {}
    return [(c, row[c]) for c in SOURCE_COLUMNS if row.get(c, "").strip()]


def candidates(*, incident: Incident, q: str = "") -> list[FoodServiceEstablishment]:
    """Establishments of the incident's agency the spill may have come from: those matching
    `q` (code, name or address), else those at the spill's street number and name."""
    qs = FoodServiceEstablishment.objects.filter(agency_id=incident.agency_id).order_by("code")
    text = q.strip()
    if text:
        found = Q(code__iexact=text) | Q(name__icontains=text) | Q(address__icontains=text)
        if normalised := normalise_address(text):
            found |= Q(normalised_address__icontains=normalised)
        return list(qs.filter(found)[:CANDIDATES])
    key = street_key(incident.normalised_address)
    if key is None:
        return []
    near = qs.filter(normalised_address__startswith=f"{key[0]} ")
    return [f for f in near if street_key(f.normalised_address) == key][:CANDIDATES]
