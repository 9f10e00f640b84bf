"""Reading the cells of a spreadsheet an agency brings (pump-out manifests, an onboarding):
dates as YYYY-MM-DD or MM/DD/YYYY, yes/no in the usual spellings, plain decimal numbers.
Each reader returns None (or a reason) for what it cannot read; the caller names the row."""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal, InvalidOperation

_TRUE = {"yes", "y", "true", "t", "1"}
_FALSE = {"no", "n", "false", "f", "0"}
_ISO = re.compile(r"^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})$")
_US = re.compile(r"^([0-9]{1,2})/([0-9]{1,2})/([0-9]{4})$")
_THOUSANDS = re.compile(r"^[0-9]{1,3}(,[0-9]{3})+(\.[0-9]*)?$")
_NUMBER = re.compile(r"^-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)$")


def read_date(text: str) -> date | None:
    m = _ISO.match(text)
    if m:
        year, month, day = (int(g) for g in m.groups())
    else:
        m = _US.match(text)
        if not m:
            return None
        month, day, year = (int(g) for g in m.groups())
    try:
        return date(year, month, day)
    except ValueError:
        return None


def read_yes_no(text: str, default: bool | None) -> bool | None:
    word = text.strip().lower()
    if not word:
        return default
    if word in _TRUE:
        return True
    if word in _FALSE:
        return False
    return None


def read_decimal(text: str, places: int, largest: Decimal) -> tuple[Decimal | None, str]:
    text = text.strip()
    if not text:
        return None, ""
    plain = text.replace(",", "") if _THOUSANDS.match(text) else text
    if not _NUMBER.match(plain):
        hint = " (write it with the digits 0-9, as 1200 or 4.5)" if has_digits(text) else ""
        return None, f"not a number: {text!r}{hint}"
    try:
        value = Decimal(plain)
    except InvalidOperation:
        return None, f"not a number: {text!r}"
    if not value.is_finite():
        return None, f"not a number: {text!r}"
    if value < 0:
        return None, f"must not be negative: {text}"
    if value > largest:
        return None, f"too large: {text} (at most {largest})"
    if value != value.quantize(Decimal(1).scaleb(-places)):
        return None, f"at most {places} decimal place{'s' if places > 1 else ''}: {text}"
    return value, ""


def has_digits(text: str) -> bool:
    return any(c.isdigit() for c in text)
