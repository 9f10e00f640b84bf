"""The answers to a request: decided (granted or denied, with reasons), delivered (on a day,
with its cost) or acknowledged, as the pack says the kind is answered."""

from __future__ import annotations

from django import forms


class DecideForm(forms.Form):
    outcome = forms.ChoiceField(
        label="Decision",
        choices=[("granted", "Grant"), ("denied", "Deny")],
        widget=forms.RadioSelect,
        error_messages={"required": "Choose to grant or to deny the request."},
    )
    frequency_days = forms.IntegerField(
        label="Frequency granted (days)",
        min_value=1,
        required=False,
        help_text="The frequency requested unless you grant another.",
    )
    reasons = forms.CharField(
        label="Reasons", required=False, widget=forms.Textarea(attrs={"rows": 4})
    )


class DeliverForm(forms.Form):
    delivered_on = forms.DateField(
        label="Delivered or mailed on", widget=forms.DateInput(attrs={"type": "date"})
    )
    cost = forms.DecimalField(
        label="Cost of preparing it", min_value=0, decimal_places=2, required=False
    )
    reasons = forms.CharField(
        label="Note", required=False, widget=forms.Textarea(attrs={"rows": 3})
    )


class AcknowledgeForm(forms.Form):
    reasons = forms.CharField(
        label="Note", required=False, widget=forms.Textarea(attrs={"rows": 3})
    )


FORMS = {"decide": DecideForm, "deliver": DeliverForm, "acknowledge": AcknowledgeForm}
