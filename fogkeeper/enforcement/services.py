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
from collections.abc import Iterable
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

from .codes import check_code_free, lock_codes
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

UNIT_ONE = {
    "days": "day",
    "occurrences": "occurrence",
    "gallons": "gallon",
    "violation_days": "violation day",
}
HEARD = ("suspension_notice", "revocation_notice", "administrative_complaint")


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


def _cap_problem(
    pack: Pack, cls: str, quantities: dict[str, Any], amount: Any, on: date
) -> str | None:
    """The amount against the class cap in force on `on`, times the quantity in the cap's
    unit (`days`, `occurrences`, `gallons` or `violation_days`, RULES 11.14)."""
    name = f"enforcement.penalty_cap.{cls}"
    if name not in pack.parameters:
        return f"{cls!r} is not a penalty class of {pack.id}."
    value = pack.parameters[name].value_on(on)
    per = value.value["per"]
    quantity = quantities.get(per) or 0
    cap = Decimal(str(value.value["amount"])) * Decimal(str(quantity))
    if Decimal(str(amount)) > cap:
        return (
            f"{value.reference}: a {cls} penalty may not exceed ${value.value['amount']:,} "
            f"a {UNIT_ONE.get(per, per)} × {quantity} = ${cap:,} "
            f"(asked ${Decimal(str(amount)):,})."
        )
    return None


def _court_class_problem(pack: Pack, cls: Any, on: date) -> str | None:
    """A penalty order imposes only a class the pack gives to administrative orders; a
    court class (`judicial`) is the court's (RULES 11.3)."""
    if cls not in pack.court_classes():
        return None
    cap = pack.parameters[f"enforcement.penalty_cap.{cls}"].value_on(on)
    allowed = ", ".join(sorted(pack.administrative_classes()))
    return (
        f"{cap.reference}: {cls} penalties are imposed by a court, not by a penalty order "
        f"(its classes: {allowed})."
    )


def _account_balance(establishment: FoodServiceEstablishment, on: date) -> Decimal:
    try:
        selectors = importlib.import_module("fogkeeper.billing.selectors")
    except ModuleNotFoundError as e:
        if e.name not in ("fogkeeper.billing", "fogkeeper.billing.selectors"):
            raise
        return Decimal(0)
    return Decimal(str(selectors.account_balance(establishment, on)))


def _render_letter(action: EnforcementAction, deadlines: list[Deadline]) -> None:
    """The letter of an action that sends one, stored byte for byte (when letters exist):
    a hearing's notice, or an action its pack marks `letter: true`; signed by whoever took
    the action."""
    if not sends_letter(action.establishment.agency.get_pack(), action.type):
        return
    try:
        letters = importlib.import_module("fogkeeper.enforcement.letters")
    except ModuleNotFoundError as e:
        if e.name != "fogkeeper.enforcement.letters":
            raise
        return
    pdf = letters.render_action_letter(action, deadlines, signer=action.taken_by)
    Letter.objects.create(action=action, pdf=pdf, sha256=hashlib.sha256(pdf).hexdigest())


def sends_letter(pack: Pack, action_type: str) -> bool:
    spec = pack.actions.get(action_type)
    return action_type == HEARING or (spec is not None and spec.letter)


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
    with transaction.atomic():
        lock_codes(establishment)
        check_code_free(errors, EnforcementCase, establishment, code)
        check_model(case, errors)
        refuse(errors)
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
    """A violation the case is about: an engine rule or a checklist item (its citation from
    the pack)."""
    pack = case.establishment.agency.get_pack()
    errors: Errors = {}
    if rule not in pack.rules and rule not in pack.checklist:
        add_error(errors, "rule", f"{rule!r} is not a rule or checklist item of {pack.id}.")
    refuse(errors)
    violation = CaseViolation(
        case=case, code=code, rule=rule, subject=subject, since=since,
        citation=pack.citation(rule),
    )  # fmt: skip
    check_model(violation, errors)
    refuse(errors)
    with transaction.atomic():
        violation.save()
        _audit("violation_add", violation, case.establishment, actor)
    return violation


# -- actions ------------------------------------------------------------------------------


def _save_action(
    action: EnforcementAction,
    errors: Errors,
    actor: Actor,
    deadlines,
    facts: Iterable[tuple[EnforcementAction, str, Any]] = (),
) -> None:
    """Save the action, its audit row, its letter and the facts it records on other actions
    (`(action, field, value)`, e.g. an appeal's `appealed_on` on the order) in one
    transaction."""
    if getattr(actor, "is_authenticated", False):
        action.taken_by = actor
    with transaction.atomic():
        lock_codes(action.establishment)
        check_code_free(errors, EnforcementAction, action.establishment, action.code)
        check_model(action, errors)
        refuse(errors)
        action.save()
        _audit(action.type, action, action.establishment, actor)
        for target, field, value in facts:
            action_fact_record(action=target, field=field, value=value, actor=actor)
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
    as_of = _day(fields.get(spec.date_field) or establishment.opened_on)
    if type == "penalty_order":
        level = fields.get("issued_by")
        problem = _court_class_problem(pack, fields.get("class"), max(as_of, pack.effective))
        if problem:
            add_error(errors, "class", problem)
            refuse(errors)
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
        problem = _cap_problem(pack, fields["class"], fields, fields["amount"], as_of)
        if problem:
            add_error(errors, "amount", problem)
        bar = pack.procedure.get("judicial_bar")
        if bar and violation is not None and violation.actions.filter(type=COURT_JUDGMENT).exists():
            add_error(
                errors,
                "violation",
                f"{bar}: no administrative penalty for {violation.code}, already penalised "
                "in court.",
            )
    if violation is not None and violation.case_id != case.pk:
        add_error(errors, "violation", f"{violation.code} belongs to another case.")
    decided = _appeal_decided(errors, pack, case, refers_to, level, as_of)
    deadlines = _engine_deadlines(establishment, entry, _acted_by(spec, fields, as_of))
    if type in HEARD and fields.get("hearing_on"):
        _check_hearing(errors, pack, entry, deadlines, _day(fields["hearing_on"]))
    action = EnforcementAction(
        case=case, establishment=establishment, code=code, type=type, level=level or "",
        taken_on=as_of, delivery=delivery, certified_mail_number=certified_mail_number,
        cites=spec.citation, fields=fields, refers_to=refers_to, violation=violation,
    )  # fmt: skip
    _save_action(action, errors, actor, [d for d in deadlines if d.action == code], decided)
    return action


def _acted_by(spec, fields: dict[str, Any], taken_on: date) -> date:
    """The day by which every act the action records was done (a penalty order served after
    it was issued): the engine ignores an act dated after its `as_of`, so the action's
    deadlines are computed on that day, not on the day it was taken."""
    days = [taken_on]
    for name, f in spec.fields.items():
        if f.kind in ("date", "datetime") and fields.get(name):
            days.append(_day(fields[name]))
    return max(days)


def _appeal_decided(
    errors: Errors,
    pack: Pack,
    case: EnforcementCase,
    refers_to: EnforcementAction | None,
    level: str,
    on: date,
) -> list[tuple[EnforcementAction, str, Any]]:
    """An action at the level an appeal was taken to, referring to that appeal, decides it:
    when the appealed action's finality waits on the appeal (its pack `appeal:`, RULES
    11.4), the decision date is recorded on it (`appeal_decided_on`), once."""
    if refers_to is None or refers_to.type != APPEAL or refers_to.level != level:
        return []
    appealed = refers_to.refers_to
    route = pack.actions[appealed.type].appeal if appealed.type in pack.actions else None
    if route is None or refers_to.fields.get("deadline") != route["deadline"]:
        return []
    if route["decided"] in appealed.effective_fields():
        return []
    filed = _day(refers_to.fields["filed_on"])
    if refers_to.case_id != case.pk:
        add_error(errors, "refers_to", f"{refers_to.code} belongs to another case.")
    elif on < filed:
        add_error(
            errors,
            "refers_to",
            f"{refers_to.cites}: the appeal {refers_to.code} of {appealed.code} was filed on "
            f"{filed}; it is not decided before that (asked {on}).",
        )
    return [(appealed, route["decided"], on)]


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
    place: str = "",
    actor: Actor = None,
) -> EnforcementAction:
    """A hearing on a suspension or revocation notice or an administrative complaint (a
    continuance when `continued_from` is the earlier hearing). The first hearing's date is
    recorded on the notice as a fact (`hearing_on`), refused outside the window the engine
    gives the notice; a continuance's as `continued_to`, refused where the engine finds it
    beyond the pack's limit on continuances (Town 10.02.260(B): 60 days in total from the
    first hearing; the window bounds the first hearing only)."""
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
        refuse(errors)
    spec = pack.actions[notice.type]
    window = spec.checks.get("hearing_window", {})
    continued_to = (window.get("continuance") or {}).get("field", "continued_to")
    fact_field = "hearing_on" if "hearing_on" in spec.fields else None
    if continued_from is not None and continued_to in spec.fields:
        fact_field = continued_to
        deadlines = _check_continuance(errors, pack, notice, continued_from, hearing_on)
    else:
        entry = _entry(notice, pack)
        entry.pop("hearing_on", None)
        deadlines = _engine_deadlines(establishment, entry, _day(notice.taken_on))
        _check_hearing(errors, pack, entry, deadlines, hearing_on)
    fields = {"hearing_on": hearing_on.isoformat()}
    if place.strip():
        fields["place"] = place.strip()
    if continued_from is not None:
        fields["continued_from"] = continued_from.code
    hearing = EnforcementAction(
        case=notice.case, establishment=establishment, code=code, type=HEARING,
        level=notice.level, taken_on=noticed_on, delivery=delivery,
        certified_mail_number=certified_mail_number, cites=spec.citation,
        fields=fields, refers_to=notice, violation=notice.violation,
    )  # fmt: skip
    if getattr(actor, "is_authenticated", False):
        hearing.taken_by = actor
    with transaction.atomic():
        lock_codes(establishment)
        check_code_free(errors, EnforcementAction, establishment, code)
        check_model(hearing, errors)
        refuse(errors)
        hearing.save()
        _audit(HEARING, hearing, establishment, actor)
        if fact_field is not None:
            fact = ActionFact.objects.create(
                action=notice, field=fact_field, value=hearing_on.isoformat()
            )
            _audit("fact_record", fact, establishment, actor)
        _render_letter(hearing, [d for d in deadlines if d.action == notice.code])
    return hearing


def hearing_window(notice: EnforcementAction) -> list[Deadline]:
    """The engine's window for the first hearing on `notice` (its `hearing` dates: the
    earliest and the latest), as the hearing form shows it."""
    pack = notice.establishment.agency.get_pack()
    entry = _entry(notice, pack)
    entry.pop("hearing_on", None)
    deadlines = _engine_deadlines(notice.establishment, entry, _day(notice.taken_on))
    return [d for d in deadlines if d.action == notice.code and d.name == "hearing"]


def action_deadlines(
    establishment: FoodServiceEstablishment, code: str, type: str, fields: dict, as_of: date
) -> list[Deadline]:
    """The deadlines the engine would give an action not yet taken (for its letter's
    preview)."""
    pack = establishment.agency.get_pack()
    entry = engine_entry(pack, code, type, _plain(dict(fields)))
    return [d for d in _engine_deadlines(establishment, entry, as_of) if d.action == code]


def _check_continuance(
    errors: Errors,
    pack: Pack,
    notice: EnforcementAction,
    continued_from: EnforcementAction,
    continued_to: date,
) -> list[Deadline]:
    """A continuance sets a later date than the hearing it continues, and the engine, given
    the notice continued to it, finds no defect in its hearing dates (the Town's limit of
    60 days in total from the first hearing, `hearing_window.continuance`)."""
    spec = pack.actions[notice.type]
    window = spec.checks.get("hearing_window", {})
    field = (window.get("continuance") or {}).get("field", "continued_to")
    citation = window.get("citation") or spec.citation
    continued = _day(continued_from.fields["hearing_on"])
    if continued_to <= continued:
        add_error(
            errors,
            "hearing_on",
            f"{citation}: a continuance of the hearing of {continued} sets a later date "
            f"(asked {continued_to}).",
        )
        return []
    entry = _entry(notice, pack, **{field: continued_to.isoformat()})
    on = max(_day(notice.taken_on), pack.effective)
    report = evaluate(_minimal_case(notice.establishment, entry, on))
    for finding in report.findings:
        if finding.rule == window.get("rule") and finding.subject == notice.code:
            add_error(errors, "hearing_on", f"{finding.citation}: {finding.message}")
    return report.deadlines


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
    """An appeal of `appealed` to the level `to`, by one of the deadlines its pack marks
    `appeal_to: <level>`; refused to a level the pack does not route it to, or after that
    deadline as the engine gives it. An appeal that suspends the action's finality (its
    pack `appeal:`, RULES 11.4) is recorded on it as a fact (`appealed_on`)."""
    establishment = appealed.establishment
    pack = establishment.agency.get_pack()
    errors: Errors = {}
    spec = pack.actions.get(appealed.type)
    if spec is None:
        add_error(errors, "appealed", f"Out of sequence: a {appealed.type} is not appealed.")
        refuse(errors)
    deadline = None
    routes = spec.appeal_routes()
    if to in routes.values():
        on = max(filed_on, appealed.taken_on)
        for d in _engine_deadlines(establishment, _entry(appealed, pack), on):
            if d.action == appealed.code and routes.get(d.name) == to:
                deadline = d
                break
    if deadline is None:
        where = _appeal_levels(pack, appealed, filed_on)
        add_error(
            errors,
            "to",
            f"Out of sequence: a {appealed.type} ({appealed.code}) is appealed to "
            f"{where or 'nowhere'}, not to {to}.",
        )
        refuse(errors)
    if filed_on > _day(deadline.date):
        add_error(
            errors,
            "filed_on",
            f"{deadline.citation}: the {deadline.name.replace('_', ' ')} of {appealed.code} "
            f"was due by {_day(deadline.date)} (filed {filed_on}).",
        )
    if filed_on < appealed.taken_on:
        add_error(
            errors,
            "filed_on",
            f"{filed_on} is before {appealed.code} was taken ({appealed.taken_on}).",
        )
    earlier = _appealed_already(appealed, to)
    if earlier is not None:
        add_error(
            errors,
            "to",
            f"Out of sequence: {appealed.code} was already appealed to {to} ({earlier.code}).",
        )
    facts = []
    if spec.appeal is not None and spec.appeal["deadline"] == deadline.name:
        facts.append((appealed, spec.appeal["filed"], filed_on))
    appeal = EnforcementAction(
        case=appealed.case, establishment=establishment, code=code, type=APPEAL, level=to,
        taken_on=filed_on, cites=deadline.citation,
        fields={"filed_on": filed_on.isoformat(), "to": to, "deadline": deadline.name},
        refers_to=appealed, violation=appealed.violation,
    )  # fmt: skip
    _save_action(appeal, errors, actor, [], facts)
    return appeal


def _appeal_levels(pack: Pack, appealed: EnforcementAction, on: date) -> str:
    """Where the engine gives `appealed` a deadline to appeal to on `on`, for the refusal."""
    routes = pack.actions[appealed.type].appeal_routes()
    on = max(on, appealed.taken_on)
    deadlines = _engine_deadlines(appealed.establishment, _entry(appealed, pack), on)
    return ", ".join(
        sorted(
            {routes[d.name] for d in deadlines if d.action == appealed.code and d.name in routes}
        )
    )


def _appealed_already(appealed: EnforcementAction, to: str) -> EnforcementAction | None:
    return (
        EnforcementAction.objects.filter(type=APPEAL, refers_to=appealed, level=to)
        .order_by("taken_on", "pk")
        .first()
    )


def court_judgment_record(
    *,
    case: EnforcementCase,
    code: str,
    entered_on: date,
    violation: CaseViolation,
    amount: Decimal,
    days: int | None = None,
    occurrences: int | None = None,
    gallons: Decimal | None = None,
    violation_days: int | None = None,
    penalty_class: str = "",
    actor: Actor = None,
) -> EnforcementAction:
    """Civil penalties a court imposed for a violation, in a court class of the pack
    (`judicial`; the only one when `penalty_class` is not given), with the quantity in its
    cap's unit. No administrative penalty for the violation after this (where the pack bars
    it, `procedure.judicial_bar`). Refused above the class cap, and where the pack bars it
    (`procedure.administrative_bar`, Town 10.02.340) for a violation whose administrative
    penalties were recovered: a penalty order for it paid in full on or before `entered_on`
    (its `paid_on`, recorded on the order or from its penalty invoices paid in billing)."""
    establishment = case.establishment
    pack = establishment.agency.get_pack()
    errors: Errors = {}
    court = pack.court_classes()
    if not penalty_class and len(court) == 1:
        penalty_class = next(iter(court))
    if penalty_class not in court:
        add_error(
            errors,
            "penalty_class",
            f"{penalty_class or 'A class'!r} is not a court penalty class of {pack.id} "
            f"({', '.join(sorted(court)) or 'none'}).",
        )
        refuse(errors)
    unit = court[penalty_class]
    given = {
        k: v
        for k, v in {
            "days": days, "occurrences": occurrences, "gallons": gallons,
            "violation_days": violation_days,
        }.items()
        if v is not None
    }  # fmt: skip
    for other in given:
        if other != unit:
            add_error(errors, other, f"class {penalty_class} is counted in {unit}, not {other}.")
    if unit not in given:
        add_error(errors, unit, f"required: class {penalty_class} is counted in {unit}.")
    refuse(errors)
    cap = pack.parameters[f"enforcement.penalty_cap.{penalty_class}"].value_on(entered_on)
    problem = _cap_problem(pack, penalty_class, given, amount, entered_on)
    if problem:
        add_error(errors, "amount", problem)
    if violation.case_id != case.pk:
        add_error(errors, "violation", f"{violation.code} belongs to another case.")
    bar = pack.procedure.get("administrative_bar")
    recovered = _penalties_recovered(violation, entered_on) if bar else []
    if recovered:
        order, paid_on = recovered[0]
        add_error(
            errors,
            "violation",
            f"{bar}: no judicial penalty for {violation.code}: its administrative penalties "
            f"were recovered ({order.code} paid on {paid_on}).",
        )
    judgment = EnforcementAction(
        case=case, establishment=establishment, code=code, type=COURT_JUDGMENT, level="court",
        taken_on=entered_on, cites=cap.reference, violation=violation,
        fields={"entered_on": entered_on.isoformat(), "amount": str(amount),
                "class": penalty_class, **_plain(given)},
    )  # fmt: skip
    _save_action(judgment, errors, actor, [])
    return judgment


def _penalties_recovered(
    violation: CaseViolation, on: date
) -> list[tuple[EnforcementAction, date]]:
    """The penalty orders for `violation` paid in full by `on`, with the day: the order's
    `paid_on` (a fact), else the day its penalty invoices were paid in full in billing."""
    orders = list(violation.actions.filter(type="penalty_order").order_by("taken_on", "pk"))
    if not orders:
        return []
    billed = _penalties_paid_in_billing(violation.case.establishment, on)
    out = []
    for order in orders:
        paid = order.effective_fields().get("paid_on") or billed.get(order.code)
        if paid and _day(paid) <= on:
            out.append((order, _day(paid)))
    return out


def _penalties_paid_in_billing(establishment: FoodServiceEstablishment, on: date) -> dict:
    try:
        billing = importlib.import_module("fogkeeper.billing.casefiles")
    except ModuleNotFoundError as e:
        if e.name not in ("fogkeeper.billing", "fogkeeper.billing.casefiles"):
            raise
        return {}
    return billing.penalties_paid_on([establishment.pk], on).get(establishment.pk, {})


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
