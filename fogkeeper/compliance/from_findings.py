"""Cases from findings, one establishment or many: a case opened (or an open one added to)
for open findings of the engine, and the pack's first notice sent to each of many
establishments in one go (`procedure.first_notice`), each in its own transaction so that one
refused leaves the others sent, and what was sent and refused kept on the run; the
establishments sent a notice are then evaluated again together, on the workers
(fogkeeper.reevaluation): once each, not once per notice."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from fogkeeper.enforcement.codes import action_code, lock_codes, next_code
from fogkeeper.enforcement.models import BulkNotice, EnforcementAction, EnforcementCase
from fogkeeper.enforcement.services import action_take, case_open, violation_add
from fogkeeper.reevaluation import held, reevaluate_ids_on_commit
from fogkeeper.registry.models import FoodServiceEstablishment
from fogkeeper.registry.services import Actor, Errors, add_error, refuse

from .models import Finding


def case_from_findings(
    *,
    establishment: FoodServiceEstablishment,
    findings: list[Finding],
    opened_on: date,
    case: EnforcementCase | None = None,
    actor: Actor = None,
) -> EnforcementCase:
    """A case about `findings` (open findings of the establishment): a new one, or `case`
    with them added. A finding already in the case is refused, naming it."""
    errors: Errors = {}
    if not findings:
        add_error(errors, "findings", "Choose at least one open finding.")
    for f in findings:
        if f.establishment_id != establishment.pk or not f.open:
            add_error(errors, "findings", f"{f.rule} ({f.subject}) is not an open finding here.")
    if case is not None:
        held = set(case.violations.values_list("rule", "subject"))
        for f in findings:
            if (f.rule, f.subject) in held:
                add_error(errors, "findings", f"{f.rule} ({f.subject}) is already in {case.code}.")
    refuse(errors)
    with transaction.atomic():
        lock_codes(establishment)  # held until the caller's transaction ends
        if case is None:
            case_codes = establishment.cases.values_list("code", flat=True)
            case = case_open(
                establishment=establishment,
                code=next_code(case_codes, "EC"),
                opened_on=opened_on,
                actor=actor,
            )
        codes = list(case.violations.values_list("code", flat=True))
        for f in findings:
            code = next_code(codes, "V")
            codes.append(code)
            violation_add(
                case=case, code=code, rule=f.rule, subject=f.subject, since=f.since, actor=actor
            )
    return case


def _certified(first: str, n: int) -> str:
    """The `n`th certified mail number of a roll starting at `first` (its last digits
    counted up), or "" when none was given."""
    if not first:
        return ""
    match = re.search(r"(\d+)(\D*)$", first)
    if not match:
        return first
    digits = match.group(1)
    number = str(int(digits) + n).zfill(len(digits))
    return first[: match.start(1)] + number + match.group(2)


def bulk_notice_start(
    *,
    agency,
    rule: str,
    codes: list[str],
    fields: dict[str, Any],
    delivery: str,
    first_certified: str = "",
    as_of: date,
    actor: Actor = None,
) -> BulkNotice:
    """A run sending the pack's first notice to the establishments `codes` about their open
    findings of `rule`; `run_bulk_notice` does the sending."""
    pack = agency.get_pack()
    errors: Errors = {}
    first = pack.procedure.get("first_notice")
    if not first:
        add_error(errors, "rule", f"{pack.name} names no first notice for a bulk notice.")
    if rule not in pack.rules:
        add_error(errors, "rule", f"{rule!r} is not a rule of {pack.id}.")
    if not codes:
        add_error(errors, "establishments", "Choose at least one establishment.")
    if delivery == "mail" and not first_certified:
        add_error(errors, "first_certified", "Give the first certified mail number of the roll.")
    refuse(errors)
    return BulkNotice.objects.create(
        agency=agency,
        action_type=first,
        rule=rule,
        codes=codes,
        as_of=as_of,
        fields={k: str(v) if isinstance(v, date) else v for k, v in fields.items()},
        delivery=delivery,
        first_certified=first_certified,
        total=len(codes),
        created_by=actor if getattr(actor, "is_authenticated", False) else None,
    )


def run_bulk_notice(run_id: int) -> BulkNotice:
    """Send the run's notices, one establishment at a time, each in its own transaction; an
    establishment already sent or refused in this run is skipped, so a run stopped halfway
    is finished by running it again."""
    run = BulkNotice.objects.get(pk=run_id)
    done = {r["establishment"] for r in run.sent + run.refused}
    if done.issuperset(run.codes) and run.finished_at is not None:
        return run
    for n, code in enumerate(run.codes):
        if code in done:
            continue
        with held():  # each notice's own re-evaluation: the run's one batch below does it
            outcome = _send_one(run, code, n)
        BulkNotice.objects.filter(pk=run.pk).update(done=run.done + 1)
        run.done += 1
        (run.sent if "action" in outcome else run.refused).append(outcome)
        BulkNotice.objects.filter(pk=run.pk).update(sent=run.sent, refused=run.refused)
    _reevaluate(run)
    BulkNotice.objects.filter(pk=run.pk).update(finished_at=timezone.now())
    run.refresh_from_db()
    return run


def _reevaluate(run: BulkNotice) -> None:
    """The establishments sent a notice by the run (by this call or one stopped before it),
    evaluated again on the run's date."""
    codes = [r["establishment"] for r in run.sent]
    ids = FoodServiceEstablishment.objects.filter(agency=run.agency, code__in=codes).values_list(
        "pk", flat=True
    )
    if codes:
        reevaluate_ids_on_commit(run.agency_id, ids, as_of=run.as_of, queued=True)


def _send_one(run: BulkNotice, code: str, n: int) -> dict[str, Any]:
    fse = FoodServiceEstablishment.objects.filter(agency=run.agency, code=code).first()
    if fse is None:
        return {"establishment": code, "reason": "no such establishment of the agency"}
    findings = list(Finding.objects.filter(establishment=fse, rule=run.rule, open=True))
    if not findings:
        return {"establishment": code, "reason": "no open finding of this rule any more"}
    try:
        with transaction.atomic():
            action = _notice(run, fse, findings, n)
    except ValidationError as e:
        return {"establishment": code, "reason": " ".join(e.messages)}
    return {"establishment": code, "case": action.case.code, "action": action.code}


def _notice(run: BulkNotice, fse, findings: list[Finding], n: int) -> EnforcementAction:
    actor = run.created_by
    case = case_from_findings(
        establishment=fse, findings=findings, opened_on=run.as_of, actor=actor
    )
    violations = list(case.violations.order_by("code"))
    return action_take(
        case=case,
        type=run.action_type,
        code=action_code(fse, run.prefix()),
        fields=run.fields,
        delivery=run.delivery,
        certified_mail_number=_certified(run.first_certified, n),
        violation=violations[0] if len(violations) == 1 else None,
        actor=actor,
    )
