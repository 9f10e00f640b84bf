"""Staff record a waste cooking oil (yellow grease) pickup from the collector's receipt, as
the operator can in the portal: the receipt an inspector is shown on a visit, or one mailed in."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils import timezone

from fogkeeper.maintenance.services import pickup_record
from fogkeeper.portal.operator.forms import PickupForm

from ..common.forms import put_errors
from ..common.pages import record_form_page, record_page, recorded


@record_page("yellow_grease")
def record_yellow_grease(request, fse):
    form = PickupForm(request.POST or None, establishment=fse, today=timezone.localdate())
    if form.is_valid():
        try:
            pickup_record(establishment=fse, **form.cleaned_data, actor=request.user)
        except ValidationError as e:
            put_errors(form, e)
        else:
            return recorded(request, fse)
    return record_form_page(request, fse, form, "Record a waste cooking oil pickup")
