"""Reads of enforcement: the actions as case-file entries (in bulk, for the sweep), the
operator's answers to them, the case of each action on a calendar, and the cases, actions
and violations the staff case pages show. What the engine says of a case (its deadlines,
accruals, the agency's calendar) is compliance/reports.py."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from django.db.models import Prefetch, Q

from fogkeeper.registry.models import Agency, FoodServiceEstablishment
from fogkeeper.rules.packs import Pack

from .models import (
    STEPS,
    ActionFact,
    EnforcementAction,
    EnforcementCase,
    Letter,
    NoticeAnswer,
    overlay,
)

NUMBER_KINDS = ("money", "quantity")
# What the case file knows of a milestone; what must be done by then (`what`) is the
# letter's and the calendar's, not the engine's.
MILESTONE_KEYS = ("id", "due", "met_on")


def engine_entry(pack: Pack, code: str, type: str, fields: dict[str, Any]) -> dict[str, Any]:
    """An action as the case file spells it: `{id, type, **fields}`, amounts as numbers, no
    nulls, only the fields the pack's action type knows, and of each milestone only what the
    case file has of it."""
    spec = pack.actions.get(type)
    entry: dict[str, Any] = {"id": code, "type": type}
    for name, value in fields.items():
        if value is None or (spec is not None and name not in spec.fields):
            continue
        kind = spec.fields[name].kind if spec is not None else None
        if kind in NUMBER_KINDS:
            value = float(Decimal(str(value)))
        elif kind == "milestones" and isinstance(value, list):
            value = [
                {k: v for k, v in m.items() if k in MILESTONE_KEYS} if isinstance(m, dict) else m
                for m in value
            ]
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


def with_cases(agency: Agency, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Calendar entries (establishment code, action code) with the code of the case the
    action belongs to (`case`), when it belongs to one."""
    if not items:
        return items
    pairs = EnforcementAction.objects.filter(
        establishment__agency=agency,
        establishment__code__in={i["establishment"] for i in items},
        code__in={i["action"] for i in items},
    ).values_list("establishment__code", "code", "case__code")
    cases = {(fse, action): case for fse, action, case in pairs}
    for item in items:
        item["case"] = cases.get((item["establishment"], item["action"]))
    return items


# -- the staff case pages (fogkeeper/web/enforcement/cases.py) ------------------------------


def agency_cases(agency: Agency, q: str = "") -> list[EnforcementCase]:
    """The agency's cases with their establishments, newest first; with `q`, those whose
    establishment's name, code or address holds it, or whose own code is it."""
    cases = EnforcementCase.objects.filter(establishment__agency=agency).select_related(
        "establishment"
    )
    if q:
        cases = cases.filter(
            Q(establishment__name__icontains=q)
            | Q(establishment__code__icontains=q)
            | Q(establishment__address__icontains=q)
            | Q(code__iexact=q)
        )
    return list(cases.order_by("-opened_on", "establishment__code", "code"))


def actions_by_case(case_ids: list[int]) -> dict[int, list[dict[str, Any]]]:
    """Each case's actions in the order taken (code, type, day), keyed by case pk, in one
    query however many cases."""
    out: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for row in (
        EnforcementAction.objects.filter(case_id__in=case_ids)
        .order_by("taken_on", "pk")
        .values("case_id", "code", "type", "taken_on")
    ):
        out[row["case_id"]].append(dict(row))
    return out


def agency_case(agency: Agency, establishment: str, code: str) -> EnforcementCase | None:
    """Case `code` of the agency's establishment `establishment`, or None (another agency's
    case is none of this one's); with the establishment's last stored evaluation
    (`compliance`, none before its first sweep), which the case page reads when it is of
    the day shown, in one query."""
    case = (
        EnforcementCase.objects.filter(
            establishment__agency=agency, establishment__code=establishment, code=code
        )
        .select_related("establishment__compliance", "opened_by")
        .first()
    )
    if case is not None:
        case.establishment.agency = agency  # the pack's words, the case file: no query more
    return case


def case_actions(case: EnforcementCase) -> list[EnforcementAction]:
    """The case's actions in the order taken, each with its facts (in the order recorded),
    its letters (without their bytes) and the operator's answers, in four queries. Each
    action's `refers_to` within the case is the one of the list, with its facts: the steps
    walk from a decision back to its notice without a query."""
    actions = list(
        EnforcementAction.objects.filter(case=case)
        .select_related("refers_to", "violation", "taken_by")
        .prefetch_related(
            Prefetch(
                "facts",
                queryset=ActionFact.objects.select_related("recorded_by").order_by(
                    "recorded_at", "pk"
                ),
            ),
            Prefetch("letters", queryset=Letter.objects.defer("pdf").order_by("created_at")),
            Prefetch("answers", queryset=NoticeAnswer.objects.select_related("answered_by")),
        )
        .order_by("taken_on", "pk")
    )
    by_pk = {a.pk: a for a in actions}
    for action in actions:
        if action.refers_to_id in by_pk:
            action.refers_to = by_pk[action.refers_to_id]
        action.case = case
    return actions
