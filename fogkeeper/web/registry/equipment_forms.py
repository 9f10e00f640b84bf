"""Forms of the equipment registry pages (devices, food grinders, haulers and their service
contracts, employees): they read and label what a person types; the services validate the
records, and their messages are put back on the fields they name (forms.put_errors)."""

from __future__ import annotations

from django import forms

from fogkeeper.registry.models import DESIGN_FIELDS, Hauler

from ..common.forms import DateInput, choice_field, model_choice_field
from ..common.lookups import HAULER_HELP, LookupField

TEXTAREA = {"rows": 2}


def _date(label: str, **kw) -> forms.DateField:
    return forms.DateField(label=label, widget=DateInput, **kw)


def _reason() -> forms.CharField:
    return forms.CharField(
        label="Note for the record",
        required=False,
        max_length=500,
        widget=forms.Textarea(attrs=TEXTAREA),
    )


def kind_choices(pack) -> list[tuple[str, str]]:
    """The pack's device kinds in its own words."""
    return [(kind, pack.kind_title(kind)) for kind in pack.device_kinds]


class DesignForm(forms.Form):
    """A device's kind and design data, as the ordinance's design limits read them."""

    kind = forms.ChoiceField(label="Kind of device")
    location = forms.CharField(label="Location", max_length=200, required=False)
    capacity_gallons = forms.DecimalField(
        label="Capacity (gallons)", max_digits=9, decimal_places=1, required=False
    )
    design_depth_inches = forms.DecimalField(
        label="Design depth (inches)",
        max_digits=6,
        decimal_places=2,
        required=False,
        help_text="The liquid depth the 25% accumulation rule is measured against.",
    )
    compartments = forms.IntegerField(label="Compartments", max_value=99, required=False)
    manhole_diameter_inches = forms.DecimalField(
        label="Manhole diameter (inches)", max_digits=6, decimal_places=2, required=False
    )

    def __init__(self, *args, pack, **kwargs):
        super().__init__(*args, **kwargs)
        choice_field(self, "kind").choices = kind_choices(pack)

    def design(self) -> dict:
        names = (
            "location",
            "capacity_gallons",
            "design_depth_inches",
            "compartments",
            "manhole_diameter_inches",
        )
        return {name: self.cleaned_data[name] for name in names}


class DeviceInstallForm(DesignForm):
    code = forms.CharField(label="Device number", max_length=40, help_text="e.g. GI-2")
    installed_on = _date("Installed on")
    field_order = ["code", "kind", "installed_on"]


class DeviceEditForm(DesignForm):
    installed_on = _date("Installed on")
    reason = _reason()
    field_order = ["kind", "installed_on"]


class DeviceReplaceForm(DesignForm):
    on = _date("Replaced on", help_text="The old device is removed and the new one installed.")
    code = forms.CharField(label="Number of the new device", max_length=40)
    reason = _reason()
    field_order = ["on", "code", "kind"]


class DeviceRemoveForm(forms.Form):
    removed_on = _date("Removed on")
    reason = _reason()


class FrequencyForm(forms.Form):
    service_frequency_days = forms.IntegerField(
        label="Service frequency (days)",
        required=False,
        max_value=3650,
        help_text="Leave empty for the permit's frequency, or the ordinance's default.",
    )
    reason = _reason()


class ExceptionForm(forms.Form):
    field = forms.ChoiceField(label="Design limit excepted", choices=DESIGN_FIELDS)
    approved_on = _date("Approved on")
    approved_by = forms.CharField(label="Approved by", max_length=200, required=False)
    reference = forms.CharField(label="Approval number", max_length=80, required=False)


class GrinderInstallForm(forms.Form):
    installed_on = _date("Food grinder installed on")


class GrinderRemoveForm(forms.Form):
    removed_on = _date("Food grinder removed on")


class HaulerEditForm(forms.Form):
    """The hauler's name and licence, and the certification the ordinance requires beside it
    (`certification`: its name in the pack) where it requires one."""

    name = forms.CharField(label="Name", max_length=200)
    licence_number = forms.CharField(label="Licence number", max_length=60, required=False)
    licence_expires_on = _date("Licence expires on", required=False)
    licensed = forms.BooleanField(label="Licensed", required=False, initial=True)
    reason = _reason()

    def __init__(self, *args, certification: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        if certification:
            self.fields["certification_number"] = forms.CharField(
                label=f"{certification} number", max_length=60, required=False
            )
            self.fields["certification_expires_on"] = _date(
                f"{certification} expires on", required=False
            )
            self.fields["certified"] = forms.BooleanField(
                label=f"Holds the {certification}", required=False, initial=True
            )


class HaulerRegisterForm(HaulerEditForm):
    code = forms.CharField(label="Hauler number", max_length=40, help_text="e.g. H-06")
    field_order = ["code", "name"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        del self.fields["reason"]


class ContractForm(forms.Form):
    """A service contract, started from the establishment's page (choose the hauler) or the
    hauler's (type the establishment's number)."""

    hauler = LookupField("hauler", label="Hauler", help_text=HAULER_HELP)
    establishment = forms.CharField(label="Establishment number", max_length=40)
    since = _date("Contract in force since")

    def __init__(self, *args, agency, fixed: str, **kwargs):
        super().__init__(*args, **kwargs)
        model_choice_field(self, "hauler").queryset = Hauler.objects.filter(agency=agency)
        del self.fields[fixed]


class ContractEndForm(forms.Form):
    until = _date("Contract ended on")
    reason = _reason()


class EmployeeEditForm(forms.Form):
    name = forms.CharField(label="Name", max_length=200)
    kitchen_duties = forms.BooleanField(
        label="Kitchen duties (must be trained)", required=False, initial=True
    )
    contractor = forms.BooleanField(label="Contractor", required=False)
    reason = _reason()


class EmployeeHireForm(EmployeeEditForm):
    code = forms.CharField(label="Employee number", max_length=40)
    hired_on = _date("Hired on")
    field_order = ["code", "name", "hired_on"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        del self.fields["reason"]


class EmployeeLeaveForm(forms.Form):
    left_on = _date("Left on", help_text="The first day no longer employed.")
    reason = _reason()


class SizingForm(forms.Form):
    """The inputs of the ordinance's sizing formula, one number each, labelled in the pack's
    words (empty: not known yet)."""

    def __init__(self, *args, inputs: dict[str, str], **kwargs):
        super().__init__(*args, **kwargs)
        for name, label in inputs.items():
            self.fields[name] = forms.DecimalField(
                label=label, required=False, min_value=0, max_digits=12, decimal_places=3
            )


class IntervalApprovalForm(forms.Form):
    """A longer pump-out interval approved by a named official ("unless approved")."""

    days = forms.IntegerField(label="Interval approved (days)", min_value=1, max_value=3650)
    approved_by = forms.CharField(
        label="Approved by", max_length=200, help_text="The official's name and title."
    )
    approved_on = _date("Approved on", help_text="The approval counts from this day.")
    reference = forms.CharField(label="Letter or resolution number", max_length=80)
    ends_on = _date("Ends on", required=False, help_text="Its last day; empty if it does not end.")
