"""The cells of a CIWQS export read as the Board writes them: timestamps in Oracle, US and ISO
forms (a date no calendar has told apart from a blank), volumes, coordinates, Yes/No, the
address and city, and whether the cause names grease or FOG."""

from __future__ import annotations

import re
from datetime import date, datetime
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from .reporting_pack import reporting_pack

_MONTHS = {
    m: i
    for i, m in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1
    )
}
# re.A: ASCII digits only (\d would take fullwidth digits, which int() and Decimal() read)
_ORACLE = re.compile(r"^(\d{1,2})-([A-Za-z]{3})-(\d{2}|\d{4})(?:\s|$)", re.A)
_US = re.compile(r"^(\d{1,2})[/-](\d{1,2})[/-](\d{4})(?:\s|$)", re.A)
_ISO = re.compile(r"^(\d{4})-(\d{2})-(\d{2})(?:[\sT]|$)", re.A)
_ORACLE_TIME = re.compile(r"^\S+\s+(\d{1,2})\.(\d{2})\.(\d{2})(?:\.\d+)?\s*([AP]M)$", re.I | re.A)
_CLOCK = re.compile(r"^\S+\s+(\d{1,2}):(\d{2})(?::(\d{2}))?$", re.A)
_VOLUME = re.compile(
    r"^(?:approx(?:imately|\.)?|about|est\.?|~)?\s*(\d[\d,]*(?:\.\d*)?|\.\d+)\s*(?:gal(?:lon)?s?\.?)?$",
    re.I | re.A,
)
_SPILL_ID = re.compile(r"^(\d+)\.0+$", re.A)
_DEGREES = re.compile(r"^-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)$")
_FOG = re.compile(r"\bgrease|\bfog\b|\bf\.o\.g\b|\bfats?,? oils?\b", re.I)
_NOT_FOG = re.compile(r"\b(?:not|non)[\s-]+(?:fog|f\.o\.g|grease)\w*", re.I)
_DIRECTIONS = {"n", "s", "e", "w", "ne", "nw", "se", "sw"}
_STREET_TYPES = {
    "st",
    "ave",
    "av",
    "blvd",
    "rd",
    "dr",
    "ln",
    "ct",
    "pl",
    "hwy",
    "pkwy",
    "way",
    "cir",
    "circle",
    "ter",
    "terrace",
    "trl",
    "trail",
    "sq",
    "loop",
    "aly",
    "alley",
    "plz",
    "plaza",
    "cv",
    "pt",
    "row",
    "walk",
    "str",
    "wy",
    "crt",
}
_ORDINALS = {
    "first": "1st",
    "second": "2nd",
    "third": "3rd",
    "fourth": "4th",
    "fifth": "5th",
    "sixth": "6th",
    "seventh": "7th",
    "eighth": "8th",
    "ninth": "9th",
    "tenth": "10th",
    "eleventh": "11th",
    "twelfth": "12th",
}


def yes_no(text: str) -> bool | None:
    """Yes, No; None for a blank or a "Not Applicable - ..." text."""
    word = (text or "").strip().lower()
    return {"yes": True, "y": True, "no": False, "n": False}.get(word)


def moment(text: str) -> datetime | None:
    """A CIWQS timestamp as an aware datetime in the pack's time zone (the export gives local
    time): `15-SEP-07 05.00.00.000000 PM`, `09/15/2007 18:00`; a day without a readable time
    is None (a deadline counted in hours cannot start from a guessed hour)."""
    text = " ".join((text or "").split())
    day = day_of(text)
    if day is None:
        return None
    m = _ORACLE_TIME.match(text)
    if m:
        hour = int(m[1]) % 12 + (12 if m[4].upper() == "PM" else 0)
        minute, second = int(m[2]), int(m[3])
    elif m := _CLOCK.match(text):
        hour, minute, second = int(m[1]), int(m[2]), int(m[3] or 0)
    else:
        return None
    if hour > 23 or minute > 59 or second > 59:
        return None
    return datetime(day.year, day.month, day.day, hour, minute, second, tzinfo=reporting_pack().tz)


def spill_id(row: dict[str, str]) -> str:
    code = (row.get("SPILL_ID") or "").strip()
    m = _SPILL_ID.match(code)
    return (m.group(1) if m else code)[:60]


def day_of(text: str) -> date | None:
    """The day of a CIWQS timestamp: `15-SEP-07 05.00.00.000000 PM`, `09/15/2007 18:00`,
    `11-26-2008 14:00`, `2007-09-15`; None for blanks and anything else."""
    day = day_or_impossible(text)
    return day if isinstance(day, date) else None


IMPOSSIBLE = "impossible"


def day_or_impossible(text: str) -> date | str | None:
    """As day_of, but IMPOSSIBLE for a text written as a date that no calendar has
    (`02/30/2024`, `31-FEB-09`, month 13)."""
    text = (text or "").strip()
    try:
        m = _ORACLE.match(text)
        if m:
            day, month, year = int(m[1]), _MONTHS.get(m[2].lower()), int(m[3])
            if month is None:
                return None
            if year < 100:
                year += 2000 if year < 70 else 1900
            return date(year, month, day)
        m = _US.match(text)
        if m:
            return date(int(m[3]), int(m[1]), int(m[2]))
        m = _ISO.match(text)
        if m:
            return date(int(m[1]), int(m[2]), int(m[3]))
    except ValueError:
        return IMPOSSIBLE
    return None


def date_problem(
    column: str, text: str, day: date | str | None, today: date
) -> tuple[str, str] | None:
    """(reason, detail) when the day read from `column` cannot be: no day of the calendar,
    or after the import's day (the agency's today)."""
    if day == IMPOSSIBLE:
        return "impossible date", f"{column} {text.strip()!r} is no day of the calendar"
    if isinstance(day, date) and day > today:
        return "date in the future", f"{column} {day} is after today, {today}"
    return None


def gallons(text: str) -> Decimal | None:
    m = _VOLUME.match((text or "").strip())
    if not m:
        return None
    try:
        value = Decimal(m[1].replace(",", ""))
    except InvalidOperation:
        return None
    if value >= Decimal("1e11"):
        return None
    return value.quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)


def degrees(text: str, limit: int) -> Decimal | None:
    """A coordinate in decimal degrees (CIWQS spells the latitude column LATTITUDE_...);
    None when blank, unreadable, zero or out of range."""
    text = (text or "").strip()
    if not _DEGREES.match(text):  # not 1e1, not fullwidth digits
        return None
    try:
        value = Decimal(text)
    except InvalidOperation:
        return None
    if not value.is_finite() or value == 0 or abs(value) > limit:
        return None
    return value.quantize(Decimal("0.000001"), rounding=ROUND_HALF_UP)


def address(row: dict[str, str]) -> str:
    """ADDRESS (street number and name, often without the suffix); when it is blank, the
    spill location's name if that reads as a street address."""
    address = " ".join(row["ADDRESS"].split())
    if address:
        return address
    name = " ".join(row.get("SPILL_LOC_NAME", "").split())
    return name if name[:1].isdigit() else ""


def fog_caused(row: dict[str, str]) -> bool:
    text = f"{row['SPILL_CAUSE']} {row.get('SPILL_CAUSE_EXPLAIN', '')}"
    return bool(_FOG.search(_NOT_FOG.sub(" ", text)))


def cause(row: dict[str, str]) -> str:
    cause = " ".join(row["SPILL_CAUSE"].split())
    explain = " ".join(row.get("SPILL_CAUSE_EXPLAIN", "").split())
    text = f"{cause}: {explain}" if cause and explain else cause or explain
    return text if len(text) <= 200 else text[:199] + "…"


def street_key(normalised: str) -> tuple[str, str] | None:
    """House number and street name without direction or street type, for addresses the
    export gives without their suffix ('1061 hallen' and '1061 hallen dr' -> ('1061',
    'hallen')); None when the address does not start with a house number."""
    words = normalised.split()
    if len(words) < 2 or not words[0].isdigit():
        return None
    number, rest = words[0], [_ORDINALS.get(w, w) for w in words[1:]]
    if len(rest) > 1 and rest[0] in _DIRECTIONS:
        rest = rest[1:]
    name: list[str] = []
    for word in rest:
        if name and word in _STREET_TYPES:
            break
        name.append(word)
    while len(name) > 1 and name[-1] in _DIRECTIONS:
        name.pop()
    return (number, " ".join(name)) if name else None


def city(text: str) -> str:
    return " ".join((text or "").lower().split())
