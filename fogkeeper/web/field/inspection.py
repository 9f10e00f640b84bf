"""An inspection's page (`/inspections/<id>/`): what was answered, measured and photographed,
who signed for the establishment, and the operator's receipt (`receipt.pdf`, made from the
record each time: inspections.receipts) with whether and where it was emailed. Another
agency's inspection is not found."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.http import content_disposition_header
from django.utils.text import get_valid_filename

from fogkeeper.inspections.models import Inspection
from fogkeeper.inspections.receipts import receipt_context, receipt_filename, receipt_pdf

from ..common.pages import agency_page, reads_only


def _inspection(request, pk: int) -> Inspection:
    return get_object_or_404(
        Inspection.objects.select_related("establishment__agency", "inspector"),
        pk=pk,
        establishment__agency=request.agency,
    )


@agency_page
@reads_only
def inspection_page(request, pk: int):
    inspection = _inspection(request, pk)
    context = receipt_context(inspection, staff=True)
    context["photo_list"] = list(inspection.photos.all())
    return render(request, "web/field/inspection.html", context)


@agency_page
@reads_only
def inspection_receipt(request, pk: int):
    """The operator's receipt of the inspection, as a PDF."""
    inspection = _inspection(request, pk)
    response = HttpResponse(receipt_pdf(inspection), content_type="application/pdf")
    name = get_valid_filename(receipt_filename(inspection))
    response["Content-Disposition"] = content_disposition_header(True, name)
    response["Cache-Control"] = "private, no-cache"
    return response
