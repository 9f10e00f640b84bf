"""What a jurisdiction's permit application asks for: its pack's `application.yaml` names the
fields of `PermitApplication` the form shows, which are required and the section requiring
each, and the document that may stand in for the details (Town 10.02.050(B)).

A pack without the file gets the applicant's name and address, required, and every other
detail asked but optional.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from fogkeeper.rules.application import ALWAYS, DETAILS
from fogkeeper.rules.errors import PackError
from fogkeeper.safeload import Refused, load_yaml

FILE = "application.yaml"


@dataclass(frozen=True, slots=True)
class AskedField:
    name: str
    required: bool
    reference: str
    in_lieu: bool = False  # may be left empty when the in-lieu document is shown


@dataclass(frozen=True, slots=True)
class ApplicationSpec:
    reference: str
    fields: tuple[AskedField, ...]
    in_lieu: AskedField | None = None

    @property
    def names(self) -> list[str]:
        """The fields of the form, in order (the in-lieu document last)."""
        return [f.name for f in self.fields] + ([self.in_lieu.name] if self.in_lieu else [])

    def missing(self, values: dict[str, Any]) -> dict[str, str]:
        """field -> why it may not be left empty, for each required field left empty."""
        shown = self.in_lieu is not None and not _blank(values.get(self.in_lieu.name))
        out = {}
        for f in self.fields:
            if not f.required or not _blank(values.get(f.name)):
                continue
            if f.in_lieu and shown:
                continue
            why = f"Required ({f.reference})"
            if f.in_lieu and self.in_lieu is not None:
                why += (
                    f", unless the {label(self.in_lieu.name)} is given ({self.in_lieu.reference})"
                )
            out[f.name] = why + "."
        return out


def missing_items(application) -> list[str]:
    """The items the ordinance requires that `application` left empty, in words, in the
    order the form asks them."""
    from fogkeeper.audit.services import snapshot

    pack = application.establishment.agency.get_pack()
    return [label(name) for name in application_spec(pack).missing(snapshot(application))]


def label(name: str) -> str:
    from django.db import models

    from .models import PermitApplication

    field = PermitApplication._meta.get_field(name)
    assert isinstance(field, models.Field)  # a field of the application, not a relation's
    return str(field.verbose_name)


def _blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


DEFAULT = ApplicationSpec(
    reference="",
    fields=tuple(
        AskedField(name, name in ALWAYS, "")
        for name in DETAILS
        if name != "building_permit_reference"
    ),
)


def _field(where: str, name: str, entry: Any) -> AskedField:
    if name not in DETAILS:
        raise PackError(f"{where}: {name} is not a field of a permit application")
    if not isinstance(entry, dict):
        raise PackError(f"{where}: {name}: expected {{required, reference}}")
    reference = entry.get("reference")
    if not isinstance(reference, str) or not reference.strip():
        raise PackError(f"{where}: {name}: no reference (every value must cite its section)")
    return AskedField(
        name, bool(entry.get("required", False)), reference, bool(entry.get("in_lieu"))
    )


def load_application_spec(folder: Path | str) -> ApplicationSpec:
    path = Path(folder) / FILE
    if not path.exists():
        return DEFAULT
    where = str(path)
    try:
        data = load_yaml(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as e:
        raise PackError(f"{where}: not YAML: {e}") from None
    except Refused as e:
        raise PackError(f"{where}: {e}") from None
    reference = data.get("reference")
    if not isinstance(reference, str) or not reference.strip():
        raise PackError(f"{where}: no reference")
    fields = tuple(_field(where, n, e) for n, e in (data.get("fields") or {}).items())
    names = {f.name for f in fields}
    for name in ALWAYS:
        if name not in names or not next(f for f in fields if f.name == name).required:
            raise PackError(f"{where}: {name} must be asked and required")
    in_lieu = None
    if data.get("in_lieu"):
        entry = data["in_lieu"]
        named = entry.get("field") if isinstance(entry, dict) else None
        in_lieu = _field(where, str(named), entry)
        if named in names:
            raise PackError(f"{where}: in_lieu: {named} is also a field of the form")
    elif any(f.in_lieu for f in fields):
        raise PackError(f"{where}: fields marked in_lieu but no in_lieu document named")
    return ApplicationSpec(reference, fields, in_lieu)


@cache
def _spec(folder: str) -> ApplicationSpec:
    return load_application_spec(folder)


def application_spec(pack) -> ApplicationSpec:
    """The permit application of `pack` (a loaded rules.packs.Pack)."""
    return _spec(str(pack.source))
