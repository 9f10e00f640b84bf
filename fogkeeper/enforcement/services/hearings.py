"""Hearings on a notice: scheduled (or continued), their window, and their conclusion."""

from __future__ import annotations

from datetime import date

from django.db import transaction

from fogkeeper.reevaluation import reevaluate_on_commit
from fogkeeper.registry.services import Actor, Errors, add_error, check_model, refuse
from fogkeeper.rules import evaluate
from fogkeeper.rules.packs import Pack
from fogkeeper.rules.report import Deadline

from ..codes import check_code_free, lock_codes
from ..models import HEARING, WAIVER, ActionFact, EnforcementAction
from .actions import _save_action, action_fact_record
from .shared import (
    HEARD,
    _audit,
    _check_hearing,
    _engine_deadlines,
    _entry,
    _minimal_case,
    _render_letter,
    check_done,
    day_of,
)


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
    check_done(errors, establishment, noticed_on=noticed_on)
    _check_not_waived(errors, notice)
    spec = pack.actions[notice.type]
    window = spec.checks.get("hearing_window", {})
    continued_to = (window.get("continuance") or {}).get("field", "continued_to")
    fact_field = "hearing_on" if "hearing_on" in spec.fields else None
    if continued_from is not None and continued_to in spec.fields:
        fact_field = continued_to
        deadlines = _check_continuance(errors, pack, notice, continued_from, hearing_on)
    else:
        entry = _unheard(notice, pack)
        deadlines = _engine_deadlines(establishment, entry, day_of(notice.taken_on))
        _check_hearing(errors, pack, entry, deadlines, hearing_on)
    fields = {"hearing_on": hearing_on.isoformat()}
    if place.strip():
        fields["place"] = place.strip()
    if continued_from is not None:
        fields["continued_from"] = continued_from.code
    hearing = EnforcementAction(
        case=notice.case,
        establishment=establishment,
        code=code,
        type=HEARING,
        level=notice.level,
        taken_on=noticed_on,
        delivery=delivery,
        certified_mail_number=certified_mail_number,
        cites=spec.citation,
        fields=fields,
        refers_to=notice,
        violation=notice.violation,
    )
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
    reevaluate_on_commit(notice.establishment)
    return hearing


def hearing_window(notice: EnforcementAction) -> list[Deadline]:
    """The engine's window for the first hearing on `notice` (its `hearing` dates: the
    earliest and the latest), as the hearing form shows it."""
    pack = notice.establishment.agency.get_pack()
    entry = _unheard(notice, pack)
    deadlines = _engine_deadlines(notice.establishment, entry, day_of(notice.taken_on))
    return [d for d in deadlines if d.action == notice.code and d.name == "hearing"]


def _unheard(notice: EnforcementAction, pack: Pack) -> dict:
    """The notice as the engine reads it before any hearing: without its hearing date and,
    once the hearing was continued, without the date it was continued to (the engine refuses
    a continuance of no hearing, RULES 11.5), so that its window is the first hearing's."""
    window = pack.actions[notice.type].checks.get("hearing_window", {})
    continuance = (window.get("continuance") or {}).get("field", "continued_to")
    entry = _entry(notice, pack)
    for field in (window.get("field", "hearing_on"), continuance):
        entry.pop(field, None)
    return entry


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
    continued = day_of(continued_from.fields["hearing_on"])
    if continued_to <= continued:
        add_error(
            errors,
            "hearing_on",
            f"{citation}: a continuance of the hearing of {continued} sets a later date "
            f"(asked {continued_to}).",
        )
        return []
    entry = _entry(notice, pack, **{field: continued_to.isoformat()})
    on = max(day_of(notice.taken_on), pack.effective)
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
    check_done(errors, hearing.establishment, concluded_on=concluded_on)
    held_on = day_of(hearing.fields["hearing_on"])
    if concluded_on < held_on:
        add_error(
            errors,
            "concluded_on",
            f"The hearing {hearing.code} is set for {held_on}; it concludes on or after that "
            f"day (asked {concluded_on}).",
        )
    refuse(errors)
    assert notice is not None  # a hearing is on a notice
    if notice.type == "administrative_complaint":
        fact = ActionFact(action=hearing, field="concluded_on", value=concluded_on.isoformat())
        with transaction.atomic():
            fact.save()
            _audit("fact_record", fact, hearing.establishment, actor)
        reevaluate_on_commit(hearing.establishment)  # the case file reads the hearing's facts
        return fact
    return action_fact_record(
        action=notice, field="hearing_concluded_on", value=concluded_on, actor=actor
    )


def hearing_waive(
    *,
    notice: EnforcementAction,
    code: str,
    waived_on: date,
    waived_by: str,
    actor: Actor = None,
) -> EnforcementAction:
    """The charged party's written waiver of the hearing on `notice` (an administrative
    complaint, where its pack gives the `waiver` section), received on `waived_on`: the
    hearing need not be held, and what follows a hearing may follow the waiver."""
    establishment = notice.establishment
    spec = establishment.agency.get_pack().actions.get(notice.type)
    errors: Errors = {}
    if spec is None or spec.waiver is None:
        title = spec.title if spec else notice.type
        add_error(errors, "notice", f"Out of sequence: the hearing on a {title} is not waived.")
        refuse(errors)
    check_done(errors, establishment, waived_on=waived_on)
    if waived_on < notice.taken_on:
        add_error(
            errors,
            "waived_on",
            f"{spec.waiver}: {notice.code} was served on {notice.taken_on}; its hearing is "
            f"waived on or after that day (asked {waived_on}).",
        )
    if not (waived_by or "").strip():
        add_error(errors, "waived_by", "Name the charged party who waived the hearing in writing.")
    _check_not_waived(errors, notice)
    concluded = [
        h.code
        for h in EnforcementAction.objects.filter(type=HEARING, refers_to=notice)
        if h.effective_fields().get("concluded_on")
    ]
    if concluded:
        add_error(errors, "notice", f"The hearing {concluded[0]} on {notice.code} was held.")
    refuse(errors)
    waiver = EnforcementAction(
        case=notice.case,
        establishment=establishment,
        code=code,
        type=WAIVER,
        level=notice.level,
        taken_on=waived_on,
        cites=spec.waiver,
        fields={"waived_on": waived_on.isoformat(), "waived_by": waived_by.strip()},
        refers_to=notice,
        violation=notice.violation,
    )
    _save_action(waiver, errors, actor, [])
    reevaluate_on_commit(notice.establishment)
    return waiver


def _check_not_waived(errors: Errors, notice: EnforcementAction) -> None:
    waived = EnforcementAction.objects.filter(type=WAIVER, refers_to=notice).first()
    if waived is not None:
        add_error(
            errors,
            "notice",
            f"{waived.cites}: the hearing on {notice.code} was waived in writing on "
            f"{waived.taken_on} ({waived.code}).",
        )
