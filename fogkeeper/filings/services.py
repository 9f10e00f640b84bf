"""Writes of requests: an operator files one of the kinds its pack declares; staff answer it
once (grant or deny with reasons, deliver the record with its cost, acknowledge data
received). A granted change of frequency is written, in the same transaction, onto the record
the engine reads (the device's frequency from the day decided; the permit revised, and its
notice sent, through permits.permit_modify), and the establishment is evaluated again."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction

from fogkeeper.audit.services import snapshot
from fogkeeper.enforcement.models import EnforcementAction
from fogkeeper.locks import hold_row
from fogkeeper.permits.selectors import establishment_current_permit
from fogkeeper.permits.services.modifications import modification_notice, permit_modify
from fogkeeper.reevaluation import reevaluate_on_commit
from fogkeeper.registry.devices import allowed_frequencies, device_frequency_set
from fogkeeper.registry.models import FoodServiceEstablishment, GreaseControlDevice
from fogkeeper.registry.services import (
    Actor,
    Errors,
    add_error,
    audit,
    check_not_future,
    check_order,
    check_positive,
    refuse,
)
from fogkeeper.rules.requests import ASKS, PERMIT_TERMS, RequestKind

from .kinds import due_on, request_kind
from .models import Filing

ANSWERED = {"decide": ("granted", "denied"), "acknowledge": ("acknowledged",)}


def _about(errors: Errors, kind: RequestKind, fse, device, hearing) -> dict:
    """The record the request is about, checked to be the establishment's own."""
    if kind.about == "device":
        if device is None or device.establishment_id != fse.pk or device.removed_on:
            add_error(errors, "device", "Choose one of the establishment's devices.")
        return {"device": device}
    if kind.about == "hearing":
        if hearing is None or hearing.establishment_id != fse.pk or hearing.type != "hearing":
            add_error(errors, "hearing", "Choose a hearing of the establishment's cases.")
        return {"hearing": hearing}
    permit = establishment_current_permit(establishment=fse)
    if permit is None:
        add_error(errors, "permit", f"{fse.name} holds no permit in force to change.")
    return {"permit": permit}


def _check_frequency(errors: Errors, kind: RequestKind, fse, days: int | None, on: date) -> None:
    """A whole number of days; for a grease control device's frequency, one the pack allows
    to assign (the Town's 10.02.130(B))."""
    check_positive(errors, frequency_days=days)
    if kind.granted not in ("device_frequency", "permit_frequency"):
        return
    pack = fse.agency.get_pack()
    allowed = allowed_frequencies(pack, on)
    if days is not None and allowed and days not in allowed[0]:
        listed = ", ".join(str(n) for n in allowed[0])
        add_error(errors, "frequency_days", f"{pack.name} assigns {listed} days ({allowed[1]}).")


def _check_asked(errors: Errors, kind: RequestKind, values: dict) -> None:
    for name in kind.asks:
        if values.get(name) in (None, ""):
            add_error(errors, name, f"{ASKS[name]}: required ({kind.citation}).")


def filing_submit(
    *,
    establishment: FoodServiceEstablishment,
    kind: str,
    filed_on: date,
    device: GreaseControlDevice | None = None,
    hearing: EnforcementAction | None = None,
    frequency_days: int | None = None,
    grounds: str = "",
    accumulation: str = "",
    today: date | None = None,
    actor: Actor = None,
) -> Filing:
    """A request of `kind` (a key of the pack's requests.yaml) filed for `establishment` on
    `filed_on`, about its device, its permit or one of its hearings as the kind says; its
    delivery due date, where the ordinance sets one, counted from the day filed."""
    pack = establishment.agency.get_pack()
    found = request_kind(pack, kind)
    if found is None:
        refuse({"kind": [f"{pack.name} declares no request {kind!r}."]})
    assert found is not None
    errors: Errors = {}
    values = {
        "frequency_days": frequency_days,
        "grounds": grounds.strip(),
        "accumulation": accumulation.strip(),
    }
    _check_asked(errors, found, values)
    if "frequency_days" in found.asks:
        _check_frequency(errors, found, establishment, frequency_days, filed_on)
    check_not_future(errors, today, filed_on=filed_on)
    about = _about(errors, found, establishment, device, hearing)
    refuse(errors)
    filing = Filing(
        establishment=establishment,
        kind=kind,
        filed_on=filed_on,
        filed_by=actor,
        due_on=due_on(pack, found, filed_on),
        **{k: v for k, v in values.items() if k in found.asks},
        **about,
    )
    with transaction.atomic():
        filing.full_clean()
        filing.save()
        audit("filing.submit", filing, actor)
    return filing


def _open(errors: Errors, filing: Filing, on: date, today: date | None) -> None:
    if not filing.is_open:
        add_error(
            errors, "outcome", f"This request was answered on {filing.decided_on}: file anew."
        )
    check_order(errors, "decided_on", on, filing.filed_on, "the request")
    check_not_future(errors, today, decided_on=on)


def filing_decide(
    *,
    filing: Filing,
    outcome: str,
    decided_on: date,
    reasons: str = "",
    frequency_days: int | None = None,
    today: date | None = None,
    actor: Actor = None,
) -> Filing:
    """Grant or deny the request (or acknowledge the data submitted), with reasons; a grant
    of a change of frequency (`frequency_days`, the one requested unless staff grant another)
    takes effect on the record the engine reads from `decided_on`."""
    kind = _kind_of(filing)
    errors: Errors = {}
    if outcome not in ANSWERED.get(kind.answer, ()):
        add_error(errors, "outcome", f"A {kind.title.lower()} is not {outcome or 'left'} so.")
    if outcome == "denied" and not reasons.strip():
        add_error(errors, "reasons", "Say why the request is denied.")
    days = frequency_days or filing.frequency_days
    if outcome == "granted" and kind.granted:
        _check_frequency(errors, kind, filing.establishment, days, decided_on)
    _open(errors, filing, decided_on, today)
    refuse(errors)
    with transaction.atomic():
        hold_row(filing)
        before = snapshot(filing)
        filing.outcome, filing.decided_on, filing.decided_by = outcome, decided_on, actor
        filing.reasons = reasons.strip()
        if outcome == "granted" and kind.granted:
            filing.granted_frequency_days = days
            _grant(filing, kind, days, today or decided_on, actor)
        filing.full_clean()
        filing.save()
        audit("filing.decide", filing, actor, before=before)
    reevaluate_on_commit(filing.establishment)
    return filing


def _grant(filing: Filing, kind: RequestKind, days: int | None, today: date, actor: Actor):
    reason = f"{kind.title} of {filing.filed_on} granted ({kind.citation})"
    try:
        if kind.granted == "device_frequency":
            assert filing.device is not None and filing.decided_on is not None
            device_frequency_set(
                device=filing.device,
                service_frequency_days=days,
                on=filing.decided_on,
                actor=actor,
                reason=reason,
            )
        else:
            term = PERMIT_TERMS[kind.granted]
            filing.permit_modification = _revise_permit(filing, term, days, reason, today, actor)
    except ValidationError as e:
        messages = [m for ms in e.message_dict.values() for m in ms]
        refuse({"frequency_days": messages})


def _revise_permit(filing: Filing, term: str, days, reason: str, today: date, actor: Actor):
    """The permit revised and reissued with the frequency granted (its `term`), in effect as
    soon as the notice the pack requires of a change of the permit allows."""
    permit = establishment_current_permit(establishment=filing.establishment) or filing.permit
    assert permit is not None and filing.decided_on is not None
    notice = modification_notice(permit, filing.decided_on, False)
    effective = notice[2] if notice else filing.decided_on
    return permit_modify(
        permit=permit,
        noticed_on=filing.decided_on,
        effective_on=max(effective, filing.decided_on),
        changes={term: days},
        reason=reason,
        today=today,
        actor=actor,
    )


def filing_deliver(
    *,
    filing: Filing,
    delivered_on: date,
    cost: Decimal | None,
    reasons: str = "",
    today: date | None = None,
    actor: Actor = None,
) -> Filing:
    """The record asked for delivered to the petitioner on `delivered_on`, with what its
    preparation cost (which the agency may recover, where its pack says so)."""
    kind = _kind_of(filing)
    errors: Errors = {}
    if kind.answer != "deliver":
        add_error(errors, "delivered_on", f"A {kind.title.lower()} is not delivered.")
    if cost is not None and cost < 0:
        add_error(errors, "cost", "A cost is not negative.")
    _open(errors, filing, delivered_on, today)
    if "decided_on" in errors:
        errors["delivered_on"] = errors.pop("decided_on")
    refuse(errors)
    with transaction.atomic():
        hold_row(filing)
        before = snapshot(filing)
        filing.outcome, filing.decided_on, filing.decided_by = "delivered", delivered_on, actor
        filing.cost, filing.reasons = cost, reasons.strip()
        filing.full_clean()
        filing.save()
        audit("filing.deliver", filing, actor, before=before)
    return filing


def _kind_of(filing: Filing) -> RequestKind:
    pack = filing.establishment.agency.get_pack()
    kind = request_kind(pack, filing.kind)
    if kind is None:
        refuse({"kind": [f"{pack.name} no longer declares the request {filing.kind!r}."]})
    assert kind is not None
    return kind
