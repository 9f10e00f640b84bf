"""Writes of enforcement: cases, their violations, the actions taken, the later facts about
them, hearings, appeals and court judgments.

Every service checks first and refuses with one `ValidationError` citing the section that
forbids the step; then it saves inside one transaction together with its audit row, so a
refused step changes nothing. Deadlines and windows come from the engine: the action is put
in a minimal case file and evaluated, so no rule is written twice.
"""

from __future__ import annotations

import hashlib
import importlib
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.db import transaction

from fogkeeper.audit.services import audit_record
from fogkeeper.registry.models import FoodServiceEstablishment
from fogkeeper.registry.services import Actor, Errors, add_error, check_model, refuse
from fogkeeper.rules import CaseFileError, evaluate, parse_case
from fogkeeper.rules.packs import Pack
from fogkeeper.rules.report import Deadline

from .models import (
    APPEAL,
    COURT_JUDGMENT,
    HEARING,
    ActionFact,
    CaseViolation,
    EnforcementAction,
    EnforcementCase,
    Letter,
    NoticeAnswer,
    overlay,
)
from .selectors import engine_entry

# The engine deadline by which each kind of appeal is filed, and where it goes
# (None: to the next level of the sequence).
APPEAL_DEADLINES = {
    "appeal": None,
    "council_review_request": "council",
    "council_appeal": "council",
    "city_manager_appeal": "city_manager",
    "judicial_review": "court",
}
HEARD = ("suspension_notice", "revocation_notice", "administrative_complaint")
LETTER_TYPES = {
    "notice_of_noncompliance",
    "manager_decision",
    "hearing_decision",
    "suspension_notice",
    "revocation_notice",
    "emergency_decision",
    "administrative_complaint",
    "penalty_order",
    "final_decision",
    HEARING,
}


# -- helpers ------------------------------------------------------------------------------


def _plain(value: Any) -> Any:
    if isinstance(value, date | datetime):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items() if v is not None}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def _day(value: Any) -> date:
    if isinstance(value, str):
        value = datetime.fromisoformat(value) if "T" in value else date.fromisoformat(value)
    return value.date() if isinstance(value, datetime) else value


def _audit(what: str, obj: Any, establishment: FoodServiceEstablishment, actor: Actor) -> None:
    audit_record(action=f"enforcement.{what}", obj=obj, actor=actor, agency=establishment.agency)


def _minimal_case(establishment: FoodServiceEstablishment, entry: dict, as_of: date) -> dict:
    opened = establishment.opened_on.isoformat()
    return {
        "jurisdiction": establishment.agency.pack,
        "as_of": as_of.isoformat(),
        "establishment": {
            "id": establishment.code,
            "opened_on": opened,
            "operator": {"name": "-", "since": opened},
        },
        "enforcement": [entry],
    }


def _engine_deadlines(
    establishment: FoodServiceEstablishment, entry: dict, as_of: date
) -> list[Deadline]:
    """The deadlines the engine gives for this one action on `as_of`."""
    pack = establishment.agency.get_pack()
    return evaluate(_minimal_case(establishment, entry, max(as_of, pack.effective))).deadlines


def _effective(action: EnforcementAction) -> dict[str, Any]:
    return action.effective_fields()


def _entry(action: EnforcementAction, pack: Pack, **changes: Any) -> dict:
    return engine_entry(pack, action.code, action.type, {**_effective(action), **changes})


def _cap_problem(pack: Pack, cls: str, quantity: Any, amount: Any, on: date) -> str | None:
    name = f"enforcement.penalty_cap.{cls}"
    if name not in pack.parameters:
        return f"{cls!r} is not a penalty class of {pack.id}."
    value = pack.parameters[name].value_on(on)
    cap = Decimal(str(value.value["amount"])) * Decimal(str(quantity or 0))
    if Decimal(str(amount)) > cap:
        per = value.value["per"]
        return (
            f"{value.reference}: a {cls} penalty may not exceed ${value.value['amount']:,} "
            f"a {per[:-1]} × {quantity} = ${cap:,} (asked ${Decimal(str(amount)):,})."
        )
    return None


def _account_balance(establishment: FoodServiceEstablishment, on: date) -> Decimal:
    try:
        selectors = importlib.import_module("fogkeeper.billing.selectors")
    except ModuleNotFoundError as e:
        if e.name not in ("fogkeeper.billing", "fogkeeper.billing.selectors"):
            raise
        return Decimal(0)
    return Decimal(str(selectors.account_balance(establishment, on)))


def _render_letter(action: EnforcementAction, deadlines: list[Deadline]) -> None:
    """The letter of an action that sends one, stored byte for byte (when letters exist)."""
    if action.type not in LETTER_TYPES:
        return
    try:
        letters = importlib.import_module("fogkeeper.enforcement.letters")
    except ModuleNotFoundError as e:
        if e.name != "fogkeeper.enforcement.letters":
            raise
        return
    establishment = action.establishment
    pdf = letters.render_letter(
        agency=establishment.agency,
        establishment=establishment,
        action_type=action.type,
        action_code=action.code,
        fields=_effective(action),
        deadlines=[d.to_dict() for d in deadlines],
        issued_on=action.taken_on,
    )
    Letter.objects.create(action=action, pdf=pdf, sha256=hashlib.sha256(pdf).hexdigest())


# -- cases and violations -----------------------------------------------------------------


def case_open(
    *,
    establishment: FoodServiceEstablishment,
    code: str,
    opened_on: date,
    actor: Actor = None,
) -> EnforcementCase:
    case = EnforcementCase(establishment=establishment, code=code, opened_on=opened_on)
    if getattr(actor, "is_authenticated", False):
        case.opened_by = actor
    errors: Errors = {}
    check_model(case, errors)
    refuse(errors)
    with transaction.atomic():
        case.save()
        _audit("case_open", case, establishment, actor)
    return case


def violation_add(
    *,
    case: EnforcementCase,
    code: str,
    rule: str,
    subject: str,
    since: date,
    actor: Actor = None,
) -> CaseViolation:
    """A violation the case is about: an engine rule (its citation from the pack)."""
    pack = case.establishment.agency.get_pack()
    errors: Errors = {}
    if rule not in pack.rules:
        add_error(errors, "rule", f"{rule!r} is not a rule of {pack.id}.")
    refuse(errors)
    violation = CaseViolation(
        case=case, code=code, rule=rule, subject=subject, since=since,
        citation=pack.rules[rule].citation,
    )  # fmt: skip
    check_model(violation, errors)
    refuse(errors)
    with transaction.atomic():
        violation.save()
        _audit("violation_add", violation, case.establishment, actor)
    return violation


# -- actions ------------------------------------------------------------------------------


def _save_action(action: EnforcementAction, errors: Errors, actor: Actor, deadlines) -> None:
    if getattr(actor, "is_authenticated", False):
        action.taken_by = actor
    check_model(action, errors)
    refuse(errors)
    with transaction.atomic():
        action.save()
        _audit(action.type, action, action.establishment, actor)
        _render_letter(action, deadlines)


def _check_appeal_reached(
    errors: Errors, case: EnforcementCase, refers_to: EnforcementAction | None, level: str, what
) -> None:
    reached = refers_to is not None and (
        (refers_to.type == APPEAL and refers_to.fields.get("to") == level)
        or (refers_to.type == HEARING and refers_to.level == level)
    )
    if not reached:
        add_error(
            errors,
            "refers_to",
            f"Out of sequence: a {what} decides an appeal to the {level} or a hearing before "
            "it; refer to that appeal or hearing.",
        )
    elif refers_to.case_id != case.pk:
        add_error(errors, "refers_to", f"{refers_to.code} belongs to another case.")


def action_take(
    *,
    case: EnforcementCase,
    type: str,
    code: str,
    fields: dict[str, Any],
    delivery: str = "",
    certified_mail_number: str = "",
    refers_to: EnforcementAction | None = None,
    violation: CaseViolation | None = None,
    actor: Actor = None,
) -> EnforcementAction:
    """An action of the pack (`type` one of its action types, `fields` as the case file spells
    them). Refused, citing the section, when out of sequence, when a hearing is set outside
    the notice window, a penalty is above its cap, a violation was already penalised in
    court, or a compliance schedule is entered while money is owed."""
    establishment = case.establishment
    pack = establishment.agency.get_pack()
    errors: Errors = {}
    spec = pack.actions.get(type)
    if spec is None or type == "invoice":
        known = ", ".join(t for t in pack.actions if t != "invoice")
        add_error(errors, "type", f"{type!r} is not an enforcement action here (known: {known}).")
        refuse(errors)
    fields = _plain(dict(fields))
    if type == "penalty_order":
        level = fields.get("issued_by")
    else:
        level = pack.procedure.get("levels", {}).get(type, "")

    if type == "compliance_schedule":
        entered = fields.get("entered_on")
        if entered:
            owed = _account_balance(establishment, _day(entered))
            fields["balance_due"] = str(owed)
            fields.setdefault("payment_arrangement", False)
            allowed = pack.param("enforcement.schedule_payment_arrangement_allowed", _day(entered))
            if owed > 0 and not (allowed and fields["payment_arrangement"]):
                citation = pack.rules["enforcement.schedule_precondition"].citation
                add_error(
                    errors,
                    "balance_due",
                    f"{citation}: no compliance schedule while ${owed:,} is owed"
                    + (" without an approved payment arrangement." if allowed else "."),
                )
    entry = engine_entry(pack, code, type, fields)
    as_of = _day(fields.get(spec.date_field) or establishment.opened_on)
    try:
        parse_case(_minimal_case(establishment, entry, max(as_of, pack.effective)))
    except CaseFileError as e:
        for problem in e.problems:
            add_error(errors, problem.path.rsplit(".", 1)[-1], problem.message)
    refuse(errors)

    if type in pack.procedure.get("on_appeal", ()):
        _check_appeal_reached(errors, case, refers_to, level, spec.title)
    if type == "penalty_order":
        if level == "council":
            _check_appeal_reached(errors, case, refers_to, level, spec.title)
        quantity = next((fields[k] for k in ("days", "occurrences", "gallons") if k in fields), 0)
        problem = _cap_problem(pack, fields["class"], quantity, fields["amount"], as_of)
        if problem:
            add_error(errors, "amount", problem)
        if violation is not None and violation.actions.filter(type=COURT_JUDGMENT).exists():
            add_error(
                errors,
                "violation",
                f"{pack.procedure.get('judicial_bar') or pack.id}: no administrative penalty for "
                f"{violation.code}, already penalised in court.",
            )
    if violation is not None and violation.case_id != case.pk:
        add_error(errors, "violation", f"{violation.code} belongs to another case.")
    deadlines = _engine_deadlines(establishment, entry, as_of)
    if type in HEARD and fields.get("hearing_on"):
        _check_hearing(errors, pack, entry, deadlines, _day(fields["hearing_on"]))
    action = EnforcementAction(
        case=case, establishment=establishment, code=code, type=type, level=level or "",
        taken_on=as_of, delivery=delivery, certified_mail_number=certified_mail_number,
        cites=spec.citation, fields=fields, refers_to=refers_to, violation=violation,
    )  # fmt: skip
    _save_action(action, errors, actor, [d for d in deadlines if d.action == code])
    return action


def _check_hearing(errors: Errors, pack: Pack, entry: dict, deadlines, hearing_on: date) -> None:
    """The hearing date against the window the engine gives the notice (its `hearing`
    earliest and deadline entries)."""
    earliest = next((d for d in deadlines if d.name == "hearing" and d.kind == "earliest"), None)
    latest = next((d for d in deadlines if d.name == "hearing" and d.kind == "deadline"), None)
    spec = pack.actions[entry["type"]]
    citation = spec.checks.get("hearing_window", {}).get("citation") or spec.citation
    if earliest is not None and hearing_on < _day(earliest.date):
        add_error(
            errors,
            "hearing_on",
            f"{earliest.citation}: the hearing may not be held before {_day(earliest.date)} "
            f"(asked {hearing_on}).",
        )
    if latest is not None and hearing_on > _day(latest.date):
        add_error(
            errors,
            "hearing_on",
            f"{latest.citation or citation}: the hearing must be held by {_day(latest.date)} "
            f"(asked {hearing_on}).",
        )


def action_fact_record(
    *, action: EnforcementAction, field: str, value: Any, actor: Actor = None
) -> ActionFact:
    """A later fact about an action (a correction date, a payment, a milestone met…), kept as
    a new row; the action's effective fields are its fields overlaid with its facts."""
    pack = action.establishment.agency.get_pack()
    errors: Errors = {}
    value = _plain(value)
    if action.type in pack.actions:
        spec = pack.actions[action.type]
        name = field.split(".")[0]
        if name not in spec.fields:
            add_error(errors, "field", f"{spec.title} has no field {field!r}.")
            refuse(errors)
        changed = engine_entry(
            pack, action.code, action.type, overlay(_effective(action), [(field, value)])
        )
        try:
            parse_case(_minimal_case(action.establishment, changed, action.taken_on))
        except CaseFileError as e:
            for problem in e.problems:
                add_error(errors, field, problem.message)
    refuse(errors)
    fact = ActionFact(action=action, field=field, value=value)
    if getattr(actor, "is_authenticated", False):
        fact.recorded_by = actor
    with transaction.atomic():
        fact.save()
        _audit("fact_record", fact, action.establishment, actor)
    return fact


# -- hearings -----------------------------------------------------------------------------


def hearing_schedule(
    *,
    notice: EnforcementAction,
    code: str,
    hearing_on: date,
    noticed_on: date,
    continued_from: EnforcementAction | None = None,
    delivery: str = "",
    certified_mail_number: str = "",
    actor: Actor = None,
) -> EnforcementAction:
    """A hearing on a suspension or revocation notice or an administrative complaint (a
    continuance when `continued_from` is the earlier hearing). Its date is recorded on the
    notice as a fact; refused outside the window the engine gives the notice."""
    establishment = notice.establishment
    pack = establishment.agency.get_pack()
    errors: Errors = {}
    if notice.type not in HEARD:
        add_error(errors, "notice", f"Out of sequence: no hearing is held on a {notice.type}.")
        refuse(errors)
    if continued_from is not None and (
        continued_from.type != HEARING or continued_from.refers_to_id != notice.pk
    ):
        add_error(errors, "continued_from", "A continuance continues a hearing on this notice.")
    entry = _entry(notice, pack)
    entry.pop("hearing_on", None)
    deadlines = _engine_deadlines(establishment, entry, _day(notice.taken_on))
    _check_hearing(errors, pack, entry, deadlines, hearing_on)
    fields = {"hearing_on": hearing_on.isoformat()}
    if continued_from is not None:
        fields["continued_from"] = continued_from.code
    hearing = EnforcementAction(
        case=notice.case, establishment=establishment, code=code, type=HEARING,
        level=notice.level, taken_on=noticed_on, delivery=delivery,
        certified_mail_number=certified_mail_number, cites=pack.actions[notice.type].citation,
        fields=fields, refers_to=notice, violation=notice.violation,
    )  # fmt: skip
    if getattr(actor, "is_authenticated", False):
        hearing.taken_by = actor
    check_model(hearing, errors)
    refuse(errors)
    with transaction.atomic():
        hearing.save()
        _audit(HEARING, hearing, establishment, actor)
        if notice.type != "administrative_complaint":
            fact = ActionFact.objects.create(
                action=notice, field="hearing_on", value=hearing_on.isoformat()
            )
            _audit("fact_record", fact, establishment, actor)
        _render_letter(hearing, [d for d in deadlines if d.action == notice.code])
    return hearing


def hearing_conclude(
    *, hearing: EnforcementAction, concluded_on: date, actor: Actor = None
) -> ActionFact:
    """The hearing concluded: a fact on its notice (the decision deadline runs from it)."""
    notice = hearing.refers_to
    errors: Errors = {}
    if hearing.type != HEARING:
        add_error(errors, "hearing", f"{hearing.code} is not a hearing.")
    refuse(errors)
    if notice.type == "administrative_complaint":
        fact = ActionFact(action=hearing, field="concluded_on", value=concluded_on.isoformat())
        with transaction.atomic():
            fact.save()
            _audit("fact_record", fact, hearing.establishment, actor)
        return fact
    return action_fact_record(
        action=notice, field="hearing_concluded_on", value=concluded_on, actor=actor
    )


# -- appeals and the courts ---------------------------------------------------------------


def appeal_file(
    *,
    appealed: EnforcementAction,
    code: str,
    filed_on: date,
    to: str,
    actor: Actor = None,
) -> EnforcementAction:
    """An appeal of `appealed` to the level `to` (the next one, or the court on judicial
    review), refused after the deadline the engine gives the appealed action."""
    establishment = appealed.establishment
    pack = establishment.agency.get_pack()
    errors: Errors = {}
    if appealed.type not in pack.actions:
        add_error(errors, "appealed", f"Out of sequence: a {appealed.type} is not appealed.")
        refuse(errors)
    deadlines = _engine_deadlines(establishment, _entry(appealed, pack), filed_on)
    levels = pack.procedure.get("sequence", ())
    routes = {}
    for d in deadlines:
        if d.action == appealed.code and d.name in APPEAL_DEADLINES:
            target = APPEAL_DEADLINES[d.name]
            if target is None and appealed.level in levels[:-1]:
                target = levels[levels.index(appealed.level) + 1]
            routes.setdefault(target, d)
    deadline = routes.get(to)
    if deadline is None:
        where = ", ".join(sorted(t for t in routes if t)) or "nowhere"
        add_error(
            errors,
            "to",
            f"Out of sequence: a {appealed.type} ({appealed.code}) is appealed to {where}, "
            f"not to {to}.",
        )
        refuse(errors)
    if filed_on > _day(deadline.date):
        add_error(
            errors,
            "filed_on",
            f"{deadline.citation}: the {deadline.name.replace('_', ' ')} of {appealed.code} "
            f"was due by {_day(deadline.date)} (filed {filed_on}).",
        )
    appeal = EnforcementAction(
        case=appealed.case, establishment=establishment, code=code, type=APPEAL, level=to,
        taken_on=filed_on, cites=deadline.citation,
        fields={"filed_on": filed_on.isoformat(), "to": to, "deadline": deadline.name},
        refers_to=appealed, violation=appealed.violation,
    )  # fmt: skip
    _save_action(appeal, errors, actor, [])
    return appeal


def court_judgment_record(
    *,
    case: EnforcementCase,
    code: str,
    entered_on: date,
    violation: CaseViolation,
    amount: Decimal,
    days: int,
    actor: Actor = None,
) -> EnforcementAction:
    """Civil penalties a court imposed for a violation (no administrative penalty for it
    after this). Refused above the judicial cap."""
    establishment = case.establishment
    pack = establishment.agency.get_pack()
    errors: Errors = {}
    problem = _cap_problem(pack, "judicial", days, amount, entered_on)
    if problem:
        add_error(errors, "amount", problem)
    if violation.case_id != case.pk:
        add_error(errors, "violation", f"{violation.code} belongs to another case.")
    cap = pack.parameters["enforcement.penalty_cap.judicial"].value_on(entered_on)
    judgment = EnforcementAction(
        case=case, establishment=establishment, code=code, type=COURT_JUDGMENT, level="court",
        taken_on=entered_on, cites=cap.reference, violation=violation,
        fields={"entered_on": entered_on.isoformat(), "amount": str(amount), "days": days},
    )  # fmt: skip
    _save_action(judgment, errors, actor, [])
    return judgment


# -- answers of the operator --------------------------------------------------------------

ANSWER_MAX = 10_000


def notice_answer(
    *, action: EnforcementAction, text: str, answered_on: date, actor: Actor = None
) -> NoticeAnswer:
    """The operator's written answer to `action`, appended to what was filed before."""
    errors: Errors = {}
    text = text.strip()
    if not text:
        add_error(errors, "text", "Write the answer.")
    elif len(text) > ANSWER_MAX:
        add_error(errors, "text", f"At most {ANSWER_MAX:,} characters (got {len(text):,}).")
    if answered_on < action.taken_on:
        add_error(
            errors,
            "answered_on",
            f"{answered_on} is before {action.code} was taken ({action.taken_on}).",
        )
    refuse(errors)
    answer = NoticeAnswer(action=action, text=text, answered_on=answered_on)
    if getattr(actor, "is_authenticated", False):
        answer.answered_by = actor
    check_model(answer, errors)
    refuse(errors)
    with transaction.atomic():
        answer.save()
        _audit("notice_answer", answer, action.establishment, actor)
    return answer
