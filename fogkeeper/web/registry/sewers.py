"""The sewer segment pages: one segment with its cleaning state, the establishments feeding it,
the spills on it and its cleanings; and the form recording a cleaning (General Order WQ
2022-0103-DWQ, Attachment D, section 7: a cleaning schedule for each section prone to
blockages)."""

from __future__ import annotations

from functools import wraps

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone

from fogkeeper.registry.models import SewerSegment
from fogkeeper.sewers import selectors
from fogkeeper.sewers.models import FOG_LEVELS, METHODS, SegmentCleaning
from fogkeeper.sewers.services import cleaning_record

from ..common import policy
from ..common.forms import DateInput, put_errors
from ..common.pages import PAGE_SIZE, agency_page, page_as_of, reads_only

KIND = "segment_cleaning"


class CleaningForm(forms.Form):
    cleaned_on = forms.DateField(label="Date cleaned", widget=DateInput)
    crew = forms.CharField(max_length=120, label="Crew")
    method = forms.ChoiceField(choices=[("", "Choose a method"), *METHODS], label="Method")
    fog_found = forms.ChoiceField(choices=FOG_LEVELS, label="FOG found", widget=forms.RadioSelect)
    notes = forms.CharField(required=False, label="Notes", widget=forms.Textarea(attrs={"rows": 3}))


def segment_page(*, write: bool = False):
    """A page about one of the agency's segments (404 for any other agency's); one that
    writes answers 403 to a role that may not record a cleaning (policy)."""

    def decorate(view):
        @agency_page
        @wraps(view)
        def wrapper(request, segment: int):
            found = get_object_or_404(SewerSegment, agency=request.agency, pk=segment)
            if write:
                policy.require_write(request.user, request.agency, KIND)
            return view(request, found)

        return wrapper

    return decorate


def _page(request, rows, param: str):
    """A page of `rows` by the parameter `param`, and the query its links keep (the rest)."""
    query = request.GET.copy()
    query.pop(param, None)
    return Paginator(rows, PAGE_SIZE).get_page(request.GET.get(param)), query.urlencode()


@segment_page()
@reads_only
def segment_detail(request, segment):
    as_of = page_as_of(request)
    [state] = selectors.cleaning_states(
        agency=request.agency, as_of=as_of, segments=[segment], keep=2
    )
    cleanings = SegmentCleaning.objects.filter(segment=segment, cleaned_on__lte=as_of)
    spills, spills_query = _page(request, selectors.segment_spills(segment), "spills")
    page, query = _page(request, cleanings, "page")
    context = {
        "segment": segment,
        "state": state,
        "as_of": as_of,
        "citation": selectors.cleaning_citation(request.agency),
        "review_words": selectors.REVIEW_WORDS,
        "establishments": selectors.feeding_establishments(segment),
        "spills": spills,
        "spills_query": spills_query,
        "cleanings": page,
        "query": query,
        "may_clean": policy.may_write(request.user, request.agency, KIND),
        "may_edit": policy.may_write(request.user, request.agency, "establishment"),
    }
    return render(request, "web/registry/segment.html", context)


@segment_page(write=True)
def segment_cleaning_new(request, segment):
    form = CleaningForm(request.POST or None, initial={"cleaned_on": timezone.localdate()})
    if form.is_valid():
        try:
            cleaning_record(
                agency=request.agency,
                segment=segment,
                **form.cleaned_data,
                actor=request.user,
                today=timezone.localdate(),
            )
        except ValidationError as e:
            put_errors(form, e)
        else:
            messages.success(request, f"The cleaning of segment {segment.code} is recorded.")
            return redirect("web:segment", segment=segment.pk)
    context = {"form": form, "segment": segment, "title": f"Record a cleaning of {segment.code}"}
    status = 400 if form.is_bound else 200
    return render(request, "web/registry/cleaning_form.html", context, status=status)
