"""Permit documents: the permit itself (`letters/permit.html`) and the notice of a change of
its terms (`letters/permit_modification_notice.html`), rendered from the jurisdiction pack's
templates on the enforcement letters' shared layout and converted to PDF by the same
functions (enforcement.letters), in the pack's words ("Discharge Permit", "FOG Permit")."""

from __future__ import annotations

from typing import Any

from fogkeeper.enforcement.letters import _folder, _pdf, _render
from fogkeeper.rules.errors import ParameterNotInForce

PERMIT_LETTER = "permit"
MODIFICATION_LETTER = "permit_modification_notice"
TERMS = {
    "service_frequency_days": "Grease control device service frequency",
    "yellow_grease_frequency_days": "Waste cooking oil pickup frequency",
    "conditions": "Conditions",
    "discharge_limits": "Discharge limits",
}


def _reference(pack: Any, name: str, on) -> str:
    try:
        return pack.parameters[name].value_on(on).reference
    except (KeyError, ParameterNotInForce):
        return ""


def _signer(user: Any, pack: Any) -> dict[str, str]:
    name = (user.get_full_name() or user.get_username()) if getattr(user, "pk", None) else ""
    return {"name": name, "title": pack.titles.get("manager", "")}


def _limits(limits: dict) -> list[str]:
    return [f"{p.replace('_', ' ')}: {v['max']} {v['unit']}" for p, v in (limits or {}).items()]


def _devices(permit: Any) -> list[dict[str, Any]]:
    pack = permit.agency.get_pack()
    devices = permit.establishment.devices.filter(removed_on__isnull=True).order_by("code")
    return [
        {
            "code": d.code,
            "kind": pack.kind_title(d.kind),
            "capacity": d.capacity_gallons,
            "frequency": d.service_frequency_days,
        }
        for d in devices
    ]


def permit_html(permit: Any, signer: Any = None) -> str:
    """The permit document's HTML: number, holder, establishment, dates, the devices it
    covers, frequencies, limits and conditions."""
    agency = permit.agency
    pack = agency.get_pack()
    title = pack.titles.get("permit", "Permit")
    return _render(
        agency=agency,
        establishment=permit.establishment,
        action_type=PERMIT_LETTER,
        action_code=permit.number,
        fields={},
        deadlines=[],
        issued_on=permit.issued_on,
        extra={
            "title": f"{title} {permit.number}",
            "citation": _reference(pack, "permit.max_term", permit.issued_on),
            "permit": permit,
            "devices": _devices(permit),
            "limits": _limits(permit.discharge_limits),
            "signer": _signer(signer, pack),
        },
    )


def permit_pdf(permit: Any, signer: Any = None) -> bytes:
    return _pdf(permit_html(permit, signer), _folder(permit.agency.get_pack()))


def _change_rows(modification: Any) -> list[dict[str, str]]:
    permit = modification.permit
    rows = []
    for name, new in modification.changes.items():
        old = getattr(permit, name)
        if name == "discharge_limits":
            old, new = "; ".join(_limits(old)) or "—", "; ".join(_limits(new)) or "—"
        elif name.endswith("_frequency_days"):
            old, new = (f"Every {n} days" if n else "" for n in (old, new))
        rows.append({"term": TERMS.get(name, name), "old": old or "—", "new": new or "—"})
    return rows


def modification_notice_html(modification: Any, signer: Any = None) -> str:
    """The written notice of a modification (saved or not): what changes, why, and from when."""
    permit = modification.permit
    agency = permit.agency
    pack = agency.get_pack()
    after_inspection = modification.inspection_id is not None
    name = "permit.modification_notice_inspection_period" if after_inspection else ""
    if not name or name not in pack.parameters:
        name = "permit.modification_notice_period"
    return _render(
        agency=agency,
        establishment=permit.establishment,
        action_type=MODIFICATION_LETTER,
        action_code=permit.number,
        fields={},
        deadlines=[],
        issued_on=modification.noticed_on,
        extra={
            "title": f"Notice of a change to {pack.titles.get('permit', 'permit')} {permit.number}",
            "citation": _reference(pack, name, modification.noticed_on),
            "permit": permit,
            "modification": modification,
            "changes": _change_rows(modification),
            "inspection": modification.inspection,
            "signer": _signer(signer, pack),
        },
    )


def modification_notice_pdf(modification: Any, signer: Any = None) -> bytes:
    html = modification_notice_html(modification, signer)
    return _pdf(html, _folder(modification.permit.agency.get_pack()))
