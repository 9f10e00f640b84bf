"""The map page: the agency's establishments coloured by status, the sewer segments they drain
to and the overflows, as GeoJSON for Leaflet. Access is decided by `agency_page` (policy)."""

from __future__ import annotations

from django.conf import settings
from django.http import JsonResponse
from django.shortcuts import render
from django.urls import reverse

from fogkeeper.incidents.models import Incident
from fogkeeper.registry.models import Agency, FoodServiceEstablishment, SewerSegment

from .views import agency_page, reads_only


@agency_page
@reads_only
def map_page(request):
    context = {
        "tiles": settings.FOGKEEPER_MAP_TILES,
        "attribution": settings.FOGKEEPER_MAP_ATTRIBUTION,
    }
    return render(request, "web/map.html", context)


@agency_page
@reads_only
def map_data(request):
    return JsonResponse(features(request.agency))


def features(agency: Agency) -> dict:
    """A GeoJSON FeatureCollection, in four queries whatever the number of records."""
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
    for segment in SewerSegment.objects.filter(agency=agency, path__isnull=False):
        line = _line(segment.path)
        if line is None:
            continue
        out.append(
            {
                "type": "Feature",
                "geometry": line,
                "properties": {
                    "kind": "segment",
                    "code": segment.code,
                    "description": segment.description,
                    "prone_to_blockage": segment.prone_to_blockage,
                    "establishments": sorted(draining.get(segment.pk, ())),
                },
            }
        )
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
