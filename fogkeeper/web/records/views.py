"""Recording work on an establishment's page: a pump-out (maintenance), an inspection with
its checklist, readings and photos (inspections), a training (training) and a change of
operator (permits.operators), each through its service; who may record which is policy's
(record_page). After each write the establishment is evaluated again (common.pages.recorded).
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils import timezone

from fogkeeper import uploads
from fogkeeper.inspections.selectors import accumulation_limit, inspection_code
from fogkeeper.inspections.services import (
    Answer,
    Reading,
    inspection_photo_add,
    inspection_record,
)
from fogkeeper.inspections.tasks import receipt_queue
from fogkeeper.maintenance.services import service_record
from fogkeeper.permits import operators as operator_changes
from fogkeeper.registry.models import Operator
from fogkeeper.training.services import training_record

from ..common.forms import put_errors
from ..common.pages import page_as_of, record_form_page, record_page, recorded
from .forms import InspectionForm, OperatorChangeForm, ServiceForm, TrainingForm


@record_page("service")
def record_service(request, fse):
    form = ServiceForm(request.POST or None, establishment=fse)
    if form.is_valid():
        try:
            service_record(
                **form.cleaned_data,
                agency=request.agency,
                today=timezone.localdate(),
                actor=request.user,
            )
        except ValidationError as e:
            put_errors(form, e)
        else:
            return recorded(request, fse)
    return record_form_page(request, fse, form, "Record a pump-out")


@record_page("inspection")
def record_inspection(request, fse):
    """The inspection form, its number and today's date filled in; once stored, the
    inspection's own page (with its receipt), not the establishment's long page."""
    pack = request.agency.get_pack()
    today = request.agency.today()
    form = InspectionForm(
        request.POST or None,
        request.FILES or None,
        establishment=fse,
        checklist=pack.checklist,
        code=inspection_code(fse, today),
        day=today,
    )
    if form.is_valid():
        try:
            inspection = _inspection_save(request, fse, form)
        except ValidationError as e:
            put_errors(form, e, _inspection_error_fields(form))
        else:
            messages.success(
                request,
                f"Inspection {inspection.code} of {fse.name} recorded; the establishment was "
                "evaluated again. The operator's receipt is linked below.",
            )
            return redirect("web:inspection", pk=inspection.pk)
    for row in form.devices:
        limit = accumulation_limit(pack, row["device"].kind, page_as_of(request))
        row["limit"] = limit.value if limit is not None else None
    context = {"fse": fse, "form": form, "title": "Record an inspection"}
    status = 400 if form.is_bound else 200
    return render(request, "web/records/inspection.html", context, status=status)


def _inspection_save(request, fse, form):
    """The inspection with its photos and signature, through the service the field app's
    sync stores with (inspections.services.inspection_record): all of it, or nothing."""
    data = form.cleaned_data
    answers = [Answer(item=item, compliant=ok, note=note) for item, ok, note in form.answers()]
    readings = [Reading(device=d, fog_inches=f, solids_inches=s) for d, f, s in form.readings()]
    with uploads.atomic():  # its photos are kept only if all of it is stored
        inspection = inspection_record(
            establishment=fse,
            code=data["code"].strip(),
            date=data["date"],
            answers=answers,
            measurements=readings,
            inspector=request.user,
            notes=data["notes"],
            today=timezone.localdate(),
            actor=request.user,
            signature=data["signature"] or None,
            signed_by=data["signed_by"].strip(),
        )
        for photo in data["photos"]:
            inspection_photo_add(inspection=inspection, image=photo, actor=request.user)
        receipt_queue(inspection)
    return inspection


def _inspection_error_fields(form) -> dict[str, str]:
    """The service's keys (answers[i], measurements[i]) -> the form's fields they are about."""
    names = {row["item"].item: row["field"].name for row in form.items}
    fields = {f"answers[{i}]": names[item] for i, (item, _, _) in enumerate(form.answers())}
    for i, (device, _, _) in enumerate(form.readings()):
        fields[f"measurements[{i}]"] = f"fog_{device.pk}"
    fields["image"] = "photos"  # inspection_photo_add's
    return fields


@record_page("training")
def record_training(request, fse):
    form = TrainingForm(request.POST or None, establishment=fse)
    if form.is_valid():
        data = form.cleaned_data
        try:
            training_record(
                establishment=fse,
                code=data["code"],
                date=data["date"],
                attendees=list(data["attendees"]),
                unsigned=form.unsigned(),
                topic=data["topic"],
                trainer=data["trainer"],
                actor=request.user,
            )
        except ValidationError as e:
            put_errors(form, e)
        else:
            return recorded(request, fse)
    return record_form_page(request, fse, form, "Record a training")


@record_page("operator_change")
def record_operator_change(request, fse):
    form = OperatorChangeForm(request.POST or None)
    if form.is_valid():
        data = form.cleaned_data
        known = Operator.objects.filter(agency=request.agency, name=data["operator"]).first()
        permits = operator_changes.active_permits(establishment=fse)
        try:
            operator_changes.operator_change(
                establishment=fse,
                operator=known or data["operator"],
                on=data["on"],
                reason=data["reason"],
                actor=request.user,
            )
        except ValidationError as e:
            put_errors(form, e)
        else:
            kept = operator_changes.active_permits(establishment=fse)
            ended = operator_changes.operator_change_ended(
                permits=[p for p in permits if p not in kept],
                kept=kept,
                on=data["on"],
                agency=request.agency,
            )
            messages.warning(request, ended)
            return recorded(request, fse)
    warning = operator_changes.operator_change_warning(establishment=fse)
    return record_form_page(request, fse, form, "Record a change of operator", warning)
