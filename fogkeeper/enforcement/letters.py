"""Enforcement letters: an action rendered as a PDF from its jurisdiction pack's templates.

render_action_letter() renders an `EnforcementAction` (saved, or unsaved for a preview) with
what its ordinance section requires the letter to state, gathered from the action itself:
the violations of its case with their citations, dates and the engine's evidence, the
corrective action and the fine, the hearing, the decision and findings, the appeal routes,
finality and judicial review, the lien warning; which of these a letter carries is
`SECTIONS[action type]`. It is signed by the person who took the action as the officer at
the level the pack gives it (RULES.md 12.6), and its text names that officer as acting.
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
from collections.abc import Callable, Mapping
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any
from urllib.request import url2pathname

from django import template
from django.template import Engine
from weasyprint import HTML
from weasyprint.urls import URLFetcher

from fogkeeper.formats import unit_one, unit_words
from fogkeeper.registry.models import city_line
from fogkeeper.rules.errors import ParameterNotInForce
from fogkeeper.rules.packs import level_title

from . import letter_substance as substance_of
from .letter_filters import longdate, money, period

_ACTION_TYPE = re.compile(r"^[a-z][a-z0-9_]*$")


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
        "violations",
        "hearing_held",
        "findings",
        "penalty",
        "appeal",
        "finality",
        "judicial_review",
        "lien",
    ),
    "final_decision": ("violations", "decision", "finality", "judicial_review"),
    "city_manager_decision": ("violations", "decision", "finality", "judicial_review"),
    "compliance_schedule": ("violations", "milestones", "appeal"),
    "hearing": ("violations", "hearing"),
    "appeal": (),  # only the rejection of a late appeal sends a letter (RULES.md 12.7)
}
GENERIC = ("violations", "fields", "appeal")

PREVIEW_MARK = "PREVIEW — not sent"


def render_action_letter(action: Any, deadlines: list, signer: Any = None) -> bytes:
    """The PDF letter of `action` (an EnforcementAction, saved or not) with the deadlines the
    engine gives it, signed by `signer` (a user) as the officer at the action's level."""
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
    issued_on = substance_of.issued_on(action, spec, fields)
    sections = SECTIONS.get(action.type, GENERIC)
    substance = substance_of.substance(action, pack, sections, fields, issued_on)
    who = substance_of.officer(pack, action.type, action.level)
    substance["signer"] = substance_of.signer(substance_of.user_name(signer), pack, who)
    substance["preview"] = PREVIEW_MARK if preview else ""
    substance["delivery"] = substance_of.delivery(action)
    return _render(
        agency=agency,
        establishment=establishment,
        action_type=action.type,
        action_code=action.code,
        level=action.level,
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
    """The letter's HTML from plain values (for previews and tests), signed by `signer` (a
    name) as the officer at the level the pack gives the action type."""
    pack = agency.get_pack()
    who = substance_of.officer(pack, action_type, _level(pack, action_type, fields or {}))
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
            "signer": substance_of.signer(signer, pack, who),
            "sections": set(SECTIONS.get(action_type, GENERIC)) - {"violations"},
            "hearing": substance_of.hearing_dict(
                (fields or {}).get("hearing_on"), "", "", "", agency.get_pack().titles
            ),
            "fine": substance_of.fine(agency.get_pack(), action_type, fields or {}, issued_on),
        },
    )


def _folder(pack: Any) -> Path:
    return Path(pack.source) / "letters"


def _level(pack: Any, action_type: str, fields: Mapping) -> str:
    """The level the pack gives an action of this type (a penalty order's `issued_by`)."""
    if "issued_by" in fields:
        return str(fields["issued_by"])
    return pack.procedure.get("levels", {}).get(action_type, "")


def _render(*, agency, establishment, action_type, action_code, extra, level=None, **kw) -> str:
    if not _ACTION_TYPE.match(action_type):
        raise ValueError(f"not an action type: {action_type!r}")
    pack = agency.get_pack()
    engine = Engine(
        dirs=[str(_folder(pack)), str(LAYOUT)],  # a pack may override the shared layout
        autoescape=True,
        builtins=["fogkeeper.enforcement.letter_filters"],
        string_if_invalid="",
    )
    tpl = engine.select_template([f"{action_type}.html", "default.html"])
    if level is None:
        level = _level(pack, action_type, kw.get("fields") or {})
    context = _context(
        pack=pack,
        agency=agency,
        establishment=establishment,
        action_type=action_type,
        action_code=action_code,
        officer=substance_of.officer(pack, action_type, level),
        **kw,
    )
    context.update(extra)
    if extra.get("title"):
        context["action"]["title"] = extra["title"]
    if extra.get("citation") and not context["action"]["citation"]:
        context["action"]["citation"] = extra["citation"]
    return tpl.render(template.Context(context, autoescape=True, use_l10n=False, use_tz=False))


# The action's substance


# Context


def _context(
    *, pack, agency, establishment, action_type, action_code, officer, **kw
) -> dict[str, Any]:
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
        "milestones": _milestones(fields, spec),
        "issued_on": issued_on,
        "facts": "",
        # who takes the action, as its text names them ("The Authorized Inspector has…")
        "acting": level_title(titles, officer) if officer else "",
        "signer": substance_of.signer("", pack, officer),
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
        "state": getattr(fse, "state", "") or "",
        "zip_code": getattr(fse, "zip_code", "") or "",
        # the last line of its postal address: "Aurora, OH 44202"
        "city_line": city_line(*(getattr(fse, k, "") or "" for k in ("city", "state", "zip_code"))),
        "operator": operator or "",
    }


def _deadline(raw: Any, titles: dict, action_type: str, tz, routes: dict) -> dict[str, Any]:
    get: Callable[[str], Any] = (
        raw.get if isinstance(raw, Mapping) else lambda k: getattr(raw, k, None)
    )
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
        ("city_manager_presentation", "deadline"): (
            f"The {t['manager']} presents the basis of the decision to the "
            f"{t['emergency_appeal']} no later than"
        ),
        ("city_manager_decision", "deadline"): (
            f"Written decision of the {t['emergency_appeal']} no later than"
        ),
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


def _milestones(fields: dict, spec: Any) -> list[dict[str, Any]]:
    """The milestones of a schedule, soonest first: each one's number, what must be done and
    the day it is due (and was met, once it was)."""
    kinds = {n: f.kind for n, f in spec.fields.items()} if spec else {}
    out = []
    for name, value in fields.items():
        if kinds.get(name) != "milestones" or not isinstance(value, list):
            continue
        for m in value:
            out.append(
                {
                    "id": m.get("id", ""),
                    "what": m.get("what", ""),
                    "due": substance_of.as_date(m["due"]) if m.get("due") else None,
                    "met_on": substance_of.as_date(m["met_on"]) if m.get("met_on") else None,
                }
            )
    return sorted(out, key=lambda m: (m["due"] or date.max, m["id"]))


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
    """The penalty an order imposes, for its letter: its class, the cap in force on the
    letter's date (Pack.penalty_cap) and the quantity it is counted in."""
    cls = fields.get("class")
    if not cls:
        return None
    cap = pack.penalty_cap(cls, on)
    if cap is None:
        return {"class": cls, "description": cls.replace("_", " ")}
    return {
        "class": cls,
        "description": cap.description,
        "cap": cap.amount,
        "per": cap.per,
        "per_one": unit_one(cap.per),
        "per_many": unit_words(cap.per),
        "quantity": fields.get(cap.per),
        "reference": cap.reference,
    }


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
