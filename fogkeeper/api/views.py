"""The REST API: read endpoints whose querysets start from what the policy module says the
person reaches, and the haulers' pump-out submissions through the maintenance services."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import Count, Exists, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce
from django.http import JsonResponse
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import status, viewsets
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from fogkeeper.compliance.models import Finding
from fogkeeper.incidents.models import Incident
from fogkeeper.inspections.models import Inspection
from fogkeeper.maintenance.models import Service, ServiceDispute
from fogkeeper.maintenance.services import service_submit
from fogkeeper.permits.models import Permit
from fogkeeper.registry.models import FoodServiceEstablishment, GreaseControlDevice
from fogkeeper.training.models import Training
from fogkeeper.web.common import policy

from . import filters, schema, shown
from . import serializers as s
from .agency import HEADER, acting_agency, agency_named
from .permissions import ActsForAgency
from .schema import ShownFieldsSchema
from .services import token_rotate


class PolicyViewSet(viewsets.ReadOnlyModelViewSet):
    """List and detail of records of the establishments the person reaches at the agency the
    call acts for (`self.agency`, set by ActsForAgency); `reads` names what the role must be
    allowed to read (policy.READS)."""

    permission_classes = [IsAuthenticated, ActsForAgency]
    schema = ShownFieldsSchema()
    lookup_value_regex = "[0-9]+"
    reads: tuple[str, ...] = ()
    writes: str | None = None
    model: type[Any] | None = None  # each view's model
    filterset_class: Any  # each view's filters

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # drf-spectacular reading the types
            return self.model.objects.none()  # type: ignore[union-attr]  # each view has one
        return self.records(policy.establishments(self.request.user, self.agency))

    def records(self, reached):
        raise NotImplementedError

    @property
    def outside_role(self) -> str | None:
        """The outside role whose fields the call is shown (shown.SHOWN); None for staff."""
        if not hasattr(self, "_outside_role"):
            self._outside_role = shown.role_of(self.request.user, self.agency)
        return self._outside_role

    def filter_queryset(self, queryset):
        """The records the role is shown (shown.ROWS); a filter by a field the role is not
        shown is refused (it would tell the field's value)."""
        if getattr(self, "agency", None) is None:
            return super().filter_queryset(queryset)
        keys = shown.keys(self.outside_role, self.basename)
        for parameter in self.request.query_params:
            if parameter in self.filterset_class.base_filters and not shown.has(
                keys, shown.filtered_key(self.basename, parameter)
            ):
                raise PermissionDenied(
                    f"Your role at this agency does not see what {parameter} filters by; "
                    "leave it out."
                )
        rows = shown.rows(self.outside_role, self.basename)
        return super().filter_queryset(queryset if rows is None else queryset.filter(rows))

    def get_serializer_context(self):
        context = dict(super().get_serializer_context())
        if getattr(self, "agency", None) is not None:
            context["shown"] = shown.keys(self.outside_role, self.basename)
            context["obligations"] = shown.obligations(self.outside_role)
        return context

    def http_method_not_allowed(self, request, *args, **kwargs):
        """405, but only once the record named is found: one the person may not reach is 404
        whatever the method (ACCESS.md), as on the pages."""
        if (self.lookup_url_kwarg or self.lookup_field) in kwargs:
            self.agency = acting_agency(request)
            self.get_object()
        return super().http_method_not_allowed(request, *args, **kwargs)

    def may_read(self, what: str) -> bool:
        return policy.may_read(self.request.user, self.agency, what)


@schema.read_only(s.EstablishmentSerializer, tag="establishments", what="establishments")
class EstablishmentViewSet(PolicyViewSet):
    """Food service establishments: every one of the agency for staff, an operator's own, a
    hauler's customers, the ones on an owner's parcels, each with the fields the role is shown
    (fogkeeper.api.shown)."""

    model = FoodServiceEstablishment
    reads = ("establishment",)
    serializer_class = s.EstablishmentSerializer
    filterset_class = filters.EstablishmentFilter

    def records(self, reached):
        return reached.select_related("compliance").order_by("code", "pk")


@schema.read_only(s.DeviceSerializer, tag="devices", what="grease control devices")
class DeviceViewSet(PolicyViewSet):
    """Grease control devices of the establishments reached (staff, operators, haulers)."""

    model = GreaseControlDevice
    reads = ("devices",)
    serializer_class = s.DeviceSerializer
    filterset_class = filters.DeviceFilter

    def records(self, reached):
        permit_frequency = (
            Permit.objects.filter(establishment=OuterRef("establishment"), status="active")
            .order_by("-issued_on", "-pk")
            .values("service_frequency_days")[:1]
        )
        return (
            GreaseControlDevice.objects.filter(establishment__in=reached)
            .select_related("establishment")
            .annotate(frequency=Coalesce("service_frequency_days", Subquery(permit_frequency)))
            .order_by("establishment__code", "code", "pk")
        )


@schema.read_only(s.PermitSerializer, tag="permits", what="permits")
class PermitViewSet(PolicyViewSet):
    """Permits of the establishments reached (staff, operators, owners)."""

    model = Permit
    reads = ("permit",)
    serializer_class = s.PermitSerializer
    filterset_class = filters.PermitFilter

    def records(self, reached):
        return (
            Permit.objects.filter(establishment__in=reached)
            .select_related("establishment")
            .order_by("-issued_on", "-pk")
        )


@schema.read_only(s.TrainingSerializer, tag="trainings", what="BMP trainings")
class TrainingViewSet(PolicyViewSet):
    """BMP trainings of the establishments reached (staff, operators)."""

    model = Training
    reads = ("trainings",)
    serializer_class = s.TrainingSerializer
    filterset_class = filters.TrainingFilter

    def records(self, reached):
        return (
            Training.objects.filter(establishment__in=reached)
            .select_related("establishment")
            .annotate(attendees=Count("attendance", filter=Q(attendance__signed=True)))
            .order_by("-date", "-pk")
        )


@schema.read_only(s.InspectionSerializer, tag="inspections", what="inspections and results")
class InspectionViewSet(PolicyViewSet):
    """Inspections and their results: checklist answers and measurements (staff,
    operators)."""

    model = Inspection
    reads = ("inspection_results",)
    serializer_class = s.InspectionSerializer
    filterset_class = filters.InspectionFilter

    def records(self, reached):
        return (
            Inspection.objects.filter(establishment__in=reached)
            .select_related("establishment")
            .prefetch_related("answers", "measurements")
            .order_by("-date", "-pk")
        )


@schema.read_only(s.IncidentSerializer, tag="incidents", what="overflows and spills")
class IncidentViewSet(PolicyViewSet):
    """Sewer overflows and spills (staff), including the agency's spills that matched no
    establishment."""

    model = Incident
    reads = ("incidents",)
    serializer_class = s.IncidentSerializer
    filterset_class = filters.IncidentFilter

    def records(self, reached):
        mine = Q(establishment__in=reached)
        if self.may_read("unattributed_incidents"):
            mine |= Q(establishment__isnull=True)
        return (
            Incident.objects.filter(mine, agency=self.agency)
            .select_related("establishment")
            .order_by("-date", "-pk")
        )


@schema.read_only(s.FindingSerializer, tag="findings", what="compliance findings")
class FindingViewSet(PolicyViewSet):
    """What the compliance engine found, open and closed, with the provision of law behind
    each (staff, operators, owners)."""

    model = Finding
    reads = ("findings",)
    serializer_class = s.FindingSerializer
    filterset_class = filters.FindingFilter

    def records(self, reached):
        return (
            Finding.objects.filter(establishment__in=reached)
            .select_related("establishment")
            .order_by("establishment__code", "-open", "rule", "since", "pk")
        )


@schema.read_only(s.ServiceSerializer, tag="services", what="pump-outs")
class ServiceViewSet(PolicyViewSet):
    """Pump-outs with their manifests and readings: every one of the establishments reached
    (staff, operators); a hauler's own only. Haulers submit theirs here."""

    model = Service
    reads = ("services", "own_services")
    writes = "service"
    serializer_class = s.ServiceSerializer
    filterset_class = filters.ServiceFilter

    def get_serializer_class(self):
        if self.request is not None and self.request.method == "POST":
            return s.ServiceSubmitSerializer
        return s.ServiceSerializer

    def get_serializer_context(self):
        context = super().get_serializer_context()
        if getattr(self, "agency", None) is not None:
            context["devices"] = GreaseControlDevice.objects.filter(
                establishment__in=policy.establishments(self.request.user, self.agency)
            ).select_related("establishment__agency")
            context["agency"] = self.agency
            context["agency_named"] = agency_named(self.request)
        return context

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Service.objects.none()
        disputed = ServiceDispute.objects.filter(service=OuterRef("pk"), withdrawn_on__isnull=True)
        return (
            policy.services(self.request.user, self.agency)
            .select_related("device__establishment", "hauler")
            .annotate(disputed=Exists(disputed))
            .order_by("-date", "-pk")
        )

    @extend_schema(
        summary="Submit a pump-out (haulers)",
        tags=["services"],
        parameters=schema.AGENCY,
        request=s.ServiceSubmitSerializer,
        responses={
            201: s.ServiceSerializer,
            200: s.ServiceSerializer,
            400: schema.INVALID,
            **schema.ERRORS,
        },
        description=(
            "A pump-out of a device of one of your customers, with its manifest. 201 when it "
            "is new: the establishment's compliance is evaluated again at once. 200 with the "
            "stored pump-out when the same manifest comes again with the same content; 400 "
            "when it comes with other content, for a date in the future, or for a device "
            "that was not your customer's on that date."
        ),
    )
    def create(self, request, *args, **kwargs):
        found = policy.membership(request.user, self.agency)
        if found is None or found.hauler is None:
            raise PermissionDenied(_not_a_hauler(request, self.agency))
        submitted = self.get_serializer(data=request.data)
        submitted.is_valid(raise_exception=True)
        readings = dict(submitted.validated_data)
        device = readings.pop("device")
        today = timezone.localdate()
        try:
            service, created = service_submit(
                hauler=found.hauler,
                device=device,
                manifest_number=readings.pop("manifest_number"),
                date=readings.pop("date"),
                source="hauler_api",
                today=today,
                actor=request.user,
                **readings,
            )
        except DjangoValidationError as refused:
            raise ValidationError(_field_errors(refused)) from None
        stored = self.get_queryset().get(pk=service.pk)
        return Response(
            s.ServiceSerializer(stored, context=self.get_serializer_context()).data,
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )


def _not_a_hauler(request, agency) -> str:
    why = "" if agency_named(request) else f" (you sent no {HEADER} header)"
    return (
        f"Pump-outs are submitted by a hauler's login, and this call acts for {agency.name}"
        f"{why}, where you are not a hauler. Name the agency whose hauler you are in the "
        f"{HEADER} header."
    )


def _field_errors(refused: DjangoValidationError) -> dict[str, list[str]]:
    errors = refused.message_dict if hasattr(refused, "error_dict") else {"": refused.messages}
    return {("non_field_errors" if k in ("__all__", "") else k): v for k, v in errors.items()}


class TokenView(APIView):
    """Your API token: GET says whether you have one; POST issues a new one (the old one stops
    working at once) and shows it, once."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Whether you have an API token",
        tags=["token"],
        responses={200: s.TokenStateSerializer, 401: schema.NOT_SIGNED_IN, 429: schema.THROTTLED},
    )
    def get(self, request):
        token = Token.objects.filter(user=request.user).first()
        data = {
            "username": request.user.get_username(),
            "has_token": token is not None,
            "created": token.created if token else None,
        }
        return Response(s.TokenStateSerializer(data).data)

    @extend_schema(
        summary="Issue a new API token (the old one stops working)",
        tags=["token"],
        request=None,
        responses={201: s.TokenSerializer, 401: schema.NOT_SIGNED_IN, 429: schema.THROTTLED},
    )
    def post(self, request):
        token = token_rotate(user=request.user, actor=request.user)
        data = {"token": token.key, "created": token.created}
        return Response(s.TokenSerializer(data).data, status=status.HTTP_201_CREATED)


def not_found(request, *args, **kwargs):
    """Any other path under the API: a JSON 404 like the API's own."""
    return JsonResponse({"detail": "Not found."}, status=404)
