"""Reads of permits."""

from __future__ import annotations

from fogkeeper.registry.models import FoodServiceEstablishment

from .models import Permit


def establishment_current_permit(*, establishment: FoodServiceEstablishment) -> Permit | None:
    """The permit in force (status active), the latest issued should there be two."""
    return establishment.permits.filter(status="active").order_by("-issued_on", "-id").first()
