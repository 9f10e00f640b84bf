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


def neutralise(value: Any) -> Any:
    """A text cell a spreadsheet will show as text, not run as a formula: one that starts
    with =, +, -, @ (after any spaces; or their full-width forms), a tab or a carriage return
    gets a leading apostrophe. Numbers and dates are left as they are (a negative amount is a
    number, not a formula)."""
    if isinstance(value, str) and _LIVE.match(value):
        return "'" + value
    return value
