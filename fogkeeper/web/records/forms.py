"""Forms of the records staff write on an establishment's page: a pump-out, an inspection,
a training, a change of operator. They read and label what a person types; the services
validate the records and their messages are put back on the fields they name
(common.forms.put_errors)."""

from __future__ import annotations

from typing import Any

from django import forms

from fogkeeper.registry.models import FoodServiceEstablishment, GreaseControlDevice, Hauler
from fogkeeper.training.models import Employee

from ..common.forms import YES_NO_UNKNOWN, DateInput, PhotosField, model_choice_field
from ..common.lookups import HAULER_HELP, LookupField


def _not_negative(label: str) -> forms.DecimalField:
    """A reading that may be left blank, refused in words when negative."""
    what = label.split(" (")[0]
    return forms.DecimalField(
        required=False,
        min_value=0,
        label=label,
        error_messages={"min_value": f"{what} cannot be negative: give 0 or more."},
    )


class ServiceForm(forms.Form):
    """A pump-out of one of the establishment's devices, with its manifest."""

    device = forms.ModelChoiceField(queryset=GreaseControlDevice.objects.none(), label="Device")
    hauler = LookupField("hauler", label="Hauler", help_text=HAULER_HELP)
    manifest_number = forms.CharField(max_length=60, label="Manifest number")
    date = forms.DateField(label="Date of the pump-out", widget=DateInput)
    full_pump_out = forms.BooleanField(required=False, initial=True, label="Full pump-out")
    gallons_removed = _not_negative("Gallons removed")
    fog_inches = _not_negative("FOG depth before (in)")
    solids_inches = _not_negative("Solids depth before (in)")
    final_chamber_floating_oil = forms.NullBooleanField(
        required=False,
        label="Floating oil in the final chamber",
        widget=forms.Select(choices=YES_NO_UNKNOWN),
    )
    sludge_to_outlet_inches = _not_negative("Sludge to outlet elbow (in)")
    notes = forms.CharField(required=False, label="Notes", widget=forms.Textarea(attrs={"rows": 3}))

    def __init__(self, *args, establishment: FoodServiceEstablishment, **kwargs):
        super().__init__(*args, **kwargs)
        model_choice_field(self, "device").queryset = (
            GreaseControlDevice.objects.select_related("establishment__agency")
            .filter(establishment=establishment, removed_on__isnull=True)
            .order_by("code")
        )
        model_choice_field(self, "hauler").queryset = Hauler.objects.filter(
            agency=establishment.agency
        )


CHECK_CHOICES = [("yes", "Compliant"), ("no", "Not compliant")]


class InspectionForm(forms.Form):
    """An inspection: the pack's checklist in the pack's order (each item answered with one
    tap, or left unanswered), the accumulation measured in each device, photos, and the
    signature of who signed for the establishment (drawn in the page's signature box,
    signature.js, and sent as the image the field app sends). Its number and date come filled
    in (`code`, `day`: the next free number of the day, the agency's today)."""

    code = forms.CharField(
        max_length=40,
        label="Inspection number",
        help_text="Made for you from the establishment and the day; change it if you must.",
    )
    date = forms.DateField(label="Date of the inspection", widget=DateInput)
    notes = forms.CharField(required=False, label="Notes", widget=forms.Textarea(attrs={"rows": 3}))
    photos = PhotosField(label="Photos")
    signed_by = forms.CharField(required=False, max_length=200, label="Name of who signs")
    signature = forms.ImageField(required=False, label="Signature", widget=forms.FileInput)

    def __init__(
        self, *args, establishment: FoodServiceEstablishment, checklist, code="", day=None, **kwargs
    ):
        super().__init__(*args, initial={"code": code, "date": day}, **kwargs)  # type: ignore[misc]  # no initial in kwargs
        self.items = []
        for i, item in enumerate(checklist.values()):
            name = f"item_{i}"
            self.fields[name] = forms.ChoiceField(
                choices=CHECK_CHOICES,
                required=False,
                label=item.question,
                widget=forms.RadioSelect,
            )
            self.fields[f"{name}_note"] = forms.CharField(
                required=False, max_length=500, label=f"Note ({item.citation})"
            )
            self.items.append({"item": item, "field": self[name], "note": self[f"{name}_note"]})
        self.devices: list[dict[str, Any]] = []
        devices = (
            GreaseControlDevice.objects.select_related("establishment__agency")
            .filter(establishment=establishment, removed_on__isnull=True)
            .order_by("code")
        )
        for device in devices:
            depth = {"data-depth": device.design_depth_inches or "", "data-device": device.code}
            for part, what in (("fog", "FOG"), ("solids", "Solids")):
                self.fields[f"{part}_{device.pk}"] = forms.DecimalField(
                    required=False,
                    min_value=0,
                    label=f"{what} depth in {device.code} (in)",
                    error_messages={
                        "min_value": f"{what} depth in {device.code} cannot be "
                        "negative: give 0 or more."
                    },
                    widget=forms.NumberInput(
                        attrs={"step": "0.01", "inputmode": "decimal", f"data-{part}": "", **depth}
                    ),
                )
            self.devices.append(
                {
                    "device": device,
                    "fog": self[f"fog_{device.pk}"],
                    "solids": self[f"solids_{device.pk}"],
                }
            )

    def answers(self):
        """(checklist item, compliant, note) of each item answered."""
        for i, row in enumerate(self.items):
            value = self.cleaned_data.get(f"item_{i}")
            if value:
                yield row["item"].item, value == "yes", self.cleaned_data.get(f"item_{i}_note", "")

    def readings(self):
        """(device, fog, solids) of each device with a depth typed in."""
        for row in self.devices:
            pk = row["device"].pk
            fog, solids = self.cleaned_data.get(f"fog_{pk}"), self.cleaned_data.get(f"solids_{pk}")
            if fog is not None or solids is not None:
                yield row["device"], fog, solids


class TrainingForm(forms.Form):
    """A training session, who attended and who signed the attendance log."""

    code = forms.CharField(max_length=40, label="Training number")
    date = forms.DateField(label="Date of the training", widget=DateInput)
    topic = forms.CharField(max_length=200, required=False, label="Topic")
    trainer = forms.CharField(max_length=200, required=False, label="Trainer")
    attendees = forms.ModelMultipleChoiceField(
        queryset=Employee.objects.none(), label="Attendees", widget=forms.CheckboxSelectMultiple
    )
    signed = forms.ModelMultipleChoiceField(
        queryset=Employee.objects.none(),
        required=False,
        label="Signed the attendance log",
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args, establishment: FoodServiceEstablishment, **kwargs):
        super().__init__(*args, **kwargs)
        employees = Employee.objects.filter(establishment=establishment).order_by("name")
        model_choice_field(self, "attendees").queryset = employees
        model_choice_field(self, "signed").queryset = employees

    def unsigned(self) -> list[Employee]:
        signed = set(self.cleaned_data["signed"])
        return [e for e in self.cleaned_data["attendees"] if e not in signed]


class OperatorChangeForm(forms.Form):
    """A new operator took over the establishment (the permit in force ends with it unless
    the ordinance keeps it in force)."""

    operator = forms.CharField(max_length=200, label="New operator")
    on = forms.DateField(label="Takes over on", widget=DateInput)
    reason = forms.CharField(
        required=False, label="Reason or source", widget=forms.Textarea(attrs={"rows": 2})
    )
