"""How values read where people see them, the same on every page, letter, email, report
and spreadsheet: a compliance status, an amount of money, and a spreadsheet cell that
cannot run as a formula."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Any

# a compliance status (ComplianceStatus.status) in words
STATUS_WORDS = {
    "non_compliant": "Not in compliance",
    "compliant": "In compliance",
    "exempt": "Exempt",
    "inactive": "Closed",
}

# a unit a pack counts in (a penalty cap's `per`, a duration's unit): one of it, and many
UNITS = {
    "days": ("day", "days"),
    "business_days": ("business day", "business days"),
    "calendar_days": ("calendar day", "calendar days"),
    "weeks": ("week", "weeks"),
    "hours": ("hour", "hours"),
    "violation_days": ("violation day", "violation days"),
    "occurrences": ("occurrence", "occurrences"),
    "gallons": ("gallon", "gallons"),
    "months": ("month", "months"),
    "years": ("year", "years"),
}

_LIVE = re.compile(r"^[\t\r]|^\s*[=+\-@\uff1d\uff0b\uff0d\uff20]")


def money(value) -> str:
    """An amount of money the way every page shows it: 428 -> "$428.00", with thousands
    separators; a negative amount as "-$12.00"; nothing for nothing."""
    if value is None or value == "":
        return ""
    try:
        amount = Decimal(str(value))
    except InvalidOperation:
        return str(value)
    sign = "-" if amount < 0 else ""
    return f"{sign}${abs(amount):,.2f}"


def cents(value) -> Decimal | None:
    """An amount to the cent, as a spreadsheet's cell holds it whatever the database summed it
    as: 250 -> Decimal("250.00").

    >>> cents(250), cents("12.5"), cents(None)
    (Decimal('250.00'), Decimal('12.50'), None)
    """
    return None if value is None else Decimal(str(value)).quantize(Decimal("0.01"))


def unit_one(unit: str) -> str:
    """One of a pack's unit, in words: what "$1,000.00 a …" is a rate of.

    >>> unit_one("violation_days"), unit_one("gallons"), unit_one("fathoms")
    ('violation day', 'gallon', 'fathoms')
    """
    return UNITS[unit][0] if unit in UNITS else unit.replace("_", " ")


def unit_words(unit: str) -> str:
    """A pack's unit, in words, for a count of it.

    >>> unit_words("business_days"), unit_words("occurrences")
    ('business days', 'occurrences')
    """
    return UNITS[unit][1] if unit in UNITS else unit.replace("_", " ")


def live(text: str) -> bool:
    """Whether a spreadsheet would run a text cell as a formula: it starts with =, +, -, @
    (after any spaces; or their full-width forms), a tab or a carriage return."""
    return _LIVE.match(text) is not None


def _quoted(text: str) -> bool:
    """A neutralised cell: apostrophes before a live one."""
    return text.startswith("'") and live(text.lstrip("'"))


def neutralise(value: Any) -> Any:
    """A text cell a spreadsheet will show as text, not run as a formula: a live one gets a
    leading apostrophe (and so does one that already looks neutralised, so that `restore`
    gives back exactly what was written). Numbers and dates are left as they are (a negative
    amount is a number, not a formula)."""
    if isinstance(value, str) and (live(value) or _quoted(value)):
        return "'" + value
    return value


def restore(text: str) -> str:
    """The text a neutralised cell was written from: its leading apostrophe taken off. The
    inverse of `neutralise` (the onboarding importer reads the agency's own export back)."""
    return text[1:] if _quoted(text) else text


def counted(n: int, noun: str, plural: str = "") -> str:
    """A count with its noun agreeing, thousands marked: (1, "overdue pump-out") -> "1 overdue
    pump-out", (1204, "establishment") -> "1,204 establishments". The plural is the noun with an
    "s" unless given ("batch", "batches"); every page and message counts through this."""
    word = noun if n == 1 else (plural or f"{noun}s")
    return f"{n:,} {word}"


def listed(items: list[str]) -> str:
    """Items as a sentence lists them: "date", "date and FOG depth", "date, FOG depth and
    solids depth"."""
    items = list(items)
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"
