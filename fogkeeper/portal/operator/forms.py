"""Forms of the operator's portal: they read what the operator types and say plainly what is
wrong; the services validate the records (their messages go back on the fields they name)."""

from __future__ import annotations

import datetime
from datetime import date, timedelta

from django import forms
from django.core.exceptions import ValidationError
from django.db import models

from fogkeeper.permits.models import Permit, PermitApplication
from fogkeeper.permits.requirements import ApplicationSpec, label
from fogkeeper.registry.models import FoodServiceEstablishment, Hauler
from fogkeeper.training.logs import training_log_kind
from fogkeeper.training.models import Employee
from fogkeeper.web.common.forms import model_choice_field

RECENT_LEAVERS = timedelta(days=365)  # former employees still offered for a past training


class DateInput(forms.DateInput):
    input_type = "date"


def _not_after(day: date | None, today: date, what: str) -> None:
    if day is not None and day > today:
        raise forms.ValidationError(f"The {what} cannot be in the future (today is {today}).")


class TrainingUploadForm(forms.Form):
    """A BMP training session held at the establishment: who attended, who signed the log."""

    date = forms.DateField(label="Date of the training", widget=DateInput)
    topic = forms.CharField(
        max_length=200,
        required=False,
        label="Topic",
        help_text="Leave empty for “Kitchen BMPs and FOG control”.",
    )
    trainer = forms.CharField(max_length=200, required=False, label="Trainer")
    attendees = forms.ModelMultipleChoiceField(
        queryset=Employee.objects.none(),
        label="Attended",
        error_messages={"required": "Tick at least one employee who attended."},
    )
    signed = forms.ModelMultipleChoiceField(
        queryset=Employee.objects.none(), required=False, label="Signed the attendance log"
    )
    log = forms.FileField(
        required=False,
        label="Signed attendance log",
        help_text="Optional: the signed log as a PDF, or a JPEG or PNG photo or scan, up to "
        "10 MB. It is kept with the training.",
        widget=forms.ClearableFileInput(attrs={"accept": "application/pdf,image/jpeg,image/png"}),
    )

    def __init__(
        self, *args, establishment: FoodServiceEstablishment, today: datetime.date, **kwargs
    ):
        super().__init__(*args, **kwargs)
        self.today = today
        employees = (
            Employee.objects.filter(establishment=establishment)
            .exclude(left_on__lt=today - RECENT_LEAVERS)
            .order_by("name", "code")
        )
        model_choice_field(self, "attendees").queryset = employees
        model_choice_field(self, "signed").queryset = employees
        self.employees = list(employees)

    def rows(self):
        """One row per employee: whether it is ticked as attending and as signed."""

        def ticked(name):
            if not self.is_bound:
                return set()
            return {str(v) for v in self.data.getlist(name)}  # type: ignore[attr-defined]  # a QueryDict

        attended, signed = ticked("attendees"), ticked("signed")
        return [
            {"employee": e, "attended": str(e.pk) in attended, "signed": str(e.pk) in signed}
            for e in self.employees
        ]

    def clean_date(self):
        day = self.cleaned_data["date"]
        _not_after(day, self.today, "training date")
        return day

    def clean_log(self):
        log = self.cleaned_data.get("log")
        if log:
            try:
                training_log_kind(log)
            except ValidationError as e:
                raise forms.ValidationError(e.message_dict["log"]) from e
        return log

    def clean(self):
        super().clean()
        data = self.cleaned_data
        attendees, signed = set(data.get("attendees") or ()), set(data.get("signed") or ())
        if signed - attendees:
            names = ", ".join(sorted(e.name for e in signed - attendees))
            self.add_error("signed", f"Only an attendee can sign: {names} did not attend.")
        return data

    def unsigned(self) -> list[Employee]:
        signed = set(self.cleaned_data["signed"])
        return [e for e in self.cleaned_data["attendees"] if e not in signed]


class PickupForm(forms.Form):
    """A waste cooking oil (yellow grease) pickup, from the collector's receipt."""

    date = forms.DateField(label="Date of the pickup", widget=DateInput)
    hauler = forms.ModelChoiceField(
        queryset=Hauler.objects.none(),
        required=False,
        label="Collector",
        empty_label="Not listed",
    )
    gallons = forms.DecimalField(
        min_value=0, max_digits=9, decimal_places=1, label="Gallons collected"
    )
    manifest_number = forms.CharField(max_length=60, label="Receipt or manifest number")

    def __init__(
        self, *args, establishment: FoodServiceEstablishment, today: datetime.date, **kwargs
    ):
        super().__init__(*args, **kwargs)
        self.today = today
        model_choice_field(self, "hauler").queryset = Hauler.objects.filter(
            agency=establishment.agency, licensed=True
        ).order_by("name")

    def clean_date(self):
        day = self.cleaned_data["date"]
        _not_after(day, self.today, "pickup date")
        return day


NEW, RENEWAL = "new", "renewal"


class PermitApplicationForm(forms.Form):
    """An application for the jurisdiction's permit, or its renewal: the fields its pack's
    application.yaml lists, each marked with the section that requires it."""

    def __init__(
        self,
        *args,
        spec: ApplicationSpec,
        permit_title: str,
        current: Permit | None,
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        self.spec = spec
        self.current = current
        if current is not None:
            self.fields["kind"] = forms.ChoiceField(
                label="This application is for",
                choices=[
                    (RENEWAL, f"The renewal of {permit_title} {current.number}"),
                    (NEW, f"A new {permit_title} (a change of operation or ownership)"),
                ],
                initial=RENEWAL,
                widget=forms.RadioSelect,
            )
        for asked in spec.fields:
            self.fields[asked.name] = self._field(asked.name, self._help(asked))
        if spec.in_lieu is not None:
            waived = ", ".join(label(f.name) for f in spec.fields if f.in_lieu)
            help_text = (
                f"In lieu of the details ({waived}) you may give the permit or documentation "
                f"issued by the Building and Safety Department ({spec.in_lieu.reference})."
            )
            self.fields[spec.in_lieu.name] = self._field(spec.in_lieu.name, help_text)

    @staticmethod
    def _field(name: str, help_text: str) -> forms.Field:
        model_field = PermitApplication._meta.get_field(name)
        assert isinstance(model_field, models.Field)  # an application's own field
        formfield = model_field.formfield(required=False)
        assert formfield is not None  # each field asked has a form field
        if isinstance(formfield.widget, forms.Textarea):
            formfield.widget.attrs.update({"rows": 3})
        formfield.label = str(model_field.verbose_name).capitalize()
        formfield.help_text = help_text
        return formfield

    def _help(self, asked) -> str:
        if not asked.required:
            return f"Optional ({asked.reference})." if asked.reference else "Optional."
        if asked.in_lieu and self.spec.in_lieu is not None:
            return (
                f"Required ({asked.reference}), unless you give the "
                f"{label(self.spec.in_lieu.name)} ({self.spec.in_lieu.reference})."
            )
        return f"Required ({asked.reference})." if asked.reference else "Required."

    def renewal_of(self) -> Permit | None:
        if self.current is not None and self.cleaned_data.get("kind") == RENEWAL:
            return self.current
        return None

    def details(self) -> dict:
        """The application's fields as the service takes them (empty text is "", an empty
        number None)."""
        return {name: value for name, value in self.cleaned_data.items() if name != "kind"}


class NoticeAnswerForm(forms.Form):
    text = forms.CharField(
        label="Your answer",
        widget=forms.Textarea(attrs={"rows": 8}),
        help_text="What you did or will do, and anything the agency should know. "
        "An answer is kept as filed; to correct it, file another.",
        error_messages={"required": "Write the answer."},
    )


class ContactForm(forms.Form):
    phone = forms.CharField(max_length=40, required=False, label="Phone")
    email = forms.EmailField(
        required=False, label="Email", help_text="Reminders of what comes due are sent here."
    )
    mailing_address = forms.CharField(
        required=False, label="Mailing address", widget=forms.Textarea(attrs={"rows": 3})
    )


class EmployeeHireForm(forms.Form):
    """A new employee of the establishment, for its BMP training roster."""

    name = forms.CharField(max_length=200, label="Name")
    hired_on = forms.DateField(label="Hired on", widget=DateInput)
    kitchen_duties = forms.BooleanField(
        required=False,
        initial=True,
        label="Works in the kitchen",
        help_text="Kitchen staff need BMP training within the time the ordinance sets.",
    )

    def __init__(self, *args, today: date, **kwargs):
        super().__init__(*args, **kwargs)
        self.today = today

    def clean_hired_on(self):
        day = self.cleaned_data["hired_on"]
        _not_after(day, self.today, "hiring date")
        return day


class EmployeeLeaveForm(forms.Form):
    left_on = forms.DateField(
        label="No longer works here from",
        widget=DateInput,
        help_text="The first day the employee no longer works at the establishment.",
    )

    def __init__(self, *args, today: date, **kwargs):
        super().__init__(*args, **kwargs)
        self.today = today

    def clean_left_on(self):
        day = self.cleaned_data["left_on"]
        _not_after(day, self.today, "leaving date")
        return day


class FilingForm(forms.Form):
    """A request of one kind its pack declares: the fields the kind asks for, and the record
    it is about (one of the establishment's devices, or one of its hearings)."""

    def __init__(self, *args, kind, establishment, **kwargs):
        super().__init__(*args, **kwargs)
        from fogkeeper.enforcement.models import EnforcementAction
        from fogkeeper.rules.requests import ASKS

        if kind.about == "device":
            self.fields["device"] = forms.ModelChoiceField(
                label="Device",
                queryset=establishment.devices.filter(removed_on__isnull=True).order_by("code"),
                error_messages={"required": "Choose the device."},
            )
        elif kind.about == "hearing":
            hearings = EnforcementAction.objects.filter(establishment=establishment, type="hearing")
            self.fields["hearing"] = forms.ModelChoiceField(
                label="Hearing",
                queryset=hearings.order_by("-taken_on"),
                error_messages={"required": "Choose the hearing."},
            )
        for name in kind.asks:
            if name == "frequency_days":
                self.fields[name] = forms.IntegerField(label=ASKS[name], min_value=1)
            else:
                widget = forms.Textarea(attrs={"rows": 4})
                self.fields[name] = forms.CharField(label=ASKS[name], widget=widget)
