"""Enforcement on the staff pages: the agency's cases, one case with its actions, facts,
letters and the deadlines the engine gives it, and the letters as sent (PDF).

A case counts as open while something of it is still live, which is read from the engine's
findings and calendar (`is_open`), never decided here, until the manager closes it (a
settlement, a withdrawal, a case opened in error: the closing act)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.http import content_disposition_header, urlencode
from django.utils.text import get_valid_filename

from fogkeeper.billing.selectors import case_invoices
from fogkeeper.compliance.selectors import (
    DayWord,
    case_violations_found,
    day_word,
    live_case_violations,
    swept_calendars,
)
from fogkeeper.enforcement.models import (
    CLOSURE,
    EnforcementAction,
    EnforcementCase,
    Letter,
    closure_on,
)
from fogkeeper.enforcement.selectors import (
    actions_by_case,
    agency_case,
    agency_cases,
    case_actions,
)
from fogkeeper.enforcement.steps import Step, next_steps, waiting_steps
from fogkeeper.permits.selectors import establishment_current_permit
from fogkeeper.permits.services import decision_orders
from fogkeeper.registry.models import Agency
from fogkeeper.rules.errors import CaseFileError
from fogkeeper.rules.packs import Pack
from fogkeeper.rules.report import Accrual, Deadline, Report
from fogkeeper.uploads import CONTENT_TYPES

from ..common import policy
from ..common.exports import export_response
from ..common.pages import PAGE_SIZE, agency_page, page_as_of, reads_only
from ..common.paging import list_page
from ..templatetags.words import pack_title
from ..vocabulary import action_words, choice_words, identifier_words, plain_words, rule_words
from .from_findings import may_send_first_notice

STATES = ("open", "closed")
DEADLINE_KINDS = {"deadline": "Deadline", "earliest": "Earliest date", "event": "Takes effect"}


def is_open(
    *,
    open_violation: bool,
    deadlines: list[dict[str, Any]],
    accruals: list[dict[str, Any]],
    as_of: date,
    evaluated_on: date | None,
) -> bool:
    """A case is open while a violation it is about is still an open finding, a deadline or
    date the engine gives one of its actions is still ahead (on or after `as_of`), or a fine
    still accrues (through the day the engine evaluated, `evaluated_on`)."""
    if open_violation:
        return True
    if any(_date_of(d["date"]) >= as_of for d in deadlines):
        return True
    return evaluated_on is not None and any(
        _date_of(a["through"]) >= evaluated_on for a in accruals
    )


def _date_of(value: Any) -> date:
    """The day of a report's date: a date, a date-time or ISO text."""
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    return date.fromisoformat(str(value)[:10])


def action_title(pack: Pack, type: str) -> str:
    """The pack's title of an action type; app-level steps (hearing, appeal…) in words."""
    return action_words(pack, type)


# -- the list -------------------------------------------------------------------------------


@dataclass
class CaseRow:
    case: EnforcementCase
    open: bool
    violations: list[str]
    last_action: dict[str, Any] | None
    next_date: dict[str, Any] | None


def case_list(*, agency: Agency, params: dict[str, str], as_of: date) -> list[CaseRow]:
    """The agency's cases, newest first, filtered by `state` (open/closed) and `q` (the
    establishment's name, code or address), in four queries whatever their number. Open or
    closed is read from the last sweep's findings and calendar of each establishment."""
    pack = agency.get_pack()
    cases = agency_cases(agency, params.get("q", "").strip())
    ids = [c.pk for c in cases]
    violations = live_case_violations(ids)
    actions = actions_by_case(ids)
    swept = swept_calendars({c.establishment_id for c in cases})
    rows = []
    for case in cases:
        codes = {a["code"] for a in actions[case.pk]}
        evaluated_on, deadlines, accruals = swept.get(case.establishment_id, (None, [], []))
        deadlines = [d for d in deadlines if d["action"] in codes]
        accruals = [a for a in accruals if a["action"] in codes]
        ahead = sorted(
            (d for d in deadlines if _date_of(d["date"]) >= as_of), key=lambda d: str(d["date"])
        )
        last = actions[case.pk][-1] if actions[case.pk] else None
        closed = any(a["type"] == CLOSURE and a["taken_on"] <= as_of for a in actions[case.pk])
        rows.append(
            CaseRow(
                case=case,
                open=not closed
                and is_open(
                    open_violation=any(live for _, live in violations[case.pk]),
                    deadlines=deadlines,
                    accruals=accruals,
                    as_of=as_of,
                    evaluated_on=evaluated_on,
                ),
                violations=[pack_title(pack, rule) for rule, _ in violations[case.pk]],
                last_action={**last, "title": action_title(pack, last["type"])} if last else None,
                next_date={**ahead[0], "day": _date_of(ahead[0]["date"])} if ahead else None,
            )
        )
    state = params.get("state", "")
    if state in STATES:
        rows = [r for r in rows if r.open == (state == "open")]
    return rows


@agency_page
@reads_only
def case_list_page(request):
    params = request.GET.dict()
    as_of = page_as_of(request)
    rows = case_list(agency=request.agency, params=params, as_of=as_of)
    if "export" in params:
        return export_response(
            params["export"],
            filename=f"{request.agency.code}-cases",
            sheet="Cases",
            columns=CASE_COLUMNS,
            rows=_case_cells(rows),
        )
    page = list_page(rows, PAGE_SIZE, params.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    context = {
        "page": page,
        "params": params,
        "query": query.urlencode(),
        "states": STATES,
        "as_of": as_of,
        "may_notice": may_send_first_notice(request),
    }
    return render(request, "web/enforcement/cases.html", context)


CASE_COLUMNS = [
    "Case",
    "Establishment code",
    "Establishment",
    "Opened",
    "State",
    "Violations",
    "Last action",
    "Last action taken on",
    "Next date",
    "Next date is",
]


def _case_cells(rows: list[CaseRow]):
    """The cases listed, as the list shows them, for the export."""
    for row in rows:
        case, last, ahead = row.case, row.last_action, row.next_date
        yield [
            case.code,
            case.establishment.code,
            case.establishment.name,
            case.opened_on,
            "Open" if row.open else "Closed",
            "; ".join(row.violations),
            f"{last['title']} ({last['code']})" if last else "",
            last["taken_on"] if last else None,
            ahead["day"] if ahead else None,
            f"{plain_words(ahead['name'])} ({ahead['action']})" if ahead else "",
        ]


# -- one case -------------------------------------------------------------------------------


@dataclass
class CasePage:
    case: EnforcementCase
    as_of: date
    open: bool
    violations: list[dict[str, Any]]
    actions: list[dict[str, Any]]
    deadlines: list[dict[str, Any]]
    accruals: list[dict[str, Any]]
    invoices: list[dict[str, Any]] = field(default_factory=list)
    problem: str = ""  # why the engine could not evaluate the case file, if it could not
    records: list[EnforcementAction] = field(default_factory=list)
    steps: list[dict[str, Any]] = field(default_factory=list)
    waiting: list[tuple[str, list[str]]] = field(default_factory=list)
    late_appeals: list[dict[str, Any]] = field(default_factory=list)
    closure: EnforcementAction | None = None
    permit_orders: dict[str, Any] = field(default_factory=dict)


def case_page(*, agency: Agency, establishment: str, code: str, as_of: date) -> CasePage:
    """One case of `agency` (404 for any other agency's) with its violations, its actions in
    the order taken with their facts and letters, and what the engine gives it on `as_of`:
    deadlines, hearing windows, dates a penalty becomes final or a lien may be recorded, and
    the fines accruing. The engine's word is the one stored by the last evaluation when that
    was of `as_of` (the sweep's of today, kept current after each write), else it evaluates
    the establishment afresh (a page shown as of another day)."""
    case = agency_case(agency, establishment, code)
    if case is None:
        raise Http404("no such case")
    pack = agency.get_pack()
    fse = case.establishment
    actions = case_actions(case)
    codes = {a.code for a in actions}
    violations = case_violations_found(case)
    problem = ""
    try:
        word = day_word(fse, as_of)
    except CaseFileError as e:
        problem = str(e)
        word = DayWord([], [], [], Report(pack.id, fse.code, fse.name, as_of, status=""))
    if word.report is not None:  # evaluated afresh: the violations it finds open that day
        open_findings = {(f.rule, f.subject) for f in word.report.findings if f.open}
        violations = [(v, (v.rule, v.subject) in open_findings) for v, _ in violations]
    deadlines = [_deadline(pack, actions, d, as_of) for d in word.deadlines if d.action in codes]
    accruals = [_accrual(pack, a) for a in word.accruals if a.action in codes]
    closure = closure_on(actions, as_of)
    rows = [
        {"violation": v, "title": pack_title(pack, v.rule), "open": found}
        for v, found in violations
    ]
    return CasePage(
        case=case,
        as_of=as_of,
        closure=closure,
        open=closure is None
        and is_open(
            open_violation=any(found for _, found in violations),
            deadlines=deadlines,
            accruals=[{"through": a["through"]} for a in accruals],
            as_of=as_of,
            evaluated_on=as_of,
        ),
        violations=rows,
        actions=[_action(pack, a) for a in actions],
        deadlines=sorted(deadlines, key=lambda d: (str(d["date"]), d["action"], d["name"])),
        accruals=accruals,
        invoices=case_invoices(fse, codes, as_of),
        problem=problem,
        records=actions,
        permit_orders=permit_orders(pack, case, actions),
    )


def _deadline(pack: Pack, actions: list[EnforcementAction], d: Deadline, as_of: date) -> dict:
    return {
        **d.to_dict(),
        "day": _date_of(d.date),
        "shown": _shown(d.date),
        "kind_title": _kind(d.kind),
        "action_title": _title_of(pack, actions, d.action),
        "passed": _date_of(d.date) < as_of,
    }


def _accrual(pack: Pack, a: Accrual) -> dict[str, Any]:
    return {
        **a.to_dict(),
        "title": _accrual_title(pack, a.rule),
        "amount": a.amount,
        "rate": a.rate,
        "start": a.start,
        "through": a.through,
    }


def permit_orders(pack: Pack, case: EnforcementCase, actions: list[EnforcementAction]) -> dict:
    """The establishment's permit in force and the decisions of the case that order it
    suspended or revoked, newest first (for the links to the permit's pages); nothing when
    there is no such decision or no permit in force. Read from the case's actions: the
    permit is asked for only when a decision orders something of it."""
    newest_first = sorted(actions, key=lambda a: (a.taken_on, a.pk), reverse=True)
    orders = {
        what: [d for d in newest_first if decision_orders(pack, d, what)]
        for what in ("suspend", "revoke")
    }
    if not any(orders.values()):
        return {}
    permit = establishment_current_permit(establishment=case.establishment)
    return {"permit": permit, **orders} if permit is not None else {}


def _shown(value: date | datetime) -> str:
    """A deadline's date, with its hour when it has one (in the pack's time zone)."""
    if isinstance(value, datetime):
        return value.strftime("%Y-%m-%d %H:%M")
    return value.isoformat()


def _kind(kind: str) -> str:
    return DEADLINE_KINDS.get(kind, kind.capitalize())


def _title_of(pack: Pack, actions: list[EnforcementAction], code: str) -> str:
    action = next(a for a in actions if a.code == code)
    return action_title(pack, action.type)


def _accrual_title(pack: Pack, rule: str) -> str:
    return rule_words(pack, rule)


def _action(pack: Pack, action: EnforcementAction) -> dict[str, Any]:
    spec = pack.actions.get(action.type)
    kinds = {name: f.kind for name, f in spec.fields.items()} if spec else {}
    order = {name: i for i, name in enumerate(kinds)}  # as the pack lists the fields
    fields = sorted(action.fields.items(), key=lambda kv: (order.get(kv[0], len(order)), kv[0]))
    return {
        "action": action,
        "title": action_title(pack, action.type),
        "by": choice_words(pack, action.level),
        # a court step is taken in the court (filed there, decided there), not by it
        "by_label": "In" if action.level == "court" else "By",
        "on": action_title(pack, action.refers_to.type) if action.refers_to else "",
        "fields": [
            (_label(name), _value(value, kinds.get(name, ""), pack))
            for name, value in fields
            if value not in (None, "", [])
        ],
        "facts": [
            {
                "label": _label(f.field),
                "value": _value(f.value, kinds.get(f.field, ""), pack),
                "fact": f,
            }
            for f in action.facts.all()
        ],
        "letters": list(action.letters.all()),
        "answers": list(action.answers.all()),
    }


def _label(name: str) -> str:
    """A field as words: `hearing_concluded_on` -> "Hearing concluded on";
    `milestones.M-1.met_on` -> "Milestone M-1: met on"."""
    parts = name.split(".")
    if len(parts) == 3 and parts[0] == "milestones":
        return f"Milestone {parts[1]}: {parts[2].replace('_', ' ')}"
    return identifier_words(name)


def _value(value: Any, kind: str, pack: Pack | None = None) -> str:
    """A field's value as words: money with cents, a choice in the pack's words."""
    if kind.startswith("choice") and isinstance(value, str):
        return choice_words(pack, value)
    if kind == "money":
        try:
            return f"${Decimal(str(value)):,.2f}"
        except InvalidOperation:
            return str(value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return "; ".join(_value(v, "", pack) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in value.items())
    return str(value)


@agency_page
@reads_only
def case_detail(request, code: str, case: str):
    """Case `case` of the establishment `code` (case codes are unique per establishment)."""
    as_of = max(page_as_of(request), request.agency.get_pack().effective)
    page = case_page(agency=request.agency, establishment=code, code=case, as_of=as_of)
    offered = offered_steps(request, page)
    page.steps = [s for s in offered if not s["step"].late]
    page.late_appeals = [s for s in offered if s["step"].late]
    if page.closure is None:
        page.waiting = waiting_steps(
            request.agency.get_pack(), page.records, [s["step"] for s in page.steps], page.as_of
        )
    return render(request, "web/enforcement/case.html", {"case_page": page})


STEP_URLS = {
    "act": "web:case_act",
    "hearing": "web:case_hearing",
    "continuance": "web:case_hearing",
    "conclude": "web:case_conclude",
    "appeal": "web:case_appeal",
    "fact": "web:case_fact",
    "waiver": "web:case_waiver",
    "close": "web:case_close",
    "judgment": "web:case_judgment",
}


def _step_kind(step: Step) -> str:
    if step.step == "act":
        return policy.action_kind(step.type)
    if step.step == "close":
        return policy.action_kind(step.type)
    if step.step in ("hearing", "continuance", "conclude", "waiver"):
        return "hearing"
    if step.step == "fact":
        return policy.fact_kind(step.type, step.field)
    return policy.action_kind({"appeal": "appeal"}.get(step.step, "court_judgment"))


def offered_steps(request, page: CasePage) -> list[dict[str, Any]]:
    """The next steps of the case the person's role may take, each with its form's URL."""
    pack = request.agency.get_pack()
    fse, case = page.case.establishment, page.case
    out = []
    for step in next_steps(pack, page.records, page.deadlines, page.as_of):
        if not policy.may_write(request.user, request.agency, _step_kind(step)):
            continue
        args = [fse.code, case.code] + ([step.type] if step.step == "act" else [])
        url = reverse(STEP_URLS[step.step], args=args)
        query = {**step.query(), **({"as_of": day} if (day := request.GET.get("as_of")) else {})}
        if query:
            url += "?" + urlencode(query)
        out.append({"step": step, "url": url})
    if policy.may_write(request.user, request.agency, "invoice"):
        out += _penalties_to_invoice(page)
        out += _costs_to_invoice(request.agency.get_pack(), page)
    return out


def _costs_to_invoice(pack, page: CasePage) -> list[dict[str, Any]]:
    """An action of the case whose pack invoices its costs (`costs:`), recording some, not
    yet invoiced: the invoice form, its costs as lines."""
    fse = page.case.establishment
    invoiced = {row["invoice"].enforcement_action for row in page.invoices}
    url = reverse("web:invoice_new", args=[fse.code])
    out = []
    for a in page.records:
        spec = pack.actions.get(a.type)
        if spec is None or not spec.costs or a.code in invoiced:
            continue
        if any(a.effective_fields().get(f) for f in spec.costs):
            label = f"Invoice the costs of {a.code} ({spec.costs_citation})"
            step = Step("invoice", "invoice", label)
            out.append({"step": step, "url": f"{url}?{urlencode({'action': a.code})}"})
    return out


def _penalties_to_invoice(page: CasePage) -> list[dict[str, Any]]:
    """A penalty order of the case not yet invoiced: the invoice form, with it chosen."""
    fse = page.case.establishment
    invoiced = {row["invoice"].enforcement_action for row in page.invoices}
    replaced = {a.fields.get("appeal_of") for a in page.records if a.type == "penalty_order"}
    url = reverse("web:invoice_new", args=[fse.code])
    return [
        {
            "step": Step("invoice", "invoice", f"Invoice the penalty order {a.code}"),
            "url": f"{url}?{urlencode({'action': a.code})}",
        }
        for a in page.records
        if a.type == "penalty_order" and a.code not in invoiced and a.code not in replaced
    ]


# -- letters ------------------------------------------------------------------------------


@agency_page
@reads_only
def case_document(request, code: str, case: str, action: str):
    """The document an act was taken on, as received (the written appeal)."""
    found = get_object_or_404(
        EnforcementAction,
        establishment__agency=request.agency,
        establishment__code=code,
        case__code=case,
        code=action,
    )
    if not found.document:
        raise Http404("no document was received with this act")
    document = (found.document.name or "").rsplit("/", 1)[-1]
    name = get_valid_filename(f"{code}-{action}-{document}")
    kind = name.rsplit(".", 1)[-1].lower()
    response = FileResponse(found.document.open("rb"), content_type=CONTENT_TYPES.get(kind))
    response["Content-Disposition"] = content_disposition_header(True, name)
    response["Cache-Control"] = "private, max-age=3600"
    return response


@agency_page
@reads_only
def letter_pdf(request, letter: int):
    """The letter of an action exactly as it was sent (the stored bytes)."""
    found = get_object_or_404(
        Letter.objects.select_related("action__establishment"),
        pk=letter,
        action__establishment__agency=request.agency,
    )
    action = found.action
    name = get_valid_filename(
        f"{action.establishment.code}-{action.code}-{action.type.replace('_', '-')}.pdf"
    )
    response = HttpResponse(bytes(found.pdf), content_type="application/pdf")
    response["Content-Disposition"] = content_disposition_header(True, name)
    response["ETag"] = f'"{found.sha256}"'
    response["Cache-Control"] = "private, max-age=3600"
    return response


# -- the dashboard's calendar -----------------------------------------------------------------
