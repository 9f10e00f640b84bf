"""The manager's form requiring a report of one of the pack's kinds."""

from __future__ import annotations

from decimal import Decimal

from django import forms

from fogkeeper.rules.packs import Pack

from ..common.forms import DateInput


class RequireForm(forms.Form):
    kind = forms.ChoiceField(label="Kind of report")
    first_due_on = forms.DateField(label="Due on", widget=DateInput)
    every_months = forms.IntegerField(
        label="Then every this many months (leave blank for once)",
        required=False,
        min_value=1,
        max_value=120,
    )
    note = forms.CharField(
        label="What the report must cover (optional)",
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
    )

    def __init__(self, *args, pack: Pack, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["kind"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [(k.id, f"{k.title} ({k.citation})") for k in pack.reports.values()]


class MonitoringForm(forms.Form):
    performed_on = forms.DateField(label="Monitoring done on", widget=DateInput)
    cost = forms.DecimalField(
        label="Its cost to bill ($)", min_value=Decimal("0.01"), max_digits=12, decimal_places=2
    )
    note = forms.CharField(
        label="What was done (optional)",
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
