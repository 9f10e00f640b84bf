"""Forms of the incident pages: entering an incident, keeping it current after the
investigation, finding incidents, and matching an imported spill by hand."""

from __future__ import annotations

from django import forms

from fogkeeper.registry.models import FoodServiceEstablishment

from .forms import DateInput

INCIDENT_KINDS = [("overflow", "Overflow"), ("spill", "Spill"), ("blockage", "Blockage")]


class IncidentForm(forms.Form):
    """An overflow, spill or blockage attributed to the establishment."""

    code = forms.CharField(max_length=40, label="Incident number")
    date = forms.DateField(label="Date of the incident", widget=DateInput)
    kind = forms.ChoiceField(choices=INCIDENT_KINDS, label="Kind")
    attributed = forms.BooleanField(
        required=False, initial=True, label="Attributed to this establishment"
    )
    fog_caused = forms.BooleanField(required=False, label="Caused by FOG")
    gallons = forms.DecimalField(required=False, min_value=0, label="Gallons spilled")
    address = forms.CharField(max_length=200, required=False, label="Address or location")
    cause = forms.CharField(required=False, label="Cause", widget=forms.Textarea(attrs={"rows": 3}))
    written_report_on = forms.DateField(
        required=False, label="Written report received on", widget=DateInput
    )


class IncidentUpdateForm(forms.Form):
    """What the investigation found, and the dates the written report and the clearance
    inspection came."""

    attributed = forms.BooleanField(
        required=False, label="Caused or contributed to by the establishment"
    )
    fog_caused = forms.BooleanField(required=False, label="Caused by FOG")
    gallons = forms.DecimalField(
        required=False, min_value=0, decimal_places=1, label="Gallons spilled"
    )
    cause = forms.CharField(
        required=False, max_length=200, label="Cause", widget=forms.Textarea(attrs={"rows": 3})
    )
    written_report_on = forms.DateField(
        required=False, label="Written report received on", widget=DateInput
    )
    clearance_inspection_on = forms.DateField(
        required=False, label="Clearance inspection on", widget=DateInput
    )


SOURCE_CHOICES = [("", "Any"), ("staff", "Entered by staff"), ("ciwqs", "CIWQS export")]


class IncidentFilterForm(forms.Form):
    """The incident list's filters; every one may be left empty."""

    q = forms.CharField(
        required=False, label="Search number, address, cause or establishment", max_length=100
    )
    source = forms.ChoiceField(required=False, choices=SOURCE_CHOICES, label="Source")
    unmatched = forms.BooleanField(required=False, label="No establishment matched")
    open = forms.BooleanField(
        required=False, label="Open: written report or clearance inspection missing"
    )
    date_from = forms.DateField(required=False, label="From", widget=DateInput)
    date_to = forms.DateField(required=False, label="To", widget=DateInput)


class MatchForm(forms.Form):
    """The establishment an imported spill came from, one of the agency's (any other id is
    refused on the field, as if it did not exist)."""

    establishment = forms.ModelChoiceField(
        queryset=FoodServiceEstablishment.objects.none(),
        label="Establishment",
        error_messages={"invalid_choice": "Choose one of the agency's establishments."},
    )

    def __init__(self, *args, agency, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["establishment"].queryset = FoodServiceEstablishment.objects.filter(
            agency=agency
        )


class SetAsideForm(forms.Form):
    """An imported spill reviewed and found not to come from a food service establishment."""

    review_note = forms.CharField(
        max_length=1000,
        label="Why it is not from a food service establishment",
        widget=forms.Textarea(attrs={"rows": 3}),
    )
