"""Taking an action of the pack in a case, and recording later facts about an action."""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from datetime import date
from decimal import Decimal
from typing import Any

from django.core.exceptions import NON_FIELD_ERRORS
from django.db import transaction

from fogkeeper.reevaluation import reevaluate_on_commit
from fogkeeper.registry.models import FoodServiceEstablishment
from fogkeeper.registry.services import Actor, Errors, add_error, check_model, refuse
from fogkeeper.rules import CaseFileError, parse_case
from fogkeeper.rules.packs import Pack
from fogkeeper.rules.report import Deadline

from .. import prerequisites
from ..codes import check_code_free, lock_codes
from ..grounds import ground_problem
from ..models import (
    APPEAL,
    COURT_JUDGMENT,
    HEARING,
    ActionFact,
    CaseViolation,
    EnforcementAction,
    EnforcementCase,
    overlay,
)
from ..selectors import engine_entry
from .shared import (
    HEARD,
    _audit,
    _cap_problem,
    _check_hearing,
    _court_class_problem,
    _effective,
    _engine_deadlines,
    _entry,
    _minimal_case,
    _render_letter,
    acts_of,
    check_done,
    day_of,
    plain_fields,
)


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
    errors: Errors,
    case: EnforcementCase,
    refers_to: EnforcementAction | None,
    level: str | None,
    what,
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
    elif refers_to is not None and refers_to.case_id != case.pk:
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
    fields = plain_fields(dict(fields))
    as_of = day_of(fields.get(spec.date_field) or establishment.opened_on)
    if type == "penalty_order":
        level = fields.get("issued_by")
        problem = _court_class_problem(pack, fields.get("class"), max(as_of, pack.effective))
        if problem:
            add_error(errors, "class", problem)
            refuse(errors)
    else:
        level = pack.procedure.get("levels", {}).get(type, "")

    if type == "compliance_schedule":
        _check_schedule(errors, pack, establishment, fields)
    _check_filled(errors, spec, fields, filled_by_law(establishment, code, type, fields))
    _check_milestones(errors, spec, fields)
    _name_the_order_replaced(errors, spec, fields, refers_to)
    entry = engine_entry(pack, code, type, fields)
    try:
        parse_case(_minimal_case(establishment, entry, max(as_of, pack.effective)))
    except CaseFileError as e:
        for found in e.problems:
            add_error(errors, found.path.rsplit(".", 1)[-1], found.message)
    refuse(errors)

    check_done(errors, establishment, **acts_of(spec, fields))
    _check_prerequisites(errors, pack, spec, case, fields, refers_to, as_of, level)
    if type in pack.procedure.get("on_appeal", ()):
        _check_appeal_reached(errors, case, refers_to, level, spec.title)
    if type == "penalty_order":
        if level == "council":
            _check_appeal_reached(errors, case, refers_to, level, spec.title)
        problem = _cap_problem(pack, fields["class"], fields, fields["amount"], as_of)
        if problem:
            add_error(errors, "amount", problem)
        problem = ground_problem(spec, case, fields, refers_to, as_of)
        if problem:
            add_error(errors, "class", problem)
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
        _check_hearing(errors, pack, entry, deadlines, day_of(fields["hearing_on"]))
    action = EnforcementAction(
        case=case,
        establishment=establishment,
        code=code,
        type=type,
        level=level or "",
        taken_on=as_of,
        delivery=delivery,
        certified_mail_number=certified_mail_number,
        cites=spec.citation,
        fields=fields,
        refers_to=refers_to,
        violation=violation,
    )
    _save_action(action, errors, actor, [d for d in deadlines if d.action == code], decided)
    reevaluate_on_commit(case.establishment)
    return action


def _check_prerequisites(
    errors: Errors,
    pack: Pack,
    spec,
    case: EnforcementCase,
    fields: dict[str, Any],
    refers_to: EnforcementAction | None,
    on: date,
    level: str | None,
) -> None:
    """Each step the pack says must be on record before this action (RULES.md 12.1)."""
    if refers_to is not None and refers_to.case_id != case.pk:
        add_error(errors, "refers_to", f"{refers_to.code} belongs to another case.")
        return
    actions = case.actions.select_related("refers_to").prefetch_related("facts")
    for problem in prerequisites.unmet(pack, spec, fields, refers_to, actions, on, level):
        add_error(errors, NON_FIELD_ERRORS, problem.message())


def filled_by_law(
    establishment: FoodServiceEstablishment, code: str, type: str, fields: dict[str, Any]
) -> dict[str, Any]:
    """`fields` with each date the pack's deadlines fill (`fills`: Aurora's correct-by date,
    15 days from delivery, 922.22(b)) set to the engine's date for it, as ISO text, so the
    notice, its letter and the portal state the one date the ordinance gives."""
    pack = establishment.agency.get_pack()
    spec = pack.actions.get(type)
    fields = dict(fields)
    for d in spec.deadlines if spec else ():
        start = fields.get(d.start)
        if d.fills is None or start is None:
            continue
        probe = engine_entry(pack, code, type, {**fields, d.fills: day_of(start).isoformat()})
        try:
            found = _engine_deadlines(establishment, probe, day_of(start))
        except CaseFileError:
            continue  # the action's own check names what is wrong
        for deadline in found:
            if (deadline.action, deadline.name, deadline.kind) == (code, d.name, d.kind):
                fields[d.fills] = day_of(deadline.date).isoformat()
    return fields


def _check_filled(errors: Errors, spec, fields: dict[str, Any], filled: dict[str, Any]) -> None:
    """A date the law sets is taken as it gives it; another date given is refused."""
    for d in spec.deadlines:
        if d.fills is None or d.fills not in filled:
            continue
        given = fields.get(d.fills)
        if given is not None and str(given)[:10] != filled[d.fills]:
            add_error(
                errors,
                d.fills,
                f"{d.citation}: {d.fills.replace('_', ' ')} is {filled[d.fills]}, the date the "
                f"ordinance gives from {d.start.replace('_', ' ')} (asked {given}).",
            )
        fields[d.fills] = filled[d.fills]


def _check_milestones(errors: Errors, spec, fields: dict[str, Any]) -> None:
    """A milestone says in words what must be done by its date (`what`), for the order's
    letter and the calendar; the case file keeps its id, due date and the day it was met."""
    for name, f in spec.fields.items():
        for m in fields.get(name) or [] if f.kind == "milestones" else []:
            what = m.get("what", "") if isinstance(m, dict) else ""
            if not isinstance(what, str):
                add_error(errors, name, f"Milestone {m.get('id')}: say what must be done.")


def _name_the_order_replaced(
    errors: Errors, spec, fields: dict[str, Any], refers_to: EnforcementAction | None
) -> None:
    """An order deciding the appeal of an order of its own type replaces it (RULES.md 12.8):
    its `replaced_by` field names the order appealed, from the appeal it refers to, and
    from nothing else."""
    field = spec.appeal.get("replaced_by") if spec.appeal else None
    if field is None:
        return
    appealed = refers_to.refers_to if refers_to is not None and refers_to.type == APPEAL else None
    named = appealed.code if appealed is not None and appealed.type == spec.type else None
    given = fields.pop(field, None)
    if given is not None and given != named:
        add_error(
            errors, field, f"{field} is the order whose appeal this order decides, not {given}."
        )
    if named is not None:
        fields[field] = named


def _check_schedule(
    errors: Errors, pack: Pack, establishment: FoodServiceEstablishment, fields: dict[str, Any]
) -> None:
    """A compliance schedule records the balance owed on the day it is entered, and is
    refused while money is owed, unless under a payment arrangement the pack allows."""
    entered = fields.get("entered_on")
    if entered:
        owed = _account_balance(establishment, day_of(entered))
        fields["balance_due"] = str(owed)
        fields.setdefault("payment_arrangement", False)
        allowed = pack.param("enforcement.schedule_payment_arrangement_allowed", day_of(entered))
        if owed > 0 and not (allowed and fields["payment_arrangement"]):
            citation = pack.rules["enforcement.schedule_precondition"].citation
            add_error(
                errors,
                "balance_due",
                f"{citation}: no compliance schedule while ${owed:,} is owed"
                + (" without an approved payment arrangement." if allowed else "."),
            )


def _account_balance(establishment: FoodServiceEstablishment, on: date) -> Decimal:
    try:
        selectors = importlib.import_module("fogkeeper.billing.selectors")
    except ModuleNotFoundError as e:
        if e.name not in ("fogkeeper.billing", "fogkeeper.billing.selectors"):
            raise
        return Decimal(0)
    return Decimal(str(selectors.account_balance(establishment, on)))


def _acted_by(spec, fields: dict[str, Any], taken_on: date) -> date:
    """The day by which every act the action records was done (a penalty order served after
    it was issued): the engine ignores an act dated after its `as_of`, so the action's
    deadlines are computed on that day, not on the day it was taken."""
    days = [taken_on]
    for name, f in spec.fields.items():
        if f.kind in ("date", "datetime") and fields.get(name):
            days.append(day_of(fields[name]))
    return max(days)


def _appeal_decided(
    errors: Errors,
    pack: Pack,
    case: EnforcementCase,
    refers_to: EnforcementAction | None,
    level: str | None,
    on: date,
) -> list[tuple[EnforcementAction, str, Any]]:
    """An action at the level an appeal was taken to, referring to that appeal, decides it:
    when the appealed action's finality waits on the appeal (its pack `appeal:`, RULES
    11.4), the decision date is recorded on it (`appeal_decided_on`), once."""
    if refers_to is None or refers_to.type != APPEAL or refers_to.level != level:
        return []
    appealed = refers_to.refers_to
    assert appealed is not None  # an appeal is of an action
    route = pack.actions[appealed.type].appeal if appealed.type in pack.actions else None
    if route is None or refers_to.fields.get("deadline") != route["deadline"]:
        return []
    if route["decided"] in appealed.effective_fields():
        return []
    filed = day_of(refers_to.fields["filed_on"])
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


def action_fact_record(
    *, action: EnforcementAction, field: str, value: Any, actor: Actor = None
) -> ActionFact:
    """A later fact about an action (a correction date, a payment, a milestone met…), kept as
    a new row; the action's effective fields are its fields overlaid with its facts."""
    pack = action.establishment.agency.get_pack()
    errors: Errors = {}
    value = plain_fields(value)
    if action.type in pack.actions:
        spec = pack.actions[action.type]
        name = field.split(".")[0]
        if name not in spec.fields:
            add_error(errors, "field", f"{spec.title} has no field {field!r}.")
            refuse(errors)
        if spec.fields[name].kind in ("date", "datetime") or field.endswith(".met_on"):
            check_done(errors, action.establishment, **{field: value})
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
    reevaluate_on_commit(action.establishment)
    return fact


def action_deadlines(
    establishment: FoodServiceEstablishment, code: str, type: str, fields: dict, as_of: date
) -> list[Deadline]:
    """The deadlines the engine would give an action not yet taken (for its letter's
    preview), the dates the law fills filled in."""
    pack = establishment.agency.get_pack()
    fields = filled_by_law(establishment, code, type, plain_fields(dict(fields)))
    entry = engine_entry(pack, code, type, fields)
    return [d for d in _engine_deadlines(establishment, entry, as_of) if d.action == code]


def action_final_on(action: EnforcementAction, on: date) -> tuple[date | None, str]:
    """The day the engine makes `action` final as of `on` (its pack's `appeal:` `final`
    event), and why, in words with the section; None while the time to appeal runs or an
    appeal filed in time is undecided."""
    pack = action.establishment.agency.get_pack()
    route = pack.actions[action.type].appeal
    deadlines = _engine_deadlines(action.establishment, _entry(action, pack), on)
    mine = {d.name: d for d in deadlines if d.action == action.code}
    final, last = mine.get(route.get("final", "")), mine.get(route["deadline"])
    deadline = final or last
    cite = deadline.citation if deadline else action.cites
    if final is not None and day_of(final.date) <= on:
        return day_of(final.date), f"{cite}: {action.code} became final on {day_of(final.date)}."
    if final is None and last is not None and day_of(last.date) >= on:
        return None, f"{cite}: {action.code} may be appealed until {day_of(last.date)}."
    if final is None:
        return None, f"{cite}: an appeal of {action.code} filed in time is not decided."
    return None, f"{cite}: {action.code} becomes final on {day_of(final.date)}."
