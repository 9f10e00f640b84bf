"""The next steps a case's sequence offers: what the case page puts forward as forms.

This only chooses what to offer; the guards of `services` decide. A step offered from a page
gone stale is still refused there with its citation, so nothing here is a rule of law: it
reads the procedure of the pack (levels, `on_appeal`, hearing windows, appeal routes) and
what the case already holds."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from fogkeeper.rules.packs import Pack

from . import prerequisites
from .models import APPEAL, CLOSURE, HEARING, WAIVER, EnforcementAction, closure_on
from .services import HEARD, day_of

# The facts of an action type staff record from the case page, with how the page says them.
FACTS = {
    "corrected_on": "Record the correction",
    "record_requested_on": "Record the request for the record",
    "record_delivered_on": "Record the delivery of the record",
    "hearing_concluded_at": "Record that the emergency hearing concluded",
    "lateral_repaired_on": "Record the repair of the sewer lateral",
    "service_restored_on": "Record the service restored",
    "reinstated_on": "Record the service reinstated",
    "abated_on": "Record the overflow abated",
    "city_manager_hearing_concluded_on": (
        "Record that the hearing before the City Manager concluded"
    ),
    "injunction_issued_on": "Record the injunction issued",
    "judgment_entered_on": "Record the judgment entered",
    "court_decided_on": "Record the court's decision",
    "court_outcome": "Record the outcome in court",
}
# A fact offered only once the fact it follows is on record (the hearing on an appeal,
# once the appeal is).
FACT_AFTER = {"city_manager_hearing_concluded_on": "appealed_on"}


@dataclass(frozen=True)
class Step:
    """One step offered: `step` is `act` (a pack action of `type`), `hearing`, `continuance`,
    `conclude`, `waiver`, `appeal` (to `to`), `fact` (`field` of `refers_to`), `judgment`
    or `close`."""

    step: str
    type: str
    label: str
    refers_to: str = ""
    to: str = ""
    field: str = ""
    by: str = ""  # a date the step is due by, when the engine gives one
    late: bool = False  # an appeal received after its last day (recorded, and rejected)

    def query(self) -> dict[str, str]:
        keys = {"refers_to": self.refers_to, "to": self.to, "field": self.field}
        return {k: v for k, v in keys.items() if v}


def next_steps(
    pack: Pack, actions: list[EnforcementAction], deadlines: list[dict[str, Any]], as_of: date
) -> list[Step]:
    """The steps the case's sequence offers on `as_of`: `actions` the case's, in the order
    taken (with their effective fields), `deadlines` the engine's for them."""
    if closure_on(actions, as_of) is not None:
        return []
    steps = _actions(pack, actions, as_of)
    steps += _hearings(pack, actions)
    steps += _waivers(pack, actions)
    steps += _appeals(pack, actions, deadlines, as_of)
    steps += _facts(pack, actions)
    if actions:
        steps.append(Step("judgment", "court_judgment", "Record a court judgment"))
    steps.append(Step("close", CLOSURE, "Close the case (settled, withdrawn or opened in error)"))
    return steps


def _title(pack: Pack, type: str) -> str:
    spec = pack.actions.get(type)
    return spec.title if spec else type.replace("_", " ").capitalize()


def _decided(actions: list[EnforcementAction], step: EnforcementAction) -> bool:
    return any(a.refers_to_id == step.pk and a.type not in (HEARING, APPEAL) for a in actions)


def _actions(pack: Pack, actions: list[EnforcementAction], as_of: date) -> list[Step]:
    """The pack's actions whose steps are on record (RULES.md 12.1): those that decide an
    appeal or hearing at their level once per undecided one, those that follow a record
    once per record they may follow, the others always."""
    on_appeal = pack.procedure.get("on_appeal", frozenset())
    steps = []
    for type, spec in pack.actions.items():
        if type == "invoice":
            continue
        if type in on_appeal:
            steps += _on_appeal(pack, spec, actions, as_of)
        elif spec.requires:
            steps += _following(pack, spec, actions, as_of)
        else:
            steps.append(Step("act", type, spec.title))
    return steps


def _on_appeal(pack: Pack, spec, actions: list[EnforcementAction], as_of: date) -> list[Step]:
    level = pack.procedure.get("levels", {}).get(spec.type)
    steps = []
    for a in actions:
        reached = a.type in (APPEAL, HEARING) and a.level == level
        if not reached or _decided(actions, a) or a.fields.get("rejected"):
            continue
        if prerequisites.unmet(pack, spec, {}, a, actions, as_of, level or ""):
            continue
        steps.append(Step("act", spec.type, f"{spec.title} on {a.code}", refers_to=a.code))
    return steps


def _following(pack: Pack, spec, actions: list[EnforcementAction], as_of: date) -> list[Step]:
    """An action once for each record it may follow; one that needs only something in the
    case (not a record it names) once, when that is on record."""
    steps = []
    for r in spec.requires:
        level = prerequisites.level_of(pack, spec, r)
        by = f" by the {pack.level_title(level)}" if "issued_by" in r.when else ""
        if r.in_case:
            if not prerequisites.unmet(pack, spec, r.when, None, actions, as_of, level):
                steps.append(Step("act", spec.type, spec.title))
            continue
        for a in prerequisites.candidates(pack, spec, actions, as_of, level, dict(r.when)):
            if _decided_by(actions, a, spec.type):
                continue
            label = f"{spec.title}{by} on {a.code}"
            steps.append(Step("act", spec.type, label, refers_to=a.code))
    return steps


def _decided_by(actions: list[EnforcementAction], record: EnforcementAction, type: str) -> bool:
    """An action of `type` already refers to `record` or to a hearing or waiver of it."""
    related = {record.pk} | {
        a.pk for a in actions if a.refers_to_id == record.pk and a.type in (HEARING, WAIVER)
    }
    return any(a.type == type and a.refers_to_id in related for a in actions)


def waiting_steps(
    pack: Pack, actions: list[EnforcementAction], offered: list[Step], as_of: date
) -> list[tuple[str, list[str]]]:
    """The pack's actions not offered now, each with what it still needs and the section."""
    taken = {s.type for s in offered if s.step == "act"}
    out = []
    for type, spec in pack.actions.items():
        if type == "invoice" or type in taken or not spec.requires:
            continue
        needs = prerequisites.waiting(pack, spec, actions, as_of)
        if not needs:
            needs = [f"{spec.citation}: each record it may follow is already decided."]
        out.append((spec.title, needs))
    return out


def _waivers(pack: Pack, actions: list[EnforcementAction]) -> list[Step]:
    """A written waiver of the hearing on a notice whose pack allows one, while no hearing
    on it concluded and none was waived."""
    steps = []
    for notice in actions:
        spec = pack.actions.get(notice.type)
        if spec is None or spec.waiver is None or _waived(actions, notice):
            continue
        if prerequisites.heard_on(notice, actions) is not None:
            continue
        label = f"Record a written waiver of the hearing on {notice.code}"
        steps.append(Step("waiver", WAIVER, label, refers_to=notice.code))
    return steps


def _waived(actions: list[EnforcementAction], notice: EnforcementAction) -> bool:
    return any(a.type == WAIVER and a.refers_to_id == notice.pk for a in actions)


def _hearings(pack: Pack, actions: list[EnforcementAction]) -> list[Step]:
    steps = []
    for notice in actions:
        if notice.type not in HEARD or _waived(actions, notice):
            continue
        held = [a for a in actions if a.type == HEARING and a.refers_to_id == notice.pk]
        title = _title(pack, notice.type)
        if not held:
            label = f"Schedule the hearing on the {title} ({notice.code})"
            steps.append(Step("hearing", HEARING, label, refers_to=notice.code))
            continue
        last = held[-1]
        fields = notice.effective_fields()
        concluded = fields.get("hearing_concluded_on") or last.effective_fields().get(
            "concluded_on"
        )
        if concluded:
            continue
        window = pack.actions[notice.type].checks.get("hearing_window", {})
        if window.get("continuance"):
            label = f"Continue the hearing {last.code} to a later date"
            steps.append(Step("continuance", HEARING, label, refers_to=last.code))
        label = f"Record that the hearing {last.code} concluded"
        steps.append(Step("conclude", HEARING, label, refers_to=last.code))
    return steps


def _appeals(
    pack: Pack, actions: list[EnforcementAction], deadlines: list[dict[str, Any]], as_of: date
) -> list[Step]:
    """An appeal of an action by each of its deadlines marked `appeal_to` still ahead, to a
    level of the procedure (the courts keep their own docket), not yet appealed there."""
    by_code = {a.code: a for a in actions}
    sequence = pack.procedure.get("sequence", ())
    steps = []
    for d in deadlines:
        action = by_code.get(d["action"])
        if action is None or action.type not in pack.actions:
            continue
        to = pack.actions[action.type].appeal_routes().get(d["name"])
        if not to or to not in sequence or to == "court":
            continue
        if any(
            a.type == APPEAL
            and a.refers_to_id == action.pk
            and a.level == to
            and not a.fields.get("rejected")
            for a in actions
        ):
            continue
        by = str(d["date"])[:10]
        label = f"Appeal {action.code} to the {pack.level_title(to)}"
        late = day_of(d["date"]) < as_of
        if late:
            label = f"Appeal of {action.code} to the {pack.level_title(to)}, last day {by}"
            by = ""
        steps.append(Step("appeal", APPEAL, label, refers_to=action.code, to=to, by=by, late=late))
    return steps


def _facts(pack: Pack, actions: list[EnforcementAction]) -> list[Step]:
    steps = []
    for a in actions:
        spec = pack.actions.get(a.type)
        if spec is None:
            continue
        fields = a.effective_fields()
        for name, label in FACTS.items():
            after = FACT_AFTER.get(name)
            if name in spec.fields and not fields.get(name) and (not after or fields.get(after)):
                label = f"{label} ({a.code})"
                steps.append(Step("fact", a.type, label, refers_to=a.code, field=name))
        for m in fields.get("milestones") or []:
            if not m.get("met_on"):
                field = f"milestones.{m['id']}.met_on"
                label = f"Record milestone {m['id']} of {a.code} met"
                step = Step("fact", a.type, label, refers_to=a.code, field=field, by=m["due"])
                steps.append(step)
    return steps
