"""The State pack: what a State's spill reporting asks of a spill (its categories, thresholds
and notification and report deadlines, each with its citation), read once from
reporting_packs/ and checked as it is read. A pack that does not hold together fails loudly,
naming the key, never with a default. California's Statewide Sanitary Sewer Systems General
Order is the one bundled.

Each jurisdiction pack names its State pack (`state_reporting`) or none: an agency whose pack
names none owes no State report fogkeeper keeps, and `of_agency` gives None.

The business days are the State's, over the pack's own holiday list, read by the agency packs'
loader (fogkeeper.rules.packs) into the same `LegalCalendar`."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from fogkeeper.rules.calendar import Duration, LegalCalendar
from fogkeeper.rules.errors import PackError
from fogkeeper.rules.packload import _load_holidays, _load_yaml
from fogkeeper.rules.packmodel import STATE_PACKS
from fogkeeper.safeload import Refused

PACKS = STATE_PACKS
DEFAULT = "wq-2022-0103-dwq.yaml"
# The State's online reporting systems whose exports fogkeeper imports (incidents/ciwqs.py).
SYSTEMS = ("CIWQS",)
CATEGORY_NUMBERS = (1, 2, 3, 4)
THRESHOLDS = ("category_2_gallons", "category_3_gallons")
# What a deadline is counted from, as the incident page says it.
COUNTED_FROM = {
    "knowledge": "knowledge of the spill",
    "spill_end": "the spill end date",
    "oes_notification": "the Cal OES notification",
    "month_end": "the end of the month of the spill",
    "certified_due": "the certified report's due date",
}
# The incident fields that record a deadline met.
DONE_FIELDS = (
    "draft_report_on",
    "certified_report_on",
    "amended_report_on",
    "technical_report_on",
    "oes_notified_at",
    "notification_certified_at",
)
UNITS = ("hours", "days", "business_days")


class ReportingPackError(Exception):
    """The reporting pack cannot be used as written; the message names the key."""


@dataclass(frozen=True)
class Category:
    number: int
    title: str
    definition: str
    citation: str


@dataclass(frozen=True)
class Threshold:
    gallons: Decimal
    citation: str


@dataclass(frozen=True)
class Obligation:
    key: str
    what: str
    categories: frozenset[int]
    counted_from: str
    period: Duration
    done: str
    citation: str
    window: bool = False


@dataclass(frozen=True)
class Unconfirmed:
    what: str
    categories: frozenset[int]
    section: str
    note: str


@dataclass(frozen=True)
class ReportingPack:
    order: str
    title: str
    program: str
    source: str
    board: str  # who the reports go to, as pages say it: "the State Water Board"
    system: str  # the online system the reports are made in, one of SYSTEMS, or ""
    sewer_cleaning: str  # the citation of the sewer cleaning schedule it asks for, or ""
    tz: ZoneInfo
    calendar: LegalCalendar
    categories: dict[int, Category]
    thresholds: dict[str, Threshold]
    obligations: tuple[Obligation, ...]
    unconfirmed: tuple[Unconfirmed, ...]

    def obligations_for(self, category: int) -> list[Obligation]:
        return [o for o in self.obligations if category in o.categories]

    def unconfirmed_for(self, category: int) -> list[Unconfirmed]:
        return [u for u in self.unconfirmed if category in u.categories]


@lru_cache(maxsize=4)
def reporting_pack(name: str = DEFAULT) -> ReportingPack:
    """The pack named (a file of reporting_packs/; by default the Order's), read and checked
    once per process."""
    return load(PACKS / name)


def state_pack(name: str | None) -> ReportingPack | None:
    """The State pack a jurisdiction pack names (`state_reporting`, without .yaml), or None
    where it names none."""
    return reporting_pack(f"{name}.yaml") if name else None


def of_agency(agency) -> ReportingPack | None:
    """The State pack of the agency's jurisdiction pack, or None where it names none."""
    return state_pack(agency.get_pack().state_reporting)


def load(path: Path) -> ReportingPack:
    where = path.name
    try:
        data = _load_yaml(path)
    except OSError as e:
        raise ReportingPackError(f"{where}: cannot be read ({e.strerror})") from None
    except Refused as e:
        raise ReportingPackError(f"{where}: {e}") from None
    if not isinstance(data, dict):
        raise ReportingPackError(f"{where}: expected a mapping of keys")
    tz = _text(where, data, "timezone")
    try:
        calendar = _load_holidays(where, data.get("holidays"), tz)
    except PackError as e:
        raise ReportingPackError(str(e)) from None
    categories = _categories(where, data.get("categories"))
    obligations = tuple(
        _obligation(f"{where}: deadlines[{i}]", entry)
        for i, entry in enumerate(_list(where, data, "deadlines"))
    )
    _check_references(where, obligations)
    return ReportingPack(
        order=_text(where, data, "order"),
        title=_text(where, data, "title"),
        program=_text(where, data, "program"),
        source=_text(where, data, "source"),
        board=_text(where, data, "board"),
        system=_system(where, data.get("system")),
        sewer_cleaning=str(data.get("sewer_cleaning") or "").strip(),
        tz=calendar.tz,
        calendar=calendar,
        categories=categories,
        thresholds=_thresholds(where, data.get("thresholds")),
        obligations=obligations,
        unconfirmed=tuple(
            _unconfirmed(f"{where}: unconfirmed[{i}]", entry)
            for i, entry in enumerate(data.get("unconfirmed") or [])
        ),
    )


def _text(where: str, entry: Any, key: str) -> str:
    value = entry.get(key) if isinstance(entry, dict) else None
    if not isinstance(value, str) or not value.strip():
        raise ReportingPackError(f"{where}: {key}: missing or empty")
    return value.strip()


def _system(where: str, value: Any) -> str:
    if value is None:
        return ""
    if value not in SYSTEMS:
        raise ReportingPackError(
            f"{where}: system: {value!r} is no system fogkeeper imports from "
            f"({', '.join(SYSTEMS)}); leave it out"
        )
    return value


def _list(where: str, data: dict, key: str) -> list:
    value = data.get(key)
    if not isinstance(value, list) or not value:
        raise ReportingPackError(f"{where}: {key}: expected a list of entries")
    return value


def _numbers(where: str, entry: dict) -> frozenset[int]:
    value = entry.get("categories")
    if not isinstance(value, list) or not value or any(n not in CATEGORY_NUMBERS for n in value):
        raise ReportingPackError(f"{where}: categories: expected a list of 1, 2, 3 or 4")
    return frozenset(value)


def _categories(where: str, data: Any) -> dict[int, Category]:
    if not isinstance(data, dict) or set(data) != set(CATEGORY_NUMBERS):
        raise ReportingPackError(f"{where}: categories: expected exactly the keys 1, 2, 3 and 4")
    return {
        n: Category(
            number=n,
            title=_text(f"{where}: categories.{n}", entry, "title"),
            definition=_text(f"{where}: categories.{n}", entry, "definition"),
            citation=_text(f"{where}: categories.{n}", entry, "citation"),
        )
        for n, entry in sorted(data.items())
    }


def _thresholds(where: str, data: Any) -> dict[str, Threshold]:
    if not isinstance(data, dict):
        raise ReportingPackError(f"{where}: thresholds: expected a mapping")
    out = {}
    for key in THRESHOLDS:
        here = f"{where}: thresholds.{key}"
        entry: Any = data.get(key)
        try:
            gallons = Decimal(str(entry["value"]))
        except (TypeError, KeyError, InvalidOperation):
            raise ReportingPackError(f"{here}: value: expected a number of gallons") from None
        out[key] = Threshold(gallons=gallons, citation=_text(here, entry, "citation"))
    if out["category_3_gallons"].gallons >= out["category_2_gallons"].gallons:
        raise ReportingPackError(
            f"{where}: thresholds: category_3_gallons must be below category_2_gallons"
        )
    return out


def _obligation(where: str, entry: Any) -> Obligation:
    if not isinstance(entry, dict):
        raise ReportingPackError(f"{where}: expected a mapping")
    counted_from = _text(where, entry, "counted_from")
    if counted_from not in COUNTED_FROM:
        raise ReportingPackError(
            f"{where}: counted_from: {counted_from!r} is not one of {', '.join(COUNTED_FROM)}"
        )
    try:
        period = Duration.parse(_text(where, entry, "period"))
    except ValueError as e:
        raise ReportingPackError(f"{where}: period: {e}") from None
    if period.unit not in UNITS:
        raise ReportingPackError(f"{where}: period: counted in {', '.join(UNITS)} only")
    done = _text(where, entry, "done")
    if done not in DONE_FIELDS:
        raise ReportingPackError(f"{where}: done: {done!r} is not one of {', '.join(DONE_FIELDS)}")
    return Obligation(
        key=_text(where, entry, "key"),
        what=_text(where, entry, "what"),
        categories=_numbers(where, entry),
        counted_from=counted_from,
        period=period,
        done=done,
        citation=_text(where, entry, "citation"),
        window=bool(entry.get("window", False)),
    )


def _check_references(where: str, obligations: tuple[Obligation, ...]) -> None:
    """A deadline counted from the certified report's due date needs that report, for each of
    its categories; no category has the same deadline twice."""
    seen: set[tuple[str, int]] = set()
    for o in obligations:
        for n in o.categories:
            if (o.key, n) in seen:
                raise ReportingPackError(f"{where}: deadlines: {o.key} twice for category {n}")
            seen.add((o.key, n))
    for o in obligations:
        if o.counted_from != "certified_due":
            continue
        for n in o.categories:
            if ("certified_report", n) not in seen:
                raise ReportingPackError(
                    f"{where}: deadlines: {o.key} is counted from the certified report's due "
                    f"date, but category {n} has no certified_report"
                )


def _unconfirmed(where: str, entry: Any) -> Unconfirmed:
    return Unconfirmed(
        what=_text(where, entry, "what"),
        categories=_numbers(where, entry),
        section=_text(where, entry, "section"),
        note=_text(where, entry, "note"),
    )
