"""pack.yaml: the pack's identity, time zone, holidays, rules, obligations and
vocabulary."""

from __future__ import annotations

import re
from datetime import date
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ..area import area_problems
from ..calendar import WEEKDAYS
from ..checks import obligations as planned
from ..packmodel import NO_STATE_PACK, SEVERITIES, state_pack_names
from ..payment import payment_problems
from .common import (
    HOLIDAY_KEYS,
    PACK_KEYS,
    _date,
    _listed,
    _mapping,
    _Names,
    _Pack,
    _text,
    _unknown_keys,
    placeholder,
)

# pack.yaml


def _check_meta(pk: _Pack, meta: Any) -> None:
    f = "pack.yaml"
    if not isinstance(meta, dict):
        pk.add(f, "", "expected a mapping of id, name, ordinance, effective, ...")
        return
    _unknown_keys(pk, f, "", meta, PACK_KEYS)
    for key, required in PACK_KEYS.items():
        if required and meta.get(key) in (None, "", {}, []):
            pk.add(f, key, "required")
    for key in ("id", "name", "ordinance"):
        if key in meta and meta[key] is not None and not _text(meta[key]):
            pk.add(f, key, f"expected text, not {meta[key]!r}")
    if isinstance(meta.get("id"), str) and not re.fullmatch(r"[a-z0-9][a-z0-9-]*", meta["id"]):
        pk.add(f, "id", f"{meta['id']!r}: lower-case letters, digits and hyphens only")
    if meta.get("effective") is not None and not placeholder(meta["effective"]):
        pk.effective = _date(meta["effective"])
        if pk.effective is None:
            pk.add(f, "effective", f"not a date: {meta['effective']!r}")
    if meta.get("effective_reference") is not None and not _text(meta["effective_reference"]):
        pk.add(f, "effective_reference", "no reference (say where the effective date comes from)")
    tz = meta.get("timezone")
    if tz is not None and not placeholder(tz):
        try:
            ZoneInfo(str(tz))
        except (ZoneInfoNotFoundError, ValueError):
            pk.add(f, "timezone", f"unknown time zone {tz!r} (e.g. America/Los_Angeles)")
    _check_state_reporting(pk, meta.get("state_reporting"))
    for key, title in _mapping(pk, f, "titles", meta.get("titles"), "names to titles").items():
        if not _text(title):
            pk.add(f, f"titles.{key}", f"expected a title, not {title!r}")
    if meta.get("area") is not None and not placeholder(meta["area"]):
        for key, message in area_problems(meta["area"]):
            pk.add(f, f"area.{key}" if key else "area", message)
    if meta.get("billing") is not None and not placeholder(meta["billing"]):
        for key, message in payment_problems(meta["billing"]):
            pk.add(f, f"billing.{key}" if key else "billing", message)
    if "holidays" in meta and meta["holidays"] is not None:
        _check_holidays(pk, meta["holidays"])
    pk.kinds = _check_vocab(pk, "device_kinds", meta.get("device_kinds"))
    pk.categories = _check_vocab(pk, "categories", meta.get("categories"))
    default = meta.get("default_category")
    if default is not None and pk.categories and default not in pk.categories:
        pk.add(f, "default_category", pk.unknown_category(default)[0])
    obligations = _mapping(pk, f, "obligations", meta.get("obligations"), "obligations to titles")
    known = planned()
    for key, title in obligations.items():
        if key not in known:
            pk.add(
                f,
                f"obligations.{key}",
                f"not an obligation the schedule lists ({_listed(known)})",
            )
        if not _text(title):
            pk.add(f, f"obligations.{key}", "expected a title")
    _check_reports(pk, meta.get("reports"))
    rules = _mapping(pk, f, "rules", meta.get("rules"), "rule ids to {citation, severity, title}")
    for rule_id, entry in rules.items():
        here = f"rules.{rule_id}"
        pk.rules.add(str(rule_id))
        if not isinstance(entry, dict):
            pk.add(f, here, "expected {citation, severity?, title?}")
            continue
        _unknown_keys(pk, f, here, entry, ("citation", "severity", "title"))
        pk.cited(f, here, entry)
        if entry.get("severity", "violation") not in SEVERITIES:
            pk.add(
                f,
                f"{here}.severity",
                f"{entry['severity']!r} is not one of {', '.join(SEVERITIES)}",
            )
        if "title" in entry and not _text(entry["title"]):
            pk.add(f, f"{here}.title", "expected a title")


REPORT_KEYS = (
    "title",
    "citation",
    "every_months",
    "days_allowed",
    "reference",
    "monitoring_citation",
)


def _check_reports(pk: _Pack, data: Any) -> None:
    """`reports:` the kinds of report the agency may require: each titled and cited, with the
    months between reports or the days allowed after the requirement where the text sets
    them, and a reference beside such a number. A pack that asks no reports leaves it out."""
    f = "pack.yaml"
    kinds = _mapping(pk, f, "reports", data, "report kinds to {title, citation, ...}")
    for name, entry in kinds.items():
        here = f"reports.{name}"
        if not isinstance(entry, dict):
            pk.add(f, here, "expected {title, citation, every_months?, days_allowed?, reference?}")
            continue
        _unknown_keys(pk, f, here, entry, REPORT_KEYS)
        pk.cited(f, here, entry)
        if not _text(entry.get("title")):
            pk.add(f, f"{here}.title", "expected a title")
        if "monitoring_citation" in entry and not _text(entry["monitoring_citation"]):
            pk.add(f, f"{here}.monitoring_citation", "expected the section, as 10.02.140(C)")
        numbered = False
        for key in ("every_months", "days_allowed"):
            value = entry.get(key)
            if value is None:
                continue
            numbered = True
            if type(value) is not int or value <= 0:
                pk.add(f, f"{here}.{key}", f"{value!r} is not a whole number above 0")
        if numbered:
            pk.cited(f, here, entry, "reference")


def _check_state_reporting(pk: _Pack, value: Any) -> None:
    """The State pack named is one fogkeeper has, or `none`."""
    known = state_pack_names()
    if value is None or value == NO_STATE_PACK or "TODO" in str(value):
        return  # none, or a placeholder the placeholders' check names
    if value not in known:
        pk.add(
            "pack.yaml",
            "state_reporting",
            f"{value!r} is no State pack fogkeeper has: name one of {', '.join(known)}, or "
            f"{NO_STATE_PACK} where the agency owes no State spill reports fogkeeper keeps",
        )


def _check_holidays(pk: _Pack, data: Any) -> None:
    f = "pack.yaml"
    if not isinstance(data, dict):
        pk.add(f, "holidays", "expected {reference, observed, list}")
        return
    _unknown_keys(pk, f, "holidays", data, ("reference", "observed", "list"))
    pk.cited(f, "holidays", data, "reference")
    observed = data.get("observed") or {}
    if not isinstance(observed, dict):
        pk.add(f, "holidays.observed", "expected {saturday: -1, sunday: 1}")
        observed = {}
    _unknown_keys(pk, f, "holidays.observed", observed, ("saturday", "sunday"))
    for day, v in observed.items():
        if not isinstance(v, int) or isinstance(v, bool) or abs(v) > 6:
            pk.add(f, f"holidays.observed.{day}", f"{v!r} is not a shift in days (-1, 0, 1)")
    entries = data.get("list") or []
    if not isinstance(entries, list):
        pk.add(f, "holidays.list", "expected a list of holidays")
        return
    for i, h in enumerate(entries):
        here = f"holidays.list[{i}]"
        if not isinstance(h, dict):
            pk.add(f, here, "expected {name, month, day} or {name, month, weekday, nth}")
            continue
        _unknown_keys(pk, f, here, h, HOLIDAY_KEYS)
        if not _text(h.get("name")):
            pk.add(f, f"{here}.name", "required")
        month = h.get("month")
        if not isinstance(month, int) or isinstance(month, bool) or not 1 <= month <= 12:
            pk.add(f, f"{here}.month", f"{month!r} is not a month (1-12)")
            month = None
        if h.get("day") is not None:
            day = h["day"]
            try:
                if isinstance(day, bool):
                    raise TypeError
                date(2024, month or 1, day)
            except (TypeError, ValueError):
                pk.add(f, f"{here}.day", f"{day!r} is not a day of the month")
            if h.get("weekday") is not None or h.get("nth") is not None:
                pk.add(f, here, "give either day, or weekday and nth, not both")
        else:
            if h.get("weekday") not in _Names(WEEKDAYS):
                pk.add(
                    f,
                    f"{here}.weekday",
                    f"{h.get('weekday')!r} is not one of {', '.join(WEEKDAYS)} (or give day)",
                )
            if h.get("nth") not in (1, 2, 3, 4, 5, -1):
                pk.add(f, f"{here}.nth", f"{h.get('nth')!r} is not 1-5 or -1 (the last)")
        offset = h.get("offset_days", 0)
        if not isinstance(offset, int) or isinstance(offset, bool):
            pk.add(f, f"{here}.offset_days", f"{offset!r} is not a whole number of days")


def _check_vocab(pk: _Pack, key: str, data: Any) -> set[str]:
    f = "pack.yaml"
    if data is None:
        return _Names()
    if not isinstance(data, dict) or not data:
        pk.add(f, key, "expected a mapping of ids to {title, citation}")
        return _Names()
    for name, entry in data.items():
        here = f"{key}.{name}"
        if not isinstance(name, str) or not re.fullmatch(r"[a-z][a-z0-9_]*", name):
            pk.add(f, here, "an id is lower-case letters, digits and underscores")
        if not isinstance(entry, dict):
            pk.add(f, here, "expected {title, citation}")
            continue
        _unknown_keys(pk, f, here, entry, ("title", "citation"))
        if not _text(entry.get("title")):
            pk.add(f, here, "no title")
        pk.cited(f, here, entry)
    return _Names(str(k) for k in data)
