"""Reads of enforcement: the actions as case-file entries (in bulk, for the sweep), each
case's legal calendar, and the agency's list of what falls due. Every date comes from the
engine: the case file is built and evaluated, no deadline is computed here."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from fogkeeper.registry.models import Agency, FoodServiceEstablishment
from fogkeeper.rules.packs import Pack
from fogkeeper.rules.report import Accrual, Deadline, Report

from .models import STEPS, ActionFact, EnforcementAction, NoticeAnswer, overlay

NUMBER_KINDS = ("money", "quantity")


def engine_entry(pack: Pack, code: str, type: str, fields: dict[str, Any]) -> dict[str, Any]:
    """An action as the case file spells it: `{id, type, **fields}`, amounts as numbers, no
    nulls, and only the fields the pack's action type knows."""
    spec = pack.actions.get(type)
    entry: dict[str, Any] = {"id": code, "type": type}
    for name, value in fields.items():
        if value is None or (spec is not None and name not in spec.fields):
            continue
        if spec is not None and spec.fields[name].kind in NUMBER_KINDS:
            value = float(Decimal(str(value)))
        entry[name] = value
    return entry


def enforcement_entries(
    agency: Agency, establishment_ids: Iterable[int]
) -> dict[int, list[dict[str, Any]]]:
    """The engine actions of these establishments as case-file entries, keyed by establishment
    pk, in two queries however many there are. App-level steps (hearings, appeals, court
    judgments) show in an action's fields through its facts, not as entries."""
    ids = list(establishment_ids)
    pack = agency.get_pack()
    rows = list(
        EnforcementAction.objects.filter(establishment_id__in=ids)
        .exclude(type__in=STEPS)
        .order_by("taken_on", "pk")
        .values_list("pk", "establishment_id", "code", "type", "fields")
    )
    facts: dict[int, list] = defaultdict(list)
    for action_id, name, value in (
        ActionFact.objects.filter(action__establishment_id__in=ids)
        .exclude(action__type__in=STEPS)
        .order_by("recorded_at", "pk")
        .values_list("action_id", "field", "value")
    ):
        facts[action_id].append((name, value))
    out: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for pk, est_id, code, type, fields in rows:
        out[est_id].append(engine_entry(pack, code, type, overlay(fields, facts.get(pk, []))))
    return out


def establishment_report(*, establishment: FoodServiceEstablishment, as_of: date) -> Report:
    from fogkeeper.compliance.casefiles import build_case_file
    from fogkeeper.rules import evaluate

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
    from fogkeeper.compliance.casefiles import build_case_files
    from fogkeeper.rules import evaluate

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


def answers_by_action(case) -> dict[int, list[NoticeAnswer]]:
    """The operator's answers to the actions of `case`, keyed by action pk, each list in the
    order they were filed (for the staff case page, next to the action answered)."""
    return _answers_by_action(NoticeAnswer.objects.filter(action__case=case))


def establishment_answers_by_action(
    establishment: FoodServiceEstablishment,
) -> dict[int, list[NoticeAnswer]]:
    """The same, for every action sent to `establishment` (the operator's portal)."""
    return _answers_by_action(NoticeAnswer.objects.filter(action__establishment=establishment))


def _answers_by_action(answers) -> dict[int, list[NoticeAnswer]]:
    out: dict[int, list[NoticeAnswer]] = defaultdict(list)
    for answer in answers.select_related("answered_by").order_by("answered_on", "pk"):
        out[answer.action_id].append(answer)
    return dict(out)
