"""Staff pages of the places around the establishments: parcels and their property owners,
and each establishment's laterals to the public sewer's segments (the segments' own pages are
in `segments` and registry/sewers.py)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render

from fogkeeper.registry import selectors as registry
from fogkeeper.registry.models import Lateral, Parcel, PropertyOwner
from fogkeeper.registry.places import (
    lateral_add,
    lateral_remove,
    lateral_update,
    owner_register,
    owner_update,
    parcel_register,
    parcel_update,
)
from fogkeeper.web.common import policy
from fogkeeper.web.common.forms import put_errors
from fogkeeper.web.common.pages import agency_page, page_as_of, reads_only

from .operators import list_page
from .site_forms import LateralForm, OwnerForm, ParcelForm, RemoveForm
from .sites import KIND, establishment_write, evaluated, form_page, registry_write

OWNER_FIELDS = ("name", "phone", "email", "mailing_address")
PARCEL_FIELDS = ("apn", "address", "owner", "multi_tenant")
LATERAL_FIELDS = ("segment", "description", "last_inspected_on")


def _saved(request, to: str, message: str):
    messages.success(request, message)
    return redirect(to)


def _edit(request, form, update, title: str, to: str, **kw):
    """An edit form run through `update`: saved, back to the list; refused, shown again."""
    if form.is_valid():
        try:
            changed = update(**form.cleaned_data, actor=request.user, **kw)
        except ValidationError as e:
            put_errors(form, e)
        else:
            return _saved(request, to, "The changes are saved." if changed else "Nothing changed.")
    return form_page(request, form, title=title)


def _writer(request, model, **lookup):
    """The agency's record (404 for another agency's), then 403 for a role that may not write."""
    found = get_object_or_404(model, agency=request.agency, **lookup)
    policy.require_write(request.user, request.agency, KIND)
    return found


# -- property owners ----------------------------------------------------------------------


@agency_page
@reads_only
def owner_list(request):
    rows = registry.owner_list(agency=request.agency, q=request.GET.get("q", ""))
    return list_page(request, rows, "web/registry/owner_list.html")


@registry_write
def owner_new(request):
    form = OwnerForm(request.POST or None)
    if form.is_valid():
        try:
            owner = owner_register(agency=request.agency, **form.cleaned_data, actor=request.user)
        except ValidationError as e:
            put_errors(form, e)
        else:
            said = f"{owner.name} is added; name it as the owner of its parcels."
            return _saved(request, "web:owners", said)
    return form_page(request, form, title="Add a property owner")


@agency_page
def owner_edit(request, owner: int):
    found = _writer(request, PropertyOwner, pk=owner)
    initial = {k: getattr(found, k) for k in OWNER_FIELDS}
    form = OwnerForm(request.POST or None, initial=initial)
    return _edit(request, form, owner_update, f"Edit {found.name}", "web:owners", owner=found)


# -- parcels ------------------------------------------------------------------------------


@agency_page
@reads_only
def parcel_list(request):
    rows = registry.parcel_list(agency=request.agency, q=request.GET.get("q", ""))
    return list_page(request, rows, "web/registry/parcel_list.html")


@registry_write
def parcel_new(request):
    form = ParcelForm(request.POST or None, agency=request.agency)
    if form.is_valid():
        try:
            parcel = parcel_register(agency=request.agency, **form.cleaned_data, actor=request.user)
        except ValidationError as e:
            put_errors(form, e)
        else:
            said = (
                f"Parcel {parcel.apn} is added; link its establishments to it on their edit form."
            )
            return _saved(request, "web:parcels", said)
    return form_page(request, form, title="Add a parcel")


@agency_page
def parcel_edit(request, parcel: int):
    found = _writer(request, Parcel, pk=parcel)
    initial = {k: getattr(found, k) for k in PARCEL_FIELDS}
    form = ParcelForm(request.POST or None, agency=request.agency, initial=initial)
    title = f"Edit parcel {found.apn}"
    return _edit(request, form, parcel_update, title, "web:parcels", parcel=found)


# -- laterals of an establishment ---------------------------------------------------------


@establishment_write
def lateral_new(request, fse):
    form = LateralForm(request.POST or None, agency=request.agency)
    if form.is_valid():
        try:
            lateral_add(
                establishment=fse,
                today=page_as_of(request),
                **form.cleaned_data,
                actor=request.user,
            )
        except ValidationError as e:
            put_errors(form, e)
        else:
            return evaluated(request, fse, "The lateral is added.")
    return form_page(request, form, title="Add a sewer lateral", fse=fse)


@establishment_write
def lateral_edit(request, fse, lateral: int):
    found = get_object_or_404(Lateral, establishment=fse, pk=lateral)
    initial = {k: getattr(found, k) for k in LATERAL_FIELDS}
    form = LateralForm(request.POST or None, agency=request.agency, initial=initial)
    if form.is_valid():
        try:
            changed = lateral_update(
                lateral=found, today=page_as_of(request), **form.cleaned_data, actor=request.user
            )
        except ValidationError as e:
            put_errors(form, e)
        else:
            return evaluated(request, fse, "The lateral is saved." if changed else "No change.")
    return form_page(request, form, title="Edit the sewer lateral", fse=fse)


@establishment_write
def lateral_remove_page(request, fse, lateral: int):
    found = get_object_or_404(Lateral, establishment=fse, pk=lateral)
    form = RemoveForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            lateral_remove(
                lateral=found, on=page_as_of(request), actor=request.user, **form.cleaned_data
            )
        except ValidationError as e:
            put_errors(form, e)
        else:
            return evaluated(request, fse, f"The {found} is removed from the record.")
    context = {"form": form, "fse": fse, "lateral": found, "title": "Remove the sewer lateral"}
    status = 400 if form.errors else 200
    return render(request, "web/registry/lateral_remove.html", context, status=status)
