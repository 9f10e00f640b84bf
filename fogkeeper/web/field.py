"""The inspector's field list: the inspections due today (overdue ones included) and in the
week ahead, riskiest first."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from django.db.models import Count, Max
from django.shortcuts import render

from fogkeeper.compliance.models import ComplianceStatus, Finding
from fogkeeper.incidents.models import Incident
from fogkeeper.inspections.models import Inspection
from fogkeeper.registry.models import Agency, FoodServiceEstablishment

from . import policy
from .views import _as_of, agency_page, reads_only

WEEK = timedelta(days=6)
OVERFLOW_WINDOW = timedelta(days=365)
# How much each sign of risk weighs in the ranking: an overflow the FSE caused in the last year
# counts most, then an open violation, an overdue pump-out, and each month since the last
# inspection (never inspected: as if it were NEVER_INSPECTED_DAYS ago).
WEIGHTS = {"overflows": 20, "violations": 10, "overdue_services": 5, "months_since": 1}
NEVER_INSPECTED_DAYS = 3 * 365


@dataclass
class FieldStop:
    establishment: FoodServiceEstablishment
    due: date
    obligation: str
    citation: str
    violations: int
    overflows: int
    overdue_services: int
    days_since: int | None

    @property
    def risk(self) -> float:
        days = NEVER_INSPECTED_DAYS if self.days_since is None else self.days_since
        return (
            WEIGHTS["overflows"] * self.overflows
            + WEIGHTS["violations"] * self.violations
            + WEIGHTS["overdue_services"] * self.overdue_services
            + WEIGHTS["months_since"] * days / 30
        )


def field_list(*, agency: Agency, as_of: date) -> tuple[list[FieldStop], list[FieldStop]]:
    """(due today or overdue, due in the six days after), each ranked riskiest first."""
    due: dict[int, tuple[date, str, str]] = {}
    statuses = ComplianceStatus.objects.filter(
        establishment__agency=agency, establishment__closed_on__isnull=True
    ).values_list("establishment_id", "schedule", "open_violations")
    violations = {}
    for est_id, schedule, open_violations in statuses:
        for item in schedule or []:
            when = date.fromisoformat(item["due"])
            is_inspection = item.get("obligation", "").startswith("inspection.")
            earliest = est_id not in due or when < due[est_id][0]
            if is_inspection and when <= as_of + WEEK and earliest:
                due[est_id] = (when, item["obligation"], item.get("citation", ""))
        violations[est_id] = open_violations
    ids = list(due)
    overflows = dict(
        Incident.objects.filter(
            establishment_id__in=ids,
            attributed=True,
            kind="overflow",
            date__gt=as_of - OVERFLOW_WINDOW,
            date__lte=as_of,
        )
        .values_list("establishment_id")
        .annotate(n=Count("pk"))
    )
    overdue = dict(
        Finding.objects.filter(establishment_id__in=ids, open=True, rule="gcd.service_overdue")
        .values_list("establishment_id")
        .annotate(n=Count("pk"))
    )
    last = dict(
        Inspection.objects.filter(establishment_id__in=ids, date__lte=as_of)
        .values_list("establishment_id")
        .annotate(last=Max("date"))
    )
    stops = [
        FieldStop(
            establishment=fse,
            due=due[fse.pk][0],
            obligation=due[fse.pk][1],
            citation=due[fse.pk][2],
            violations=violations[fse.pk],
            overflows=overflows.get(fse.pk, 0),
            overdue_services=overdue.get(fse.pk, 0),
            days_since=(as_of - last[fse.pk]).days if fse.pk in last else None,
        )
        for fse in FoodServiceEstablishment.objects.filter(pk__in=ids)
    ]
    stops.sort(key=lambda s: (-s.risk, s.due, s.establishment.code))
    return [s for s in stops if s.due <= as_of], [s for s in stops if s.due > as_of]


@agency_page
@reads_only
def field_page(request):
    as_of = _as_of(request)
    today, week = field_list(agency=request.agency, as_of=as_of)
    may_inspect = policy.may_write(request.user, request.agency, "inspection")
    context = {"as_of": as_of, "today": today, "week": week, "may_inspect": may_inspect}
    return render(request, "web/field.html", context)
