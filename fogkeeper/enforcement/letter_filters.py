"""The template filters of the letters (builtins of their template engine): dates written
out, a pack's periods and money as a letter prints them."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from django import template

register = template.Library()


@register.filter
def longdate(value: Any) -> str:
    """March 6, 2025; a date-time adds the time and zone: March 6, 2025, 2:00 PM PST."""
    if value in (None, ""):
        return ""
    if isinstance(value, str):
        value = datetime.fromisoformat(value) if "T" in value else date.fromisoformat(value)
    text = f"{value:%B} {value.day}, {value.year}"
    if isinstance(value, datetime):
        hour = value.hour % 12 or 12
        text += f", {hour}:{value:%M} {'AM' if value.hour < 12 else 'PM'}"
        if value.tzinfo is not None:
            text += f" {value.tzname()}"
    return text


@register.filter
def period(value: Any) -> str:
    """A pack period as words: "2 business_days" -> "2 business days"."""
    return str(value or "").replace("_", " ")


@register.filter
def money(value: Any) -> str:
    """$1,234.50; whole amounts print without cents: $600."""
    if value in (None, ""):
        return ""
    try:
        amount = Decimal(str(value))
    except InvalidOperation:
        return str(value)
    if amount == amount.to_integral_value():
        return f"${amount:,.0f}"
    return f"${amount:,.2f}"


# PDF
