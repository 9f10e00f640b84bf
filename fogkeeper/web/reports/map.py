"""The map page: the agency's establishments coloured by status, the sewer segments they drain
to coloured by the state of their cleaning, and the overflows, as GeoJSON for Leaflet. Access
is decided by `agency_page` (policy)."""

from __future__ import annotations

from django.conf import settings
from django.http import JsonResponse
from django.shortcuts import render
from django.urls import reverse

from fogkeeper.incidents.models import Incident
from fogkeeper.registry.models import Agency, FoodServiceEstablishment, SewerSegment
from fogkeeper.sewers.selectors import cleaning_states

from ..common.pages import agency_page, page_as_of, reads_only

# How the map colours a segment by its cleaning state (fogkeeper.sewers.selectors.STATES);
# the legend says each in words.
SEGMENT_COLOURS = {
    "overdue": "late",
    "never": "late",
    "due_soon": "due_soon",
    "current": "current",
    "no_frequency": "unscheduled",
    "unscheduled": "unscheduled",
}


@agency_page
@reads_only
def map_page(request):
    context = {
        "tiles": settings.FOGKEEPER_MAP_TILES,
        "attribution": settings.FOGKEEPER_MAP_ATTRIBUTION,
    }
    return render(request, "web/reports/map.html", context)


@agency_page
@reads_only
def map_data(request):
    return JsonResponse(features(request.agency, as_of=page_as_of(request)))


def features(agency: Agency, *, as_of) -> dict:
    """A GeoJSON FeatureCollection, in five queries whatever the number of records."""
    establishments = (
        FoodServiceEstablishment.objects.filter(
            agency=agency, latitude__isnull=False, longitude__isnull=False
        )
        .select_related("compliance")
        .prefetch_related("laterals__segment")
        .order_by("code")
    )
    out = []
    draining: dict[int, set[str]] = {}
    for fse in establishments:
        status = getattr(fse, "compliance", None)
        segments = sorted({lat.segment.code for lat in fse.laterals.all() if lat.segment})
        for lateral in fse.laterals.all():
            if lateral.segment_id:
                draining.setdefault(lateral.segment_id, set()).add(fse.code)
        out.append(
            _point(
                fse.latitude,
                fse.longitude,
                kind="establishment",
                code=fse.code,
                name=fse.name,
                address=fse.address,
                status=status.status if status else "unknown",
                segments=segments,
                url=reverse("web:establishment", args=[fse.code]),
            )
        )
    placed = SewerSegment.objects.filter(agency=agency, path__isnull=False).order_by("code")
    for state in cleaning_states(agency=agency, as_of=as_of, segments=placed, keep=2):
        feature = _segment(state, draining)
        if feature is not None:
            out.append(feature)
    incidents = (
        Incident.objects.filter(agency=agency, latitude__isnull=False, longitude__isnull=False)
        .select_related("establishment")
        .order_by("-date")
    )
    for incident in incidents:
        out.append(
            _point(
                incident.latitude,
                incident.longitude,
                kind="overflow",
                code=incident.code,
                date=incident.date.isoformat(),
                gallons=float(incident.gallons) if incident.gallons is not None else None,
                fog_caused=incident.fog_caused,
                address=incident.address,
                establishment=incident.establishment.code if incident.establishment else None,
            )
        )
    return {"type": "FeatureCollection", "features": out}


def _segment(state, draining: dict[int, set[str]]) -> dict | None:
    segment = state.segment
    line = _line(segment.path)
    if line is None:
        return None
    return {
        "type": "Feature",
        "geometry": line,
        "properties": {
            "kind": "segment",
            "code": segment.code,
            "description": segment.description,
            "prone_to_blockage": segment.prone_to_blockage,
            "establishments": sorted(draining.get(segment.pk, ())),
            "state": SEGMENT_COLOURS[state.state],
            "state_word": state.state_word,
            "due_on": state.due_on.isoformat() if state.due_on else None,
            "frequency_review": state.frequency_review,
            "url": reverse("web:segment", args=[segment.pk]),
        },
    }


def _point(latitude, longitude, **properties) -> dict:
    return {
        "type": "Feature",
        "geometry": {"type": "Point", "coordinates": [float(longitude), float(latitude)]},
        "properties": properties,
    }


def _line(path) -> dict | None:
    """GeoJSON wants [longitude, latitude]; the segment's path is a list of [lat, lon]."""
    try:
        coordinates = [[float(lon), float(lat)] for lat, lon in path]
    except (TypeError, ValueError):
        return None
    if len(coordinates) < 2:
        return None
    return {"type": "LineString", "coordinates": coordinates}
