"""Reads of the registry."""

from __future__ import annotations

from django.db import models

from .models import Agency, FoodServiceEstablishment, Operator

_TOWARDS_AGENCY = ("agency", "establishment", "device", "inspection", "training", "service")


def record_agency(obj: models.Model) -> Agency | None:
    """The agency a record belongs to, through its establishment, device, inspection or
    training when it has no agency of its own."""
    for _ in range(len(_TOWARDS_AGENCY)):
        if isinstance(obj, Agency):
            return obj
        fields = {f.name for f in obj._meta.concrete_fields}
        name = next(
            (n for n in _TOWARDS_AGENCY if n in fields and getattr(obj, f"{n}_id") is not None),
            None,
        )
        if name is None:
            return None
        obj = getattr(obj, name)
    return obj if isinstance(obj, Agency) else None


def establishment_current_operator(*, establishment: FoodServiceEstablishment) -> Operator | None:
    tenure = establishment.current_tenure()
    return tenure.operator if tenure else None


def establishment_list(*, agency: Agency, open_only: bool = False):
    qs = FoodServiceEstablishment.objects.filter(agency=agency)
    if open_only:
        qs = qs.filter(closed_on__isnull=True)
    return qs.order_by("name")
