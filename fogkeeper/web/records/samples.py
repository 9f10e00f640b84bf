"""Staff recording a sample of the discharge (13.30.080(C); 10.02.090): whoever may record
inspections may (policy.WRITES "sample"). The form offers the parameters that have a limit in
force, the pack's and the permit's over them, and accepts any other; the write is the
inspections' `sample_record`, which refuses a result in another unit than its limit's."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from fogkeeper.inspections.selectors import discharge_limits
from fogkeeper.inspections.services import sample_record
from fogkeeper.registry.models import FoodServiceEstablishment, GreaseControlDevice

from ..common.forms import DateInput, Suggestions, model_choice_field, put_errors
from ..common.pages import page_as_of, record_form_page, record_page, recorded
from ..vocabulary import identifier_words, value_words


def _limit_words(parameter: str, limit: dict[str, Any]) -> str:
    words = value_words(None, parameter)
    return f"{words} at most {limit['max']:g} {limit['unit']} ({limit['source']})"


class SampleForm(forms.Form):
    """A sample of the establishment's discharge, or of one of its devices, for one parameter."""

    code = forms.CharField(max_length=40, label="Sample number")
    date = forms.DateField(label="Date of the sample", widget=DateInput)
    device = forms.ModelChoiceField(
        queryset=GreaseControlDevice.objects.none(),
        required=False,
        empty_label="The establishment's discharge",
        label="Device sampled",
    )
    parameter = forms.CharField(max_length=60, label="Parameter", widget=Suggestions)
    value = forms.DecimalField(
        min_value=0,
        max_digits=12,
        decimal_places=3,
        label="Value",
        widget=forms.NumberInput(attrs={"inputmode": "decimal"}),
    )
    unit = forms.CharField(max_length=20, label="Unit", widget=Suggestions)
    method = forms.CharField(
        max_length=80, required=False, label="Method", help_text="e.g. EPA 1664"
    )

    def __init__(
        self, *args, establishment: FoodServiceEstablishment, limits: dict[str, dict], **kwargs
    ):
        super().__init__(*args, **kwargs)
        self.limits = limits
        model_choice_field(self, "device").queryset = (
            GreaseControlDevice.objects.select_related("establishment__agency")
            .filter(establishment=establishment, removed_on__isnull=True)
            .order_by("code")
        )
        parameters = [
            (identifier_words(p), _limit_words(p, limit)) for p, limit in sorted(limits.items())
        ]
        units = sorted({limit["unit"] for limit in limits.values()})
        self.fields["parameter"].widget.options = parameters
        self.fields["unit"].widget.options = [(u, u) for u in units]
        if limits:
            self.fields["parameter"].help_text = (
                "Limits in force: " + "; ".join(words for _, words in parameters) + ". "
                "Another parameter may be recorded too."
            )
            units_by_parameter = "; ".join(
                f"{value_words(None, p)} in {lim['unit']}" for p, lim in limits.items()
            )
            self.fields["unit"].help_text = f"The unit of the limit: {units_by_parameter}."
        else:
            self.fields["parameter"].help_text = (
                "No discharge limit is in force here; any parameter may be recorded, "
                "e.g. oil and grease."
            )

    def clean_parameter(self) -> str:
        """A parameter with a limit typed in words ("Oil and grease") is that parameter."""
        typed = self.cleaned_data["parameter"]
        key = re.sub(r"[\s-]+", "_", typed.lower())
        return next((p for p in self.limits if p.lower() == key), typed)


@record_page("sample")
def record_sample(request, fse):
    limits = discharge_limits(fse, request.agency.get_pack(), page_as_of(request))
    form = SampleForm(request.POST or None, establishment=fse, limits=limits)
    if form.is_valid():
        try:
            sample_record(establishment=fse, **form.cleaned_data, actor=request.user)
        except ValidationError as e:
            put_errors(form, e)
        else:
            return recorded(request, fse)
    return record_form_page(request, fse, form, "Record a sample")
