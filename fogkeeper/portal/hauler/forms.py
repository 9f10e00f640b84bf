"""The hauler's forms: one pump-out of a customer's device, or a manifest file for many. They
read what is typed; maintenance.services and maintenance.manifests validate the records."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.template.defaultfilters import filesizeformat

from fogkeeper.maintenance.manifests import COLUMNS
from fogkeeper.registry.models import GreaseControlDevice
from fogkeeper.web.common.forms import YES_NO_UNKNOWN, DateInput, model_choice_field


class DeviceChoice(forms.ModelChoiceField):
    def label_from_instance(self, device: GreaseControlDevice) -> str:
        size = (
            f", {device.capacity_gallons.normalize():f} gallons" if device.capacity_gallons else ""
        )
        return f"{device.code}: {device.kind_title()}{size}"


def _negative(label: str) -> dict[str, str]:
    """A reading refused in words when negative, naming it."""
    return {"min_value": f"{label.split(' (')[0]} cannot be negative: give 0 or more."}


def _depth(label: str) -> forms.DecimalField:
    return forms.DecimalField(
        required=False,
        min_value=0,
        max_digits=6,
        decimal_places=2,
        label=label,
        error_messages=_negative(label),
    )


class PumpOutForm(forms.Form):
    """One pump-out, as its manifest reads."""

    device = DeviceChoice(queryset=GreaseControlDevice.objects.none(), label="Device")
    manifest_number = forms.CharField(max_length=60, label="Manifest number")
    date = forms.DateField(label="Date of the pump-out", widget=DateInput)
    full_pump_out = forms.BooleanField(
        required=False, initial=True, label="Full pump-out (every chamber emptied)"
    )
    gallons_removed = forms.DecimalField(
        required=False,
        min_value=0,
        max_digits=9,
        decimal_places=1,
        label="Gallons removed",
        error_messages=_negative("Gallons removed"),
    )
    fog_inches = _depth("FOG depth before pumping (in)")
    solids_inches = _depth("Solids depth before pumping (in)")
    final_chamber_floating_oil = forms.NullBooleanField(
        required=False,
        label="Floating oil in the final chamber",
        widget=forms.Select(choices=YES_NO_UNKNOWN),
    )
    sludge_to_outlet_inches = _depth("Sludge to outlet elbow (in)")
    notes = forms.CharField(required=False, label="Notes", widget=forms.Textarea(attrs={"rows": 3}))

    def __init__(self, *args, devices, **kwargs):
        super().__init__(*args, **kwargs)
        model_choice_field(self, "device").queryset = devices
        if len(devices) == 1:
            model_choice_field(self, "device").empty_label = None


class ManifestFileForm(forms.Form):
    """A CSV file of manifests, with the columns of the manifest import."""

    file = forms.FileField(
        label="Manifest file (CSV)",
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,text/csv"}),
        help_text="Columns: " + ", ".join(COLUMNS) + ".",
    )

    def clean_file(self):
        """Its size, before a byte of it is read (FOGKEEPER_MANIFEST_MAX_BYTES); its rows are
        counted as it is read (manifests_import's max_rows)."""
        upload = self.cleaned_data["file"]
        limit = settings.FOGKEEPER_MANIFEST_MAX_BYTES
        if upload.size > limit:
            raise forms.ValidationError(
                f"{upload.name} is {filesizeformat(upload.size)}; a manifest file may be at most "
                f"{filesizeformat(limit)} ({settings.FOGKEEPER_MANIFEST_MAX_ROWS:,} rows). "
                "Split it into several files and upload each; nothing was added."
            )
        return upload
