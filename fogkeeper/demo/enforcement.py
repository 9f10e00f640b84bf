"""The enforcement and money of the demo programs: for each agency, one enforcement case
with its letters, a fee schedule, and invoices (one paid, one not), taken through the same
services staff use, so the guards and the audit trail apply, each act in the order its
section sets. The fees and the case's steps are the pack's written program's (`enforcement`,
written.py); a pack without them gets no money, and its case takes the first of the
pack's actions that sends a letter and needs nothing before it, its fields filled from their
kinds."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError

from .written import section


def _subject(fse) -> str:
    device = fse.devices.order_by("code").first()
    return device.code if device is not None else fse.code


def _overdue(fses, as_of: date, by: date):
    """The first of `fses` whose pump-out the engine finds overdue on `as_of`, since `by` or
    earlier, so that the case is about a violation the sweep finds: (establishment, device,
    since)."""
    from fogkeeper.compliance.casefiles.as_json import build_case_files
    from fogkeeper.rules import evaluate, parse_case

    if not fses:
        return None
    cases = build_case_files(fses[0].agency, [f.pk for f in fses], as_of)
    for fse in fses:
        for finding in evaluate(parse_case(cases[fse.pk])).open_violations():
            if finding.rule == "gcd.service_overdue" and finding.since <= by:
                return fse, finding.subject, finding.since
    return None


def load_enforcement(agency, *, as_of: date, staff) -> None:
    from fogkeeper.enforcement.services import case_open, violation_add

    pack = agency.get_pack()
    open_fses = list(
        agency.establishments.filter(
            closed_on__isnull=True, on_public_sewer=True, category=pack.default_category
        ).order_by("code")
    )
    if len(open_fses) < 2:
        return
    before = lambda days: as_of - timedelta(days=days)  # noqa: E731
    steps = section(pack.id, "enforcement").get("steps") or []
    span = max((s["day"] + max(_days(s).values(), default=0) for s in steps), default=0) + 10
    fse, subject, since = _overdue(open_fses, as_of, before(span)) or (
        open_fses[0],
        _subject(open_fses[0]),
        before(max(90, span)),
    )
    other = next(f for f in open_fses if f != fse)
    after = lambda days: min(since + timedelta(days=days), as_of)  # noqa: E731
    case = case_open(establishment=fse, code="EC-1", opened_on=after(3), actor=staff)
    violation = None
    if pack.has("gcd.service_overdue"):
        violation = violation_add(
            case=case,
            code="V-1",
            rule="gcd.service_overdue",
            subject=subject,
            since=since,
            actor=staff,
        )
    if steps:
        _steps(case, violation, steps, after, staff)
    else:
        _first_letter(pack, case, violation, after, staff)
    fees = section(pack.id, "enforcement")
    if fees.get("fees"):
        _money(agency, pack, fse, other, before, staff, fees)


def _days(step: dict) -> dict[str, int]:
    """The step's fields and facts given in days after the step's day."""
    days = {k: v for k, v in (step.get("fields") or {}).items() if isinstance(v, int)}
    if "concluded" in step:
        days["concluded"] = step["concluded"]
    return days


def _steps(case, violation, steps: list[dict], after, staff) -> None:
    """The demo case's steps in the order the pack's written program lists them
    (`enforcement.steps`), each through the service staff use: an action of the pack
    (`act`), a hearing on a notice (`hearing`, `concluded` that many days after the step's
    day) or a written waiver of one (`waiver`). Days count from the violation's."""
    from fogkeeper.enforcement.models import EnforcementAction
    from fogkeeper.enforcement.services import action_take, hearing_conclude, hearing_schedule

    for step in steps:
        day = after(step["day"])
        fields = {
            k: (day + timedelta(days=v) if isinstance(v, int) else v)
            for k, v in (step.get("fields") or {}).items()
        }
        on = step.get("refers_to") or step.get("hearing")
        refers_to = EnforcementAction.objects.get(case=case, code=on) if on else None
        mail = {"delivery": "mail", "certified_mail_number": step["certified_mail_number"]}
        if "act" in step:
            action_take(
                case=case,
                type=step["act"],
                code=step["code"],
                violation=violation,
                fields=fields,
                refers_to=refers_to,
                actor=staff,
                **(mail if "certified_mail_number" in step else {}),
            )
        elif "hearing" in step:
            assert refers_to is not None  # a hearing is on a notice
            hearing = hearing_schedule(
                notice=refers_to,
                code=step["code"],
                noticed_on=day,
                actor=staff,
                hearing_on=fields["hearing_on"],
                place=fields.get("place", ""),
                **mail,
            )
            if "concluded" in step:
                concluded = day + timedelta(days=step["concluded"])
                hearing_conclude(hearing=hearing, concluded_on=concluded, actor=staff)
        else:
            raise ValueError(f"a demo enforcement step is an act or a hearing: {step}")


def _first_letter(pack, case, violation, after, staff) -> None:
    """The demo case's first action, when the pack's written program names no steps: the
    first action of the pack that sends a letter and needs nothing on record before it."""
    from fogkeeper.enforcement.services import action_take

    for spec in _letter_actions(pack):
        if spec.requires:
            continue
        try:
            action_take(
                case=case,
                type=spec.type,
                code=f"{_initials(spec.type)}-1",
                violation=violation,
                fields=_filled(pack, spec, after(5)),
                delivery="mail",
                certified_mail_number="7019 0700 0000 4412 0003",
                actor=staff,
            )
        except ValidationError:
            continue  # its fields need more than a demo fills in: the next one
        return


def _letter_actions(pack) -> list:
    from fogkeeper.enforcement import services

    return [s for t, s in pack.actions.items() if services.sends_letter(pack, t)]


def _initials(action_type: str) -> str:
    return "".join(w[0] for w in action_type.split("_")).upper()


def _filled(pack, spec, day: date) -> dict[str, Any]:
    """The action's required fields, each with a plausible value for its kind (not a date
    the law sets, which the service fills: a deadline's `fills`)."""
    classes = getattr(pack, "administrative_classes", pack.penalty_classes)()
    by_law = {d.fills for d in spec.deadlines if d.fills}
    fields: dict[str, Any] = {}
    for name, f in spec.fields.items():
        if not f.required or name in by_law:
            continue
        if f.kind == "penalty_class" and classes:
            cls, unit = next(iter(classes.items()))
            fields[name] = cls
            if unit in spec.fields:
                fields[unit] = 1
            continue
        value = {
            "date": day,
            "planned_date": day + timedelta(days=30),
            "datetime": f"{day + timedelta(days=20)}T10:00:00",
            "money": "100.00",
            "flag": False,
            "choice": f.choices[0] if f.choices else "",
            "count": 1,
            "quantity": 1,
            "text": "Demo",
        }.get(f.kind)
        if value is not None:
            fields.setdefault(name, value)
    return fields


def _money(agency, pack, fse, other, before, staff, written: dict) -> None:
    """The fee schedule of the pack's written program, an invoice of its `invoiced` fees
    paid, and money owed on the case."""
    from fogkeeper.billing.services import fee_schedule_set, invoice_issue, payment_record

    items = [
        {**item, "amount": None if item["amount"] is None else Decimal(item["amount"])}
        for item in written["fees"]
    ]
    fee_schedule_set(
        agency=agency,
        effective_on=pack.effective,
        items=items,
        resolution="Demo fee resolution",
        actor=staff,
    )
    fees = written["invoiced"]
    paid = invoice_issue(
        establishment=other,
        code="INV-1",
        kind="fee",
        noticed_on=before(200),
        fees=fees,
        actor=staff,
    )
    payment_record(
        invoice=paid,
        paid_on=before(180),
        amount=paid.total(),
        method="check",
        reference="4471",
        today=before(0),
        actor=staff,
    )
    invoice_issue(
        establishment=fse,
        code="INV-2",
        kind="fee",
        noticed_on=before(60),
        fees=fees,
        actor=staff,
    )
