"""What an inspector saw of an establishment when the day's route was downloaded, and what has
changed since: the field app's conflict check (offline.py).

`establishment_seen` is the part of the registry an inspection is made against (the place,
its operator, its grease control devices and their design); `version_of` is a short digest
of it, sent with the route and back with each inspection. When the digest the inspection
carries is not the establishment's digest now, `changes` says what differs, in words, for
the inspector to decide on (never to be overwritten silently)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from fogkeeper.registry.models import FoodServiceEstablishment

PLACE = {
    "name": "Name",
    "address": "Address",
    "city": "City",
    "category": "Category",
    "closed_on": "Closed on",
    "operator": "Operator",
}
DEVICE = {
    "kind": "kind",
    "location": "location",
    "installed_on": "installed on",
    "removed_on": "removed on",
    "capacity_gallons": "capacity (gallons)",
    "design_depth_inches": "design depth (inches)",
    "compartments": "compartments",
}


def _plain(value: Any) -> Any:
    return None if value is None or value == "" else str(value)


def establishment_seen(fse: FoodServiceEstablishment) -> dict[str, Any]:
    """The establishment as an inspection is made against it: JSON-able and in a fixed order.
    Reads the current tenure and the devices (prefetch `tenures__operator` and `devices` to
    read many at once)."""
    tenures = [t for t in fse.tenures.all() if t.until is None]
    seen: dict[str, Any] = {f: _plain(getattr(fse, f)) for f in PLACE if f != "operator"}
    seen["operator"] = tenures[0].operator.name if tenures else None
    seen["devices"] = {
        d.code: {field: _plain(getattr(d, field)) for field in DEVICE}
        for d in sorted(fse.devices.all(), key=lambda d: d.code)
    }
    return seen


def well_formed(seen: Any) -> bool:
    """Whether `seen` has the shape establishment_seen gives (whatever its values say): the
    conflict check reads it field by field, and a copy sent back may have been tampered with."""
    if not isinstance(seen, dict) or not isinstance(seen.get("devices", {}), dict):
        return False
    devices = list(seen.get("devices", {}).values())
    if not all(isinstance(d, dict) for d in devices):
        return False
    values = [seen.get(f) for f in PLACE] + [d.get(f) for d in devices for f in DEVICE]
    return all(v is None or isinstance(v, str) for v in values)


def version_of(seen: dict[str, Any]) -> str:
    """A short digest of `seen`: equal digests, equal establishments."""
    text = json.dumps(seen, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def _was_now(before: Any, after: Any) -> str:
    return f"was {before or '(none)'}, now {after or '(none)'}"


def _kind(device: dict[str, Any]) -> str:
    return str(device.get("kind") or "of no kind").replace("_", " ")


def changes(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """What differs from `before` to `after` (two establishment_seen), one sentence each."""
    out = [
        f"{label}: {_was_now(before.get(field), after.get(field))}."
        for field, label in PLACE.items()
        if before.get(field) != after.get(field)
    ]
    old, new = before.get("devices") or {}, after.get("devices") or {}
    for code in sorted(set(old) | set(new)):
        if code not in old:
            out.append(f"Device {code} was added ({_kind(new[code])}).")
        elif code not in new:
            out.append(f"Device {code} is no longer on record.")
        else:
            out += [
                f"Device {code}, {label}: {_was_now(old[code].get(f), new[code].get(f))}."
                for f, label in DEVICE.items()
                if old[code].get(f) != new[code].get(f)
            ]
    return out
