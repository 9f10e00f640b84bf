"""Reads shared by the portals."""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.db.models import OuterRef, Subquery

from fogkeeper.compliance.models import ComplianceStatus, Finding
from fogkeeper.permits.models import Permit


def establishment_rows(establishments) -> list[dict[str, Any]]:
    """For a portal's list: each establishment with its stored status, its number of open
    violations and its permit in force, in a fixed number of queries."""
    in_force = Permit.objects.filter(establishment=OuterRef("pk"), status="active").order_by(
        "-issued_on", "-id"
    )
    establishments = list(establishments.annotate(permit_id=Subquery(in_force.values("pk")[:1])))
    statuses = {
        s.establishment_id: s
        for s in ComplianceStatus.objects.filter(establishment__in=establishments)
    }
    violations = Counter(
        Finding.objects.filter(
            establishment__in=establishments, open=True, severity="violation"
        ).values_list("establishment_id", flat=True)
    )
    permits = Permit.objects.in_bulk([f.permit_id for f in establishments if f.permit_id])
    return [
        {
            "fse": fse,
            "compliance": statuses.get(fse.pk),
            "violations": violations[fse.pk],
            "permit": permits.get(fse.permit_id),
        }
        for fse in establishments
    ]
