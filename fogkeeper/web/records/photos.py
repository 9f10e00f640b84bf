"""Inspection photos on the staff pages. MEDIA_ROOT is never served as such: a photo is read
through these views, which answer 404 for a photo of another agency, as for any record."""

from __future__ import annotations

import mimetypes

from django.http import FileResponse, Http404
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404

from fogkeeper.inspections.models import InspectionPhoto

from ..common.pages import agency_page, reads_only

IMAGE_TYPES = {"image/jpeg", "image/png", "image/gif", "image/webp"}


def _photo(request, pk: int) -> InspectionPhoto:
    return get_object_or_404(
        InspectionPhoto, pk=pk, inspection__establishment__agency=request.agency
    )


def _private(response: HttpResponseBase) -> HttpResponseBase:
    # Photos are evidence of one agency: kept out of shared caches, never run as a document.
    response["Cache-Control"] = "private, max-age=86400"
    response["Content-Security-Policy"] = "default-src 'none'; sandbox"
    response["X-Content-Type-Options"] = "nosniff"
    return response


@agency_page
@reads_only
def photo(request, photo: int):
    """The photo as it was taken."""
    found = _photo(request, photo)
    content_type = mimetypes.guess_type(found.image.name or "")[0]
    if content_type not in IMAGE_TYPES:
        content_type = "application/octet-stream"
    try:
        stream = found.image.open("rb")
    except FileNotFoundError:
        raise Http404("the photo's file is missing") from None
    return _private(FileResponse(stream, content_type=content_type))


@agency_page
@reads_only
def thumbnail(request, photo: int):
    """The photo's thumbnail as made once when it was stored (inspections/photos.py); 404
    while it is being prepared. The photo itself is never decoded here."""
    found = _photo(request, photo)
    if not found.thumbnail:
        raise Http404("the thumbnail is being prepared")
    try:
        stream = found.thumbnail.open("rb")
    except FileNotFoundError:
        raise Http404("the thumbnail's file is missing") from None
    return _private(FileResponse(stream, content_type="image/jpeg"))
