"""The written demo programs, told from fogkeeper/demo/programs/<pack>.yaml: the sewer
segments, haulers, owners and parcels of the jurisdiction, then its establishments in order,
each made well run by the builder (builder.py `_Builder.fse`) and given trouble by the steps of
its `story`. What each step does is below (`STEPS`); the YAML file's header says how it is
written. The order of the file is the order of the records and of the random draws.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

from .builder import Device, _Builder, _years
from .written import read

_FLOATS = ("capacity", "depth", "manhole", "rate")


def tell(b: _Builder) -> None:
    """Build the program of `b`'s pack from its file."""
    data = read(b.program.pack_id)
    for seg in data["segments"]:
        b.program.segments.append(
            {
                "code": seg["code"],
                "description": seg["description"],
                "prone_to_blockage": seg.get("prone_to_blockage", False),
                "cleaning_frequency_days": seg.get("cleaning_frequency_days"),
            }
        )
    for h in data["haulers"]:
        b.hauler(h["code"], h["name"], licensed=h.get("licensed", True))
    b.licensed_pumpers = list(data["licensed_pumpers"])
    b.oil_hauler = data["oil_hauler"]
    for key, o in data["owners"].items():
        b.owner(key, o["name"], o["mailing_address"])
    named = {
        key: b.parcel(p["apn"], p["address"], p["owner"], p.get("multi_tenant", False))
        for key, p in data["parcels"].items()
    }
    for entry in data["establishments"]:
        if "name" in entry:
            _open(b, entry, named, data["lots"])
        else:  # a step at one listed before (`at`), or in the street
            step = {k: v for k, v in entry.items() if k != "at"}
            _step(b, b.by_name[entry["at"]] if "at" in entry else None, step)


def _date_or_days_ago(b: _Builder, value: int | date | None) -> date | None:
    """A day written as days before as_of (negative: after it), or as a date."""
    return value if value is None or isinstance(value, date) else b.ago(value)


def _lot(b: _Builder, address: str, lots: dict) -> str:
    """A parcel of its own: an APN drawn in the ranges of `lots` (again if taken) and an
    owner drawn from its owners."""

    def apn() -> str:
        return lots["apn"].format(*(b.rng.randint(lo, hi) for lo, hi in lots["draws"]))

    return b.parcel(b.free_apn(apn), address, b.pick(lots["owners"]))


def _device(b: _Builder, spec: dict) -> Device:
    fields: dict[str, Any] = {k: float(v) if k in _FLOATS else v for k, v in spec.items()}
    if "installed" in fields:
        fields["installed"] = _date_or_days_ago(b, fields["installed"])
    return Device(**fields)


def _open(b: _Builder, entry: dict, named: dict[str, str], lots: dict) -> None:
    """A well-run establishment, then its story."""
    kw = {k: v for k, v in entry.items() if k not in ("name", "address", "parcel", "story")}
    at = named[entry["parcel"]] if "parcel" in entry else _lot(b, entry["address"], lots)
    if "devices" in kw:
        kw["devices"] = [_device(b, d) for d in kw["devices"]]
    rec = b.fse(entry["name"], entry["address"], parcel=at, **kw)
    for step in entry.get("story", ()):
        _step(b, rec, step)


def _step(b: _Builder, rec: dict | None, step: dict) -> None:
    kinds = [k for k in step if k in STEPS]
    if len(kinds) != 1:
        raise ValueError(f"a demo story step names one of {', '.join(STEPS)}: {step}")
    STEPS[kinds[0]](b, rec, step)


# -- the steps: each reads its own keys of the step


def _fail(b: _Builder, rec: dict, s: dict) -> None:
    b.fail(rec, s["fail"], cured=s["cured"], note=s.get("note"))


def _inspect(b: _Builder, rec: dict, s: dict) -> None:
    insp = b.inspect(rec, b.ago(s["inspect"]))
    if "refused" in s:
        insp["measurements"] = []
        b.answer(insp, "inspection.access_refused", False, s["refused"])
    for item, note in s.get("not_compliant", {}).items():
        b.answer(insp, item, False, note)


def _set_permit(b: _Builder, rec: dict, s: dict) -> None:
    rec["permit"].update({k: _date_or_days_ago(b, v) for k, v in s["set_permit"].items()})


def _permit_years(b: _Builder, rec: dict, s: dict) -> None:
    permit = rec["permit"]
    permit["expires_on"] = _years(permit["issued_on"], s["permit_years"]) - timedelta(days=1)


def _set_establishment(b: _Builder, rec: dict, s: dict) -> None:
    est = rec["establishment"]
    for key, value in s["set_establishment"].items():
        if key == "changes":
            value = [
                dict(
                    c,
                    date=_date_or_days_ago(b, c["date"]),
                    notified_on=_date_or_days_ago(b, c["notified_on"]),
                )
                for c in value
            ]
        elif value == "opened":
            value = est["opened_on"]
        elif key.endswith("_on"):
            value = _date_or_days_ago(b, value)
        est[key] = value


def _last_measurement(b: _Builder, rec: dict, s: dict) -> None:
    """The first device as the last inspection measured it; depths as parts of its depth."""
    m = rec["inspections"][-1]["measurements"][0]
    depth = rec["devices"][0]["design_depth_inches"]
    found = s["last_measurement"]
    if "fog_of_depth" in found:
        m["fog_inches"] = round(depth * found["fog_of_depth"], 2)
    if "solids_of_depth" in found:
        m["solids_inches"] = round(depth * found["solids_of_depth"], 2)
    if "final_chamber_floating_oil" in found:
        m["final_chamber_floating_oil"] = found["final_chamber_floating_oil"]


def _add_pump_out(b: _Builder, rec: dict, s: dict) -> None:
    """A pump-out of the first device, without depths measured."""
    extra = {k: v for k, v in s.items() if k != "add_pump_out"}
    b.service(rec, rec["devices"][0], b.ago(s["add_pump_out"]), total=None, **extra)


def _edit_pump_out(b: _Builder, rec: dict, s: dict) -> None:
    """The last pump-out on or before a day, or the first on or after it, changed."""
    edit = s["edit_pump_out"]
    if "last_on_or_before" in edit:
        pumped = [x for x in rec["services"] if x["date"] <= b.ago(edit["last_on_or_before"])][-1]
    else:
        pumped = [x for x in rec["services"] if x["date"] >= b.ago(edit["first_on_or_after"])][0]
    if "times" in edit:  # fog and solids found that much deeper
        for key in ("fog_inches", "solids_inches"):
            pumped[key] = round(pumped[key] * edit["times"], 2)
    pumped.update(edit.get("set", {}))


def _pumped_by(b: _Builder, rec: dict, s: dict) -> None:
    """Every pump-out since a day by one hauler (and, if `before` says, those before by
    another)."""
    since = b.ago(s["since"])
    for x in rec["services"]:
        if x["date"] >= since:
            x["hauler"] = s["pumped_by"]
        elif "before" in s:
            x["hauler"] = s["before"]


def _no_waste_oil_pickup_since(b: _Builder, rec: dict, s: dict) -> None:
    since = b.ago(s["no_waste_oil_pickup_since"])
    rec["yellow_grease_pickups"] = [p for p in rec["yellow_grease_pickups"] if p["date"] < since]


def _new_hire(b: _Builder, rec: dict, s: dict) -> None:
    """A cook hired on a day and not trained since."""
    rec["employees"].append(
        {
            "id": f"E-{len(rec['employees']) + 1}",
            "name": b.person(),
            "hired_on": b.ago(s["new_hire"]),
            "left_on": None,
            "kitchen_duties": True,
            "contractor": False,
        }
    )


def _unsigned(b: _Builder, rec: dict, s: dict) -> None:
    b.unsigned(rec)


def _incident(b: _Builder, rec: dict | None, s: dict) -> None:
    fields: dict[str, Any] = {}
    for key, value in s.items():
        if key == "incident":
            continue
        if key in ("written_report_on", "clearance_inspection_on"):
            value = _date_or_days_ago(b, value)
        elif key == "gallons":
            value = float(value)
        fields["_address" if key == "address" else key] = value
    b.incident(rec, s["incident"], **fields)


def _required_report(b: _Builder, rec: dict, s: dict) -> None:
    """A report the manager required (`kind`, one of the pack's), `required` days ago and
    due `required_report` days ago, not submitted: overdue (issue 42)."""
    reports = rec.setdefault("reports", [])
    reports.append(
        {
            "id": f"RPT-{len(reports) + 1}",
            "kind": s["kind"],
            "due_on": b.ago(s["required_report"]),
            "_required_on": b.ago(s["required"]),
        }
    )


def _limit(b: _Builder, rec: dict, s: dict) -> None:
    b.limit(rec, s["limit"], float(s["at_most"]))


def _sample(b: _Builder, rec: dict, s: dict) -> None:
    b.sample(rec, s["sample"], s["value"])


STEPS: dict[str, Callable[..., None]] = {  # a step of no establishment is given None
    "fail": _fail,
    "inspect": _inspect,
    "set_permit": _set_permit,
    "permit_years": _permit_years,
    "set_establishment": _set_establishment,
    "last_measurement": _last_measurement,
    "add_pump_out": _add_pump_out,
    "edit_pump_out": _edit_pump_out,
    "pumped_by": _pumped_by,
    "no_waste_oil_pickup_since": _no_waste_oil_pickup_since,
    "new_hire": _new_hire,
    "unsigned": _unsigned,
    "incident": _incident,
    "required_report": _required_report,
    "limit": _limit,
    "sample": _sample,
}
