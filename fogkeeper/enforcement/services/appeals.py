"""Appeals of an action to the level its pack routes it to, by the engine's deadline."""

from __future__ import annotations

from datetime import date

from fogkeeper.registry.services import Actor, Errors, add_error, refuse
from fogkeeper.rules.packs import Pack

from ..models import APPEAL, EnforcementAction
from .actions import _save_action
from .shared import _engine_deadlines, _entry, check_done, day_of


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
    if filed_on > day_of(deadline.date):
        add_error(
            errors,
            "filed_on",
            f"{deadline.citation}: the {deadline.name.replace('_', ' ')} of {appealed.code} "
            f"was due by {day_of(deadline.date)} (filed {filed_on}).",
        )
    check_done(errors, establishment, filed_on=filed_on)
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
