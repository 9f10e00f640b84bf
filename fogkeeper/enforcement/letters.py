"""Enforcement letters: an action rendered as a PDF from its jurisdiction pack's templates.

render_action_letter() renders an `EnforcementAction` (saved, or unsaved for a preview) with
what its ordinance section requires the letter to state, gathered from the action itself:
the violations of its case with their citations, dates and the engine's evidence, the
corrective action and the fine, the hearing, the decision and findings, the appeal routes,
finality and judicial review, the lien warning; which of these a letter carries is
`SECTIONS[action type]`. It is signed by the acting person in their title at the agency.
preview_letter() is the same letter marked "PREVIEW — not sent".

Both pick `letters/<action_type>.html` in the pack folder (else `letters/default.html`), on
the shared layout `letter_layout/base.html` unless the pack has its own, render it with
Django's template engine and convert it with WeasyPrint. Nothing is fetched from the
network: only `data:` URLs and files inside the pack's letters folder can be loaded. The
caller stores the bytes with the action; the stored bytes are the letter as sent.
render_letter() renders from plain values (fields, deadlines) for callers without an action.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date, datetime, timedelta
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any
from urllib.request import url2pathname

from django import template
from django.template import Engine
from weasyprint import HTML
from weasyprint.urls import URLFetcher

from fogkeeper.rules.errors import ParameterNotInForce
from fogkeeper.rules.packs import level_title

register = template.Library()

_ACTION_TYPE = re.compile(r"^[a-z][a-z0-9_]*$")


_PER_ONE = {
    "days": "day",
    "occurrences": "occurrence",
    "gallons": "gallon",
    "violation_days": "violation day",
}


class RemoteFetchRefused(ValueError):
    """A letter template asked for a resource outside its pack's letters folder."""


# Which of the law's substance each kind of letter states (the pack's action types, and the
# app-level hearing). A type not named here gets the generic letter: its fields and deadlines.
SECTIONS: dict[str, tuple[str, ...]] = {
    "notice_of_noncompliance": ("violations", "corrective_action", "fine", "appeal"),
    "manager_decision": ("violations", "hearing_held", "decision", "appeal", "judicial_review"),
    "suspension_notice": ("violations", "reasons", "hearing", "appeal"),
    "revocation_notice": ("violations", "reasons", "hearing", "appeal"),
    "emergency_suspension": ("violations", "reasons", "hearing", "appeal"),
    "emergency_decision": ("violations", "hearing_held", "decision", "appeal", "judicial_review"),
    "administrative_complaint": ("violations", "charges", "hearing", "appeal"),
    "hearing_decision": ("violations", "hearing_held", "decision", "appeal", "finality"),
    "penalty_order": (
        "violations", "hearing_held", "findings", "penalty", "appeal", "finality",
        "judicial_review", "lien",
    ),
    "final_decision": ("violations", "decision", "finality", "judicial_review"),
    "hearing": ("violations", "hearing"),
}  # fmt: skip
GENERIC = ("violations", "fields", "appeal")

HEARING = "hearing"
PREVIEW_MARK = "PREVIEW — not sent"

# The levels an appeal may be routed to, whose titles a letter template may name.
ROUTE_LEVELS = ("inspector", "manager", "hearing_officer", "council", "city_manager")

# The signer's title at the agency: their role in the pack's titles.
_ROLE_TITLES = {"manager": "manager", "inspector": "inspector"}

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


def render_action_letter(action: Any, deadlines: list, signer: Any = None) -> bytes:
    """The PDF letter of `action` (an EnforcementAction, saved or not) with the deadlines the
    engine gives it, signed by `signer` (a user) in their title at the agency."""
    html = action_letter_html(action, deadlines, signer)
    return _pdf(html, _folder(action.establishment.agency.get_pack()))


def preview_letter(action: Any, deadlines: list, signer: Any = None) -> bytes:
    """The letter `render_action_letter` would issue, marked "PREVIEW — not sent" on every
    page; nothing is stored."""
    html = action_letter_html(action, deadlines, signer, preview=True)
    return _pdf(html, _folder(action.establishment.agency.get_pack()))


def action_letter_html(
    action: Any, deadlines: list, signer: Any = None, *, preview: bool = False
) -> str:
    """The letter's HTML before conversion: the action's substance in its template."""
    establishment = action.establishment
    agency = establishment.agency
    pack = agency.get_pack()
    spec = pack.actions.get(action.type)
    fields = action.effective_fields() if action.pk else dict(action.fields or {})
    issued_on = _issued_on(action, spec, fields)
    sections = SECTIONS.get(action.type, GENERIC)
    substance = _substance(action, pack, sections, fields, issued_on)
    substance["signer"] = _signer(signer, agency, pack, action)
    substance["preview"] = PREVIEW_MARK if preview else ""
    return _render(
        agency=agency,
        establishment=establishment,
        action_type=action.type,
        action_code=action.code,
        fields=fields,
        deadlines=list(deadlines),
        issued_on=issued_on,
        extra=substance,
    )


def render_letter(
    *,
    agency: Any,
    establishment: Any,
    action_type: str,
    action_code: str,
    fields: dict,
    deadlines: list[dict],
    issued_on: date,
    facts: str = "",
    signer: str = "",
) -> bytes:
    """The PDF letter for one enforcement action given as plain values, as bytes."""
    html = render_letter_html(
        agency=agency,
        establishment=establishment,
        action_type=action_type,
        action_code=action_code,
        fields=fields,
        deadlines=deadlines,
        issued_on=issued_on,
        facts=facts,
        signer=signer,
    )
    return _pdf(html, _folder(agency.get_pack()))


LAYOUT = Path(__file__).resolve().parent / "letter_layout"


def render_letter_html(
    *,
    agency: Any,
    establishment: Any,
    action_type: str,
    action_code: str,
    fields: dict,
    deadlines: list[dict],
    issued_on: date,
    facts: str = "",
    signer: str = "",
) -> str:
    """The letter's HTML from plain values (for previews and tests)."""
    return _render(
        agency=agency,
        establishment=establishment,
        action_type=action_type,
        action_code=action_code,
        fields=fields,
        deadlines=deadlines,
        issued_on=issued_on,
        extra={
            "facts": facts,
            "signer": {"name": signer} if signer else {},
            "sections": set(SECTIONS.get(action_type, GENERIC)) - {"violations"},
            "hearing": _hearing_dict(
                (fields or {}).get("hearing_on"), "", "", "", agency.get_pack().titles
            ),
            "fine": _fine(agency.get_pack(), action_type, fields or {}, issued_on),
        },
    )


def _folder(pack: Any) -> Path:
    return Path(pack.source) / "letters"


def _render(*, agency, establishment, action_type, action_code, extra, **kw) -> str:
    if not _ACTION_TYPE.match(action_type):
        raise ValueError(f"not an action type: {action_type!r}")
    pack = agency.get_pack()
    engine = Engine(
        dirs=[str(_folder(pack)), str(LAYOUT)],  # a pack may override the shared layout
        autoescape=True,
        builtins=["fogkeeper.enforcement.letters"],
        string_if_invalid="",
    )
    tpl = engine.select_template([f"{action_type}.html", "default.html"])
    context = _context(
        pack=pack,
        agency=agency,
        establishment=establishment,
        action_type=action_type,
        action_code=action_code,
        **kw,
    )
    context.update(extra)
    if extra.get("title"):
        context["action"]["title"] = extra["title"]
    if extra.get("citation") and not context["action"]["citation"]:
        context["action"]["citation"] = extra["citation"]
    return tpl.render(template.Context(context, autoescape=True, use_l10n=False, use_tz=False))


# The action's substance


def _issued_on(action: Any, spec: Any, fields: dict) -> date:
    if action.taken_on:
        return _as_date(action.taken_on)
    return _as_date(fields.get(spec.date_field)) if spec else date.today()


def _as_date(value: Any) -> date:
    if isinstance(value, str):
        value = datetime.fromisoformat(value) if "T" in value else date.fromisoformat(value)
    return value.date() if isinstance(value, datetime) else value


def _substance(action, pack, sections, fields, issued_on) -> dict[str, Any]:
    """What the letter states beyond the action's own fields, each only where its type calls
    for it: violations, the fine, the hearing, the appeal routes, the notice decided."""
    titles = dict(pack.titles)
    out: dict[str, Any] = {"sections": set(sections), "officers": titles}
    if "violations" in sections:
        out["violations"] = _violations(action, pack, issued_on)
    if "fine" in sections:
        out["fine"] = _fine(pack, action.type, fields, issued_on)
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
    out["route_titles"] = {level: level_title(titles, level) for level in ROUTE_LEVELS}
    return out


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
    """The findings of these violations' (rule, subject): the sweep's, else the engine's on
    `on` (only when the sweep has stored none of them)."""
    from fogkeeper.compliance.models import Finding

    keys = {(v.rule, v.subject) for v in violations}
    stored = Finding.objects.filter(
        establishment=establishment, rule__in={r for r, _ in keys}, since__lte=on
    ).order_by("since", "pk")
    out: dict[tuple, list] = {}
    for f in stored:
        if (f.rule, f.subject) in keys:
            out.setdefault((f.rule, f.subject), []).append(f)
    missing = keys - set(out)
    if missing:
        from fogkeeper.compliance.reports import establishment_report

        report = establishment_report(establishment=establishment, as_of=on)
        for f in sorted(report.findings, key=lambda f: f.since):
            if (f.rule, f.subject) in missing:
                out.setdefault((f.rule, f.subject), []).append(f)
    return out


def _violation(v: Any, pack: Any, findings: list) -> dict[str, Any]:
    rule = pack.rules.get(v.rule)
    item = getattr(pack, "checklist", {}).get(v.rule)
    title = rule.title if rule else getattr(item, "question", "") or v.rule
    finding = _the_finding(findings, v.since)
    evidence = dict(getattr(finding, "evidence", None) or {})
    return {
        "code": v.code,
        "rule": v.rule,
        "title": title,
        "subject": v.subject,
        "since": v.since,
        "citation": v.citation,
        "found": getattr(finding, "message", ""),
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


def _fine(pack: Any, action_type: str, fields: dict, on: date) -> dict[str, Any] | None:
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
        start = _as_date(after) + timedelta(days=1) if after else None
        until = fields.get(check.get("until"))
        return {
            "rate": Decimal(str(rate.value)),
            "citation": check.get("citation") or rate.reference,
            "after": _as_date(after) if after else None,
            "start": start,
            "until": _as_date(until) if until else None,
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
    return _hearing_dict(on, place, continued, getattr(held, "code", ""), titles)


def _hearing_dict(on: Any, place: str, continued: str, code: str, titles: Any) -> dict:
    return {
        "code": code,
        "on": _as_date(on) if on else None,
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


def _signer(user: Any, agency: Any, pack: Any, action: Any) -> dict[str, str]:
    """Who signs: the acting person's full name (else username) and the title of their role
    at the agency in the pack's words; "For the <body>" when the action is the Council's or
    the City Manager's."""
    if user is None:
        return {}
    from fogkeeper.web.policy import role

    titles = dict(pack.titles)
    name = user.get_full_name() or user.get_username()
    held = role(user, agency)
    if held in _ROLE_TITLES:
        title = titles.get(_ROLE_TITLES[held], held.title())
    elif held == "clerk":
        separate = titles.get("hearing_body") != titles.get("manager")
        title = titles["hearing_body"] if separate else titles.get("clerk", "Clerk")
    else:
        title = (held or "").replace("_", " ").title()
    level = getattr(action, "level", "") or ""
    behalf = level_title(titles, level) if level in ("council", "city_manager") else ""
    return {"name": name, "title": title, "behalf": behalf}


# Context


def _context(*, pack, agency, establishment, action_type, action_code, **kw) -> dict[str, Any]:
    titles = dict(pack.titles)
    spec = pack.actions.get(action_type)
    routes = spec.appeal_routes() if spec is not None else {}
    tz = pack.calendar.tz
    issued_on = kw["issued_on"]
    deadlines = [_deadline(d, titles, action_type, tz, routes) for d in kw["deadlines"]]
    deadlines.sort(key=lambda d: d["sort"])
    by_name: dict[str, dict] = {}
    for d in deadlines:
        by_name.setdefault(d["name"], d)
        by_name.setdefault(f"{d['name']}_{d['kind']}", d)
    fields = _fields(kw["fields"], spec, tz)
    return {
        "pack": {"id": pack.id, "name": pack.name, "ordinance": pack.ordinance},
        "agency": {
            "name": agency.name,
            "letterhead": getattr(agency, "letterhead", "") or "",
        },
        "titles": titles,
        "establishment": _establishment(establishment),
        "action": {
            "type": action_type,
            "code": action_code,
            "title": spec.title if spec else action_type.replace("_", " ").capitalize(),
            "citation": spec.citation if spec else "",
        },
        "fields": fields,
        "penalty": _penalty(pack, fields, issued_on),
        "law": _law(pack, issued_on),
        "deadlines": deadlines,
        "deadline": by_name,
        # The deadlines the pack marks `appeal_to: <level>` (its appeal routes).
        "appeal_rights": [
            {**d, "to": level_title(titles, routes[d["name"]])}
            for d in deadlines
            if d["name"] in routes
        ],
        "field_rows": _field_rows(fields, spec),
        "issued_on": issued_on,
        "facts": "",
        "signer": {},
    }


def _establishment(fse: Any) -> dict[str, Any]:
    tenure = fse.current_tenure() if hasattr(fse, "current_tenure") else None
    if tenure is None or isinstance(tenure, str):
        operator = tenure
    else:
        operator = getattr(getattr(tenure, "operator", None), "name", None)
    return {
        "name": fse.name,
        "code": fse.code,
        "address": getattr(fse, "address", "") or "",
        "city": getattr(fse, "city", "") or "",
        "zip_code": getattr(fse, "zip_code", "") or "",
        "operator": operator or "",
    }


def _deadline(raw: Any, titles: dict, action_type: str, tz, routes: dict) -> dict[str, Any]:
    get = raw.get if isinstance(raw, Mapping) else lambda k: getattr(raw, k, None)
    when = get("date")
    if isinstance(when, str):
        when = datetime.fromisoformat(when) if "T" in when else date.fromisoformat(when)
    if isinstance(when, datetime) and when.tzinfo is not None:
        when = when.astimezone(tz)
    name, kind = get("name"), get("kind")
    return {
        "action": get("action"),
        "name": name,
        "kind": kind,
        "citation": get("citation") or "",
        "date": when,
        "text": longdate(when),
        "label": _label(name, kind, titles, action_type, routes.get(name)),
        "sort": (when.isoformat(), name, kind),
    }


def _label(name: str, kind: str, titles: dict, action_type: str, to: str | None) -> str:
    t = {k: titles.get(k, k.replace("_", " ").title()) for k in _TITLE_KEYS}
    hears = level_title(titles, to) if to else t["manager"]
    labels = {
        ("appeal", "deadline"): f"Last day to file a written appeal to the {hears}",
        ("council_review_request", "deadline"): (
            f"Last day to request review by the {t['appeal_body']}"
        ),
        ("council_appeal", "deadline"): f"Last day to appeal to the {t['appeal_body']}",
        ("city_manager_appeal", "deadline"): (f"Last day to appeal to the {t['emergency_appeal']}"),
        ("hearing", "earliest"): "Earliest date the hearing may be held",
        ("hearing", "deadline"): (
            "Latest date the hearing may be held"
            if action_type in ("suspension_notice", "revocation_notice")
            else "Hearing to be held no later than"
        ),
        ("decision", "deadline"): "Written decision to be issued no later than",
        ("final", "event"): "Order becomes final",
        ("judicial_review", "deadline"): "Last day to file a petition for writ of mandate",
        ("lien_eligible", "event"): (
            "Unpaid penalty may become a lien on the real property on or after"
        ),
        ("payment", "deadline"): "Payment due no later than",
    }
    fallback = name.replace("_", " ").capitalize()
    if kind == "earliest":
        fallback = f"{fallback}: not before"
    return labels.get((name, kind), fallback)


_TITLE_KEYS = ("manager", "appeal_body", "emergency_appeal", "hearing_body")


def _fields(raw: Mapping | None, spec: Any, tz) -> dict[str, Any]:
    kinds = {n: f.kind for n, f in spec.fields.items()} if spec else {}
    out: dict[str, Any] = {}
    for name, value in (raw or {}).items():
        kind = kinds.get(name)
        if isinstance(value, str) and kind in ("date", "planned_date"):
            value = date.fromisoformat(value)
        elif isinstance(value, str) and kind == "datetime":
            value = datetime.fromisoformat(value)
        if isinstance(value, datetime) and value.tzinfo is not None:
            value = value.astimezone(tz)
        elif kind == "money" and value is not None and not isinstance(value, Decimal):
            value = Decimal(str(value))
        out[name] = value
    return out


def _field_rows(fields: dict, spec: Any) -> list[tuple[str, str]]:
    """The action's fields as a generic letter lists them: label and printed value."""
    kinds = {n: f.kind for n, f in spec.fields.items()} if spec else {}
    rows = []
    for name, value in fields.items():
        if value in (None, "", [], {}) or isinstance(value, list | dict):
            continue
        kind = kinds.get(name)
        if isinstance(value, date):
            text = longdate(value)
        elif kind == "money":
            text = money(value)
        elif isinstance(value, bool):
            text = "yes" if value else "no"
        else:
            text = period(value) if kind != "text" else str(value)
        rows.append((name.replace("_", " ").capitalize(), text))
    return rows


def _law(pack: Any, on: date) -> dict[str, dict[str, Any]]:
    """Parameters in force on the letter's date, as law.<name with dots as _>.value/.reference."""
    out = {}
    for name, param in pack.parameters.items():
        try:
            v = param.value_on(on)
        except ParameterNotInForce:  # not yet in force on that date: templates print nothing
            continue
        out[name.replace(".", "_")] = {"value": v.value, "reference": v.reference}
    return out


def _penalty(pack: Any, fields: dict, on: date) -> dict[str, Any] | None:
    cls = fields.get("class")
    if not cls:
        return None
    name = f"enforcement.penalty_cap.{cls}"
    param = pack.parameters.get(name)
    if param is None:
        return {"class": cls, "description": cls.replace("_", " ")}
    value = param.value_on(on)
    per = value.value["per"]
    return {
        "class": cls,
        "description": (getattr(param, "description", "") or cls.replace("_", " ")).rstrip("."),
        "cap": Decimal(str(value.value["amount"])),
        "per": per,
        "per_one": _PER_ONE.get(per, per),
        "quantity": fields.get(per),
        "reference": value.reference,
    }


# Template filters (builtins of the letters engine)


@register.filter
def longdate(value: Any) -> str:
    """March 6, 2025; a date-time adds the time and zone: March 6, 2025, 2:00 PM PST."""
    if value in (None, ""):
        return ""
    if isinstance(value, str):
        value = datetime.fromisoformat(value) if "T" in value else date.fromisoformat(value)
    text = f"{value:%B} {value.day}, {value.year}"
    if isinstance(value, datetime):
        hour = value.hour % 12 or 12
        text += f", {hour}:{value:%M} {'AM' if value.hour < 12 else 'PM'}"
        if value.tzinfo is not None:
            text += f" {value.tzname()}"
    return text


@register.filter
def period(value: Any) -> str:
    """A pack period as words: "2 business_days" -> "2 business days"."""
    return str(value or "").replace("_", " ")


@register.filter
def money(value: Any) -> str:
    """$1,234.50; whole amounts print without cents: $600."""
    if value in (None, ""):
        return ""
    try:
        amount = Decimal(str(value))
    except InvalidOperation:
        return str(value)
    if amount == amount.to_integral_value():
        return f"${amount:,.0f}"
    return f"${amount:,.2f}"


# PDF


def _pdf(html: str, folder: Path) -> bytes:
    fetcher = LocalFetcher(folder)
    return HTML(string=html, base_url=folder.as_uri() + "/", url_fetcher=fetcher).write_pdf()


class LocalFetcher(URLFetcher):
    """Fetches `data:` URLs and files under the letters folder; refuses everything else."""

    def __init__(self, folder: Path):
        super().__init__(allowed_protocols=("data", "file"))
        self.folder = Path(folder).resolve()

    def fetch(self, url, headers=None):
        scheme = url.split(":", 1)[0].lower()
        if scheme == "file":
            path = Path(url2pathname(url.split("?")[0].removeprefix("file:"))).resolve()
            if not path.is_relative_to(self.folder):
                raise RemoteFetchRefused(f"outside the letters folder: {url}")
        elif scheme != "data":
            raise RemoteFetchRefused(f"letters fetch nothing remote: {url}")
        return super().fetch(url, headers)
