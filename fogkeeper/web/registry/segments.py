"""Staff pages of the public sewer's segments: the list with each segment's cleaning state
(filtered, searched, exported), and the forms to add a segment and keep it current. The page
of one segment and its cleanings is registry/sewers.py."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render

from fogkeeper.registry.models import SewerSegment
from fogkeeper.registry.places import segment_register, segment_update
from fogkeeper.sewers import selectors
from fogkeeper.web.common import policy
from fogkeeper.web.common.exports import export_response
from fogkeeper.web.common.forms import put_errors
from fogkeeper.web.common.pages import PAGE_SIZE, agency_page, page_as_of, reads_only

from .site_forms import SegmentForm
from .sites import KIND, form_page, registry_write

SEGMENT_FIELDS = ("code", "description", "prone_to_blockage", "cleaning_frequency_days")
COLUMNS = [
    "Segment",
    "Description",
    "Prone to blockage",
    "Cleaned every (days)",
    "Laterals",
    "Cleaning state",
    "Last cleaned",
    "FOG found last",
    "Next due",
    "Frequency review",
]


class SegmentFilterForm(forms.Form):
    q = forms.CharField(required=False, max_length=100, label="Search by code or description")
    show = forms.ChoiceField(
        required=False, choices=[("", "All segments"), *selectors.SHOWN.items()], label="Show"
    )


def _row(s: selectors.SegmentState) -> list:
    last = s.last
    return [
        s.segment.code,
        s.segment.description,
        s.segment.prone_to_blockage,
        s.segment.cleaning_frequency_days,
        s.segment.lateral_count,  # type: ignore[attr-defined]  # annotated by segment_list
        s.state_word,
        last.cleaned_on if last else None,
        last.get_fog_found_display() if last else "",
        s.due_on,
        s.frequency_review,
    ]


def _export(request, fmt: str, filters: dict):
    rows = selectors.segment_export(
        agency=request.agency, as_of=page_as_of(request), q=filters["q"], show=filters["show"]
    )
    return export_response(
        fmt,
        filename=f"{request.agency.code}-segments",
        sheet="Sewer segments",
        columns=COLUMNS,
        rows=(_row(s) for s in rows),
    )


@agency_page
@reads_only
def segment_list(request):
    form = SegmentFilterForm(request.GET)
    if not form.is_valid():
        context: dict[str, Any] = {
            "form": form,
            "page": None,
            "query": "",
            "as_of": page_as_of(request),
        }
        return render(request, "web/registry/segment_list.html", context, status=400)
    filters = form.cleaned_data
    if "export" in request.GET:
        return _export(request, request.GET["export"], filters)
    as_of = page_as_of(request)
    rows = selectors.segment_list(
        agency=request.agency, as_of=as_of, q=filters["q"], show=filters["show"]
    )
    query = request.GET.copy()
    query.pop("page", None)
    context = {
        "form": form,
        "page": Paginator(rows, PAGE_SIZE).get_page(request.GET.get("page")),
        "query": query.urlencode(),
        "filtered": bool(filters["q"] or filters["show"]),
        "as_of": as_of,
        "may_write": policy.may_write(request.user, request.agency, KIND),
    }
    return render(request, "web/registry/segment_list.html", context)


@registry_write
def segment_new(request):
    form = SegmentForm(request.POST or None)
    if form.is_valid():
        try:
            segment = segment_register(
                agency=request.agency, **form.cleaned_data, actor=request.user
            )
        except ValidationError as e:
            put_errors(form, e)
        else:
            said = f"Segment {segment.code} is added; add the laterals that reach it."
            messages.success(request, said)
            return redirect("web:segment", segment=segment.pk)
    return form_page(request, form, title="Add a sewer segment")


@agency_page
def segment_edit(request, segment: int):
    found = get_object_or_404(SewerSegment, agency=request.agency, pk=segment)
    policy.require_write(request.user, request.agency, KIND)
    initial = {k: getattr(found, k) for k in SEGMENT_FIELDS}
    form = SegmentForm(request.POST or None, initial=initial)
    if form.is_valid():
        try:
            changed = segment_update(segment=found, **form.cleaned_data, actor=request.user)
        except ValidationError as e:
            put_errors(form, e)
        else:
            messages.success(request, "The changes are saved." if changed else "Nothing changed.")
            return redirect("web:segment", segment=found.pk)
    return form_page(request, form, title=f"Edit segment {found.code}")
