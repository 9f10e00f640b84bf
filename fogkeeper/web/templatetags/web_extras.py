from html import escape

from django import template
from django.utils.safestring import mark_safe

from ..vocabulary import plain_words

register = template.Library()


register.filter("words", plain_words)  # an identifier as words: 'non_compliant' -> 'non compliant'


@register.simple_tag
def options(choices, selected) -> str:
    """<option>s of a select, `selected` chosen: `choices` are values or (value, label) pairs.
    Done in Python: a city has thousands of sewer segments, one template loop each is slow."""
    out = []
    for choice in choices:
        value, label = choice if isinstance(choice, list | tuple) else (choice, choice)
        mark = " selected" if value == selected else ""
        out.append(f'<option value="{escape(str(value))}"{mark}>{escape(str(label))}</option>')
    return mark_safe("".join(out))


@register.filter
def thousands(value) -> str:
    """A count with its thousands marked: 159704 -> '159,704'."""
    return f"{value:,}" if isinstance(value, int) else str(value)


@register.filter
def closing_reason(value) -> str:
    """Why the manager closed a case, in words: 'opened_in_error' -> 'opened in error'."""
    from fogkeeper.enforcement.services import CLOSING_REASONS

    return CLOSING_REASONS.get(str(value), plain_words(value)).lower()
