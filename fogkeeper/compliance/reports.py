"""An establishment's report as the engine gives it now, from its case file as the database
holds it: for the pages, the letters and the calendar of deadlines (the sweep stores the
reports of every establishment; these are read afresh, for one or a few)."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

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


def agency_calendar(*, agency: Agency, as_of: date, weeks: int) -> list[dict[str, Any]]:
    """Everything that falls due from `as_of` through the next `weeks` weeks, for every
    establishment of the agency with an enforcement action, sorted by date."""
    ids = set(
        EnforcementAction.objects.filter(establishment__agency=agency).values_list(
            "establishment_id", flat=True
        )
    )
    end = as_of + timedelta(weeks=weeks)
    due = []
    for case in build_case_files(agency, ids, as_of).values():
        report = evaluate(case, as_of)
        for item in report.deadlines:
            day = item.date.date() if hasattr(item.date, "date") else item.date
            if as_of <= day < end:
                due.append({"establishment": report.establishment, **item.to_dict()})
    return sorted(due, key=lambda x: (x["date"], x["establishment"], x["action"], x["name"]))
