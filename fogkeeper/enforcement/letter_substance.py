"""What the letter of an enforcement action says beyond its fields: the violations with
their citations and the engine's findings, the fine, the hearing, and who signs it."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any

from fogkeeper.rules.errors import ParameterNotInForce
from fogkeeper.rules.packs import level_title
from fogkeeper.upcalls import findings_of

from .letter_filters import longdate

HEARING = "hearing"
APPEAL = "appeal"

# The levels an appeal may be routed to, whose titles a letter template may name.
ROUTE_LEVELS = ("inspector", "manager", "hearing_officer", "council", "city_manager")

# The levels that are bodies: their orders are signed for them by their clerk.
BODIES = ("council",)

# What a finding's evidence names, as a letter labels it.
_EVIDENCE = {
    "reading": "Reading",
    "inspection": "Inspection",
    "sample": "Sample",
    "parameter": "Parameter",
    "value": "Value found",
    "limit": "Limit",
    "unit": "Unit",
    "service": "Service",
    "hauler": "Hauler",
    "last_full_service": "Last full pump-out",
    "training": "Training",
    "kind": "Kind",
    "gallons": "Gallons",
    "incidents": "Incidents",
    "change": "Change",
    "date": "Date",
}


def issued_on(action: Any, spec: Any, fields: dict) -> date:
    if action.taken_on:
        return as_date(action.taken_on)
    return as_date(fields.get(spec.date_field)) if spec else date.today()


def as_date(value: Any) -> date:
    if isinstance(value, str):
        value = datetime.fromisoformat(value) if "T" in value else date.fromisoformat(value)
    return value.date() if isinstance(value, datetime) else value


def substance(action, pack, sections, fields, issued_on) -> dict[str, Any]:
    """What the letter states beyond the action's own fields, each only where its type calls
    for it: violations, the fine, the hearing, the appeal routes, the notice decided."""
    titles = dict(pack.titles)
    out: dict[str, Any] = {"sections": set(sections), "officers": titles}
    if "violations" in sections:
        out["violations"] = _violations(action, pack, issued_on)
    if "fine" in sections:
        out["fine"] = fine(pack, action.type, fields, issued_on)
    if "hearing" in sections or "hearing_held" in sections:
        out["hearing"] = _hearing(action, pack, fields)
    if action.type == HEARING:
        notice = action.refers_to
        spec = pack.actions.get(notice.type) if notice is not None else None
        out["notice"] = {
            "code": getattr(notice, "code", ""),
            "type": getattr(notice, "type", ""),
            "title": spec.title if spec else "",
            "citation": spec.citation if spec else action.cites,
        }
        out["title"] = "Notice of hearing"
        out["citation"] = action.cites
    if action.type == APPEAL and fields.get("rejected"):
        out.update(_late_appeal(action, pack, fields, titles))
    out["route_titles"] = {level: level_title(titles, level) for level in ROUTE_LEVELS}
    return out


def _late_appeal(action: Any, pack: Any, fields: dict, titles: Any) -> dict[str, Any]:
    """An appeal received after its last day: what was appealed, when it was filed, the
    last day and its section (RULES.md 12.7)."""
    appealed = action.refers_to
    spec = pack.actions.get(appealed.type) if appealed is not None else None
    return {
        "title": "Notice of an appeal rejected as late",
        "citation": action.cites,
        "late": {
            "appealed": f"{spec.title if spec else 'action'} {getattr(appealed, 'code', '')}",
            "to": level_title(titles, action.level),
            "filed_on": as_date(fields["filed_on"]),
            "last_day": as_date(fields["last_day"]),
            "appellant": fields.get("appellant", ""),
        },
    }


def _violations(action: Any, pack: Any, on: date) -> list[dict[str, Any]]:
    """The violations the action is about (the one it names, else all of its case's), each
    with its citation, date and the engine's finding for it: what was found, on which
    device, reading, sample or checklist question."""
    if action.violation_id:
        rows = [action.violation]
    elif action.case_id:
        rows = list(action.case.violations.order_by("since", "code"))
    else:
        rows = []
    if not rows:
        return []
    found = _findings(action.establishment, rows, on)
    return [_violation(v, pack, found.get((v.rule, v.subject), [])) for v in rows]


def _findings(establishment: Any, violations: list, on: date) -> dict[tuple, list]:
    """The findings of these violations' (rule, subject), from compliance (fogkeeper.upcalls)."""
    return findings_of(establishment, {(v.rule, v.subject) for v in violations}, on)


def _violation(v: Any, pack: Any, findings: list) -> dict[str, Any]:
    """A rule's violation is named by the rule's title and says the engine's finding; a
    checklist item's is named by the pack's words of what was found (RULES.md 12.10), never
    the inspector's question, and says no more: the engine's message is those words with the
    inspection's date, which the Since column and the evidence already give."""
    rule = pack.rules.get(v.rule)
    item = None if rule else getattr(pack, "checklist", {}).get(v.rule)
    title = rule.title if rule else getattr(item, "finding", "") or v.rule
    finding = _the_finding(findings, v.since)
    evidence = dict(getattr(finding, "evidence", None) or {})
    return {
        "code": v.code,
        "rule": v.rule,
        "title": title,
        "subject": v.subject,
        "since": v.since,
        "citation": v.citation,
        "found": "" if item else getattr(finding, "message", ""),
        "due": getattr(finding, "due", None),
        "evidence": [
            (label, _evidence_text(evidence[key]))
            for key, label in _EVIDENCE.items()
            if evidence.get(key) not in (None, "", [])
        ],
    }


def _the_finding(findings: list, since: date) -> Any:
    """The finding the violation was added from (same `since`), else the latest before."""
    for f in findings:
        if f.since == since:
            return f
    earlier = [f for f in findings if f.since <= since]
    return (earlier or findings or [None])[-1]


def _evidence_text(value: Any) -> str:
    if isinstance(value, list | tuple):
        return ", ".join(str(x) for x in value)
    if isinstance(value, str) and re.match(r"^\d{4}-\d{2}-\d{2}$", value):
        return longdate(value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def fine(pack: Any, action_type: str, fields: dict, on: date) -> dict[str, Any] | None:
    """The fine a pack's check accrues on the action (`rate`, from the day after its `after`
    field until its `until` field): SC's $600 a day after the correction date."""
    spec = pack.actions.get(action_type)
    for check in (spec.checks if spec else {}).values():
        if not isinstance(check, dict) or "rate" not in check:
            continue
        try:
            rate = pack.parameters[check["rate"]].value_on(on)
        except (KeyError, ParameterNotInForce):
            return None
        after = fields.get(check.get("after"))
        start = as_date(after) + timedelta(days=1) if after else None
        until = fields.get(check.get("until"))
        return {
            "rate": Decimal(str(rate.value)),
            "citation": check.get("citation") or rate.reference,
            "after": as_date(after) if after else None,
            "start": start,
            "until": as_date(until) if until else None,
        }
    return None


def _hearing(action: Any, pack: Any, fields: dict) -> dict[str, Any]:
    """The hearing the letter sets or reports: the hearing action itself, the last one set
    on a saved notice, the hearing a decision refers to, else the notice's `hearing_on`."""
    titles = pack.titles
    held = _hearing_action(action)
    if held is not None:
        own = held.fields or {}
        on, place = own.get("hearing_on"), own.get("place") or ""
        continued = own.get("continued_from") or ""
    else:
        on, place, continued = fields.get("hearing_on"), fields.get("hearing_place") or "", ""
    return hearing_dict(on, place, continued, getattr(held, "code", ""), titles)


def hearing_dict(on: Any, place: str, continued: str, code: str, titles: Any) -> dict:
    return {
        "code": code,
        "on": as_date(on) if on else None,
        "text": longdate(on) if on else "",
        "place": place,
        "continued_from": continued,
        "body": titles.get("hearing_body", ""),
    }


def _hearing_action(action: Any) -> Any:
    if action.type == HEARING:
        return action
    refers = action.refers_to if action.refers_to_id else None
    if refers is not None and refers.type == HEARING:
        return refers
    if action.pk is None:
        return None
    from .models import EnforcementAction

    return (
        EnforcementAction.objects.filter(type=HEARING, refers_to=action)
        .order_by("-taken_on", "-pk")
        .first()
    )


def delivery(action: Any) -> dict[str, str]:
    """How the letter goes out, as it states above the address: by certified mail with the
    article's number (RULES.md 12.6), or by personal delivery."""
    if action.delivery == "mail":
        return {"by": "certified mail", "number": action.certified_mail_number}
    if action.delivery == "personal":
        return {"by": "personal delivery", "number": ""}
    return {}


def officer(pack: Any, action_type: str, level: str) -> str:
    """The officer who takes an action and signs its letter: the one at the level the pack
    gives the action (a penalty order's `issued_by`), unless its procedure names another."""
    return pack.signing_officer(action_type, level or "")


def signer(name: str, pack: Any, who: str) -> dict[str, str]:
    """The signature of a letter (RULES.md 12.6): the name of the person who took the action
    over the title of the officer `who` acts (the Authorized Inspector, the Utilities
    Manager, the hearing officer); a body's order (the Council's) is signed by its clerk "For
    the City Council". Without an officer, the name alone (the template gives the title)."""
    if not who:
        return {"name": name} if name else {}
    if who in BODIES:
        body = pack.level_title(who)
        clerk = pack.titles.get("council_clerk") or f"Clerk of the {body}"
        return {"name": name, "title": clerk, "behalf": body}
    return {"name": name, "title": pack.level_title(who), "behalf": ""}


def user_name(user: Any) -> str:
    """How a person signs: their full name, else their username."""
    if user is None:
        return ""
    return user.get_full_name() or user.get_username()
