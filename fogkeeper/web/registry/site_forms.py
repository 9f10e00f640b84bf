"""Forms of the registry pages around an establishment: they read and label what a person
types, limited to the agency's own records; the services validate and their messages are put
back on the fields they name (`put_errors`)."""

from __future__ import annotations

from django import forms

from fogkeeper.registry.models import (
    CHANGE_KINDS,
    Agency,
    Operator,
    Parcel,
    PropertyOwner,
    SewerSegment,
)
from fogkeeper.web.common.forms import DateInput
from fogkeeper.web.common.lookups import LookupField

from ..common.forms import choice_field, model_choice_field


def _text(label: str, *, required: bool = False, max_length: int = 200, **kw) -> forms.CharField:
    return forms.CharField(label=label, required=required, max_length=max_length, **kw)


def _coordinate(label: str) -> forms.DecimalField:
    return forms.DecimalField(
        label=label,
        required=False,
        max_digits=9,
        decimal_places=6,
        widget=forms.NumberInput(attrs={"step": "0.000001", "inputmode": "decimal"}),
    )


class EstablishmentForm(forms.Form):
    """What the agency knows of an establishment (everything but its code and operator)."""

    name = _text("Name", required=True)
    address = _text("Street address", required=True)
    city = _text("City", max_length=100)
    state = _text("State", max_length=2, help_text="Its two-letter postal code: CA, OH.")
    zip_code = _text("ZIP code", max_length=10)
    category = forms.ChoiceField(label="Category")
    opened_on = forms.DateField(label="Opened on", widget=DateInput)
    parcel = LookupField(
        "parcel",
        required=False,
        label="Parcel",
        help_text="Type part of its number or address and pick it; leave it empty if not known.",
    )
    on_public_sewer = forms.BooleanField(
        required=False, initial=True, label="Discharges to the public sewer"
    )
    latitude = _coordinate("Latitude")
    longitude = _coordinate("Longitude")

    def __init__(self, *args, agency: Agency, **kwargs):
        super().__init__(*args, **kwargs)
        pack = agency.get_pack()
        choice_field(self, "category").choices = [(k, v.title) for k, v in pack.categories.items()]
        self.fields["category"].initial = pack.default_category
        model_choice_field(self, "parcel").queryset = Parcel.objects.filter(agency=agency)


class EstablishmentRegisterForm(EstablishmentForm):
    """A new establishment: its code and its first operator, an existing one or a new one."""

    code = _text("Establishment code", required=True, max_length=40)
    operator = LookupField(
        "operator",
        required=False,
        label="Operator",
        help_text="Type part of an operator's name or address and pick it; for a new "
        "operator leave this empty and name it below.",
    )
    new_operator = _text("New operator's name")
    field_order = ["code", "name"]

    def __init__(self, *args, agency: Agency, **kwargs):
        super().__init__(*args, agency=agency, **kwargs)
        model_choice_field(self, "operator").queryset = Operator.objects.filter(agency=agency)

    def clean(self):
        super().clean()
        data = self.cleaned_data
        known, new = data.get("operator"), (data.get("new_operator") or "").strip()
        if known is None and not new and "operator" not in self.errors:
            self.add_error("new_operator", "Pick an operator above or name a new one.")
        elif known is not None and new:
            self.add_error("new_operator", f"Leave this empty: {known} is picked above.")
        return data

    def first_operator(self) -> Operator | str:
        return self.cleaned_data["operator"] or self.cleaned_data["new_operator"].strip()


class CloseForm(forms.Form):
    closed_on = forms.DateField(label="Closed on", widget=DateInput)
    reason = _text("Reason or source", widget=forms.Textarea(attrs={"rows": 2}), max_length=500)


class ReopenForm(forms.Form):
    reason = _text("Reason or source", widget=forms.Textarea(attrs={"rows": 2}), max_length=500)


class OperationChangeForm(forms.Form):
    """A remodel, expansion or process change, and when the agency was told of it."""

    kind = forms.ChoiceField(choices=CHANGE_KINDS, label="Kind of change")
    date = forms.DateField(label="Date of the change (planned or done)", widget=DateInput)
    notified_on = forms.DateField(
        required=False,
        label="Agency notified on",
        widget=DateInput,
        help_text="The day the establishment told the agency of the change.",
    )
    description = forms.CharField(
        required=False, label="Description", widget=forms.Textarea(attrs={"rows": 3})
    )


class OperatorForm(forms.Form):
    name = _text("Name", required=True)
    phone = _text("Phone", max_length=40)
    email = forms.EmailField(required=False, label="Email")
    mailing_address = forms.CharField(
        required=False, label="Mailing address", widget=forms.Textarea(attrs={"rows": 3})
    )


class OwnerForm(OperatorForm):
    """A property owner: the same contact details as an operator's."""


class ParcelForm(forms.Form):
    apn = _text("Assessor's parcel number (APN)", required=True, max_length=40)
    address = _text("Address", required=True)
    owner = LookupField(
        "owner",
        required=False,
        label="Property owner",
        help_text="Type part of the owner's name and pick it; leave it empty if not known.",
    )
    multi_tenant = forms.BooleanField(required=False, label="Several establishments share it")

    def __init__(self, *args, agency: Agency, **kwargs):
        super().__init__(*args, **kwargs)
        model_choice_field(self, "owner").queryset = PropertyOwner.objects.filter(agency=agency)


class SegmentForm(forms.Form):
    code = _text("Segment code", required=True, max_length=40)
    description = _text("Description")
    prone_to_blockage = forms.BooleanField(required=False, label="Prone to blockage")
    cleaning_frequency_days = forms.IntegerField(
        required=False,
        label="Cleaning frequency (days)",
        help_text="Required for a segment prone to blockage.",
    )


class LateralForm(forms.Form):
    segment = LookupField(
        "segment",
        label="Sewer segment",
        help_text="Type part of its code or description and pick it.",
    )
    description = _text("Description")
    last_inspected_on = forms.DateField(required=False, label="Last inspected on", widget=DateInput)

    def __init__(self, *args, agency: Agency, **kwargs):
        super().__init__(*args, **kwargs)
        model_choice_field(self, "segment").queryset = SewerSegment.objects.filter(agency=agency)


class RemoveForm(forms.Form):
    reason = _text("Reason", widget=forms.Textarea(attrs={"rows": 2}), max_length=500)
