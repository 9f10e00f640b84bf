"""Query filters of the list endpoints (django-filter). Every filter refuses a value it does
not understand (400) rather than ignoring it."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.choices import BaseChoiceIterator
from django_filters import rest_framework as filters
from django_filters.widgets import BooleanWidget
from drf_spectacular.utils import extend_schema_field

from fogkeeper.compliance.models import Finding
from fogkeeper.formats import listed
from fogkeeper.incidents.models import Incident
from fogkeeper.inspections.models import Inspection
from fogkeeper.maintenance.models import SOURCES, Service
from fogkeeper.permits.models import PERMIT_STATUSES, Permit
from fogkeeper.registry.models import FoodServiceEstablishment
from fogkeeper.registry.models import GreaseControlDevice as Device
from fogkeeper.rules.packs import default_registry
from fogkeeper.rules.report import STATUSES as REPORT_STATUSES
from fogkeeper.training.models import Training

STATUSES = [(s, s.replace("_", " ")) for s in REPORT_STATUSES]
ID_MAX = 2**63 - 1  # a database id is a 64-bit integer at most


@extend_schema_field({"type": "integer", "minimum": 1, "maximum": ID_MAX})
class _Id(filters.NumberFilter):
    """A record's id: a whole number the database can hold (1e308 is refused, not cast)."""

    field_class = forms.IntegerField

    def __init__(self, *args, **kwargs):
        super().__init__(*args, min_value=1, max_value=ID_MAX, **kwargs)


class _PackWords(BaseChoiceIterator):
    """The device kinds or categories of every pack the deployment knows, with their titles,
    read each time they are iterated (a pack loaded later is known; the schema lists them)."""

    def __init__(self, attribute: str):
        self.attribute = attribute

    def __iter__(self):
        words: dict[str, str] = {}
        for pack in default_registry().all():
            words.update((w, v.title) for w, v in getattr(pack, self.attribute).items())
        return iter(sorted(words.items()))


class _NoEmptyValues(forms.Form):
    """A parameter given is given a value: `?date_to=` is refused, not read as no filter. A
    value not among a parameter's choices is refused naming those accepted."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name, field in self.fields.items():
            if isinstance(field, forms.ChoiceField):
                choices: Any = field.choices  # a list of pairs by now (its stub: any form)
                accepted = listed([f'"{value}"' for value, _ in choices if value != ""])
                field.error_messages["invalid_choice"] = (
                    f'"%(value)s" is not a value of {name}: send one of {accepted}.'
                )
            elif isinstance(field, forms.DateField):
                field.error_messages["invalid"] = f"Send {name} as a date, YYYY-MM-DD."
            elif isinstance(field, forms.IntegerField):
                field.error_messages["invalid"] = f"Send {name} as a whole number."

    def clean(self):
        for name in self.fields:
            if self.data.get(name) == "":
                self.add_error(name, "Give a value, or leave the parameter out.")
        return super().clean()


class FilterSet(filters.FilterSet):
    def get_form_class(self):
        form = super().get_form_class()
        return type(form.__name__, (_NoEmptyValues, form), {})


class _StrictBooleanField(forms.NullBooleanField):
    def to_python(self, value):
        if value in (None, ""):
            return None
        if isinstance(value, bool):
            return value
        raise ValidationError("Enter true or false.", code="invalid")


class _StrictBooleanWidget(BooleanWidget):
    def value_from_datadict(self, data, files, name):
        value = data.get(name)
        known = {"true": True, "false": False, "1": True, "0": False}
        return known.get(value.lower(), value) if isinstance(value, str) else value


class Boolean(filters.BooleanFilter):
    field_class = _StrictBooleanField

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("widget", _StrictBooleanWidget)
        super().__init__(*args, **kwargs)


class Text(filters.CharFilter):
    """Text matched exactly; `?name=` with no value is refused (see _NoEmptyValues), which the
    schema says with minLength."""

    def __init__(self, *args, help_text: str = "", **kwargs):
        super().__init__(*args, help_text=help_text, **kwargs)
        schema = {"type": "string", "minLength": 1}
        if help_text:
            schema["description"] = help_text
        extend_schema_field(schema)(self)


def _establishment():
    return Text(
        field_name="establishment__code", help_text="the establishment's code (the agency's id)"
    )


def _from(field: str, what: str):
    return filters.DateFilter(field_name=field, lookup_expr="gte", help_text=f"{what} on or after")


def _to(field: str, what: str):
    return filters.DateFilter(field_name=field, lookup_expr="lte", help_text=f"{what} on or before")


class EstablishmentFilter(FilterSet):
    code = Text(help_text="the establishment's code")
    category = filters.ChoiceFilter(
        choices=_PackWords("categories"), help_text="a category of the agency's pack"
    )
    status = filters.ChoiceFilter(
        field_name="compliance__status",
        choices=STATUSES,
        help_text="the status of its last sweep (only for roles that may read status)",
    )
    open = Boolean(
        field_name="closed_on", lookup_expr="isnull", help_text="true: not closed; false: closed"
    )

    class Meta:
        model = FoodServiceEstablishment
        fields = ["code", "category", "status", "open"]


class DeviceFilter(FilterSet):
    establishment = _establishment()
    kind = filters.ChoiceFilter(
        choices=_PackWords("device_kinds"), help_text="a device kind of the agency's pack"
    )
    installed = Boolean(
        field_name="removed_on",
        lookup_expr="isnull",
        help_text="true: still installed; false: removed",
    )

    class Meta:
        model = Device
        fields = ["establishment", "kind", "installed"]


class PermitFilter(FilterSet):
    establishment = _establishment()
    status = filters.ChoiceFilter(choices=PERMIT_STATUSES)
    expires_from = _from("expires_on", "expiring")
    expires_to = _to("expires_on", "expiring")

    class Meta:
        model = Permit
        fields = ["establishment", "status", "expires_from", "expires_to"]


class ServiceFilter(FilterSet):
    establishment = Text(
        field_name="device__establishment__code", help_text="the establishment's code"
    )
    device = _Id(field_name="device_id", help_text="the device's id")
    manifest_number = Text()
    source = filters.ChoiceFilter(choices=SOURCES)
    date_from = _from("date", "pumped out")
    date_to = _to("date", "pumped out")

    class Meta:
        model = Service
        fields = ["establishment", "device", "manifest_number", "source", "date_from", "date_to"]


class TrainingFilter(FilterSet):
    establishment = _establishment()
    date_from = _from("date", "held")
    date_to = _to("date", "held")

    class Meta:
        model = Training
        fields = ["establishment", "date_from", "date_to"]


class InspectionFilter(FilterSet):
    establishment = _establishment()
    date_from = _from("date", "inspected")
    date_to = _to("date", "inspected")

    class Meta:
        model = Inspection
        fields = ["establishment", "date_from", "date_to"]


class IncidentFilter(FilterSet):
    establishment = _establishment()
    kind = Text(help_text="overflow, spill, ...")
    attributed = Boolean(help_text="whether the establishment caused or contributed")
    fog_caused = Boolean()
    date_from = _from("date", "happened")
    date_to = _to("date", "happened")

    class Meta:
        model = Incident
        fields = ["establishment", "kind", "attributed", "fog_caused", "date_from", "date_to"]


class FindingFilter(FilterSet):
    establishment = _establishment()
    rule = Text(help_text="a rule id, e.g. gcd.service_overdue")
    open = Boolean(help_text="true: still open; false: closed")
    severity = Text()
    since_from = _from("since", "open since")
    since_to = _to("since", "open since")

    class Meta:
        model = Finding
        fields = ["establishment", "rule", "open", "severity", "since_from", "since_to"]
