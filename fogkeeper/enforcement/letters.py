"""Enforcement letters: an action rendered as a PDF from its jurisdiction pack's templates.

render_letter() picks `letters/<action_type>.html` in the pack folder (else
`letters/default.html`), on the shared layout `letter_layout/base.html` unless the pack
has its own, renders it with Django's template engine and converts it with
WeasyPrint. Nothing is fetched from the network: only `data:` URLs and files inside the
pack's letters folder can be loaded. The caller stores the bytes with the action; the
stored bytes are the letter as sent.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any
from urllib.request import url2pathname

from django import template
from django.template import Engine
from weasyprint import HTML
from weasyprint.urls import URLFetcher

from fogkeeper.rules.errors import ParameterNotInForce

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
    """The PDF letter for one enforcement action, as bytes."""
    if not _ACTION_TYPE.match(action_type):
        raise ValueError(f"not an action type: {action_type!r}")
    pack = agency.get_pack()
    folder = Path(pack.source) / "letters"
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
    return _pdf(html, folder)


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
    """The letter's HTML before conversion (for previews and tests)."""
    if not _ACTION_TYPE.match(action_type):
        raise ValueError(f"not an action type: {action_type!r}")
    pack = agency.get_pack()
    folder = Path(pack.source) / "letters"
    engine = Engine(
        dirs=[str(folder), str(LAYOUT)],  # a pack may override the shared layout
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
        fields=fields,
        deadlines=deadlines,
        issued_on=issued_on,
        facts=facts,
        signer=signer,
    )
    return tpl.render(template.Context(context, autoescape=True, use_l10n=False, use_tz=False))


# Context


def _context(*, pack, agency, establishment, action_type, action_code, **kw) -> dict[str, Any]:
    titles = dict(pack.titles)
    spec = pack.actions.get(action_type)
    routes = spec.appeal_routes() if spec is not None else {}
    tz = pack.calendar.tz
    issued_on = kw["issued_on"]
    deadlines = [_deadline(d, titles, action_type, tz) for d in kw["deadlines"]]
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
        "appeal_rights": [d for d in deadlines if d["name"] in routes],
        "issued_on": issued_on,
        "facts": kw["facts"],
        "signer": kw["signer"],
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


def _deadline(raw: Any, titles: dict, action_type: str, tz) -> dict[str, Any]:
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
        "label": _label(name, kind, titles, action_type),
        "sort": (when.isoformat(), name, kind),
    }


def _label(name: str, kind: str, titles: dict, action_type: str) -> str:
    t = {k: titles.get(k, k.replace("_", " ").title()) for k in _TITLE_KEYS}
    labels = {
        ("appeal", "deadline"): f"Last day to file a written appeal with the {t['manager']}",
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
