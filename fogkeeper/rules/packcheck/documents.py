"""application.yaml and letters/: the permit application's fields and a letter for each
action, hearing and permit that sends one."""

from __future__ import annotations

from typing import Any

from .common import _mapping, _Pack, _text, _unknown_keys

# application.yaml and letters/


def _check_application(pk: _Pack, data: Any) -> None:
    """The permit application's fields (read by fogkeeper/permits/requirements.py)."""
    from ..application import ALWAYS, DETAILS

    f = "application.yaml"
    if data is None:
        return
    if not isinstance(data, dict):
        pk.add(f, "", "expected {reference, fields, in_lieu?}")
        return
    _unknown_keys(pk, f, "", data, ("reference", "fields", "in_lieu"))
    if not _text(data.get("reference")):
        pk.add(f, "reference", "no reference (the section that says what the application holds)")
    fields = _mapping(
        pk, f, "fields", data.get("fields"), "application fields to {required, reference}"
    )
    for name, entry in fields.items():
        here = f"fields.{name}"
        if name not in DETAILS or name == "building_permit_reference":
            pk.add(f, here, "not a field of a permit application")
        if not isinstance(entry, dict):
            pk.add(f, here, "expected {required, reference, in_lieu?}")
            continue
        _unknown_keys(pk, f, here, entry, ("required", "reference", "in_lieu"))
        pk.cited(f, here, entry, "reference")
        for key in ("required", "in_lieu"):
            if key in entry and not isinstance(entry[key], bool):
                pk.add(f, f"{here}.{key}", f"{entry[key]!r} is not true or false")
    for name in ALWAYS:
        entry = fields.get(name)
        if not isinstance(entry, dict) or entry.get("required") is not True:
            pk.add(f, f"fields.{name}", "must be asked and required")
    in_lieu = data.get("in_lieu")
    if in_lieu:
        if not isinstance(in_lieu, dict) or in_lieu.get("field") not in DETAILS:
            pk.add(
                f, "in_lieu.field", "expected the application field of the document shown in lieu"
            )
        else:
            if in_lieu["field"] in fields:
                pk.add(f, "in_lieu.field", f"{in_lieu['field']} is also a field of the form")
            pk.cited(f, "in_lieu", in_lieu, "reference")
    elif any(isinstance(e, dict) and e.get("in_lieu") for e in fields.values()):
        pk.add(f, "in_lieu", "fields are marked in_lieu but no in_lieu document is named")


def _check_requests(pk: _Pack, data: Any) -> None:
    """requests.yaml: the requests the operator may file (read by fogkeeper/filings)."""
    from ..requests import FILE, requests_problems

    if data is None:
        return
    for key, message in requests_problems(data):
        pk.add(FILE, key, message)


# Steps the application takes that send a letter without being a pack action (the notice of
# a hearing; the permit itself and the notice of its modification, permits.documents).
LETTER_STEPS = ("hearing", "permit", "permit_modification_notice")


def _check_letters(pk: _Pack, actions: Any) -> None:
    folder = pk.folder / "letters"
    if not folder.is_dir():
        return
    types = set(actions) if isinstance(actions, dict) else set()
    for path in sorted(folder.glob("*.html")):
        stem = path.stem
        if stem.startswith("_") or stem in ("default", "base", *LETTER_STEPS) or stem in types:
            continue
        pk.add(
            f"letters/{path.name}",
            "",
            f"{stem!r} is not an action type of the pack (nor default, base, hearing, "
            "permit, permit_modification_notice or a _partial)",
        )
