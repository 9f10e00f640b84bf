"""An establishment's report as the engine gives it now, from its case file as the database
holds it: for the pages, the letters and the calendar of deadlines (the sweep stores the
reports of every establishment; these are read afresh, for one or a few)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, timedelta
from typing import Any

from django.db.models import Exists, OuterRef

from fogkeeper.enforcement.models import EnforcementAction
from fogkeeper.registry.models import Agency, FoodServiceEstablishment
from fogkeeper.rules import evaluate
from fogkeeper.rules.report import Accrual, Deadline, Report

from .casefiles.as_json import build_case_file, build_case_files


def establishment_report(*, establishment: FoodServiceEstablishment, as_of: date) -> Report:
    return evaluate(build_case_file(establishment, as_of), as_of)


def case_deadlines(*, establishment: FoodServiceEstablishment, as_of: date) -> list[Deadline]:
    """Every deadline the establishment's enforcement actions set, as the engine gives them."""
    return establishment_report(establishment=establishment, as_of=as_of).deadlines


def case_accruals(*, establishment: FoodServiceEstablishment, as_of: date) -> list[Accrual]:
    """Money accruing by the day through `as_of` (SC's daily fine), from the engine."""
    return establishment_report(establishment=establishment, as_of=as_of).accruals


def agency_calendar(
    *, agency: Agency, as_of: date, weeks: int, ids: Iterable[int] | None = None
) -> list[dict[str, Any]]:
    """Everything that falls due from `as_of` through the next `weeks` weeks, for every
    establishment of the agency with an enforcement action (or those of them among `ids`),
    sorted by date. The deadlines a sweep stored on `as_of` are read as they are (a write
    re-evaluates what it changed); an establishment swept on another day, or never, is
    evaluated now."""
    with_action = EnforcementAction.objects.filter(establishment=OuterRef("pk"))
    establishments = FoodServiceEstablishment.objects.filter(Exists(with_action), agency=agency)
    if ids is not None:
        establishments = establishments.filter(pk__in=ids)
    end = as_of + timedelta(weeks=weeks)
    due = []
    stale = []
    for est_id, code, swept_on, deadlines in establishments.values_list(
        "pk", "code", "compliance__as_of", "compliance__deadlines"
    ):
        if swept_on != as_of:
            stale.append(est_id)
            continue
        due += [{"establishment": code, **d} for d in deadlines if _within(d, as_of, end)]
    for case in build_case_files(agency, stale, as_of).values():
        report = evaluate(case, as_of)
        found = (item.to_dict() for item in report.deadlines)
        due += [
            {"establishment": report.establishment, **d} for d in found if _within(d, as_of, end)
        ]
    return sorted(due, key=lambda x: (x["date"], x["establishment"], x["action"], x["name"]))


def _within(deadline: dict[str, Any], start: date, end: date) -> bool:
    """Whether a deadline (as the report's to_dict gives it: a day, or a time of the agency's
    zone) falls on a day from `start` to the day before `end`."""
    day = date.fromisoformat(deadline["date"][:10])
    return start <= day < end
