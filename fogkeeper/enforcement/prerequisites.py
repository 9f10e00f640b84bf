"""What must be on record before an action (RULES.md 12.1), as each pack declares it in the
`requires:` of its action types: the services refuse an action whose steps are missing, and
the case page offers only the actions whose steps are on record, saying what the others
still need. Nothing here spells a rule of an ordinance: it reads the pack.

An action refers to what it decides or follows (`refers_to`): a notice or complaint, the
hearing on one (which stands for its notice), a written waiver of that hearing, or an
appeal. A requirement holds when that record is of a type the pack names, was taken on or
before the action, and — when the pack says `heard` — its hearing concluded or was waived
on or before the action."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from typing import Any

from fogkeeper.rules.packmodel import ActionSpec, Requirement
from fogkeeper.rules.packs import Pack

from .models import APPEAL, HEARING, WAIVER, EnforcementAction
from .services.shared import day_of

STANDS_FOR_ITS_NOTICE = (HEARING, WAIVER)


@dataclass(frozen=True)
class Unmet:
    """A requirement not on record, in words: what is missing and the section."""

    requirement: Requirement
    reason: str

    def message(self) -> str:
        return f"{self.requirement.citation}: {self.reason}"


def act_date(spec: ActionSpec, fields: dict[str, Any], default: date) -> date:
    value = fields.get(spec.date_field)
    return day_of(value) if value else default


def unmet(
    pack: Pack,
    spec: ActionSpec,
    fields: dict[str, Any],
    refers_to: EnforcementAction | None,
    case_actions: Iterable[EnforcementAction],
    on: date,
    level: str | None = "",
) -> list[Unmet]:
    """The requirements of `spec` not on record for an action with `fields`, referring to
    `refers_to`, taken on `on`, in a case holding `case_actions`."""
    actions = list(case_actions)
    out = []
    for r in spec.requires:
        if not r.applies(fields):
            continue
        reason = _reason(pack, spec, r, refers_to, actions, on, level)
        if reason:
            out.append(Unmet(r, reason))
    return out


def candidates(
    pack: Pack,
    spec: ActionSpec,
    case_actions: Iterable[EnforcementAction],
    on: date,
    level: str | None = "",
    fields: dict[str, Any] | None = None,
) -> list[EnforcementAction]:
    """The records of the case an action of `spec` could refer to on `on` and meet every
    requirement that names one (the case page offers the action once for each)."""
    actions = list(case_actions)
    fields = fields or {}
    named = [r for r in spec.requires if not r.in_case and r.applies(fields)]
    if not named:
        return []
    out = []
    for a in actions:
        if a.type not in named[0].types:
            continue
        if all(not _reason(pack, spec, r, a, actions, on, level) for r in named):
            out.append(a)
    return out


def _reason(
    pack: Pack,
    spec: ActionSpec,
    r: Requirement,
    refers_to: EnforcementAction | None,
    actions: list[EnforcementAction],
    on: date,
    level: str | None,
) -> str:
    """Why `r` is not met (empty when it is)."""
    if r.in_case:
        found = [a for a in actions if a.type in r.types and a.taken_on <= on]
        if not found:
            return f"{_needs(spec, r)}; none is on record in this case."
        reasons = [_follows(pack, spec, r, a, actions, on) for a in found]
        return "" if "" in reasons else reasons[-1]
    if refers_to is None:
        return f"{_needs(spec, r)}; name the record it follows."
    if "appeal" in r.types and refers_to.type == APPEAL:
        return _appeal_reason(pack, spec, r, refers_to, on, level)
    notice = refers_to.refers_to if refers_to.type in STANDS_FOR_ITS_NOTICE else refers_to
    if notice is None or notice.type not in r.types:
        return f"{_needs(spec, r)}; {refers_to.code} is not one."
    return _follows(pack, spec, r, notice, actions, on)


def _follows(
    pack: Pack,
    spec: ActionSpec,
    r: Requirement,
    notice: EnforcementAction,
    actions: list[EnforcementAction],
    on: date,
) -> str:
    if notice.taken_on > on:
        return (
            f"{notice.code} was taken on {notice.taken_on}; the {spec.title} is not dated "
            "before it."
        )
    if r.past:
        due = notice.effective_fields().get(r.past)
        if not due:
            return f"{_needs(spec, r)}; {notice.code} records no {r.past.replace('_', ' ')}."
        if day_of(due) >= on:
            return (
                f"{_needs(spec, r)}; the time {notice.code} gave runs to {day_of(due)}, so the "
                f"{spec.title} comes after that day (asked {on})."
            )
    if r.heard:
        heard = heard_on(notice, actions)
        if heard is None:
            return (
                f"{_needs(spec, r)}; the hearing on {notice.code} has not concluded and was not "
                "waived."
            )
        if heard > on:
            return (
                f"the hearing on {notice.code} concluded or was waived on {heard}; the "
                f"{spec.title} is dated on or after that day (asked {on})."
            )
    return ""


def _appeal_reason(
    pack: Pack,
    spec: ActionSpec,
    r: Requirement,
    appeal: EnforcementAction,
    on: date,
    level: str | None,
) -> str:
    if appeal.fields.get("rejected"):
        return f"the appeal {appeal.code} was rejected as late; it is decided by no order."
    if level and appeal.level != level:
        return (
            f"{_needs(spec, r)}; {appeal.code} is an appeal to the "
            f"{pack.level_title(appeal.level)}."
        )
    appealed = appeal.refers_to
    if r.of and (appealed is None or appealed.type not in r.of):
        titles = " or ".join(pack.actions[t].title for t in r.of if t in pack.actions)
        return f"{_needs(spec, r)}; {appeal.code} is not an appeal of a {titles}."
    if appeal.taken_on > on:
        return f"the appeal {appeal.code} was filed on {appeal.taken_on}; it is not decided before."
    return ""


def _needs(spec: ActionSpec, r: Requirement) -> str:
    return f"the {spec.title} needs {r.what}"


def heard_on(notice: EnforcementAction, actions: Iterable[EnforcementAction]) -> date | None:
    """The day the hearing on `notice` concluded or was waived in writing, if either is on
    record: the notice's own `hearing_concluded_on`/`_at`, a hearing's `concluded_on`, or a
    waiver's `waived_on` (the earliest)."""
    days = []
    fields = notice.effective_fields()
    for name in ("hearing_concluded_on", "hearing_concluded_at"):
        if fields.get(name):
            days.append(day_of(fields[name]))
    for a in actions:
        if a.refers_to_id != notice.pk:
            continue
        if a.type == HEARING and a.effective_fields().get("concluded_on"):
            days.append(day_of(a.effective_fields()["concluded_on"]))
        elif a.type == WAIVER:
            days.append(day_of(a.fields["waived_on"]))
    return min(days, default=None)


def level_of(pack: Pack, spec: ActionSpec, r: Requirement) -> str:
    """The level an action meeting `r` is taken at: its `when`'s `issued_by`, else the
    level the procedure gives its type."""
    return str(r.when.get("issued_by") or pack.procedure.get("levels", {}).get(spec.type, ""))


def waiting(
    pack: Pack, spec: ActionSpec, case_actions: Iterable[EnforcementAction], on: date
) -> list[str]:
    """What each form of an action of `spec` still needs on `on`, in words with the section
    (empty when some form of it may be taken)."""
    actions = list(case_actions)
    out = []
    for r in spec.requires:
        level = level_of(pack, spec, r)
        found = [a for a in actions if a.type in r.types and a.taken_on <= on]
        if r.in_case:
            reason = _reason(pack, spec, r, None, actions, on, level)
        elif not found:
            reason = f"{_needs(spec, r)}; none is on record in this case."
        else:
            reasons = [_reason(pack, spec, r, a, actions, on, level) for a in found]
            reason = "" if "" in reasons else reasons[-1]
        if not reason:
            return []
        out.append(Unmet(r, reason).message())
    return out
