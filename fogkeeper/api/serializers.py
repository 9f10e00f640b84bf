"""What the API shows of each record, and what a hauler submits. Thin: no decisions here."""

from __future__ import annotations

from typing import Any

from django.core.validators import RegexValidator
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from fogkeeper.compliance.models import ComplianceStatus, Finding
from fogkeeper.incidents.models import Incident
from fogkeeper.inspections.models import ChecklistAnswer, Inspection, Measurement
from fogkeeper.maintenance.models import Service
from fogkeeper.permits.models import Permit
from fogkeeper.registry.models import FoodServiceEstablishment, GreaseControlDevice
from fogkeeper.rules.report import STATUSES
from fogkeeper.training.models import Training

from . import shown
from .errors import plain_errors, unknown_record


def _establishment_code():
    return serializers.CharField(
        source="establishment.code", read_only=True, help_text="the establishment's code"
    )


class ShownSerializer(serializers.ModelSerializer):
    """A record as the API shows it to the role the call acts as: only the keys fogkeeper.api.
    shown gives the role (`context["shown"]`; None, the staff's: every key)."""

    def get_fields(self):
        fields = super().get_fields()
        keys = self.context.get("shown")
        return {name: f for name, f in fields.items() if shown.has(keys, name)}

    def to_representation(self, instance):
        return shown.prune(super().to_representation(instance), self.context.get("shown"))


class ScheduleItemSerializer(serializers.Serializer):
    obligation = serializers.CharField()
    subject = serializers.CharField()
    due = serializers.DateField()
    citation = serializers.CharField()


class StatusSerializer(serializers.ModelSerializer):
    status = serializers.ChoiceField(choices=STATUSES)

    class Meta:
        model = ComplianceStatus
        fields = ["status", "as_of", "open_violations", "next_due"]


class EstablishmentSerializer(ShownSerializer):
    """`status` and `schedule` are null before the establishment's first sweep. A hauler is
    shown its customers' pump-outs of the schedule only."""

    status = serializers.SerializerMethodField()
    schedule = serializers.SerializerMethodField()

    class Meta:
        model = FoodServiceEstablishment
        fields = [
            "id",
            "code",
            "name",
            "address",
            "city",
            "zip_code",
            "category",
            "on_public_sewer",
            "opened_on",
            "closed_on",
            "latitude",
            "longitude",
            "status",
            "schedule",
        ]

    @extend_schema_field(StatusSerializer(allow_null=True))
    def get_status(self, fse):
        found = getattr(fse, "compliance", None)
        return StatusSerializer(found).data if found else None

    @extend_schema_field(ScheduleItemSerializer(many=True, allow_null=True))
    def get_schedule(self, fse):
        found = getattr(fse, "compliance", None)
        if found is None:
            return None
        wanted = self.context.get("obligations")
        items = [i for i in found.schedule if wanted is None or i.get("obligation") in wanted]
        return ScheduleItemSerializer(items, many=True).data


class DeviceSerializer(ShownSerializer):
    establishment = _establishment_code()
    service_frequency_days = serializers.IntegerField(
        source="frequency",
        allow_null=True,
        read_only=True,
        help_text="days between pump-outs: the device's own, else its active permit's",
    )

    class Meta:
        model = GreaseControlDevice
        fields = [
            "id",
            "establishment",
            "code",
            "kind",
            "installed_on",
            "removed_on",
            "location",
            "capacity_gallons",
            "design_depth_inches",
            "compartments",
            "manhole_diameter_inches",
            "service_frequency_days",
        ]


class PermitSerializer(ShownSerializer):
    establishment = _establishment_code()

    class Meta:
        model = Permit
        fields = [
            "id",
            "establishment",
            "number",
            "holder",
            "status",
            "issued_on",
            "expires_on",
            "renewal_applied_on",
            "ended_on",
            "service_frequency_days",
            "yellow_grease_frequency_days",
            "conditions",
        ]


_READINGS = [
    "full_pump_out",
    "gallons_removed",
    "fog_inches",
    "solids_inches",
    "final_chamber_floating_oil",
    "sludge_to_outlet_inches",
]


class ServiceSerializer(ShownSerializer):
    establishment = serializers.CharField(
        source="device.establishment.code", read_only=True, help_text="the establishment's code"
    )
    device = serializers.IntegerField(source="device_id", read_only=True, help_text="its id")
    device_code = serializers.CharField(source="device.code", read_only=True)
    hauler = serializers.CharField(
        source="hauler.code", read_only=True, allow_null=True, help_text="the hauler's code"
    )
    disputed = serializers.BooleanField(
        read_only=True, help_text="staff dispute it: it does not count while they do"
    )

    class Meta:
        model = Service
        fields = [
            "id",
            "establishment",
            "device",
            "device_code",
            "hauler",
            "manifest_number",
            "date",
            *_READINGS,
            "notes",
            "source",
            "disputed",
        ]


def _not_negative(max_digits: int, places: int, help_text: str = ""):
    """A decimal reading sent as a string, as the schema says exactly: no sign, at most
    `max_digits` digits of which `places` after the point."""
    whole = max_digits - places
    pattern = rf"^(?:\d{{1,{whole}}}(?:\.\d{{0,{places}}})?|\.\d{{1,{places}}})$"
    field = extend_schema_field({"type": "string", "format": "decimal", "pattern": pattern})(
        type("NotNegativeDecimal", (serializers.DecimalField,), {})
    )
    return field(
        max_digits=max_digits,
        decimal_places=places,
        min_value=0,
        required=False,
        allow_null=True,
        help_text=help_text,
    )


def _depth(help_text: str):
    return _not_negative(6, 2, help_text)


_MANIFEST = r"^\S([\s\S]*\S)?$"


@extend_schema_field({"type": "string", "minLength": 1, "maxLength": 60, "pattern": _MANIFEST})
class _ManifestNumber(serializers.CharField):
    pass


class ServiceSubmitSerializer(serializers.Serializer):
    """A hauler's pump-out of a customer's device. Sending the same manifest again answers
    200 with the stored pump-out (nothing is added); other content under a manifest already
    submitted is refused."""

    device = serializers.PrimaryKeyRelatedField(
        queryset=GreaseControlDevice.objects.none(), help_text="the device's id"
    )
    manifest_number = _ManifestNumber(
        max_length=60,
        trim_whitespace=False,
        validators=[RegexValidator(_MANIFEST, "No spaces at either end.")],
        help_text="the hauler's manifest number, as printed",
    )
    date = serializers.DateField(help_text="the day of the pump-out (not in the future)")
    full_pump_out = serializers.BooleanField(required=False)
    gallons_removed = _not_negative(9, 1)
    fog_inches = _depth("floating grease measured before pumping, inches")
    solids_inches = _depth("settled solids measured before pumping, inches")
    final_chamber_floating_oil = serializers.BooleanField(required=False, allow_null=True)
    sludge_to_outlet_inches = _depth("clearance from the sludge to the outlet, inches")
    notes = serializers.CharField(
        required=False, allow_blank=True, max_length=2000, trim_whitespace=False
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Only the devices the hauler serves (also what the browsable API's form lists).
        device: Any = self.fields["device"]  # a PrimaryKeyRelatedField
        device.queryset = self.context.get("devices", GreaseControlDevice.objects.none())
        plain_errors(self)
        agency = self.context.get("agency")
        if agency is not None:
            device.error_messages["does_not_exist"] = unknown_record(
                "device of your customers",
                agency,
                named=bool(self.context.get("agency_named")),
                listed_at="GET /api/v1/devices/",
            )


class TrainingSerializer(ShownSerializer):
    establishment = _establishment_code()
    attendees = serializers.IntegerField(read_only=True, help_text="employees who signed")

    class Meta:
        model = Training
        fields = ["id", "establishment", "code", "date", "topic", "trainer", "attendees"]


class AnswerSerializer(serializers.ModelSerializer):
    device = serializers.IntegerField(source="device_id", read_only=True, allow_null=True)

    class Meta:
        model = ChecklistAnswer
        fields = ["item", "device", "compliant", "note"]


class MeasurementSerializer(serializers.ModelSerializer):
    device = serializers.IntegerField(source="device_id", read_only=True)

    class Meta:
        model = Measurement
        fields = [
            "device",
            "fog_inches",
            "solids_inches",
            "final_chamber_floating_oil",
            "sludge_to_outlet_inches",
        ]


class InspectionSerializer(ShownSerializer):
    establishment = _establishment_code()
    answers = AnswerSerializer(many=True, read_only=True)
    measurements = MeasurementSerializer(many=True, read_only=True)

    class Meta:
        model = Inspection
        fields = ["id", "establishment", "code", "date", "notes", "answers", "measurements"]


class IncidentSerializer(ShownSerializer):
    establishment = serializers.CharField(
        source="establishment.code",
        read_only=True,
        allow_null=True,
        help_text="the establishment's code; null when the spill matched none",
    )

    class Meta:
        model = Incident
        fields = [
            "id",
            "establishment",
            "code",
            "date",
            "kind",
            "attributed",
            "fog_caused",
            "gallons",
            "address",
            "latitude",
            "longitude",
            "cause",
            "written_report_on",
            "clearance_inspection_on",
            "source",
        ]


class FindingSerializer(ShownSerializer):
    establishment = _establishment_code()
    evidence = serializers.DictField(read_only=True, help_text="what the engine based it on")

    class Meta:
        model = Finding
        fields = [
            "id",
            "establishment",
            "rule",
            "subject",
            "severity",
            "open",
            "since",
            "due",
            "resolved_on",
            "closed_on",
            "citation",
            "message",
            "evidence",
            "first_seen_on",
            "last_seen_on",
        ]


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="send it as `Authorization: Token <token>`")
    created = serializers.DateTimeField()


class TokenStateSerializer(serializers.Serializer):
    username = serializers.CharField()
    has_token = serializers.BooleanField()
    created = serializers.DateTimeField(allow_null=True)
