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

from .models import APPEAL, HEARING, EnforcementAction
from .services import HEARD, day_of

# The facts of an action type staff record from the case page, with how the page says them.
FACTS = {
    "corrected_on": "Record the correction",
    "record_requested_on": "Record the request for the record",
    "record_delivered_on": "Record the delivery of the record",
    "hearing_concluded_at": "Record that the emergency hearing concluded",
}


@dataclass(frozen=True)
class Step:
    """One step offered: `step` is `act` (a pack action of `type`), `hearing`, `continuance`,
    `conclude`, `appeal` (to `to`), `fact` (`field` of `refers_to`) or `judgment`."""

    step: str
    type: str
    label: str
    refers_to: str = ""
    to: str = ""
    field: str = ""
    by: str = ""  # a date the step is due by, when the engine gives one

    def query(self) -> dict[str, str]:
        keys = {"refers_to": self.refers_to, "to": self.to, "field": self.field}
        return {k: v for k, v in keys.items() if v}


def next_steps(
    pack: Pack, actions: list[EnforcementAction], deadlines: list[dict[str, Any]], as_of: date
) -> list[Step]:
    """The steps the case's sequence offers on `as_of`: `actions` the case's, in the order
    taken (with their effective fields), `deadlines` the engine's for them."""
    steps = _actions(pack, actions)
    steps += _hearings(pack, actions)
    steps += _appeals(pack, actions, deadlines, as_of)
    steps += _facts(pack, actions)
    if actions:
        steps.append(Step("judgment", "court_judgment", "Record a court judgment"))
    return steps


def _title(pack: Pack, type: str) -> str:
    spec = pack.actions.get(type)
    return spec.title if spec else type.replace("_", " ").capitalize()


def _decided(actions: list[EnforcementAction], step: EnforcementAction) -> bool:
    return any(a.refers_to_id == step.pk and a.type not in (HEARING, APPEAL) for a in actions)


def _actions(pack: Pack, actions: list[EnforcementAction]) -> list[Step]:
    """The pack's actions: those that decide an appeal or hearing at their level once per
    undecided one; an emergency decision after an emergency suspension; the others always."""
    levels = pack.procedure.get("levels", {})
    on_appeal = pack.procedure.get("on_appeal", frozenset())
    types = {a.type for a in actions}
    steps = []
    for type, spec in pack.actions.items():
        if type == "invoice":
            continue
        if type == "emergency_decision" and "emergency_suspension" not in types:
            continue
        if type not in on_appeal:
            steps.append(Step("act", type, spec.title))
            continue
        for a in actions:
            reached = (a.type == APPEAL and a.level == levels.get(type)) or (
                a.type == HEARING and a.level == levels.get(type)
            )
            if reached and not _decided(actions, a):
                steps.append(Step("act", type, f"{spec.title} on {a.code}", refers_to=a.code))
    if "penalty_order" in pack.actions:
        steps += _council_orders(pack, actions)
    return steps


def _council_orders(pack: Pack, actions: list[EnforcementAction]) -> list[Step]:
    """A penalty order of the council on an appeal to it, once per appeal."""
    ordered = {a.refers_to_id for a in actions if a.type == "penalty_order"}
    return [
        Step("act", "penalty_order", f"{_title(pack, 'penalty_order')} on {a.code}",
             refers_to=a.code)
        for a in actions
        if a.type == APPEAL and a.level == "council" and a.pk not in ordered
    ]  # fmt: skip


def _hearings(pack: Pack, actions: list[EnforcementAction]) -> list[Step]:
    steps = []
    for notice in actions:
        if notice.type not in HEARD:
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
        if not to or to not in sequence or to == "court" or day_of(d["date"]) < as_of:
            continue
        if any(a.type == APPEAL and a.refers_to_id == action.pk and a.level == to for a in actions):
            continue
        label = f"Appeal {action.code} to the {pack.level_title(to)}"
        by = str(d["date"])[:10]
        steps.append(Step("appeal", APPEAL, label, refers_to=action.code, to=to, by=by))
    return steps


def _facts(pack: Pack, actions: list[EnforcementAction]) -> list[Step]:
    steps = []
    for a in actions:
        spec = pack.actions.get(a.type)
        if spec is None:
            continue
        fields = a.effective_fields()
        for name, label in FACTS.items():
            if name in spec.fields and not fields.get(name):
                label = f"{label} ({a.code})"
                steps.append(Step("fact", a.type, label, refers_to=a.code, field=name))
        for m in fields.get("milestones") or []:
            if not m.get("met_on"):
                field = f"milestones.{m['id']}.met_on"
                label = f"Record milestone {m['id']} of {a.code} met"
                step = Step("fact", a.type, label, refers_to=a.code, field=field, by=m["due"])
                steps.append(step)
    return steps
