"""What the writes of enforcement share: the action put in a minimal case file for the engine
to evaluate (so no rule is written twice), the checks of a penalty against its class cap
and of a hearing date against its window, the audit row and the action's letter."""

from __future__ import annotations

import hashlib
import importlib
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from fogkeeper.audit.services import audit_record
from fogkeeper.formats import unit_one
from fogkeeper.registry.models import FoodServiceEstablishment
from fogkeeper.registry.services import Actor, Errors, add_error
from fogkeeper.rules import evaluate
from fogkeeper.rules.packs import Pack
from fogkeeper.rules.report import Deadline

from ..models import APPEAL, HEARING, EnforcementAction, Letter
from ..selectors import engine_entry

HEARD = ("suspension_notice", "revocation_notice", "administrative_complaint")


def plain_fields(value: Any) -> Any:
    """An action's fields as JSON keeps them: dates as ISO text, decimals as text, no blanks."""
    if isinstance(value, date | datetime):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, dict):
        return {k: plain_fields(v) for k, v in value.items() if v is not None}
    if isinstance(value, list | tuple):
        return [plain_fields(v) for v in value]
    return value


def day_of(value: Any) -> date:
    """The day of a date, a date-time, or their ISO text."""
    if isinstance(value, str):
        value = datetime.fromisoformat(value) if "T" in value else date.fromisoformat(value)
    return value.date() if isinstance(value, datetime) else value


def check_done(errors: Errors, establishment: FoodServiceEstablishment, **acts: Any) -> None:
    """Acts are dated on or before the day they are recorded, today in the agency's time
    zone; only planned dates (a hearing, a correct-by date) may lie ahead (RULES.md 12.5)."""
    today = establishment.agency.today()
    for field, value in acts.items():
        if value in (None, ""):
            continue
        day = day_of(value)
        if day > today:
            add_error(
                errors,
                field,
                f"{day} is after today ({today}): an act is recorded once it is done; only a "
                "planned date, such as a hearing's, may lie ahead.",
            )


def acts_of(spec, fields: dict[str, Any]) -> dict[str, Any]:
    """The fields of `fields` that date an act (kind date or datetime), by name."""
    return {
        name: fields.get(name)
        for name, f in spec.fields.items()
        if f.kind in ("date", "datetime") and fields.get(name)
    }


def _audit(what: str, obj: Any, establishment: FoodServiceEstablishment, actor: Actor) -> None:
    audit_record(action=f"enforcement.{what}", obj=obj, actor=actor, agency=establishment.agency)


def _minimal_case(establishment: FoodServiceEstablishment, entry: dict, as_of: date) -> dict:
    """The action alone in a case file; a field naming another action (an order's
    `appeal_of`) is left out, as that action is not in this file."""
    opened = establishment.opened_on.isoformat()
    spec = establishment.agency.get_pack().actions.get(entry.get("type"))
    if spec is not None:
        entry = {
            k: v
            for k, v in entry.items()
            if k not in spec.fields or spec.fields[k].kind != "action"
        }
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
    """The amount against the class cap in force on `on` (Pack.penalty_cap), times the
    quantity in the cap's unit (`days`, `occurrences`, `gallons` or `violation_days`,
    RULES 11.14)."""
    cap = pack.penalty_cap(cls, on)
    if cap is None:
        return f"{cls!r} is not a penalty class of {pack.id}."
    quantity = quantities.get(cap.per) or 0
    if cap.exceeded_by(amount, quantity):
        return (
            f"{cap.reference}: a {cls} penalty may not exceed ${cap.amount:,} "
            f"a {unit_one(cap.per)} × {quantity} = ${cap.maximum(quantity):,} "
            f"(asked ${Decimal(str(amount)):,})."
        )
    return None


def _court_class_problem(pack: Pack, cls: Any, on: date) -> str | None:
    """A penalty order imposes only a class the pack gives to administrative orders; a
    court class (`judicial`) is the court's (RULES 11.3)."""
    cap = pack.penalty_cap(cls, on) if cls in pack.court_classes() else None
    if cap is None:
        return None
    allowed = ", ".join(sorted(pack.administrative_classes()))
    return (
        f"{cap.reference}: {cls} penalties are imposed by a court, not by a penalty order "
        f"(its classes: {allowed})."
    )


def _check_hearing(errors: Errors, pack: Pack, entry: dict, deadlines, hearing_on: date) -> None:
    """The hearing date against the window the engine gives the notice (its `hearing`
    earliest and deadline entries)."""
    earliest = next((d for d in deadlines if d.name == "hearing" and d.kind == "earliest"), None)
    latest = next((d for d in deadlines if d.name == "hearing" and d.kind == "deadline"), None)
    spec = pack.actions[entry["type"]]
    citation = spec.checks.get("hearing_window", {}).get("citation") or spec.citation
    if earliest is not None and hearing_on < day_of(earliest.date):
        add_error(
            errors,
            "hearing_on",
            f"{earliest.citation}: the hearing may not be held before {day_of(earliest.date)} "
            f"(asked {hearing_on}).",
        )
    if latest is not None and hearing_on > day_of(latest.date):
        add_error(
            errors,
            "hearing_on",
            f"{latest.citation or citation}: the hearing must be held by {day_of(latest.date)} "
            f"(asked {hearing_on}).",
        )


def _render_letter(action: EnforcementAction, deadlines: list[Deadline]) -> None:
    """The letter of an action that sends one, stored byte for byte (when letters exist):
    a hearing's notice, or an action its pack marks `letter: true`; signed by whoever took
    the action."""
    if not sends_letter(action.establishment.agency.get_pack(), action.type, action.fields):
        return
    try:
        letters = importlib.import_module("fogkeeper.enforcement.letters")
    except ModuleNotFoundError as e:
        if e.name != "fogkeeper.enforcement.letters":
            raise
        return
    pdf = letters.render_action_letter(action, deadlines, signer=action.taken_by)
    Letter.objects.create(action=action, pdf=pdf, sha256=hashlib.sha256(pdf).hexdigest())


def sends_letter(pack: Pack, action_type: str, fields: dict | None = None) -> bool:
    """A hearing's notice, an action its pack marks `letter: true`, and the rejection of an
    appeal received after its last day (RULES.md 12.7)."""
    if action_type == APPEAL:
        return bool((fields or {}).get("rejected"))
    spec = pack.actions.get(action_type)
    return action_type == HEARING or (spec is not None and spec.letter)
