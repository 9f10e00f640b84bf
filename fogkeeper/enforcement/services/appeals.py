"""Appeals of an action to the level its pack routes it to, by the engine's deadline."""

from __future__ import annotations

from datetime import date

from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile

from fogkeeper.reevaluation import reevaluate_on_commit
from fogkeeper.registry.services import Actor, Errors, add_error, refuse
from fogkeeper.rules.packs import Pack
from fogkeeper.uploads import Kept, document_kind

from ..models import APPEAL, EnforcementAction
from .actions import _save_action
from .shared import _engine_deadlines, _entry, check_done, day_of

WRITTEN_APPEAL = Kept("document", "The written appeal", "is", "The written appeal's", 20)


def appeal_file(
    *,
    appealed: EnforcementAction,
    code: str,
    filed_on: date,
    to: str,
    appellant: str = "",
    grounds: str = "",
    document: UploadedFile | None = None,
    actor: Actor = None,
) -> EnforcementAction:
    """An appeal of `appealed` to the level `to`, by one of the deadlines its pack marks
    `appeal_to: <level>`, with who appealed, the grounds and the written appeal; refused to a
    level the pack does not route it to. An appeal filed after that deadline is received and
    rejected as late, with its letter citing the deadline, and changes no date of the action
    appealed (RULES.md 12.7); a late petition to the court is the court's to reject, and is
    refused here. One filed in time that suspends the action's finality (its pack
    `appeal:`, RULES 11.4) is recorded on it as a fact (`appealed_on`)."""
    establishment = appealed.establishment
    pack = establishment.agency.get_pack()
    errors: Errors = {}
    spec = pack.actions.get(appealed.type)
    if spec is None:
        add_error(errors, "appealed", f"Out of sequence: a {appealed.type} is not appealed.")
        refuse(errors)
    deadline = _deadline_to(pack, spec, appealed, filed_on, to)
    if deadline is None:
        where = _appeal_levels(pack, appealed, filed_on)
        add_error(
            errors,
            "to",
            f"Out of sequence: a {appealed.type} ({appealed.code}) is appealed to "
            f"{where or 'nowhere'}, not to {to}.",
        )
        refuse(errors)
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
    if document is not None:
        try:
            document_kind(document, WRITTEN_APPEAL)
        except ValidationError as e:
            for field, texts in e.message_dict.items():
                for text in texts:
                    add_error(errors, field, text)
    last_day = day_of(deadline.date)
    late = filed_on > last_day
    if late and to == "court":  # the court, not the agency, receives a petition for review
        add_error(
            errors,
            "filed_on",
            f"{deadline.citation}: the {deadline.name.replace('_', ' ')} of {appealed.code} "
            f"was due by {last_day} (filed {filed_on}).",
        )
    facts = []
    if not late and spec.appeal is not None and spec.appeal["deadline"] == deadline.name:
        facts.append((appealed, spec.appeal["filed"], filed_on))
    fields = {"filed_on": filed_on.isoformat(), "to": to, "deadline": deadline.name}
    fields.update(
        {k: v.strip() for k, v in (("appellant", appellant), ("grounds", grounds)) if v.strip()}
    )
    if late:
        fields.update(rejected="late", last_day=last_day.isoformat())
    appeal = EnforcementAction(
        case=appealed.case,
        establishment=establishment,
        code=code,
        type=APPEAL,
        level=to,
        taken_on=filed_on,
        cites=deadline.citation,
        fields=fields,
        refers_to=appealed,
        violation=appealed.violation,
    )
    if document is not None and not errors:
        appeal.document = document
    _save_action(appeal, errors, actor, [], facts)
    reevaluate_on_commit(appealed.establishment)
    return appeal


def _deadline_to(pack: Pack, spec, appealed: EnforcementAction, filed_on: date, to: str):
    """The engine's deadline to appeal `appealed` to `to`, or None when none routes there."""
    routes = spec.appeal_routes()
    if to not in routes.values():
        return None
    on = max(filed_on, appealed.taken_on)
    for d in _engine_deadlines(appealed.establishment, _entry(appealed, pack), on):
        if d.action == appealed.code and routes.get(d.name) == to:
            return d
    return None


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
    """An appeal of `appealed` to `to` already on record and not rejected as late."""
    return (
        EnforcementAction.objects.filter(type=APPEAL, refers_to=appealed, level=to)
        .exclude(fields__has_key="rejected")
        .order_by("taken_on", "pk")
        .first()
    )
