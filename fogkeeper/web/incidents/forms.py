"""Forms of the incident pages: entering an incident, keeping it current after the
investigation, finding incidents, and matching an imported spill by hand."""

from __future__ import annotations

from django import forms

from fogkeeper.incidents.services import STATE_FIELDS
from fogkeeper.registry.models import FoodServiceEstablishment

from ..common.forms import DateInput, DateTimeInput, choice_field, model_choice_field

INCIDENT_KINDS = [("overflow", "Overflow"), ("spill", "Spill"), ("blockage", "Blockage")]


def _moment(label: str) -> forms.DateTimeField:
    return forms.DateTimeField(
        required=False, label=label, widget=DateTimeInput(format="%Y-%m-%dT%H:%M")
    )


def _volume(label: str) -> forms.DecimalField:
    return forms.DecimalField(required=False, min_value=0, decimal_places=1, label=label)


def _optional_date_field(label: str) -> forms.DateField:
    return forms.DateField(required=False, label=label, widget=DateInput)


CATEGORY_CHOICES = [
    ("", "Derived from the spill's data"),
    *((n, f"Category {n}") for n in range(1, 5)),
]


class SpillForm(forms.Form):
    """What a spill was, and what the agency's State pack asks of it (California's General
    Order: its category is derived from these where they decide it; staff set it otherwise).
    `state` is that State pack; without one (the agency's pack names none) the form asks
    only the spill's facts."""

    def __init__(self, *args, state=None, **kwargs):
        super().__init__(*args, **kwargs)
        if state is None:
            for name in ("category", *STATE_FIELDS):
                del self.fields[name]

    started_at = _moment("Spill started (local time)")
    ended_at = _moment("Spill ended (local time)")
    known_at = _moment("Agency learned of the spill (local time)")
    gallons_recovered = _volume("Gallons recovered")
    gallons_to_surface_water = _volume("Gallons reaching surface water")
    reached_surface_water = forms.NullBooleanField(label="Reached surface water")
    reached_storm_drain = forms.NullBooleanField(label="Reached a storm drain")
    storm_drain_fully_captured = forms.NullBooleanField(
        label="All that reached the storm drain was captured and returned to the sewer"
    )
    category = forms.TypedChoiceField(
        required=False,
        choices=CATEGORY_CHOICES,
        coerce=int,
        empty_value=None,
        label="Category (set by staff only where the data does not decide it)",
    )
    oes_notified_at = _moment("Cal OES notified (local time)")
    oes_control_number = forms.CharField(
        required=False, max_length=40, label="Cal OES control number"
    )
    notification_certified_at = _moment("Notification certified (local time)")
    draft_report_on = _optional_date_field("Draft Spill Report submitted on")
    certified_report_on = _optional_date_field("Certified Spill Report submitted on")
    amended_report_on = _optional_date_field("Amended Spill Report submitted on")
    technical_report_on = _optional_date_field("Spill Technical Report submitted on")


class IncidentForm(SpillForm):
    """An overflow, spill or blockage attributed to the establishment."""

    field_order = [
        "code",
        "date",
        "kind",
        "attributed",
        "fog_caused",
        "gallons",
        "address",
        "cause",
        "written_report_on",
    ]

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


class IncidentUpdateForm(SpillForm):
    """What the investigation found, and the dates the written report and the clearance
    inspection came."""

    field_order = [
        "attributed",
        "fog_caused",
        "gallons",
        "cause",
        "written_report_on",
        "clearance_inspection_on",
    ]

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
    """The incident list's filters; every one may be left empty. The State's (the category,
    reports late, its export as a source) only where the agency has a State pack (`state`)."""

    def __init__(self, *args, state=None, **kwargs):
        super().__init__(*args, **kwargs)
        if state is None:
            del self.fields["category"], self.fields["reports_late"]
        if state is None or state.system != "CIWQS":
            choice_field(self, "source").choices = SOURCE_CHOICES[:2]

    q = forms.CharField(
        required=False, label="Search number, address, cause or establishment", max_length=100
    )
    source = forms.ChoiceField(required=False, choices=SOURCE_CHOICES, label="Source")
    unmatched = forms.BooleanField(required=False, label="No establishment matched")
    open = forms.BooleanField(
        required=False, label="Open: written report or clearance inspection missing"
    )
    category = forms.TypedChoiceField(
        required=False,
        coerce=int,
        empty_value=None,
        label="Category",
        choices=[("", "Any"), *((n, f"Category {n}") for n in range(1, 5)), (0, "None yet")],
    )
    reports_late = forms.BooleanField(required=False, label="State reports late")
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
        model_choice_field(
            self, "establishment"
        ).queryset = FoodServiceEstablishment.objects.filter(agency=agency)


class SetAsideForm(forms.Form):
    """An imported spill reviewed and found not to come from a food service establishment."""

    review_note = forms.CharField(
        max_length=1000,
        label="Why it is not from a food service establishment",
        widget=forms.Textarea(attrs={"rows": 3}),
    )
