"""Forms of the permit pages: they read and label what the manager types; the permit services
validate and their messages are put back on the fields they name (common.forms.put_errors)."""

from __future__ import annotations

from collections.abc import Sequence

from django import forms

from fogkeeper.inspections.models import Inspection
from fogkeeper.permits.models import PLAN_OUTCOMES
from fogkeeper.portal.operator.forms import PermitApplicationForm

from ..common.forms import DateInput, choice_field, model_choice_field


def _text(label: str, rows: int = 3, required: bool = False) -> forms.CharField:
    return forms.CharField(
        required=required, label=label, widget=forms.Textarea(attrs={"rows": rows})
    )


class PermitForm(forms.Form):
    """A permit's terms: number, dates, holder, frequencies and conditions (its title, e.g.
    "Discharge Permit", is the pack's)."""

    number = forms.CharField(max_length=60, label="Permit number")
    issued_on = forms.DateField(label="Issued on", widget=DateInput)
    expires_on = forms.DateField(label="Expires on", widget=DateInput)
    holder = forms.CharField(
        max_length=200, required=False, label="Holder (empty: the current operator)"
    )
    service_frequency_days = forms.IntegerField(
        required=False, min_value=1, label="Pump-out frequency (days)"
    )
    yellow_grease_frequency_days = forms.IntegerField(
        required=False, min_value=1, label="Waste cooking oil pickup frequency (days)"
    )
    conditions = _text("Conditions")

    def __init__(self, *args, frequencies: list[int] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        if frequencies:
            choices = [("", "As the ordinance sets for each device")]
            choices += [(str(n), f"Every {n} days") for n in frequencies]
            self.fields["service_frequency_days"] = forms.TypedChoiceField(
                choices=choices,
                coerce=int,
                empty_value=None,
                required=False,
                label="Pump-out frequency (days)",
                help_text="The frequencies the ordinance lets the manager assign.",
            )


class ApplicationApproveForm(PermitForm):
    """The application approved: the permit it issues, with its conditions."""

    device_conditions = _text("Device type and size required", rows=2)

    field_order = [
        "number",
        "issued_on",
        "expires_on",
        "holder",
        "device_conditions",
        "service_frequency_days",
        "yellow_grease_frequency_days",
        "conditions",
    ]

    def __init__(self, *args, missing: Sequence[str] = (), **kwargs):
        """`missing`: the required items the application lacks; where there are any, the
        reviewer approves only by ticking the override and saying why."""
        super().__init__(*args, **kwargs)
        if missing:
            self.fields["override"] = forms.BooleanField(
                required=False,
                label=f"Approve although the application lacks {', '.join(missing)}",
            )
            self.fields["override_reason"] = _text("Why it is approved without them", rows=2)

    def clean(self):
        super().clean()
        data = self.cleaned_data
        if data.get("override") and not data.get("override_reason", "").strip():
            self.add_error(
                "override_reason", "Say why the application is approved without the items."
            )
        return data

    def permit_terms(self) -> dict:
        data = dict(self.cleaned_data)
        override = data.pop("override", False)
        reason = data.pop("override_reason", "").strip()
        data["missing_override"] = reason if override else ""
        device = data.pop("device_conditions", "").strip()
        conditions = data.get("conditions", "").strip()
        if device:
            conditions = f"Grease control device: {device}" + (
                f"\n{conditions}" if conditions else ""
            )
        data["conditions"] = conditions
        return data


class ApplicationDenyForm(forms.Form):
    decided_on = forms.DateField(label="Denied on", widget=DateInput)
    reasons = _text("Reasons for the denial", required=True)


class RenewalDenyForm(forms.Form):
    denied_on = forms.DateField(label="Denied on", widget=DateInput)
    reason = _text("Reasons for the denial", required=True)


class ModificationForm(forms.Form):
    """A change of the permit's terms, after the ordinance's prior written notice."""

    noticed_on = forms.DateField(label="Notice given on", widget=DateInput)
    effective_on = forms.DateField(label="In effect from", widget=DateInput)
    service_frequency_days = forms.IntegerField(
        required=False, min_value=1, label="New pump-out frequency (days)"
    )
    yellow_grease_frequency_days = forms.IntegerField(
        required=False, min_value=1, label="New waste cooking oil pickup frequency (days)"
    )
    conditions = _text("New conditions (empty: unchanged)")
    reason = _text("Reason for the change", required=True)
    after_inspection = forms.BooleanField(
        required=False,
        label="The change results from an Authorized Inspector's evaluation for permit "
        "non-compliance",
    )
    inspection = forms.ModelChoiceField(
        queryset=Inspection.objects.none(), required=False, label="Inspection it results from"
    )

    def __init__(self, *args, permit, **kwargs):
        super().__init__(*args, **kwargs)
        self.permit = permit
        model_choice_field(self, "inspection").queryset = Inspection.objects.filter(
            establishment=permit.establishment
        ).order_by("-date")
        # an instance's own label, as Django's documentation does it
        model_choice_field(self, "inspection").label_from_instance = lambda i: (  # type: ignore[method-assign, assignment]
            f"{i.code} of {i.date}"
        )
        if not permit.agency.get_pack().parameters.get(
            "permit.modification_notice_inspection_period"
        ):
            del self.fields["after_inspection"]
            del self.fields["inspection"]

    def clean(self):
        super().clean()
        data = self.cleaned_data
        if data.get("after_inspection") and not data.get("inspection"):
            self.add_error("inspection", "Pick the inspection the change results from.")
        if not data.get("after_inspection"):
            data["inspection"] = None
        return data

    def changes(self) -> dict:
        data = self.cleaned_data
        out = {}
        for name in ("service_frequency_days", "yellow_grease_frequency_days"):
            if data.get(name) is not None:
                out[name] = data[name]
        if (data.get("conditions") or "").strip():
            out["conditions"] = data["conditions"].strip()
        return out


class DecisionForm(forms.Form):
    """The suspension or revocation a decision orders."""

    decision = forms.ChoiceField(label="Decision")

    def __init__(self, *args, decisions: list, **kwargs):
        super().__init__(*args, **kwargs)
        self.decisions = {str(d.pk): d for d in decisions}
        choice_field(self, "decision").choices = [
            (
                str(d.pk),
                f"{d.type.replace('_', ' ').capitalize()} {d.code} of case "
                f"{d.case.code}, {d.taken_on}",
            )
            for d in decisions
        ]

    def chosen(self):
        return self.decisions.get(getattr(self, "cleaned_data", {}).get("decision", ""))


class SuspendForm(DecisionForm):
    suspended_from = forms.DateField(label="Suspended from", widget=DateInput)
    suspended_until = forms.DateField(
        required=False, label="Suspended through (empty: until further order)", widget=DateInput
    )


class RevokeForm(DecisionForm):
    revoked_on = forms.DateField(label="Revoked on", widget=DateInput)


class PlanSubmitForm(forms.Form):
    submitted_on = forms.DateField(label="Plans submitted on", widget=DateInput)
    description = forms.CharField(max_length=200, label="What the plans are for")
    document = forms.FileField(
        required=False,
        label="Plans (optional)",
        help_text="A PDF, or a JPEG or PNG scan, up to 25 MB. It is kept with the review.",
        widget=forms.ClearableFileInput(attrs={"accept": "application/pdf,image/jpeg,image/png"}),
    )


class PlanDecideForm(forms.Form):
    decided_on = forms.DateField(label="Decided on", widget=DateInput)
    outcome = forms.ChoiceField(choices=PLAN_OUTCOMES, label="Outcome", widget=forms.RadioSelect)
    notes = _text("Notes (what must be corrected, when returned)")


class PaperApplicationForm(PermitApplicationForm):
    """A paper application the agency received, entered by staff as it reads: the day it
    was received, then the fields of the pack's application, any of them left blank (the
    queue shows what the ordinance requires and the paper lacks)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        received = forms.DateField(label="Received on", widget=DateInput)
        self.fields = {"submitted_on": received, **self.fields}

    def details(self) -> dict:
        return {k: v for k, v in super().details().items() if k != "submitted_on"}
