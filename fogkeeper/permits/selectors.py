"""Reads of permits."""

from __future__ import annotations

from fogkeeper.registry.models import FoodServiceEstablishment

from .models import Permit


def establishment_current_permit(*, establishment: FoodServiceEstablishment) -> Permit | None:
    """The permit in force (status active), the latest issued should there be two."""
    return establishment.permits.filter(status="active").order_by("-issued_on", "-id").first()


def waiting_applications(*, agency):
    """The applications filed with `agency` that are not decided yet."""
    from .models import PermitApplication

    return PermitApplication.objects.filter(establishment__agency=agency, decided_on__isnull=True)


def application_queue(*, agency):
    """The agency's applications and renewal applications: waiting ones first, then newest
    first."""
    from django.db.models import BooleanField, Case, Value, When

    from .models import PermitApplication

    waiting = Case(
        When(decided_on__isnull=True, then=Value(True)),
        default=Value(False),
        output_field=BooleanField(),
    )
    return (
        PermitApplication.objects.filter(establishment__agency=agency)
        .select_related("establishment", "renewal_of")
        .annotate(waiting=waiting)
        .order_by("-waiting", "-submitted_on", "-pk")
    )


def application_contents(application, pack) -> list[dict]:
    """What the ordinance requires the application to contain, each item with its section,
    whether it is required and whether it was left empty."""
    from fogkeeper.audit.services import snapshot

    from .requirements import application_spec, label

    spec = application_spec(pack)
    values = snapshot(application)
    missing = spec.missing(values)
    asked = list(spec.fields) + ([spec.in_lieu] if spec.in_lieu else [])
    return [
        {
            "name": f.name,
            "label": label(f.name),
            "required": f.required,
            "reference": f.reference,
            "value": values.get(f.name),
            "missing": missing.get(f.name, ""),
        }
        for f in asked
    ]


def permit_list(*, agency, q: str = "", status: str = ""):
    """The agency's permits, newest first, by number, holder or establishment and status."""
    from django.db.models import Q

    qs = Permit.objects.filter(agency=agency).select_related("establishment")
    if q:
        qs = qs.filter(
            Q(number__icontains=q)
            | Q(holder__icontains=q)
            | Q(establishment__name__icontains=q)
            | Q(establishment__code__icontains=q)
        )
    if status:
        qs = qs.filter(status=status)
    return qs.order_by("-issued_on", "-pk")
